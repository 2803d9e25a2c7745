# sim/trace: trace readers (Philly, Pollux, berth CSV/JSONL) and tenant -> queue mapping.
list(APPEND BERTH_SIM_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/trace.cc
  ${CMAKE_CURRENT_LIST_DIR}/reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/philly_reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/pollux_reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/berth_format.cc
  ${CMAKE_CURRENT_LIST_DIR}/tenant_mapping.cc
  ${CMAKE_CURRENT_LIST_DIR}/queued_trace.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/text.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/fields.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/berth_row.cc)
