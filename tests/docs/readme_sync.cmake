# Keeps README.md's code the code that CTest builds and runs:
#  - Quick start shows the two commands, the first of which (sh tests/run.sh) CI runs (.ci/run);
#  - "The one obvious way" shows, as whole C blocks and in this order, the regions of
#    tests/docs/readme_example.c between its README markers (built and run by readme_example);
#  - "Animations" shows the block of docs/animation.md that tests/unit/test_playback.c compiles;
#  - "Draw it" shows the region of examples/md2_draw_cpu.c between its README markers (md2_view_cpu_* draw with it);
#  - "The md2 command" shows the paths from Blender that the cases readme_blender and readme_game run,
#    and the packages it needs as tool/CMakeLists.txt names them, each of which tests/run.sh installs;
#  - every relative link of README.md and docs/*.md names a file that is there;
#  - and README has no other C block: a new one must come from tested code.
#   cmake -DSOURCE_DIR=<repo> -P tests/docs/readme_sync.cmake
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.16)
file(READ "${SOURCE_DIR}/README.md" readme)
set(known 0) # the C blocks of tested code README shows

# section(<text> <start> <end> <out>): <text> after <start> up to <end> (or to its end).
function(section text start end out)
  string(FIND "${text}" "${start}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "'${start}' is lost")
  endif()
  string(LENGTH "${start}" n)
  math(EXPR at "${at} + ${n}")
  string(SUBSTRING "${text}" ${at} -1 text)
  string(FIND "${text}" "${end}" at)
  if(end STREQUAL "")
    set(at -1)
  endif()
  string(SUBSTRING "${text}" 0 ${at} text)
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# shows(<section heading> <what> <block> <lang>): README's "## <heading>" section shows
# <block> verbatim as one <lang> block, after the blocks it was shown to show before.
set(from 0)
function(shows heading what block lang)
  if(NOT heading STREQUAL "${last_heading}")
    set(from 0)
    set(last_heading "${heading}" PARENT_SCOPE)
  endif()
  section("${readme}" "\n## ${heading}\n" "\n## " text)
  string(SUBSTRING "${text}" ${from} -1 text)
  string(FIND "${text}" "\n```${lang}\n${block}```\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "README.md's \"${heading}\" does not show ${what} verbatim, as one "
      "${lang} block (after the blocks before it): update one from the other")
  endif()
  math(EXPR from "${from} + ${at} + 1")
  set(from ${from} PARENT_SCOPE)
  if(lang STREQUAL "c")
    math(EXPR known "${known} + 1")
    set(known ${known} PARENT_SCOPE)
  endif()
endfunction()

# marked(<file> <name> <out>): the lines of <file> between "/* README: <name> begin */" and
# "/* README: <name> end */", without the begin line's indentation.
function(marked file name out)
  file(READ "${file}" text)
  string(REGEX MATCH "\n([ \t]*)/\\* README: ${name} begin \\*/\n" line "${text}")
  set(indent "${CMAKE_MATCH_1}")
  section("${text}" "/* README: ${name} begin */\n" "/* README: ${name} end */\n" block)
  string(REGEX REPLACE "[ \t]+$" "" block "${block}")
  if(NOT indent STREQUAL "")
    string(REPLACE "\n${indent}" "\n" block "\n${block}")
    string(SUBSTRING "${block}" 1 -1 block)
  endif()
  set(${out} "${block}" PARENT_SCOPE)
endfunction()

shows("Quick start" "its two commands: `sh tests/run.sh`, which .ci/run runs, and the build of the demo"
  "sh tests/run.sh\ncmake -S . -B build -DMD2_BUILD_TESTS=OFF && cmake --build build && ./build/examples/md2_demo\n" sh)
foreach(name IN ITEMS load lerp player draw write free)
  marked("${SOURCE_DIR}/tests/docs/readme_example.c" ${name} block)
  shows("The one obvious way" "the '${name}' region of tests/docs/readme_example.c" "${block}" c)
endforeach()
file(READ "${SOURCE_DIR}/docs/animation.md" doc)
section("${doc}" "## Playing run on two characters that share one model" "" doc)
section("${doc}" "```c\n" "```" block)
shows("Animations: \"run\" on two characters that share one model"
  "docs/animation.md's two-characters code" "${block}" c)
marked("${SOURCE_DIR}/examples/md2_draw_cpu.c" draw block)
shows("Draw it" "the code between the README markers of examples/md2_draw_cpu.c" "${block}" c)
shows("The md2 command" "the path from Blender of the case readme_blender of tests/tool/import.cases"
  "# in Blender: File > Export > glTF 2.0 (.glb), as model.glb\nmd2 import model.glb -o model.md2 --height 56\nmd2 render model.md2 -o look.png\n" sh)
file(READ "${SOURCE_DIR}/tests/tool/import.cases" cases)
string(FIND "${cases}" "\nreadme_blender  0  md2 render model.md2 -o look.png\n    before  run md2 export @CRYSTAL@ -o model.glb\n    before  run md2 import model.glb -o model.md2 --height 56\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the case readme_blender of tests/tool/import.cases no longer runs README's "
    "two commands: md2 import model.glb -o model.md2 --height 56, md2 render model.md2 -o look.png")
endif()
set(_q2 "models/monsters/blocky/tris.md2")
shows("The md2 command" "the path into Quake II of the case readme_game of tests/tool/import.cases"
  "# in Blender: File > Export > glTF 2.0 (.glb), as model.glb (Animation on: one action a clip)\nmkdir -p baseq2/models/monsters/blocky\nmd2 import model.glb -o baseq2/${_q2} --game baseq2 --height 56 --fps 10 --profile quake2\nmd2 validate --profile quake2 baseq2/${_q2}\nmd2 info baseq2/${_q2}\n" sh)
foreach(line IN ITEMS "readme_game  0  md2 info baseq2/${_q2}" "    before  run md2 validate --profile quake2 baseq2/${_q2}"
    "    before  run md2 import model.glb -o baseq2/${_q2} --game baseq2 --height 56 --fps 10 --profile quake2")
  string(FIND "${cases}" "\n${line}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the case readme_game of tests/tool/import.cases no longer runs README's line: ${line}")
  endif()
endforeach()

# The md2 command's packages: README's apt-get line is tool/CMakeLists.txt's, and tests/run.sh installs each.
file(READ "${SOURCE_DIR}/tool/CMakeLists.txt" tool)
if(NOT tool MATCHES "apt-get \"\n *\"install ([a-z0-9 -]+), or run")
  message(FATAL_ERROR "tool/CMakeLists.txt no longer names its packages as 'apt-get install ..., or run'")
endif()
set(packages "${CMAKE_MATCH_1}")
section("${readme}" "\n## The md2 command\n" "\n## " text)
string(REPLACE "\n" " " text "${text}")
string(FIND "${text}" "`apt-get install ${packages}`" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README's \"The md2 command\" does not say `apt-get install ${packages}`, the "
    "packages tool/CMakeLists.txt asks for")
endif()
file(READ "${SOURCE_DIR}/tests/run.sh" run)
string(REPLACE " " ";" packages "${packages}")
foreach(p IN LISTS packages)
  string(FIND "${run}" "viewer_missing=\"$viewer_missing ${p}\"" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "tests/run.sh does not install ${p}, which the md2 command needs")
  endif()
endforeach()

# Every relative link of README.md and docs/*.md names a file there is (docs/builder.md became builder.md).
file(GLOB docs "${SOURCE_DIR}/docs/*.md")
foreach(md IN ITEMS "${SOURCE_DIR}/README.md" ${docs})
  file(READ "${md}" text)
  get_filename_component(dir "${md}" DIRECTORY)
  string(REGEX MATCHALL "\\]\\([^)#: ]+[)#]" links "${text}")
  string(REPLACE "](" "" links "${links}") # (a ']' would keep the list from splitting)
  string(REGEX REPLACE "[)#](;|$)" "\\1" links "${links}")
  foreach(link IN LISTS links)
    if(NOT EXISTS "${dir}/${link}")
      message(FATAL_ERROR "${md} links to ${link}, which is not there")
    endif()
  endforeach()
endforeach()

# No other C block (each tested one is shown, and they are all different).
string(REGEX MATCHALL "\n```c\n" shown "${readme}")
list(LENGTH shown shown)
if(NOT shown EQUAL known)
  message(FATAL_ERROR "README.md shows ${shown} C blocks, ${known} of them code that the tests "
    "compile: show the others from tests/docs/readme_example.c (between README markers), "
    "docs/animation.md's two characters or examples/md2_draw_cpu.c")
endif()
message(STATUS "README's Quick start, path from Blender and ${shown} C blocks are the code the tests run")
