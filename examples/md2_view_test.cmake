# One md2_view test (md2_view_test(), cmake/md2_testing.cmake): a screenshot (-DMODEL, -DSKIN) or a message
# (-DEXIT); lists are '|'-separated. Screenshot: md2_view draws MODEL with SKIN offscreen (XVFB_RUN) on BG
# into OUT (VIEW_ARGS after its own); md2_view_check (CHECK_ARGS) compares the model's pixels with
# "projected-bbox" (the pose's bounding box, projected) and, with VERTEX_BOX, within 2 pixels a side with
# "projected-vertex-bbox" (the vertices projected on the CPU: it holds in every view). OPTIONAL: a missing
# model or skin skips (MD2_VIEW_SKIPPED). VIEWER_ENV: for md2_view only (ASAN_OPTIONS=detect_leaks=0 under
# ASan: Mesa's llvmpipe leaks memory of its own). EXPECT: md2_view's output matches it. ATTACH_MARK: the
# model drawn on a tag (--attach) has a skin of that one colour, and md2_view_check --mark checks, instead
# of the box, that its pixels come within 2 pixels of "attach-origin" (the tag origin projected: a weapon's
# grip) and lie inside "attach-vertex-bbox" grown by 2, reaching it within 2 on the ATTACH_REACH sides.
# REFERENCE_ARGS: the pose drawn with these instead (another path: the GPU for --cpu tests) differs in at
# most MAX_DIFFERENT_PIXELS (default 0) pixels by more than CHANNEL_TOLERANCE (default 0) in a channel.
# Message (EXIT): md2_view with VIEW_ARGS (under xvfb-run with XVFB_RUN) exits with EXIT and prints (stdout,
# stderr) what matches EXPECT and not NOT_MATCH; with MD2_TOOL_VALGRIND set (tests/run.sh's valgrind pass)
# and no XVFB_RUN, it runs under valgrind: an error or a leak of any kind fails.
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)
string(REPLACE "|" ";" _view_args "${VIEW_ARGS}")

# run(<args...>): md2_view with <args> (under xvfb-run with XVFB_RUN, with VIEWER_ENV); its exit
# status in _rc and what it printed in _out in the caller.
function(run)
  set(_cmd "${VIEWER}" ${ARGN})
  if(XVFB_RUN)
    set(_cmd "${XVFB_RUN}" -a -s "-screen 0 1024x768x24" ${_cmd})
  elseif(DEFINED ENV{MD2_TOOL_VALGRIND})
    find_program(VALGRIND valgrind REQUIRED) # MD2_TOOL_VALGRIND is set: no valgrind is an error
    set(_cmd "${VALGRIND}" -q --error-exitcode=125 --leak-check=full --errors-for-leak-kinds=all
      --show-leak-kinds=all ${_cmd})
  endif()
  if(VIEWER_ENV)
    set(_cmd "${CMAKE_COMMAND}" -E env "${VIEWER_ENV}" ${_cmd})
  endif()
  list(JOIN _cmd " " _cmdline)
  message("+ ${_cmdline}")
  execute_process(COMMAND ${_cmd} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  message("${_out}${_err}")
  set(_rc "${_rc}" PARENT_SCOPE)
  set(_out "${_out}${_err}" PARENT_SCOPE)
endfunction()

if(NOT "${EXIT}" STREQUAL "")
  run(${_view_args})
  if(NOT _rc STREQUAL "${EXIT}")
    message(FATAL_ERROR "md2_view exited with ${_rc}, not ${EXIT}")
  elseif(NOT _out MATCHES "${EXPECT}")
    message(FATAL_ERROR "md2_view's output does not match '${EXPECT}'")
  elseif(NOT "${NOT_MATCH}" STREQUAL "" AND _out MATCHES "${NOT_MATCH}")
    message(FATAL_ERROR "md2_view's output matches '${NOT_MATCH}', which it must not")
  endif()
  return()
endif()

foreach(_file IN ITEMS "${MODEL}" "${SKIN}")
  if(NOT EXISTS "${_file}" AND OPTIONAL)
    message("MD2_VIEW_SKIPPED: ${_file} is not there")
    return()
  elseif(NOT EXISTS "${_file}")
    message(FATAL_ERROR "md2_view_test.cmake: ${_file} is not there")
  endif()
endforeach()

function(render picture)
  file(REMOVE "${picture}")
  run("${MODEL}" --screenshot "${picture}" --skin "${SKIN}" --bg "${BG}" ${ARGN})
  if(NOT _rc STREQUAL "0")
    message(FATAL_ERROR "md2_view failed (${_rc})")
  endif()
  set(_out "${_out}" PARENT_SCOPE)
endfunction()

function(check what)
  list(JOIN ARGN " " _cmdline)
  message("+ ${CHECKER} ${_cmdline}")
  execute_process(COMMAND "${CHECKER}" ${ARGN} RESULT_VARIABLE _rc)
  if(NOT _rc STREQUAL "0")
    message(FATAL_ERROR "md2_view_check failed (${_rc}) ${what}")
  endif()
endfunction()

# box(<label> <var>): the numbers md2_view printed after <label> (x0 y0 x1 y1, or x y).
function(box label var)
  if(NOT _out MATCHES "\n${label}(( -?[0-9.]+)+)\n")
    message(FATAL_ERROR "md2_view printed no '${label} ...' line")
  endif()
  separate_arguments(_numbers UNIX_COMMAND "${CMAKE_MATCH_1}")
  set(${var} ${_numbers} PARENT_SCOPE)
endfunction()

render("${OUT}" ${_view_args})
if(NOT "${EXPECT}" STREQUAL "" AND NOT _out MATCHES "${EXPECT}")
  message(FATAL_ERROR "md2_view's output does not match '${EXPECT}'")
endif()
string(REPLACE "|" ";" _check_args "${CHECK_ARGS}")
if(ATTACH_MARK) # the first attached model (md2_view prints one line of each per model)
  box(attach-origin _origin)
  box(attach-vertex-bbox _box)
  string(REGEX REPLACE "^(.+)$" "--reach;\\1" _reach "${ATTACH_REACH}") # --reach <sides>, when given
  check("--mark: the attached model is not on its tag" --mark "${OUT}" "${ATTACH_MARK}"
    --near ${_origin} --box ${_box} ${_reach})
else()
  box(projected-bbox _box)
  check("against projected-bbox" "${OUT}" "${SKIN}" --bg "${BG}" --bbox ${_box} ${_check_args})
endif()
if(VERTEX_BOX)
  box(projected-vertex-bbox _box)
  check("against projected-vertex-bbox" "${OUT}" "${SKIN}" --bg "${BG}" --bbox ${_box} --no-colors)
endif()
if("${REFERENCE_ARGS}" STREQUAL "")
  return()
endif()

# The same pose drawn another way must be the same picture, compared row by row, and pixel
# by pixel in the rows that differ (the binary PPMs md2_view writes, in hex).
math(EXPR MAX_DIFFERENT_PIXELS "0${MAX_DIFFERENT_PIXELS}") # (empty: 0)
math(EXPR CHANNEL_TOLERANCE "0${CHANNEL_TOLERANCE}")
string(REGEX REPLACE "\\.ppm$" "_reference.ppm" _reference "${OUT}")
string(REPLACE "|" ";" _reference_args "${REFERENCE_ARGS}")
render("${_reference}" ${_reference_args})
foreach(_p IN ITEMS OUT _reference)
  file(READ "${${_p}}" _head LIMIT 32)
  if(NOT _head MATCHES "^P6\n([0-9]+) ([0-9]+)\n255\n")
    message(FATAL_ERROR "${${_p}} is not a PPM as md2_view writes them")
  endif()
  set(_w ${CMAKE_MATCH_1})
  set(_h ${CMAKE_MATCH_2})
  set(_size_${_p} "${_w}x${_h}")
  string(LENGTH "${CMAKE_MATCH_0}" _offset)
  file(READ "${${_p}}" _hex_${_p} OFFSET ${_offset} HEX)
endforeach()
if(NOT _size_OUT STREQUAL _size__reference)
  message(FATAL_ERROR "the pictures differ in size: ${_size_OUT} and ${_size__reference}")
endif()
math(EXPR _row "${_w} * 6")
math(EXPR _pixels "${_w} * ${_h}")
math(EXPR _last_y "${_h} - 1")
math(EXPR _last_x "${_w} - 1")
set(_different 0)
foreach(_y RANGE ${_last_y})
  math(EXPR _at "${_y} * ${_row}")
  string(SUBSTRING "${_hex_OUT}" ${_at} ${_row} _ra)
  string(SUBSTRING "${_hex__reference}" ${_at} ${_row} _rb)
  if(_ra STREQUAL _rb)
    continue()
  endif()
  foreach(_x RANGE ${_last_x})
    math(EXPR _px "${_x} * 6")
    string(SUBSTRING "${_ra}" ${_px} 6 _pa)
    string(SUBSTRING "${_rb}" ${_px} 6 _pb)
    if(_pa STREQUAL _pb)
      continue()
    endif()
    foreach(_c IN ITEMS 0 2 4) # a pixel with a channel too far counts once
      string(SUBSTRING "${_pa}" ${_c} 2 _ca)
      string(SUBSTRING "${_pb}" ${_c} 2 _cb)
      math(EXPR _d "0x${_ca} - 0x${_cb}")
      if(_d GREATER CHANNEL_TOLERANCE OR _d LESS -${CHANNEL_TOLERANCE})
        math(EXPR _different "${_different} + 1")
        if(_different LESS_EQUAL 5)
          message("pixel (${_x}, ${_y}): ${_pa} and ${_pb} in the reference")
        endif()
        break()
      endif()
    endforeach()
  endforeach()
endforeach()
message("${_different} of ${_pixels} pixels differ from the reference picture by more than "
  "${CHANNEL_TOLERANCE} in a channel (at most ${MAX_DIFFERENT_PIXELS} may)")
if(_different GREATER MAX_DIFFERENT_PIXELS)
  message(FATAL_ERROR "the picture is not the reference picture: ${_different} pixels differ")
endif()
