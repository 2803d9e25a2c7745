# Tests of sim/report (included by tests/sim/CMakeLists.txt). report_browser_test renders a
# report in headless Chromium (Debian package `chromium`) and fails when it is missing.
list(APPEND BERTH_SIM_TEST_SRCS
  ${CMAKE_CURRENT_LIST_DIR}/report_browser_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_test_util.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_text_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_writer_test.cc)
