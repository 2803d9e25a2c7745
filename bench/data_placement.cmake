# data-aware placement benchmark: one OCM Placement over 10,000 managed clusters in 8
# regions with DataLocality by estimated load time (two models and a Fluid dataset, the
# engine's DataLoadTimeModel over data's transfer model) and the DataResidency filter
# (the dataset's allowed regions and compliance); checks the selection, prints ms per
# Placement (docs/benchmarks.md, "Data-aware placement").
if(NOT TARGET berth::placement OR NOT TARGET berth::engine)
  return()
endif()
add_executable(berth_data_placement_bench ${CMAKE_CURRENT_LIST_DIR}/data_placement_bench.cc)
target_link_libraries(berth_data_placement_bench PRIVATE
  berth::engine berth::placement berth::data berth::model berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_data_placement
    COMMAND berth_data_placement_bench --benchmark_min_time=0.01)
  set_tests_properties(bench_smoke_data_placement PROPERTIES LABELS bench_smoke)
endif()
