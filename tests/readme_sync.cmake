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
