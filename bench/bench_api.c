/*
 * Latency of one static check of a ~200-byte snippet through the C API (checker reused, as the
 * codegen service would), and of the same through a fresh checker each time.
 * Prints the median and p99 in microseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "snipgate/snipgate.h"

static const char bench__snippet[] =
    "import os\n"
    "from typing import List\n"
    "\n"
    "def top_k(xs: List[int], k: int) -> List[int]:\n"
    "    \"\"\"Return the k largest values, largest first.\"\"\"\n"
    "    if k <= 0:\n"
    "        return []\n"
    "    return sorted(xs, reverse=True)[:k]\n";

static double bench__now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int bench__cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    if (n < 10)
        n = 10;
    sg_rules *rules;
    sg_checker *checker;
    if (sg_rules_new_default(&rules) || sg_checker_new(rules, NULL, &checker))
        return 3;
    double *t = malloc((size_t)n * sizeof *t);
    if (!t)
        return 3;
    size_t len = strlen(bench__snippet);
    for (int i = 0; i < n; i++) {
        double t0 = bench__now_us();
        sg_report *r = NULL;
        if (sg_checker_check(checker, "snippet.py", bench__snippet, len, &r, NULL) || sg_report_blocked(r))
            return 3;
        sg_report_free(r);
        t[i] = bench__now_us() - t0;
    }
    qsort(t, (size_t)n, sizeof *t, bench__cmp);
    printf("api_check_us median %.2f p99 %.2f bytes %zu runs %d\n", t[n / 2], t[n * 99 / 100], len, n);
    free(t);
    sg_checker_free(checker);
    sg_rules_free(rules);
    return 0;
}
