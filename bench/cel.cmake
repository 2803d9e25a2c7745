# cel benchmarks: a typical DRA device selector, compiled once, evaluated against devices;
# baselines are a hand-written C++ predicate and upstream-style fresh maps per evaluation.
if(NOT TARGET berth::cel)
  return()  # src/cel is not part of this build (yet)
endif()
add_executable(berth_cel_bench ${CMAKE_CURRENT_LIST_DIR}/cel_bench.cc)
target_link_libraries(berth_cel_bench PRIVATE berth::cel berth::core benchmark::benchmark)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_cel COMMAND berth_cel_bench --benchmark_min_time=0.01)
  set_tests_properties(bench_smoke_cel PROPERTIES LABELS bench_smoke)
endif()
