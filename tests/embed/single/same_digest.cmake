# single_digest: md2_digest linked with the library (LIBRARY) and with the
# one file's implementation (SINGLE) print the same digest of MODELS (a
# |-separated list). EMULATOR runs both in a cross build (wine, qemu).
# SPDX-License-Identifier: MIT
string(REPLACE "|" ";" models "${MODELS}")
string(REPLACE "|" ";" emulator "${EMULATOR}")
foreach(which IN ITEMS LIBRARY SINGLE)
  execute_process(COMMAND ${emulator} "${${which}}" ${models}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out_${which} ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${${which}} failed (${rc}):\n${out_${which}}${err}")
  endif()
endforeach()
if(NOT out_LIBRARY STREQUAL out_SINGLE)
  message(FATAL_ERROR "md2_single.h decodes differently from the library:\n"
    "library:\n${out_LIBRARY}\nmd2_single.h:\n${out_SINGLE}")
endif()
message("the same digest from the library and from md2_single.h:\n${out_SINGLE}")
