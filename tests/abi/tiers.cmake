# The private headers of src/ come in tiers, each including only those of
# its own tier or below (src/diag.h lists them):
#
#   1  diag.h round.h          diagnostics and allocation; float rounding;
#      reserved.h              the checks of reserved_ members
#   2  format.h reader.h       the file format and reading it (and
#      normal_scan.h strips.h  the parser's normal-index scan, GL command
#      build_frames.h          strips, the builder's frames)
#   3  pose.h pose_rows.h      pose jobs and their kernels
#   4  player.h                players
#   5  (none)                  meshes
#   6  attach.h                tags and attachments
#
# Public headers count at the tier of what they declare: md2.h, skin.h and
# build.h 1, animation.h 4, mesh.h 5, tags.h and bundle.h 6. Every header in src/ must
# be in the table, so a new one gets a tier on purpose. Reads the #include lines
# of every src/*.h and fails on the first include from a higher tier.
#
#   cmake -DSRC=<repo>/src -P tests/abi/tiers.cmake
#
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.16)

if(NOT DEFINED SRC)
  message(FATAL_ERROR "usage: cmake -DSRC=<repo>/src -P tiers.cmake")
endif()

set(tier_diag.h 1)
set(tier_round.h 1)
set(tier_reserved.h 1)
set(tier_format.h 2)
set(tier_reader.h 2)
set(tier_normal_scan.h 2)
set(tier_strips.h 2)
set(tier_build_frames.h 2)
set(tier_pose.h 3)
set(tier_pose_rows.h 3)
set(tier_player.h 4)
set(tier_attach.h 6)
set(tier_md2/md2.h 1)
set(tier_md2/skin.h 1)
set(tier_md2/build.h 1)
set(tier_md2/animation.h 4)
set(tier_md2/mesh.h 5)
set(tier_md2/tags.h 6)
set(tier_md2/bundle.h 6)

file(GLOB headers RELATIVE "${SRC}" "${SRC}/*.h")
if(NOT headers)
  message(FATAL_ERROR "no headers in ${SRC}")
endif()
set(errors 0)
set(checked 0)
foreach(h IN LISTS headers)
  if(NOT DEFINED tier_${h})
    message(SEND_ERROR "src/${h}: not in the tier table of tests/abi/tiers.cmake (give it a tier)")
    math(EXPR errors "${errors} + 1")
    continue()
  endif()
  set(own ${tier_${h}})
  file(STRINGS "${SRC}/${h}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">].*$" "\\1" inc "${line}")
    if(NOT DEFINED tier_${inc})
      # a system header (<stdint.h>, <emmintrin.h>): below every tier
      if(inc MATCHES "^md2/" OR EXISTS "${SRC}/${inc}")
        message(SEND_ERROR "src/${h} includes ${inc}, which has no tier in tests/abi/tiers.cmake")
        math(EXPR errors "${errors} + 1")
      endif()
      continue()
    endif()
    math(EXPR checked "${checked} + 1")
    if(tier_${inc} GREATER own)
      message(SEND_ERROR "src/${h} (tier ${own}) includes ${inc} (tier ${tier_${inc}}): a header includes only its own tier and those below")
      math(EXPR errors "${errors} + 1")
    endif()
  endforeach()
endforeach()
list(LENGTH headers n)
if(errors GREATER 0)
  message(FATAL_ERROR "${errors} tier violation(s) in ${n} private headers")
endif()
message(STATUS "tiers: ${n} private headers, ${checked} includes of libmd2 headers, none from a higher tier")
