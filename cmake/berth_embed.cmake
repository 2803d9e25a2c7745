# berth_embed_files(): compiles the files of a directory into the binary. At build time
# cmake/embed_files.cmake writes a source defining FUNCTION() (a span of ENTRY{path, text},
# declared in HEADER) from the files under ROOT matching PATTERNS; any change to one of them
# reruns it, and adding a file reruns the configure step (CONFIGURE_DEPENDS). The generated
# source's path is returned in OUT_VAR for the module's SRCS.
#
#   berth_embed_files(BERTH_UI_SOURCE ROOT dir OUTPUT ui_files.cc PATTERNS *.html *.js
#     HEADER server/ui/ui_assets.h NAMESPACE berth::server FUNCTION EmbeddedUiFiles
#     ENTRY EmbeddedUiFile [RECURSE] COMMENT "what")
function(berth_embed_files out_var)
  cmake_parse_arguments(E "RECURSE" "ROOT;OUTPUT;HEADER;NAMESPACE;FUNCTION;ENTRY;COMMENT"
                        "PATTERNS" ${ARGN})
  set(globs)
  foreach(pattern ${E_PATTERNS})
    list(APPEND globs ${E_ROOT}/${pattern})
  endforeach()
  if(E_RECURSE)
    file(GLOB_RECURSE files CONFIGURE_DEPENDS ${globs})
    set(recurse -DRECURSE=ON)
  else()
    file(GLOB files CONFIGURE_DEPENDS ${globs})
    set(recurse)
  endif()
  list(JOIN E_PATTERNS "|" patterns)
  set(source ${CMAKE_CURRENT_BINARY_DIR}/${E_OUTPUT})
  add_custom_command(
    OUTPUT ${source}
    COMMAND ${CMAKE_COMMAND} -DROOT=${E_ROOT} -DOUTPUT=${source} "-DPATTERNS=${patterns}"
            ${recurse} -DHEADER=${E_HEADER} -DNAMESPACE=${E_NAMESPACE} -DFUNCTION=${E_FUNCTION}
            -DENTRY=${E_ENTRY} -P ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
    COMMENT "${E_COMMENT}"
    VERBATIM)
  # Each generated source names its tables kFile0.. in an anonymous namespace: two in one
  # unity batch would collide, and they are compiled once anyway.
  set_source_files_properties(${source} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  set(${out_var} ${source} PARENT_SCOPE)
endfunction()
