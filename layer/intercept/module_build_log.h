/*
 * module_build_log.h: a module built for a program that asked for no build
 * log, with the driver's build log logged when the build fails (W071).
 */
#ifndef ZEIL_MODULE_BUILD_LOG_H
#define ZEIL_MODULE_BUILD_LOG_H

#include "intercepts.h"

/* zeModuleCreate through the next driver with a build log of zeil's own:
 * the driver's result; on failure the log's text is reported as W071. The
 * log is destroyed either way. */
ze_result_t module_build_logged(const zeil_call_t *call, const zeil_next_t *next,
                                ze_context_handle_t context, ze_device_handle_t device,
                                const ze_module_desc_t *desc, ze_module_handle_t *module);

#endif
