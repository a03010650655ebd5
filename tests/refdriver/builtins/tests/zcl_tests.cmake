# Tests of the built-in library before the driver's compiler runs it: each
# OpenCL C test kernel is compiled to spir64 bitcode, linked with
# zeil_cl_builtins.bc and rd_rt.bc, turned into x86_64 code by retarget.py
# (a stand-in for the compiler) and run by a C harness on zcl_standin.c (a
# stand-in for the scheduler: one thread per work-item). The kernel code is
# not sanitized; the harness is, like the rest of the build.

set(zt_dir ${CMAKE_CURRENT_SOURCE_DIR}/tests)
set(zt_out ${CMAKE_CURRENT_BINARY_DIR}/tests)
file(MAKE_DIRECTORY ${zt_out})

add_library(zcl_standin STATIC tests/zcl_standin.c)
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
    DEPENDS ${k} ${zt_dir}/retarget.py ${ZEIL_CL_BUILTINS_BC} ${ZEIL_CL_RT_BC} ${ZEIL_CL_EXT_H}
    COMMENT "Built-in library test kernel k_${name}.cl")
  add_executable(builtins_${name} tests/t_${name}.c ${zt_out}/k_${name}.o)
  zeil_project_code(builtins_${name})
  target_link_libraries(builtins_${name} PRIVATE zcl_standin)
  add_test(NAME builtins_${name} COMMAND builtins_${name})
  set_tests_properties(builtins_${name} PROPERTIES TIMEOUT 120)
endfunction()

zcl_kernel_test(workitem)
zcl_kernel_test(subgroup)
