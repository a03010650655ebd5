/*
 * zeil_cl_ext.h: declarations of built-ins that the reference driver's
 * OpenCL C library implements and clang-15's opencl-c.h lacks:
 * cl_intel_subgroups_char and cl_intel_subgroups_long (shuffles, block reads
 * and writes of uchar and ulong). The compiler -includes it after the default
 * header for OpenCL C and SPIR-V-derived code; the library includes it too.
 */
#ifndef ZEIL_CL_EXT_H
#define ZEIL_CL_EXT_H

#define ZEIL_CL_DECL __attribute__((overloadable))

#ifndef cl_intel_subgroups_char
#define cl_intel_subgroups_char 1
#endif
#ifndef cl_intel_subgroups_long
#define cl_intel_subgroups_long 1
#endif

#endif
