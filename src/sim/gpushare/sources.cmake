# sim/gpushare: the FGD paper's OpenB replay protocol over the gpu module's node model and
# policies (src/gpu): the OpenB reader, arrival order and node ranks, selectHost, the
# arrival buckets and the replay (docs/simulate.md).
list(APPEND BERTH_SIM_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/arrival_buckets.cc
  ${CMAKE_CURRENT_LIST_DIR}/node_selector.cc
  ${CMAKE_CURRENT_LIST_DIR}/openb_reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/replay.cc)
