# sim/gpushare: the OpenB reader, berth's policy replayed, and the replay protocol (the node
# model and the policies themselves are tested in tests/gpu/).
list(APPEND BERTH_SIM_TEST_SRCS
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_berth_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_plan_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_reader_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_replay_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_selector_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_test_util.cc)
