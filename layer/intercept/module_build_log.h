/*
 * module_build_log.h: a module built for a program that asked for no build
 * log, with the driver's build log logged when the build fails (W071).
 */
#ifndef ZEIL_MODULE_BUILD_LOG_H
#define ZEIL_MODULE_BUILD_LOG_H

#include "zeil_hooks.h"

/* zeModuleCreate of a module from source or IL through the next driver,
 * with a build log of zeil's own (the call is then answered: st->answered):
 * the driver's result; on failure the log's text is reported as W071. The
 * log is destroyed either way. A native module, or a call without desc or
 * phModule, is left to the generated intercept (success, not answered). */
ze_result_t module_build_logged(const zeil_call_t *call, const zeil_next_t *next,
                                const zeil_args_zeModuleCreate *a, zeil_hook_state_t *st);

#endif
