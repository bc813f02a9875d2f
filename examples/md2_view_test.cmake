# One md2_view screenshot test (registered in examples/CMakeLists.txt):
# renders MODEL with SKIN offscreen under xvfb-run, then md2_view_check
# compares the picture with the box md2_view printed and with the skin.
#
#   cmake -DVIEWER=... -DCHECKER=... -DXVFB_RUN=... -DMODEL=... -DSKIN=...
#         -DOUT=picture.ppm -DBG=RRGGBB [-DVIEW_ARGS=a|b|c] [-DCHECK_ARGS=a|b]
#         [-DVERTEX_BOX=ON] [-DOPTIONAL=ON] [-DVIEWER_ENV=VAR=value]
#         -P md2_view_test.cmake
#
# VIEW_ARGS and CHECK_ARGS are '|'-separated extra arguments for md2_view
# and md2_view_check. The checker compares the model's pixels with
# "projected-bbox" (the projected corners of the pose's bounding box); with
# VERTEX_BOX=ON it also compares them, within 2 pixels on every side, with
# "projected-vertex-bbox" (the pose's vertices projected on the CPU), which
# holds in every view. OPTIONAL=ON: a missing model or skin skips the test
# (it prints MD2_VIEW_SKIPPED, the test's SKIP_REGULAR_EXPRESSION).
# VIEWER_ENV: an environment variable set for md2_view only (the ASan build
# sets ASAN_OPTIONS=detect_leaks=0 there: Mesa's llvmpipe driver leaks
# memory of its own; md2_view_check keeps leak detection).
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)

foreach(_var IN ITEMS VIEWER CHECKER XVFB_RUN MODEL SKIN OUT BG)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "md2_view_test.cmake: -D${_var}=... is required")
  endif()
endforeach()

foreach(_file IN ITEMS "${MODEL}" "${SKIN}")
  if(NOT EXISTS "${_file}")
    if(OPTIONAL)
      message("MD2_VIEW_SKIPPED: ${_file} is not there")
      return()
    endif()
    message(FATAL_ERROR "md2_view_test.cmake: ${_file} is not there")
  endif()
endforeach()

string(REPLACE "|" ";" _view_args "${VIEW_ARGS}")
string(REPLACE "|" ";" _check_args "${CHECK_ARGS}")
file(REMOVE "${OUT}")

set(_env "")
if(VIEWER_ENV)
  set(_env "${CMAKE_COMMAND}" -E env "${VIEWER_ENV}")
endif()
set(_cmd ${_env} "${XVFB_RUN}" -a -s "-screen 0 1024x768x24"
  "${VIEWER}" "${MODEL}" --screenshot "${OUT}" --skin "${SKIN}" --bg "${BG}" ${_view_args})
list(JOIN _cmd " " _cmdline)
message("+ ${_cmdline}")
execute_process(COMMAND ${_cmd} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("${_out}${_err}")
if(NOT _rc STREQUAL "0")
  message(FATAL_ERROR "md2_view failed (${_rc})")
endif()

# check(<label> <checker args...>): runs md2_view_check against the box
# md2_view printed after <label>.
function(check label)
  if(NOT _out MATCHES "${label} (-?[0-9]+) (-?[0-9]+) (-?[0-9]+) (-?[0-9]+)")
    message(FATAL_ERROR "md2_view printed no '${label} x0 y0 x1 y1' line")
  endif()
  set(_box "${CMAKE_MATCH_1}" "${CMAKE_MATCH_2}" "${CMAKE_MATCH_3}" "${CMAKE_MATCH_4}")
  set(_cmd "${CHECKER}" "${OUT}" "${SKIN}" --bg "${BG}" --bbox ${_box} ${ARGN})
  list(JOIN _cmd " " _cmdline)
  message("+ ${_cmdline}")
  execute_process(COMMAND ${_cmd} RESULT_VARIABLE _rc)
  if(NOT _rc STREQUAL "0")
    message(FATAL_ERROR "md2_view_check failed (${_rc}) against ${label}")
  endif()
endfunction()

check("projected-bbox" ${_check_args})
if(VERTEX_BOX)
  check("projected-vertex-bbox" --no-colors)
endif()
