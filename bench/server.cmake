# server API machinery benchmarks: discovery documents, routing, list filtering over 10,000
# workloads, a 500-row Table (kubectl's chunk size) and patches.
if(NOT TARGET berth::server)
  return()
endif()
add_executable(berth_server_bench ${CMAKE_CURRENT_LIST_DIR}/server_bench.cc)
target_link_libraries(berth_server_bench PRIVATE
  berth::server berth::model berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_server COMMAND berth_server_bench --benchmark_min_time=0.01)
  set_tests_properties(bench_smoke_server PROPERTIES LABELS bench_smoke)
endif()
