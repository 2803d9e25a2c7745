# admission benchmarks: the ResourceQuota ledger and LimitRanger over many namespaces.
add_executable(berth_admission_bench ${CMAKE_CURRENT_LIST_DIR}/admission_bench.cc)
target_include_directories(berth_admission_bench PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(berth_admission_bench PRIVATE berth::admission berth::model berth::core
                      benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_admission COMMAND berth_admission_bench --benchmark_min_time=0.01
                                              --benchmark_filter=/100/)
  set_tests_properties(bench_smoke_admission PROPERTIES LABELS bench_smoke)
endif()
