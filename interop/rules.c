/* Reporting the interop rules through the layer's diagnostic channel. */
#include "rules.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <zeil/zeil.h>

typedef struct rule_entry {
    const char *id;
    zeil_severity_t severity;
} rule_entry_t;

static const rule_entry_t rule_table[INTEROP_RULE_COUNT] = {
#define ZEIL_INTEROP_RULE(id, severity, summary, example) {"ZEIL-" #id, ZEIL_SEVERITY_##severity},
#include "rules.def"
#undef ZEIL_INTEROP_RULE
};

static atomic_int rule_said[INTEROP_RULE_COUNT];

const char *interop_rule_id(interop_rule_t rule)
{
    return rule_table[rule].id;
}

static void report_va(interop_rule_t rule, const char *call, const char *fmt, va_list ap)
{
    char message[1024];
    vsnprintf(message, sizeof message, fmt, ap);
    zeil_diagnostic(rule_table[rule].severity, rule_table[rule].id, call, "%s", message);
}

void interop_report(interop_rule_t rule, const char *call, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_va(rule, call, fmt, ap);
    va_end(ap);
}

void interop_report_once(interop_rule_t rule, const char *call, const char *fmt, ...)
{
    if (atomic_exchange(&rule_said[rule], 1))
        return;
    va_list ap;
    va_start(ap, fmt);
    report_va(rule, call, fmt, ap);
    va_end(ap);
}
