# binding benchmarks: binding pods onto synthetic clusters with the index and, as the
# baseline, node by node (berth_binding_bench --scale prints the 10k-node figures).
add_executable(berth_binding_bench ${CMAKE_CURRENT_LIST_DIR}/binding_bench.cc)
target_link_libraries(berth_binding_bench PRIVATE
  berth_bench_scenarios berth::binding berth::model berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_binding COMMAND berth_binding_bench --benchmark_min_time=0.01)
  set_tests_properties(bench_smoke_binding PROPERTIES LABELS bench_smoke)
endif()
