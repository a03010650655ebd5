/* placeholder: zeInit only, replaced by the driver proper */
#include "rd_api.h"
ze_result_t ZE_APICALL rd_zeInit(ze_init_flags_t flags)
{
    (void)flags;
    return ZE_RESULT_SUCCESS;
}
ze_result_t ZE_APICALL rd_zeDriverGet(uint32_t *count, ze_driver_handle_t *drivers)
{
    static int the_driver;
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (*count == 0 || !drivers) { *count = 1; return ZE_RESULT_SUCCESS; }
    drivers[0] = (ze_driver_handle_t)&the_driver;
    *count = 1;
    return ZE_RESULT_SUCCESS;
}
