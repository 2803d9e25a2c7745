# devices benchmarks: the DRA structured allocator on a 1,000-node GPU fleet (8 GPUs per
# node), per-node decisions for common claims and the unsatisfiable 8-of-7 request.
add_executable(berth_devices_bench ${CMAKE_CURRENT_LIST_DIR}/devices_bench.cc)
target_link_libraries(berth_devices_bench PRIVATE
  berth::devices berth::cel berth::model berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_devices COMMAND berth_devices_bench --benchmark_min_time=0.01)
  set_tests_properties(bench_smoke_devices PROPERTIES LABELS bench_smoke)
endif()
