# berth_module(NAME m SRCS ... DEPS ... [PUBLIC_DEPS ...] [EXTERNAL ...])
#
# Declares the static library berth_<m> with the alias berth::<m>. DEPS are berth modules
# and must be exactly those the DESIGN.md module table allows; the check below fails the
# configure step when a module reaches upward. EXTERNAL are third-party targets, kept
# private to the module that owns them (STYLE.md: one library, one module at the edge).

# Allowed berth dependencies, transcribed from the DESIGN.md module table.
set(BERTH_ALLOWED_DEPS_core "")
set(BERTH_ALLOWED_DEPS_model "core")
set(BERTH_ALLOWED_DEPS_io "model;core")
set(BERTH_ALLOWED_DEPS_cel "core")
set(BERTH_ALLOWED_DEPS_devices "model;cel;core")
set(BERTH_ALLOWED_DEPS_gpu "model;core")
set(BERTH_ALLOWED_DEPS_binding "model;devices;gpu;core")
set(BERTH_ALLOWED_DEPS_queueing "model;core")
set(BERTH_ALLOWED_DEPS_placement "model;cel;core")
set(BERTH_ALLOWED_DEPS_data "model;core")
set(BERTH_ALLOWED_DEPS_dispatch "model;core")
set(BERTH_ALLOWED_DEPS_admission "model;core")
set(BERTH_ALLOWED_DEPS_engine "model;binding;queueing;placement;data;dispatch;admission;devices;gpu;cel;core")
set(BERTH_ALLOWED_DEPS_diag "engine;queueing;placement;devices;cel;gpu;model;core")
set(BERTH_ALLOWED_DEPS_sim "engine;data;gpu;model;core")
set(BERTH_ALLOWED_DEPS_store "model;core")
set(BERTH_ALLOWED_DEPS_server "engine;store;model;core")
set(BERTH_ALLOWED_DEPS_cli "io;engine;binding;queueing;placement;data;dispatch;admission;devices;gpu;cel;model;core;diag;sim;server;store")
# Narrower for includes than for linking (tests/arch/check_includes.cmake): the cli links
# every stage through engine but includes only the entry-point modules' headers; the stage
# result types it prints come re-exported by engine/explain_types.h (src/cli/README.md).
set(BERTH_INCLUDE_DEPS_cli "io;engine;model;core;sim;diag;server;store")

function(berth_module)
  cmake_parse_arguments(M "" "NAME" "SRCS;DEPS;PUBLIC_DEPS;EXTERNAL;PUBLIC_EXTERNAL" ${ARGN})
  if(NOT DEFINED BERTH_ALLOWED_DEPS_${M_NAME})
    message(FATAL_ERROR "berth_module: '${M_NAME}' is not a module of the DESIGN.md table")
  endif()
  foreach(dep IN LISTS M_DEPS M_PUBLIC_DEPS)
    if(NOT dep IN_LIST BERTH_ALLOWED_DEPS_${M_NAME})
      message(FATAL_ERROR "berth_module: '${M_NAME}' may not depend on '${dep}' (DESIGN.md module table)")
    endif()
  endforeach()
  add_library(berth_${M_NAME} STATIC ${M_SRCS})
  add_library(berth::${M_NAME} ALIAS berth_${M_NAME})
  target_include_directories(berth_${M_NAME} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  foreach(dep IN LISTS M_PUBLIC_DEPS)
    target_link_libraries(berth_${M_NAME} PUBLIC berth::${dep})
  endforeach()
  foreach(dep IN LISTS M_DEPS)
    target_link_libraries(berth_${M_NAME} PRIVATE berth::${dep})
  endforeach()
  target_link_libraries(berth_${M_NAME} PRIVATE ${M_EXTERNAL} PUBLIC ${M_PUBLIC_EXTERNAL})
endfunction()

# berth_test(NAME m SRCS ... DEPS ...): one GoogleTest binary per module, berth_<m>_test.
function(berth_test)
  cmake_parse_arguments(T "" "NAME" "SRCS;DEPS;LABELS" ${ARGN})
  add_executable(berth_${T_NAME}_test ${T_SRCS})
  # berth_unit_tests builds every unit-test binary and nothing else (the ASan preset's target).
  if(NOT TARGET berth_unit_tests)
    add_custom_target(berth_unit_tests)
  endif()
  add_dependencies(berth_unit_tests berth_${T_NAME}_test)
  target_include_directories(berth_${T_NAME}_test PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
  foreach(dep IN LISTS T_DEPS)
    target_link_libraries(berth_${T_NAME}_test PRIVATE berth::${dep})
  endforeach()
  target_link_libraries(berth_${T_NAME}_test PRIVATE GTest::gtest GTest::gtest_main GTest::gmock)
  # GoogleTest and GoogleMock headers are parsed once per test binary, not once per file.
  target_precompile_headers(berth_${T_NAME}_test PRIVATE <gtest/gtest.h> <gmock/gmock.h>)
  # The CI preset compiles in unity mode (CMAKE_UNITY_BUILD: sixteen sources per compiler run,
  # which parses the shared headers once instead of sixteen times). Each test file keeps its
  # helpers and tests in `namespace BERTH_UNITY_ID`: a name unique to the file in a unity
  # build, empty (an anonymous namespace) otherwise, so same-named helpers never meet.
  set_target_properties(berth_${T_NAME}_test PROPERTIES UNITY_BUILD_UNIQUE_ID BERTH_UNITY_ID)
  get_target_property(unity berth_${T_NAME}_test UNITY_BUILD)
  if(NOT unity)
    target_compile_definitions(berth_${T_NAME}_test PRIVATE BERTH_UNITY_ID=)
  endif()
  # Test code is thin glue over the modules, which keep their optimization; compiling the
  # test files unoptimized saves most of their build time (BERTH_TEST_OPT, "" keeps the
  # build type's level).
  if(BERTH_TEST_OPT)
    target_compile_options(berth_${T_NAME}_test PRIVATE ${BERTH_TEST_OPT})
  endif()
  set(labels unit)
  if(T_LABELS)
    set(labels ${T_LABELS})
  endif()
  # The whole binary as one test too (label unit_binary): the sanitizer run uses it, because
  # one process per test case pays the sanitizer's start-up hundreds of times.
  add_test(NAME berth_${T_NAME}_test.all COMMAND berth_${T_NAME}_test)
  set_tests_properties(berth_${T_NAME}_test.all PROPERTIES
    LABELS unit_binary WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    ENVIRONMENT "BERTH_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
  gtest_discover_tests(berth_${T_NAME}_test
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES LABELS "${labels}" ENVIRONMENT "BERTH_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
    DISCOVERY_TIMEOUT 60)
endfunction()
