# DefaultPreemption at scale: a wave of high-priority pods preempting on a full 10,000-node
# cluster (berth_preemption_bench prints decisions/s and peak RSS after checking the answer).
add_executable(berth_preemption_bench ${CMAKE_CURRENT_LIST_DIR}/preemption_bench.cc)
target_link_libraries(berth_preemption_bench PRIVATE berth::binding berth::model berth::core)

if(BERTH_BUILD_TESTS)
  # The smoke run is small: the checks are the same, the sanitizers slow the rest.
  add_test(NAME bench_smoke_preemption
           COMMAND berth_preemption_bench --nodes=200 --pods-per-node=10 --wave=50)
  set_tests_properties(bench_smoke_preemption PROPERTIES LABELS bench_smoke)
endif()
