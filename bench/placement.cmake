# placement benchmarks: one OCM Placement (label, claim and CEL predicates, five
# prioritizers, optionally spreadPolicy) over a synthetic hub of 10,000 managed clusters;
# prints the peak RSS after the run.
if(NOT TARGET berth::placement)
  return()
endif()
add_executable(berth_placement_bench ${CMAKE_CURRENT_LIST_DIR}/placement_bench.cc)
target_link_libraries(berth_placement_bench PRIVATE
  berth::placement berth::model berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_placement COMMAND berth_placement_bench --benchmark_min_time=0.01)
  set_tests_properties(bench_smoke_placement PROPERTIES LABELS bench_smoke)
endif()
