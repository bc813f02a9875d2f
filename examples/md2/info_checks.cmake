# md2 info and md2 validate tests: md2_info_check(), which registers one
# test that runs the md2 command and checks what it does with
# info_run_check.cmake. Included by info.cmake and validate.cmake.
#
#   md2_info_check(<name> [ARGS arg...] [EXIT status] [WORKDIR dir]
#     [OUT_EMPTY] [ERR_EMPTY] [OUT regex...] [NOT_OUT regex...]
#     [ERR regex...] [LINES regex...] [JSON check...] [OUT_SUM regex...]
#     [OUT_FILE file] [TTY] [TREE] [WRAP command...])
#
# EXIT: the expected exit status (default 0). WORKDIR: where md2 runs
# (default MD2_TOOL_TEST_DIR). OUT_EMPTY / ERR_EMPTY: nothing may be
# written to stdout / stderr. OUT, NOT_OUT, ERR: regexes that must (must
# not) match somewhere in stdout / stderr. LINES: stdout must have exactly
# these lines, each matching its regex as a whole. JSON: stdout must be
# valid JSON (parsed by CMake's string(JSON)) and pass each check:
# "a/b/0=value" (the value at that path; true and false read as ON and
# OFF), "len:a/b=N" (the length of an array or object), "type:a=TYPE"
# (NULL, NUMBER, STRING, BOOLEAN, ARRAY or OBJECT), "match:a/b=regex",
# "sum:a/t=a/x+a/y" (the integer at a/t is the sum of those at a/x, a/y).
# OUT_SUM: a regex with capture groups that must match stdout, where the
# whole number the first group matches is the sum of the others'.
# OUT_FILE: stdout goes to this file instead (/dev/full: a write error).
# TTY: run with stdout and stderr on a terminal (util-linux `script`); the
# output checked is what the terminal showed, both streams, with each
# carriage return written as <CR>. TREE: needs the files that
# validate_tree.cmake makes (the fixture md2_validate_tree). WRAP: a
# command that runs md2 (its words, then md2's), such as setpriv running
# it as another user; if that command cannot run `md2 --version` in
# WORKDIR, the test is skipped (it says why).
#
# The arguments are read one by one and written to the test's checks file
# as numbered variables (OUT_0, OUT_1, ..., OUT_COUNT), never as CMake
# lists: a list would not split at a ';' between unbalanced '[' and ']',
# which regexes have.
# SPDX-License-Identifier: MIT
include_guard(GLOBAL)

set(MD2_INFO_CHECKS_DIR "${CMAKE_CURRENT_BINARY_DIR}/md2_checks")
set(MD2_INFO_RUNNER "${CMAKE_CURRENT_LIST_DIR}/info_run_check.cmake")

function(md2_info_check name)
  set(flags OUT_EMPTY ERR_EMPTY TTY TREE)
  set(single EXIT WORKDIR OUT_FILE)
  set(multi ARGS OUT NOT_OUT ERR LINES JSON OUT_SUM WRAP)
  foreach(k IN LISTS flags single)
    set(_c_${k} "")
  endforeach()
  foreach(k IN LISTS multi)
    set(_n_${k} 0)
  endforeach()
  set(_c_EXIT 0)
  set(_c_WORKDIR "${MD2_TOOL_TEST_DIR}")
  set(values "")
  set(key "")
  foreach(i RANGE 1 ${ARGC})
    if(i EQUAL ARGC)
      break()
    endif()
    set(arg "${ARGV${i}}")
    if(arg IN_LIST flags)
      set(_c_${arg} ON)
      set(key "")
    elseif(arg IN_LIST single OR arg IN_LIST multi)
      set(key "${arg}")
    elseif(key IN_LIST single)
      set(_c_${key} "${arg}")
      set(key "")
    elseif(key IN_LIST multi)
      string(APPEND values "set(${key}_${_n_${key}} [==[${arg}]==])\n")
      math(EXPR _n_${key} "${_n_${key}} + 1")
    else()
      message(FATAL_ERROR "md2_info_check(${name}): unexpected argument '${arg}'")
    endif()
  endforeach()
  set(text "# ${name}: written by md2_info_check() (info_checks.cmake)\n")
  foreach(k IN LISTS flags single)
    string(APPEND text "set(${k} [==[${_c_${k}}]==])\n")
  endforeach()
  foreach(k IN LISTS multi)
    string(APPEND text "set(${k}_COUNT ${_n_${k}})\n")
  endforeach()
  file(WRITE "${MD2_INFO_CHECKS_DIR}/${name}.cmake" "${text}${values}")
  add_test(NAME ${name}
    COMMAND "${CMAKE_COMMAND}" "-DTOOL=$<TARGET_FILE:md2_tool>"
      "-DCHECKS=${MD2_INFO_CHECKS_DIR}/${name}.cmake" -P "${MD2_INFO_RUNNER}")
  # script: tests/run.sh's valgrind pass runs md2 under valgrind, not cmake
  set_property(TEST ${name} APPEND PROPERTY LABELS script)
  if(_c_TREE)
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED md2_validate_tree)
  endif()
  if(_n_WRAP GREATER 0)
    set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "md2 test skipped: ")
  endif()
  if(MD2_SANITIZE)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "UBSAN_OPTIONS=print_stacktrace=1")
  endif()
endfunction()
