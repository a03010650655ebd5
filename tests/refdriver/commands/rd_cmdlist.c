/* Command lists: create (regular, immediate), close, reset, destroy, and
 * where an appended command goes. */
#include "rd_api.h"
#include "rd_cmdlist.h"

#include <stdlib.h>
#include <string.h>

static ze_result_t append_immediate(rd_cmdlist_t *list, rd_command_t *cmd)
{
    uint64_t ticket;
    RD_TRY(rd_immediate_submit(&list->jobs, list->worker, cmd, &ticket));
    if (list->synchronous)
        return rd_worker_sync(list->worker, ticket, UINT64_MAX);
    return ZE_RESULT_SUCCESS;
}

ze_result_t rd_cmdlist_append(rd_cmdlist_t *list, rd_command_t *cmd)
{
    rd_command_hold_events(cmd);
    if (list->immediate)
        return append_immediate(list, cmd);
    if (list->closed) {
        rd_command_release(cmd);
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (list->count == list->capacity) {
        size_t cap = list->capacity ? list->capacity * 2 : 16;
        rd_command_t *commands = realloc(list->commands, cap * sizeof *commands);
        if (!commands) {
            rd_command_release(cmd);
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        list->commands = commands;
        list->capacity = cap;
    }
    list->commands[list->count++] = *cmd;
    return ZE_RESULT_SUCCESS;
}

rd_cmd_arena_t *rd_cmdlist_arena_slow(rd_cmdlist_t *list)
{
    rd_list_memory_t *memory = calloc(1, sizeof *memory);
    if (!memory)
        return NULL;
    list->memory = memory;
    return &memory->arena;
}

ze_result_t rd_cmdlist_hold_module(rd_cmdlist_t *list, rd_module_t *module)
{
    rd_list_memory_t *m = list->memory;
    if (!m) { /* an immediate list's (a regular list has memory by now) */
        rd_immediate_hold_module(&list->jobs, module);
        return ZE_RESULT_SUCCESS;
    }
    /* A batch launches the same few kernels: the last one first. */
    for (uint32_t i = m->module_count; i-- > 0;)
        if (m->modules[i] == module)
            return ZE_RESULT_SUCCESS;
    if (m->module_count == m->module_capacity) {
        uint32_t cap = m->module_capacity ? m->module_capacity * 2 : 4;
        rd_module_t **modules = realloc(m->modules, cap * sizeof *modules);
        if (!modules)
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        m->modules = modules;
        m->module_capacity = cap;
    }
    rd_module_retain(module);
    m->modules[m->module_count++] = module;
    return ZE_RESULT_SUCCESS;
}

void rd_cmdlist_execution_begin(rd_cmdlist_t *list)
{
    pthread_mutex_lock(&list->lock);
    list->executions++;
    pthread_mutex_unlock(&list->lock);
}

ze_result_t rd_cmdlist_run(const rd_cmdlist_t *list)
{
    ze_result_t first = ZE_RESULT_SUCCESS;
    for (size_t i = 0; i < list->count; i++) {
        ze_result_t r = rd_command_run(&list->commands[i]);
        if (first == ZE_RESULT_SUCCESS)
            first = r;
    }
    return first;
}

void rd_cmdlist_execution_end(rd_cmdlist_t *list)
{
    pthread_mutex_lock(&list->lock);
    if (--list->executions == 0)
        pthread_cond_broadcast(&list->idle);
    pthread_mutex_unlock(&list->lock);
}

/* Waits until no queue runs the list or has it queued. The application
 * must not reset or destroy a list still in use; waiting turns that mistake
 * into a delay instead of a use after free. */
static void wait_unused(rd_cmdlist_t *list)
{
    if (list->immediate) {
        rd_worker_wait(list->worker, rd_worker_last_ticket(list->worker), UINT64_MAX);
        return;
    }
    pthread_mutex_lock(&list->lock);
    while (list->executions > 0)
        pthread_cond_wait(&list->idle, &list->lock);
    pthread_mutex_unlock(&list->lock);
}

static void release_commands(rd_cmdlist_t *list)
{
    for (size_t i = 0; i < list->count; i++)
        rd_command_release(&list->commands[i]);
    list->count = 0;
    rd_list_memory_t *m = list->memory;
    if (!m)
        return;
    rd_cmd_arena_rewind(&m->arena);
    for (uint32_t i = 0; i < m->module_count; i++)
        rd_module_release(m->modules[i]);
    m->module_count = 0;
}

static ze_result_t cmdlist_new(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                               uint32_t ordinal, rd_cmdlist_t **out)
{
    RD_TRY(rd_context_check_device(hContext, hDevice));
    if (ordinal >= RD_QUEUE_GROUPS)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    rd_cmdlist_t *list = rd_object_new(RD_MAGIC_CMDLIST, sizeof *list);
    if (!list)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    list->context = (rd_context_t *)(void *)hContext;
    list->device = (rd_device_t *)(void *)hDevice;
    pthread_mutex_init(&list->lock, NULL);
    pthread_cond_init(&list->idle, NULL);
    *out = list;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeCommandListCreate(ze_context_handle_t hContext,
                                              ze_device_handle_t hDevice,
                                              const ze_command_list_desc_t *desc,
                                              ze_command_list_handle_t *phCommandList)
{
    RD_CHECK(hContext, RD_MAGIC_CONTEXT);
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(desc);
    RD_NOT_NULL(phCommandList);
    if (desc->flags & ~RD_LIST_FLAGS_KNOWN)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    rd_cmdlist_t *list = NULL;
    RD_TRY(cmdlist_new(hContext, hDevice, desc->commandQueueGroupOrdinal, &list));
    list->ordinal = desc->commandQueueGroupOrdinal;
    list->flags = desc->flags;
    list->magic = RD_MAGIC_CMDLIST;
    *phCommandList = (ze_command_list_handle_t)list;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeCommandListCreateImmediate(ze_context_handle_t hContext,
                                                       ze_device_handle_t hDevice,
                                                       const ze_command_queue_desc_t *altdesc,
                                                       ze_command_list_handle_t *phCommandList)
{
    RD_CHECK(hContext, RD_MAGIC_CONTEXT);
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(altdesc);
    RD_NOT_NULL(phCommandList);
    if ((altdesc->flags & ~RD_QUEUE_FLAGS_KNOWN) ||
        altdesc->mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS ||
        altdesc->priority > ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (altdesc->index >= RD_QUEUES_PER_GROUP)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    rd_cmdlist_t *list = NULL;
    RD_TRY(cmdlist_new(hContext, hDevice, altdesc->ordinal, &list));
    list->immediate = 1;
    list->synchronous = altdesc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    list->worker = rd_worker_create();
    if (!list->worker) {
        pthread_cond_destroy(&list->idle);
        pthread_mutex_destroy(&list->lock);
        rd_object_delete(list, RD_MAGIC_CMDLIST, sizeof *list);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    list->ordinal = altdesc->ordinal;
    list->queue_desc = *altdesc;
    list->queue_desc.pNext = NULL;
    list->magic = RD_MAGIC_CMDLIST;
    *phCommandList = (ze_command_list_handle_t)list;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeCommandListDestroy(ze_command_list_handle_t hCommandList)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    list->magic = RD_MAGIC_DEAD;
    wait_unused(list);
    rd_worker_destroy(list->worker);
    rd_immediate_free(&list->jobs);
    release_commands(list);
    free(list->commands);
    if (list->memory) {
        rd_cmd_arena_free(&list->memory->arena);
        free(list->memory->modules);
        free(list->memory);
    }
    pthread_cond_destroy(&list->idle);
    pthread_mutex_destroy(&list->lock);
    rd_object_delete(list, RD_MAGIC_CMDLIST, sizeof *list);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeCommandListClose(ze_command_list_handle_t hCommandList)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    /* An immediate list has nothing to close: its commands already went. */
    if (!list->immediate)
        list->closed = 1;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeCommandListReset(ze_command_list_handle_t hCommandList)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    wait_unused(list);
    release_commands(list);
    list->closed = 0;
    return ZE_RESULT_SUCCESS;
}

/* API 1.6 (declared by compat/ze_compat.h where the headers are older):
 * filled only for loaders that ask for 1.6 or later. */
ze_result_t ZE_APICALL rd_zeCommandListHostSynchronize(ze_command_list_handle_t hCommandList,
                                                       uint64_t timeout)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    if (!list->immediate)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    return rd_worker_sync(list->worker, rd_worker_last_ticket(list->worker), timeout);
}
