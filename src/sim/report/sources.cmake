# sim/report: summary.json, metrics.csv, report.html and the progress bar (included by
# src/sim/CMakeLists.txt).
list(APPEND BERTH_SIM_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/html_report.cc
  ${CMAKE_CURRENT_LIST_DIR}/metrics_csv.cc
  ${CMAKE_CURRENT_LIST_DIR}/progress_bar.cc
  ${CMAKE_CURRENT_LIST_DIR}/summary_json.cc
  ${CMAKE_CURRENT_LIST_DIR}/write_report.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/html_tables.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/run_groups.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/svg_chart.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/text.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/write_file.cc
  ${CMAKE_CURRENT_LIST_DIR}/model_load_report.cc)
