/*
 * hazard_accesses.h: what a primitive's execution reads and writes, told to
 * the layer (zeil_declare_accesses) for its hazard checks.
 */
#ifndef ZEIL_INTEROP_HAZARD_ACCESSES_H
#define ZEIL_INTEROP_HAZARD_ACCESSES_H

#include <zeil/dnnl_ze.h>

/* Declares the buffers of args for the launch this thread appends next.
 * Nothing at all unless the layer's hazard checks are on. */
void hazard_accesses_declare(const_dnnl_primitive_t primitive, int nargs,
                             const dnnl_exec_arg_t *args);

#endif
