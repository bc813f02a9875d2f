/*
 * Skins (<md2/skin.h>): md2_pcx_decode() against ImageMagick's own pixels
 * (committed fixtures, and fresh ones from tests/scripts/pcx_imagemagick.cmake), and
 * against hand-made PCX files with every quirk of real files: padded
 * scanlines, runs across scanlines and planes, a last run past the image,
 * empty runs, a window that does not start at 0. Hostile files: every
 * header field lied about, truncation at every offset, a missing palette,
 * run-length data that runs out, a huge window over tiny data, failed
 * allocations, max_file_size. md2_skin_find(): the documented order of
 * candidates, game roots given and inferred, backslashes, names that try
 * to leave the root, small buffers.
 *
 *   test_skin                       every test (fixtures in tests/data/pcx)
 *   test_skin --compare DIR         DIR/MANIFEST's PCX files against their
 *                                   .rgba (ImageMagick's pixels)
 *   test_skin --write-handmade DIR  writes the hand-made quirky files to DIR
 *                                   and adds them to DIR/MANIFEST
 *   test_skin --write-sources DIR   writes the images ImageMagick turns into
 *                                   PCX files (NAME.ppm) and DIR/SOURCES
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

#define BIT(r) (1u << (r))
#define HEADER 128u
#define TAIL 769u

/* ------------------------------------------------------------------------ */
/* A PCX writer of our own (independent of the library)                     */
/* ------------------------------------------------------------------------ */

enum { RLE_LINES, RLE_STREAM, RLE_ONES };
enum { PAT_NOISE, PAT_FLAT, PAT_BANDS, PAT_NO_0C, PAT_ONE };

/* A hand-made PCX file: size, window, padding, how it is encoded. */
typedef struct hm_case {
    const char *name;
    unsigned planes;         /* 1 or 3 */
    unsigned width, height;
    unsigned xmin, ymin;     /* window origin */
    unsigned pad;            /* bytes_per_line - width */
    int rle;                 /* RLE_LINES: runs end with each plane line;
                              * RLE_STREAM: runs cross lines and planes;
                              * RLE_ONES: every byte a run of 1 */
    int pattern;
    unsigned overshoot;      /* the last run goes this far past the image */
    int empty_runs;          /* 0xC0 (a run of 0) between tokens */
    unsigned version;
    int imagemagick;         /* ImageMagick decodes it as we do */
} hm_case;

static const hm_case hm_cases[] = {
    {"hm-pad1-8", 1, 17, 9, 0, 0, 1, RLE_LINES, PAT_NOISE, 0, 0, 5, 1},
    {"hm-pad3-8", 1, 5, 4, 0, 0, 3, RLE_LINES, PAT_BANDS, 0, 0, 5, 1},
    {"hm-pad2-24", 3, 3, 5, 0, 0, 2, RLE_LINES, PAT_NOISE, 0, 0, 5, 1},
    {"hm-odd-bpl-24", 3, 16, 3, 0, 0, 1, RLE_LINES, PAT_BANDS, 0, 0, 5, 1},
    {"hm-stream-8", 1, 64, 8, 0, 0, 0, RLE_STREAM, PAT_FLAT, 0, 0, 5, 1},
    {"hm-stream-pad-8", 1, 29, 11, 0, 0, 3, RLE_STREAM, PAT_BANDS, 0, 0, 5, 1},
    {"hm-stream-24", 3, 17, 9, 0, 0, 1, RLE_STREAM, PAT_FLAT, 0, 0, 5, 1},
    {"hm-stream-bands-24", 3, 40, 7, 0, 0, 0, RLE_STREAM, PAT_BANDS, 0, 0, 5, 1},
    {"hm-one-8", 1, 21, 13, 0, 0, 1, RLE_STREAM, PAT_ONE, 0, 0, 5, 1},
    {"hm-one-24", 3, 17, 9, 0, 0, 1, RLE_STREAM, PAT_ONE, 0, 0, 5, 1},
    {"hm-overshoot-8", 1, 7, 3, 0, 0, 1, RLE_STREAM, PAT_FLAT, 20, 0, 5, 1},
    {"hm-overshoot-24", 3, 6, 2, 0, 0, 0, RLE_LINES, PAT_FLAT, 40, 0, 5, 1},
    {"hm-empty-runs-24", 3, 9, 4, 0, 0, 1, RLE_LINES, PAT_NOISE, 0, 1, 5, 1},
    {"hm-ones-8", 1, 11, 6, 0, 0, 1, RLE_ONES, PAT_NOISE, 0, 0, 5, 1},
    {"hm-window-8", 1, 13, 4, 100, 7, 1, RLE_LINES, PAT_NOISE, 0, 0, 5, 1},
    {"hm-window-24", 3, 4, 4, 65000, 65000, 0, RLE_STREAM, PAT_NOISE, 0, 0, 5, 1},
    {"hm-1x1-8", 1, 1, 1, 0, 0, 1, RLE_LINES, PAT_NOISE, 0, 0, 5, 1},
    {"hm-1x1-24", 3, 1, 1, 0, 0, 0, RLE_LINES, PAT_NOISE, 0, 0, 5, 1},
    {"hm-wide-8", 1, 300, 2, 0, 0, 0, RLE_STREAM, PAT_BANDS, 0, 0, 5, 1},
    /* ImageMagick reads the 256-colour palette of version 5 files only */
    {"hm-version0-8", 1, 6, 5, 0, 0, 0, RLE_LINES, PAT_NOISE, 0, 0, 0, 0},
    {"hm-version3-8", 1, 6, 5, 0, 0, 0, RLE_LINES, PAT_NOISE, 0, 0, 3, 0},
    {"hm-version2-24", 3, 6, 5, 0, 0, 0, RLE_LINES, PAT_NOISE, 0, 0, 2, 1},
};
#define NUM_HM (sizeof hm_cases / sizeof hm_cases[0])

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
}

/* The palette of the hand-made 8-bit files. */
static void hm_palette_entry(unsigned i, uint8_t rgb[3])
{
    rgb[0] = (uint8_t)i;
    rgb[1] = (uint8_t)((i * 7u + 3u) & 0xFFu);
    rgb[2] = (uint8_t)(255u - i);
}

/* The byte of plane p at pixel (x, y): a palette index or a channel. */
static uint8_t hm_value(const hm_case *c, unsigned p, unsigned x, unsigned y)
{
    uint32_t h;
    switch (c->pattern) {
    case PAT_FLAT:
        return (uint8_t)(0xD0u + p); /* >= 0xC0: always written as a run */
    case PAT_ONE:
        return 0xD5u; /* and the padding too: runs cross lines and planes */
    case PAT_BANDS:
        return (uint8_t)((y * 40u + (x / 5u) * 17u + p * 90u) & 0xFFu);
    case PAT_NO_0C: /* no 0x0C anywhere, for the truncation test */
        return (uint8_t)(0x20u + (x * 3u + y * 5u + p) % 23u);
    default:
        h = (x + 1u) * 2654435761u ^ (y + 7u) * 2246822519u ^ (p + 3u) * 3266489917u;
        h ^= h >> 15;
        h *= 668265263u;
        h ^= h >> 13;
        /* some runs too: pairs of equal pixels */
        if ((x & 3u) == 1u)
            return hm_value(c, p, x - 1u, y);
        return (uint8_t)(h & 0xFFu);
    }
}

/* The decoded stream: height * planes * bytes_per_line bytes (pad bytes
 * are 0xE7, a value the pixels must never show, except with PAT_ONE). */
static size_t hm_stream(const hm_case *c, uint8_t *out)
{
    unsigned bpl = c->width + c->pad, y, p, x;
    size_t n = 0;
    for (y = 0; y < c->height; y++)
        for (p = 0; p < c->planes; p++)
            for (x = 0; x < bpl; x++)
                out[n++] = x < c->width || c->pattern == PAT_ONE ? hm_value(c, p, x, y)
                                                                 : 0xE7u;
    return n;
}

/* Run-length encodes n bytes of s into out; line is the bytes of a plane
 * line (runs end there with RLE_LINES). Returns the encoded size. */
static size_t rle_encode(const hm_case *c, const uint8_t *s, size_t n, size_t line,
                         uint8_t *out)
{
    size_t i = 0, o = 0, tokens = 0, last_run = 0;
    int last_is_run = 0;
    while (i < n) {
        size_t run = 1, limit = 63;
        if (c->rle == RLE_LINES && line - i % line < limit)
            limit = line - i % line;
        if (c->rle != RLE_ONES)
            while (run < limit && i + run < n && s[i + run] == s[i])
                run++;
        if (c->empty_runs && tokens % 3 == 1) {
            out[o++] = 0xC0;
            out[o++] = 0x99;
        }
        if (run > 1 || s[i] >= 0xC0 || c->rle == RLE_ONES) {
            last_run = o;
            out[o++] = (uint8_t)(0xC0u | run);
            out[o++] = s[i];
            last_is_run = 1;
        } else {
            out[o++] = s[i];
            last_is_run = 0;
        }
        i += run;
        tokens++;
    }
    if (c->overshoot) {
        /* make the last token a run and lengthen it past the image */
        if (!last_is_run) {
            uint8_t v = out[o - 1];
            last_run = o - 1;
            out[o - 1] = 0xC1;
            out[o++] = v;
        }
        {
            unsigned count = (out[last_run] & 0x3Fu) + c->overshoot;
            out[last_run] = (uint8_t)(0xC0u | (count > 63 ? 63 : count));
        }
    }
    return o;
}

/* Writes the 128-byte header. */
static void pcx_header(uint8_t *h, unsigned version, unsigned planes, unsigned xmin,
                       unsigned ymin, unsigned xmax, unsigned ymax, unsigned bpl)
{
    memset(h, 0, HEADER);
    h[0] = 0x0A;
    h[1] = (uint8_t)version;
    h[2] = 1;
    h[3] = 8;
    put16(h + 4, xmin);
    put16(h + 6, ymin);
    put16(h + 8, xmax);
    put16(h + 10, ymax);
    put16(h + 12, 72);
    put16(h + 14, 72);
    h[65] = (uint8_t)planes;
    put16(h + 66, bpl);
    put16(h + 68, 1);
}

/* A hand-made file (malloc'd) and its size. */
static uint8_t *hm_build(const hm_case *c, size_t *size)
{
    unsigned bpl = c->width + c->pad;
    size_t n = (size_t)c->height * c->planes * bpl;
    uint8_t *stream = (uint8_t *)malloc(n);
    uint8_t *file = (uint8_t *)malloc(HEADER + 3 * n + 16 + TAIL);
    size_t o;
    assert_non_null(stream);
    assert_non_null(file);
    hm_stream(c, stream);
    pcx_header(file, c->version, c->planes, c->xmin, c->ymin, c->xmin + c->width - 1,
               c->ymin + c->height - 1, bpl);
    o = HEADER + rle_encode(c, stream, n, bpl, file + HEADER);
    if (c->planes == 1) {
        unsigned i;
        file[o++] = 0x0C;
        for (i = 0; i < 256; i++, o += 3)
            hm_palette_entry(i, file + o);
    }
    free(stream);
    *size = o;
    return file;
}

/* The pixels a hand-made file shows (malloc'd). */
static uint8_t *hm_expected(const hm_case *c)
{
    uint8_t *rgba = (uint8_t *)malloc((size_t)c->width * c->height * 4);
    unsigned x, y;
    assert_non_null(rgba);
    for (y = 0; y < c->height; y++)
        for (x = 0; x < c->width; x++) {
            uint8_t *px = rgba + ((size_t)y * c->width + x) * 4;
            if (c->planes == 1) {
                hm_palette_entry(hm_value(c, 0, x, y), px);
            } else {
                px[0] = hm_value(c, 0, x, y);
                px[1] = hm_value(c, 1, x, y);
                px[2] = hm_value(c, 2, x, y);
            }
            px[3] = 255;
        }
    return rgba;
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

/* Decodes size bytes at data (copied to an exact-size buffer, so that
 * ASan sees a read past the end) through a counting allocator. On
 * success checks the image's one allocation; on failure that nothing was
 * allocated, *out is NULL and the diagnostic says so. */
static md2_result decode(const uint8_t *data, size_t size, md2_options *o,
                         md2_diagnostic *d, md2_image **out, tu_alloc *a)
{
    uint8_t *copy = (uint8_t *)malloc(size ? size : 1);
    md2_result r;
    assert_non_null(copy);
    if (size)
        memcpy(copy, data, size);
    o->error = d;
    tu_alloc_init(a, &o->allocator);
    *out = (md2_image *)(uintptr_t)1; /* must be overwritten */
    r = md2_pcx_decode(copy, size, o, out);
    free(copy);
    assert_int_equal(d->result, r);
    if (r == MD2_OK) {
        assert_non_null(*out);
        assert_int_equal(a->calls, 1);
        assert_true((*out)->width > 0 && (*out)->height > 0);
        assert_non_null((*out)->rgba);
        assert_int_equal(a->largest,
                         sizeof(md2_image) + (size_t)(*out)->width * (*out)->height * 4);
        /* the documented bound: 126 times the data, plus the struct */
        assert_true(a->largest <= sizeof(md2_image) + 126 * size);
        assert_string_equal(d->message, "");
    } else {
        assert_null(*out);
        assert_true(d->message[0] != '\0');
        assert_int_equal(d->section, MD2_SECTION_NONE);
        if (r != MD2_ERR_OUT_OF_MEMORY)
            assert_int_equal(a->calls, 0); /* every check before the allocation */
    }
    return r;
}

/* Decodes a file that must load and compares its pixels with want. */
static void expect_pixels(const uint8_t *data, size_t size, unsigned w, unsigned h,
                          const uint8_t *want, const char *what)
{
    md2_options o;
    md2_diagnostic d;
    md2_image *img;
    tu_alloc a;
    md2_result r;
    memset(&o, 0, sizeof o);
    r = decode(data, size, &o, &d, &img, &a);
    if (r != MD2_OK) {
        fprintf(stderr, "%s: %s: %s\n", what, md2_result_string(r), d.message);
        fail();
    }
    assert_int_equal(img->width, w);
    assert_int_equal(img->height, h);
    if (memcmp(img->rgba, want, (size_t)w * h * 4) != 0) {
        size_t i;
        for (i = 0; i < (size_t)w * h * 4; i++)
            if (img->rgba[i] != want[i])
                break;
        fprintf(stderr, "%s: pixel %lu (x %lu, y %lu) channel %lu is %u, want %u\n", what,
                (unsigned long)(i / 4), (unsigned long)(i / 4 % w),
                (unsigned long)(i / 4 / w), (unsigned long)(i % 4), (unsigned)img->rgba[i],
                (unsigned)want[i]);
        fail();
    }
    md2_image_free(img);
    assert_int_equal(a.live, 0);
}

/* Expects error r naming field at offset (SIZE_MAX: any offset). */
static void expect_error(const uint8_t *data, size_t size, const md2_options *opts,
                         md2_result want, const char *field, size_t offset)
{
    md2_options o;
    md2_diagnostic d;
    md2_image *img;
    tu_alloc a;
    md2_result r;
    if (opts)
        o = *opts;
    else
        memset(&o, 0, sizeof o);
    r = decode(data, size, &o, &d, &img, &a);
    if (r != want || strcmp(d.field, field) != 0 ||
        (offset != SIZE_MAX && d.offset != offset)) {
        fprintf(stderr, "want %s (%s at %lu), got %s (%s at %lu): %s\n",
                md2_result_string(want), field, (unsigned long)offset,
                md2_result_string(r), d.field, (unsigned long)d.offset, d.message);
        fail();
    }
    md2_image_free(img);
    assert_int_equal(a.live, 0);
}

static const hm_case *hm_find(const char *name)
{
    size_t i;
    for (i = 0; i < NUM_HM; i++)
        if (strcmp(hm_cases[i].name, name) == 0)
            return &hm_cases[i];
    fail_msg("no hand-made case %s", name);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* ImageMagick's pixels                                                     */
/* ------------------------------------------------------------------------ */

/* Checks every PCX listed in dir/MANIFEST ("name planes width height" a
 * line) against dir/name.rgba, ImageMagick's decoding of it. */
static void compare_dir(const char *dir)
{
    char path[1024], line[256];
    FILE *f;
    size_t count = 0;

    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    while (fgets(line, sizeof line, f)) {
        char name[128];
        unsigned planes, w, h;
        uint8_t *pcx, *rgba;
        size_t pcx_size, rgba_size;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%127s %u %u %u", name, &planes, &w, &h) != 4)
            fail_msg("%s: bad line: %s", path, line);
        snprintf(path, sizeof path, "%s/%s.pcx", dir, name);
        pcx = tu_read_file(path, &pcx_size);
        if (!pcx)
            fail_msg("cannot read %s", path);
        snprintf(path, sizeof path, "%s/%s.rgba", dir, name);
        rgba = tu_read_file(path, &rgba_size);
        if (!rgba)
            fail_msg("cannot read %s", path);
        /* the file is the layout it claims to be */
        assert_true(pcx_size > HEADER);
        assert_int_equal(pcx[3], 8);
        assert_int_equal(pcx[65], planes);
        assert_int_equal(rgba_size, (size_t)w * h * 4);
        expect_pixels(pcx, pcx_size, w, h, rgba, name);
        free(pcx);
        free(rgba);
        count++;
    }
    fclose(f);
    printf("compared %lu PCX files in %s with ImageMagick's pixels\n",
           (unsigned long)count, dir);
    assert_true(count > 0);
}

static void test_imagemagick_fixtures(void **state)
{
    /* committed files made by tests/scripts/pcx_imagemagick.cmake (REGENERATE);
     * the pcx_imagemagick test makes fresh ones and checks these again */
    compare_dir(*state ? (const char *)*state : MD2_PCX_DATA_DIR);
}

/* ------------------------------------------------------------------------ */
/* Hand-made files: the quirks                                               */
/* ------------------------------------------------------------------------ */

static void check_hm(const hm_case *c)
{
    size_t size;
    uint8_t *file = hm_build(c, &size);
    uint8_t *want = hm_expected(c);
    expect_pixels(file, size, c->width, c->height, want, c->name);
    free(file);
    free(want);
}

static void test_handmade_quirks(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < NUM_HM; i++)
        check_hm(&hm_cases[i]);
}

/* Sizes, paddings and encodings crossed: 8 and 24 bits. */
static void test_sizes_paddings_encodings(void **state)
{
    static const unsigned sizes[][2] = {{1, 1}, {3, 5}, {17, 9}, {64, 64}, {256, 3}, {2, 70}};
    static const unsigned pads[] = {0, 1, 2, 5};
    static const int rles[] = {RLE_LINES, RLE_STREAM, RLE_ONES};
    static const int patterns[] = {PAT_NOISE, PAT_FLAT, PAT_BANDS, PAT_ONE};
    size_t s, p, r, t;
    unsigned planes;
    (void)state;
    for (planes = 1; planes <= 3; planes += 2)
        for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (p = 0; p < sizeof pads / sizeof pads[0]; p++)
                for (r = 0; r < 3; r++)
                    for (t = 0; t < 4; t++) {
                        hm_case c;
                        memset(&c, 0, sizeof c);
                        c.name = "crossed";
                        c.planes = planes;
                        c.width = sizes[s][0];
                        c.height = sizes[s][1];
                        c.pad = pads[p];
                        c.rle = rles[r];
                        c.pattern = patterns[t];
                        c.version = 5;
                        c.overshoot = (unsigned)(s + t) % 3 == 0 ? 7u : 0u;
                        c.empty_runs = (int)(p & 1u);
                        check_hm(&c);
                    }
}

static void test_runs_cross_scanlines_and_planes(void **state)
{
    /* one colour: every run of 63 crosses lines (and planes) */
    const hm_case *c = hm_find("hm-one-24");
    size_t size, i;
    uint8_t *file = hm_build(c, &size);
    (void)state;
    /* 9 lines of 3 planes of 18 bytes = 486 bytes: 7 runs of 63, one of 45 */
    assert_int_equal(size, HEADER + 16);
    for (i = 0; i < 7; i++)
        assert_int_equal(file[HEADER + 2 * i], 0xFF);
    free(file);
    check_hm(c);
}

static void test_last_run_past_the_image(void **state)
{
    /* a run of 63 for a 1 x 1 image: cut, accepted */
    uint8_t f[HEADER + 2 + TAIL];
    uint8_t want[4];
    unsigned i;
    (void)state;
    pcx_header(f, 5, 1, 0, 0, 0, 0, 1);
    f[HEADER] = 0xFF;
    f[HEADER + 1] = 0x2A;
    f[HEADER + 2] = 0x0C;
    for (i = 0; i < 256; i++)
        hm_palette_entry(i, f + HEADER + 3 + 3 * i);
    hm_palette_entry(0x2A, want);
    want[3] = 255;
    expect_pixels(f, sizeof f, 1, 1, want, "run of 63 for 1 pixel");
}

static void test_trailing_bytes(void **state)
{
    /* 24-bit: bytes after the pixels are ignored (some writers append a
     * palette); 8-bit: bytes between the pixels and the palette too */
    const hm_case *c24 = hm_find("hm-pad2-24"), *c8 = hm_find("hm-pad1-8");
    size_t size, i;
    uint8_t *file = hm_build(c24, &size), *want = hm_expected(c24);
    uint8_t *longer = (uint8_t *)malloc(size + TAIL);
    (void)state;
    assert_non_null(longer);
    memcpy(longer, file, size);
    for (i = 0; i < TAIL; i++)
        longer[size + i] = (uint8_t)(i * 13u);
    expect_pixels(longer, size + TAIL, c24->width, c24->height, want, "24-bit + tail");
    free(file);
    free(want);
    free(longer);

    file = hm_build(c8, &size);
    want = hm_expected(c8);
    longer = (uint8_t *)malloc(size + 40);
    assert_non_null(longer);
    memcpy(longer, file, size - TAIL);
    memset(longer + size - TAIL, 0x55, 40);
    memcpy(longer + size - TAIL + 40, file + size - TAIL, TAIL);
    expect_pixels(longer, size + 40, c8->width, c8->height, want, "8-bit + gap");
    free(file);
    free(want);
    free(longer);
}

static void test_quake2_skin_size(void **state)
{
    /* a typical Quake II skin: 296 x 196, 8-bit */
    hm_case c;
    size_t size;
    uint8_t *file, *want;
    (void)state;
    memset(&c, 0, sizeof c);
    c.name = "q2 skin";
    c.planes = 1;
    c.width = 296;
    c.height = 196;
    c.rle = RLE_LINES;
    c.pattern = PAT_BANDS;
    c.version = 5;
    file = hm_build(&c, &size);
    want = hm_expected(&c);
    expect_pixels(file, size, 296, 196, want, c.name);
    free(file);
    free(want);
}

/* ------------------------------------------------------------------------ */
/* Hostile files                                                             */
/* ------------------------------------------------------------------------ */

static void test_invalid_arguments(void **state)
{
    uint8_t byte = 0x0A;
    md2_diagnostic d;
    md2_options o;
    md2_image *img = (md2_image *)(uintptr_t)1;
    (void)state;
    memset(&o, 0, sizeof o);
    o.error = &d;
    assert_int_equal(md2_pcx_decode(&byte, 1, &o, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "out");
    assert_int_equal(md2_pcx_decode(NULL, 200, &o, &img), MD2_ERR_INVALID_ARGUMENT);
    assert_null(img);
    assert_string_equal(d.field, "data");
    /* opts NULL: defaults, no diagnostic */
    assert_int_equal(md2_pcx_decode(&byte, 1, NULL, &img), MD2_ERR_TRUNCATED_HEADER);
    assert_null(img);
    md2_image_free(NULL);
}

static void test_default_allocator(void **state)
{
    const hm_case *c = hm_find("hm-pad1-8");
    size_t size;
    uint8_t *file = hm_build(c, &size), *want = hm_expected(c);
    md2_image *img = NULL;
    md2_diagnostic d;
    md2_options o;
    (void)state;
    memset(&o, 0, sizeof o);
    o.error = &d;
    strcpy(d.message, "stale");
    assert_int_equal(md2_pcx_decode(file, size, NULL, &img), MD2_OK);
    assert_memory_equal(img->rgba, want, (size_t)c->width * c->height * 4);
    md2_image_free(img);
    assert_int_equal(md2_pcx_decode(file, size, &o, &img), MD2_OK);
    assert_int_equal(d.result, MD2_OK);
    assert_string_equal(d.message, ""); /* cleared on success */
    md2_image_free(img);
    free(file);
    free(want);
}

/* A small valid file to mutate: 17 x 9, 8-bit, padded, no 0x0C before its
 * palette. */
static uint8_t *small_file(size_t *size, unsigned planes)
{
    hm_case c;
    memset(&c, 0, sizeof c);
    c.name = "small";
    c.planes = planes;
    c.width = 17;
    c.height = 9;
    c.pad = 1;
    c.rle = RLE_LINES;
    c.pattern = PAT_NO_0C;
    c.version = 5;
    return hm_build(&c, size);
}

static void test_header_fields_lie(void **state)
{
    size_t size, i;
    uint8_t *orig = small_file(&size, 1), *f = (uint8_t *)malloc(size);
    (void)state;
    assert_non_null(f);

#define MUTATE(stmt, want, field, offset)                                    \
    do {                                                                     \
        memcpy(f, orig, size);                                               \
        stmt;                                                                \
        expect_error(f, size, NULL, want, field, offset);                    \
    } while (0)

    for (i = 0; i < 256; i++)
        if (i != 0x0A)
            MUTATE(f[0] = (uint8_t)i, MD2_ERR_BAD_MAGIC, "manufacturer", 0);
    for (i = 0; i < 256; i++)
        if (i != 0 && i != 2 && i != 3 && i != 4 && i != 5)
            MUTATE(f[1] = (uint8_t)i, MD2_ERR_BAD_VERSION, "version", 1);
    for (i = 0; i < 256; i++)
        if (i != 1)
            MUTATE(f[2] = (uint8_t)i, MD2_ERR_BAD_VERSION, "encoding", 2);
    for (i = 0; i < 256; i++)
        if (i != 8)
            MUTATE(f[3] = (uint8_t)i, MD2_ERR_BAD_VERSION, "bits_per_pixel", 3);
    for (i = 0; i < 256; i++)
        if (i != 1 && i != 3)
            MUTATE(f[65] = (uint8_t)i, MD2_ERR_BAD_VERSION, "nplanes", 65);
    /* window: max below min */
    MUTATE(put16(f + 4, 17), MD2_ERR_BAD_COUNT, "xmax", 8);
    MUTATE(put16(f + 4, 6); put16(f + 8, 5), MD2_ERR_BAD_COUNT, "xmax", 8);
    MUTATE(put16(f + 6, 9), MD2_ERR_BAD_COUNT, "ymax", 10);
    MUTATE(put16(f + 6, 0xFFFF), MD2_ERR_BAD_COUNT, "ymax", 10);
    /* scanlines shorter than the window */
    MUTATE(put16(f + 66, 16), MD2_ERR_BAD_COUNT, "bytes_per_line", 66);
    MUTATE(put16(f + 66, 0), MD2_ERR_BAD_COUNT, "bytes_per_line", 66);
    MUTATE(put16(f + 8, 0xFFFF), MD2_ERR_BAD_COUNT, "bytes_per_line", 66);
    /* sizes the data cannot hold: bigger window, longer lines, 3 planes */
    MUTATE(put16(f + 10, 0xFFFF), MD2_ERR_SECTION_OUT_OF_BOUNDS, "pixels", HEADER);
    MUTATE(put16(f + 10, 9), MD2_ERR_SECTION_OUT_OF_BOUNDS, "pixels", size - TAIL);
    MUTATE(put16(f + 66, 0xFFFF), MD2_ERR_SECTION_OUT_OF_BOUNDS, "pixels", HEADER);
    MUTATE(put16(f + 66, 19), MD2_ERR_SECTION_OUT_OF_BOUNDS, "pixels", SIZE_MAX);
    /* a palette marker where there is none */
    MUTATE(f[size - TAIL] = 0x0B, MD2_ERR_SECTION_OUT_OF_BOUNDS, "palette", size - TAIL);
#undef MUTATE

    /* lies that still describe a valid image: a smaller window (the rest
     * of each line is padding), another version, DPI, 16-colour palette,
     * reserved byte, palette info, filler */
    {
        static const size_t harmless[] = {12, 13, 14, 15, 16, 40, 63, 64, 68, 69, 70,
                                          72, 74, 100, 127};
        md2_options o;
        md2_diagnostic d;
        md2_image *img;
        tu_alloc a;
        for (i = 0; i < sizeof harmless / sizeof harmless[0]; i++) {
            memcpy(f, orig, size);
            f[harmless[i]] ^= 0xA5;
            memset(&o, 0, sizeof o);
            assert_int_equal(decode(f, size, &o, &d, &img, &a), MD2_OK);
            md2_image_free(img);
        }
        memcpy(f, orig, size);
        put16(f + 4, 3); /* xmin 3: 14 pixels of each 18-byte line */
        memset(&o, 0, sizeof o);
        assert_int_equal(decode(f, size, &o, &d, &img, &a), MD2_OK);
        assert_int_equal(img->width, 14);
        md2_image_free(img);
        for (i = 0; i <= 5; i++) {
            if (i == 1)
                continue;
            memcpy(f, orig, size);
            f[1] = (uint8_t)i;
            assert_int_equal(decode(f, size, &o, &d, &img, &a), MD2_OK);
            md2_image_free(img);
        }
        /* an 8-bit file that says 3 planes: its palette becomes pixels
         * (nothing can tell), or there are too few */
        memcpy(f, orig, size);
        f[65] = 3;
        if (decode(f, size, &o, &d, &img, &a) == MD2_OK)
            md2_image_free(img);
        else
            assert_int_equal(d.result, MD2_ERR_SECTION_OUT_OF_BOUNDS);
    }
    free(f);
    free(orig);
}

static void test_truncated_at_every_offset(void **state)
{
    unsigned planes;
    (void)state;
    for (planes = 1; planes <= 3; planes += 2) {
        size_t size, len;
        uint8_t *file = small_file(&size, planes);
        for (len = 0; len < size; len++) {
            if (len < HEADER)
                expect_error(file, len, NULL, MD2_ERR_TRUNCATED_HEADER, "header", len);
            else if (planes == 1)
                /* the palette marker is looked for 769 bytes before the end */
                expect_error(file, len, NULL, MD2_ERR_SECTION_OUT_OF_BOUNDS, "palette",
                             len < HEADER + TAIL ? len : len - TAIL);
            else
                expect_error(file, len, NULL, MD2_ERR_SECTION_OUT_OF_BOUNDS, "pixels",
                             SIZE_MAX);
        }
        free(file);
    }
}

static void test_pixels_cut_before_the_palette(void **state)
{
    /* the palette is intact, the run-length data before it cut at every
     * length: the data runs out (at the palette, or inside a run) */
    size_t size, k;
    uint8_t *file = small_file(&size, 1);
    size_t rle = size - TAIL - HEADER;
    uint8_t *f = (uint8_t *)malloc(size);
    (void)state;
    assert_non_null(f);
    for (k = 0; k < rle; k++) {
        md2_options o;
        md2_diagnostic d;
        md2_image *img;
        tu_alloc a;
        size_t n = HEADER + k;
        memcpy(f, file, n);
        memcpy(f + n, file + size - TAIL, TAIL);
        memset(&o, 0, sizeof o);
        assert_int_equal(decode(f, n + TAIL, &o, &d, &img, &a), MD2_ERR_SECTION_OUT_OF_BOUNDS);
        assert_string_equal(d.field, "pixels");
        /* where the data ran out: the palette, or a run cut in two */
        assert_true(d.offset == n || (d.offset == n - 1 && f[n - 1] >= 0xC0) ||
                    d.offset == HEADER);
        assert_non_null(strstr(d.message, "pixels"));
    }
    free(f);
    free(file);
}

static void test_palette_missing(void **state)
{
    size_t size;
    uint8_t *file = small_file(&size, 1);
    uint8_t *f = (uint8_t *)malloc(size);
    md2_options o;
    md2_diagnostic d;
    md2_image *img;
    tu_alloc a;
    (void)state;
    assert_non_null(f);
    /* marker overwritten: refused (no warning, no guessing) */
    memcpy(f, file, size);
    f[size - TAIL] = 0x00;
    memset(&o, 0, sizeof o);
    assert_int_equal(decode(f, size, &o, &d, &img, &a), MD2_ERR_SECTION_OUT_OF_BOUNDS);
    assert_string_equal(d.field, "palette");
    assert_int_equal(d.offset, size - TAIL);
    assert_non_null(strstr(d.message, "0x0C"));
    /* no palette at all: the pixels alone */
    assert_int_equal(decode(file, size - TAIL, &o, &d, &img, &a),
                     MD2_ERR_SECTION_OUT_OF_BOUNDS);
    assert_string_equal(d.field, "palette");
    /* the palette without its marker */
    memcpy(f, file, size - TAIL);
    memcpy(f + size - TAIL, file + size - TAIL + 1, TAIL - 1);
    expect_error(f, size - 1, NULL, MD2_ERR_SECTION_OUT_OF_BOUNDS, "palette", SIZE_MAX);
    /* header + palette, no pixels */
    memcpy(f, file, HEADER);
    memcpy(f + HEADER, file + size - TAIL, TAIL);
    expect_error(f, HEADER + TAIL, NULL, MD2_ERR_SECTION_OUT_OF_BOUNDS, "pixels", HEADER);
    free(f);
    free(file);
}

/* An 8-bit file: header (w x h, bytes_per_line bpl), the n bytes of
 * run-length data rle, the palette (entry i = i, 7i + 3, 255 - i). */
static size_t make_8bit(uint8_t *out, unsigned w, unsigned h, unsigned bpl,
                        const uint8_t *rle, size_t n)
{
    unsigned i;
    pcx_header(out, 5, 1, 0, 0, w - 1, h - 1, bpl);
    memcpy(out + HEADER, rle, n);
    out[HEADER + n] = 0x0C;
    for (i = 0; i < 256; i++)
        hm_palette_entry(i, out + HEADER + n + 1 + 3 * i);
    return HEADER + n + TAIL;
}

static void test_rle_overruns(void **state)
{
    /* a 4 x 2 image needs 8 bytes */
    static const uint8_t cut_run[] = {0xC7, 0x10, 0xC0, 0x00, 0xC0, 0x00, 0xC3};
    static const uint8_t empty[] = {0xC0, 0xC0, 0xC0, 0xC0};
    static const uint8_t short_literals[] = {0x01, 0x02, 0x03};
    static const uint8_t run_then_empty[] = {0xC8, 0x33, 0xC0, 0xC0, 0xC0, 0xC0};
    static const uint8_t one_short[] = {0xC7, 0x33};
    uint8_t f[HEADER + 16 + TAIL], want[32];
    size_t n, i;
    (void)state;
    /* a run's count is the last byte before the palette: its value would
     * be the marker */
    n = make_8bit(f, 4, 2, 4, cut_run, sizeof cut_run);
    expect_error(f, n, NULL, MD2_ERR_SECTION_OUT_OF_BOUNDS, "pixels", HEADER + 6);
    /* runs of 0 decode nothing */
    n = make_8bit(f, 4, 2, 4, empty, sizeof empty);
    expect_error(f, n, NULL, MD2_ERR_SECTION_OUT_OF_BOUNDS, "pixels", HEADER + 4);
    n = make_8bit(f, 4, 2, 4, short_literals, sizeof short_literals);
    expect_error(f, n, NULL, MD2_ERR_SECTION_OUT_OF_BOUNDS, "pixels", HEADER + 3);
    n = make_8bit(f, 4, 2, 4, one_short, sizeof one_short);
    expect_error(f, n, NULL, MD2_ERR_SECTION_OUT_OF_BOUNDS, "pixels", HEADER + 2);
    /* the image complete after the first run: what follows is ignored */
    n = make_8bit(f, 4, 2, 4, run_then_empty, sizeof run_then_empty);
    for (i = 0; i < 8; i++) {
        hm_palette_entry(0x33, want + 4 * i);
        want[4 * i + 3] = 255;
    }
    expect_pixels(f, n, 4, 2, want, "run of 8 then empty runs");
}

static void test_huge_window_tiny_data(void **state)
{
    uint8_t f[HEADER + 64 + TAIL];
    size_t i;
    md2_options o;
    md2_diagnostic d;
    md2_image *img;
    tu_alloc a;
    (void)state;
    memset(f, 0xFF, sizeof f); /* runs of 63 everywhere */
    /* 65535 x 65536 x 3 planes over 64 + 769 bytes */
    pcx_header(f, 5, 3, 0, 0, 65534, 65535, 65535);
    memset(&o, 0, sizeof o);
    assert_int_equal(decode(f, sizeof f, &o, &d, &img, &a), MD2_ERR_SECTION_OUT_OF_BOUNDS);
    assert_string_equal(d.field, "pixels");
    assert_int_equal(d.offset, HEADER);
    assert_int_equal(a.calls, 0);
    /* 8-bit, the same */
    pcx_header(f, 5, 1, 0, 0, 65534, 65535, 65535);
    f[HEADER + 64] = 0x0C;
    assert_int_equal(decode(f, sizeof f, &o, &d, &img, &a), MD2_ERR_SECTION_OUT_OF_BOUNDS);
    assert_int_equal(a.calls, 0);
    /* exactly what 64 bytes can hold: 32 runs of 63 = 2016 bytes, a
     * 63 x 32 image; one more line is too much */
    pcx_header(f, 5, 1, 0, 0, 62, 31, 63);
    assert_int_equal(decode(f, sizeof f, &o, &d, &img, &a), MD2_OK);
    assert_int_equal(img->width, 63);
    assert_int_equal(img->height, 32);
    for (i = 0; i < 63 * 32; i++)
        assert_int_equal(img->rgba[4 * i], f[HEADER + 64 + 1 + 3 * 0xFF]);
    md2_image_free(img);
    assert_int_equal(a.live, 0);
    pcx_header(f, 5, 1, 0, 0, 62, 32, 63);
    assert_int_equal(decode(f, sizeof f, &o, &d, &img, &a), MD2_ERR_SECTION_OUT_OF_BOUNDS);
    assert_int_equal(d.offset, HEADER);
    assert_int_equal(a.calls, 0);
}

static void test_allocation_fails(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < NUM_HM; i++) {
        size_t size, fail_at;
        uint8_t *file = hm_build(&hm_cases[i], &size);
        /* every allocation a decode makes (one) fails in turn */
        for (fail_at = 1;; fail_at++) {
            md2_options o;
            md2_diagnostic d;
            md2_image *img = NULL;
            tu_alloc a;
            md2_result r;
            memset(&o, 0, sizeof o);
            o.error = &d;
            tu_alloc_init(&a, &o.allocator);
            a.fail_at = fail_at;
            r = md2_pcx_decode(file, size, &o, &img);
            if (r == MD2_OK) {
                assert_true(fail_at > a.calls);
                md2_image_free(img);
                assert_int_equal(a.live, 0);
                break;
            }
            assert_int_equal(r, MD2_ERR_OUT_OF_MEMORY);
            assert_null(img);
            assert_int_equal(d.result, MD2_ERR_OUT_OF_MEMORY);
            assert_non_null(strstr(d.message, "allocating"));
            assert_int_equal(a.live, 0);
        }
        assert_int_equal(fail_at, 2);
        free(file);
    }
}

static void test_max_file_size(void **state)
{
    size_t size;
    uint8_t *file = small_file(&size, 1);
    md2_options o;
    md2_diagnostic d;
    md2_image *img;
    tu_alloc a;
    (void)state;
    memset(&o, 0, sizeof o);
    o.limits.max_file_size = size;
    assert_int_equal(decode(file, size, &o, &d, &img, &a), MD2_OK);
    md2_image_free(img);
    o.limits.max_file_size = size - 1;
    expect_error(file, size, &o, MD2_ERR_LIMIT_EXCEEDED, "max_file_size", size - 1);
    o.limits.max_file_size = 1;
    expect_error(file, size, &o, MD2_ERR_LIMIT_EXCEEDED, "max_file_size", 1);
    /* the header is checked first, as md2_parse() does */
    file[0] = 0;
    expect_error(file, size, &o, MD2_ERR_BAD_MAGIC, "manufacturer", 0);
    expect_error(file, 10, &o, MD2_ERR_TRUNCATED_HEADER, "header", 10);
    free(file);
}

static void test_random_mutants(void **state)
{
    /* bytes flipped in hand-made files: never a crash, leak or read past
     * the data (ASan, valgrind); decode() checks the rest */
    uint32_t seed = 12345;
    size_t i;
    (void)state;
    for (i = 0; i < NUM_HM; i++) {
        size_t size, m;
        uint8_t *orig = hm_build(&hm_cases[i], &size);
        uint8_t *f = (uint8_t *)malloc(size);
        assert_non_null(f);
        for (m = 0; m < 300; m++) {
            md2_options o;
            md2_diagnostic d;
            md2_image *img;
            tu_alloc a;
            int k, flips;
            memcpy(f, orig, size);
            seed = seed * 1664525u + 1013904223u;
            flips = 1 + (int)(seed >> 29);
            for (k = 0; k < flips; k++) {
                seed = seed * 1664525u + 1013904223u;
                f[(seed >> 8) % (m % 2 ? size : HEADER)] ^= (uint8_t)(1u << (seed >> 29));
            }
            memset(&o, 0, sizeof o);
            if (decode(f, size, &o, &d, &img, &a) == MD2_OK)
                md2_image_free(img);
            assert_int_equal(a.live, 0);
        }
        free(f);
        free(orig);
    }
}

/* ------------------------------------------------------------------------ */
/* md2_skin_find()                                                           */
/* ------------------------------------------------------------------------ */

#define MAX_SEEN 16

/* Records every candidate; accepts number accept_at (1-based; 0 never). */
typedef struct seen {
    char paths[MAX_SEEN][MD2_SKIN_PATH_MAX];
    size_t count, accept_at;
} seen;

static int record(void *user, const char *path)
{
    seen *s = (seen *)user;
    assert_true(s->count < MAX_SEEN);
    assert_true(strlen(path) < MD2_SKIN_PATH_MAX);
    strcpy(s->paths[s->count], path);
    s->count++;
    return s->count == s->accept_at;
}

/* Runs md2_skin_find() with a callback that never accepts and compares
 * the candidates with want (NULL-terminated). */
static void expect_order(const char *model, const char *skin, const char *root,
                         const char *const *want)
{
    seen s;
    char found[MD2_SKIN_PATH_MAX];
    size_t n = 0;
    memset(&s, 0, sizeof s);
    strcpy(found, "stale");
    assert_int_equal(md2_skin_find(model, skin, root, record, &s, found, sizeof found),
                     MD2_ERR_NOT_FOUND);
    assert_string_equal(found, "");
    while (want[n]) {
        if (n >= s.count)
            fail_msg("model %s skin %s: candidate %lu missing, want %s", model, skin,
                     (unsigned long)n, want[n]);
        if (strcmp(s.paths[n], want[n]) != 0)
            fail_msg("model %s skin %s: candidate %lu is %s, want %s", model, skin,
                     (unsigned long)n, s.paths[n], want[n]);
        n++;
    }
    if (s.count != n)
        fail_msg("model %s skin %s: %lu candidates, want %lu (extra: %s)", model, skin,
                 (unsigned long)s.count, (unsigned long)n, s.paths[n]);
}

static void test_skin_order_inferred_root(void **state)
{
    /* the model where the skin says: the beside-model candidates are the
     * same files, so they are not offered again */
    static const char *const want[] = {
        "/q2/baseq2/models/monsters/tank/skin.pcx", "/q2/baseq2/models/monsters/tank/skin.png",
        "/q2/baseq2/models/monsters/tank/skin.tga", "/q2/baseq2/models/monsters/tank/skin.jpg", "/q2/baseq2/models/monsters/tank/skin.bmp",
        NULL};
    static const char *const want_noext[] = {
        "/q2/baseq2/models/monsters/tank/skin", "/q2/baseq2/models/monsters/tank/skin.pcx",
        "/q2/baseq2/models/monsters/tank/skin.png", "/q2/baseq2/models/monsters/tank/skin.tga",
        "/q2/baseq2/models/monsters/tank/skin.jpg", "/q2/baseq2/models/monsters/tank/skin.bmp", NULL};
    static const char *const want_relative[] = {
        "models/x/skin.pcx", "models/x/skin.png", "models/x/skin.tga", "models/x/skin.jpg", "models/x/skin.bmp",
        NULL};
    static const char *const want_top[] = {
        "/models/x/skin.pcx", "/models/x/skin.png", "/models/x/skin.tga", "/models/x/skin.jpg", "/models/x/skin.bmp",
        NULL};
    (void)state;
    expect_order("/q2/baseq2/models/monsters/tank/tris.md2", "models/monsters/tank/skin.pcx",
                 NULL, want);
    expect_order("/q2/baseq2/models/monsters/tank/tris.md2", "models/monsters/tank/skin",
                 NULL, want_noext);
    /* a relative model path whose directory is the skin's: root "" */
    expect_order("models/x/tris.md2", "models/x/skin.pcx", NULL, want_relative);
    expect_order("/models/x/tris.md2", "models/x/skin.pcx", NULL, want_top);
}

static void test_skin_order_given_root(void **state)
{
    static const char *const want[] = {
        "/games/q2/baseq2/models/tank/skin", "/games/q2/baseq2/models/tank/skin.pcx",
        "/games/q2/baseq2/models/tank/skin.png", "/games/q2/baseq2/models/tank/skin.tga",
        "/games/q2/baseq2/models/tank/skin.jpg", "/games/q2/baseq2/models/tank/skin.bmp", "/tmp/x/skin", "/tmp/x/skin.pcx",
        "/tmp/x/skin.png", "/tmp/x/skin.tga", "/tmp/x/skin.jpg", "/tmp/x/skin.bmp", NULL};
    static const char *const want_slash[] = {
        "/q2/models/tank/skin.pcx", "/q2/models/tank/skin.png", "/q2/models/tank/skin.tga",
        "/q2/models/tank/skin.jpg", "/q2/models/tank/skin.bmp", "tank/skin.pcx", "tank/skin.png", "tank/skin.tga",
        "tank/skin.jpg", "tank/skin.bmp", NULL};
    static const char *const want_empty[] = {
        "models/tank/skin.pcx", "models/tank/skin.png", "models/tank/skin.tga",
        "models/tank/skin.jpg", "models/tank/skin.bmp", "skin.pcx", "skin.png", "skin.tga", "skin.jpg", "skin.bmp", NULL};
    static const char *const want_same[] = {
        "/q2/baseq2/models/tank/skin.pcx", "/q2/baseq2/models/tank/skin.png",
        "/q2/baseq2/models/tank/skin.tga", "/q2/baseq2/models/tank/skin.jpg", "/q2/baseq2/models/tank/skin.bmp", NULL};
    (void)state;
    /* a given root wins over the model's place; no extension in the name */
    expect_order("/tmp/x/tris.md2", "models/tank/skin", "/games/q2/baseq2", want);
    /* no "/" added after a root that ends with one */
    expect_order("tank/tris.md2", "models/tank/skin.pcx", "/q2/", want_slash);
    /* "" is the current directory; a model path without a directory */
    expect_order("tris.md2", "models/tank/skin.pcx", "", want_empty);
    /* the given root is the inferred one: duplicates dropped */
    expect_order("/q2/baseq2/models/tank/tris.md2", "models/tank/skin.pcx", "/q2/baseq2",
                 want_same);
}

static void test_skin_no_root(void **state)
{
    static const char *const want_elsewhere[] = {
        "/mods/tank/skin.pcx", "/mods/tank/skin.png", "/mods/tank/skin.tga",
        "/mods/tank/skin.jpg", "/mods/tank/skin.bmp", NULL};
    static const char *const want_bare[] = {"skin.pcx", "skin.png", "skin.tga", "skin.jpg", "skin.bmp",
                                            NULL};
    static const char *const want_bare_dir[] = {"/m/skin", "/m/skin.pcx", "/m/skin.png",
                                                "/m/skin.tga", "/m/skin.jpg", "/m/skin.bmp", NULL};
    static const char *const want_partial[] = {
        "/q2/xmodels/tank/skin.pcx", "/q2/xmodels/tank/skin.png", "/q2/xmodels/tank/skin.tga",
        "/q2/xmodels/tank/skin.jpg", "/q2/xmodels/tank/skin.bmp", NULL};
    (void)state;
    /* the model is not under the skin's directory: beside it only */
    expect_order("/mods/tank/tank.md2", "models/tank/skin.pcx", NULL, want_elsewhere);
    /* the skin has no directory: no root to infer */
    expect_order("tris.md2", "skin.pcx", NULL, want_bare);
    expect_order("/m/tris.md2", "skin", NULL, want_bare_dir);
    /* "xmodels/tank" ends with "models/tank" but not at a separator */
    expect_order("/q2/xmodels/tank/tris.md2", "models/tank/skin.pcx", NULL, want_partial);
}

static void test_skin_backslashes(void **state)
{
    static const char *const want[] = {
        "C:\\q2\\baseq2\\models/tank/skin.pcx", "C:\\q2\\baseq2\\models/tank/skin.png",
        "C:\\q2\\baseq2\\models/tank/skin.tga", "C:\\q2\\baseq2\\models/tank/skin.jpg", "C:\\q2\\baseq2\\models/tank/skin.bmp", NULL};
    static const char *const want_skin_bs[] = {
        "/q2/baseq2/models\\tank\\skin.pcx", "/q2/baseq2/models\\tank\\skin.png",
        "/q2/baseq2/models\\tank\\skin.tga", "/q2/baseq2/models\\tank\\skin.jpg", "/q2/baseq2/models\\tank\\skin.bmp", NULL};
    static const char *const want_root_bs[] = {
        "D:\\games\\q2\\models/tank/skin.pcx", "D:\\games\\q2\\models/tank/skin.png",
        "D:\\games\\q2\\models/tank/skin.tga", "D:\\games\\q2\\models/tank/skin.jpg", "D:\\games\\q2\\models/tank/skin.bmp",
        "C:\\mods\\skin.pcx", "C:\\mods\\skin.png", "C:\\mods\\skin.tga", "C:\\mods\\skin.jpg", "C:\\mods\\skin.bmp",
        NULL};
    (void)state;
    /* the root inferred from a Windows path; the beside-model candidates
     * (C:\q2\baseq2\models\tank\skin.pcx ...) are the same files */
    expect_order("C:\\q2\\baseq2\\models\\tank\\tris.md2", "models/tank/skin.pcx", NULL, want);
    /* backslashes in the skin name */
    expect_order("/q2/baseq2/models/tank/tris.md2", "models\\tank\\skin.pcx", NULL,
                 want_skin_bs);
    /* a given root ending with a backslash gets no "/" */
    expect_order("C:\\mods\\tank.md2", "models/tank/skin.pcx", "D:\\games\\q2\\",
                 want_root_bs);
}

static void test_skin_names_leaving_the_root(void **state)
{
    static const char *const want_dotdot[] = {"/q2/m/passwd", "/q2/m/passwd.pcx",
                                              "/q2/m/passwd.png", "/q2/m/passwd.tga",
                                              "/q2/m/passwd.jpg", "/q2/m/passwd.bmp", NULL};
    static const char *const want_abs[] = {"/q2/m/skin.pcx", "/q2/m/skin.png",
                                           "/q2/m/skin.tga", "/q2/m/skin.jpg", "/q2/m/skin.bmp", NULL};
    static const char *const want_drive[] = {"/q2/m/c:skin.pcx", "/q2/m/c:skin.png",
                                             "/q2/m/c:skin.tga", "/q2/m/c:skin.jpg", "/q2/m/c:skin.bmp", NULL};
    (void)state;
    /* ".." components, absolute paths, drive letters: beside the model,
     * by file name only, never joined to the root */
    expect_order("/q2/m/tris.md2", "../../etc/passwd", "/q2", want_dotdot);
    expect_order("/q2/m/tris.md2", "models/../../../etc/passwd", "/q2", want_dotdot);
    expect_order("/q2/m/tris.md2", "models\\..\\..\\etc\\passwd", NULL, want_dotdot);
    expect_order("/q2/m/tris.md2", "/home/artist/q2/skin.pcx", "/q2", want_abs);
    expect_order("/q2/m/tris.md2", "\\\\server\\share\\skin.pcx", "/q2", want_abs);
    expect_order("/q2/m/tris.md2", "C:\\art\\skin.pcx", "/q2", want_abs);
    expect_order("/q2/m/tris.md2", "c:skin.pcx", "/q2", want_drive);
}

static void test_skin_extensions(void **state)
{
    static const char *const want_upper[] = {"m/skin.PCX", "m/skin.pcx", "m/skin.png",
                                             "m/skin.tga", "m/skin.jpg", "m/skin.bmp", NULL};
    static const char *const want_dots[] = {"m/my.skin.bmp", "m/my.skin.pcx", "m/my.skin.png",
                                            "m/my.skin.tga", "m/my.skin.jpg", NULL};
    /* UFO:AI's ".skin": skin.* beside the model */
    static const char *const want_hidden[] = {"m/skin", "m/skin.pcx", "m/skin.png",
                                              "m/skin.tga", "m/skin.jpg", "m/skin.bmp", NULL};
    static const char *const want_dot_end[] = {"m/skin.", "m/skin.pcx", "m/skin.png",
                                               "m/skin.tga", "m/skin.jpg", "m/skin.bmp", NULL};
    static const char *const want_dir_dot[] = {
        "r/v1.2/skin", "r/v1.2/skin.pcx", "r/v1.2/skin.png", "r/v1.2/skin.tga",
        "r/v1.2/skin.jpg", "r/v1.2/skin.bmp", "m/skin", "m/skin.pcx", "m/skin.png", "m/skin.tga", "m/skin.jpg", "m/skin.bmp",
        NULL};
    (void)state;
    expect_order("m/tris.md2", "skin.PCX", NULL, want_upper);
    expect_order("m/tris.md2", "my.skin.bmp", NULL, want_dots);
    expect_order("m/tris.md2", ".skin", NULL, want_hidden);
    expect_order("m/tris.md2", "skin.", NULL, want_dot_end);
    /* a '.' in a directory is not an extension */
    expect_order("m/tris.md2", "v1.2/skin", "r", want_dir_dot);
}

static void test_skin_accept(void **state)
{
    seen s;
    char found[64];
    (void)state;
    /* the third candidate is accepted: the search stops there */
    memset(&s, 0, sizeof s);
    s.accept_at = 3;
    assert_int_equal(md2_skin_find("/q2/baseq2/models/x/tris.md2", "models/x/skin.pcx", NULL,
                                   record, &s, found, sizeof found),
                     MD2_OK);
    assert_int_equal(s.count, 3);
    assert_string_equal(found, "/q2/baseq2/models/x/skin.tga");
    /* found may be NULL */
    memset(&s, 0, sizeof s);
    s.accept_at = 1;
    assert_int_equal(md2_skin_find("a/b.md2", "c.pcx", NULL, record, &s, NULL, 0), MD2_OK);
    /* found exactly big enough, and one byte short */
    memset(&s, 0, sizeof s);
    s.accept_at = 2;
    assert_int_equal(md2_skin_find("a/b.md2", "c.pcx", NULL, record, &s, found, 8), MD2_OK);
    assert_string_equal(found, "a/c.png");
    memset(&s, 0, sizeof s);
    s.accept_at = 2;
    assert_int_equal(md2_skin_find("a/b.md2", "c.pcx", NULL, record, &s, found, 7),
                     MD2_ERR_BUFFER_TOO_SMALL);
    assert_string_equal(found, "");
    memset(&s, 0, sizeof s);
    s.accept_at = 1;
    assert_int_equal(md2_skin_find("a/b.md2", "c.pcx", NULL, record, &s, found, 0),
                     MD2_ERR_BUFFER_TOO_SMALL);
}

static void test_skin_too_long(void **state)
{
    char root[MD2_SKIN_PATH_MAX + 8];
    seen s;
    size_t n;
    (void)state;
    /* the longest candidate is root "/" "models/x/skin.pcx" (17 bytes) */
    for (n = MD2_SKIN_PATH_MAX - 20; n <= MD2_SKIN_PATH_MAX - 17; n++) {
        md2_result r;
        memset(root, 'r', n);
        root[n] = '\0';
        memset(&s, 0, sizeof s);
        r = md2_skin_find("m/tris.md2", "models/x/skin.pcx", root, record, &s, NULL, 0);
        if (n + 1 + 17 < MD2_SKIN_PATH_MAX) {
            assert_int_equal(r, MD2_ERR_NOT_FOUND);
            assert_int_equal(s.count, 10);
            assert_int_equal(strlen(s.paths[0]), n + 18);
        } else {
            /* refused before any candidate is offered */
            assert_int_equal(r, MD2_ERR_BUFFER_TOO_SMALL);
            assert_int_equal(s.count, 0);
        }
    }
    /* a long model directory: the same */
    memset(root, 'd', MD2_SKIN_PATH_MAX);
    root[MD2_SKIN_PATH_MAX - 4] = '/';
    root[MD2_SKIN_PATH_MAX - 3] = '\0';
    memset(&s, 0, sizeof s);
    assert_int_equal(md2_skin_find(root, "skin", NULL, record, &s, NULL, 0),
                     MD2_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(s.count, 0);
}

static void test_skin_invalid_arguments(void **state)
{
    seen s;
    char found[16];
    (void)state;
    memset(&s, 0, sizeof s);
    strcpy(found, "stale");
    assert_int_equal(md2_skin_find(NULL, "skin", NULL, record, &s, found, sizeof found),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(found, "");
    assert_int_equal(md2_skin_find("m.md2", "skin", NULL, NULL, &s, NULL, 0),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_skin_find("m.md2", "", NULL, record, &s, NULL, 0),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_skin_find("m.md2", "models/x/", NULL, record, &s, NULL, 0),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_skin_find("m.md2", "models/..", NULL, record, &s, NULL, 0),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_skin_find("m.md2", ".", NULL, record, &s, NULL, 0),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(s.count, 0);
}

/* A file-system callback: the candidate exists. */
static int file_exists(void *user, const char *path)
{
    FILE *f = fopen(path, "rb");
    (void)user;
    if (!f)
        return 0;
    fclose(f);
    return 1;
}

static void test_skin_with_a_model(void **state)
{
    /* the tiny model names "models/tiny/skin.pcx"; a PNG beside the
     * model stands in for it */
    uint8_t file[TU_MAX_FILE];
    size_t size = tu_tiny(file);
    md2_model *m = NULL;
    char found[MD2_SKIN_PATH_MAX];
    FILE *f;
    (void)state;
    assert_int_equal(md2_parse(file, size, NULL, &m), MD2_OK);
    assert_string_equal(m->skins[0].name, "models/tiny/skin.pcx");
    remove("skin.png");
    assert_int_equal(md2_skin_find("tris.md2", m->skins[0].name, ".", file_exists, NULL,
                                   found, sizeof found),
                     MD2_ERR_NOT_FOUND);
    f = fopen("skin.png", "wb");
    assert_non_null(f);
    fclose(f);
    /* not in ./models/tiny/, but beside the model (the current
     * directory), as a PNG */
    assert_int_equal(md2_skin_find("tris.md2", m->skins[0].name, ".", file_exists, NULL,
                                   found, sizeof found),
                     MD2_OK);
    assert_string_equal(found, "skin.png");
    remove("skin.png");
    md2_free(m);
}

static void test_skin_ufoai_names(void **state)
{
    /* ".body": "this name, beside the model", never under a root */
    static const char *const want_body[] = {"base/models/soldiers/body",
                                            "base/models/soldiers/body.pcx",
                                            "base/models/soldiers/body.png",
                                            "base/models/soldiers/body.tga",
                                            "base/models/soldiers/body.jpg",
                                            "base/models/soldiers/body.bmp", NULL};
    static const char *const want_ext[] = {"s/head.tga", "s/head.pcx", "s/head.png",
                                           "s/head.jpg", "s/head.bmp", NULL};
    /* "./skin" is a relative path, not a UFO:AI name */
    static const char *const want_dot_slash[] = {"r/./skin", "r/./skin.pcx", "r/./skin.png",
                                                 "r/./skin.tga", "r/./skin.jpg",
                                                 "r/./skin.bmp", "s/skin", "s/skin.pcx",
                                                 "s/skin.png", "s/skin.tga", "s/skin.jpg",
                                                 "s/skin.bmp", NULL};
    (void)state;
    expect_order("base/models/soldiers/body.md2", ".body", NULL, want_body);
    expect_order("base/models/soldiers/body.md2", ".body", "base", want_body);
    expect_order("s/body.md2", ".head.tga", "r", want_ext);
    expect_order("s/body.md2", "./skin", "r", want_dot_slash);
}

static void test_skin_model_own_name(void **state)
{
    /* a model that names no skin: its own name with each extension,
     * never the model itself */
    static const char *const want[] = {"media/sydney.pcx", "media/sydney.png",
                                       "media/sydney.tga", "media/sydney.jpg",
                                       "media/sydney.bmp", NULL};
    static const char *const want_bare[] = {"m.pcx", "m.png", "m.tga", "m.jpg", "m.bmp",
                                            NULL};
    static const char *const want_win[] = {"C:\\media\\tris.pcx", "C:\\media\\tris.png",
                                           "C:\\media\\tris.tga", "C:\\media\\tris.jpg",
                                           "C:\\media\\tris.bmp", NULL};
    seen s;
    (void)state;
    expect_order("media/sydney.md2", NULL, NULL, want);
    expect_order("media/sydney.md2", NULL, "/q2", want);
    expect_order("m", NULL, NULL, want_bare);
    expect_order("C:\\media\\tris.md2", NULL, NULL, want_win);
    /* a model path without a file name */
    memset(&s, 0, sizeof s);
    assert_int_equal(md2_skin_find("media/", NULL, NULL, record, &s, NULL, 0),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_skin_find("", NULL, NULL, record, &s, NULL, 0),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(s.count, 0);
}

/* Finds the first skin of the model at path, or with no skin its own
 * name, as the md2 command does; returns the result, found in found. */
static md2_result find_model_skin(const char *path, size_t skin, char *found, size_t size)
{
    md2_model *m = NULL;
    md2_result r;
    assert_int_equal(md2_load_file(path, NULL, &m), MD2_OK);
    r = md2_skin_find(path, skin < m->num_skins ? m->skins[skin].name : NULL, NULL,
                      file_exists, NULL, found, size);
    md2_free(m);
    return r;
}

static void test_skin_ufoai_soldier_folder(void **state)
{
    /* a copy of a UFO:AI soldier's layout: body.md2 names its skins
     * ".body" and ".assault"; body.png and assault.png lie beside it */
    char dir[] = "skin_soldierXXXXXX", path[1100], want[1100], found[MD2_SKIN_PATH_MAX];
    static const uint8_t png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    uint8_t file[TU_MAX_FILE];
    tu_spec spec;
    size_t size;
    (void)state;
    if (!tu_mkdtemp(dir))
        skip();
    tu_spec_default(&spec);
    strcpy(spec.skins[0], ".body");
    strcpy(spec.skins[1], ".assault");
    size = tu_build(&spec, file);
    assert_true(tu_write_file(dir, "body.md2", file, size));
    snprintf(path, sizeof path, "%s/body.md2", dir);
    /* nothing beside it yet */
    assert_int_equal(find_model_skin(path, 0, found, sizeof found), MD2_ERR_NOT_FOUND);
    assert_true(tu_write_file(dir, "body.png", png_magic, sizeof png_magic));
    assert_true(tu_write_file(dir, "assault.png", png_magic, sizeof png_magic));
    assert_int_equal(find_model_skin(path, 0, found, sizeof found), MD2_OK);
    snprintf(want, sizeof want, "%s/body.png", dir);
    assert_string_equal(found, want);
    assert_int_equal(find_model_skin(path, 1, found, sizeof found), MD2_OK);
    snprintf(want, sizeof want, "%s/assault.png", dir);
    assert_string_equal(found, want);
    /* a PCX beside it comes first, as in the game */
    assert_true(tu_write_file(dir, "body.pcx", png_magic, sizeof png_magic));
    assert_int_equal(find_model_skin(path, 0, found, sizeof found), MD2_OK);
    snprintf(want, sizeof want, "%s/body.pcx", dir);
    assert_string_equal(found, want);
    remove(want);
    snprintf(want, sizeof want, "%s/body.png", dir);
    remove(want);
    snprintf(want, sizeof want, "%s/assault.png", dir);
    remove(want);
    remove(path);
    assert_int_equal(tu_rmdir(dir), 0);
}

static void test_skin_sydney_bmp(void **state)
{
    /* a copy of Irrlicht's media: sydney.md2 names no skin, sydney.bmp
     * lies beside it */
    char dir[] = "skin_sydneyXXXXXX", path[1100], want[1100], found[MD2_SKIN_PATH_MAX];
    size_t md2_size, bmp_size;
    uint8_t *md2 = tu_read_corpus("sydney.md2", &md2_size);
    uint8_t *bmp = tu_read_corpus("sydney.bmp", &bmp_size);
    (void)state;
    if (!md2 || !bmp || !tu_mkdtemp(dir)) {
        free(md2);
        free(bmp);
        skip();
        return; /* skip() does not return; said for cppcheck */
    }
    assert_true(tu_write_file(dir, "sydney.md2", md2, md2_size));
    snprintf(path, sizeof path, "%s/sydney.md2", dir);
    assert_int_equal(find_model_skin(path, 0, found, sizeof found), MD2_ERR_NOT_FOUND);
    assert_true(tu_write_file(dir, "sydney.bmp", bmp, bmp_size));
    assert_int_equal(find_model_skin(path, 0, found, sizeof found), MD2_OK);
    snprintf(want, sizeof want, "%s/sydney.bmp", dir);
    assert_string_equal(found, want);
    remove(want);
    remove(path);
    assert_int_equal(tu_rmdir(dir), 0);
    free(md2);
    free(bmp);
}

/* ------------------------------------------------------------------------ */
/* Command line                                                              */
/* ------------------------------------------------------------------------ */

/* Writes the hand-made files ImageMagick reads as we do to dir, and lists
 * them in dir/MANIFEST. */
static int write_handmade(const char *dir)
{
    char path[1024];
    FILE *manifest;
    size_t i;
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    manifest = fopen(path, "a");
    if (!manifest) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    for (i = 0; i < NUM_HM; i++) {
        const hm_case *c = &hm_cases[i];
        size_t size;
        uint8_t *file;
        FILE *f;
        if (!c->imagemagick)
            continue;
        file = hm_build(c, &size);
        snprintf(path, sizeof path, "%s/%s.pcx", dir, c->name);
        f = fopen(path, "wb");
        if (!f || fwrite(file, 1, size, f) != size || fclose(f) != 0) {
            fprintf(stderr, "cannot write %s\n", path);
            free(file);
            fclose(manifest);
            return 1;
        }
        free(file);
        fprintf(manifest, "%s %u %u %u\n", c->name, c->planes, c->width, c->height);
    }
    return fclose(manifest) != 0;
}

/* The images ImageMagick makes PCX files of: odd widths (so that its
 * 8-bit lines and our padding differ), a single pixel, a wide strip. */
static const unsigned source_sizes[][2] = {{1, 1}, {3, 5}, {17, 9}, {64, 64}, {256, 3}};

/* Pixel (x, y) of a source image: flat rows (long runs, values >= 0xC0),
 * gradients, and noise. */
static void source_pixel(unsigned w, unsigned x, unsigned y, uint32_t *seed, unsigned rgb[3])
{
    int k;
    if (y % 4 == 0 && w > 2) {
        rgb[0] = 200;
        rgb[1] = x >= w / 2 ? 140 : 40;
        rgb[2] = 230;
    } else if (y % 4 == 1) {
        rgb[0] = w > 1 ? x * 255 / (w - 1) : 128;
        rgb[1] = (y * 37) % 256;
        rgb[2] = 255 - rgb[0];
    } else {
        for (k = 0; k < 3; k++) {
            *seed = *seed * 1664525u + 1013904223u;
            rgb[k] = (unsigned)(*seed >> 24);
        }
    }
}

/* Writes the source images as DIR/WxH.ppm (plain PPM) and lists them in
 * DIR/SOURCES ("name width height" a line). */
static int write_sources(const char *dir)
{
    char path[1024];
    FILE *list;
    size_t i;
    snprintf(path, sizeof path, "%s/SOURCES", dir);
    list = fopen(path, "w");
    if (!list) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    for (i = 0; i < sizeof source_sizes / sizeof source_sizes[0]; i++) {
        unsigned w = source_sizes[i][0], h = source_sizes[i][1], x, y, rgb[3];
        uint32_t seed = 4242u + (uint32_t)i;
        FILE *f;
        snprintf(path, sizeof path, "%s/%ux%u.ppm", dir, w, h);
        f = fopen(path, "w");
        if (!f) {
            fprintf(stderr, "cannot write %s\n", path);
            fclose(list);
            return 1;
        }
        fprintf(f, "P3\n%u %u\n255\n", w, h);
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
                source_pixel(w, x, y, &seed, rgb);
                fprintf(f, "%u %u %u\n", rgb[0], rgb[1], rgb[2]);
            }
        if (fclose(f) != 0)
            return 1;
        fprintf(list, "%ux%u %u %u\n", w, h, w, h);
    }
    return fclose(list) != 0;
}

int main(int argc, char **argv)
{
    const struct CMUnitTest compare[] = {
        cmocka_unit_test_prestate(test_imagemagick_fixtures, argc == 3 ? argv[2] : NULL),
    };
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_imagemagick_fixtures),
        cmocka_unit_test(test_handmade_quirks),
        cmocka_unit_test(test_sizes_paddings_encodings),
        cmocka_unit_test(test_runs_cross_scanlines_and_planes),
        cmocka_unit_test(test_last_run_past_the_image),
        cmocka_unit_test(test_trailing_bytes),
        cmocka_unit_test(test_quake2_skin_size),
        cmocka_unit_test(test_invalid_arguments),
        cmocka_unit_test(test_default_allocator),
        cmocka_unit_test(test_header_fields_lie),
        cmocka_unit_test(test_truncated_at_every_offset),
        cmocka_unit_test(test_pixels_cut_before_the_palette),
        cmocka_unit_test(test_palette_missing),
        cmocka_unit_test(test_rle_overruns),
        cmocka_unit_test(test_huge_window_tiny_data),
        cmocka_unit_test(test_allocation_fails),
        cmocka_unit_test(test_max_file_size),
        cmocka_unit_test(test_random_mutants),
        cmocka_unit_test(test_skin_order_inferred_root),
        cmocka_unit_test(test_skin_order_given_root),
        cmocka_unit_test(test_skin_no_root),
        cmocka_unit_test(test_skin_backslashes),
        cmocka_unit_test(test_skin_names_leaving_the_root),
        cmocka_unit_test(test_skin_extensions),
        cmocka_unit_test(test_skin_accept),
        cmocka_unit_test(test_skin_too_long),
        cmocka_unit_test(test_skin_invalid_arguments),
        cmocka_unit_test(test_skin_with_a_model),
        cmocka_unit_test(test_skin_ufoai_names),
        cmocka_unit_test(test_skin_model_own_name),
        cmocka_unit_test(test_skin_ufoai_soldier_folder),
        cmocka_unit_test(test_skin_sydney_bmp),
    };
    if (argc == 3 && strcmp(argv[1], "--compare") == 0)
        return cmocka_run_group_tests_name("imagemagick", compare, NULL, NULL);
    if (argc == 3 && strcmp(argv[1], "--write-handmade") == 0)
        return write_handmade(argv[2]);
    if (argc == 3 && strcmp(argv[1], "--write-sources") == 0)
        return write_sources(argv[2]);
    if (argc != 1) {
        fprintf(stderr,
                "usage: test_skin [--compare DIR | --write-handmade DIR | --write-sources DIR]\n");
        return 2;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
