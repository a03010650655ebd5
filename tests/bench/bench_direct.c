/* The driver's tables, asked of the driver itself (bench_direct.h). */
#include "bench_direct.h"

#include "bench_ze.h"

#include <dlfcn.h>
#include <string.h>

typedef ze_result_t(ZE_APICALL *table_getter)(ze_api_version_t, void *);

static void fill(void *library, const char *getter, void *table)
{
    table_getter get = (table_getter)dlsym(library, getter);
    if (!get)
        bench_fail("the driver exports no %s", getter);
    BENCH_ZE_OK(get(ZE_API_VERSION_CURRENT, table));
}

void bench_direct_open(bench_direct_t *d)
{
    /* The loader's copy (the driver's objects are per library), by the name
     * the build gave it: zeil points ZE_ENABLE_ALT_DRIVERS at its shim. */
    void *library = dlopen(BENCH_DRIVER_FILE, RTLD_NOW | RTLD_NOLOAD);
    if (!library)
        bench_fail("the loader has not loaded %s", BENCH_DRIVER_FILE);
    memset(d, 0, sizeof *d);
    fill(library, "zeGetMemProcAddrTable", &d->mem);
    fill(library, "zeGetEventProcAddrTable", &d->event);
    fill(library, "zeGetCommandListProcAddrTable", &d->list);
    dlclose(library);
    if (!d->mem.pfnAllocDevice || !d->mem.pfnFree || !d->event.pfnHostSignal ||
        !d->event.pfnHostReset || !d->list.pfnAppendLaunchKernel || !d->list.pfnReset)
        bench_fail("the driver's tables lack an entry the benchmark calls");
}
