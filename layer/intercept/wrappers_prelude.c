/* scripts/codegen/gen-wrappers copies this into zeil_wrappers.c, after its includes:
 * what the generated intercepts share. */

/* An intercept's whole path, behind its quiet fast block. */
#define ZEIL_FULL static __attribute__((noinline))

/* A destroying entry marks the object its check found before the driver
 * call and retires that same object when the driver succeeded: a lookup
 * after the driver returned may find another thread's new object. */
static void destroying(const zeil_call_t *call, zeil_obj_t *obj)
{
    if (obj)
        registry_destroying(obj, call->number, calls_thread_number());
}

static void retire(const zeil_call_t *call, zeil_obj_t *obj)
{
    if (obj && hazards_active())
        hazards_retired(obj);
    if (obj && obj->signal_ops)
        check_signals_forget(obj);
    if (obj)
        registry_retire(obj, call->number, calls_thread_number());
}

/* A kernel's name after its handle in the calls log: " (name)". */
const char *zeil_gen_kernel_name(ze_kernel_handle_t h, char *buf, size_t size)
{
    const zeil_obj_t *k = h ? registry_find(h) : NULL;
    if (!k || k->kind != ZEIL_KIND_KERNEL || !k->name)
        return "";
    snprintf(buf, size, " (%s)", k->name);
    return buf;
}

typedef struct zeil_gen_flag {
    const char *name;
    uint32_t bit;
} zeil_gen_flag_t;
/* Flags by name, A|B, bits no name has in hex; 0 for none. */
static const char *flag_names(uint32_t v, const zeil_gen_flag_t *f, size_t n, char *buf,
                              size_t size)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n; i++)
        if (v & f[i].bit) {
            int w = snprintf(buf + used, size - used, "%s%s", used ? "|" : "", f[i].name);
            used = w > 0 && used + (size_t)w < size ? used + (size_t)w : used;
            v &= ~f[i].bit;
        }
    if (v || !used)
        snprintf(buf + used, size - used, used ? "|0x%x" : "0x%x", v);
    return buf;
}
