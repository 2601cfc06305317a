# Files that C++ compiles in and another side reads as they are (one source for both): the Python
# package's model code and settings (core/), the web page's template, style and script
# (resources/web, ui/). Each becomes a raw string literal in <current binary dir>/generated/OUTPUT,
# included where it is used; CMake reconfigures when the file changes, and rewrites OUTPUT only
# when its text changed (so nothing recompiles for nothing).
function(alignscope_embed_file FILE OUTPUT)
  file(READ ${FILE} text)
  string(FIND "${text}" ")ALIGNSCOPEPY\"" end)
  if(NOT end EQUAL -1)
    message(FATAL_ERROR "${FILE} must not contain ')ALIGNSCOPEPY\"' (the end of the raw string it is compiled in as)")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${FILE})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/generated/${OUTPUT})
  file(WRITE ${out}.new "R\"ALIGNSCOPEPY(${text})ALIGNSCOPEPY\"\n")
  file(COPY_FILE ${out}.new ${out} ONLY_IF_DIFFERENT)
endfunction()
