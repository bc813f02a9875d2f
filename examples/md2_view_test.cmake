# One md2_view screenshot test (registered in examples/CMakeLists.txt):
# renders MODEL with SKIN offscreen under xvfb-run, then md2_view_check
# compares the picture with the box md2_view printed and with the skin.
#
#   cmake -DVIEWER=... -DCHECKER=... -DXVFB_RUN=... -DMODEL=... -DSKIN=...
#         -DOUT=picture.ppm -DBG=RRGGBB [-DVIEW_ARGS=a|b|c] [-DCHECK_ARGS=a|b]
#         [-DVERTEX_BOX=ON] [-DOPTIONAL=ON] [-DVIEWER_ENV=VAR=value]
#         [-DREFERENCE_ARGS=a|b|c [-DMAX_DIFFERENT_PIXELS=N]
#          [-DCHANNEL_TOLERANCE=T]]
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
# REFERENCE_ARGS: after the checks, md2_view draws a second picture with
# these arguments instead of VIEW_ARGS (the same pose by another path: the
# --cpu tests' reference is the GPU path), and the two must be the same
# picture: at most MAX_DIFFERENT_PIXELS (default 0) pixels may differ by
# more than CHANNEL_TOLERANCE (default 0) in a colour channel. EXPECT: a
# regular expression md2_view's output must match ("triangles 162").
# ATTACH_MARK=RRGGBB: the model md2_view drew on a tag (--attach) has a skin
# of that one colour; instead of the model's box, md2_view_check --mark
# checks that its pixels come within 2 pixels of "attach-origin" (the tag
# origin's projection: the attached model's origin, a weapon's grip) and
# lie inside "attach-vertex-bbox" grown by 2 pixels; ATTACH_REACH=SIDES:
# and reach it within 2 pixels on those sides (md2_view_check's --reach).
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
# render(<picture> <args...>): md2_view's screenshot of MODEL into
# <picture>; its standard output goes to _out in the caller.
function(render picture)
  set(_cmd ${_env} "${XVFB_RUN}" -a -s "-screen 0 1024x768x24"
    "${VIEWER}" "${MODEL}" --screenshot "${picture}" --skin "${SKIN}" --bg "${BG}" ${ARGN})
  list(JOIN _cmd " " _cmdline)
  message("+ ${_cmdline}")
  execute_process(COMMAND ${_cmd} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  message("${_out}${_err}")
  if(NOT _rc STREQUAL "0")
    message(FATAL_ERROR "md2_view failed (${_rc})")
  endif()
  set(_out "${_out}" PARENT_SCOPE)
endfunction()

render("${OUT}" ${_view_args})
if(NOT "${EXPECT}" STREQUAL "" AND NOT _out MATCHES "${EXPECT}")
  message(FATAL_ERROR "md2_view's output does not match '${EXPECT}'")
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

if(ATTACH_MARK)
  # the first attached model (md2_view prints one line of each per model)
  if(NOT _out MATCHES "\nattach-origin (-?[0-9.]+) (-?[0-9.]+)\n")
    message(FATAL_ERROR "md2_view printed no 'attach-origin x y' line")
  endif()
  set(_origin "${CMAKE_MATCH_1}" "${CMAKE_MATCH_2}")
  if(NOT _out MATCHES "\nattach-vertex-bbox (-?[0-9]+) (-?[0-9]+) (-?[0-9]+) (-?[0-9]+)")
    message(FATAL_ERROR "md2_view printed no 'attach-vertex-bbox x0 y0 x1 y1' line")
  endif()
  set(_box "${CMAKE_MATCH_1}" "${CMAKE_MATCH_2}" "${CMAKE_MATCH_3}" "${CMAKE_MATCH_4}")
  set(_cmd "${CHECKER}" --mark "${OUT}" "${ATTACH_MARK}" --near ${_origin} --box ${_box})
  if(ATTACH_REACH)
    list(APPEND _cmd --reach "${ATTACH_REACH}")
  endif()
  list(JOIN _cmd " " _cmdline)
  message("+ ${_cmdline}")
  execute_process(COMMAND ${_cmd} RESULT_VARIABLE _rc)
  if(NOT _rc STREQUAL "0")
    message(FATAL_ERROR "md2_view_check --mark failed (${_rc}): the attached model is not on its tag")
  endif()
else()
  check("projected-bbox" ${_check_args})
endif()
if(VERTEX_BOX)
  check("projected-vertex-bbox" --no-colors)
endif()

# read_ppm(<file> <prefix>): the binary PPM md2_view wrote, as <prefix>_w,
# <prefix>_h and <prefix>_hex (the pixels in lower-case hex, 6 digits each).
function(read_ppm file prefix)
  file(READ "${file}" _head LIMIT 32)
  if(NOT _head MATCHES "^P6\n([0-9]+) ([0-9]+)\n255\n")
    message(FATAL_ERROR "${file} is not a PPM as md2_view writes them")
  endif()
  string(LENGTH "${CMAKE_MATCH_0}" _offset)
  set(${prefix}_w "${CMAKE_MATCH_1}" PARENT_SCOPE)
  set(${prefix}_h "${CMAKE_MATCH_2}" PARENT_SCOPE)
  file(READ "${file}" _hex OFFSET ${_offset} HEX)
  set(${prefix}_hex "${_hex}" PARENT_SCOPE)
endfunction()

# The same pose drawn another way must be the same picture.
if(NOT "${REFERENCE_ARGS}" STREQUAL "")
  if(NOT DEFINED MAX_DIFFERENT_PIXELS OR "${MAX_DIFFERENT_PIXELS}" STREQUAL "")
    set(MAX_DIFFERENT_PIXELS 0)
  endif()
  if(NOT DEFINED CHANNEL_TOLERANCE OR "${CHANNEL_TOLERANCE}" STREQUAL "")
    set(CHANNEL_TOLERANCE 0)
  endif()
  string(REPLACE "|" ";" _reference_args "${REFERENCE_ARGS}")
  string(REGEX REPLACE "\\.ppm$" "" _reference "${OUT}")
  set(_reference "${_reference}_reference.ppm")
  file(REMOVE "${_reference}")
  render("${_reference}" ${_reference_args})
  read_ppm("${OUT}" _a)
  read_ppm("${_reference}" _b)
  if(NOT _a_w EQUAL _b_w OR NOT _a_h EQUAL _b_h)
    message(FATAL_ERROR "the pictures differ in size: ${_a_w}x${_a_h} and ${_b_w}x${_b_h}")
  endif()
  math(EXPR _row "${_a_w} * 6")
  math(EXPR _pixels "${_a_w} * ${_a_h}")
  set(_different 0)
  if(NOT _a_hex STREQUAL _b_hex)
    # row by row; pixel by pixel in the rows that differ
    math(EXPR _last_y "${_a_h} - 1")
    math(EXPR _last_x "${_a_w} - 1")
    foreach(_y RANGE ${_last_y})
      math(EXPR _at "${_y} * ${_row}")
      string(SUBSTRING "${_a_hex}" ${_at} ${_row} _ra)
      string(SUBSTRING "${_b_hex}" ${_at} ${_row} _rb)
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
        set(_far 0)
        foreach(_c IN ITEMS 0 2 4)
          string(SUBSTRING "${_pa}" ${_c} 2 _ca)
          string(SUBSTRING "${_pb}" ${_c} 2 _cb)
          math(EXPR _d "0x${_ca} - 0x${_cb}")
          if(_d GREATER CHANNEL_TOLERANCE OR _d LESS -${CHANNEL_TOLERANCE})
            set(_far 1)
          endif()
        endforeach()
        if(_far)
          math(EXPR _different "${_different} + 1")
          if(_different LESS_EQUAL 5)
            message("pixel (${_x}, ${_y}): ${_pa} and ${_pb} in the reference")
          endif()
        endif()
      endforeach()
    endforeach()
  endif()
  message("${_different} of ${_pixels} pixels differ from the reference picture by more than "
    "${CHANNEL_TOLERANCE} in a channel (at most ${MAX_DIFFERENT_PIXELS} may)")
  if(_different GREATER MAX_DIFFERENT_PIXELS)
    message(FATAL_ERROR "the picture is not the reference picture: ${_different} pixels differ")
  endif()
endif()
