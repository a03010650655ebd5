/*
 * rd_toolchain.h: where the compiler's tools and libraries are. Built-in
 * paths come from the build (CMake); ZEIL_CPU_CLANG, ZEIL_CPU_LLVM_SPIRV and
 * ZEIL_CPU_KC override the tools (a name is looked up in PATH).
 */
#ifndef ZEIL_RD_TOOLCHAIN_H
#define ZEIL_RD_TOOLCHAIN_H

#include "rd_sha256.h"

typedef struct rd_toolchain {
    const char *clang, *llvm_spirv, *kc;
    const char *libs[4];    /* bitcode linked into every module, in order: the */
    int lazy[4];            /* entries' runtime whole, then the built-ins and their */
    int num_libs;           /* runtime lazily (only what is used) */
    const char *ext_header; /* -include'd before the source, or null */
    const char *extensions; /* OpenCL C extensions to enable, blank-separated */
} rd_toolchain_t;

void rd_toolchain_get(rd_toolchain_t *t);
/* The Debian package (or build target) that provides a tool. */
const char *rd_toolchain_package(const rd_toolchain_t *t, const char *tool);
/* Adds what identifies the toolchain (each file's path, size and time) to
 * a cache key. */
void rd_toolchain_hash(const rd_toolchain_t *t, rd_sha256_t *key);

#endif
