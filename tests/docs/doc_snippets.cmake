# Extracts every ```c block of a Markdown file into one C file, so that the code the documentation shows
# is compiled and linked against the real headers on every build: a doc behind the API breaks the build.
#   cmake -DDOC=<file.md> -DOUT=<file.c> -P doc_snippets.cmake
# The blocks, which must be whole declarations and functions, are joined in order after the usual
# includes. Their own #include lines are dropped (the prelude has them), and so are callback typedefs of
# the public header shown again (C99 forbids a typedef twice). A main() returning 0 ends the file.
# SPDX-License-Identifier: MIT
file(READ "${DOC}" rest)
set(code "")
while(rest MATCHES "\n```c\n")
  string(FIND "${rest}" "\n```c\n" at)
  math(EXPR at "${at} + 6")
  string(SUBSTRING "${rest}" ${at} -1 rest)
  string(FIND "${rest}" "\n```" end)
  math(EXPR end "${end} + 1")
  string(SUBSTRING "${rest}" 0 ${end} block)
  string(APPEND code "\n${block}")
  string(SUBSTRING "${rest}" ${end} -1 rest)
endwhile()
if(code STREQUAL "")
  message(FATAL_ERROR "${DOC} has no ```c blocks")
endif()
string(REGEX REPLACE "\n(#include|typedef [a-z_ ]+\\(\\*md2_[a-z_]+_fn\\))[^\n]*" "" code "${code}")
file(WRITE "${OUT}.tmp" "/* generated from ${DOC} by tests/docs/doc_snippets.cmake */\n"
  "#include <md2/animation.h>\n#include <md2/build.h>\n#include <md2/md2.h>\n"
  "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n${code}\nint main(void)\n{\n    return 0;\n}\n")
configure_file("${OUT}.tmp" "${OUT}" COPYONLY)
file(REMOVE "${OUT}.tmp")
