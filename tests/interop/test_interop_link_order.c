/* Built with libdnnl ahead of libzeil_interop in the link order: oneDNN's
 * stream, execute and memory functions would bypass zeil's, so the first
 * interop call (engine creation) is refused with E126, every time, and
 * nothing is created. */
#include "interop_fixture.h"

START_TEST(reversed_link_order_refuses_engine_creation)
{
    zt_env_t env;
    zt_open(&env);
    dnnl_engine_t engine = NULL;
    IFX_REFUSED(dnnl_runtime_error, "ZEIL-E126",
                dnnl_ze_interop_engine_create(&engine, env.driver, env.device, env.context));
    ck_assert_ptr_null(engine);
    IFX_REFUSED(dnnl_runtime_error, "ZEIL-E126",
                dnnl_ze_interop_engine_create(&engine, env.driver, env.device, env.context));
    ck_assert_ptr_null(engine);
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_link_order");
    TCase *tc = tcase_create("link_order");
    tcase_add_test(tc, reversed_link_order_refuses_engine_creation);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
