/*
 * The driver's extensions (the device property structures a runtime chains,
 * zeIntelGetDriverVersionString) and its GPU mode (ZEIL_CPU_AS_GPU=1); see
 * rd_extensions.h.
 */
#include "rd_extensions.h"

#include "rd_api.h"
#include "rd_object.h"
#include "zeil_cl_extensions.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The version zeIntelGetDriverVersionString answers: the driver's own
 * major.minor.build, as in zeDriverGetProperties' driverVersion. */
#define RD_DRIVER_VERSION_STRING "1.0.0"

static int as_gpu;
static pthread_once_t as_gpu_once = PTHREAD_ONCE_INIT;

static void read_as_gpu(void)
{
    const char *env = getenv("ZEIL_CPU_AS_GPU");
    as_gpu = env && strcmp(env, "1") == 0;
}

int rd_as_gpu(void)
{
    pthread_once(&as_gpu_once, read_as_gpu);
    return as_gpu;
}

/* Every extension structure starts with these two members. */
typedef struct rd_chained {
    ze_structure_type_t stype;
    void *pNext;
} rd_chained_t;

void rd_device_properties_chain(const rd_device_t *dev, ze_device_properties_t *p)
{
    for (rd_chained_t *ext = p->pNext; ext; ext = ext->pNext) {
        if (ext->stype == RD_STYPE_DEVICE_IP_VERSION_EXT) {
            struct {
                rd_chained_t head;
                uint32_t ipVersion;
            } *ip = (void *)ext;
            ip->ipVersion = RD_DEVICE_IP_VERSION;
        } else if (ext->stype == ZE_STRUCTURE_TYPE_EU_COUNT_EXT) {
            ((ze_eu_count_ext_t *)ext)->numTotalEUs = dev->driver->host.cores;
        }
    }
}

/* The float atomics the kernels' built-ins implement: those of OpenCL's
 * cl_ext_float_atomics when the driver's OpenCL C has it, else none. */
static ze_device_fp_atomic_ext_flags_t float_atomics(void)
{
    if (!strstr(ZEIL_CL_EXTENSIONS, "cl_ext_float_atomics"))
        return 0;
    return ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_LOAD_STORE |
           ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_MIN_MAX |
           ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_LOAD_STORE | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_ADD |
           ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_MIN_MAX;
}

void rd_module_properties_chain(const rd_device_t *dev, ze_device_module_properties_t *p)
{
    (void)dev;
    for (rd_chained_t *ext = p->pNext; ext; ext = ext->pNext) {
        if (ext->stype == ZE_STRUCTURE_TYPE_FLOAT_ATOMIC_EXT_PROPERTIES) {
            ze_float_atomic_ext_properties_t *fa = (void *)ext;
            fa->fp16Flags = 0;
            fa->fp32Flags = float_atomics();
            fa->fp64Flags = float_atomics();
        } else if (ext->stype == RD_STYPE_INTEL_DEVICE_MODULE_DP_EXP_PROPERTIES) {
            struct {
                rd_chained_t head;
                uint32_t flags;
            } *dp = (void *)ext;
            dp->flags = 0; /* no matrix (DPAS) instructions */
        }
    }
}

/* zeIntelGetDriverVersionString(hDriver, pDriverVersion, pVersionSize):
 * with a null string the length without the terminator; otherwise the
 * string, cut to *pVersionSize - 1 characters and terminated. */
static ze_result_t ZE_APICALL rd_zeIntelGetDriverVersionString(ze_driver_handle_t hDriver,
                                                               char *pDriverVersion,
                                                               size_t *pVersionSize)
{
    RD_CHECK(hDriver, RD_MAGIC_DRIVER);
    RD_NOT_NULL(pVersionSize);
    size_t length = strlen(RD_DRIVER_VERSION_STRING);
    if (!pDriverVersion) {
        *pVersionSize = length;
        return ZE_RESULT_SUCCESS;
    }
    if (*pVersionSize == 0)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    size_t n = length < *pVersionSize - 1 ? length : *pVersionSize - 1;
    memcpy(pDriverVersion, RD_DRIVER_VERSION_STRING, n);
    pDriverVersion[n] = '\0';
    return ZE_RESULT_SUCCESS;
}

typedef struct rd_extension {
    const char *name;
    uint32_t version;
} rd_extension_t;

static const rd_extension_t rd_extensions[] = {
    {"ZE_extension_float_atomics", ZE_MAKE_VERSION(1, 0)},
    {"ZE_extension_eu_count", ZE_MAKE_VERSION(1, 0)},
    {"ZE_extension_device_ip_version", ZE_MAKE_VERSION(1, 0)},
    {"ZE_intel_get_driver_version_string", ZE_MAKE_VERSION(1, 0)},
};
#define RD_EXTENSION_COUNT (sizeof rd_extensions / sizeof rd_extensions[0])

ze_result_t rd_driver_extension_properties(uint32_t *pCount,
                                           ze_driver_extension_properties_t *props)
{
    uint32_t n = rd_count_query(pCount, RD_EXTENSION_COUNT, props);
    for (uint32_t i = 0; i < n; i++) {
        snprintf(props[i].name, sizeof props[i].name, "%s", rd_extensions[i].name);
        props[i].version = rd_extensions[i].version;
    }
    return ZE_RESULT_SUCCESS;
}

ze_result_t rd_driver_extension_function(const char *name, void **ppFunctionAddress)
{
    if (strcmp(name, "zeIntelGetDriverVersionString") == 0) {
        *ppFunctionAddress = (void *)rd_zeIntelGetDriverVersionString;
        return ZE_RESULT_SUCCESS;
    }
    *ppFunctionAddress = NULL;
    return ZE_RESULT_ERROR_INVALID_ARGUMENT; /* no such function */
}
