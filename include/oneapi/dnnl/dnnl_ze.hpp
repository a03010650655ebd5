/*
 * oneapi/dnnl/dnnl_ze.hpp: the name under which oneDNN ships its Level Zero
 * interoperability C++ API (dnnl::ze_interop). oneDNN 2.6 ships none; with
 * zeil's include directory on the path (find_package(zeil) or pkg-config
 * zeil-interop), code written for oneDNN includes zeil's under this name.
 */
#ifndef ZEIL_ONEAPI_DNNL_DNNL_ZE_HPP
#define ZEIL_ONEAPI_DNNL_DNNL_ZE_HPP

#include <zeil/dnnl_ze.hpp>

#endif
