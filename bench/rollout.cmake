# rollout benchmark: one ManifestWorkReplicaSet rolled out with ProgressivePerGroup across a
# fleet, one engine::RunPlan per step as the hub runs it, the agents' reports simulated
# between steps (berth_rollout_bench --scale prints the 10,000-cluster figures).
if(NOT TARGET berth::engine)
  return()
endif()
add_executable(berth_rollout_bench ${CMAKE_CURRENT_LIST_DIR}/rollout_bench.cc)
target_link_libraries(berth_rollout_bench PRIVATE
  berth::engine berth::io berth::model berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_rollout
    COMMAND berth_rollout_bench --benchmark_filter=/100/)
  set_tests_properties(bench_smoke_rollout PROPERTIES LABELS bench_smoke)
endif()
