# Kueue's baseline scheduler performance scenario (issue #6): 5 Cohorts x 6 ClusterQueues and
# 15,000 workloads in three classes replayed by berth simulate's queue replay, berth's average
# time to admission per class and ClusterQueue usage printed beside Kueue's published means
# and thresholds (berth_kueue_baseline_bench; --cohorts/--queues for a reduced run).
if(NOT TARGET berth::sim)
  return()
endif()
add_executable(berth_kueue_baseline_bench ${CMAKE_CURRENT_LIST_DIR}/kueue_baseline_bench.cc)
target_link_libraries(berth_kueue_baseline_bench PRIVATE berth::sim berth::io berth::core)

if(BERTH_BUILD_TESTS)
  # The smoke run: one Cohort of 2 ClusterQueues (1,000 workloads; the per-class figures of the
  # full scenario, whose Cohorts and ClusterQueues are alike), out of phase by 50 ms so that they
  # borrow and reclaim, with every check (sanity, determinism, the CPU-only replay, the order
  # large < medium < small); about 0.1 s in a release build.
  add_test(NAME bench_smoke_kueue_baseline
    COMMAND berth_kueue_baseline_bench --cohorts 1 --queues 2 --stagger-ms 50)
  set_tests_properties(bench_smoke_kueue_baseline PROPERTIES LABELS bench_smoke)
endif()
