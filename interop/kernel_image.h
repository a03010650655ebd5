/* kernel_image.h: the bytes of zeil's native kernel module, embedded into
 * libzeil_interop at build time (no file is looked up at run time). */
#ifndef ZEIL_INTEROP_KERNEL_IMAGE_H
#define ZEIL_INTEROP_KERNEL_IMAGE_H

#include <stddef.h>
#include <stdint.h>

const uint8_t *kernel_image_bytes(void);
size_t kernel_image_size(void);

#endif
