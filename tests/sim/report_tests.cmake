# Tests of sim/report (included by tests/sim/CMakeLists.txt).
list(APPEND BERTH_SIM_TEST_SRCS
  ${CMAKE_CURRENT_LIST_DIR}/report_text_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_writer_test.cc)
