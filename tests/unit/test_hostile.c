/*
 * Hostile input: every header field lied about in turn, sections smashed,
 * the GL command stream broken, bytes flipped and random mutations of real
 * and synthetic models. Each mutant must give its specific error or the
 * documented lenient result, never crash, and never make a load allocate
 * more than a small constant times the input size. Every model that loads
 * is walked through every public read path.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define BIT(r) (1u << (r))

/* Loads data through md2_load_stream() with opts (a copy gets a counting
 * allocator) from a reader that hands out `chunk` bytes a call, and checks
 * that the result is md2_parse()'s result `want` for the same bytes and
 * options, that the read stayed bounded, and that nothing leaks. */
static void check_stream(const uint8_t *data, size_t size, const md2_options *opts,
                         md2_result want, size_t chunk)
{
    md2_options o = *opts;
    md2_diagnostic d;
    tu_alloc a;
    tu_memstream s;
    md2_model *m = NULL;
    md2_result r;

    o.error = &d;
    tu_alloc_init(&a, &o.allocator);
    tu_memstream_init(&s, data, size, chunk);
    r = md2_load_stream(tu_mem_read, &s, &o, &m);
    if (r != want) {
        fprintf(stderr, "stream (limit %lu, chunk %lu): %s (%s), md2_parse: %s\n",
                (unsigned long)o.limits.max_file_size, (unsigned long)chunk,
                md2_result_string(r), d.message, md2_result_string(want));
        fail();
    }
    /* the header, then no more than the limit and one byte */
    if (o.limits.max_file_size != 0)
        assert_true(s.pos <= MD2_HEADER_SIZE || s.pos <= o.limits.max_file_size + 1);
    /* the documented stream peak: 3.5 times the bytes read plus 64 KiB */
    assert_true(a.peak_bytes <= s.pos * 7 / 2 + 65536);
    if (r == MD2_OK) {
        assert_non_null(m);
        md2_free(m);
    } else {
        assert_null(m);
        assert_true(d.message[0] != '\0');
    }
    assert_int_equal(a.live, 0);
}

/* md2_load_stream() gives md2_parse()'s result for the same bytes, without
 * a limit, with the data's size as the limit and with a smaller one (which
 * md2_parse() must then refuse too), from readers of different chunks. */
static void check_streams(const uint8_t *data, size_t size, const md2_options *opts,
                          md2_result parsed)
{
    md2_options lim = *opts;
    md2_model *m = NULL;

    /* short reads: a few bytes at a time for small inputs, a few KiB for
     * the real models (byte-sized reads of 300 KB crawl under valgrind) */
    check_stream(data, size, opts, parsed, size <= 4096 ? size % 7 + 1 : 4096 + size % 7);
    lim.limits.max_file_size = size;
    check_stream(data, size, &lim, parsed, 0);
    if (size > 1) {
        md2_result r;
        lim.limits.max_file_size = size / 2 + 1;
        lim.error = NULL;
        r = md2_parse(data, size, &lim, &m);
        md2_free(m);
        check_stream(data, size, &lim, r, 0);
    }
}

/* Parses data leniently and strictly; checks the result is in `allowed`
 * (a bit set of md2_result codes), that the allocation stays under the
 * ceiling, that nothing leaks, and walks any model that loads. Returns
 * the lenient result. */
static md2_result check_mutant(const uint8_t *data, size_t size, uint32_t allowed)
{
    md2_options o;
    md2_diagnostic d;
    tu_alloc a;
    md2_model *m = NULL;
    md2_result rs = MD2_OK;
    int pass;

    for (pass = 0; pass < 2; pass++) {
        md2_result r;
        memset(&o, 0, sizeof o);
        o.error = &d;
        o.strict = pass ? MD2_STRICT_ALL : 0;
        tu_alloc_init(&a, &o.allocator);
        r = md2_parse(data, size, &o, &m);
        if (pass == 0)
            rs = r;
        if (!(allowed & BIT(r)) && !(pass == 1 && r >= MD2_ERR_BAD_OFS_END &&
                                     r <= MD2_ERR_GLCMDS_UNTERMINATED) &&
            !(pass == 1 && (r == MD2_ERR_BAD_FRAMESIZE || r == MD2_ERR_BAD_SKIN_SIZE ||
                            r == MD2_ERR_BAD_FRAME_TRANSFORM))) {
            fprintf(stderr, "unexpected %s: %s\n", md2_result_string(r), d.message);
            fail();
        }
        /* memory ceiling: one model, at most 2x the input plus a constant */
        assert_true(a.peak_bytes <= 2 * size + 4096);
        if (r == MD2_OK) {
            assert_non_null(m);
            /* the documented bound: the data plus 16 bytes a frame, 1 a
             * skin and 512 more (md2_parse() in md2.h) */
            assert_true(md2_model_memory(m) <=
                        size + 16 * m->num_frames + m->num_skins + 512);
            if (pass == 1)
                assert_int_equal(m->warnings, 0);
            tu_walk_model(m);
            md2_free(m);
        } else {
            /* a refused file is refused before any allocation */
            assert_int_equal(a.calls, 0);
            assert_null(m);
            assert_true(d.message[0] != '\0');
        }
        assert_int_equal(a.live, 0);
        check_streams(data, size, &o, r);
    }
    return rs;
}

static const int32_t lies[] = {0, -1, 1, 2, 3, 4, 67, 68, 69, 255, 256, 0x7FFF, 0xFFFF,
                               65536, 65537, 4096, 4097, 100000, INT_MAX, INT_MAX - 3,
                               INT_MIN, INT_MIN + 1};

/* Results each header field may produce when it lies. */
static uint32_t allowed_for(int field)
{
    const uint32_t ok = BIT(MD2_OK);
    const uint32_t oob = BIT(MD2_ERR_SECTION_OUT_OF_BOUNDS) | BIT(MD2_ERR_SECTION_OVERLAP);
    const uint32_t count = BIT(MD2_ERR_BAD_COUNT) | BIT(MD2_ERR_LIMIT_EXCEEDED) | oob | ok;
    switch (field) {
    case TU_IDENT: return BIT(MD2_ERR_BAD_MAGIC);
    case TU_VERSION: return BIT(MD2_ERR_BAD_VERSION);
    case TU_SKINWIDTH:
    case TU_SKINHEIGHT: return ok | BIT(MD2_ERR_BAD_SKIN_SIZE);
    case TU_FRAMESIZE: return ok | oob | BIT(MD2_ERR_BAD_FRAMESIZE);
    case TU_NUM_XYZ: return count | BIT(MD2_ERR_NO_VERTICES) | BIT(MD2_ERR_BAD_FRAMESIZE);
    case TU_NUM_FRAMES: return count | BIT(MD2_ERR_NO_FRAMES);
    case TU_NUM_SKINS:
    case TU_NUM_ST:
    case TU_NUM_TRIS:
    case TU_NUM_GLCMDS: return count;
    case TU_OFS_END: return ok;
    default: return ok | oob; /* offsets */
    }
}

static void lie_in_every_field(const uint8_t *orig, size_t size)
{
    uint8_t *f = (uint8_t *)malloc(size);
    int field;
    size_t v;
    assert_non_null(f);
    for (field = 0; field < 17; field++) {
        int32_t extra[4];
        extra[0] = (int32_t)size;
        extra[1] = (int32_t)size + 1;
        extra[2] = tu_hdr(orig, field) + 1;
        extra[3] = tu_hdr(orig, field) - 1;
        for (v = 0; v < sizeof lies / sizeof lies[0] + 4; v++) {
            int32_t value = v < sizeof lies / sizeof lies[0] ? lies[v]
                                                             : extra[v - sizeof lies / sizeof lies[0]];
            if (value == tu_hdr(orig, field))
                continue;
            memcpy(f, orig, size);
            tu_set_hdr(f, field, value);
            check_mutant(f, size, allowed_for(field));
        }
    }
    /* offsets pointing at each other section's start (overlaps) */
    for (field = TU_OFS_SKINS; field <= TU_OFS_GLCMDS; field++) {
        int other;
        for (other = TU_OFS_SKINS; other <= TU_OFS_END; other++) {
            if (other == field)
                continue;
            memcpy(f, orig, size);
            tu_set_hdr(f, field, tu_hdr(orig, other));
            check_mutant(f, size, allowed_for(field));
        }
    }
    free(f);
}

static void test_lie_in_every_header_field_tiny(void **state)
{
    uint8_t file[TU_MAX_FILE];
    size_t size = tu_tiny(file);
    (void)state;
    lie_in_every_field(file, size);
}

static void test_lie_in_every_header_field_corpus(void **state)
{
    uint8_t *data;
    size_t size;
    (void)state;
    data = tu_read_corpus("sydney.md2", &size);
    if (!data) {
        skip();
        return;
    }
    lie_in_every_field(data, size);
    free(data);
}

static void test_zero_vertex_frames_never_read(void **state)
{
    /* the classic overflow: num_xyz = 0 with frames present */
    uint8_t file[TU_MAX_FILE];
    size_t size = tu_tiny(file);
    (void)state;
    tu_set_hdr(file, TU_NUM_XYZ, 0);
    tu_set_hdr(file, TU_FRAMESIZE, 40);
    assert_int_equal(check_mutant(file, size, BIT(MD2_ERR_NO_VERTICES)), MD2_ERR_NO_VERTICES);
}

static void smash(uint8_t *f, size_t size, int ofs_field, size_t len, uint8_t value)
{
    size_t at = (size_t)tu_hdr(f, ofs_field);
    if (at + len > size)
        len = size - at;
    memset(f + at, value, len);
}

static void test_smash_sections(void **state)
{
    static const int ofs[5] = {TU_OFS_SKINS, TU_OFS_ST, TU_OFS_TRIS, TU_OFS_FRAMES, TU_OFS_GLCMDS};
    static const uint8_t values[3] = {0x00, 0xFF, 0x80};
    uint8_t orig[TU_MAX_FILE], file[TU_MAX_FILE];
    size_t size = tu_tiny(orig);
    int s, v;
    (void)state;
    for (s = 0; s < 5; s++)
        for (v = 0; v < 3; v++) {
            md2_result r;
            memcpy(file, orig, size);
            smash(file, size, ofs[s], size, values[v]); /* to the end of the file */
            r = check_mutant(file, size, BIT(MD2_OK));
            assert_int_equal(r, MD2_OK);
        }
}

static void test_break_the_gl_stream(void **state)
{
    static const int32_t values[] = {0, -1, 1, 2, 3, 4, -4, 6, 7, -7, 100, -100,
                                     INT_MAX, INT_MIN, INT_MIN + 1, 0x40000000};
    tu_spec s, base;
    uint8_t file[TU_MAX_FILE];
    int k;
    size_t v;
    (void)state;
    tu_spec_default(&base);
    for (k = 0; k < base.num_gl; k++)
        for (v = 0; v < sizeof values / sizeof values[0]; v++) {
            md2_options o;
            md2_model *m = NULL;
            size_t size;
            s = base;
            s.gl[k] = values[v];
            size = tu_build(&s, file);
            assert_int_equal(check_mutant(file, size, BIT(MD2_OK)), MD2_OK);
            memset(&o, 0, sizeof o);
            assert_int_equal(md2_parse(file, size, &o, &m), MD2_OK);
            assert_true((m->warnings & ~(uint32_t)(MD2_WARN_GLCMDS_INVALID |
                                                   MD2_WARN_GLCMDS_UNTERMINATED |
                                                   MD2_WARN_GLCMDS_TRAILING)) == 0);
            md2_free(m);
        }
    /* the list cut short, word by word */
    for (k = 0; k <= base.num_gl; k++) {
        size_t size;
        s = base;
        s.num_gl = k;
        size = tu_build(&s, file);
        assert_int_equal(check_mutant(file, size, BIT(MD2_OK)), MD2_OK);
    }
}

static void test_flip_every_bit_of_tiny(void **state)
{
    uint8_t orig[TU_MAX_FILE], file[TU_MAX_FILE];
    size_t size = tu_tiny(orig), i;
    int bit;
    const uint32_t any = 0xFFFFFFFFu;
    (void)state;
    for (i = 0; i < size; i++)
        for (bit = 0; bit < 8; bit++) {
            memcpy(file, orig, size);
            file[i] ^= (uint8_t)(1u << bit);
            check_mutant(file, size, any);
        }
}

/* A small deterministic generator (no global state). */
static uint32_t next_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void random_mutants(const uint8_t *orig, size_t size, int count, uint32_t seed)
{
    uint8_t *f = (uint8_t *)malloc(size);
    int n, k;
    assert_non_null(f);
    for (n = 0; n < count; n++) {
        int edits = 1 + (int)(next_rand(&seed) % 8);
        memcpy(f, orig, size);
        for (k = 0; k < edits; k++) {
            size_t at = next_rand(&seed) % size;
            /* bias towards the header, where lies do the most damage */
            if (next_rand(&seed) % 2)
                at %= 68;
            f[at] = (uint8_t)next_rand(&seed);
        }
        check_mutant(f, size, 0xFFFFFFFFu);
    }
    free(f);
}

static void test_random_mutants(void **state)
{
    uint8_t file[TU_MAX_FILE];
    size_t size = tu_tiny(file);
    uint8_t *data;
    (void)state;
    random_mutants(file, size, 5000, 1u);
    data = tu_read_corpus("faerie.md2", &size);
    if (!data) {
        skip();
        return;
    }
    random_mutants(data, size, 150, 2u);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lie_in_every_header_field_tiny),
        cmocka_unit_test(test_lie_in_every_header_field_corpus),
        cmocka_unit_test(test_zero_vertex_frames_never_read),
        cmocka_unit_test(test_smash_sections),
        cmocka_unit_test(test_break_the_gl_stream),
        cmocka_unit_test(test_flip_every_bit_of_tiny),
        cmocka_unit_test(test_random_mutants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
