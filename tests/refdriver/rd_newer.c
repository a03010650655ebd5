/*
 * Entries of API versions after 1.4 (declared by compat/ze_compat.h where
 * the installed headers are older). rd_ddi.c fills each only for loaders
 * that ask for a version that has it.
 */
#include "rd_api.h"
#include "rd_driver.h"

/* API 1.10. Programs written for current Level Zero (oneDNN among them)
 * start here and never call zeInit. The desc's flags name GPU or NPU
 * drivers; a CPU driver is neither, and answers whatever the flags (a loader
 * that asks a custom driver wants its drivers). */
ze_result_t ZE_APICALL rd_zeInitDrivers(uint32_t *pCount, ze_driver_handle_t *phDrivers,
                                        ze_init_driver_type_desc_t *desc)
{
    RD_NOT_NULL(pCount);
    RD_NOT_NULL(desc);
    ze_result_t r = rd_zeInit(0);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    return rd_zeDriverGet(pCount, phDrivers);
}
