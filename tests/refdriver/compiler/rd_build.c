/*
 * Building a module (rd_build.h): the cache key, then in a temporary
 * directory the front end (clang for OpenCL C, llvm-spirv for SPIR-V), the
 * back end (zeil-cpu-kc) and the link (clang -shared).
 */
#include "rd_build.h"
#include "rd_cl_options.h"
#include "rd_kcache.h"
#include "rd_spawn.h"
#include "rd_spirv_info.h"
#include "rd_toolchain.h"
#include "zeil_ddi.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RD_BUILD_TIMEOUT_S 300u
#define RD_BUILD_MAX_ARGS (RD_CL_MAX_ARGS + 64)

typedef struct rd_build_job {
    const rd_build_input_t *in;
    rd_toolchain_t tools;
    rd_cl_options_t options;
    rd_spirv_info_t spirv;
    char dir[4096];
    rd_strbuf_t *log;
} rd_build_job_t;

static void cache_key(const rd_build_job_t *j, char hex[65])
{
    const rd_build_input_t *in = j->in;
    rd_sha256_t s;
    rd_sha256_init(&s);
    static const char version[] = "zeil-cpu-kc-cache 1";
    rd_sha256_add(&s, version, sizeof version);
    rd_sha256_add(&s, &in->format, sizeof in->format);
    rd_sha256_add(&s, &in->size, sizeof in->size);
    rd_sha256_add(&s, in->bytes, in->size);
    const char *flags = in->flags ? in->flags : "";
    rd_sha256_add(&s, flags, strlen(flags) + 1);
    const char *cpu = in->cpu_name ? in->cpu_name : "";
    rd_sha256_add(&s, cpu, strlen(cpu) + 1);
    const ze_module_constants_t *c = in->constants;
    for (uint32_t i = 0; c && c->pConstantIds && c->pConstantValues && i < c->numConstants; i++)
        for (uint32_t k = 0; k < j->spirv.num_specs; k++)
            if (j->spirv.specs[k].id == c->pConstantIds[i] && c->pConstantValues[i]) {
                rd_sha256_add(&s, &c->pConstantIds[i], sizeof c->pConstantIds[i]);
                rd_sha256_add(&s, c->pConstantValues[i], j->spirv.specs[k].size);
            }
    rd_toolchain_hash(&j->tools, &s);
    unsigned char digest[32];
    rd_sha256_end(&s, digest);
    rd_sha256_hex(digest, hex);
}

static int write_file(const char *dir, const char *name, const void *bytes, size_t size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return 0;
    int ok = 1;
    for (size_t done = 0; ok && done < size;) {
        ssize_t n = write(fd, (const char *)bytes + done, size - done);
        ok = n > 0;
        done += ok ? (size_t)n : 0;
    }
    return close(fd) == 0 && ok;
}

static unsigned char *read_file(const char *dir, const char *name, size_t *size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    off_t end = lseek(fd, 0, SEEK_END);
    unsigned char *bytes = end > 0 ? malloc((size_t)end) : NULL;
    if (bytes && pread(fd, bytes, (size_t)end, 0) != (ssize_t)end) {
        free(bytes);
        bytes = NULL;
    }
    close(fd);
    *size = bytes ? (size_t)end : 0;
    return bytes;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                unlinkat(dirfd(d), e->d_name, 0);
        closedir(d);
    }
    rmdir(dir);
}

/* Runs one step; 1 when it succeeded, else the log says why. */
static int step(rd_build_job_t *j, const char *what, const char *tool, char **argv,
                rd_strbuf_t *out)
{
    rd_spawn_result_t r = rd_spawn(argv, j->dir, RD_BUILD_TIMEOUT_S, out, j->log);
    if (r == RD_SPAWN_OK)
        return 1;
    if (r == RD_SPAWN_NOT_FOUND)
        rd_strbuf_add(j->log,
                      "zeil reference CPU driver: cannot build the module: '%s' (%s) was not "
                      "found; install %s\n",
                      tool, what, rd_toolchain_package(&j->tools, tool));
    else
        rd_strbuf_add(j->log, "zeil reference CPU driver: %s failed\n", what);
    return 0;
}

static int front_end_opencl_c(rd_build_job_t *j)
{
    if (!write_file(j->dir, "program.cl", j->in->bytes, j->in->size))
        return 0;
    char *argv[RD_BUILD_MAX_ARGS];
    int n = 0;
    char ext_args[64][96];
    argv[n++] = (char *)j->tools.clang;
    /* __OPENCL_VERSION__ is the device's OpenCL version, which the
     * implementation defines (clang does not for SPIR): 3.0, as the ICD says. */
    const char *fixed[] = {"-cc1",
                           "-triple",
                           "spir64-unknown-unknown",
                           "-x",
                           "cl",
                           "-finclude-default-header",
                           "-D__OPENCL_VERSION__=300",
                           "-O2",
                           "-emit-llvm-bc",
                           "-o",
                           "program.bc"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        argv[n++] = (char *)fixed[i];
    if (j->tools.ext_header) {
        argv[n++] = "-include";
        argv[n++] = (char *)j->tools.ext_header;
    }
    int e = 0;
    for (const char *p = j->tools.extensions; *p && e < 64;) {
        size_t len = strcspn(p, " ;");
        if (len > 0 && len < 80)
            snprintf(ext_args[e], sizeof ext_args[e], "-cl-ext=+%.*s", (int)len, p),
                argv[n++] = ext_args[e++];
        p += len;
        p += strspn(p, " ;");
    }
    for (int i = 0; i < j->options.num_args; i++)
        argv[n++] = (char *)j->options.args[i];
    argv[n++] = "program.cl";
    argv[n] = NULL;
    return step(j, "compiling the OpenCL C source (clang)", j->tools.clang, argv, NULL);
}

static int front_end_spirv(rd_build_job_t *j)
{
    if (!write_file(j->dir, "program.spv", j->in->bytes, j->in->size))
        return 0;
    char consts[RD_SPIRV_MAX_SPEC * 40 + 16];
    size_t used = 0;
    const ze_module_constants_t *c = j->in->constants;
    for (uint32_t i = 0; c && c->pConstantIds && c->pConstantValues && i < c->numConstants; i++)
        for (uint32_t k = 0; k < j->spirv.num_specs; k++) {
            const rd_spirv_spec_t *s = &j->spirv.specs[k];
            if (s->id != c->pConstantIds[i] || !c->pConstantValues[i])
                continue;
            /* The value's bits as an unsigned integer of its size (llvm-spirv
             * takes a float constant's bits that way too). */
            uint64_t v = 0;
            if (s->size == 1)
                v = *(const uint8_t *)c->pConstantValues[i];
            else if (s->size == 2)
                v = *(const uint16_t *)c->pConstantValues[i];
            else if (s->size == 4)
                v = *(const uint32_t *)c->pConstantValues[i];
            else
                memcpy(&v, c->pConstantValues[i], 8);
            used += (size_t)snprintf(consts + used, sizeof consts - used, "%s%u:i%u:%llu",
                                     used ? " " : "", s->id, s->size * 8, (unsigned long long)v);
        }
    char spec_arg[sizeof consts + 16];
    snprintf(spec_arg, sizeof spec_arg, "--spec-const=%s", consts);
    char *argv[] = {
        (char *)j->tools.llvm_spirv, "-r", "--spirv-ext=+all", "-o", "program.bc", "program.spv",
        used ? spec_arg : NULL,      NULL};
    return step(j, "reading the SPIR-V module (llvm-spirv)", j->tools.llvm_spirv, argv, NULL);
}

static int back_end(rd_build_job_t *j)
{
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)j->tools.kc;
    for (int i = 0; i < j->tools.num_libs; i++) {
        argv[n++] = j->tools.lazy[i] ? "--lazy-lib" : "--lib";
        argv[n++] = (char *)j->tools.libs[i];
    }
    argv[n++] = "-o";
    argv[n++] = "module.o";
    argv[n++] = "program.bc";
    argv[n] = NULL;
    if (!step(j, "compiling for the CPU (zeil-cpu-kc)", j->tools.kc, argv, NULL))
        return 0;
    char *link[] = {(char *)j->tools.clang, "-shared", "-o", "module.so", "module.o", "-lm", NULL};
    return step(j, "linking the module (clang -shared)", j->tools.clang, link, NULL);
}

static int run_steps(rd_build_job_t *j)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(j->dir, sizeof j->dir, "%s/zeil-kc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(j->dir)) {
        rd_strbuf_add(j->log,
                      "zeil reference CPU driver: cannot create a temporary directory in %s\n",
                      tmp && *tmp ? tmp : "/tmp");
        return 0;
    }
    int ok = j->in->format == ZEIL_MODULE_FORMAT_OCLC ? front_end_opencl_c(j) : front_end_spirv(j);
    ok = ok && back_end(j);
    return ok;
}

ze_result_t rd_build(const rd_build_input_t *in, unsigned char **so, size_t *so_size,
                     rd_strbuf_t *log)
{
    rd_build_job_t j;
    memset(&j, 0, sizeof j);
    j.in = in;
    j.log = log;
    *so = NULL;
    rd_toolchain_get(&j.tools);
    if (in->format == ZE_MODULE_FORMAT_IL_SPIRV) {
        const char *problem = rd_spirv_read(in->bytes, in->size, &j.spirv);
        if (problem) {
            rd_strbuf_add(log, "zeil reference CPU driver: invalid SPIR-V module: %s\n", problem);
            return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
        }
    }
    if (!rd_cl_options_parse(in->flags, &j.options, log))
        return log->oom ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    char key[65], cache[4096];
    int cached = rd_kcache_dir(cache, sizeof cache);
    if (cached) {
        cache_key(&j, key);
        *so = rd_kcache_get(cache, key, so_size);
    }
    if (!*so) {
        if (run_steps(&j))
            *so = read_file(j.dir, "module.so", so_size);
        if (j.dir[0])
            remove_dir(j.dir);
        if (*so && cached)
            rd_kcache_put(cache, key, *so, *so_size);
    }
    rd_cl_options_free(&j.options);
    if (!*so)
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    return ZE_RESULT_SUCCESS;
}
