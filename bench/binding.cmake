# binding benchmarks: binding pods onto synthetic clusters with the index and, as the
# baseline, node by node (berth_binding_bench --scale prints the 10k-node figures).
add_executable(berth_binding_bench ${CMAKE_CURRENT_LIST_DIR}/binding_bench.cc)
target_link_libraries(berth_binding_bench PRIVATE
  berth_bench_scenarios berth::binding berth::model berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  # The smoke run leaves out the node-by-node reference and the 10k-node binding: under the
  # CI build's sanitizers they took two minutes and check nothing the 1k-node run does not.
  add_test(NAME bench_smoke_binding COMMAND berth_binding_bench --benchmark_min_time=0.01
                                            "--benchmark_filter=BM_BindPods_1kNodes$|BM_ExplainPod")
  set_tests_properties(bench_smoke_binding PROPERTIES LABELS bench_smoke)
endif()
