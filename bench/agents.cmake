# Agents against one hub (issue #16): sync latency and hub CPU with many member clusters, the
# time from a cluster's death to the re-dispatch of its workloads, and ManifestWorks applied
# per second by one agent (berth_agents_bench --scale prints the 1,000-cluster figures;
# docs/benchmarks.md).
if(NOT TARGET berth::cli OR NOT TARGET berth::server)
  return()
endif()
pkg_check_modules(BENCH_AGENTS_HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
add_executable(berth_agents_bench ${CMAKE_CURRENT_LIST_DIR}/agents_bench.cc)
target_link_libraries(berth_agents_bench PRIVATE
  berth::cli berth::server berth::store berth::model berth::core PkgConfig::BENCH_AGENTS_HTTPLIB Threads::Threads)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_agents COMMAND berth_agents_bench)
  set_tests_properties(bench_smoke_agents PROPERTIES LABELS bench_smoke TIMEOUT 300)
endif()
