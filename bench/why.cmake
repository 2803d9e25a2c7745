# berth why benchmark (issue 17): the whole answer with its verified fixes, on the demo fleet
# (read from examples/demo-fleet) and on a generated 10,000-node cluster; each run checks
# the answer (state, first reason, the fix found).
if(NOT TARGET berth::diag)
  return()
endif()
add_executable(berth_why_bench ${CMAKE_CURRENT_LIST_DIR}/why_bench.cc)
target_link_libraries(berth_why_bench PRIVATE
  berth_bench_scenarios berth::diag berth::engine berth::io berth::model berth::core benchmark::benchmark)
target_compile_definitions(berth_why_bench PRIVATE BERTH_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_why
    COMMAND berth_why_bench --benchmark_min_time=0.01 "--benchmark_filter=BM_Why_DemoFleet|BM_Why_1kNodes")
  set_tests_properties(bench_smoke_why PROPERTIES LABELS bench_smoke)
endif()
