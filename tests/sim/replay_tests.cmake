# sim/replay tests: job workloads, scenario files and actions, the engine-driven queue replay
# (quota, nodes, preemption, failures, drains, scale-up), OpenB seed lists.
list(APPEND BERTH_SIM_TEST_SRCS
  ${CMAKE_CURRENT_LIST_DIR}/replay_job_workloads_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/replay_scenario_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/replay_queue_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/replay_failures_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/replay_openb_runs_test.cc)
