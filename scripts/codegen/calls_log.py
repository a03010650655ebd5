"""The calls log's formats, by parameter type, for scripts/codegen/gen-wrappers:
handles with their kind (a kernel with its name), scalars, flags by name,
structs by their scalar fields, written handles and USM pointers after ->.
"""
import re

# Handle types zeil keeps in its registry, and their kind (scripts/codegen/gen-wrappers).
CHECKED = {}
# Structs the log shows by their fields: name -> [(field, format, value template)].
desc_used = {}

INTS = {"uint32_t": "%u", "int32_t": "%d", "uint8_t": "%u", "uint16_t": "%u", "int": "%d",
        "ze_bool_t": "%u"}


def scalar_fmt(ctype, enums, flags, flag_names):
    """(format, value template with {} for the expression) of a scalar type, or None."""
    t = ctype.replace("const ", "").strip()
    if t in INTS:
        return INTS[t], ("(unsigned){}" if INTS[t] == "%u" else "(int){}")
    if t in ("uint64_t", "int64_t"):
        return "%llu", "(unsigned long long){}"
    if t == "size_t":
        return "%zu", "(size_t){}"
    if t in ("float", "double"):
        return "%g", "(double){}"
    if t in flag_names:  # by name: FLAG_A|FLAG_B (and any unknown bits in hex)
        return "%s", "zeil_gen_flags_%s({}, (char[256]){{0}}, 256)" % t
    if t in flags or t.endswith("_flags_t"):
        return "0x%x", "(unsigned){}"
    if t in enums:
        return "%d", "(int){}"
    return None


def is_handle(t):
    return t.strip().endswith("_handle_t") and "*" not in t


def struct_fields(base, structs, enums, flags, flag_names):
    """The scalar fields a struct is logged by (stype first when it has one)."""
    fields = structs.get(base, [])
    shown = []
    for i, (ft, fn) in enumerate(fields):
        if fn == "pNext" or "*" in ft or "[" in fn:
            continue
        f = scalar_fmt(ft, enums, flags, flag_names)
        if f and len(shown) < 7:
            shown.append((fn, f[0], f[1]))
    return shown


# Output handles (and USM pointers) a successful call writes: logged as
# "phModule=0x..->0x..".
OUT_HANDLE_RE = re.compile(r"^pptr$|^ph(Module|Kernel|Context|CommandList|CommandQueue|Event|EventPool|"
                           r"Fence|BuildLog|Image|Sampler)$")


def log_format(params, enums, flags, flag_names, structs):
    """The calls-log format of an entry's arguments and the values, by type.
    The values name the parameters (and r, the result so far), so that the
    generated and the hand-written intercepts log alike."""
    fmt, vals = [], []
    for t, n in params:
        ts = t.strip()
        sf = scalar_fmt(ts, enums, flags, flag_names)
        base = re.sub(r"\bconst\b|\*", "", ts).strip()
        shown = struct_fields(base, structs, enums, flags, flag_names)
        if ts in CHECKED and ts == "ze_kernel_handle_t":  # with its name
            fmt.append("%s=kernel:%%p%%s" % n)
            vals += ["(void *)%s" % n, "zeil_gen_kernel_name(%s, (char[96]){0}, 96)" % n]
        elif ts in CHECKED:
            fmt.append("%s=%s:%%p" % (n, CHECKED[ts][len("ZEIL_KIND_"):].lower()))
            vals.append("(void *)%s" % n)
        elif is_handle(ts) and not ts.startswith("ze_ipc"):
            fmt.append("%s=%%p" % n)
            vals.append("(void *)%s" % n)
        elif sf:
            fmt.append("%s=%s" % (n, sf[0]))
            vals.append(sf[1].format(n))
        elif "*" not in ts and shown:  # a struct by value
            desc_used[base] = shown
            fmt.append("%s=%%s" % n)
            vals.append("zeil_gen_desc_%s(&%s, (char[320]){0}, 320)" % (base, n))
        elif "*" in ts:
            if OUT_HANDLE_RE.match(n) and ts.count("*") == 1:
                fmt.append("%s=%%p->%%p" % n)
                vals += ["(const void *)%s" % n,
                         "(r == ZE_RESULT_SUCCESS && %s ? (const void *)*%s : NULL)" % (n, n)]
            elif shown and ts.count("*") == 1 and "const" in ts:
                # its fields follow the pointer when it is not null
                desc_used[base] = shown
                fmt.append("%s=%%p%%s" % n)
                vals += ["(const void *)%s" % n,
                         "zeil_gen_desc_%s(%s, (char[320]){0}, 320)" % (base, n)]
            else:
                fmt.append("%s=%%p" % n)
                vals.append("(const void *)%s" % n)
        else:
            fmt.append("%s={...}" % n)
    return fmt, vals
