# The md2 command's folders depend only downward (tool/CMakeLists.txt):
#   1 platform/  2 image/  3 core/  4 formats/  5 commands/  6 main.c
# Reads the #include "..." lines of every .c and .h in tool/ and fails on each that names a header of a
# higher folder, or one that is not tool/'s (a path such as "../commands/x.h" would get round the
# include directories), and on a header name two folders share. A new folder of tool/ needs a place
# here. With -DSELFTEST=DIR it first checks itself on a made-up tree in DIR: exactly the planted errors.
#   cmake -DTOOL=<repo>/tool [-DSELFTEST=<scratch dir>] -P tests/tool/layers.cmake
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.16)

set(rank 0)
foreach(dir IN ITEMS platform image core formats commands .) # rank_<folder>: 1 to 6 (.: main.c)
  math(EXPR rank "${rank} + 1")
  set(rank_${dir} ${rank})
endforeach()

# check_tree(<root> <out>): ${out} = the tree's errors, one per element; ${out}_files = its number of files.
function(check_tree root out)
  set(errors "")
  file(GLOB_RECURSE files RELATIVE "${root}" "${root}/*.c" "${root}/*.h")
  foreach(f IN LISTS files) # the folder of each file (dir_<file>) and of each header (home_<name>)
    get_filename_component(dir "${f}" DIRECTORY)
    get_filename_component(name "${f}" NAME)
    if(dir STREQUAL "")
      set(dir .)
    endif()
    set(dir_${f} "${dir}")
    if(NOT DEFINED rank_${dir})
      list(APPEND errors "${f}: the folder ${dir}/ has no place in tests/tool/layers.cmake")
    elseif(f MATCHES "\\.h$" AND DEFINED home_${name})
      list(APPEND errors "${f}: ${home_${name}}/${name} has the same name")
    elseif(f MATCHES "\\.h$")
      set(home_${name} "${dir}")
    endif()
  endforeach()
  foreach(f IN LISTS files)
    file(STRINGS "${root}/${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*$" "\\1" inc "${line}")
      if(NOT DEFINED home_${inc})
        list(APPEND errors "${f} includes \"${inc}\", which is not a header of a folder of tool/")
      elseif(DEFINED rank_${dir_${f}} AND rank_${home_${inc}} GREATER rank_${dir_${f}})
        list(APPEND errors "${f} includes ${home_${inc}}/${inc}, which is above ${dir_${f}}/")
      endif()
    endforeach()
  endforeach()
  list(LENGTH files n)
  set(${out} "${errors}" PARENT_SCOPE)
  set(${out}_files ${n} PARENT_SCOPE)
endfunction()

if(DEFINED SELFTEST)
  # one file of each kind of error, and files that are fine: <file> <text>
  file(REMOVE_RECURSE "${SELFTEST}")
  set(tree platform/p.h "#include <stdio.h>\n" core/c.h "#include \"p.h\"\n #  include \"f.h\" /* up */\n"
    formats/f.h "#include \"c.h\"\n" formats/f.c "#include \"../commands/x.h\"\n"
    commands/x.h "#include \"f.h\"\n" commands/dup.h "\n" image/dup.h "\n" extra/e.c "\n"
    main.c "#include \"x.h\"\n#include \"p.h\"\n")
  while(tree)
    list(POP_FRONT tree f text)
    file(WRITE "${SELFTEST}/${f}" "${text}")
  endwhile()
  check_tree("${SELFTEST}" found)
  set(expected "core/c.h includes formats/f.h, which is above core/"
    "extra/e.c: the folder extra/ has no place in tests/tool/layers.cmake"
    "formats/f.c includes \"../commands/x.h\", which is not a header of a folder of tool/"
    "image/dup.h: commands/dup.h has the same name")
  list(SORT found)
  if(NOT found STREQUAL expected)
    string(REPLACE ";" "\n  " found "${found}")
    string(REPLACE ";" "\n  " expected "${expected}")
    message(FATAL_ERROR "layers.cmake checks itself wrongly: on ${SELFTEST} it found\n  ${found}\n"
      "instead of\n  ${expected}")
  endif()
  file(REMOVE_RECURSE "${SELFTEST}")
  message(STATUS "layers: the self-test's tree gives the 4 errors planted in it")
endif()

if(NOT DEFINED TOOL)
  message(FATAL_ERROR "usage: cmake -DTOOL=<repo>/tool [-DSELFTEST=<dir>] -P layers.cmake")
endif()
check_tree("${TOOL}" found)
if(found_files LESS 10)
  message(FATAL_ERROR "${TOOL}: ${found_files} files; is it tool/?")
endif()
if(found)
  list(LENGTH found n)
  string(REPLACE ";" "\n  " found "${found}")
  message(FATAL_ERROR "${n} include(s) against the direction of tool/'s folders "
    "(platform < image < core < formats < commands < main.c):\n  ${found}")
endif()
message(STATUS "layers: ${found_files} files of tool/, each including only its own folder's headers or lower ones")
