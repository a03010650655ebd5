/*
 * Misuse across threads that the Level Zero specification makes invalid:
 * one thread destroys a command list (or frees USM) while another still uses
 * it. A barrier orders the two deterministically: the user appends once
 * (accepted), the owner destroys, the user appends again and must be
 * refused as a destroyed handle, not reach the driver with a dangling one.
 */
#include "misuse.h"

#include <pthread.h>
#include <string.h>

typedef struct shared_use {
    zl_fixture_t *f;
    pthread_barrier_t destroyed;
    pthread_barrier_t used_once;
    ze_command_list_handle_t list;
    void *memory, *source;
    ze_result_t first, second;
} shared_use_t;

static void *append_before_and_after(void *arg)
{
    shared_use_t *s = arg;
    s->first = zeCommandListAppendSignalEvent(s->list, s->f->event[0]);
    pthread_barrier_wait(&s->used_once);
    pthread_barrier_wait(&s->destroyed);
    s->second = zeCommandListAppendSignalEvent(s->list, s->f->event[1]);
    return NULL;
}

static void list_destroyed_while_other_thread_appends(void)
{
    zl_fixture_t f;
    zl_open(&f);
    shared_use_t s = {.f = &f};
    s.list = zt_immediate_list(&f.env, 1);
    pthread_barrier_init(&s.used_once, NULL, 2);
    pthread_barrier_init(&s.destroyed, NULL, 2);
    pthread_t user;
    ck_assert_int_eq(pthread_create(&user, NULL, append_before_and_after, &s), 0);
    pthread_barrier_wait(&s.used_once);
    ZT_OK(zeCommandListDestroy(s.list));
    pthread_barrier_wait(&s.destroyed);
    pthread_join(user, NULL);
    ck_assert_int_eq(s.first, ZE_RESULT_SUCCESS);
    ck_assert_int_eq(s.second, ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert(zl_signalled(f.event[0]));
    ck_assert(!zl_signalled(f.event[1]));
}

static void *copy_before_and_after(void *arg)
{
    shared_use_t *s = arg;
    s->first = zeCommandListAppendMemoryCopy(s->f->list, s->memory, s->source, 64, NULL, 0, NULL);
    pthread_barrier_wait(&s->used_once);
    pthread_barrier_wait(&s->destroyed);
    s->second = zeCommandListAppendMemoryCopy(s->f->list, s->memory, s->source, 64, s->f->event[1],
                                              0, NULL);
    return NULL;
}

static void memory_freed_while_other_thread_copies(void)
{
    zl_fixture_t f;
    zl_open(&f);
    shared_use_t s = {.f = &f};
    s.memory = zt_usm_alloc(&f.env, ZT_USM_DEVICE, 64, 0);
    s.source = zt_usm_alloc(&f.env, ZT_USM_HOST, 64, 0);
    memset(s.source, 1, 64);
    pthread_barrier_init(&s.used_once, NULL, 2);
    pthread_barrier_init(&s.destroyed, NULL, 2);
    pthread_t user;
    ck_assert_int_eq(pthread_create(&user, NULL, copy_before_and_after, &s), 0);
    pthread_barrier_wait(&s.used_once);
    ZT_OK(zeMemFree(f.env.context, s.memory));
    pthread_barrier_wait(&s.destroyed);
    pthread_join(user, NULL);
    ck_assert_int_eq(s.first, ZE_RESULT_SUCCESS);
    ck_assert_int_eq(s.second, ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert(!zl_signalled(f.event[1]));
}

/* A device that cannot use system memory (the reference driver's can): only
 * there is a freed range certain to hold nothing the driver accepts. */
static const char *const no_system_memory[] = {"ZEIL_CPU_SYSTEM_MEMORY=0", NULL};

static const misuse_case_t cases[] = {
    {"list_destroyed_while_other_thread_appends", "ZEIL-E002",
     list_destroyed_while_other_thread_appends, NULL},
    {"memory_freed_while_other_thread_copies", "ZEIL-E015", memory_freed_while_other_thread_copies,
     no_system_memory},
};

misuse_case_list_t misuse_thread_cases(void)
{
    return MISUSE_LIST(cases);
}
