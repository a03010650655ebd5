/*
 * rd_driver.h: the driver and its devices.
 *
 * There is one driver, created by the first successful zeInit and never
 * destroyed: the loader may unload the library at exit while nothing is
 * running, and freeing the driver there would only race with late callers.
 * Its devices are ZEIL_CPU_DEVICES (default 1) views of the same host CPU.
 */
#ifndef ZEIL_RD_DRIVER_H
#define ZEIL_RD_DRIVER_H

#include "rd_host.h"
#include "rd_memory.h"
#include "rd_object.h"
#include "rd_threadpool.h"

#include <pthread.h>

/* Limits the device reports and the driver enforces. */
#define RD_MAX_DEVICES 64u
#define RD_MAX_GROUP_SIZE 1024u
#define RD_QUEUE_GROUPS 1u
#define RD_QUEUES_PER_GROUP 4u

/* Queue (and immediate list) flags the driver knows: EXPLICIT_ONLY (bit 0)
 * and IN_ORDER (bit 1, named only in headers newer than API 1.4). The
 * driver runs every queue and immediate list in order, so both are honoured. */
#define RD_QUEUE_FLAGS_KNOWN (ZE_BIT(0) | ZE_BIT(1))
/* Regular list flags: RELAXED_ORDERING, MAXIMIZE_THROUGHPUT, EXPLICIT_ONLY
 * and IN_ORDER (bit 3, newer headers). */
#define RD_LIST_FLAGS_KNOWN (ZE_BIT(0) | ZE_BIT(1) | ZE_BIT(2) | ZE_BIT(3))
#define RD_MAX_FILL_PATTERN 128u
#define RD_DEFAULT_ALIGNMENT 64u
#define RD_MAX_KERNEL_ARGS_BYTES 4096u
/* Local memory per work-group a compiled kernel may use (reported). */
#define RD_MAX_LOCAL_MEMORY (64u * 1024u)
/* printf buffer a device reports (compiled kernels print directly). */
#define RD_PRINTF_BUFFER_BYTES (4u * 1024u * 1024u)

typedef struct rd_driver rd_driver_t;

typedef struct rd_device {
    uint32_t magic;
    rd_driver_t *driver;
    uint32_t index;
    ze_device_uuid_t uuid;
} rd_device_t;

struct rd_driver {
    uint32_t magic;
    rd_host_t host;
    uint32_t device_count;
    rd_device_t devices[RD_MAX_DEVICES];
    ze_driver_uuid_t uuid;
    rd_alloc_table_t allocs;
    pthread_mutex_t pool_lock;
    rd_threadpool_t *pool; /* started at the first launch */
};

/* The driver, or null before a successful zeInit. */
rd_driver_t *rd_driver(void);

/* The work-group pool, started on first use. */
rd_threadpool_t *rd_driver_threadpool(rd_driver_t *driver);

/* Fills the driver's devices (rd_device.c). */
void rd_devices_init(rd_driver_t *driver);

#endif
