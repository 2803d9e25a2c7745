# sim/core: virtual clock, event queue, deterministic RNG, run metrics (included by
# src/sim/CMakeLists.txt).
list(APPEND BERTH_SIM_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/event.cc
  ${CMAKE_CURRENT_LIST_DIR}/event_loop.cc
  ${CMAKE_CURRENT_LIST_DIR}/event_queue.cc
  ${CMAKE_CURRENT_LIST_DIR}/metrics_recorder.cc
  ${CMAKE_CURRENT_LIST_DIR}/rng.cc
  ${CMAKE_CURRENT_LIST_DIR}/stats.cc)
