/*
 * checks.h: the interop rules' checks of Level Zero handles, through the
 * zeil registry when the layer is active (handles translated below the
 * loader first) and through Level Zero queries otherwise (then W150 says
 * once that validation is limited). Each check reports its rule and returns
 * the dnnl_status_t the call must return (dnnl_success when it passes).
 * Once zeil's registry is incomplete (zeil ran out of memory registering
 * objects, zeil_registry_is_incomplete), a handle or pointer it does not know
 * may be valid: the checks let it through (see layer/common/out_of_memory.c).
 */
#ifndef ZEIL_INTEROP_CHECKS_H
#define ZEIL_INTEROP_CHECKS_H

#include <stddef.h>
#include <level_zero/loader/ze_loader.h>
#include <zeil/dnnl_ze.h>

#include "handle_map.h"
#include "rules.h"

/* The registry knows driver handles; the application may hold loader
 * handles (when the loader wraps them): the driver handle of one. */
const void *below_loader(zel_handle_type_t type, const void *handle);

/* E101 when p is null; what names it ("context", "engine output"). */
dnnl_status_t check_not_null(const char *call, const void *p, const char *what);

/* The record a handle map keeps for a oneDNN handle the interop library
 * made (an engine, a stream), or null after reporting E101 (handle null) or
 * rule unknown (not in map: "<what> %p is not a Level Zero interop <what>
 * (not created by <creator>)"). */
void *check_interop_handle(const char *call, handle_map_t *map, const void *handle,
                           const char *what, interop_rule_t unknown, const char *creator);

/* 1 when the zeil registry can be consulted; otherwise reports W150 once. */
int check_registry_available(const char *call);

/* E102/E103: the driver and device are alive and belong together. */
dnnl_status_t check_driver_device(const char *call, ze_driver_handle_t driver,
                                  ze_device_handle_t device);

/* E102/E103: the driver, device and context are alive and belong together. */
dnnl_status_t check_engine_objects(const char *call, ze_driver_handle_t driver,
                                   ze_device_handle_t device, ze_context_handle_t context);

/* E106: the engine's context and device are still alive. */
dnnl_status_t check_engine_objects_alive(const char *call, ze_device_handle_t device,
                                         ze_context_handle_t context);

/* E110/E111/E112, W113 (or E114 when in_order_required): the list can carry
 * a stream of this context and device. */
dnnl_status_t check_stream_list(const char *call, ze_command_list_handle_t list,
                                ze_context_handle_t context, ze_device_handle_t device,
                                int in_order_required);

/* E112: the list is alive. */
dnnl_status_t check_list_alive(const char *call, ze_command_list_handle_t list);

/* E120/E121/E122: ptr is USM of the context (and device, for device or
 * shared allocations) with at least needed bytes from ptr to its end, or,
 * when system_memory (the device reports sharedSystemAllocCapabilities),
 * mapped host memory. A pointer the driver accepts that lies in a freed
 * range passes with W153. what names the pointer in messages ("handle",
 * "argument 1 (DNNL_ARG_SRC)"). */
dnnl_status_t check_usm(const char *call, const void *ptr, size_t needed,
                        ze_context_handle_t context, ze_device_handle_t device, int system_memory,
                        const char *what);

/* sharedSystemAllocCapabilities != 0. */
int check_device_uses_system_memory(ze_device_handle_t device);

/* 1 when check_usm would pass, without reporting anything: executes check
 * every argument, and building each one's name for messages costs more than
 * the check. 0 also when the registry is not available (check_usm then
 * queries Level Zero and says why). */
int check_usm_passes(const void *ptr, size_t needed, ze_context_handle_t context,
                     ze_device_handle_t device);

/* E130/E131: every event is alive and of the context. */
dnnl_status_t check_events(const char *call, int count, const ze_event_handle_t *events,
                           ze_context_handle_t context);

#endif
