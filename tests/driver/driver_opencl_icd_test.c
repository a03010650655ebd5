/*
 * zeil's OpenCL ICD (tests/refdriver/icd) through Debian's ICD loader
 * (OCL_ICD_VENDORS): one Intel platform whose devices are the reference
 * driver's, matched by UUID against Level Zero, contexts, and every other
 * call refused with CL_INVALID_OPERATION. ctest runs it in the GPU mode.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "zt.h"

#include <string.h>

static cl_device_id the_gpu(cl_platform_id *platform)
{
    cl_uint n = 0;
    ck_assert_int_eq(clGetPlatformIDs(1, platform, &n), CL_SUCCESS);
    ck_assert_uint_eq(n, 1);
    char name[256];
    ck_assert_int_eq(clGetPlatformInfo(*platform, CL_PLATFORM_NAME, sizeof name, name, NULL),
                     CL_SUCCESS);
    ck_assert_ptr_nonnull(strstr(name, "Intel"));
    ck_assert_ptr_nonnull(strstr(name, "zeil"));
    cl_device_id dev = NULL;
    ck_assert_int_eq(clGetDeviceIDs(*platform, CL_DEVICE_TYPE_GPU, 1, &dev, &n), CL_SUCCESS);
    ck_assert_uint_eq(n, 1);
    return dev;
}

START_TEST(test_device_is_the_level_zero_device)
{
    cl_platform_id platform;
    cl_device_id dev = the_gpu(&platform);
    zt_env_t env;
    zt_open(&env);
    ze_device_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ZT_OK(zeDeviceGetProperties(env.device, &props));
    cl_uchar uuid[CL_UUID_SIZE_KHR];
    ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_UUID_KHR, sizeof uuid, uuid, NULL), CL_SUCCESS);
    ck_assert_mem_eq(uuid, props.uuid.id, sizeof uuid);
    char name[256];
    ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL), CL_SUCCESS);
    ck_assert_str_eq(name, props.name);
    cl_uint vendor = 0;
    ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_VENDOR_ID, sizeof vendor, &vendor, NULL),
                     CL_SUCCESS);
    ck_assert_uint_eq(vendor, props.vendorId);
    ck_assert_uint_eq(vendor, 0x8086);
    size_t size = 0;
    ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &size), CL_SUCCESS);
    char ext[4096];
    ck_assert_uint_le(size, sizeof ext);
    ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, size, ext, NULL), CL_SUCCESS);
    ck_assert_ptr_nonnull(strstr(ext, "cl_khr_device_uuid"));
    /* A short buffer and an unknown parameter are refused. */
    ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_NAME, 2, name, NULL), CL_INVALID_VALUE);
    ck_assert_int_eq(clGetDeviceInfo(dev, 0x7fff, sizeof name, name, NULL), CL_INVALID_VALUE);
    zt_close(&env);
}
END_TEST

START_TEST(test_context)
{
    cl_platform_id platform;
    cl_device_id dev = the_gpu(&platform);
    cl_int err = -1;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context ctx = clCreateContext(props, 1, &dev, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_ptr_nonnull(ctx);
    ck_assert_int_eq(clRetainContext(ctx), CL_SUCCESS);
    cl_uint refs = 0;
    ck_assert_int_eq(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_SUCCESS);
    ck_assert_uint_eq(refs, 2);
    cl_device_id got = NULL;
    ck_assert_int_eq(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof got, &got, NULL), CL_SUCCESS);
    ck_assert_ptr_eq(got, dev);
    ck_assert_int_eq(clReleaseContext(ctx), CL_SUCCESS);
    ck_assert_int_eq(clReleaseContext(ctx), CL_SUCCESS);
    ck_assert_ptr_null(clCreateContext(NULL, 0, &dev, NULL, NULL, &err));
    ck_assert_int_eq(err, CL_INVALID_VALUE);
}
END_TEST

START_TEST(test_other_calls_refused)
{
    cl_platform_id platform;
    cl_device_id dev = the_gpu(&platform);
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_ptr_null(clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err));
    ck_assert_int_eq(err, CL_INVALID_OPERATION);
    err = CL_SUCCESS;
    ck_assert_ptr_null(clCreateCommandQueueWithProperties(ctx, dev, NULL, &err));
    ck_assert_int_eq(err, CL_INVALID_OPERATION);
    const char *src = "kernel void k(void) {}";
    err = CL_SUCCESS;
    ck_assert_ptr_null(clCreateProgramWithSource(ctx, 1, &src, NULL, &err));
    ck_assert_int_eq(err, CL_INVALID_OPERATION);
    ck_assert_int_eq(clCreateSubDevices(dev, NULL, 0, NULL, NULL), CL_INVALID_OPERATION);
    ck_assert_int_eq(clReleaseContext(ctx), CL_SUCCESS);
}
END_TEST

static Suite *icd_suite(void)
{
    Suite *s = suite_create("driver_opencl_icd");
    TCase *tc = tcase_create("icd");
    tcase_add_test(tc, test_device_is_the_level_zero_device);
    tcase_add_test(tc, test_context);
    tcase_add_test(tc, test_other_calls_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(icd_suite());
}
