/* The stage 3 driver on whole suites: every built-in canonical solution, and samples of the
 * public HumanEval, MBPP and MBPP+ files. The same tests as test_golden_run.c, selected. */
#define GOLDEN_SUITES 1
#include "test_golden_run.c"
