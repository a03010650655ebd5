/*
 * zeInit and the driver object: zeDriverGet and the driver's properties.
 */
#include "rd_api.h"
#include "rd_driver.h"
#include "rd_extensions.h"

#include <stdio.h>
#include <string.h>

/* The API whose behaviour the driver implements: 1.4 (Debian's headers).
 * Built against newer headers it fills their larger tables with stubs but
 * still implements 1.4, so it says so instead of ZE_API_VERSION_CURRENT. */
#define RD_API_VERSION ZE_MAKE_VERSION(1, 4)

/* driverVersion: major.minor.patch of the reference driver. */
#define RD_DRIVER_VERSION ((1u << 24) | (0u << 16) | 0u)

static rd_driver_t the_driver;
static pthread_once_t the_driver_once = PTHREAD_ONCE_INIT;
static int the_driver_ready;

/* A child of fork has none of the parent's threads: the work-group pool is
 * gone (a new one starts at the child's first launch) and a lock another
 * thread held at the fork would never be released. The child must still
 * call zeInit and create its own objects, as the specification says. */
static void driver_after_fork_in_child(void)
{
    rd_driver_t *d = &the_driver;
    pthread_mutex_init(&d->pool_lock, NULL);
    d->pool = NULL;
    pthread_mutex_init(&d->allocs.lock, NULL);
}

static void driver_init(void)
{
    rd_driver_t *d = &the_driver;
    rd_host_read(&d->host);
    rd_alloc_table_init(&d->allocs);
    pthread_mutex_init(&d->pool_lock, NULL);
    uint64_t h = rd_hash(d->host.identity, "zeil reference CPU driver", 25);
    memcpy(d->uuid.id, &h, sizeof h);
    h = rd_hash(h, &h, sizeof h);
    memcpy(d->uuid.id + sizeof h, &h, sizeof h);
    rd_devices_init(d);
    d->magic = RD_MAGIC_DRIVER;
    pthread_atfork(NULL, NULL, driver_after_fork_in_child);
    __atomic_store_n(&the_driver_ready, 1, __ATOMIC_RELEASE);
}

rd_driver_t *rd_driver(void)
{
    return __atomic_load_n(&the_driver_ready, __ATOMIC_ACQUIRE) ? &the_driver : NULL;
}

rd_threadpool_t *rd_driver_threadpool(rd_driver_t *driver)
{
    pthread_mutex_lock(&driver->pool_lock);
    if (!driver->pool)
        driver->pool = rd_threadpool_create(driver->host.cores);
    rd_threadpool_t *pool = driver->pool;
    pthread_mutex_unlock(&driver->pool_lock);
    return pool;
}

ze_result_t ZE_APICALL rd_zeInit(ze_init_flags_t flags)
{
    if (flags & ~(ze_init_flags_t)(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY))
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    /* 0 asks for every driver; any flag restricts to GPU or VPU drivers, and
     * this one drives a CPU. The loader drops a driver whose zeInit fails. */
    if (flags != 0)
        return ZE_RESULT_ERROR_UNINITIALIZED;
    pthread_once(&the_driver_once, driver_init);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDriverGet(uint32_t *pCount, ze_driver_handle_t *phDrivers)
{
    RD_NOT_NULL(pCount);
    rd_driver_t *d = rd_driver();
    if (!d)
        return ZE_RESULT_ERROR_UNINITIALIZED;
    if (rd_count_query(pCount, 1, phDrivers) > 0)
        phDrivers[0] = (ze_driver_handle_t)d;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDriverGetApiVersion(ze_driver_handle_t hDriver,
                                                ze_api_version_t *version)
{
    RD_CHECK(hDriver, RD_MAGIC_DRIVER);
    RD_ANSWER(version, (ze_api_version_t)RD_API_VERSION);
}

ze_result_t ZE_APICALL rd_zeDriverGetProperties(ze_driver_handle_t hDriver,
                                                ze_driver_properties_t *pDriverProperties)
{
    RD_HANDLE(rd_driver_t, d, hDriver, RD_MAGIC_DRIVER);
    RD_NOT_NULL(pDriverProperties);
    pDriverProperties->uuid = d->uuid;
    pDriverProperties->driverVersion = RD_DRIVER_VERSION;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeDriverGetIpcProperties(ze_driver_handle_t hDriver,
                                                   ze_driver_ipc_properties_t *pIpcProperties)
{
    RD_CHECK(hDriver, RD_MAGIC_DRIVER);
    RD_NOT_NULL(pIpcProperties);
    pIpcProperties->flags = 0; /* no IPC of memory or events */
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
rd_zeDriverGetExtensionProperties(ze_driver_handle_t hDriver, uint32_t *pCount,
                                  ze_driver_extension_properties_t *pExtensionProperties)
{
    RD_CHECK(hDriver, RD_MAGIC_DRIVER);
    RD_NOT_NULL(pCount);
    return rd_driver_extension_properties(pCount, pExtensionProperties);
}

ze_result_t ZE_APICALL rd_zeDriverGetExtensionFunctionAddress(ze_driver_handle_t hDriver,
                                                              const char *name,
                                                              void **ppFunctionAddress)
{
    RD_CHECK(hDriver, RD_MAGIC_DRIVER);
    RD_NOT_NULL(name);
    RD_NOT_NULL(ppFunctionAddress);
    return rd_driver_extension_function(name, ppFunctionAddress);
}
