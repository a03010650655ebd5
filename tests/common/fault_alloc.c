/*
 * The fault-injecting allocator (see fault_alloc.h). Attribution is by the
 * caller's return address against the executable segments of the target
 * library, found once in a .preinit_array function: it runs after every
 * library is mapped and relocated but before any library's constructor, so
 * even the target's first allocation (in its constructor) can be failed.
 */
#include "fault_alloc.h"

#include <errno.h>
#include <link.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The real allocator behind the executable's definitions: AddressSanitizer's
 * in an ASan build (its exported interceptors), else glibc's. */
#if defined(__SANITIZE_ADDRESS__)
void *__interceptor_malloc(size_t size);
void *__interceptor_calloc(size_t n, size_t size);
void *__interceptor_realloc(void *ptr, size_t size);
void *__interceptor_reallocarray(void *ptr, size_t n, size_t size);
void *__interceptor_memalign(size_t alignment, size_t size);
void *__interceptor_aligned_alloc(size_t alignment, size_t size);
int __interceptor_posix_memalign(void **out, size_t alignment, size_t size);
char *__interceptor_strdup(const char *s);
char *__interceptor_strndup(const char *s, size_t n);
#define REAL_MALLOC __interceptor_malloc
#define REAL_CALLOC __interceptor_calloc
#define REAL_REALLOC __interceptor_realloc
#define REAL_MEMALIGN __interceptor_memalign
#else
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *ptr, size_t size);
void *__libc_memalign(size_t alignment, size_t size);
#define REAL_MALLOC __libc_malloc
#define REAL_CALLOC __libc_calloc
#define REAL_REALLOC __libc_realloc
#define REAL_MEMALIGN __libc_memalign
#endif

typedef enum fault_mode {
    MODE_OFF,
    MODE_COUNT,
    MODE_AFTER,
    MODE_EVERY,
    MODE_NTH,
    MODE_LATER
} fault_mode_t;

#define MAX_RANGES 8
static uintptr_t range_lo[MAX_RANGES], range_hi[MAX_RANGES];
static int range_count;
static fault_mode_t mode;
static uint64_t mode_n;
static char target[64];
static _Atomic int fail_all_now;
static _Atomic uint64_t seen, failed;

static int note_target_code(struct dl_phdr_info *info, size_t size, void *user)
{
    (void)size;
    (void)user;
    const char *name = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    name = name ? name + 1 : info->dlpi_name;
    if (!name || strncmp(name, target, strlen(target)) != 0)
        return 0;
    for (int i = 0; i < info->dlpi_phnum && range_count < MAX_RANGES; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        range_lo[range_count] = info->dlpi_addr + ph->p_vaddr;
        range_hi[range_count] = range_lo[range_count] + ph->p_memsz;
        range_count++;
    }
    return 0;
}

/* The variable's value in envp (getenv cannot be used yet: libc sets up
 * its environment pointer in its own initialiser, after preinit). */
static const char *env_value(char **envp, const char *name)
{
    size_t len = strlen(name);
    for (char **e = envp; e && *e; e++)
        if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
            return *e + len + 1;
    return NULL;
}

/* LIB:count, LIB:after:N, LIB:every:K, LIB:nth:N, LIB:later (fault_alloc.h). */
static void read_policy(char **envp)
{
    const char *policy = env_value(envp, "ZEIL_TEST_FAULT_ALLOC");
    const char *colon = policy ? strchr(policy, ':') : NULL;
    if (!colon || (size_t)(colon - policy) >= sizeof target)
        return;
    memcpy(target, policy, (size_t)(colon - policy));
    const char *how = colon + 1;
    if (strcmp(how, "count") == 0)
        mode = MODE_COUNT;
    else if (strcmp(how, "later") == 0)
        mode = MODE_LATER;
    else if (strncmp(how, "after:", 6) == 0)
        mode = MODE_AFTER, mode_n = strtoull(how + 6, NULL, 10);
    else if (strncmp(how, "every:", 6) == 0 && strtoull(how + 6, NULL, 10) > 0)
        mode = MODE_EVERY, mode_n = strtoull(how + 6, NULL, 10);
    else if (strncmp(how, "nth:", 4) == 0)
        mode = MODE_NTH, mode_n = strtoull(how + 4, NULL, 10);
    if (mode != MODE_OFF)
        dl_iterate_phdr(note_target_code, NULL);
}

static void fault_alloc_preinit(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    read_policy(envp);
}
__attribute__((section(".preinit_array"),
               used)) static void (*const preinit_entry)(int, char **,
                                                         char **) = fault_alloc_preinit;

static int from_target(const void *caller)
{
    uintptr_t pc = (uintptr_t)caller;
    for (int i = 0; i < range_count; i++)
        if (pc >= range_lo[i] && pc < range_hi[i])
            return 1;
    return 0;
}

/* Whether this allocation (size 0 never fails) by caller fails. */
static int injected(const void *caller, size_t size)
{
    if (mode == MODE_OFF || size == 0 || !from_target(caller))
        return 0;
    uint64_t n = atomic_fetch_add_explicit(&seen, 1, memory_order_relaxed) + 1;
    int fail = 0;
    switch (mode) {
    case MODE_AFTER:
        fail = n > mode_n;
        break;
    case MODE_EVERY:
        fail = n % mode_n == 0;
        break;
    case MODE_NTH:
        fail = n == mode_n;
        break;
    case MODE_LATER:
        fail = atomic_load_explicit(&fail_all_now, memory_order_relaxed);
        break;
    default:
        break;
    }
    if (fail) {
        atomic_fetch_add_explicit(&failed, 1, memory_order_relaxed);
        errno = ENOMEM;
    }
    return fail;
}

#define CALLER __builtin_return_address(0)

void *malloc(size_t size)
{
    return injected(CALLER, size) ? NULL : REAL_MALLOC(size);
}

void *calloc(size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes))
        bytes = SIZE_MAX; /* the real calloc refuses it */
    return injected(CALLER, bytes) ? NULL : REAL_CALLOC(n, size);
}

void *realloc(void *ptr, size_t size)
{
    return injected(CALLER, size) ? NULL : REAL_REALLOC(ptr, size);
}

void *reallocarray(void *ptr, size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes))
        bytes = SIZE_MAX;
    if (injected(CALLER, bytes))
        return NULL;
#if defined(__SANITIZE_ADDRESS__)
    return __interceptor_reallocarray(ptr, n, size);
#else
    if (size && n > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(ptr, n * size);
#endif
}

void *memalign(size_t alignment, size_t size)
{
    return injected(CALLER, size) ? NULL : REAL_MEMALIGN(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size)
{
    if (injected(CALLER, size))
        return NULL;
#if defined(__SANITIZE_ADDRESS__)
    return __interceptor_aligned_alloc(alignment, size);
#else
    return __libc_memalign(alignment, size);
#endif
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    if (injected(CALLER, size))
        return ENOMEM;
#if defined(__SANITIZE_ADDRESS__)
    return __interceptor_posix_memalign(out, alignment, size);
#else
    if (alignment % sizeof(void *) || (alignment & (alignment - 1)))
        return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
#endif
}

char *strdup(const char *s)
{
    size_t len = strlen(s) + 1;
    if (injected(CALLER, len))
        return NULL;
#if defined(__SANITIZE_ADDRESS__)
    return __interceptor_strdup(s);
#else
    char *copy = __libc_malloc(len);
    return copy ? memcpy(copy, s, len) : NULL;
#endif
}

char *strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    if (injected(CALLER, len + 1))
        return NULL;
#if defined(__SANITIZE_ADDRESS__)
    return __interceptor_strndup(s, n);
#else
    char *copy = __libc_malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, s, len);
    copy[len] = 0;
    return copy;
#endif
}

void fault_alloc_fail_from_now(void)
{
    atomic_store(&fail_all_now, 1);
}

fault_alloc_counts_t fault_alloc_counts(void)
{
    return (fault_alloc_counts_t){atomic_load(&seen), atomic_load(&failed), range_count > 0};
}

/* Anonymous mappings count as allocations too: zeil's USM index maps its
 * tables apart from the malloc heap. The real call is the system call
 * itself (under ASan as well: ASan keeps no books on plain mappings). */
void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset)
{
    if ((flags & MAP_ANONYMOUS) && injected(CALLER, length))
        return MAP_FAILED;
    long r = syscall(SYS_mmap, addr, length, prot, flags, fd, offset);
    return r == -1 ? MAP_FAILED : (void *)r; /* syscall() sets errno */
}
