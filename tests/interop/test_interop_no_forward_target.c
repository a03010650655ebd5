/* ZEIL_INTEROP_BACKEND=forward with no other dnnl_ze_interop_* in the
 * process: engine creation is refused (E152), nothing is created. */
#include "interop_fixture.h"

START_TEST(forward_without_a_target_is_refused)
{
    zt_env_t env;
    zt_open(&env);
    dnnl_engine_t engine = NULL;
    IFX_REFUSED(dnnl_runtime_error, "ZEIL-E152",
                dnnl_ze_interop_engine_create(&engine, env.driver, env.device, env.context));
    ck_assert_ptr_null(engine);
    size_t size = 0;
    IFX_REFUSED(dnnl_runtime_error, "ZEIL-E152",
                dnnl_ze_interop_engine_get_cache_blob_id(env.driver, env.device, &size, NULL));
    zeil_live_counts_t counts;
    zeil_get_live_counts(&counts);
    ck_assert_uint_eq(counts.handles[ZEIL_KIND_MODULE], 0);
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_no_forward_target");
    TCase *tc = tcase_create("no_forward_target");
    tcase_add_test(tc, forward_without_a_target_is_refused);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
