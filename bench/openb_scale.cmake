# OpenB scale (issue 14): the OpenB node-list reader on 20,000 to 320,000 generated rows (must
# grow linearly: the rows-per-second of the largest list stay within 8x of the smallest's),
# and the FGD replay protocol of every policy on N, 2N and 4N nodes through the replay's node
# classes, checked against the scan over every node where that runs (--scan-max-nodes).
#   berth_openb_scale_bench [--rows N] [--replay-nodes N] [--policies LIST] [--scan-max-nodes M]
#                           [--repeats K]
if(NOT TARGET berth::sim)
  return()
endif()
add_executable(berth_openb_scale_bench ${CMAKE_CURRENT_LIST_DIR}/openb_scale_bench.cc)
target_link_libraries(berth_openb_scale_bench PRIVATE berth::sim berth::core)

if(BERTH_BUILD_TESTS)
  # The smoke run reads 20,000, 80,000 and 320,000 rows and replays 200, 400 and 800 nodes per
  # policy (the 200 also by the scan, which must give the same run).
  add_test(NAME bench_smoke_openb_scale
    COMMAND berth_openb_scale_bench --rows 20000 --replay-nodes 200 --scan-max-nodes 200)
  set_tests_properties(bench_smoke_openb_scale PROPERTIES LABELS bench_smoke)
endif()
