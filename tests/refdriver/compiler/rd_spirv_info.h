/*
 * rd_spirv_info.h: what the driver reads from a SPIR-V module itself: that
 * its header is one, and the specialization constants it declares (id and
 * size), so that pConstants can be hashed and passed to llvm-spirv by type.
 */
#ifndef ZEIL_RD_SPIRV_INFO_H
#define ZEIL_RD_SPIRV_INFO_H

#include <stddef.h>
#include <stdint.h>

#define RD_SPIRV_MAX_SPEC 256

typedef struct rd_spirv_spec {
    uint32_t id;
    uint32_t size; /* bytes: 1 (bool or 8-bit), 2, 4, 8 */
} rd_spirv_spec_t;

typedef struct rd_spirv_info {
    uint32_t num_specs;
    rd_spirv_spec_t specs[RD_SPIRV_MAX_SPEC];
} rd_spirv_info_t;

/* Null when the bytes are a SPIR-V module as far as the header and the
 * instruction stream go, else what is wrong. */
const char *rd_spirv_read(const void *bytes, size_t size, rd_spirv_info_t *info);

#endif
