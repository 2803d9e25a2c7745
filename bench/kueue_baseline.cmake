# Kueue's baseline scheduler performance scenario (issue #6): 5 Cohorts x 6 ClusterQueues and
# 15,000 workloads in three classes replayed by berth simulate's queue replay, berth's average
# time to admission per class and ClusterQueue usage printed beside Kueue's published means
# and thresholds (berth_kueue_baseline_bench; --cohorts/--queues/--scale for a reduced run).
if(NOT TARGET berth::sim)
  return()
endif()
add_executable(berth_kueue_baseline_bench ${CMAKE_CURRENT_LIST_DIR}/kueue_baseline_bench.cc)
target_link_libraries(berth_kueue_baseline_bench PRIVATE berth::sim berth::io berth::core)

if(BERTH_BUILD_TESTS)
  # The smoke run: one Cohort of 6 ClusterQueues with a tenth of the workloads (250), with every
  # check (determinism, sanity, the large < medium < small order); under a second even with
  # sanitizers.
  add_test(NAME bench_smoke_kueue_baseline
    COMMAND berth_kueue_baseline_bench --cohorts 1 --queues 6 --scale 0.1)
  set_tests_properties(bench_smoke_kueue_baseline PROPERTIES LABELS bench_smoke)
endif()
