# libzeil_interop_onednn3.so: the interop library built against oneDNN 3.13
# with its Level Zero runtime (ZEIL_ONEDNN3_DIR), whose forward backend stands
# in front of oneDNN's own dnnl_ze_interop_* (tests/onednn3). Included by
# interop/CMakeLists.txt when that oneDNN is there; the sources are the
# library's own, with the oneDNN 3.x memory descriptor (dnnl_compat_md3.c).
add_library(zeil_onednn3_dnnl SHARED IMPORTED)
set_target_properties(zeil_onednn3_dnnl PROPERTIES
  IMPORTED_LOCATION ${ZEIL_ONEDNN3_DIR}/lib/libdnnl.so.3 IMPORTED_SONAME libdnnl.so.3
  INTERFACE_INCLUDE_DIRECTORIES ${ZEIL_ONEDNN3_DIR}/include)

set(zeil_interop3_sources ${zeil_interop_sources})
list(TRANSFORM zeil_interop3_sources REPLACE "^dnnl_compat_md2\\.c$" "dnnl_compat_md3.c")
add_library(zeil_interop_onednn3 SHARED ${zeil_interop3_sources})
zeil_project_code(zeil_interop_onednn3)
zeil_private_symbols(zeil_interop_onednn3)
# oneDNN 3's headers before Debian's oneDNN 2.6 in /usr/include.
target_include_directories(zeil_interop_onednn3 BEFORE PUBLIC ${ZEIL_ONEDNN3_DIR}/include)
target_include_directories(zeil_interop_onednn3 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
add_dependencies(zeil_interop_onednn3 zeil_interop_kernel)
# zeil's interop library first, oneDNN after it: dlsym(RTLD_NEXT) finds oneDNN's.
target_link_libraries(zeil_interop_onednn3
  PUBLIC zeil_headers zeil_onednn3_dnnl PkgConfig::LEVEL_ZERO
  PRIVATE zeil zeil_uthash Threads::Threads ${CMAKE_DL_LIBS})
set_target_properties(zeil_interop_onednn3 PROPERTIES BUILD_RPATH "${ZEIL_ONEDNN3_DIR}/lib")
