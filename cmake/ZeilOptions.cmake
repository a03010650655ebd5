# Build options and the warning set for project code.
set(ZEIL_SANITIZE "" CACHE STRING "Sanitizers for every target: '', 'address' (ASan+UBSan) or 'thread' (TSan)")
set_property(CACHE ZEIL_SANITIZE PROPERTY STRINGS "" address thread)

if(ZEIL_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(ZEIL_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT ZEIL_SANITIZE STREQUAL "")
  message(FATAL_ERROR "ZEIL_SANITIZE must be '', 'address' or 'thread', not '${ZEIL_SANITIZE}'")
endif()

# Warnings are errors in project code (not in generated or third-party code).
function(zeil_project_code target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror
    $<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes -Wmissing-prototypes>)
  target_compile_definitions(${target} PRIVATE _GNU_SOURCE)
endfunction()

# A shared library that shows only what it marks as exported and binds its own
# calls locally (see "Traps" in DESIGN: the loader exports the same names).
function(zeil_private_symbols target)
  set_target_properties(${target} PROPERTIES C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(${target} PRIVATE -Wl,-Bsymbolic -Wl,--no-undefined)
endfunction()
