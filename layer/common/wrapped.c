/* wrapped.c: the count of next drivers zeil wraps (see wrapped.h). */
#include "wrapped.h"

#include "env.h"

#include <stdatomic.h>

static _Atomic unsigned wrapped_drivers;

void wrapped_driver_added(void)
{
    atomic_fetch_add(&wrapped_drivers, 1);
}

unsigned wrapped_driver_count(void)
{
    return atomic_load(&wrapped_drivers);
}

int wrapped_active(void)
{
    return zeil_settings()->enabled && atomic_load(&wrapped_drivers) > 0;
}
