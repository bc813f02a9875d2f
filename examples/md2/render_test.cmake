# One `md2 render` test run as a script (registered in render.cmake): runs
# the command once, or twice, and checks its exit status, its messages and
# what it left on disk. (TOOL may also be another program, such as
# `render_check --same-pixels`: ARGS are then its arguments.)
#
#   cmake -DTOOL=<md2> -DARGS=a|b|c -DRC=<status> [-DERR=<regex>]
#         [-DSTDOUT=<regex>] [-DOUT=<path>] [-DKEEP=ON] [-DSAME=<path>]
#         -P render_test.cmake
#
# ARGS: '|'-separated arguments after `md2`. ERR / STDOUT: what standard
# error / output must match. OUT: the output the arguments name: with
# RC 0 it must exist afterwards; otherwise it must not (and no temporary
# OUT.tmp-md2 may be left), or with KEEP=ON a file there before the run must
# be left as it was. SAME: runs again with OUT replaced by SAME in the
# arguments; the two files must be the same bytes (one build, one libpng).
# RC 2, a usage error: stdout must be empty, and stderr must be the message
# on one line, "md2 render: ...", followed by the usage's synopsis.
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)

foreach(_var IN ITEMS TOOL ARGS RC)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "render_test.cmake: -D${_var}=... is required")
  endif()
endforeach()

string(REPLACE "|" ";" _args "${ARGS}")
set(_keep_text "an older file that a failed render must leave alone\n")
if(OUT)
  file(REMOVE "${OUT}" "${OUT}.tmp-md2")
  if(KEEP)
    file(WRITE "${OUT}" "${_keep_text}")
  endif()
endif()

include("${CMAKE_CURRENT_LIST_DIR}/tool_command.cmake")
md2_tool_command(_tool "${TOOL}")

function(run_tool)
  list(JOIN ARGN " " _line)
  message("+ md2 ${_line}")
  execute_process(COMMAND ${_tool} ${ARGN}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  message("exit ${_rc}\n--- stdout\n${_out}--- stderr\n${_err}---")
  if(NOT _rc STREQUAL "${RC}")
    message(FATAL_ERROR "expected exit status ${RC}, got ${_rc}")
  endif()
  if(DEFINED ERR AND NOT _err MATCHES "${ERR}")
    message(FATAL_ERROR "standard error does not match '${ERR}'")
  endif()
  if(DEFINED STDOUT AND NOT _out MATCHES "${STDOUT}")
    message(FATAL_ERROR "standard output does not match '${STDOUT}'")
  endif()
  if(RC STREQUAL "2")
    if(NOT _out STREQUAL "")
      message(FATAL_ERROR "a usage error printed on standard output")
    endif()
    if(NOT _err MATCHES "^md2 render: [^\n]*\nusage: md2 render MODEL -o OUT\\.png ")
      message(FATAL_ERROR "standard error is not the message, then the usage")
    endif()
  endif()
endfunction()

run_tool(${_args})

if(OUT)
  if(EXISTS "${OUT}.tmp-md2")
    message(FATAL_ERROR "${OUT}.tmp-md2 was left behind")
  endif()
  if(RC STREQUAL "0")
    if(NOT EXISTS "${OUT}")
      message(FATAL_ERROR "${OUT} was not written")
    endif()
  elseif(KEEP)
    file(READ "${OUT}" _now)
    if(NOT _now STREQUAL _keep_text)
      message(FATAL_ERROR "the failed render changed ${OUT}")
    endif()
  elseif(EXISTS "${OUT}")
    message(FATAL_ERROR "the failed render wrote ${OUT}")
  endif()
endif()

if(SAME)
  file(REMOVE "${SAME}")
  string(REPLACE "${OUT}" "${SAME}" _again "${_args}")
  run_tool(${_again})
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}" "${SAME}"
    RESULT_VARIABLE _diff)
  if(NOT _diff EQUAL 0)
    message(FATAL_ERROR "two renders of the same arguments differ: ${OUT} ${SAME}")
  endif()
  message("the two renders are the same bytes")
endif()
