/* Where the compiler's tools and libraries are (rd_toolchain.h). */
#include "rd_toolchain.h"
#include "rd_spawn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef RD_KC_PATH
#define RD_KC_PATH "zeil-cpu-kc"
#endif
#ifndef RD_KC_RT_BC
#define RD_KC_RT_BC ""
#endif
#ifndef RD_CL_BUILTINS_BC
#define RD_CL_BUILTINS_BC ""
#endif
#ifndef RD_CL_RT_BC
#define RD_CL_RT_BC ""
#endif
#ifndef RD_CL_EXT_H
#define RD_CL_EXT_H ""
#endif
#ifndef RD_CL_EXTENSIONS
#define RD_CL_EXTENSIONS ""
#endif

static const char *env_or(const char *name, const char *def)
{
    const char *v = getenv(name);
    return v && *v ? v : def;
}

void rd_toolchain_get(rd_toolchain_t *t)
{
    memset(t, 0, sizeof *t);
    t->clang = env_or("ZEIL_CPU_CLANG", "clang-15");
    t->llvm_spirv = env_or("ZEIL_CPU_LLVM_SPIRV", "llvm-spirv-15");
    t->kc = env_or("ZEIL_CPU_KC", RD_KC_PATH);
    const char *libs[] = {RD_KC_RT_BC, RD_CL_BUILTINS_BC, RD_CL_RT_BC};
    for (size_t i = 0; i < sizeof libs / sizeof *libs; i++)
        if (*libs[i]) {
            t->lazy[t->num_libs] = i > 0;
            t->libs[t->num_libs++] = libs[i];
        }
    t->ext_header = *RD_CL_EXT_H ? RD_CL_EXT_H : NULL;
    t->extensions = RD_CL_EXTENSIONS;
}

const char *rd_toolchain_package(const rd_toolchain_t *t, const char *tool)
{
    if (tool == t->kc)
        return "zeil's build target zeil-cpu-kc (tests/refdriver/compiler/kc, needs llvm-15-dev)";
    if (tool == t->llvm_spirv)
        return "the Debian package llvm-spirv-15";
    return "the Debian package clang-15";
}

static void hash_file(rd_sha256_t *key, const char *file, int in_path)
{
    char path[4096];
    struct stat st;
    memset(&st, 0, sizeof st);
    if ((in_path ? rd_spawn_which(file, path, sizeof path)
                 : snprintf(path, sizeof path, "%s", file) > 0) &&
        stat(path, &st) == 0) {
        rd_sha256_add(key, path, strlen(path) + 1);
        rd_sha256_add(key, &st.st_size, sizeof st.st_size);
        rd_sha256_add(key, &st.st_mtim, sizeof st.st_mtim);
    } else {
        rd_sha256_add(key, file, strlen(file) + 1);
    }
}

void rd_toolchain_hash(const rd_toolchain_t *t, rd_sha256_t *key)
{
    hash_file(key, t->clang, 1);
    hash_file(key, t->llvm_spirv, 1);
    hash_file(key, t->kc, 1);
    for (int i = 0; i < t->num_libs; i++)
        hash_file(key, t->libs[i], 0);
    if (t->ext_header)
        hash_file(key, t->ext_header, 0);
    rd_sha256_add(key, t->extensions, strlen(t->extensions) + 1);
}
