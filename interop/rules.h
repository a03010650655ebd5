/* rules.h: the interop library's rules (rules.def) and how they are reported. */
#ifndef ZEIL_INTEROP_RULES_H
#define ZEIL_INTEROP_RULES_H

typedef enum interop_rule {
#define ZEIL_INTEROP_RULE(id, severity, summary, example) INTEROP_RULE_##id,
#include "rules.def"
#undef ZEIL_INTEROP_RULE
    INTEROP_RULE_COUNT
} interop_rule_t;

/* "ZEIL-E101" */
const char *interop_rule_id(interop_rule_t rule);

/* Emits the rule through zeil_diagnostic with its severity from rules.def. */
void interop_report(interop_rule_t rule, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Emits the rule only the first time it is reported in the process. */
void interop_report_once(interop_rule_t rule, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
