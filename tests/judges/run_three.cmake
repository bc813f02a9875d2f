# The three.js judge of one MD2 file (tests/judges/judges.cmake): node runs
# three_md2.mjs (MD2Loader.parse of the file's bytes), then md2_judge_three
# compares what MD2Loader made with libmd2.
#
#   cmake -DNODE=node -DNPM=DIR -DSCRIPT=three_md2.mjs -DJUDGE=md2_judge_three
#         -DMODEL=FILE.md2 -DDUMP=OUT.dump -DREPORT=OUT.json [-DMODEL_OPTIONAL=1]
#         -P run_three.cmake
#
# MODEL_OPTIONAL: an absent MODEL (a corpus model) skips the test (CTest's
# SKIP_REGULAR_EXPRESSION matches the message) instead of failing it.
#
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)

foreach(_var IN ITEMS NODE NPM SCRIPT JUDGE MODEL DUMP REPORT)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "run_three.cmake: -D${_var}= is needed")
  endif()
endforeach()

if(MODEL_OPTIONAL AND NOT EXISTS "${MODEL}")
  message("${MODEL}: three.js: skipped: the file is absent (it is optional: a corpus model)")
  return()
endif()

file(REMOVE "${DUMP}" "${REPORT}")
execute_process(COMMAND "${NODE}" "${SCRIPT}" --npm "${NPM}" "${MODEL}" "${DUMP}"
                RESULT_VARIABLE _status)
if(NOT _status EQUAL 0)
  message(FATAL_ERROR "${MODEL}: three.js: three_md2.mjs did not write ${DUMP} (${_status})")
endif()
execute_process(COMMAND "${JUDGE}" --report "${REPORT}" --dump "${DUMP}" "${MODEL}"
                RESULT_VARIABLE _status)
if(NOT _status EQUAL 0)
  message(FATAL_ERROR "${MODEL}: three.js disagrees with libmd2 (md2_judge_three exit ${_status}); "
                      "report: ${REPORT}")
endif()
