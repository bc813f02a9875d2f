# Keeps README.md's code the code that CTest builds and runs:
#  - Quick start shows the two commands, the first of which (sh tests/run.sh)
#    is the one CI runs (.ci/run);
#  - "The one obvious way" shows, as whole C blocks and in this order, the
#    regions of tests/docs/readme_example.c between its README markers (the
#    readme_example test builds that file and runs it on the bundled model);
#  - "Animations" shows the block of docs/animation.md that
#    tests/unit/test_playback.c compiles;
#  - "Draw it" shows the region of examples/md2_draw_cpu.c between its README
#    markers (md2_view --cpu draws with it in the md2_view_cpu_* tests);
#  - "The md2 command" shows the path from Blender that the case
#    readme_blender of tests/tool/import.cases runs;
#  - and README has no other C block: a new one must come from tested code.
#   cmake -DSOURCE_DIR=<repo> -P tests/docs/readme_sync.cmake
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.16)
file(READ "${SOURCE_DIR}/README.md" readme)

# readme_section(<heading> <out>): the text of README's "## <heading>"
# section, from its heading to the next "## " heading.
function(readme_section heading out)
  string(FIND "${readme}" "\n## ${heading}\n" start)
  if(start EQUAL -1)
    message(FATAL_ERROR "README.md lost its \"## ${heading}\" section")
  endif()
  math(EXPR start "${start} + 1")
  string(SUBSTRING "${readme}" ${start} -1 section)
  string(FIND "${section}" "\n## " next)
  if(NOT next EQUAL -1)
    string(SUBSTRING "${section}" 0 ${next} section)
  endif()
  set(${out} "${section}" PARENT_SCOPE)
endfunction()

# marked_region(<file> <name> <out>): the lines of <file> between the line
# "/* README: <name> begin */" and the line "/* README: <name> end */",
# without those two lines and without the begin line's indentation.
function(marked_region file name out)
  file(READ "${file}" text)
  string(FIND "${text}" "/* README: ${name} begin */\n" begin)
  string(FIND "${text}" "/* README: ${name} end */\n" end)
  if(begin EQUAL -1 OR end LESS begin)
    message(FATAL_ERROR "${file} lost its '/* README: ${name} begin */' and "
      "'/* README: ${name} end */' lines, in that order")
  endif()
  # the indentation: what stands between the start of the begin line and
  # its marker
  string(SUBSTRING "${text}" 0 ${begin} before)
  string(FIND "${before}" "\n" line_start REVERSE)
  math(EXPR line_start "${line_start} + 1")
  math(EXPR indent_length "${begin} - ${line_start}")
  string(SUBSTRING "${text}" ${line_start} ${indent_length} indent)
  # from the line after the begin marker to the start of the end marker's
  # line
  string(SUBSTRING "${text}" ${begin} -1 rest)
  string(FIND "${rest}" "\n" eol)
  math(EXPR first "${begin} + ${eol} + 1")
  string(SUBSTRING "${text}" 0 ${end} before)
  string(FIND "${before}" "\n" last REVERSE)
  math(EXPR length "${last} + 1 - ${first}")
  string(SUBSTRING "${text}" ${first} ${length} block)
  if(NOT indent STREQUAL "")
    string(REPLACE "\n${indent}" "\n" block "\n${block}")
    string(SUBSTRING "${block}" 1 -1 block)
  endif()
  set(${out} "${block}" PARENT_SCOPE)
endfunction()

set(known_blocks 0)
# known_block(<code>): one more C block README may show (a function, not a
# macro, which would read the backslashes in the code as escapes).
function(known_block code)
  math(EXPR n "${known_blocks} + 1")
  set(known_blocks ${n} PARENT_SCOPE)
  set(known_${n} "${code}" PARENT_SCOPE)
endfunction()

# ---- Quick start: the two commands, the first as CI runs it ----------------
readme_section("Quick start" section)
string(FIND "${section}" "\n```sh\nsh tests/run.sh\ncmake -S . -B build -DMD2_BUILD_TESTS=OFF && cmake --build build && ./build/examples/md2_demo\n```\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md's Quick start no longer shows its two commands as one sh "
    "block: `sh tests/run.sh`, which .ci/run runs, and the build of the demo")
endif()
message(STATUS "README Quick start shows its two commands")

# ---- The one obvious way: tests/docs/readme_example.c ----------------------------
readme_section("The one obvious way" section)
set(from 0)
foreach(name IN ITEMS load lerp player draw write free)
  marked_region("${SOURCE_DIR}/tests/docs/readme_example.c" ${name} block)
  string(SUBSTRING "${section}" ${from} -1 rest)
  string(FIND "${rest}" "\n```c\n${block}```\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "README.md's \"The one obvious way\" does not show the '${name}' region "
      "of tests/docs/readme_example.c verbatim, as one C block after the regions before it: "
      "update one from the other")
  endif()
  math(EXPR from "${from} + ${at} + 1")
  known_block("${block}")
endforeach()
message(STATUS "README's one obvious way is tests/docs/readme_example.c")

# ---- Animations: docs/animation.md's two characters -------------------------
file(READ "${SOURCE_DIR}/docs/animation.md" doc)
string(FIND "${doc}" "## Playing run on two characters that share one model" start)
if(start EQUAL -1)
  message(FATAL_ERROR "docs/animation.md lost its two-characters section")
endif()
string(SUBSTRING "${doc}" ${start} -1 doc)
string(FIND "${doc}" "```c\n" open)
math(EXPR open "${open} + 5")
string(SUBSTRING "${doc}" ${open} -1 doc)
string(FIND "${doc}" "```" close)
string(SUBSTRING "${doc}" 0 ${close} block)
string(FIND "${readme}" "\n```c\n${block}```\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md does not show docs/animation.md's two-characters code verbatim")
endif()
known_block("${block}")
message(STATUS "README animation example is in sync")

# ---- Draw it: examples/md2_draw_cpu.c ---------------------------------------
marked_region("${SOURCE_DIR}/examples/md2_draw_cpu.c" draw block)
readme_section("Draw it" section)
string(FIND "${section}" "\n```c\n${block}```\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md's \"Draw it\" section does not show the code between the "
    "README markers of examples/md2_draw_cpu.c verbatim, as one C block: update one from the other")
endif()
known_block("${block}")
message(STATUS "README drawing example is in sync")

# ---- The md2 command: the path from Blender, run by md2_import_readme_blender --
readme_section("The md2 command" section)
string(FIND "${section}" "\n```sh\n# in Blender: File > Export > glTF 2.0 (.glb), as model.glb\nmd2 import model.glb -o model.md2 --height 56\nmd2 render model.md2 -o look.png\n```\n" at)
file(READ "${SOURCE_DIR}/tests/tool/import.cases" import_cases)
string(FIND "${import_cases}" "\nreadme_blender  0  md2 render model.md2 -o look.png\n    before  run md2 export @CRYSTAL@ -o model.glb\n    before  run md2 import model.glb -o model.md2 --height 56\n" run)
if(at EQUAL -1 OR run EQUAL -1)
  message(FATAL_ERROR "README.md's path from Blender (\"The md2 command\") and the case "
    "readme_blender of tests/tool/import.cases no longer run the same two commands: "
    "md2 import model.glb -o model.md2 --height 56, md2 render model.md2 -o look.png")
endif()
message(STATUS "README's path from Blender is the case md2_import_readme_blender")

# ---- no other C block --------------------------------------------------------
set(rest "${readme}")
set(shown 0)
while(TRUE)
  string(FIND "${rest}" "\n```c\n" open)
  if(open EQUAL -1)
    break()
  endif()
  math(EXPR open "${open} + 6")
  string(SUBSTRING "${rest}" ${open} -1 rest)
  string(FIND "${rest}" "```" close)
  string(SUBSTRING "${rest}" 0 ${close} block)
  string(SUBSTRING "${rest}" ${close} -1 rest)
  math(EXPR shown "${shown} + 1")
  set(found FALSE)
  foreach(i RANGE 1 ${known_blocks})
    string(COMPARE EQUAL "${block}" "${known_${i}}" same)
    if(same)
      set(found TRUE)
    endif()
  endforeach()
  if(NOT found)
    string(FIND "${block}" "\n" eol)
    string(SUBSTRING "${block}" 0 ${eol} first_line)
    message(FATAL_ERROR "README.md's C block ${shown}, which begins \"${first_line}\", is not "
      "code that the tests compile: show it from tests/docs/readme_example.c (between README "
      "markers), docs/animation.md's two characters or examples/md2_draw_cpu.c")
  endif()
endwhile()
message(STATUS "README's ${shown} C blocks are all compiled by the tests")
