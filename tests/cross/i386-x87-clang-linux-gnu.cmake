# Toolchain: 32-bit x86 with x87 floating point by clang -m32 -mno-sse (Debian's clang -m32
# default): float expressions in 80-bit registers (FLT_EVAL_METHOD 2), rounded, unlike GCC,
# only where stored to memory, not where C requires (assigning a float variable): the
# harshest host for bit-identical results. The i386 ABI passes floats on the stack and returns
# them in st(0): calls need no SSE. cmocka from libcmocka0:i386. See tests/cross/cross.sh.
# SPDX-License-Identifier: MIT
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER clang)
set(CMAKE_CXX_COMPILER clang++)
set(CMAKE_C_COMPILER_TARGET i686-linux-gnu)
set(CMAKE_CXX_COMPILER_TARGET i686-linux-gnu)
set(CMAKE_C_FLAGS_INIT "-m32 -mno-sse -mfpmath=387")
set(CMAKE_CXX_FLAGS_INIT "-m32 -mno-sse -mfpmath=387")
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
set(MD2_CMOCKA_LIBRARY /usr/lib/i386-linux-gnu/libcmocka.so.0 CACHE FILEPATH "cmocka for i386")
set(MD2_CMOCKA_INCLUDE_DIR /usr/include CACHE PATH "cmocka.h (architecture-independent)")
