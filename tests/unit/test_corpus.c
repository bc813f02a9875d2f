/*
 * Tests against the real models in ../shared/corpus (skipped, not failed,
 * where the corpus is absent): counts, frame names, decoding against the
 * file's bytes and the normal table, interpolation, round trip, memory.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

typedef struct expected {
    const char *file;
    size_t vertices, texcoords, triangles, glcmds;
    int32_t skin_width, skin_height;
    const char *frame0, *frame54, *frame197;
} expected;

static const expected models[] = {
    {"faerie.md2", 366, 487, 654, 3335, 220, 193, "stand01", "pain101", "death308"},
    {"sydney.md2", 342, 456, 679, 3326, 308, 193, "stand1", "pain1", "death20"},
};

typedef struct loaded {
    uint8_t *data;
    size_t size;
    md2_model *m;
} loaded;

/* Loads corpus model k strictly; returns 0 (and the test skips) if the
 * corpus is absent. */
static int load(size_t k, loaded *l)
{
    char path[512];
    md2_options o;
    md2_diagnostic d;
    if (!tu_corpus(models[k].file, path, sizeof path))
        return 0;
    l->data = tu_read_file(path, &l->size);
    assert_non_null(l->data);
    memset(&o, 0, sizeof o);
    o.error = &d;
    l->m = NULL;
    assert_int_equal(md2_parse(l->data, l->size, &o, &l->m), MD2_OK);
    return 1;
}

static void unload(loaded *l)
{
    md2_free(l->m);
    free(l->data);
}

static void test_counts_and_names(void **state)
{
    size_t k;
    int any = 0;
    (void)state;
    for (k = 0; k < sizeof models / sizeof models[0]; k++) {
        loaded l;
        const expected *e = &models[k];
        if (!load(k, &l))
            continue;
        any = 1;
        assert_int_equal(l.m->warnings, 0);
        assert_int_equal(l.m->num_skins, 0);
        assert_int_equal(l.m->num_vertices, e->vertices);
        assert_int_equal(l.m->num_texcoords, e->texcoords);
        assert_int_equal(l.m->num_triangles, e->triangles);
        assert_int_equal(l.m->num_frames, 198);
        assert_int_equal(l.m->num_glcmds, e->glcmds);
        assert_int_equal(l.m->skin_width, e->skin_width);
        assert_int_equal(l.m->skin_height, e->skin_height);
        assert_string_equal(l.m->frames[0].name, e->frame0);
        assert_string_equal(l.m->frames[54].name, e->frame54);
        assert_string_equal(l.m->frames[197].name, e->frame197);
        unload(&l);
    }
    if (!any)
        skip();
}

static void test_loads_strictly_and_from_file(void **state)
{
    size_t k;
    int any = 0;
    (void)state;
    for (k = 0; k < sizeof models / sizeof models[0]; k++) {
        char path[512];
        md2_options o;
        md2_model *m = NULL, *f = NULL;
        uint8_t *data;
        size_t size;
        if (!tu_corpus(models[k].file, path, sizeof path))
            continue;
        any = 1;
        data = tu_read_file(path, &size);
        assert_non_null(data);
        memset(&o, 0, sizeof o);
        o.strict = MD2_STRICT_ALL;
        assert_int_equal(md2_parse(data, size, &o, &m), MD2_OK);
        assert_int_equal(md2_load_file(path, &o, &f), MD2_OK);
        assert_int_equal(md2_model_memory(m), md2_model_memory(f));
        assert_memory_equal(m->frames[100].vertices, f->frames[100].vertices,
                            m->num_vertices * sizeof(md2_vertex));
        md2_free(m);
        md2_free(f);
        free(data);
    }
    if (!any)
        skip();
}

static void test_every_frame_decodes_to_the_bytes(void **state)
{
    float table[162][3];
    int have_table = tu_load_normal_table(table);
    size_t k;
    int any = 0;
    (void)state;
    for (k = 0; k < sizeof models / sizeof models[0]; k++) {
        loaded l;
        float *pos, *nrm;
        uint32_t f, i;
        if (!load(k, &l))
            continue;
        any = 1;
        pos = (float *)malloc(l.m->num_vertices * 3 * sizeof(float));
        nrm = (float *)malloc(l.m->num_vertices * 3 * sizeof(float));
        assert_non_null(pos);
        assert_non_null(nrm);
        for (f = 0; f < l.m->num_frames; f++) {
            assert_int_equal(md2_decode_frame(l.m, f, pos, 0, nrm, 0), MD2_OK);
            for (i = 0; i < l.m->num_vertices; i++) {
                float want[3];
                unsigned n = tu_raw_normal_index(l.data, f, i);
                tu_raw_position(l.data, f, i, want);
                assert_memory_equal(&pos[3 * i], want, sizeof want);
                assert_true(n < 162); /* these files have no bad normals */
                if (have_table)
                    assert_memory_equal(&nrm[3 * i], table[n], sizeof table[n]);
            }
        }
        free(pos);
        free(nrm);
        unload(&l);
    }
    if (!any)
        skip();
}

static void test_interpolation_between_real_frames(void **state)
{
    size_t k;
    int any = 0;
    (void)state;
    for (k = 0; k < sizeof models / sizeof models[0]; k++) {
        loaded l;
        float *pos;
        uint32_t f, i;
        int c;
        if (!load(k, &l))
            continue;
        any = 1;
        pos = (float *)malloc(l.m->num_vertices * 3 * sizeof(float));
        assert_non_null(pos);
        for (f = 0; f + 1 < l.m->num_frames; f += 7) {
            assert_int_equal(md2_lerp(l.m, f, f + 1, 0.3f, pos, 0, NULL, 0), MD2_OK);
            for (i = 0; i < l.m->num_vertices; i++) {
                float a[3], b[3];
                tu_raw_position(l.data, f, i, a);
                tu_raw_position(l.data, f + 1, i, b);
                for (c = 0; c < 3; c++) {
                    float want = a[c] + 0.3f * (b[c] - a[c]);
                    assert_true(fabsf(pos[3 * i + (uint32_t)c] - want) <= 1e-4f * (1.0f + fabsf(want)));
                }
            }
        }
        free(pos);
        unload(&l);
    }
    if (!any)
        skip();
}

static void test_round_trip_is_byte_identical(void **state)
{
    size_t k;
    int any = 0;
    (void)state;
    for (k = 0; k < sizeof models / sizeof models[0]; k++) {
        loaded l;
        uint8_t *out;
        size_t written = 0;
        md2_model *again = NULL;
        if (!load(k, &l))
            continue;
        any = 1;
        assert_int_equal(md2_write_size(l.m), l.size);
        out = (uint8_t *)malloc(l.size);
        assert_non_null(out);
        assert_int_equal(md2_write(l.m, out, l.size, &written, NULL), MD2_OK);
        assert_int_equal(written, l.size);
        assert_memory_equal(out, l.data, l.size);
        assert_int_equal(md2_parse(out, written, NULL, &again), MD2_OK);
        assert_int_equal(again->num_triangles, l.m->num_triangles);
        md2_free(again);
        free(out);
        unload(&l);
    }
    if (!any)
        skip();
}

static void test_memory_within_1_1_times_file(void **state)
{
    size_t k;
    int any = 0;
    (void)state;
    for (k = 0; k < sizeof models / sizeof models[0]; k++) {
        loaded l;
        md2_options o;
        tu_alloc a;
        md2_model *m = NULL;
        if (!load(k, &l))
            continue;
        any = 1;
        memset(&o, 0, sizeof o);
        tu_alloc_init(&a, &o.allocator);
        assert_int_equal(md2_parse(l.data, l.size, &o, &m), MD2_OK);
        /* everything the load allocated, at its peak */
        assert_true((double)a.peak_bytes <= 1.1 * (double)l.size);
        assert_int_equal(a.peak_bytes, md2_model_memory(m));
        md2_free(m);
        assert_int_equal(a.live, 0);
        unload(&l);
    }
    if (!any)
        skip();
}

static void test_glcmds_cover_real_models(void **state)
{
    size_t k;
    int any = 0;
    (void)state;
    for (k = 0; k < sizeof models / sizeof models[0]; k++) {
        loaded l;
        md2_glcmd_iter it;
        md2_glcmd c;
        size_t words = 1, tris = 0, i;
        if (!load(k, &l))
            continue;
        any = 1;
        md2_glcmd_begin(&it, l.m);
        while (md2_glcmd_next(&it, &c)) {
            assert_true(c.num_vertices >= 3);
            words += 1 + 3 * c.num_vertices;
            tris += c.num_vertices - 2;
            for (i = 0; i < c.num_vertices; i++) {
                md2_glcmd_vertex v = md2_glcmd_get(&c, i);
                assert_true(v.vertex < l.m->num_vertices);
                assert_true(v.s >= -1.0f && v.s <= 2.0f);
            }
        }
        assert_int_equal(words, l.m->num_glcmds); /* the whole list, to its 0 */
        assert_int_equal(tris, l.m->num_triangles);
        unload(&l);
    }
    if (!any)
        skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_and_names),
        cmocka_unit_test(test_loads_strictly_and_from_file),
        cmocka_unit_test(test_every_frame_decodes_to_the_bytes),
        cmocka_unit_test(test_interpolation_between_real_frames),
        cmocka_unit_test(test_round_trip_is_byte_identical),
        cmocka_unit_test(test_memory_within_1_1_times_file),
        cmocka_unit_test(test_glcmds_cover_real_models),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
