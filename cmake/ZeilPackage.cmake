# cpack -G DEB (in the build folder): a Debian package of what
# `cmake --install` installs (libraries, headers, CMake and pkg-config files,
# zeil-run, zeil-report, the reference driver and the demo program), under
# /usr. tests/sample/test_package.py builds it, unpacks it with dpkg -x and
# runs the README's examples against that layout.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME zeil)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Level Zero interop layer for oneDNN, with a reference CPU driver")
set(CPACK_PACKAGE_CONTACT "zeil developers <zeil@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Debian 12's packages zeil was built and tested with.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libze1 (>= 1.8), libdnnl2 (>= 2.6), python3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libze-dev, libdnnl-dev, pkg-config, python3-matplotlib")
set(CPACK_PACKAGE_FILE_NAME zeil_${PROJECT_VERSION}_amd64)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
include(CPack)
