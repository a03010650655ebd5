/* A primitive's accesses for the layer's hazard checks (hazard_accesses.h). */
#include "hazard_accesses.h"

#include <zeil/zeil.h>

#include "dnnl_compat.h"

#define MAX_DECLARED 16 /* what zeil keeps per launch */

void hazard_accesses_declare(const_dnnl_primitive_t primitive, int nargs,
                             const dnnl_exec_arg_t *args)
{
    if (!zeil_hazards_enabled() || nargs <= 0 || !args)
        return;
    int training = compat_is_forward_training(primitive);
    zeil_access_t accesses[MAX_DECLARED];
    size_t count = 0;
    for (int i = 0; i < nargs && count < MAX_DECLARED; i++) {
        void *handle = NULL;
        if (!args[i].memory ||
            dnnl_memory_get_data_handle(args[i].memory, &handle) != dnnl_success || !handle)
            continue;
        accesses[count++] = (zeil_access_t){handle, compat_memory_size(args[i].memory),
                                            compat_arg_is_written(args[i].arg, training)};
    }
    zeil_declare_accesses(accesses, count);
}
