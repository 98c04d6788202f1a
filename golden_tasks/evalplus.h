/*
 * MBPP+ (EvalPlus) tasks as EvalPlus itself evaluates them.
 *
 * The MBPP+ file stores inputs as JSON, which has no tuples, sets or complex numbers; EvalPlus's
 * loader restores those types for about seventy tasks before calling the function, and its
 * evaluator has a few per-task oracles. Without the same adaptation a correct solution fails (a
 * tuple concatenated with a list raises) and the reference rejects every input of its own task.
 * The table in evalplus.c states, per MBPP+ task number, which arguments become tuples, sets or
 * complex numbers; it follows EvalPlus's behaviour (checked against the public MBPP+ file by the
 * golden tests: every canonical solution passes).
 *
 * Oracles: `any` (Mbpp/164: EvalPlus accepts every output), `or_zero` (Mbpp/295: 0 is also
 * accepted), `not_none` (check_str, text_match_three, text_starta_endb: only whether the result
 * is None counts). And for every EvalPlus task without an atol, float results (or lists and
 * tuples of floats) are compared within 1e-6, as EvalPlus does.
 */
#ifndef SG_GOLDEN_EVALPLUS_H
#define SG_GOLDEN_EVALPLUS_H

#include <stdbool.h>

#include "golden_tasks/task.h"

typedef enum sg_evalplus_oracle {
    SG_ORACLE_EQUAL = 0,
    SG_ORACLE_ANY,
    SG_ORACLE_OR_ZERO,
    SG_ORACLE_NOT_NONE,
} sg_evalplus_oracle;

/* Adapt a loaded EvalPlus task whose id is "Mbpp/N" (inputs, wrappers, oracle). No-op otherwise.
 * Fails only with SG_ERR_NOMEM. */
sg_status sg_evalplus_adapt(sg_golden_task *t);

/* Does `got` match `exp` (the reference's result) under the task's oracle? `equal` is the plain
 * comparison's answer. Also applies EvalPlus's float tolerance when the task has no atol. */
bool sg_evalplus_match(const sg_golden_task *t, const sg_value *got, const sg_value *exp, bool equal);

#endif
