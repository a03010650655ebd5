/* The coarse clock of records, straight from the vDSO (coarse_clock.h). */
#include "coarse_clock.h"

#include <dlfcn.h>
#include <pthread.h>

_Atomic(coarse_clock_fn) coarse_clock_vdso = clock_gettime;

static void find_vdso_clock(void)
{
    coarse_clock_fn fn = NULL;
    /* glibc registers the vDSO as a loaded object under this name; RTLD_NOLOAD
     * only looks, it never loads anything. */
    void *vdso = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (vdso) {
        void *symbol = dlsym(vdso, "__vdso_clock_gettime");
        struct timespec probe;
        if (symbol) {
            *(void **)&fn = symbol;
            if (fn(CLOCK_MONOTONIC_COARSE, &probe) != 0) /* refused: the kernel's way */
                fn = NULL;
        }
        dlclose(vdso);
    }
    if (fn)
        atomic_store_explicit(&coarse_clock_vdso, fn, memory_order_relaxed);
}

void coarse_clock_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_vdso_clock);
}
