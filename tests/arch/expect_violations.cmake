cmake_minimum_required(VERSION 3.25)
# Runs check_includes.cmake on a fixture tree (-DSRC=...) that breaks the internal/ rule and
# fails unless the check fails and names each violation (-DEXPECT="line;line") and no
# allowed include (-DALLOWED="text;text"). Keeps the check itself tested.
execute_process(
  COMMAND ${CMAKE_COMMAND} -DSRC=${SRC} -P ${CMAKE_CURRENT_LIST_DIR}/check_includes.cmake
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "check_includes passed on a tree with violations:\n${all}")
endif()
foreach(e IN LISTS EXPECT)
  string(FIND "${all}" "${e}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "check_includes did not report '${e}':\n${all}")
  endif()
endforeach()
foreach(a IN LISTS ALLOWED)
  string(FIND "${all}" "${a}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "check_includes reported an allowed include '${a}':\n${all}")
  endif()
endforeach()
message(STATUS "check_includes rejects the fixture's foreign internal/ includes")
