/*
 * rd_elf.h: checks that bytes are a complete ELF shared object for this
 * CPU before the dynamic loader maps them: dlopen of an object cut short
 * maps pages past the end of the file, and touching them raises SIGBUS.
 */
#ifndef ZEIL_RD_ELF_H
#define ZEIL_RD_ELF_H

#include <stddef.h>

/* Null when the bytes look loadable, else what is wrong with them. */
const char *rd_elf_problem(const void *bytes, size_t size);

#endif
