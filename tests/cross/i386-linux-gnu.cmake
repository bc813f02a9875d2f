# Toolchain: 32-bit x86 with SSE2 arithmetic, so that floats are rounded as on every other host instead of
# in x87 extended precision (i386-x87-*.cmake are those); clang -m32, as gcc-multilib cannot be installed
# beside the s390x cross compiler on Debian; cmocka from libcmocka0:i386. See tests/cross/cross.sh.
# SPDX-License-Identifier: MIT
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER clang)
set(CMAKE_CXX_COMPILER clang++)
set(CMAKE_C_COMPILER_TARGET i686-linux-gnu)
set(CMAKE_CXX_COMPILER_TARGET i686-linux-gnu)
set(CMAKE_C_FLAGS_INIT "-m32 -msse2 -mfpmath=sse")
set(CMAKE_CXX_FLAGS_INIT "-m32 -msse2 -mfpmath=sse")
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
set(MD2_CMOCKA_LIBRARY /usr/lib/i386-linux-gnu/libcmocka.so.0 CACHE FILEPATH "cmocka for i386")
set(MD2_CMOCKA_INCLUDE_DIR /usr/include CACHE PATH "cmocka.h (architecture-independent)")
