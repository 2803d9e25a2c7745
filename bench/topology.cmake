# Topology-aware scheduling (Kueue TAS) benchmarks: a 10,000-node block/rack/host topology,
# snapshot build and pod-set placement (required, preferred, unconstrained).
if(TARGET berth::queueing)
  add_executable(berth_topology_bench ${CMAKE_CURRENT_LIST_DIR}/topology_bench.cc)
  target_link_libraries(berth_topology_bench PRIVATE
    berth::queueing berth::model berth::core benchmark::benchmark)
  if(BERTH_BUILD_TESTS)
    add_test(NAME bench_smoke_topology COMMAND berth_topology_bench
      --benchmark_min_time=0.01 --benchmark_filter=RackRequired)
    set_tests_properties(bench_smoke_topology PROPERTIES LABELS bench_smoke)
  endif()
endif()
