# End-to-end plan benchmark (issue 12): the real `berth plan -o json` process on a seeded
# kubectl-style dump, timed and measured as a whole, its output checked
# (berth_plan_e2e_bench prints the 10,000-node / 100,000-pod figures and the 1/10 scaling run).
if(NOT TARGET berth)
  return()
endif()
add_executable(berth_plan_e2e_bench ${CMAKE_CURRENT_LIST_DIR}/plan_e2e_bench.cc)
target_link_libraries(berth_plan_e2e_bench PRIVATE berth_bench_scenarios simdjson::simdjson)
target_compile_definitions(berth_plan_e2e_bench PRIVATE BERTH_CLI_BINARY="$<TARGET_FILE:berth>")
add_dependencies(berth_plan_e2e_bench berth)

if(BERTH_BUILD_TESTS)
  # A small dump, one run, its answer checked against the checked-in digest.
  add_test(NAME bench_smoke_plan_e2e
    COMMAND berth_plan_e2e_bench --nodes=100 --pods=1000 --runs=1 --no-scaling)
  set_tests_properties(bench_smoke_plan_e2e PROPERTIES LABELS bench_smoke)
endif()
