# md2 validate: sources and tests (see CMakeLists.txt)
# SPDX-License-Identifier: MIT
# (info_util.c, shared with md2 info, comes from info.cmake.)
target_sources(md2_tool PRIVATE validate.c validate_walk.c validate_walk.h validate_progress.c)

if(NOT MD2_BUILD_TESTS)
  return()
endif()
include("${CMAKE_CURRENT_LIST_DIR}/info_checks.cmake")

# The files of the md2 info and md2 validate tests, made at test time by
# validate_tree.cmake (which lists them) with this helper: CMake cannot
# write NUL bytes.
add_executable(md2_validate_testfile validate_testfile.c)
md2_target_defaults(md2_validate_testfile)
set(_tree "${MD2_TOOL_TEST_DIR}/validate_tree")
# A folder that only its owner may read. Root reads it all the same, so
# when the tests run as root (as CI does), md2 reads it as the user nobody
# (uid and gid 65534): through setpriv (util-linux), else runuser, else su.
# Without any of them, as root, the test is left out.
set(_locked OFF)
set(_locked_wrap "")
if(NOT CMAKE_HOST_WIN32)
  execute_process(COMMAND id -u OUTPUT_VARIABLE _uid OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _rc ERROR_QUIET)
  if(_rc EQUAL 0 AND _uid MATCHES "^[0-9]+$" AND NOT _uid EQUAL 0)
    set(_locked ON)
  elseif(_rc EQUAL 0 AND _uid STREQUAL "0")
    find_program(MD2_VALIDATE_SETPRIV setpriv)
    find_program(MD2_VALIDATE_RUNUSER runuser)
    find_program(MD2_VALIDATE_SU su)
    mark_as_advanced(MD2_VALIDATE_SETPRIV MD2_VALIDATE_RUNUSER MD2_VALIDATE_SU)
    if(MD2_VALIDATE_SETPRIV)
      set(_locked_wrap "${MD2_VALIDATE_SETPRIV}" --reuid=65534 --regid=65534 --clear-groups)
    elseif(MD2_VALIDATE_RUNUSER)
      set(_locked_wrap "${MD2_VALIDATE_RUNUSER}" -u nobody --)
    elseif(MD2_VALIDATE_SU)
      set(_locked_wrap "${MD2_VALIDATE_SU}" -s /bin/sh nobody -- -c "exec \"\$0\" \"\$@\"")
    endif()
    if(_locked_wrap)
      set(_locked ON)
    else()
      message(STATUS "libmd2: md2_validate_locked is left out: the tests run as root, and "
        "there is no setpriv, runuser or su to run md2 as another user")
    endif()
  endif()
endif()
add_test(NAME md2_validate_tree_make
  COMMAND "${CMAKE_COMMAND}" "-DHELPER=$<TARGET_FILE:md2_validate_testfile>"
    "-DMODELS=${MD2_TOOL_MODELS}" "-DROOT=${_tree}" "-DLOCKED=${_locked}"
    -P "${CMAKE_CURRENT_LIST_DIR}/validate_tree.cmake")
set_tests_properties(md2_validate_tree_make PROPERTIES FIXTURES_SETUP md2_validate_tree)
# (makes the locked folder readable again, so that the build folder can go)
add_test(NAME md2_validate_tree_unlock
  COMMAND "${CMAKE_COMMAND}" "-DHELPER=-" "-DMODELS=-" "-DROOT=${_tree}" -DUNLOCK=ON
    -P "${CMAKE_CURRENT_LIST_DIR}/validate_tree.cmake")
set_tests_properties(md2_validate_tree_unlock PROPERTIES FIXTURES_CLEANUP md2_validate_tree)
# script: cmake -P, left out of tests/run.sh's memcheck pass like the checks
set_property(TEST md2_validate_tree_make md2_validate_tree_unlock APPEND PROPERTY LABELS script)

# ---- command line -----------------------------------------------------------
md2_info_check(md2_validate_help ARGS validate --help ERR_EMPTY
  OUT "^usage: md2 validate \\[--strict\\] PATH\\.\\.\\.\n" "--strict " "Exit status: 0 ")
md2_info_check(md2_validate_help_command ARGS help validate ERR_EMPTY
  OUT "^usage: md2 validate")
md2_info_check(md2_validate_no_path ARGS validate EXIT 2 OUT_EMPTY
  ERR "^md2 validate: no PATH given\nusage: md2 validate \\[--strict\\] PATH\\.\\.\\.")
md2_info_check(md2_validate_strict_no_path ARGS validate --strict EXIT 2 OUT_EMPTY
  ERR "^md2 validate: no PATH given\n")
md2_info_check(md2_validate_bad_option ARGS validate --fast models EXIT 2 OUT_EMPTY
  WORKDIR "${MD2_TOOL_MODELS}/.." ERR "^md2 validate: unknown option '--fast'\nusage: ")
md2_info_check(md2_validate_dashdash ARGS validate -- -x.md2 EXIT 1 ERR_EMPTY
  LINES "-x.md2: refused: cannot open '-x.md2': no such file"
  "1 file: 0 ok, 0 with warnings, 1 refused")

# ---- the bundled and the real models: all load, also in strict mode ---------
md2_info_check(md2_validate_models ARGS validate models WORKDIR "${MD2_TOOL_MODELS}/.."
  ERR_EMPTY LINES "2 files: 2 ok, 0 with warnings, 0 refused")
# (models/crystal.md2 is also in models: checked once)
md2_info_check(md2_validate_models_strict ARGS validate models/crystal.md2 models --strict
  WORKDIR "${MD2_TOOL_MODELS}/.." ERR_EMPTY LINES "2 files: 2 ok, 0 with warnings, 0 refused")
if(EXISTS "${MD2_TOOL_CORPUS}/faerie.md2" AND EXISTS "${MD2_TOOL_CORPUS}/sydney.md2")
  md2_info_check(md2_validate_corpus ARGS validate corpus WORKDIR "${MD2_TOOL_CORPUS}/.."
    ERR_EMPTY LINES "2 files: 2 ok, 0 with warnings, 0 refused")
  md2_info_check(md2_validate_corpus_strict ARGS validate corpus/sydney.md2 --strict
    corpus/faerie.md2 WORKDIR "${MD2_TOOL_CORPUS}/.." ERR_EMPTY
    LINES "2 files: 2 ok, 0 with warnings, 0 refused")
endif()

# ---- a tree of good, odd and broken files (validate_tree.cmake) -------------
# In name order (bytes: upper case first), one line a problem, each kind of
# warning once; model.bin, notes.txt and bad.MD2.txt are not looked at,
# sub.md2/ is a folder, symbolic links to folders are not followed.
set(_refused_lines
  "tree/bad/brokenanm.md2: refused: tree/bad/brokenanm.anm: line 2, column 8: expected 4 fields \\(name first last fps\\), found 2"
  "tree/bad/empty.md2: refused: header: the data has 0 bytes, fewer than the 68 of an MD2 header"
  "tree/bad/magic.md2: refused: header: ident \\(byte 0\\) is 0x73696874, not \"IDP2\" \\(0x32504449\\): not an MD2 file"
  "tree/bad/tagdir.md2: refused: tree/bad/tagdir.tag: the file exists but cannot be read: is a directory"
  "tree/bad/truncated_1000.md2: refused: frames: 18 entries of 96 bytes from ofs_frames = 596 end at byte 2324, past the end of the data \\(1000 bytes\\)"
  "tree/bad/truncated_30.md2: refused: header: the data has 30 bytes, fewer than the 68 of an MD2 header")
set(_normals "frames: vertex 0 of frame 0 at byte 639 has normal index 255, not below 162")
set(_ofs_end "header: ofs_end \\(byte 64\\) is 2700, but the data has 2714 bytes")
set(_rate0 "tree/warn/rate0.anm: line 2, column 10: fps '0' is 0: the animation holds its first frame")
# (a ';' would split the list: '.' matches it)
# (a ';' in an argument would split it: '.' stands for it)
set(_tagcount "tree/warn/tagcount.tag: tag file: num_frames \\(byte 12\\) is 18, but the model has 1 frames. the tag file's frames past the model's are never shown")
if(CMAKE_HOST_WIN32)
  set(_link_lines "")
  set(_weird_lines "")
  set(_counts_ok 5)
  set(_counts_all 15)
else()
  # a symbolic link that leads nowhere; a name with a newline, shown as \x0A
  set(_link_lines
    "tree/links/dangling.md2: refused: cannot follow the symbolic link: No such file or directory")
  set(_weird_lines "tree/weird/line\\\\x0Abreak.md2: refused: header: ident .*")
  set(_counts_ok 6)
  set(_counts_all 18)
endif()
math(EXPR _refused_lenient "${_counts_all} - ${_counts_ok} - 4")
md2_info_check(md2_validate_tree ARGS validate tree WORKDIR "${_tree}" TREE EXIT 1 ERR_EMPTY
  LINES ${_refused_lines} ${_link_lines}
  "tree/warn/normals.md2: warning: ${_normals} \\(first of 18\\)"
  "tree/warn/ofs_end.md2: warning: ${_ofs_end}"
  "tree/warn/rate0.md2: warning: ${_rate0}"
  "tree/warn/tagcount.md2: warning: ${_tagcount}" ${_weird_lines}
  "${_counts_all} files: ${_counts_ok} ok, 4 with warnings, ${_refused_lenient} refused")
# --strict: each warning refuses its file (the first one found).
math(EXPR _refused "${_counts_all} - ${_counts_ok}")
md2_info_check(md2_validate_tree_strict ARGS validate --strict tree WORKDIR "${_tree}" TREE
  EXIT 1 ERR_EMPTY
  LINES ${_refused_lines} ${_link_lines}
  "tree/warn/normals.md2: refused: ${_normals}"
  "tree/warn/ofs_end.md2: refused: ${_ofs_end}"
  "tree/warn/rate0.md2: refused: ${_rate0}"
  "tree/warn/tagcount.md2: refused: ${_tagcount}" ${_weird_lines}
  "${_counts_all} files: ${_counts_ok} ok, 0 with warnings, ${_refused} refused")
# Warnings alone: exit status 0.
md2_info_check(md2_validate_warnings ARGS validate tree/warn/ WORKDIR "${_tree}" TREE
  ERR_EMPTY
  LINES "tree/warn/normals.md2: warning: ${_normals} \\(first of 18\\)"
  "tree/warn/ofs_end.md2: warning: ${_ofs_end}" "tree/warn/rate0.md2: warning: ${_rate0}"
  "tree/warn/tagcount.md2: warning: ${_tagcount}" "4 files: 0 ok, 4 with warnings, 0 refused")
# Files named on the command line are checked whatever their names, in the
# order given; a missing one and one behind a regular file are refused.
md2_info_check(md2_validate_files
  ARGS validate tree/model.bin tree/good/crystal.md2/x.md2 tree/bad/magic.md2 nowhere.md2
  tree/notes.txt tree/good
  WORKDIR "${_tree}" TREE EXIT 1 ERR_EMPTY
  LINES "tree/good/crystal.md2/x.md2: refused: the file exists but cannot be read: a component of the path is not a directory"
  "tree/bad/magic.md2: refused: header: ident .*"
  "nowhere.md2: refused: cannot open 'nowhere.md2': no such file"
  "tree/notes.txt: refused: header: the data has 12 bytes, fewer than the 68 of an MD2 header"
  "8 files: 4 ok, 0 with warnings, 4 refused")
# Names in byte order, a folder's files in its place.
md2_info_check(md2_validate_order ARGS validate info/order WORKDIR "${_tree}" TREE EXIT 1
  ERR_EMPTY
  LINES "info/order/A.md2: refused: .*" "info/order/B.MD2: refused: .*"
  "info/order/a.md2: refused: .*" "info/order/a0/x.md2: refused: .*"
  "info/order/b.md2: refused: .*" "5 files: 0 ok, 0 with warnings, 5 refused")
if(NOT CMAKE_HOST_WIN32)
  # A symbolic link to a folder, named on the command line, is followed.
  md2_info_check(md2_validate_link_argument ARGS validate tree/links/todir.md2
    WORKDIR "${_tree}" TREE ERR_EMPTY LINES "3 files: 3 ok, 0 with warnings, 0 refused")
endif()
md2_info_check(md2_validate_empty_folder ARGS validate tree/bad/tagdir.tag WORKDIR "${_tree}"
  TREE ERR_EMPTY LINES "0 files: 0 ok, 0 with warnings, 0 refused")

# ---- a file met twice is checked and counted once, where first met ----------
# (the same name in the same folder, however the path spells it)
md2_info_check(md2_validate_twice_in_folder ARGS validate tree/warn tree/warn/normals.md2
  WORKDIR "${_tree}" TREE ERR_EMPTY
  LINES "tree/warn/normals.md2: warning: ${_normals} \\(first of 18\\)"
  "tree/warn/ofs_end.md2: warning: ${_ofs_end}" "tree/warn/rate0.md2: warning: ${_rate0}"
  "tree/warn/tagcount.md2: warning: ${_tagcount}" "4 files: 0 ok, 4 with warnings, 0 refused")
md2_info_check(md2_validate_twice_first_met
  ARGS validate tree/warn/tagcount.md2 tree/warn/ ./tree/warn/../warn/tagcount.md2
  WORKDIR "${_tree}" TREE ERR_EMPTY
  LINES "tree/warn/tagcount.md2: warning: ${_tagcount}"
  "tree/warn/normals.md2: warning: ${_normals} \\(first of 18\\)"
  "tree/warn/ofs_end.md2: warning: ${_ofs_end}" "tree/warn/rate0.md2: warning: ${_rate0}"
  "4 files: 0 ok, 4 with warnings, 0 refused")
md2_info_check(md2_validate_twice_spelled
  ARGS validate tree/warn/./ofs_end.md2 tree/warn/ofs_end.md2 tree//warn/ofs_end.md2
  WORKDIR "${_tree}" TREE ERR_EMPTY
  LINES "tree/warn/\\./ofs_end.md2: warning: ${_ofs_end}"
  "1 file: 0 ok, 1 with warnings, 0 refused")
# a missing file: by its folder, or as written when the folder is missing too
md2_info_check(md2_validate_twice_missing
  ARGS validate nowhere.md2 ./nowhere.md2 no/where.md2 no/where.md2 no//where.md2
  WORKDIR "${_tree}" TREE EXIT 1 ERR_EMPTY
  LINES "nowhere.md2: refused: cannot open 'nowhere.md2': no such file"
  "no/where.md2: refused: cannot open 'no/where.md2': no such file"
  "no//where.md2: refused: cannot open 'no//where.md2': no such file"
  "3 files: 0 ok, 0 with warnings, 3 refused")
if(NOT CMAKE_HOST_WIN32)
  # a folder named twice, once through a symbolic link to it
  md2_info_check(md2_validate_twice_link_folder ARGS validate tree/good tree/links/todir.md2
    WORKDIR "${_tree}" TREE ERR_EMPTY LINES "3 files: 3 ok, 0 with warnings, 0 refused")
  # links under other names are files of their own (their side files are
  # looked for under their names): a hard link and a symbolic link
  md2_info_check(md2_validate_twice_links
    ARGS validate info/same info/same/a.md2 info/same/hard.md2 info/same/soft.md2
    info/same/./soft.md2 WORKDIR "${_tree}" TREE ERR_EMPTY
    LINES "3 files: 3 ok, 0 with warnings, 0 refused")
endif()
if(_locked)
  md2_info_check(md2_validate_locked ARGS validate locked WORKDIR "${_tree}" TREE EXIT 1
    WRAP ${_locked_wrap}
    ERR_EMPTY LINES "locked/inner: refused: cannot read the directory: Permission denied"
    "1 file: 0 ok, 0 with warnings, 1 refused")
  # the folder named, and met again in the folder above: refused once
  md2_info_check(md2_validate_locked_twice ARGS validate locked/inner locked
    WORKDIR "${_tree}" TREE EXIT 1 WRAP ${_locked_wrap}
    ERR_EMPTY LINES "locked/inner: refused: cannot read the directory: Permission denied"
    "1 file: 0 ok, 0 with warnings, 1 refused")
endif()
if(EXISTS /dev/full)
  md2_info_check(md2_validate_write_error ARGS validate models WORKDIR "${MD2_TOOL_MODELS}/.."
    OUT_FILE /dev/full EXIT 1 ERR "^md2 validate: cannot write the output: ")
endif()

# ---- the progress bar: on a terminal only, for 100 files or more -------------
# (info/bar holds 120 models; <CR> stands for a carriage return.)
md2_info_check(md2_validate_no_bar ARGS validate info/bar WORKDIR "${_tree}" TREE ERR_EMPTY
  LINES "120 files: 120 ok, 0 with warnings, 0 refused")
find_program(MD2_VALIDATE_SCRIPT script)
mark_as_advanced(MD2_VALIDATE_SCRIPT)
if(MD2_VALIDATE_SCRIPT AND NOT CMAKE_HOST_WIN32 AND NOT CMAKE_HOST_APPLE)
  md2_info_check(md2_validate_bar ARGS validate info/bar WORKDIR "${_tree}" TREE TTY
    OUT "^<CR>md2 validate: \\[\\.+\\] 1/120 files<CR>"
    "<CR>md2 validate: \\[#+\\.+\\] 60/120 files<CR>"
    "<CR>md2 validate: \\[#+\\] 120/120 files<CR> +<CR>120 files: 120 ok, 0 with warnings, 0 refused(<CR>)?\n$"
    NOT_OUT "\\] 121/")
  # Each line of output erases the bar first.
  md2_info_check(md2_validate_bar_lines ARGS validate info/bar tree/warn/ofs_end.md2
    WORKDIR "${_tree}" TREE TTY EXIT 0
    OUT "\\] 120/121 files<CR> +<CR>tree/warn/ofs_end.md2: warning: "
    "<CR>md2 validate: \\[#+\\] 121/121 files<CR> +<CR>121 files: 120 ok, 1 with warnings, 0 refused(<CR>)?\n$")
  # Fewer than 100 files: no bar, on a terminal too.
  md2_info_check(md2_validate_bar_small ARGS validate tree/good WORKDIR "${_tree}" TREE TTY
    OUT "^3 files: 3 ok, 0 with warnings, 0 refused(<CR>)?\n$")
  # The threshold: 99 files, no bar; 100 files, a bar.
  set(_bar_files "")
  foreach(_n RANGE 99)
    string(PREPEND _n "00")
    string(REGEX REPLACE "^0*([0-9][0-9][0-9])$" "\\1" _n "${_n}")
    list(APPEND _bar_files "info/bar/m${_n}.md2")
  endforeach()
  md2_info_check(md2_validate_bar_100 ARGS validate ${_bar_files} WORKDIR "${_tree}" TREE TTY
    OUT "^<CR>md2 validate: \\[\\.+\\] 1/100 files<CR>"
    "<CR>md2 validate: \\[#+\\] 100/100 files<CR> +<CR>100 files: 100 ok, 0 with warnings, 0 refused(<CR>)?\n$")
  list(REMOVE_AT _bar_files 99)
  md2_info_check(md2_validate_bar_99 ARGS validate ${_bar_files} WORKDIR "${_tree}" TREE TTY
    OUT "^99 files: 99 ok, 0 with warnings, 0 refused(<CR>)?\n$")
  unset(_bar_files)
  unset(_n)
endif()

unset(_tree)
unset(_refused_lines)
unset(_link_lines)
unset(_weird_lines)
unset(_refused_lenient)
unset(_locked)
unset(_locked_wrap)
unset(_uid)
unset(_rc)
unset(_counts_ok)
unset(_counts_all)
unset(_refused)
unset(_normals)
unset(_ofs_end)
unset(_rate0)
unset(_tagcount)
