/*
 * Which library created a module: the first frame of the call stack outside
 * zeil and the Level Zero loader and its layers (so a module oneDNN builds
 * names libdnnl, not the loader that forwarded the call).
 */
#include "module_origin.h"

#include "registry.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <string.h>

static int is_plumbing(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    /* The sanitizers' runtimes intercept backtrace itself. */
    static const char *const prefixes[] = {"libzeil",       "libze_loader", "libze_validation",
                                           "libze_tracing", "libasan",      "libtsan",
                                           "libubsan"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(base, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

const char *module_origin_of_caller(void)
{
    void *frames[32];
    int n = backtrace(frames, 32);
    for (int i = 0; i < n; i++) {
        Dl_info info;
        if (!dladdr(frames[i], &info) || !info.dli_fname)
            continue;
        if (!is_plumbing(info.dli_fname))
            return registry_intern(info.dli_fname);
    }
    return registry_intern("unknown");
}
