/*
 * rd_module.h: modules (native CPU objects loaded from memory) and their
 * build logs.
 *
 * A module stays loaded while anything uses its code: its handle, its
 * kernels and the launches still queued (each holds a reference), so a
 * zeModuleDestroy that comes early does not unload code a worker is about
 * to run.
 */
#ifndef ZEIL_RD_MODULE_H
#define ZEIL_RD_MODULE_H

#include "rd_context.h"

#include <zeil/cpu_kernel.h>

typedef struct rd_module {
    uint32_t magic;
    rd_driver_t *driver;   /* not the context: a kernel may outlive it */
    rd_device_t *device;
    void *library;  /* dlopen handle */
    int fd;         /* the memfd it was loaded from, open while loaded */
    const zeil_cpu_module_t *abi;
    unsigned char *binary;
    size_t binary_size;
    uint64_t id;    /* hash of the binary, for kernel UUIDs */
    uint32_t refs;  /* atomic */
} rd_module_t;

typedef struct rd_build_log {
    uint32_t magic;
    char *text;
} rd_build_log_t;

void rd_module_retain(rd_module_t *module);
void rd_module_release(rd_module_t *module);

/* The module's kernel of that name, or null. */
const zeil_cpu_kernel_t *rd_module_find_kernel(const rd_module_t *module, const char *name);

/* The size-query convention for strings and bytes: with a null buffer
 * *size becomes the size needed, otherwise the buffer must hold it. */
ze_result_t rd_copy_out(const void *data, size_t data_size, size_t *size, void *buffer);

#endif
