/*
 * An example client of the installed library: check a Python snippet with the default rules and
 * print each finding, then run it in the sandbox if the static gate let it through.
 *
 *   cc check_snippet.c $(pkg-config --cflags --libs snipgate) -o check_snippet
 *   ./check_snippet FILE.py        exit 0 pass, 1 blocked, 2 bad input, 3 error
 */
#include <stdio.h>
#include <stdlib.h>

#include <snipgate/snipgate.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.py\n", argv[0]);
        return 2;
    }
    printf("snipgate %s (compiled against %s)\n", sg_version(), SNIPGATE_VERSION);
    sg_diag diag;
    sg_diag_init(&diag);
    char *src = NULL;
    size_t len = 0;
    sg_status st = sg_read_input(argv[1], 8u << 20, &src, &len, &diag);
    if (st != SG_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], diag.message[0] ? diag.message : sg_strerror(st));
        return 2;
    }
    int rc = 3;
    sg_rules *rules = NULL;
    sg_checker *checker = NULL;
    sg_report *report = NULL;
    if (sg_rules_new_default(&rules) != SG_OK || sg_checker_new(rules, NULL, &checker) != SG_OK ||
        sg_checker_check(checker, argv[1], src, len, &report, &diag) != SG_OK) {
        fprintf(stderr, "check failed: %s\n", diag.message);
        goto out;
    }
    for (size_t i = 0; i < sg_report_count(report); i++) {
        const sg_finding *f = sg_report_finding(report, i);
        printf("%s:%ld:%ld: %s %s\n", argv[1], f->line, f->column, f->rule_id, f->message);
    }
    if (sg_report_blocked(report)) {
        printf("blocked\n");
        rc = 1;
        goto out;
    }
    /* The static gate passed: run it in the sandbox and report the outcome. */
    sg_sandbox *sb = NULL;
    sg_worker *w = NULL;
    sg_outcome *imp = NULL, *fin = NULL;
    if (sg_sandbox_new(NULL, &sb, &diag) == SG_OK &&
        sg_worker_new(sb, src, len, NULL, NULL, &w, &imp, &diag) == SG_OK &&
        sg_worker_finish(w, &fin, &diag) == SG_OK) {
        const sg_outcome_info *o = sg_outcome_info_get(fin);
        printf("sandbox: %s\n", sg_outcome_kind_name(o->kind));
        rc = o->kind == SG_OUTCOME_OK ? 0 : 1;
    } else {
        printf("sandbox unavailable: %s\n", diag.message);
        rc = 3;
    }
    sg_outcome_free(fin);
    sg_outcome_free(imp);
    sg_worker_free(w);
    sg_sandbox_free(sb);
out:
    sg_report_free(report);
    sg_checker_free(checker);
    sg_rules_free(rules);
    free(src);
    return rc;
}
