# `md2 ARGS` with a bad command line (no command, an unknown one, help for
# an unknown one) must exit with 2, print nothing on stdout, and say what is
# wrong, then the usage, on stderr.
#   cmake -DTOOL=path/to/md2 "-DARGS=word;..." -P usage_check.cmake
# SPDX-License-Identifier: MIT
include("${CMAKE_CURRENT_LIST_DIR}/tool_command.cmake")
md2_tool_command(_cmd "${TOOL}")
execute_process(COMMAND ${_cmd} ${ARGS} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out
  ERROR_VARIABLE _err)
if(NOT _rc EQUAL 2)
  message(FATAL_ERROR "md2 ${ARGS}: exit status ${_rc}, expected 2")
endif()
if(NOT _out STREQUAL "")
  message(FATAL_ERROR "md2 ${ARGS}: printed on stdout: ${_out}")
endif()
if(NOT _err MATCHES "usage: md2 COMMAND")
  message(FATAL_ERROR "md2 ${ARGS}: no usage on stderr: ${_err}")
endif()
if(NOT ARGS AND NOT _err MATCHES "^md2: no command given\n")
  message(FATAL_ERROR "md2: stderr does not say that no command was given: ${_err}")
endif()
if(ARGS)
  list(GET ARGS -1 _word)
  if(NOT _err MATCHES "^md2: unknown command '${_word}'")
    message(FATAL_ERROR "md2 ${ARGS}: stderr does not name the unknown command: ${_err}")
  endif()
endif()
message(STATUS "md2 ${ARGS}: exit 2 with the usage on stderr")
