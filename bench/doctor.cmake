# berth doctor benchmark: every rule over a seeded kubectl-style dump (10,000 nodes, 100,000
# pods by default) plus injected misconfigurations whose findings are checked
# (berth_doctor_bench prints read and rule times; issue 17 asks < 3 s).
if(NOT TARGET berth::diag)
  return()
endif()
add_executable(berth_doctor_bench ${CMAKE_CURRENT_LIST_DIR}/doctor_bench.cc)
target_link_libraries(berth_doctor_bench PRIVATE
  berth_bench_scenarios berth::diag berth::io berth::model berth::core)

if(BERTH_BUILD_TESTS)
  add_test(NAME bench_smoke_doctor COMMAND berth_doctor_bench --nodes=200 --pods=2000 --runs=1)
  set_tests_properties(bench_smoke_doctor PROPERTIES LABELS bench_smoke)
endif()
