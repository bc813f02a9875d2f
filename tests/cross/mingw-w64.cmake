# Toolchain: 64-bit Windows (x86-64), Debian's mingw-w64 (gcc-mingw-w64-x86-64, the POSIX thread
# model, for the tests' <pthread.h>), run under Wine (wine64): CTest runs every .exe through
# CMAKE_CROSSCOMPILING_EMULATOR, with a WINEPREFIX of its own in the build folder and the build
# folder on WINEPATH (a shared build's libmd2.dll). The programs link the compiler's runtime
# statically, needing no DLL from the toolchain. cmocka for Windows is built from Debian's source
# package by tests/windows/windows.sh, which sets MD2_CMOCKA_LIBRARY and MD2_CMOCKA_INCLUDE_DIR.
# SPDX-License-Identifier: MIT
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc")
find_program(MD2_WINE NAMES wine64 wine PATHS /usr/lib/wine NO_CMAKE_FIND_ROOT_PATH)
if(MD2_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR env "WINEPREFIX=${CMAKE_BINARY_DIR}/wineprefix"
      "WINEPATH=${CMAKE_BINARY_DIR}" WINEDEBUG=-all "WINEDLLOVERRIDES=mscoree,mshtml=" "${MD2_WINE}")
endif()
