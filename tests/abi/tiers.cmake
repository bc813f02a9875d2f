# The private headers of src/ come in tiers (src/diag.h lists them), each including only headers of its
# own tier or below: 1 diagnostics and allocation, float rounding, the checks of reserved_ members; 2 the
# file format and reading it (the parser's normal-index scan, GL command strips, the builder's frames);
# 3 pose jobs and their kernels; 4 players; 5 meshes (no header); 6 tags, attachments and bundles.
# Public headers count at the tier of what they declare. Every header in src/ must be in the table
# below, so that a new one gets a tier on purpose; the first include from a higher tier fails.
#   cmake -DSRC=<repo>/src -P tests/abi/tiers.cmake
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.16)
if(NOT DEFINED SRC)
  message(FATAL_ERROR "usage: cmake -DSRC=<repo>/src -P tiers.cmake")
endif()
foreach(entry IN ITEMS diag.h:1 round.h:1 reserved.h:1 format.h:2 reader.h:2 normal_scan.h:2
    strips.h:2 build_frames.h:2 pose.h:3 pose_rows.h:3 player.h:4 attach.h:6 md2/md2.h:1
    md2/skin.h:1 md2/build.h:1 md2/animation.h:4 md2/mesh.h:5 md2/tags.h:6 md2/bundle.h:6)
  string(REGEX MATCH "^(.+):([0-9])$" entry "${entry}")
  set(tier_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
endforeach()

file(GLOB headers RELATIVE "${SRC}" "${SRC}/*.h")
set(checked 0)
foreach(h IN LISTS headers)
  if(NOT DEFINED tier_${h})
    message(FATAL_ERROR "src/${h}: not in the tier table of tests/abi/tiers.cmake (give it a tier)")
  endif()
  file(STRINGS "${SRC}/${h}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">].*$" "\\1" inc "${line}")
    if(NOT DEFINED tier_${inc} AND (inc MATCHES "^md2/" OR EXISTS "${SRC}/${inc}"))
      message(FATAL_ERROR "src/${h} includes ${inc}, which has no tier in tests/abi/tiers.cmake")
    elseif(tier_${inc} GREATER tier_${h}) # (a system header, <stdint.h>: below every tier)
      message(FATAL_ERROR "src/${h} (tier ${tier_${h}}) includes ${inc} (tier ${tier_${inc}}): a "
        "header includes only its own tier and those below")
    elseif(DEFINED tier_${inc})
      math(EXPR checked "${checked} + 1")
    endif()
  endforeach()
endforeach()
list(LENGTH headers n)
if(n EQUAL 0)
  message(FATAL_ERROR "no headers in ${SRC}")
endif()
message(STATUS "tiers: ${n} private headers, ${checked} includes of libmd2 headers, none from a higher tier")
