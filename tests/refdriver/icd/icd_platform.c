/*
 * The platform: what the ICD loader (ocl-icd) asks when it loads the
 * library (clIcdGetPlatformIDsKHR, clGetExtensionFunctionAddress) and the
 * platform's facts. It calls itself an Intel platform because oneDNN looks
 * for its GPUs on Intel platforms only; its name and vendor say it is zeil's
 * reference driver.
 */
#include "icd.h"

#include <string.h>

#define ICD_EXPORT __attribute__((visibility("default")))

static struct _cl_platform_id the_platform = {&icd_dispatch};

cl_platform_id icd_platform(void)
{
    return &the_platform;
}

cl_int icd_answer(const void *value, size_t size, size_t param_value_size, void *param_value,
                  size_t *param_value_size_ret)
{
    if (param_value) {
        if (param_value_size < size)
            return CL_INVALID_VALUE;
        if (size)
            memcpy(param_value, value, size);
    }
    if (param_value_size_ret)
        *param_value_size_ret = size;
    return CL_SUCCESS;
}

cl_int CL_API_CALL icd_clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                        cl_uint *num_platforms)
{
    if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
        return CL_INVALID_VALUE;
    if (platforms)
        platforms[0] = &the_platform;
    if (num_platforms)
        *num_platforms = 1;
    return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                                     cl_uint *num_platforms);
ICD_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                                     cl_uint *num_platforms)
{
    return icd_clGetPlatformIDs(num_entries, platforms, num_platforms);
}

static const char *platform_string(cl_platform_info param)
{
    switch (param) {
    case CL_PLATFORM_PROFILE:
        return "FULL_PROFILE";
    case CL_PLATFORM_VERSION:
        return "OpenCL 3.0 zeil";
    case CL_PLATFORM_NAME:
        return "Intel(R) OpenCL Graphics (zeil reference driver: the CPU as a GPU)";
    case CL_PLATFORM_VENDOR:
        return "Intel(R) Corporation (zeil reference driver, for testing)";
    case CL_PLATFORM_EXTENSIONS:
        return "cl_khr_icd cl_khr_device_uuid";
    case CL_PLATFORM_ICD_SUFFIX_KHR:
        return "ZEIL";
    default:
        return NULL;
    }
}

cl_int CL_API_CALL icd_clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                         size_t param_value_size, void *param_value,
                                         size_t *param_value_size_ret)
{
    if (platform && platform != &the_platform)
        return CL_INVALID_PLATFORM;
    const char *s = platform_string(param_name);
    if (s)
        return icd_answer(s, strlen(s) + 1, param_value_size, param_value, param_value_size_ret);
    if (param_name == CL_PLATFORM_NUMERIC_VERSION) {
        cl_version v = CL_MAKE_VERSION(3, 0, 0);
        return icd_answer(&v, sizeof v, param_value_size, param_value, param_value_size_ret);
    }
    if (param_name == CL_PLATFORM_HOST_TIMER_RESOLUTION) {
        cl_ulong ns = 0; /* no host timer queries */
        return icd_answer(&ns, sizeof ns, param_value_size, param_value, param_value_size_ret);
    }
    return CL_INVALID_VALUE;
}

void *CL_API_CALL icd_clGetExtensionFunctionAddress(const char *func_name)
{
    if (!func_name)
        return NULL;
    if (strcmp(func_name, "clIcdGetPlatformIDsKHR") == 0)
        return (void *)clIcdGetPlatformIDsKHR;
    /* ocl-icd asks for this one too, before it reads the dispatch table. */
    if (strcmp(func_name, "clGetPlatformInfo") == 0)
        return (void *)icd_clGetPlatformInfo;
    return NULL;
}

void *CL_API_CALL icd_clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                               const char *func_name)
{
    (void)platform;
    return icd_clGetExtensionFunctionAddress(func_name);
}

ICD_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name);
ICD_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name)
{
    return icd_clGetExtensionFunctionAddress(func_name);
}
