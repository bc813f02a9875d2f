/*
 * Tests of the side-file parsers: UFO:AI .anm and DarkPlaces .framegroups,
 * good files, every kind of bad line (with its line and column), range
 * checks against a model, sizing and the real faerie.md2.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/animation.h>

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#ifndef MD2_SHARED_DIR
#define MD2_SHARED_DIR "../shared"
#endif

#define MAXA 32

/* A model with n frames (only num_frames matters to the parsers). */
static md2_model model_with_frames(size_t n)
{
    md2_model m;
    memset(&m, 0, sizeof m);
    m.num_frames = n;
    return m;
}

/* Options that report errors to e (NULL: none), otherwise the defaults. */
#define WITH_ERROR(e) (&(const md2_options){.error = (e)})

static md2_result anm(const char *text, const md2_model *m, md2_anim *out,
                      size_t *count, md2_diagnostic *err)
{
    return md2_parse_anm(text, strlen(text), m, WITH_ERROR(err), out, MAXA, count);
}

static md2_result fg(const char *text, const md2_model *m, md2_anim *out,
                     size_t *count, md2_diagnostic *err)
{
    return md2_parse_framegroups(text, strlen(text), m, WITH_ERROR(err), out, MAXA, count);
}

/* Byte offset of line:column in text (both 1-based; lines end in LF). */
static size_t offset_of(const char *text, size_t line, size_t column)
{
    size_t at = 0;
    while (line > 1) {
        if (text[at++] == '\n')
            line--;
    }
    return at + column - 1;
}

static void check_anim(const md2_anim *a, const char *name, uint32_t first,
                       uint32_t last, float fps, int loop)
{
    assert_string_equal(a->name, name);
    assert_int_equal(a->first, first);
    assert_int_equal(a->last, last);
    assert_true(fabsf(a->fps - fps) <= 1e-6f * fps);
    assert_int_equal(a->loop, loop);
}

/* Expects text to fail with result r at line:column, with a message that
 * names the line and contains 'needle'. */
typedef md2_result (*parser)(const char *, const md2_model *, md2_anim *,
                             size_t *, md2_diagnostic *);

static void expect_error(parser p, const char *text, const md2_model *m,
                         md2_result r, size_t line, size_t column,
                         const char *needle, size_t entries_before)
{
    md2_anim a[MAXA];
    md2_diagnostic err;
    size_t count = 12345;
    char prefix[64];
    md2_result got = p(text, m, a, &count, &err);

    if (got != r || err.line != line || err.column != column ||
        !strstr(err.message, needle))
        print_message("text [%s]\n -> %d line %lu col %lu: %s\n", text, (int)got,
                      (unsigned long)err.line, (unsigned long)err.column,
                      err.message);
    assert_int_equal(got, r);
    assert_int_equal(err.result, r);
    assert_int_equal(err.line, line);
    assert_int_equal(err.column, column);
    assert_int_equal(err.section, MD2_SECTION_SIDEFILE);
    assert_int_equal(err.offset, offset_of(text, line, column));
    assert_int_equal(err.index, entries_before);
    assert_non_null(strstr(err.message, needle));
    snprintf(prefix, sizeof prefix, "line %lu, column %lu: ", (unsigned long)line,
             (unsigned long)column);
    assert_true(strncmp(err.message, prefix, strlen(prefix)) == 0);
    assert_int_equal(count, entries_before);
}

/* ------------------------------------------------------------------------ */
/* .anm                                                                      */
/* ------------------------------------------------------------------------ */

static void test_anm_good(void **state)
{
    static const char text[] =
        "// soldier animations\n"
        "\n"
        "stand0\t0 0 10\n"
        "   walk0  1   12   12.5   // walking\n"
        "death1 13 20 7.25\r\n"
        "\"dead 1\" 20 20 1e1\r\n"
        "   \t  \n"
        "run 21 26 .5// no space before the comment\n"
        "panic0\f27\v28 +3";
    md2_anim a[MAXA];
    size_t n = 0;
    md2_diagnostic err;
    md2_model m = model_with_frames(30);
    (void)state;
    assert_int_equal(md2_parse_anm(text, sizeof text - 1, &m, WITH_ERROR(&err), a, MAXA, &n), MD2_OK);
    assert_int_equal(n, 6);
    assert_int_equal(err.result, MD2_OK);
    assert_int_equal(err.line, 0);
    check_anim(&a[0], "stand0", 0, 0, 10.0f, 1);
    check_anim(&a[1], "walk0", 1, 12, 12.5f, 1);
    check_anim(&a[2], "death1", 13, 20, 7.25f, 0); /* deaths play once */
    check_anim(&a[3], "dead 1", 20, 20, 10.0f, 0);
    check_anim(&a[4], "run", 21, 26, 0.5f, 1);
    check_anim(&a[5], "panic0", 27, 28, 3.0f, 1); /* form feed, vertical tab */
}

/* CR-only line ends, a byte order mark, a 16-byte name, an empty file and
 * a file of comments. */
static void test_anm_conventions(void **state)
{
    static const char cr[] = "\xEF\xBB\xBF" "a 0 1 10\rb 2 3 10\r\rsixteen_bytes_xy 4 4 1";
    md2_anim a[MAXA];
    size_t n = 99;
    md2_diagnostic err;
    (void)state;
    assert_int_equal(md2_parse_anm(cr, sizeof cr - 1, NULL, WITH_ERROR(&err), a, MAXA, &n), MD2_OK);
    assert_int_equal(n, 3);
    check_anim(&a[0], "a", 0, 1, 10.0f, 1);
    check_anim(&a[1], "b", 2, 3, 10.0f, 1);
    check_anim(&a[2], "sixteen_bytes_xy", 4, 4, 1.0f, 1);

    assert_int_equal(md2_parse_anm("", 0, NULL, WITH_ERROR(&err), a, MAXA, &n), MD2_OK);
    assert_int_equal(n, 0);
    assert_int_equal(md2_parse_anm(NULL, 0, NULL, WITH_ERROR(&err), a, MAXA, &n), MD2_OK);
    assert_int_equal(n, 0);
    assert_int_equal(anm("// nothing\n   // here\n\n", NULL, a, &n, &err), MD2_OK);
    assert_int_equal(n, 0);
    /* not NUL-terminated: size bounds the text */
    assert_int_equal(md2_parse_anm("x 0 1 5 garbage", 7, NULL, WITH_ERROR(&err), a, MAXA, &n), MD2_OK);
    assert_int_equal(n, 1);
    check_anim(&a[0], "x", 0, 1, 5.0f, 1);
}

static void test_anm_bad_lines(void **state)
{
    md2_model m = model_with_frames(20);
    (void)state;
    expect_error(anm, "a 0 1 10\nb 2 3\n", &m, MD2_ERR_PARSE_SIDEFILE, 2, 5,
                 "expected 4 fields", 1);
    expect_error(anm, "a 0 1 10 extra\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 10,
                 "unexpected field 'extra'", 0);
    expect_error(anm, "a 0 1 10\n\n// c\nb x 3 10\n", &m, MD2_ERR_PARSE_SIDEFILE, 4, 3,
                 "first frame 'x' is not a whole number", 1);
    expect_error(anm, "a -1 3 10\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 3,
                 "must not be negative", 0);
    expect_error(anm, "a 0 3.5 10\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 5,
                 "last frame '3.5' is not a whole number", 0);
    expect_error(anm, "a 0 99999999999 10\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 5,
                 "is too large", 0);
    expect_error(anm, "a 5 4 10\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 5,
                 "last frame 4 is before first frame 5", 0);
    expect_error(anm, "a 0 4 -5\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 7,
                 "fps '-5' must not be negative", 0);
    expect_error(anm, "a 0 4 -0\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 7,
                 "must not be negative", 0);
    expect_error(anm, "a 0 4 fast\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 7,
                 "fps 'fast' is not a number", 0);
    expect_error(anm, "a 0 4 nan\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 7,
                 "is not a number", 0);
    expect_error(anm, "a 0 4 10x\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 7,
                 "is not a number", 0);
    expect_error(anm, "a 0 4 1e\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 7,
                 "is not a number", 0);
    expect_error(anm, "a 0 4 .\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 7,
                 "is not a number", 0);
    expect_error(anm, "a 0 4 1e39\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 7,
                 "is too large", 0);
    expect_error(anm, "a 0 4 1e-60\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 7,
                 "is too small", 0);
    expect_error(anm, "seventeen_bytes_x 0 1 10\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 1,
                 "is longer than 16 bytes", 0);
    expect_error(anm, "\"open 0 1 10\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 1,
                 "without its closing quote", 0);
    expect_error(anm, "a 0 1\x01 10\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 6,
                 "control byte 0x01", 0);
    expect_error(anm, "a 0 1 10\r\nb 2 3 10\r\nc 5 20 10\r\n", &m, MD2_ERR_FRAME_RANGE,
                 3, 3, "reach past the model's last frame (20 frames)", 2);
    expect_error(anm, "a 0 1 10\nb 20 20 10\n", &m, MD2_ERR_FRAME_RANGE, 2, 3,
                 "frames 20-20", 1);
    /* a control byte inside a comment is fine */
    {
        md2_anim a[MAXA];
        size_t n;
        assert_int_equal(anm("a 0 1 10 // \x01\x02\n", &m, a, &n, NULL), MD2_OK);
        assert_int_equal(n, 1);
    }
}

/* Ranges are checked only when a model is given. */
static void test_anm_without_model(void **state)
{
    md2_anim a[MAXA];
    size_t n;
    md2_model small = model_with_frames(10);
    (void)state;
    assert_int_equal(anm("big 100 4000000000 10\n", NULL, a, &n, NULL), MD2_OK);
    check_anim(&a[0], "big", 100, 4000000000u, 10.0f, 1);
    assert_int_equal(anm("big 100 4000000000 10\n", &small, a, &n, NULL),
                     MD2_ERR_FRAME_RANGE);
    assert_int_equal(anm("ok 0 9 10\n", &small, a, &n, NULL), MD2_OK);
}

/* Sizing and too-small buffers. */
static void test_sizing(void **state)
{
    static const char text[] = "a 0 1 10\nb 2 3 10\nc 4 5 10\n";
    md2_anim a[3];
    size_t n = 0;
    md2_diagnostic err;
    (void)state;
    assert_int_equal(md2_parse_anm(text, sizeof text - 1, NULL, WITH_ERROR(&err), NULL, 0, &n), MD2_OK);
    assert_int_equal(n, 3);
    memset(a, 0x33, sizeof a);
    assert_int_equal(md2_parse_anm(text, sizeof text - 1, NULL, WITH_ERROR(&err), a, 2, &n),
                     MD2_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, 3);
    assert_int_equal(err.result, MD2_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(err.line, 0);
    check_anim(&a[0], "a", 0, 1, 10.0f, 1);
    check_anim(&a[1], "b", 2, 3, 10.0f, 1);
    assert_int_equal((unsigned char)a[2].name[0], 0x33); /* untouched */
    /* a bad line after the capacity is still found */
    assert_int_equal(md2_parse_anm("a 0 1 10\nb 2 3 10\nc 4\n", 22, NULL, WITH_ERROR(&err), a, 1, &n),
                     MD2_ERR_PARSE_SIDEFILE);
    assert_int_equal(err.line, 3);
    assert_int_equal(n, 2);
    /* invalid arguments */
    assert_int_equal(md2_parse_anm(text, sizeof text - 1, NULL, WITH_ERROR(&err), a, 3, NULL),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_parse_anm(NULL, 5, NULL, WITH_ERROR(&err), a, 3, &n), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(err.line, 0);
    assert_int_equal(md2_parse_anm(text, sizeof text - 1, NULL, NULL, NULL, 3, &n),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_parse_framegroups(text, sizeof text - 1, NULL, NULL, NULL, 3, &n),
                     MD2_ERR_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------------------ */
/* .framegroups                                                              */
/* ------------------------------------------------------------------------ */

static void test_framegroups_good(void **state)
{
    static const char text[] =
        "// player model\n"
        "0 40 9 1 // stand\n"
        "40 6 10 1 //run\n"
        "46 8 10 0 attack\n"
        "54 4 7 0 \"pain one\" // comment after a name\n"
        "58 4\n"
        "62 4 7.5\n"
        "66 6 7 -1\n"
        "72 12 7 0 // a-comment-word-that-is-too-long-for-a-name\n"
        "84 11 7 0 //\n"
        "\n";
    md2_anim a[MAXA];
    size_t n = 0;
    md2_model m = model_with_frames(198);
    (void)state;
    assert_int_equal(fg(text, &m, a, &n, NULL), MD2_OK);
    assert_int_equal(n, 9);
    check_anim(&a[0], "stand", 0, 39, 9.0f, 1);
    check_anim(&a[1], "run", 40, 45, 10.0f, 1);
    check_anim(&a[2], "attack", 46, 53, 10.0f, 0);
    check_anim(&a[3], "pain one", 54, 57, 7.0f, 0);
    check_anim(&a[4], "group4", 58, 61, 20.0f, 1);  /* DarkPlaces' fps; loops by name */
    check_anim(&a[5], "group5", 62, 65, 7.5f, 1);
    check_anim(&a[6], "group6", 66, 71, 7.0f, 1);   /* any non-zero loops */
    check_anim(&a[7], "group7", 72, 83, 7.0f, 0);   /* long comment: not a name */
    check_anim(&a[8], "group8", 84, 94, 7.0f, 0);
}

static void test_framegroups_bad_lines(void **state)
{
    md2_model m = model_with_frames(100);
    (void)state;
    expect_error(fg, "0 10 10 1\n7 // one field\n", &m, MD2_ERR_PARSE_SIDEFILE, 2, 1,
                 "expected at least 2 fields", 1);
    expect_error(fg, "0 10 10 1 name extra\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 16,
                 "unexpected field 'extra'", 0);
    expect_error(fg, "0 10 10 1 a b c d\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 13,
                 "unexpected field 'b'", 0);
    expect_error(fg, "0 0 10 1\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 3,
                 "frame count must be at least 1", 0);
    expect_error(fg, "x 10 10 1\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 1,
                 "first frame 'x' is not a whole number", 0);
    expect_error(fg, "-3 10 10 1\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 1,
                 "must not be negative", 0);
    expect_error(fg, "0 ten 10 1\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 3,
                 "frame count 'ten' is not a whole number", 0);
    expect_error(fg, "0 10 -1 1\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 6,
                 "must not be negative", 0);
    expect_error(fg, "0 10 abc 1\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 6,
                 "is not a number", 0);
    expect_error(fg, "0 10 10 yes\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 9,
                 "loop flag 'yes' is not a whole number", 0);
    expect_error(fg, "0 10 10 1.0\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 9,
                 "loop flag", 0);
    expect_error(fg, "0 10 10 -\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 9,
                 "loop flag", 0);
    expect_error(fg, "0 10 10 1 seventeen_bytes_x\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 11,
                 "is longer than 16 bytes", 0);
    expect_error(fg, "0 10 10 1\n95 6 10 1\n", &m, MD2_ERR_FRAME_RANGE, 2, 1,
                 "frames 95-100 reach past", 1);
    expect_error(fg, "4294967295 2\n", NULL, MD2_ERR_PARSE_SIDEFILE, 1, 12,
                 "first frame + count is too large", 0);
    expect_error(fg, "0 10 \"10 1\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 6,
                 "without its closing quote", 0);
    expect_error(fg, "0 10\x7f 10 1\n", &m, MD2_ERR_PARSE_SIDEFILE, 1, 5,
                 "control byte 0x7F", 0);
}

/* The standard Quake II table written as a .framegroups file applies to
 * faerie.md2 and matches both the table and the frame-name grouping. */
static void test_framegroups_faerie(void **state)
{
    char path[512];
    char text[2048];
    size_t len = 0, i, tn, n = 0, gn;
    const md2_anim *t = md2_anims_quake2_player(&tn);
    md2_anim a[MAXA], g[MAXA];
    md2_model *m = NULL;
    FILE *f;
    (void)state;

    snprintf(path, sizeof path, "%s/corpus/faerie.md2", MD2_SHARED_DIR);
    f = fopen(path, "rb");
    if (!f) {
        skip();
        return;
    }
    fclose(f);
    assert_int_equal(md2_load_file(path, NULL, &m), MD2_OK);
    for (i = 0; i < tn; i++) {
        int w = snprintf(text + len, sizeof text - len, "%u %u %d %d // %s\n",
                         (unsigned)t[i].first, (unsigned)(t[i].last - t[i].first + 1),
                         (int)t[i].fps, t[i].loop, t[i].name);
        assert_true(w > 0 && (size_t)w < sizeof text - len);
        len += (size_t)w;
    }
    assert_int_equal(md2_parse_framegroups(text, len, m, NULL, a, MAXA, &n), MD2_OK);
    assert_int_equal(n, tn);
    gn = md2_anims_from_names(m, g, MAXA);
    assert_int_equal(gn, tn);
    for (i = 0; i < n; i++) {
        check_anim(&a[i], t[i].name, t[i].first, t[i].last, t[i].fps, t[i].loop);
        assert_int_equal(g[i].first, a[i].first);
        assert_int_equal(g[i].last, a[i].last);
    }
    /* one past the model's 198 frames is refused */
    assert_int_equal(md2_parse_framegroups("190 9 7 0\n", 10, m, NULL, a, MAXA, &n),
                     MD2_ERR_FRAME_RANGE);
    md2_free(m);
}

/* Collects warnings. */
typedef struct heard {
    size_t count;
    md2_diagnostic last;
} heard;

static void on_warning(void *user, const md2_diagnostic *w)
{
    heard *h = (heard *)user;
    h->count++;
    h->last = *w;
}

/* UFO:AI's one-frame poses have a rate of 0: by default they load with a
 * warning and hold their frame; strict mode refuses them. */
static void test_rate_zero_holds(void **state)
{
    static const char text[] =
        "stand1 0 9 10\n"
        "dead1 29 29 0\n"
        "dead2 30 30 0.0\n"
        "death1 20 28 10\n";
    md2_anim a[MAXA];
    md2_model m = model_with_frames(40);
    md2_options o;
    md2_diagnostic d;
    heard h;
    size_t n = 0;
    (void)state;
    memset(&o, 0, sizeof o);
    memset(&h, 0, sizeof h);
    o.error = &d;
    o.on_warning = on_warning;
    o.warning_user = &h;
    assert_int_equal(md2_parse_anm(text, sizeof text - 1, &m, &o, a, MAXA, &n), MD2_OK);
    assert_int_equal(n, 4);
    check_anim(&a[1], "dead1", 29, 29, 0.0f, 0);
    check_anim(&a[2], "dead2", 30, 30, 0.0f, 0);
    assert_true(a[1].fps == 0.0f);
    assert_int_equal(h.count, 2);
    assert_int_equal(h.last.result, MD2_OK);
    assert_int_equal(h.last.warning, MD2_WARN_ANIM_RATE_ZERO);
    assert_int_equal(h.last.section, MD2_SECTION_SIDEFILE);
    assert_string_equal(h.last.field, "fps");
    assert_int_equal(h.last.line, 3);
    assert_int_equal(h.last.column, 13);
    assert_int_equal(h.last.index, 2);
    assert_int_equal(h.last.offset, offset_of(text, 3, 13));
    assert_non_null(strstr(h.last.message, "line 3, column 13"));
    assert_non_null(strstr(h.last.message, "holds"));
    /* such entries are valid animations */
    assert_int_equal(md2_anims_validate(a, n, &m, &d), MD2_OK);
    /* without a callback the warning is simply not heard */
    assert_int_equal(md2_parse_anm(text, sizeof text - 1, &m, NULL, a, MAXA, &n), MD2_OK);
    /* strict: the first such line is an error */
    o.strict = MD2_WARN_ANIM_RATE_ZERO;
    h.count = 0;
    assert_int_equal(md2_parse_anm(text, sizeof text - 1, &m, &o, a, MAXA, &n),
                     MD2_ERR_PARSE_SIDEFILE);
    assert_int_equal(n, 1);
    assert_int_equal(h.count, 0);
    assert_int_equal(d.result, MD2_ERR_PARSE_SIDEFILE);
    assert_int_equal(d.warning, 0);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.column, 13);
    assert_string_equal(d.field, "fps");
    assert_non_null(strstr(d.message, "line 2, column 13: fps '0' is 0"));
    /* .framegroups follow the same rule */
    o.strict = 0;
    assert_int_equal(md2_parse_framegroups("29 1 0 0 dead1\n", 15, &m, &o, a, MAXA, &n),
                     MD2_OK);
    check_anim(&a[0], "dead1", 29, 29, 0.0f, 0);
    assert_int_equal(h.count, 1);
    o.strict = MD2_STRICT_ALL;
    assert_int_equal(md2_parse_framegroups("29 1 0 0 dead1\n", 15, &m, &o, a, MAXA, &n),
                     MD2_ERR_PARSE_SIDEFILE);
    assert_int_equal(d.column, 6);
}

/* Numbers that are not finite floats in range are errors at their line
 * and column, however many digits they take to write. */
static void test_numbers_far_out_of_range(void **state)
{
    enum { ZEROS = 100027 };
    char *text = (char *)malloc(ZEROS + 64);
    md2_anim a[MAXA];
    md2_diagnostic d;
    size_t n, len;
    (void)state;
    assert_non_null(text);
    /* 1 followed by 100,027 zeros times 10^-1000000: 1e-899973 */
    len = (size_t)sprintf(text, "run 0 1 1");
    memset(text + len, '0', ZEROS);
    len += ZEROS;
    len += (size_t)sprintf(text + len, "e-1000000\n");
    assert_int_equal(md2_parse_anm(text, len, NULL, WITH_ERROR(&d), a, MAXA, &n),
                     MD2_ERR_PARSE_SIDEFILE);
    assert_int_equal(d.line, 1);
    assert_int_equal(d.column, 9);
    assert_non_null(strstr(d.message, "too small"));
    /* the same digits times 10^-100027 are exactly 1 */
    len = (size_t)sprintf(text, "run 0 1 1");
    memset(text + len, '0', ZEROS);
    len += ZEROS;
    len += (size_t)sprintf(text + len, "e-100027\n");
    assert_int_equal(md2_parse_anm(text, len, NULL, WITH_ERROR(&d), a, MAXA, &n), MD2_OK);
    assert_true(a[0].fps == 1.0f);
    /* and times 10^-100000: 1e27, a float */
    len -= strlen("e-100027\n");
    len += (size_t)sprintf(text + len, "e-100000\n");
    assert_int_equal(md2_parse_anm(text, len, NULL, WITH_ERROR(&d), a, MAXA, &n), MD2_OK);
    assert_true(fabsf(a[0].fps - 1e27f) <= 1e21f);
    /* 0.000...0001 with the digits after the point: 1e-100028 */
    len = (size_t)sprintf(text, "run 0 1 0.");
    memset(text + len, '0', ZEROS);
    len += ZEROS;
    len += (size_t)sprintf(text + len, "1\n");
    assert_int_equal(md2_parse_anm(text, len, NULL, WITH_ERROR(&d), a, MAXA, &n),
                     MD2_ERR_PARSE_SIDEFILE);
    assert_non_null(strstr(d.message, "too small"));
    /* ... which a large exponent brings back into range */
    len--;
    len += (size_t)sprintf(text + len - 1, "1e100030\n") - 1;
    assert_int_equal(md2_parse_anm(text, len, NULL, WITH_ERROR(&d), a, MAXA, &n), MD2_OK);
    assert_true(fabsf(a[0].fps - 100.0f) <= 1e-4f);
    /* a 1000-digit exponent saturates, it does not wrap */
    len = (size_t)sprintf(text, "run 0 1 5e");
    memset(text + len, '9', 1000);
    len += 1000;
    text[len++] = '\n';
    assert_int_equal(md2_parse_anm(text, len, NULL, WITH_ERROR(&d), a, MAXA, &n),
                     MD2_ERR_PARSE_SIDEFILE);
    assert_non_null(strstr(d.message, "too large"));
    text[10] = '-';
    memset(text + 11, '9', 999);
    assert_int_equal(md2_parse_anm(text, len, NULL, WITH_ERROR(&d), a, MAXA, &n),
                     MD2_ERR_PARSE_SIDEFILE);
    assert_non_null(strstr(d.message, "too small"));
    /* zero with any exponent is zero: the hold quirk */
    assert_int_equal(anm("run 0 1 0e999999999999999999\n", NULL, a, &n, &d), MD2_OK);
    assert_true(a[0].fps == 0.0f);
    /* the edges of float range */
    assert_int_equal(anm("run 0 1 3.4e38\n", NULL, a, &n, &d), MD2_OK);
    assert_int_equal(anm("run 0 1 3.5e38\n", NULL, a, &n, &d), MD2_ERR_PARSE_SIDEFILE);
    assert_int_equal(anm("run 0 1 1.2e-38\n", NULL, a, &n, &d), MD2_OK);
    assert_int_equal(anm("run 0 1 1e-39\n", NULL, a, &n, &d), MD2_ERR_PARSE_SIDEFILE);
    /* a rate whose animation would outlast the largest float: 6 frames at
     * 1.2e-38 fps last 5e38 seconds (glTF key times would be infinite) */
    assert_int_equal(anm("run 0 5 1.2e-38\n", NULL, a, &n, &d), MD2_ERR_PARSE_SIDEFILE);
    assert_string_equal(d.message, "line 1, column 9: fps '1.2e-38' is too small: 6 frames at "
                                   "that rate would last 5e+38 seconds, longer than a float can "
                                   "hold");
    assert_int_equal(d.column, 9);
    assert_string_equal(d.field, "fps");
    assert_int_equal(fg("0 6 1.2e-38 1\n", NULL, a, &n, &d), MD2_ERR_PARSE_SIDEFILE);
    assert_non_null(strstr(d.message, "column 5: fps '1.2e-38' is too small: 6 frames"));
    assert_int_equal(fg("0 2 1.2e-38 1\n", NULL, a, &n, &d), MD2_OK);
    assert_int_equal(anm("run 0 65535 1e-33\n", NULL, a, &n, &d), MD2_OK);
    assert_int_equal(anm("run 0 65535 1e-34\n", NULL, a, &n, &d), MD2_ERR_PARSE_SIDEFILE);
    free(text);
}

/* .anm entries loop or play once by name; a .framegroups loop field wins
 * over the name, and without one the name decides. */
static void test_loop_defaults(void **state)
{
    md2_anim a[MAXA];
    size_t n;
    (void)state;
    assert_int_equal(anm("stand0 0 1 10\nwalk0 2 3 10\ndeath1 4 5 10\ndead1 6 6 0\n"
                         "crpain 7 8 10\npain2 9 9 10\n",
                         NULL, a, &n, NULL), MD2_OK);
    assert_int_equal(n, 6);
    assert_int_equal(a[0].loop, 1);
    assert_int_equal(a[1].loop, 1);
    assert_int_equal(a[2].loop, 0);
    assert_int_equal(a[3].loop, 0);
    assert_int_equal(a[4].loop, 0);
    assert_int_equal(a[5].loop, 0);
    assert_int_equal(fg("0 5 10 // death\n5 5 10 1 // death\n10 5 10 0 run\n20 2\n",
                        NULL, a, &n, NULL), MD2_OK);
    assert_int_equal(n, 4);
    assert_int_equal(a[0].loop, 0); /* no field: by name */
    assert_int_equal(a[1].loop, 1); /* the field wins */
    assert_int_equal(a[2].loop, 0);
    assert_int_equal(a[3].loop, 1); /* "group3" */
}


/* ------------------------------------------------------------------------ */
/* Writing .anm text                                                         */
/* ------------------------------------------------------------------------ */

/* md2_write_anm() of anims[0..n) into a malloc'd NUL-terminated string;
 * its length in *len. Fails the test unless it succeeds. */
static char *write_anm(const md2_anim *anims, size_t n, size_t *len)
{
    size_t size = 12345, again = 0;
    md2_diagnostic err;
    char *text;
    if (md2_write_anm(anims, n, NULL, NULL, 0, &size, &err) != MD2_OK)
        print_message("md2_write_anm: %s\n", err.message);
    assert_int_equal(err.result, MD2_OK);
    text = (char *)malloc(size + 1);
    assert_non_null(text);
    assert_int_equal(md2_write_anm(anims, n, NULL, text, size, &again, &err), MD2_OK);
    assert_int_equal(again, size);
    text[size] = '\0';
    assert_int_equal(strlen(text), size); /* no NUL inside */
    *len = size;
    return text;
}

/* Parses text[0..len) into a (MAXA), returning the count. */
static size_t parse_all(const char *text, size_t len, md2_anim *a)
{
    size_t n = 0;
    md2_diagnostic err;
    if (md2_parse_anm(text, len, NULL, WITH_ERROR(&err), a, MAXA, &n) != MD2_OK)
        print_message("[%.*s]: %s\n", (int)len, text, err.message);
    assert_int_equal(err.result, MD2_OK);
    return n;
}

/* Entries equal field by field, fps bit for bit. */
static void assert_same_anims(const md2_anim *a, const md2_anim *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t fa, fb;
        assert_string_equal(a[i].name, b[i].name);
        assert_int_equal(a[i].first, b[i].first);
        assert_int_equal(a[i].last, b[i].last);
        memcpy(&fa, &a[i].fps, 4);
        memcpy(&fb, &b[i].fps, 4);
        assert_int_equal(fa, fb);
        assert_int_equal(a[i].loop, b[i].loop);
        assert_memory_equal(a[i].reserved_, b[i].reserved_, sizeof a[i].reserved_);
    }
}

/* Any text the parser reads: parse, write, parse gives the same entries,
 * and the written text is canonical (writing it again gives it again). */
static void test_anm_write_round_trip(void **state)
{
    static const char *const texts[] = {
        "// soldier\n\nstand0\t0 0 10\n   walk0  1   12   12.5   // walking\n"
        "death1 13 20 7.25\r\n\"dead 1\" 20 20 1e1\r\n   \t  \n"
        "run 21 26 .5// no space before the comment\npanic0\f27\v28 +3",
        "\xEF\xBB\xBF" "bom 0 1 2\rcr 1 2 3\r\"\" 0 0 0\n\"\xEF\xBB\xBF" "x\" 1 1 1\n",
        "a\"b 0 1 33.333332\n/x 2 2 0.1\n\"a//b\" 3 3 1E-5\n\"tab\there\" 4 4 000012.500\n"
        "sixteen_bytes_ok 5 6 4294967296\n\"\xC3\xA9t\xC3\xA9 \xE2\x82\xAC\" 0 4294967295 1e30\n",
        "max 0 0 3.40282346e38\nmin 0 0 1.17549436e-38\nslow 0 9 0.0000001\n"
        "fast 1 1 123456789\nwhole 2 2 100\nsmall 3 3 0.000123456\n",
        "",
        "// only a comment\n",
    };
    size_t t;
    (void)state;
    for (t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        md2_anim a[MAXA], b[MAXA];
        size_t n, m, len, len2;
        char *text, *again;
        n = parse_all(texts[t], strlen(texts[t]), a);
        text = write_anm(a, n, &len);
        m = parse_all(text, len, b);
        assert_int_equal(m, n);
        assert_same_anims(a, b, n);
        again = write_anm(b, m, &len2);
        assert_int_equal(len2, len);
        assert_memory_equal(again, text, len);
        free(text);
        free(again);
    }
}

/* A canonical text (the layout animation.h defines) comes back byte for
 * byte; other texts become their canonical form. */
static void test_anm_write_canonical(void **state)
{
    static const char canonical[] =
        "stand 0 39 9\n"
        "\"run fast\" 40 45 10\n"
        "\"\" 46 46 0\n"
        "a\"b 47 48 12.5\n"
        "\"//x\" 49 49 0.1\n"
        "\"\xEF\xBB\xBF" "bom\" 50 50 33.333332\n"
        "/x 51 4294967295 1e9\n"
        "pain1 0 0 0.0001\n"
        "t 1 2 1.5e-5\n"
        "u 1 1 2.5e12\n"
        "v 0 0 123456790\n"
        "w 0 0 3.402823466e38\n"
        "x 0 0 1.1754944e-38\n"
        "\"tab\there\" 0 0 1\n";
    static const struct {
        const char *in, *out;
    } forms[] = {
        {"\xEF\xBB\xBF// header\r\n\r\n  walk\t 1  12 12.50 // walking\r\n\"run\" 2 3 1e1\r"
         "dead 4 4 000.0\n\"x\" 5 5 +.5E+0",
         "walk 1 12 12.5\nrun 2 3 10\ndead 4 4 0\nx 5 5 0.5\n"},
        {"big 0 0 1e10\nfrac 0 0 .000010\nint 0 0 100000000\n",
         "big 0 0 1e10\nfrac 0 0 1e-5\nint 0 0 100000000\n"},
        {"// nothing\n\n", ""},
    };
    md2_anim a[MAXA];
    size_t n, len, i;
    char *text;
    (void)state;

    n = parse_all(canonical, sizeof canonical - 1, a);
    assert_int_equal(n, 14);
    text = write_anm(a, n, &len);
    assert_int_equal(len, sizeof canonical - 1);
    assert_memory_equal(text, canonical, len);
    free(text);
    for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        n = parse_all(forms[i].in, strlen(forms[i].in), a);
        text = write_anm(a, n, &len);
        assert_string_equal(text, forms[i].out);
        free(text);
    }
}

/* The significant digits of a rate text: its mantissa without the point,
 * leading and trailing zeros. */
static size_t significant_digits(const char *rate)
{
    char d[64];
    size_t n = 0, i, first = 0;
    for (i = 0; rate[i] && rate[i] != 'e' && n < sizeof d; i++)
        if (rate[i] >= '0' && rate[i] <= '9')
            d[n++] = rate[i];
    while (first < n && d[first] == '0')
        first++;
    while (n > first && d[n - 1] == '0')
        n--;
    return n - first;
}

/* Random rates over the whole float range: each comes back bit for bit,
 * and with the fewest digits: the correctly rounded text of one digit
 * less does not read back as the same float. */
static void test_anm_write_rates(void **state)
{
    uint32_t seed = 12345u;
    int i;
    (void)state;
    for (i = 0; i < 20000; i++) {
        md2_anim a, b;
        uint32_t bits;
        size_t len, n, digits;
        char *text;
        float f;
        do { /* a positive normal float: exponent bits 1..254 */
            seed = seed * 1664525u + 1013904223u;
            bits = seed >> 1;
        } while ((bits >> 23) == 0 || (bits >> 23) == 255);
        memcpy(&f, &bits, 4);
        memset(&a, 0, sizeof a);
        strcpy(a.name, "r");
        a.fps = f;
        text = write_anm(&a, 1, &len);
        assert_int_equal(strncmp(text, "r 0 0 ", 6), 0);
        n = parse_all(text, len, &b);
        assert_int_equal(n, 1);
        if (memcmp(&b.fps, &f, 4) != 0)
            print_message("%.9g -> %s", (double)f, text);
        assert_memory_equal(&b.fps, &f, 4);
        digits = significant_digits(text + 6);
        assert_true(digits >= 1 && digits <= 17);
        if (digits > 1) {
            md2_anim c;
            size_t k = 0;
            char line[64];
            snprintf(line, sizeof line, "r 0 0 %.*e\n", (int)digits - 2, (double)f);
            if (md2_parse_anm(line, strlen(line), NULL, NULL, &c, 1, &k) == MD2_OK)
                assert_memory_not_equal(&c.fps, &f, 4);
        }
        free(text);
    }
}

/* -0 is written as 0; no entries is no text; sizing, and a buffer too
 * small gets nothing. */
static void test_anm_write_sizes(void **state)
{
    md2_anim a[2];
    md2_diagnostic err;
    char buf[32];
    size_t size = 99, len;
    char *text;
    md2_model m = model_with_frames(8);
    (void)state;
    memset(a, 0, sizeof a);
    strcpy(a[0].name, "hold");
    a[0].fps = -0.0f;
    strcpy(a[1].name, "walk");
    a[1].first = 1;
    a[1].last = 7;
    a[1].fps = 12.5f;
    text = write_anm(a, 2, &len);
    assert_string_equal(text, "hold 0 0 0\nwalk 1 7 12.5\n");
    free(text);
    assert_int_equal(md2_write_anm(a, 0, NULL, NULL, 0, &size, &err), MD2_OK);
    assert_int_equal(size, 0);
    assert_int_equal(md2_write_anm(NULL, 0, NULL, buf, sizeof buf, &size, &err), MD2_OK);
    assert_int_equal(size, 0);
    /* with the model: the ranges are inside its 8 frames */
    assert_int_equal(md2_write_anm(a, 2, &m, NULL, 0, &size, &err), MD2_OK);
    assert_int_equal(size, 25);
    memset(buf, 'z', sizeof buf);
    assert_int_equal(md2_write_anm(a, 2, &m, buf, 24, &size, &err), MD2_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(size, 25); /* the size it needs */
    assert_int_equal(err.result, MD2_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(err.section, MD2_SECTION_SIDEFILE);
    assert_non_null(strstr(err.message, "25 bytes"));
    assert_int_equal(buf[0], 'z'); /* nothing written */
    assert_int_equal(md2_write_anm(a, 2, &m, buf, 25, &size, &err), MD2_OK);
    assert_memory_equal(buf, "hold 0 0 0\nwalk 1 7 12.5\n", 25);
    assert_int_equal(buf[25], 'z'); /* no NUL after the text */
}

/* One entry that cannot come back: refused with the result, field, entry
 * and a message with needle; nothing written and *size 0. */
static void expect_write_refused(const md2_anim *a, size_t n, const md2_model *m,
                                 md2_result r, const char *field, size_t index,
                                 const char *needle)
{
    md2_diagnostic err;
    char buf[256];
    size_t size = 99;
    md2_result got;
    memset(buf, 'z', sizeof buf);
    got = md2_write_anm(a, n, m, buf, sizeof buf, &size, &err);
    if (got != r || strcmp(err.field, field) != 0 || !strstr(err.message, needle))
        print_message("-> %d %s[%lu]: %s\n", (int)got, err.field, (unsigned long)err.index,
                      err.message);
    assert_int_equal(got, r);
    assert_int_equal(err.result, r);
    assert_int_equal(err.section, MD2_SECTION_SIDEFILE);
    assert_string_equal(err.field, field);
    assert_int_equal(err.index, index);
    assert_non_null(strstr(err.message, needle));
    assert_int_equal(size, 0);
    assert_int_equal(buf[0], 'z');
    /* and when only sizing */
    size = 99;
    assert_int_equal(md2_write_anm(a, n, m, NULL, 0, &size, NULL), r);
    assert_int_equal(size, 0);
}

static void test_anm_write_refusals(void **state)
{
    md2_anim a[3];
    md2_diagnostic err;
    md2_model m = model_with_frames(8);
    char buf[64];
    size_t size;
    (void)state;

    memset(a, 0, sizeof a);
    strcpy(a[0].name, "stand");
    a[0].fps = 10.0f;
    strcpy(a[1].name, "walk");
    a[1].first = 1;
    a[1].last = 7;
    a[1].fps = 12.5f;
    a[2] = a[0];
    /* bad arguments */
    assert_int_equal(md2_write_anm(a, 3, NULL, buf, sizeof buf, NULL, &err),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "size is NULL"));
    assert_int_equal(md2_write_anm(NULL, 1, NULL, buf, sizeof buf, &size, &err),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "anims is NULL"));
    assert_int_equal(md2_write_anm(a, 3, NULL, NULL, 5, &size, &err), MD2_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "out is NULL"));
    assert_int_equal(err.section, MD2_SECTION_SIDEFILE);
    assert_int_equal(md2_write_anm(a, 3, NULL, buf, sizeof buf, &size, &err), MD2_OK);

    /* names that an .anm line cannot hold, in entry 1 */
    memset(a[1].name, 'n', sizeof a[1].name); /* no NUL */
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "name", 1, "no NUL");
    strcpy(a[1].name, "wa\x1bk");
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "name", 1, "0x1B");
    strcpy(a[1].name, "walk\x7f");
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "name", 1, "0x7F");
    strcpy(a[1].name, "wa\nlk");
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "name", 1, "0x0A");
    strcpy(a[1].name, "a \"b"); /* needs quotes, holds one */
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "name", 1, "'\"'");
    strcpy(a[1].name, "\"ab"); /* starts with one */
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "name", 1, "'\"'");
    strcpy(a[1].name, "a//\"b");
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "name", 1, "'\"'");
    strcpy(a[1].name, "walk");
    assert_int_equal(md2_write_anm(a, 3, &m, buf, sizeof buf, &size, &err), MD2_OK);

    /* ranges */
    a[1].first = 8;
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "last", 1, "before first");
    a[1].first = 1;
    a[1].last = 8;
    expect_write_refused(a, 3, &m, MD2_ERR_FRAME_RANGE, "last", 1, "8 frames");
    assert_int_equal(md2_write_anm(a, 3, NULL, buf, sizeof buf, &size, &err), MD2_OK);
    a[1].last = 7;

    /* rates md2_parse_anm() refuses, or that would not stay a float */
    a[1].fps = NAN;
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "fps", 1, "walk");
    a[1].fps = INFINITY;
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "fps", 1, "inf");
    a[1].fps = -1.0f;
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "fps", 1, "-1");
    a[1].fps = 1e-40f; /* subnormal */
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "fps", 1, "FLT_MIN");
    a[1].first = 0;
    a[1].last = 0xFFFFFFFFu;
    a[1].fps = 1e-30f; /* 2^32 frames would last 4.3e39 seconds */
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "fps", 1, "longer than a float");
    a[1].fps = 1e-29f; /* 4.3e38 seconds: still too long */
    expect_write_refused(a, 3, NULL, MD2_ERR_INVALID_ARGUMENT, "fps", 1, "longer than a float");
    a[1].fps = 1e-28f; /* 4.3e37: fine */
    assert_int_equal(md2_write_anm(a, 3, NULL, NULL, 0, &size, &err), MD2_OK);

    /* reserved_ of an entry: as every call that reads an md2_anim says it
     * (docs/errors.md, "Reserved fields"), before the entries' checks */
    a[1].fps = 12.5f;
    a[0].last = 9;
    a[2].reserved_[1] = 7;
    memset(buf, 'z', sizeof buf);
    size = 99;
    assert_int_equal(md2_write_anm(a, 3, &m, buf, sizeof buf, &size, &err),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(err.field, "md2_anim.reserved_[1]");
    assert_non_null(strstr(err.message, "animation 2 ('stand')"));
    assert_int_equal(size, 0);
    assert_int_equal(buf[0], 'z');
}

/* The text does not depend on the C locale's decimal point. Here only
 * where a locale with a decimal comma is installed. */
static void test_anm_write_locale(void **state)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
                                        "fr_FR.utf8", "de_DE", "German_Germany.1252"};
    md2_anim a;
    char *before, *after;
    size_t len, i;
    const char *set = NULL;
    (void)state;
    memset(&a, 0, sizeof a);
    strcpy(a.name, "walk");
    a.fps = 12.5f;
    before = write_anm(&a, 1, &len);
    assert_string_equal(before, "walk 0 0 12.5\n");
    for (i = 0; i < sizeof names / sizeof names[0] && !set; i++)
        set = setlocale(LC_NUMERIC, names[i]);
    if (!set) {
        print_message("no locale with a decimal comma installed: checked in the C locale only\n");
        free(before);
        return;
    }
    after = write_anm(&a, 1, &len);
    setlocale(LC_NUMERIC, "C");
    assert_string_equal(after, before);
    free(before);
    free(after);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_anm_good),
        cmocka_unit_test(test_anm_conventions),
        cmocka_unit_test(test_anm_bad_lines),
        cmocka_unit_test(test_anm_without_model),
        cmocka_unit_test(test_sizing),
        cmocka_unit_test(test_framegroups_good),
        cmocka_unit_test(test_framegroups_bad_lines),
        cmocka_unit_test(test_framegroups_faerie),
        cmocka_unit_test(test_rate_zero_holds),
        cmocka_unit_test(test_numbers_far_out_of_range),
        cmocka_unit_test(test_loop_defaults),
        cmocka_unit_test(test_anm_write_round_trip),
        cmocka_unit_test(test_anm_write_canonical),
        cmocka_unit_test(test_anm_write_rates),
        cmocka_unit_test(test_anm_write_sizes),
        cmocka_unit_test(test_anm_write_refusals),
        cmocka_unit_test(test_anm_write_locale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
