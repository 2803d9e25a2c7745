# Volume binding benchmarks: binding with PersistentVolumeClaims (provisioned and local
# volumes, CSINode limits) against the same cluster without volumes
# (berth_volume_binding_bench --scale prints the 10k-node figures and their ratio).
add_executable(berth_volume_binding_bench ${CMAKE_CURRENT_LIST_DIR}/volume_binding_bench.cc)
target_link_libraries(berth_volume_binding_bench PRIVATE
  berth_bench_scenarios berth::binding berth::model berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_volume_binding COMMAND berth_volume_binding_bench
    --benchmark_min_time=0.01 --benchmark_filter=BM_BindWithVolumes_1kNodes)
  set_tests_properties(bench_smoke_volume_binding PROPERTIES LABELS bench_smoke)
endif()
