# sim/trace tests: readers (Philly, Pollux, berth CSV/JSONL), cell parsers, tenant mapping.
list(APPEND BERTH_SIM_TEST_SRCS
  ${CMAKE_CURRENT_LIST_DIR}/trace_test_util.cc
  ${CMAKE_CURRENT_LIST_DIR}/trace_fields_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/trace_philly_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/trace_pollux_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/trace_berth_format_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/trace_tenant_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/trace_reader_test.cc)
