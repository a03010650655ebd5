#include <zeil/cpu_kernel.h>
ZEIL_CPU_MODULE_EXPORT const zeil_cpu_module_t zeil_cpu_module = {ZEIL_CPU_KERNEL_ABI_VERSION, 0, 0};
