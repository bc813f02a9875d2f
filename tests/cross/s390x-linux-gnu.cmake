# Toolchain: big-endian 64-bit s390x, Debian's gcc-s390x-linux-gnu, run under qemu-user (CTest runs every
# test through CMAKE_CROSSCOMPILING_EMULATOR); cmocka from libcmocka0:s390x. See tests/cross/cross.sh.
# SPDX-License-Identifier: MIT
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(CMAKE_C_COMPILER s390x-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER s390x-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-s390x -L /)
set(MD2_CMOCKA_LIBRARY /usr/lib/s390x-linux-gnu/libcmocka.so.0 CACHE FILEPATH "cmocka for s390x")
set(MD2_CMOCKA_INCLUDE_DIR /usr/include CACHE PATH "cmocka.h (architecture-independent)")
