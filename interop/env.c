/* Environment handling of the interop library (see env.h). */
#include "env.h"

#include <stdlib.h>
#include <string.h>

/* Read at every engine creation, which is rare: a program may switch the
 * backend between engines. */
backend_request_t env_backend_request(void)
{
    const char *value = getenv("ZEIL_INTEROP_BACKEND");
    if (value && strcmp(value, "host") == 0)
        return BACKEND_HOST_ONLY;
    if (value && strcmp(value, "forward") == 0)
        return BACKEND_FORWARD_ONLY;
    return BACKEND_AUTO;
}

unsigned env_event_ring_size(unsigned fallback)
{
    const char *value = getenv("ZEIL_INTEROP_EVENT_RING");
    char *end = NULL;
    unsigned long n = value ? strtoul(value, &end, 10) : 0;
    return value && end && !*end && n >= 16 && n <= fallback ? (unsigned)n : fallback;
}
