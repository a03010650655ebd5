/*
 * names.h: how zeil names streams and command lists for people (the trace's
 * tracks, the exit report, the summary): by the application's name
 * (zeil_set_name), the device, the queue group ordinal and index, and the
 * order of creation, instead of by handle values alone.
 */
#ifndef ZEIL_NAMES_H
#define ZEIL_NAMES_H

#include "registry.h"

/* A command list was registered (index: the immediate list's queue index,
 * 0 for regular lists). Asks the driver for the device's name the first
 * time a device is seen. */
void names_list_created(const zeil_next_t *next, const zeil_obj_t *list, uint32_t index);
/* A list was bound to a oneDNN stream (zeil_bind_list_to_stream); name may
 * be null. */
void names_stream_bound(ze_command_list_handle_t list, uint64_t stream_id, const char *name);

#endif
