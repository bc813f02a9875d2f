/*
 * Tests of <md2/simplify.h>: levels of detail made by one sequence of
 * collapses for every keyframe.
 *
 * On the generated bending cylinder and waving plane with a seam, and on
 * the corpus models (skipped where ../shared is absent): every level keeps
 * the source's texcoords at each vertex (no torn seam), no triangle turns
 * by more than 90 degrees from its source triangle in any frame, open
 * borders stay borders, every vertex keeps its bytes in every frame and
 * every frame its transform, the GL commands cover the triangles and a
 * strict parse takes the written file, and the error the library reports
 * is the one an independent brute-force measure finds. Then the chain of
 * levels, error targets, degenerate input, bad arguments and every
 * allocation failing.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <md2/md2.h>
#include <md2/simplify.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lod_util.h"
#include "test_util.h"

/* Under qemu (MD2_LOD_EMULATED: cross builds) fewer frames of everything:
 * the checks are the same, the library's measure and the brute force's are
 * a pass over the frames each. */
#ifdef MD2_LOD_EMULATED
#define LOD_FRAMES(native, emulated) (emulated)
#else
#define LOD_FRAMES(native, emulated) (native)
#endif

static md2_simplify_target target(md2_simplify_kind kind, double value)
{
    md2_simplify_target t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.value = value;
    return t;
}

/* Edges used by exactly one triangle of model m (as vertex pairs mapped by
 * map, NULL: as they are) are marked in border[a * n + b]. */
static unsigned char *border_edges(const md2_model *m, const uint32_t *map, size_t n)
{
    unsigned char *count = (unsigned char *)calloc(n * n, 1);
    size_t t;
    int k;
    assert_non_null(count);
    for (t = 0; t < m->num_triangles; t++)
        for (k = 0; k < 3; k++) {
            uint32_t a = m->triangles[t].vertex[k], b = m->triangles[t].vertex[(k + 1) % 3];
            if (map) {
                a = map[a];
                b = map[b];
            }
            if (a > b) {
                uint32_t x = a;
                a = b;
                b = x;
            }
            if (count[a * n + b] < 255)
                count[a * n + b]++;
        }
    return count;
}

static void normal_of(const float *p, const uint16_t *c, double *n)
{
    double e1[3], e2[3];
    int i;
    for (i = 0; i < 3; i++) {
        e1[i] = (double)p[3 * c[1] + i] - p[3 * c[0] + i];
        e2[i] = (double)p[3 * c[2] + i] - p[3 * c[0] + i];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
}

/* Every promise about one level lod of src. */
static void check_level(const md2_model *src, const md2_lod *lod, const char *what)
{
    const md2_model *m = lod->model;
    size_t t, f, i, V = src->num_vertices, gl_tris = 0, written = 0;
    float *ps = (float *)malloc(V * 12), *pr = (float *)malloc((m->num_vertices + 1) * 12);
    uint32_t *tris = (uint32_t *)malloc((m->num_triangles + 1) * 12);
    unsigned char *bs, *br;
    double mx, mean;
    uint8_t *bytes;
    md2_model *back = NULL;
    md2_options strict;
    md2_glcmd_iter it;
    md2_glcmd cmd;
    int k;

    assert_non_null(m);
    assert_true(ps && pr && tris);
    assert_true(m->num_triangles <= src->num_triangles);
    assert_int_equal(m->num_frames, src->num_frames);
    /* texcoords: a source texcoord of that very vertex; source maps agree */
    for (t = 0; t < m->num_triangles; t++) {
        const md2_triangle *tr = &m->triangles[t];
        for (k = 0; k < 3; k++) {
            uint32_t sv = lod->source_vertex[tr->vertex[k]];
            md2_texcoord st = m->texcoords[tr->texcoord[k]];
            const md2_texcoord *orig = &src->texcoords[lod->source_texcoord[tr->texcoord[k]]];
            assert_int_equal(st.s, orig->s);
            assert_int_equal(st.t, orig->t);
            if (!lod_has_texcoord(src, sv, st))
                fail_msg("%s: triangle %lu corner %d: texcoord (%d, %d) is not one that source vertex %u has: a torn seam",
                         what, (unsigned long)t, k, st.s, st.t, sv);
            tris[3 * t + (size_t)k] = sv;
        }
        assert_true(lod->source_triangle[t] < src->num_triangles);
        if (t > 0)
            assert_true(lod->source_triangle[t] > lod->source_triangle[t - 1]);
    }
    /* frames: transforms and the bytes of every vertex as in the source;
     * no triangle turned by more than 90 degrees from its source triangle */
    for (f = 0; f < m->num_frames; f++) {
        const md2_frame *a = &m->frames[f], *b = &src->frames[f];
        assert_memory_equal(a->scale, b->scale, sizeof a->scale);
        assert_memory_equal(a->translate, b->translate, sizeof a->translate);
        assert_memory_equal(a->name, b->name, sizeof a->name);
        for (i = 0; i < m->num_vertices; i++)
            assert_memory_equal(&a->vertices[i], &b->vertices[lod->source_vertex[i]], 4);
        assert_int_equal(md2_decode_frame(src, (uint32_t)f, ps, 0, NULL, 0), MD2_OK);
        assert_int_equal(md2_decode_frame(m, (uint32_t)f, pr, 0, NULL, 0), MD2_OK);
        for (t = 0; t < m->num_triangles; t++) {
            double nr[3], ns[3];
            normal_of(pr, m->triangles[t].vertex, nr);
            normal_of(ps, src->triangles[lod->source_triangle[t]].vertex, ns);
            if (nr[0] * ns[0] + nr[1] * ns[1] + nr[2] * ns[2] < 0.0)
                fail_msg("%s: triangle %lu is flipped in frame %lu", what, (unsigned long)t,
                         (unsigned long)f);
        }
    }
    /* open borders stay borders: a border edge of the level joins two
     * vertices that were on a border of the source */
    bs = border_edges(src, NULL, V);
    br = border_edges(m, lod->source_vertex, V);
    for (i = 0; i < V * V; i++) {
        size_t a = i / V, b = i % V, x;
        int on_a = 0, on_b = 0;
        if (br[i] != 1)
            continue;
        for (x = 0; x < V; x++) {
            on_a |= bs[(a < x ? a : x) * V + (a < x ? x : a)] == 1;
            on_b |= bs[(b < x ? b : x) * V + (b < x ? x : b)] == 1;
        }
        if (!on_a || !on_b)
            fail_msg("%s: border edge %lu-%lu of the level, but not both on a source border", what,
                     (unsigned long)a, (unsigned long)b);
    }
    free(bs);
    free(br);
    /* GL commands: every triangle once; the file parses strictly */
    md2_glcmd_begin(&it, m);
    while (md2_glcmd_next(&it, &cmd))
        gl_tris += cmd.num_vertices - 2;
    if (src->skin_width > 0)
        assert_int_equal(gl_tris, m->num_triangles);
    bytes = (uint8_t *)malloc(md2_write_size(m));
    assert_non_null(bytes);
    assert_int_equal(md2_write(m, bytes, md2_write_size(m), &written, NULL), MD2_OK);
    memset(&strict, 0, sizeof strict);
    strict.strict = MD2_STRICT_ALL;
    assert_int_equal(md2_parse(bytes, written, &strict, &back), MD2_OK);
    md2_free(back);
    free(bytes);
    /* the error reported is the one measured independently */
    if (lod->max_error >= 0.0) {
        lod_brute_error(src, tris, m->num_triangles, &mx, &mean);
        if (fabs(mx - lod->max_error) > 1e-4 * (1.0 + mx) ||
            fabs(mean - lod->mean_error) > 1e-4 * (1.0 + mean))
            fail_msg("%s: the library says max %.6f mean %.6f, brute force %.6f %.6f", what,
                     lod->max_error, lod->mean_error, mx, mean);
    }
    free(ps);
    free(pr);
    free(tris);
}

/* Levels of 100, 50, 25 and 12 % from one call, each checked. */
static void chain(const md2_model *src, const char *name)
{
    md2_simplify_target tg[4];
    md2_lod lod[4];
    double ratios[4] = {1.0, 0.5, 0.25, 0.125};
    size_t i;
    for (i = 0; i < 4; i++)
        tg[i] = target(MD2_SIMPLIFY_RATIO, ratios[i]);
    assert_int_equal(md2_simplify(src, tg, 4, NULL, lod), MD2_OK);
    for (i = 0; i < 4; i++) {
        char what[96];
        snprintf(what, sizeof what, "%s at %g", name, ratios[i]);
        print_message("%s: %lu -> %lu triangles, %lu -> %lu vertices, error max %.4f mean %.5f (%.4f%% of its size)\n",
                      what, (unsigned long)src->num_triangles,
                      (unsigned long)lod[i].model->num_triangles,
                      (unsigned long)src->num_vertices, (unsigned long)lod[i].model->num_vertices,
                      lod[i].max_error, lod[i].mean_error, 100.0 * lod[i].relative_error);
        check_level(src, &lod[i], what);
        if (i > 0) {
            assert_true(lod[i].model->num_triangles <= lod[i - 1].model->num_triangles);
            assert_true(lod[i].num_collapses >= lod[i - 1].num_collapses);
            assert_true(lod[i].max_error >= 0.0);
        }
    }
    /* 100 %: nothing collapsed, nothing lost */
    assert_int_equal(lod[0].num_collapses, 0);
    assert_true(lod[0].max_error == 0.0);
    for (i = 0; i < 4; i++)
        md2_lod_free(&lod[i]);
}

static void test_cylinder(void **state)
{
    md2_model *m = lod_cylinder(12, 16, LOD_FRAMES(12, 4));
    (void)state;
    assert_non_null(m);
    chain(m, "bending cylinder");
    md2_free(m);
}

static void test_plane(void **state)
{
    md2_model *m = lod_plane(16, LOD_FRAMES(10, 3));
    (void)state;
    assert_non_null(m);
    chain(m, "waving plane");
    md2_free(m);
}

static void test_corpus(void **state)
{
    const char *names[2] = {"faerie.md2", "sydney.md2"};
    size_t i, found = 0;
    (void)state;
    for (i = 0; i < 2; i++) {
        md2_model *m = lod_corpus_model(names[i]), few;
        md2_frame frames[5];
        if (!m)
            continue;
        /* every 40th frame (the library's measure and the checks' are slow
         * under valgrind and qemu); test_simplify_meshopt takes them all */
        lod_some_frames(m, 40, LOD_FRAMES(5, 2), frames, &few);
        chain(&few, names[i]);
        md2_free(m);
        found++;
    }
    if (found == 0)
        skip();
}

/* A fan of 1000 triangles around one vertex (valence 1000: the paths for
 * vertices of many neighbours, whose costs are brought up to date at the
 * top of the heap and whose refused collapses wait for many changes):
 * every promise holds at 50 %, at an error target and as far as it goes. */
static void test_fan(void **state)
{
    md2_model *m = lod_fan(1000);
    md2_simplify_target tg[3];
    md2_lod lod[3];
    size_t i;
    (void)state;
    assert_non_null(m);
    tg[0] = target(MD2_SIMPLIFY_RATIO, 0.5);
    tg[1] = target(MD2_SIMPLIFY_ERROR, 2.0);
    tg[2] = target(MD2_SIMPLIFY_TRIANGLES, 0);
    assert_int_equal(md2_simplify(m, tg, 3, NULL, lod), MD2_OK);
    assert_int_equal(lod[0].model->num_triangles, 500);
    assert_true(lod[1].max_error <= 2.0);
    assert_true(lod[2].model->num_triangles < 50);
    for (i = 0; i < 3; i++) {
        char what[64];
        snprintf(what, sizeof what, "fan, level %lu", (unsigned long)i);
        print_message("%s: %lu triangles, error max %.4f mean %.5f\n", what,
                      (unsigned long)lod[i].model->num_triangles, lod[i].max_error,
                      lod[i].mean_error);
        check_level(m, &lod[i], what);
        md2_lod_free(&lod[i]);
    }
    free(m);
}

/* A vertex with more than 64 neighbours does not move: a flat closed fan
 * of 80 triangles around a centre, the rim a convex polygon of steps (the
 * primitive directions of at most 5 steps, in order of angle: no three in
 * a line), so that the centre's collapses are allowed and cost nothing
 * and would come first; 5 collapses later it is still there with all its
 * triangles but 5. */
static void test_hub_stays(void **state)
{
    struct {
        md2_model m;
        md2_frame frame;
        md2_vertex v[81];
        md2_triangle t[80];
        md2_texcoord st[1];
    } h;
    int dirs[80][2], n = 0, dx, dy, i, j, x = 100, y = 180;
    md2_simplify_target tg = target(MD2_SIMPLIFY_TRIANGLES, 75);
    md2_lod lod;
    size_t centre, around = 0, t;
    (void)state;
    memset(&h, 0, sizeof h);
    for (dx = -5; dx <= 5; dx++)
        for (dy = -5; dy <= 5; dy++) {
            int a = abs(dx), b = abs(dy);
            while (b) { /* gcd */
                int r = a % b;
                a = b;
                b = r;
            }
            if (a == 1) {
                dirs[n][0] = dx;
                dirs[n][1] = dy;
                n++;
            }
        }
    assert_int_equal(n, 80);
    for (i = 1; i < n; i++) /* by angle, in order */
        for (j = i; j > 0 && atan2(dirs[j][1], dirs[j][0]) < atan2(dirs[j - 1][1], dirs[j - 1][0]);
             j--) {
            int k0 = dirs[j][0], k1 = dirs[j][1];
            dirs[j][0] = dirs[j - 1][0];
            dirs[j][1] = dirs[j - 1][1];
            dirs[j - 1][0] = k0;
            dirs[j - 1][1] = k1;
        }
    h.v[0].v[0] = 100;
    h.v[0].v[1] = 125;
    for (i = 0; i < n; i++) {
        x += dirs[i][0];
        y += dirs[i][1];
        h.v[i + 1].v[0] = (uint8_t)x;
        h.v[i + 1].v[1] = (uint8_t)y;
        h.t[i].vertex[1] = (uint16_t)(i + 1);
        h.t[i].vertex[2] = (uint16_t)(i + 1 < n ? i + 2 : 1);
    }
    h.frame.scale[0] = h.frame.scale[1] = h.frame.scale[2] = 1.0f;
    strcpy(h.frame.name, "flat");
    h.frame.vertices = h.v;
    h.m.skin_width = h.m.skin_height = 64;
    h.m.num_vertices = 81;
    h.m.num_texcoords = 1;
    h.m.texcoords = h.st;
    h.m.num_triangles = 80;
    h.m.triangles = h.t;
    h.m.num_frames = 1;
    h.m.frames = &h.frame;
    assert_int_equal(md2_simplify(&h.m, &tg, 1, NULL, &lod), MD2_OK);
    assert_int_equal(lod.model->num_triangles, 75);
    centre = lod.model->num_vertices;
    for (t = 0; t < lod.model->num_vertices; t++)
        if (lod.source_vertex[t] == 0)
            centre = t;
    assert_true(centre < lod.model->num_vertices);
    for (t = 0; t < lod.model->num_triangles; t++) {
        const uint16_t *c = lod.model->triangles[t].vertex;
        around += c[0] == centre || c[1] == centre || c[2] == centre;
    }
    assert_int_equal(around, 75);
    check_level(&h.m, &lod, "hub");
    md2_lod_free(&lod);
}

/* An error target gives a level within it, as small as the bisection finds,
 * and the same level as the triangle target of its count. */
static void test_error_target(void **state)
{
    md2_model *m = lod_cylinder(12, 16, 24);
    md2_simplify_target tg[2];
    md2_lod lod[2], again;
    (void)state;
    assert_non_null(m);
    tg[0] = target(MD2_SIMPLIFY_RATIO, 0.3);
    assert_int_equal(md2_simplify(m, tg, 1, NULL, lod), MD2_OK);
    tg[1] = target(MD2_SIMPLIFY_ERROR, lod[0].max_error);
    assert_int_equal(md2_simplify(m, &tg[1], 1, NULL, &lod[1]), MD2_OK);
    assert_true(lod[1].max_error <= tg[1].value);
    assert_true(lod[1].model->num_triangles < m->num_triangles);
    tg[0] = target(MD2_SIMPLIFY_TRIANGLES, (double)lod[1].model->num_triangles);
    assert_int_equal(md2_simplify(m, tg, 1, NULL, &again), MD2_OK);
    assert_int_equal(again.model->num_triangles, lod[1].model->num_triangles);
    assert_true(again.max_error == lod[1].max_error);
    check_level(m, &lod[1], "error target");
    /* an error of 0 keeps the shape: only collapses of no error at all */
    md2_lod_free(&again);
    tg[0] = target(MD2_SIMPLIFY_ERROR, 0.0);
    assert_int_equal(md2_simplify(m, tg, 1, NULL, &again), MD2_OK);
    assert_true(again.max_error == 0.0);
    md2_lod_free(&again);
    md2_lod_free(&lod[0]);
    md2_lod_free(&lod[1]);
    md2_free(m);
}

/* Targets of 0 and of more than the model has, and MD2_SIMPLIFY_NO_ERROR. */
static void test_targets(void **state)
{
    md2_model *m = lod_plane(8, 4);
    md2_simplify_target tg[3];
    md2_simplify_options o;
    md2_lod lod[3];
    (void)state;
    assert_non_null(m);
    tg[0] = target(MD2_SIMPLIFY_TRIANGLES, 0);
    tg[1] = target(MD2_SIMPLIFY_TRIANGLES, 1e9);
    tg[2] = target(MD2_SIMPLIFY_RATIO, 7.0);
    memset(&o, 0, sizeof o);
    o.flags = MD2_SIMPLIFY_NO_ERROR;
    assert_int_equal(md2_simplify(m, tg, 3, &o, lod), MD2_OK);
    assert_true(lod[0].model->num_triangles >= 1);
    assert_true(lod[0].model->num_triangles < m->num_triangles / 4);
    assert_int_equal(lod[1].model->num_triangles, m->num_triangles);
    assert_int_equal(lod[2].model->num_triangles, m->num_triangles);
    assert_true(lod[0].max_error == -1.0 && lod[0].mean_error == -1.0);
    check_level(m, &lod[0], "target 0");
    check_level(m, &lod[1], "target 1e9");
    md2_lod_free(&lod[0]);
    md2_lod_free(&lod[1]);
    md2_lod_free(&lod[2]);
    md2_lod_free(&lod[2]); /* zeroed: a no-op */
    md2_lod_free(NULL);
    md2_free(m);
}

/* A model made by hand from positions (one frame each) and triangles. */
typedef struct hand {
    md2_model m;
    md2_frame frame;
    md2_vertex v[16];
    md2_triangle t[16];
    md2_texcoord st[16];
} hand;

static void hand_make(hand *h, const uint8_t (*pos)[3], size_t nv, const uint16_t (*tris)[3],
                      size_t nt)
{
    size_t i;
    memset(h, 0, sizeof *h);
    for (i = 0; i < nv; i++) {
        memcpy(h->v[i].v, pos[i], 3);
        h->st[i].s = (int16_t)(4 * i);
        h->st[i].t = (int16_t)i;
    }
    for (i = 0; i < nt; i++) {
        memcpy(h->t[i].vertex, tris[i], sizeof h->t[i].vertex);
        memcpy(h->t[i].texcoord, tris[i], sizeof h->t[i].texcoord);
    }
    h->frame.scale[0] = h->frame.scale[1] = h->frame.scale[2] = 1.0f;
    strcpy(h->frame.name, "frame1");
    h->frame.vertices = h->v;
    h->m.skin_width = h->m.skin_height = 64;
    h->m.num_vertices = nv;
    h->m.num_texcoords = nv;
    h->m.num_triangles = nt;
    h->m.num_frames = 1;
    h->m.texcoords = h->st;
    h->m.triangles = h->t;
    h->m.frames = &h->frame;
}

static void simplify_all_ways(const hand *h, const char *what)
{
    md2_simplify_target tg[3];
    md2_lod lod[3];
    size_t i;
    tg[0] = target(MD2_SIMPLIFY_TRIANGLES, 0);
    tg[1] = target(MD2_SIMPLIFY_RATIO, 0.5);
    tg[2] = target(MD2_SIMPLIFY_ERROR, 1.0);
    assert_int_equal(md2_simplify(&h->m, tg, 3, NULL, lod), MD2_OK);
    for (i = 0; i < 3; i++) {
        assert_true(lod[i].model->num_triangles >= 1);
        check_level(&h->m, &lod[i], what);
        md2_lod_free(&lod[i]);
    }
}

static void test_degenerate(void **state)
{
    static const uint8_t pos[8][3] = {{0, 0, 0},  {10, 0, 0},  {0, 10, 0}, {10, 10, 0},
                                      {20, 0, 0}, {20, 10, 5}, {5, 5, 9},  {5, 5, 0}};
    static const uint8_t line[4][3] = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}};
    static const uint16_t one[1][3] = {{0, 1, 2}};
    static const uint16_t quad[2][3] = {{0, 1, 2}, {2, 1, 3}};
    /* three triangles on the edge 1-3: non-manifold */
    static const uint16_t fin[4][3] = {{0, 1, 2}, {2, 1, 3}, {1, 4, 3}, {1, 3, 6}};
    /* two fans that share only vertex 3, and a triangle with a repeated vertex */
    static const uint16_t bowtie[5][3] = {{0, 1, 3}, {1, 7, 3}, {3, 4, 5}, {3, 5, 6}, {2, 2, 3}};
    static const uint16_t flat[3][3] = {{0, 1, 2}, {1, 2, 3}, {0, 2, 3}};
    static const uint16_t repeated[2][3] = {{0, 0, 1}, {1, 1, 1}};
    hand h;
    md2_simplify_target tg = target(MD2_SIMPLIFY_TRIANGLES, 0);
    md2_lod lod;
    md2_diagnostic d;
    md2_simplify_options o;
    (void)state;

    hand_make(&h, pos, 8, one, 1);
    simplify_all_ways(&h, "one triangle");
    hand_make(&h, pos, 8, quad, 2);
    simplify_all_ways(&h, "quad");
    hand_make(&h, pos, 8, fin, 4);
    simplify_all_ways(&h, "non-manifold edge");
    hand_make(&h, pos, 8, bowtie, 5);
    simplify_all_ways(&h, "bow tie");
    hand_make(&h, line, 4, flat, 3); /* every triangle of zero area */
    simplify_all_ways(&h, "zero area");
    /* no triangle of three vertices: a specific error */
    memset(&o, 0, sizeof o);
    o.error = &d;
    hand_make(&h, pos, 8, repeated, 2);
    assert_int_equal(md2_simplify(&h.m, &tg, 1, &o, &lod), MD2_ERR_INVALID_MODEL);
    assert_string_equal(d.field, "num_triangles");
    assert_null(lod.model);
    hand_make(&h, pos, 8, one, 0);
    assert_int_equal(md2_simplify(&h.m, &tg, 1, &o, &lod), MD2_ERR_INVALID_MODEL);
    /* a model that breaks the format: the writer's diagnostic */
    hand_make(&h, pos, 8, one, 1);
    h.t[0].vertex[1] = 9;
    assert_int_equal(md2_simplify(&h.m, &tg, 1, &o, &lod), MD2_ERR_INVALID_MODEL);
    assert_string_equal(d.field, "vertex");
}

static void test_arguments(void **state)
{
    md2_model *m = lod_plane(4, 2);
    md2_simplify_target tg = target(MD2_SIMPLIFY_RATIO, 0.5), bad;
    md2_simplify_options o;
    md2_diagnostic d;
    md2_lod lod;
    (void)state;
    assert_non_null(m);
    memset(&o, 0, sizeof o);
    o.error = &d;
    assert_int_equal(md2_simplify(NULL, &tg, 1, &o, &lod), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_simplify(m, NULL, 1, &o, &lod), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_simplify(m, &tg, 1, &o, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_simplify(m, &tg, 0, &o, &lod), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "num_targets");
    bad = target((md2_simplify_kind)7, 1.0);
    assert_int_equal(md2_simplify(m, &bad, 1, &o, &lod), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "kind");
    bad = target(MD2_SIMPLIFY_ERROR, -1.0);
    assert_int_equal(md2_simplify(m, &bad, 1, &o, &lod), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "value");
    bad = target(MD2_SIMPLIFY_RATIO, nan(""));
    assert_int_equal(md2_simplify(m, &bad, 1, &o, &lod), MD2_ERR_INVALID_ARGUMENT);
    bad = target(MD2_SIMPLIFY_TRIANGLES, 1.5);
    assert_int_equal(md2_simplify(m, &bad, 1, &o, &lod), MD2_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.message, "whole number"));
    bad = target(MD2_SIMPLIFY_RATIO, 0.5);
    bad.reserved_[1] = 3;
    assert_int_equal(md2_simplify(m, &bad, 1, &o, &lod), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "md2_simplify_target.reserved_");
    o.reserved_[2] = 1;
    assert_int_equal(md2_simplify(m, &tg, 1, &o, &lod), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "md2_simplify_options.reserved_");
    o.reserved_[2] = 0;
    o.flags = 0x10;
    assert_int_equal(md2_simplify(m, &tg, 1, &o, &lod), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "flags");
    assert_null(lod.model);
    md2_free(m);
}

/* Every allocation failing in turn: MD2_ERR_OUT_OF_MEMORY, levels zeroed,
 * nothing left allocated; past the last, the call succeeds. */
static void test_alloc_failures(void **state)
{
    md2_model *m = lod_cylinder(8, 6, 5);
    md2_simplify_target tg[2];
    md2_simplify_options o;
    md2_lod lod[2];
    tu_alloc a;
    size_t n;
    (void)state;
    assert_non_null(m);
    tg[0] = target(MD2_SIMPLIFY_RATIO, 0.5);
    tg[1] = target(MD2_SIMPLIFY_ERROR, 0.5);
    for (n = 1;; n++) {
        md2_result r;
        memset(&o, 0, sizeof o);
        tu_alloc_init(&a, &o.allocator);
        a.fail_at = n;
        r = md2_simplify(m, tg, 2, &o, lod);
        if (r == MD2_OK) {
            assert_true(a.calls < n);
            md2_lod_free(&lod[0]);
            md2_lod_free(&lod[1]);
            assert_int_equal(a.live, 0);
            break;
        }
        assert_int_equal(r, MD2_ERR_OUT_OF_MEMORY);
        assert_int_equal(a.live, 0);
        assert_null(lod[0].model);
        assert_null(lod[1].model);
    }
    print_message("%lu allocations, each failed once\n", (unsigned long)(n - 1));
    assert_true(n > 10);
    md2_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cylinder),     cmocka_unit_test(test_plane),
        cmocka_unit_test(test_corpus),       cmocka_unit_test(test_fan),
        cmocka_unit_test(test_hub_stays),
        cmocka_unit_test(test_error_target),
        cmocka_unit_test(test_targets),      cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_arguments),    cmocka_unit_test(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
