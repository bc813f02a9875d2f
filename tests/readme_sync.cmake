# Fails unless README.md contains tests/readme_example.c verbatim, so the
# README's API example is the program CTest builds and runs.
#   cmake -DSOURCE_DIR=<repo> -P tests/readme_sync.cmake
# SPDX-License-Identifier: MIT
file(READ "${SOURCE_DIR}/README.md" readme)
file(READ "${SOURCE_DIR}/tests/readme_example.c" example)
string(FIND "${readme}" "${example}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md does not contain tests/readme_example.c verbatim: update one from the other")
endif()
message(STATUS "README example is in sync")

# The README's animation example is the block docs/animation.md shows under
# "Playing run on two characters", which tests/test_playback.c compiles.
file(READ "${SOURCE_DIR}/docs/animation.md" doc)
string(FIND "${doc}" "## Playing run on two characters that share one model" start)
if(start EQUAL -1)
  message(FATAL_ERROR "docs/animation.md lost its two-characters section")
endif()
string(SUBSTRING "${doc}" ${start} -1 doc)
string(FIND "${doc}" "```c\n" open)
math(EXPR open "${open} + 5")
string(SUBSTRING "${doc}" ${open} -1 doc)
string(FIND "${doc}" "```" close)
string(SUBSTRING "${doc}" 0 ${close} block)
string(FIND "${readme}" "${block}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md does not show docs/animation.md's two-characters code verbatim")
endif()
message(STATUS "README animation example is in sync")

# The README's drawing example, under "Draw it", is the region of
# examples/md2_draw_cpu.c between its two README markers (without the marker
# lines), shown as one whole C block; `md2_view --cpu` draws with that code
# in the md2_view_cpu_* tests.
file(READ "${SOURCE_DIR}/examples/md2_draw_cpu.c" draw)
set(begin_marker "/* README: draw begin */\n")
set(end_marker "/* README: draw end */\n")
string(FIND "${draw}" "${begin_marker}" begin)
string(FIND "${draw}" "${end_marker}" end)
string(LENGTH "${begin_marker}" marker_length)
math(EXPR begin "${begin} + ${marker_length}")
if(begin LESS marker_length OR end LESS begin)
  message(FATAL_ERROR "examples/md2_draw_cpu.c lost its '/* README: draw begin */' and "
    "'/* README: draw end */' lines, in that order")
endif()
math(EXPR length "${end} - ${begin}")
string(SUBSTRING "${draw}" ${begin} ${length} block)
string(FIND "${readme}" "\n## Draw it\n" start)
if(start EQUAL -1)
  message(FATAL_ERROR "README.md lost its \"## Draw it\" section")
endif()
math(EXPR start "${start} + 1")
string(SUBSTRING "${readme}" ${start} -1 section)
string(FIND "${section}" "\n## " next)
if(NOT next EQUAL -1)
  string(SUBSTRING "${section}" 0 ${next} section)
endif()
string(FIND "${section}" "\n```c\n${block}```\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md's \"Draw it\" section does not show the code between the "
    "README markers of examples/md2_draw_cpu.c verbatim, as one C block: update one from the other")
endif()
message(STATUS "README drawing example is in sync")
