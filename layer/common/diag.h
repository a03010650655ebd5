/*
 * diag.h: zeil's Level Zero rules (rules.def) and how a finding is reported.
 */
#ifndef ZEIL_DIAG_H
#define ZEIL_DIAG_H

#include <level_zero/ze_api.h>
#include <stdint.h>

typedef enum zeil_rule {
#define ZEIL_RULE(id, sev, group, result, summary, example) ZEIL_RULE_##id,
#include "rules.def"
#undef ZEIL_RULE
    ZEIL_RULE_COUNT
} zeil_rule_t;

/* 0 when ZEIL_CHECKS switched the rule's group off. Checks ask first and skip
 * their work. */
int diag_rule_enabled(zeil_rule_t rule);
/* What an error under ZEIL_ON_ERROR=abort calls before abort() (the
 * bootstrap's zeil_flush: diagnostics sit below the API). */
void diag_set_flush_before_abort(void (*flush)(void));

/* Reports one finding of rule for call: "zeil: error [ZEIL-E012] call: ...".
 * Returns what the intercepted call must return: the rule's result for an
 * enabled error, ZE_RESULT_SUCCESS (proceed) for a warning or a disabled
 * group. Aborts after an error when ZEIL_ON_ERROR=abort. */
ze_result_t diag_report(zeil_rule_t rule, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
