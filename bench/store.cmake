# The hub's durable store (issue #15): acknowledged creates/s under group commit with
# synchronous=FULL, create latency at a paced rate, a paged list and reopen-to-ready
# (berth_store_bench --scale prints the 100,000-object figures; docs/benchmarks.md).
if(NOT TARGET berth::store)
  return()
endif()
add_executable(berth_store_bench ${CMAKE_CURRENT_LIST_DIR}/store_bench.cc)
target_link_libraries(berth_store_bench PRIVATE berth::store berth::core Threads::Threads)

if(BERTH_BUILD_TESTS)
  # The smoke run: every phase at a small size, with every check; about a second.
  add_test(NAME bench_smoke_store COMMAND berth_store_bench)
  set_tests_properties(bench_smoke_store PROPERTIES LABELS bench_smoke)
endif()
