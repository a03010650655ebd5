/*
 * Diagnostics: the rule table, ZEIL_CHECKS, counting, the one-line format and
 * ZEIL_ON_ERROR. zeil_diagnostic() is the same path for the interop library's
 * rules, which zeil learns by name the first time they fire or register.
 */
#include "diag.h"

#include "env.h"
#include "log_sink.h"

#include <zeil/zeil.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rule_info {
    const char *id;
    zeil_severity_t severity;
    const char *group;
    ze_result_t result;
    const char *summary;
} rule_info_t;

static const rule_info_t rules[ZEIL_RULE_COUNT] = {
#define ZEIL_RULE(id, sev, group, result, summary, example) \
    {"ZEIL-" #id, ZEIL_SEVERITY_##sev, #group, result, summary},
#include "rules.def"
#undef ZEIL_RULE
};

/* What ZEIL_ON_ERROR=abort writes before it aborts (zeil_flush, set by the
 * bootstrap): the trace and timings so far. */
static void (*_Atomic flush_before_abort)(void);

void diag_set_flush_before_abort(void (*flush)(void))
{
    atomic_store(&flush_before_abort, flush);
}

static _Atomic uint64_t rule_counts[ZEIL_RULE_COUNT];
static _Atomic uint64_t error_count, warning_count;

/* Rules of other zeil libraries (the interop library), by name. */
#define EXTRA_RULES_MAX 128
typedef struct extra_rule {
    char id[16];
    zeil_severity_t severity;
    const char *summary;
    uint64_t count;
} extra_rule_t;
static extra_rule_t extra_rules[EXTRA_RULES_MAX];
static size_t extra_rule_count;
static pthread_mutex_t extra_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const groups[] = {"handles", "contexts", "usm",      "lists",
                                     "events",  "kernels",  "lifetime", "leaks",
                                     "loading", "memory",   "hazards",  "hazard-guesses"};
#define GROUP_COUNT (sizeof groups / sizeof groups[0])
/* The two hazard groups follow the settings (env.c reads ZEIL_CHECKS for
 * them: the exact checks on by default, the guesses when named). */
#define HAZARDS_GROUP_BIT (1u << 10)
#define HAZARD_GUESSES_GROUP_BIT (1u << 11)
static uint32_t disabled_groups;
static pthread_once_t groups_once = PTHREAD_ONCE_INIT;

static int group_index(const char *name, size_t len)
{
    for (size_t i = 0; i < GROUP_COUNT; i++)
        if (strlen(groups[i]) == len && memcmp(groups[i], name, len) == 0)
            return (int)i;
    return -1;
}

/* The environment is the user's to fill: what is echoed into the log is
 * bounded and has its control bytes escaped, so it cannot forge lines. */
static void printable(const char *text, size_t len, char *out, size_t size)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 < size; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, size - o, "\\x%02x", c);
    }
    out[o] = 0;
}

/* ZEIL_CHECKS: comma list applied left to right: "-group" off, "+group" or
 * "group" on, "none" all off, "all" all on. */
static void apply_check_item(const char *item, size_t len, void *user)
{
    (void)user;
    if (len == 4 && memcmp(item, "none", 4) == 0) {
        disabled_groups = ~0u;
        return;
    }
    if (len == 3 && memcmp(item, "all", 3) == 0) {
        disabled_groups = 0;
        return;
    }
    int off = item[0] == '-';
    if (item[0] == '-' || item[0] == '+') {
        item++;
        len--;
    }
    int g = group_index(item, len);
    if (g < 0) {
        char shown[4 * 64 + 1];
        printable(item, len, shown, sizeof shown);
        log_sink_printf("zeil: warning ZEIL_CHECKS names unknown rule group '%s'", shown);
        return;
    }
    if (off)
        disabled_groups |= 1u << g;
    else
        disabled_groups &= ~(1u << g);
}

static void parse_checks(void)
{
    env_foreach_item(zeil_settings()->checks, apply_check_item, NULL);
    disabled_groups &= ~(HAZARDS_GROUP_BIT | HAZARD_GUESSES_GROUP_BIT);
    if (!zeil_settings()->hazards)
        disabled_groups |= HAZARDS_GROUP_BIT;
    if (!zeil_settings()->hazard_guesses)
        disabled_groups |= HAZARD_GUESSES_GROUP_BIT;
}

int diag_rule_enabled(zeil_rule_t rule)
{
    pthread_once(&groups_once, parse_checks);
    int g = group_index(rules[rule].group, strlen(rules[rule].group));
    return g < 0 || !(disabled_groups & (1u << g));
}

static void emit(zeil_severity_t severity, const char *id, const char *call, const char *fmt,
                 va_list ap)
{
    if (severity == ZEIL_SEVERITY_ERROR)
        atomic_fetch_add(&error_count, 1);
    else if (severity == ZEIL_SEVERITY_WARNING)
        atomic_fetch_add(&warning_count, 1);
    int level = zeil_settings()->log_level;
    if ((int)severity > level)
        return;
    static const char *const names[] = {"error", "warning", "info"};
    char line[1024];
    int n = snprintf(line, sizeof line, "zeil: %s [%s] %s: ", names[severity], id,
                     call ? call : "zeil");
    if (n < 0)
        return;
    if ((size_t)n < sizeof line) {
        int m = vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
        if (m > 0)
            n += m;
    }
    log_sink_write(line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    if (severity == ZEIL_SEVERITY_ERROR && zeil_settings()->abort_on_error) {
        log_sink_printf("zeil: aborting at the first error (ZEIL_ON_ERROR=abort)");
        void (*flush)(void) = atomic_load(&flush_before_abort);
        if (flush)
            flush();
        abort();
    }
}

ze_result_t diag_report(zeil_rule_t rule, const char *call, const char *fmt, ...)
{
    if (!diag_rule_enabled(rule))
        return ZE_RESULT_SUCCESS;
    atomic_fetch_add(&rule_counts[rule], 1);
    va_list ap;
    va_start(ap, fmt);
    emit(rules[rule].severity, rules[rule].id, call, fmt, ap);
    va_end(ap);
    return rules[rule].severity == ZEIL_SEVERITY_ERROR ? rules[rule].result : ZE_RESULT_SUCCESS;
}

static int table_rule(const char *id)
{
    for (int i = 0; i < ZEIL_RULE_COUNT; i++)
        if (strcmp(rules[i].id, id) == 0)
            return i;
    return -1;
}

/* Under extra_lock. */
static extra_rule_t *extra_rule(const char *id, zeil_severity_t severity, int create)
{
    for (size_t i = 0; i < extra_rule_count; i++)
        if (strcmp(extra_rules[i].id, id) == 0)
            return &extra_rules[i];
    if (!create || extra_rule_count == EXTRA_RULES_MAX || strlen(id) >= sizeof extra_rules[0].id)
        return NULL;
    extra_rule_t *r = &extra_rules[extra_rule_count++];
    strcpy(r->id, id);
    r->severity = severity;
    return r;
}

void zeil_register_rule(const char *rule, zeil_severity_t severity, const char *summary)
{
    if (!rule || table_rule(rule) >= 0)
        return;
    pthread_mutex_lock(&extra_lock);
    extra_rule_t *r = extra_rule(rule, severity, 1);
    if (r && summary)
        r->summary = summary;
    pthread_mutex_unlock(&extra_lock);
}

void zeil_diagnostic(zeil_severity_t severity, const char *rule, const char *call, const char *fmt,
                     ...)
{
    if (!rule)
        rule = "ZEIL-?";
    int known = table_rule(rule);
    if (known >= 0) {
        atomic_fetch_add(&rule_counts[known], 1);
    } else {
        pthread_mutex_lock(&extra_lock);
        extra_rule_t *r = extra_rule(rule, severity, 1);
        if (r)
            r->count++;
        pthread_mutex_unlock(&extra_lock);
    }
    va_list ap;
    va_start(ap, fmt);
    emit(severity, rule, call, fmt, ap);
    va_end(ap);
}

uint64_t zeil_error_count(void)
{
    return atomic_load(&error_count);
}

uint64_t zeil_warning_count(void)
{
    return atomic_load(&warning_count);
}

uint64_t zeil_rule_count(const char *rule)
{
    if (!rule)
        return 0;
    int known = table_rule(rule);
    if (known >= 0)
        return atomic_load(&rule_counts[known]);
    pthread_mutex_lock(&extra_lock);
    extra_rule_t *r = extra_rule(rule, ZEIL_SEVERITY_ERROR, 0);
    uint64_t count = r ? r->count : 0;
    pthread_mutex_unlock(&extra_lock);
    return count;
}

static int compare_rule_ids(const void *a, const void *b)
{
    return strcmp(((const zeil_rule_stats_t *)a)->rule, ((const zeil_rule_stats_t *)b)->rule);
}

size_t zeil_foreach_rule(zeil_rule_stats_fn fn, void *user)
{
    zeil_rule_stats_t all[ZEIL_RULE_COUNT + EXTRA_RULES_MAX];
    size_t n = 0;
    for (int i = 0; i < ZEIL_RULE_COUNT; i++)
        all[n++] = (zeil_rule_stats_t){rules[i].id, rules[i].severity, rules[i].summary,
                                       atomic_load(&rule_counts[i])};
    pthread_mutex_lock(&extra_lock);
    for (size_t i = 0; i < extra_rule_count; i++)
        all[n++] = (zeil_rule_stats_t){extra_rules[i].id, extra_rules[i].severity,
                                       extra_rules[i].summary, extra_rules[i].count};
    pthread_mutex_unlock(&extra_lock);
    qsort(all, n, sizeof all[0], compare_rule_ids);
    size_t visited = 0;
    for (size_t i = 0; i < n; i++) {
        visited++;
        if (fn && fn(&all[i], user))
            break;
    }
    return visited;
}
