# One judge of an MD2 file, or its self-test (tests/judges/CMakeLists.txt):
#   cmake -DJUDGE=md2_judge_<reader> -DMODEL=FILE.md2 [-DNODE=node -DNPM=DIR -DSCRIPT=three_md2.mjs]
#         -DREPORT=OUT.json -DDUMP=OUT.dump [-DMODEL_OPTIONAL=ON] -P run_judge.cmake
#   cmake -DJUDGE=... -DMODEL=... [-DNODE=...] -DMUTATE=md2_judge_mutate -DFRAME=F -DVERTEX=V
#         -DAXIS=A -DWORK=DIR -DREADER=name -DEXPECT=REGEX -P run_judge.cmake
# With NODE (three.js), node runs three_md2.mjs (MD2Loader.parse of the file's bytes) into a dump that
# the judge compares with libmd2; the other judges load the file themselves. MODEL_OPTIONAL: an absent
# MODEL (a corpus model) skips the test (SKIP_REGULAR_EXPRESSION matches the message), not fails it.
# The self-test (MUTATE): a judge that cannot fail judges nothing. md2_judge_mutate moves one
# coordinate of a copy of MODEL by one step of its grid (keyframe FRAME, vertex VERTEX, MD2 axis
# AXIS); the reader loads the copy while libmd2 loads MODEL. The judge must fail, every failure must
# name that vertex, one must name that keyframe and the reader's axis that holds MD2's AXIS (EXPECT,
# a regular expression), and the report must say so.
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)
set(_read "${MODEL}") # what the reader loads
set(_args "")
if(MUTATE)
  file(REMOVE_RECURSE "${WORK}")
  file(MAKE_DIRECTORY "${WORK}")
  get_filename_component(_name "${MODEL}" NAME_WE)
  set(_read "${WORK}/${_name}_mutated.md2")
  set(REPORT "${WORK}/report.json")
  set(DUMP "${WORK}/three.dump")
  set(_args --reader-file "${_read}")
  execute_process(COMMAND "${MUTATE}" "${MODEL}" "${_read}" ${FRAME} ${VERTEX} ${AXIS} RESULT_VARIABLE _status)
  if(NOT _status EQUAL 0)
    message(FATAL_ERROR "md2_judge_mutate failed (${_status})")
  endif()
elseif(MODEL_OPTIONAL AND NOT EXISTS "${MODEL}")
  message("${MODEL}: three.js: skipped: the file is absent (it is optional: a corpus model)")
  return()
endif()
file(REMOVE "${DUMP}" "${REPORT}")
if(NODE)
  execute_process(COMMAND "${NODE}" "${SCRIPT}" --npm "${NPM}" "${_read}" "${DUMP}" RESULT_VARIABLE _status)
  if(NOT _status EQUAL 0)
    message(FATAL_ERROR "${_read}: three.js: three_md2.mjs did not write ${DUMP} (${_status})")
  endif()
  set(_args --dump "${DUMP}")
endif()
execute_process(COMMAND "${JUDGE}" --report "${REPORT}" ${_args} "${MODEL}"
                RESULT_VARIABLE _status OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("${_out}${_err}")
if(NOT MUTATE AND NOT _status EQUAL 0)
  message(FATAL_ERROR "${MODEL}: the reader disagrees with libmd2 (${JUDGE} exit ${_status}); report: ${REPORT}")
elseif(NOT MUTATE)
  return()
elseif(NOT _status EQUAL 1)
  message(FATAL_ERROR "the ${READER} judge exits ${_status} on a file with one coordinate "
                      "moved by a step, not 1: it does not see the difference")
endif()
string(REGEX MATCHALL "FAIL [^\n]*" _fails "${_err}")
list(LENGTH _fails _count)
if(_count EQUAL 0)
  message(FATAL_ERROR "the ${READER} judge fails without saying why")
endif()
foreach(_fail IN LISTS _fails)
  if(NOT _fail MATCHES "MD2 vertex ${VERTEX}\\)" AND NOT _fail MATCHES "^FAIL \\.\\.\\. ")
    message(FATAL_ERROR "the ${READER} judge reports a failure away from the moved vertex ${VERTEX}: ${_fail}")
  endif()
endforeach()
if(NOT _err MATCHES "${EXPECT}")
  message(FATAL_ERROR "no failure of the ${READER} judge matches '${EXPECT}'")
endif()
file(READ "${REPORT}" _json)
if(NOT _json MATCHES "\"passed\": false" OR NOT _json MATCHES "\"failure_messages\": \\[\n    \"")
  message(FATAL_ERROR "the report ${REPORT} does not record the failure")
endif()
message("the ${READER} judge catches one coordinate moved by one step: ${_count} failures "
        "printed, each at vertex ${VERTEX}")
