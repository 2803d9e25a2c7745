# sim/modelload: model-load studies (a ModelLoadStudy file: strategies to load one
# InferenceService's model after a scale-out), included by src/sim/CMakeLists.txt.
list(APPEND BERTH_SIM_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/study.cc
  ${CMAKE_CURRENT_LIST_DIR}/study_file.cc)
