# Included by the top-level CMakeLists.txt before the modules when BERTH_FUZZ is ON. The
# targets in this folder link libFuzzer's main (-fsanitize=fuzzer, fuzz/CMakeLists.txt); here
# the berth libraries get what fuzzing needs from them:
#  - coverage instrumentation (-fsanitize=fuzzer-no-link), so libFuzzer sees edges inside the
#    readers; BERTH_FUZZ_COVERAGE=OFF leaves it out, for a build that only replays the
#    committed corpora and fuzzes briefly (the CI build: same objects as its unit tests);
#  - ASan+UBSan, unless BERTH_SANITIZE already adds them (the CI preset).
# Line tables only: symbolized stacks without the cost of full debug info.
option(BERTH_FUZZ_COVERAGE "Instrument berth's libraries for libFuzzer's coverage" ON)
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "BERTH_FUZZ needs clang (libFuzzer): configure with "
                      "-DCMAKE_CXX_COMPILER=clang++ (docs/fuzzing.md)")
endif()
if(BERTH_SANITIZE)
  if(BERTH_FUZZ_COVERAGE)
    add_compile_options(-fsanitize=fuzzer-no-link)
  endif()
else()
  if(BERTH_FUZZ_COVERAGE)
    add_compile_options(-fsanitize=fuzzer-no-link,address,undefined)
  else()
    add_compile_options(-fsanitize=address,undefined)
  endif()
  add_compile_options(-fno-sanitize-recover=undefined -fno-omit-frame-pointer
                      -gline-tables-only)
  add_link_options(-fsanitize=address,undefined)
endif()
