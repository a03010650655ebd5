/* Finding the forward backend's target (see forward.h). */
#include "forward.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

static forward_table_t next_table;
static int next_complete;
static pthread_once_t next_once = PTHREAD_ONCE_INIT;

static void resolve_next(void)
{
    int found = 0, wanted = 0;
#define FORWARD_RESOLVE(name) \
    wanted++; \
    *(void **)&next_table.name = dlsym(RTLD_NEXT, "dnnl_ze_interop_" #name); \
    found += next_table.name != NULL;
    FORWARD_FUNCTIONS(FORWARD_RESOLVE)
#undef FORWARD_RESOLVE
    next_complete = found == wanted;
}

const forward_table_t *forward_table(void)
{
    pthread_once(&next_once, resolve_next);
    return next_complete ? &next_table : NULL;
}
