/* Helpers of the real-kernel suites (kr_common.h). */
#include "kr_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const kr_form_names[KR_FORMS] = {"OpenCL C", "SPIR-V"};

void *kr_read(const char *env_var, const char *name, size_t *size)
{
    const char *dir = getenv(env_var);
    ck_assert_msg(dir != NULL, "%s is not set", env_var);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return zt_read_file(path, size);
}

static char *log_text_of(ze_module_build_log_handle_t log)
{
    if (!log)
        return NULL;
    size_t size = 0;
    ZT_OK(zeModuleBuildLogGetString(log, &size, NULL));
    char *text = malloc(size ? size : 1);
    ck_assert_ptr_nonnull(text);
    text[0] = 0;
    ZT_OK(zeModuleBuildLogGetString(log, &size, text));
    ZT_OK(zeModuleBuildLogDestroy(log));
    return text;
}

ze_result_t kr_try_module_bytes(const zt_env_t *env, ze_module_format_t format, const void *bytes,
                                size_t size, const char *flags,
                                const ze_module_constants_t *constants, ze_module_handle_t *module,
                                char **log_text)
{
    ze_module_desc_t desc = {
        ZE_STRUCTURE_TYPE_MODULE_DESC, NULL, format, size, bytes, flags, constants};
    ze_module_build_log_handle_t log = NULL;
    *module = NULL;
    ze_result_t r = zeModuleCreate(env->context, env->device, &desc, module, &log);
    char *text = log_text_of(log);
    if (log_text)
        *log_text = text;
    else
        free(text);
    return r;
}

ze_result_t kr_try_module(const zt_env_t *env, const char *program, kr_form_t form,
                          const char *flags, const ze_module_constants_t *constants,
                          ze_module_handle_t *module, char **log_text)
{
    char name[256];
    size_t size = 0;
    snprintf(name, sizeof name, "%s.%s", program, form == KR_SOURCE ? "cl" : "spv");
    void *bytes = kr_read(form == KR_SOURCE ? "ZEIL_KR_SOURCES" : "ZEIL_KR_SPIRV", name, &size);
    ze_result_t r =
        kr_try_module_bytes(env, form == KR_SOURCE ? KR_FORMAT_OCLC : ZE_MODULE_FORMAT_IL_SPIRV,
                            bytes, size, flags, constants, module, log_text);
    free(bytes);
    return r;
}

ze_module_handle_t kr_module(const zt_env_t *env, const char *program, kr_form_t form,
                             const char *flags)
{
    ze_module_handle_t module = NULL;
    char *log = NULL;
    ze_result_t r = kr_try_module(env, program, form, flags, NULL, &module, &log);
    if (r != ZE_RESULT_SUCCESS && log)
        fprintf(stderr, "%s as %s: build log:\n%s\n", program, kr_form_names[form], log);
    /* check's messages are short: the start of the log. */
    ck_assert_msg(r == ZE_RESULT_SUCCESS,
                  "%s as %s: zeModuleCreate returned 0x%x; build log:\n%.1500s", program,
                  kr_form_names[form], (unsigned)r, log ? log : "(none)");
    free(log);
    return module;
}

void kr_run(const zt_env_t *env, ze_kernel_handle_t kernel, const uint32_t group_size[3],
            const uint32_t group_count[3])
{
    ze_command_list_handle_t list = zt_immediate_list(env, 1);
    zt_launch(list, kernel, group_size, group_count, NULL, 0, NULL);
    ZT_OK(zeCommandListDestroy(list));
}

void *kr_alloc(const zt_env_t *env, size_t size)
{
    return zt_usm_alloc(env, ZT_USM_SHARED, size, 64);
}
