/*
 * The floor for the static gate: tree-sitter-python parse time alone over a list of files
 * (one path per line on stdin), with N threads, parsed as the gate parses them (the same compiled
 * runtime and grammar, the same allocator). Prints "bytes seconds files".
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tree_sitter/api.h>

#include "base/util.h"
#include "parsers/tsarena.h"

const TSLanguage *tree_sitter_python(void);

typedef struct {
    char **paths;
    char **bufs;
    size_t *lens;
    size_t n, next;
    pthread_mutex_t lock;
} bench__work;

/* Each file is parsed as sg_checker_check parses a record: in an arena window, with a parser of
 * the window's own, both dropped with the arena (parsers/tsarena.h); without an arena, with one
 * parser and every tree deleted. */
static void *bench__worker(void *arg)
{
    bench__work *w = arg;
    TSParser *own = ts_parser_new();
    ts_parser_set_language(own, tree_sitter_python());
    for (;;) {
        pthread_mutex_lock(&w->lock);
        size_t i = w->next++;
        pthread_mutex_unlock(&w->lock);
        if (i >= w->n)
            break;
        bool arena = sg_tsarena_begin();
        TSParser *p = own;
        if (arena) {
            p = ts_parser_new();
            ts_parser_set_language(p, tree_sitter_python());
        }
        TSTree *t = ts_parser_parse_string(p, NULL, w->bufs[i], (uint32_t)w->lens[i]);
        if (!arena || !sg_tsarena_clean()) {
            ts_tree_delete(t);
            if (p != own)
                ts_parser_delete(p);
        }
        sg_tsarena_end(arena);
    }
    ts_parser_delete(own);
    return NULL;
}

static double bench__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 1;
    if (threads < 1 || threads > 64)
        threads = 1;
    bench__work w = {0};
    size_t cap = 0;
    char line[4096];
    size_t total = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (!*line)
            continue;
        char *buf;
        size_t len;
        if (sg_read_input(line, 1u << 30, &buf, &len, NULL) != SG_OK)
            continue;
        if (w.n == cap) {
            cap = cap ? cap * 2 : 256;
            w.bufs = realloc(w.bufs, cap * sizeof *w.bufs);
            w.lens = realloc(w.lens, cap * sizeof *w.lens);
            if (!w.bufs || !w.lens)
                return 3;
        }
        w.bufs[w.n] = buf;
        w.lens[w.n] = len;
        w.n++;
        total += len;
    }
    /* Reading is not parsing: files are in memory before the clock starts. */
    pthread_mutex_init(&w.lock, NULL);
    double t0 = bench__now();
    pthread_t tids[64];
    for (int i = 0; i < threads; i++)
        pthread_create(&tids[i], NULL, bench__worker, &w);
    for (int i = 0; i < threads; i++)
        pthread_join(tids[i], NULL);
    double dt = bench__now() - t0;
    printf("%zu %.6f %zu\n", total, dt, w.n);
    for (size_t i = 0; i < w.n; i++)
        free(w.bufs[i]);
    free(w.bufs);
    free(w.lens);
    return 0;
}
