/*
 * Fuzz target: everything zeil parses from the environment: the settings
 * (layer/common/env.c: ZE_ENABLE_LAYERS, ZEIL_LOG, ZEIL_LOG_FILE, ZEIL_ON_ERROR,
 * ZEIL_RECORDS, ZEIL_TIMING, ZEIL_TRACE, ZEIL_REPORT, ZEIL_SUMMARY), the rule
 * groups of ZEIL_CHECKS (layer/common/diag.c) and the next-driver list
 * (layer/entry/bootstrap.c: ZEIL_DRIVERS, ZE_ENABLE_ALT_DRIVERS,
 * ZEIL_BOOTSTRAP_SHIMS, ZEIL_BOOTSTRAP_NEXT).
 *
 * Those parsers are static and run once per process behind pthread_once, so
 * this file includes the three translation units and resets their once
 * flags before each input: the layer's code is compiled unchanged, only read
 * more than once. The input is the variables' values separated by NUL bytes,
 * in the order of fuzzed_variables; a variable without a value is unset.
 */
#include "../../layer/common/env.c"
#include "../../layer/common/diag.c"
#include "../../layer/entry/bootstrap.c"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const fuzzed_variables[] = {
    "ZE_ENABLE_LAYERS",     "ZEIL_LOG",           "ZEIL_LOG_FILE", "ZEIL_ON_ERROR",
    "ZEIL_CHECKS",          "ZEIL_RECORDS",       "ZEIL_TIMING",   "ZEIL_TRACE",
    "ZEIL_REPORT",          "ZEIL_SUMMARY",       "ZEIL_DRIVERS",  "ZE_ENABLE_ALT_DRIVERS",
    "ZEIL_BOOTSTRAP_SHIMS", "ZEIL_BOOTSTRAP_NEXT"};
#define FUZZED_VARIABLE_COUNT (sizeof fuzzed_variables / sizeof fuzzed_variables[0])

/* A broken promise is a crash for the fuzzer, with the promise named. */
#define require(condition) \
    do { \
        if (!(condition)) { \
            fprintf(stderr, "%s:%d: broken: %s\n", __FILE__, __LINE__, #condition); \
            abort(); \
        } \
    } while (0)

/* ---- what the included units call outside themselves ---- */

/* The log: lines are only checked (bounded, one line each), never written.
 * A value carrying a newline into a log line is counted (log injection) but
 * not treated as a crash, so the run goes on looking for real ones. */
static unsigned long lines_with_newline;

void log_sink_write(const char *line, size_t len)
{
    require(len <= LOG_LINE_MAX);
    if (len > 1 && memchr(line, '\n', len - 1) && lines_with_newline++ == 0)
        fprintf(stderr, "fuzz_env: a log line carries a newline from the environment: %.*s\n",
                (int)len, line);
}

void log_sink_printf(const char *fmt, ...)
{
    char line[LOG_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    require(n >= 0);
    log_sink_write(line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

void zeil_flush(void) {}
/* The output side (layer/output) is not part of this target: the bootstrap's
 * calls into it do nothing here, and nothing is traced. */
_Atomic int zo_tracing;
void zo_init(const zo_config_t *config)
{
    (void)config;
}
void zo_start_background(void) {}
void calls_settle(void) {}
void zo_finish(void) {}
void check_leaks_at_exit(void) {}
void intercepted_kinds_note_next(const zeil_next_t *next, const zeil_intercepts_t *runtime,
                                 const zeil_intercepts_t *hooked)
{
    (void)next, (void)runtime, (void)hooked;
}
void intercepted_kinds_list_unchecked(void) {}
void oom_dropped(oom_loss_t loss, uint64_t n, const char *call, const char *doing)
{
    (void)loss, (void)n, (void)call, (void)doing;
}
const zeil_intercepts_t zeil_runtime_intercepts, zeil_hooked_intercepts;
const zeil_directs_t zeil_runtime_directs[ZEIL_MAX_NEXT_DRIVERS];
zeil_next_t zeil_attached_next[ZEIL_MAX_NEXT_DRIVERS];
const zo_snapshot_source_t report_snapshot_source;
void wrapped_driver_added(void) {}
unsigned wrapped_driver_count(void)
{
    return 0;
}

/* ---- one input ---- */

static void forget_settings(void)
{
    free((void *)zeil_settings_data.log_file);
    free((void *)zeil_settings_data.checks);
    free((void *)zeil_settings_data.trace_file);
    free((void *)zeil_settings_data.report_file);
    free((void *)zeil_settings_data.summary_file);
    memset(&zeil_settings_data, 0, sizeof zeil_settings_data);
    atomic_store(&zeil_settings_ready, 0);
    settings_once = PTHREAD_ONCE_INIT;
    disabled_groups = 0;
    groups_once = PTHREAD_ONCE_INIT;
    next_driver_count = 0;
    next_drivers_once = PTHREAD_ONCE_INIT;
}

/* The variables live in buffers of our own given to putenv: setenv would
 * keep every old value forever (glibc never frees them), which a run of
 * millions of inputs turns into gigabytes. */
#define VALUE_MAX 8192
static char variable_text[FUZZED_VARIABLE_COUNT][VALUE_MAX + 64];

/* Sets the variables from the input; returns the text values[] point into. */
static char *set_variables(const uint8_t *data, size_t size, const char **values)
{
    size_t count = 0, start = 0;
    char *text = malloc(size + 1);
    require(text != NULL);
    memcpy(text, data, size);
    text[size] = 0;
    for (size_t i = 0; i <= size && count < FUZZED_VARIABLE_COUNT; i++) {
        if (i < size && text[i] != 0)
            continue;
        if (strlen(text + start) > VALUE_MAX)
            text[start + VALUE_MAX] = 0;
        values[count] = text + start;
        snprintf(variable_text[count], sizeof variable_text[count], "%s=%s",
                 fuzzed_variables[count], text + start);
        putenv(variable_text[count]);
        count++;
        start = i + 1;
    }
    for (size_t v = count; v < FUZZED_VARIABLE_COUNT; v++) {
        values[v] = NULL;
        unsetenv(fuzzed_variables[v]);
    }
    return text;
}

static void check_item(const char *item, size_t len, void *user)
{
    const char *value = user;
    require(len > 0 && item >= value && item + len <= value + strlen(value));
    require(memchr(item, ',', len) == NULL);
    require(item[0] != ' ' && item[0] != '\t' && item[len - 1] != ' ' && item[len - 1] != '\t');
}

static void check_settings(const char **values)
{
    const zeil_settings_t *s = zeil_settings();
    require(s->log_level >= ZEIL_LOG_ERROR && s->log_level <= ZEIL_LOG_CALLS);
    require(s->records >= 1 && s->records <= (1u << 24));
    require(s->enabled == env_layers_name_zeil(values[0]));
    const char *log_file = values[2];
    require(log_file && *log_file ? s->log_file && strcmp(s->log_file, log_file) == 0
                                  : s->log_file == NULL);
    for (int r = 0; r < ZEIL_RULE_COUNT; r++)
        diag_rule_enabled((zeil_rule_t)r);
    for (unsigned i = 0; zeil_shim_next_driver(i); i++) {
        const char *driver = zeil_shim_next_driver(i);
        require(i < ZEIL_MAX_NEXT_DRIVERS && strlen(driver) < PATH_MAX && *driver);
        require(!is_shim(driver, strlen(driver)));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *values[FUZZED_VARIABLE_COUNT];
    char *text = set_variables(data, size, values);
    forget_settings();
    check_settings(values);
    for (size_t v = 0; v < FUZZED_VARIABLE_COUNT; v++)
        if (values[v])
            env_foreach_item(values[v], check_item, (void *)values[v]);
    free(text);
    return 0;
}
