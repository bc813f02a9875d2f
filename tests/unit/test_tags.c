/*
 * Tests of <md2/tags.h>: UFO:AI tag files built byte by byte (every header
 * field lied about in turn, truncation at every offset, offsets that
 * disagree, quirks lenient and strict, bit flips), the writer's byte for
 * byte round trip, lookup, tag matrices (exact at keyframes, orthonormal
 * between, degenerate blends), attachment through a player during
 * playback and cross-fades, md2_attach(), linked models whose frame counts
 * differ, and models loaded with their side files in one call, from a
 * folder and through a reader callback, with every allocation failing in
 * turn.
 *
 * SPDX-License-Identifier: MIT
 */
#if defined(__unix__) || defined(__APPLE__)
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#define TT_POSIX 1
#include <sys/stat.h>
#include <unistd.h>
#define tt_mkdtemp mkdtemp
#define tt_mkdir(path) mkdir(path, 0700)
#elif defined(_WIN32)
/* the C runtime's own: _mktemp fills in the XXXXXX, _mkdir makes it */
#define TT_POSIX 1
#include <direct.h>
#include <io.h>
#include <stddef.h>
static char *tt_mkdtemp(char *name)
{
    return _mktemp(name) && _mkdir(name) == 0 ? name : NULL;
}
#define tt_mkdir _mkdir
#define rmdir _rmdir
#else
#define TT_POSIX 0
#endif

#include <md2/tags.h>

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"

/* ------------------------------------------------------------------------ */
/* Tag files built byte by byte (not through the library's writer)          */
/* ------------------------------------------------------------------------ */

#define TT_MAX_FILE 16384
#define TT_T 3 /* tags of the standard file */
#define TT_F 5 /* frames of the standard file */

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
    p[2] = (uint8_t)((v >> 16) & 0xFFu);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static void putf(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    put32(p, u);
}

static float getf(const uint8_t *p)
{
    uint32_t u = get32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void set_field(uint8_t *file, int field, int32_t v)
{
    put32(file + 4 * field, (uint32_t)v);
}

static int32_t get_field(const uint8_t *file, int field)
{
    uint32_t u = get32(file + 4 * field);
    return u <= 0x7FFFFFFFu ? (int32_t)u : (int32_t)(u - 0x80000000u) - INT32_MAX - 1;
}

enum { F_IDENT, F_VERSION, F_NUM_TAGS, F_NUM_FRAMES, F_OFS_NAMES, F_OFS_TAGS, F_OFS_END,
       F_OFS_EXTRACTEND };

static const char *const field_names[8] = {"ident", "version", "num_tags", "num_frames",
                                           "ofs_names", "ofs_tags", "ofs_end",
                                           "ofs_extractend"};

/* Value j of tag k in frame f: a rotation about Z by 0.3 k + 0.25 f with
 * axes that are deliberately not orthonormal (forward 1 % long and tilted,
 * right skewed towards forward, up short and tilted), and an origin. */
static float tt_value(size_t k, size_t f, int j)
{
    double a = 0.3 * (double)k + 0.25 * (double)f, c = cos(a), s = sin(a);
    double v[12];
    v[0] = 1.01 * c;
    v[1] = 1.01 * s;
    v[2] = 0.02;
    v[3] = -s + 0.03 * c;
    v[4] = c + 0.03 * s;
    v[5] = 0.0;
    v[6] = 0.01;
    v[7] = -0.02;
    v[8] = 0.98;
    v[9] = 10.0 * (double)k + (double)f + 0.125;
    v[10] = -2.0 * (double)f - 0.5;
    v[11] = 3.0 * (double)k + 0.5;
    return (float)v[j];
}

/* Writes a canonical tag file of T tags and F frames into out (names
 * "tag_rweapon", "tag_lweapon", "tag_head" with bytes after its NUL,
 * then "tagN"); values from tt_value() unless values is given (T * F * 12
 * floats). Returns the size. */
static size_t tt_build_values(uint8_t *out, size_t T, size_t F, const float *values)
{
    size_t size = 32 + 64 * T + 48 * T * F, k, f;
    int j;
    assert_true(size <= TT_MAX_FILE);
    memset(out, 0, size);
    set_field(out, F_IDENT, MD2_TAG_IDENT);
    set_field(out, F_VERSION, 1);
    set_field(out, F_NUM_TAGS, (int32_t)T);
    set_field(out, F_NUM_FRAMES, (int32_t)F);
    set_field(out, F_OFS_NAMES, 32);
    set_field(out, F_OFS_TAGS, (int32_t)(32 + 64 * T));
    set_field(out, F_OFS_END, (int32_t)size);
    set_field(out, F_OFS_EXTRACTEND, (int32_t)(32 + 64 * T + 64 * T * F));
    for (k = 0; k < T; k++) {
        char *name = (char *)out + 32 + 64 * k;
        if (k == 0)
            strcpy(name, "tag_rweapon");
        else if (k == 1)
            strcpy(name, "tag_lweapon");
        else if (k == 2)
            memcpy(name, "tag_head\0JUNK after the NUL", 27);
        else
            sprintf(name, "tag%u", (unsigned)k);
    }
    for (k = 0; k < T; k++)
        for (f = 0; f < F; f++)
            for (j = 0; j < 12; j++) {
                size_t i = (k * F + f) * 12 + (size_t)j;
                putf(out + 32 + 64 * T + 4 * i, values ? values[i] : tt_value(k, f, j));
            }
    return size;
}

static size_t tt_build(uint8_t *out, size_t T, size_t F)
{
    return tt_build_values(out, T, F, NULL);
}

/* Options with a diagnostic and a counting allocator. */
static void opts_init(md2_options *o, md2_diagnostic *d, tu_alloc *a, uint32_t strict)
{
    memset(o, 0, sizeof *o);
    o->error = d;
    o->strict = strict;
    if (a)
        tu_alloc_init(a, &o->allocator);
}

/* Warnings collected by on_warning. */
typedef struct seen {
    int count;
    md2_diagnostic last;
    md2_diagnostic first;
} seen;

static void collect(void *user, const md2_diagnostic *d)
{
    seen *s = (seen *)user;
    if (s->count == 0)
        s->first = *d;
    s->last = *d;
    s->count++;
}

/* Parses data (a copy of exactly size bytes, so ASan sees reads past it)
 * and checks the result, the diagnostic's section, field and offset, and
 * that a refused file allocated nothing. */
static void expect_fail(const uint8_t *data, size_t size, uint32_t strict,
                        md2_result want, const char *field, size_t offset)
{
    uint8_t *copy = (uint8_t *)malloc(size ? size : 1);
    md2_options o;
    md2_diagnostic d;
    tu_alloc a;
    md2_tags *t = (md2_tags *)(uintptr_t)1;
    md2_result r;

    assert_non_null(copy);
    if (size)
        memcpy(copy, data, size);
    opts_init(&o, &d, &a, strict);
    r = md2_tags_parse(copy, size, &o, &t);
    if (r != want || strcmp(d.field, field) != 0 || d.offset != offset)
        print_message("got %s field '%s' offset %lu (%s), want %s field '%s' offset %lu\n",
                      md2_result_string(r), d.field, (unsigned long)d.offset, d.message,
                      md2_result_string(want), field, (unsigned long)offset);
    assert_int_equal(r, want);
    assert_null(t);
    assert_int_equal(d.result, want);
    assert_int_equal(d.section, MD2_SECTION_TAGS);
    assert_string_equal(d.field, field);
    assert_int_equal(d.offset, offset);
    assert_true(d.message[0] != '\0');
    assert_true(strstr(d.message, "tag file") != NULL);
    assert_int_equal(a.calls, 0);
    assert_int_equal(a.live, 0);
    free(copy);
}

/* Parses data and returns the tags (fails the test on error). */
static md2_tags *parse_ok(const uint8_t *data, size_t size, uint32_t strict)
{
    md2_options o;
    md2_diagnostic d;
    md2_tags *t = NULL;
    md2_result r;
    opts_init(&o, &d, NULL, strict);
    r = md2_tags_parse(data, size, &o, &t);
    if (r != MD2_OK)
        print_message("%s\n", d.message);
    assert_int_equal(r, MD2_OK);
    assert_non_null(t);
    assert_int_equal(d.result, MD2_OK);
    return t;
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */
/* ------------------------------------------------------------------------ */

static void test_parse_honest(void **state)
{
    uint8_t file[TT_MAX_FILE];
    size_t size = tt_build(file, TT_T, TT_F), k, i;
    md2_options o;
    md2_diagnostic d;
    tu_alloc a;
    md2_tags *t = NULL;
    int pass;
    (void)state;

    for (pass = 0; pass < 2; pass++) {
        opts_init(&o, &d, &a, pass ? MD2_STRICT_ALL : 0);
        assert_int_equal(md2_tags_parse(file, size, &o, &t), MD2_OK);
        assert_int_equal(a.calls, 1); /* one allocation */
        assert_int_equal(t->num_tags, TT_T);
        assert_int_equal(t->num_frames, TT_F);
        assert_int_equal(t->warnings, 0);
        assert_int_equal(t->header.ident, MD2_TAG_IDENT);
        assert_int_equal(t->header.version, 1);
        assert_int_equal(t->header.ofs_names, 32);
        assert_int_equal(t->header.ofs_tags, 32 + 64 * TT_T);
        assert_int_equal(t->header.ofs_end, (int32_t)size);
        assert_int_equal(t->header.ofs_extractend, 32 + 64 * TT_T + 64 * TT_T * TT_F);
        assert_string_equal(t->names[0].name, "tag_rweapon");
        assert_string_equal(t->names[1].name, "tag_lweapon");
        assert_string_equal(t->names[2].name, "tag_head");
        assert_memory_equal(t->names[2].name + 9, "JUNK", 4); /* bytes after the NUL kept */
        for (k = 0; k < TT_T; k++)
            assert_int_equal(t->names[k].name[64], '\0');
        for (i = 0; i < TT_T * TT_F * 12; i++) {
            float want = getf(file + 32 + 64 * TT_T + 4 * i);
            assert_memory_equal(&t->frames[i], &want, sizeof want);
        }
        /* the documented memory bound */
        assert_true(md2_tags_memory(t) <= size + t->num_tags + 128);
        assert_int_equal(md2_tags_memory(t), a.largest);
        md2_tags_free(t);
        assert_int_equal(a.live, 0);
    }
    assert_int_equal(md2_tags_memory(NULL), 0);
    md2_tags_free(NULL);
}

static void test_parse_arguments(void **state)
{
    uint8_t file[TT_MAX_FILE];
    size_t size = tt_build(file, 1, 1);
    md2_options o;
    md2_diagnostic d;
    md2_tags *t = (md2_tags *)(uintptr_t)1;
    (void)state;

    opts_init(&o, &d, NULL, 0);
    assert_int_equal(md2_tags_parse(NULL, size, &o, &t), MD2_ERR_INVALID_ARGUMENT);
    assert_null(t);
    assert_string_equal(d.field, "data");
    assert_int_equal(md2_tags_parse(file, size, &o, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "out");
    /* NULL options: defaults */
    assert_int_equal(md2_tags_parse(file, size, NULL, &t), MD2_OK);
    md2_tags_free(t);
    /* a success clears the diagnostic */
    assert_int_equal(md2_tags_parse(file, size, &o, &t), MD2_OK);
    assert_int_equal(d.result, MD2_OK);
    assert_string_equal(d.message, "");
    md2_tags_free(t);
}

/* Every header field set to each of many lies: each gives its specific
 * error, at its own byte, in lenient and strict mode, before allocating. */
static void test_header_lies(void **state)
{
    static const int32_t lies[] = {0, -1, 1, 2, 3, 4, 31, 32, 33, 64, 96, 255, 256, 65536,
                                   0x7FFF, 0xFFFF, INT32_MAX, INT32_MAX - 47, INT32_MIN,
                                   INT32_MIN + 1, 844121161 /* IDP2 */};
    uint8_t orig[TT_MAX_FILE], file[TT_MAX_FILE];
    size_t size = tt_build(orig, TT_T, TT_F), v;
    int field, pass;
    (void)state;

    for (field = 0; field < 8; field++) {
        int32_t extra[4];
        extra[0] = get_field(orig, field) + 1;
        extra[1] = get_field(orig, field) - 1;
        extra[2] = (int32_t)size;
        extra[3] = (int32_t)size + 1;
        for (v = 0; v < sizeof lies / sizeof lies[0] + 4; v++) {
            int32_t value = v < sizeof lies / sizeof lies[0]
                                ? lies[v]
                                : extra[v - sizeof lies / sizeof lies[0]];
            md2_result want;
            const char *want_field;
            if (value == get_field(orig, field))
                continue;
            memcpy(file, orig, size);
            set_field(file, field, value);
            switch (field) {
            case F_IDENT: want = MD2_ERR_BAD_MAGIC; want_field = "ident"; break;
            case F_VERSION: want = MD2_ERR_BAD_VERSION; want_field = "version"; break;
            case F_NUM_TAGS:
                /* a new count no longer agrees with ofs_tags */
                want = value <= 0 ? MD2_ERR_BAD_COUNT : MD2_ERR_BAD_OFFSET;
                want_field = value <= 0 ? "num_tags" : "ofs_tags";
                break;
            case F_NUM_FRAMES:
                want = value < 0 ? MD2_ERR_BAD_COUNT
                       : value == 0 ? MD2_ERR_NO_FRAMES : MD2_ERR_BAD_OFFSET;
                want_field = value <= 0 ? "num_frames" : "ofs_end";
                break;
            default: want = MD2_ERR_BAD_OFFSET; want_field = field_names[field]; break;
            }
            for (pass = 0; pass < 2; pass++)
                expect_fail(file, size, pass ? MD2_STRICT_ALL : 0, want, want_field,
                            (strcmp(want_field, field_names[field]) == 0 ? 4u * (size_t)field
                             : strcmp(want_field, "ofs_tags") == 0 ? 20u : 24u));
        }
    }
}

/* Counts and offsets that agree with each other but not with the data, or
 * that no file can hold. */
static void test_consistent_lies(void **state)
{
    uint8_t file[TT_MAX_FILE];
    size_t size = tt_build(file, TT_T, TT_F);
    md2_diagnostic d;
    md2_options o;
    (void)state;

    /* more tags than the data holds: the names run past the end */
    set_field(file, F_NUM_TAGS, 1000);
    set_field(file, F_OFS_TAGS, 32 + 64 * 1000);
    set_field(file, F_OFS_END, 32 + 64 * 1000 + 48 * 1000 * TT_F);
    set_field(file, F_OFS_EXTRACTEND, 32 + 64 * 1000 + 64 * 1000 * TT_F);
    expect_fail(file, size, 0, MD2_ERR_SECTION_OUT_OF_BOUNDS, "ofs_names", 32);

    /* more frames: the tag frames run past the end */
    size = tt_build(file, TT_T, TT_F);
    set_field(file, F_NUM_FRAMES, 1000);
    set_field(file, F_OFS_END, 32 + 64 * TT_T + 48 * TT_T * 1000);
    set_field(file, F_OFS_EXTRACTEND, 32 + 64 * TT_T + 64 * TT_T * 1000);
    expect_fail(file, size, 0, MD2_ERR_SECTION_OUT_OF_BOUNDS, "ofs_tags", 32 + 64 * TT_T);
    opts_init(&o, &d, NULL, 0);
    {
        md2_tags *t;
        assert_int_equal(md2_tags_parse(file, size, &o, &t), MD2_ERR_SECTION_OUT_OF_BOUNDS);
        assert_non_null(strstr(d.message, "past the end of the data"));
    }

    /* counts whose frames end past 2^31 - 1: no offset can agree */
    size = tt_build(file, 1, 1);
    set_field(file, F_NUM_FRAMES, INT32_MAX);
    set_field(file, F_OFS_END, INT32_MAX);
    expect_fail(file, size, 0, MD2_ERR_BAD_OFFSET, "ofs_end", 24);
    /* ofs_end fits, but its 4x4 matrices (ofs_extractend) do not */
    size = tt_build(file, 1, 1);
    set_field(file, F_NUM_FRAMES, 40000000);
    set_field(file, F_OFS_END, 32 + 64 + 48 * 40000000);
    set_field(file, F_OFS_EXTRACTEND, 0);
    expect_fail(file, size, 0, MD2_ERR_BAD_OFFSET, "ofs_extractend", 28);
    set_field(file, F_OFS_EXTRACTEND, INT32_MAX);
    expect_fail(file, size, 0, MD2_ERR_BAD_OFFSET, "ofs_extractend", 28);

    /* the message docs/animation.md shows */
    size = tt_build(file, TT_T, TT_F);
    set_field(file, F_OFS_END, 900);
    opts_init(&o, &d, NULL, 0);
    {
        md2_tags *t;
        assert_int_equal(md2_tags_parse(file, size, &o, &t), MD2_ERR_BAD_OFFSET);
        assert_string_equal(d.message, "tag file: ofs_end (byte 24) is 900, but ofs_tags + 48 * "
                                       "num_tags * num_frames = 944");
    }

    /* a limit on frames applies to tag files */
    size = tt_build(file, TT_T, TT_F);
    opts_init(&o, &d, NULL, 0);
    o.limits.max_frames = TT_F - 1;
    {
        md2_tags *t;
        assert_int_equal(md2_tags_parse(file, size, &o, &t), MD2_ERR_LIMIT_EXCEEDED);
        assert_string_equal(d.field, "num_frames");
        assert_int_equal(d.offset, 12);
        o.limits.max_frames = TT_F;
        assert_int_equal(md2_tags_parse(file, size, &o, &t), MD2_OK);
        md2_tags_free(t);
        o.limits.max_file_size = size - 1;
        assert_int_equal(md2_tags_parse(file, size, &o, &t), MD2_ERR_LIMIT_EXCEEDED);
        assert_string_equal(d.field, "max_file_size");
        o.limits.max_file_size = size;
        assert_int_equal(md2_tags_parse(file, size, &o, &t), MD2_OK);
        md2_tags_free(t);
    }
}

/* Every prefix of a file: the header, then the names, then the tags are
 * found cut, each with its error, and nothing is allocated. */
static void test_truncated_at_every_offset(void **state)
{
    uint8_t file[TT_MAX_FILE];
    size_t size = tt_build(file, TT_T, TT_F), n;
    size_t ofs_tags = 32 + 64 * TT_T;
    int pass;
    (void)state;

    for (n = 0; n < size; n++) {
        for (pass = 0; pass < 2; pass++) {
            uint32_t strict = pass ? MD2_STRICT_ALL : 0;
            if (n < 32)
                expect_fail(file, n, strict, MD2_ERR_TRUNCATED_HEADER, "header", n);
            else if (n < ofs_tags)
                expect_fail(file, n, strict, MD2_ERR_SECTION_OUT_OF_BOUNDS, "ofs_names", 32);
            else
                expect_fail(file, n, strict, MD2_ERR_SECTION_OUT_OF_BOUNDS, "ofs_tags",
                            ofs_tags);
        }
    }
}

/* Bytes after ofs_end: ignored with a warning, or refused when strict. */
static void test_trailing_bytes(void **state)
{
    uint8_t file[TT_MAX_FILE], out[TT_MAX_FILE];
    size_t size = tt_build(file, TT_T, TT_F), written = 0;
    md2_options o;
    md2_diagnostic d;
    seen s;
    md2_tags *t;
    (void)state;

    memset(file + size, 0xAB, 100);
    memset(&s, 0, sizeof s);
    opts_init(&o, &d, NULL, 0);
    o.on_warning = collect;
    o.warning_user = &s;
    assert_int_equal(md2_tags_parse(file, size + 100, &o, &t), MD2_OK);
    assert_int_equal(t->warnings, MD2_WARN_OFS_END);
    assert_int_equal(s.count, 1);
    assert_int_equal(s.last.warning, MD2_WARN_OFS_END);
    assert_int_equal(s.last.result, MD2_OK);
    assert_int_equal(s.last.section, MD2_SECTION_TAGS);
    assert_string_equal(s.last.field, "ofs_end");
    assert_int_equal(s.last.offset, 24);
    /* the writer leaves them out: the file itself again */
    assert_int_equal(md2_tags_write(t, out, sizeof out, &written, NULL), MD2_OK);
    assert_int_equal(written, size);
    assert_memory_equal(out, file, size);
    md2_tags_free(t);

    expect_fail(file, size + 1, MD2_WARN_OFS_END, MD2_ERR_BAD_OFS_END, "ofs_end", 24);
    expect_fail(file, size + 100, MD2_STRICT_ALL, MD2_ERR_BAD_OFS_END, "ofs_end", 24);
}

static void test_unterminated_name(void **state)
{
    uint8_t file[TT_MAX_FILE], out[TT_MAX_FILE];
    size_t size = tt_build(file, TT_T, TT_F), written;
    char want[65];
    md2_options o;
    md2_diagnostic d;
    seen s;
    md2_tags *t;
    (void)state;

    memset(file + 32 + 64, 'x', 64); /* tag 1 */
    memset(want, 'x', 64);
    want[64] = '\0';
    memset(&s, 0, sizeof s);
    opts_init(&o, &d, NULL, 0);
    o.on_warning = collect;
    o.warning_user = &s;
    assert_int_equal(md2_tags_parse(file, size, &o, &t), MD2_OK);
    assert_int_equal(t->warnings, MD2_WARN_UNTERMINATED_NAME);
    assert_int_equal(s.count, 1);
    assert_string_equal(s.last.field, "name");
    assert_int_equal(s.last.offset, 32 + 64);
    assert_int_equal(s.last.index, 1);
    assert_string_equal(t->names[1].name, want);
    assert_int_equal(md2_tags_find(t, want), 1);
    assert_int_equal(md2_tags_write(t, out, sizeof out, &written, NULL), MD2_OK);
    assert_int_equal(written, size);
    assert_memory_equal(out, file, size); /* all 64 bytes written back */
    md2_tags_free(t);
    expect_fail(file, size, MD2_STRICT_ALL, MD2_ERR_UNTERMINATED_NAME, "name", 32 + 64);
}

/* A NaN, an infinity or a value beyond 1e30 at any float of a tag frame:
 * set to 0 with one warning per tag frame, or refused when strict. */
static void test_bad_values(void **state)
{
    static const char *const vectors[4] = {"forward", "right", "up", "origin"};
    uint8_t orig[TT_MAX_FILE], file[TT_MAX_FILE];
    size_t size = tt_build(orig, TT_T, TT_F), ofs_tags = 32 + 64 * TT_T, r, i;
    float bad[6];
    int j, b;
    (void)state;

    bad[0] = (float)NAN;
    bad[1] = (float)INFINITY;
    bad[2] = -(float)INFINITY;
    bad[3] = 1.5e30f;
    bad[4] = -FLT_MAX;
    bad[5] = 1e30f; /* just above 1e30 as a float */
    for (r = 0; r < TT_T * TT_F; r += 4) {
        for (j = 0; j < 12; j++) {
            for (b = 0; b < 6; b++) {
                size_t at = ofs_tags + 48 * r + 4 * (size_t)j;
                md2_options o;
                md2_diagnostic d;
                seen s;
                md2_tags *t;
                memcpy(file, orig, size);
                putf(file + at, bad[b]);
                if (j != 11)
                    putf(file + at + 4, bad[b]); /* a second one: still one warning */
                memset(&s, 0, sizeof s);
                opts_init(&o, &d, NULL, 0);
                o.on_warning = collect;
                o.warning_user = &s;
                assert_int_equal(md2_tags_parse(file, size, &o, &t), MD2_OK);
                assert_int_equal(t->warnings, MD2_WARN_FRAME_TRANSFORM);
                assert_int_equal(s.count, 1);
                assert_int_equal(s.last.warning, MD2_WARN_FRAME_TRANSFORM);
                assert_string_equal(s.last.field, vectors[j / 3]);
                assert_int_equal(s.last.offset, at);
                assert_int_equal(s.last.index, r);
                for (i = 0; i < TT_T * TT_F * 12; i++) {
                    float want = getf(file + ofs_tags + 4 * i);
                    if (!isfinite(want) || fabs((double)want) > 1e30)
                        want = 0.0f;
                    assert_memory_equal(&t->frames[i], &want, sizeof want);
                }
                md2_tags_free(t);
                expect_fail(file, size, MD2_WARN_FRAME_TRANSFORM, MD2_ERR_BAD_FRAME_TRANSFORM,
                            vectors[j / 3], at);
            }
        }
    }
    /* just inside the bound, and the extremes of the ordinary: accepted */
    memcpy(file, orig, size);
    putf(file + ofs_tags, 9.9e29f);
    putf(file + ofs_tags + 4, -9.9e29f);
    putf(file + ofs_tags + 8, FLT_MIN / 4.0f); /* a denormal */
    {
        md2_tags *t = parse_ok(file, size, MD2_STRICT_ALL);
        /* a float object: a constant may be evaluated in double (s390x) */
        volatile float want = 9.9e29f;
        assert_true(t->frames[0] == want);
        md2_tags_free(t);
    }
}

/* Every bit of a small file flipped in turn: a specific error or a file
 * that loads, round-trips and interpolates; never a crash or a leak. */
static void test_bit_flips(void **state)
{
    uint8_t orig[TT_MAX_FILE], file[TT_MAX_FILE], out[TT_MAX_FILE];
    size_t size = tt_build(orig, 2, 2), bit;
    const uint32_t allowed = (1u << MD2_OK) | (1u << MD2_ERR_BAD_MAGIC) |
                             (1u << MD2_ERR_BAD_VERSION) | (1u << MD2_ERR_BAD_COUNT) |
                             (1u << MD2_ERR_NO_FRAMES) | (1u << MD2_ERR_BAD_OFFSET) |
                             (1u << MD2_ERR_SECTION_OUT_OF_BOUNDS) |
                             (1u << MD2_ERR_UNTERMINATED_NAME) |
                             (1u << MD2_ERR_BAD_FRAME_TRANSFORM);
    (void)state;

    for (bit = 0; bit < size * 8; bit++) {
        int pass;
        memcpy(file, orig, size);
        file[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        for (pass = 0; pass < 2; pass++) {
            md2_options o;
            md2_diagnostic d;
            tu_alloc a;
            md2_tags *t = NULL, *again = NULL;
            md2_result r;
            opts_init(&o, &d, &a, pass ? MD2_STRICT_ALL : 0);
            r = md2_tags_parse(file, size, &o, &t);
            assert_true((allowed >> r) & 1u);
            if (r == MD2_OK) {
                size_t written = 0, k;
                float m[16];
                assert_int_equal(md2_tags_write(t, out, sizeof out, &written, NULL), MD2_OK);
                assert_int_equal(written, size);
                assert_int_equal(md2_tags_parse(out, written, NULL, &again), MD2_OK);
                assert_int_equal(again->warnings & ~(uint32_t)MD2_WARN_UNTERMINATED_NAME, 0);
                assert_memory_equal(again->frames, t->frames, t->num_tags * t->num_frames * 48);
                if (t->warnings == 0)
                    assert_memory_equal(out, file, size); /* byte for byte */
                md2_tags_free(again);
                for (k = 0; k < 16; k++) {
                    assert_int_equal(md2_tag_lerp(t, k % t->num_tags, (uint32_t)(k % 2), 1u,
                                                  (float)k / 15.0f, m), MD2_OK);
                }
                md2_tags_free(t);
            } else {
                assert_null(t);
                assert_int_equal(a.calls, 0);
            }
            assert_int_equal(a.live, 0);
        }
    }
}

static void test_allocation_failure(void **state)
{
    uint8_t file[TT_MAX_FILE];
    size_t size = tt_build(file, TT_T, TT_F);
    md2_options o;
    md2_diagnostic d;
    tu_alloc a;
    md2_tags *t = (md2_tags *)(uintptr_t)1;
    (void)state;

    opts_init(&o, &d, &a, 0);
    a.fail_at = 1;
    assert_int_equal(md2_tags_parse(file, size, &o, &t), MD2_ERR_OUT_OF_MEMORY);
    assert_null(t);
    assert_int_equal(d.result, MD2_ERR_OUT_OF_MEMORY);
    assert_int_equal(d.section, MD2_SECTION_TAGS);
    assert_int_equal(a.live, 0);
}

/* ------------------------------------------------------------------------ */
/* Writing and lookup                                                        */
/* ------------------------------------------------------------------------ */

static void test_round_trip(void **state)
{
    static const size_t shapes[][2] = {{1, 1}, {TT_T, TT_F}, {7, 2}, {2, 30}, {1, 60}};
    uint8_t file[TT_MAX_FILE], out[TT_MAX_FILE];
    size_t s;
    (void)state;

    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t size = tt_build(file, shapes[s][0], shapes[s][1]), written = 0;
        md2_tags *t = parse_ok(file, size, MD2_STRICT_ALL);
        md2_diagnostic d;
        assert_int_equal(md2_tags_write_size(t), size);
        memset(out, 0x5A, sizeof out);
        assert_int_equal(md2_tags_write(t, out, size, &written, &d), MD2_OK);
        assert_int_equal(written, size);
        assert_memory_equal(out, file, size);
        assert_int_equal(d.result, MD2_OK);
        /* a buffer one byte short: nothing written */
        memset(out, 0x5A, sizeof out);
        written = 7;
        assert_int_equal(md2_tags_write(t, out, size - 1, &written, &d),
                         MD2_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(d.result, MD2_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(written, 0);
        assert_int_equal(out[0], 0x5A);
        assert_int_equal(md2_tags_write(t, out, size, NULL, NULL), MD2_OK);
        assert_int_equal(md2_tags_write(t, NULL, size, NULL, &d), MD2_ERR_INVALID_ARGUMENT);
        md2_tags_free(t);
    }
    assert_int_equal(md2_tags_write(NULL, out, sizeof out, NULL, NULL),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_tags_write_size(NULL), 0);
}

/* Tags filled in by hand: written, and each broken rule named. */
static void test_write_hand_made(void **state)
{
    md2_tag_name names[2];
    float values[2 * 3 * 12];
    md2_tags t;
    md2_diagnostic d;
    uint8_t out[TT_MAX_FILE];
    md2_tags *back;
    size_t written, i;
    (void)state;

    memset(names, 0, sizeof names);
    strcpy(names[0].name, "tag_a");
    strcpy(names[1].name, "tag_b");
    for (i = 0; i < sizeof values / sizeof values[0]; i++)
        values[i] = (float)i * 0.5f - 3.0f;
    memset(&t, 0, sizeof t);
    t.num_tags = 2;
    t.num_frames = 3;
    t.names = names;
    t.frames = values;
    assert_int_equal(md2_tags_write_size(&t), 32 + 128 + 2 * 3 * 48);
    assert_int_equal(md2_tags_write(&t, out, sizeof out, &written, &d), MD2_OK);
    back = parse_ok(out, written, MD2_STRICT_ALL);
    assert_int_equal(back->num_tags, 2);
    assert_int_equal(back->num_frames, 3);
    assert_memory_equal(back->frames, values, sizeof values);
    assert_string_equal(back->names[1].name, "tag_b");
    md2_tags_free(back);

#define BROKEN(field_name)                                                       \
    do {                                                                         \
        assert_int_equal(md2_tags_write(&t, out, sizeof out, &written, &d),      \
                         MD2_ERR_INVALID_MODEL);                                 \
        assert_string_equal(d.field, field_name);                                \
        assert_int_equal(d.section, MD2_SECTION_TAGS);                           \
        assert_int_equal(md2_tags_write_size(&t), 0);                            \
    } while (0)
    t.num_tags = 0;
    BROKEN("num_tags");
    t.num_tags = 2;
    t.num_frames = 0;
    BROKEN("num_frames");
    t.num_frames = (size_t)1 << 30;
    BROKEN("num_frames");
    t.num_frames = 3;
    t.names = NULL;
    BROKEN("names");
    t.names = names;
    t.frames = NULL;
    BROKEN("frames");
    t.frames = values;
    values[40] = (float)NAN;
    BROKEN("frames");
    assert_int_equal(d.index, 3); /* tag 1, frame 0 */
    /* cppcheck-suppress redundantAssignment ; BROKEN() has read it */
    values[40] = 2e30f;
    BROKEN("frames");
#undef BROKEN
}

static void test_find(void **state)
{
    uint8_t file[TT_MAX_FILE];
    size_t size = tt_build(file, TT_T + 1, 1);
    md2_tags *t;
    (void)state;

    memcpy(file + 32 + 64 * 3, "tag_lweapon", 12); /* a second tag_lweapon */
    t = parse_ok(file, size, 0);
    assert_int_equal(md2_tags_find(t, "tag_rweapon"), 0);
    assert_int_equal(md2_tags_find(t, "tag_lweapon"), 1); /* the first of two */
    assert_int_equal(md2_tags_find(t, "tag_head"), 2);    /* up to its NUL */
    assert_int_equal(md2_tags_find(t, "tag_head\0JUNK"), 2);
    assert_int_equal(md2_tags_find(t, "TAG_HEAD"), MD2_TAG_NOT_FOUND);
    assert_int_equal(md2_tags_find(t, "tag_"), MD2_TAG_NOT_FOUND);
    assert_int_equal(md2_tags_find(t, ""), MD2_TAG_NOT_FOUND);
    assert_int_equal(md2_tags_find(t, NULL), MD2_TAG_NOT_FOUND);
    assert_int_equal(md2_tags_find(NULL, "tag_head"), MD2_TAG_NOT_FOUND);
    md2_tags_free(t);
}

/* ------------------------------------------------------------------------ */
/* Tag matrices                                                              */
/* ------------------------------------------------------------------------ */

/* Orthonormal columns 0-2 to within tol, last row 0 0 0 1, all finite;
 * returns the sign of the determinant. */
static int check_orthonormal(const float m[16], double tol)
{
    double det, c[3];
    int i, j, k;
    for (i = 0; i < 16; i++)
        assert_true(isfinite(m[i]));
    assert_true(m[3] == 0.0f && m[7] == 0.0f && m[11] == 0.0f && m[15] == 1.0f);
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++) {
            double dot = 0.0;
            for (k = 0; k < 3; k++)
                dot += (double)m[4 * i + k] * (double)m[4 * j + k];
            if (fabs(dot - (i == j ? 1.0 : 0.0)) > tol)
                print_message("columns %d . %d = %.9g\n", i, j, dot);
            assert_true(fabs(dot - (i == j ? 1.0 : 0.0)) <= tol);
        }
    }
    c[0] = (double)m[1] * m[6] - (double)m[2] * m[5];
    c[1] = (double)m[2] * m[4] - (double)m[0] * m[6];
    c[2] = (double)m[0] * m[5] - (double)m[1] * m[4];
    det = c[0] * m[8] + c[1] * m[9] + c[2] * m[10];
    assert_true(fabs(fabs(det) - 1.0) <= 4 * tol);
    return det > 0 ? 1 : -1;
}

/* The columns of a keyframe, bit for bit as stored. */
static void expect_keyframe(const md2_tags *t, size_t tag, size_t frame, const float m[16])
{
    const float *v = t->frames + (tag * t->num_frames + frame) * 12;
    int c;
    for (c = 0; c < 4; c++) {
        assert_memory_equal(m + 4 * c, v + 3 * c, 3 * sizeof(float));
        assert_true(m[4 * c + 3] == (c == 3 ? 1.0f : 0.0f));
    }
}

static void test_lerp_exact_at_keyframes(void **state)
{
    uint8_t file[TT_MAX_FILE];
    size_t size = tt_build(file, TT_T, TT_F), k;
    md2_tags *t = parse_ok(file, size, 0);
    uint32_t a, b;
    float m[16];
    (void)state;

    for (k = 0; k < TT_T; k++) {
        for (a = 0; a < TT_F; a++) {
            for (b = 0; b < TT_F; b++) {
                assert_int_equal(md2_tag_lerp(t, k, a, b, 0.0f, m), MD2_OK);
                expect_keyframe(t, k, a, m);
                assert_int_equal(md2_tag_lerp(t, k, a, b, 1.0f, m), MD2_OK);
                expect_keyframe(t, k, b, m);
            }
            assert_int_equal(md2_tag_lerp(t, k, a, a, 0.37f, m), MD2_OK);
            expect_keyframe(t, k, a, m); /* a == b: the keyframe, not a blend */
        }
    }
    /* the stored axes are not orthonormal: a keyframe keeps them so */
    assert_int_equal(md2_tag_lerp(t, 0, 0, 0, 0.0f, m), MD2_OK);
    assert_true(fabs(sqrt((double)m[0] * m[0] + (double)m[1] * m[1] + (double)m[2] * m[2]) - 1.0) > 0.005);
    md2_tags_free(t);
}

/* The origin between keyframes is what md2_lerp() gives for a vertex at
 * the same positions: a one-vertex model whose frames decode to the tag's
 * origins (scale = origin, v = 1, translate = 0). */
static void expect_origin_like_md2_lerp(const md2_tags *t, size_t tag, uint32_t a,
                                        uint32_t b, float tt, const float m[16])
{
    md2_frame frames[2];
    md2_vertex v[1];
    md2_model model;
    float pos[3];
    int k;

    memset(frames, 0, sizeof frames);
    memset(&model, 0, sizeof model);
    v[0].v[0] = v[0].v[1] = v[0].v[2] = 1;
    v[0].normal = 0;
    for (k = 0; k < 3; k++) {
        frames[0].scale[k] = t->frames[(tag * t->num_frames + a) * 12 + 9 + (size_t)k];
        frames[1].scale[k] = t->frames[(tag * t->num_frames + b) * 12 + 9 + (size_t)k];
    }
    frames[0].vertices = v;
    frames[1].vertices = v;
    model.num_vertices = 1;
    model.num_frames = 2;
    model.frames = frames;
    assert_int_equal(md2_lerp(&model, 0, 1, tt, pos, 0, NULL, 0), MD2_OK);
    assert_memory_equal(m + 12, pos, sizeof pos);
}

static const float between[] = {1e-7f, 0.001f, 0.1f, 0.25f, 0.4999f, 0.5f, 0.5001f,
                                0.75f, 0.9f, 0.999f, 0.9999999f};
#define NUM_BETWEEN (sizeof between / sizeof between[0])

static void test_lerp_orthonormal_between(void **state)
{
    uint8_t file[TT_MAX_FILE];
    size_t size = tt_build(file, TT_T, TT_F), k, i;
    md2_tags *t = parse_ok(file, size, 0);
    uint32_t a, b;
    float m[16], prev[16];
    (void)state;

    for (k = 0; k < TT_T; k++) {
        for (a = 0; a < TT_F; a++) {
            for (b = 0; b < TT_F; b++) {
                if (a == b)
                    continue;
                for (i = 0; i < NUM_BETWEEN; i++) {
                    assert_int_equal(md2_tag_lerp(t, k, a, b, between[i], m), MD2_OK);
                    assert_int_equal(check_orthonormal(m, 1e-6), 1);
                    expect_origin_like_md2_lerp(t, k, a, b, between[i], m);
                }
            }
        }
    }
    /* continuous: small steps of t move the matrix by small amounts */
    assert_int_equal(md2_tag_lerp(t, 1, 0, 4, 0.001f, prev), MD2_OK);
    for (i = 2; i < 1000; i++) {
        int j;
        assert_int_equal(md2_tag_lerp(t, 1, 0, 4, (float)i / 1000.0f, m), MD2_OK);
        for (j = 0; j < 12; j++)
            assert_true(fabs((double)m[j] - (double)prev[j]) < 0.01);
        memcpy(prev, m, sizeof m);
    }
    md2_tags_free(t);
}

/* Tags made to break the blend: opposite axes (a half turn), zero axes,
 * a mirrored (left-handed) file, huge and tiny and denormal axes. */
static void test_lerp_degenerate_blends(void **state)
{
    /* per frame: forward, right, up, origin */
    static const float frames[][12] = {
        /* 0, 1: a half turn about Z: forward and right cancel at t = 0.5 */
        {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0},
        {-1, 0, 0, 0, -1, 0, 0, 0, 1, 5, 5, 5},
        /* 2: zero axes everywhere */
        {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3},
        /* 3: mirrored: right is -Y (Quake's "right"), left-handed */
        {1, 0, 0, 0, -1, 0, 0, 0, 1, 0, 0, 0},
        /* 4: huge, 5: tiny, 6: denormal axes (same directions as 0) */
        {1e29f, 0, 0, 0, 1e29f, 0, 0, 0, 1e29f, 1e29f, -1e29f, 0},
        {1e-30f, 0, 0, 0, 1e-30f, 0, 0, 0, 1e-30f, 0, 0, 0},
        {1e-40f, 0, 0, 0, 1e-40f, 0, 0, 0, 1e-40f, 0, 0, 0},
        /* 7: forward and right the same direction; 8: right along forward of 0 */
        {0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0},
        {0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0},
        /* 9: up opposite to frame 0's (mirrored the other way) */
        {1, 0, 0, 0, 1, 0, 0, 0, -1, 0, 0, 0},
        /* 10: zero axes again */
        {0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -2, -3},
    };
    const size_t nf = sizeof frames / sizeof frames[0];
    uint8_t file[TT_MAX_FILE];
    size_t size = tt_build_values(file, 1, nf, &frames[0][0]);
    md2_tags *t = parse_ok(file, size, MD2_STRICT_ALL);
    uint32_t a, b;
    size_t i;
    float m[16], m2[16];
    (void)state;

    for (a = 0; a < nf; a++) {
        for (b = 0; b < nf; b++) {
            for (i = 0; i < NUM_BETWEEN; i++) {
                assert_int_equal(md2_tag_lerp(t, 0, a, b, between[i], m), MD2_OK);
                if (a != b) {
                    (void)check_orthonormal(m, 1e-6);
                    expect_origin_like_md2_lerp(t, 0, a, b, between[i], m);
                }
                /* the same call, the same bits */
                assert_int_equal(md2_tag_lerp(t, 0, a, b, between[i], m2), MD2_OK);
                assert_memory_equal(m, m2, sizeof m);
            }
        }
    }
    /* handedness is kept: both right-handed, both left-handed */
    assert_int_equal(md2_tag_lerp(t, 0, 0, 4, 0.5f, m), MD2_OK);
    assert_int_equal(check_orthonormal(m, 1e-6), 1);
    assert_int_equal(md2_tag_lerp(t, 0, 3, 3, 0.5f, m), MD2_OK);
    assert_int_equal(check_orthonormal(m, 1e-6), -1); /* the keyframe as stored */
    /* a half turn at its midpoint: forward and right from the nearer
     * keyframe (t = 0.5 counts as frame a), up kept */
    assert_int_equal(md2_tag_lerp(t, 0, 0, 1, 0.5f, m), MD2_OK);
    assert_true(m[0] == 1.0f && m[5] == 1.0f && m[10] == 1.0f);
    assert_int_equal(md2_tag_lerp(t, 0, 0, 1, 0.6f, m), MD2_OK);
    assert_true(m[0] == -1.0f && m[5] == -1.0f && m[10] == 1.0f);
    /* zero axes blended with frame 0: frame 0's directions */
    assert_int_equal(md2_tag_lerp(t, 0, 2, 0, 0.25f, m), MD2_OK);
    assert_true(m[0] == 1.0f && m[5] == 1.0f && m[10] == 1.0f);
    /* two zero frames: the fixed axes */
    assert_int_equal(md2_tag_lerp(t, 0, 2, 10, 0.5f, m), MD2_OK);
    assert_true(m[0] == 1.0f && m[5] == 1.0f && m[10] == 1.0f);
    /* one zero frame with itself: the keyframe as stored */
    assert_int_equal(md2_tag_lerp(t, 0, 2, 2, 0.25f, m), MD2_OK);
    expect_keyframe(t, 0, 2, m);
    /* mirrored files stay mirrored between their keyframes */
    assert_int_equal(md2_tag_lerp(t, 0, 3, 9, 0.5f, m), MD2_OK);
    assert_int_equal(check_orthonormal(m, 1e-6), -1);
    /* huge and tiny axes blend like unit ones */
    assert_int_equal(md2_tag_lerp(t, 0, 4, 5, 0.3f, m), MD2_OK);
    assert_int_equal(md2_tag_lerp(t, 0, 0, 0, 0.0f, m2), MD2_OK);
    assert_memory_equal(m, m2, 12 * sizeof(float));
    md2_tags_free(t);
}

static void test_lerp_errors(void **state)
{
    uint8_t file[TT_MAX_FILE];
    size_t size = tt_build(file, TT_T, TT_F), i;
    md2_tags *t = parse_ok(file, size, 0);
    md2_tags hand;
    float m[16];
    (void)state;

    for (i = 0; i < 16; i++)
        m[i] = 42.0f;
    assert_int_equal(md2_tag_lerp(NULL, 0, 0, 1, 0.5f, m), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_tag_lerp(t, 0, 0, 1, 0.5f, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_tag_lerp(t, 0, 0, 1, -0.01f, m), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_tag_lerp(t, 0, 0, 1, 1.01f, m), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_tag_lerp(t, 0, 0, 1, (float)NAN, m), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_tag_lerp(t, TT_T, 0, 1, 0.5f, m), MD2_ERR_NOT_FOUND);
    assert_int_equal(md2_tag_lerp(t, md2_tags_find(t, "nope"), 0, 1, 0.5f, m),
                     MD2_ERR_NOT_FOUND);
    assert_int_equal(md2_tag_lerp(t, 0, TT_F, 1, 0.5f, m), MD2_ERR_FRAME_RANGE);
    assert_int_equal(md2_tag_lerp(t, 0, 0, UINT32_MAX, 0.5f, m), MD2_ERR_FRAME_RANGE);
    memset(&hand, 0, sizeof hand);
    hand.num_tags = 1;
    hand.num_frames = 1;
    assert_int_equal(md2_tag_lerp(&hand, 0, 0, 0, 0.0f, m), MD2_ERR_INVALID_ARGUMENT);
    for (i = 0; i < 16; i++)
        assert_true(m[i] == 42.0f); /* nothing written */
    md2_tags_free(t);
}

/* ------------------------------------------------------------------------ */
/* md2_attach()                                                              */
/* ------------------------------------------------------------------------ */

static void identity(float m[16])
{
    int i;
    for (i = 0; i < 16; i++)
        m[i] = (i % 5 == 0) ? 1.0f : 0.0f;
}

/* A column-major matrix times a point (w = 1), in double. */
static void transform(const float m[16], const double p[3], double out[3])
{
    int r;
    for (r = 0; r < 3; r++)
        out[r] = (double)m[r] * p[0] + (double)m[4 + r] * p[1] + (double)m[8 + r] * p[2] +
                 (double)m[12 + r];
}

static void test_attach_math(void **state)
{
    float id[16], tag[16], parent[16], child[16], copy[16];
    double p[3] = {1.5, -2.0, 0.25}, via_child[3], via_tag[3], via_both[3];
    int i;
    (void)state;

    identity(id);
    /* tag: a quarter turn about Z and an origin */
    memset(tag, 0, sizeof tag);
    tag[1] = 1.0f;   /* column 0: forward = +Y */
    tag[4] = -1.0f;  /* column 1: right = -X */
    tag[10] = 1.0f;  /* column 2: up */
    tag[12] = 3.0f;
    tag[13] = 4.0f;
    tag[14] = 5.0f;
    tag[15] = 1.0f;
    /* parent: a translation and a scale */
    identity(parent);
    parent[0] = 2.0f;
    parent[5] = 2.0f;
    parent[10] = 2.0f;
    parent[12] = 100.0f;
    parent[13] = -50.0f;
    parent[14] = 7.0f;

    assert_int_equal(md2_attach(id, tag, child), MD2_OK);
    assert_memory_equal(child, tag, sizeof child);
    assert_int_equal(md2_attach(tag, id, child), MD2_OK);
    assert_memory_equal(child, tag, sizeof child);

    /* child = parent * tag: transforming by child is transforming by tag,
     * then by parent */
    assert_int_equal(md2_attach(parent, tag, child), MD2_OK);
    transform(child, p, via_child);
    transform(tag, p, via_tag);
    transform(parent, via_tag, via_both);
    for (i = 0; i < 3; i++)
        assert_true(fabs(via_child[i] - via_both[i]) < 1e-5);
    /* the child's origin is the tag's origin in the parent's frame */
    assert_true(child[12] == 106.0f && child[13] == -42.0f && child[14] == 17.0f);
    assert_true(child[15] == 1.0f && child[3] == 0.0f && child[7] == 0.0f && child[11] == 0.0f);

    /* the output may be an input */
    memcpy(copy, parent, sizeof copy);
    assert_int_equal(md2_attach(copy, tag, copy), MD2_OK);
    assert_memory_equal(copy, child, sizeof copy);
    memcpy(copy, tag, sizeof copy);
    assert_int_equal(md2_attach(parent, copy, copy), MD2_OK);
    assert_memory_equal(copy, child, sizeof copy);

    assert_int_equal(md2_attach(NULL, tag, child), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_attach(parent, NULL, child), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_attach(parent, tag, NULL), MD2_ERR_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------------------ */
/* A body with a hand, and its tags                                          */
/* ------------------------------------------------------------------------ */

#define BF 24 /* body frames */
#define BV 5  /* body vertices; vertex 0 is the hand */

typedef struct body {
    md2_model m;
    md2_frame frames[BF];
    md2_vertex verts[BF][BV];
    md2_tag_name names[1];
    float tag_values[BF * 12];
    md2_tags tags;
} body;

/* Frames run1..run8 (0-7), stand1..stand8 (8-15), wave1..wave8 (16-23);
 * the tag "tag_rweapon" sits on vertex 0 (its origin is the decoded
 * vertex) and turns with the frame. */
static void body_init(body *b)
{
    size_t f, i;
    memset(b, 0, sizeof *b);
    for (f = 0; f < BF; f++) {
        md2_frame *fr = &b->frames[f];
        double ang = 0.4 * (double)f;
        float pos[BV * 3];
        snprintf(fr->name, sizeof fr->name, "%s%u", f < 8 ? "run" : f < 16 ? "stand" : "wave",
                 (unsigned)(f % 8 + 1));
        fr->scale[0] = 0.5f + 0.01f * (float)f;
        fr->scale[1] = 0.25f;
        fr->scale[2] = 1.0f - 0.02f * (float)f;
        fr->translate[0] = (float)f;
        fr->translate[1] = -3.0f;
        fr->translate[2] = 0.5f * (float)f;
        for (i = 0; i < BV; i++) {
            md2_vertex *v = &b->verts[f][i];
            v->v[0] = (uint8_t)((f * 37 + i * 11) % 256);
            v->v[1] = (uint8_t)((f * 5 + i * 29 + 3) % 256);
            v->v[2] = (uint8_t)(255 - (f * 13 + i * 7) % 256);
            v->normal = (uint8_t)((f * 17 + i * 3) % 162);
        }
        fr->vertices = b->verts[f];
        b->m.num_vertices = BV;
        b->m.num_frames = BF;
        b->m.frames = b->frames;
        assert_int_equal(md2_decode_frame(&b->m, (uint32_t)f, pos, 0, NULL, 0), MD2_OK);
        b->tag_values[f * 12 + 0] = (float)cos(ang);
        b->tag_values[f * 12 + 1] = (float)sin(ang);
        b->tag_values[f * 12 + 2] = 0.0f;
        b->tag_values[f * 12 + 3] = (float)-sin(ang);
        b->tag_values[f * 12 + 4] = (float)cos(ang);
        b->tag_values[f * 12 + 5] = 0.0f;
        b->tag_values[f * 12 + 6] = 0.0f;
        b->tag_values[f * 12 + 7] = 0.0f;
        b->tag_values[f * 12 + 8] = 1.0f;
        b->tag_values[f * 12 + 9] = pos[0];
        b->tag_values[f * 12 + 10] = pos[1];
        b->tag_values[f * 12 + 11] = pos[2];
    }
    strcpy(b->names[0].name, "tag_rweapon");
    b->tags.num_tags = 1;
    b->tags.num_frames = BF;
    b->tags.names = b->names;
    b->tags.frames = b->tag_values;
}

static md2_anim anim(const char *name, uint32_t first, uint32_t last, float fps)
{
    md2_anim a;
    memset(&a, 0, sizeof a);
    snprintf(a.name, sizeof a.name, "%s", name);
    a.first = first;
    a.last = last;
    a.fps = fps;
    a.loop = 1;
    return a;
}

/* The tag matrix through the player equals md2_tag_lerp() of its state
 * without a fade; the hand vertex and the tag origin are the same floats
 * in every pose, fades included: the weapon stays in the hand. */
static void test_player_tag_playback(void **state)
{
    body *b = (body *)malloc(sizeof *b);
    md2_anim run = anim("run", 0, 7, 10.0f), wave = anim("wave", 16, 23, 7.0f);
    md2_player p;
    float pos[BV * 3], m[16], want[16], world[16], child[16];
    int step, fading_steps = 0;
    (void)state;

    assert_non_null(b);
    body_init(b);
    identity(world);
    world[12] = 1000.0f; /* the body stands somewhere in the world */
    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &run, MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
    for (step = 0; step < 200; step++) {
        md2_player_frames st;
        md2_player_state(&p, &st);
        assert_int_equal(md2_player_tag(&p, &b->tags, 0, m), MD2_OK);
        assert_int_equal(md2_player_pose(&p, &b->m, pos, 0, NULL, 0), MD2_OK);
        /* the hand: vertex 0 of the pose, bit for bit */
        assert_memory_equal(m + 12, pos, 3 * sizeof(float));
        if (st.weight >= 1.0f) {
            assert_int_equal(md2_tag_lerp(&b->tags, 0, st.frame_a, st.frame_b, st.t, want),
                             MD2_OK);
            assert_memory_equal(m, want, sizeof m);
        } else {
            float out[16];
            fading_steps++;
            (void)check_orthonormal(m, 1e-6);
            assert_int_equal(md2_tag_lerp(&b->tags, 0, st.from_a, st.from_b, st.from_t, out),
                             MD2_OK);
            if (st.weight == 0.0f)
                assert_memory_equal(m, out, sizeof m);
        }
        /* attached in the world: the weapon's grip (its origin) is the
         * hand moved into the world */
        assert_int_equal(md2_attach(world, m, child), MD2_OK);
        {
            /* a float object: x87 may compute the sum in long double */
            volatile float x = pos[0] + 1000.0f;
            assert_true(child[12] == x && child[13] == pos[1] && child[14] == pos[2]);
        }
        if (step == 50 || step == 120) {
            /* a cross-fade: at its start the outgoing pose exactly */
            float before[16];
            assert_int_equal(md2_player_tag(&p, &b->tags, 0, before), MD2_OK);
            assert_int_equal(md2_player_crossfade(&p, step == 50 ? &wave : &run,
                                                  MD2_PLAY_LOOP, MD2_RATE_ANIM, 0.5f),
                             MD2_OK);
            assert_int_equal(md2_player_tag(&p, &b->tags, 0, m), MD2_OK);
            assert_memory_equal(m, before, sizeof m);
        }
        md2_player_advance(&p, 1.0 / 60.0);
    }
    assert_true(fading_steps >= 40);
    /* after the fade: the current animation exactly again */
    assert_int_equal(md2_player_fading(&p), 0);
    free(b);
}

/* Tags with fewer frames than the player reaches: clamped to the last. */
static void test_player_tag_clamps(void **state)
{
    body *b = (body *)malloc(sizeof *b);
    md2_anim wave = anim("wave", 16, 23, 7.0f);
    md2_player p;
    md2_tags few;
    float m[16], want[16];
    (void)state;

    assert_non_null(b);
    body_init(b);
    few = b->tags;
    few.num_frames = 10;
    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &wave, MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
    assert_int_equal(md2_player_seek(&p, 2.5), MD2_OK);
    assert_int_equal(md2_player_tag(&p, &few, 0, m), MD2_OK);
    assert_int_equal(md2_tag_lerp(&few, 0, 9, 9, 0.0f, want), MD2_OK);
    assert_memory_equal(m, want, sizeof m);

    /* one frame during a cross-fade: both poses are that frame, so its
     * stored (not orthonormal) axes exactly, not a blend with itself */
    b->tag_values[0] = 1.25f;
    b->tag_values[4] = 0.75f;
    few.num_frames = 1;
    assert_int_equal(md2_player_crossfade(&p, &wave, MD2_PLAY_PINGPONG, 3.0f, 1.0f), MD2_OK);
    md2_player_advance(&p, 0.4);
    assert_int_equal(md2_player_fading(&p), 1);
    assert_int_equal(md2_player_tag(&p, &few, 0, m), MD2_OK);
    assert_int_equal(md2_tag_lerp(&few, 0, 0, 0, 0.0f, want), MD2_OK);
    assert_memory_equal(m, want, sizeof m);
    assert_true(m[0] == 1.25f && m[5] == 0.75f);

    assert_int_equal(md2_player_tag(NULL, &few, 0, m), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_tag(&p, NULL, 0, m), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_tag(&p, &few, 0, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_tag(&p, &few, 1, m), MD2_ERR_NOT_FOUND);
    assert_int_equal(md2_player_tag(&p, &few, MD2_TAG_NOT_FOUND, m), MD2_ERR_NOT_FOUND);
    few.num_frames = 0;
    assert_int_equal(md2_player_tag(&p, &few, 0, m), MD2_ERR_INVALID_ARGUMENT);
    free(b);
}

static void test_tags_check(void **state)
{
    body *b = (body *)malloc(sizeof *b);
    md2_tags few;
    md2_options o;
    md2_diagnostic d;
    seen s;
    (void)state;

    assert_non_null(b);
    body_init(b);
    memset(&s, 0, sizeof s);
    opts_init(&o, &d, NULL, 0);
    o.on_warning = collect;
    o.warning_user = &s;
    assert_int_equal(md2_tags_check(&b->tags, &b->m, &o), MD2_OK);
    assert_int_equal(s.count, 0);
    few = b->tags;
    few.num_frames = 10;
    assert_int_equal(md2_tags_check(&few, &b->m, &o), MD2_OK);
    assert_int_equal(s.count, 1);
    assert_int_equal(s.last.warning, MD2_WARN_FRAME_COUNT);
    assert_int_equal(s.last.section, MD2_SECTION_TAGS);
    assert_string_equal(s.last.field, "num_frames");
    assert_int_equal(s.last.offset, 12);
    assert_non_null(strstr(s.last.message, "clamped"));
    assert_int_equal(d.result, MD2_OK);
    few.num_frames = 30;
    assert_int_equal(md2_tags_check(&few, &b->m, &o), MD2_OK);
    assert_int_equal(s.count, 2);
    o.strict = MD2_WARN_FRAME_COUNT;
    assert_int_equal(md2_tags_check(&few, &b->m, &o), MD2_ERR_FRAME_RANGE);
    assert_int_equal(s.count, 2);
    assert_int_equal(d.result, MD2_ERR_FRAME_RANGE);
    assert_string_equal(d.field, "num_frames");
    assert_int_equal(md2_tags_check(&few, &b->m, NULL), MD2_OK);
    assert_int_equal(md2_tags_check(NULL, &b->m, &o), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_tags_check(&few, NULL, &o), MD2_ERR_INVALID_ARGUMENT);
    free(b);
}

/* ------------------------------------------------------------------------ */
/* Linked models                                                             */
/* ------------------------------------------------------------------------ */

/* The first n frames of the body, as a model of its own. */
static md2_model first_frames(const body *b, size_t n)
{
    md2_model m = b->m;
    m.num_frames = n;
    return m;
}

static void test_linked_models(void **state)
{
    body *b = (body *)malloc(sizeof *b);
    md2_model head, weapon, shield;
    const md2_model *linked[3];
    md2_anim wave = anim("wave", 16, 23, 7.0f), run = anim("run", 0, 7, 10.0f);
    md2_options o;
    md2_diagnostic d;
    seen s;
    md2_player p;
    float pos[BV * 3], want[BV * 3], nrm[BV * 3], wnrm[BV * 3], mn[3], mx[3];
    int step;
    (void)state;

    assert_non_null(b);
    body_init(b);
    head = first_frames(b, BF);
    weapon = first_frames(b, 1);  /* a static weapon */
    shield = first_frames(b, 12); /* frames up to stand4 only */
    linked[0] = &head;
    linked[1] = &weapon;
    linked[2] = &shield;

    memset(&s, 0, sizeof s);
    opts_init(&o, &d, NULL, 0);
    o.on_warning = collect;
    o.warning_user = &s;
    assert_int_equal(md2_linked_check(&b->m, linked, 3, &o), MD2_OK);
    assert_int_equal(s.count, 2); /* a warning, not a crash */
    assert_int_equal(s.first.index, 1);
    assert_string_equal(s.first.message, "linked model 1 has 1 frame, the driving model 24; "
                                         "frames past its last are clamped to its last");
    assert_int_equal(s.last.index, 2);
    assert_int_equal(s.last.warning, MD2_WARN_FRAME_COUNT);
    assert_string_equal(s.last.field, "num_frames");
    assert_int_equal(s.last.section, MD2_SECTION_FRAMES);
    o.strict = MD2_STRICT_ALL;
    assert_int_equal(md2_linked_check(&b->m, linked, 3, &o), MD2_ERR_FRAME_RANGE);
    assert_int_equal(d.index, 1);
    assert_int_equal(md2_linked_check(&b->m, linked, 1, &o), MD2_OK);
    assert_int_equal(md2_linked_check(&b->m, NULL, 0, &o), MD2_OK);
    assert_int_equal(md2_linked_check(&b->m, NULL, 1, &o), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_linked_check(NULL, linked, 1, &o), MD2_ERR_INVALID_ARGUMENT);
    linked[1] = NULL;
    assert_int_equal(md2_linked_check(&b->m, linked, 3, &o), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(d.index, 1);

    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &run, MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
    for (step = 0; step < 240; step++) {
        md2_player_frames st;
        uint32_t fa, fb, oa, ob;
        md2_player_state(&p, &st);
        /* all frames: what md2_player_pose() gives, bit for bit */
        assert_int_equal(md2_player_pose_linked(&p, &head, pos, 0, nrm, 0), MD2_OK);
        assert_int_equal(md2_player_pose(&p, &b->m, want, 0, wnrm, 0), MD2_OK);
        assert_memory_equal(pos, want, sizeof pos);
        assert_memory_equal(nrm, wnrm, sizeof nrm);
        /* one frame: always that frame */
        assert_int_equal(md2_player_pose_linked(&p, &weapon, pos, 0, NULL, 0), MD2_OK);
        assert_int_equal(md2_decode_frame(&weapon, 0, want, 0, NULL, 0), MD2_OK);
        assert_memory_equal(pos, want, sizeof pos);
        assert_int_equal(md2_player_bounds_linked(&p, &weapon, mn, mx), MD2_OK);
        /* md2_player_pose() on it reports the range, never reads past it */
        if (st.frame_a > 0 || st.frame_b > 0 || st.from_a > 0 || st.from_b > 0)
            assert_int_equal(md2_player_pose(&p, &weapon, pos, 0, NULL, 0),
                             MD2_ERR_FRAME_RANGE);
        /* twelve frames: clamped to frame 11 */
        fa = st.frame_a < 12 ? st.frame_a : 11;
        fb = st.frame_b < 12 ? st.frame_b : 11;
        oa = st.from_a < 12 ? st.from_a : 11;
        ob = st.from_b < 12 ? st.from_b : 11;
        assert_int_equal(md2_player_pose_linked(&p, &shield, pos, 0, NULL, 0), MD2_OK);
        if (st.weight >= 1.0f) {
            assert_int_equal(md2_lerp(&shield, fa, fb, st.t, want, 0, NULL, 0), MD2_OK);
            assert_memory_equal(pos, want, sizeof pos);
        }
        if (fa == st.frame_a && fb == st.frame_b && oa == st.from_a && ob == st.from_b) {
            /* nothing clamped (fades included): md2_player_pose() */
            assert_int_equal(md2_player_pose(&p, &shield, want, 0, NULL, 0), MD2_OK);
            assert_memory_equal(pos, want, sizeof pos);
        }
        /* the box contains the pose */
        assert_int_equal(md2_player_bounds_linked(&p, &shield, mn, mx), MD2_OK);
        {
            int i, k;
            for (i = 0; i < BV; i++)
                for (k = 0; k < 3; k++)
                    assert_true(pos[3 * i + k] >= mn[k] && pos[3 * i + k] <= mx[k]);
        }
        assert_int_equal(md2_player_bounds_linked(&p, &head, mn, mx), MD2_OK);
        {
            float mn2[3], mx2[3];
            assert_int_equal(md2_player_bounds(&p, &b->m, mn2, mx2), MD2_OK);
            assert_memory_equal(mn, mn2, sizeof mn);
            assert_memory_equal(mx, mx2, sizeof mx);
        }
        if (step == 60)
            assert_int_equal(md2_player_crossfade(&p, &wave, MD2_PLAY_LOOP, MD2_RATE_ANIM,
                                                  0.75f), MD2_OK);
        if (step == 160)
            assert_int_equal(md2_player_crossfade(&p, &run, MD2_PLAY_PINGPONG, 30.0f, 0.3f),
                             MD2_OK);
        md2_player_advance(&p, 1.0 / 50.0);
    }
    assert_int_equal(md2_player_pose_linked(NULL, &head, pos, 0, NULL, 0),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_pose_linked(&p, NULL, pos, 0, NULL, 0),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_pose_linked(&p, &head, NULL, 0, NULL, 0),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_pose_linked(&p, &head, pos, 5, NULL, 0),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_bounds_linked(&p, &head, NULL, mx), MD2_ERR_INVALID_ARGUMENT);
    head.num_frames = 0;
    assert_int_equal(md2_player_pose_linked(&p, &head, pos, 0, NULL, 0),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_bounds_linked(&p, &head, mn, mx), MD2_ERR_INVALID_ARGUMENT);
    free(b);
}

/* ------------------------------------------------------------------------ */
/* A model and its side files in one call                                    */
/* ------------------------------------------------------------------------ */

/* Files in memory for an md2_file_fn. */
#define MEM_FILES 8
typedef struct memfile {
    const char *path;
    const uint8_t *data;
    size_t size;
    int error;       /* 1: MD2_FILE_ERROR; 2: a different size the second time */
} memfile;

typedef struct memfs {
    memfile files[MEM_FILES];
    size_t count;
    size_t calls;
    size_t reads;    /* calls with a buffer */
    char asked[16][64];
    size_t num_asked;
} memfs;

static size_t mem_read(void *user, const char *path, void *dst, size_t capacity)
{
    memfs *fs = (memfs *)user;
    size_t i;
    fs->calls++;
    if (fs->num_asked < 16)
        snprintf(fs->asked[fs->num_asked++], 64, "%s", path);
    for (i = 0; i < fs->count; i++) {
        const memfile *f = &fs->files[i];
        if (strcmp(f->path, path) != 0)
            continue;
        if (f->error == 1)
            return MD2_FILE_ERROR;
        if (!dst)
            return f->size;
        fs->reads++;
        if (f->error == 2)
            return f->size + 1;
        assert_true(capacity >= f->size);
        memcpy(dst, f->data, f->size);
        return f->size;
    }
    return MD2_FILE_MISSING;
}

static void mem_add(memfs *fs, const char *path, const void *data, size_t size)
{
    assert_true(fs->count < MEM_FILES);
    fs->files[fs->count].path = path;
    fs->files[fs->count].data = (const uint8_t *)data;
    fs->files[fs->count].size = size;
    fs->files[fs->count].error = 0;
    fs->count++;
}

static const char anm_text[] = "// soldier\nstand 0 1 10\nrun 2 2 5\n";
static const char anm_rate0[] = "stand 0 1 10\ndead 2 2 0\n";
static const char anm_broken[] = "stand 0 1 10\nrun x 2 5\n";
static const char fg_text[] = "0 2 9 1 // walk\n2 1 10 0 // run\n";
static const char fg_broken[] = "0 0 9\n";

/* Loads a bundle through mem_read; returns the result. */
static md2_result load_mem(memfs *fs, const char *path, uint32_t strict, md2_bundle **b,
                           md2_diagnostic *d, seen *s, tu_alloc *a)
{
    md2_options o;
    opts_init(&o, d, a, strict);
    if (s) {
        memset(s, 0, sizeof *s);
        o.on_warning = collect;
        o.warning_user = s;
    }
    return md2_bundle_load(path, mem_read, fs, &o, b);
}

static void test_bundle_memory(void **state)
{
    uint8_t model[TU_MAX_FILE], tag[TT_MAX_FILE], tag5[TT_MAX_FILE];
    size_t model_size = tu_tiny(model);
    size_t tag_size = tt_build(tag, 2, 3), tag5_size = tt_build(tag5, 2, 5);
    md2_bundle *b;
    md2_diagnostic d;
    tu_alloc a;
    seen s;
    memfs fs;
    (void)state;

    /* the model alone: animations from its frame names */
    memset(&fs, 0, sizeof fs);
    mem_add(&fs, "models/body.md2", model, model_size);
    assert_int_equal(load_mem(&fs, "models/body.md2", 0, &b, &d, &s, &a), MD2_OK);
    assert_int_equal(b->model->num_frames, 3);
    assert_int_equal(b->anim_source, MD2_ANIMS_FROM_NAMES);
    assert_int_equal(b->num_anims, 2); /* walk, run */
    assert_string_equal(b->anims[0].name, "walk");
    assert_null(b->tags);
    assert_int_equal(b->files, 0);
    assert_int_equal(b->warnings, 0);
    assert_int_equal(fs.num_asked, 5); /* model twice, .anm, .framegroups, .tag */
    assert_string_equal(fs.asked[2], "models/body.anm");
    assert_string_equal(fs.asked[3], "models/body.framegroups");
    assert_string_equal(fs.asked[4], "models/body.tag");
    md2_bundle_free(b);
    assert_int_equal(a.live, 0);

    /* with each side file */
    mem_add(&fs, "models/body.framegroups", fg_text, strlen(fg_text));
    assert_int_equal(load_mem(&fs, "models/body.md2", MD2_STRICT_ALL, &b, &d, &s, &a), MD2_OK);
    assert_int_equal(b->anim_source, MD2_ANIMS_FROM_FRAMEGROUPS);
    assert_int_equal(b->files, MD2_BUNDLE_FRAMEGROUPS);
    assert_int_equal(b->num_anims, 2);
    assert_string_equal(b->anims[0].name, "walk");
    assert_int_equal(b->anims[1].first, 2);
    md2_bundle_free(b);

    mem_add(&fs, "models/body.anm", anm_text, strlen(anm_text));
    mem_add(&fs, "models/body.tag", tag, tag_size);
    memset(fs.asked, 0, sizeof fs.asked);
    fs.num_asked = 0;
    assert_int_equal(load_mem(&fs, "models/body.md2", MD2_STRICT_ALL, &b, &d, &s, &a), MD2_OK);
    assert_int_equal(b->anim_source, MD2_ANIMS_FROM_ANM); /* .anm first */
    assert_int_equal(b->files, MD2_BUNDLE_ANM | MD2_BUNDLE_TAG);
    assert_int_equal(b->num_anims, 2);
    assert_string_equal(b->anims[0].name, "stand");
    assert_int_equal(b->anims[0].last, 1);
    assert_true(b->anims[1].fps == 5.0f);
    assert_non_null(b->tags);
    assert_int_equal(b->tags->num_tags, 2);
    assert_int_equal(b->tags->num_frames, 3);
    assert_int_equal(md2_tags_find(b->tags, "tag_lweapon"), 1);
    assert_int_equal(s.count, 0);
    /* the .framegroups file was not read */
    {
        size_t i;
        for (i = 0; i < fs.num_asked; i++)
            assert_true(strcmp(fs.asked[i], "models/body.framegroups") != 0);
    }
    md2_bundle_free(b);
    assert_int_equal(a.live, 0);

    /* a tag file with other frames: a warning naming the file; strict:
     * an error */
    fs.files[3].data = tag5;
    fs.files[3].size = tag5_size;
    assert_int_equal(load_mem(&fs, "models/body.md2", 0, &b, &d, &s, &a), MD2_OK);
    assert_int_equal(b->warnings, MD2_WARN_FRAME_COUNT);
    assert_int_equal(s.count, 1);
    assert_int_equal(strncmp(s.last.message, "models/body.tag: ", 17), 0);
    md2_bundle_free(b);
    assert_int_equal(load_mem(&fs, "models/body.md2", MD2_STRICT_ALL, &b, &d, &s, &a),
                     MD2_ERR_FRAME_RANGE);
    assert_null(b);
    assert_int_equal(strncmp(d.message, "models/body.tag: ", 17), 0);
    assert_int_equal(a.live, 0);
    fs.files[3].data = tag;
    fs.files[3].size = tag_size;

    /* a rate of 0: the side file's warning, named; strict: its error */
    fs.files[2].data = (const uint8_t *)anm_rate0;
    fs.files[2].size = strlen(anm_rate0);
    assert_int_equal(load_mem(&fs, "models/body.md2", 0, &b, &d, &s, &a), MD2_OK);
    assert_int_equal(b->warnings, MD2_WARN_ANIM_RATE_ZERO);
    assert_int_equal(s.count, 1); /* reported once */
    assert_string_equal(s.last.message,
                        "models/body.anm: line 2, column 10: fps '0' is 0: the animation holds its first frame");
    assert_int_equal(s.last.line, 2);
    assert_true(b->anims[1].fps == 0.0f);
    md2_bundle_free(b);
    assert_int_equal(load_mem(&fs, "models/body.md2", MD2_STRICT_ALL, &b, &d, &s, &a),
                     MD2_ERR_PARSE_SIDEFILE);
    assert_int_equal(strncmp(d.message, "models/body.anm: line 2", 23), 0);
    assert_int_equal(d.line, 2);

    /* broken side files are errors that name the file, lenient too */
    fs.files[2].data = (const uint8_t *)anm_broken;
    fs.files[2].size = strlen(anm_broken);
    assert_int_equal(load_mem(&fs, "models/body.md2", 0, &b, &d, &s, &a),
                     MD2_ERR_PARSE_SIDEFILE);
    assert_null(b);
    assert_int_equal(strncmp(d.message, "models/body.anm: line 2, column 5", 33), 0);
    assert_int_equal(a.live, 0);
    fs.files[2].data = (const uint8_t *)anm_text;
    fs.files[2].size = strlen(anm_text);
    fs.files[3].size = 20; /* a cut tag file */
    assert_int_equal(load_mem(&fs, "models/body.md2", 0, &b, &d, &s, &a),
                     MD2_ERR_TRUNCATED_HEADER);
    assert_int_equal(d.section, MD2_SECTION_TAGS);
    assert_int_equal(strncmp(d.message, "models/body.tag: tag file", 25), 0);
    assert_int_equal(a.live, 0);
    fs.files[3].size = tag_size;
    fs.files[3].error = 1;
    assert_int_equal(load_mem(&fs, "models/body.md2", 0, &b, &d, &s, &a), MD2_ERR_IO);
    assert_string_equal(d.message, "models/body.tag: the file exists but cannot be read");
    assert_string_equal(d.field, "path");
    fs.files[3].error = 2;
    assert_int_equal(load_mem(&fs, "models/body.md2", 0, &b, &d, &s, &a), MD2_ERR_IO);
    assert_non_null(strstr(d.message, "changed size"));
    assert_int_equal(a.live, 0);
    fs.files[3].error = 0;

    /* a broken model */
    fs.files[0].size = 60;
    assert_int_equal(load_mem(&fs, "models/body.md2", 0, &b, &d, &s, &a),
                     MD2_ERR_TRUNCATED_HEADER);
    assert_int_equal(strncmp(d.message, "models/body.md2: header", 23), 0);
    fs.files[0].size = model_size;
    /* no model */
    assert_int_equal(load_mem(&fs, "models/none.md2", 0, &b, &d, &s, &a), MD2_ERR_IO);
    assert_string_equal(d.message, "cannot open 'models/none.md2': no such file");
    assert_int_equal(a.live, 0);
}

/* Side-file names: extensions replaced, upper case kept, no extension,
 * dots in folders, backslashes. */
static void test_bundle_names(void **state)
{
    static const struct {
        const char *model, *anm, *tag;
    } cases[] = {
        {"BODY.MD2", "BODY.ANM", "BODY.TAG"},
        {"Body.Md2", "Body.anm", "Body.tag"},
        {"body", "body.anm", "body.tag"},
        {"dir.v2/body", "dir.v2/body.anm", "dir.v2/body.tag"},
        {"dir.v2\\body.md2", "dir.v2\\body.anm", "dir.v2\\body.tag"},
        {"a/.hidden", "a/.hidden.anm", "a/.hidden.tag"},
        {"x.tar.md2", "x.tar.anm", "x.tar.tag"},
        {"M.2", "M.anm", "M.tag"}, /* no letters in the extension */
        {"w_.MD2", "w_.ANM", "w_.TAG"},
    };
    uint8_t model[TU_MAX_FILE];
    size_t model_size = tu_tiny(model), i;
    (void)state;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memfs fs;
        md2_bundle *b;
        md2_diagnostic d;
        memset(&fs, 0, sizeof fs);
        mem_add(&fs, cases[i].model, model, model_size);
        assert_int_equal(load_mem(&fs, cases[i].model, 0, &b, &d, NULL, NULL), MD2_OK);
        assert_int_equal(fs.num_asked, 5);
        assert_string_equal(fs.asked[2], cases[i].anm);
        assert_string_equal(fs.asked[4], cases[i].tag);
        md2_bundle_free(b);
    }
}

/* Limits: a file larger than max_file_size is refused before it is read. */
static void test_bundle_limits(void **state)
{
    uint8_t model[TU_MAX_FILE], tag[TT_MAX_FILE];
    size_t model_size = tu_tiny(model), tag_size = tt_build(tag, 2, 30);
    md2_bundle *b;
    md2_diagnostic d;
    md2_options o;
    memfs fs;
    (void)state;

    assert_true(tag_size > model_size);
    memset(&fs, 0, sizeof fs);
    mem_add(&fs, "b.md2", model, model_size);
    mem_add(&fs, "b.tag", tag, tag_size);
    opts_init(&o, &d, NULL, 0);
    o.limits.max_file_size = model_size;
    assert_int_equal(md2_bundle_load("b.md2", mem_read, &fs, &o, &b), MD2_ERR_LIMIT_EXCEEDED);
    assert_string_equal(d.field, "max_file_size");
    assert_int_equal(strncmp(d.message, "b.tag: ", 7), 0);
    assert_int_equal(fs.reads, 1); /* the model only */
    o.limits.max_file_size = tag_size;
    assert_int_equal(md2_bundle_load("b.md2", mem_read, &fs, &o, &b), MD2_OK);
    md2_bundle_free(b);

    assert_int_equal(md2_bundle_load(NULL, mem_read, &fs, &o, &b), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_bundle_load("b.md2", NULL, &fs, &o, &b), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_bundle_load("b.md2", mem_read, &fs, &o, NULL),
                     MD2_ERR_INVALID_ARGUMENT);
    md2_bundle_free(NULL);
}

/* Every allocation of a bundle load fails in turn: the error, no leak. */
static void test_bundle_allocation_failures(void **state)
{
    uint8_t model[TU_MAX_FILE], tag[TT_MAX_FILE];
    size_t model_size = tu_tiny(model), tag_size = tt_build(tag, 2, 3), n;
    memfs fs;
    int variant;
    (void)state;

    for (variant = 0; variant < 3; variant++) {
        size_t calls = 0;
        memset(&fs, 0, sizeof fs);
        mem_add(&fs, "b.md2", model, model_size);
        if (variant == 1)
            mem_add(&fs, "b.anm", anm_text, strlen(anm_text));
        if (variant == 2)
            mem_add(&fs, "b.framegroups", fg_text, strlen(fg_text));
        if (variant >= 1)
            mem_add(&fs, "b.tag", tag, tag_size);
        for (n = 1;; n++) {
            md2_bundle *b = (md2_bundle *)(uintptr_t)1;
            md2_diagnostic d;
            md2_options o;
            tu_alloc a;
            md2_result r;
            opts_init(&o, &d, &a, 0);
            a.fail_at = n;
            r = md2_bundle_load("b.md2", mem_read, &fs, &o, &b);
            calls = a.calls;
            if (r == MD2_OK) {
                assert_true(n > a.calls);
                md2_bundle_free(b);
                assert_int_equal(a.live, 0);
                break;
            }
            assert_int_equal(r, MD2_ERR_OUT_OF_MEMORY);
            assert_null(b);
            assert_int_equal(d.result, MD2_ERR_OUT_OF_MEMORY);
            assert_true(d.message[0] != '\0');
            assert_int_equal(a.live, 0);
        }
        /* path, model file, model, bundle; + side file; + tag file, tags */
        assert_int_equal(calls, variant == 0 ? 4u : 7u);
    }
}

#if TT_POSIX
/* Writes size bytes to dir/name. */
static void write_file(const char *dir, const char *name, const void *data, size_t size)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

static void remove_file(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    (void)remove(path);
}
#endif

/* From a folder: one call, with and without each side file. */
static void test_bundle_files(void **state)
{
#if TT_POSIX
    char dir[] = "test_tags_files.XXXXXX", path[512];
    uint8_t model[TU_MAX_FILE], tag[TT_MAX_FILE];
    size_t model_size = tu_tiny(model), tag_size = tt_build(tag, 2, 3);
    md2_bundle *b;
    md2_diagnostic d;
    md2_options o;
    tu_alloc a;
    int mask;
    (void)state;

    assert_non_null(tt_mkdtemp(dir));
    write_file(dir, "body.md2", model, model_size);
    snprintf(path, sizeof path, "%s/body.md2", dir);
    /* every combination of .anm, .framegroups and .tag */
    for (mask = 0; mask < 8; mask++) {
        if (mask & 1)
            write_file(dir, "body.anm", anm_text, strlen(anm_text));
        if (mask & 2)
            write_file(dir, "body.framegroups", fg_text, strlen(fg_text));
        if (mask & 4)
            write_file(dir, "body.tag", tag, tag_size);
        opts_init(&o, &d, &a, MD2_STRICT_ALL);
        assert_int_equal(md2_bundle_load_file(path, &o, &b), MD2_OK);
        assert_int_equal(b->model->num_frames, 3);
        assert_int_equal(b->anim_source, (mask & 1)   ? MD2_ANIMS_FROM_ANM
                                         : (mask & 2) ? MD2_ANIMS_FROM_FRAMEGROUPS
                                                      : MD2_ANIMS_FROM_NAMES);
        assert_string_equal(b->anims[0].name, (mask & 1) ? "stand" : "walk");
        assert_true((b->tags != NULL) == ((mask & 4) != 0));
        assert_int_equal(b->files, ((mask & 1)   ? MD2_BUNDLE_ANM
                                    : (mask & 2) ? MD2_BUNDLE_FRAMEGROUPS
                                                 : 0u) |
                                       ((mask & 4) ? MD2_BUNDLE_TAG : 0u));
        md2_bundle_free(b);
        assert_int_equal(a.live, 0);
        remove_file(dir, "body.anm");
        remove_file(dir, "body.framegroups");
        remove_file(dir, "body.tag");
    }
    /* a broken side file names itself */
    write_file(dir, "body.framegroups", fg_broken, strlen(fg_broken));
    opts_init(&o, &d, &a, 0);
    assert_int_equal(md2_bundle_load_file(path, &o, &b), MD2_ERR_PARSE_SIDEFILE);
    assert_non_null(strstr(d.message, "body.framegroups: line 1"));
    assert_null(b);
    assert_int_equal(a.live, 0);
    remove_file(dir, "body.framegroups");
    /* a side file that cannot be read (a folder) */
    snprintf(path, sizeof path, "%s/body.tag", dir);
    assert_int_equal(tt_mkdir(path), 0);
    snprintf(path, sizeof path, "%s/body.md2", dir);
    assert_int_equal(md2_bundle_load_file(path, &o, &b), MD2_ERR_IO);
    /* md2_bundle_load_file says why: the operating system's reason */
#ifdef _WIN32
    /* Windows' C runtime refuses to open a folder, with EACCES */
    assert_non_null(strstr(d.message, "body.tag: the file exists but cannot be read: permission denied"));
#else
    assert_non_null(strstr(d.message, "body.tag: the file exists but cannot be read: is a directory"));
#endif
    assert_int_equal(a.live, 0);
    snprintf(path, sizeof path, "%s/body.tag", dir);
    assert_int_equal(rmdir(path), 0);
    /* no model */
    snprintf(path, sizeof path, "%s/none.md2", dir);
    assert_int_equal(md2_bundle_load_file(path, &o, &b), MD2_ERR_IO);
    assert_non_null(strstr(d.message, "no such file"));
    /* a limit on the stdio reader's count */
    snprintf(path, sizeof path, "%s/body.md2", dir);
    o.limits.max_file_size = 100;
    assert_int_equal(md2_bundle_load_file(path, &o, &b), MD2_ERR_LIMIT_EXCEEDED);
    remove_file(dir, "body.md2");
    assert_int_equal(rmdir(dir), 0);
#else
    (void)state;
    skip();
#endif
}

/* md2_bundle_load_stream(): the model read as md2_load_stream() reads it,
 * the side files through the md2_file_fn. */
static void test_bundle_stream(void **state)
{
    uint8_t model[TU_MAX_FILE];
    static uint8_t zeros[1u << 20];
    size_t model_size = tu_tiny(model);
    memfs fs;
    tu_memstream ms;
    md2_bundle *b = (md2_bundle *)&fs;
    md2_diagnostic d;
    md2_options o;
    tu_alloc a;
    (void)state;

    memset(&fs, 0, sizeof fs);
    mem_add(&fs, "body.anm", anm_text, strlen(anm_text));
    tu_memstream_init(&ms, model, model_size, 7);
    opts_init(&o, &d, &a, MD2_STRICT_ALL);
    assert_int_equal(md2_bundle_load_stream("body.md2", tu_mem_read, &ms, mem_read, &fs, NULL, &o, &b),
                     MD2_OK);
    assert_int_equal(b->anim_source, MD2_ANIMS_FROM_ANM);
    assert_int_equal(b->model->num_frames, 3);
    /* the model is never asked of the md2_file_fn */
    assert_string_equal(fs.asked[0], "body.anm");
    md2_bundle_free(b);
    assert_int_equal(a.live, 0);

    /* an endless stream that is not a model: refused after the header */
    tu_memstream_init(&ms, zeros, sizeof zeros, 0);
    opts_init(&o, &d, &a, 0);
    assert_int_equal(md2_bundle_load_stream("zero.md2", tu_mem_read, &ms, mem_read, &fs, NULL, &o, &b),
                     MD2_ERR_BAD_MAGIC);
    assert_null(b);
    assert_true(ms.pos <= 68);
    assert_true(strncmp(d.message, "zero.md2: ", 10) == 0);
    assert_int_equal(a.live, 0);

    /* a read error names the model */
    tu_memstream_init(&ms, model, model_size, 0);
    ms.fail_at = 100;
    assert_int_equal(md2_bundle_load_stream("body.md2", tu_mem_read, &ms, mem_read, &fs, NULL, &o, &b),
                     MD2_ERR_IO);
    assert_non_null(strstr(d.message, "body.md2: reading failed at byte"));
    assert_int_equal(a.live, 0);

    /* allocation failures, each in turn */
    for (a.fail_at = 1;; a.fail_at++) {
        md2_result r;
        size_t at = a.fail_at;
        opts_init(&o, &d, &a, 0);
        a.fail_at = at;
        tu_memstream_init(&ms, model, model_size, 0);
        r = md2_bundle_load_stream("body.md2", tu_mem_read, &ms, mem_read, &fs, NULL, &o, &b);
        if (r == MD2_OK) {
            md2_bundle_free(b);
            assert_int_equal(a.live, 0);
            break;
        }
        assert_int_equal(r, MD2_ERR_OUT_OF_MEMORY);
        assert_null(b);
        assert_int_equal(a.live, 0);
    }

    assert_int_equal(md2_bundle_load_stream("body.md2", NULL, NULL, mem_read, &fs, NULL, &o, &b),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_null(b);
    assert_non_null(strstr(d.message, "read_model"));
    assert_int_equal(md2_bundle_load_stream("body.md2", tu_mem_read, &ms, NULL, &fs, NULL, &o, &b),
                     MD2_ERR_INVALID_ARGUMENT);
}

/* md2_bundle_load_file() reads the model as md2_load_file() does: a model
 * followed by a gigabyte (a sparse file) costs what the model needs, and
 * /dev/zero is refused after its first 68 bytes. */
static void test_bundle_file_bounded(void **state)
{
#if TT_POSIX
    char dir[] = "test_tags_bounded.XXXXXX", path[512];
    uint8_t model[TU_MAX_FILE];
    size_t model_size = tu_tiny(model);
    md2_bundle *b;
    md2_diagnostic d;
    md2_options o;
    tu_alloc a;
    FILE *f;
    (void)state;

    assert_non_null(tt_mkdtemp(dir));
    snprintf(path, sizeof path, "%s/big.md2", dir);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(model, 1, model_size, f), model_size);
    assert_int_equal(fseek(f, 1L << 30, SEEK_SET), 0);
    assert_int_equal(fputc('x', f), 'x');
    assert_int_equal(fclose(f), 0);
    opts_init(&o, &d, &a, 0);
    assert_int_equal(md2_bundle_load_file(path, &o, &b), MD2_OK);
    assert_true((b->warnings & MD2_WARN_OFS_END) != 0);
    /* the model's bytes, its copy and the bundle: far below the file */
    assert_true(a.peak_bytes < 4 * model_size + 4096);
    md2_bundle_free(b);
    assert_int_equal(a.live, 0);
    /* strict: refused, as md2_load_file() refuses it */
    opts_init(&o, &d, &a, MD2_STRICT_ALL);
    assert_int_equal(md2_bundle_load_file(path, &o, &b), MD2_ERR_BAD_OFS_END);
    assert_true(strncmp(d.message, path, strlen(path)) == 0);
    assert_int_equal(a.live, 0);
    assert_int_equal(remove(path), 0);
    assert_int_equal(rmdir(dir), 0);

#ifndef _WIN32
    if (access("/dev/zero", R_OK) == 0) {
        opts_init(&o, &d, &a, 0);
        assert_int_equal(md2_bundle_load_file("/dev/zero", &o, &b), MD2_ERR_BAD_MAGIC);
        assert_true(a.peak_bytes <= 68);
        assert_int_equal(a.live, 0);
    }
#endif
#else
    (void)state;
    skip();
#endif
}

/* ------------------------------------------------------------------------ */
/* docs/animation.md: "A soldier and the rifle in its hand"                 */
/* ------------------------------------------------------------------------ */

/* BEGIN DOC SNIPPET (docs/animation.md repeats this code verbatim) */
/* A soldier holding a rifle: body.md2 with the side files beside it
 * (body.anm, body.tag), and a rifle drawn at the body's "tag_rweapon". */
typedef struct soldier {
    md2_bundle *body;   /* the body, its animations and its tags */
    size_t hand;        /* index of the tag "tag_rweapon" */
    md2_player player;  /* this soldier's animation state */
    float world[16];    /* the body's model-to-world matrix */
} soldier;

static md2_result start_soldier(soldier *s, const char *body_path,
                                const float world[16])
{
    md2_result r = md2_bundle_load_file(body_path, NULL, &s->body);
    if (r != MD2_OK)
        return r;
    memcpy(s->world, world, sizeof s->world);
    md2_player_init(&s->player);
    s->hand = md2_tags_find(s->body->tags, "tag_rweapon"); /* no .tag: not found */
    r = md2_player_play_named(&s->player, s->body->anims, s->body->num_anims,
                              "walk0", MD2_PLAY_DEFAULT, MD2_RATE_ANIM);
    if (r == MD2_OK && s->hand == MD2_TAG_NOT_FOUND)
        r = MD2_ERR_NOT_FOUND;
    if (r != MD2_OK)
        md2_bundle_free(s->body);
    return r;
}

/* Every game frame: the body's pose, and the matrix to draw the rifle
 * with (rifle vertex v goes to rifle_to_world * (v, 1)). */
static md2_result update_soldier(soldier *s, double dt, float *body_positions,
                                 float rifle_to_world[16])
{
    float hand[16];
    md2_result r;

    md2_player_advance(&s->player, dt);
    r = md2_player_pose(&s->player, s->body->model, body_positions, 0, NULL, 0);
    if (r == MD2_OK)
        r = md2_player_tag(&s->player, s->body->tags, s->hand, hand);
    if (r == MD2_OK)
        r = md2_attach(s->world, hand, rifle_to_world);
    return r;
}
/* END DOC SNIPPET */

/* The snippet on files written to a folder: the rifle's grip (its origin)
 * is the hand vertex moved into the world at every step, through a
 * cross-fade too. */
static void test_doc_soldier(void **state)
{
#if TT_POSIX
    char dir[] = "test_tags_soldier.XXXXXX", path[512];
    static const char anm[] = "walk0 0 7 10\nwave 16 23 7\n";
    body *b = (body *)malloc(sizeof *b);
    uint8_t bytes[TT_MAX_FILE];
    size_t written;
    float world[16], pos[BV * 3], rifle[16];
    soldier s;
    int step;
    (void)state;

    assert_non_null(b);
    body_init(b);
    assert_non_null(tt_mkdtemp(dir));
    assert_int_equal(md2_write(&b->m, bytes, sizeof bytes, &written, NULL), MD2_OK);
    write_file(dir, "body.md2", bytes, written);
    write_file(dir, "body.anm", anm, strlen(anm));
    assert_int_equal(md2_tags_write(&b->tags, bytes, sizeof bytes, &written, NULL), MD2_OK);
    write_file(dir, "body.tag", bytes, written);
    snprintf(path, sizeof path, "%s/body.md2", dir);
    identity(world);
    world[12] = 1000.0f;
    assert_int_equal(start_soldier(&s, path, world), MD2_OK);
    for (step = 0; step < 100; step++) {
        volatile float x;
        assert_int_equal(update_soldier(&s, 1.0 / 30.0, pos, rifle), MD2_OK);
        x = pos[0] + 1000.0f;
        assert_true(rifle[12] == x && rifle[13] == pos[1] && rifle[14] == pos[2]);
        assert_true(rifle[15] == 1.0f);
        if (step == 40)
            assert_int_equal(md2_player_crossfade(&s.player, &s.body->anims[1],
                                                  MD2_PLAY_DEFAULT, MD2_RATE_ANIM, 0.5f),
                             MD2_OK);
    }
    md2_bundle_free(s.body);
    /* without its .tag file the soldier has no hand */
    remove_file(dir, "body.tag");
    assert_int_equal(start_soldier(&s, path, world), MD2_ERR_NOT_FOUND);
    remove_file(dir, "body.md2");
    remove_file(dir, "body.anm");
    assert_int_equal(rmdir(dir), 0);
    free(b);
#else
    (void)state;
    skip();
#endif
}

/* The snippet above and the one in docs/animation.md are the same text. */
static void test_doc_snippet_matches(void **state)
{
#ifdef MD2_EXAMPLES_DIR
    static char src[262144], doc[262144];
    const char *begin_mark = "/* BEGIN DOC SNIPPET (docs/animation.md repeats this code verbatim) */\n";
    const char *end_mark = "/* END DOC SNIPPET */";
    const char *doc_mark = "```c\n#include <md2/tags.h>\n\n";
    const char *s0, *s1, *d0;
    char path[512];
    FILE *f;
    size_t len;
    (void)state;
    snprintf(path, sizeof path, "%s/../tests/unit/test_tags.c", MD2_EXAMPLES_DIR);
    f = fopen(path, "rb");
    if (!f) {
        skip();
        return;
    }
    len = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[len] = '\0';
    snprintf(path, sizeof path, "%s/../docs/animation.md", MD2_EXAMPLES_DIR);
    f = fopen(path, "rb");
    if (!f) {
        skip();
        return;
    }
    len = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[len] = '\0';
    s0 = strstr(src, begin_mark);
    assert_non_null(s0);
    s0 += strlen(begin_mark);
    s1 = strstr(s0, end_mark);
    assert_non_null(s1);
    d0 = strstr(doc, doc_mark);
    assert_non_null(d0);
    d0 += strlen(doc_mark);
    assert_true(strncmp(d0, s0, (size_t)(s1 - s0)) == 0);
    assert_true(strncmp(d0 + (s1 - s0), "```", 3) == 0);
#else
    (void)state;
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_honest),
        cmocka_unit_test(test_parse_arguments),
        cmocka_unit_test(test_header_lies),
        cmocka_unit_test(test_consistent_lies),
        cmocka_unit_test(test_truncated_at_every_offset),
        cmocka_unit_test(test_trailing_bytes),
        cmocka_unit_test(test_unterminated_name),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_bit_flips),
        cmocka_unit_test(test_allocation_failure),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_write_hand_made),
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_lerp_exact_at_keyframes),
        cmocka_unit_test(test_lerp_orthonormal_between),
        cmocka_unit_test(test_lerp_degenerate_blends),
        cmocka_unit_test(test_lerp_errors),
        cmocka_unit_test(test_attach_math),
        cmocka_unit_test(test_player_tag_playback),
        cmocka_unit_test(test_player_tag_clamps),
        cmocka_unit_test(test_tags_check),
        cmocka_unit_test(test_linked_models),
        cmocka_unit_test(test_bundle_memory),
        cmocka_unit_test(test_bundle_names),
        cmocka_unit_test(test_bundle_limits),
        cmocka_unit_test(test_bundle_allocation_failures),
        cmocka_unit_test(test_bundle_files),
        cmocka_unit_test(test_bundle_stream),
        cmocka_unit_test(test_bundle_file_bounded),
        cmocka_unit_test(test_doc_soldier),
        cmocka_unit_test(test_doc_snippet_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
