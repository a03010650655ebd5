/*
 * Modules: ZE_MODULE_FORMAT_NATIVE is an ELF shared object following
 * zeil/cpu_kernel.h. It is written to an anonymous memory file and opened
 * through /proc/self/fd, so nothing touches the caller's file system and
 * every module is its own instance (the memfd stays open while the module
 * is loaded, so its path names no other module). SPIR-V is refused.
 */
#include "rd_api.h"
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

/* Loads the bytes as a shared object; on failure says why in *why. */
static int load_native(rd_module_t *m, const void *bytes, size_t size, char *why, size_t why_size)
{
    static const unsigned char spirv_magic[4] = {0x03, 0x02, 0x23, 0x07}; /* 0x07230203, little end first */
    if (size >= 4 && memcmp(bytes, spirv_magic, 4) == 0) {
        snprintf(why, why_size, "the bytes are SPIR-V, given as ZE_MODULE_FORMAT_NATIVE; this driver runs native "
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
    m->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!m->library) {
        const char *err = dlerror();
        snprintf(why, why_size, "not a loadable shared object for this CPU: %s", err ? err : "dlopen failed");
        return 0;
    }
    m->abi = dlsym(m->library, ZEIL_CPU_MODULE_SYMBOL);
    if (!m->abi) {
        snprintf(why, why_size, "the object exports no '%s' (see zeil/cpu_kernel.h)", ZEIL_CPU_MODULE_SYMBOL);
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
    if (m->fd >= 0)
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
    for (uint32_t i = 0; i < module->abi->num_kernels; i++)
        if (strcmp(module->abi->kernels[i].name, name) == 0)
            return &module->abi->kernels[i];
    return NULL;
}

static const char spirv_refused[] =
    "zeil reference CPU driver: SPIR-V (ZE_MODULE_FORMAT_IL_SPIRV) is not supported; this driver runs "
    "native CPU modules only (ZE_MODULE_FORMAT_NATIVE: an ELF shared object for this CPU exporting '"
    ZEIL_CPU_MODULE_SYMBOL "', see zeil/cpu_kernel.h)";

ze_result_t ZE_APICALL rd_zeModuleCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                         const ze_module_desc_t *desc, ze_module_handle_t *phModule,
                                         ze_module_build_log_handle_t *phBuildLog)
{
    RD_TRY(rd_context_check_device(hContext, hDevice));
    RD_NOT_NULL(desc);
    RD_NOT_NULL(desc->pInputModule);
    RD_NOT_NULL(phModule);
    if (desc->format > ZE_MODULE_FORMAT_NATIVE)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (desc->inputSize == 0)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    *phModule = NULL;
    if (desc->format == ZE_MODULE_FORMAT_IL_SPIRV) {
        RD_TRY(log_create(phBuildLog, "%s", spirv_refused));
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    rd_module_t *m = rd_object_new(RD_MAGIC_MODULE, sizeof *m);
    if (!m)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    m->fd = -1;
    m->refs = 1;
    m->binary = malloc(desc->inputSize);
    if (!m->binary) {
        module_free(m);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    memcpy(m->binary, desc->pInputModule, desc->inputSize);
    m->binary_size = desc->inputSize;
    char why[1024];
    if (!load_native(m, m->binary, m->binary_size, why, sizeof why)) {
        module_free(m);
        RD_TRY(log_create(phBuildLog, "zeil reference CPU driver: cannot load the native module: %s", why));
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    ze_result_t r = log_create(phBuildLog, "%s", "");
    if (r != ZE_RESULT_SUCCESS) {
        module_free(m);
        return r;
    }
    m->id = rd_hash(RD_HASH_SEED, m->binary, m->binary_size);
    m->driver = ((rd_context_t *)(void *)hContext)->driver;
    m->device = (rd_device_t *)(void *)hDevice;
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

ze_result_t ZE_APICALL rd_zeModuleBuildLogGetString(ze_module_build_log_handle_t hModuleBuildLog, size_t *pSize,
                                                    char *pBuildLog)
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

ze_result_t ZE_APICALL rd_zeModuleGetKernelNames(ze_module_handle_t hModule, uint32_t *pCount, const char **pNames)
{
    RD_HANDLE(rd_module_t, m, hModule, RD_MAGIC_MODULE);
    RD_NOT_NULL(pCount);
    uint32_t n = rd_count_query(pCount, m->abi->num_kernels, pNames);
    for (uint32_t i = 0; i < n; i++)
        pNames[i] = m->abi->kernels[i].name;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeModuleGetProperties(ze_module_handle_t hModule, ze_module_properties_t *pModuleProperties)
{
    RD_CHECK(hModule, RD_MAGIC_MODULE);
    RD_NOT_NULL(pModuleProperties);
    pModuleProperties->flags = 0; /* no imports */
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeModuleGetFunctionPointer(ze_module_handle_t hModule, const char *pFunctionName,
                                                     void **pfnFunction)
{
    RD_HANDLE(rd_module_t, m, hModule, RD_MAGIC_MODULE);
    RD_NOT_NULL(pFunctionName);
    RD_NOT_NULL(pfnFunction);
    const zeil_cpu_kernel_t *k = rd_module_find_kernel(m, pFunctionName);
    if (!k)
        return ZE_RESULT_ERROR_INVALID_FUNCTION_NAME;
    zeil_cpu_kernel_fn entry = k->entry;
    memcpy(pfnFunction, &entry, sizeof entry < sizeof *pfnFunction ? sizeof entry : sizeof *pfnFunction);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeModuleGetGlobalPointer(ze_module_handle_t hModule, const char *pGlobalName,
                                                   size_t *pSize, void **pptr)
{
    RD_HANDLE(rd_module_t, m, hModule, RD_MAGIC_MODULE);
    RD_NOT_NULL(pGlobalName);
    void *address = dlsym(m->library, pGlobalName);
    /* dlsym also searches the module's dependencies (libc...): only a data
     * object defined by the module itself is one of its globals. */
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    struct link_map *self = NULL;
    if (!address || !dladdr1(address, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym ||
        ELF64_ST_TYPE(sym->st_info) != STT_OBJECT || dlinfo(m->library, RTLD_DI_LINKMAP, &self) != 0 ||
        !info.dli_fname || strcmp(info.dli_fname, self->l_name) != 0)
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
