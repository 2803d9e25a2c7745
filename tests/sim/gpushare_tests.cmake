# sim/gpushare: the OpenB reader, the GPU-sharing node model and GPU choice, the six FGD
# policies and berth's, typical pods and fragmentation, arrival bucketing and the replay protocol.
list(APPEND BERTH_SIM_TEST_SRCS
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_berth_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_frag_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_node_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_policy_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_reader_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_replay_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpushare_test_util.cc)
