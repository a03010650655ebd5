/* Contexts: create (all devices or an explicit list), destroy, status, and
 * the residency calls, which have nothing to do with all memory resident. */
#include "rd_api.h"
#include "rd_context.h"

#include <stdlib.h>

int rd_context_has_device(const rd_context_t *context, const rd_device_t *device)
{
    for (uint32_t i = 0; i < context->device_count; i++)
        if (context->devices[i] == device)
            return 1;
    return 0;
}

ze_result_t rd_context_check_device(ze_context_handle_t hContext, ze_device_handle_t hDevice)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_HANDLE(rd_device_t, dev, hDevice, RD_MAGIC_DEVICE);
    return rd_context_has_device(ctx, dev) ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

static ze_result_t context_create(rd_driver_t *d, const ze_context_desc_t *desc,
                                  uint32_t numDevices, ze_device_handle_t *phDevices,
                                  ze_context_handle_t *phContext)
{
    RD_NOT_NULL(desc);
    RD_NOT_NULL(phContext);
    if (desc->flags & ~(ze_context_flags_t)ZE_CONTEXT_FLAG_TBD)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (numDevices > 0 && !phDevices)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    for (uint32_t i = 0; i < numDevices; i++) {
        RD_HANDLE(rd_device_t, dev, phDevices[i], RD_MAGIC_DEVICE);
        if (dev->driver != d)
            return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    rd_context_t *ctx = rd_object_new(RD_MAGIC_CONTEXT, sizeof *ctx);
    if (!ctx)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ctx->driver = d;
    if (numDevices == 0) {
        for (uint32_t i = 0; i < d->device_count; i++)
            ctx->devices[ctx->device_count++] = &d->devices[i];
    } else {
        for (uint32_t i = 0; i < numDevices; i++) {
            rd_device_t *dev = (rd_device_t *)(void *)phDevices[i];
            if (!rd_context_has_device(ctx, dev))
                ctx->devices[ctx->device_count++] = dev;
        }
    }
    ctx->magic = RD_MAGIC_CONTEXT;
    *phContext = (ze_context_handle_t)ctx;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeContextCreate(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
                                          ze_context_handle_t *phContext)
{
    RD_HANDLE(rd_driver_t, d, hDriver, RD_MAGIC_DRIVER);
    return context_create(d, desc, 0, NULL, phContext);
}

ze_result_t ZE_APICALL rd_zeContextCreateEx(ze_driver_handle_t hDriver,
                                            const ze_context_desc_t *desc, uint32_t numDevices,
                                            ze_device_handle_t *phDevices,
                                            ze_context_handle_t *phContext)
{
    RD_HANDLE(rd_driver_t, d, hDriver, RD_MAGIC_DRIVER);
    return context_create(d, desc, numDevices, phDevices, phContext);
}

ze_result_t ZE_APICALL rd_zeContextDestroy(ze_context_handle_t hContext)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    rd_object_delete(ctx, RD_MAGIC_CONTEXT, sizeof *ctx);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeContextGetStatus(ze_context_handle_t hContext)
{
    RD_CHECK(hContext, RD_MAGIC_CONTEXT);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeContextSystemBarrier(ze_context_handle_t hContext,
                                                 ze_device_handle_t hDevice)
{
    /* Every command has finished writing host memory when it completes. */
    return rd_context_check_device(hContext, hDevice);
}

ze_result_t ZE_APICALL rd_zeContextMakeMemoryResident(ze_context_handle_t hContext,
                                                      ze_device_handle_t hDevice, void *ptr,
                                                      size_t size)
{
    RD_TRY(rd_context_check_device(hContext, hDevice));
    RD_NOT_NULL(ptr);
    (void)size;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeContextEvictMemory(ze_context_handle_t hContext,
                                               ze_device_handle_t hDevice, void *ptr, size_t size)
{
    RD_TRY(rd_context_check_device(hContext, hDevice));
    RD_NOT_NULL(ptr);
    (void)size;
    return ZE_RESULT_SUCCESS;
}
