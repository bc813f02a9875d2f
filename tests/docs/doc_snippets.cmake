# Extracts every ```c block of a Markdown file into one C file, so that the
# code the documentation shows is compiled and linked against the real
# headers on every build: a doc that falls behind the API breaks the build.
#   cmake -DDOC=<file.md> -DOUT=<file.c> -P doc_snippets.cmake
# The blocks, which must be whole declarations and functions, are joined in
# order after the usual includes. Their own #include lines are dropped (the
# prelude has them), and so are lines that repeat a callback typedef of the
# public header to show it (C99 forbids a typedef twice). A main() that
# returns 0 ends the file.
# SPDX-License-Identifier: MIT
file(READ "${DOC}" text)
# one list element a line; CMake lists split at ';' (except inside
# brackets), so hide those characters first
string(REPLACE ";" "@SEMICOLON@" text "${text}")
string(REPLACE "[" "@LBRACKET@" text "${text}")
string(REPLACE "]" "@RBRACKET@" text "${text}")
string(REPLACE "\n" ";" lines "${text}")
set(code "/* generated from ${DOC} by tests/docs/doc_snippets.cmake */\n")
string(APPEND code "#include <md2/animation.h>\n#include <md2/build.h>\n#include <md2/md2.h>\n")
string(APPEND code "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n")
set(in_c OFF)
set(blocks 0)
foreach(line IN LISTS lines)
  if(line STREQUAL "```c")
    set(in_c ON)
    math(EXPR blocks "${blocks} + 1")
    string(APPEND code "\n")
  elseif(in_c AND line MATCHES "^```")
    set(in_c OFF)
  elseif(in_c AND NOT line MATCHES "^#include" AND
         NOT line MATCHES "^typedef [a-z_ ]+\\(\\*md2_[a-z_]+_fn\\)")
    string(APPEND code "${line}\n")
  endif()
endforeach()
if(blocks EQUAL 0)
  message(FATAL_ERROR "${DOC} has no ```c blocks")
endif()
string(REPLACE "@SEMICOLON@" ";" code "${code}")
string(REPLACE "@LBRACKET@" "[" code "${code}")
string(REPLACE "@RBRACKET@" "]" code "${code}")
string(APPEND code "\nint main(void)\n{\n    return 0;\n}\n")
file(WRITE "${OUT}.tmp" "${code}")
configure_file("${OUT}.tmp" "${OUT}" COPYONLY)
file(REMOVE "${OUT}.tmp")
