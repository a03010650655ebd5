# Where the tests of tests/onednn3 find oneDNN 3.13.1 with its Level Zero
# runtime: ZEIL_ONEDNN3_DIR, by default the cache that scripts/setup-onednn3
# fills. The tests check the build again when they run (a missing or other
# build fails them with one message; outside CI they are skipped then).
set(zeil_onednn3_cache "$ENV{XDG_CACHE_HOME}")
if(NOT zeil_onednn3_cache)
  set(zeil_onednn3_cache "$ENV{HOME}/.cache")
endif()
set(ZEIL_ONEDNN3_DIR "${zeil_onednn3_cache}/zeil/onednn-3.13.1-ze" CACHE PATH
  "oneDNN 3.13.1 built with ONEDNN_GPU_RUNTIME=ZE (scripts/setup-onednn3 puts one here)")
execute_process(COMMAND ${CMAKE_SOURCE_DIR}/scripts/setup-onednn3 --check "${ZEIL_ONEDNN3_DIR}"
  RESULT_VARIABLE zeil_onednn3_rc OUTPUT_QUIET ERROR_VARIABLE zeil_onednn3_why
  ERROR_STRIP_TRAILING_WHITESPACE)
if(zeil_onednn3_rc EQUAL 0)
  set(ZEIL_ONEDNN3_FOUND ON)
else()
  set(ZEIL_ONEDNN3_FOUND OFF)
  message(STATUS "oneDNN 3 tests: ${zeil_onednn3_why} (scripts/setup-onednn3 makes one)")
endif()
