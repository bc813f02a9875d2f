# Toolchain: 64-bit ARM (little-endian aarch64, the host of the NEON pose kernels), Debian's
# gcc-aarch64-linux-gnu, run under qemu-user (CTest runs every test through
# CMAKE_CROSSCOMPILING_EMULATOR); cmocka from libcmocka0:arm64. See tests/cross/cross.sh.
# SPDX-License-Identifier: MIT
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /)
set(MD2_CMOCKA_LIBRARY /usr/lib/aarch64-linux-gnu/libcmocka.so.0 CACHE FILEPATH "cmocka for aarch64")
set(MD2_CMOCKA_INCLUDE_DIR /usr/include CACHE PATH "cmocka.h (architecture-independent)")
