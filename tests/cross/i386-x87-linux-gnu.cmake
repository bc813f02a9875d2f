# Toolchain: 32-bit x86 with x87 floating point, as a plain `gcc -m32` builds (float expressions in the
# x87's 80-bit registers, FLT_EVAL_METHOD 2; GCC rounds them to float where C requires it). No gcc-multilib
# (Debian does not let it coexist with the s390x cross compiler): lib32gcc-12-dev, lib32stdc++-12-dev and
# libc6-dev-i386 are enough; cmocka from libcmocka0:i386. See tests/cross/cross.sh.
# SPDX-License-Identifier: MIT
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER gcc)
set(CMAKE_CXX_COMPILER g++)
set(CMAKE_C_FLAGS_INIT "-m32 -march=i686 -mfpmath=387")
set(CMAKE_CXX_FLAGS_INIT "-m32 -march=i686 -mfpmath=387")
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
set(MD2_CMOCKA_LIBRARY /usr/lib/i386-linux-gnu/libcmocka.so.0 CACHE FILEPATH "cmocka for i386")
set(MD2_CMOCKA_INCLUDE_DIR /usr/include CACHE PATH "cmocka.h (architecture-independent)")
