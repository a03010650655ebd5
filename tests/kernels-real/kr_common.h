/*
 * kr_common.h: helpers of the real-kernel suites: programs from cl/ as
 * OpenCL C source or as the SPIR-V built from it, buffers, launches.
 */
#ifndef ZEIL_KR_COMMON_H
#define ZEIL_KR_COMMON_H

#include "zt.h"

/* What a suite loops over: the same program given two ways. */
typedef enum kr_form {
    KR_SOURCE,
    KR_SPIRV,
    KR_FORMS
} kr_form_t;
extern const char *const kr_form_names[KR_FORMS];

/* OpenCL C source: format 3 (not in the 1.4 headers). */
#define KR_FORMAT_OCLC ((ze_module_format_t)3)

/* Creates a module of cl/<program>.cl in that form with the flags (may be
 * null); returns the result, the module in *module and the build log's text
 * (malloc'ed, may be null) in *log_text. */
ze_result_t kr_try_module(const zt_env_t *env, const char *program, kr_form_t form,
                          const char *flags, const ze_module_constants_t *constants,
                          ze_module_handle_t *module, char **log_text);
/* Same from bytes given by the caller. */
ze_result_t kr_try_module_bytes(const zt_env_t *env, ze_module_format_t format, const void *bytes,
                                size_t size, const char *flags,
                                const ze_module_constants_t *constants, ze_module_handle_t *module,
                                char **log_text);
/* A module that must build; fails the test with the build log otherwise. */
ze_module_handle_t kr_module(const zt_env_t *env, const char *program, kr_form_t form,
                             const char *flags);

/* Launches group_count groups of group_size on a synchronous immediate list. */
void kr_run(const zt_env_t *env, ze_kernel_handle_t kernel, const uint32_t group_size[3],
            const uint32_t group_count[3]);

/* Shared USM of size bytes. */
void *kr_alloc(const zt_env_t *env, size_t size);

/* Reads the file cl/<name> or <spirv dir>/<name>. */
void *kr_read(const char *env_var, const char *name, size_t *size);

#endif
