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
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", #cond,        \
                    __FILE__, __LINE__);                                     \
            abort();                                                         \
        }                                                                    \
    } while (0)

/* What a round trip may warn of, from the library's own flags, not a list
 * of them: bytes that md2_write() wrote from a model whose load raised
 * src_warnings must parse again with every flag of MD2_STRICT_ALL strict
 * but those: a quirk the writer keeps byte for byte (a name without its
 * NUL, a normal index of 162) came from the source, the quirks it repairs
 * are errors, and an advice (MD2_WARN_SAME_NORMALS, any added later),
 * which strict mode never refuses, passes whenever the model has it. And
 * the writer repairs at once: the model parsed, written again, is the same
 * bytes. Returns that model (md2_free() it). */
static inline md2_model *fuzz_reparse(const unsigned char *bytes, size_t size, uint32_t src_warnings)
{
    md2_options o;
    md2_model *again = NULL;
    size_t n;
    unsigned char *twice;
    memset(&o, 0, sizeof o);
    o.strict = MD2_STRICT_ALL & ~src_warnings;
    CHECK(md2_parse(bytes, size, &o, &again) == MD2_OK);
    n = md2_write_size(again);
    CHECK(n == size && (twice = (unsigned char *)malloc(n)) != NULL);
    CHECK(md2_write(again, twice, n, NULL, NULL) == MD2_OK && memcmp(twice, bytes, n) == 0);
    free(twice);
    return again;
}

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
