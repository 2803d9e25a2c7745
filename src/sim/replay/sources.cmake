# sim/replay: the engine-driven replay of queued traces (Kueue admission and binding over
# virtual time) and the scenario files that inject failures and maintenance.
list(APPEND BERTH_SIM_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/job_workloads.cc
  ${CMAKE_CURRENT_LIST_DIR}/openb_runs.cc
  ${CMAKE_CURRENT_LIST_DIR}/queue_replay.cc
  ${CMAKE_CURRENT_LIST_DIR}/scenario.cc
  ${CMAKE_CURRENT_LIST_DIR}/scenario_file.cc)
