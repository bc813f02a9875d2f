# md2 render: sources and tests (see CMakeLists.txt)
# SPDX-License-Identifier: MIT
target_sources(md2_tool PRIVATE render.c raster.c raster.h)

if(NOT MD2_BUILD_TESTS)
  return()
endif()

# Test programs: the rasterizer's unit tests, the test cube and the checker
# of pictures (each says what it does at its top).
add_executable(render_raster_test render_raster_test.c raster.c raster.h)
add_executable(render_make_cube render_make_cube.c)
add_executable(render_check render_check.c)
foreach(_r_prog IN ITEMS render_raster_test render_make_cube render_check)
  md2_target_defaults(${_r_prog})
  if(MD2_HAVE_LIBM)
    target_link_libraries(${_r_prog} PRIVATE m)
  endif()
endforeach()
target_link_libraries(render_make_cube PRIVATE md2::md2 md2_stb)
target_link_libraries(render_check PRIVATE md2::md2 md2_stb)

set(_r_out "${MD2_TOOL_TEST_DIR}/render")
set(_r_cube_dir "${_r_out}/cube")
set(_r_cube "${_r_cube_dir}/cube.md2")
set(_r_cube_skin "${_r_cube_dir}/skin.png")
set(_r_crystal "${MD2_TOOL_MODELS}/crystal.md2")
file(MAKE_DIRECTORY "${_r_cube_dir}" "${_r_out}/noskin" "${_r_out}/badskin" "${_r_out}/empty")

add_test(NAME md2_render_raster COMMAND render_raster_test)

# The test models: the cube with its skin, without it, with a broken one,
# and the first 500 bytes of the crystal.
add_test(NAME md2_render_make_cube COMMAND render_make_cube "${_r_cube_dir}")
add_test(NAME md2_render_make_noskin COMMAND render_make_cube --model-only "${_r_out}/noskin")
add_test(NAME md2_render_make_empty COMMAND render_make_cube --empty "${_r_out}/empty")
add_test(NAME md2_render_make_badskin COMMAND render_make_cube --broken-skin "${_r_out}/badskin")
add_test(NAME md2_render_make_truncated
  COMMAND render_make_cube --truncate "${_r_crystal}" "${_r_out}/truncated.md2" 500)
set_tests_properties(md2_render_make_cube PROPERTIES FIXTURES_SETUP md2_render_cube)
set_tests_properties(md2_render_make_noskin PROPERTIES FIXTURES_SETUP md2_render_noskin)
set_tests_properties(md2_render_make_empty PROPERTIES FIXTURES_SETUP md2_render_empty)
set_tests_properties(md2_render_make_badskin PROPERTIES FIXTURES_SETUP md2_render_badskin)
set_tests_properties(md2_render_make_truncated PROPERTIES FIXTURES_SETUP md2_render_truncated)

# md2_render_picture(<name> <model> [RENDER args...] [CHECK args...]
#                    [NEEDS fixtures...] [EXPECT regex]):
# test <name> runs `md2 render <model> -o <name>.png RENDER...` directly
# (so valgrind passes see the command itself), and <name>_check runs
# render_check on the picture with the same RENDER arguments and CHECK.
# EXPECT: a regular expression the run's output must match (the exit
# status is then not looked at; the check fails without a picture).
function(md2_render_picture name model)
  cmake_parse_arguments(PARSE_ARGV 2 _p "" "EXPECT;CHECK_EXPECT" "RENDER;CHECK;NEEDS")
  set(_png "${_r_out}/${name}.png")
  add_test(NAME ${name} COMMAND md2_tool render "${model}" -o "${_png}" ${_p_RENDER})
  set_tests_properties(${name} PROPERTIES FIXTURES_SETUP ${name} FIXTURES_REQUIRED "${_p_NEEDS}")
  if(_p_EXPECT)
    set_tests_properties(${name} PROPERTIES PASS_REGULAR_EXPRESSION "${_p_EXPECT}")
  endif()
  add_test(NAME ${name}_check
    COMMAND render_check "${model}" "${_png}" ${_p_RENDER} ${_p_CHECK})
  set_tests_properties(${name}_check PROPERTIES FIXTURES_REQUIRED "${name};${_p_NEEDS}")
  if(_p_CHECK_EXPECT)
    set_tests_properties(${name}_check PROPERTIES PASS_REGULAR_EXPRESSION "${_p_CHECK_EXPECT}")
  endif()
endfunction()

# md2_render_script(<name> RC <status> ARGS <md2 args...> [ERR regex]
#                   [STDOUT regex] [KEEP] [SAME] [EXT .ext] [NEEDS fixtures...]):
# runs render_test.cmake (see there). An argument @OUT@ stands for the
# test's own output <name>.png (EXT: <name>.ext instead), which then must
# exist after a run that succeeds and must not (KEEP: must be unchanged)
# after one that fails. SAME: a second run into <name>_again.png must give
# the same bytes. RC 2 (a usage error): stdout must be empty, and stderr
# the message on one line, then the usage.
function(md2_render_script name)
  cmake_parse_arguments(PARSE_ARGV 1 _s "KEEP;SAME" "RC;ERR;STDOUT;EXT" "ARGS;NEEDS")
  if(NOT DEFINED _s_EXT)
    set(_s_EXT ".png")
  endif()
  set(_png "${_r_out}/${name}${_s_EXT}")
  set(_defs "-DTOOL=$<TARGET_FILE:md2_tool>" "-DRC=${_s_RC}")
  if("@OUT@" IN_LIST _s_ARGS)
    list(TRANSFORM _s_ARGS REPLACE "^@OUT@$" "${_png}")
    list(APPEND _defs "-DOUT=${_png}")
  endif()
  list(JOIN _s_ARGS "|" _args)
  list(APPEND _defs "-DARGS=${_args}")
  foreach(_k IN ITEMS ERR STDOUT)
    if(DEFINED _s_${_k})
      list(APPEND _defs "-D${_k}=${_s_${_k}}")
    endif()
  endforeach()
  if(_s_KEEP)
    list(APPEND _defs "-DKEEP=ON")
  endif()
  if(_s_SAME)
    list(APPEND _defs "-DSAME=${_r_out}/${name}_again.png")
  endif()
  add_test(NAME ${name}
    COMMAND "${CMAKE_COMMAND}" ${_defs} -P "${CMAKE_CURRENT_SOURCE_DIR}/render_test.cmake")
  # script: tests/run.sh's valgrind pass runs md2 under valgrind, not cmake
  set_property(TEST ${name} APPEND PROPERTY LABELS script)
  if(_s_NEEDS)
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED "${_s_NEEDS}")
  endif()
endfunction()

# ---- the cube: texels, light, silhouettes, wireframe, sheets --------------
md2_render_picture(md2_render_cube_unlit "${_r_cube}" NEEDS md2_render_cube
  RENDER --unlit --size 256x256 CHECK --convex --skin "${_r_cube_skin}")
md2_render_picture(md2_render_cube_lit "${_r_cube}" NEEDS md2_render_cube
  RENDER --size 256x256 CHECK --convex --skin "${_r_cube_skin}")
md2_render_picture(md2_render_cube_behind "${_r_cube}" NEEDS md2_render_cube
  RENDER --unlit --yaw 210 --pitch -35 --size 200x160 CHECK --convex --skin "${_r_cube_skin}")
md2_render_picture(md2_render_cube_above "${_r_cube}" NEEDS md2_render_cube
  RENDER --yaw -60 --pitch 80 --size 160x200 CHECK --convex --skin "${_r_cube_skin}")
md2_render_picture(md2_render_cube_wide "${_r_cube}" NEEDS md2_render_cube
  RENDER --unlit --size 300x90 --yaw 120 CHECK --convex --skin "${_r_cube_skin}")
md2_render_picture(md2_render_cube_wireframe "${_r_cube}" NEEDS md2_render_cube
  RENDER --wireframe --unlit --size 256x256 CHECK --convex --skin "${_r_cube_skin}")
md2_render_picture(md2_render_cube_wireframe_lit "${_r_cube}" NEEDS md2_render_cube
  RENDER --wireframe --size 200x200 --yaw -20 CHECK --convex --skin "${_r_cube_skin}")
md2_render_picture(md2_render_cube_frame "${_r_cube}" NEEDS md2_render_cube
  RENDER --frame 3 --unlit --size 128x128 CHECK --convex --skin "${_r_cube_skin}"
  CHECK_EXPECT "cell 0: keyframe 3,.*is right")
md2_render_picture(md2_render_cube_anim_frame "${_r_cube}" NEEDS md2_render_cube
  RENDER --anim grow --frame 2 --unlit --size 128x128 CHECK --convex --skin "${_r_cube_skin}"
  CHECK_EXPECT "cell 0: keyframe 2,.*is right")
# 5 keyframes in 6 cells: one a cell, the last cell empty
md2_render_picture(md2_render_cube_sheet "${_r_cube}" NEEDS md2_render_cube
  RENDER --anim grow --sheet 3x2 --size 96x96 --unlit
  CHECK --convex --skin "${_r_cube_skin}"
  CHECK_EXPECT "cell 4: keyframe 4,.*cell 5: empty.*is right")
# 5 keyframes spread over 4 cells: 0, 1 (4/3), 3 (8/3), 4
md2_render_picture(md2_render_cube_sheet_spread "${_r_cube}" NEEDS md2_render_cube
  RENDER --sheet 2x2 --size 96x80 --unlit --yaw 45
  CHECK --convex --skin "${_r_cube_skin}"
  CHECK_EXPECT "cell 0: keyframe 0,.*cell 1: keyframe 1,.*cell 2: keyframe 3,.*cell 3: keyframe 4,.*is right")
# no skin beside the model: light grey (with a note), or --skin
md2_render_picture(md2_render_cube_noskin "${_r_out}/noskin/cube.md2" NEEDS md2_render_noskin
  RENDER --unlit --size 128x128 CHECK --convex --plain
  EXPECT "md2 render: note: no skin file found for .*cube.md2; drawing it light grey")
md2_render_picture(md2_render_cube_noskin_lit "${_r_out}/noskin/cube.md2" NEEDS md2_render_noskin
  RENDER --size 128x128 CHECK --convex --plain)
md2_render_picture(md2_render_cube_skin_option "${_r_out}/noskin/cube.md2"
  NEEDS md2_render_noskin md2_render_cube
  RENDER --unlit --size 128x128 --skin "${_r_cube_skin}" CHECK --convex)
md2_render_picture(md2_render_cube_skin_2x "${_r_cube}" NEEDS md2_render_cube
  RENDER --size 200x200 --skin "${_r_cube_dir}/skin_2x.png"
  CHECK --convex)
md2_render_picture(md2_render_cube_badskin "${_r_out}/badskin/cube.md2" NEEDS md2_render_badskin
  RENDER --unlit --size 128x128 CHECK --convex --plain
  EXPECT "md2 render: .*skin.png.*\nmd2 render: note: drawing .*cube.md2 light grey instead")
# a model without triangles: a picture, all of it transparent
md2_render_picture(md2_render_no_triangles "${_r_out}/empty/cube.md2" NEEDS md2_render_empty
  RENDER --size 64x48 --sheet 2x1 CHECK_EXPECT "cell 1: keyframe 4, 0 opaque pixels.*is right")
md2_render_script(md2_render_cube_same NEEDS md2_render_cube RC 0
  ARGS render "${_r_cube}" -o @OUT@ --size 200x150 SAME)
md2_render_script(md2_render_cube_same_sheet NEEDS md2_render_cube RC 0
  ARGS render "${_r_cube}" -o @OUT@ --sheet 3x2 --wireframe --yaw 77 SAME)
md2_render_script(md2_render_cube_largest_side NEEDS md2_render_cube RC 0
  ARGS render "${_r_cube}" -o @OUT@ --size 16384x2)

# ---- the bundled crystal ---------------------------------------------------
md2_render_picture(md2_render_crystal "${_r_crystal}")
md2_render_picture(md2_render_crystal_sheet "${_r_crystal}"
  RENDER --anim spin --sheet 4x2 --size 160x160)
md2_render_picture(md2_render_crystal_anim "${_r_crystal}"
  RENDER --anim bounce --size 200x300 CHECK_EXPECT "cell 0: keyframe 8,.*is right")
md2_render_picture(md2_render_crystal_sheet_default_size "${_r_crystal}"
  RENDER --anim pulse --sheet 2x1 CHECK_EXPECT "cell 1: keyframe 17,.*is right")
md2_render_picture(md2_render_crystal_wireframe "${_r_crystal}"
  RENDER --wireframe --size 300x300 --yaw -40 --pitch 30)

# ---- the corpus, when ../shared is there -----------------------------------
set(_r_faerie "${MD2_TOOL_CORPUS}/faerie.md2")
set(_r_sydney "${MD2_TOOL_CORPUS}/sydney.md2")
if(EXISTS "${_r_faerie}" AND EXISTS "${MD2_TOOL_CORPUS}/faerie2.bmp")
  md2_render_picture(md2_render_faerie "${_r_faerie}"
    RENDER --skin "${MD2_TOOL_CORPUS}/faerie2.bmp")
  md2_render_picture(md2_render_faerie_sheet "${_r_faerie}"
    RENDER --skin "${MD2_TOOL_CORPUS}/faerie2.bmp" --anim stand --sheet 4x4 --size 128x128)
  md2_render_picture(md2_render_faerie_back "${_r_faerie}"
    RENDER --skin "${MD2_TOOL_CORPUS}/faerie2.bmp" --frame 120 --yaw 200 --pitch -10
    --size 320x400)
endif()
if(EXISTS "${_r_sydney}" AND EXISTS "${MD2_TOOL_CORPUS}/sydney.bmp")
  md2_render_picture(md2_render_sydney "${_r_sydney}"
    RENDER --skin "${MD2_TOOL_CORPUS}/sydney.bmp" --yaw -30 --size 400x400)
  md2_render_picture(md2_render_sydney_wireframe "${_r_sydney}"
    RENDER --skin "${MD2_TOOL_CORPUS}/sydney.bmp" --wireframe)
  md2_render_picture(md2_render_sydney_sheet "${_r_sydney}"
    RENDER --skin "${MD2_TOOL_CORPUS}/sydney.bmp" --sheet 5x3 --size 96x128 --unlit)
endif()

# ---- help and errors: message, exit status, nothing written ----------------
md2_render_script(md2_render_help RC 0 ARGS render --help STDOUT "^usage: md2 render MODEL")
md2_render_script(md2_render_help_short RC 0 ARGS render -h STDOUT "^usage: md2 render MODEL")
md2_render_script(md2_render_help_command RC 0 ARGS help render STDOUT "^usage: md2 render")
md2_render_script(md2_render_err_missing RC 1
  ARGS render "${_r_out}/no-such-model.md2" -o @OUT@
  ERR "^md2 render: .*no-such-model.md2.*no such file")
md2_render_script(md2_render_err_directory RC 1
  ARGS render "${_r_out}" -o @OUT@ ERR "^md2 render: .*(is a directory|cannot be read)")
md2_render_script(md2_render_err_truncated RC 1 NEEDS md2_render_truncated
  ARGS render "${_r_out}/truncated.md2" -o @OUT@ ERR "^md2 render: .*truncated.md2")
md2_render_script(md2_render_err_not_md2 RC 1 NEEDS md2_render_cube
  ARGS render "${_r_cube_skin}" -o @OUT@ ERR "^md2 render: ")
md2_render_script(md2_render_err_anim RC 1
  ARGS render "${_r_crystal}" -o @OUT@ --anim nosuch --sheet 2x2
  ERR "^md2 render: the model has no animation named 'nosuch'; it has: spin bounce pulse")
md2_render_script(md2_render_err_frame RC 1
  ARGS render "${_r_crystal}" -o @OUT@ --frame 18
  ERR "^md2 render: --frame 18 is out of range: the model has 18 keyframes \\(0 to 17\\)")
md2_render_script(md2_render_err_anim_frame RC 1 NEEDS md2_render_cube
  ARGS render "${_r_cube}" -o @OUT@ --anim grow --frame 5
  ERR "^md2 render: --frame 5 is out of range: animation 'grow' has 5 keyframes \\(0 to 4\\)")
# blade.md2 has one keyframe (and one animation of it, from its frame name)
md2_render_script(md2_render_err_frame_one RC 1
  ARGS render "${MD2_TOOL_MODELS}/blade.md2" -o @OUT@ --frame 1
  ERR "^md2 render: --frame 1 is out of range: the model has 1 keyframe \\(0 to 0\\)\n$")
md2_render_script(md2_render_err_anim_frame_one RC 1
  ARGS render "${MD2_TOOL_MODELS}/blade.md2" -o @OUT@ --anim blade --frame 1
  ERR "^md2 render: --frame 1 is out of range: animation 'blade' has 1 keyframe \\(0 to 0\\)\n$")
md2_render_script(md2_render_err_skin RC 1
  ARGS render "${_r_crystal}" -o @OUT@ --skin "${_r_out}/no-such-skin.png"
  ERR "^md2 render: .*no-such-skin.png")
md2_render_script(md2_render_err_unwritable RC 1
  ARGS render "${_r_crystal}" -o "${_r_out}/no-such-folder/out.png"
  ERR "^md2 render: cannot write .*no-such-folder/out.png")
md2_render_script(md2_render_err_keeps_old_file RC 1 KEEP
  ARGS render "${_r_crystal}" -o @OUT@ --anim nosuch ERR "no animation named")
foreach(_r_case IN ITEMS "size;0x10" "size;16385x16" "size;64" "size;axb" "size;64x64x2"
                         "sheet;0x2" "sheet;257x1" "sheet;2" "frame;-1" "frame;x"
                         "pitch;90" "pitch;-89.5" "yaw;abc" "yaw;2e6")
  list(GET _r_case 0 _r_opt)
  list(GET _r_case 1 _r_value)
  string(MAKE_C_IDENTIFIER "${_r_opt}_${_r_value}" _r_id)
  md2_render_script(md2_render_usage_${_r_id} RC 2
    ARGS render "${_r_crystal}" -o @OUT@ --${_r_opt} "${_r_value}"
    ERR "^md2 render: bad --${_r_opt} '")
endforeach()
# the ranges of the angles, in whole numbers
md2_render_script(md2_render_usage_yaw_range RC 2
  ARGS render "${_r_crystal}" -o @OUT@ --yaw 1000001
  ERR "^md2 render: bad --yaw '1000001': expected degrees from -1000000 to 1000000\n")
md2_render_script(md2_render_usage_pitch_range RC 2
  ARGS render "${_r_crystal}" -o @OUT@ --pitch -90
  ERR "^md2 render: bad --pitch '-90': expected degrees from -89 to 89\n")
# the extreme angles themselves are allowed
md2_render_script(md2_render_angle_limits RC 0
  ARGS render "${_r_crystal}" -o @OUT@ --size 32x32 --yaw -1000000 --pitch 89)
# an option given twice, even with the same value, or as -o and --output
foreach(_r_case IN ITEMS "-o;-o" "--output;-o" "--size;--size" "--sheet;--sheet"
                         "--frame;--frame" "--anim;--anim" "--skin;--skin" "--yaw;--yaw"
                         "--pitch;--pitch" "--wireframe;--wireframe" "--unlit;--unlit")
  list(GET _r_case 0 _r_first)
  list(GET _r_case 1 _r_second)
  string(MAKE_C_IDENTIFIER "${_r_first}${_r_second}" _r_id)
  if(_r_first STREQUAL "-o" OR _r_first STREQUAL "--output")
    set(_r_args ${_r_first} @OUT@ ${_r_second} @OUT@)
  else()
    set(_r_value "")
    foreach(_r_pair IN ITEMS "--size;64x64" "--sheet;2x1" "--frame;1" "--anim;spin"
                             "--skin;${MD2_TOOL_MODELS}/skin.pcx" "--yaw;10" "--pitch;10")
      list(GET _r_pair 0 _r_name)
      if(_r_name STREQUAL _r_first)
        list(GET _r_pair 1 _r_value)
      endif()
    endforeach()
    set(_r_args -o @OUT@ ${_r_first} ${_r_value} ${_r_second} ${_r_value})
  endif()
  md2_render_script(md2_render_usage_twice${_r_id} RC 2
    ARGS render "${_r_crystal}" ${_r_args} ERR "^md2 render: ${_r_second} is given twice\n")
endforeach()
# the output must be named *.png, in any letter case
md2_render_script(md2_render_usage_not_png RC 2 EXT .jpg
  ARGS render "${_r_crystal}" -o @OUT@
  ERR "^md2 render: the output must end in .png \\('.*md2_render_usage_not_png.jpg' does not\\)\n")
md2_render_script(md2_render_usage_png_dot_txt RC 2 EXT .png.txt
  ARGS render "${_r_crystal}" -o @OUT@ ERR "^md2 render: the output must end in .png ")
md2_render_script(md2_render_usage_png_no_dot RC 2 EXT _png
  ARGS render "${_r_crystal}" -o @OUT@ ERR "^md2 render: the output must end in .png ")
md2_render_script(md2_render_png_upper_case RC 0 EXT .PNG
  ARGS render "${_r_crystal}" -o @OUT@ --size 32x32)
md2_render_script(md2_render_png_mixed_case RC 0 EXT .pNg
  ARGS render "${_r_crystal}" -o @OUT@ --size 32x32)
md2_render_script(md2_render_usage_sheet_pixels RC 2
  ARGS render "${_r_crystal}" -o @OUT@ --sheet 200x1 --size 100x100
  ERR "^md2 render: a 200x1 sheet of 100x100 cells would be 20000x100 pixels; at most 16384 a side")
md2_render_script(md2_render_usage_frame_and_sheet RC 2
  ARGS render "${_r_crystal}" -o @OUT@ --frame 1 --sheet 2x2
  ERR "^md2 render: --frame and --sheet do not mix")
md2_render_script(md2_render_usage_no_output RC 2
  ARGS render "${_r_crystal}" ERR "^md2 render: no output: give -o OUT.png")
md2_render_script(md2_render_usage_no_model RC 2
  ARGS render -o @OUT@ ERR "^md2 render: no MODEL given")
md2_render_script(md2_render_usage_two_models RC 2
  ARGS render "${_r_crystal}" "${_r_crystal}" -o @OUT@ ERR "^md2 render: one MODEL only")
md2_render_script(md2_render_usage_unknown_option RC 2
  ARGS render "${_r_crystal}" -o @OUT@ --colour red
  ERR "^md2 render: unknown option '--colour'")
md2_render_script(md2_render_double_dash RC 0
  ARGS render -o @OUT@ --size 64x64 -- "${_r_crystal}")
# Out of memory: a 16384 x 16384 picture under a 400 MB address-space limit
# (not with the sanitizers, which reserve far more than that).
find_program(MD2_RENDER_SH sh)
mark_as_advanced(MD2_RENDER_SH)
if(UNIX AND MD2_RENDER_SH AND NOT MD2_SANITIZE)
  set(_r_png "${_r_out}/md2_render_err_out_of_memory.png")
  add_test(NAME md2_render_err_out_of_memory
    COMMAND "${CMAKE_COMMAND}" "-DTOOL=${MD2_RENDER_SH}" -DRC=1 "-DOUT=${_r_png}"
      "-DARGS=-c|ulimit -v 400000 && exec \"$0\" \"$@\"|$<TARGET_FILE:md2_tool>|render|${_r_crystal}|-o|${_r_png}|--size|16384x16384"
      "-DERR=^md2 render: out of memory for a 16384x16384 picture"
      -P "${CMAKE_CURRENT_SOURCE_DIR}/render_test.cmake")
  set_property(TEST md2_render_err_out_of_memory APPEND PROPERTY LABELS script)
  # ... and with room for an 8192 x 8192 picture (256 MiB) but not for its
  # PNG as well: the encoder's own reason (tool_png_encode_why()). Under
  # this limit the picture fits from about 270000 KiB, both from 580000.
  set(_r_png "${_r_out}/md2_render_err_png_out_of_memory.png")
  add_test(NAME md2_render_err_png_out_of_memory
    COMMAND "${CMAKE_COMMAND}" "-DTOOL=${MD2_RENDER_SH}" -DRC=1 "-DOUT=${_r_png}"
      "-DARGS=-c|ulimit -v 400000 && exec \"$0\" \"$@\"|$<TARGET_FILE:md2_tool>|render|${_r_crystal}|-o|${_r_png}|--sheet|64x64|--size|128x128"
      "-DERR=^md2 render: cannot convert the 8192x8192 picture to PNG: out of memory\n$"
      -P "${CMAKE_CURRENT_SOURCE_DIR}/render_test.cmake")
  set_property(TEST md2_render_err_png_out_of_memory APPEND PROPERTY LABELS script)
endif()
md2_render_script(md2_render_usage_missing_value RC 2
  ARGS render "${_r_crystal}" -o ERR "^md2 render: -o needs a value")

unset(_r_case)
unset(_r_opt)
unset(_r_value)
unset(_r_id)
unset(_r_prog)
unset(_r_first)
unset(_r_second)
unset(_r_args)
unset(_r_pair)
unset(_r_name)

# ---- the picture README.md shows (docs/images/crystal_spin.png) ------------
# README's command, checked like the others, must give the committed
# picture pixel for pixel (the rasterizer is deterministic). The pixels
# are compared, not the PNG bytes, which depend on the libpng and zlib
# that wrote them.
md2_render_picture(md2_render_readme "${MD2_TOOL_MODELS}/crystal.md2"
  RENDER --anim spin --sheet 8x1 --size 96x160)
# md2_render_same_pixels(<name> <rc> <a.png> <b.png> <fixtures> <regex>):
# render_check --same-pixels through render_test.cmake, which checks its
# exit status; regex: what it must print (stdout for 0, stderr for 1).
function(md2_render_same_pixels name rc a b fixtures regex)
  if(rc EQUAL 0)
    set(_expect "-DSTDOUT=${regex}")
  else()
    set(_expect "-DERR=${regex}")
  endif()
  add_test(NAME ${name}
    COMMAND "${CMAKE_COMMAND}" "-DTOOL=$<TARGET_FILE:render_check>" "-DRC=${rc}"
      "-DARGS=--same-pixels|${a}|${b}" "${_expect}"
      -P "${CMAKE_CURRENT_SOURCE_DIR}/render_test.cmake")
  # script: tests/run.sh's valgrind pass runs md2 under valgrind, not cmake
  set_property(TEST ${name} APPEND PROPERTY LABELS script)
  set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED "${fixtures}")
endfunction()
md2_render_same_pixels(md2_render_readme_same 0 "${_r_out}/md2_render_readme.png"
  "${PROJECT_SOURCE_DIR}/docs/images/crystal_spin.png" md2_render_readme
  "have the same 768x160 pixels")
# render_check --same-pixels itself: it tells pictures apart by their
# pixels (lit and unlit cubes of one size) and by their size.
md2_render_same_pixels(md2_render_same_pixels_differ 1 "${_r_out}/md2_render_cube_unlit.png"
  "${_r_out}/md2_render_cube_lit.png" "md2_render_cube_unlit;md2_render_cube_lit"
  "^render_check: the pictures differ: [1-9][0-9]* of 65536 pixels, the first at \\([0-9]+, [0-9]+\\): ")
# ... and by alpha alone: the cube drawn black (a 1x1 black PCX skin, made
# from a test PCX by md2_validate_testfile) against the model without
# triangles, all transparent black, at the same size
add_test(NAME md2_render_make_black_skin
  COMMAND md2_validate_testfile "${PROJECT_SOURCE_DIR}/tests/data/pcx/1x1-24.pcx"
          "${_r_out}/black.pcx" set 128 c1000000)
set_tests_properties(md2_render_make_black_skin PROPERTIES FIXTURES_SETUP md2_render_black_skin)
md2_render_script(md2_render_black RC 0 NEEDS md2_render_cube md2_render_black_skin
  ARGS render "${_r_cube}" -o @OUT@ --unlit --skin "${_r_out}/black.pcx" --size 64x48 --sheet 2x1)
set_tests_properties(md2_render_black PROPERTIES FIXTURES_SETUP md2_render_black)
md2_render_same_pixels(md2_render_same_pixels_alpha 1 "${_r_out}/md2_render_black.png"
  "${_r_out}/md2_render_no_triangles.png" "md2_render_black;md2_render_no_triangles"
  "^render_check: the pictures differ: [1-9][0-9]* of 6144 pixels, the first at \\([0-9]+, [0-9]+\\): 0 0 0 255 in .*, 0 0 0 0 in ")
md2_render_same_pixels(md2_render_same_pixels_size 1 "${_r_out}/md2_render_cube_unlit.png"
  "${_r_out}/md2_render_crystal.png" "md2_render_cube_unlit;md2_render_crystal"
  "^render_check: the pictures differ: .*md2_render_cube_unlit.png is 256x256, .*md2_render_crystal.png is 512x512")

# ---- sheets of one cell, and of one row or column --------------------------
# A sheet of one cell (n = 1) shows the first keyframe of the animation, or
# of the model: the same pixels as that pose alone (one camera, fitted to
# that keyframe's box). Sheets of one row or one column spread keyframes
# like any other; a model of one keyframe fills the first cell only.
md2_render_picture(md2_render_sheet_1x1 "${_r_crystal}"
  RENDER --sheet 1x1 --size 96x96 CHECK_EXPECT "^cell 0: keyframe 0,[^\n]*\nrender_check: .* is right")
md2_render_picture(md2_render_sheet_1x1_anim "${_r_crystal}"
  RENDER --anim bounce --sheet 1x1 --size 96x96
  CHECK_EXPECT "^cell 0: keyframe 8,[^\n]*\nrender_check: .* is right")
md2_render_picture(md2_render_sheet_1x1_pose "${_r_crystal}"
  RENDER --anim bounce --size 96x96 CHECK_EXPECT "^cell 0: keyframe 8,.*is right")
md2_render_same_pixels(md2_render_sheet_1x1_same 0 "${_r_out}/md2_render_sheet_1x1_anim.png"
  "${_r_out}/md2_render_sheet_1x1_pose.png" "md2_render_sheet_1x1_anim;md2_render_sheet_1x1_pose"
  "have the same 96x96 pixels")
md2_render_picture(md2_render_sheet_1x1_cube "${_r_cube}" NEEDS md2_render_cube
  RENDER --sheet 1x1 --size 96x96 --unlit CHECK --convex --skin "${_r_cube_skin}"
  CHECK_EXPECT "^cell 0: keyframe 0,[^\n]*\nrender_check: .* is right")
# 8 keyframes (spin: 0 to 7) in 3 cells: 0, 4 (3.5), 7
md2_render_picture(md2_render_sheet_3x1 "${_r_crystal}"
  RENDER --anim spin --sheet 3x1 --size 64x64
  CHECK_EXPECT "^cell 0: keyframe 0,[^\n]*\ncell 1: keyframe 4,[^\n]*\ncell 2: keyframe 7,[^\n]*\nrender_check: .* is right")
md2_render_picture(md2_render_sheet_1x3 "${_r_crystal}"
  RENDER --anim spin --sheet 1x3 --size 64x64
  CHECK_EXPECT "^cell 0: keyframe 0,[^\n]*\ncell 1: keyframe 4,[^\n]*\ncell 2: keyframe 7,[^\n]*\nrender_check: .* is right")
# blade.md2: one keyframe (and one animation of it)
set(_r_blade "${MD2_TOOL_MODELS}/blade.md2")
md2_render_picture(md2_render_sheet_one_frame_3x1 "${_r_blade}"
  RENDER --sheet 3x1 --size 64x64
  CHECK_EXPECT "^cell 0: keyframe 0,[^\n]*\ncell 1: empty\ncell 2: empty\nrender_check: .* is right")
md2_render_picture(md2_render_sheet_one_frame_1x3 "${_r_blade}"
  RENDER --anim blade --sheet 1x3 --size 64x64
  CHECK_EXPECT "^cell 0: keyframe 0,[^\n]*\ncell 1: empty\ncell 2: empty\nrender_check: .* is right")
md2_render_picture(md2_render_sheet_one_frame_1x1 "${_r_blade}"
  RENDER --sheet 1x1 --size 64x64 CHECK_EXPECT "^cell 0: keyframe 0,[^\n]*\nrender_check: .* is right")
md2_render_picture(md2_render_sheet_one_frame_1x1_anim "${_r_blade}"
  RENDER --anim blade --sheet 1x1 --size 64x64
  CHECK_EXPECT "^cell 0: keyframe 0,[^\n]*\nrender_check: .* is right")
unset(_r_blade)
