/*
 * rd_build.h: building a module from SPIR-V or OpenCL C source into the
 * shared object the driver loads (rd_compiled.h). The steps run as
 * processes (see ../README.md for why):
 *   OpenCL C: clang-15 -cc1 (spir64 bitcode);  SPIR-V: llvm-spirv-15 -r;
 *   then zeil-cpu-kc (host object) and clang-15 -shared (shared object).
 * The result is cached on disk (rd_kcache.h).
 */
#ifndef ZEIL_RD_BUILD_H
#define ZEIL_RD_BUILD_H

#include "rd_strbuf.h"

#include <level_zero/ze_api.h>

typedef struct rd_build_input {
    uint32_t format; /* ZE_MODULE_FORMAT_IL_SPIRV or ZEIL_MODULE_FORMAT_OCLC */
    const void *bytes;
    size_t size;
    const char *flags;                      /* pBuildFlags, may be null */
    const ze_module_constants_t *constants; /* may be null */
    const char *cpu_name;                   /* the host's, part of the cache key */
} rd_build_input_t;

/* ZE_RESULT_SUCCESS with the shared object in *so (malloc'ed), or
 * ZE_RESULT_ERROR_MODULE_BUILD_FAILURE (OUT_OF_HOST_MEMORY). log receives
 * the notes and diagnostics either way. */
ze_result_t rd_build(const rd_build_input_t *in, unsigned char **so, size_t *so_size,
                     rd_strbuf_t *log);

#endif
