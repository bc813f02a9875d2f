/*
 * Tests of the writer: round trips, canonical byte identity, the size
 * query, the callback path and every writer error.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static uint8_t file[TU_MAX_FILE];
static uint8_t out[TU_MAX_FILE];

static void test_canonical_file_is_byte_identical(void **state)
{
    size_t size = tu_tiny(file), written = 0;
    md2_model *m = NULL;
    (void)state;
    assert_int_equal(md2_parse(file, size, NULL, &m), MD2_OK);
    assert_int_equal(md2_write_size(m), size);
    assert_int_equal(md2_write(m, out, sizeof out, &written, NULL), MD2_OK);
    assert_int_equal(written, size);
    assert_memory_equal(out, file, size);
    md2_free(m);
}

static void test_round_trip_after_lenient_repairs(void **state)
{
    tu_spec s;
    size_t size, written;
    md2_model *m = NULL, *m2 = NULL;
    md2_options strict;
    (void)state;
    tu_spec_default(&s);
    s.frame_padding = 8;   /* written back without padding */
    s.tris[0][2] = 0xFFFF; /* dropped */
    s.num_gl = 20;         /* terminator added */
    s.trailing = 3;        /* not written back */
    size = tu_build(&s, file);
    assert_int_equal(md2_parse(file, size, NULL, &m), MD2_OK);
    assert_int_not_equal(m->warnings, 0);
    assert_int_equal(md2_write(m, out, sizeof out, &written, NULL), MD2_OK);
    assert_true(written < size);
    /* the written file is canonical: it loads in strict mode, equal */
    memset(&strict, 0, sizeof strict);
    strict.strict = MD2_STRICT_ALL;
    assert_int_equal(md2_parse(out, written, &strict, &m2), MD2_OK);
    assert_int_equal(m2->warnings, 0);
    tu_assert_models_equal(m, m2);
    assert_int_equal(m2->header.framesize, 40 + 4 * 4);
    md2_free(m2);
    md2_free(m);
}

typedef struct chunks {
    uint8_t *data;
    size_t size;
    int calls;
    int fail_on;
} chunks;

static int collect(void *user, const void *data, size_t size)
{
    chunks *c = (chunks *)user;
    c->calls++;
    if (c->fail_on && c->calls == c->fail_on)
        return -1;
    memcpy(c->data + c->size, data, size);
    c->size += size;
    return 0;
}

static void test_write_stream(void **state)
{
    size_t size = tu_tiny(file);
    md2_model *m = NULL;
    chunks c;
    (void)state;
    assert_int_equal(md2_parse(file, size, NULL, &m), MD2_OK);
    memset(&c, 0, sizeof c);
    c.data = out;
    assert_int_equal(md2_write_stream(m, collect, &c, NULL), MD2_OK);
    assert_int_equal(c.size, size);
    assert_memory_equal(out, file, size);
    /* a failing callback stops the write with MD2_ERR_IO */
    memset(&c, 0, sizeof c);
    c.data = out;
    c.fail_on = 1;
    assert_int_equal(md2_write_stream(m, collect, &c, NULL), MD2_ERR_IO);
    assert_int_equal(md2_write_stream(m, NULL, &c, NULL), MD2_ERR_INVALID_ARGUMENT);
    md2_free(m);
}

static void test_err_buffer_too_small(void **state)
{
    size_t size = tu_tiny(file), written = 99;
    md2_model *m = NULL;
    (void)state;
    assert_int_equal(md2_parse(file, size, NULL, &m), MD2_OK);
    memset(out, 0xEE, sizeof out);
    assert_int_equal(md2_write(m, out, size - 1, &written, NULL), MD2_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(written, 0);
    assert_int_equal(out[0], 0xEE); /* nothing written */
    assert_int_equal(md2_write(m, NULL, size, &written, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_write(NULL, out, size, &written, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_write(m, out, size, NULL, NULL), MD2_OK);
    md2_free(m);
}

/* A hand-made model: one triangle, two frames. */
typedef struct hand {
    md2_model m;
    md2_frame frames[2];
    md2_vertex verts[2][3];
    md2_triangle tri;
    md2_texcoord st[3];
    md2_skin skin;
    int32_t gl[11];
} hand;

static void hand_init(hand *h)
{
    int f, i;
    memset(h, 0, sizeof *h);
    for (f = 0; f < 2; f++) {
        h->frames[f].scale[0] = h->frames[f].scale[1] = h->frames[f].scale[2] = 0.25f;
        h->frames[f].translate[2] = (float)f;
        strcpy(h->frames[f].name, f ? "idle2" : "idle1");
        for (i = 0; i < 3; i++) {
            h->verts[f][i].v[0] = (uint8_t)(i * 100);
            h->verts[f][i].v[1] = (uint8_t)(f * 50);
            h->verts[f][i].normal = (uint8_t)i;
        }
        h->frames[f].vertices = h->verts[f];
    }
    for (i = 0; i < 3; i++) {
        h->tri.vertex[i] = (uint16_t)i;
        h->tri.texcoord[i] = (uint16_t)i;
        h->st[i].s = (int16_t)(i * 8);
    }
    strcpy(h->skin.name, "hand.pcx");
    h->gl[0] = -3; /* a fan of the triangle's three vertices */
    for (i = 0; i < 3; i++)
        h->gl[3 + 3 * i] = i;
    h->gl[10] = 0;
    h->m.skin_width = h->m.skin_height = 16;
    h->m.num_skins = 1;
    h->m.skins = &h->skin;
    h->m.num_vertices = 3;
    h->m.num_texcoords = 3;
    h->m.texcoords = h->st;
    h->m.num_triangles = 1;
    h->m.triangles = &h->tri;
    h->m.num_frames = 2;
    h->m.frames = h->frames;
    h->m.num_glcmds = 11;
    h->m.glcmds = h->gl;
}

static void test_hand_made_model_round_trip(void **state)
{
    hand h;
    size_t written;
    md2_model *m = NULL;
    md2_options strict;
    (void)state;
    hand_init(&h);
    assert_int_equal(md2_write_size(&h.m), 68 + 64 + 12 + 12 + 2 * (40 + 12) + 44);
    assert_int_equal(md2_write(&h.m, out, sizeof out, &written, NULL), MD2_OK);
    memset(&strict, 0, sizeof strict);
    strict.strict = MD2_STRICT_ALL;
    assert_int_equal(md2_parse(out, written, &strict, &m), MD2_OK);
    tu_assert_models_equal(&h.m, m);
    md2_free(m);
}

/* md2_write() and md2_write_stream() refuse h's model with
 * MD2_ERR_INVALID_MODEL and a diagnostic that names the rule: section,
 * field and element. */
static void expect_rule(hand *h, md2_section section, const char *field,
                        size_t index)
{
    md2_diagnostic d, ds;
    int ok;
    memset(&d, 0x55, sizeof d);
    ok = md2_write(&h->m, out, sizeof out, NULL, &d) == MD2_ERR_INVALID_MODEL &&
         md2_write_stream(&h->m, collect, NULL, &ds) == MD2_ERR_INVALID_MODEL &&
         md2_write_size(&h->m) == 0;
    if (!ok || d.section != section || strcmp(d.field, field) != 0 || d.index != index)
        print_message("expected %s/%s[%lu], got %s/%s[%lu]: %s\n",
                      md2_section_string(section), field, (unsigned long)index,
                      md2_section_string(d.section), d.field, (unsigned long)d.index,
                      d.message);
    assert_true(ok);
    assert_int_equal(d.result, MD2_ERR_INVALID_MODEL);
    assert_int_equal(d.section, section);
    assert_string_equal(d.field, field);
    assert_int_equal(d.index, index);
    if (!strstr(d.message, field))
        print_message("message lacks %s: %s\n", field, d.message);
    assert_non_null(strstr(d.message, field)); /* the message names it too */
    /* one message for both, after the name of the function called */
    assert_true(strncmp(d.message, "md2_write: model: ", 18) == 0);
    assert_true(strncmp(ds.message, "md2_write_stream: model: ", 25) == 0);
    assert_string_equal(ds.message + 25, d.message + 18);
}

static void test_err_invalid_model(void **state)
{
    hand h;
    md2_vertex many[2];
    int32_t longer[12];
    (void)state;

    hand_init(&h);
    h.tri.vertex[1] = 3; /* out of range */
    expect_rule(&h, MD2_SECTION_TRIANGLES, "vertex", 0);

    hand_init(&h);
    h.tri.texcoord[2] = 3;
    expect_rule(&h, MD2_SECTION_TRIANGLES, "texcoord", 0);

    hand_init(&h);
    h.gl[3] = 7; /* GL vertex index out of range: word 3 */
    expect_rule(&h, MD2_SECTION_GLCMDS, "glcmds", 3);

    hand_init(&h);
    h.m.num_glcmds = 10; /* no terminator */
    expect_rule(&h, MD2_SECTION_GLCMDS, "glcmds", 10);

    hand_init(&h);
    memcpy(longer, h.gl, sizeof h.gl); /* a word hidden after the 0 */
    longer[11] = 5;
    h.m.glcmds = longer;
    h.m.num_glcmds = 12;
    expect_rule(&h, MD2_SECTION_GLCMDS, "glcmds", 11);

    hand_init(&h);
    h.frames[1].translate[0] = 1e31f; /* decodes past MD2_MAX_COORD */
    expect_rule(&h, MD2_SECTION_FRAMES, "scale", 1);

    hand_init(&h);
    h.m.skin_width = -1; /* a file with it would be refused */
    expect_rule(&h, MD2_SECTION_HEADER, "skin_width", 0);
    hand_init(&h);
    h.m.skin_height = -2;
    expect_rule(&h, MD2_SECTION_HEADER, "skin_height", 0);

    hand_init(&h);
    h.m.num_frames = 0;
    expect_rule(&h, MD2_SECTION_HEADER, "num_frames", 0);

    hand_init(&h);
    h.m.num_vertices = 0;
    h.m.num_triangles = 0;
    h.m.num_glcmds = 0;
    expect_rule(&h, MD2_SECTION_HEADER, "num_vertices", 0);

    hand_init(&h);
    h.frames[1].vertices = NULL;
    expect_rule(&h, MD2_SECTION_FRAMES, "vertices", 1);

    hand_init(&h);
    h.m.frames = NULL;
    expect_rule(&h, MD2_SECTION_FRAMES, "frames", 0);
    hand_init(&h);
    h.m.skins = NULL;
    expect_rule(&h, MD2_SECTION_SKINS, "skins", 0);
    hand_init(&h);
    h.m.texcoords = NULL;
    expect_rule(&h, MD2_SECTION_TEXCOORDS, "texcoords", 0);
    hand_init(&h);
    h.m.triangles = NULL;
    expect_rule(&h, MD2_SECTION_TRIANGLES, "triangles", 0);
    hand_init(&h);
    h.m.glcmds = NULL;
    expect_rule(&h, MD2_SECTION_GLCMDS, "glcmds", 0);

    /* counts the format cannot hold: checked before anything is read */
    hand_init(&h);
    h.m.num_vertices = MD2_MAX_INDEXABLE + 1;
    h.frames[0].vertices = h.frames[1].vertices = many;
    expect_rule(&h, MD2_SECTION_HEADER, "num_vertices", 0);
    hand_init(&h);
    h.m.num_texcoords = MD2_MAX_INDEXABLE + 1;
    expect_rule(&h, MD2_SECTION_HEADER, "num_texcoords", 0);
    hand_init(&h);
    h.m.num_skins = (size_t)0x7FFFFFFFu; /* 128 GiB of skins: offsets overflow int32 */
    expect_rule(&h, MD2_SECTION_HEADER, "ofs_end", 0);
#if SIZE_MAX > 0xFFFFFFFFu
    hand_init(&h);
    h.m.num_glcmds = (size_t)0x80000000u; /* more words than an int32 counts */
    expect_rule(&h, MD2_SECTION_HEADER, "num_glcmds", 0);
#endif
}

static void test_write_diagnostics_on_success_and_misuse(void **state)
{
    hand h;
    md2_diagnostic d;
    size_t written;
    (void)state;
    hand_init(&h);
    memset(&d, 0x55, sizeof d);
    assert_int_equal(md2_write(&h.m, out, sizeof out, &written, &d), MD2_OK);
    assert_int_equal(d.result, MD2_OK);
    assert_string_equal(d.message, "");
    assert_int_equal(md2_write(&h.m, out, 10, &written, &d), MD2_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(d.result, MD2_ERR_BUFFER_TOO_SMALL);
    assert_non_null(strstr(d.message, "buffer"));
    assert_int_equal(md2_write(NULL, out, sizeof out, &written, &d), MD2_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.message, "NULL"));
    assert_int_equal(md2_write_stream(&h.m, NULL, NULL, &d), MD2_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.message, "NULL"));
}

static void test_write_size_of_null(void **state)
{
    (void)state;
    assert_int_equal(md2_write_size(NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canonical_file_is_byte_identical),
        cmocka_unit_test(test_round_trip_after_lenient_repairs),
        cmocka_unit_test(test_write_stream),
        cmocka_unit_test(test_err_buffer_too_small),
        cmocka_unit_test(test_hand_made_model_round_trip),
        cmocka_unit_test(test_err_invalid_model),
        cmocka_unit_test(test_write_diagnostics_on_success_and_misuse),
        cmocka_unit_test(test_write_size_of_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
