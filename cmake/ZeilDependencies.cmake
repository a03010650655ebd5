# Every dependency comes from Debian's packages (scripts/setup installs them).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
pkg_check_modules(LEVEL_ZERO REQUIRED IMPORTED_TARGET level-zero)
pkg_check_modules(CHECK REQUIRED IMPORTED_TARGET check)
find_package(dnnl CONFIG REQUIRED)

find_path(UTHASH_INCLUDE_DIR uthash.h REQUIRED)
add_library(zeil_uthash INTERFACE)
target_include_directories(zeil_uthash SYSTEM INTERFACE ${UTHASH_INCLUDE_DIR})
# A failed allocation inside uthash leaves the item out (its hh.tbl null)
# instead of exiting the process: every HASH_ADD checks for that.
target_compile_definitions(zeil_uthash INTERFACE HASH_NONFATAL_OOM=1)

# Debian's python3 (scripts and generators use its standard library only;
# plotting needs Debian's matplotlib, which another python3 on PATH may lack).
find_program(ZEIL_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT ZEIL_PYTHON)
  find_program(ZEIL_PYTHON NAMES python3 REQUIRED)
endif()

find_path(LEVEL_ZERO_DDI_DIR ze_ddi.h HINTS ${LEVEL_ZERO_INCLUDE_DIRS}
  PATH_SUFFIXES level_zero REQUIRED)
