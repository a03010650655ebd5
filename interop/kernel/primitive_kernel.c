/* zeil's native kernel module: one kernel that runs a oneDNN primitive
 * described by a launch packet of libzeil_interop (see launch_abi.h). */
#include <stdint.h>
#include <zeil/cpu_kernel.h>

#include "launch_abi.h"

static void run_launch_packet(const zeil_cpu_group_t *group, const void *const *args)
{
    /* One work-group per launch is what the interop library asks for; any
     * other group runs nothing so the primitive never runs twice. */
    if (group->group_id[0] | group->group_id[1] | group->group_id[2])
        return;
    zeil_interop_launch_t *launch = args[0] ? *(zeil_interop_launch_t *const *)args[0] : 0;
    if (launch && launch->run)
        launch->run(launch);
}

static const uint32_t launch_arg_sizes[] = {sizeof(zeil_interop_launch_t *)};
static const zeil_cpu_kernel_t kernels[] = {
    {ZEIL_INTEROP_KERNEL_NAME, 1, launch_arg_sizes, run_launch_packet},
};

ZEIL_CPU_MODULE_EXPORT const zeil_cpu_module_t zeil_cpu_module = {
    ZEIL_CPU_KERNEL_ABI_VERSION,
    1,
    kernels,
};
