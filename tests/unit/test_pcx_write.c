/*
 * PCX writing (<md2/skin.h>): md2_pcx_encode() and md2_pcx_encode_size().
 *
 * Every file written is read back twice: by a strict reader of our own
 * (parse_written below, independent of the library), which checks each
 * promise of the format the header makes (the header's fields, runs of 1
 * to 63 that end with their scanline, bytes of 0xC0 or more always in a
 * run, runs as long as they can be, the pad byte, the palette at the end),
 * and by md2_pcx_decode(), which must give the image back bit for bit.
 * Images: generated ones of many sizes (width 1, odd widths, 1 x N, N x 1,
 * the largest), palettes of 1 to 256 random colours, runs of every length
 * from 1 to 200 and across scanlines, palette indices of 0xC0 and more;
 * the indexed forms (indices and a palette; rgba and a palette with
 * repeated colours); the example skins and the ImageMagick fixtures,
 * decoded and written again. Errors: every argument, 257 colours, alpha,
 * colours outside a palette, small buffers (left untouched), reserved_.
 *
 *   test_pcx_write                      every test
 *   test_pcx_write --write-encoded DIR  writes files md2_pcx_encode() made
 *                                       (NAME.pcx), the pixels they hold
 *                                       (NAME.rgba) and DIR/MANIFEST, for
 *                                       tests/scripts/pcx_imagemagick.cmake
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <md2/skin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#ifndef MD2_PCX_DATA_DIR
#define MD2_PCX_DATA_DIR "data/pcx"
#endif
#ifndef MD2_EXAMPLES_DIR
#define MD2_EXAMPLES_DIR "examples"
#endif

#define HEADER 128u
#define TAIL 769u

/* ------------------------------------------------------------------------ */
/* Images                                                                    */
/* ------------------------------------------------------------------------ */

static uint32_t next_random(uint32_t *s)
{
    /* xorshift32 */
    uint32_t x = *s ? *s : 0x9E3779B9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

/* Colour number c (0 to 2^24 - 1) of a family of distinct colours: an odd
 * multiplier is a bijection of 24-bit numbers. */
static uint32_t distinct_colour(uint32_t c, uint32_t seed)
{
    return (c * 0x5BD1E9u + seed) & 0xFFFFFFu;
}

static void set_pixel(uint8_t *rgba, size_t i, uint32_t rgb)
{
    rgba[4 * i] = (uint8_t)(rgb >> 16);
    rgba[4 * i + 1] = (uint8_t)(rgb >> 8);
    rgba[4 * i + 2] = (uint8_t)rgb;
    rgba[4 * i + 3] = 255;
}

static uint32_t get_pixel(const uint8_t *rgba, size_t i)
{
    return (uint32_t)rgba[4 * i] << 16 | (uint32_t)rgba[4 * i + 1] << 8 | rgba[4 * i + 2];
}

static uint8_t *alloc_rgba(unsigned w, unsigned h)
{
    uint8_t *p = (uint8_t *)malloc((size_t)w * h * 4);
    assert_non_null(p);
    return p;
}

/* The number of distinct colours of n pixels, and the first pixel of the
 * 257th (n if there is none), by brute force. */
static unsigned count_colours(const uint8_t *rgba, size_t n, size_t *first_257th)
{
    uint32_t seen[257];
    unsigned count = 0, k;
    size_t i;
    *first_257th = n;
    for (i = 0; i < n; i++) {
        uint32_t c = get_pixel(rgba, i);
        for (k = 0; k < count && seen[k] != c; k++)
            ;
        if (k < count)
            continue;
        if (count == 256) {
            *first_257th = i;
            return 257;
        }
        seen[count++] = c;
    }
    return count;
}

/* ------------------------------------------------------------------------ */
/* A strict reader of what md2_pcx_encode() promises to write               */
/* ------------------------------------------------------------------------ */

static unsigned get16(const uint8_t *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* Checks the file f (size bytes) of a w x h image byte by byte against the
 * documented layout, and returns its palette indices (w * h) and its
 * palette (768 bytes). */
static void parse_written(const uint8_t *f, size_t size, unsigned w, unsigned h,
                          uint8_t *indices, uint8_t *palette, const char *what)
{
    unsigned bpl = w + (w & 1u), y;
    size_t at = HEADER, i, max_run = 0;

    if (size < HEADER + TAIL)
        fail_msg("%s: %lu bytes", what, (unsigned long)size);
    assert_int_equal(f[0], 0x0A);
    assert_int_equal(f[1], 5);
    assert_int_equal(f[2], 1);
    assert_int_equal(f[3], 8);
    assert_int_equal(get16(f + 4), 0);
    assert_int_equal(get16(f + 6), 0);
    assert_int_equal(get16(f + 8), w - 1);
    assert_int_equal(get16(f + 10), h - 1);
    assert_int_equal(get16(f + 12), 72);
    assert_int_equal(get16(f + 14), 72);
    assert_int_equal(f[64], 0);
    assert_int_equal(f[65], 1);
    assert_int_equal(get16(f + 66), bpl);
    assert_int_equal(bpl % 2, 0);
    assert_int_equal(get16(f + 68), 1);
    for (i = 70; i < HEADER; i++)
        assert_int_equal(f[i], 0);
    for (y = 0; y < h; y++) {
        unsigned x = 0;
        int prev_value = -1;
        size_t prev_count = 0;
        while (x < bpl) {
            unsigned count = 1, v;
            if (at >= size - TAIL)
                fail_msg("%s: the pixels end in scanline %u", what, y);
            v = f[at];
            if (v >= 0xC0) {
                count = v & 0x3Fu;
                v = f[at + 1];
                at += 2;
                if (count == 0)
                    fail_msg("%s: an empty run at byte %lu", what, (unsigned long)(at - 2));
                if (count == 1 && v < 0xC0)
                    fail_msg("%s: a run of one 0x%02X (< 0xC0) at byte %lu", what, v,
                             (unsigned long)(at - 2));
                if (count > max_run)
                    max_run = count;
            } else {
                at++;
            }
            if (x + count > bpl)
                fail_msg("%s: a run of %u at x %u crosses the end of scanline %u (%u bytes)",
                         what, count, x, y, bpl);
            /* the longest runs possible: a run ends at the line's end, at
             * 63, or where the byte changes */
            if ((int)v == prev_value && prev_count != 63)
                fail_msg("%s: scanline %u, x %u: two runs of 0x%02X, the first of %lu", what, y,
                         x, v, (unsigned long)prev_count);
            prev_value = (int)v;
            prev_count = count;
            for (; count > 0; count--, x++) {
                if (x < w)
                    indices[(size_t)y * w + x] = (uint8_t)v;
                else if (v != 0)
                    fail_msg("%s: the pad byte of scanline %u is 0x%02X, not 0", what, y, v);
            }
        }
    }
    if (at != size - TAIL)
        fail_msg("%s: the pixels end at byte %lu, the palette starts at %lu", what,
                 (unsigned long)at, (unsigned long)(size - TAIL));
    assert_int_equal(f[at], 0x0C);
    memcpy(palette, f + at + 1, 768);
    /* the 16-colour palette of the header: the first 16 entries */
    assert_memory_equal(f + 16, palette, 48);
    assert_true(max_run <= 63);
}

/* ------------------------------------------------------------------------ */
/* Writing and reading back                                                  */
/* ------------------------------------------------------------------------ */

/* Encodes in into a new buffer of exactly its size (so that ASan sees any
 * write past it), after checking that a buffer one byte short is refused
 * and left untouched. Returns the file and its size. */
static uint8_t *encode(const md2_pcx_input *in, size_t *size, const char *what)
{
    md2_diagnostic d;
    size_t n = md2_pcx_encode_size(in), written = 1, i;
    uint8_t *f;
    md2_result r;

    if (n == 0) {
        uint8_t byte;
        md2_pcx_encode(in, &byte, 0, NULL, &d);
        fail_msg("%s: md2_pcx_encode_size() is 0: %s", what, d.message);
    }
    f = (uint8_t *)malloc(n);
    assert_non_null(f);
    /* one byte short: refused, nothing written */
    memset(f, 0xA5, n);
    r = md2_pcx_encode(in, f, n - 1, &written, &d);
    assert_int_equal(r, MD2_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(d.result, r);
    assert_string_equal(d.field, "capacity");
    assert_int_equal(written, 0);
    for (i = 0; i < n; i++)
        assert_int_equal(f[i], 0xA5);
    r = md2_pcx_encode(in, f, n, &written, &d);
    if (r != MD2_OK)
        fail_msg("%s: %s: %s", what, md2_result_string(r), d.message);
    assert_int_equal(d.result, MD2_OK);
    assert_string_equal(d.message, "");
    assert_int_equal(written, n);
    /* worst case of the header's documentation */
    assert_true(n <= 897 + 2 * (size_t)in->height * (in->width + (in->width & 1u)));
    *size = n;
    return f;
}

/* md2_pcx_decode() of f must be w x h pixels equal to want (RGBA). */
static void expect_decodes_to(const uint8_t *f, size_t size, unsigned w, unsigned h,
                              const uint8_t *want, const char *what)
{
    md2_image *img = NULL;
    md2_diagnostic d;
    md2_options o;
    md2_result r;
    memset(&o, 0, sizeof o);
    o.error = &d;
    r = md2_pcx_decode(f, size, &o, &img);
    if (r != MD2_OK)
        fail_msg("%s: md2_pcx_decode: %s: %s", what, md2_result_string(r), d.message);
    assert_int_equal(img->width, w);
    assert_int_equal(img->height, h);
    if (memcmp(img->rgba, want, (size_t)w * h * 4) != 0) {
        size_t i;
        for (i = 0; i < (size_t)w * h * 4 && img->rgba[i] == want[i]; i++)
            ;
        fail_msg("%s: decoded pixel %lu (x %lu, y %lu) channel %lu is %u, want %u", what,
                 (unsigned long)(i / 4), (unsigned long)(i / 4 % w), (unsigned long)(i / 4 / w),
                 (unsigned long)(i % 4), (unsigned)img->rgba[i], (unsigned)want[i]);
    }
    md2_image_free(img);
}

/* The rgba form: written, checked, decoded back to rgba bit for bit; the
 * palette holds the colours in the order they first appear, then black.
 * Returns the file (free it) when size is not NULL. */
static uint8_t *roundtrip_rgba(unsigned w, unsigned h, const uint8_t *rgba, size_t *size_out,
                               const char *what)
{
    md2_pcx_input in;
    size_t size, i, n = (size_t)w * h;
    uint8_t *f, *indices = (uint8_t *)malloc(n), palette[768];
    unsigned next = 0;

    assert_non_null(indices);
    memset(&in, 0, sizeof in);
    in.width = w;
    in.height = h;
    in.rgba = rgba;
    f = encode(&in, &size, what);
    parse_written(f, size, w, h, indices, palette, what);
    for (i = 0; i < n; i++) {
        const uint8_t *rgb = palette + 3u * indices[i];
        if (indices[i] == next)
            next++; /* a new colour takes the next entry */
        else if (indices[i] > next)
            fail_msg("%s: pixel %lu has index %u before index %u was used", what,
                     (unsigned long)i, indices[i], next);
        assert_int_equal(rgb[0], rgba[4 * i]);
        assert_int_equal(rgb[1], rgba[4 * i + 1]);
        assert_int_equal(rgb[2], rgba[4 * i + 2]);
    }
    for (i = 3u * next; i < 768; i++)
        assert_int_equal(palette[i], 0);
    expect_decodes_to(f, size, w, h, rgba, what);
    free(indices);
    if (size_out) {
        *size_out = size;
        return f;
    }
    free(f);
    return NULL;
}

/* The indexed form: the file holds the indices and the palette as they
 * are, and decodes to the palette's colours. */
static void roundtrip_indexed(unsigned w, unsigned h, const uint8_t *indices,
                              const uint8_t *palette, const char *what)
{
    md2_pcx_input in;
    size_t size, i, n = (size_t)w * h;
    uint8_t *f, *got = (uint8_t *)malloc(n), got_palette[768];
    uint8_t *want = alloc_rgba(w, h);

    assert_non_null(got);
    memset(&in, 0, sizeof in);
    in.width = w;
    in.height = h;
    in.indices = indices;
    in.palette = palette;
    f = encode(&in, &size, what);
    parse_written(f, size, w, h, got, got_palette, what);
    assert_memory_equal(got, indices, n);
    assert_memory_equal(got_palette, palette, 768);
    for (i = 0; i < n; i++) {
        memcpy(want + 4 * i, palette + 3u * indices[i], 3);
        want[4 * i + 3] = 255;
    }
    expect_decodes_to(f, size, w, h, want, what);
    free(f);
    free(got);
    free(want);
}

static void random_palette(uint8_t *palette, uint32_t *seed)
{
    size_t i;
    for (i = 0; i < 768; i++)
        palette[i] = (uint8_t)(next_random(seed) >> 24);
}

/* ------------------------------------------------------------------------ */
/* Round trips                                                               */
/* ------------------------------------------------------------------------ */

/* Random images: sizes from 1 x 1 to 80 x 20 (odd and even widths), 1 to
 * 256 colours, runs of random length. */
static void test_random_images(void **state)
{
    static const unsigned colours[] = {1, 2, 3, 7, 16, 64, 100, 192, 193, 255, 256};
    uint32_t seed = 12345;
    unsigned iter;
    (void)state;
    for (iter = 0; iter < 400; iter++) {
        unsigned w = 1 + next_random(&seed) % 80, h = 1 + next_random(&seed) % 20;
        unsigned k = colours[iter % (sizeof colours / sizeof colours[0])];
        unsigned repeat = next_random(&seed) % 100; /* percent of pixels repeating */
        uint32_t family = next_random(&seed);
        uint8_t *rgba = alloc_rgba(w, h);
        size_t i, n = (size_t)w * h;
        char what[64];
        for (i = 0; i < n; i++) {
            if (i > 0 && next_random(&seed) % 100 < repeat)
                memcpy(rgba + 4 * i, rgba + 4 * (i - 1), 4);
            else
                set_pixel(rgba, i, distinct_colour(next_random(&seed) % k, family));
        }
        snprintf(what, sizeof what, "random image %u (%u x %u, %u colours)", iter, w, h, k);
        roundtrip_rgba(w, h, rgba, NULL, what);
        free(rgba);
    }
}

/* Runs of every length from 1 to 200 in one colour, within a line (the
 * rest of the line another colour), filling a line exactly, and across
 * the end of a line into the next. */
static void test_runs_of_every_length(void **state)
{
    unsigned len;
    (void)state;
    for (len = 1; len <= 200; len++) {
        char what[64];
        unsigned w = len + 2, x;
        uint8_t *rgba = alloc_rgba(w, 3);
        for (x = 0; x < w; x++) {
            /* row 0: len A, then B, A; row 1: all A; row 2: B, then A */
            set_pixel(rgba, x, x < len ? 0x102030u : x == len ? 0x405060u : 0x102030u);
            set_pixel(rgba, w + x, 0x102030u);
            set_pixel(rgba, 2 * (size_t)w + x, x == 0 ? 0x405060u : 0x102030u);
        }
        snprintf(what, sizeof what, "a run of %u", len);
        roundtrip_rgba(w, 3, rgba, NULL, what);
        free(rgba);
        /* one line exactly len pixels long, odd and even: the pad byte
         * after a run of the colour of index 0 */
        rgba = alloc_rgba(len, 2);
        for (x = 0; x < 2 * len; x++)
            set_pixel(rgba, x, 0xFFFFFFu);
        snprintf(what, sizeof what, "two lines of %u", len);
        roundtrip_rgba(len, 2, rgba, NULL, what);
        free(rgba);
    }
}

/* Palette indices of 0xC0 and more, alone and in runs, in the rgba form:
 * row 0 brings 256 colours in order, so that colour c is index c. */
static void test_indices_from_0xC0(void **state)
{
    const unsigned w = 256, h = 4;
    uint8_t *rgba = alloc_rgba(w, h);
    unsigned x;
    uint32_t seed = 99;
    (void)state;
    for (x = 0; x < w; x++) {
        set_pixel(rgba, x, distinct_colour(x, 7));
        /* row 1: high colours, each alone */
        set_pixel(rgba, w + x, distinct_colour(0xC0u + (x % 64u), 7));
        /* row 2: runs of 1 to 7 of high colours, 0xBF and 0xC0 */
        set_pixel(rgba, 2 * w + x, distinct_colour(x / 8 % 2 ? 0xBFu : 0xC0u + x / 16, 7));
        /* row 3: random indices of any value */
        set_pixel(rgba, 3 * w + x, distinct_colour(next_random(&seed) % 256u, 7));
    }
    roundtrip_rgba(w, h, rgba, NULL, "indices from 0xC0");
    free(rgba);
}

/* Shapes: width 1, odd widths, 1 x N, N x 1, and the largest. */
static void test_sizes(void **state)
{
    static const unsigned sizes[][2] = {
        {1, 1},   {1, 2},    {2, 1},   {1, 300}, {300, 1}, {3, 5},   {17, 9},  {63, 2},
        {64, 2},  {65, 3},   {126, 2}, {127, 1}, {128, 4}, {255, 3}, {257, 2}, {1001, 1},
        {2, 70},  {65533, 1}, {65534, 2}, {1, 65536}, {3, 65536}};
    uint32_t seed = 5;
    size_t s;
    (void)state;
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        unsigned w = sizes[s][0], h = sizes[s][1];
        uint8_t *rgba = alloc_rgba(w, h);
        size_t i, n = (size_t)w * h;
        char what[64];
        for (i = 0; i < n; i++)
            set_pixel(rgba, i, distinct_colour(i % 5 == 4 ? next_random(&seed) % 200u : 3u, 11));
        snprintf(what, sizeof what, "%u x %u", w, h);
        roundtrip_rgba(w, h, rgba, NULL, what);
        free(rgba);
    }
}

/* Exactly 256 colours pass; a 257th is refused at its first pixel. */
static void test_256_colours(void **state)
{
    md2_pcx_input in;
    md2_diagnostic d;
    uint8_t *rgba = alloc_rgba(16, 16), *f, buf[4096];
    size_t i, size;
    (void)state;
    for (i = 0; i < 256; i++)
        set_pixel(rgba, i, distinct_colour((uint32_t)i, 1234));
    f = roundtrip_rgba(16, 16, rgba, &size, "256 colours");
    free(f);
    free(rgba);

    /* 257 x 1, all distinct: pixel 256 brings the 257th */
    rgba = alloc_rgba(257, 1);
    for (i = 0; i < 257; i++)
        set_pixel(rgba, i, distinct_colour((uint32_t)i, 77));
    memset(&in, 0, sizeof in);
    in.width = 257;
    in.height = 1;
    in.rgba = rgba;
    assert_int_equal(md2_pcx_encode_size(&in), 0);
    assert_int_equal(md2_pcx_encode(&in, buf, sizeof buf, NULL, &d), MD2_ERR_LIMIT_EXCEEDED);
    assert_string_equal(d.field, "rgba");
    assert_int_equal(d.index, 256);
    assert_int_equal(d.offset, 4 * 256);
    assert_non_null(strstr(d.message, "more than 256 colours"));
    assert_non_null(strstr(d.message, "pixel 256 (x 256, y 0)"));
    assert_non_null(strstr(d.message, "257th"));
    free(rgba);

    /* 256 colours, repeated, then a 257th late in the image */
    rgba = alloc_rgba(64, 10);
    for (i = 0; i < 640; i++)
        set_pixel(rgba, i, distinct_colour((uint32_t)(i * 7 % 256), 5));
    set_pixel(rgba, 6 * 64 + 5, distinct_colour(300, 5));
    set_pixel(rgba, 8 * 64, distinct_colour(301, 5));
    {
        size_t first;
        assert_int_equal(count_colours(rgba, 640, &first), 257);
        assert_int_equal(first, 6 * 64 + 5);
    }
    in.width = 64;
    in.height = 10;
    in.rgba = rgba;
    assert_int_equal(md2_pcx_encode(&in, buf, sizeof buf, NULL, &d), MD2_ERR_LIMIT_EXCEEDED);
    assert_int_equal(d.index, 6 * 64 + 5);
    assert_non_null(strstr(d.message, "(x 5, y 6)"));
    /* without a diagnostic: the same answer */
    assert_int_equal(md2_pcx_encode(&in, buf, sizeof buf, NULL, NULL), MD2_ERR_LIMIT_EXCEEDED);
    free(rgba);
}

/* Indices and a palette: written as they are, every index value, runs of
 * each length of the values around 0xC0. */
static void test_indexed(void **state)
{
    static const uint8_t values[] = {0x00, 0x01, 0x3F, 0xBF, 0xC0, 0xC1, 0xFE, 0xFF};
    uint8_t palette[768];
    uint32_t seed = 777;
    unsigned iter;
    (void)state;
    random_palette(palette, &seed);
    /* every index, as one line and as a column */
    {
        uint8_t idx[256];
        unsigned i;
        for (i = 0; i < 256; i++)
            idx[i] = (uint8_t)i;
        roundtrip_indexed(256, 1, idx, palette, "indices 0 to 255 in a row");
        roundtrip_indexed(1, 256, idx, palette, "indices 0 to 255 in a column");
        roundtrip_indexed(15, 17, idx, palette, "indices 0 to 254, 15 x 17");
    }
    /* runs of 1 to 130 of each value, in lines of odd and even widths */
    for (iter = 0; iter < sizeof values; iter++) {
        unsigned len;
        for (len = 1; len <= 130; len++) {
            unsigned w = len + iter % 2, x;
            uint8_t *idx = (uint8_t *)malloc(2 * (size_t)w);
            char what[64];
            assert_non_null(idx);
            for (x = 0; x < 2 * w; x++)
                idx[x] = x % w < len ? values[iter] : (uint8_t)(values[iter] ^ 0x55u);
            snprintf(what, sizeof what, "indexed run of %u of 0x%02X", len, values[iter]);
            roundtrip_indexed(w, 2, idx, palette, what);
            free(idx);
        }
    }
    /* random indices with runs, random palettes (some colours repeated) */
    for (iter = 0; iter < 100; iter++) {
        unsigned w = 1 + next_random(&seed) % 70, h = 1 + next_random(&seed) % 12;
        uint8_t *idx = (uint8_t *)malloc((size_t)w * h);
        size_t i;
        char what[64];
        assert_non_null(idx);
        random_palette(palette, &seed);
        memcpy(palette + 3 * 200, palette + 3 * 10, 3 * 20);
        for (i = 0; i < (size_t)w * h; i++)
            idx[i] = i > 0 && next_random(&seed) % 3 == 0 ? idx[i - 1]
                                                          : (uint8_t)(next_random(&seed) >> 24);
        snprintf(what, sizeof what, "random indexed %u (%u x %u)", iter, w, h);
        roundtrip_indexed(w, h, idx, palette, what);
        free(idx);
    }
}

/* rgba with a palette: each colour becomes the first entry of that colour
 * (the palette repeats colours, as game palettes do), the palette is
 * written as it is, and a colour outside it is refused. */
static void test_rgba_with_a_palette(void **state)
{
    uint8_t palette[768], got_palette[768], *rgba, *f, *idx, buf[8192];
    unsigned w = 37, h = 11, k;
    size_t i, size, n = (size_t)w * h;
    uint32_t seed = 31337;
    md2_pcx_input in;
    md2_diagnostic d;
    (void)state;
    for (k = 0; k < 256; k++) {
        /* entry k: colour k % 100 (entries 100 to 255 repeat 0 to 99) */
        uint32_t c = distinct_colour(k % 100, 3);
        palette[3 * k] = (uint8_t)(c >> 16);
        palette[3 * k + 1] = (uint8_t)(c >> 8);
        palette[3 * k + 2] = (uint8_t)c;
    }
    rgba = alloc_rgba(w, h);
    idx = (uint8_t *)malloc(n);
    assert_non_null(idx);
    for (i = 0; i < n; i++) {
        unsigned e = i % 9 == 1 ? 255u : next_random(&seed) % 256u;
        memcpy(rgba + 4 * i, palette + 3 * e, 3);
        rgba[4 * i + 3] = 255;
    }
    memset(&in, 0, sizeof in);
    in.width = w;
    in.height = h;
    in.rgba = rgba;
    in.palette = palette;
    f = encode(&in, &size, "rgba with a palette");
    parse_written(f, size, w, h, idx, got_palette, "rgba with a palette");
    assert_memory_equal(got_palette, palette, 768);
    for (i = 0; i < n; i++) {
        /* the first entry of that colour */
        for (k = 0; k < 256 && memcmp(rgba + 4 * i, palette + 3 * k, 3) != 0; k++)
            ;
        assert_true(k < 100);
        assert_int_equal(idx[i], k);
    }
    expect_decodes_to(f, size, w, h, rgba, "rgba with a palette");
    free(f);

    /* a colour the palette does not have */
    set_pixel(rgba, 2 * w + 3, distinct_colour(100, 3));
    assert_int_equal(md2_pcx_encode_size(&in), 0);
    assert_int_equal(md2_pcx_encode(&in, buf, sizeof buf, NULL, &d), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "rgba");
    assert_int_equal(d.index, 2 * w + 3);
    assert_int_equal(d.offset, 4 * (2 * w + 3));
    assert_non_null(strstr(d.message, "not in the palette"));
    assert_non_null(strstr(d.message, "(x 3, y 2)"));
    free(rgba);
    free(idx);
}

/* decode(encode(x)) == x, and encoding it again gives the same bytes. */
static void test_deterministic(void **state)
{
    uint8_t *rgba = alloc_rgba(33, 7), *a, *b;
    size_t i, na, nb;
    md2_image *img;
    uint32_t seed = 2;
    (void)state;
    for (i = 0; i < 33 * 7; i++)
        set_pixel(rgba, i, distinct_colour(next_random(&seed) % 40u, 9));
    a = roundtrip_rgba(33, 7, rgba, &na, "first encoding");
    assert_int_equal(md2_pcx_decode(a, na, NULL, &img), MD2_OK);
    b = roundtrip_rgba(img->width, img->height, img->rgba, &nb, "second encoding");
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    md2_image_free(img);
    free(a);
    free(b);
    free(rgba);
}

/* ------------------------------------------------------------------------ */
/* Real skins                                                                */
/* ------------------------------------------------------------------------ */

/* A PCX file decoded, written again and decoded: the same pixels. An
 * 8-bit file's own palette also goes back in with rgba and keeps every
 * entry. Returns 0 if the file is missing, 2 if it has more than 256
 * colours (and was refused as it must be), else 1. */
static int reencode_file(const char *path)
{
    size_t size, n, first, out_size;
    uint8_t *file = tu_read_file(path, &size), *f;
    md2_image *img;
    md2_diagnostic d;
    md2_options o;
    unsigned colours;
    int result = 1;

    if (!file)
        return 0;
    memset(&o, 0, sizeof o);
    o.error = &d;
    if (md2_pcx_decode(file, size, &o, &img) != MD2_OK)
        fail_msg("%s: %s", path, d.message);
    n = (size_t)img->width * img->height;
    colours = count_colours(img->rgba, n, &first);
    if (colours <= 256) {
        f = roundtrip_rgba(img->width, img->height, img->rgba, &out_size, path);
        free(f);
    } else {
        /* a 24-bit file of more colours: refused at the 257th */
        md2_pcx_input in;
        uint8_t buf[16];
        assert_int_equal(file[65], 3);
        memset(&in, 0, sizeof in);
        in.width = img->width;
        in.height = img->height;
        in.rgba = img->rgba;
        assert_int_equal(md2_pcx_encode(&in, buf, sizeof buf, NULL, &d), MD2_ERR_LIMIT_EXCEEDED);
        assert_int_equal(d.index, first);
        result = 2;
    }
    if (file[65] == 1) {
        /* keep the file's palette */
        md2_pcx_input in;
        uint8_t *idx = (uint8_t *)malloc(n), pal[768];
        assert_non_null(idx);
        memset(&in, 0, sizeof in);
        in.width = img->width;
        in.height = img->height;
        in.rgba = img->rgba;
        in.palette = file + size - 768;
        f = encode(&in, &out_size, path);
        parse_written(f, out_size, img->width, img->height, idx, pal, path);
        assert_memory_equal(pal, file + size - 768, 768);
        expect_decodes_to(f, out_size, img->width, img->height, img->rgba, path);
        free(f);
        free(idx);
    }
    md2_image_free(img);
    free(file);
    return result;
}

static void test_example_skins(void **state)
{
    (void)state;
    assert_int_equal(reencode_file(MD2_EXAMPLES_DIR "/models/skin.pcx"), 1);
    assert_int_equal(reencode_file(MD2_EXAMPLES_DIR "/models/skin_dark.pcx"), 1);
}

/* The ImageMagick fixtures (8-bit and 24-bit), decoded and written again:
 * 24-bit ones of at most 256 colours too, the others refused. */
static void test_imagemagick_fixtures(void **state)
{
    char path[1024], line[256];
    FILE *list;
    size_t count = 0, refused = 0;
    (void)state;
    list = fopen(MD2_PCX_DATA_DIR "/MANIFEST", "r");
    assert_non_null(list);
    while (fgets(line, sizeof line, list)) {
        char name[128];
        if (sscanf(line, "%127s", name) != 1 || name[0] == '#')
            continue;
        snprintf(path, sizeof path, "%s/%s.pcx", MD2_PCX_DATA_DIR, name);
        switch (reencode_file(path)) {
        case 0:
            fail_msg("cannot read %s", path);
            break;
        case 2:
            refused++;
            break;
        default:
            break;
        }
        count++;
    }
    fclose(list);
    assert_true(count >= 10);
    assert_true(refused >= 1 && refused < count / 2);
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

/* Expects md2_pcx_encode(in) to fail with want naming field, with and
 * without a diagnostic, with nothing written, and md2_pcx_encode_size(in)
 * to be 0. */
static void expect_refused(const md2_pcx_input *in, md2_result want, const char *field,
                           const char *words)
{
    uint8_t buf[2048];
    size_t written = 7, i;
    md2_diagnostic d;
    md2_result r;
    memset(buf, 0x5A, sizeof buf);
    r = md2_pcx_encode(in, buf, sizeof buf, &written, &d);
    if (r != want || strcmp(d.field, field) != 0 || !strstr(d.message, words))
        fail_msg("want %s (%s, '%s'), got %s (%s): %s", md2_result_string(want), field, words,
                 md2_result_string(r), d.field, d.message);
    assert_int_equal(d.result, r);
    assert_int_equal(d.section, MD2_SECTION_NONE);
    assert_int_equal(written, 0);
    for (i = 0; i < sizeof buf; i++)
        assert_int_equal(buf[i], 0x5A);
    assert_int_equal(md2_pcx_encode(in, buf, sizeof buf, NULL, NULL), want);
    assert_int_equal(md2_pcx_encode_size(in), 0);
}

static void test_bad_arguments(void **state)
{
    uint8_t rgba[4 * 6], idx[6] = {0}, palette[768] = {0}, buf[2048];
    md2_pcx_input in, base;
    md2_diagnostic d;
    size_t written = 3, i;
    (void)state;
    for (i = 0; i < 6; i++)
        set_pixel(rgba, i, 0x808080u);
    memset(&base, 0, sizeof base);
    base.width = 3;
    base.height = 2;
    base.rgba = rgba;

    /* NULL */
    assert_int_equal(md2_pcx_encode(NULL, buf, sizeof buf, &written, &d),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "in");
    assert_int_equal(written, 0);
    assert_int_equal(md2_pcx_encode(&base, NULL, 100, &written, &d), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "buffer");
    assert_int_equal(md2_pcx_encode(NULL, NULL, 0, NULL, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_pcx_encode_size(NULL), 0);
    /* the base image itself is fine */
    assert_true(md2_pcx_encode_size(&base) > 0);
    assert_int_equal(md2_pcx_encode(&base, buf, sizeof buf, &written, &d), MD2_OK);
    assert_int_equal(written, md2_pcx_encode_size(&base));

    /* reserved_, each element */
    for (i = 0; i < 4; i++) {
        char field[40];
        in = base;
        in.reserved_[i] = 9;
        snprintf(field, sizeof field, "md2_pcx_input.reserved_[%lu]", (unsigned long)i);
        expect_refused(&in, MD2_ERR_INVALID_ARGUMENT, field, "is 9, not zero");
    }
    /* reserved_ comes before every other check, and before any pixel */
    in = base;
    in.width = 0;
    in.rgba = NULL;
    in.reserved_[3] = 1;
    expect_refused(&in, MD2_ERR_INVALID_ARGUMENT, "md2_pcx_input.reserved_[3]",
                   "start from a zero-initialised struct");
    /* sizes */
    in = base;
    in.width = 0;
    expect_refused(&in, MD2_ERR_INVALID_ARGUMENT, "width", "0 x 2");
    in = base;
    in.height = 0;
    expect_refused(&in, MD2_ERR_INVALID_ARGUMENT, "height", "3 x 0");
    in = base;
    in.width = MD2_PCX_MAX_WIDTH + 1;
    expect_refused(&in, MD2_ERR_LIMIT_EXCEEDED, "width", "65535 pixels, more than the 65534");
    in.width = 0xFFFFFFFFu;
    expect_refused(&in, MD2_ERR_LIMIT_EXCEEDED, "width", "more than the 65534");
    in = base;
    in.height = MD2_PCX_MAX_HEIGHT + 1;
    expect_refused(&in, MD2_ERR_LIMIT_EXCEEDED, "height", "65537 pixels, more than the 65536");
    /* the forms */
    in = base;
    in.indices = idx;
    in.palette = palette;
    expect_refused(&in, MD2_ERR_INVALID_ARGUMENT, "rgba", "both rgba and indices");
    in.rgba = NULL;
    in.indices = NULL;
    expect_refused(&in, MD2_ERR_INVALID_ARGUMENT, "rgba", "neither rgba nor indices");
    in.indices = idx;
    in.palette = NULL;
    expect_refused(&in, MD2_ERR_INVALID_ARGUMENT, "palette", "without their palette");
    /* alpha: the first pixel that is not opaque */
    in = base;
    rgba[4 * 4 + 3] = 254;
    rgba[4 * 5 + 3] = 0;
    expect_refused(&in, MD2_ERR_INVALID_ARGUMENT, "rgba", "pixel 4 (x 1, y 1) has alpha 254");
    md2_pcx_encode(&in, buf, sizeof buf, NULL, &d);
    assert_int_equal(d.index, 4);
    assert_int_equal(d.offset, 4 * 4 + 3);
    /* also with a palette (one that has the colour) */
    for (i = 0; i < 768; i++)
        palette[i] = 0x80;
    in.palette = palette;
    expect_refused(&in, MD2_ERR_INVALID_ARGUMENT, "rgba", "has alpha 254");
    set_pixel(rgba, 4, 0x808080u); /* opaque again */
    set_pixel(rgba, 5, 0x808080u);
    assert_true(md2_pcx_encode_size(&in) > 0);
    /* a buffer too small */
    in = base;
    assert_int_equal(md2_pcx_encode(&in, buf, HEADER, &written, &d), MD2_ERR_BUFFER_TOO_SMALL);
    assert_string_equal(d.field, "capacity");
    assert_non_null(strstr(d.message, "but the buffer holds 128"));
    assert_int_equal(md2_pcx_encode(&in, buf, 0, NULL, NULL), MD2_ERR_BUFFER_TOO_SMALL);
}

/* The size checks of a 32-bit host: a file (or rgba) larger than size_t
 * can count is refused before any pixel is read (rgba points to 4 bytes
 * here). A 64-bit size_t holds every size: there the largest image is
 * accepted by the size checks (test_sizes writes 65534 x 2 and 3 x 65536). */
static void test_size_overflow(void **state)
{
    uint64_t worst = 897u + 2u * (uint64_t)MD2_PCX_MAX_HEIGHT * MD2_PCX_MAX_WIDTH;
    uint8_t px[4] = {1, 2, 3, 255};
    md2_pcx_input in;
    (void)state;
    memset(&in, 0, sizeof in);
    in.width = MD2_PCX_MAX_WIDTH;
    in.height = MD2_PCX_MAX_HEIGHT;
    in.rgba = px;
    if (worst <= SIZE_MAX) {
        assert_true((uint64_t)MD2_PCX_MAX_WIDTH * MD2_PCX_MAX_HEIGHT * 4u <= SIZE_MAX);
        skip(); /* nothing to refuse on this host */
    }
    expect_refused(&in, MD2_ERR_LIMIT_EXCEEDED, "height", "does not fit in this host's size_t");
    /* rgba of 65534 x 20000 pixels (5 GB) does not fit; the file would */
    in.height = 20000;
    expect_refused(&in, MD2_ERR_LIMIT_EXCEEDED, "height", "rgba of 5242720000 bytes");
}

/* docs/rendering.md's example, as it is there (test_doc_example_in_sync). */
md2_result save_skin(const md2_image *skin, FILE *out);

/* BEGIN DOC SNIPPET (docs/rendering.md repeats this code verbatim) */
md2_result save_skin(const md2_image *skin, FILE *out)
{
    md2_pcx_input in = {0};
    md2_diagnostic error;
    uint8_t *file;
    size_t size;
    md2_result r;

    in.width = skin->width;
    in.height = skin->height;
    in.rgba = skin->rgba; /* opaque, at most 256 colours */
    size = md2_pcx_encode_size(&in);
    file = malloc(size ? size : 1);
    if (!file)
        return MD2_ERR_OUT_OF_MEMORY;
    r = md2_pcx_encode(&in, file, size, &size, &error);
    if (r != MD2_OK)
        fprintf(stderr, "%s\n", error.message);
    else if (fwrite(file, 1, size, out) != size)
        r = MD2_ERR_IO;
    free(file);
    return r;
}
/* END DOC SNIPPET */

static void test_doc_example(void **state)
{
    size_t size, got_size;
    uint8_t *file = tu_read_file(MD2_EXAMPLES_DIR "/models/skin.pcx", &size), *got;
    md2_image *skin;
    FILE *tmp = tmpfile();
    (void)state;
    assert_non_null(file);
    assert_non_null(tmp);
    assert_int_equal(md2_pcx_decode(file, size, NULL, &skin), MD2_OK);
    assert_int_equal(save_skin(skin, tmp), MD2_OK);
    got_size = (size_t)ftell(tmp);
    got = (uint8_t *)malloc(got_size);
    assert_non_null(got);
    rewind(tmp);
    assert_int_equal(fread(got, 1, got_size, tmp), got_size);
    expect_decodes_to(got, got_size, skin->width, skin->height, skin->rgba, "docs example");
    {
        /* and it says why it fails */
        md2_image bad = *skin;
        uint8_t px[4] = {0, 0, 0, 128};
        bad.width = bad.height = 1;
        bad.rgba = px;
        assert_int_equal(save_skin(&bad, tmp), MD2_ERR_INVALID_ARGUMENT);
    }
    fclose(tmp);
    md2_image_free(skin);
    free(file);
    free(got);
}

/* The snippet above and the one in docs/rendering.md are the same text. */
static void test_doc_example_in_sync(void **state)
{
    const char *begin = "/* BEGIN DOC SNIPPET (docs/rendering.md repeats this code verbatim) */\n";
    const char *end = "/* END DOC SNIPPET */";
    const char *fence = "```c\nmd2_result save_skin(";
    size_t src_size, doc_size;
    char *src = (char *)tu_read_file(MD2_EXAMPLES_DIR "/../tests/unit/test_pcx_write.c", &src_size);
    char *doc = (char *)tu_read_file(MD2_EXAMPLES_DIR "/../docs/rendering.md", &doc_size);
    const char *s0, *s1, *d0;
    (void)state;
    assert_non_null(src);
    assert_non_null(doc);
    src[src_size] = '\0'; /* tu_read_file leaves room for it */
    doc[doc_size] = '\0';
    /* (the literals above spell the newline as an escape, so only the
     * real marks match) */
    s0 = strstr(src, begin);
    assert_non_null(s0);
    s0 += strlen(begin);
    s1 = strstr(s0, end);
    assert_non_null(s1);
    d0 = strstr(doc, fence);
    assert_non_null(d0);
    d0 += strlen("```c\n");
    assert_true(strncmp(d0, s0, (size_t)(s1 - s0)) == 0);
    assert_true(strncmp(d0 + (s1 - s0), "```", 3) == 0);
    free(src);
    free(doc);
}

/* ------------------------------------------------------------------------ */
/* Files for ImageMagick                                                     */
/* ------------------------------------------------------------------------ */

static int write_bytes(const char *dir, const char *name, const char *ext, const uint8_t *p,
                       size_t n)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        fprintf(stderr, "cannot write %s\n", path);
        if (f)
            fclose(f);
        return 0;
    }
    return fclose(f) == 0;
}

/* Encodes in, checks that it decodes to want, and writes NAME.pcx,
 * NAME.rgba (want) and a MANIFEST line ("name width height colours"). */
static int write_case(const char *dir, FILE *manifest, const char *name,
                      const md2_pcx_input *in, const uint8_t *want)
{
    size_t size = md2_pcx_encode_size(in), first;
    uint8_t *f = (uint8_t *)malloc(size ? size : 1);
    md2_image *img = NULL;
    md2_diagnostic d;
    size_t n = (size_t)in->width * in->height;
    int ok = f && md2_pcx_encode(in, f, size, &size, &d) == MD2_OK &&
             md2_pcx_decode(f, size, NULL, &img) == MD2_OK &&
             memcmp(img->rgba, want, n * 4) == 0 && write_bytes(dir, name, "pcx", f, size) &&
             write_bytes(dir, name, "rgba", want, n * 4);
    if (!ok)
        fprintf(stderr, "%s: not written\n", name);
    else
        fprintf(manifest, "%s %u %u %u\n", name, in->width, in->height,
                count_colours(want, n, &first));
    md2_image_free(img);
    free(f);
    return ok;
}

static int write_rgba_case(const char *dir, FILE *manifest, const char *name, unsigned w,
                           unsigned h, const uint8_t *rgba)
{
    md2_pcx_input in;
    memset(&in, 0, sizeof in);
    in.width = w;
    in.height = h;
    in.rgba = rgba;
    return write_case(dir, manifest, name, &in, rgba);
}

/* The images ImageMagick reads: odd and even widths, a single pixel, a
 * column and a row, runs of 61 to 66 and across lines, indices of 0xC0
 * and more, 256 colours, an indexed image, and the example skin. */
static int write_encoded(const char *dir)
{
    static const unsigned sizes[][2] = {{1, 1}, {3, 5}, {17, 9}, {64, 64}, {1, 70},
                                        {70, 1}, {65, 3}, {300, 7}};
    char path[1024], name[64];
    FILE *manifest;
    uint32_t seed = 4242;
    size_t s, i;
    int ok = 1;

    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    manifest = fopen(path, "w");
    if (!manifest) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        unsigned w = sizes[s][0], h = sizes[s][1];
        size_t n = (size_t)w * h;
        uint8_t *rgba = (uint8_t *)malloc(4 * n);
        if (!rgba)
            return 1;
        for (i = 0; i < n; i++)
            set_pixel(rgba, i,
                      distinct_colour(i % 7 < 3 ? 200u + (uint32_t)(i / w % 50)
                                                : next_random(&seed) % 256u,
                                      0x123456u));
        snprintf(name, sizeof name, "enc-%ux%u", w, h);
        ok &= write_rgba_case(dir, manifest, name, w, h, rgba);
        free(rgba);
    }
    {
        /* runs of 61 to 66, alone on a line and running into the next;
         * row 0 brings 256 colours so that the runs are of high indices */
        const unsigned w = 256;
        uint8_t *rgba = (uint8_t *)malloc(4 * (size_t)w * 8);
        unsigned y, x;
        if (!rgba)
            return 1;
        for (x = 0; x < w; x++)
            set_pixel(rgba, x, distinct_colour(x, 99));
        for (y = 1; y < 8; y++)
            for (x = 0; x < w; x++) {
                unsigned len = 60 + y, c = 0xC0u + (x / len) % 64u;
                set_pixel(rgba, (size_t)y * w + x, distinct_colour(y % 2 ? c : 0xFFu, 99));
            }
        ok &= write_rgba_case(dir, manifest, "enc-runs", w, 8, rgba);
        free(rgba);
    }
    {
        /* indexed, with a palette that repeats colours */
        uint8_t palette[768], idx[37 * 13], *want = (uint8_t *)malloc(4 * 37 * 13);
        md2_pcx_input in;
        if (!want)
            return 1;
        random_palette(palette, &seed);
        memcpy(palette + 3 * 128, palette, 3 * 64);
        for (i = 0; i < sizeof idx; i++) {
            idx[i] = i % 5 == 0 ? (uint8_t)(i / 5) : (uint8_t)(next_random(&seed) >> 24);
            memcpy(want + 4 * i, palette + 3 * idx[i], 3);
            want[4 * i + 3] = 255;
        }
        memset(&in, 0, sizeof in);
        in.width = 37;
        in.height = 13;
        in.indices = idx;
        in.palette = palette;
        ok &= write_case(dir, manifest, "enc-indexed", &in, want);
        free(want);
    }
    {
        size_t size;
        uint8_t *file = tu_read_file(MD2_EXAMPLES_DIR "/models/skin.pcx", &size);
        md2_image *img = NULL;
        if (!file || md2_pcx_decode(file, size, NULL, &img) != MD2_OK) {
            fprintf(stderr, "cannot read the example skin\n");
            ok = 0;
        } else {
            ok &= write_rgba_case(dir, manifest, "enc-skin", img->width, img->height,
                                  img->rgba);
        }
        md2_image_free(img);
        free(file);
    }
    if (fclose(manifest) != 0)
        ok = 0;
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_images),
        cmocka_unit_test(test_runs_of_every_length),
        cmocka_unit_test(test_indices_from_0xC0),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_256_colours),
        cmocka_unit_test(test_indexed),
        cmocka_unit_test(test_rgba_with_a_palette),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_example_skins),
        cmocka_unit_test(test_imagemagick_fixtures),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_size_overflow),
        cmocka_unit_test(test_doc_example),
        cmocka_unit_test(test_doc_example_in_sync),
    };
    if (argc == 3 && strcmp(argv[1], "--write-encoded") == 0)
        return write_encoded(argv[2]);
    if (argc != 1) {
        fprintf(stderr, "usage: test_pcx_write [--write-encoded DIR]\n");
        return 2;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
