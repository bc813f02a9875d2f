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
