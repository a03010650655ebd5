/*
 * report_snapshot.c: fills the report's snapshot from the zeil.h counters
 * (see report_snapshot.h). Strings are copied: the report may be formatted
 * after the objects they came from are gone.
 */
#include "report_snapshot.h"

#include "zo_report_format.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The longest text kept of a name the runtime hands over. */
#define SNAPSHOT_MAX_STRING 256

typedef struct collecting {
    zeil_kernel_stats_t *kernels;
    char **labels; /* one per kernel row */
    zeil_rule_stats_t *rules;
    size_t num_kernels, num_rules;
    size_t kernel_cap, label_cap, rule_cap;
    int out_of_memory;
} collecting_t;

static char *copy_string(collecting_t *c, const char *s)
{
    if (!s)
        return NULL;
    char *copy = strndup(s, SNAPSHOT_MAX_STRING);
    if (!copy)
        c->out_of_memory = 1;
    return copy;
}

static int grow(void **array, size_t *cap, size_t need, size_t item)
{
    if (need <= *cap)
        return 0;
    size_t cap2 = *cap ? *cap * 2 : 64;
    if (cap2 < *cap || cap2 > SIZE_MAX / item)
        return -1;
    void *p = realloc(*array, cap2 * item);
    if (!p)
        return -1;
    *array = p;
    *cap = cap2;
    return 0;
}

static int add_kernel(const zeil_kernel_stats_t *s, void *user)
{
    collecting_t *c = user;
    size_t n = c->num_kernels;
    if (grow((void **)&c->kernels, &c->kernel_cap, n + 1, sizeof *c->kernels) != 0 ||
        grow((void **)&c->labels, &c->label_cap, n + 1, sizeof *c->labels) != 0) {
        c->out_of_memory = 1;
        return 1;
    }
    char label[SNAPSHOT_MAX_STRING];
    c->labels[n] = NULL;
    if (zeil_track_label(s->stream_id, s->list, label, sizeof label))
        c->labels[n] = copy_string(c, label);
    zeil_kernel_stats_t *k = &c->kernels[n];
    *k = *s;
    k->kernel = copy_string(c, s->kernel);
    k->primitive = copy_string(c, s->primitive);
    k->impl = copy_string(c, s->impl);
    c->num_kernels = n + 1;
    return 0;
}

static int add_rule(const zeil_rule_stats_t *s, void *user)
{
    collecting_t *c = user;
    if (!s->count)
        return 0;
    size_t n = c->num_rules;
    if (grow((void **)&c->rules, &c->rule_cap, n + 1, sizeof *c->rules) != 0) {
        c->out_of_memory = 1;
        return 1;
    }
    zeil_rule_stats_t *r = &c->rules[n];
    *r = *s;
    r->rule = copy_string(c, s->rule);
    r->summary = copy_string(c, s->summary);
    c->num_rules = n + 1;
    return 0;
}

static int fill(zo_report_data_t *d)
{
    collecting_t c = {0};
    zeil_foreach_kernel_stats(add_kernel, &c);
    zeil_foreach_rule(add_rule, &c);
    d->kernels = c.kernels;
    d->labels = (const char *const *)c.labels;
    d->num_kernels = c.num_kernels;
    d->rules = c.rules;
    d->num_rules = c.num_rules;
    zeil_get_live_counts(&d->live);
    d->errors = zeil_error_count();
    d->warnings = zeil_warning_count();
    zeil_get_dropped_counts(&d->out_of_memory);
    zeil_get_coverage(&d->coverage);
    return c.out_of_memory ? -1 : 0;
}

static void release(zo_report_data_t *d)
{
    for (size_t i = 0; i < d->num_kernels; i++) {
        free((char *)d->kernels[i].kernel);
        free((char *)d->kernels[i].primitive);
        free((char *)d->kernels[i].impl);
        free((char *)d->labels[i]);
    }
    for (size_t i = 0; i < d->num_rules; i++) {
        free((char *)d->rules[i].rule);
        free((char *)d->rules[i].summary);
    }
    free((void *)d->kernels);
    free((void *)d->labels);
    free((void *)d->rules);
}

const zo_snapshot_source_t report_snapshot_source = {.fill = fill, .release = release};
