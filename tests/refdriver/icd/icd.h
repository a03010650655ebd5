/*
 * zeil's OpenCL ICD for the reference driver: the OpenCL platform, devices
 * and contexts of the reference driver's Level Zero devices, presented as an
 * Intel GPU so that oneDNN 3.x's Level Zero runtime (which reads a device's
 * OpenCL extensions before it makes an engine) runs on the CPU, for testing.
 *
 * The calls declared here (icd_clXxx) are the ones the ICD answers;
 * gen_icd_dispatch.py reads this header and fills every other entry of the
 * dispatch table with a stub that answers CL_INVALID_OPERATION.
 */
#ifndef ZEIL_ICD_H
#define ZEIL_ICD_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include <level_zero/ze_api.h>

/* The ICD's limit of devices (the driver's own). */
#define ICD_MAX_DEVICES 64u

/* Every OpenCL object starts with the dispatch table (cl_khr_icd). */
struct _cl_platform_id {
    const struct _cl_icd_dispatch *dispatch;
};

struct _cl_device_id {
    const struct _cl_icd_dispatch *dispatch;
    ze_device_properties_t props; /* the Level Zero device's */
    ze_device_compute_properties_t compute;
};

struct _cl_context {
    const struct _cl_icd_dispatch *dispatch;
    unsigned refs; /* atomic */
    cl_uint num_devices;
    cl_device_id devices[ICD_MAX_DEVICES];
};

extern const struct _cl_icd_dispatch icd_dispatch;

/* The one platform, and the devices (read from the reference driver at the
 * first call: icd_devices.c). *count is 0 when the driver is missing. */
cl_platform_id icd_platform(void);
cl_device_id icd_devices(cl_uint *count);

/* 1 when device is one of icd_devices'. */
int icd_known_device(cl_device_id device);

/* A param query's answer: the size, and the value when asked for. */
cl_int icd_answer(const void *value, size_t size, size_t param_value_size, void *param_value,
                  size_t *param_value_size_ret);

/* ---- the calls the ICD answers ---- */
cl_int CL_API_CALL icd_clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                        cl_uint *num_platforms);
cl_int CL_API_CALL icd_clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                         size_t param_value_size, void *param_value,
                                         size_t *param_value_size_ret);
cl_int CL_API_CALL icd_clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                      cl_uint num_entries, cl_device_id *devices,
                                      cl_uint *num_devices);
cl_int CL_API_CALL icd_clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                       size_t param_value_size, void *param_value,
                                       size_t *param_value_size_ret);
cl_int CL_API_CALL icd_clRetainDevice(cl_device_id device);
cl_int CL_API_CALL icd_clReleaseDevice(cl_device_id device);
cl_context CL_API_CALL icd_clCreateContext(const cl_context_properties *properties,
                                           cl_uint num_devices, const cl_device_id *devices,
                                           void(CL_CALLBACK *pfn_notify)(const char *, const void *,
                                                                         size_t, void *),
                                           void *user_data, cl_int *errcode_ret);
cl_int CL_API_CALL icd_clRetainContext(cl_context context);
cl_int CL_API_CALL icd_clReleaseContext(cl_context context);
cl_int CL_API_CALL icd_clGetContextInfo(cl_context context, cl_context_info param_name,
                                        size_t param_value_size, void *param_value,
                                        size_t *param_value_size_ret);
void *CL_API_CALL icd_clGetExtensionFunctionAddress(const char *func_name);
void *CL_API_CALL icd_clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                               const char *func_name);

#endif
