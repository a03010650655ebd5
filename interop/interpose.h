/*
 * interpose.h: libzeil_interop defines some of oneDNN's functions in front
 * of oneDNN's own, because oneDNN 2.6 has neither a Level Zero runtime nor
 * hooks for one:
 * - dnnl_stream_create on an interop engine gives a stream that owns an
 *   in-order immediate command list of the engine's context and device;
 * - dnnl_primitive_execute on an interop stream appends to its list;
 * - dnnl_memory_create on an interop engine allocates USM;
 * - dnnl_memory_destroy, dnnl_stream_destroy and dnnl_engine_destroy release
 *   zeil's part (an owned buffer, a stream's list, events and packets);
 * - dnnl_stream_wait waits for the work appended to the stream's list;
 * - dnnl_engine_get_kind says dnnl_gpu for interop engines, as oneDNN's
 *   Level Zero engines are GPU engines;
 * - zeEventHostSynchronize (in front of the loader's) reports a host wait on
 *   an event whose slot a stream has reused (W154); when the loader comes
 *   first for the application, only that report is lost.
 * Each definition does zeil's part, then calls oneDNN's own function (for
 * every other engine and stream, only that).
 *
 * It works when libzeil_interop precedes libdnnl in symbol lookup order
 * (the zeil_interop CMake target and pkg-config file put it first). When
 * it does not, interpose_check (real_dnnl.h) refuses the interop calls that create
 * engines (E126), so a program linked the wrong way round fails at its
 * first interop call instead of running in the wrong order.
 * Inside libzeil_interop (linked -Bsymbolic) a call to one of these names
 * binds to zeil's definition: the library itself calls real_* (real_dnnl.h),
 * which find oneDNN's own; interpose.c defines the names and nothing else.
 */
#ifndef ZEIL_INTEROP_INTERPOSE_H
#define ZEIL_INTEROP_INTERPOSE_H

#include <zeil/dnnl_ze.h>

#endif
