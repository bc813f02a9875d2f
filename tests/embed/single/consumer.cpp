// tests/embed/single/consumer.c compiled as C++: the declarations of
// single_include/md2_single.h link from C++ to the implementation compiled as C.
// cmocka 1.1's header declares its functions without extern "C".
//
// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

#include "consumer.c"
