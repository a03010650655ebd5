/* Fibers for work-items: stacks with guard pages, first frames, and what
 * the sanitizers must be told (rd_fiber.h). */
#include "rd_fiber.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef RD_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#endif

void rd_fiber_start(void); /* rd_fiber_x86_64.S */

void rd_fiber_init_thread(rd_fiber_t *f)
{
    memset(f, 0, sizeof *f);
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        pthread_attr_getstack(&attr, &f->stack, &f->stack_size);
        pthread_attr_destroy(&attr);
    }
#ifdef RD_FIBER_TSAN
    f->tsan = __tsan_get_current_fiber();
#endif
}

void rd_fiber_fini_thread(rd_fiber_t *f)
{
    (void)f;
}

int rd_fiber_create(rd_fiber_t *f, unsigned index)
{
    memset(f, 0, sizeof *f);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = page + RD_FIBER_STACK;
    void *map = mmap(NULL, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (map == MAP_FAILED)
        return -1;
    if (mprotect(map, page, PROT_NONE) != 0) {
        munmap(map, size);
        return -1;
    }
    f->map = map;
    f->map_size = size;
    f->stack = (char *)map + page;
    f->stack_size = RD_FIBER_STACK;
    f->colour = (size_t)(index * 64u) % 16384u;
#ifdef RD_FIBER_TSAN
    f->tsan = __tsan_create_fiber(0);
#endif
    return 0;
}

void rd_fiber_destroy(rd_fiber_t *f)
{
    if (!f->map)
        return;
#ifdef RD_FIBER_TSAN
    if (f->tsan)
        __tsan_destroy_fiber(f->tsan);
#endif
    munmap(f->map, f->map_size);
    memset(f, 0, sizeof *f);
}

void rd_fiber_prepare(rd_fiber_t *f, void (*entry)(void *), void *arg)
{
#ifdef RD_FIBER_ASAN
    /* Frames abandoned by a fault may have left their red zones poisoned. */
    __asan_unpoison_memory_region(f->stack, f->stack_size);
#endif
    uintptr_t top = ((uintptr_t)f->stack + f->stack_size - f->colour) & ~(uintptr_t)15;
    /* What rd_fiber_switch pops (r15 r14 r13 r12 rbx rbp), then its return
     * address; after the ret the stack pointer is top - 16, aligned as a
     * call expects. */
    uintptr_t *frame = (uintptr_t *)(top - 72);
    memset(frame, 0, 72);
    frame[2] = (uintptr_t)entry; /* r13 */
    frame[3] = (uintptr_t)arg;   /* r12 */
    frame[6] = (uintptr_t)rd_fiber_start;
    f->sp = frame;
    f->asan_fake = NULL;
}

void rd_fiber_started(void)
{
#ifdef RD_FIBER_ASAN
    __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
}

void rd_fiber_renew(rd_fiber_t *f)
{
#ifdef RD_FIBER_TSAN
    if (f->tsan)
        __tsan_destroy_fiber(f->tsan);
    f->tsan = __tsan_create_fiber(0);
#endif
    (void)f;
}
