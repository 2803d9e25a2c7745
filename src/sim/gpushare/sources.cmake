# sim/gpushare: the GPU-sharing node model, the FGD paper's six policies and berth's own, the
# typical-pod fragmentation measure and the OpenB replay protocol (docs/simulate.md).
list(APPEND BERTH_SIM_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/arrival_buckets.cc
  ${CMAKE_CURRENT_LIST_DIR}/berth_scorer.cc
  ${CMAKE_CURRENT_LIST_DIR}/fgd_whatif.cc
  ${CMAKE_CURRENT_LIST_DIR}/fragment_memo.cc
  ${CMAKE_CURRENT_LIST_DIR}/fragmentation.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_choice.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_cluster.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_model_table.cc
  ${CMAKE_CURRENT_LIST_DIR}/node_selector.cc
  ${CMAKE_CURRENT_LIST_DIR}/node_state.cc
  ${CMAKE_CURRENT_LIST_DIR}/openb_reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/policy.cc
  ${CMAKE_CURRENT_LIST_DIR}/policy_scorers.cc
  ${CMAKE_CURRENT_LIST_DIR}/replay.cc
  ${CMAKE_CURRENT_LIST_DIR}/typical_pods.cc)
