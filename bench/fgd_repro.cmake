# FGD reproduction (issue #6): the FGD paper's OpenB protocol (1213 GPU nodes, pods shuffled
# with seeds 42-51, inflated to 130% of the GPUs, one placement attempt per pod) for the six
# policies and berth's own, berth's unallocated GPU % at arrived 100% printed beside the authors'
# means and berth's policy beside FGD
# (berth_fgd_repro_bench --data ../shared/data --traces all for the full 1,020-run grid).
if(NOT TARGET berth::sim)
  return()
endif()
add_executable(berth_fgd_repro_bench ${CMAKE_CURRENT_LIST_DIR}/fgd_repro_bench.cc)
target_link_libraries(berth_fgd_repro_bench PRIVATE berth::sim berth::core Threads::Threads)

if(BERTH_BUILD_TESTS)
  # The smoke run replays the small fixture copy (tests/fixtures/sim/openb), all policies, two
  # seeds, without the published table.
  add_test(NAME bench_smoke_fgd_repro
    COMMAND berth_fgd_repro_bench --trace-dir ${PROJECT_SOURCE_DIR}/tests/fixtures/sim/openb
            --expected none --traces default --seeds 42-43 --policies all+berth --threads 2)
  set_tests_properties(bench_smoke_fgd_repro PROPERTIES LABELS bench_smoke)
endif()
