// tests/single/impl.c compiled as C++11: include/md2_single.h's
// implementation compiles as C++ too, with the same results (single_digest_cpp).
//
// SPDX-License-Identifier: MIT
#include "impl.c"
