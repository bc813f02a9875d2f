# Fails if a module that promises never to allocate calls an allocator.
#   cmake -DFILES="a.c|b.c" -P tests/scripts/no_alloc.cmake
# SPDX-License-Identifier: MIT
string(REPLACE "|" ";" FILES "${FILES}")
foreach(f IN LISTS FILES)
  file(READ "${f}" text)
  # drop comments, then look for allocation calls
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" code "${text}")
  if(code MATCHES "(^|[^a-z_])(malloc|calloc|realloc|free|md2__allocator|alloc)[ \t]*\\(")
    message(FATAL_ERROR "${f} calls ${CMAKE_MATCH_2}(): it must not allocate")
  endif()
endforeach()
message(STATUS "no allocation calls in: ${FILES}")
