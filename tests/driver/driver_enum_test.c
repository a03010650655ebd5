/*
 * Driver and device enumeration and properties, through the loader: one
 * driver, one CPU device by default, and honest, self-consistent properties.
 */
#include "zt.h"

#include <stdlib.h>
#include <string.h>

static int bytes_all_zero(const uint8_t *bytes, size_t size)
{
    for (size_t i = 0; i < size; i++)
        if (bytes[i])
            return 0;
    return 1;
}

START_TEST(test_one_driver_one_device)
{
    ZT_OK(zeInit(0));
    uint32_t drivers = 0;
    ZT_OK(zeDriverGet(&drivers, NULL));
    ck_assert_uint_eq(drivers, 1);
    ze_driver_handle_t driver = NULL;
    ZT_OK(zeDriverGet(&drivers, &driver));
    ck_assert_ptr_nonnull(driver);

    uint32_t devices = 0;
    ZT_OK(zeDeviceGet(driver, &devices, NULL));
    ck_assert_uint_eq(devices, 1); /* ZEIL_CPU_DEVICES is unset */
    /* Asking for more than there are returns what there is. */
    ze_device_handle_t handles[4] = {0};
    devices = 4;
    ZT_OK(zeDeviceGet(driver, &devices, handles));
    ck_assert_uint_eq(devices, 1);
    ck_assert_ptr_nonnull(handles[0]);
    ck_assert_ptr_null(handles[1]);
}
END_TEST

START_TEST(test_device_handles_are_stable)
{
    /* "Multiple calls to this function will return identical device handles,
     * in the same order." */
    zt_env_t env;
    zt_open(&env);
    ze_device_handle_t again = NULL;
    uint32_t n = 1;
    ZT_OK(zeDeviceGet(env.driver, &n, &again));
    ck_assert_ptr_eq(again, env.device);
    zt_close(&env);
}
END_TEST

START_TEST(test_driver_properties)
{
    zt_env_t env;
    zt_open(&env);
    ze_driver_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
    ZT_OK(zeDriverGetProperties(env.driver, &props));
    ck_assert_msg(!bytes_all_zero(props.uuid.id, ZE_MAX_DRIVER_UUID_SIZE),
                  "driver uuid is all zero");

    ze_api_version_t version = 0;
    ZT_OK(zeDriverGetApiVersion(env.driver, &version));
    ck_assert_uint_ge(ZE_MAJOR_VERSION(version), 1);
    ck_assert_uint_le(version, ZE_API_VERSION_CURRENT);

    uint32_t extensions = 0;
    ZT_OK(zeDriverGetExtensionProperties(env.driver, &extensions, NULL));
    if (extensions > 0) {
        ze_driver_extension_properties_t *ext = calloc(extensions, sizeof *ext);
        ZT_OK(zeDriverGetExtensionProperties(env.driver, &extensions, ext));
        for (uint32_t i = 0; i < extensions; i++)
            ck_assert_uint_gt(strnlen(ext[i].name, ZE_MAX_EXTENSION_NAME), 0);
        free(ext);
    }
    zt_close(&env);
}
END_TEST

START_TEST(test_device_properties)
{
    zt_env_t env;
    zt_open(&env);
    ze_device_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ZT_OK(zeDeviceGetProperties(env.device, &props));
    ck_assert_int_eq(props.type, ZE_DEVICE_TYPE_CPU);
    size_t name_len = strnlen(props.name, ZE_MAX_DEVICE_NAME);
    ck_assert_msg(name_len > 0 && name_len < ZE_MAX_DEVICE_NAME,
                  "device name empty or unterminated");
    ck_assert_msg(!bytes_all_zero(props.uuid.id, ZE_MAX_DEVICE_UUID_SIZE),
                  "device uuid is all zero");
    ck_assert_uint_ge(props.numSlices, 1);
    ck_assert_uint_ge(props.numSubslicesPerSlice, 1);
    ck_assert_uint_ge(props.numEUsPerSubslice, 1);
    ck_assert_uint_ge(props.numThreadsPerEU, 1);
    ck_assert_uint_gt(props.maxMemAllocSize, 0);
    ck_assert_uint_gt(props.timerResolution, 0);
    ck_assert_uint_gt(props.kernelTimestampValidBits, 0);
    ck_assert_uint_le(props.kernelTimestampValidBits, 64);
    /* The CPU device is not a sub-device. */
    ck_assert_uint_eq(props.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE, 0);

    uint32_t memories = 0;
    ZT_OK(zeDeviceGetMemoryProperties(env.device, &memories, NULL));
    ck_assert_uint_ge(memories, 1);
    ze_device_memory_properties_t mem = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES};
    memories = 1;
    ZT_OK(zeDeviceGetMemoryProperties(env.device, &memories, &mem));
    ck_assert_uint_gt(mem.totalSize, 0);
    ck_assert_uint_le(props.maxMemAllocSize, mem.totalSize);
    zt_close(&env);
}
END_TEST

START_TEST(test_compute_properties)
{
    zt_env_t env;
    zt_open(&env);
    ze_device_compute_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ZT_OK(zeDeviceGetComputeProperties(env.device, &props));
    ck_assert_uint_ge(props.maxTotalGroupSize, 1);
    ck_assert_uint_ge(props.maxGroupSizeX, 1);
    ck_assert_uint_ge(props.maxGroupSizeY, 1);
    ck_assert_uint_ge(props.maxGroupSizeZ, 1);
    ck_assert_uint_le(props.maxGroupSizeX, props.maxTotalGroupSize);
    ck_assert_uint_ge(props.maxGroupCountX, 1);
    ck_assert_uint_ge(props.maxGroupCountY, 1);
    ck_assert_uint_ge(props.maxGroupCountZ, 1);
    zt_close(&env);
}
END_TEST

START_TEST(test_queue_groups)
{
    zt_env_t env;
    zt_open(&env);
    uint32_t groups = 0;
    ZT_OK(zeDeviceGetCommandQueueGroupProperties(env.device, &groups, NULL));
    ck_assert_uint_ge(groups, 1);
    ze_command_queue_group_properties_t *props = calloc(groups, sizeof *props);
    for (uint32_t i = 0; i < groups; i++)
        props[i].stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
    ZT_OK(zeDeviceGetCommandQueueGroupProperties(env.device, &groups, props));
    /* The suites use ordinal 0 for kernels, copies and fills of up to 128-byte
     * patterns. */
    ck_assert_uint_ne(props[0].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE, 0);
    ck_assert_uint_ne(props[0].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY, 0);
    ck_assert_uint_ge(props[0].numQueues, 1);
    ck_assert_uint_ge(props[0].maxMemoryFillPatternSize, 128);
    free(props);
    zt_close(&env);
}
END_TEST

START_TEST(test_no_sub_devices)
{
    zt_env_t env;
    zt_open(&env);
    uint32_t subs = 7;
    ZT_OK(zeDeviceGetSubDevices(env.device, &subs, NULL));
    ck_assert_uint_eq(subs, 0);
    zt_close(&env);
}
END_TEST

START_TEST(test_null_outputs_refused)
{
    zt_env_t env;
    zt_open(&env);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDeviceGet(env.driver, NULL, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDeviceGetProperties(env.device, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDeviceGetComputeProperties(env.device, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeDeviceGetMemoryProperties(env.device, NULL, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeDeviceGetCommandQueueGroupProperties(env.device, NULL, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDeviceGetSubDevices(env.device, NULL, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDriverGetProperties(env.driver, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDriverGetApiVersion(env.driver, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeDriverGetExtensionProperties(env.driver, NULL, NULL));
    zt_close(&env);
}
END_TEST

static Suite *enum_suite(void)
{
    Suite *s = suite_create("driver_enum");
    TCase *tc = tcase_create("enum");
    tcase_add_test(tc, test_one_driver_one_device);
    tcase_add_test(tc, test_device_handles_are_stable);
    tcase_add_test(tc, test_driver_properties);
    tcase_add_test(tc, test_device_properties);
    tcase_add_test(tc, test_compute_properties);
    tcase_add_test(tc, test_queue_groups);
    tcase_add_test(tc, test_no_sub_devices);
    tcase_add_test(tc, test_null_outputs_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(enum_suite());
}
