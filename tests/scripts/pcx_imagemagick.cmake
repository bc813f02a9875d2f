# md2_pcx_decode() against ImageMagick. ImageMagick writes PCX files (8-bit
# paletted and 24-bit) of images of varied colours and odd sizes, and
# decodes them to raw RGBA; test_skin decodes the same files and must get
# exactly those pixels. Hand-made files with the quirks of real ones
# (padded scanlines, runs across scanlines and planes, a last run past the
# image, empty runs, a window away from 0), written by test_skin, are
# decoded by both too. Fails when ImageMagick is missing: CI must not skip.
# (A CMake script, not a shell one: `ctest -T memcheck` runs it under
# valgrind, which would report a shell's subshells.)
#
#   cmake -DTEST_SKIN=<test_skin> -DWORK_DIR=<dir> [-DCOMMITTED_DIR=<dir>]
#         -P tests/scripts/pcx_imagemagick.cmake
#       the check (CTest test pcx_imagemagick); with COMMITTED_DIR, also
#       that the committed fixtures' .rgba files are ImageMagick's pixels
#   cmake -DTEST_SKIN=<test_skin> -DREGENERATE=tests/data/pcx
#         -P tests/scripts/pcx_imagemagick.cmake
#       writes the ImageMagick fixtures only (tests/data/pcx is made so)
#
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)

find_program(CONVERT convert)
find_program(IDENTIFY identify)
if(NOT CONVERT OR NOT IDENTIFY)
  message(FATAL_ERROR "ImageMagick's convert and identify were not found: install ImageMagick "
                      "(Debian/Ubuntu: apt-get install imagemagick; tests/run.sh does it)")
endif()
if(NOT TEST_SKIN)
  message(FATAL_ERROR "usage: cmake -DTEST_SKIN=<test_skin> -DWORK_DIR=<dir> [-DCOMMITTED_DIR=<dir>] -P ${CMAKE_CURRENT_LIST_FILE}")
endif()
if(REGENERATE)
  set(WORK_DIR "${REGENERATE}")
elseif(NOT WORK_DIR)
  message(FATAL_ERROR "WORK_DIR is not set")
endif()

# run(<what> COMMAND ...): runs a command, fails with its output if it fails.
function(run what)
  execute_process(${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# byte_at(<var> <file> <offset>): the byte at offset, as a decimal number.
function(byte_at var file offset)
  file(READ "${file}" hex OFFSET ${offset} LIMIT 1 HEX)
  math(EXPR value "0x${hex}")
  set(${var} ${value} PARENT_SCOPE)
endfunction()

# read_list(<var> <file>): the lines of a file, without empty ones.
function(read_list var file)
  file(STRINGS "${file}" lines)
  set(${var} "${lines}" PARENT_SCOPE)
endfunction()

run("${CONVERT} -version" COMMAND "${CONVERT}" -version)
string(REGEX MATCH "Version: [^\n]*" version "${run_output}")
message(STATUS "${version}")

if(REGENERATE)
  file(GLOB old "${WORK_DIR}/*.pcx" "${WORK_DIR}/*.rgba")
  if(old)
    file(REMOVE ${old})
  endif()
else()
  file(REMOVE_RECURSE "${WORK_DIR}")
endif()
file(MAKE_DIRECTORY "${WORK_DIR}")

# 1. The source images (from test_skin), as 8-bit and 24-bit PCX.
run("test_skin --write-sources" COMMAND "${TEST_SKIN}" --write-sources "${WORK_DIR}")
read_list(sources "${WORK_DIR}/SOURCES")
set(manifest "")
foreach(line IN LISTS sources)
  separate_arguments(fields UNIX_COMMAND "${line}")
  list(GET fields 0 name)
  list(GET fields 1 w)
  list(GET fields 2 h)
  set(ppm "${WORK_DIR}/${name}.ppm")
  run("convert ${name} to 8-bit PCX"
      COMMAND "${CONVERT}" "${ppm}" -colors 256 -type Palette "PCX:${WORK_DIR}/${name}-8.pcx")
  run("convert ${name} to 24-bit PCX"
      COMMAND "${CONVERT}" "${ppm}" -type TrueColor "PCX:${WORK_DIR}/${name}-24.pcx")
  file(REMOVE "${ppm}")
  foreach(bits 8 24)
    set(pcx "${WORK_DIR}/${name}-${bits}.pcx")
    if(bits EQUAL 8)
      set(planes 1)
      set(class PseudoClass)
    else()
      set(planes 3)
      set(class DirectClass)
    endif()
    # really 8 bits a pixel, paletted or not, in 1 or 3 planes
    run("identify ${pcx}" COMMAND "${IDENTIFY}" -format "%r %z %w %h" "${pcx}")
    if(NOT run_output MATCHES "^${class} .* 8 ${w} ${h}$")
      message(FATAL_ERROR "${pcx}: identify says '${run_output}', want '${class} ... 8 ${w} ${h}'")
    endif()
    byte_at(bpp "${pcx}" 3)
    byte_at(nplanes "${pcx}" 65)
    if(NOT bpp EQUAL 8 OR NOT nplanes EQUAL planes)
      message(FATAL_ERROR "${pcx}: bits_per_pixel ${bpp}, nplanes ${nplanes}; want 8 and ${planes}")
    endif()
    string(APPEND manifest "${name}-${bits} ${planes} ${w} ${h}\n")
  endforeach()
endforeach()
file(REMOVE "${WORK_DIR}/SOURCES")
file(WRITE "${WORK_DIR}/MANIFEST" "${manifest}")

# 2. The hand-made files (added to the MANIFEST by test_skin).
if(NOT REGENERATE)
  run("test_skin --write-handmade" COMMAND "${TEST_SKIN}" --write-handmade "${WORK_DIR}")
endif()

# 3. ImageMagick's pixels of every file.
read_list(entries "${WORK_DIR}/MANIFEST")
list(LENGTH entries count)
foreach(line IN LISTS entries)
  separate_arguments(fields UNIX_COMMAND "${line}")
  list(GET fields 0 name)
  list(GET fields 2 w)
  list(GET fields 3 h)
  run("convert ${name}.pcx to RGBA"
      COMMAND "${CONVERT}" "${WORK_DIR}/${name}.pcx" -depth 8 "rgba:${WORK_DIR}/${name}.rgba")
  file(SIZE "${WORK_DIR}/${name}.rgba" n)
  math(EXPR want "${w} * ${h} * 4")
  if(NOT n EQUAL want)
    message(FATAL_ERROR "${WORK_DIR}/${name}.rgba: ${n} bytes, want ${want}")
  endif()
endforeach()
if(REGENERATE)
  message(STATUS "${count} ImageMagick fixtures written to ${WORK_DIR}")
  return()
endif()

# 4. md2_pcx_decode() gives the same pixels.
execute_process(COMMAND "${TEST_SKIN}" --compare "${WORK_DIR}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "md2_pcx_decode() differs from ImageMagick (test_skin --compare ${WORK_DIR})")
endif()

# 5. The committed fixtures' pixels are ImageMagick's.
if(COMMITTED_DIR)
  read_list(committed "${COMMITTED_DIR}/MANIFEST")
  list(LENGTH committed n)
  if(n EQUAL 0)
    message(FATAL_ERROR "${COMMITTED_DIR}/MANIFEST lists no files")
  endif()
  foreach(line IN LISTS committed)
    separate_arguments(fields UNIX_COMMAND "${line}")
    list(GET fields 0 name)
    set(fresh "${WORK_DIR}/committed-${name}.rgba")
    run("convert committed ${name}.pcx to RGBA"
        COMMAND "${CONVERT}" "${COMMITTED_DIR}/${name}.pcx" -depth 8 "rgba:${fresh}")
    file(SHA256 "${fresh}" a)
    file(SHA256 "${COMMITTED_DIR}/${name}.rgba" b)
    if(NOT a STREQUAL b)
      message(FATAL_ERROR "${COMMITTED_DIR}/${name}.rgba is not ImageMagick's decoding of ${name}.pcx")
    endif()
  endforeach()
  message(STATUS "the ${n} committed fixtures in ${COMMITTED_DIR} hold ImageMagick's pixels")
endif()
message(STATUS "md2_pcx_decode() gives ImageMagick's pixels for all ${count} files")
