/*
 * Fuzz target: the reference driver's ELF check (tests/refdriver/objects/rd_elf.c),
 * which judges module bytes from zeModuleCreate before the dynamic loader
 * maps them. It must give an answer for any bytes without reading outside
 * them.
 */
#include "rd_elf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size heap copy: reads past the end are caught by ASan even
     * when the fuzzer's buffer is longer. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    const char *problem = rd_elf_problem(copy, size);
    if (problem && strlen(problem) == 0)
        abort();
    free(copy);
    return 0;
}
