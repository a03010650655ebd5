/*
 * oneapi/dnnl/dnnl_ze.h: the name under which oneDNN ships its Level Zero
 * interoperability C API. oneDNN 2.6 ships none; with zeil's include
 * directory on the path (find_package(zeil) or pkg-config zeil-interop),
 * code written for oneDNN includes zeil's implementation under this name.
 */
#ifndef ZEIL_ONEAPI_DNNL_DNNL_ZE_H
#define ZEIL_ONEAPI_DNNL_DNNL_ZE_H

#include <zeil/dnnl_ze.h>

#endif
