# io benchmarks, and the seeded synthetic cluster generator (berth_bench_scenarios) that
# other benchmarks (binding) share.
add_library(berth_bench_scenarios STATIC ${CMAKE_CURRENT_LIST_DIR}/scenarios/synthetic_cluster.cc)
target_include_directories(berth_bench_scenarios PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/bench)
target_link_libraries(berth_bench_scenarios
  PUBLIC berth::model berth::core
  PRIVATE nlohmann_json::nlohmann_json)

add_executable(berth_io_bench ${CMAKE_CURRENT_LIST_DIR}/io_bench.cc)
target_link_libraries(berth_io_bench PRIVATE
  berth_bench_scenarios berth::io benchmark::benchmark
  simdjson::simdjson nlohmann_json::nlohmann_json)

if(BERTH_BUILD_TESTS)
  # The smoke run takes the small size of each benchmark: the sanitized CI build spent three
  # minutes on the 10,000-object ones, which prove nothing the small ones do not.
  add_test(NAME bench_smoke_io COMMAND berth_io_bench --benchmark_min_time=0.01
                                       --benchmark_filter=/100/1000)
  set_tests_properties(bench_smoke_io PROPERTIES LABELS bench_smoke)
endif()
