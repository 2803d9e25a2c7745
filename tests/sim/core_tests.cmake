# Tests of sim/core (included by tests/sim/CMakeLists.txt).
list(APPEND BERTH_SIM_TEST_SRCS
  ${CMAKE_CURRENT_LIST_DIR}/core_event_queue_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/core_metrics_recorder_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/core_rng_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/core_stats_test.cc)
