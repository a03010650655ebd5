/*
 * ZEIL_CPU_DEVICES=3 (set by CMake for this suite): three CPU devices with
 * distinct handles and UUIDs, usable together in one context, and memory that
 * remembers which device it belongs to.
 */
#include "zt.h"

#include <string.h>

#define DEVICES 3

static void get_devices(ze_driver_handle_t *driver, ze_device_handle_t devices[DEVICES])
{
    ZT_OK(zeInit(0));
    uint32_t n = 1;
    ZT_OK(zeDriverGet(&n, driver));
    n = 0;
    ZT_OK(zeDeviceGet(*driver, &n, NULL));
    ck_assert_uint_eq(n, DEVICES);
    ZT_OK(zeDeviceGet(*driver, &n, devices));
    ck_assert_uint_eq(n, DEVICES);
}

START_TEST(test_three_distinct_devices)
{
    ze_driver_handle_t driver;
    ze_device_handle_t devices[DEVICES];
    get_devices(&driver, devices);
    ze_device_properties_t props[DEVICES];
    for (int i = 0; i < DEVICES; i++) {
        props[i] = (ze_device_properties_t){.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
        ZT_OK(zeDeviceGetProperties(devices[i], &props[i]));
        ck_assert_int_eq(props[i].type, ZE_DEVICE_TYPE_CPU);
        for (int j = 0; j < i; j++) {
            ck_assert_ptr_ne(devices[i], devices[j]);
            ck_assert_msg(memcmp(props[i].uuid.id, props[j].uuid.id, ZE_MAX_DEVICE_UUID_SIZE) != 0,
                          "devices %d and %d share a UUID", i, j);
        }
    }
}
END_TEST

START_TEST(test_context_over_all_devices)
{
    ze_driver_handle_t driver;
    ze_device_handle_t devices[DEVICES];
    get_devices(&driver, devices);
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t context = NULL;
    ZT_OK(zeContextCreateEx(driver, &desc, DEVICES, devices, &context));
    for (int i = 0; i < DEVICES; i++) {
        zt_env_t env = {driver, devices[i], context};
        void *ptr = zt_usm_alloc(&env, ZT_USM_DEVICE, 4096, 0);
        ze_memory_allocation_properties_t props = {
            .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        ze_device_handle_t owner = NULL;
        ZT_OK(zeMemGetAllocProperties(context, (char *)ptr + 100, &props, &owner));
        ck_assert_int_eq(props.type, ZE_MEMORY_TYPE_DEVICE);
        ck_assert_ptr_eq(owner, devices[i]);
        ZT_OK(zeMemFree(context, ptr));
    }
    ZT_OK(zeContextDestroy(context));
}
END_TEST

START_TEST(test_work_on_last_device)
{
    ze_driver_handle_t driver;
    ze_device_handle_t devices[DEVICES];
    get_devices(&driver, devices);
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    zt_env_t env = {driver, devices[DEVICES - 1], NULL};
    ZT_OK(zeContextCreate(driver, &desc, &env.context));
    ze_command_list_handle_t list = zt_immediate_list(&env, 1);
    uint32_t *buf = zt_usm_alloc(&env, ZT_USM_SHARED, 1024 * sizeof(uint32_t), 0);
    uint32_t pattern = 0xdecafbadu;
    ZT_OK(zeCommandListAppendMemoryFill(list, buf, &pattern, sizeof pattern,
                                        1024 * sizeof(uint32_t), NULL, 0, NULL));
    for (int i = 0; i < 1024; i++)
        if (buf[i] != pattern)
            ck_abort_msg("word %d is %x after the fill", i, buf[i]);
    ZT_OK(zeMemFree(env.context, buf));
    ZT_OK(zeCommandListDestroy(list));
    zt_close(&env);
}
END_TEST

static Suite *multidevice_suite(void)
{
    Suite *s = suite_create("driver_multidevice");
    TCase *tc = tcase_create("multidevice");
    tcase_add_test(tc, test_three_distinct_devices);
    tcase_add_test(tc, test_context_over_all_devices);
    tcase_add_test(tc, test_work_on_last_device);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(multidevice_suite());
}
