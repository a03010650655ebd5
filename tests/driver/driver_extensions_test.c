/*
 * The driver's extensions, through the loader: those it lists, the driver
 * version string function, the device property structures a runtime chains
 * (IP version, EU count, float atomics) and an unknown structure left as it
 * was. Run twice by ctest: as a CPU, and with ZEIL_CPU_AS_GPU=1 as a GPU
 * (ZEIL_TEST_EXPECT_GPU=1).
 */
#include "zt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STYPE_DEVICE_IP_VERSION_EXT ((ze_structure_type_t)0x0001000f)

static int expect_gpu(void)
{
    const char *e = getenv("ZEIL_TEST_EXPECT_GPU");
    return e && strcmp(e, "1") == 0;
}

static int lists_extension(ze_driver_handle_t driver, const char *name)
{
    uint32_t n = 0;
    ZT_OK(zeDriverGetExtensionProperties(driver, &n, NULL));
    ze_driver_extension_properties_t *ext = calloc(n ? n : 1, sizeof *ext);
    ck_assert_ptr_nonnull(ext);
    ZT_OK(zeDriverGetExtensionProperties(driver, &n, ext));
    int found = 0;
    for (uint32_t i = 0; i < n; i++)
        found |= strcmp(ext[i].name, name) == 0;
    free(ext);
    return found;
}

START_TEST(test_driver_version_string)
{
    zt_env_t env;
    zt_open(&env);
    ck_assert(lists_extension(env.driver, "ZE_intel_get_driver_version_string"));
    ze_result_t (*get)(ze_driver_handle_t, char *, size_t *) = NULL;
    ZT_OK(zeDriverGetExtensionFunctionAddress(env.driver, "zeIntelGetDriverVersionString",
                                              (void **)&get));
    ck_assert_ptr_nonnull(get);
    size_t len = 0;
    ZT_OK(get(env.driver, NULL, &len));
    ck_assert_uint_gt(len, 0);
    char buf[64];
    size_t size = len + 1;
    ck_assert_uint_le(size, sizeof buf);
    ZT_OK(get(env.driver, buf, &size));
    ck_assert_uint_eq(strlen(buf), len);
    /* major.minor.build, as zeDriverGetProperties' driverVersion */
    ze_driver_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
    ZT_OK(zeDriverGetProperties(env.driver, &props));
    char expected[64];
    snprintf(expected, sizeof expected, "%u.%u.%u", props.driverVersion >> 24,
             (props.driverVersion >> 16) & 0xff, props.driverVersion & 0xffff);
    ck_assert_str_eq(buf, expected);
    /* A short buffer is cut and terminated. */
    size = 2;
    ZT_OK(get(env.driver, buf, &size));
    ck_assert_uint_eq(strlen(buf), 1);
    /* An unknown function: no address. */
    void *none = (void *)1;
    ck_assert_int_eq(zeDriverGetExtensionFunctionAddress(env.driver, "zeNoSuchFunction", &none),
                     ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_null(none);
    zt_close(&env);
}
END_TEST

/* An extension this driver does not know, chained between two it knows. */
typedef struct unknown_ext {
    ze_structure_type_t stype;
    void *pNext;
    uint32_t value;
} unknown_ext_t;

typedef struct ip_version_ext {
    ze_structure_type_t stype;
    void *pNext;
    uint32_t ipVersion;
} ip_version_ext_t;

START_TEST(test_device_property_chain)
{
    zt_env_t env;
    zt_open(&env);
    ck_assert(lists_extension(env.driver, "ZE_extension_device_ip_version"));
    ck_assert(lists_extension(env.driver, "ZE_extension_eu_count"));
    ze_eu_count_ext_t eus = {.stype = ZE_STRUCTURE_TYPE_EU_COUNT_EXT};
    unknown_ext_t unknown = {
        .stype = (ze_structure_type_t)0x7ff00001, .pNext = &eus, .value = 1234};
    ip_version_ext_t ip = {.stype = STYPE_DEVICE_IP_VERSION_EXT, .pNext = &unknown};
    ze_device_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, .pNext = &ip};
    ZT_OK(zeDeviceGetProperties(env.device, &props));
    /* An architecture no Intel GPU has (bits 31..22 neither 9, 11, 12, 20, 30 nor 35). */
    uint32_t arch = ip.ipVersion >> 22;
    ck_assert_uint_ne(ip.ipVersion, 0);
    ck_assert(arch != 9 && arch != 11 && arch != 12 && arch != 20 && arch != 30 && arch != 35);
    ck_assert_uint_eq(unknown.value, 1234);
    ck_assert_ptr_eq(unknown.pNext, &eus);
    ck_assert_uint_eq(eus.numTotalEUs,
                      props.numEUsPerSubslice * props.numSubslicesPerSlice * props.numSlices);
    if (expect_gpu()) {
        ck_assert_int_eq(props.type, ZE_DEVICE_TYPE_GPU);
        ck_assert_uint_eq(props.vendorId, 0x8086);
    } else {
        ck_assert_int_eq(props.type, ZE_DEVICE_TYPE_CPU);
    }
    zt_close(&env);
}
END_TEST

START_TEST(test_float_atomics_chain)
{
    zt_env_t env;
    zt_open(&env);
    ck_assert(lists_extension(env.driver, "ZE_extension_float_atomics"));
    ze_float_atomic_ext_properties_t fa = {.stype = ZE_STRUCTURE_TYPE_FLOAT_ATOMIC_EXT_PROPERTIES,
                                           .fp16Flags = 0xdead,
                                           .fp32Flags = 0xdead,
                                           .fp64Flags = 0xdead};
    ze_device_module_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES,
                                           .pNext = &fa};
    ZT_OK(zeDeviceGetModuleProperties(env.device, &props));
    ze_device_fp_atomic_ext_flags_t known =
        ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_LOAD_STORE | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD |
        ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_MIN_MAX |
        ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_LOAD_STORE | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_ADD |
        ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_MIN_MAX;
    /* Answered (the poison is gone), with flags of the extension only. */
    ck_assert_uint_eq(fa.fp16Flags & ~known, 0);
    ck_assert_uint_eq(fa.fp32Flags & ~known, 0);
    ck_assert_uint_eq(fa.fp64Flags & ~known, 0);
    zt_close(&env);
}
END_TEST

static Suite *extensions_suite(void)
{
    Suite *s = suite_create("driver_extensions");
    TCase *tc = tcase_create("extensions");
    tcase_add_test(tc, test_driver_version_string);
    tcase_add_test(tc, test_device_property_chain);
    tcase_add_test(tc, test_float_atomics_chain);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(extensions_suite());
}
