/* rd_context.h: a context and the devices it was created for. */
#ifndef ZEIL_RD_CONTEXT_H
#define ZEIL_RD_CONTEXT_H

#include "rd_driver.h"

typedef struct rd_context {
    uint32_t magic;
    rd_driver_t *driver;
    uint32_t device_count;
    rd_device_t *devices[RD_MAX_DEVICES];
} rd_context_t;

/* Whether the device is one of the context's devices. */
int rd_context_has_device(const rd_context_t *context, const rd_device_t *device);

/* Checks a (context, device) pair of a create call: both of their kind and
 * the device one of the context's. */
ze_result_t rd_context_check_device(ze_context_handle_t hContext, ze_device_handle_t hDevice);

#endif
