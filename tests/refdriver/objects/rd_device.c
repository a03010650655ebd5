/*
 * The devices: enumeration and properties. Each device is the host CPU seen
 * through the driver; its properties are the host's facts (rd_host.c) and
 * the limits the driver enforces (rd_driver.h).
 */
#include "rd_api.h"
#include "rd_driver.h"
#include "rd_extensions.h"
#include "rd_sync.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t device_count_from_env(void)
{
    const char *env = getenv("ZEIL_CPU_DEVICES");
    if (!env || !*env)
        return 1;
    char *end = NULL;
    unsigned long n = strtoul(env, &end, 10);
    if (*end != '\0' || n == 0)
        return 1;
    return n > RD_MAX_DEVICES ? RD_MAX_DEVICES : (uint32_t)n;
}

void rd_devices_init(rd_driver_t *driver)
{
    driver->device_count = device_count_from_env();
    for (uint32_t i = 0; i < driver->device_count; i++) {
        rd_device_t *dev = &driver->devices[i];
        dev->magic = RD_MAGIC_DEVICE;
        dev->driver = driver;
        dev->index = i;
        /* Stable across runs on one machine: machine identity and index. */
        uint64_t h = rd_hash(driver->host.identity, "device", 6);
        h = rd_hash(h, &i, sizeof i);
        memcpy(dev->uuid.id, &h, sizeof h);
        h = rd_hash(h, &h, sizeof h);
        memcpy(dev->uuid.id + sizeof h, &h, sizeof h);
    }
}

ze_result_t ZE_APICALL rd_zeDeviceGet(ze_driver_handle_t hDriver, uint32_t *pCount,
                                      ze_device_handle_t *phDevices)
{
    RD_HANDLE(rd_driver_t, d, hDriver, RD_MAGIC_DRIVER);
    RD_NOT_NULL(pCount);
    uint32_t n = rd_count_query(pCount, d->device_count, phDevices);
    for (uint32_t i = 0; i < n; i++)
        phDevices[i] = (ze_device_handle_t)&d->devices[i];
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceGetSubDevices(ze_device_handle_t hDevice, uint32_t *pCount,
                                                ze_device_handle_t *phSubdevices)
{
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(pCount);
    rd_count_query(pCount, 0, phSubdevices);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceGetProperties(ze_device_handle_t hDevice,
                                                ze_device_properties_t *p)
{
    RD_HANDLE(rd_device_t, dev, hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(p);
    const rd_host_t *host = &dev->driver->host;
    /* ZEIL_CPU_AS_GPU=1 presents the CPU as an Intel GPU (rd_extensions.h). */
    p->type = rd_as_gpu() ? ZE_DEVICE_TYPE_GPU : ZE_DEVICE_TYPE_CPU;
    p->vendorId = rd_as_gpu() ? RD_GPU_VENDOR_ID : 0; /* else no PCI vendor: the host processor */
    p->deviceId = dev->index;
    p->flags = ZE_DEVICE_PROPERTY_FLAG_INTEGRATED;
    p->subdeviceId = 0;
    p->coreClockRate = host->clock_mhz;
    p->maxMemAllocSize = host->memory_bytes;
    p->maxHardwareContexts = 1u << 16;
    p->maxCommandQueuePriority = 0;
    p->numThreadsPerEU = 1;
    p->physicalEUSimdWidth = 1;
    p->numEUsPerSubslice = host->cores;
    p->numSubslicesPerSlice = 1;
    p->numSlices = 1;
    /* ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 asks for cycles per second,
     * the original structure for nanoseconds per tick: the clock is 1 ns. */
    p->timerResolution = p->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 ? 1000000000u : 1u;
    p->timestampValidBits = 64;
    p->kernelTimestampValidBits = 64;
    p->uuid = dev->uuid;
    snprintf(p->name, sizeof p->name, "zeil CPU %u (%s)", dev->index, host->cpu_name);
    rd_device_properties_chain(dev, p);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceGetComputeProperties(ze_device_handle_t hDevice,
                                                       ze_device_compute_properties_t *p)
{
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(p);
    p->maxTotalGroupSize = RD_MAX_GROUP_SIZE;
    p->maxGroupSizeX = RD_MAX_GROUP_SIZE;
    p->maxGroupSizeY = RD_MAX_GROUP_SIZE;
    p->maxGroupSizeZ = RD_MAX_GROUP_SIZE;
    p->maxGroupCountX = UINT32_MAX;
    p->maxGroupCountY = UINT32_MAX;
    p->maxGroupCountZ = UINT32_MAX;
    /* Local memory of compiled kernels: host memory of the thread that runs
     * the group; what a GPU's work-group typically has. */
    p->maxSharedLocalMemory = RD_MAX_LOCAL_MEMORY;
    /* Compiled kernels run sub-groups of 8, 16 (the default) or 32
     * work-items (intel_reqd_sub_group_size). */
    p->numSubGroupSizes = 3;
    memset(p->subGroupSizes, 0, sizeof p->subGroupSizes);
    p->subGroupSizes[0] = 8;
    p->subGroupSizes[1] = 16;
    p->subGroupSizes[2] = 32;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceGetModuleProperties(ze_device_handle_t hDevice,
                                                      ze_device_module_properties_t *p)
{
    RD_HANDLE(rd_device_t, dev, hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(p);
    /* SPIR-V of OpenCL kernels up to 1.2, read by llvm-spirv-15 (compiler/). */
    p->spirvVersionSupported = ZE_MAKE_VERSION(1, 2);
    p->flags = ZE_DEVICE_MODULE_FLAG_FP16 | ZE_DEVICE_MODULE_FLAG_FP64 |
               ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
    ze_device_fp_flags_t ieee =
        ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN | ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST |
        ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO | ZE_DEVICE_FP_FLAG_ROUND_TO_INF | ZE_DEVICE_FP_FLAG_FMA;
    p->fp16flags = ieee; /* half in compiled kernels (the built-in library's) */
    p->fp32flags = ieee;
    p->fp64flags = ieee;
    p->maxArgumentsSize = RD_MAX_KERNEL_ARGS_BYTES;
    p->printfBufferSize = RD_PRINTF_BUFFER_BYTES; /* printf writes to stdout as it runs; no limit */
    memcpy(p->nativeKernelSupported.id, dev->uuid.id, sizeof p->nativeKernelSupported.id);
    rd_module_properties_chain(dev, p);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceGetCommandQueueGroupProperties(
    ze_device_handle_t hDevice, uint32_t *pCount, ze_command_queue_group_properties_t *props)
{
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(pCount);
    uint32_t n = rd_count_query(pCount, RD_QUEUE_GROUPS, props);
    for (uint32_t i = 0; i < n; i++) {
        props[i].flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
                         ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY |
                         ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS;
        props[i].maxMemoryFillPatternSize = RD_MAX_FILL_PATTERN;
        props[i].numQueues = RD_QUEUES_PER_GROUP;
    }
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceGetMemoryProperties(ze_device_handle_t hDevice, uint32_t *pCount,
                                                      ze_device_memory_properties_t *props)
{
    RD_HANDLE(rd_device_t, dev, hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(pCount);
    if (rd_count_query(pCount, 1, props) > 0) {
        props[0].flags = 0;
        props[0].maxClockRate = 0; /* unknown */
        props[0].maxBusWidth = 0;
        props[0].totalSize = dev->driver->host.memory_bytes;
        snprintf(props[0].name, sizeof props[0].name, "host memory");
    }
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceGetMemoryAccessProperties(ze_device_handle_t hDevice,
                                                            ze_device_memory_access_properties_t *p)
{
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(p);
    /* Every kind of allocation is plain host memory, shared by all devices. */
    ze_memory_access_cap_flags_t all =
        ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC |
        ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT | ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
    p->hostAllocCapabilities = all;
    p->deviceAllocCapabilities = all;
    p->sharedSingleDeviceAllocCapabilities = all;
    p->sharedCrossDeviceAllocCapabilities = all;
    /* The CPU reads any host memory. ZEIL_CPU_SYSTEM_MEMORY=0 reports a device
     * that cannot (as most GPUs), read at every query so tests can switch it. */
    const char *system_memory = getenv("ZEIL_CPU_SYSTEM_MEMORY");
    p->sharedSystemAllocCapabilities = system_memory && strcmp(system_memory, "0") == 0 ? 0 : all;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceGetCacheProperties(ze_device_handle_t hDevice, uint32_t *pCount,
                                                     ze_device_cache_properties_t *props)
{
    RD_HANDLE(rd_device_t, dev, hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(pCount);
    uint64_t bytes = dev->driver->host.cache_bytes;
    if (rd_count_query(pCount, bytes ? 1 : 0, props) > 0) {
        props[0].flags = 0;
        props[0].cacheSize = (size_t)bytes;
    }
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceGetImageProperties(ze_device_handle_t hDevice,
                                                     ze_device_image_properties_t *p)
{
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(p);
    /* No images: zero in every limit, as the specification says for that. */
    p->maxImageDims1D = 0;
    p->maxImageDims2D = 0;
    p->maxImageDims3D = 0;
    p->maxImageBufferSize = 0;
    p->maxImageArraySlices = 0;
    p->maxSamplers = 0;
    p->maxReadImageArgs = 0;
    p->maxWriteImageArgs = 0;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceGetExternalMemoryProperties(
    ze_device_handle_t hDevice, ze_device_external_memory_properties_t *p)
{
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(p);
    p->memoryAllocationImportTypes = 0;
    p->memoryAllocationExportTypes = 0;
    p->imageImportTypes = 0;
    p->imageExportTypes = 0;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceGetP2PProperties(ze_device_handle_t hDevice,
                                                   ze_device_handle_t hPeerDevice,
                                                   ze_device_p2p_properties_t *p)
{
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_CHECK(hPeerDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(p);
    p->flags = ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS | ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceCanAccessPeer(ze_device_handle_t hDevice,
                                                ze_device_handle_t hPeerDevice, ze_bool_t *value)
{
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_CHECK(hPeerDevice, RD_MAGIC_DEVICE);
    RD_ANSWER(value, 1);
}

ze_result_t ZE_APICALL rd_zeDeviceGetStatus(ze_device_handle_t hDevice)
{
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDeviceGetGlobalTimestamps(ze_device_handle_t hDevice,
                                                      uint64_t *hostTimestamp,
                                                      uint64_t *deviceTimestamp)
{
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(hostTimestamp);
    RD_NOT_NULL(deviceTimestamp);
    /* The device timer is the host's monotonic clock. */
    *hostTimestamp = rd_now_ns();
    *deviceTimestamp = *hostTimestamp;
    return ZE_RESULT_SUCCESS;
}
