/*
 * export_failalloc: a preloaded library (LD_PRELOAD, glibc) that makes one
 * allocation of a program fail, for the md2 export test of allocation
 * failures (the each-alloc-fails cases of export.cases). Built with the tests on
 * Linux only; not part of the md2 command.
 *
 *   MD2_FAIL_ALLOC_AT=N   the N-th call (from 1) of malloc, calloc or
 *                         realloc returns NULL (every later one works);
 *   MD2_FAIL_ALLOC_AT=0   none fails; the number of calls made is written
 *                         to stderr at exit as "allocations: COUNT".
 * Without the variable everything passes through to glibc.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* glibc's own allocator, under the names it exports for this purpose */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);

static long fail_at = -2; /* -2: not read yet; -1: off */
static long calls;

static int should_fail(void)
{
    if (fail_at == -2) {
        const char *v = getenv("MD2_FAIL_ALLOC_AT");
        fail_at = v ? strtol(v, NULL, 10) : -1;
    }
    if (fail_at < 0 || ++calls != fail_at)
        return 0;
    errno = ENOMEM; /* as glibc's allocator sets it */
    return 1;
}

void *malloc(size_t size)
{
    return should_fail() ? NULL : __libc_malloc(size);
}

void *calloc(size_t count, size_t size)
{
    return should_fail() ? NULL : __libc_calloc(count, size);
}

void *realloc(void *ptr, size_t size)
{
    return should_fail() ? NULL : __libc_realloc(ptr, size);
}

__attribute__((destructor)) static void report(void)
{
    if (fail_at == 0)
        fprintf(stderr, "allocations: %ld\n", calls);
}
