/*
 * The snipgate command line. Each verb is one function taking the arguments after the verb
 * (argv[0] is the verb) and returning the process exit code:
 *   0 pass, 1 blocked (or the outcome was not ok), 2 bad usage or bad input, 3 internal error.
 * Verbs use only the public API (snipgate.h); they print errors once, to stderr.
 */
#ifndef SG_CLI_H
#define SG_CLI_H

#include <stdio.h>

enum {
    SG_EXIT_PASS = 0,
    SG_EXIT_BLOCK = 1,
    SG_EXIT_USAGE = 2,
    SG_EXIT_INTERNAL = 3,
};

int sg_cli_main(int argc, char **argv);
int sg_cli_check(int argc, char **argv);
int sg_cli_rules(int argc, char **argv);
int sg_cli_run(int argc, char **argv);

/* Print "snipgate: <verb>: <message>" to stderr (printf-style). */
void sg_cli_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parse a non-negative decimal integer option value; returns 0 on success, -1 on bad input. */
int sg_cli_parse_ulong(const char *s, unsigned long max, unsigned long *ret);
int sg_cli_parse_long(const char *s, long min, long max, long *ret);

#endif
