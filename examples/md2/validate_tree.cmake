# Makes the files of the md2 info and md2 validate tests (the fixture
# md2_validate_tree): good models, models with warnings, broken models and
# files to ignore, in a tree of folders. validate.cmake lists what md2
# validate must say about each.
#
#   cmake -DHELPER=md2_validate_testfile -DMODELS=examples/models
#         -DROOT=folder -P validate_tree.cmake
#
# ROOT/tree:                          md2 validate tree says:
#   a/b/c/deep.md2                    (ok: found 3 levels down)
#   bad/brokenanm.md2 + .anm          refused: the .anm file has a bad line
#   bad/empty.md2                     refused: 0 bytes
#   bad/magic.md2                     refused: text, not "IDP2"
#   bad/tagdir.md2 + tagdir.tag/      refused: the .tag "file" is a directory
#   bad/truncated_30.md2              refused: the header is cut
#   bad/truncated_1000.md2            refused: the frames are cut
#   good/UPPER.MD2 + UPPER.TAG        (ok: upper-case name and side file)
#   good/blade.md2, good/crystal.md2 + crystal.tag   (ok)
#   links/dangling.md2 -> nowhere     refused: cannot follow the link
#   links/loop -> ..                  (not followed)
#   links/todir.md2 -> ../good        (not followed)
#   links/tofile.md2 -> ../good/crystal.md2 (ok: followed; no crystal.tag
#                                     beside the link)
#   model.bin, notes.txt, bad.MD2.txt (ignored: not named *.md2)
#   sub.md2/inner.Md2                 (ok: a folder named *.md2 is a folder)
#   warn/normals.md2                  warning: 18 bad normal indices
#   warn/ofs_end.md2                  warning: bytes after ofs_end
#   warn/rate0.md2 + rate0.anm        warning: an animation at rate 0
#   warn/tagcount.md2 + .tag          warning: 18 tag frames for 1 frame
#   weird/line<newline>break.md2      refused (a text file): its name shown
#                                     with \x0A
# ROOT/info: files for md2 info only:
#   names.md2      skin and frame names with odd bytes, unterminated
#   dropped.md2    one triangle with a vertex index out of range
#   anm/crystal.md2 + crystal.anm     animations from a .anm file
#   fg/crystal.md2 + crystal.framegroups     from a .framegroups file
#   twokinds.md2 + twokinds.tag       bytes after ofs_end in both
#   order/A.md2 B.MD2 a.md2 a0/x.md2 b.md2   (all text) for the order
#   bar/m000.md2 ... m119.md2         120 models, for the progress bar
#   noglcmds.md2   the crystal without GL commands (num_glcmds 0, cut at
#                  ofs_glcmds, ofs_end there)
#   same/a.md2     a model, with same/hard.md2 a hard link to it and
#                  same/soft.md2 a symbolic link to it (files of their own)
# ROOT/locked/inner/ (only with -DLOCKED=ON): a folder that only root may
# read, for a test that runs md2 as another user (or, when the tests do not
# run as root, as themselves). ROOT and ROOT/locked are then opened to
# everyone (read and search), so that user can reach locked/inner.
# Symbolic links and the odd name are made only where the system has them
# (not Windows). -DUNLOCK=ON only makes ROOT/locked/inner readable again,
# so that ROOT can be removed (the fixture's cleanup).
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)

foreach(_var IN ITEMS HELPER MODELS ROOT)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "validate_tree.cmake: -D${_var}=... is required")
  endif()
endforeach()

set(_crystal "${MODELS}/crystal.md2")
set(_blade "${MODELS}/blade.md2")
set(_tag "${MODELS}/crystal.tag")
set(_t "${ROOT}/tree")
set(_i "${ROOT}/info")
if(IS_DIRECTORY "${ROOT}/locked/inner")
  file(CHMOD "${ROOT}/locked/inner" DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
endif()
if(UNLOCK)
  return()
endif()
file(REMOVE_RECURSE "${ROOT}")
file(MAKE_DIRECTORY "${_t}/a/b/c" "${_t}/bad/tagdir.tag" "${_t}/good" "${_t}/links"
     "${_t}/sub.md2" "${_t}/warn" "${_i}/anm" "${_i}/bar" "${_i}/fg" "${_i}/order"
     "${_i}/same")

# edit(<source> <dest> <operation>...): md2_validate_testfile (cut N,
# set OFFSET HEX, every STEP COUNT).
function(edit src dst)
  execute_process(COMMAND "${HELPER}" "${src}" "${dst}" ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "validate_tree.cmake: making ${dst} failed")
  endif()
endfunction()

# Good models.
file(COPY_FILE "${_crystal}" "${_t}/a/b/c/deep.md2")
file(COPY_FILE "${_crystal}" "${_t}/good/crystal.md2")
file(COPY_FILE "${_tag}" "${_t}/good/crystal.tag")
file(COPY_FILE "${_blade}" "${_t}/good/blade.md2")
file(COPY_FILE "${_crystal}" "${_t}/good/UPPER.MD2")
file(COPY_FILE "${_tag}" "${_t}/good/UPPER.TAG")
file(COPY_FILE "${_blade}" "${_t}/sub.md2/inner.Md2")

# Files that are not looked at: not named *.md2.
file(COPY_FILE "${_crystal}" "${_t}/model.bin")
file(WRITE "${_t}/notes.txt" "not a model\n")
file(WRITE "${_t}/bad.MD2.txt" "not a model either\n")

# Refused.
file(COPY_FILE "${_crystal}" "${_t}/bad/brokenanm.md2")
file(WRITE "${_t}/bad/brokenanm.anm" "spin 0 7 10\nbounce 8\n")
file(WRITE "${_t}/bad/empty.md2" "")
string(REPEAT "this is a text file, not a model. " 3 _text)
file(WRITE "${_t}/bad/magic.md2" "${_text}\n")
file(COPY_FILE "${_crystal}" "${_t}/bad/tagdir.md2")
edit("${_crystal}" "${_t}/bad/truncated_30.md2" cut 30)
edit("${_crystal}" "${_t}/bad/truncated_1000.md2" cut 1000)

# Warnings. crystal.md2: frames at 596, 96 bytes each, 18 of them; the
# normal index of a frame's first vertex is its byte 43.
edit("${_crystal}" "${_t}/warn/normals.md2" set 639 ff every 96 18)
file(COPY_FILE "${_crystal}" "${_t}/warn/ofs_end.md2")
file(APPEND "${_t}/warn/ofs_end.md2" "trailing bytes")
file(COPY_FILE "${_crystal}" "${_t}/warn/rate0.md2")
file(WRITE "${_t}/warn/rate0.anm" "spin 0 7 10\nhold 8 8 0\n")
file(COPY_FILE "${_blade}" "${_t}/warn/tagcount.md2")
file(COPY_FILE "${_tag}" "${_t}/warn/tagcount.tag")

if(NOT CMAKE_HOST_WIN32)
  file(WRITE "${_t}/weird/line\nbreak.md2" "${_text}")
  file(CREATE_LINK "nowhere.md2" "${_t}/links/dangling.md2" SYMBOLIC)
  file(CREATE_LINK ".." "${_t}/links/loop" SYMBOLIC)
  file(CREATE_LINK "../good" "${_t}/links/todir.md2" SYMBOLIC)
  file(CREATE_LINK "../good/crystal.md2" "${_t}/links/tofile.md2" SYMBOLIC)
endif()

if(LOCKED)
  file(MAKE_DIRECTORY "${ROOT}/locked/inner")
  file(COPY_FILE "${_blade}" "${ROOT}/locked/inner/blade.md2")
  file(CHMOD "${ROOT}" "${ROOT}/locked" DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE
    OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  execute_process(COMMAND chmod 0 "${ROOT}/locked/inner" RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "validate_tree.cmake: chmod 0 ${ROOT}/locked/inner failed")
  endif()
endif()

# For md2 info. Skin 0 (bytes 68-131): 01, e9 (not UTF-8), '"', '\', then
# 60 'A' and no NUL. Skin 1 (132-195) starts with c3 a9 (UTF-8 for e
# acute). Frame 0's name (byte 620) starts with 7f.
string(REPEAT "41" 60 _a60)
edit("${_crystal}" "${_i}/names.md2" set 68 "01e9225c${_a60}" set 132 c3a9 set 620 7f)
# Triangle 0's first vertex index (bytes 308-309) out of range.
edit("${_crystal}" "${_i}/dropped.md2" set 308 ffff)
file(COPY_FILE "${_crystal}" "${_i}/anm/crystal.md2")
file(WRITE "${_i}/anm/crystal.anm" "// name first last fps\nturn 0 7 12.5\n\"hop\" 8 13 8\n")
file(COPY_FILE "${_crystal}" "${_i}/fg/crystal.md2")
file(WRITE "${_i}/fg/crystal.framegroups" "0 8 10 1 turn\n8 6 5 0 hop\n")
file(COPY_FILE "${_crystal}" "${_i}/twokinds.md2")
file(APPEND "${_i}/twokinds.md2" "junk")
file(COPY_FILE "${_tag}" "${_i}/twokinds.tag")
file(APPEND "${_i}/twokinds.tag" "junk")
# num_glcmds (byte 36) 0, the file cut at ofs_glcmds (2324), ofs_end (byte
# 64) 2324 = 0x914
edit("${_crystal}" "${_i}/noglcmds.md2" cut 2324 set 36 00000000 set 64 14090000)
file(COPY_FILE "${_blade}" "${_i}/same/a.md2")
if(NOT CMAKE_HOST_WIN32)
  file(CREATE_LINK "${_i}/same/a.md2" "${_i}/same/hard.md2")
  file(CREATE_LINK "a.md2" "${_i}/same/soft.md2" SYMBOLIC)
endif()
foreach(_name IN ITEMS A.md2 B.MD2 a.md2 a0/x.md2 b.md2)
  file(WRITE "${_i}/order/${_name}" "${_text}")
endforeach()
foreach(_n RANGE 119)
  string(PREPEND _n "00")
  string(REGEX REPLACE "^0*([0-9][0-9][0-9])$" "\\1" _n "${_n}")
  file(COPY_FILE "${_blade}" "${_i}/bar/m${_n}.md2")
endforeach()
