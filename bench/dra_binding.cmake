# DRA binding benchmarks: pods with ResourceClaims bound end to end through the binding
# stage on a 1,000-node, 8-GPU-per-node fleet (berth_dra_binding_bench --scale prints figures).
add_library(berth_bench_dra_fleet STATIC ${CMAKE_CURRENT_LIST_DIR}/scenarios/dra_fleet.cc)
target_include_directories(berth_bench_dra_fleet PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/bench)
target_link_libraries(berth_bench_dra_fleet PUBLIC berth::model berth::core)

add_executable(berth_dra_binding_bench ${CMAKE_CURRENT_LIST_DIR}/dra_binding_bench.cc)
target_link_libraries(berth_dra_binding_bench PRIVATE
  berth_bench_dra_fleet berth::binding berth::model berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_dra_binding COMMAND berth_dra_binding_bench
    --benchmark_min_time=0.01 --benchmark_filter=EightOfSeven)
  set_tests_properties(bench_smoke_dra_binding PROPERTIES LABELS bench_smoke)
endif()
