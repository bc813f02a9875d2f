/*
 * Tests of <md2/mesh.h>: welding against a quadratic reference (corpus and
 * synthetic seams), corners that map back, winding, 16-bit indices, poses
 * in every layout against md2_lerp() and md2_player_pose(), GPU morph
 * data, back-to-front order, smooth normals and tangents, and errors.
 *
 * SPDX-License-Identifier: MIT
 */
#if defined(__unix__) || defined(__APPLE__) || defined(__MINGW32__) /* mingw-w64: winpthreads */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#define HAVE_PTHREADS 1
#endif
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <md2/mesh.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static uint8_t file[TU_MAX_FILE];

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

static md2_model *load_corpus(const char *name)
{
    char path[512];
    md2_model *m = NULL;
    if (!tu_corpus(name, path, sizeof path))
        return NULL;
    assert_int_equal(md2_load_file(path, NULL, &m), MD2_OK);
    return m;
}

/* The number of distinct (vertex, s, t) corners, by comparing every corner
 * with every earlier one: the obvious, quadratic reference. */
static size_t reference_weld_count(const md2_model *m)
{
    size_t n = 3 * m->num_triangles, i, j, count = 0;
    for (i = 0; i < n; i++) {
        const md2_triangle *ti = &m->triangles[i / 3];
        md2_texcoord a = m->texcoords[ti->texcoord[i % 3]];
        int seen = 0;
        for (j = 0; j < i && !seen; j++) {
            const md2_triangle *tj = &m->triangles[j / 3];
            md2_texcoord b = m->texcoords[tj->texcoord[j % 3]];
            seen = ti->vertex[i % 3] == tj->vertex[j % 3] && a.s == b.s && a.t == b.t;
        }
        count += !seen;
    }
    return count;
}

/* Every corner of every triangle maps to a welded vertex with its own
 * model vertex and texcoord; welded vertices come in order of first use. */
static void check_mesh_matches_model(const md2_mesh *mesh, const md2_model *m, int ccw)
{
    size_t i, next = 0;
    assert_int_equal(mesh->num_indices, 3 * m->num_triangles);
    assert_int_equal(mesh->num_model_vertices, m->num_vertices);
    for (i = 0; i < mesh->num_indices; i++) {
        size_t tri = i / 3, k = i % 3;
        size_t file_k = (ccw && k != 0) ? 3 - k : k;
        const md2_triangle *t = &m->triangles[tri];
        uint32_t w = mesh->indices[i];
        float u, v;
        assert_true(w < mesh->num_vertices);
        assert_int_equal(mesh->source_vertex[w], t->vertex[file_k]);
        md2_texcoord_uv(m, m->texcoords[t->texcoord[file_k]], &u, &v);
        assert_true(mesh->uv[2 * w] == u && mesh->uv[2 * w + 1] == v);
        if (mesh->indices16)
            assert_int_equal(mesh->indices16[i], w);
    }
    /* first use: in file order of corners, a new vertex is always the next */
    for (i = 0; i < mesh->num_indices; i++) {
        size_t tri = i / 3, k = i % 3;
        size_t at = 3 * tri + ((ccw && k != 0) ? 3 - k : k); /* file corner i */
        uint32_t w = mesh->indices[at];
        assert_true(w <= next);
        if (w == next)
            next++;
    }
    assert_int_equal(next, mesh->num_vertices);
}

/* A hand-made model with room for many triangles and texcoords. */
typedef struct big_model {
    md2_model m;
    md2_frame frames[2];
    md2_vertex *verts;
    md2_texcoord *st;
    md2_triangle *tris;
} big_model;

static void big_init(big_model *b, size_t nv, size_t nst, size_t nt)
{
    size_t f, i;
    memset(b, 0, sizeof *b);
    b->verts = (md2_vertex *)calloc(2 * nv, sizeof *b->verts);
    b->st = (md2_texcoord *)calloc(nst ? nst : 1, sizeof *b->st);
    b->tris = (md2_triangle *)calloc(nt ? nt : 1, sizeof *b->tris);
    assert_non_null(b->verts);
    assert_non_null(b->st);
    assert_non_null(b->tris);
    for (f = 0; f < 2; f++) {
        b->frames[f].scale[0] = b->frames[f].scale[1] = b->frames[f].scale[2] = 0.5f;
        b->frames[f].translate[2] = (float)f;
        b->frames[f].vertices = b->verts + f * nv;
        for (i = 0; i < nv; i++) {
            md2_vertex *v = &b->verts[f * nv + i];
            v->v[0] = (uint8_t)(i * 7 + f);
            v->v[1] = (uint8_t)(i * 13);
            v->v[2] = (uint8_t)(i * 29 + 3 * f);
            v->normal = (uint8_t)((i + f) % 170); /* some past the table */
        }
    }
    b->m.skin_width = 256;
    b->m.skin_height = 128;
    b->m.num_vertices = nv;
    b->m.num_texcoords = nst;
    b->m.texcoords = b->st;
    b->m.num_triangles = nt;
    b->m.triangles = b->tris;
    b->m.num_frames = 2;
    b->m.frames = b->frames;
}

static void big_free(big_model *b)
{
    free(b->verts);
    free(b->st);
    free(b->tris);
}

static md2_mesh *build(const md2_model *m, unsigned flags)
{
    md2_mesh_options o;
    md2_diagnostic d;
    md2_mesh *mesh = NULL;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    o.error = &d;
    if (md2_mesh_build(m, &o, &mesh) != MD2_OK)
        print_message("md2_mesh_build: %s\n", d.message);
    assert_non_null(mesh);
    return mesh;
}

/* ------------------------------------------------------------------------ */
/* Welding                                                                   */
/* ------------------------------------------------------------------------ */

static void test_weld_corpus(void **state)
{
    static const char *const names[] = {"faerie.md2", "sydney.md2"};
    size_t i;
    int found = 0;
    (void)state;
    for (i = 0; i < 2; i++) {
        md2_model *m = load_corpus(names[i]);
        md2_mesh *mesh, *ccw;
        if (!m)
            continue;
        found = 1;
        mesh = build(m, 0);
        assert_int_equal(mesh->num_vertices, reference_weld_count(m));
        check_mesh_matches_model(mesh, m, 0);
        ccw = build(m, MD2_MESH_COUNTER_CLOCKWISE);
        assert_int_equal(ccw->num_vertices, mesh->num_vertices);
        check_mesh_matches_model(ccw, m, 1);
        print_message("%s: %lu vertices, %lu triangles -> %lu welded, %lu bytes\n", names[i],
                      (unsigned long)m->num_vertices, (unsigned long)m->num_triangles,
                      (unsigned long)mesh->num_vertices, (unsigned long)md2_mesh_memory(mesh));
        if (i == 0)
            assert_int_equal(mesh->num_vertices, 503); /* faerie, as counted by hand */
        md2_mesh_free(mesh);
        md2_mesh_free(ccw);
        md2_free(m);
    }
    if (!found)
        skip();
}

/* The documented winding: in file order, triangles run clockwise seen from
 * outside, so the signed volume they enclose is negative; counter-clockwise
 * meshes enclose a positive one. */
static double signed_volume(const md2_mesh *mesh, const md2_model *m)
{
    md2_vertex_layout l = md2_layout_default(0);
    float *buf = (float *)malloc(mesh->num_vertices * l.stride);
    double v = 0.0;
    size_t i;
    assert_non_null(buf);
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 0, 0.0f, buf, &l), MD2_OK);
    for (i = 0; i < mesh->num_indices; i += 3) {
        const float *a = buf + 8 * mesh->indices[i], *b = buf + 8 * mesh->indices[i + 1];
        const float *c = buf + 8 * mesh->indices[i + 2];
        v += (double)a[0] * ((double)b[1] * c[2] - (double)b[2] * c[1]) -
             (double)a[1] * ((double)b[0] * c[2] - (double)b[2] * c[0]) +
             (double)a[2] * ((double)b[0] * c[1] - (double)b[1] * c[0]);
    }
    free(buf);
    return v / 6.0;
}

static void test_winding(void **state)
{
    static const char *const names[] = {"faerie.md2", "sydney.md2"};
    size_t i;
    int found = 0;
    (void)state;
    for (i = 0; i < 2; i++) {
        md2_model *m = load_corpus(names[i]);
        md2_mesh *cw, *ccw;
        double vcw, vccw;
        if (!m)
            continue;
        found = 1;
        cw = build(m, 0);
        ccw = build(m, MD2_MESH_COUNTER_CLOCKWISE);
        vcw = signed_volume(cw, m);
        vccw = signed_volume(ccw, m);
        print_message("%s: signed volume %.1f in file order\n", names[i], vcw);
        assert_true(vcw < 0.0);
        assert_true(fabs(vccw + vcw) < 1e-6 * fabs(vcw));
        md2_mesh_free(cw);
        md2_mesh_free(ccw);
        md2_free(m);
    }
    if (!found)
        skip();
}

/* Seams: one model vertex with two texcoords is two GPU vertices; equal
 * texcoords under different indices are one. */
static void test_weld_seams(void **state)
{
    big_model b;
    md2_mesh *mesh;
    (void)state;
    big_init(&b, 4, 6, 3);
    b.st[0].s = 0;  b.st[0].t = 0;
    b.st[1].s = 64; b.st[1].t = 0;
    b.st[2].s = 0;  b.st[2].t = 64;
    b.st[3].s = 64; b.st[3].t = 0;   /* equal to st[1] */
    b.st[4].s = 99; b.st[4].t = 5;   /* a seam for vertex 0 */
    b.st[5].s = 0;  b.st[5].t = 64;  /* equal to st[2] */
    /* triangle 0: (0,st0) (1,st1) (2,st2) */
    b.tris[0].vertex[0] = 0; b.tris[0].texcoord[0] = 0;
    b.tris[0].vertex[1] = 1; b.tris[0].texcoord[1] = 1;
    b.tris[0].vertex[2] = 2; b.tris[0].texcoord[2] = 2;
    /* triangle 1: (1,st3 = st1) (3,st0) (2,st5 = st2): 1 new vertex */
    b.tris[1].vertex[0] = 1; b.tris[1].texcoord[0] = 3;
    b.tris[1].vertex[1] = 3; b.tris[1].texcoord[1] = 0;
    b.tris[1].vertex[2] = 2; b.tris[1].texcoord[2] = 5;
    /* triangle 2: (0,st4) seam, (3,st0), (1,st1) */
    b.tris[2].vertex[0] = 0; b.tris[2].texcoord[0] = 4;
    b.tris[2].vertex[1] = 3; b.tris[2].texcoord[1] = 0;
    b.tris[2].vertex[2] = 1; b.tris[2].texcoord[2] = 1;
    mesh = build(&b.m, 0);
    assert_int_equal(mesh->num_vertices, 5);
    assert_int_equal(reference_weld_count(&b.m), 5);
    check_mesh_matches_model(mesh, &b.m, 0);
    assert_int_equal(mesh->indices[3], 1); /* st3 welded with st1 */
    assert_int_equal(mesh->indices[5], 2); /* st5 welded with st2 */
    assert_int_equal(mesh->indices[6], 4); /* the seam */
    assert_int_equal(mesh->source_vertex[4], 0);
    md2_mesh_free(mesh);
    big_free(&b);
}

/* Pseudo-random models: the hash weld always equals the reference. */
static void test_weld_random(void **state)
{
    unsigned seed = 12345;
    int round;
    (void)state;
    for (round = 0; round < 40; round++) {
        big_model b;
        size_t nv = 1 + round % 17, nst = 1 + round % 11, nt = (size_t)round * 7 % 90, i;
        int k;
        md2_mesh *mesh;
        big_init(&b, nv, nst, nt);
        for (i = 0; i < nst; i++) {
            seed = seed * 1103515245u + 12345u;
            b.st[i].s = (int16_t)((seed >> 16) % 5 - 2); /* few values: many repeats */
            b.st[i].t = (int16_t)((seed >> 8) % 3);
        }
        for (i = 0; i < nt; i++)
            for (k = 0; k < 3; k++) {
                seed = seed * 1103515245u + 12345u;
                b.tris[i].vertex[k] = (uint16_t)((seed >> 16) % nv);
                b.tris[i].texcoord[k] = (uint16_t)((seed >> 4) % nst);
            }
        mesh = build(&b.m, round & 1 ? MD2_MESH_COUNTER_CLOCKWISE : 0);
        assert_int_equal(mesh->num_vertices, reference_weld_count(&b.m));
        check_mesh_matches_model(mesh, &b.m, round & 1);
        md2_mesh_free(mesh);
        big_free(&b);
    }
}

/* 16-bit indices while they fit; none past 65536 welded vertices. A model
 * of 22,000 triangles (66,000 corners) builds in linear time. */
static void test_indices16_and_large(void **state)
{
    big_model b;
    md2_mesh *mesh;
    size_t i;
    int k;
    (void)state;
    big_init(&b, 3, 22000, 22000);
    for (i = 0; i < 22000; i++) {
        b.st[i].s = (int16_t)(i % 256);
        b.st[i].t = (int16_t)(i / 256);
        for (k = 0; k < 3; k++) {
            b.tris[i].vertex[k] = (uint16_t)k;
            b.tris[i].texcoord[k] = (uint16_t)i;
        }
    }
    mesh = build(&b.m, 0);
    assert_int_equal(mesh->num_vertices, 66000);
    assert_null(mesh->indices16);
    for (i = 0; i < mesh->num_indices; i++)
        assert_int_equal(mesh->indices[i], i);
    md2_mesh_free(mesh);
    b.m.num_triangles = 21845; /* 65535 corners */
    mesh = build(&b.m, 0);
    assert_int_equal(mesh->num_vertices, 65535);
    assert_non_null(mesh->indices16);
    assert_int_equal(mesh->indices16[65534], 65534);
    md2_mesh_free(mesh);
    big_free(&b);
}

static void test_empty_and_errors(void **state)
{
    big_model b;
    md2_mesh *mesh = (md2_mesh *)&b;
    md2_mesh_options o;
    md2_diagnostic d;
    tu_alloc a;
    size_t fail;
    (void)state;
    big_init(&b, 3, 3, 1);
    b.tris[0].vertex[0] = 0;
    b.tris[0].vertex[1] = 1;
    b.tris[0].vertex[2] = 2;
    /* no triangles: an empty mesh */
    b.m.num_triangles = 0;
    mesh = build(&b.m, 0);
    assert_int_equal(mesh->num_vertices, 0);
    assert_int_equal(mesh->num_indices, 0);
    assert_null(mesh->indices);
    md2_mesh_free(mesh);
    b.m.num_triangles = 1;
    memset(&o, 0, sizeof o);
    o.error = &d;
    assert_int_equal(md2_mesh_build(NULL, &o, &mesh), MD2_ERR_INVALID_ARGUMENT);
    assert_null(mesh);
    assert_int_equal(md2_mesh_build(&b.m, &o, NULL), MD2_ERR_INVALID_ARGUMENT);
    b.tris[0].vertex[2] = 3;
    assert_int_equal(md2_mesh_build(&b.m, &o, &mesh), MD2_ERR_INVALID_MODEL);
    assert_string_equal(d.field, "vertex");
    assert_int_equal(d.section, MD2_SECTION_TRIANGLES);
    b.tris[0].vertex[2] = 2;
    b.tris[0].texcoord[1] = 9;
    assert_int_equal(md2_mesh_build(&b.m, &o, &mesh), MD2_ERR_INVALID_MODEL);
    assert_string_equal(d.field, "texcoord");
    b.tris[0].texcoord[1] = 1;
    /* every allocation can fail: nothing leaks, the error says so */
    for (fail = 1; fail <= 3; fail++) {
        tu_alloc_init(&a, &o.allocator);
        a.fail_at = fail;
        mesh = NULL;
        if (md2_mesh_build(&b.m, &o, &mesh) == MD2_OK) {
            assert_true(fail > 2);
            assert_int_equal(a.live, 1);
            assert_int_equal(a.live_bytes, md2_mesh_memory(mesh));
            md2_mesh_free(mesh);
        } else {
            assert_int_equal(d.result, MD2_ERR_OUT_OF_MEMORY);
            assert_null(mesh);
        }
        assert_int_equal(a.live, 0);
    }
    md2_mesh_free(NULL);
    assert_int_equal(md2_mesh_memory(NULL), 0);
    big_free(&b);
}

/* ------------------------------------------------------------------------ */
/* Poses                                                                     */
/* ------------------------------------------------------------------------ */

/* md2_mesh_lerp() with layout l equals md2_lerp() gathered through
 * source_vertex, with the layout's flags applied, bit for bit. */
static void check_lerp_layout(const md2_mesh *mesh, const md2_model *m, uint32_t a, uint32_t b,
                              float t, const md2_vertex_layout *l)
{
    size_t nv = m->num_vertices, nw = mesh->num_vertices, i;
    float *pos = (float *)malloc(nv * 3 * sizeof(float));
    float *nrm = (float *)malloc(nv * 3 * sizeof(float));
    unsigned char *buf = (unsigned char *)malloc(nw * l->stride + 64);
    int y_up = (l->flags & MD2_LAYOUT_Y_UP) != 0;
    assert_non_null(pos);
    assert_non_null(nrm);
    assert_non_null(buf);
    memset(buf, 0xA5, nw * l->stride + 64);
    assert_int_equal(md2_lerp(m, a, b, t, pos, 0, nrm, 0), MD2_OK);
    if (l->flags & MD2_LAYOUT_UNIT_NORMALS)
        assert_int_equal(md2_normalize(nrm, nv, 0), MD2_OK);
    assert_int_equal(md2_mesh_lerp(mesh, m, a, b, t, buf, l), MD2_OK);
    for (i = 0; i < nw; i++) {
        const unsigned char *v = buf + i * l->stride;
        const float *sp = pos + 3 * mesh->source_vertex[i];
        const float *sn = nrm + 3 * mesh->source_vertex[i];
        float want[3], got[3];
        size_t k;
        want[0] = sp[0];
        want[1] = y_up ? sp[2] : sp[1];
        want[2] = y_up ? -sp[1] : sp[2];
        memcpy(got, v + l->position_offset, sizeof got);
        assert_memory_equal(got, want, sizeof want);
        if (l->normal_offset != MD2_ATTRIBUTE_NONE) {
            want[0] = sn[0];
            want[1] = y_up ? sn[2] : sn[1];
            want[2] = y_up ? -sn[1] : sn[2];
            memcpy(got, v + l->normal_offset, sizeof got);
            assert_memory_equal(got, want, sizeof want);
        }
        if (l->uv_offset != MD2_ATTRIBUTE_NONE) {
            memcpy(got, v + l->uv_offset, 2 * sizeof(float));
            want[0] = mesh->uv[2 * i];
            want[1] = (l->flags & MD2_LAYOUT_FLIP_V) ? 1.0f - mesh->uv[2 * i + 1]
                                                     : mesh->uv[2 * i + 1];
            assert_memory_equal(got, want, 2 * sizeof(float));
        }
        /* bytes no attribute covers are left alone */
        for (k = 0; k < l->stride; k++) {
            int covered = (k >= l->position_offset && k < l->position_offset + 12) ||
                          (l->normal_offset != MD2_ATTRIBUTE_NONE && k >= l->normal_offset &&
                           k < l->normal_offset + 12) ||
                          (l->uv_offset != MD2_ATTRIBUTE_NONE && k >= l->uv_offset &&
                           k < l->uv_offset + 8);
            if (!covered)
                assert_int_equal(v[k], 0xA5);
        }
    }
    free(pos);
    free(nrm);
    free(buf);
}

static md2_model *tiny_model(void)
{
    md2_model *m = NULL;
    size_t size = tu_tiny(file);
    assert_int_equal(md2_parse(file, size, NULL, &m), MD2_OK);
    return m;
}

static void test_lerp_layouts(void **state)
{
    static const unsigned flag_sets[] = {0, MD2_LAYOUT_UNIT_NORMALS, MD2_LAYOUT_Y_UP,
                                         MD2_LAYOUT_FLIP_V,
                                         MD2_LAYOUT_UNIT_NORMALS | MD2_LAYOUT_Y_UP |
                                             MD2_LAYOUT_FLIP_V};
    md2_model *m = load_corpus("faerie.md2");
    md2_mesh *mesh;
    md2_vertex_layout l;
    size_t i;
    (void)state;
    if (!m)
        m = tiny_model();
    mesh = build(m, 0);
    for (i = 0; i < sizeof flag_sets / sizeof flag_sets[0]; i++) {
        l = md2_layout_default(flag_sets[i]);
        check_lerp_layout(mesh, m, 0, 1, 0.0f, &l);
        check_lerp_layout(mesh, m, 0, 1, 0.25f, &l);
        check_lerp_layout(mesh, m, 1, 0, 1.0f, &l);
        check_lerp_layout(mesh, m, 0, (uint32_t)m->num_frames - 1, 0.5f, &l);
    }
    /* other orders, gaps, left-out attributes */
    memset(&l, 0, sizeof l);
    l.stride = 48;
    l.uv_offset = 4;
    l.position_offset = 16;
    l.normal_offset = 32;
    check_lerp_layout(mesh, m, 1, 2, 0.75f, &l);
    l.normal_offset = MD2_ATTRIBUTE_NONE;
    check_lerp_layout(mesh, m, 1, 2, 0.75f, &l);
    l.uv_offset = MD2_ATTRIBUTE_NONE;
    l.stride = 12;
    l.position_offset = 0;
    check_lerp_layout(mesh, m, 1, 2, 0.75f, &l);
    md2_mesh_free(mesh);
    md2_free(m);
}

static void test_lerp_errors(void **state)
{
    md2_model *m = tiny_model();
    md2_mesh *mesh = build(m, 0);
    md2_vertex_layout l = md2_layout_default(0), bad;
    float buf[64 * 8];
    size_t nv = m->num_vertices;
    (void)state;
    assert_int_equal(md2_mesh_lerp(NULL, m, 0, 1, 0.5f, buf, &l), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_mesh_lerp(mesh, NULL, 0, 1, 0.5f, buf, &l), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 1, 0.5f, NULL, &l), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 1, 0.5f, buf, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 1, 1.5f, buf, &l), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 9, 0.5f, buf, &l), MD2_ERR_FRAME_RANGE);
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 1, 0.5f, (char *)buf + 2, &l),
                     MD2_ERR_INVALID_ARGUMENT); /* not aligned for float */
    bad = l;
    bad.normal_offset = 8; /* overlaps the position */
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 1, 0.5f, buf, &bad), MD2_ERR_INVALID_ARGUMENT);
    bad = l;
    bad.uv_offset = 26; /* not a multiple of 4 */
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 1, 0.5f, buf, &bad), MD2_ERR_INVALID_ARGUMENT);
    bad = l;
    bad.stride = 28; /* the uv runs past the stride */
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 1, 0.5f, buf, &bad), MD2_ERR_INVALID_ARGUMENT);
    bad = l;
    bad.position_offset = MD2_ATTRIBUTE_NONE;
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 1, 0.5f, buf, &bad), MD2_ERR_INVALID_ARGUMENT);
    bad = l;
    bad.stride = 0;
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 1, 0.5f, buf, &bad), MD2_ERR_INVALID_ARGUMENT);
    /* a model with other vertices than the mesh's */
    m->num_vertices = nv - 1;
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 1, 0.5f, buf, &l), MD2_ERR_INVALID_ARGUMENT);
    m->num_vertices = nv;
    md2_mesh_free(mesh);
    md2_free(m);
}

/* md2_mesh_pose() equals md2_player_pose() gathered, also mid-fade. */
static void test_pose_with_player(void **state)
{
    md2_model *m = load_corpus("faerie.md2");
    md2_mesh *mesh;
    md2_anim anims[64];
    size_t n, nv, i, step;
    md2_player p;
    md2_vertex_layout l = md2_layout_default(0);
    float *pos, *nrm, *buf;
    (void)state;
    if (!m)
        m = tiny_model();
    mesh = build(m, 0);
    nv = m->num_vertices;
    n = md2_anims_from_names(m, anims, 64);
    assert_true(n >= 2);
    pos = (float *)malloc(nv * 3 * sizeof(float));
    nrm = (float *)malloc(nv * 3 * sizeof(float));
    buf = (float *)malloc(mesh->num_vertices * l.stride);
    assert_non_null(pos);
    assert_non_null(nrm);
    assert_non_null(buf);
    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &anims[0], MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
    for (step = 0; step < 30; step++) {
        if (step == 10)
            assert_int_equal(md2_player_crossfade(&p, &anims[1], MD2_PLAY_LOOP,
                                                  MD2_RATE_ANIM, 0.5f), MD2_OK);
        md2_player_advance(&p, 0.037);
        assert_int_equal(md2_player_pose(&p, m, pos, 0, nrm, 0), MD2_OK);
        assert_int_equal(md2_mesh_pose(mesh, m, &p, buf, &l), MD2_OK);
        for (i = 0; i < mesh->num_vertices; i++) {
            assert_memory_equal(buf + 8 * i, pos + 3 * mesh->source_vertex[i], 12);
            assert_memory_equal(buf + 8 * i + 3, nrm + 3 * mesh->source_vertex[i], 12);
        }
    }
    assert_int_equal(md2_mesh_pose(mesh, m, NULL, buf, &l), MD2_ERR_INVALID_ARGUMENT);
    free(pos);
    free(nrm);
    free(buf);
    md2_mesh_free(mesh);
    md2_free(m);
}

/* ------------------------------------------------------------------------ */
/* GPU morph data                                                            */
/* ------------------------------------------------------------------------ */

static void test_morph_data(void **state)
{
    big_model b;
    md2_mesh *mesh;
    uint8_t *packed;
    float *tf, *pf, *nf, *ref;
    size_t size, f, i, k, nw;
    (void)state;
    big_init(&b, 5, 3, 2);
    b.st[1].s = 10;
    b.st[2].t = 20;
    for (i = 0; i < 6; i++) {
        b.tris[i / 3].vertex[i % 3] = (uint16_t)(i % 5);
        b.tris[i / 3].texcoord[i % 3] = (uint16_t)(i % 3);
    }
    mesh = build(&b.m, 0);
    nw = mesh->num_vertices;
    size = md2_mesh_morph_size(mesh, &b.m);
    assert_int_equal(size, 2 * nw * 4);
    packed = (uint8_t *)malloc(size);
    tf = (float *)malloc(6 * 2 * sizeof(float));
    pf = (float *)malloc(2 * nw * 3 * sizeof(float));
    nf = (float *)malloc(2 * nw * 3 * sizeof(float));
    ref = (float *)malloc(b.m.num_vertices * 3 * sizeof(float));
    assert_true(packed && tf && pf && nf && ref);
    assert_int_equal(md2_mesh_morph_data(mesh, &b.m, packed, size - 1), MD2_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(md2_mesh_morph_data(mesh, &b.m, packed, size), MD2_OK);
    assert_int_equal(md2_frame_transforms(&b.m, tf), MD2_OK);
    assert_int_equal(md2_mesh_morph_floats(mesh, &b.m, 0, 2, pf, nf), MD2_OK);
    for (f = 0; f < 2; f++) {
        assert_int_equal(md2_decode_frame(&b.m, (uint32_t)f, ref, 0, NULL, 0), MD2_OK);
        for (i = 0; i < nw; i++) {
            const uint8_t *v = packed + 4 * (f * nw + i);
            unsigned normal = b.m.frames[f].vertices[mesh->source_vertex[i]].normal;
            for (k = 0; k < 3; k++) {
                /* as a shader decodes it: scale * v + translate */
                float product = tf[6 * f + k] * (float)v[k];
                float decoded = product + tf[6 * f + 3 + k];
                assert_true(decoded == ref[3 * mesh->source_vertex[i] + k]);
                assert_true(pf[3 * (f * nw + i) + k] == decoded);
                assert_true(nf[3 * (f * nw + i) + k] == md2_normal(normal)[k]);
            }
            assert_int_equal(v[3], normal < MD2_NUM_NORMALS ? normal : MD2_NORMAL_FALLBACK);
        }
    }
    assert_int_equal(md2_mesh_morph_floats(mesh, &b.m, 1, 2, pf, NULL), MD2_ERR_FRAME_RANGE);
    assert_int_equal(md2_mesh_morph_floats(mesh, &b.m, 1, 1, pf, NULL), MD2_OK);
    assert_int_equal(md2_mesh_morph_data(NULL, &b.m, packed, size), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_frame_transforms(NULL, tf), MD2_ERR_INVALID_ARGUMENT);
    /* the normal table is one array of 162 * 3 floats */
    assert_true(md2_normal(161) == md2_normal(0) + 3 * 161);
    free(packed);
    free(tf);
    free(pf);
    free(nf);
    free(ref);
    md2_mesh_free(mesh);
    big_free(&b);
}

/* ------------------------------------------------------------------------ */
/* Back to front                                                             */
/* ------------------------------------------------------------------------ */

/* Triangles at known distances along x, in a shuffled file order, two at
 * the same distance: the sort puts them far to near, ties in file order. */
static void test_back_to_front(void **state)
{
    static const int depth[6] = {30, 10, 50, 20, 50, 40}; /* x of each triangle */
    big_model b;
    md2_mesh *mesh;
    md2_vertex_layout l;
    float verts[18 * 3];
    uint32_t order[18];
    unsigned char scratch[6 * 16];
    const float eye[3] = {0.0f, 0.0f, 0.0f};
    static const int want[6] = {2, 4, 5, 0, 3, 1};
    size_t i;
    (void)state;
    big_init(&b, 18, 1, 6);
    for (i = 0; i < 18; i++) {
        b.tris[i / 3].vertex[i % 3] = (uint16_t)i;
        verts[3 * i] = (float)depth[i / 3];
        verts[3 * i + 1] = (float)(i % 3);
        verts[3 * i + 2] = (float)((i % 3) == 2);
    }
    mesh = build(&b.m, 0);
    assert_int_equal(mesh->num_vertices, 18);
    memset(&l, 0, sizeof l);
    l.stride = 12;
    l.normal_offset = l.uv_offset = MD2_ATTRIBUTE_NONE;
    assert_int_equal(md2_mesh_sort_scratch_size(mesh), sizeof scratch);
    assert_int_equal(md2_mesh_sort_back_to_front(mesh, verts, &l, eye, order, scratch,
                                                 sizeof scratch), MD2_OK);
    for (i = 0; i < 6; i++) {
        assert_int_equal(order[3 * i], 3 * (uint32_t)want[i]);
        assert_int_equal(order[3 * i + 2], 3 * (uint32_t)want[i] + 2);
    }
    assert_int_equal(md2_mesh_sort_back_to_front(mesh, verts, &l, eye, order, scratch,
                                                 sizeof scratch - 1), MD2_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(md2_mesh_sort_back_to_front(mesh, verts, &l, NULL, order, scratch,
                                                 sizeof scratch), MD2_ERR_INVALID_ARGUMENT);
    md2_mesh_free(mesh);
    big_free(&b);
}

/* On a real pose the order is non-increasing in distance, and it holds
 * every triangle once. */
static void test_back_to_front_corpus(void **state)
{
    md2_model *m = load_corpus("sydney.md2");
    md2_mesh *mesh;
    md2_vertex_layout l = md2_layout_default(0);
    float *buf, prev = INFINITY;
    uint32_t *order;
    void *scratch;
    unsigned char *seen;
    const float eye[3] = {100.0f, -40.0f, 30.0f};
    size_t i, n;
    (void)state;
    if (!m) {
        skip();
        return;
    }
    mesh = build(m, 0);
    n = mesh->num_indices / 3;
    buf = (float *)malloc(mesh->num_vertices * l.stride);
    order = (uint32_t *)malloc(mesh->num_indices * sizeof *order);
    scratch = malloc(md2_mesh_sort_scratch_size(mesh));
    seen = (unsigned char *)calloc(n, 1);
    assert_true(buf && order && scratch && seen);
    assert_int_equal(md2_mesh_lerp(mesh, m, 3, 4, 0.5f, buf, &l), MD2_OK);
    assert_int_equal(md2_mesh_sort_back_to_front(mesh, buf, &l, eye, order, scratch,
                                                 md2_mesh_sort_scratch_size(mesh)), MD2_OK);
    for (i = 0; i < n; i++) {
        float c[3] = {0, 0, 0}, d = 0.0f;
        size_t k, tri = n;
        int j;
        for (k = 0; k < 3; k++)
            for (j = 0; j < 3; j++)
                c[j] += buf[8 * order[3 * i + k] + (size_t)j];
        for (j = 0; j < 3; j++)
            d += (c[j] / 3.0f - eye[j]) * (c[j] / 3.0f - eye[j]);
        assert_true(d <= prev);
        prev = d;
        for (k = 0; k < n && tri == n; k++)
            if (memcmp(mesh->indices + 3 * k, order + 3 * i, 3 * sizeof(uint32_t)) == 0 &&
                !seen[k])
                tri = k;
        assert_true(tri < n);
        seen[tri] = 1;
    }
    free(buf);
    free(order);
    free(scratch);
    free(seen);
    md2_mesh_free(mesh);
    md2_free(m);
}

/* ------------------------------------------------------------------------ */
/* Smooth normals and tangents                                               */
/* ------------------------------------------------------------------------ */

static float dot(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* An octahedron (clockwise from outside, as MD2 files are), with a
 * texture seam at vertex 0: smooth normals point out along each vertex,
 * equal on both sides of the seam; tangents are unit, orthogonal, with a
 * handedness of +-1. */
static void test_smooth_octahedron(void **state)
{
    static const float corner[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                       {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    /* faces counter-clockwise from outside, then reversed for MD2 */
    static const int faces[8][3] = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                    {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
    big_model b;
    md2_vertex_layout l;
    float *buf;
    size_t i;
    int f, k, pass;
    (void)state;
    big_init(&b, 6, 16, 8);
    b.frames[0].scale[0] = b.frames[0].scale[1] = b.frames[0].scale[2] = 2.0f / 255.0f;
    b.frames[0].translate[0] = b.frames[0].translate[1] = b.frames[0].translate[2] = -1.0f;
    for (i = 0; i < 6; i++)
        for (k = 0; k < 3; k++)
            b.verts[i].v[k] = (uint8_t)((corner[i][k] + 1.0f) * 127.5f);
    for (f = 0; f < 8; f++)
        for (k = 0; k < 3; k++) {
            int v = faces[f][2 - k]; /* reversed: clockwise from outside */
            b.tris[f].vertex[k] = (uint16_t)v;
            b.tris[f].texcoord[k] = (uint16_t)(v + (v == 0 && f >= 4 ? 10 : 0)); /* seam */
            b.st[b.tris[f].texcoord[k]].s = (int16_t)(v * 37 % 256);
            b.st[b.tris[f].texcoord[k]].t = (int16_t)(v * 91 % 128 + (f >= 4 ? 3 : 0));
        }
    for (pass = 0; pass < 2; pass++) {
        void *scratch;
        md2_mesh *mesh = build(&b.m, pass ? MD2_MESH_COUNTER_CLOCKWISE : 0);
        memset(&l, 0, sizeof l);
        l.stride = 12 * sizeof(float);
        l.normal_offset = 12;
        l.uv_offset = 24;
        buf = (float *)malloc(mesh->num_vertices * l.stride);
        scratch = malloc(md2_mesh_smooth_scratch_size(mesh));
        assert_true(buf && scratch);
        assert_int_equal(md2_mesh_lerp(mesh, &b.m, 0, 0, 0.0f, buf, &l), MD2_OK);
        assert_int_equal(md2_mesh_smooth(mesh, buf, &l, 32, scratch,
                                         md2_mesh_smooth_scratch_size(mesh)), MD2_OK);
        for (i = 0; i < mesh->num_vertices; i++) {
            const float *p = buf + 12 * i, *n = p + 3, *t = p + 8;
            float out[3];
            memcpy(out, corner[mesh->source_vertex[i]], sizeof out);
            assert_true(dot(n, out) > 0.999f); /* along the corner: outward */
            assert_true(fabsf(dot(n, n) - 1.0f) < 1e-5f);
            assert_true(fabsf(dot(t, t) - 1.0f) < 1e-5f);
            assert_true(fabsf(dot(n, t)) < 1e-5f);
            assert_true(t[3] == 1.0f || t[3] == -1.0f);
        }
        /* the seam: two welded vertices of model vertex 0, one normal */
        {
            const float *first = NULL;
            size_t count = 0;
            for (i = 0; i < mesh->num_vertices; i++)
                if (mesh->source_vertex[i] == 0) {
                    if (first)
                        assert_memory_equal(first, buf + 12 * i + 3, 12);
                    first = buf + 12 * i + 3;
                    count++;
                }
            assert_int_equal(count, 2);
        }
        assert_int_equal(md2_mesh_smooth(mesh, buf, &l, 32, scratch, 4), MD2_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(md2_mesh_smooth(mesh, buf, &l, 16, scratch,
                                         md2_mesh_smooth_scratch_size(mesh)),
                         MD2_ERR_INVALID_ARGUMENT); /* tangents over the normal */
        l.normal_offset = MD2_ATTRIBUTE_NONE;
        assert_int_equal(md2_mesh_smooth(mesh, buf, &l, MD2_ATTRIBUTE_NONE, scratch,
                                         md2_mesh_smooth_scratch_size(mesh)),
                         MD2_ERR_INVALID_ARGUMENT);
        free(buf);
        free(scratch);
        md2_mesh_free(mesh);
    }
    big_free(&b);
}

/* On a real model the smooth normals agree with the file's table normals
 * in direction (both point out of the surface). */
static void test_smooth_corpus(void **state)
{
    md2_model *m = load_corpus("faerie.md2");
    md2_mesh *mesh;
    md2_vertex_layout l = md2_layout_default(0);
    float *table, *smooth;
    void *scratch;
    size_t i, agree = 0;
    (void)state;
    if (!m) {
        skip();
        return;
    }
    mesh = build(m, 0);
    table = (float *)malloc(mesh->num_vertices * l.stride);
    smooth = (float *)malloc(mesh->num_vertices * l.stride);
    scratch = malloc(md2_mesh_smooth_scratch_size(mesh));
    assert_true(table && smooth && scratch);
    assert_int_equal(md2_mesh_lerp(mesh, m, 0, 0, 0.0f, table, &l), MD2_OK);
    memcpy(smooth, table, mesh->num_vertices * l.stride);
    assert_int_equal(md2_mesh_smooth(mesh, smooth, &l, MD2_ATTRIBUTE_NONE, scratch,
                                     md2_mesh_smooth_scratch_size(mesh)), MD2_OK);
    for (i = 0; i < mesh->num_vertices; i++)
        agree += dot(table + 8 * i + 3, smooth + 8 * i + 3) > 0.5f;
    print_message("faerie: %lu of %lu smooth normals within 60 degrees of the table's\n",
                  (unsigned long)agree, (unsigned long)mesh->num_vertices);
    assert_true(agree * 10 >= mesh->num_vertices * 9);
    free(table);
    free(smooth);
    free(scratch);
    md2_mesh_free(mesh);
    md2_free(m);
}

#ifdef HAVE_PTHREADS
/* A thread posing one shared mesh and model again and again. */
typedef struct pose_job {
    const md2_mesh *mesh;
    const md2_model *m;
    uint32_t first;
    float *out;     /* the last pose */
    int ok;
} pose_job;

static void *pose_worker(void *arg)
{
    pose_job *j = (pose_job *)arg;
    md2_vertex_layout l = md2_layout_default(MD2_LAYOUT_UNIT_NORMALS);
    int round;
    j->ok = 1;
    for (round = 0; round < 300; round++) {
        uint32_t a = (j->first + (uint32_t)round) % (uint32_t)j->m->num_frames;
        uint32_t b = (a + 1) % (uint32_t)j->m->num_frames;
        if (md2_mesh_lerp(j->mesh, j->m, a, b, (float)(round % 7) / 6.0f, j->out, &l) != MD2_OK)
            j->ok = 0;
    }
    return NULL;
}
#endif

/* Any number of threads pose from one mesh and model; each gets what one
 * thread alone gets. */
static void test_threads_share_one_mesh(void **state)
{
#ifdef HAVE_PTHREADS
    md2_model *m = load_corpus("sydney.md2");
    md2_mesh *mesh;
    md2_vertex_layout l = md2_layout_default(MD2_LAYOUT_UNIT_NORMALS);
    pthread_t th[4];
    pose_job jobs[4];
    float *single;
    int k;
    (void)state;
    if (!m)
        m = tiny_model();
    mesh = build(m, 0);
    single = (float *)malloc(mesh->num_vertices * l.stride);
    assert_non_null(single);
    for (k = 0; k < 4; k++) {
        jobs[k].mesh = mesh;
        jobs[k].m = m;
        jobs[k].first = (uint32_t)(7 * k);
        jobs[k].out = (float *)malloc(mesh->num_vertices * l.stride);
        assert_non_null(jobs[k].out);
        assert_int_equal(pthread_create(&th[k], NULL, pose_worker, &jobs[k]), 0);
    }
    for (k = 0; k < 4; k++) {
        uint32_t a = (jobs[k].first + 299u) % (uint32_t)m->num_frames;
        assert_int_equal(pthread_join(th[k], NULL), 0);
        assert_true(jobs[k].ok);
        assert_int_equal(md2_mesh_lerp(mesh, m, a, (a + 1) % (uint32_t)m->num_frames,
                                       (float)(299 % 7) / 6.0f, single, &l), MD2_OK);
        assert_memory_equal(jobs[k].out, single, mesh->num_vertices * l.stride);
        free(jobs[k].out);
    }
    free(single);
    md2_mesh_free(mesh);
    md2_free(m);
#else
    (void)state;
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weld_corpus),
        cmocka_unit_test(test_winding),
        cmocka_unit_test(test_weld_seams),
        cmocka_unit_test(test_weld_random),
        cmocka_unit_test(test_indices16_and_large),
        cmocka_unit_test(test_empty_and_errors),
        cmocka_unit_test(test_lerp_layouts),
        cmocka_unit_test(test_lerp_errors),
        cmocka_unit_test(test_pose_with_player),
        cmocka_unit_test(test_threads_share_one_mesh),
        cmocka_unit_test(test_morph_data),
        cmocka_unit_test(test_back_to_front),
        cmocka_unit_test(test_back_to_front_corpus),
        cmocka_unit_test(test_smooth_octahedron),
        cmocka_unit_test(test_smooth_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
