/* Reading a SPIR-V module's header and specialization constants. */
#include "rd_spirv_info.h"

#include <stdlib.h>
#include <string.h>

enum {
    OP_DECORATE = 71,
    OP_TYPE_BOOL = 20,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_SPEC_TRUE = 48,
    OP_SPEC_FALSE = 49,
    OP_SPEC = 50,
    DECORATION_SPEC_ID = 1,
    SPIRV_MAGIC = 0x07230203,
};

/* Bytes of the scalar type with that result id, or 0. */
static uint32_t type_size(const uint32_t *w, size_t n, uint32_t type)
{
    for (size_t i = 5; i < n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        if (count == 0 || i + count > n)
            return 0;
        if (count >= 2 && w[i + 1] == type) {
            if (op == OP_TYPE_BOOL)
                return 1;
            if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && count >= 3)
                return w[i + 2] / 8;
        }
        i += count;
    }
    return 0;
}

/* The size of the constant with result id r, or 0. */
static uint32_t constant_size(const uint32_t *w, size_t n, uint32_t r)
{
    for (size_t i = 5; i < n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        if (count == 0 || i + count > n)
            return 0;
        if ((op == OP_SPEC || op == OP_SPEC_TRUE || op == OP_SPEC_FALSE) && count >= 3 &&
            w[i + 2] == r)
            return type_size(w, n, w[i + 1]);
        i += count;
    }
    return 0;
}

const char *rd_spirv_read(const void *bytes, size_t size, rd_spirv_info_t *info)
{
    memset(info, 0, sizeof *info);
    if (size < 20 || size % 4 != 0)
        return "not SPIR-V: the size is not a whole number of 32-bit words after a 5-word header";
    size_t n = size / 4;
    uint32_t *w = malloc(size);
    if (!w)
        return "out of host memory";
    memcpy(w, bytes, size);
    const char *problem = NULL;
    if (w[0] != SPIRV_MAGIC)
        problem = w[0] == __builtin_bswap32(SPIRV_MAGIC)
                      ? "SPIR-V of the other byte order is not supported"
                      : "not SPIR-V: the magic number is not 0x07230203";
    for (size_t i = 5; !problem && i < n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        if (count == 0 || i + count > n) {
            problem = "not SPIR-V: an instruction runs past the end of the module";
            break;
        }
        if (op == OP_DECORATE && count >= 4 && w[i + 2] == DECORATION_SPEC_ID &&
            info->num_specs < RD_SPIRV_MAX_SPEC) {
            rd_spirv_spec_t *s = &info->specs[info->num_specs];
            s->id = w[i + 3];
            s->size = constant_size(w, n, w[i + 1]);
            if (s->size == 1 || s->size == 2 || s->size == 4 || s->size == 8)
                info->num_specs++;
        }
        i += count;
    }
    free(w);
    return problem;
}
