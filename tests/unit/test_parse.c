/*
 * Tests of the parser: every field of a synthetic model, every error code
 * of md2_parse() with its diagnostic, and the lenient and strict handling
 * of each quirk of real files.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static uint8_t file[TU_MAX_FILE];

/* Parses and checks the result, and for an error the diagnostic's
 * section, field and offset, and that its message names the offset. */
static md2_model *expect(const uint8_t *data, size_t size, uint32_t strict,
                         md2_result want, md2_section section, const char *field,
                         size_t offset)
{
    md2_options o;
    md2_diagnostic d;
    md2_model *m = (md2_model *)&o; /* must be reset to NULL on error */
    md2_result r;
    char num[32];

    memset(&o, 0, sizeof o);
    o.strict = strict;
    o.error = &d;
    {
        /* a stream of the same bytes gives the same result and diagnosis */
        tu_memstream s;
        md2_model *sm = NULL;
        tu_memstream_init(&s, data, size, 0);
        r = md2_load_stream(tu_mem_read, &s, &o, &sm);
        assert_int_equal(r, want);
        md2_free(sm);
        if (r != MD2_OK) {
            assert_int_equal(d.section, section);
            assert_string_equal(d.field, field);
            assert_int_equal(d.offset, offset);
        }
    }
    r = md2_parse(data, size, &o, &m);
    if (r != want)
        fprintf(stderr, "got %s (%s), want %s\n", md2_result_string(r), d.message,
                md2_result_string(want));
    assert_int_equal(r, want);
    assert_int_equal(d.result, want);
    if (want == MD2_OK) {
        assert_non_null(m);
        return m;
    }
    assert_null(m);
    assert_int_equal(d.section, section);
    assert_string_equal(d.field, field);
    assert_int_equal(d.offset, offset);
    snprintf(num, sizeof num, "%lu", (unsigned long)offset);
    if (strstr(d.message, num) == NULL)
        fprintf(stderr, "message lacks offset %s: %s\n", num, d.message);
    assert_non_null(strstr(d.message, num));
    assert_non_null(strstr(d.message, md2_section_string(section)));
    return NULL;
}

static size_t tiny(void) { return tu_tiny(file); }

static void test_tiny_model_fields(void **state)
{
    size_t size = tiny();
    md2_model *m = expect(file, size, MD2_STRICT_ALL, MD2_OK, MD2_SECTION_NONE, "", 0);
    int f, i;
    (void)state;

    assert_int_equal(m->warnings, 0);
    assert_int_equal(m->header.ident, MD2_IDENT);
    assert_int_equal(m->header.ofs_end, (int32_t)size);
    assert_int_equal(m->skin_width, 64);
    assert_int_equal(m->skin_height, 32);
    assert_int_equal(m->num_skins, 2);
    assert_string_equal(m->skins[0].name, "models/tiny/skin.pcx");
    assert_string_equal(m->skins[1].name, "models/tiny/evil.pcx");
    assert_int_equal(m->num_vertices, 4);
    assert_int_equal(m->num_texcoords, 4);
    assert_int_equal(m->texcoords[3].s, -8);
    assert_int_equal(m->texcoords[3].t, 40);
    assert_int_equal(m->num_triangles, 2);
    assert_int_equal(m->triangles[1].vertex[0], 0);
    assert_int_equal(m->triangles[1].vertex[1], 2);
    assert_int_equal(m->triangles[1].vertex[2], 3);
    assert_int_equal(m->triangles[1].texcoord[2], 3);
    assert_int_equal(m->num_frames, 3);
    assert_string_equal(m->frames[0].name, "walk1");
    assert_string_equal(m->frames[2].name, "run1");
    for (f = 0; f < 3; f++) {
        assert_true(m->frames[f].scale[0] == 1.0f + (float)f);
        assert_true(m->frames[f].scale[2] == 0.5f);
        assert_true(m->frames[f].translate[2] == 10.0f * (float)f);
        for (i = 0; i < 4; i++) {
            assert_int_equal(m->frames[f].vertices[i].v[0], 10 * i + f);
            assert_int_equal(m->frames[f].vertices[i].v[1], 255 - i);
            assert_int_equal(m->frames[f].vertices[i].v[2], i * i);
            assert_int_equal(m->frames[f].vertices[i].normal, (40 * i + f) % 162);
        }
    }
    assert_int_equal(m->num_glcmds, 21);
    assert_int_equal(m->glcmds[0], 3);
    assert_int_equal(m->glcmds[10], -3);
    assert_int_equal(m->glcmds[20], 0);
    md2_free(m);
}

static void test_glcmd_iteration(void **state)
{
    size_t size = tiny();
    md2_model *m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    md2_glcmd_iter it;
    md2_glcmd c;
    md2_glcmd_vertex v;
    (void)state;

    md2_glcmd_begin(&it, m);
    assert_int_equal(md2_glcmd_next(&it, &c), 1);
    assert_int_equal(c.is_fan, 0);
    assert_int_equal(c.num_vertices, 3);
    v = md2_glcmd_get(&c, 1);
    assert_true(v.s == 1.0f && v.t == 0.0f);
    assert_int_equal(v.vertex, 1);
    assert_int_equal(md2_glcmd_next(&it, &c), 1);
    assert_int_equal(c.is_fan, 1);
    assert_int_equal(c.num_vertices, 3);
    v = md2_glcmd_get(&c, 2);
    assert_true(v.s == 0.0f && v.t == 1.0f);
    assert_int_equal(v.vertex, 3);
    v = md2_glcmd_get(&c, 3); /* out of range: zeroed */
    assert_true(v.s == 0.0f && v.t == 0.0f && v.vertex == 0);
    assert_int_equal(md2_glcmd_next(&it, &c), 0);
    assert_int_equal(md2_glcmd_next(&it, &c), 0);
    md2_free(m);
}

static void test_defaults_and_arguments(void **state)
{
    size_t size = tiny();
    md2_model *m = NULL;
    (void)state;
    assert_int_equal(md2_parse(file, size, NULL, &m), MD2_OK);
    md2_free(m);
    assert_int_equal(md2_parse(file, size, NULL, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_parse(NULL, size, NULL, &m), MD2_ERR_INVALID_ARGUMENT);
    assert_null(m);
    md2_free(NULL); /* no-op */
}

static void test_texcoord_uv(void **state)
{
    size_t size = tiny();
    md2_model *m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    float u, v;
    (void)state;
    md2_texcoord_uv(m, m->texcoords[2], &u, &v);
    assert_true(u == 1.0f && v == 1.0f);
    md2_texcoord_uv(m, m->texcoords[3], &u, &v);
    assert_true(u == -0.125f && v == 1.25f); /* outside the skin is kept */
    md2_free(m);
}

/* ---- one test per error code ----------------------------------------- */

static void test_err_truncated_header(void **state)
{
    (void)state;
    tiny();
    expect(file, 67, 0, MD2_ERR_TRUNCATED_HEADER, MD2_SECTION_HEADER, "header", 67);
    expect(file, 0, 0, MD2_ERR_TRUNCATED_HEADER, MD2_SECTION_HEADER, "header", 0);
}

static void test_err_bad_magic(void **state)
{
    size_t size = tiny();
    (void)state;
    file[3] = '3';
    expect(file, size, 0, MD2_ERR_BAD_MAGIC, MD2_SECTION_HEADER, "ident", 0);
}

static void test_err_bad_version(void **state)
{
    size_t size = tiny();
    (void)state;
    tu_set_hdr(file, TU_VERSION, 7);
    expect(file, size, 0, MD2_ERR_BAD_VERSION, MD2_SECTION_HEADER, "version", 4);
}

static void test_err_bad_count_each_field(void **state)
{
    static const struct { int field; const char *name; } counts[] = {
        {TU_NUM_SKINS, "num_skins"}, {TU_NUM_XYZ, "num_xyz"}, {TU_NUM_ST, "num_st"},
        {TU_NUM_TRIS, "num_tris"}, {TU_NUM_GLCMDS, "num_glcmds"},
        {TU_NUM_FRAMES, "num_frames"}};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        size_t size = tiny();
        tu_set_hdr(file, counts[i].field, -1);
        expect(file, size, 0, MD2_ERR_BAD_COUNT, MD2_SECTION_HEADER, counts[i].name,
               4 * (size_t)counts[i].field);
        tu_set_hdr(file, counts[i].field, INT_MIN);
        expect(file, size, 0, MD2_ERR_BAD_COUNT, MD2_SECTION_HEADER, counts[i].name,
               4 * (size_t)counts[i].field);
    }
}

static void test_err_bad_skin_size(void **state)
{
    size_t size = tiny();
    (void)state;
    tu_set_hdr(file, TU_SKINWIDTH, -64);
    expect(file, size, 0, MD2_ERR_BAD_SKIN_SIZE, MD2_SECTION_HEADER, "skinwidth", 8);
    tiny();
    tu_set_hdr(file, TU_SKINHEIGHT, INT_MIN);
    expect(file, size, 0, MD2_ERR_BAD_SKIN_SIZE, MD2_SECTION_HEADER, "skinheight", 12);
}

static void test_quirk_skin_size_zero(void **state)
{
    size_t size = tiny();
    md2_model *m;
    float u = 5, v = 5;
    (void)state;
    tu_set_hdr(file, TU_SKINHEIGHT, 0);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_SKIN_SIZE_ZERO);
    md2_texcoord_uv(m, m->texcoords[1], &u, &v);
    assert_true(u == 1.0f && v == 0.0f);
    md2_free(m);
    expect(file, size, MD2_WARN_SKIN_SIZE_ZERO, MD2_ERR_BAD_SKIN_SIZE,
           MD2_SECTION_HEADER, "skinheight", 12);
}

static void test_err_bad_framesize(void **state)
{
    size_t size = tiny();
    (void)state;
    tu_set_hdr(file, TU_FRAMESIZE, 40 + 4 * 4 - 1);
    expect(file, size, 0, MD2_ERR_BAD_FRAMESIZE, MD2_SECTION_HEADER, "framesize", 16);
    tu_set_hdr(file, TU_FRAMESIZE, -1);
    expect(file, size, 0, MD2_ERR_BAD_FRAMESIZE, MD2_SECTION_HEADER, "framesize", 16);
    tu_set_hdr(file, TU_FRAMESIZE, 0);
    expect(file, size, 0, MD2_ERR_BAD_FRAMESIZE, MD2_SECTION_HEADER, "framesize", 16);
}

static void test_quirk_framesize_padded(void **state)
{
    tu_spec s;
    size_t size;
    md2_model *m;
    (void)state;
    tu_spec_default(&s);
    s.frame_padding = 12;
    size = tu_build(&s, file);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_FRAMESIZE_PADDED);
    /* frames are stepped by framesize: the last frame is still right */
    assert_string_equal(m->frames[2].name, "run1");
    assert_int_equal(m->frames[2].vertices[3].v[0], 32);
    md2_free(m);
    expect(file, size, MD2_WARN_FRAMESIZE_PADDED, MD2_ERR_BAD_FRAMESIZE,
           MD2_SECTION_HEADER, "framesize", 16);
}

static void test_err_no_vertices(void **state)
{
    size_t size = tiny();
    (void)state;
    tu_set_hdr(file, TU_NUM_XYZ, 0);
    expect(file, size, 0, MD2_ERR_NO_VERTICES, MD2_SECTION_HEADER, "num_xyz", 24);
}

static void test_err_no_frames(void **state)
{
    size_t size = tiny();
    (void)state;
    tu_set_hdr(file, TU_NUM_FRAMES, 0);
    expect(file, size, 0, MD2_ERR_NO_FRAMES, MD2_SECTION_HEADER, "num_frames", 40);
}

static void test_err_limit_exceeded(void **state)
{
    size_t size = tiny();
    md2_options o;
    md2_diagnostic d;
    md2_model *m = NULL;
    (void)state;

    /* the uint16 index width bounds num_xyz and num_st without options */
    tu_set_hdr(file, TU_NUM_XYZ, MD2_MAX_INDEXABLE + 1);
    expect(file, size, 0, MD2_ERR_LIMIT_EXCEEDED, MD2_SECTION_HEADER, "num_xyz", 24);
    tiny();
    tu_set_hdr(file, TU_NUM_ST, INT_MAX);
    expect(file, size, 0, MD2_ERR_LIMIT_EXCEEDED, MD2_SECTION_HEADER, "num_st", 28);

    /* caller limits, one field at a time: at the limit loads, above fails */
    tiny();
    memset(&o, 0, sizeof o);
    o.error = &d;
    o.limits.max_frames = 3;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_OK);
    md2_free(m);
    o.limits.max_frames = 2;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_string_equal(d.field, "num_frames");
    memset(&o.limits, 0, sizeof o.limits);
    o.limits.max_skins = 1;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_string_equal(d.field, "num_skins");
    memset(&o.limits, 0, sizeof o.limits);
    o.limits.max_vertices = 3;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_string_equal(d.field, "num_xyz");
    memset(&o.limits, 0, sizeof o.limits);
    o.limits.max_texcoords = 3;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_string_equal(d.field, "num_st");
    memset(&o.limits, 0, sizeof o.limits);
    o.limits.max_triangles = 1;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_string_equal(d.field, "num_tris");
    memset(&o.limits, 0, sizeof o.limits);
    o.limits.max_glcmds = 20;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_string_equal(d.field, "num_glcmds");
    assert_null(m);
}

static void test_quake2_limits_preset(void **state)
{
    md2_limits q = md2_limits_quake2();
    md2_options o;
    md2_diagnostic d;
    md2_model *m = NULL;
    size_t size = tiny();
    (void)state;
    assert_int_equal(q.max_triangles, 4096);
    assert_int_equal(q.max_vertices, 2048);
    assert_int_equal(q.max_frames, 512);
    assert_int_equal(q.max_skins, 32);
    assert_int_equal(q.max_texcoords, 6144);
    assert_int_equal(q.max_glcmds, 16384);
    assert_int_equal(q.max_file_size, 0);
    memset(&o, 0, sizeof o);
    o.limits = q;
    o.error = &d;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_OK);
    md2_free(m);
    /* 4097 triangles: refused on the count, before the section is checked */
    tu_set_hdr(file, TU_NUM_TRIS, 4097);
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_string_equal(d.field, "num_tris");
    /* without the preset the same file is refused only because the
     * triangles do not fit in the data */
    o.limits = md2_limits_quake2();
    memset(&o.limits, 0, sizeof o.limits);
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_SECTION_OUT_OF_BOUNDS);
}

static void test_err_section_out_of_bounds(void **state)
{
    size_t size = tiny();
    (void)state;
    /* inside the header */
    tu_set_hdr(file, TU_OFS_TRIS, 8);
    expect(file, size, 0, MD2_ERR_SECTION_OUT_OF_BOUNDS, MD2_SECTION_TRIANGLES, "ofs_tris", 52);
    tu_set_hdr(file, TU_OFS_TRIS, -4);
    expect(file, size, 0, MD2_ERR_SECTION_OUT_OF_BOUNDS, MD2_SECTION_TRIANGLES, "ofs_tris", 52);
    /* past the end: the offset reported is the section's start */
    tiny();
    tu_set_hdr(file, TU_OFS_FRAMES, (int32_t)size - 10);
    expect(file, size, 0, MD2_ERR_SECTION_OUT_OF_BOUNDS, MD2_SECTION_FRAMES, "ofs_frames",
           size - 10);
    tiny();
    tu_set_hdr(file, TU_OFS_SKINS, INT_MAX);
    expect(file, size, 0, MD2_ERR_SECTION_OUT_OF_BOUNDS, MD2_SECTION_SKINS, "ofs_skins",
           (size_t)INT_MAX);
    /* a count that makes the section overflow 32 bits */
    tiny();
    tu_set_hdr(file, TU_NUM_GLCMDS, INT_MAX);
    expect(file, size, 0, MD2_ERR_SECTION_OUT_OF_BOUNDS, MD2_SECTION_GLCMDS, "ofs_glcmds",
           (size_t)tu_hdr(file, TU_OFS_GLCMDS));
    /* the data cut short by one byte */
    tiny();
    expect(file, size - 1, 0, MD2_ERR_SECTION_OUT_OF_BOUNDS, MD2_SECTION_GLCMDS, "ofs_glcmds",
           (size_t)tu_hdr(file, TU_OFS_GLCMDS));
}

static void test_empty_sections_ignore_their_offsets(void **state)
{
    tu_spec s;
    size_t size;
    md2_model *m;
    (void)state;
    tu_spec_default(&s);
    s.num_skins = 0; /* player models get their skin from the game */
    s.num_gl = 0;    /* GL commands are optional */
    size = tu_build(&s, file);
    tu_set_hdr(file, TU_OFS_SKINS, -7);
    tu_set_hdr(file, TU_OFS_GLCMDS, INT_MAX);
    m = expect(file, size, MD2_STRICT_ALL, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->num_skins, 0);
    assert_null(m->skins);
    assert_int_equal(m->num_glcmds, 0);
    assert_null(m->glcmds);
    md2_free(m);
}

static void test_err_section_overlap(void **state)
{
    size_t size = tiny();
    (void)state;
    /* texcoords that would read the triangles' bytes: refused in both modes */
    tu_set_hdr(file, TU_OFS_ST, tu_hdr(file, TU_OFS_TRIS));
    expect(file, size, 0, MD2_ERR_SECTION_OVERLAP, MD2_SECTION_TRIANGLES, "ofs_tris",
           (size_t)tu_hdr(file, TU_OFS_TRIS));
    /* every section at the same offset: the first pair is reported */
    tiny();
    tu_set_hdr(file, TU_OFS_FRAMES, tu_hdr(file, TU_OFS_SKINS));
    expect(file, size, 0, MD2_ERR_SECTION_OVERLAP, MD2_SECTION_FRAMES, "ofs_frames", 68);
    /* sharing one byte is enough */
    tiny();
    tu_set_hdr(file, TU_OFS_GLCMDS, tu_hdr(file, TU_OFS_GLCMDS) - 1);
    tu_set_hdr(file, TU_NUM_GLCMDS, 20);
    expect(file, size, 0, MD2_ERR_SECTION_OVERLAP, MD2_SECTION_GLCMDS, "ofs_glcmds",
           (size_t)tu_hdr(file, TU_OFS_GLCMDS));
}

static void test_quirk_ofs_end(void **state)
{
    tu_spec s;
    size_t size;
    md2_model *m;
    (void)state;

    /* smaller and larger than the data */
    size = tiny();
    tu_set_hdr(file, TU_OFS_END, (int32_t)size - 10);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_OFS_END);
    md2_free(m);
    expect(file, size, MD2_WARN_OFS_END, MD2_ERR_BAD_OFS_END, MD2_SECTION_HEADER, "ofs_end", 64);
    tu_set_hdr(file, TU_OFS_END, INT_MAX);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_OFS_END);
    md2_free(m);
    tu_set_hdr(file, TU_OFS_END, -1);
    expect(file, size, MD2_STRICT_ALL, MD2_ERR_BAD_OFS_END, MD2_SECTION_HEADER, "ofs_end", 64);

    /* trailing bytes after the data */
    tu_spec_default(&s);
    s.trailing = 5;
    size = tu_build(&s, file);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_OFS_END);
    assert_int_equal(m->num_glcmds, 21);
    md2_free(m);
}

static void test_quirk_unterminated_names(void **state)
{
    static uint8_t out[TU_MAX_FILE];
    tu_spec s;
    size_t size, written = 0;
    md2_model *m;
    (void)state;
    tu_spec_default(&s);
    memset(s.skins[1], 'k', 64);
    memcpy(s.names[1], "abcdefghijklmnop", 16);
    size = tu_build(&s, file);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_UNTERMINATED_NAME);
    assert_int_equal(strlen(m->skins[1].name), 64);
    assert_int_equal(m->skins[1].name[63], 'k');
    assert_string_equal(m->frames[1].name, "abcdefghijklmnop");
    /* written back as they were: all 64 and 16 bytes, still without a NUL */
    assert_int_equal(md2_write(m, out, sizeof out, &written, NULL), MD2_OK);
    assert_int_equal(written, size);
    assert_memory_equal(out, file, size);
    md2_free(m);
    /* strict: the first unterminated name is the skin */
    expect(file, size, MD2_WARN_UNTERMINATED_NAME, MD2_ERR_UNTERMINATED_NAME,
           MD2_SECTION_SKINS, "name", 68 + 64);
}

static void test_name_bytes_after_nul_are_kept(void **state)
{
    static uint8_t out[TU_MAX_FILE];
    tu_spec s;
    size_t size, written = 0;
    md2_model *m;
    (void)state;
    tu_spec_default(&s);
    memcpy(s.names[0], "walk1\0garbage!!", 16);
    size = tu_build(&s, file);
    m = expect(file, size, MD2_STRICT_ALL, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_string_equal(m->frames[0].name, "walk1");
    assert_memory_equal(m->frames[0].name, "walk1\0garbage!!", 16);
    /* and written back as they were */
    assert_int_equal(md2_write(m, out, sizeof out, &written, NULL), MD2_OK);
    assert_int_equal(written, size);
    assert_memory_equal(out, file, size);
    md2_free(m);
}

static void test_quirk_vertex_index(void **state)
{
    tu_spec s;
    size_t size;
    md2_model *m;
    (void)state;
    tu_spec_default(&s);
    s.tris[0][1] = 0xFFFF;
    size = tu_build(&s, file);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_VERTEX_INDEX);
    assert_int_equal(m->header.num_tris, 2);
    assert_int_equal(m->num_triangles, 1); /* dropped */
    assert_int_equal(m->triangles[0].vertex[2], 3);
    md2_free(m);
    expect(file, size, MD2_WARN_VERTEX_INDEX, MD2_ERR_BAD_VERTEX_INDEX,
           MD2_SECTION_TRIANGLES, "index_xyz", (size_t)tu_hdr(file, TU_OFS_TRIS) + 2);
}

static void test_quirk_texcoord_index(void **state)
{
    tu_spec s;
    size_t size;
    md2_model *m;
    (void)state;
    tu_spec_default(&s);
    s.tris[1][5] = 4; /* num_st is 4 */
    size = tu_build(&s, file);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_TEXCOORD_INDEX);
    assert_int_equal(m->num_triangles, 1);
    assert_int_equal(m->triangles[0].vertex[1], 1);
    md2_free(m);
    expect(file, size, MD2_WARN_TEXCOORD_INDEX, MD2_ERR_BAD_TEXCOORD_INDEX,
           MD2_SECTION_TRIANGLES, "index_st", (size_t)tu_hdr(file, TU_OFS_TRIS) + 12 + 10);
}

static void test_quirk_all_triangles_dropped(void **state)
{
    tu_spec s;
    size_t size;
    md2_model *m;
    (void)state;
    tu_spec_default(&s);
    s.num_st = 0;
    size = tu_build(&s, file);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->num_triangles, 0);
    assert_null(m->triangles);
    assert_int_equal(m->num_texcoords, 0);
    assert_null(m->texcoords);
    assert_int_equal(m->warnings, MD2_WARN_TEXCOORD_INDEX);
    md2_free(m);
}

static void test_valid_oddities_load_strictly(void **state)
{
    /* unused vertices and normals all index 0 are valid, in strict mode too
     * (the normals get their advice, MD2_WARN_SAME_NORMALS, which strict
     * mode leaves a warning) */
    tu_spec s;
    size_t size;
    md2_model *m;
    int f, i;
    (void)state;
    tu_spec_default(&s);
    s.num_tris = 1;           /* vertex 3 is used by no triangle... */
    s.gl[10] = 0;             /* ...nor by a GL command */
    s.num_gl = 11;
    for (f = 0; f < 3; f++)
        for (i = 0; i < 4; i++)
            s.verts[f][i][3] = 0;
    size = tu_build(&s, file);
    m = expect(file, size, MD2_STRICT_ALL, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_SAME_NORMALS);
    assert_int_equal(m->num_vertices, 4);
    assert_int_equal(m->frames[1].vertices[3].normal, 0);
    md2_free(m);
}

static void test_quirk_normal_index(void **state)
{
    tu_spec s;
    size_t size;
    md2_model *m;
    size_t at;
    (void)state;
    tu_spec_default(&s);
    s.verts[2][1][3] = 162;
    s.verts[2][3][3] = 255;
    size = tu_build(&s, file);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_NORMAL_INDEX);
    assert_int_equal(m->frames[2].vertices[1].normal, 162); /* kept as read */
    assert_ptr_equal(md2_normal(162), md2_normal(MD2_NORMAL_FALLBACK));
    assert_ptr_equal(md2_normal(255), md2_normal(MD2_NORMAL_FALLBACK));
    md2_free(m);
    at = (size_t)tu_hdr(file, TU_OFS_FRAMES) + 2 * (size_t)tu_hdr(file, TU_FRAMESIZE) + 40 + 4 + 3;
    expect(file, size, MD2_WARN_NORMAL_INDEX, MD2_ERR_BAD_NORMAL_INDEX,
           MD2_SECTION_FRAMES, "lightnormalindex", at);
}

/* A model of n vertices and 3 frames with no skins and no GL commands,
 * written byte by byte; normal indices from (7 * i) % 162. Returns the size. */
static size_t build_frames_model(uint8_t *out, uint32_t n)
{
    const uint32_t framesize = 40 + 4 * n, ofs_frames = 68 + 4 + 12;
    const uint32_t end = ofs_frames + 3 * framesize;
    const uint32_t h[17] = {0x32504449u, 8, 8, 8, framesize, 0, n, 1, 1, 0, 3,
                            68, 68, 72, ofs_frames, end, end};
    uint32_t k, f, i;
    memset(out, 0, end);
    for (k = 0; k < 17; k++)
        tu_set32(out, 4 * k, (int32_t)h[k]);
    for (f = 0; f < 3; f++) {
        uint8_t *fr = out + ofs_frames + f * framesize;
        for (k = 0; k < 3; k++)
            tu_set32(fr, 4 * k, 0x3F800000); /* scale 1.0f; translate 0 */
        fr[24] = (uint8_t)('a' + f);
        for (i = 0; i < n; i++) {
            fr[40 + 4 * i] = (uint8_t)(i + f);
            fr[40 + 4 * i + 1] = (uint8_t)(2 * i);
            fr[40 + 4 * i + 2] = (uint8_t)(3 * i + f);
            fr[40 + 4 * i + 3] = (uint8_t)((7 * i) % 162);
        }
    }
    return end;
}

typedef struct seen_offsets {
    size_t count;
    size_t offset[4];
} seen_offsets;

static void note_offset(void *user, const md2_diagnostic *w)
{
    seen_offsets *s = (seen_offsets *)user;
    if (s->count < 4)
        s->offset[s->count] = w->offset;
    s->count++;
}

/* The parser checks normal indices while it copies the vertices (lenient,
 * no callback) or before it allocates (strict, or a callback listens):
 * with every vertex count from 1 to 80 (every tail of the vector loops)
 * and bad indices at the first, middle and last vertex, each way finds
 * them, at the same bytes, and the copy is the file's. */
static void test_normal_index_check_rides_the_copy(void **state)
{
    static uint8_t data[68 + 16 + 3 * (40 + 4 * 80)];
    uint32_t n, p;
    (void)state;
    for (n = 1; n <= 80; n++) {
        uint32_t where[3];
        where[0] = 0;
        where[1] = n / 2;
        where[2] = n - 1;
        for (p = 0; p < 3; p++) {
            size_t size = build_frames_model(data, n), fs = 40 + 4 * (size_t)n, f;
            size_t at1 = 84 + fs + 40 + 4 * (size_t)where[p] + 3;
            size_t at2 = 84 + 2 * fs + 40 + 4 * (size_t)(n - 1 - where[p]) + 3;
            md2_options o;
            md2_diagnostic d;
            seen_offsets seen;
            md2_model *m = NULL;
            data[at1] = 200;
            data[at2] = 162;
            memset(&o, 0, sizeof o);
            memset(&seen, 0, sizeof seen);
            o.on_warning = note_offset;
            o.warning_user = &seen;
            assert_int_equal(md2_parse(data, size, &o, &m), MD2_OK);
            assert_int_equal(seen.count, 2);
            assert_int_equal(seen.offset[0], at1);
            assert_int_equal(seen.offset[1], at2);
            for (f = 0; f < 3; f++)
                assert_memory_equal(m->frames[f].vertices, data + 84 + f * fs + 40, 4 * (size_t)n);
            md2_free(m);
            /* no callback: the check rides the copy; the flag tells */
            assert_int_equal(md2_parse(data, size, NULL, &m), MD2_OK);
            assert_int_equal(m->warnings, MD2_WARN_NORMAL_INDEX);
            for (f = 0; f < 3; f++)
                assert_memory_equal(m->frames[f].vertices, data + 84 + f * fs + 40, 4 * (size_t)n);
            md2_free(m);
            o.strict = MD2_WARN_NORMAL_INDEX;
            o.error = &d;
            assert_int_equal(md2_parse(data, size, &o, &m), MD2_ERR_BAD_NORMAL_INDEX);
            assert_int_equal(d.offset, at1);
        }
    }
}

typedef struct seen_flags {
    size_t count;
    uint32_t flag[8];
} seen_flags;

static void note_flag(void *user, const md2_diagnostic *w)
{
    seen_flags *s = (seen_flags *)user;
    if (s->count < 8)
        s->flag[s->count] = w->warning;
    s->count++;
}

/* on_warning hears the warnings in the order md2.h gives: triangles, frame
 * transforms, normals, then GL commands. */
static void test_warnings_in_check_order(void **state)
{
    tu_spec s;
    size_t size;
    md2_model *m = NULL;
    md2_options o;
    seen_flags seen;
    (void)state;
    tu_spec_default(&s);
    s.num_gl = 20;          /* GL commands without their 0 */
    s.verts[1][2][3] = 200; /* a normal index */
    s.tris[0][2] = 0xFFFF;  /* a vertex index */
    s.scale[2][1] = 1e38f;  /* a frame transform */
    size = tu_build(&s, file);
    memset(&o, 0, sizeof o);
    memset(&seen, 0, sizeof seen);
    o.on_warning = note_flag;
    o.warning_user = &seen;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_OK);
    assert_int_equal(seen.count, 4);
    assert_int_equal(seen.flag[0], MD2_WARN_VERTEX_INDEX);
    assert_int_equal(seen.flag[1], MD2_WARN_FRAME_TRANSFORM);
    assert_int_equal(seen.flag[2], MD2_WARN_NORMAL_INDEX);
    assert_int_equal(seen.flag[3], MD2_WARN_GLCMDS_UNTERMINATED);
    md2_free(m);
}

/* The lenient checks of names, frame transforms and normal indices ride
 * the copy into the model when none of them is strict and nothing listens,
 * and run before the allocation otherwise: both ways give the same model
 * and the same flags, and a listener hears each warning once, in check
 * order. So do the real models. */
static void test_lenient_checks_either_way(void **state)
{
    static const char *const corpus[] = {"faerie.md2", "sydney.md2"};
    const uint32_t want =
        MD2_WARN_UNTERMINATED_NAME | MD2_WARN_FRAME_TRANSFORM | MD2_WARN_NORMAL_INDEX;
    tu_spec s;
    size_t size, k;
    md2_model *quiet = NULL, *heard = NULL, *m = NULL;
    md2_options o;
    seen_flags seen;
    tu_memstream ms;
    (void)state;
    tu_spec_default(&s);
    memset(s.skins[1], 'k', 64);                /* a skin name without a NUL */
    memcpy(s.names[2], "abcdefghijklmnop", 16); /* and a frame name */
    s.scale[1][0] = (float)INFINITY;            /* two bad axes of frame 1 */
    s.translate[1][2] = (float)NAN;
    s.verts[0][3][3] = 200; /* a bad normal index */
    size = tu_build(&s, file);
    /* in the copy */
    assert_int_equal(md2_parse(file, size, NULL, &quiet), MD2_OK);
    assert_int_equal(quiet->warnings, want);
    assert_true(quiet->frames[1].scale[0] == 0.0f && quiet->frames[1].translate[0] == 0.0f);
    assert_true(quiet->frames[1].scale[1] == 2.0f);
    assert_true(quiet->frames[1].scale[2] == 0.0f && quiet->frames[1].translate[2] == 0.0f);
    assert_int_equal(quiet->frames[0].vertices[3].normal, 200);
    assert_memory_equal(quiet->frames[2].name, "abcdefghijklmnop", 17);
    /* before the allocation, heard */
    memset(&o, 0, sizeof o);
    memset(&seen, 0, sizeof seen);
    o.on_warning = note_flag;
    o.warning_user = &seen;
    assert_int_equal(md2_parse(file, size, &o, &heard), MD2_OK);
    assert_int_equal(heard->warnings, want);
    tu_assert_models_equal(quiet, heard);
    assert_int_equal(seen.count, 4);
    assert_int_equal(seen.flag[0], MD2_WARN_UNTERMINATED_NAME); /* the skin's */
    assert_int_equal(seen.flag[1], MD2_WARN_UNTERMINATED_NAME); /* the frame's */
    assert_int_equal(seen.flag[2], MD2_WARN_FRAME_TRANSFORM);   /* once for frame 1 */
    assert_int_equal(seen.flag[3], MD2_WARN_NORMAL_INDEX);
    md2_free(heard);
    /* strict on a quirk the file does not have: in the copy still */
    o.on_warning = NULL;
    o.strict = MD2_WARN_GLCMDS_TRAILING | MD2_WARN_SAME_NORMALS;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_OK);
    assert_int_equal(m->warnings, want);
    tu_assert_models_equal(quiet, m);
    md2_free(m);
    /* strict on each of them: before the allocation, not heard but refused */
    o.strict = MD2_WARN_NORMAL_INDEX;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_BAD_NORMAL_INDEX);
    o.strict = MD2_WARN_FRAME_TRANSFORM;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_BAD_FRAME_TRANSFORM);
    o.strict = MD2_WARN_UNTERMINATED_NAME;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_UNTERMINATED_NAME);
    assert_null(m);
    /* the stream loader */
    tu_memstream_init(&ms, file, size, 5);
    assert_int_equal(md2_load_stream(tu_mem_read, &ms, NULL, &m), MD2_OK);
    assert_int_equal(m->warnings, want);
    tu_assert_models_equal(quiet, m);
    md2_free(m);
    md2_free(quiet);
    for (k = 0; k < 2; k++) {
        uint8_t *data = tu_read_corpus(corpus[k], &size);
        if (!data)
            continue; /* the shared corpus is absent */
        memset(&seen, 0, sizeof seen);
        o.strict = 0;
        o.on_warning = note_flag;
        assert_int_equal(md2_parse(data, size, NULL, &quiet), MD2_OK);
        assert_int_equal(md2_parse(data, size, &o, &heard), MD2_OK);
        tu_assert_models_equal(quiet, heard);
        assert_int_equal(quiet->warnings, heard->warnings);
        md2_free(quiet);
        md2_free(heard);
        free(data);
    }
}

/* Keeps the last warning heard. */
static void keep_warning(void *user, const md2_diagnostic *w)
{
    *(md2_diagnostic *)user = *w;
}

/* The warning flags of the model s describes, parsed leniently. */
static uint32_t warnings_of(const tu_spec *s)
{
    size_t size = tu_build(s, file);
    md2_model *m = NULL;
    uint32_t w;
    assert_int_equal(md2_parse(file, size, NULL, &m), MD2_OK);
    w = m->warnings;
    md2_free(m);
    return w;
}

/* MD2_WARN_SAME_NORMALS: every vertex of every frame has one normal index
 * (a model of 3 or more vertices); an advice that strict leaves a warning. */
static void test_advice_same_normals(void **state)
{
    tu_spec s;
    size_t size;
    md2_model *m = NULL;
    md2_options o;
    md2_diagnostic heard, err;
    int f, i;
    (void)state;
    tu_spec_default(&s);
    for (f = 0; f < s.num_frames; f++)
        for (i = 0; i < s.num_xyz; i++)
            s.verts[f][i][3] = 7;
    size = tu_build(&s, file);
    assert_int_equal(md2_parse(file, size, NULL, &m), MD2_OK);
    assert_int_equal(m->warnings, MD2_WARN_SAME_NORMALS);
    md2_free(m);
    /* heard, with what and where; strict mode does not refuse it */
    memset(&o, 0, sizeof o);
    memset(&heard, 0, sizeof heard);
    o.on_warning = keep_warning;
    o.warning_user = &heard;
    o.error = &err;
    o.strict = MD2_STRICT_ALL;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_OK);
    assert_int_equal(m->warnings, MD2_WARN_SAME_NORMALS);
    md2_free(m);
    assert_int_equal(heard.warning, MD2_WARN_SAME_NORMALS);
    assert_int_equal(heard.result, MD2_OK);
    assert_int_equal(heard.section, MD2_SECTION_FRAMES);
    assert_string_equal(heard.field, "lightnormalindex");
    assert_int_equal(heard.offset, (size_t)tu_hdr(file, TU_OFS_FRAMES) + 40 + 3);
    assert_string_equal(heard.message,
                        "frames: all 4 vertices of all 3 frames have normal index 7, so "
                        "lighting by the model's normals is flat: games recompute its normals "
                        "from the triangles (md2 export and md2 render: --normals smooth)");
    assert_string_equal(md2_warning_string(MD2_WARN_SAME_NORMALS),
                        "every vertex has the same normal index (flat lighting; games "
                        "recompute the normals)");
    /* through the stream loader too */
    {
        tu_memstream ms;
        tu_memstream_init(&ms, file, size, 7);
        assert_int_equal(md2_load_stream(tu_mem_read, &ms, NULL, &m), MD2_OK);
        assert_int_equal(m->warnings, MD2_WARN_SAME_NORMALS);
        md2_free(m);
    }
    /* a model of one frame */
    s.num_frames = 1;
    size = tu_build(&s, file);
    memset(&heard, 0, sizeof heard);
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_OK);
    md2_free(m);
    assert_string_equal(heard.message,
                        "frames: all 4 vertices of its 1 frame have normal index 7, so "
                        "lighting by the model's normals is flat: games recompute its normals "
                        "from the triangles (md2 export and md2 render: --normals smooth)");
    s.num_frames = 3;
    /* one vertex of the last frame differs: no warning */
    s.verts[2][3][3] = 8;
    assert_int_equal(warnings_of(&s), 0);
    /* so does one of the first frame */
    s.verts[2][3][3] = 7;
    s.verts[0][1][3] = 0;
    assert_int_equal(warnings_of(&s), 0);
    /* fewer than 3 vertices: a pair of vertices may share a normal */
    s.verts[0][1][3] = 7;
    s.num_xyz = 2;
    s.num_tris = 0;
    s.num_gl = 0;
    assert_int_equal(warnings_of(&s) & MD2_WARN_SAME_NORMALS, 0);
}

/* What on_warning heard of the normal indices. */
typedef struct heard_normals {
    size_t same, bad;      /* MD2_WARN_SAME_NORMALS, MD2_WARN_NORMAL_INDEX */
    size_t same_offset;
    char same_message[256]; /* as md2_diagnostic's */
} heard_normals;

static void note_normals(void *user, const md2_diagnostic *w)
{
    heard_normals *h = (heard_normals *)user;
    if (w->warning == MD2_WARN_SAME_NORMALS) {
        h->same++;
        h->same_offset = w->offset;
        memcpy(h->same_message, w->message, sizeof h->same_message);
    } else if (w->warning == MD2_WARN_NORMAL_INDEX) {
        h->bad++;
    }
}

/* Checks the warnings of the model at data (size bytes, n vertices, 3
 * frames, from build_frames_model) on each way the parser learns them:
 * while it copies the vertices (no listener), before it allocates (a
 * listener; MD2_WARN_NORMAL_INDEX strict; everything strict), and through
 * the stream loader. want: MD2_WARN_SAME_NORMALS and MD2_WARN_NORMAL_INDEX
 * as the bytes deserve; bad_frames: the frames with a bad index. */
static void expect_normal_warnings(const uint8_t *data, size_t size, uint32_t n, uint32_t want,
                                   size_t bad_frames)
{
    const size_t fs = 40 + 4 * (size_t)n;
    md2_options o;
    md2_diagnostic d;
    heard_normals heard;
    md2_model *m = NULL;
    tu_memstream ms;
    size_t f;

    /* no listener: the checks ride the copy */
    assert_int_equal(md2_parse(data, size, NULL, &m), MD2_OK);
    assert_int_equal(m->warnings, want);
    for (f = 0; f < 3; f++)
        assert_memory_equal(m->frames[f].vertices, data + 84 + f * fs + 40, 4 * (size_t)n);
    md2_free(m);
    /* a listener: the scan before the allocation */
    memset(&o, 0, sizeof o);
    memset(&heard, 0, sizeof heard);
    o.on_warning = note_normals;
    o.warning_user = &heard;
    assert_int_equal(md2_parse(data, size, &o, &m), MD2_OK);
    assert_int_equal(m->warnings, want);
    for (f = 0; f < 3; f++)
        assert_memory_equal(m->frames[f].vertices, data + 84 + f * fs + 40, 4 * (size_t)n);
    md2_free(m);
    assert_int_equal(heard.same, (want & MD2_WARN_SAME_NORMALS) ? 1 : 0);
    assert_int_equal(heard.bad, bad_frames);
    if (want & MD2_WARN_SAME_NORMALS) {
        char text[128];
        assert_int_equal(heard.same_offset, 84 + 40 + 3);
        snprintf(text, sizeof text, "frames: all %lu vertices of all 3 frames have normal index %u,",
                 (unsigned long)n, (unsigned)data[84 + 40 + 3]);
        assert_memory_equal(heard.same_message, text, strlen(text));
    }
    /* everything strict: a bad index refuses the file, the advice stays one */
    o.strict = MD2_STRICT_ALL;
    o.error = &d;
    memset(&heard, 0, sizeof heard);
    if (want & MD2_WARN_NORMAL_INDEX) {
        assert_int_equal(md2_parse(data, size, &o, &m), MD2_ERR_BAD_NORMAL_INDEX);
        assert_null(m);
        assert_int_equal(heard.same, 0);
    } else {
        assert_int_equal(md2_parse(data, size, &o, &m), MD2_OK);
        assert_int_equal(m->warnings, want);
        assert_int_equal(heard.same, (want & MD2_WARN_SAME_NORMALS) ? 1 : 0);
        md2_free(m);
    }
    /* MD2_WARN_NORMAL_INDEX strict and nothing listening */
    o.on_warning = NULL;
    o.strict = MD2_WARN_NORMAL_INDEX;
    assert_int_equal(md2_parse(data, size, &o, &m),
                     (want & MD2_WARN_NORMAL_INDEX) ? MD2_ERR_BAD_NORMAL_INDEX : MD2_OK);
    if (m)
        assert_int_equal(m->warnings, want);
    md2_free(m);
    /* the stream loader, 7 bytes a read */
    tu_memstream_init(&ms, data, size, 7);
    assert_int_equal(md2_load_stream(tu_mem_read, &ms, NULL, &m), MD2_OK);
    assert_int_equal(m->warnings, want);
    md2_free(m);
}

/* MD2_WARN_SAME_NORMALS is learnt in the pass that reads every normal
 * index (the SIMD scans and the scalar one alike): with every vertex count
 * from 1 to 80 (every tail of the vector loops: 4, 8, 16 and 32 vertices),
 * all equal, one differing at the last vertex of the last frame, in frame
 * 0 (its first vertex, the reference, too), in the middle frame; with bad
 * indices (162 or more) all equal, or differing, or one among good ones;
 * on every way the parser checks them. */
static void test_same_normals_on_every_path(void **state)
{
    static uint8_t data[68 + 16 + 3 * (40 + 4 * 80)];
    uint32_t n, i, f, w;
    (void)state;
    for (n = 1; n <= 80; n++) {
        const size_t fs = 40 + 4 * (size_t)n, size = build_frames_model(data, n);
        const uint32_t same = n >= 3 ? MD2_WARN_SAME_NORMALS : 0;
        uint8_t *normal[3];
        uint32_t where[4];
        for (f = 0; f < 3; f++)
            normal[f] = data + 84 + f * fs + 40 + 3; /* normal[f][4 * i]: vertex i */
#define SET_ALL(value)                                                        \
    do {                                                                      \
        for (f = 0; f < 3; f++)                                               \
            for (i = 0; i < n; i++)                                           \
                normal[f][4 * i] = (uint8_t)(value);                          \
    } while (0)
        SET_ALL(7);
        expect_normal_warnings(data, size, n, same, 0);
        normal[2][4 * (n - 1)] = 8; /* the last vertex of the last frame */
        expect_normal_warnings(data, size, n, 0, 0);
        where[0] = 0;
        where[1] = 1 % n;
        where[2] = n / 2;
        where[3] = n - 1;
        for (w = 0; w < 4; w++) {
            SET_ALL(7);
            normal[0][4 * where[w]] = 161; /* in frame 0 */
            expect_normal_warnings(data, size, n, 0, 0);
            SET_ALL(7);
            normal[1][4 * where[w]] = 0; /* in the middle frame */
            expect_normal_warnings(data, size, n, 0, 0);
        }
        SET_ALL(200); /* bad, and all the same */
        expect_normal_warnings(data, size, n, MD2_WARN_NORMAL_INDEX | same, 3);
        normal[2][4 * (n - 1)] = 255;
        expect_normal_warnings(data, size, n, MD2_WARN_NORMAL_INDEX, 3);
        SET_ALL(161);
        normal[2][4 * (n - 1)] = 162; /* one bad index among good ones */
        expect_normal_warnings(data, size, n, MD2_WARN_NORMAL_INDEX, 1);
#undef SET_ALL
    }
}

static void test_quirk_glcmds_unterminated(void **state)
{
    tu_spec s;
    size_t size;
    md2_model *m;
    (void)state;
    tu_spec_default(&s);
    s.num_gl = 20; /* drop the 0 */
    size = tu_build(&s, file);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_GLCMDS_UNTERMINATED);
    assert_int_equal(m->num_glcmds, 21);
    assert_int_equal(m->glcmds[20], 0);
    md2_free(m);
    expect(file, size, MD2_WARN_GLCMDS_UNTERMINATED, MD2_ERR_GLCMDS_UNTERMINATED,
           MD2_SECTION_GLCMDS, "glcmds", (size_t)tu_hdr(file, TU_OFS_GLCMDS) + 80);
}

static void test_quirk_frame_transform(void **state)
{
    static const float bad[] = {0.0f, 0.0f, 4e28f, -1e30f};
    /* a float variable, not a constant: where float expressions are
     * evaluated in double (s390x), 1e27f itself is not rounded to float */
    const float big = 1e27f;
    tu_spec s;
    size_t size;
    md2_model *m;
    float pos[4][3];
    int i;
    (void)state;
    /* NaN, infinity, and values that decode past MD2_MAX_COORD */
    for (i = 0; i < 4; i++) {
        tu_spec_default(&s);
        if (i == 0)
            s.scale[1][2] = (float)NAN;
        else if (i == 1)
            s.translate[1][2] = (float)INFINITY;
        else
            s.scale[1][2] = bad[i]; /* 255 * 4e28 and 1e30 * 255 are too large */
        size = tu_build(&s, file);
        m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
        assert_int_equal(m->warnings, MD2_WARN_FRAME_TRANSFORM);
        /* that axis is flat at 0; the others are untouched */
        assert_true(m->frames[1].scale[2] == 0.0f && m->frames[1].translate[2] == 0.0f);
        assert_true(m->frames[1].scale[0] == 2.0f);
        assert_int_equal(md2_decode_frame(m, 1, &pos[0][0], 0, NULL, 0), MD2_OK);
        assert_true(pos[3][2] == 0.0f && pos[3][0] == 2.0f * 31.0f - 1.0f);
        md2_free(m);
        expect(file, size, MD2_WARN_FRAME_TRANSFORM, MD2_ERR_BAD_FRAME_TRANSFORM,
               MD2_SECTION_FRAMES, "scale",
               (size_t)tu_hdr(file, TU_OFS_FRAMES) + (size_t)tu_hdr(file, TU_FRAMESIZE) + 8);
    }
    /* large but within the bound: accepted as it is */
    tu_spec_default(&s);
    s.scale[0][0] = big;
    size = tu_build(&s, file);
    m = expect(file, size, MD2_STRICT_ALL, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_true(m->frames[0].scale[0] == big);
    md2_free(m);
}

static void test_quirk_glcmds_nonfinite_texcoord(void **state)
{
    const float nan = (float)NAN;
    tu_spec s;
    size_t size;
    md2_model *m;
    (void)state;
    tu_spec_default(&s);
    memcpy(&s.gl[14], &nan, 4); /* s of the fan's second vertex */
    size = tu_build(&s, file);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_GLCMDS_INVALID);
    assert_int_equal(m->num_glcmds, 11); /* the strip, then the 0 */
    md2_free(m);
    expect(file, size, MD2_WARN_GLCMDS_INVALID, MD2_ERR_BAD_GLCMDS, MD2_SECTION_GLCMDS,
           "glcmds", (size_t)tu_hdr(file, TU_OFS_GLCMDS) + 4 * 14);
}

static void test_quirk_glcmds_trailing_words(void **state)
{
    tu_spec s;
    size_t size;
    md2_model *m;
    (void)state;
    tu_spec_default(&s);
    s.gl[21] = 77; /* two words after the 0 */
    s.gl[22] = -5;
    s.num_gl = 23;
    size = tu_build(&s, file);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_GLCMDS_TRAILING);
    assert_int_equal(m->header.num_glcmds, 23);
    assert_int_equal(m->num_glcmds, 21); /* up to and with the 0 */
    md2_free(m);
    expect(file, size, MD2_WARN_GLCMDS_TRAILING, MD2_ERR_BAD_GLCMDS, MD2_SECTION_GLCMDS,
           "glcmds", (size_t)tu_hdr(file, TU_OFS_GLCMDS) + 4 * 21);
}

/* Breaks word k of the GL list with value v; expects the list cut to
 * keep_words words (before the terminator) and the fault at word bad. */
static void check_bad_glcmds(int k, int32_t v, size_t keep_words, size_t bad)
{
    tu_spec s;
    size_t size;
    md2_model *m;
    md2_glcmd_iter it;
    md2_glcmd c;
    int n = 0;
    tu_spec_default(&s);
    s.gl[k] = v;
    size = tu_build(&s, file);
    m = expect(file, size, 0, MD2_OK, MD2_SECTION_NONE, "", 0);
    assert_int_equal(m->warnings, MD2_WARN_GLCMDS_INVALID);
    assert_int_equal(m->num_glcmds, keep_words + 1);
    assert_int_equal(m->glcmds[keep_words], 0);
    md2_glcmd_begin(&it, m);
    while (md2_glcmd_next(&it, &c))
        n++;
    assert_int_equal(n, keep_words == 0 ? 0 : 1);
    md2_free(m);
    expect(file, size, MD2_WARN_GLCMDS_INVALID, MD2_ERR_BAD_GLCMDS, MD2_SECTION_GLCMDS,
           "glcmds", (size_t)tu_hdr(file, TU_OFS_GLCMDS) + 4 * bad);
}

static void test_quirk_glcmds_invalid(void **state)
{
    (void)state;
    check_bad_glcmds(10, -7, 10, 10);        /* fan runs past the end */
    check_bad_glcmds(10, INT_MIN, 10, 10);   /* count that overflows when negated */
    check_bad_glcmds(0, INT_MAX, 0, 0);      /* huge strip */
    check_bad_glcmds(13, 4, 10, 13);         /* vertex index == num_xyz */
    check_bad_glcmds(19, -1, 10, 19);        /* negative vertex index */
    check_bad_glcmds(3, 0x7FFFFFFF, 0, 3);   /* first command's index */
}

/* ---- warnings and messages ------------------------------------------- */

typedef struct seen {
    int calls;
    md2_diagnostic last;
} seen;

static void on_warning(void *user, const md2_diagnostic *d)
{
    seen *s = (seen *)user;
    s->calls++;
    s->last = *d;
}

static void test_warning_callback(void **state)
{
    tu_spec s;
    size_t size;
    md2_model *m = NULL;
    md2_options o;
    seen w;
    (void)state;
    tu_spec_default(&s);
    s.tris[0][0] = 9;
    s.tris[1][0] = 9;
    size = tu_build(&s, file);
    memset(&o, 0, sizeof o);
    memset(&w, 0, sizeof w);
    o.on_warning = on_warning;
    o.warning_user = &w;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_OK);
    assert_int_equal(w.calls, 2); /* once per dropped triangle */
    assert_int_equal(w.last.result, MD2_OK);
    assert_int_equal(w.last.warning, MD2_WARN_VERTEX_INDEX);
    assert_int_equal(w.last.section, MD2_SECTION_TRIANGLES);
    assert_int_equal(w.last.index, 1);
    assert_int_equal(w.last.offset, (size_t)tu_hdr(file, TU_OFS_TRIS) + 12);
    assert_non_null(strstr(w.last.message, "triangle 1"));
    assert_int_equal(m->num_triangles, 0);
    md2_free(m);
}

static void test_error_message_is_specific(void **state)
{
    size_t size = tiny();
    md2_options o;
    md2_diagnostic d;
    md2_model *m;
    (void)state;
    tu_set_hdr(file, TU_NUM_FRAMES, 1000);
    memset(&o, 0, sizeof o);
    o.error = &d;
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_SECTION_OUT_OF_BOUNDS);
    assert_non_null(strstr(d.message, "frames"));
    assert_non_null(strstr(d.message, "1000"));
    assert_non_null(strstr(d.message, "ofs_frames"));
    assert_non_null(strstr(d.message, "past the end"));
}

static void test_result_and_warning_strings(void **state)
{
    int r, k;
    (void)state;
    for (r = 0; r < MD2_RESULT_COUNT_; r++) {
        const char *s = md2_result_string((md2_result)r);
        assert_non_null(s);
        assert_true(strcmp(s, "unknown md2_result") != 0);
        for (k = 0; k < r; k++)
            assert_true(strcmp(s, md2_result_string((md2_result)k)) != 0);
    }
    assert_string_equal(md2_result_string((md2_result)999), "unknown md2_result");
    assert_string_equal(md2_result_string((md2_result)-1), "unknown md2_result");
    for (k = 0; k < 17; k++) {
        assert_true(strcmp(md2_warning_string(1u << k), "unknown or combined md2_warning") != 0);
        assert_true((MD2_STRICT_ALL & (1u << k)) != 0);
    }
    assert_int_equal(MD2_STRICT_ALL, (1u << 17) - 1);
    assert_string_equal(md2_warning_string(1u << 17), "unknown or combined md2_warning");
    assert_string_equal(md2_warning_string(3), "unknown or combined md2_warning");
    assert_string_equal(md2_section_string(MD2_SECTION_GLCMDS), "glcmds");
    assert_string_equal(md2_section_string(MD2_SECTION_SIDEFILE), "side file");
    assert_string_equal(md2_section_string(MD2_SECTION_TAGS), "tag file");
    assert_string_equal(md2_section_string((md2_section)77), "unknown section");
}

static void test_version(void **state)
{
    char want[32];
    (void)state;
    snprintf(want, sizeof want, "%d.%d.%d", MD2_VERSION_MAJOR, MD2_VERSION_MINOR,
             MD2_VERSION_PATCH);
    assert_string_equal(md2_version_string(), want);
    assert_int_equal(MD2_VERSION_NUMBER,
                     MD2_VERSION_MAJOR * 10000 + MD2_VERSION_MINOR * 100 + MD2_VERSION_PATCH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny_model_fields),
        cmocka_unit_test(test_glcmd_iteration),
        cmocka_unit_test(test_defaults_and_arguments),
        cmocka_unit_test(test_texcoord_uv),
        cmocka_unit_test(test_err_truncated_header),
        cmocka_unit_test(test_err_bad_magic),
        cmocka_unit_test(test_err_bad_version),
        cmocka_unit_test(test_err_bad_count_each_field),
        cmocka_unit_test(test_err_bad_skin_size),
        cmocka_unit_test(test_quirk_skin_size_zero),
        cmocka_unit_test(test_err_bad_framesize),
        cmocka_unit_test(test_quirk_framesize_padded),
        cmocka_unit_test(test_err_no_vertices),
        cmocka_unit_test(test_err_no_frames),
        cmocka_unit_test(test_err_limit_exceeded),
        cmocka_unit_test(test_quake2_limits_preset),
        cmocka_unit_test(test_err_section_out_of_bounds),
        cmocka_unit_test(test_empty_sections_ignore_their_offsets),
        cmocka_unit_test(test_err_section_overlap),
        cmocka_unit_test(test_quirk_ofs_end),
        cmocka_unit_test(test_quirk_unterminated_names),
        cmocka_unit_test(test_name_bytes_after_nul_are_kept),
        cmocka_unit_test(test_quirk_vertex_index),
        cmocka_unit_test(test_quirk_texcoord_index),
        cmocka_unit_test(test_quirk_all_triangles_dropped),
        cmocka_unit_test(test_valid_oddities_load_strictly),
        cmocka_unit_test(test_quirk_normal_index),
        cmocka_unit_test(test_normal_index_check_rides_the_copy),
        cmocka_unit_test(test_warnings_in_check_order),
        cmocka_unit_test(test_lenient_checks_either_way),
        cmocka_unit_test(test_quirk_glcmds_unterminated),
        cmocka_unit_test(test_quirk_glcmds_invalid),
        cmocka_unit_test(test_quirk_glcmds_trailing_words),
        cmocka_unit_test(test_quirk_frame_transform),
        cmocka_unit_test(test_quirk_glcmds_nonfinite_texcoord),
        cmocka_unit_test(test_warning_callback),
        cmocka_unit_test(test_error_message_is_specific),
        cmocka_unit_test(test_result_and_warning_strings),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_advice_same_normals),
        cmocka_unit_test(test_same_normals_on_every_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
