# data benchmark: data::ScheduleFetches of one 140 GB model for 1,000 replicas on 100 nodes
# in 4 clusters (and 10x, 100x that), origin limits on, in-cluster sharing off and on
# (berth_data_fetch_bench --scale prints the figures of docs/benchmarks.md).
if(NOT TARGET berth::data)
  return()
endif()
add_executable(berth_data_fetch_bench ${CMAKE_CURRENT_LIST_DIR}/data_fetch_bench.cc)
target_link_libraries(berth_data_fetch_bench PRIVATE berth::data berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_data_fetch
    COMMAND berth_data_fetch_bench --benchmark_min_time=0.01 --benchmark_filter=/1000$)
  set_tests_properties(bench_smoke_data_fetch PROPERTIES LABELS bench_smoke)
endif()
