/*
 * launch_abi.h: what zeil's native kernel module and libzeil_interop agree
 * on. The kernel's one argument is a pointer to a launch packet that starts
 * with a zeil_interop_launch_t; the kernel calls run(launch) once per launch.
 * The module is loaded by the driver from bytes, so it cannot link against
 * libzeil_interop: the packet carries the function to call.
 */
#ifndef ZEIL_INTEROP_LAUNCH_ABI_H
#define ZEIL_INTEROP_LAUNCH_ABI_H

#define ZEIL_INTEROP_KERNEL_NAME "zeil_dnnl_primitive_execute"

typedef struct zeil_interop_launch {
    void (*run)(struct zeil_interop_launch *launch);
} zeil_interop_launch_t;

#endif
