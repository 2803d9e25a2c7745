# sim/modelload tests: the ModelLoadStudy reader, the study run (hand-computed times from the
# data module's default bandwidths) and its report.
list(APPEND BERTH_SIM_TEST_SRCS
  ${CMAKE_CURRENT_LIST_DIR}/modelload_study_file_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/modelload_study_test.cc)
