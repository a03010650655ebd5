/*
 * Modules: native binaries in and out (round trip), kernel names, two
 * different modules side by side, build logs, and refusal of SPIR-V, garbage,
 * truncated and foreign ELF objects with the spec's error codes.
 */
#include "zt.h"
#include "test_kernels.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static ze_result_t create_module(const zt_env_t *env, ze_module_format_t format, const void *bytes,
                                 size_t size, ze_module_handle_t *module,
                                 ze_module_build_log_handle_t *log)
{
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC, NULL, format, size, bytes, NULL, NULL};
    return zeModuleCreate(env->context, env->device, &desc, module, log);
}

static void *read_env_file(const char *var, size_t *size)
{
    const char *path = getenv(var);
    ck_assert_msg(path != NULL, "%s is not set", var);
    return zt_read_file(path, size);
}

/* The build log as a malloc'd string; checks the size query convention. */
static char *build_log_text(ze_module_build_log_handle_t log)
{
    size_t size = 0;
    ZT_OK(zeModuleBuildLogGetString(log, &size, NULL));
    ck_assert_uint_ge(size, 1);
    char *text = malloc(size);
    memset(text, 'x', size);
    ZT_OK(zeModuleBuildLogGetString(log, &size, text));
    ck_assert_msg(text[size - 1] == '\0', "build log is not terminated within its size");
    ck_assert_uint_eq(strlen(text) + 1, size);
    return text;
}

static int has_kernel(const char **names, uint32_t count, const char *name)
{
    for (uint32_t i = 0; i < count; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

START_TEST(test_native_binary_round_trip)
{
    zt_env_t env;
    zt_open(&env);
    size_t file_size = 0;
    void *file = read_env_file("ZEIL_TEST_KERNELS", &file_size);
    ze_module_handle_t module = NULL;
    ZT_OK(create_module(&env, ZE_MODULE_FORMAT_NATIVE, file, file_size, &module, NULL));

    size_t size = 0;
    ZT_OK(zeModuleGetNativeBinary(module, &size, NULL));
    ck_assert_uint_eq(size, file_size);
    uint8_t *binary = malloc(size);
    ZT_OK(zeModuleGetNativeBinary(module, &size, binary));
    ck_assert_uint_eq(size, file_size);
    ck_assert_int_eq(memcmp(binary, file, size), 0);
    /* The binary belongs to the caller: the module does not depend on it. */
    free(file);

    ze_module_handle_t again = NULL;
    ZT_OK(create_module(&env, ZE_MODULE_FORMAT_NATIVE, binary, size, &again, NULL));
    memset(binary, 0, size);
    free(binary);
    ck_assert_ptr_ne(again, module);
    ZT_OK(zeModuleDestroy(module));

    /* The re-created module still runs its kernels. */
    ze_kernel_handle_t add = zt_kernel(again, TK_VECTOR_ADD);
    ze_command_list_handle_t list = zt_immediate_list(&env, 1);
    float *v = zt_usm_alloc(&env, ZT_USM_SHARED, 3 * 64 * sizeof(float), 0);
    for (int i = 0; i < 64; i++) {
        v[i] = (float)i;
        v[64 + i] = 1000.0f;
    }
    float *a = v, *b = v + 64, *c = v + 128;
    uint64_t n = 64;
    ZT_ARG(add, 0, a);
    ZT_ARG(add, 1, b);
    ZT_ARG(add, 2, c);
    ZT_ARG(add, 3, n);
    const uint32_t size3[3] = {16, 1, 1}, count3[3] = {4, 1, 1};
    zt_launch(list, add, size3, count3, NULL, 0, NULL);
    for (int i = 0; i < 64; i++)
        ck_assert_float_eq(c[i], 1000.0f + (float)i);
    ZT_OK(zeMemFree(env.context, v));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeKernelDestroy(add));
    ZT_OK(zeModuleDestroy(again));
    zt_close(&env);
}
END_TEST

START_TEST(test_kernel_names)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = zt_load_test_module(&env);
    uint32_t count = 0;
    ZT_OK(zeModuleGetKernelNames(module, &count, NULL));
    ck_assert_uint_eq(count, TK_NUM_KERNELS);
    const char *names[TK_NUM_KERNELS] = {0};
    ZT_OK(zeModuleGetKernelNames(module, &count, names));
    ck_assert_uint_eq(count, TK_NUM_KERNELS);
    const char *expected[TK_NUM_KERNELS] = {TK_VECTOR_ADD,      TK_REDUCE_SUM, TK_SCALE,
                                            TK_RECORD_GEOMETRY, TK_SPIN,       TK_STAMP,
                                            TK_NULL_PROBE};
    for (uint32_t i = 0; i < TK_NUM_KERNELS; i++)
        ck_assert_msg(has_kernel(names, count, expected[i]), "%s missing", expected[i]);
    /* Asking for fewer names returns that many. */
    const char *first[2] = {0};
    count = 2;
    ZT_OK(zeModuleGetKernelNames(module, &count, first));
    ck_assert_uint_eq(count, 2);
    ck_assert_ptr_nonnull(first[0]);
    ck_assert_ptr_nonnull(first[1]);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeModuleGetKernelNames(module, NULL, NULL));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

START_TEST(test_two_modules_side_by_side)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t main_module = zt_load_test_module(&env);
    ze_module_handle_t other = zt_load_module_from_env(&env, "ZEIL_TEST_KERNELS_OTHER");
    uint32_t count = 0;
    ZT_OK(zeModuleGetKernelNames(other, &count, NULL));
    ck_assert_uint_eq(count, 2);
    const char *names[2];
    ZT_OK(zeModuleGetKernelNames(other, &count, names));
    ck_assert(has_kernel(names, 2, TK_OTHER_NEGATE) && has_kernel(names, 2, TK_OTHER_IOTA));

    ze_kernel_handle_t k = NULL;
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, TK_VECTOR_ADD};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, zeKernelCreate(other, &desc, &k));
    desc.pKernelName = TK_OTHER_IOTA;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, zeKernelCreate(main_module, &desc, &k));

    ze_kernel_handle_t iota = zt_kernel(other, TK_OTHER_IOTA);
    ze_command_list_handle_t list = zt_immediate_list(&env, 1);
    enum {
        N = 1000
    };
    uint32_t *out = zt_usm_alloc(&env, ZT_USM_SHARED, N * sizeof(uint32_t), 0);
    uint64_t n = N;
    ZT_ARG(iota, 0, out);
    ZT_ARG(iota, 1, n);
    const uint32_t gs[3] = {64, 1, 1}, gc[3] = {(N + 63) / 64, 1, 1};
    zt_launch(list, iota, gs, gc, NULL, 0, NULL);
    for (uint32_t i = 0; i < N; i++)
        ck_assert_uint_eq(out[i], i);
    ZT_OK(zeMemFree(env.context, out));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeKernelDestroy(iota));
    ZT_OK(zeModuleDestroy(other));
    ZT_OK(zeModuleDestroy(main_module));
    zt_close(&env);
}
END_TEST

START_TEST(test_build_log_on_success)
{
    zt_env_t env;
    zt_open(&env);
    size_t size = 0;
    void *file = read_env_file("ZEIL_TEST_KERNELS", &size);
    ze_module_handle_t module = NULL;
    ze_module_build_log_handle_t log = NULL;
    ZT_OK(create_module(&env, ZE_MODULE_FORMAT_NATIVE, file, size, &module, &log));
    ck_assert_ptr_nonnull(log);
    free(build_log_text(log));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeModuleBuildLogGetString(log, NULL, NULL));
    ZT_OK(zeModuleBuildLogDestroy(log));
    ZT_OK(zeModuleDestroy(module));
    free(file);
    zt_close(&env);
}
END_TEST

START_TEST(test_spirv_refused_with_log)
{
    zt_env_t env;
    zt_open(&env);
    /* A SPIR-V header (magic, version 1.0, generator, bound, schema), then an
     * instruction of 4 words cut after its first. */
    const uint32_t spirv[] = {0x07230203u, 0x00010000u, 0, 16, 0, 0x00040047u};
    ze_module_handle_t module = NULL;
    ze_module_build_log_handle_t log = NULL;
    ZT_RESULT(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
              create_module(&env, ZE_MODULE_FORMAT_IL_SPIRV, spirv, sizeof spirv, &module, &log));
    ck_assert_ptr_nonnull(log);
    char *text = build_log_text(log);
    ck_assert_msg(strcasestr(text, "SPIR-V") != NULL, "build log does not mention SPIR-V: %s",
                  text);
    free(text);
    ZT_OK(zeModuleBuildLogDestroy(log));
    zt_close(&env);
}
END_TEST

/* Native input that is not a module for this driver: _i selects garbage,
 * a truncated copy of the test library, an ELF object without the module
 * symbol, and one with an unknown ABI version. */
START_TEST(test_bad_native_binaries_refused)
{
    zt_env_t env;
    zt_open(&env);
    size_t size = 0;
    uint8_t *bytes = NULL;
    const char *what = NULL;
    switch (_i) {
    case 0:
        what = "garbage";
        size = 8192;
        bytes = malloc(size);
        for (size_t i = 0; i < size; i++)
            bytes[i] = (uint8_t)(i * 131 + 7);
        break;
    case 1:
        what = "truncated ELF";
        bytes = read_env_file("ZEIL_TEST_KERNELS", &size);
        size = size > 1024 ? 1024 : size / 2;
        break;
    case 2:
        what = "ELF without zeil_cpu_module";
        bytes = read_env_file("ZEIL_TEST_NOT_A_MODULE", &size);
        break;
    default:
        what = "unknown ABI version";
        bytes = read_env_file("ZEIL_TEST_BAD_ABI_MODULE", &size);
        break;
    }
    ze_module_handle_t module = NULL;
    ze_module_build_log_handle_t log = NULL;
    ze_result_t r = create_module(&env, ZE_MODULE_FORMAT_NATIVE, bytes, size, &module, &log);
    ck_assert_msg(r == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY ||
                      r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
                  "%s: zeModuleCreate returned 0x%x", what, (unsigned)r);
    if (log) {
        char *text = build_log_text(log);
        ck_assert_msg(text[0] != '\0', "%s: empty build log", what);
        free(text);
        ZT_OK(zeModuleBuildLogDestroy(log));
    }
    free(bytes);
    /* The driver is still fine. */
    ze_module_handle_t good = zt_load_test_module(&env);
    ZT_OK(zeModuleDestroy(good));
    zt_close(&env);
}
END_TEST

START_TEST(test_bad_arguments_refused)
{
    zt_env_t env;
    zt_open(&env);
    uint8_t byte = 0;
    ze_module_handle_t module = NULL;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              create_module(&env, ZE_MODULE_FORMAT_NATIVE, &byte, 0, &module, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              create_module(&env, ZE_MODULE_FORMAT_NATIVE, NULL, 16, &module, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              create_module(&env, ZE_MODULE_FORMAT_NATIVE, &byte, 1, NULL, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION,
              create_module(&env, (ze_module_format_t)5, &byte, 1, &module, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeModuleCreate(env.context, env.device, NULL, &module, NULL));

    module = zt_load_test_module(&env);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeModuleGetNativeBinary(module, NULL, NULL));
    ze_kernel_handle_t k = NULL;
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, NULL};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeKernelCreate(module, &desc, &k));
    desc.pKernelName = TK_SPIN;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeKernelCreate(module, NULL, &k));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeKernelCreate(module, &desc, NULL));
    desc.pKernelName = "no_such_kernel";
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, zeKernelCreate(module, &desc, &k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

static Suite *module_suite(void)
{
    Suite *s = suite_create("driver_module");
    TCase *tc = tcase_create("module");
    tcase_add_test(tc, test_native_binary_round_trip);
    tcase_add_test(tc, test_kernel_names);
    tcase_add_test(tc, test_two_modules_side_by_side);
    tcase_add_test(tc, test_build_log_on_success);
    tcase_add_test(tc, test_spirv_refused_with_log);
    tcase_add_loop_test(tc, test_bad_native_binaries_refused, 0, 4);
    tcase_add_test(tc, test_bad_arguments_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(module_suite());
}
