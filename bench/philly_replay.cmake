# Philly replay (issue #6): the whole 82,247-job Philly list (Pollux's philly.csv) replayed
# through a fleet's Kueue queues and binding over virtual time (berth simulate's engine-driven
# replay), timed, with events/s and peak memory (goal: < 10 s and < 1 GiB on 2 cores).
#   berth_philly_replay_bench --trace ../shared/data/philly-jobs-pollux/philly.csv
if(NOT TARGET berth::sim)
  return()
endif()
add_executable(berth_philly_replay_bench ${CMAKE_CURRENT_LIST_DIR}/philly_replay_bench.cc)
target_link_libraries(berth_philly_replay_bench PRIVATE berth::sim berth::io berth::core)
target_compile_definitions(berth_philly_replay_bench
  PRIVATE BERTH_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

if(BERTH_BUILD_TESTS)
  # The smoke run replays the 200-job fixture (tests/fixtures/sim/philly) on the same fleet.
  add_test(NAME bench_smoke_philly_replay
    COMMAND berth_philly_replay_bench
            --trace ${PROJECT_SOURCE_DIR}/tests/fixtures/sim/philly/philly_head200.csv)
  set_tests_properties(bench_smoke_philly_replay PROPERTIES LABELS bench_smoke)
endif()
