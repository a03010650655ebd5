/*
 * Modules: every module is an ELF shared object, written to an anonymous
 * memory file and opened through /proc/self/fd, so nothing touches the
 * caller's file system and every module is its own instance (the memfd
 * stays open while the module is loaded, so its path names no other
 * module). ZE_MODULE_FORMAT_NATIVE takes either kind of object: a native
 * CPU module (zeil/cpu_kernel.h) or one this driver compiled (rd_compiled.h,
 * what zeModuleGetNativeBinary returns); SPIR-V and OpenCL C are compiled
 * first (compiler/rd_build.h).
 */
#include "rd_api.h"
#include "rd_build.h"
#include "rd_driver.h"
#include "rd_elf.h"
#include "rd_module.h"

#include <dlfcn.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

ze_result_t rd_copy_out(const void *data, size_t data_size, size_t *size, void *buffer)
{
    if (!buffer) {
        *size = data_size;
        return ZE_RESULT_SUCCESS;
    }
    if (*size < data_size)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    memcpy(buffer, data, data_size);
    *size = data_size;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t log_create(ze_module_build_log_handle_t *phBuildLog, const char *fmt, ...)
{
    if (!phBuildLog)
        return ZE_RESULT_SUCCESS;
    *phBuildLog = NULL;
    rd_build_log_t *log = rd_object_new(RD_MAGIC_BUILD_LOG, sizeof *log);
    if (!log)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&log->text, fmt, ap);
    va_end(ap);
    if (n < 0) {
        rd_object_delete(log, RD_MAGIC_BUILD_LOG, sizeof *log);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    log->magic = RD_MAGIC_BUILD_LOG;
    *phBuildLog = (ze_module_build_log_handle_t)log;
    return ZE_RESULT_SUCCESS;
}

/* What is wrong with the kernel table a module exports, or null. */
static const char *abi_problem(const zeil_cpu_module_t *abi)
{
    if (abi->abi_version != ZEIL_CPU_KERNEL_ABI_VERSION)
        return "its abi_version is not ZEIL_CPU_KERNEL_ABI_VERSION";
    if (abi->num_kernels > 0 && !abi->kernels)
        return "it lists kernels but its kernels array is null";
    for (uint32_t i = 0; i < abi->num_kernels; i++) {
        const zeil_cpu_kernel_t *k = &abi->kernels[i];
        if (!k->name || !k->entry)
            return "a kernel has no name or no entry";
        if (k->num_args > 0 && !k->arg_sizes)
            return "a kernel has arguments but no arg_sizes";
        for (uint32_t a = 0; a < k->num_args; a++)
            if (k->arg_sizes[a] == 0)
                return "a kernel argument has size 0";
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(abi->kernels[j].name, k->name) == 0)
                return "two kernels have the same name";
    }
    return NULL;
}

/* How modules are opened. Under AddressSanitizer they are never unloaded:
 * LeakSanitizer (GCC 12's) walks the thread-local blocks of every object a
 * thread touched, unloaded ones included, and crashes at exit on those of a
 * module (compiled modules keep their work-item state thread-local). Their
 * memfds then stay open too, so that no later module's /proc/self/fd path
 * names a loaded one. */
#if defined(__SANITIZE_ADDRESS__)
#define RD_MODULE_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)
#define RD_MODULE_UNLOADS 0
#else
#define RD_MODULE_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL)
#define RD_MODULE_UNLOADS 1
#endif

/* What is wrong with the table a compiled module exports, or null. */
static const char *cm_problem(const rd_cm_module_t *cm)
{
    if (cm->abi_version != RD_CM_ABI_VERSION || cm->wi_abi_version != RD_WI_ABI_VERSION)
        return "it was compiled for another version of this driver";
    if ((cm->num_kernels > 0 && !cm->kernels) || (cm->num_globals > 0 && !cm->globals))
        return "it lists kernels or globals but their array is null";
    for (uint32_t i = 0; i < cm->num_kernels; i++) {
        const rd_cm_kernel_t *k = &cm->kernels[i];
        if (!k->name || !k->item || !k->direct || (k->num_args > 0 && !k->args))
            return "a kernel has no name, entries or arguments";
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(cm->kernels[j].name, k->name) == 0)
                return "two kernels have the same name";
    }
    for (uint32_t i = 0; i < cm->num_globals; i++)
        if (!cm->globals[i].name || !cm->globals[i].address)
            return "a global has no name or address";
    return NULL;
}

/* Loads the bytes as a shared object; on failure says why in *why. */
static int load_native(rd_module_t *m, const void *bytes, size_t size, char *why, size_t why_size)
{
    static const unsigned char spirv_magic[4] = {0x03, 0x02, 0x23,
                                                 0x07}; /* 0x07230203, little end first */
    if (size >= 4 && memcmp(bytes, spirv_magic, 4) == 0) {
        snprintf(why, why_size,
                 "the bytes are SPIR-V, given as ZE_MODULE_FORMAT_NATIVE; this driver runs native "
                 "CPU modules only");
        return 0;
    }
    const char *bad_elf = rd_elf_problem(bytes, size);
    if (bad_elf) {
        snprintf(why, why_size, "%s", bad_elf);
        return 0;
    }
    m->fd = memfd_create("zeil-cpu-module", MFD_CLOEXEC);
    if (m->fd < 0) {
        snprintf(why, why_size, "memfd_create failed");
        return 0;
    }
    for (size_t done = 0; done < size;) {
        ssize_t n = write(m->fd, (const char *)bytes + done, size - done);
        if (n <= 0) {
            snprintf(why, why_size, "writing the module to memory failed");
            return 0;
        }
        done += (size_t)n;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", m->fd);
    m->library = dlopen(path, RD_MODULE_DLOPEN_FLAGS);
    if (!m->library) {
        const char *err = dlerror();
        snprintf(why, why_size, "not a loadable shared object for this CPU: %s",
                 err ? err : "dlopen failed");
        return 0;
    }
    m->cm = dlsym(m->library, RD_CM_MODULE_SYMBOL);
    if (m->cm) {
        const char *problem = cm_problem(m->cm);
        if (problem)
            snprintf(why, why_size, "its '%s' is invalid: %s", RD_CM_MODULE_SYMBOL, problem);
        return problem == NULL;
    }
    m->abi = dlsym(m->library, ZEIL_CPU_MODULE_SYMBOL);
    if (!m->abi) {
        snprintf(why, why_size,
                 "the object exports no '%s' (see zeil/cpu_kernel.h) nor '%s' (a module this "
                 "driver compiled)",
                 ZEIL_CPU_MODULE_SYMBOL, RD_CM_MODULE_SYMBOL);
        return 0;
    }
    const char *problem = abi_problem(m->abi);
    if (problem) {
        snprintf(why, why_size, "its '%s' is invalid: %s", ZEIL_CPU_MODULE_SYMBOL, problem);
        return 0;
    }
    return 1;
}

static void module_free(rd_module_t *m)
{
    if (m->library)
        dlclose(m->library);
    if (m->fd >= 0 && (RD_MODULE_UNLOADS || !m->library))
        close(m->fd);
    free(m->binary);
    rd_object_delete(m, RD_MAGIC_MODULE, sizeof *m);
}

void rd_module_retain(rd_module_t *module)
{
    __atomic_add_fetch(&module->refs, 1, __ATOMIC_RELAXED);
}

void rd_module_release(rd_module_t *module)
{
    if (__atomic_sub_fetch(&module->refs, 1, __ATOMIC_ACQ_REL) == 0)
        module_free(module);
}

const zeil_cpu_kernel_t *rd_module_find_kernel(const rd_module_t *module, const char *name)
{
    for (uint32_t i = 0; module->abi && i < module->abi->num_kernels; i++)
        if (strcmp(module->abi->kernels[i].name, name) == 0)
            return &module->abi->kernels[i];
    return NULL;
}

const rd_cm_kernel_t *rd_module_find_cm_kernel(const rd_module_t *module, const char *name)
{
    for (uint32_t i = 0; module->cm && i < module->cm->num_kernels; i++)
        if (strcmp(module->cm->kernels[i].name, name) == 0)
            return &module->cm->kernels[i];
    return NULL;
}

uint32_t rd_module_kernel_count(const rd_module_t *module)
{
    return module->cm ? module->cm->num_kernels : module->abi->num_kernels;
}

const char *rd_module_kernel_name(const rd_module_t *module, uint32_t i)
{
    return module->cm ? module->cm->kernels[i].name : module->abi->kernels[i].name;
}

/* The bytes to load: the input of a native module, else the shared object
 * compiled from it (malloc'ed into *binary either way). The build log
 * gets the compiler's notes and diagnostics. */
static ze_result_t module_binary(const rd_device_t *dev, const ze_module_desc_t *desc,
                                 unsigned char **binary, size_t *size, rd_strbuf_t *log)
{
    if (desc->format == ZE_MODULE_FORMAT_NATIVE) {
        *binary = malloc(desc->inputSize);
        if (!*binary)
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        memcpy(*binary, desc->pInputModule, desc->inputSize);
        *size = desc->inputSize;
        return ZE_RESULT_SUCCESS;
    }
    rd_build_input_t in = {
        .format = desc->format,
        .bytes = desc->pInputModule,
        .size = desc->inputSize,
        .flags = desc->pBuildFlags,
        .constants = desc->pConstants,
        .cpu_name = dev->driver->host.cpu_name,
    };
    return rd_build(&in, binary, size, log);
}

ze_result_t ZE_APICALL rd_zeModuleCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                         const ze_module_desc_t *desc, ze_module_handle_t *phModule,
                                         ze_module_build_log_handle_t *phBuildLog)
{
    RD_TRY(rd_context_check_device(hContext, hDevice));
    RD_NOT_NULL(desc);
    RD_NOT_NULL(desc->pInputModule);
    RD_NOT_NULL(phModule);
    if (desc->format > ZE_MODULE_FORMAT_NATIVE && desc->format != ZEIL_MODULE_FORMAT_OCLC)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (desc->inputSize == 0)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    *phModule = NULL;
    if (phBuildLog)
        *phBuildLog = NULL;
    rd_device_t *dev = (rd_device_t *)(void *)hDevice;
    rd_module_t *m = rd_object_new(RD_MAGIC_MODULE, sizeof *m);
    if (!m)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    m->fd = -1;
    m->refs = 1;
    rd_strbuf_t log = {0};
    ze_result_t r = module_binary(dev, desc, &m->binary, &m->binary_size, &log);
    if (r != ZE_RESULT_SUCCESS) {
        module_free(m);
        if (r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
            r = log_create(phBuildLog, "%s", rd_strbuf_str(&log)) == ZE_RESULT_SUCCESS
                    ? r
                    : ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        rd_strbuf_free(&log);
        return r;
    }
    char why[1024];
    if (!load_native(m, m->binary, m->binary_size, why, sizeof why)) {
        module_free(m);
        rd_strbuf_free(&log);
        RD_TRY(log_create(phBuildLog,
                          "zeil reference CPU driver: cannot load the native module: %s", why));
        return desc->format == ZE_MODULE_FORMAT_NATIVE ? ZE_RESULT_ERROR_INVALID_NATIVE_BINARY
                                                       : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    r = log_create(phBuildLog, "%s", rd_strbuf_str(&log));
    rd_strbuf_free(&log);
    if (r != ZE_RESULT_SUCCESS) {
        module_free(m);
        return r;
    }
    m->id = rd_hash(RD_HASH_SEED, m->binary, m->binary_size);
    m->driver = ((rd_context_t *)(void *)hContext)->driver;
    m->device = dev;
    m->magic = RD_MAGIC_MODULE;
    *phModule = (ze_module_handle_t)m;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeModuleDestroy(ze_module_handle_t hModule)
{
    RD_HANDLE(rd_module_t, m, hModule, RD_MAGIC_MODULE);
    m->magic = RD_MAGIC_DEAD;
    rd_module_release(m);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeModuleBuildLogDestroy(ze_module_build_log_handle_t hModuleBuildLog)
{
    RD_HANDLE(rd_build_log_t, log, hModuleBuildLog, RD_MAGIC_BUILD_LOG);
    log->magic = RD_MAGIC_DEAD;
    free(log->text);
    rd_object_delete(log, RD_MAGIC_BUILD_LOG, sizeof *log);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeModuleBuildLogGetString(ze_module_build_log_handle_t hModuleBuildLog,
                                                    size_t *pSize, char *pBuildLog)
{
    RD_HANDLE(rd_build_log_t, log, hModuleBuildLog, RD_MAGIC_BUILD_LOG);
    RD_NOT_NULL(pSize);
    return rd_copy_out(log->text, strlen(log->text) + 1, pSize, pBuildLog);
}

ze_result_t ZE_APICALL rd_zeModuleGetNativeBinary(ze_module_handle_t hModule, size_t *pSize,
                                                  uint8_t *pModuleNativeBinary)
{
    RD_HANDLE(rd_module_t, m, hModule, RD_MAGIC_MODULE);
    RD_NOT_NULL(pSize);
    return rd_copy_out(m->binary, m->binary_size, pSize, pModuleNativeBinary);
}

ze_result_t ZE_APICALL rd_zeModuleGetKernelNames(ze_module_handle_t hModule, uint32_t *pCount,
                                                 const char **pNames)
{
    RD_HANDLE(rd_module_t, m, hModule, RD_MAGIC_MODULE);
    RD_NOT_NULL(pCount);
    uint32_t n = rd_count_query(pCount, rd_module_kernel_count(m), pNames);
    for (uint32_t i = 0; i < n; i++)
        pNames[i] = rd_module_kernel_name(m, i);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeModuleGetProperties(ze_module_handle_t hModule,
                                                ze_module_properties_t *pModuleProperties)
{
    RD_CHECK(hModule, RD_MAGIC_MODULE);
    RD_NOT_NULL(pModuleProperties);
    pModuleProperties->flags = 0; /* no imports */
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeModuleGetFunctionPointer(ze_module_handle_t hModule,
                                                     const char *pFunctionName, void **pfnFunction)
{
    RD_HANDLE(rd_module_t, m, hModule, RD_MAGIC_MODULE);
    RD_NOT_NULL(pFunctionName);
    RD_NOT_NULL(pfnFunction);
    const zeil_cpu_kernel_t *k = rd_module_find_kernel(m, pFunctionName);
    if (!k)
        return ZE_RESULT_ERROR_INVALID_FUNCTION_NAME;
    zeil_cpu_kernel_fn entry = k->entry;
    memcpy(pfnFunction, &entry,
           sizeof entry < sizeof *pfnFunction ? sizeof entry : sizeof *pfnFunction);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeModuleGetGlobalPointer(ze_module_handle_t hModule,
                                                   const char *pGlobalName, size_t *pSize,
                                                   void **pptr)
{
    RD_HANDLE(rd_module_t, m, hModule, RD_MAGIC_MODULE);
    RD_NOT_NULL(pGlobalName);
    if (m->cm) {
        for (uint32_t i = 0; i < m->cm->num_globals; i++)
            if (strcmp(m->cm->globals[i].name, pGlobalName) == 0) {
                if (pSize)
                    *pSize = (size_t)m->cm->globals[i].size;
                if (pptr)
                    *pptr = m->cm->globals[i].address;
                return ZE_RESULT_SUCCESS;
            }
        return ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
    }
    void *address = dlsym(m->library, pGlobalName);
    /* dlsym also searches the module's dependencies (libc...): only a data
     * object defined by the module itself is one of its globals. */
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    struct link_map *self = NULL;
    if (!address || !dladdr1(address, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym ||
        ELF64_ST_TYPE(sym->st_info) != STT_OBJECT ||
        dlinfo(m->library, RTLD_DI_LINKMAP, &self) != 0 || !info.dli_fname ||
        strcmp(info.dli_fname, self->l_name) != 0)
        return ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
    if (pSize)
        *pSize = (size_t)sym->st_size;
    if (pptr)
        *pptr = address;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeModuleDynamicLink(uint32_t numModules, ze_module_handle_t *phModules,
                                              ze_module_build_log_handle_t *phLinkLog)
{
    RD_NOT_NULL(phModules);
    for (uint32_t i = 0; i < numModules; i++)
        RD_TRY(rd_check_handle(phModules[i], RD_MAGIC_MODULE));
    /* Native modules resolve their own symbols when they are loaded. */
    return log_create(phLinkLog, "%s", "");
}
