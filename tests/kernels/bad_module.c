/*
 * ELF shared objects that are not valid zeil native modules, for the
 * refusal tests: without ZEIL_BAD_ABI the object exports no zeil_cpu_module
 * at all; with it, the module descriptor claims an ABI version the driver
 * cannot know.
 */
#include <zeil/cpu_kernel.h>

#ifdef ZEIL_BAD_ABI
ZEIL_CPU_MODULE_EXPORT const zeil_cpu_module_t zeil_cpu_module = {
    ZEIL_CPU_KERNEL_ABI_VERSION + 1000u, 0, 0};
#else
ZEIL_CPU_MODULE_EXPORT int zeil_not_a_module(void);
int zeil_not_a_module(void)
{
    return 42;
}
#endif
