# single_simd_kernels: single_include/md2_single.h compiles the library's SIMD
# kernels too. For each instruction set whose kernels (sse2_*, avx2_*,
# neon_* functions) the static library LIBRARY holds, the one file's
# implementation SINGLE holds some as well. NM lists their symbols.
# SPDX-License-Identifier: MIT
foreach(which IN ITEMS LIBRARY SINGLE)
  execute_process(COMMAND "${NM}" "${${which}}" RESULT_VARIABLE rc
    OUTPUT_VARIABLE out_${which} ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${${which}}")
  endif()
endforeach()
set(found "")
foreach(isa IN ITEMS sse2 avx2 neon)
  set(re "[ \t][tT] _?(md2__pose_)?${isa}_[A-Za-z_0-9]*")
  if(out_LIBRARY MATCHES "${re}")
    if(NOT out_SINGLE MATCHES "${re}")
      message(FATAL_ERROR "the library has ${isa} kernels, md2_single.h's implementation none")
    endif()
    list(APPEND found ${isa})
  endif()
endforeach()
if(NOT MD2_SIMD)
  set(found "none (MD2_SIMD=OFF)")
endif()
message("SIMD kernels in both: ${found}")
