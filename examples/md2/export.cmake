# md2 export: sources and tests (see CMakeLists.txt)
# SPDX-License-Identifier: MIT
target_sources(md2_tool PRIVATE
  export.c export_internal.h export_buf.c export_file.c export_obj.c export_gltf.c)

if(NOT MD2_BUILD_TESTS)
  return()
endif()

# ---------------------------------------------------------------------------
# Tests, all named md2_export_*:
#  - exports of the bundled models (crystal.md2 with skin.pcx, blade.md2)
#    and, when ../shared/corpus exists, of faerie.md2 and sydney.md2 (with
#    and without their BMP skins), run straight from CTest so that the
#    valgrind pass checks the command itself;
#  - odd models written by export_make_model.c: 1001 keyframes, no
#    triangle, 65,538 welded vertices, a small model far from the origin,
#    an animation name with an ESC byte; a crystal.md2 without animations;
#  - export_check.cmake: exit statuses, messages, nothing written on
#    failure and old files of the same names kept, OBJ files (every line
#    against libmd2's values, export_obj_check.c), GLB layout, the size of
#    a .glb without its image against 4 times the .md2 (corpus models), and
#    every allocation failing in turn (export_failalloc.c, Linux), link()
#    failing while old files are kept aside (export_linkfail.c, Linux),
#    files and links already at the temporary names;
#  - the judges (label "judge", node): the Khronos glTF-Validator (0 errors,
#    0 warnings), three.js's GLTFLoader and AnimationMixer against libmd2's
#    own poses (export_reference.c) and the documented layout of the JSON
#    (tests/gltf/*.mjs).
# ---------------------------------------------------------------------------
set(_md2_export_dir "${MD2_TOOL_TEST_DIR}/export")
file(MAKE_DIRECTORY "${_md2_export_dir}")
set(_md2_export_check "${CMAKE_CURRENT_SOURCE_DIR}/export_check.cmake")
set(_md2_export_crystal "${MD2_TOOL_MODELS}/crystal.md2")
set(_md2_export_blade "${MD2_TOOL_MODELS}/blade.md2")

# libmd2's poses for the three.js judge: a test program, not part of md2.
add_executable(md2_export_reference export_reference.c)
md2_target_defaults(md2_export_reference)
target_link_libraries(md2_export_reference PRIVATE md2_tool_common)

# tool_png_encode() (common.c) on its own: images too large for it
# refused with a message, and a round trip through libpng.
add_executable(md2_export_png_check export_png_check.c)
md2_target_defaults(md2_export_png_check)
target_link_libraries(md2_export_png_check PRIVATE md2_tool_common)
add_test(NAME md2_export_png COMMAND md2_export_png_check)

# libmd2's values for the OBJ files (export_check.cmake, mode obj).
add_executable(md2_export_obj_check export_obj_check.c)
md2_target_defaults(md2_export_obj_check)
target_link_libraries(md2_export_obj_check PRIVATE md2::md2)
if(MD2_HAVE_LIBM)
  target_link_libraries(md2_export_obj_check PRIVATE m)
endif()

# The judges: node (18 or later) and the npm packages gltf-validator and
# three in MD2_NPM_DIR/node_modules (tests/run.sh installs them there).
set(MD2_NPM_DIR "${PROJECT_BINARY_DIR}/npm" CACHE PATH
    "Folder whose node_modules holds gltf-validator and three, for the md2 export judges")
find_program(MD2_NODE NAMES node nodejs DOC "Node.js, for the md2 export judges")
set(_md2_export_judges_missing "")
if(NOT MD2_NODE)
  set(_md2_export_judges_missing "node (Debian/Ubuntu: apt-get install nodejs npm)")
else()
  execute_process(COMMAND "${MD2_NODE}" --version OUTPUT_VARIABLE _md2_node_version
                  OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _md2_node_status)
  if(NOT _md2_node_status EQUAL 0 OR NOT _md2_node_version MATCHES "^v([0-9]+)\\."
     OR CMAKE_MATCH_1 LESS 18)
    set(_md2_export_judges_missing
        "node 18 or later (${MD2_NODE} says '${_md2_node_version}')")
  endif()
endif()
foreach(_md2_package IN ITEMS gltf-validator three)
  if(NOT EXISTS "${MD2_NPM_DIR}/node_modules/${_md2_package}/package.json")
    list(APPEND _md2_export_judges_missing "the npm package ${_md2_package} in ${MD2_NPM_DIR}")
  endif()
endforeach()
if(_md2_export_judges_missing)
  string(JOIN ", " _md2_export_judges_missing ${_md2_export_judges_missing})
  if(MD2_REQUIRE_JUDGES)
    message(FATAL_ERROR "libmd2: MD2_REQUIRE_JUDGES is ON, but the md2 export judges need "
      "${_md2_export_judges_missing}. Run `sh tests/run.sh` (it installs them), or install "
      "nodejs and npm and run `npm install --prefix ${MD2_NPM_DIR} gltf-validator three`, "
      "or configure with -DMD2_REQUIRE_JUDGES=OFF.")
  endif()
  message(STATUS "libmd2: the md2 export judges (glTF-Validator, three.js) are skipped: "
                 "they need ${_md2_export_judges_missing}")
  set(_md2_export_judges OFF)
else()
  message(STATUS "libmd2: md2 export judges: ${MD2_NODE} ${_md2_node_version}, "
                 "npm packages in ${MD2_NPM_DIR}")
  set(_md2_export_judges ON)
endif()

# md2_export_case(<name> <model> <out file> <texture: yes|no> [md2 export args...])
# The export (test md2_export_<name>), and with the judges its validation,
# its layout and the three.js comparison against export_reference run with
# the same --anim and --frame (and ${_md2_export_ref_extra}, when the
# caller sets it). Models under made/ come from md2_export_make_models.
function(md2_export_case name model out texture)
  set(args ${ARGN})
  set(file "${_md2_export_dir}/${out}")
  set(made "")
  if(model MATCHES "/made/")
    set(made md2_export_made)
  endif()
  add_test(NAME md2_export_${name}
    COMMAND md2_tool export "${model}" -o "${file}" ${args})
  set_tests_properties(md2_export_${name} PROPERTIES
    FIXTURES_SETUP md2_export_${name} FIXTURES_REQUIRED "${made}")
  if(out MATCHES "\\.obj$")
    return()
  endif()
  # the same --anim and --frame for libmd2's reference poses
  set(ref_args "")
  set(i 0)
  list(LENGTH args n)
  while(i LESS n)
    list(GET args ${i} a)
    math(EXPR j "${i} + 1")
    if(a STREQUAL "--anim" OR a STREQUAL "--frame")
      list(GET args ${j} v)
      list(APPEND ref_args "${a}" "${v}")
    endif()
    if(a STREQUAL "--anim" OR a STREQUAL "--frame" OR a STREQUAL "--skin")
      math(EXPR i "${i} + 2")
    else()
      set(i ${j})
    endif()
  endwhile()
  if(texture)
    set(texture_arg --texture)
  else()
    set(texture_arg --no-texture)
  endif()
  if(NOT _md2_export_judges AND NOT name STREQUAL "crystal_glb")
    return()
  endif()
  # libmd2's poses, for three.js. Only the judges need them: they are
  # labelled judge too (valgrind would take minutes over the corpus), but
  # for crystal's, which the valgrind pass checks.
  add_test(NAME md2_export_reference_${name}
    COMMAND md2_export_reference "${model}" -o "${file}.reference.json" ${ref_args}
            ${_md2_export_ref_extra})
  set_tests_properties(md2_export_reference_${name} PROPERTIES
    FIXTURES_SETUP md2_export_reference_${name} FIXTURES_REQUIRED "${made}")
  if(NOT name STREQUAL "crystal_glb")
    set_tests_properties(md2_export_reference_${name} PROPERTIES LABELS judge)
  endif()
  if(_md2_export_judges)
    add_test(NAME md2_export_validate_${name}
      COMMAND "${MD2_NODE}" "${PROJECT_SOURCE_DIR}/tests/gltf/validate.mjs"
              --npm "${MD2_NPM_DIR}" ${texture_arg} "${file}")
    # crystal, faerie and sydney are closed: their winding can be checked
    set(winding "")
    if(model MATCHES "(crystal|faerie|sydney)\\.md2$")
      set(winding --winding)
    endif()
    add_test(NAME md2_export_three_${name}
      COMMAND "${MD2_NODE}" "${PROJECT_SOURCE_DIR}/tests/gltf/three_compare.mjs"
              --npm "${MD2_NPM_DIR}" --reference "${file}.reference.json" ${texture_arg}
              ${winding} "${file}")
    add_test(NAME md2_export_layout_${name}
      COMMAND "${MD2_NODE}" "${PROJECT_SOURCE_DIR}/tests/gltf/layout.mjs"
              --reference "${file}.reference.json" ${texture_arg} "${file}")
    set_tests_properties(md2_export_validate_${name} PROPERTIES
      LABELS judge FIXTURES_REQUIRED md2_export_${name})
    set_tests_properties(md2_export_layout_${name} PROPERTIES
      LABELS judge FIXTURES_REQUIRED "md2_export_${name};md2_export_reference_${name}")
    set_tests_properties(md2_export_three_${name} PROPERTIES
      LABELS judge FIXTURES_REQUIRED "md2_export_${name};md2_export_reference_${name}")
  endif()
endfunction()

# md2_export_check(<name> <mode> [-D... definitions]): export_check.cmake
# in its own scratch folder.
function(md2_export_check name mode)
  add_test(NAME md2_export_${name}
    COMMAND "${CMAKE_COMMAND}" "-DMD2=$<TARGET_FILE:md2_tool>" "-DMODE=${mode}"
            "-DDIR=${_md2_export_dir}/${name}" "-DMODELS=${MD2_TOOL_MODELS}"
            "-DOBJ_CHECK=$<TARGET_FILE:md2_export_obj_check>" ${ARGN}
            -P "${_md2_export_check}")
  # script: tests/run.sh's valgrind pass runs md2 under valgrind, not cmake
  set_property(TEST md2_export_${name} APPEND PROPERTY LABELS script)
endfunction()

# --- the command line --------------------------------------------------------
md2_export_check(help run "-DARGS=export|--help" -DEXIT=0
  "-DSTDOUT=^usage: md2 export MODEL -o OUT\\.[{]obj,gltf,glb[}].*--anim NAME.*--frame N.*--y-up.*--skin FILE.*Exit status: 0 done, 1 .*, 2 bad command line\\.[^A-Za-z]*$"
  -DNO_STDERR=1)
md2_export_check(help_via_md2 run "-DARGS=help|export" -DEXIT=0 "-DSTDOUT=^usage: md2 export")
md2_export_check(errors errors)
md2_export_check(keep keep)
md2_export_check(tmpname tmpname)

# --- the bundled models --------------------------------------------------------
# crystal.md2: 18 keyframes, animations spin (8), bounce (6), pulse (4) from
# its frame names, skin.pcx found beside it; blade.md2: one keyframe.
md2_export_case(crystal_glb "${_md2_export_crystal}" crystal.glb yes)
md2_export_case(crystal_gltf "${_md2_export_crystal}" crystal.gltf yes --frame 5)
md2_export_case(crystal_gltf_anim "${_md2_export_crystal}" crystal_bounce.gltf yes
  --anim bounce --frame 1 --y-up)
md2_export_case(crystal_glb_dark "${_md2_export_crystal}" crystal_dark.glb yes
  --skin "${MD2_TOOL_MODELS}/skin_dark.pcx")
md2_export_case(blade_glb "${_md2_export_blade}" blade.glb yes)
md2_export_check(crystal_glb_layout glb "-DFILE=${_md2_export_dir}/crystal.glb" -DIMAGE=1)
set_tests_properties(md2_export_crystal_glb_layout PROPERTIES FIXTURES_REQUIRED md2_export_crystal_glb)
md2_export_check(help_short run "-DARGS=export|-h" -DEXIT=0 "-DSTDOUT=^usage: md2 export MODEL")
md2_export_check(crystal_summary run
  "-DARGS=export|-o|@DIR@/c.glb|${_md2_export_crystal}" -DEXIT=0 -DNO_STDERR=1
  "-DSTDOUT=^wrote .*c\\.glb \\([0-9]+ bytes\\): 28 vertices, 24 triangles, 18 morph targets, 3 animations, skin .*skin\\.pcx \\(128x64, [0-9]+ bytes of PNG\\); quantized positions within [0-9.e-]+ of the model's size\n$")
md2_export_check(crystal_summary_obj run
  "-DARGS=export|-o|@DIR@/s.obj|${_md2_export_crystal}|--anim|spin" -DEXIT=0 -DNO_STDERR=1
  "-DSTDOUT=^wrote .*s_000\\.obj \\.\\. .*s_007\\.obj \\(the 8 keyframes of animation spin\\), .*s\\.mtl and .*s\\.png: 14 vertices, 28 texture coordinates, 24 triangles each, skin .*skin\\.pcx \\(128x64\\)\n$")

# Animations from a side file (a copy of crystal.md2 with a .anm beside
# it): rates of their own, a one-frame looping pose, and rate 0, which holds
# the first frame (a warning, not an error), once and looping. No skin is
# found beside the copy.
set(_md2_export_anm "${_md2_export_dir}/anm")
file(MAKE_DIRECTORY "${_md2_export_anm}")
configure_file("${_md2_export_crystal}" "${_md2_export_anm}/crystal.md2" COPYONLY)
file(WRITE "${_md2_export_anm}/crystal.anm"
  "// written by examples/md2/export.cmake\n"
  "spin 0 7 12.5\n"
  "dead 8 8 0\n"
  "pose 9 9 5\n"
  "bounce 8 13 6\n"
  "death 14 17 4\n"
  "idle 2 5 0\n")
md2_export_case(crystal_anm_glb "${_md2_export_anm}/crystal.md2" crystal_anm.glb no)
md2_export_case(crystal_anm_gltf "${_md2_export_anm}/crystal.md2" crystal_anm_dead.gltf no
  --anim death --frame 2)
# A copy whose .anm holds only a comment: no animation at all, so no
# animation data (and no empty buffer view, which glTF forbids); with a
# skin, the image's view follows the ones before it.
set(_md2_export_noanim "${_md2_export_dir}/noanim")
file(MAKE_DIRECTORY "${_md2_export_noanim}")
configure_file("${_md2_export_crystal}" "${_md2_export_noanim}/crystal.md2" COPYONLY)
file(WRITE "${_md2_export_noanim}/crystal.anm" "// no animation: only this comment\n")
md2_export_case(crystal_noanim_glb "${_md2_export_noanim}/crystal.md2" crystal_noanim.glb no)
md2_export_case(crystal_noanim_gltf "${_md2_export_noanim}/crystal.md2" crystal_noanim.gltf yes
  --skin "${MD2_TOOL_MODELS}/skin.pcx" --frame 3)
md2_export_check(noanim_summary run
  "-DARGS=export|${_md2_export_noanim}/crystal.md2|-o|@DIR@/c.glb" -DEXIT=0
  "-DSTDOUT=18 morph targets, 0 animations, no skin")
md2_export_check(anm_warning run "-DARGS=export|${_md2_export_anm}/crystal.md2|-o|@DIR@/c.glb"
  -DEXIT=0 "-DSTDERR=md2 export: warning: .*crystal\\.anm: line 3.*md2 export: note: no skin file found for .*anm/crystal\\.md2 \\(it names models/crystal/skin\\.pcx, models/crystal/skin_dark\\.pcx\\); no texture \\(--skin FILE gives one\\)\n$"
  "-DSTDOUT=18 morph targets, 6 animations, no skin")

# A model whose own skin is found beside it but cannot be read (not a PCX
# file; a folder): a note, an export without texture, exit 0. A --skin that
# cannot be read stays an error (md2_export_errors).
foreach(_md2_case IN ITEMS badskin badskin_dir)
  set(_md2_dir "${_md2_export_dir}/${_md2_case}")
  file(MAKE_DIRECTORY "${_md2_dir}")
  configure_file("${_md2_export_crystal}" "${_md2_dir}/crystal.md2" COPYONLY)
  if(_md2_case STREQUAL "badskin")
    file(WRITE "${_md2_dir}/skin.pcx" "not a PCX file\n")
  else()
    file(MAKE_DIRECTORY "${_md2_dir}/skin.pcx")
  endif()
endforeach()
md2_export_check(unreadable_skin run
  "-DARGS=export|${_md2_export_dir}/badskin/crystal.md2|-o|@DIR@/c.glb" -DEXIT=0
  "-DSTDERR=^md2 export: note: .*badskin/skin\\.pcx cannot be read \\(.*PCX.*\\); no texture \\(--skin FILE gives one\\)\n$"
  "-DSTDOUT=3 animations, no skin. quantized positions")
md2_export_check(unreadable_skin_dir run
  "-DARGS=export|${_md2_export_dir}/badskin_dir/crystal.md2|-o|@DIR@/c.gltf" -DEXIT=0
  "-DSTDERR=^md2 export: note: .*badskin_dir/skin\\.pcx cannot be read \\(cannot read it\\); no texture \\(--skin FILE gives one\\)\n$"
  "-DSTDOUT=3 animations, no skin. quantized positions")
md2_export_check(unreadable_skin_obj obj
  "-DARGS=export|${_md2_export_dir}/badskin/crystal.md2|-o|@DIR@/c.obj|--frame|4"
  -DFILES=c.obj -DMTL=c.mtl -DPNG= -DV=14 -DVT=28 -DVN=14 -DF=24)
md2_export_case(crystal_badskin_glb "${_md2_export_dir}/badskin/crystal.md2" crystal_badskin.glb no)
unset(_md2_case)
unset(_md2_dir)

# Allocation failures: every allocation of an export made to fail in turn
# (a preloaded malloc, glibc only; not with the sanitizers, whose runtime
# must come first). On the skinless copy of crystal.md2, and on the
# crystal with its PCX skin, which is decoded and encoded as PNG (libpng).
if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND NOT MD2_SANITIZE)
  include(CheckFunctionExists)
  check_function_exists(__libc_malloc MD2_HAVE_LIBC_MALLOC)
  if(MD2_HAVE_LIBC_MALLOC)
    add_library(md2_export_failalloc MODULE export_failalloc.c)
    md2_target_defaults(md2_export_failalloc)
    foreach(_md2_case IN ITEMS "glb|c.glb" "gltf|c.gltf" "obj|c.obj|c.mtl")
      string(REPLACE "|" ";" _md2_case "${_md2_case}")
      list(POP_FRONT _md2_case _md2_format)
      list(GET _md2_case 0 _md2_out)
      string(JOIN "|" _md2_outputs ${_md2_case})
      md2_export_check(alloc_${_md2_format} alloc "-DLIB=$<TARGET_FILE:md2_export_failalloc>"
        "-DARGS=export|${_md2_export_anm}/crystal.md2|-o|@DIR@/${_md2_out}"
        "-DOUTPUTS=${_md2_outputs}")
    endforeach()
    md2_export_check(alloc_glb_skin alloc "-DLIB=$<TARGET_FILE:md2_export_failalloc>"
      "-DARGS=export|${_md2_export_crystal}|-o|@DIR@/c.glb" "-DOUTPUTS=c.glb")
    md2_export_check(alloc_obj_skin alloc "-DLIB=$<TARGET_FILE:md2_export_failalloc>"
      "-DARGS=export|${_md2_export_crystal}|-o|@DIR@/c.obj" "-DOUTPUTS=c.obj|c.mtl|c.png")
    md2_export_check(alloc_obj_anim alloc "-DLIB=$<TARGET_FILE:md2_export_failalloc>"
      "-DARGS=export|${_md2_export_anm}/crystal.md2|-o|@DIR@/s.obj|--anim|death"
      "-DOUTPUTS=s.mtl|s_000.obj|s_001.obj|s_002.obj|s_003.obj")
    unset(_md2_case)
    unset(_md2_format)
    unset(_md2_out)
    unset(_md2_outputs)
  endif()
  # link() failing while an old file is kept aside (a preloaded link()):
  # a name taken in between, no hard links, an error
  add_library(md2_export_linkfail MODULE export_linkfail.c)
  md2_target_defaults(md2_export_linkfail)
  md2_export_check(linkfail linkfail "-DLIB=$<TARGET_FILE:md2_export_linkfail>")
endif()

# OBJ: crystal has 14 vertices, 28 texcoords, 24 triangles. Every obj
# check also compares each v, vt, vn and f line with libmd2's values for
# the keyframes asked for (export_obj_check.c).
md2_export_check(obj_crystal obj "-DARGS=export|${_md2_export_crystal}|-o|@DIR@/crystal.obj|--frame|3"
  -DFILES=crystal.obj -DMTL=crystal.mtl -DPNG=crystal.png -DV=14 -DVT=28 -DVN=14 -DF=24
  "-DHEADER=keyframe 3 \\(spin04\\)"
  # MD2 triangle 0 is vertices 0 1 6, texcoords 14 15 20: corners 0, 2, 1, from 1
  "-DFIRST_FACE=^f 1/15/1 7/21/7 2/16/2$")
md2_export_check(obj_crystal_y_up obj
  "-DARGS=export|${_md2_export_crystal}|-o|@DIR@/crystal.OBJ|--frame|3|--y-up"
  -DFILES=crystal.OBJ -DMTL=crystal.mtl -DPNG=crystal.png -DV=14 -DVT=28 -DVN=14 -DF=24
  "-DYUP_OF=${_md2_export_dir}/obj_crystal/crystal.obj")
set_tests_properties(md2_export_obj_crystal_y_up PROPERTIES DEPENDS md2_export_obj_crystal)
md2_export_check(obj_crystal_anim obj "-DARGS=export|${_md2_export_crystal}|-o|@DIR@/spin.obj|--anim|spin"
  "-DFILES=spin_000.obj|spin_001.obj|spin_002.obj|spin_003.obj|spin_004.obj|spin_005.obj|spin_006.obj|spin_007.obj"
  -DMTL=spin.mtl -DPNG=spin.png -DV=14 -DVT=28 -DVN=14 -DF=24
  "-DHEADER=animation spin frame [0-7] of 8$")
# --frame with --anim counts in the animation: bounce's third keyframe is
# keyframe 10 of the model, and only it is written
md2_export_check(obj_crystal_anim_frame obj
  "-DARGS=export|${_md2_export_crystal}|-o|@DIR@/b.obj|--anim|bounce|--frame|2"
  -DFILES=b.obj -DMTL=b.mtl -DPNG=b.png -DV=14 -DVT=28 -DVN=14 -DF=24
  "-DHEADER=keyframe 10 \\(bounce03\\)$")
md2_export_check(obj_crystal_anim_y_up obj
  "-DARGS=export|${_md2_export_crystal}|-o|@DIR@/p.obj|--anim|pulse|--y-up"
  "-DFILES=p_000.obj|p_001.obj|p_002.obj|p_003.obj" -DMTL=p.mtl -DPNG=p.png -DV=14 -DVT=28 -DVN=14 -DF=24)
md2_export_check(obj_blade obj "-DARGS=export|${_md2_export_blade}|-o|@DIR@/blade.obj"
  -DFILES=blade.obj -DMTL=blade.mtl -DPNG=blade.png -DV=6 -DVT=4 -DVN=6 -DF=8)
md2_export_case(crystal_obj "${_md2_export_crystal}" crystal.obj yes --frame 17 --y-up)
md2_export_case(crystal_obj_anim "${_md2_export_crystal}" pulse.obj yes --anim pulse)

# --- odd models (export_make_model.c) ----------------------------------------
# long.md2: one animation of 1001 keyframes (OBJ names of four digits,
# sparse weight indices of 32 bits); flat.md2: no triangle (no glTF, an OBJ
# without faces); big.md2: 65,538 welded vertices (32-bit indices).
add_executable(md2_export_make_model export_make_model.c)
md2_target_defaults(md2_export_make_model)
target_link_libraries(md2_export_make_model PRIVATE md2::md2)
if(MD2_HAVE_LIBM)
  target_link_libraries(md2_export_make_model PRIVATE m)
endif()
set(_md2_export_made "${_md2_export_dir}/made")
file(MAKE_DIRECTORY "${_md2_export_made}")
add_test(NAME md2_export_make_models
  COMMAND "${CMAKE_COMMAND}"
          -E chdir "${_md2_export_made}" "${CMAKE_COMMAND}" -E env
          "$<TARGET_FILE:md2_export_make_model>" long long.md2)
add_test(NAME md2_export_make_models_flat
  COMMAND md2_export_make_model flat "${_md2_export_made}/flat.md2")
add_test(NAME md2_export_make_models_big
  COMMAND md2_export_make_model big "${_md2_export_made}/big.md2")
add_test(NAME md2_export_make_models_far
  COMMAND md2_export_make_model far "${_md2_export_made}/far.md2")
add_test(NAME md2_export_make_models_farther
  COMMAND md2_export_make_model farther "${_md2_export_made}/farther.md2")
add_test(NAME md2_export_make_models_esc
  COMMAND md2_export_make_model esc "${_md2_export_made}/esc.md2")
set_tests_properties(md2_export_make_models md2_export_make_models_flat
  md2_export_make_models_big md2_export_make_models_far md2_export_make_models_farther
  md2_export_make_models_esc
  PROPERTIES FIXTURES_SETUP md2_export_made)
md2_export_case(long_glb "${_md2_export_made}/long.md2" long.glb no --frame 1000)
set(_md2_export_ref_extra --max-samples 3)
md2_export_case(big_glb "${_md2_export_made}/big.md2" big.glb no --frame 1)
unset(_md2_export_ref_extra)
# far.md2: 2 units across, 1000 from the origin on every axis. Its float
# base positions are up to a step from the midpoints they round, and the
# node scale is a float: every keyframe must still be within s / 2 of
# libmd2's, 7.6e-6 of the model's size (three.js, whose float key times put
# a little weight on the neighbouring keyframe, within the usual 1e-5).
# farther.md2, the same 100,000 units away, has bases up to 128 steps off:
# s must grow for the offsets to fit. Only the keyframes are compared:
# between them libmd2's own float blend, that far out, is off the exact one
# by more than that (2.3e-5 of the size at 1000 units).
set(_md2_export_ref_extra --keyframes)
md2_export_case(far_glb "${_md2_export_made}/far.md2" far.glb no --frame 5)
md2_export_case(far_gltf "${_md2_export_made}/far.md2" far.gltf no --frame 17)
md2_export_case(farther_glb "${_md2_export_made}/farther.md2" farther.glb no)
unset(_md2_export_ref_extra)
# esc.md2: its animation is named ESC "[2Jx": messages show the byte as \x1B
md2_export_check(anim_name_escape run "-DARGS=export|${_md2_export_made}/esc.md2|-o|@DIR@/x.glb|--anim|nope"
  -DEXIT=1 -DEMPTY=1
  "-DSTDERR=^md2 export: the model has no animation named 'nope'. it has: \\\\x1B\\[2Jx\n$")
set_tests_properties(md2_export_anim_name_escape PROPERTIES FIXTURES_REQUIRED md2_export_made)
set(_md2_export_long_files "")
foreach(_md2_i RANGE 0 1000)
  string(LENGTH "${_md2_i}" _md2_n)
  math(EXPR _md2_n "4 - ${_md2_n}")
  string(REPEAT "0" ${_md2_n} _md2_zeros)
  string(APPEND _md2_export_long_files "|long_${_md2_zeros}${_md2_i}.obj")
endforeach()
string(SUBSTRING "${_md2_export_long_files}" 1 -1 _md2_export_long_files)
md2_export_check(obj_long obj "-DARGS=export|${_md2_export_made}/long.md2|-o|@DIR@/long.obj|--anim|long"
  "-DFILES=${_md2_export_long_files}" -DFIRST_LAST=1 -DMTL=long.mtl -DPNG= -DV=4 -DVT=3 -DVN=4 -DF=4
  "-DHEADER=keyframe [0-9]+ \\(long[0-9]+\\), animation long frame [0-9]+ of 1001$")
md2_export_check(obj_flat obj "-DARGS=export|${_md2_export_made}/flat.md2|-o|@DIR@/flat.obj|--frame|1"
  -DFILES=flat.obj -DMTL=flat.mtl -DPNG= -DV=4 -DVT=1 -DVN=4 -DF=0)
md2_export_check(no_skin_name run "-DARGS=export|${_md2_export_made}/flat.md2|-o|@DIR@/flat.obj"
  -DEXIT=0 "-DSTDERR=^md2 export: note: .*flat\\.md2 names no skin; no texture \\(--skin FILE gives one\\)\n$"
  "-DSTDOUT=^wrote .*flat\\.obj \\(keyframe 0\\) and .*flat\\.mtl: 4 vertices, 1 texture coordinate, 0 triangles, no skin\n$")
md2_export_check(flat_gltf run "-DARGS=export|${_md2_export_made}/flat.md2|-o|@DIR@/flat.gltf"
  -DEXIT=1 -DEMPTY=1 "-DSTDERR=^md2 export: .*flat\\.md2 has no triangles: there is no mesh to write as glTF")
set_tests_properties(md2_export_obj_long md2_export_obj_flat md2_export_flat_gltf
  md2_export_no_skin_name PROPERTIES
  FIXTURES_REQUIRED md2_export_made)
unset(_md2_i)
unset(_md2_n)
unset(_md2_zeros)
unset(_md2_export_long_files)

# --- the corpus (../shared/corpus; skipped in a clone without it) -----------
if(EXISTS "${MD2_TOOL_CORPUS}/faerie.md2" AND EXISTS "${MD2_TOOL_CORPUS}/sydney.md2")
  foreach(_md2_model IN ITEMS faerie sydney)
    set(_md2_path "${MD2_TOOL_CORPUS}/${_md2_model}.md2")
    set(_md2_skin "${MD2_TOOL_CORPUS}/${_md2_model}.bmp")
    if(_md2_model STREQUAL "faerie")
      set(_md2_skin "${MD2_TOOL_CORPUS}/faerie2.bmp")
    endif()
    # the model names no skin: the plain export has no image
    md2_export_case(${_md2_model}_glb "${_md2_path}" ${_md2_model}.glb no)
    md2_export_case(${_md2_model}_glb_skin "${_md2_path}" ${_md2_model}_skin.glb yes
      --skin "${_md2_skin}" --frame 60)
    md2_export_case(${_md2_model}_gltf "${_md2_path}" ${_md2_model}.gltf yes
      --skin "${_md2_skin}" --frame 197)
    md2_export_case(${_md2_model}_gltf_run "${_md2_path}" ${_md2_model}_run.gltf no --anim run)
    md2_export_case(${_md2_model}_obj "${_md2_path}" ${_md2_model}.obj yes
      --skin "${_md2_skin}" --frame 100)
    # size: at most 4 times the .md2, without the image
    md2_export_check(${_md2_model}_size glb "-DFILE=${_md2_export_dir}/${_md2_model}.glb"
      "-DMODEL=${_md2_path}" -DRATIO=4 -DIMAGE=0)
    set_tests_properties(md2_export_${_md2_model}_size PROPERTIES
      FIXTURES_REQUIRED md2_export_${_md2_model}_glb)
    md2_export_check(${_md2_model}_size_skin glb "-DFILE=${_md2_export_dir}/${_md2_model}_skin.glb"
      "-DMODEL=${_md2_path}" -DRATIO=4 -DIMAGE=1)
    set_tests_properties(md2_export_${_md2_model}_size_skin PROPERTIES
      FIXTURES_REQUIRED md2_export_${_md2_model}_glb_skin)
  endforeach()
  # faerie: 366 vertices, 487 texcoords, 654 triangles; run is keyframes 40-45
  md2_export_check(no_skin_note run
    "-DARGS=export|${MD2_TOOL_CORPUS}/sydney.md2|-o|@DIR@/s.gltf|--anim|run" -DEXIT=0
    "-DSTDERR=^md2 export: note: .*sydney\\.md2 names no skin; no texture \\(--skin FILE gives one\\)\n$"
    "-DSTDOUT=1 animation, no skin")
  md2_export_check(obj_faerie_run obj
    "-DARGS=export|${MD2_TOOL_CORPUS}/faerie.md2|-o|@DIR@/run.obj|--anim|run|--skin|${MD2_TOOL_CORPUS}/faerie2.bmp"
    "-DFILES=run_000.obj|run_001.obj|run_002.obj|run_003.obj|run_004.obj|run_005.obj"
    -DMTL=run.mtl -DPNG=run.png -DV=366 -DVT=487 -DVN=366 -DF=654
    "-DHEADER=keyframe 4[0-5] \\(run[0-9]+\\), animation run frame [0-5] of 6$")
  unset(_md2_model)
  unset(_md2_path)
  unset(_md2_skin)
else()
  message(STATUS "libmd2: md2 export corpus tests skipped: no ${MD2_TOOL_CORPUS}")
endif()
unset(_md2_export_judges_missing)
unset(_md2_package)
