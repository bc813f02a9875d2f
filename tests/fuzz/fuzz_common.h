/*
 * What the libFuzzer targets share: a check that aborts (so libFuzzer
 * reports a crash), and an allocator that counts a load's bytes to hold
 * the memory ceilings.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_FUZZ_COMMON_H
#define MD2_FUZZ_COMMON_H

#include <md2/md2.h>

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", #cond,        \
                    __FILE__, __LINE__);                                     \
            abort();                                                         \
        }                                                                    \
    } while (0)

/* Counts allocations and bytes. */
typedef struct counter {
    size_t live_bytes, peak_bytes, calls;
} counter;

static inline void *count_alloc(void *user, size_t size)
{
    counter *c = (counter *)user;
    size_t *p = (size_t *)malloc(size + 16);
    c->calls++;
    if (!p)
        return NULL;
    p[0] = size;
    c->live_bytes += size;
    if (c->live_bytes > c->peak_bytes)
        c->peak_bytes = c->live_bytes;
    return (unsigned char *)p + 16;
}

static inline void count_free(void *user, void *ptr)
{
    counter *c = (counter *)user;
    size_t *p;
    if (!ptr)
        return;
    p = (size_t *)(void *)((unsigned char *)ptr - 16);
    c->live_bytes -= p[0];
    free(p);
}

/* Points a's allocator at a fresh counter c. */
static inline void count_allocations(md2_allocator *a, counter *c)
{
    c->live_bytes = c->peak_bytes = c->calls = 0;
    a->alloc = count_alloc;
    a->free = count_free;
    a->user = c;
}

#endif /* MD2_FUZZ_COMMON_H */
