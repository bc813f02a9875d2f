# docs/rendering.md shows md2_view's vertex shader: its ```glsl block must equal, line by line,
# the vertex_shader_src string of examples/md2_view.c.
#   cmake -DSOURCE_DIR=<repository root> -P tests/docs/shader_sync.cmake
# SPDX-License-Identifier: MIT
file(READ "${SOURCE_DIR}/examples/md2_view.c" c)
file(READ "${SOURCE_DIR}/docs/rendering.md" md)
string(FIND "${c}" "\nstatic const char *const vertex_shader_src =\n" at)
string(FIND "${md}" "\n```glsl\n" start)
if(at EQUAL -1 OR start EQUAL -1)
  message(FATAL_ERROR "examples/md2_view.c has no vertex_shader_src, or docs/rendering.md no ```glsl block")
endif()
# the C string's pieces, one a line ("...\n"), to the first that ends the declaration
math(EXPR at "${at} + 46")
string(SUBSTRING "${c}" ${at} -1 c)
string(FIND "${c}" "\";\n" end)
math(EXPR end "${end} + 1")
string(SUBSTRING "${c}" 0 ${end} c)
string(REGEX REPLACE "[ \t]*\"([^\n]*)\\\\n\"(\n|$)" "\\1\n" shader "${c}")
math(EXPR start "${start} + 9")
string(SUBSTRING "${md}" ${start} -1 md)
string(FIND "${md}" "```" end)
string(SUBSTRING "${md}" 0 ${end} block)
if(NOT block STREQUAL shader OR shader STREQUAL "")
  message(FATAL_ERROR "docs/rendering.md's GLSL differs from md2_view's vertex shader:\n"
    "--- docs ---\n${block}--- md2_view.c ---\n${shader}")
endif()
message(STATUS "docs/rendering.md shows md2_view's vertex shader verbatim")
