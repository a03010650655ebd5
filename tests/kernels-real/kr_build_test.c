/*
 * Building modules: specialization constants, build options, the disk
 * cache (a hit needs no compiler; a damaged entry is rebuilt; off writes
 * nothing), every bad input (compile error, invalid SPIR-V, a foreign
 * native binary, a missing compiler) and the native round trip.
 */
#include "kr_common.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs saxpy (y = a * x + y) of module and checks it. */
static void check_saxpy(const zt_env_t *env, ze_module_handle_t module)
{
    ze_kernel_handle_t k = zt_kernel(module, "saxpy");
    enum {
        N = 256
    };
    float *y = kr_alloc(env, N * sizeof *y), *x = kr_alloc(env, N * sizeof *x);
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    float a = 2.0f;
    ZT_ARG(k, 0, y);
    ZT_ARG(k, 1, x);
    ZT_ARG(k, 2, a);
    kr_run(env, k, (uint32_t[3]){32, 1, 1}, (uint32_t[3]){N / 32, 1, 1});
    for (int i = 0; i < N; i++)
        ck_assert_msg(y[i] == 2.0f * (float)i + 1.0f, "y[%d] = %g", i, y[i]);
    ZT_OK(zeKernelDestroy(k));
}

START_TEST(test_specialization_constants)
{
    zt_env_t env;
    zt_open(&env);
    uint32_t ids[2] = {7, 8};
    int32_t seven = -3;
    float eight = 2.25f;
    const void *values[2] = {&seven, &eight};
    ze_module_constants_t constants = {2, ids, values};
    for (int with = 0; with < 2; with++) {
        ze_module_handle_t module = NULL;
        char *log = NULL;
        ze_result_t r =
            kr_try_module(&env, "spec", KR_SPIRV, NULL, with ? &constants : NULL, &module, &log);
        ck_assert_msg(r == ZE_RESULT_SUCCESS, "0x%x: %s", (unsigned)r, log ? log : "");
        free(log);
        ze_kernel_handle_t k = zt_kernel(module, "spec_fill");
        float *out = kr_alloc(&env, 64 * sizeof *out);
        ZT_ARG(k, 0, out);
        kr_run(&env, k, (uint32_t[3]){16, 1, 1}, (uint32_t[3]){4, 1, 1});
        float expected = with ? -3.0f + 2.25f : 42.0f + 0.5f;
        for (int i = 0; i < 64; i++)
            ck_assert_msg(out[i] == expected, "constants %s: out[%d] = %g, expected %g",
                          with ? "given" : "default", i, out[i], expected);
        ZT_OK(zeKernelDestroy(k));
        ZT_OK(zeModuleDestroy(module));
    }
    zt_close(&env);
}
END_TEST

START_TEST(test_build_options)
{
    zt_env_t env;
    zt_open(&env);
    const char *src = "__kernel void k(__global int *o) { o[get_global_id(0)] = VALUE * 2; }";
    ze_module_handle_t module = NULL;
    char *log = NULL;
    ze_result_t r = kr_try_module_bytes(&env, KR_FORMAT_OCLC, src, strlen(src),
                                        "-DVALUE=21 -cl-mad-enable -cl-fast-relaxed-math "
                                        "-cl-intel-greater-than-4GB-buffer-required "
                                        "-ze-opt-large-register-file -cl-std=CL3.0",
                                        NULL, &module, &log);
    ck_assert_msg(r == ZE_RESULT_SUCCESS, "0x%x: %s", (unsigned)r, log ? log : "");
    ck_assert_msg(log && strstr(log, "-cl-intel-greater-than-4GB-buffer-required") &&
                      strstr(log, "-ze-opt-large-register-file"),
                  "the ignored options are not in the build log: %s", log ? log : "");
    free(log);
    ze_kernel_handle_t k = zt_kernel(module, "k");
    int *out = kr_alloc(&env, 8 * sizeof *out);
    ZT_ARG(k, 0, out);
    kr_run(&env, k, (uint32_t[3]){8, 1, 1}, (uint32_t[3]){1, 1, 1});
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(out[i], 42);
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

/* A fresh cache directory under the suite's own; returns its path. */
static char *fresh_cache(void)
{
    const char *base = getenv("ZEIL_CPU_KERNEL_CACHE");
    ck_assert_ptr_nonnull(base);
    mkdir(base, 0700);
    char *dir = malloc(strlen(base) + 32);
    sprintf(dir, "%s/t-XXXXXX", base);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    setenv("ZEIL_CPU_KERNEL_CACHE", dir, 1);
    return dir;
}

/* The one entry of the cache directory (malloc'ed path), or null. */
static char *cache_entry(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    char *path = NULL;
    *count = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".so") && e->d_name[0] != '.') {
            (*count)++;
            free(path);
            path = malloc(strlen(dir) + strlen(e->d_name) + 2);
            sprintf(path, "%s/%s", dir, e->d_name);
        }
    closedir(d);
    return path;
}

START_TEST(test_cache)
{
    zt_env_t env;
    zt_open(&env);
    char *dir = fresh_cache();
    /* Another process fills the cache... */
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        ze_module_handle_t filled = NULL;
        _exit(kr_try_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0", NULL, &filled, NULL) ==
                      ZE_RESULT_SUCCESS
                  ? 0
                  : 1);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "the child could not build the module");
    ze_module_handle_t m = NULL;
    int count = 0;
    char *entry = cache_entry(dir, &count);
    ck_assert_int_eq(count, 1);
    /* ... and this one hits it: a hit runs nothing, while a build would
     * need a temporary directory. */
    setenv("TMPDIR", "/nonexistent/zeil-no-tmp", 1);
    m = kr_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0");
    check_saxpy(&env, m);
    ZT_OK(zeModuleDestroy(m));
    /* A damaged entry is rebuilt (and fails while the tools are missing). */
    FILE *f = fopen(entry, "r+b");
    ck_assert_ptr_nonnull(f);
    fseek(f, 200, SEEK_SET);
    fputc(0x5a ^ fgetc(f), f);
    fclose(f);
    ck_assert_int_ne(kr_try_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0", NULL, &m, NULL),
                     ZE_RESULT_SUCCESS);
    unsetenv("TMPDIR");
    m = kr_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0");
    check_saxpy(&env, m);
    ZT_OK(zeModuleDestroy(m));
    /* Other flags are another entry. */
    m = kr_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0 -DUNUSED=1");
    ZT_OK(zeModuleDestroy(m));
    free(cache_entry(dir, &count));
    ck_assert_int_eq(count, 2);
    /* Off: nothing is written. */
    char *off_dir = fresh_cache();
    setenv("ZEIL_CPU_KERNEL_CACHE", "off", 1);
    m = kr_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0 -DOTHER=2");
    ZT_OK(zeModuleDestroy(m));
    free(cache_entry(dir, &count));
    ck_assert_int_eq(count, 2);
    free(cache_entry(off_dir, &count));
    ck_assert_int_eq(count, 0);
    free(entry);
    free(dir);
    free(off_dir);
    zt_close(&env);
}
END_TEST

START_TEST(test_bad_inputs)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t m = NULL;
    char *log = NULL;
    /* A compile error: clang's diagnostics in the log. */
    ck_assert_int_eq(kr_try_module(&env, "bad", KR_SOURCE, NULL, NULL, &m, &log),
                     ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    ck_assert_msg(log && strstr(log, "undeclared_variable") && strstr(log, "error"), "log: %s",
                  log ? log : "");
    free(log);
    /* Invalid SPIR-V: a good header, then words that are no instructions. */
    uint32_t spirv[64] = {0x07230203u, 0x00010000u, 0, 16, 0};
    for (int i = 5; i < 64; i++)
        spirv[i] = 0x00010000u | (uint32_t)(i * 37);
    ck_assert_int_eq(kr_try_module_bytes(&env, ZE_MODULE_FORMAT_IL_SPIRV, spirv, sizeof spirv, NULL,
                                         NULL, &m, &log),
                     ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    ck_assert_msg(log && log[0], "empty log for invalid SPIR-V");
    free(log);
    /* A foreign native binary (an Intel zebin is an ELF for another machine;
     * here plain garbage and a SPIR-V module). */
    unsigned char garbage[4096];
    for (size_t i = 0; i < sizeof garbage; i++)
        garbage[i] = (unsigned char)(i * 167 + 3);
    ck_assert_int_eq(kr_try_module_bytes(&env, ZE_MODULE_FORMAT_NATIVE, garbage, sizeof garbage,
                                         NULL, NULL, &m, NULL),
                     ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
    ck_assert_int_eq(kr_try_module_bytes(&env, ZE_MODULE_FORMAT_NATIVE, spirv, sizeof spirv, NULL,
                                         NULL, &m, NULL),
                     ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
    /* A missing compiler: the log names the package. */
    setenv("ZEIL_CPU_KERNEL_CACHE", "off", 1);
    setenv("ZEIL_CPU_CLANG", "zeil-no-such-clang", 1);
    ck_assert_int_eq(kr_try_module(&env, "basic", KR_SOURCE, "-cl-std=CL2.0", NULL, &m, &log),
                     ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    ck_assert_msg(log && strstr(log, "clang-15"), "log: %s", log ? log : "");
    free(log);
    unsetenv("ZEIL_CPU_CLANG");
    setenv("ZEIL_CPU_LLVM_SPIRV", "zeil-no-such-llvm-spirv", 1);
    ck_assert_int_eq(kr_try_module(&env, "basic", KR_SPIRV, NULL, NULL, &m, &log),
                     ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    ck_assert_msg(log && strstr(log, "llvm-spirv-15"), "log: %s", log ? log : "");
    free(log);
    unsetenv("ZEIL_CPU_LLVM_SPIRV");
    /* The same when PATH has no compiler. */
    char *path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    setenv("PATH", "/nonexistent/zeil-no-tools", 1);
    ck_assert_int_eq(kr_try_module(&env, "basic", KR_SOURCE, "-cl-std=CL2.0", NULL, &m, &log),
                     ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    ck_assert_msg(log && strstr(log, "install the Debian package clang-15"), "log: %s",
                  log ? log : "");
    free(log);
    setenv("PATH", path, 1);
    free(path);
    /* Format 4 does not exist. */
    ck_assert_int_eq(
        kr_try_module_bytes(&env, (ze_module_format_t)4, garbage, 16, NULL, NULL, &m, NULL),
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
    zt_close(&env);
}
END_TEST

START_TEST(test_native_round_trip)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t m = kr_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0");
    size_t size = 0;
    ZT_OK(zeModuleGetNativeBinary(m, &size, NULL));
    ck_assert_uint_gt(size, 0);
    uint8_t *bin = malloc(size);
    ZT_OK(zeModuleGetNativeBinary(m, &size, bin));
    ZT_OK(zeModuleDestroy(m));
    /* Without any compiler: the binary is loaded as it is. */
    setenv("ZEIL_CPU_KERNEL_CACHE", "off", 1);
    setenv("ZEIL_CPU_CLANG", "zeil-no-such-clang", 1);
    ze_module_handle_t again = NULL;
    ZT_OK(kr_try_module_bytes(&env, ZE_MODULE_FORMAT_NATIVE, bin, size, NULL, NULL, &again, NULL));
    check_saxpy(&env, again);
    ZT_OK(zeModuleDestroy(again));
    unsetenv("ZEIL_CPU_CLANG");
    free(bin);
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kr_build");
    TCase *tc = tcase_create("build");
    tcase_add_test(tc, test_specialization_constants);
    tcase_add_test(tc, test_build_options);
    tcase_add_loop_test(tc, test_cache, 0, KR_FORMS);
    tcase_add_test(tc, test_bad_inputs);
    tcase_add_loop_test(tc, test_native_round_trip, 0, KR_FORMS);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
