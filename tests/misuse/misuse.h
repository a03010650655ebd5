/*
 * misuse.h: the misuse matrix. Each case commits one misuse in a child
 * process of its own (misuse_main.c runs them) and asserts, in the child,
 * the code the call returned and an observable showing the driver never got
 * the call; the parent asserts the child exited normally and that zeil's log
 * names the case's rule.
 */
#ifndef ZEIL_TESTS_MISUSE_H
#define ZEIL_TESTS_MISUSE_H

#include "zl.h"

#include <stddef.h>

typedef struct misuse_case {
    const char *name;
    const char *rule;       /* the rule the log must name, "ZEIL-E001" */
    void (*run)(void);      /* the misuse, in the child */
    const char *const *env; /* extra "VAR=value" ("VAR=" unsets) or null */
} misuse_case_t;

typedef struct misuse_case_list {
    const misuse_case_t *cases;
    size_t count;
} misuse_case_list_t;

misuse_case_list_t misuse_layer_handle_cases(void);
misuse_case_list_t misuse_layer_usm_cases(void);
misuse_case_list_t misuse_layer_list_cases(void);
misuse_case_list_t misuse_thread_cases(void);
misuse_case_list_t misuse_interop_cases(void);
misuse_case_list_t misuse_interop_blob_cases(void);
misuse_case_list_t misuse_hazard_cases(void);
misuse_case_list_t misuse_hazard_interop_cases(void);

#define MISUSE_LIST(array) ((misuse_case_list_t){(array), sizeof(array) / sizeof((array)[0])})

/* ---- observables ---- */
extern const ze_group_count_t misuse_one_group;
/* The list still takes work: a signal appended to it gets signalled. */
void misuse_assert_list_works(ze_command_list_handle_t list, ze_event_handle_t event);
/* The USM allocation is still usable: a fill through list reaches it. */
void misuse_assert_memory_usable(zl_fixture_t *f, void *ptr, size_t size);
/* The stamp kernel with its argument set (*stamp reads 0 until it runs). */
ze_kernel_handle_t misuse_stamp_kernel(zl_fixture_t *f, uint64_t **stamp);
/* A second context on the fixture's driver and device. */
ze_context_handle_t misuse_other_context(const zl_fixture_t *f);

#endif
