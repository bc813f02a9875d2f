# docs/rendering.md shows md2_view's vertex shader: the GLSL block there must
# equal the vertex_shader_src string of examples/md2_view.c, line by line.
#   cmake -DSOURCE_DIR=<repository root> -P tests/docs/shader_sync.cmake
# SPDX-License-Identifier: MIT
file(READ "${SOURCE_DIR}/examples/md2_view.c" c_text)
file(READ "${SOURCE_DIR}/docs/rendering.md" md_text)
# CMake lists split at ';' and brackets: hide them while lists are used
foreach(var c_text md_text)
  string(REPLACE ";" "@SEMICOLON@" ${var} "${${var}}")
  string(REPLACE "[" "@LBRACKET@" ${var} "${${var}}")
  string(REPLACE "]" "@RBRACKET@" ${var} "${${var}}")
endforeach()
# the C string: the quoted pieces between "vertex_shader_src =" and ";"
string(FIND "${c_text}" "static const char *const vertex_shader_src =" at)
if(at EQUAL -1)
  message(FATAL_ERROR "examples/md2_view.c has no vertex_shader_src")
endif()
string(SUBSTRING "${c_text}" ${at} -1 c_text)
string(FIND "${c_text}" "\"@SEMICOLON@\n" end)
string(SUBSTRING "${c_text}" 0 ${end} c_text)
string(REGEX MATCHALL "\"[^\n]*\\\\n" pieces "${c_text}")
set(shader "")
foreach(piece IN LISTS pieces)
  string(REGEX REPLACE "^\"" "" piece "${piece}")
  string(REGEX REPLACE "\\\\n$" "" piece "${piece}")
  string(APPEND shader "${piece}\n")
endforeach()
# the Markdown block
string(FIND "${md_text}" "```glsl\n" start)
if(start EQUAL -1)
  message(FATAL_ERROR "docs/rendering.md has no ```glsl block")
endif()
math(EXPR start "${start} + 8")
string(SUBSTRING "${md_text}" ${start} -1 md_text)
string(FIND "${md_text}" "```" end)
string(SUBSTRING "${md_text}" 0 ${end} block)
if(NOT block STREQUAL shader OR shader STREQUAL "")
  message(FATAL_ERROR "docs/rendering.md's GLSL differs from md2_view's vertex shader:\n"
    "--- docs ---\n${block}--- md2_view.c ---\n${shader}")
endif()
message(STATUS "docs/rendering.md shows md2_view's vertex shader verbatim")
