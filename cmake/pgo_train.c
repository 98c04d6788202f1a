/*
 * The training run of the parser's profile-guided build (cmake/pgo.cmake): parse every file of a
 * list with the instrumented tree-sitter runtime and grammar, as the static gate does (one parser
 * per check, every tree released). Its counters are the profile; its output is a count.
 *
 * usage: sg_pgo_train LIST   (LIST: one path per line)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_python(void);

static char *train__read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
            cap *= 2;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s LIST\n", argv[0]);
        return 2;
    }
    FILE *list = fopen(argv[1], "r");
    if (!list) {
        perror(argv[1]);
        return 2;
    }
    char line[4096];
    size_t files = 0, bytes = 0;
    while (fgets(line, sizeof line, list)) {
        line[strcspn(line, "\n")] = 0;
        size_t len;
        char *src = *line ? train__read(line, &len) : NULL;
        if (!src)
            continue;
        TSParser *p = ts_parser_new();
        if (ts_parser_set_language(p, tree_sitter_python())) {
            TSTree *t = ts_parser_parse_string(p, NULL, src, (uint32_t)len);
            ts_tree_delete(t);
            files++;
            bytes += len;
        }
        ts_parser_delete(p);
        free(src);
    }
    fclose(list);
    if (!files) {
        fprintf(stderr, "%s: no file of %s could be parsed: no profile\n", argv[0], argv[1]);
        return 1;
    }
    printf("parser profile: %zu files, %zu bytes\n", files, bytes);
    return 0;
}
