# Fails unless the shared library exports only md2_* functions.
#   cmake -DLIB=<libmd2.so> -DNM=<nm> -P tests/exports.cmake
# SPDX-License-Identifier: MIT
execute_process(COMMAND "${NM}" -D --defined-only "${LIB}"
  OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIB}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(count 0)
foreach(line IN LISTS lines)
  # "<address> <type> <name>"; T/D/B/R are symbols the library defines
  if(line MATCHES "^[0-9a-fA-F]+ ([TDBR]) (.+)$")
    set(name "${CMAKE_MATCH_2}")
    if(NOT name MATCHES "^md2_" AND NOT name MATCHES "^(_init|_fini|_edata|_end|__bss_start)$")
      message(FATAL_ERROR "${LIB} exports ${name}, which is not public API")
    endif()
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "no exported symbols found in ${LIB}")
endif()
message(STATUS "${count} exported symbols, all public API")
