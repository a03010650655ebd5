/*
 * Plain host memory in make_memory and execute, as oneDNN accepts it: when
 * the device reports sharedSystemAllocCapabilities, a handle that is no USM
 * is used as it is (oneDNN's memory_create checks the pointer type and
 * engine->mayiuse_system_memory_allocators()); otherwise it is refused
 * (E120). A handle that lies where freed USM was is refused (E122) only when
 * the device cannot use it; otherwise it passes with W153, also when the C
 * heap put ordinary memory at that address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interop_fixture.h"

static const dnnl_dim_t dims[1] = {64};

/* ReLU from src into dst through the interop execute; waits for it. */
static void relu(const ifx_t *f, dnnl_memory_t src, dnnl_memory_t dst)
{
    dnnl_memory_desc_t md = ifx_md(1, dims);
    dnnl_primitive_t prim = ifx_eltwise(f->engine, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    ze_event_handle_t done = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(prim, f->stream, 2, args, 0, NULL, &done));
    ifx_wait(done);
    IFX_DNNL_OK(dnnl_primitive_destroy(prim));
}

START_TEST(host_memory_accepted_on_device_with_system_memory)
{
    zt_set_system_memory(1);
    ifx_t f;
    ifx_open(&f);
    dnnl_memory_desc_t md = ifx_md(1, dims);
    float *in = aligned_alloc(64, 64 * sizeof(float));
    float *out = aligned_alloc(64, 64 * sizeof(float));
    for (int i = 0; i < 64; i++) {
        in[i] = (float)(i - 32);
        out[i] = -1;
    }
    uint64_t errors = zeil_rule_count("ZEIL-E120");
    dnnl_memory_t src = NULL, dst = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&src, &md, f.engine, 1, (void **)&in));
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&dst, &md, f.engine, 1, (void **)&out));
    relu(&f, src, dst);
    for (int i = 0; i < 64; i++)
        ck_assert_float_eq(out[i], in[i] > 0 ? in[i] : 0);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E120"), errors);
    IFX_DNNL_OK(dnnl_memory_destroy(src));
    IFX_DNNL_OK(dnnl_memory_destroy(dst));
    free(in);
    free(out);
    ifx_close(&f);
}
END_TEST

START_TEST(host_memory_refused_on_device_without_system_memory)
{
    zt_set_system_memory(0);
    ifx_t f;
    ifx_open(&f);
    dnnl_memory_desc_t md = ifx_md(1, dims);
    void *host = malloc(64 * sizeof(float));
    dnnl_memory_t memory = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E120",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, 1, &host));
    ck_assert_ptr_null(memory);
    free(host);
    ifx_close(&f);
    zt_set_system_memory(1);
}
END_TEST

/* Memory made over device USM that is then freed: *freed is the buffer. */
static dnnl_memory_t memory_over_freed_usm(const ifx_t *f, void **freed)
{
    dnnl_memory_desc_t md = ifx_md(1, dims);
    *freed = ifx_device_alloc(&f->env, 64 * sizeof(float));
    dnnl_memory_t memory = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&memory, &md, f->engine, 1, freed));
    ZT_OK(zeMemFree(f->env.context, *freed));
    return memory;
}

START_TEST(heap_reuse_of_freed_usm_accepted_with_system_memory)
{
    zt_set_system_memory(1);
    ifx_t f;
    ifx_open(&f);
    dnnl_memory_desc_t md = ifx_md(1, dims);
    float in[64];
    for (int i = 0; i < 64; i++)
        in[i] = (float)(i % 7) - 3;
    dnnl_memory_t src = ifx_memory(&f, &md, in, NULL);
    void *freed;
    dnnl_memory_t stale = memory_over_freed_usm(&f, &freed);
    float *host = zt_heap_reuse(freed, 64 * sizeof(float));
    if (!host) { /* an arena driver, or a sanitizer's quarantine */
        fprintf(stderr, "note: the C heap put nothing where the USM was; nothing to check\n");
        IFX_DNNL_OK(dnnl_memory_destroy(stale));
        IFX_DNNL_OK(dnnl_memory_destroy(src));
        ifx_close(&f);
        return;
    }
    float *target = host;
    uint64_t warnings = zeil_rule_count("ZEIL-W153");
    uint64_t refusals = zeil_rule_count("ZEIL-E122");
    /* make_memory over the reused address */
    dnnl_memory_t dst = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&dst, &md, f.engine, 1, (void **)&target));
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W153"), warnings + 1);
    relu(&f, src, dst); /* execute: one more W153 for the argument */
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W153"), warnings + 2);
    for (int i = 0; i < 64; i++)
        ck_assert_float_eq(target[i], in[i] > 0 ? in[i] : 0);
    /* the memory object made before the free names the same address */
    relu(&f, src, stale);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W153"), warnings + 3);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E122"), refusals);
    IFX_DNNL_OK(dnnl_memory_destroy(dst));
    IFX_DNNL_OK(dnnl_memory_destroy(stale));
    IFX_DNNL_OK(dnnl_memory_destroy(src));
    free(host);
    ifx_close(&f);
}
END_TEST

START_TEST(heap_reuse_of_freed_usm_refused_without_system_memory)
{
    zt_set_system_memory(0);
    ifx_t f;
    ifx_open(&f);
    dnnl_memory_desc_t md = ifx_md(1, dims);
    dnnl_memory_t src = ifx_memory(&f, &md, NULL, NULL);
    void *freed;
    dnnl_memory_t stale = memory_over_freed_usm(&f, &freed);
    void *host = zt_heap_reuse(freed, 64 * sizeof(float));
    void *target = host ? host : freed;
    uint64_t warnings = zeil_rule_count("ZEIL-W153");
    dnnl_memory_t dst = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E122",
                dnnl_ze_interop_memory_create(&dst, &md, f.engine, 1, &target));
    dnnl_memory_desc_t prim_md = ifx_md(1, dims);
    dnnl_primitive_t prim = ifx_eltwise(f.engine, &prim_md, dnnl_eltwise_relu, 0, 0);
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, stale}};
    ze_event_handle_t done = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E122",
                dnnl_ze_interop_primitive_execute(prim, f.stream, 2, args, 0, NULL, &done));
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W153"), warnings);
    IFX_DNNL_OK(dnnl_primitive_destroy(prim));
    IFX_DNNL_OK(dnnl_memory_destroy(stale));
    IFX_DNNL_OK(dnnl_memory_destroy(src));
    free(host);
    ifx_close(&f);
    zt_set_system_memory(1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_system_memory");
    TCase *tc = tcase_create("system_memory");
    tcase_add_test(tc, host_memory_accepted_on_device_with_system_memory);
    tcase_add_test(tc, host_memory_refused_on_device_without_system_memory);
    tcase_add_test(tc, heap_reuse_of_freed_usm_accepted_with_system_memory);
    tcase_add_test(tc, heap_reuse_of_freed_usm_refused_without_system_memory);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
