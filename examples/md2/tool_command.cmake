# md2_tool_command(<var> <tool>): sets <var> to the command list that runs
# the md2 program <tool> from a cmake -P test script: <tool> itself, or,
# under valgrind, valgrind with <tool>. Valgrind is asked for by the
# environment variable MD2_TOOL_VALGRIND (any value), and is on when the
# script itself runs under valgrind's memcheck (`ctest -T memcheck`, as
# tests/run.sh does with MD2_VALGRIND=1): valgrind does not follow child
# processes, so without this the tool itself would never be checked there.
# Any error or leak valgrind finds makes the command exit with 125.
# SPDX-License-Identifier: MIT
include_guard(GLOBAL)

function(md2_tool_command var tool)
  set(_cmd "${tool}")
  if(DEFINED ENV{MD2_TOOL_VALGRIND} OR "$ENV{LD_PRELOAD}" MATCHES "vgpreload_memcheck")
    find_program(_md2_valgrind valgrind)
    if(NOT _md2_valgrind)
      message(FATAL_ERROR "md2_tool_command: valgrind was asked for, but is not installed")
    endif()
    set(_cmd "${_md2_valgrind}" -q --error-exitcode=125 --leak-check=full
      --errors-for-leak-kinds=all --show-leak-kinds=all "${tool}")
  endif()
  set(${var} "${_cmd}" PARENT_SCOPE)
endfunction()
