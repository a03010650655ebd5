/* The native kernel module's bytes, pulled in with .incbin from the module
 * built in interop/kernel (ZEIL_INTEROP_KERNEL_FILE is its path). */
#include "kernel_image.h"

__asm__(".section .rodata.zeil_interop_kernel,\"a\"\n"
        ".balign 64\n"
        ".hidden zeil_interop_kernel_begin\n"
        ".hidden zeil_interop_kernel_end\n"
        "zeil_interop_kernel_begin:\n"
        ".incbin \"" ZEIL_INTEROP_KERNEL_FILE "\"\n"
        "zeil_interop_kernel_end:\n"
        ".previous\n");

extern const uint8_t zeil_interop_kernel_begin[];
extern const uint8_t zeil_interop_kernel_end[];

const uint8_t *kernel_image_bytes(void)
{
    return zeil_interop_kernel_begin;
}

size_t kernel_image_size(void)
{
    return (size_t)(zeil_interop_kernel_end - zeil_interop_kernel_begin);
}
