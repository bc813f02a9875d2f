# md2 info: sources and tests (see CMakeLists.txt)
# SPDX-License-Identifier: MIT
target_sources(md2_tool PRIVATE info.c info_report.c info_report.h info_text.c info_json.c
  info_util.c info_util.h)

if(NOT MD2_BUILD_TESTS)
  return()
endif()
include("${CMAKE_CURRENT_LIST_DIR}/info_checks.cmake")
# The files validate_tree.cmake makes (fixture md2_validate_tree).
set(_tree "${MD2_TOOL_TEST_DIR}/validate_tree")

# ---- command line -----------------------------------------------------------
md2_info_check(md2_info_help ARGS info --help ERR_EMPTY
  OUT "^usage: md2 info MODEL \\[--json\\]\n" "--json " "Exit status: 0 ")
md2_info_check(md2_info_help_short ARGS info -h ERR_EMPTY OUT "^usage: md2 info MODEL")
md2_info_check(md2_info_help_command ARGS help info ERR_EMPTY OUT "^usage: md2 info MODEL")
md2_info_check(md2_info_no_model ARGS info EXIT 2 OUT_EMPTY
  ERR "^md2 info: no MODEL given\nusage: md2 info MODEL \\[--json\\]")
md2_info_check(md2_info_bad_option ARGS info --frobnicate crystal.md2 EXIT 2 OUT_EMPTY
  WORKDIR "${MD2_TOOL_MODELS}" ERR "^md2 info: unknown option '--frobnicate'\nusage: ")
md2_info_check(md2_info_two_models ARGS info crystal.md2 blade.md2 EXIT 2 OUT_EMPTY
  WORKDIR "${MD2_TOOL_MODELS}"
  ERR "^md2 info: one MODEL at a time \\('crystal.md2' and 'blade.md2' given\\)\nusage: ")
# "--" ends the options: "-x.md2" is then a model's name.
md2_info_check(md2_info_dashdash ARGS info -- -x.md2 EXIT 1 OUT_EMPTY
  ERR "^md2 info: -x.md2: cannot open '-x.md2': no such file\n$")

# ---- the bundled models ------------------------------------------------------
md2_info_check(md2_info_crystal ARGS info crystal.md2 WORKDIR "${MD2_TOOL_MODELS}" ERR_EMPTY
  LINES
  "crystal.md2"
  "  file        2700 bytes, MD2 version 8, framesize 96"
  "  sections    skins 68, st 196, tris 308, frames 596, glcmds 2324, end 2700"
  "  skin size   128 x 64"
  "  counts      2 skins, 14 vertices, 28 texcoords, 24 triangles, 18 frames"
  "  glcmds      94 words: 1 strip, 2 fans"
  "  skins       0 models/crystal/skin.pcx"
  "              1 models/crystal/skin_dark.pcx"
  "  skin file   skin.pcx"
  "  frames      spin01..spin08 \\(0-7\\), bounce01..bounce06 \\(8-13\\), pulse01..pulse04 \\(14-17\\)"
  "  animations  3, from the frame names"
  "              spin    0-7          8 frames  10 fps  loop"
  "              bounce  8-13         6 frames  10 fps  loop"
  "              pulse   14-17        4 frames  10 fps  loop"
  "  side files  crystal.tag"
  "  tags        2 over 18 frames: tag_rweapon, tag_top"
  "  bounds      min -12 -10.3923 -24, max 12 10.3923 40, size 24 x 20.7846 x 64"
  "  memory      [1-9][0-9]* bytes \\(model [1-9][0-9]*, tags [1-9][0-9]*\\)"
  "  warnings    none")
md2_info_check(md2_info_crystal_json ARGS info crystal.md2 --json
  WORKDIR "${MD2_TOOL_MODELS}" ERR_EMPTY
  # the keys in their order; a frame on a line; floats with 9 digits
  OUT "^\\{\n  \"md2_info_version\": 1,\n  \"path\": .*\n  \"file_size\": .*\n  \"header\": \\{.*\n  \"skin_width\": .*\n  \"skin_height\": .*\n  \"counts\": .*\n  \"skins\": .*\n  \"skin_file\": .*\n  \"frames\": .*\n  \"anim_source\": .*\n  \"animations\": .*\n  \"side_files\": .*\n  \"tags\": .*\n  \"bounds\": .*\n  \"memory\": .*\n  \"warning_flags\": .*\n  \"warnings_lost\": .*\n  \"warnings\": \\[\\]\n\\}\n$"
  "\n    \\{\"index\": 0, \"name\": \"spin01\", \"scale\": \\[0\\.0784313753, 0\\.0679235607, 0\\.188235298\\], \"translate\": \\[-10, -8\\.66025448, -20\\], \"min\": \\[[^]]*\\], \"max\": \\[[^]]*\\]\\},\n"
  JSON "len:=19" "md2_info_version=1" "path=crystal.md2" "file_size=2700" "len:header=17"
  "header/ident=844121161" "header/version=8" "header/skinwidth=128" "header/skinheight=64"
  "header/framesize=96" "header/num_skins=2" "header/num_xyz=14" "header/num_st=28"
  "header/num_tris=24" "header/num_glcmds=94" "header/num_frames=18" "header/ofs_skins=68"
  "header/ofs_st=196" "header/ofs_tris=308" "header/ofs_frames=596" "header/ofs_glcmds=2324"
  "header/ofs_end=2700" "skin_width=128" "skin_height=64"
  "len:counts=8" "counts/skins=2" "counts/vertices=14" "counts/texcoords=28"
  "counts/triangles=24" "counts/frames=18" "counts/glcmds=94" "counts/strips=1"
  "counts/fans=2"
  "len:skins=2" "skins/0=models/crystal/skin.pcx" "skins/1=models/crystal/skin_dark.pcx"
  "skin_file=skin.pcx"
  "len:frames=18" "frames/0/index=0" "frames/0/name=spin01" "frames/17/index=17"
  "frames/17/name=pulse04" "len:frames/0/scale=3" "len:frames/0/translate=3"
  "frames/0/translate/0=-10" "frames/0/translate/2=-20" "frames/0/min/2=-20"
  "frames/0/max/0=10" "frames/0/max/2=28" "frames/11/min/2=-8" "frames/11/max/2=40"
  "anim_source=names" "len:animations=3"
  "animations/0/name=spin" "animations/0/first=0" "animations/0/last=7"
  "animations/0/frames=8" "animations/0/fps=10" "animations/0/loop=ON"
  "animations/1/name=bounce" "animations/1/first=8" "animations/1/last=13"
  "animations/2/name=pulse" "animations/2/frames=4"
  "len:side_files=3" "type:side_files/anm=NULL" "type:side_files/framegroups=NULL"
  "side_files/tag=crystal.tag"
  "tags/num_tags=2" "tags/num_frames=18" "len:tags/names=2" "tags/names/0=tag_rweapon"
  "tags/names/1=tag_top"
  "bounds/min/0=-12" "bounds/min/2=-24" "bounds/max/0=12" "bounds/max/2=40"
  "bounds/size/0=24" "bounds/size/2=64"
  "match:memory/model=^[1-9][0-9]*$" "match:memory/tags=^[1-9][0-9]*$"
  "match:memory/total=^[1-9][0-9]*$" "sum:memory/total=memory/model+memory/tags"
  "warning_flags=0" "warnings_lost=OFF" "type:warnings=ARRAY" "len:warnings=0")
md2_info_check(md2_info_blade_json ARGS info blade.md2 --json WORKDIR "${MD2_TOOL_MODELS}"
  ERR_EMPTY
  JSON "counts/frames=1" "counts/vertices=6" "counts/triangles=8" "type:tags=NULL"
  "type:side_files/tag=NULL" "bounds/min/0=0" "bounds/max/0=15.9375" "memory/tags=0"
  "match:memory/model=^[1-9][0-9]*$" "sum:memory/total=memory/model+memory/tags"
  "skin_file=skin.pcx" "len:warnings=0")
# The text form's memory line: the total, then (with tags) the two parts,
# whose sum it is (the JSON tests above check that sum).
md2_info_check(md2_info_memory_text ARGS info crystal.md2 WORKDIR "${MD2_TOOL_MODELS}"
  ERR_EMPTY
  OUT_SUM "\n  memory      ([1-9][0-9]*) bytes \\(model ([1-9][0-9]*), tags ([1-9][0-9]*)\\)\n")

# ---- real models (../shared/corpus; skipped where it is not there) -----------
if(EXISTS "${MD2_TOOL_CORPUS}/faerie.md2")
  md2_info_check(md2_info_faerie ARGS info faerie.md2 WORKDIR "${MD2_TOOL_CORPUS}" ERR_EMPTY
    OUT "\n  counts      0 skins, 366 vertices, 487 texcoords, 654 triangles, 198 frames\n"
    "\n  skins       none\n  skin file   none found\n"
    "\n  frames      stand01..stand40 \\(0-39\\), run1..run6 \\(40-45\\), "
    "pain101..pain104 \\(54-57\\), pain201..pain204 \\(58-61\\)"
    "\n  animations  20, from the frame names\n"
    "\n              pain1    54-57        4 frames  10 fps  once\n"
    "\n  side files  none\n" "\n  memory      [1-9][0-9]* bytes\n" "\n  warnings    none\n$"
    # a long list wraps under its label
    "\n              pain101\\.\\.pain104 \\(54-57\\), pain201\\.\\.pain204 \\(58-61\\), ")
  md2_info_check(md2_info_faerie_json ARGS info faerie.md2 --json
    WORKDIR "${MD2_TOOL_CORPUS}" ERR_EMPTY
    JSON "file_size=320996" "header/num_frames=198" "counts/frames=198" "len:frames=198"
    "counts/vertices=366" "counts/triangles=654" "len:skins=0" "type:skin_file=NULL"
    "frames/0/name=stand01" "frames/197/name=death308" "anim_source=names"
    "len:animations=20" "animations/0/name=stand" "animations/0/last=39"
    "animations/3/name=pain1" "animations/3/first=54" "animations/3/loop=OFF"
    "animations/19/name=death3" "animations/19/last=197" "type:tags=NULL" "len:warnings=0")
endif()
if(EXISTS "${MD2_TOOL_CORPUS}/sydney.md2")
  md2_info_check(md2_info_sydney ARGS info sydney.md2 WORKDIR "${MD2_TOOL_CORPUS}" ERR_EMPTY
    OUT "\n  counts      0 skins, 342 vertices, 456 texcoords, 679 triangles, 198 frames\n"
    "stand1..stand40 \\(0-39\\), run001..run006 \\(40-45\\)" "pain1..pain12 \\(54-65\\)"
    "\n  animations  16, from the frame names\n" "\n  warnings    none\n$")
  md2_info_check(md2_info_sydney_json ARGS info --json sydney.md2
    WORKDIR "${MD2_TOOL_CORPUS}" ERR_EMPTY
    JSON "counts/frames=198" "len:frames=198" "frames/40/name=run001" "len:animations=16"
    "animations/3/name=pain" "animations/3/first=54" "animations/3/last=65"
    "animations/15/name=death" "animations/15/frames=20" "len:warnings=0")
endif()

# ---- files that cannot be loaded: message on stderr, nothing on stdout ---------
md2_info_check(md2_info_missing ARGS info no/such/model.md2 EXIT 1 OUT_EMPTY
  ERR "^md2 info: no/such/model.md2: cannot open 'no/such/model.md2': no such file\n$")
md2_info_check(md2_info_missing_json ARGS info --json no/such/model.md2 EXIT 1 OUT_EMPTY
  ERR "^md2 info: no/such/model.md2: cannot open")
md2_info_check(md2_info_directory ARGS info models WORKDIR "${MD2_TOOL_MODELS}/.." EXIT 1
  OUT_EMPTY ERR "^md2 info: models: the file exists but cannot be read: is a directory\n$")
md2_info_check(md2_info_through_file ARGS info --json crystal.md2/x.md2
  WORKDIR "${MD2_TOOL_MODELS}" EXIT 1 OUT_EMPTY
  ERR "^md2 info: crystal.md2/x.md2: the file exists but cannot be read: a component of the path is not a directory\n$")
md2_info_check(md2_info_truncated ARGS info tree/bad/truncated_1000.md2 WORKDIR "${_tree}"
  TREE EXIT 1 OUT_EMPTY
  ERR "^md2 info: tree/bad/truncated_1000.md2: frames: 18 entries of 96 bytes from ofs_frames = 596 end at byte 2324, past the end of the data \\(1000 bytes\\)\n$")
md2_info_check(md2_info_short ARGS info --json tree/bad/truncated_30.md2 WORKDIR "${_tree}"
  TREE EXIT 1 OUT_EMPTY
  ERR "^md2 info: tree/bad/truncated_30.md2: header: the data has 30 bytes, fewer than the 68 of an MD2 header\n$")
md2_info_check(md2_info_empty ARGS info tree/bad/empty.md2 WORKDIR "${_tree}" TREE EXIT 1
  OUT_EMPTY ERR "^md2 info: tree/bad/empty.md2: header: the data has 0 bytes")
md2_info_check(md2_info_bad_magic ARGS info tree/bad/magic.md2 WORKDIR "${_tree}" TREE
  EXIT 1 OUT_EMPTY ERR "^md2 info: tree/bad/magic.md2: header: ident .*not an MD2 file\n$")
md2_info_check(md2_info_broken_anm ARGS info tree/bad/brokenanm.md2 WORKDIR "${_tree}" TREE
  EXIT 1 OUT_EMPTY
  ERR "^md2 info: tree/bad/brokenanm.md2: tree/bad/brokenanm.anm: line 2, column 8: expected 4 fields")
md2_info_check(md2_info_tag_directory ARGS info tree/bad/tagdir.md2 WORKDIR "${_tree}" TREE
  EXIT 1 OUT_EMPTY
  ERR "^md2 info: tree/bad/tagdir.md2: tree/bad/tagdir.tag: the file exists but cannot be read: is a directory\n$")
if(EXISTS /dev/full)
  md2_info_check(md2_info_write_error ARGS info crystal.md2 WORKDIR "${MD2_TOOL_MODELS}"
    OUT_FILE /dev/full EXIT 1 ERR "^md2 info: cannot write the output: ")
endif()

# ---- warnings, side files, names ----------------------------------------------
md2_info_check(md2_info_warnings ARGS info tree/warn/normals.md2 WORKDIR "${_tree}" TREE
  ERR_EMPTY
  OUT "\n  warnings    18\n              frames: vertex 0 of frame 0 at byte 639 has normal index 255, not below 162 \\(first of 18\\)\n$")
md2_info_check(md2_info_warnings_json ARGS info --json tree/warn/normals.md2
  WORKDIR "${_tree}" TREE ERR_EMPTY
  JSON "warning_flags=64" "warnings_lost=OFF" "len:warnings=18" "warnings/0/result=0"
  "warnings/0/warning=64" "match:warnings/0/warning_text=normal" "warnings/0/section=frames"
  "warnings/0/field=lightnormalindex" "warnings/0/offset=639" "warnings/0/index=0"
  "warnings/0/line=0" "warnings/0/column=0"
  "warnings/0/message=tree/warn/normals.md2: frames: vertex 0 of frame 0 at byte 639 has normal index 255, not below 162"
  "warnings/17/offset=2271" "warnings/17/index=17")
md2_info_check(md2_info_ofs_end_json ARGS info --json tree/warn/ofs_end.md2
  WORKDIR "${_tree}" TREE ERR_EMPTY
  JSON "file_size=2714" "header/ofs_end=2700" "warning_flags=1" "len:warnings=1"
  "warnings/0/section=header" "warnings/0/field=ofs_end" "warnings/0/offset=64")
# A model without GL commands: 0 words, 0 strips, 0 fans.
md2_info_check(md2_info_no_glcmds ARGS info info/noglcmds.md2 WORKDIR "${_tree}" TREE
  ERR_EMPTY OUT "\n  glcmds      0 words: 0 strips, 0 fans\n" "\n  warnings    none\n$")
md2_info_check(md2_info_no_glcmds_json ARGS info --json info/noglcmds.md2 WORKDIR "${_tree}"
  TREE ERR_EMPTY
  JSON "header/num_glcmds=0" "header/ofs_end=2324" "counts/glcmds=0" "counts/strips=0"
  "counts/fans=0" "counts/triangles=24" "len:warnings=0")
md2_info_check(md2_info_dropped ARGS info info/dropped.md2 WORKDIR "${_tree}" TREE ERR_EMPTY
  OUT "\n  counts      2 skins, 14 vertices, 28 texcoords, 23 triangles \\(24 in the header\\), 18 frames\n"
  "\n  warnings    1\n              triangles: ")
md2_info_check(md2_info_dropped_json ARGS info --json info/dropped.md2 WORKDIR "${_tree}"
  TREE ERR_EMPTY
  JSON "counts/triangles=23" "header/num_tris=24" "warnings/0/section=triangles"
  "warnings/0/offset=308" "warnings/0/index=0")
md2_info_check(md2_info_anm ARGS info info/anm/crystal.md2 WORKDIR "${_tree}" TREE ERR_EMPTY
  OUT "\n  animations  2, from the .anm file\n              turn  0-7          8 frames  12.5 fps  loop\n              hop   8-13         6 frames  8 fps  loop\n"
  "\n  side files  info/anm/crystal.anm\n")
md2_info_check(md2_info_anm_json ARGS info --json info/anm/crystal.md2 WORKDIR "${_tree}"
  TREE ERR_EMPTY
  JSON "anim_source=anm" "side_files/anm=info/anm/crystal.anm" "type:side_files/tag=NULL"
  "len:animations=2" "animations/0/name=turn" "animations/0/fps=12.5"
  "animations/1/name=hop" "animations/1/first=8" "animations/1/last=13"
  "animations/1/frames=6" "animations/1/fps=8")
md2_info_check(md2_info_framegroups ARGS info info/fg/crystal.md2 WORKDIR "${_tree}" TREE
  ERR_EMPTY
  OUT "\n  animations  2, from the .framegroups file\n              turn  0-7          8 frames  10 fps  loop\n              hop   8-13         6 frames  5 fps  once\n"
  "\n  side files  info/fg/crystal.framegroups\n")
md2_info_check(md2_info_framegroups_json ARGS info --json info/fg/crystal.md2
  WORKDIR "${_tree}" TREE ERR_EMPTY
  JSON "anim_source=framegroups" "side_files/framegroups=info/fg/crystal.framegroups"
  "type:side_files/anm=NULL" "len:animations=2" "animations/1/name=hop"
  "animations/1/fps=5" "animations/1/loop=OFF")
# The same quirk in the model and in its tag file: two kinds of warning.
md2_info_check(md2_info_two_kinds ARGS info info/twokinds.md2 WORKDIR "${_tree}" TREE
  ERR_EMPTY
  OUT "\n  warnings    2\n              header: ofs_end \\(byte 64\\) is 2700, but the data has 2704 bytes\n              info/twokinds.tag: .*ofs_end.*\n$")
md2_info_check(md2_info_rate0_json ARGS info --json tree/warn/rate0.md2 WORKDIR "${_tree}"
  TREE ERR_EMPTY
  JSON "anim_source=anm" "animations/1/name=hold" "animations/1/fps=0" "len:warnings=1"
  "warnings/0/warning=2048" "warnings/0/section=side file" "warnings/0/line=2"
  "warnings/0/column=10" "match:warnings/0/message=^tree/warn/rate0.anm: line 2, column 10: ")
md2_info_check(md2_info_tag_count_json ARGS info --json tree/warn/tagcount.md2
  WORKDIR "${_tree}" TREE ERR_EMPTY
  JSON "counts/frames=1" "tags/num_frames=18" "side_files/tag=tree/warn/tagcount.tag"
  "warning_flags=4096" "warnings/0/warning=4096" "warnings/0/section=tag file"
  "warnings/0/field=num_frames" "warnings/0/offset=12")
if(NOT CMAKE_HOST_WIN32)
  # A symbolic link is a model of its own: its side files are beside it.
  md2_info_check(md2_info_link ARGS info --json tree/links/tofile.md2 WORKDIR "${_tree}"
    TREE ERR_EMPTY JSON "counts/frames=18" "type:tags=NULL" "type:side_files/tag=NULL")
endif()
md2_info_check(md2_info_upper_case ARGS info --json tree/good/UPPER.MD2 WORKDIR "${_tree}"
  TREE ERR_EMPTY JSON "side_files/tag=tree/good/UPPER.TAG" "tags/num_tags=2")
# Names are bytes: JSON escapes every byte outside printable ASCII as \u00XX
# (so e9, not UTF-8, and c3 a9, UTF-8, alike); the text form shows control
# bytes and bytes that are not UTF-8 as \xNN, and UTF-8 as it is.
md2_info_check(md2_info_names_json ARGS info --json info/names.md2 WORKDIR "${_tree}" TREE
  ERR_EMPTY
  OUT "\n    \"\\\\u0001\\\\u00E9\\\\\"\\\\\\\\AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\",\n"
  "\n    \"\\\\u00C3\\\\u00A9dels/crystal/skin_dark\\.pcx\"\n"
  "\"name\": \"\\\\u007Fpin01\""
  NOT_OUT "[^ -~\n]"
  JSON "len:skins=2" "match:skins/1=dels/crystal/skin_dark.pcx$" "frames/1/name=spin02"
  "match:frames/0/name=^.pin01$" "warnings/0/warning=8" "warnings/0/section=skins"
  "warnings/0/offset=68")
md2_info_check(md2_info_names ARGS info info/names.md2 WORKDIR "${_tree}" TREE ERR_EMPTY
  OUT "\n  skins       0 \\\\x01\\\\xE9\"\\\\AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n"
  "\n              1 ..dels/crystal/skin_dark.pcx\n"
  "\n  frames      \\\\x7Fpin01 \\(0\\), spin02..spin08 \\(1-7\\), "
  "\n              \\\\x7Fpin  0-0          1 frame   10 fps  loop\n"
  NOT_OUT "\\\\xC3" "\\\\xA9")

unset(_tree)
