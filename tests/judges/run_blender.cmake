# The Blender judge's run (tests/judges/CMakeLists.txt): exports the models with md2, writes libmd2's
# reference of each (export_reference --all-keyframes), and runs blender_gltf.py on all in one Blender.
#   cmake -DBLENDER=blender -DMD2=md2 -DREFERENCE=export_reference -DMAKE_MODEL=export_make_model
#         -DSCRIPT=blender_gltf.py -DCORPUS=DIR -DSKIN=skin.pcx -DCRYSTAL=crystal.md2 -DWORK=DIR
#         -P run_blender.cmake
# The models, each exported with the default options: faerie (the corpus, with --skin faerie2.bmp beside
# it), sydney (the corpus: its skin sydney.bmp is found beside it) and long (export_make_model long: 1001
# keyframes, --skin SKIN); and crystal exported with --compact, which the judge must refuse. Without the
# corpus, faerie and sydney are skipped with a message, except under CI (CI=true), where that is an error.
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
function(step what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE _status
                  OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _status EQUAL 0)
    message(FATAL_ERROR "blender judge: ${what} failed (${_status}):\n${_out}")
  endif()
endfunction()

step("export_make_model long" "${MAKE_MODEL}" long "${WORK}/long.md2")
# <name> <file> <md2 export's options, ','-separated>
set(_models long "${WORK}/long.md2" "--skin,${SKIN}")
set(_render render "${WORK}/long.glb" long "${WORK}/render_long.png")
if(EXISTS "${CORPUS}/faerie.md2" AND EXISTS "${CORPUS}/sydney.md2")
  list(APPEND _models faerie "${CORPUS}/faerie.md2" "--skin,${CORPUS}/faerie2.bmp" sydney "${CORPUS}/sydney.md2" "")
  set(_render render "${WORK}/faerie.glb" run "${WORK}/render_faerie_run.png")
elseif("$ENV{CI}" STREQUAL "true")
  message(FATAL_ERROR "blender judge: ${CORPUS}/faerie.md2 or sydney.md2 is missing (CI needs the corpus)")
else()
  message("blender judge: faerie and sydney skipped: ${CORPUS} has not got them (the corpus is optional)")
endif()
set(_args "")
while(_models)
  list(POP_FRONT _models _name _file _options)
  string(REPLACE "," ";" _options "${_options}")
  step("md2 export ${_name}" "${MD2}" export "${_file}" -o "${WORK}/${_name}.glb" ${_options})
  step("export_reference ${_name}" "${REFERENCE}" "${_file}" -o "${WORK}/${_name}.json" --all-keyframes)
  list(APPEND _args check "${_name}" "${WORK}/${_name}.glb" "${WORK}/${_name}.json")
endwhile()
# the judge judged: the old quantised layout (--compact) must be refused
step("md2 export --compact crystal" "${MD2}" export "${CRYSTAL}" -o "${WORK}/compact.glb" --compact)
step("export_reference crystal" "${REFERENCE}" "${CRYSTAL}" -o "${WORK}/crystal.json" --all-keyframes)
list(APPEND _args refuse compact "${WORK}/compact.glb" "${WORK}/crystal.json")
string(TIMESTAMP _start "%s")
execute_process(COMMAND "${BLENDER}" -b --factory-startup --python-exit-code 1 -P "${SCRIPT}" -- ${_args} ${_render}
                WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE _status OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
string(TIMESTAMP _end "%s")
math(EXPR _seconds "${_end} - ${_start}")
string(REPLACE ";" "," _clean "${_out}")
string(REGEX MATCHALL "blender: [^\n]*" _lines "${_clean}")
string(JOIN "\n" _lines ${_lines})
message("${_lines}\nblender judge: one Blender run, ${_seconds} s")
if(NOT _status EQUAL 0)
  message(FATAL_ERROR "blender judge: Blender failed (${_status}):\n${_out}")
endif()
