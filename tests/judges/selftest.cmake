# The judges' self-test (tests/judges/judges.cmake): a judge that cannot fail
# judges nothing. md2_judge_mutate moves one coordinate of a copy of MODEL by
# one step of its grid (keyframe FRAME, vertex VERTEX, MD2 axis AXIS); the
# reader loads the copy while libmd2 loads MODEL. The judge must fail, every
# failure must name that vertex, one must name that keyframe and the
# reader's axis that holds MD2's AXIS (EXPECT, a regular expression), and
# the report must say so.
#
#   cmake -DREADER=three|assimp|irrlicht -DJUDGE=md2_judge_READER
#         -DMUTATE=md2_judge_mutate -DMODEL=FILE.md2 -DWORK=DIR
#         -DFRAME=F -DVERTEX=V -DAXIS=A -DEXPECT=REGEX
#         [-DNODE=node -DNPM=DIR -DSCRIPT=three_md2.mjs] -P selftest.cmake
#
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)

foreach(_var IN ITEMS READER JUDGE MUTATE MODEL WORK FRAME VERTEX AXIS EXPECT)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "selftest.cmake: -D${_var}= is needed")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
get_filename_component(_name "${MODEL}" NAME_WE)
set(_mutated "${WORK}/${_name}_mutated.md2")
set(_report "${WORK}/report.json")
execute_process(COMMAND "${MUTATE}" "${MODEL}" "${_mutated}" ${FRAME} ${VERTEX} ${AXIS}
                RESULT_VARIABLE _status)
if(NOT _status EQUAL 0)
  message(FATAL_ERROR "md2_judge_mutate failed (${_status})")
endif()

if(READER STREQUAL "three")
  set(_dump "${WORK}/three.dump")
  execute_process(COMMAND "${NODE}" "${SCRIPT}" --npm "${NPM}" "${_mutated}" "${_dump}"
                  RESULT_VARIABLE _status)
  if(NOT _status EQUAL 0)
    message(FATAL_ERROR "three_md2.mjs failed on ${_mutated} (${_status})")
  endif()
  set(_args --dump "${_dump}")
else()
  set(_args --reader-file "${_mutated}")
endif()
execute_process(COMMAND "${JUDGE}" --report "${_report}" ${_args} "${MODEL}"
                RESULT_VARIABLE _status OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("${_out}${_err}")

if(NOT _status EQUAL 1)
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
    message(FATAL_ERROR "the ${READER} judge reports a failure away from the moved vertex "
                        "${VERTEX}: ${_fail}")
  endif()
endforeach()
if(NOT _err MATCHES "${EXPECT}")
  message(FATAL_ERROR "no failure of the ${READER} judge matches '${EXPECT}'")
endif()
file(READ "${_report}" _json)
if(NOT _json MATCHES "\"passed\": false" OR NOT _json MATCHES "\"failure_messages\": \\[\n    \"")
  message(FATAL_ERROR "the report ${_report} does not record the failure")
endif()
message("the ${READER} judge catches one coordinate moved by one step: ${_count} failures "
        "printed, each at vertex ${VERTEX}")
