# Tests of the built-in library before the driver's compiler runs it: each
# OpenCL C test kernel is compiled to spir64 bitcode, linked with
# zeil_cl_builtins.bc and rd_rt.bc, turned into x86_64 code by retarget.py
# (a stand-in for the compiler) and run by a C harness on zcl_standin.c (a
# stand-in for the scheduler: one thread per work-item). The kernel code is
# not sanitized; the harness is, like the rest of the build.

set(zt_dir ${CMAKE_CURRENT_SOURCE_DIR}/tests)
find_program(ZEIL_CL_LLVM_SPIRV NAMES llvm-spirv-15)
set(zt_out ${CMAKE_CURRENT_BINARY_DIR}/tests)
file(MAKE_DIRECTORY ${zt_out})

add_library(zcl_standin STATIC tests/zcl_standin.c tests/zcl_check.c tests/zt_subgroup_ref.c)
zeil_project_code(zcl_standin)
target_include_directories(zcl_standin PUBLIC ${zt_dir} ${zcl_dir} ${CMAKE_CURRENT_SOURCE_DIR}/../execution)
target_link_libraries(zcl_standin PUBLIC Threads::Threads m)

# zcl_kernel_test(name) : k_<name>.cl + t_<name>.c -> test builtins_<name>
function(zcl_kernel_test name)
  set(k ${zt_dir}/k_${name}.cl)
  add_custom_command(OUTPUT ${zt_out}/k_${name}.o
    COMMAND ${ZEIL_CL_CLANG} -cc1 -triple spir64-unknown-unknown -x cl -cl-std=CL3.0
            -finclude-default-header -include ${ZEIL_CL_EXT_H} -O2 -emit-llvm-bc -o ${zt_out}/k_${name}.bc ${k}
    COMMAND ${ZEIL_CL_LLVM_LINK} -o ${zt_out}/k_${name}.rt.bc ${zt_out}/k_${name}.bc ${ZEIL_CL_RT_BC} 2>/dev/null
    COMMAND ${ZEIL_CL_LLVM_LINK} -o ${zt_out}/k_${name}.linked.bc ${zt_out}/k_${name}.rt.bc
            --only-needed ${ZEIL_CL_BUILTINS_BC}
    COMMAND ${ZEIL_CL_LLVM_DIS} -o ${zt_out}/k_${name}.spir.ll ${zt_out}/k_${name}.linked.bc
    COMMAND ${ZEIL_PYTHON} ${zt_dir}/retarget.py ${zt_out}/k_${name}.spir.ll ${zt_out}/k_${name}.ll
    COMMAND ${ZEIL_CL_CLANG} -Wno-override-module -O2 -fPIC -c -o ${zt_out}/k_${name}.o ${zt_out}/k_${name}.ll
    DEPENDS ${k} ${zt_dir}/retarget.py ${ZEIL_CL_BUILTINS_BC} ${ZEIL_CL_RT_BC} ${ZEIL_CL_EXT_H} zeil_cl_builtins
    COMMENT "Built-in library test kernel k_${name}.cl")
  add_executable(builtins_${name} tests/t_${name}.c ${zt_out}/k_${name}.o)
  zeil_project_code(builtins_${name})
  target_link_libraries(builtins_${name} PRIVATE zcl_standin)
  # The library is finished (by its own target) before this test's kernel
  # is linked with it: a parallel build never reads a half-written .bc.
  add_dependencies(builtins_${name} zeil_cl_builtins)
  add_test(NAME builtins_${name} COMMAND builtins_${name})
  set_tests_properties(builtins_${name} PROPERTIES TIMEOUT 120)
endfunction()

zcl_kernel_test(workitem)
zcl_kernel_test(subgroup)
zcl_kernel_test(convert)
zcl_kernel_test(atomic)
zcl_kernel_test(vector)
zcl_kernel_test(math)

# Every built-in a broad kernel calls is defined, in each OpenCL C version and
# through SPIR-V.
find_program(ZEIL_CL_LLVM_NM NAMES llvm-nm-15)
set(zt_spirv ${ZEIL_CL_LLVM_SPIRV})
if(NOT zt_spirv)
  set(zt_spirv -)
endif()
if(ZEIL_CL_LLVM_NM)
  add_test(NAME builtins_link
    COMMAND ${ZEIL_PYTHON} ${zt_dir}/link_check.py ${ZEIL_CL_CLANG} ${ZEIL_CL_LLVM_LINK} ${ZEIL_CL_LLVM_NM}
            ${zt_spirv} ${ZEIL_CL_BUILTINS_BC} ${ZEIL_CL_RT_BC} ${ZEIL_CL_EXT_H} ${zt_dir}/k_link.cl ${zt_out}/link)
  set_tests_properties(builtins_link PROPERTIES TIMEOUT 120)
endif()

# k_subgroup.cl again through the loader, the driver's compiler and its
# scheduler (OpenCL C source, intel_reqd_sub_group_size 8, 16, 32).
add_executable(builtins_driver_subgroup tests/t_driver_subgroup.c tests/zt_subgroup_ref.c tests/zcl_check.c)
zeil_project_code(builtins_driver_subgroup)
target_include_directories(builtins_driver_subgroup PRIVATE ${zt_dir})
target_link_libraries(builtins_driver_subgroup PRIVATE PkgConfig::LEVEL_ZERO)
add_dependencies(builtins_driver_subgroup ze_zeil_cpu zeil_cl_builtins)
set(zt_spirv_args)
if(ZEIL_CL_LLVM_SPIRV)
  # SPIR-V of each size, as a user would make it (llvm-spirv-15 reads typed pointers only)
  set(zt_spvs)
  foreach(sgs 8 16 32)
    add_custom_command(OUTPUT ${zt_out}/k_subgroup_${sgs}.spv
      COMMAND ${ZEIL_CL_CLANG} -cc1 -triple spir64-unknown-unknown -x cl -cl-std=CL3.0 -finclude-default-header
              -include ${ZEIL_CL_EXT_H} -no-opaque-pointers -DZT_SGS=${sgs} -O2 -emit-llvm-bc
              -o ${zt_out}/k_subgroup_${sgs}.spv.bc ${zt_dir}/k_subgroup.cl
      COMMAND ${ZEIL_CL_LLVM_SPIRV} --spirv-ext=+all ${zt_out}/k_subgroup_${sgs}.spv.bc -o ${zt_out}/k_subgroup_${sgs}.spv
      DEPENDS ${zt_dir}/k_subgroup.cl ${ZEIL_CL_EXT_H}
      COMMENT "Built-in library test kernel k_subgroup.cl as SPIR-V (sub-group size ${sgs})")
    list(APPEND zt_spvs ${zt_out}/k_subgroup_${sgs}.spv)
  endforeach()
  add_custom_target(builtins_driver_subgroup_spirv DEPENDS ${zt_spvs})
  add_dependencies(builtins_driver_subgroup builtins_driver_subgroup_spirv)
  set(zt_spirv_args ${zt_out}/k_subgroup_)
endif()
add_test(NAME builtins_driver_subgroup COMMAND builtins_driver_subgroup ${zt_dir}/k_subgroup.cl ${zt_spirv_args})
set(zt_driver_env "ZE_ENABLE_ALT_DRIVERS=set:$<TARGET_FILE:ze_zeil_cpu>;ZEIL_CPU_KERNEL_CACHE=set:0;ZE_ENABLE_LAYERS=unset:;ZE_ENABLE_VALIDATION_LAYER=unset:;ZEIL_DRIVERS=unset:;ZEIL_CPU_DEVICES=unset:;ZEIL_CPU_AS_GPU=unset:")
if(ZEIL_SANITIZE STREQUAL "address")
  # A compiled module holds the work-item state in thread-local storage
  # (rd_rt.c); once zeModuleDestroy unloads it, LeakSanitizer's walk of the
  # pool threads' dynamic TLS at exit reads its stale block and crashes
  # ("Tracer caught signal 11"). Leaks are still checked, TLS is not a root.
  list(APPEND zt_driver_env "LSAN_OPTIONS=set:use_tls=0")
endif()
set_tests_properties(builtins_driver_subgroup PROPERTIES TIMEOUT 300 ENVIRONMENT_MODIFICATION "${zt_driver_env}")
