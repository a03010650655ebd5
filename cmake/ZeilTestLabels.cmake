# ctest labels, by test name: `ctest -L unit` is the loop of seconds (no
# driver), the others pick a part (README, "Building, testing, installing").
# Each directory that adds tests calls it last (labels are set where the
# tests are). Each label with the pattern of the test names it takes (a test
# may take several).
set(ZEIL_TEST_LABELS
  "unit=^(test_output_|fuzz_replay_|interop_cache_blob_parser$|zeil_readme|layer_exports_test$|layer_env_reads_test$)"
  "fuzz=^fuzz_"
  "driver=^(future_)?driver_|^zeil_cpu_sample"
  "layer=^(future_|hazards_)?(layer_|transparency)|^hazards_layer|^newer_"
  "interop=interop|onednn|^zeil_demo"
  "onednn3=^onednn3_"
  "misuse=misuse|hostile_env"
  "stress=stress"
  "bench=^bench_"
  "package=^zeil_(install|package|ranks|viewer)")

function(zeil_label_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t ${tests})
    set(labels)
    foreach(rule ${ZEIL_TEST_LABELS})
      string(FIND "${rule}" "=" at)
      string(SUBSTRING "${rule}" 0 ${at} label)
      math(EXPR at "${at} + 1")
      string(SUBSTRING "${rule}" ${at} -1 pattern)
      if(t MATCHES "${pattern}")
        list(APPEND labels ${label})
      endif()
    endforeach()
    if(labels)
      set_tests_properties(${t} PROPERTIES LABELS "${labels}")
    endif()
  endforeach()
endfunction()
