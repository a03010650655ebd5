/* zeil's definitions of oneDNN's destroy and wait functions (see
 * interpose.h for why they exist). */
#include "interpose.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#include "engine.h"
#include "export.h"
#include "memory.h"
#include "rules.h"
#include "stream.h"

typedef dnnl_status_t (*memory_fn)(dnnl_memory_t);
typedef dnnl_status_t (*stream_fn)(dnnl_stream_t);
typedef dnnl_status_t (*engine_fn)(dnnl_engine_t);

static struct {
    memory_fn memory_destroy;
    stream_fn stream_destroy;
    stream_fn stream_wait;
    engine_fn engine_destroy;
} real;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

/* The next definition behind zeil's; when libdnnl precedes libzeil_interop
 * in lookup order RTLD_NEXT misses it, so ask the library that defines
 * dnnl_version (which zeil does not define) directly. */
static void *next_symbol(const char *name)
{
    void *symbol = dlsym(RTLD_NEXT, name);
    if (symbol)
        return symbol;
    Dl_info info;
    if (!dladdr((void *)&dnnl_version, &info) || !info.dli_fname)
        return NULL;
    void *library = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!library)
        return NULL;
    symbol = dlsym(library, name);
    dlclose(library);
    return symbol;
}

static void resolve_real(void)
{
    *(void **)&real.memory_destroy = next_symbol("dnnl_memory_destroy");
    *(void **)&real.stream_destroy = next_symbol("dnnl_stream_destroy");
    *(void **)&real.stream_wait = next_symbol("dnnl_stream_wait");
    *(void **)&real.engine_destroy = next_symbol("dnnl_engine_destroy");
}

#define REAL(name) (pthread_once(&real_once, resolve_real), real.name)

dnnl_status_t real_dnnl_memory_destroy(dnnl_memory_t memory)
{
    memory_fn fn = REAL(memory_destroy);
    return fn ? fn(memory) : dnnl_runtime_error;
}

dnnl_status_t real_dnnl_stream_destroy(dnnl_stream_t stream)
{
    stream_fn fn = REAL(stream_destroy);
    return fn ? fn(stream) : dnnl_runtime_error;
}

dnnl_status_t real_dnnl_stream_wait(dnnl_stream_t stream)
{
    stream_fn fn = REAL(stream_wait);
    return fn ? fn(stream) : dnnl_runtime_error;
}

dnnl_status_t real_dnnl_engine_destroy(dnnl_engine_t engine)
{
    engine_fn fn = REAL(engine_destroy);
    return fn ? fn(engine) : dnnl_runtime_error;
}

void interpose_check(const char *call)
{
    if (dlsym(RTLD_DEFAULT, "dnnl_memory_destroy") == (void *)&dnnl_memory_destroy)
        return;
    interop_report_once(INTEROP_RULE_W151, call,
                        "dnnl_memory_destroy does not resolve to libzeil_interop's (libdnnl "
                        "precedes it in symbol lookup order): owned USM and stream resources "
                        "are never released and dnnl_stream_wait does not wait for executes; "
                        "link zeil_interop before dnnl");
}

INTEROP_EXPORT dnnl_status_t dnnl_memory_destroy(dnnl_memory_t memory)
{
    struct owned_usm *owned = interop_memory_detach(memory);
    dnnl_status_t status = real_dnnl_memory_destroy(memory);
    interop_memory_free_owned(owned);
    return status;
}

INTEROP_EXPORT dnnl_status_t dnnl_stream_wait(dnnl_stream_t stream)
{
    interop_stream_t *record = interop_stream_find(stream);
    if (record)
        interop_stream_wait(record);
    return real_dnnl_stream_wait(stream);
}

INTEROP_EXPORT dnnl_status_t dnnl_stream_destroy(dnnl_stream_t stream)
{
    interop_stream_forget(stream);
    return real_dnnl_stream_destroy(stream);
}

INTEROP_EXPORT dnnl_status_t dnnl_engine_destroy(dnnl_engine_t engine)
{
    interop_engine_forget(engine);
    return real_dnnl_engine_destroy(engine);
}
