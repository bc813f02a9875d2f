/*
 * The implementation of single_include/md2_single.h, in the one file of a program
 * that defines MD2_IMPLEMENTATION before including it.
 *
 * SPDX-License-Identifier: MIT
 */
#define MD2_IMPLEMENTATION
#include "md2_single.h"
#include "md2_single.h" /* a second include adds nothing */
