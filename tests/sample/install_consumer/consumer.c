/* An application of an installed zeil: creates an interop engine on the
 * first device and says whether the layer is active (zeil.h). Built by
 * test_install.py with find_package(zeil) and with pkg-config. */
#include <stdio.h>
#include <zeil/dnnl_ze.h>
#include <zeil/zeil.h>

int main(void)
{
    ze_driver_handle_t driver = NULL;
    ze_device_handle_t device = NULL;
    ze_context_handle_t context = NULL;
    uint32_t n = 1;
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    if (zeInit(0) || zeDriverGet(&n, &driver) || n == 0 || zeDeviceGet(driver, &n, &device) ||
        n == 0 || zeContextCreate(driver, &desc, &context)) {
        fprintf(stderr, "consumer: no Level Zero device\n");
        return 1;
    }
    dnnl_engine_t engine = NULL;
    if (dnnl_ze_interop_engine_create(&engine, driver, device, context) != dnnl_success) {
        fprintf(stderr, "consumer: dnnl_ze_interop_engine_create failed\n");
        return 1;
    }
    printf("consumer: engine created, zeil %s, active %d\n", zeil_version_string(),
           zeil_is_active());
    dnnl_engine_destroy(engine);
    zeContextDestroy(context);
    return 0;
}
