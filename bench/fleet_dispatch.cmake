# fleet dispatch benchmark: engine::RunPlan on a hub whose ClusterQueue dispatches through an
# OCM placement admission check to 1,000 member clusters of 100 GPU nodes
# (berth_fleet_dispatch_bench --scale prints the 100,000-workload figures).
add_executable(berth_fleet_dispatch_bench ${CMAKE_CURRENT_LIST_DIR}/fleet_dispatch_bench.cc)
target_link_libraries(berth_fleet_dispatch_bench PRIVATE
  berth::engine berth::model berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_fleet_dispatch
    COMMAND berth_fleet_dispatch_bench --benchmark_min_time=0.01 --benchmark_filter=/10/)
  set_tests_properties(bench_smoke_fleet_dispatch PROPERTIES LABELS bench_smoke)
endif()
