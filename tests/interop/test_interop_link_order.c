/* Built with libdnnl ahead of libzeil_interop in the link order: zeil's
 * dnnl_*_destroy cannot come first, and W151 says so once. */
#include "interop_fixture.h"

START_TEST(reversed_link_order_is_reported_once)
{
    zt_env_t env;
    zt_open(&env);
    dnnl_engine_t a = NULL, b = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_engine_create(&a, env.driver, env.device, env.context));
    IFX_DNNL_OK(dnnl_ze_interop_engine_create(&b, env.driver, env.device, env.context));
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W151"), 1);
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_link_order");
    TCase *tc = tcase_create("link_order");
    tcase_add_test(tc, reversed_link_order_is_reported_once);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
