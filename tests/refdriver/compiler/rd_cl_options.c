/* Build flags as clang's arguments (rd_cl_options.h). */
#include "rd_cl_options.h"

#include <stdlib.h>
#include <string.h>

/* Options clang -cc1 takes as they are. */
static int passed(const char *t)
{
    static const char *const exact[] = {
        "-cl-mad-enable",
        "-cl-fast-relaxed-math",
        "-cl-fp32-correctly-rounded-divide-sqrt",
        "-cl-denorms-are-zero",
        "-cl-no-signed-zeros",
        "-cl-unsafe-math-optimizations",
        "-cl-finite-math-only",
        "-cl-single-precision-constant",
        "-cl-opt-disable",
        "-cl-kernel-arg-info",
        "-cl-uniform-work-group-size",
        "-w",
        "-Werror",
    };
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (strcmp(t, exact[i]) == 0)
            return 1;
    static const char *const std[] = {"-cl-std=CL1.0", "-cl-std=CL1.1", "-cl-std=CL1.2",
                                      "-cl-std=CL2.0", "-cl-std=CL3.0", "-cl-std=CLC++"};
    for (size_t i = 0; i < sizeof std / sizeof *std; i++)
        if (strcmp(t, std[i]) == 0)
            return 1;
    return 0;
}

/* Tokens: runs of non-blanks; double quotes group blanks and are dropped. */
static char *tokenize(const char *flags, int *count)
{
    size_t n = strlen(flags);
    char *out = malloc(n + 1), *w = out;
    if (!out)
        return NULL;
    *count = 0;
    const char *p = flags;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        int quoted = 0;
        while (*p && (quoted || (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r'))) {
            if (*p == '"')
                quoted = !quoted;
            else
                *w++ = *p;
            p++;
        }
        *w++ = 0;
        (*count)++;
    }
    return out;
}

static int add(rd_cl_options_t *o, const char *arg, rd_strbuf_t *log)
{
    if (o->num_args == RD_CL_MAX_ARGS) {
        rd_strbuf_add(log, "too many build options (at most %d)\n", RD_CL_MAX_ARGS);
        return 0;
    }
    o->args[o->num_args++] = arg;
    return 1;
}

int rd_cl_options_parse(const char *flags, rd_cl_options_t *o, rd_strbuf_t *log)
{
    memset(o, 0, sizeof *o);
    int count = 0;
    o->storage = tokenize(flags ? flags : "", &count);
    if (!o->storage)
        return 0;
    const char *t = o->storage;
    for (int i = 0; i < count; i++, t += strlen(t) + 1) {
        int takes_next = (strcmp(t, "-D") == 0 || strcmp(t, "-I") == 0) && i + 1 < count;
        if (strncmp(t, "-D", 2) == 0 || strncmp(t, "-I", 2) == 0 || passed(t)) {
            if (!add(o, t, log))
                return 0;
            if (takes_next) {
                t += strlen(t) + 1;
                i++;
                if (!add(o, t, log))
                    return 0;
            }
        } else if (strncmp(t, "-cl-intel-", 10) == 0 || strncmp(t, "-ze-", 4) == 0) {
            rd_strbuf_add(log, "note: build option '%s' is Intel's; ignored on the CPU\n", t);
        } else {
            rd_strbuf_add(log, "note: build option '%s' is not known to this driver; ignored\n", t);
        }
    }
    return 1;
}

void rd_cl_options_free(rd_cl_options_t *o)
{
    free(o->storage);
    o->storage = NULL;
    o->num_args = 0;
}
