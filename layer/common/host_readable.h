/*
 * host_readable.h: whether this process can read a host address, asked of
 * the kernel (one byte read on our behalf, EFAULT for unmapped or
 * inaccessible pages, without a signal). Shared by the layer's freed-range
 * checks (check_freed_ranges.c) and the interop library's memory checks
 * (interop/checks.c), which include it by path: header-only, as the two
 * libraries share no internal symbol.
 */
#ifndef ZEIL_HOST_READABLE_H
#define ZEIL_HOST_READABLE_H

#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

/* 1 when a host mapping readable by this process covers ptr. Any other
 * failure (the call forbidden by a sandbox) counts as readable: when in
 * doubt, accept. */
static inline int host_readable(const void *ptr)
{
    char byte;
    struct iovec local = {&byte, 1};
    struct iovec remote = {(void *)ptr, 1};
    if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 1)
        return 1;
    return errno != EFAULT;
}

#endif
