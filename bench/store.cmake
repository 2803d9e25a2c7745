# The hub's durable store (issue #15): acknowledged creates/s under group commit with
# synchronous=FULL, create latency at a paced rate, a paged list and reopen-to-ready
# (berth_store_bench --scale prints the 100,000-object figures, with --postgres on a throwaway
# PostgreSQL; docs/benchmarks.md).
if(NOT TARGET berth::store)
  return()
endif()
add_executable(berth_store_bench ${CMAKE_CURRENT_LIST_DIR}/store_bench.cc)
target_link_libraries(berth_store_bench PRIVATE berth::store berth::core Threads::Threads)
# --postgres starts its server with the tests' fixture (tests/store/postgres_server.h).
target_include_directories(berth_store_bench PRIVATE ${PROJECT_SOURCE_DIR}/tests)

if(BERTH_BUILD_TESTS)
  # The smoke run: every phase at a small size, with every check; about a second.
  add_test(NAME bench_smoke_store COMMAND berth_store_bench)
  set_tests_properties(bench_smoke_store PROPERTIES LABELS bench_smoke)
  add_test(NAME bench_smoke_store_postgres COMMAND berth_store_bench --postgres)
  set_tests_properties(bench_smoke_store_postgres PROPERTIES LABELS bench_smoke)
endif()
