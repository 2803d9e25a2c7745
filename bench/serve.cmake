# The hub over HTTP (issue #15): creates/s, paced create latency, a paged list, watch fan-out,
# restart-to-ready, /metrics and the scheduling loop's cycle (berth_serve_bench --scale prints
# the 100,000-object figures; docs/benchmarks.md).
if(NOT TARGET berth::cli OR NOT TARGET berth::server)
  return()
endif()
pkg_check_modules(BENCH_HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
add_executable(berth_serve_bench ${CMAKE_CURRENT_LIST_DIR}/serve_bench.cc)
target_link_libraries(berth_serve_bench PRIVATE
  berth::cli berth::server berth::store berth::model berth::core PkgConfig::BENCH_HTTPLIB Threads::Threads)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_serve COMMAND berth_serve_bench)
  set_tests_properties(bench_smoke_serve PROPERTIES LABELS bench_smoke TIMEOUT 300)
endif()
