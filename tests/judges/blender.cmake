# Blender as a judge of md2 export's glTF (issue #18; blender_gltf.py says
# what it checks): Debian's blender 3.4, headless, with python3-numpy,
# imports the default export of faerie and sydney (the corpus) and of a
# generated model of 1001 keyframes, and draws faerie mid-run with the
# workbench engine (build/tests/tool/work/blender/render_faerie_run.png).
# All in one Blender run: the CTest test md2_judge_blender (label judge).
# Included from tests/tool/CMakeLists.txt (it needs md2 and the tests'
# export_reference and export_make_model).
#
# Without blender (or numpy for it) the test is not added and a message
# says so, unless MD2_REQUIRE_JUDGES is ON (tests/run.sh with CI=true, which
# installs them), which makes that an error.
#
# SPDX-License-Identifier: MIT

# Not in cross builds (Blender is the host's), nor with the sanitizers: it
# judges the files md2 writes, the same in every build, and its 20 s are
# spent once (the plain builds of .ci/run).
if(CMAKE_CROSSCOMPILING OR MD2_SANITIZE)
  return()
endif()
find_program(MD2_BLENDER NAMES blender DOC "Blender, for the Blender judge of md2 export")
set(_md2_blender_missing "")
if(NOT MD2_BLENDER)
  set(_md2_blender_missing "blender (Debian/Ubuntu: apt-get install blender python3-numpy)")
else()
  # Debian's blender runs the system's python3, which needs numpy
  find_program(MD2_BLENDER_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
  if(MD2_BLENDER_PYTHON)
    execute_process(COMMAND "${MD2_BLENDER_PYTHON}" -c "import numpy"
                    RESULT_VARIABLE _md2_numpy_status OUTPUT_QUIET ERROR_QUIET)
    if(NOT _md2_numpy_status EQUAL 0)
      set(_md2_blender_missing "numpy for Blender's Python (apt-get install python3-numpy)")
    endif()
  endif()
endif()
if(_md2_blender_missing)
  if(MD2_REQUIRE_JUDGES)
    message(FATAL_ERROR "libmd2: MD2_REQUIRE_JUDGES is ON, but the Blender judge needs "
      "${_md2_blender_missing}. Run `sh tests/run.sh` (it installs it), or configure with "
      "-DMD2_REQUIRE_JUDGES=OFF.")
  endif()
  message(STATUS "libmd2: the Blender judge of md2 export is skipped: it needs ${_md2_blender_missing}")
  return()
endif()
message(STATUS "libmd2: Blender judge: ${MD2_BLENDER}")
add_test(NAME md2_judge_blender
  COMMAND "${CMAKE_COMMAND}" "-DBLENDER=${MD2_BLENDER}" "-DMD2=$<TARGET_FILE:md2_tool>"
          "-DREFERENCE=$<TARGET_FILE:export_reference>"
          "-DMAKE_MODEL=$<TARGET_FILE:export_make_model>"
          "-DSCRIPT=${CMAKE_CURRENT_LIST_DIR}/blender_gltf.py"
          "-DCORPUS=${MD2_SHARED_DIR}/corpus" "-DSKIN=${PROJECT_SOURCE_DIR}/examples/models/skin.pcx"
          "-DCRYSTAL=${PROJECT_SOURCE_DIR}/examples/models/crystal.md2"
          "-DWORK=${CMAKE_CURRENT_BINARY_DIR}/work/blender"
          -P "${CMAKE_CURRENT_LIST_DIR}/run_blender.cmake")
set_tests_properties(md2_judge_blender PROPERTIES LABELS judge TIMEOUT 600)
