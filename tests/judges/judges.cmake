# MD2 readers nobody here wrote, as judges of MD2 files (issue #16): three.js's
# MD2Loader (npm three, in node), Assimp (Debian libassimp-dev) and Irrlicht
# (Debian libirrlicht-dev) each load a file, and a program of ours compares
# what the reader made of it with libmd2's decoding of the same bytes:
# counts, every position of every frame the reader exposes within half a
# step of the frame's grid, normals and texture coordinates (judge.h has the
# tolerances and why; each judge_*.c/.cpp says what its reader does with
# MD2). Included from tests/CMakeLists.txt.
#
# Judging a model, from any CMakeLists.txt after this one:
#
#   md2_add_md2_judge(<name> <file.md2> [OPTIONAL] [ACCEPT_KNOWN_REFUSAL]
#                     [FIXTURES_REQUIRED <fixture>...])
#
# adds the CTest tests md2_judge_three_<name>, md2_judge_assimp_<name> and
# md2_judge_irrlicht_<name> (label judge), each writing its JSON report to
# ${MD2_JUDGE_REPORT_DIR}/<reader>_<name>.json. OPTIONAL: an absent file
# skips the tests (corpus models); otherwise it fails them. FIXTURES_REQUIRED:
# the tests that write the file (a built model). ACCEPT_KNOWN_REFUSAL: a
# refusal the judge predicts from the file and explains is noted, not
# failed, and the reader judges the same sections another way (Assimp 5.2
# refuses a valid file whose last section ends at the end of the file, as
# one without GL commands: see judge_assimp.c).
#
# The models judged here are MD2_JUDGE_MODELS: one element per model, the
# arguments of md2_add_md2_judge joined by "|".
#
# The readers are found here; without one, its tests are not added and a
# message says so, unless MD2_REQUIRE_JUDGES is ON (tests/run.sh with
# CI=true), which makes that an error. tests/run.sh installs them: the
# Debian packages with apt-get, three into MD2_NPM_DIR (the version the glTF
# judges use). Not in cross builds (the readers are the host's).
#
# SPDX-License-Identifier: MIT

set(MD2_JUDGE_REPORT_DIR "${CMAKE_CURRENT_BINARY_DIR}/judges")
set_property(GLOBAL PROPERTY MD2_JUDGE_REPORT_DIR "${MD2_JUDGE_REPORT_DIR}")
set_property(GLOBAL PROPERTY MD2_JUDGE_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}")
set_property(GLOBAL PROPERTY MD2_JUDGE_READERS "")

# md2_add_md2_judge(<name> <file> [OPTIONAL] [ACCEPT_KNOWN_REFUSAL]
#                   [FIXTURES_REQUIRED <fixture>...]): see above. Defined
# first, so that callers work in every build (it adds nothing for a reader
# that is missing).
function(md2_add_md2_judge name file)
  cmake_parse_arguments(PARSE_ARGV 2 arg "OPTIONAL;ACCEPT_KNOWN_REFUSAL" "" "FIXTURES_REQUIRED")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "md2_add_md2_judge(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  get_property(readers GLOBAL PROPERTY MD2_JUDGE_READERS)
  get_property(reports GLOBAL PROPERTY MD2_JUDGE_REPORT_DIR)
  get_property(source GLOBAL PROPERTY MD2_JUDGE_SOURCE_DIR)
  set(flags "")
  if(arg_OPTIONAL)
    list(APPEND flags --optional)
  endif()
  foreach(reader IN LISTS readers)
    set(test md2_judge_${reader}_${name})
    if(reader STREQUAL "three")
      get_property(node GLOBAL PROPERTY MD2_JUDGE_NODE)
      get_property(npm GLOBAL PROPERTY MD2_JUDGE_NPM_DIR)
      add_test(NAME ${test}
        COMMAND "${CMAKE_COMMAND}" "-DNODE=${node}" "-DNPM=${npm}"
                "-DSCRIPT=${source}/three_md2.mjs" "-DJUDGE=$<TARGET_FILE:md2_judge_three>"
                "-DMODEL=${file}" "-DDUMP=${reports}/three_${name}.dump"
                "-DREPORT=${reports}/three_${name}.json" "-DMODEL_OPTIONAL=${arg_OPTIONAL}"
                -P "${source}/run_three.cmake")
      set_tests_properties(${test} PROPERTIES
        SKIP_REGULAR_EXPRESSION "three.js: skipped: the file is absent")
    else()
      set(extra "")
      if(arg_ACCEPT_KNOWN_REFUSAL)
        list(APPEND extra --accept-known-refusal)
      endif()
      add_test(NAME ${test}
        COMMAND md2_judge_${reader} ${flags} ${extra} --report "${reports}/${reader}_${name}.json"
                "${file}")
      set_tests_properties(${test} PROPERTIES SKIP_RETURN_CODE 77)
    endif()
    set_tests_properties(${test} PROPERTIES LABELS judge TIMEOUT 300)
    if(arg_FIXTURES_REQUIRED)
      set_tests_properties(${test} PROPERTIES FIXTURES_REQUIRED "${arg_FIXTURES_REQUIRED}")
    endif()
  endforeach()
endfunction()

if(CMAKE_CROSSCOMPILING)
  message(STATUS "libmd2: the MD2 judges (three.js, Assimp, Irrlicht) run in native builds only")
  return()
endif()

# --- finding the readers -----------------------------------------------------
set(_md2_judges_missing "")
set(_md2_judges_found "")

# three.js: node 18 or later, and three in MD2_NPM_DIR/node_modules
set(MD2_NPM_DIR "${PROJECT_BINARY_DIR}/npm" CACHE PATH
    "Folder whose node_modules holds the npm judges (gltf-validator, three)")
find_program(MD2_NODE NAMES node nodejs DOC "Node.js, for the npm judges")
set(_md2_three_missing "")
if(NOT MD2_NODE)
  set(_md2_three_missing "node (Debian/Ubuntu: apt-get install nodejs npm)")
else()
  execute_process(COMMAND "${MD2_NODE}" --version OUTPUT_VARIABLE _md2_judge_node_version
                  OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _md2_judge_node_status)
  if(NOT _md2_judge_node_status EQUAL 0 OR NOT _md2_judge_node_version MATCHES "^v([0-9]+)\\."
     OR CMAKE_MATCH_1 LESS 18)
    set(_md2_three_missing "node 18 or later (${MD2_NODE} says '${_md2_judge_node_version}')")
  endif()
endif()
if(NOT EXISTS "${MD2_NPM_DIR}/node_modules/three/examples/jsm/loaders/MD2Loader.js")
  list(APPEND _md2_three_missing "the npm package three in ${MD2_NPM_DIR} (npm install --prefix ${MD2_NPM_DIR} three)")
endif()
if(_md2_three_missing)
  list(APPEND _md2_judges_missing "three.js: ${_md2_three_missing}")
else()
  list(APPEND _md2_judges_found three)
  set_property(GLOBAL PROPERTY MD2_JUDGE_NODE "${MD2_NODE}")
  set_property(GLOBAL PROPERTY MD2_JUDGE_NPM_DIR "${MD2_NPM_DIR}")
endif()

# Assimp: its CMake package (Debian's libassimp-dev has one)
find_package(assimp CONFIG QUIET)
if(TARGET assimp::assimp)
  list(APPEND _md2_judges_found assimp)
else()
  list(APPEND _md2_judges_missing "Assimp (Debian/Ubuntu: apt-get install libassimp-dev)")
endif()

# Irrlicht: no CMake or pkg-config files in Debian's libirrlicht-dev; and a
# C++ compiler
find_path(MD2_IRRLICHT_INCLUDE_DIR irrlicht.h PATH_SUFFIXES irrlicht
          DOC "Irrlicht's headers, for the Irrlicht judge")
find_library(MD2_IRRLICHT_LIBRARY Irrlicht DOC "Irrlicht's library, for the Irrlicht judge")
if(MD2_IRRLICHT_INCLUDE_DIR AND MD2_IRRLICHT_LIBRARY AND CMAKE_CXX_COMPILER)
  list(APPEND _md2_judges_found irrlicht)
elseif(NOT CMAKE_CXX_COMPILER)
  list(APPEND _md2_judges_missing "Irrlicht: a C++ compiler")
else()
  list(APPEND _md2_judges_missing "Irrlicht (Debian/Ubuntu: apt-get install libirrlicht-dev)")
endif()

if(_md2_judges_missing)
  string(JOIN "; " _md2_judges_missing_text ${_md2_judges_missing})
  if(MD2_REQUIRE_JUDGES)
    message(FATAL_ERROR "libmd2: MD2_REQUIRE_JUDGES is ON, but these MD2 judges are missing: "
      "${_md2_judges_missing_text}. Run `sh tests/run.sh` (it installs them), or configure "
      "with -DMD2_REQUIRE_JUDGES=OFF.")
  endif()
  message(STATUS "libmd2: MD2 judges skipped (their tests are not added): ${_md2_judges_missing_text}")
endif()
message(STATUS "libmd2: MD2 judges: ${_md2_judges_found}")
set_property(GLOBAL PROPERTY MD2_JUDGE_READERS "${_md2_judges_found}")
file(MAKE_DIRECTORY "${MD2_JUDGE_REPORT_DIR}")

# --- the judges' programs ----------------------------------------------------
if(_md2_judges_found)
  add_library(md2_judge_core STATIC "${CMAKE_CURRENT_LIST_DIR}/judge.c"
                                    "${CMAKE_CURRENT_LIST_DIR}/judge.h")
  md2_target_defaults(md2_judge_core)
  target_include_directories(md2_judge_core PUBLIC "${CMAKE_CURRENT_LIST_DIR}")
  target_link_libraries(md2_judge_core PUBLIC md2::md2)
  if(MD2_HAVE_LIBM)
    target_link_libraries(md2_judge_core PUBLIC m)
  endif()
endif()
if("three" IN_LIST _md2_judges_found)
  add_executable(md2_judge_three "${CMAKE_CURRENT_LIST_DIR}/judge_three.c")
  md2_target_defaults(md2_judge_three)
  target_link_libraries(md2_judge_three PRIVATE md2_judge_core)
endif()
if("assimp" IN_LIST _md2_judges_found)
  add_executable(md2_judge_assimp "${CMAKE_CURRENT_LIST_DIR}/judge_assimp.c")
  md2_target_defaults(md2_judge_assimp)
  target_link_libraries(md2_judge_assimp PRIVATE md2_judge_core assimp::assimp)
endif()
if("irrlicht" IN_LIST _md2_judges_found)
  add_executable(md2_judge_irrlicht "${CMAKE_CURRENT_LIST_DIR}/judge_irrlicht.cpp")
  md2_target_defaults(md2_judge_irrlicht)
  set_target_properties(md2_judge_irrlicht PROPERTIES
    CXX_STANDARD 11 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
  # Irrlicht's own headers are not ours to make -Wpedantic clean
  target_include_directories(md2_judge_irrlicht SYSTEM PRIVATE "${MD2_IRRLICHT_INCLUDE_DIR}")
  target_link_libraries(md2_judge_irrlicht PRIVATE md2_judge_core "${MD2_IRRLICHT_LIBRARY}")
endif()

# --- the judges judged --------------------------------------------------------
# md2_judge_selftest_<reader>: each judge must fail when its reader loads a
# copy of crystal.md2 with one coordinate moved by one step (keyframe 3,
# vertex 5, MD2 y), at that vertex only, naming the reader's axis that holds
# MD2 y: three.js z, Assimp world z (= -MD2 y), Irrlicht z (at its frame
# 12, keyframe 3).
if(_md2_judges_found)
  add_executable(md2_judge_mutate "${CMAKE_CURRENT_LIST_DIR}/md2_judge_mutate.c")
  md2_target_defaults(md2_judge_mutate)
endif()
set(_md2_judge_moved "MD2 vertex 5\\): ")
set(_md2_judge_expect_three
    "morph target 3 \\(libmd2 frame 3 [^)]*\\): [^\n]*${_md2_judge_moved}three\\.js position z = [^,]*, libmd2's MD2 y = ")
set(_md2_judge_expect_assimp
    "import of keyframe 3 \\(libmd2 frame 3 [^)]*\\): [^\n]*${_md2_judge_moved}Assimp position z = [^,]*, libmd2's MD2 -y = ")
set(_md2_judge_expect_irrlicht
    "Irrlicht frame 12 \\(libmd2 frame 3 [^)]*\\): [^\n]*${_md2_judge_moved}Irrlicht position z = [^,]*, libmd2's MD2 y = ")
foreach(_md2_reader IN LISTS _md2_judges_found)
  set(_md2_judge_node_args "")
  if(_md2_reader STREQUAL "three")
    set(_md2_judge_node_args "-DNODE=${MD2_NODE}" "-DNPM=${MD2_NPM_DIR}"
        "-DSCRIPT=${CMAKE_CURRENT_LIST_DIR}/three_md2.mjs")
  endif()
  add_test(NAME md2_judge_selftest_${_md2_reader}
    COMMAND "${CMAKE_COMMAND}" "-DREADER=${_md2_reader}"
            "-DJUDGE=$<TARGET_FILE:md2_judge_${_md2_reader}>"
            "-DMUTATE=$<TARGET_FILE:md2_judge_mutate>"
            "-DMODEL=${PROJECT_SOURCE_DIR}/examples/models/crystal.md2"
            "-DWORK=${MD2_JUDGE_REPORT_DIR}/selftest_${_md2_reader}"
            -DFRAME=3 -DVERTEX=5 -DAXIS=1 "-DEXPECT=${_md2_judge_expect_${_md2_reader}}"
            ${_md2_judge_node_args} -P "${CMAKE_CURRENT_LIST_DIR}/selftest.cmake")
  set_tests_properties(md2_judge_selftest_${_md2_reader} PROPERTIES LABELS judge TIMEOUT 300)
endforeach()

# --- the models judged -------------------------------------------------------
# The bundled models, and the corpus when it is there. blade.md2 has no GL
# commands, so its frames end the file: Assimp 5.2 refuses it (a known
# refusal, judged another way).
set(MD2_JUDGE_MODELS
  "crystal|${PROJECT_SOURCE_DIR}/examples/models/crystal.md2"
  "blade|${PROJECT_SOURCE_DIR}/examples/models/blade.md2|ACCEPT_KNOWN_REFUSAL"
  "faerie|${MD2_SHARED_DIR}/corpus/faerie.md2|OPTIONAL"
  "sydney|${MD2_SHARED_DIR}/corpus/sydney.md2|OPTIONAL")
foreach(_md2_judge_model IN LISTS MD2_JUDGE_MODELS)
  string(REPLACE "|" ";" _md2_judge_args "${_md2_judge_model}")
  md2_add_md2_judge(${_md2_judge_args})
endforeach()
