/* Observables shared by the misuse cases. */
#include "misuse.h"
#include "test_kernels.h"

#include <string.h>

const ze_group_count_t misuse_one_group = {1, 1, 1};

void misuse_assert_list_works(ze_command_list_handle_t list, ze_event_handle_t event)
{
    ZT_OK(zeEventHostReset(event));
    ZT_OK(zeCommandListAppendSignalEvent(list, event));
    ZT_OK(zeEventHostSynchronize(event, UINT64_MAX));
}

void misuse_assert_memory_usable(zl_fixture_t *f, void *ptr, size_t size)
{
    const uint8_t pattern = 0xa5;
    ZT_OK(zeCommandListAppendMemoryFill(f->list, ptr, &pattern, 1, size, NULL, 0, NULL));
    uint8_t *host = zt_usm_alloc(&f->env, ZT_USM_HOST, size, 0);
    ZT_OK(zeCommandListAppendMemoryCopy(f->list, host, ptr, size, NULL, 0, NULL));
    for (size_t i = 0; i < size; i++)
        ck_assert_uint_eq(host[i], pattern);
    ZT_OK(zeMemFree(f->env.context, host));
}

ze_kernel_handle_t misuse_stamp_kernel(zl_fixture_t *f, uint64_t **stamp)
{
    ze_kernel_handle_t k = zt_kernel(f->module, TK_STAMP);
    *stamp = zt_usm_alloc(&f->env, ZT_USM_HOST, sizeof(uint64_t), 0);
    **stamp = 0;
    ZT_ARG(k, 0, *stamp);
    ZT_OK(zeKernelSetGroupSize(k, 1, 1, 1));
    return k;
}

ze_context_handle_t misuse_other_context(const zl_fixture_t *f)
{
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t context = NULL;
    ZT_OK(zeContextCreate(f->env.driver, &desc, &context));
    return context;
}
