/*
 * Replays a fuzz target's corpus without libFuzzer (any compiler): every file of every directory
 * or file argument goes through LLVMFuzzerTestOneInput once. CTest runs it for each target, so a
 * crash found by fuzzing, once added to fuzz/corpus/<target>/, stays a regression test. Under
 * ASan+UBSan (scripts/test.sh's second build) a memory error aborts the run.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay__file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    for (size_t n; buf && (n = fread(buf + len, 1, cap - len, f)) > 0;) {
        len += n;
        if (len == cap) {
            unsigned char *nb = cap < (64u << 20) ? realloc(buf, cap *= 2) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "%s: too large or out of memory\n", path);
        return -1;
    }
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int n = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) < 0) {
            perror(argv[i]);
            return 2;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad += replay__file(argv[i]) < 0;
            n++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        for (struct dirent *e; d && (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            bad += replay__file(path) < 0;
            n++;
        }
        if (d)
            closedir(d);
    }
    printf("%d passed, %d failed\n", n - bad, bad);
    return bad || n == 0 ? 1 : 0;
}
