/*
 * The devices: one per device of the reference driver, read from the driver
 * itself (the libze_zeil_cpu.so.1 beside this library, or ZEIL_ICD_DRIVER),
 * through its DDI tables, so that name, UUID, type and limits are the Level
 * Zero device's. oneDNN matches the two by CL_DEVICE_UUID_KHR.
 */
#include "icd.h"

#include <level_zero/ze_ddi.h>

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct _cl_device_id devices[ICD_MAX_DEVICES];
static cl_uint device_count;
static pthread_once_t devices_once = PTHREAD_ONCE_INIT;

/* The reference driver's path: ZEIL_ICD_DRIVER, else beside this library. */
static void driver_path(char *path, size_t size)
{
    const char *env = getenv("ZEIL_ICD_DRIVER");
    if (env && *env) {
        snprintf(path, size, "%s", env);
        return;
    }
    Dl_info info;
    if (!dladdr((void *)driver_path, &info) || !info.dli_fname) {
        snprintf(path, size, "libze_zeil_cpu.so.1");
        return;
    }
    const char *slash = strrchr(info.dli_fname, '/');
    int dir = slash ? (int)(slash - info.dli_fname) : 0;
    snprintf(path, size, "%.*s%slibze_zeil_cpu.so.1", dir, info.dli_fname, slash ? "/" : "");
}

/* Under AddressSanitizer a second namespace would start a second ASan
 * runtime, which cannot work: the driver then shares the process's
 * namespace (and zeil may say W060 at exit of an OpenCL-only process). */
static int sanitized(void)
{
    return dlsym(RTLD_DEFAULT, "__asan_init") != NULL || dlsym(RTLD_DEFAULT, "__tsan_init") != NULL;
}

typedef ze_result_t (*global_getter)(ze_api_version_t, ze_global_dditable_t *);
typedef ze_result_t (*driver_getter)(ze_api_version_t, ze_driver_dditable_t *);
typedef ze_result_t (*device_getter)(ze_api_version_t, ze_device_dditable_t *);

static void read_devices(void)
{
    char path[PATH_MAX];
    driver_path(path, sizeof path);
    /* In a namespace of its own: the driver this process's Level Zero
     * loader may open is another instance, and zeil (which warns at exit
     * about a driver in the process that it did not wrap, ZEIL-W060) does
     * not see this one. */
    void *lib = sanitized() ? dlopen(path, RTLD_NOW | RTLD_LOCAL)
                            : dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "zeil OpenCL ICD: cannot open the reference driver %s: %s\n", path,
                dlerror());
        return;
    }
    global_getter get_global = (global_getter)dlsym(lib, "zeGetGlobalProcAddrTable");
    driver_getter get_driver = (driver_getter)dlsym(lib, "zeGetDriverProcAddrTable");
    device_getter get_device = (device_getter)dlsym(lib, "zeGetDeviceProcAddrTable");
    ze_global_dditable_t global = {0};
    ze_driver_dditable_t driver = {0};
    ze_device_dditable_t device = {0};
    if (!get_global || !get_driver || !get_device || get_global(ZE_API_VERSION_1_0, &global) ||
        get_driver(ZE_API_VERSION_1_0, &driver) || get_device(ZE_API_VERSION_1_0, &device)) {
        fprintf(stderr, "zeil OpenCL ICD: %s is not a Level Zero driver\n", path);
        return;
    }
    ze_driver_handle_t hdriver = NULL;
    uint32_t n = 1;
    if (global.pfnInit(0) || driver.pfnGet(&n, &hdriver) || n != 1)
        return;
    ze_device_handle_t handles[ICD_MAX_DEVICES];
    n = ICD_MAX_DEVICES;
    if (device.pfnGet(hdriver, &n, handles))
        return;
    for (uint32_t i = 0; i < n; i++) {
        struct _cl_device_id *d = &devices[device_count];
        d->dispatch = &icd_dispatch;
        d->props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
        d->compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
        if (device.pfnGetProperties(handles[i], &d->props) ||
            device.pfnGetComputeProperties(handles[i], &d->compute))
            continue;
        device_count++;
    }
    /* The driver stays loaded: the devices' facts were copied, and a
     * driver's threads may outlive a dlclose. */
}

cl_device_id icd_devices(cl_uint *count)
{
    pthread_once(&devices_once, read_devices);
    *count = device_count;
    return devices;
}

static cl_device_type device_type(const struct _cl_device_id *d)
{
    return d->props.type == ZE_DEVICE_TYPE_GPU ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU;
}

int icd_known_device(cl_device_id device)
{
    cl_uint n;
    cl_device_id all = icd_devices(&n);
    return device && device >= all && device < all + n;
}

cl_int CL_API_CALL icd_clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type_asked,
                                      cl_uint num_entries, cl_device_id *out, cl_uint *num_devices)
{
    if (platform && platform != icd_platform())
        return CL_INVALID_PLATFORM;
    if ((num_entries == 0 && out) || (!out && !num_devices))
        return CL_INVALID_VALUE;
    cl_uint n, found = 0;
    cl_device_id all = icd_devices(&n);
    for (cl_uint i = 0; i < n; i++) {
        int wanted = device_type_asked == CL_DEVICE_TYPE_ALL ||
                     device_type_asked == CL_DEVICE_TYPE_DEFAULT ||
                     (device_type_asked & device_type(&all[i]));
        if (!wanted)
            continue;
        if (out && found < num_entries)
            out[found] = &all[i];
        found++;
    }
    if (num_devices)
        *num_devices = found;
    return found ? CL_SUCCESS : CL_DEVICE_NOT_FOUND;
}

cl_int CL_API_CALL icd_clRetainDevice(cl_device_id device)
{
    return icd_known_device(device) ? CL_SUCCESS
                                    : CL_INVALID_DEVICE; /* root devices: nothing to count */
}

cl_int CL_API_CALL icd_clReleaseDevice(cl_device_id device)
{
    return icd_known_device(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

/* The device's extensions: the UUID query the ICD answers, and the OpenCL C
 * extensions of the driver's kernels. */
#include "zeil_cl_extensions.h"
#define ICD_DEVICE_EXTENSIONS "cl_khr_device_uuid " ZEIL_CL_EXTENSIONS

static cl_int string_info(const char *s, size_t size, void *value, size_t *size_ret)
{
    return icd_answer(s, strlen(s) + 1, size, value, size_ret);
}

#define ANSWER(type, v) \
    do { \
        type answer_ = (v); \
        return icd_answer(&answer_, sizeof answer_, size, value, size_ret); \
    } while (0)

cl_int CL_API_CALL icd_clGetDeviceInfo(cl_device_id d, cl_device_info param, size_t size,
                                       void *value, size_t *size_ret)
{
    if (!icd_known_device(d))
        return CL_INVALID_DEVICE;
    switch (param) {
    case CL_DEVICE_TYPE:
        ANSWER(cl_device_type, device_type(d));
    case CL_DEVICE_VENDOR_ID:
        ANSWER(cl_uint, d->props.vendorId);
    case CL_DEVICE_NAME:
        return string_info(d->props.name, size, value, size_ret);
    case CL_DEVICE_VENDOR:
        return string_info("Intel(R) Corporation (zeil reference driver, for testing)", size, value,
                           size_ret);
    case CL_DRIVER_VERSION:
        return string_info("1.0.0", size, value, size_ret);
    case CL_DEVICE_VERSION:
        return string_info("OpenCL 3.0 zeil", size, value, size_ret);
    case CL_DEVICE_OPENCL_C_VERSION:
        return string_info("OpenCL C 1.2 zeil", size, value, size_ret);
    case CL_DEVICE_PROFILE:
        return string_info("FULL_PROFILE", size, value, size_ret);
    case CL_DEVICE_EXTENSIONS:
        return string_info(ICD_DEVICE_EXTENSIONS, size, value, size_ret);
    case CL_DEVICE_PLATFORM:
        ANSWER(cl_platform_id, icd_platform());
    case CL_DEVICE_AVAILABLE:
        ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_COMPILER_AVAILABLE:
        ANSWER(cl_bool, CL_FALSE); /* programs go through Level Zero */
    case CL_DEVICE_LINKER_AVAILABLE:
        ANSWER(cl_bool, CL_FALSE);
    case CL_DEVICE_MAX_COMPUTE_UNITS:
        ANSWER(cl_uint,
               d->props.numEUsPerSubslice * d->props.numSubslicesPerSlice * d->props.numSlices);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
        ANSWER(size_t, d->compute.maxTotalGroupSize);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY:
        ANSWER(cl_uint, d->props.coreClockRate);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
        ANSWER(cl_ulong, d->props.maxMemAllocSize);
    case CL_DEVICE_LOCAL_MEM_SIZE:
        ANSWER(cl_ulong, d->compute.maxSharedLocalMemory);
    case CL_DEVICE_PARENT_DEVICE:
        ANSWER(cl_device_id, NULL);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
        ANSWER(cl_uint, 0);
    case CL_DEVICE_REFERENCE_COUNT:
        ANSWER(cl_uint, 1);
    case CL_DEVICE_NUMERIC_VERSION:
        ANSWER(cl_version, CL_MAKE_VERSION(3, 0, 0));
    case CL_DEVICE_UUID_KHR:
        return icd_answer(d->props.uuid.id, CL_UUID_SIZE_KHR, size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}
