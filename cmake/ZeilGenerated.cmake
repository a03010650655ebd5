# Code generated at build time from the installed Level Zero headers.
set(ZEIL_GENERATED_DIR ${CMAKE_BINARY_DIR}/generated)
file(MAKE_DIRECTORY ${ZEIL_GENERATED_DIR})

add_custom_command(
  OUTPUT ${ZEIL_GENERATED_DIR}/zeil_ddi.h
  COMMAND ${ZEIL_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/codegen/gen-ddi ${LEVEL_ZERO_DDI_DIR}
          ${CMAKE_SOURCE_DIR}/compat/ze_compat.h ${ZEIL_GENERATED_DIR}/zeil_ddi.h
  DEPENDS ${CMAKE_SOURCE_DIR}/scripts/codegen/gen-ddi ${CMAKE_SOURCE_DIR}/compat/ze_compat.h
          ${LEVEL_ZERO_DDI_DIR}/ze_ddi.h
          ${LEVEL_ZERO_DDI_DIR}/zet_ddi.h ${LEVEL_ZERO_DDI_DIR}/zes_ddi.h
  COMMENT "Generating zeil_ddi.h from the installed Level Zero headers and compat/ze_compat.h")
add_custom_target(zeil_ddi_header DEPENDS ${ZEIL_GENERATED_DIR}/zeil_ddi.h)

# Link this to use the generated DDI X-macro tables (ZEIL_DDI_TABLES, ZEIL_DDI_ENTRIES,
# ZEIL_DDI_LAYOUT, ...); compat/ holds the compatibility description they include.
add_library(zeil_ddi INTERFACE)
target_include_directories(zeil_ddi INTERFACE ${ZEIL_GENERATED_DIR} ${CMAKE_SOURCE_DIR}/compat)
target_link_libraries(zeil_ddi INTERFACE PkgConfig::LEVEL_ZERO)
add_dependencies(zeil_ddi zeil_ddi_header)

# Public headers of the project.
add_library(zeil_headers INTERFACE)
target_include_directories(zeil_headers INTERFACE
  $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
