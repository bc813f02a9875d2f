# One md2_view message test (registered in examples/CMakeLists.txt): runs
# md2_view with ARGS ('|'-separated; under xvfb-run when XVFB_RUN is given)
# and checks its exit status and what it printed (stdout and stderr
# together). With MD2_TOOL_VALGRIND set in the environment (tests/run.sh's
# valgrind pass, as for the md2 command's cases) and no XVFB_RUN, md2_view
# runs under valgrind, and an error or a leak of any kind fails the test.
#
#   cmake -DVIEWER=... [-DXVFB_RUN=...] -DARGS=a|b|c -DEXIT=N -DMATCH=regex
#         [-DNOT_MATCH=regex] [-DVIEWER_ENV=VAR=value] -P md2_view_message.cmake
#
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)
foreach(_var IN ITEMS VIEWER EXIT MATCH)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "md2_view_message.cmake: -D${_var}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" _args "${ARGS}")
set(_cmd "${VIEWER}" ${_args})
if(XVFB_RUN)
  set(_cmd "${XVFB_RUN}" -a -s "-screen 0 1024x768x24" ${_cmd})
elseif(DEFINED ENV{MD2_TOOL_VALGRIND})
  find_program(_valgrind valgrind)
  if(NOT _valgrind)
    message(FATAL_ERROR "MD2_TOOL_VALGRIND is set, but there is no valgrind")
  endif()
  set(_cmd "${_valgrind}" -q --error-exitcode=125 --leak-check=full
    --errors-for-leak-kinds=all --show-leak-kinds=all ${_cmd})
endif()
if(VIEWER_ENV)
  set(_cmd "${CMAKE_COMMAND}" -E env "${VIEWER_ENV}" ${_cmd})
endif()
list(JOIN _cmd " " _cmdline)
message("+ ${_cmdline}")
execute_process(COMMAND ${_cmd} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("${_out}${_err}")
if(NOT _rc STREQUAL "${EXIT}")
  message(FATAL_ERROR "md2_view exited with ${_rc}, not ${EXIT}")
endif()
if(NOT "${_out}${_err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "md2_view's output does not match '${MATCH}'")
endif()
if(NOT "${NOT_MATCH}" STREQUAL "" AND "${_out}${_err}" MATCHES "${NOT_MATCH}")
  message(FATAL_ERROR "md2_view's output matches '${NOT_MATCH}', which it must not")
endif()
