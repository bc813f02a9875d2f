# md2 export tests that look at exit statuses, messages and the files
# written (export.cmake registers them). Run as
#   cmake -DMD2=<md2 command> -DMODE=<mode> -DDIR=<scratch folder> [...] -P export_check.cmake
# Modes:
#   run     ARGS (arguments separated by '|', "@DIR@" replaced by DIR; CTest
#           would split a ';' list) must exit EXIT, with
#           stdout matching STDOUT and stderr matching STDERR (regexes, when
#           given); with EMPTY, DIR must be left empty.
#   errors  every failure of the command: usage errors exit 2 with the
#           message and then the usage, the others 1, each with its
#           "md2 export: " message, and nothing is left in the output folder
#           (no file, no temporary file, no partial set of OBJ files).
#           MODELS is the folder of the bundled models.
#   keep    failed exports over files of the same names (OBJ sets, .glb,
#           .gltf): every old file stays as it was, and no copy of one is
#           left; a successful one replaces them and leaves no copy either.
#   obj     ARGS exports OBJ into DIR; checks the counts of OBJ (V, VT, VN,
#           F lines; with FIRST_LAST only in the first and last file), the
#           files (FILES: the .obj names expected, in order, separated by '|'),
#           that each names MTL (and, with FIRST_FACE, that its first f line
#           matches that regex), that MTL names PNG (or has no map_Kd when
#           PNG is empty) and that PNG is a PNG file. OBJ_CHECK
#           (export_obj_check.c) then compares every v, vt, vn and f line
#           of every file with libmd2's values for the keyframes that
#           ARGS's --anim, --frame and --y-up ask for. With YUP_OF (an OBJ
#           exported without --y-up) every v and vn line must be that
#           file's (x, y, z) written as (y, z, x).
#   alloc   ARGS with LIB (export_failalloc.c) preloaded, once with each
#           allocation failing in turn: status 1 with a message and nothing
#           in DIR, or status 0 with OUTPUTS ('|'-separated) in DIR, each
#           byte for byte the file of the first run, where nothing fails.
#   tmpname a file or a symbolic link already at an output's temporary
#           name (another run's file; a link planted to make md2 write
#           elsewhere) is neither written, followed nor removed: the
#           export (.glb, .gltf, an OBJ set) and md2 render write their
#           outputs under the next free name and leave it as it was.
#   linkfail  with LIB (export_linkfail.c) preloaded, link() fails as
#           MD2_LINK_FAIL says while an old file is kept aside: a name
#           taken in between (EEXIST) is left alone and the next one used;
#           a file system without hard links (EXDEV) gets a rename; any
#           other error (EIO) fails the export with the old files as they
#           were.
#   glb     FILE is a .glb: header, chunk layout and lengths; with MD2, the
#           size of FILE less its embedded image must be at most RATIO
#           times the size of MD2 (the model); IMAGE 1 or 0: whether FILE
#           must embed an image.
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)

function(fail)
  string(JOIN "" msg ${ARGN})
  message(FATAL_ERROR "${msg}")
endfunction()

# Runs md2 with the arguments (a list), into out_code, out_stdout, out_stderr.
include("${CMAKE_CURRENT_LIST_DIR}/tool_command.cmake")
md2_tool_command(_md2_command "${MD2}")

# In the folder md2_cwd when it is set.
function(run_md2 args)
  set(cwd "")
  if(md2_cwd)
    set(cwd WORKING_DIRECTORY "${md2_cwd}")
  endif()
  execute_process(COMMAND ${_md2_command} ${args} ${cwd}
    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(err MATCHES "Sanitizer|runtime error:")
    fail("md2 ${args}: the sanitizers report:\n${err}")
  endif()
  set(out_code "${code}" PARENT_SCOPE)
  set(out_stdout "${out}" PARENT_SCOPE)
  set(out_stderr "${err}" PARENT_SCOPE)
endfunction()

function(fresh_dir dir)
  file(REMOVE_RECURSE "${dir}")
  file(MAKE_DIRECTORY "${dir}")
endfunction()

# The entries of dir (names), sorted, into out_list.
function(dir_entries dir)
  file(GLOB entries RELATIVE "${dir}" "${dir}/*" "${dir}/.*")
  list(SORT entries)
  set(out_list "${entries}" PARENT_SCOPE)
endfunction()

if(NOT DEFINED MD2 OR NOT DEFINED MODE OR NOT DEFINED DIR)
  fail("export_check.cmake needs -DMD2=..., -DMODE=... and -DDIR=...")
endif()

# ---------------------------------------------------------------------------
if(MODE STREQUAL "run")
  fresh_dir("${DIR}")
  string(REPLACE "@DIR@" "${DIR}" args "${ARGS}")
  string(REPLACE "|" ";" args "${args}")
  run_md2("${args}")
  if(NOT out_code STREQUAL "${EXIT}")
    fail("md2 ${args}: exit status ${out_code}, expected ${EXIT}\nstdout: ${out_stdout}\nstderr: ${out_stderr}")
  endif()
  if(DEFINED STDOUT AND NOT out_stdout MATCHES "${STDOUT}")
    fail("md2 ${args}: stdout does not match '${STDOUT}':\n${out_stdout}")
  endif()
  if(DEFINED STDERR AND NOT out_stderr MATCHES "${STDERR}")
    fail("md2 ${args}: stderr does not match '${STDERR}':\n${out_stderr}")
  endif()
  if(DEFINED NO_STDERR AND NOT out_stderr STREQUAL "")
    fail("md2 ${args}: expected nothing on stderr, got:\n${out_stderr}")
  endif()
  if(EMPTY)
    dir_entries("${DIR}")
    if(out_list)
      fail("md2 ${args}: left ${out_list} behind")
    endif()
  endif()
  message(STATUS "md2 ${args}: exit ${out_code}\n${out_stdout}${out_stderr}")
  return()
endif()

# ---------------------------------------------------------------------------
# expect(<exit> <stderr regex> <setup> args...), for the modes errors and
# keep: md2 args, run with a fresh folder ${out}, must fail with exit, a
# message matching regex on stderr (for exit 2, followed by the usage) and
# nothing on stdout, and leave ${out} as setup made it. setup is "none" or
# a comma-separated list of
#   dir:NAME           a folder;
#   old:NAME           a file holding "old NAME";
#   copy:NAME=PATH     a copy of the file PATH;
#   link:NAME=TARGET   a symbolic link to TARGET (a name in ${out});
#   hard:NAME=TARGET   a hard link to ${out}/TARGET;
# each must be there afterwards, unchanged, and nothing else.
if(MODE MATCHES "^(errors|keep|tmpname|linkfail)$")
  set(out "${DIR}/out")
  set(in "${DIR}/in")
  set(crystal "${MODELS}/crystal.md2")
  set(checked 0)
  # make_setup(<setup>): empties ${out} and makes what setup lists there.
  function(make_setup setup)
    fresh_dir("${out}")
    if(setup STREQUAL "none")
      return()
    endif()
    string(REPLACE "," ";" items "${setup}")
    foreach(item IN LISTS items)
      if(item MATCHES "^dir:(.+)$")
        file(MAKE_DIRECTORY "${out}/${CMAKE_MATCH_1}")
      elseif(item MATCHES "^old:(.+)$")
        file(WRITE "${out}/${CMAKE_MATCH_1}" "old ${CMAKE_MATCH_1}\n")
      elseif(item MATCHES "^copy:([^=]+)=(.+)$")
        configure_file("${CMAKE_MATCH_2}" "${out}/${CMAKE_MATCH_1}" COPYONLY)
      elseif(item MATCHES "^link:([^=]+)=(.+)$")
        file(CREATE_LINK "${CMAKE_MATCH_2}" "${out}/${CMAKE_MATCH_1}" SYMBOLIC)
      elseif(item MATCHES "^hard:([^=]+)=(.+)$")
        file(CREATE_LINK "${out}/${CMAKE_MATCH_2}" "${out}/${CMAKE_MATCH_1}")
      else()
        fail("export_check.cmake: bad setup item '${item}'")
      endif()
    endforeach()
  endfunction()
  # check_setup(<setup> <what>): everything setup made is still there, as it
  # was, and nothing else is in ${out}.
  function(check_setup setup what)
    set(names "")
    set(items "")
    if(NOT setup STREQUAL "none")
      string(REPLACE "," ";" items "${setup}")
    endif()
    foreach(item IN LISTS items)
      if(item MATCHES "^[a-z]+:([^=]+)")
        list(APPEND names "${CMAKE_MATCH_1}")
      endif()
    endforeach()
    list(SORT names)
    dir_entries("${out}")
    if(NOT "${out_list}" STREQUAL "${names}")
      fail("${what}: the output folder holds '${out_list}', expected '${names}'")
    endif()
    foreach(item IN LISTS items)
      if(NOT item MATCHES "^([a-z]+):([^=]+)=?(.*)$")
        continue()
      endif()
      set(kind "${CMAKE_MATCH_1}")
      set(name "${CMAKE_MATCH_2}")
      set(value "${CMAKE_MATCH_3}")
      if(kind STREQUAL "dir" AND NOT IS_DIRECTORY "${out}/${name}")
        fail("${what}: the folder ${name} is gone")
      elseif(kind STREQUAL "old")
        file(READ "${out}/${name}" content)
        if(NOT content STREQUAL "old ${name}\n")
          fail("${what}: the old ${name} was changed; it holds '${content}'")
        endif()
      elseif(kind STREQUAL "copy")
        execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${out}/${name}" "${value}"
          RESULT_VARIABLE differ)
        if(NOT differ EQUAL 0)
          fail("${what}: ${name} is no longer a copy of ${value}")
        endif()
      elseif(kind STREQUAL "link")
        file(READ_SYMLINK "${out}/${name}" target)
        if(NOT target STREQUAL value)
          fail("${what}: the link ${name} points to '${target}' now, not '${value}'")
        endif()
      endif()
    endforeach()
  endfunction()
  function(expect code regex setup)
    make_setup("${setup}")
    run_md2("${ARGN}")
    if(NOT out_code STREQUAL "${code}")
      fail("md2 ${ARGN}: exit status ${out_code}, expected ${code}\nstderr: ${out_stderr}")
    endif()
    if(NOT out_stderr MATCHES "^md2 export: " OR NOT out_stderr MATCHES "${regex}")
      fail("md2 ${ARGN}: stderr does not start with 'md2 export: ' and match '${regex}':\n${out_stderr}")
    endif()
    if(code STREQUAL "2" AND NOT out_stderr MATCHES
       "^md2 export: [^\n]+\nusage: md2 export MODEL -o OUT[^\n]*\n[^\n]*--skin FILE\]\n`md2 export --help` describes the options\.\n$")
      fail("md2 ${ARGN}: stderr is not the message and then the usage:\n${out_stderr}")
    endif()
    if(NOT out_stdout STREQUAL "")
      fail("md2 ${ARGN}: printed on stdout although it failed:\n${out_stdout}")
    endif()
    check_setup("${setup}" "md2 ${ARGN}")
    string(REPLACE "\n" " | " short "${out_stderr}")
    message(STATUS "exit ${out_code}: md2 ${ARGN}\n    ${short}")
    math(EXPR n "${checked} + 1")
    set(checked "${n}" PARENT_SCOPE)
  endfunction()
endif()

# ---------------------------------------------------------------------------
if(MODE STREQUAL "errors")
  fresh_dir("${in}")
  file(WRITE "${in}/junk.md2" "IDP2 this is not a model at all, but text with the right magic\n")
  file(WRITE "${in}/empty.md2" "")
  file(WRITE "${in}/skin.pcx" "not a PCX file\n")
  file(MAKE_DIRECTORY "${in}/folder.md2")

  # usage errors: exit 2
  expect(2 "no MODEL given" none export -o "${out}/x.glb")
  expect(2 "no output given" none export "${crystal}")
  expect(2 "unknown option '--bogus'" none export "${crystal}" -o "${out}/x.glb" --bogus)
  expect(2 "one model at a time" none export "${crystal}" "${crystal}" -o "${out}/x.glb")
  expect(2 "one model at a time \\('-o'" none export "${crystal}" -- -o "${out}/x.glb")
  expect(2 "-o is given twice" none export "${crystal}" -o "${out}/x.glb" -o "${out}/y.glb")
  expect(2 "--anim needs a value" none export "${crystal}" -o "${out}/x.glb" --anim)
  expect(2 "cannot tell the format of .*x\\.fbx" none export "${crystal}" -o "${out}/x.fbx")
  expect(2 "cannot tell the format" none export "${crystal}" -o "${out}/noextension")
  expect(2 "--frame needs a keyframe number .*'-1'" none export "${crystal}" -o "${out}/x.glb" --frame -1)
  expect(2 "--frame needs a keyframe number .*'2x'" none export "${crystal}" -o "${out}/x.glb" --frame 2x)
  # bad input: exit 1
  expect(1 "nope\\.md2" none export "${in}/nope.md2" -o "${out}/x.glb")
  expect(1 "junk\\.md2" none export "${in}/junk.md2" -o "${out}/x.glb")
  expect(1 "empty\\.md2" none export "${in}/empty.md2" -o "${out}/x.obj")
  expect(1 "folder\\.md2" none export "${in}/folder.md2" -o "${out}/x.gltf")
  expect(1 "no animation named 'nope'; it has: spin bounce pulse" none
         export "${crystal}" -o "${out}/x.glb" --anim nope)
  expect(1 "no animation named 'nope'" none export "${crystal}" -o "${out}/x.obj" --anim nope)
  expect(1 "--frame 18 is out of range: .* has 18 keyframes \\(0 to 17\\)" none
         export "${crystal}" -o "${out}/x.gltf" --frame 18)
  expect(1 "--frame 8 is out of range: animation 'spin' has 8 keyframes \\(0 to 7\\)" none
         export "${crystal}" -o "${out}/x.obj" --anim spin --frame 8)
  expect(1 "--frame 1 is out of range: .* has 1 keyframe \\(0 to 0\\)" none
         export "${MODELS}/blade.md2" -o "${out}/x.obj" --frame 1)
  expect(1 "nope\\.pcx" none export "${crystal}" -o "${out}/x.glb" --skin "${in}/nope.pcx")
  expect(1 "skin\\.pcx" none export "${crystal}" -o "${out}/x.obj" --skin "${in}/skin.pcx")
  # an output that is the skin itself is refused, however the skin's path
  # is spelled: the same text, ./, a symbolic link, a hard link; the OBJ
  # set's PNG, its material file, a .glb
  run_md2("export;${crystal};-o;${in}/skin_as.obj")
  set(png "copy:x.png=${in}/skin_as.png")
  expect(1 "-o .*x\\.obj would write .*x\\.png, which is the skin .*x\\.png: choose another -o" "${png}"
         export "${crystal}" -o "${out}/x.obj" --skin "${out}/x.png")
  expect(1 "which is the skin .*/\\./x\\.png" "${png}"
         export "${crystal}" -o "${out}/x.obj" --skin "${out}/./x.png")
  set(md2_cwd "${out}")
  expect(1 "^md2 export: -o x\\.obj would write x\\.png, which is the skin \\./x\\.png: choose another -o\n$" "${png}"
         export "${crystal}" -o x.obj --skin ./x.png)
  unset(md2_cwd)
  expect(1 "which is the skin .*link\\.png" "${png},link:link.png=x.png"
         export "${crystal}" -o "${out}/x.obj" --skin "${out}/link.png")
  expect(1 "which is the skin .*hard\\.png" "${png},hard:hard.png=x.png"
         export "${crystal}" -o "${out}/x.obj" --skin "${out}/hard.png")
  expect(1 "would write .*x\\.mtl, which is the skin .*x\\.mtl" "copy:x.mtl=${in}/skin_as.png"
         export "${crystal}" -o "${out}/x.obj" --skin "${out}/x.mtl")
  expect(1 "-o .*/\\./x\\.glb is the skin .*x\\.glb: choose another -o" "copy:x.glb=${in}/skin_as.png"
         export "${crystal}" -o "${out}/./x.glb" --skin "${out}/x.glb")
  # outputs that cannot be written: exit 1, nothing left
  expect(1 "cannot write .*missing/x\\.glb" none export "${crystal}" -o "${out}/missing/x.glb")
  expect(1 "cannot write .*missing/x\\.gltf" none export "${crystal}" -o "${out}/missing/x.gltf")
  expect(1 "cannot write .*missing/x\\.png" none export "${crystal}" -o "${out}/missing/x.obj")
  expect(1 "cannot rename .*x\\.glb" dir:x.glb export "${crystal}" -o "${out}/x.glb")
  expect(1 "cannot rename .*x\\.gltf" dir:x.gltf export "${crystal}" -o "${out}/x.gltf")
  # a set of OBJ files that fails part way: the files already in place go
  expect(1 "cannot rename .*x\\.mtl" dir:x.mtl export "${crystal}" -o "${out}/x.obj")
  expect(1 "cannot rename .*x\\.obj" dir:x.obj export "${crystal}" -o "${out}/x.obj")
  expect(1 "cannot rename .*s_005\\.obj" dir:s_005.obj
         export "${crystal}" -o "${out}/s.obj" --anim spin)
  message(STATUS "${checked} failures checked")
  return()
endif()

# ---------------------------------------------------------------------------
if(MODE STREQUAL "keep")
  # A failed export leaves every old file of its names as it was (the ones
  # it had replaced already are put back) and no copy of one behind: an
  # OBJ set that fails at its material file (x.png replaced by then), at
  # its .obj (x.png and x.mtl replaced), in the middle of an animation, or
  # with a name for the kept copy already taken; a .glb and a .gltf that
  # cannot be written or are refused before anything is written.
  expect(1 "cannot rename .*x\\.mtl" "old:x.png,dir:x.mtl" export "${crystal}" -o "${out}/x.obj")
  expect(1 "cannot rename .*x\\.obj" "old:x.png,old:x.mtl,dir:x.obj"
         export "${crystal}" -o "${out}/x.obj")
  expect(1 "cannot rename .*x\\.obj" "old:x.png,old:x.png.old-md2,old:x.mtl,dir:x.obj"
         export "${crystal}" -o "${out}/x.obj")
  expect(1 "cannot rename .*s_005\\.obj"
         "old:s.png,old:s.mtl,old:s_000.obj,old:s_004.obj,dir:s_005.obj,old:s_006.obj"
         export "${crystal}" -o "${out}/s.obj" --anim spin)
  # A temporary file that cannot be created: a name too long for the file
  # system (255 bytes a name) whose output name is not. With --anim, the
  # .obj names are 4 bytes longer than OUT.png's and OUT.mtl's, so those
  # two are in place when the first .obj fails.
  string(REPEAT "n" 242 s242)
  string(REPEAT "n" 246 s246)
  expect(1 "cannot write .*${s242}_000\\.obj: File name too long"
         "old:${s242}.png,old:${s242}.mtl,old:${s242}_000.obj"
         export "${crystal}" -o "${out}/${s242}.obj" --anim spin)
  expect(1 "no animation named 'nope'" "old:x.png,old:x.mtl,old:x.obj"
         export "${crystal}" -o "${out}/x.obj" --anim nope)
  expect(1 "cannot write .*${s246}\\.glb: File name too long" "old:${s246}.glb"
         export "${crystal}" -o "${out}/${s246}.glb")
  expect(1 "--frame 18 is out of range" "old:x.glb" export "${crystal}" -o "${out}/x.glb" --frame 18)
  expect(1 "cannot write .*${s246}\\.gltf: File name too long" "old:${s246}.gltf"
         export "${crystal}" -o "${out}/${s246}.gltf")
  expect(1 "nope\\.pcx" "old:x.gltf" export "${crystal}" -o "${out}/x.gltf" --skin "${in}/nope.pcx")

  # A successful export replaces the old files and keeps no copy of them;
  # a file that merely has the name of such a copy is left alone.
  foreach(case IN ITEMS "x.obj|x.png|x.mtl|x.obj|x.png.old-md2"
                        "s.obj|s.png|s.mtl|s_000.obj|s_007.obj" "x.glb|x.glb" "x.gltf|x.gltf")
    string(REPLACE "|" ";" case "${case}")
    list(POP_FRONT case output)
    set(setup "")
    foreach(name IN LISTS case)
      list(APPEND setup "old:${name}")
    endforeach()
    string(JOIN "," setup ${setup})
    make_setup("${setup}")
    set(args export "${crystal}" -o "${out}/${output}")
    set(expected x.mtl x.obj x.png x.png.old-md2)
    if(output STREQUAL "s.obj")
      list(APPEND args --anim spin)
      set(expected s.mtl s.png s_000.obj s_001.obj s_002.obj s_003.obj s_004.obj s_005.obj
          s_006.obj s_007.obj)
    elseif(NOT output STREQUAL "x.obj")
      set(expected "${output}")
    endif()
    run_md2("${args}")
    if(NOT out_code STREQUAL "0")
      fail("md2 ${args} over old files: exit status ${out_code}\n${out_stderr}")
    endif()
    dir_entries("${out}")
    if(NOT "${out_list}" STREQUAL "${expected}")
      fail("md2 ${args} over old files left '${out_list}', expected '${expected}'")
    endif()
    foreach(name IN LISTS case)
      file(READ "${out}/${name}" content)
      if(name MATCHES "old-md2$")
        if(NOT content STREQUAL "old ${name}\n")
          fail("md2 ${args}: ${name}, not a copy the export kept, was changed")
        endif()
      elseif(content STREQUAL "old ${name}\n")
        fail("md2 ${args}: the old ${name} was not replaced")
      endif()
    endforeach()
    message(STATUS "md2 ${args}: replaced ${case}, no copy left behind")
  endforeach()
  message(STATUS "${checked} failures over old files checked")
  return()
endif()

# ---------------------------------------------------------------------------
# succeed(<setup> <outputs> args...): md2 args, run with a fresh ${out} made
# by setup, must exit 0 and leave in ${out} what setup made, unchanged,
# plus the regular files outputs (a list), and nothing else.
if(MODE STREQUAL "tmpname" OR MODE STREQUAL "linkfail")
  function(succeed setup outputs)
    make_setup("${setup}")
    run_md2("${ARGN}")
    if(NOT out_code STREQUAL "0")
      fail("md2 ${ARGN}: exit status ${out_code}\nstderr: ${out_stderr}")
    endif()
    # what setup made, less what the outputs replace, must stay as it was
    set(kept "")
    set(names ${outputs})
    string(REPLACE "," ";" items "${setup}")
    foreach(item IN LISTS items)
      if(item MATCHES "^[a-z]+:([^=]+)" AND NOT CMAKE_MATCH_1 IN_LIST outputs)
        list(APPEND kept "${item}")
        list(APPEND names "${CMAKE_MATCH_1}")
      endif()
    endforeach()
    list(SORT names)
    dir_entries("${out}")
    if(NOT "${out_list}" STREQUAL "${names}")
      fail("md2 ${ARGN}: the output folder holds '${out_list}', expected '${names}'")
    endif()
    foreach(name IN LISTS outputs)
      file(READ "${out}/${name}" head LIMIT 4)
      if(IS_SYMLINK "${out}/${name}" OR IS_DIRECTORY "${out}/${name}" OR head STREQUAL ""
         OR head STREQUAL "old ")
        fail("md2 ${ARGN}: ${name} is not a new file of its own")
      endif()
      file(REMOVE "${out}/${name}")
    endforeach()
    if(NOT kept)
      set(kept none)
    endif()
    string(JOIN "," kept ${kept})
    check_setup("${kept}" "md2 ${ARGN}")
    message(STATUS "exit 0: md2 ${ARGN}\n    wrote ${outputs}; left ${kept} as it was")
  endfunction()
endif()

# ---------------------------------------------------------------------------
if(MODE STREQUAL "tmpname")
  # victim: the file a planted link points to; OUT.tmp-md2-1: another
  # run's temporary file. Each must stay as it was, and OUT be written.
  foreach(case IN ITEMS "x.glb" "x.gltf")
    succeed("old:victim,link:${case}.tmp-md2=victim,old:${case}.tmp-md2-1,old:${case}"
            "${case}" export "${crystal}" -o "${out}/${case}")
  endforeach()
  succeed("old:victim,link:x.png.tmp-md2=victim,link:x.mtl.tmp-md2=victim,link:x.obj.tmp-md2=victim,old:x.obj.tmp-md2-1"
          "x.mtl;x.obj;x.png" export "${crystal}" -o "${out}/x.obj")
  # a dangling link: creating its target would write outside
  succeed("link:x.glb.tmp-md2=gone" "x.glb" export "${crystal}" -o "${out}/x.glb")
  succeed("old:victim,link:r.png.tmp-md2=victim,old:r.png.tmp-md2-1" "r.png"
          render "${crystal}" -o "${out}/r.png" --size 32x32)
  return()
endif()

# ---------------------------------------------------------------------------
if(MODE STREQUAL "linkfail")
  # Only the files of an OBJ set are kept aside (a .glb or .gltf simply
  # replaces its old file). The preloaded link() and valgrind's do not mix,
  # nor should cmake itself run with it: md2 runs alone under it here.
  set(_md2_command "${CMAKE_COMMAND}" -E env "LD_PRELOAD=${LIB}" "${MD2}")
  # x.png.old-md2 is taken (by another process) between md2's look and its
  # link: that file is not md2's and stays; the old x.png is kept as
  # x.png.old-md2-2 until the set is in place, then removed
  set(ENV{MD2_LINK_FAIL} eexist)
  make_setup("old:x.png")
  run_md2("export;${crystal};-o;${out}/x.obj")
  dir_entries("${out}")
  if(NOT out_code STREQUAL "0" OR NOT "${out_list}" STREQUAL "x.mtl;x.obj;x.png;x.png.old-md2")
    fail("EEXIST from link(): exit status ${out_code}, left '${out_list}'\n${out_stderr}")
  endif()
  file(READ "${out}/x.png.old-md2" planted)
  file(READ "${out}/x.png" png HEX LIMIT 4)
  if(NOT planted STREQUAL "planted\n" OR NOT png STREQUAL "89504e47")
    fail("EEXIST from link(): x.png.old-md2, which another process took, holds '${planted}'; "
         "x.png starts with ${png}")
  endif()
  # ... and when the set fails later, the old file comes back from there
  make_setup("old:x.png,dir:x.mtl")
  run_md2("export;${crystal};-o;${out}/x.obj")
  dir_entries("${out}")
  if(NOT out_code STREQUAL "1" OR NOT out_stderr MATCHES "^md2 export: cannot rename .*x\\.mtl"
     OR NOT "${out_list}" STREQUAL "x.mtl;x.png;x.png.old-md2")
    fail("EEXIST from link(), a failed set: exit status ${out_code}, left '${out_list}'\n${out_stderr}")
  endif()
  file(READ "${out}/x.png.old-md2" planted)
  file(READ "${out}/x.png" content)
  if(NOT planted STREQUAL "planted\n" OR NOT content STREQUAL "old x.png\n")
    fail("EEXIST from link(), a failed set: x.png.old-md2 holds '${planted}', x.png '${content}'")
  endif()
  message(STATUS "EEXIST from link(): the file that took x.png.old-md2 left alone, x.png.old-md2-2 used")
  # no hard links here: the old file is renamed aside, and back on failure
  set(ENV{MD2_LINK_FAIL} exdev)
  succeed("old:x.png,old:x.mtl,old:x.obj" "x.mtl;x.obj;x.png" export "${crystal}" -o "${out}/x.obj")
  expect(1 "cannot rename .*x\\.mtl" "old:x.png,dir:x.mtl" export "${crystal}" -o "${out}/x.obj")
  # any other error: reported, and nothing renamed or replaced
  set(ENV{MD2_LINK_FAIL} eio)
  expect(1 "cannot keep the old .*x\\.png aside as .*x\\.png\\.old-md2: Input/output error"
         "old:x.png" export "${crystal}" -o "${out}/x.obj")
  expect(1 "cannot keep the old .*x\\.mtl aside" "old:x.mtl,old:x.obj" export "${crystal}" -o "${out}/x.obj")
  unset(ENV{MD2_LINK_FAIL})
  return()
endif()

# ---------------------------------------------------------------------------
if(MODE STREQUAL "obj")
  fresh_dir("${DIR}")
  string(REPLACE "@DIR@" "${DIR}" args "${ARGS}")
  string(REPLACE "|" ";" args "${args}")
  run_md2("${args}")
  if(NOT out_code STREQUAL "0")
    fail("md2 ${args}: exit status ${out_code}\n${out_stderr}")
  endif()
  dir_entries("${DIR}")
  string(REPLACE "|" ";" FILES "${FILES}")
  set(expected_entries ${FILES} ${MTL})
  if(PNG)
    list(APPEND expected_entries ${PNG})
  endif()
  list(SORT expected_entries)
  if(NOT "${out_list}" STREQUAL "${expected_entries}")
    fail("md2 ${args} wrote ${out_list}, expected ${expected_entries}")
  endif()
  set(counted ${FILES})
  if(FIRST_LAST)
    list(GET FILES 0 first)
    list(GET FILES -1 last)
    set(counted ${first} ${last})
  endif()
  foreach(obj IN LISTS counted)
    file(STRINGS "${DIR}/${obj}" lines REGEX "^v ")
    list(LENGTH lines nv)
    file(STRINGS "${DIR}/${obj}" lines REGEX "^vt ")
    list(LENGTH lines nvt)
    file(STRINGS "${DIR}/${obj}" lines REGEX "^vn ")
    list(LENGTH lines nvn)
    file(STRINGS "${DIR}/${obj}" lines
         REGEX "^f [0-9]+/[0-9]+/[0-9]+ [0-9]+/[0-9]+/[0-9]+ [0-9]+/[0-9]+/[0-9]+$")
    list(LENGTH lines nf)
    file(STRINGS "${DIR}/${obj}" lines REGEX "^mtllib ")
    set(mtllib "")
    if(lines MATCHES "^mtllib (.*)$")
      set(mtllib "${CMAKE_MATCH_1}")
    endif()
    if(NOT nv EQUAL V OR NOT nvt EQUAL VT OR NOT nvn EQUAL VN OR NOT nf EQUAL F)
      fail("${obj}: ${nv} v, ${nvt} vt, ${nvn} vn, ${nf} f; expected ${V}, ${VT}, ${VN}, ${F}")
    endif()
    if(NOT mtllib STREQUAL MTL)
      fail("${obj}: mtllib '${mtllib}', expected '${MTL}'")
    endif()
    if(DEFINED FIRST_FACE)
      file(STRINGS "${DIR}/${obj}" face REGEX "^f " LIMIT_COUNT 1)
      if(NOT face MATCHES "${FIRST_FACE}")
        fail("${obj}: first face '${face}' does not match '${FIRST_FACE}'")
      endif()
    endif()
    if(DEFINED HEADER)
      file(STRINGS "${DIR}/${obj}" first LIMIT_COUNT 1)
      if(NOT first MATCHES "${HEADER}")
        fail("${obj}: first line '${first}' does not match '${HEADER}'")
      endif()
    endif()
    message(STATUS "${obj}: ${nv} v, ${nvt} vt, ${nvn} vn, ${nf} f, mtllib ${mtllib}")
  endforeach()
  file(STRINGS "${DIR}/${MTL}" mtl_lines)
  set(map "")
  foreach(line IN LISTS mtl_lines)
    if(line MATCHES "^map_Kd (.*)$")
      set(map "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(NOT "${map}" STREQUAL "${PNG}")
    fail("${MTL}: map_Kd '${map}', expected '${PNG}'")
  endif()
  if(PNG)
    file(READ "${DIR}/${PNG}" signature HEX LIMIT 8)
    if(NOT signature STREQUAL "89504e470d0a1a0a")
      fail("${PNG} is not a PNG file (starts with ${signature})")
    endif()
    message(STATUS "${MTL}: map_Kd ${map}, a PNG file")
  endif()
  if(DEFINED OBJ_CHECK)
    # every line against libmd2, for the keyframes the export's options ask for
    set(check_args "")
    list(LENGTH args n)
    set(i 1) # args: export MODEL options...
    while(i LESS n)
      list(GET args ${i} a)
      math(EXPR i "${i} + 1")
      if(a STREQUAL "--y-up")
        list(APPEND check_args --y-up)
      elseif(a MATCHES "^(-o|--output|--skin|--anim|--frame)$")
        list(GET args ${i} value)
        math(EXPR i "${i} + 1")
        if(a STREQUAL "--anim" OR a STREQUAL "--frame")
          list(APPEND check_args "${a}" "${value}")
        endif()
      else()
        set(model "${a}")
      endif()
    endwhile()
    set(paths "")
    foreach(obj IN LISTS FILES)
      list(APPEND paths "${DIR}/${obj}")
    endforeach()
    execute_process(COMMAND "${OBJ_CHECK}" "${model}" ${check_args} ${paths}
      RESULT_VARIABLE code OUTPUT_VARIABLE check_out ERROR_VARIABLE check_err)
    if(NOT code STREQUAL "0")
      fail("export_obj_check ${model} ${check_args}: exit status ${code}\n${check_out}${check_err}")
    endif()
    message(STATUS "${check_out}${check_err}")
  endif()
  if(DEFINED YUP_OF)
    # every v and vn of the first file is YUP_OF's (x, y, z) as (y, z, x)
    list(GET FILES 0 obj)
    file(STRINGS "${DIR}/${obj}" got REGEX "^vn? ")
    file(STRINGS "${YUP_OF}" want REGEX "^vn? ")
    list(LENGTH got n)
    list(LENGTH want m)
    if(NOT n EQUAL m OR n EQUAL 0)
      fail("${obj} has ${n} v/vn lines, ${YUP_OF} ${m}")
    endif()
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      list(GET got ${i} g)
      list(GET want ${i} w)
      if(NOT w MATCHES "^(vn?) ([^ ]+) ([^ ]+) ([^ ]+)$")
        fail("${YUP_OF}: bad line '${w}'")
      endif()
      set(expect "${CMAKE_MATCH_1} ${CMAKE_MATCH_3} ${CMAKE_MATCH_4} ${CMAKE_MATCH_2}")
      if(NOT g STREQUAL expect)
        fail("${obj}: '${g}', expected '${expect}' (from '${w}')")
      endif()
    endforeach()
    message(STATUS "${obj}: every v and vn is ${YUP_OF}'s rotated to Y up (${n} lines)")
  endif()
  return()
endif()

# ---------------------------------------------------------------------------
if(MODE STREQUAL "glb")
  # little-endian uint32 at byte offset of FILE, into out_u32
  function(read_u32 offset)
    file(READ "${FILE}" hex OFFSET ${offset} LIMIT 4 HEX)
    string(LENGTH "${hex}" len)
    if(NOT len EQUAL 8)
      fail("${FILE}: ends before byte ${offset} + 4")
    endif()
    set(value 0)
    foreach(i 6 4 2 0)
      string(SUBSTRING "${hex}" ${i} 2 byte)
      math(EXPR value "${value} * 256 + 0x${byte}")
    endforeach()
    set(out_u32 "${value}" PARENT_SCOPE)
  endfunction()

  file(SIZE "${FILE}" size)
  read_u32(0)
  if(NOT out_u32 EQUAL 1179937895) # "glTF"
    fail("${FILE}: not a GLB file (magic ${out_u32})")
  endif()
  read_u32(4)
  if(NOT out_u32 EQUAL 2)
    fail("${FILE}: GLB version ${out_u32}, expected 2")
  endif()
  read_u32(8)
  if(NOT out_u32 EQUAL size)
    fail("${FILE}: the header says ${out_u32} bytes, the file has ${size}")
  endif()
  read_u32(12)
  set(json_length ${out_u32})
  read_u32(16)
  if(NOT out_u32 EQUAL 1313821514) # "JSON"
    fail("${FILE}: the first chunk is not JSON")
  endif()
  math(EXPR bin_at "20 + ${json_length}")
  read_u32(${bin_at})
  set(bin_length ${out_u32})
  math(EXPR type_at "${bin_at} + 4")
  read_u32(${type_at})
  if(NOT out_u32 EQUAL 5130562) # "BIN\0"
    fail("${FILE}: the second chunk is not BIN")
  endif()
  math(EXPR end "${bin_at} + 8 + ${bin_length}")
  math(EXPR misaligned "(${json_length} % 4) + (${bin_length} % 4)")
  if(NOT end EQUAL size OR NOT misaligned EQUAL 0)
    fail("${FILE}: chunks of ${json_length} and ${bin_length} bytes do not fill its ${size} bytes in 4-byte steps")
  endif()
  file(READ "${FILE}" json OFFSET 20 LIMIT ${json_length})
  string(JSON buffer_length GET "${json}" buffers 0 byteLength)
  if(buffer_length GREATER bin_length)
    fail("${FILE}: buffer 0 has ${buffer_length} bytes, the BIN chunk ${bin_length}")
  endif()
  set(image_bytes 0)
  string(JSON images ERROR_VARIABLE no_images LENGTH "${json}" images)
  if(no_images)
    set(images 0)
  endif()
  if(images GREATER 0)
    string(JSON view GET "${json}" images 0 bufferView)
    string(JSON image_bytes GET "${json}" bufferViews ${view} byteLength)
  endif()
  if(DEFINED IMAGE AND NOT IMAGE EQUAL images)
    fail("${FILE}: ${images} embedded images, expected ${IMAGE}")
  endif()
  message(STATUS "${FILE}: GLB 2, ${size} bytes: JSON ${json_length}, BIN ${bin_length}, "
                 "image ${image_bytes}")
  if(DEFINED MODEL)
    file(SIZE "${MODEL}" model_size)
    math(EXPR geometry "${size} - ${image_bytes}")
    math(EXPR limit "${model_size} * ${RATIO}")
    math(EXPR hundredths "${geometry} * 100 / ${model_size}")
    math(EXPR whole "${hundredths} / 100")
    math(EXPR frac "${hundredths} % 100")
    if(frac LESS 10)
      set(frac "0${frac}")
    endif()
    message(STATUS "${FILE} less its image: ${geometry} bytes = ${whole}.${frac} times "
                   "${MODEL} (${model_size} bytes); at most ${RATIO} times allowed")
    if(geometry GREATER limit)
      fail("${FILE}: ${geometry} bytes without its image, more than ${RATIO} times the "
           "model's ${model_size}")
    endif()
  endif()
  return()
endif()

# ---------------------------------------------------------------------------
if(MODE STREQUAL "alloc")
  # ARGS run with LIB (export_failalloc) preloaded: first counting the
  # allocations, then once with each of them failing. Every run must end
  # with status 0 (the allocation was not needed, e.g. a stdio buffer) and
  # write OUTPUTS, or with status 1, a "md2 export: " message and nothing
  # left in DIR; never a crash.
  string(REPLACE "@DIR@" "${DIR}" args "${ARGS}")
  string(REPLACE "|" ";" args "${args}")
  string(REPLACE "|" ";" OUTPUTS "${OUTPUTS}")
  list(SORT OUTPUTS)
  # the preloaded malloc and valgrind's do not mix: md2 runs alone here
  set(_md2_command "${CMAKE_COMMAND}" -E env "LD_PRELOAD=${LIB}" "${MD2}")
  set(ENV{MD2_FAIL_ALLOC_AT} 0)
  fresh_dir("${DIR}")
  run_md2("${args}")
  if(NOT out_code STREQUAL "0" OR NOT out_stderr MATCHES "allocations: ([0-9]+)")
    fail("md2 ${args} with ${LIB}: exit status ${out_code}\n${out_stderr}")
  endif()
  set(total "${CMAKE_MATCH_1}")
  # the files of this run, where nothing fails: what every run that exits
  # 0 must write, byte for byte
  set(reference "${DIR}-reference")
  fresh_dir("${reference}")
  foreach(name IN LISTS OUTPUTS)
    if(NOT EXISTS "${DIR}/${name}")
      fail("md2 ${args} with ${LIB}: ${name} was not written\n${out_stderr}")
    endif()
    file(RENAME "${DIR}/${name}" "${reference}/${name}")
  endforeach()
  set(failed 0)
  set(same 0)
  foreach(n RANGE 1 ${total})
    set(ENV{MD2_FAIL_ALLOC_AT} ${n})
    fresh_dir("${DIR}")
    run_md2("${args}")
    dir_entries("${DIR}")
    if(out_code STREQUAL "1")
      if(NOT out_stderr MATCHES "(^|\n)md2 export: ")
        fail("allocation ${n} of ${total} failing: exit 1 without a message:\n${out_stderr}")
      endif()
      if(out_list)
        fail("allocation ${n} of ${total} failing: exit 1, but left ${out_list}")
      endif()
      math(EXPR failed "${failed} + 1")
    elseif(out_code STREQUAL "0")
      if(NOT "${out_list}" STREQUAL "${OUTPUTS}")
        fail("allocation ${n} of ${total} failing: exit 0, but wrote '${out_list}', not '${OUTPUTS}'")
      endif()
      foreach(name IN LISTS OUTPUTS)
        execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${DIR}/${name}"
                                "${reference}/${name}" RESULT_VARIABLE differ)
        if(NOT differ EQUAL 0)
          fail("allocation ${n} of ${total} failing: exit 0, but ${name} differs from the "
               "one written when nothing fails (${reference}/${name})\n${out_stderr}")
        endif()
      endforeach()
      math(EXPR same "${same} + 1")
    else()
      fail("allocation ${n} of ${total} failing: exit status '${out_code}'\n${out_stderr}")
    endif()
  endforeach()
  unset(ENV{MD2_FAIL_ALLOC_AT})
  message(STATUS "md2 ${args}: ${total} allocations; making each fail in turn gave ${failed} "
                 "clean failures (status 1, a message, nothing written), ${same} runs that "
                 "wrote the same bytes as when nothing fails, and no crash")
  return()
endif()

fail("export_check.cmake: unknown MODE '${MODE}'")
