/*
 * rd_module.h: modules and their build logs. Every module is a shared object
 * loaded from memory: either a native CPU module (zeil/cpu_kernel.h) or one
 * compiled from SPIR-V or OpenCL C (execution/rd_compiled.h, built by
 * compiler/rd_build.h); the symbol it exports tells which.
 *
 * A module stays loaded while anything uses its code: its handle, its
 * kernels and the launches still queued (each holds a reference), so a
 * zeModuleDestroy that comes early does not unload code a worker is about
 * to run.
 */
#ifndef ZEIL_RD_MODULE_H
#define ZEIL_RD_MODULE_H

#include "rd_context.h"

#include "rd_compiled.h"

#include <zeil/cpu_kernel.h>

typedef struct rd_module {
    uint32_t magic;
    rd_driver_t *driver; /* not the context: a kernel may outlive it */
    rd_device_t *device;
    void *library;                /* dlopen handle */
    int fd;                       /* the memfd it was loaded from, open while loaded */
    const zeil_cpu_module_t *abi; /* a native module's table, or null */
    const rd_cm_module_t *cm;     /* a compiled module's table, or null */
    unsigned char *binary;
    size_t binary_size;
    uint64_t id;   /* hash of the binary, for kernel UUIDs */
    uint32_t refs; /* atomic */
} rd_module_t;

typedef struct rd_build_log {
    uint32_t magic;
    char *text;
} rd_build_log_t;

void rd_module_retain(rd_module_t *module);
void rd_module_release(rd_module_t *module);

/* The module's kernel of that name, or null (native modules). */
const zeil_cpu_kernel_t *rd_module_find_kernel(const rd_module_t *module, const char *name);
/* The module's kernel of that name, or null (compiled modules). */
const rd_cm_kernel_t *rd_module_find_cm_kernel(const rd_module_t *module, const char *name);
uint32_t rd_module_kernel_count(const rd_module_t *module);
const char *rd_module_kernel_name(const rd_module_t *module, uint32_t i);

/* The size-query convention for strings and bytes: with a null buffer
 * *size becomes the size needed, otherwise the buffer must hold it. */
ze_result_t rd_copy_out(const void *data, size_t data_size, size_t *size, void *buffer);

#endif
