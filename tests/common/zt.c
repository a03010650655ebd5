/* Helpers shared by zeil's check suites. */
#include "zt.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void zt_open(zt_env_t *env)
{
    ZT_OK(zeInit(0));
    uint32_t n = 1;
    ZT_OK(zeDriverGet(&n, &env->driver));
    ck_assert_uint_ge(n, 1);
    n = 1;
    ZT_OK(zeDeviceGet(env->driver, &n, &env->device));
    ck_assert_uint_ge(n, 1);
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZT_OK(zeContextCreate(env->driver, &desc, &env->context));
}

void zt_close(zt_env_t *env)
{
    if (env->context)
        ZT_OK(zeContextDestroy(env->context));
    env->context = NULL;
}

void *zt_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long len = ftell(f);
    ck_assert_int_ge(len, 0);
    rewind(f);
    void *data = malloc(len > 0 ? (size_t)len : 1);
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_eq(fread(data, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *size = (size_t)len;
    return data;
}

ze_module_handle_t zt_load_test_module(const zt_env_t *env)
{
    return zt_load_module_from_env(env, "ZEIL_TEST_KERNELS");
}

static ze_command_list_handle_t immediate_list(const zt_env_t *env, ze_command_queue_flags_t flags,
                                               ze_command_queue_mode_t mode)
{
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, flags, mode,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = NULL;
    ZT_OK(zeCommandListCreateImmediate(env->context, env->device, &desc, &list));
    return list;
}

ze_command_list_handle_t zt_immediate_list(const zt_env_t *env, int sync)
{
    return immediate_list(
        env, 0, sync ? ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS : ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
}

ze_command_list_handle_t zt_in_order_list(const zt_env_t *env)
{
    return immediate_list(env, ZE_COMMAND_QUEUE_FLAG_IN_ORDER, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
}

ze_event_pool_handle_t zt_event_pool(const zt_env_t *env, uint32_t count,
                                     ze_event_pool_flags_t flags)
{
    ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                 ZE_EVENT_POOL_FLAG_HOST_VISIBLE | flags, count};
    ze_event_pool_handle_t pool = NULL;
    ze_device_handle_t device = env->device;
    ZT_OK(zeEventPoolCreate(env->context, &desc, 1, &device, &pool));
    return pool;
}

ze_event_handle_t zt_event(ze_event_pool_handle_t pool, uint32_t index)
{
    ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, index, ZE_EVENT_SCOPE_FLAG_HOST,
                            ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t event = NULL;
    ZT_OK(zeEventCreate(pool, &desc, &event));
    return event;
}

int zt_run_suite(Suite *suite)
{
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* --- additions for the driver suites --- */

const char *const zt_usm_kind_names[ZT_USM_KINDS] = {"host", "device", "shared"};

void *zt_usm_alloc(const zt_env_t *env, zt_usm_kind_t kind, size_t size, size_t alignment)
{
    ze_device_mem_alloc_desc_t device_desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_host_mem_alloc_desc_t host_desc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    void *ptr = NULL;
    switch (kind) {
    case ZT_USM_HOST:
        ZT_OK(zeMemAllocHost(env->context, &host_desc, size, alignment, &ptr));
        break;
    case ZT_USM_DEVICE:
        ZT_OK(zeMemAllocDevice(env->context, &device_desc, size, alignment, env->device, &ptr));
        break;
    default:
        ZT_OK(zeMemAllocShared(env->context, &device_desc, &host_desc, size, alignment, env->device,
                               &ptr));
        break;
    }
    ck_assert_ptr_nonnull(ptr);
    return ptr;
}

ze_module_handle_t zt_load_module_from_env(const zt_env_t *env, const char *var)
{
    const char *path = getenv(var);
    ck_assert_msg(path != NULL, "%s is not set", var);
    size_t size = 0;
    void *bytes = zt_read_file(path, &size);
    ze_module_desc_t desc = {
        ZE_STRUCTURE_TYPE_MODULE_DESC, NULL, ZE_MODULE_FORMAT_NATIVE, size, bytes, NULL, NULL};
    ze_module_handle_t module = NULL;
    ZT_OK(zeModuleCreate(env->context, env->device, &desc, &module, NULL));
    free(bytes);
    return module;
}

ze_kernel_handle_t zt_kernel(ze_module_handle_t module, const char *name)
{
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, name};
    ze_kernel_handle_t kernel = NULL;
    ze_result_t r = zeKernelCreate(module, &desc, &kernel);
    ck_assert_msg(r == ZE_RESULT_SUCCESS, "zeKernelCreate(%s) returned 0x%x", name, (unsigned)r);
    return kernel;
}

void zt_launch(ze_command_list_handle_t list, ze_kernel_handle_t kernel,
               const uint32_t group_size[3], const uint32_t group_count[3],
               ze_event_handle_t signal, uint32_t num_waits, ze_event_handle_t *waits)
{
    ZT_OK(zeKernelSetGroupSize(kernel, group_size[0], group_size[1], group_size[2]));
    ze_group_count_t count = {group_count[0], group_count[1], group_count[2]};
    ZT_OK(zeCommandListAppendLaunchKernel(list, kernel, &count, signal, num_waits, waits));
}

ze_command_list_handle_t zt_regular_list(const zt_env_t *env)
{
    ze_command_list_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    ze_command_list_handle_t list = NULL;
    ZT_OK(zeCommandListCreate(env->context, env->device, &desc, &list));
    return list;
}

ze_command_queue_handle_t zt_queue(const zt_env_t *env, int sync)
{
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    NULL,
                                    0,
                                    0,
                                    0,
                                    sync ? ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS
                                         : ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_queue_handle_t queue = NULL;
    ZT_OK(zeCommandQueueCreate(env->context, env->device, &desc, &queue));
    return queue;
}

ze_fence_handle_t zt_fence(ze_command_queue_handle_t queue)
{
    ze_fence_desc_t desc = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    ze_fence_handle_t fence = NULL;
    ZT_OK(zeFenceCreate(queue, &desc, &fence));
    return fence;
}

uint64_t zt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void zt_set_system_memory(int on)
{
    if (on)
        unsetenv("ZEIL_CPU_SYSTEM_MEMORY");
    else
        setenv("ZEIL_CPU_SYSTEM_MEMORY", "0", 1);
}

void *zt_heap_reuse(const void *base, size_t size)
{
    enum {
        TRIES = 64
    };
    void *missed[TRIES];
    int count = 0;
    void *hit = NULL;
    uintptr_t lo = (uintptr_t)base, hi = lo + size;
    while (!hit && count < TRIES) {
        void *p = NULL;
        /* the reference driver allocates with posix_memalign(64): ask alike first */
        if (count % 2 == 0 ? posix_memalign(&p, 64, size) != 0 : !(p = malloc(size)))
            break;
        if ((uintptr_t)p < hi && (uintptr_t)p + size > lo)
            hit = p;
        else
            missed[count++] = p;
    }
    while (count > 0)
        free(missed[--count]);
    return hit;
}
