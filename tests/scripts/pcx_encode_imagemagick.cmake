# md2_pcx_encode() against ImageMagick: test_pcx_write writes PCX files with
# md2_pcx_encode() (odd and even widths, a single pixel, a row and a
# column, long runs of high palette indices, 256 colours, an indexed image
# and the example skin) with the pixels each must show, and ImageMagick must
# read every file as an 8-bit paletted image of its size and colours, to
# exactly those pixels. A judge nobody here wrote.
#
# Without ImageMagick the test is skipped (it prints MD2_PCX_ENCODE_SKIPPED,
# the test's SKIP_REGULAR_EXPRESSION), except with CI=true in the
# environment, as tests/run.sh runs under CI: then it fails, so CI never
# skips it (tests/run.sh installs ImageMagick).
#
#   cmake -DTEST_PCX_WRITE=<test_pcx_write> -DWORK_DIR=<dir>
#         -P tests/scripts/pcx_encode_imagemagick.cmake
#
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)

if(NOT TEST_PCX_WRITE OR NOT WORK_DIR)
  message(FATAL_ERROR "usage: cmake -DTEST_PCX_WRITE=<test_pcx_write> -DWORK_DIR=<dir> -P ${CMAKE_CURRENT_LIST_FILE}")
endif()

find_program(CONVERT convert)
find_program(IDENTIFY identify)
if(NOT CONVERT OR NOT IDENTIFY)
  if("$ENV{CI}" STREQUAL "true")
    message(FATAL_ERROR "ImageMagick's convert and identify were not found, and CI=true: CI must "
                        "not skip this test (Debian/Ubuntu: apt-get install imagemagick; "
                        "tests/run.sh does it)")
  endif()
  message("MD2_PCX_ENCODE_SKIPPED: ImageMagick's convert and identify were not found")
  return()
endif()

# run(<what> COMMAND ...): runs a command, fails with its output if it fails.
function(run what)
  execute_process(${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

run("${CONVERT} -version" COMMAND "${CONVERT}" -version)
string(REGEX MATCH "Version: [^\n]*" version "${run_output}")
message(STATUS "${version}")

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
run("test_pcx_write --write-encoded" COMMAND "${TEST_PCX_WRITE}" --write-encoded "${WORK_DIR}")

file(STRINGS "${WORK_DIR}/MANIFEST" entries)
list(LENGTH entries count)
if(count LESS 10)
  message(FATAL_ERROR "${WORK_DIR}/MANIFEST lists ${count} files, want at least 10")
endif()
foreach(line IN LISTS entries)
  separate_arguments(fields UNIX_COMMAND "${line}")
  list(GET fields 0 name)
  list(GET fields 1 w)
  list(GET fields 2 h)
  list(GET fields 3 colours)
  set(pcx "${WORK_DIR}/${name}.pcx")
  # an 8-bit paletted image of its size, with its number of colours
  run("identify ${name}.pcx" COMMAND "${IDENTIFY}" -format "%r|%z|%w|%h|%k" "${pcx}")
  if(NOT run_output MATCHES "^PseudoClass[^|]*\\|8\\|${w}\\|${h}\\|${colours}$")
    message(FATAL_ERROR "${pcx}: identify says '${run_output}', want 'PseudoClass ...|8|${w}|${h}|${colours}'")
  endif()
  # and exactly the pixels md2_pcx_encode() was given
  set(got "${WORK_DIR}/${name}.imagemagick.rgba")
  run("convert ${name}.pcx to RGBA" COMMAND "${CONVERT}" "${pcx}" -depth 8 "rgba:${got}")
  file(SIZE "${got}" n)
  math(EXPR want_size "${w} * ${h} * 4")
  if(NOT n EQUAL want_size)
    message(FATAL_ERROR "${got}: ${n} bytes, want ${want_size}")
  endif()
  file(SHA256 "${got}" a)
  file(SHA256 "${WORK_DIR}/${name}.rgba" b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "ImageMagick reads ${pcx} to other pixels than md2_pcx_encode() was "
                        "given (${got} differs from ${WORK_DIR}/${name}.rgba)")
  endif()
endforeach()
message(STATUS "ImageMagick reads all ${count} files md2_pcx_encode() wrote to the pixels it was given")
