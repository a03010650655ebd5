# cmake --install: libraries, public headers, scripts, a CMake package and
# pkg-config files for the libraries that applications link.
include(CMakePackageConfigHelpers)

install(DIRECTORY include/zeil DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# oneDNN's names for the interop headers, forwarding to zeil's.
install(DIRECTORY include/oneapi DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(PROGRAMS scripts/setup scripts/test scripts/demo
  DESTINATION ${CMAKE_INSTALL_DATADIR}/zeil/scripts)
# The reference driver, so that zeil runs where no Level Zero device is, and
# the demo program the README's examples run.
if(NOT ZEIL_SANITIZE)
  install(TARGETS ze_zeil_cpu LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_SKIP)
endif()
if(NOT ZEIL_SANITIZE)
  install(TARGETS zeil_demo_net RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/zeil)
endif()
install(PROGRAMS scripts/zeil-run scripts/zeil-report DESTINATION ${CMAKE_INSTALL_BINDIR})

# Targets that applications link register themselves in the zeilTargets
# export set (install(TARGETS ... EXPORT zeilTargets)) in their own folder.
get_property(zeil_exported GLOBAL PROPERTY ZEIL_EXPORTED_TARGETS)
if(zeil_exported)
  install(TARGETS zeil_headers EXPORT zeilTargets)
  install(EXPORT zeilTargets NAMESPACE zeil:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/zeil)
endif()
configure_package_config_file(cmake/zeilConfig.cmake.in
  ${CMAKE_BINARY_DIR}/zeilConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/zeil)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/zeilConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/zeilConfig.cmake ${CMAKE_BINARY_DIR}/zeilConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/zeil)

# Relocatable: the prefix is found from the .pc file's own place, so
# `cmake --install build --prefix DIR` gives working files for any DIR.
file(RELATIVE_PATH ZEIL_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" ZEIL_PC_TO_PREFIX "${ZEIL_PC_TO_PREFIX}")
foreach(pc zeil zeil-interop)
  configure_file(cmake/${pc}.pc.in ${CMAKE_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
