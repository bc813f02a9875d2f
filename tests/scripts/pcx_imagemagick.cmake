# libmd2's PCX code against ImageMagick, a judge nobody here wrote (a CMake script, not a shell one:
# `ctest -T memcheck` runs it under valgrind, which would report a shell's subshells).
#   cmake -DTEST_SKIN=<test_skin> -DWORK_DIR=<dir> [-DCOMMITTED_DIR=<dir>] -P pcx_imagemagick.cmake
# md2_pcx_decode() (test pcx_imagemagick): ImageMagick writes PCX files (8-bit paletted and 24-bit) of
# test_skin's images of varied colours and odd sizes, and decodes them and test_skin's hand-made files with
# the quirks of real ones (padded scanlines, runs across scanlines and planes, a last run past the image,
# empty runs, a window away from 0) to raw RGBA; test_skin must decode each to exactly those pixels. With
# COMMITTED_DIR, the committed .rgba fixtures must be ImageMagick's pixels. Fails without ImageMagick.
#   cmake -DTEST_SKIN=<test_skin> -DREGENERATE=tests/data/pcx -P pcx_imagemagick.cmake
# writes the ImageMagick fixtures only (tests/data/pcx is made so).
#   cmake -DTEST_PCX_WRITE=<test_pcx_write> -DWORK_DIR=<dir> -P pcx_imagemagick.cmake
# md2_pcx_encode() (test pcx_encode_imagemagick): test_pcx_write writes PCX files (odd and even
# widths, a single pixel, a row and a column, long runs of high palette indices, 256 colours, an
# indexed image and the example skin) with the pixels each must show, and ImageMagick must read each
# as an 8-bit paletted image of its size and colours, to exactly those pixels. Without ImageMagick it
# prints MD2_PCX_ENCODE_SKIPPED (a skip), but fails with CI=true in the environment (tests/run.sh's CI).
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)
if(REGENERATE)
  set(WORK_DIR "${REGENERATE}")
endif()
if(NOT (TEST_SKIN OR TEST_PCX_WRITE) OR NOT WORK_DIR)
  message(FATAL_ERROR "usage: see ${CMAKE_CURRENT_LIST_FILE}")
endif()
find_program(CONVERT convert)
find_program(IDENTIFY identify)
if(NOT CONVERT OR NOT IDENTIFY)
  set(_missing "ImageMagick's convert and identify were not found")
  if(TEST_PCX_WRITE AND NOT "$ENV{CI}" STREQUAL "true")
    message("MD2_PCX_ENCODE_SKIPPED: ${_missing}")
    return()
  endif()
  message(FATAL_ERROR "${_missing}: install ImageMagick (Debian/Ubuntu: apt-get install "
                      "imagemagick; tests/run.sh does it); CI must not skip this test")
endif()

function(run what)
  execute_process(${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# fields(<line> <names>...): the blank-separated fields of a MANIFEST line, one a variable.
macro(fields line)
  separate_arguments(_fields UNIX_COMMAND "${line}")
  list(POP_FRONT _fields ${ARGN})
endmacro()

# rgba(<pcx> <rgba> <w> <h> [<expected rgba> <message>]): ImageMagick's pixels of a PCX file, w x h
# of them, and, when given, exactly those of <expected rgba>.
function(rgba pcx out w h)
  run("convert ${pcx} to RGBA" COMMAND "${CONVERT}" "${pcx}" -depth 8 "rgba:${out}")
  file(SIZE "${out}" n)
  math(EXPR want "${w} * ${h} * 4")
  if(NOT n EQUAL want)
    message(FATAL_ERROR "${out}: ${n} bytes, want ${want}")
  elseif(ARGC GREATER 4)
    file(SHA256 "${out}" a)
    file(SHA256 "${ARGV4}" b)
    if(NOT a STREQUAL b)
      message(FATAL_ERROR "${ARGV5} (${out} differs from ${ARGV4})")
    endif()
  endif()
endfunction()

run("${CONVERT} -version" COMMAND "${CONVERT}" -version)
string(REGEX MATCH "Version: [^\n]*" version "${run_output}")
message(STATUS "${version}")
if(REGENERATE)
  file(GLOB old "${WORK_DIR}/*.pcx" "${WORK_DIR}/*.rgba")
  file(REMOVE ${old} "${WORK_DIR}/SOURCES") # (SOURCES: a leftover, if any, and never empty arguments)
else()
  file(REMOVE_RECURSE "${WORK_DIR}")
endif()
file(MAKE_DIRECTORY "${WORK_DIR}")

if(TEST_PCX_WRITE)
  run("test_pcx_write --write-encoded" COMMAND "${TEST_PCX_WRITE}" --write-encoded "${WORK_DIR}")
  file(STRINGS "${WORK_DIR}/MANIFEST" entries)
  list(LENGTH entries count)
  if(count LESS 10)
    message(FATAL_ERROR "${WORK_DIR}/MANIFEST lists ${count} files, want at least 10")
  endif()
  foreach(line IN LISTS entries)
    fields("${line}" name w h colours)
    set(pcx "${WORK_DIR}/${name}.pcx")
    run("identify ${name}.pcx" COMMAND "${IDENTIFY}" -format "%r|%z|%w|%h|%k" "${pcx}")
    if(NOT run_output MATCHES "^PseudoClass[^|]*\\|8\\|${w}\\|${h}\\|${colours}$")
      message(FATAL_ERROR "${pcx}: identify says '${run_output}', want 'PseudoClass ...|8|${w}|${h}|${colours}'")
    endif()
    rgba("${pcx}" "${WORK_DIR}/${name}.imagemagick.rgba" ${w} ${h} "${WORK_DIR}/${name}.rgba"
      "ImageMagick reads ${pcx} to other pixels than md2_pcx_encode() was given")
  endforeach()
  message(STATUS "ImageMagick reads all ${count} files md2_pcx_encode() wrote to the pixels it was given")
  return()
endif()

# 1. The source images (from test_skin), as 8-bit and 24-bit PCX: really 8 bits a pixel, paletted or
#    not, in 1 or 3 planes.
run("test_skin --write-sources" COMMAND "${TEST_SKIN}" --write-sources "${WORK_DIR}")
file(STRINGS "${WORK_DIR}/SOURCES" sources)
set(manifest "")
foreach(line IN LISTS sources)
  fields("${line}" name w h)
  set(ppm "${WORK_DIR}/${name}.ppm")
  run("convert ${name} to 8-bit PCX" COMMAND "${CONVERT}" "${ppm}" -colors 256 -type Palette "PCX:${WORK_DIR}/${name}-8.pcx")
  run("convert ${name} to 24-bit PCX" COMMAND "${CONVERT}" "${ppm}" -type TrueColor "PCX:${WORK_DIR}/${name}-24.pcx")
  file(REMOVE "${ppm}")
  foreach(bits_planes_class IN ITEMS "8 1 PseudoClass" "24 3 DirectClass")
    fields("${bits_planes_class}" bits planes class)
    set(pcx "${WORK_DIR}/${name}-${bits}.pcx")
    run("identify ${pcx}" COMMAND "${IDENTIFY}" -format "%r %z %w %h" "${pcx}")
    if(NOT run_output MATCHES "^${class} .* 8 ${w} ${h}$")
      message(FATAL_ERROR "${pcx}: identify says '${run_output}', want '${class} ... 8 ${w} ${h}'")
    endif()
    file(READ "${pcx}" hex OFFSET 3 LIMIT 1 HEX) # bits_per_pixel
    file(READ "${pcx}" nplanes OFFSET 65 LIMIT 1 HEX)
    if(NOT hex STREQUAL "08" OR NOT nplanes STREQUAL "0${planes}")
      message(FATAL_ERROR "${pcx}: bits_per_pixel 0x${hex}, nplanes 0x${nplanes}; want 8 and ${planes}")
    endif()
    string(APPEND manifest "${name}-${bits} ${planes} ${w} ${h}\n")
  endforeach()
endforeach()
file(REMOVE "${WORK_DIR}/SOURCES")
file(WRITE "${WORK_DIR}/MANIFEST" "${manifest}")

# 2. The hand-made files (added to the MANIFEST by test_skin); 3. ImageMagick's pixels of every file.
if(NOT REGENERATE)
  run("test_skin --write-handmade" COMMAND "${TEST_SKIN}" --write-handmade "${WORK_DIR}")
endif()
file(STRINGS "${WORK_DIR}/MANIFEST" entries)
list(LENGTH entries count)
foreach(line IN LISTS entries)
  fields("${line}" name planes w h)
  rgba("${WORK_DIR}/${name}.pcx" "${WORK_DIR}/${name}.rgba" ${w} ${h})
endforeach()
if(REGENERATE)
  message(STATUS "${count} ImageMagick fixtures written to ${WORK_DIR}")
  return()
endif()

# 4. md2_pcx_decode() gives the same pixels.
run("test_skin --compare (md2_pcx_decode() vs ImageMagick)" COMMAND "${TEST_SKIN}" --compare "${WORK_DIR}")
message("${run_output}")

# 5. The committed fixtures' pixels are ImageMagick's.
if(COMMITTED_DIR)
  file(STRINGS "${COMMITTED_DIR}/MANIFEST" committed)
  list(LENGTH committed n)
  if(n EQUAL 0)
    message(FATAL_ERROR "${COMMITTED_DIR}/MANIFEST lists no files")
  endif()
  foreach(line IN LISTS committed)
    fields("${line}" name planes w h)
    rgba("${COMMITTED_DIR}/${name}.pcx" "${WORK_DIR}/committed-${name}.rgba" ${w} ${h}
      "${COMMITTED_DIR}/${name}.rgba" "${COMMITTED_DIR}/${name}.rgba is not ImageMagick's decoding of ${name}.pcx")
  endforeach()
  message(STATUS "the ${n} committed fixtures in ${COMMITTED_DIR} hold ImageMagick's pixels")
endif()
message(STATUS "md2_pcx_decode() gives ImageMagick's pixels for all ${count} files")
