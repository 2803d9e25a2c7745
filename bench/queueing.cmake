# queueing benchmarks: Kueue admission over synthetic fleets of cohorts and ClusterQueues
# (berth_queueing_bench --scale prints the 1,000-queue, 100,000-workload figures).
add_executable(berth_queueing_bench ${CMAKE_CURRENT_LIST_DIR}/queueing_bench.cc)
target_link_libraries(berth_queueing_bench PRIVATE
  berth::queueing berth::model berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_queueing COMMAND berth_queueing_bench --benchmark_min_time=0.01)
  set_tests_properties(bench_smoke_queueing PROPERTIES LABELS bench_smoke)
endif()
