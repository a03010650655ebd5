/* A failed module build's log in zeil's log (see module_build_log.h). */
#include "module_build_log.h"

#include "calls.h"
#include "diag.h"

#include <stdlib.h>

/* The log's text is cut to this many bytes (a compiler may write pages). */
#define BUILD_LOG_SHOWN 4096u

static const char *format_name(ze_module_format_t format)
{
    switch ((unsigned)format) {
    case ZE_MODULE_FORMAT_IL_SPIRV:
        return "SPIR-V";
    case 3:
        return "OpenCL C source"; /* the value oneDNN 3 passes */
    default:
        return "a format other than native";
    }
}

ze_result_t module_build_logged(const zeil_call_t *call, const zeil_next_t *next,
                                const zeil_args_zeModuleCreate *a, zeil_hook_state_t *st)
{
    const ze_module_desc_t *desc = a->desc;
    if (!desc || !a->phModule || desc->format == ZE_MODULE_FORMAT_NATIVE)
        return ZE_RESULT_SUCCESS;
    st->answered = 1;
    ze_module_build_log_handle_t log = NULL;
    ze_result_t r =
        NEXT(ze_module_dditable_t, pfnCreate)(a->hContext, a->hDevice, desc, a->phModule, &log);
    if (!log)
        return r;
    size_t size = 0;
    char *text = NULL;
    if (r != ZE_RESULT_SUCCESS &&
        NEXT(ze_module_build_log_dditable_t, pfnGetString)(log, &size, NULL) == 0 && size > 0 &&
        (text = malloc(size)) != NULL &&
        NEXT(ze_module_build_log_dditable_t, pfnGetString)(log, &size, text) == 0) {
        text[size - 1] = '\0';
        diag_report(ZEIL_RULE_W071, call->name,
                    "the driver could not build a module from %s (%s); its build log%s: %.*s",
                    format_name(desc->format), calls_result_name(r),
                    size > BUILD_LOG_SHOWN ? " (start)" : "", (int)BUILD_LOG_SHOWN, text);
    }
    free(text);
    NEXT(ze_module_build_log_dditable_t, pfnDestroy)(log);
    return r;
}
