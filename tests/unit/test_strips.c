/*
 * md2__strips_build() (src/strips.c, compiled into this test): the GL
 * command strips and fans of a triangle list.
 *
 * Every case expands the words back to triangles twice, once here (an
 * expansion of its own, from the words) and once through the library's
 * md2_glcmd iterator on a model that md2_write() wrote and md2_parse()
 * read back in strict mode, and compares both with the triangle list as
 * multisets of oriented triangles: each a triple of (vertex, s bits,
 * t bits) corners, any rotation of it equal, its reflection not. The
 * models: one triangle, none, grids (shared texcoords, a texcoord entry for
 * every corner, distinct values everywhere, seams), a capped cylinder with
 * a texture seam, degenerate triangles, non-manifold edges, random soups,
 * 65,536 triangles, and the real models of ../shared/corpus (skipped when
 * absent), whose rebuilt lists must have at most 0.9 times the words of
 * their own. Every allocation fails in turn.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strips.h"
#include "test_util.h"

/* ------------------------------------------------------------------------ */
/* Generated models                                                          */
/* ------------------------------------------------------------------------ */

typedef struct mesh {
    md2_triangle *tris;
    size_t nt, cap_t;
    md2_texcoord *st;
    size_t nst, cap_st;
    size_t nv;
    uint32_t w, h;
} mesh;

static void mesh_init(mesh *m, size_t cap_t, size_t cap_st, size_t nv, uint32_t w, uint32_t h)
{
    memset(m, 0, sizeof *m);
    m->tris = (md2_triangle *)calloc(cap_t ? cap_t : 1, sizeof *m->tris);
    m->st = (md2_texcoord *)calloc(cap_st ? cap_st : 1, sizeof *m->st);
    assert_non_null(m->tris);
    assert_non_null(m->st);
    m->cap_t = cap_t;
    m->cap_st = cap_st;
    m->nv = nv;
    m->w = w;
    m->h = h;
}

static void mesh_free(mesh *m)
{
    free(m->tris);
    free(m->st);
}

static unsigned add_st(mesh *m, int s, int t)
{
    assert_true(m->nst < m->cap_st);
    m->st[m->nst].s = (int16_t)s;
    m->st[m->nst].t = (int16_t)t;
    return (unsigned)m->nst++;
}

static void add_tri(mesh *m, unsigned v0, unsigned t0, unsigned v1, unsigned t1,
                    unsigned v2, unsigned t2)
{
    md2_triangle *t;
    assert_true(m->nt < m->cap_t);
    assert_true(v0 < m->nv && v1 < m->nv && v2 < m->nv);
    t = &m->tris[m->nt++];
    t->vertex[0] = (uint16_t)v0;
    t->vertex[1] = (uint16_t)v1;
    t->vertex[2] = (uint16_t)v2;
    t->texcoord[0] = (uint16_t)t0;
    t->texcoord[1] = (uint16_t)t1;
    t->texcoord[2] = (uint16_t)t2;
}

enum grid_st {
    GRID_SHARED,     /* one texcoord entry a grid point */
    GRID_PER_CORNER, /* one entry a corner, with the grid point's values */
    GRID_UNIQUE,     /* every corner its own values: nothing can join */
    GRID_SEAMS       /* charts of 4 columns of quads, with seams between */
};

/* cols x rows quads of two triangles each, consistently wound. */
static void make_grid(mesh *m, unsigned cols, unsigned rows, enum grid_st mode)
{
    unsigned x, y, k;
    size_t nt = 2u * (size_t)cols * rows;
    mesh_init(m, nt, mode == GRID_SHARED ? (size_t)(cols + 1) * (rows + 1) : 3u * nt,
              (size_t)(cols + 1) * (rows + 1), 64, 32);
    if (mode == GRID_SHARED)
        for (y = 0; y <= rows; y++)
            for (x = 0; x <= cols; x++)
                add_st(m, (int)x, (int)y);
    for (y = 0; y < rows; y++) {
        for (x = 0; x < cols; x++) {
            unsigned qx[4] = {x, x + 1, x, x + 1}, qy[4] = {y, y, y + 1, y + 1};
            unsigned v[4], t[4];
            static const int order[2][3] = {{0, 1, 2}, {1, 3, 2}};
            int tri;
            for (k = 0; k < 4; k++)
                v[k] = qy[k] * (cols + 1) + qx[k];
            for (tri = 0; tri < 2; tri++) {
                for (k = 0; k < 3; k++) {
                    unsigned c = (unsigned)order[tri][k];
                    switch (mode) {
                    case GRID_SHARED:
                        t[k] = v[c];
                        break;
                    case GRID_PER_CORNER:
                        t[k] = add_st(m, (int)qx[c], (int)qy[c]);
                        break;
                    case GRID_UNIQUE:
                        t[k] = add_st(m, (int)m->nst, -(int)m->nst);
                        break;
                    default: /* the chart's own values: 1000 apart */
                        t[k] = add_st(m, (int)qx[c] + 1000 * (int)(x / 4u), (int)qy[c]);
                        break;
                    }
                }
                add_tri(m, v[order[tri][0]], t[0], v[order[tri][1]], t[1],
                        v[order[tri][2]], t[2]);
            }
        }
    }
}

/* A tube of n segments and r rows, its texture wrapped once round (a seam
 * where u = n meets u = 0), closed by a cap of n triangles at each end
 * with texcoords of their own (seams all round). */
static void make_cylinder(mesh *m, unsigned n, unsigned r)
{
    unsigned i, j, top, bottom, ct, cb, cap_top[64], cap_bottom[64];
    assert_true(n < 64);
    mesh_init(m, 2u * n * r + 2u * n, (size_t)(n + 1) * (r + 1) + 2u * n + 2u,
              (size_t)n * (r + 1) + 2u, 256, 256);
    for (j = 0; j <= r; j++)
        for (i = 0; i <= n; i++)
            add_st(m, (int)(8 * i), (int)(8 * j)); /* index j * (n + 1) + i */
    top = n * (r + 1);
    bottom = top + 1;
    ct = add_st(m, 200, 200);
    cb = add_st(m, 200, 240);
    for (i = 0; i < n; i++) {
        cap_top[i] = add_st(m, 180 + (int)i, 190);
        cap_bottom[i] = add_st(m, 180 + (int)i, 230);
    }
    for (j = 0; j < r; j++) {
        for (i = 0; i < n; i++) {
            unsigned a = j * n + i, b = j * n + (i + 1) % n;
            unsigned c = a + n, d = b + n;
            unsigned ta = j * (n + 1) + i, tb = ta + 1, tc = ta + n + 1, td = tc + 1;
            add_tri(m, a, ta, b, tb, c, tc);
            add_tri(m, b, tb, d, td, c, tc);
        }
    }
    for (i = 0; i < n; i++) {
        unsigned i1 = (i + 1) % n;
        add_tri(m, top, ct, i1, cap_top[i1], i, cap_top[i]);
        add_tri(m, r * n + i, cap_bottom[i], r * n + i1, cap_bottom[i1], bottom, cb);
    }
}

static uint32_t lcg(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return *x >> 8;
}

/* nt random triangles over nv vertices and nst texcoord entries whose
 * values repeat (values = index % nvalues): degenerate, duplicated,
 * reversed and non-manifold triangles included. */
static void make_soup(mesh *m, size_t nt, unsigned nv, unsigned nst, unsigned nvalues,
                      uint32_t seed)
{
    size_t i;
    unsigned k;
    mesh_init(m, nt, nst, nv, 17, 5);
    for (k = 0; k < nst; k++)
        add_st(m, (int)(k % nvalues) * 3 - 7, (int)(k % nvalues));
    for (i = 0; i < nt; i++) {
        unsigned v[3], t[3];
        for (k = 0; k < 3; k++) {
            v[k] = lcg(&seed) % nv;
            t[k] = lcg(&seed) % nst;
        }
        add_tri(m, v[0], t[0], v[1], t[1], v[2], t[2]);
    }
}

/* ------------------------------------------------------------------------ */
/* Oriented triangles as multisets                                           */
/* ------------------------------------------------------------------------ */

/* Three corners (vertex, s bits, t bits), rotated so that the smallest
 * corner comes first: equal for rotations, not for reflections. */
typedef struct otri {
    uint32_t c[9];
} otri;

static int cmp_words(const uint32_t *a, const uint32_t *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

static int cmp_otri(const void *a, const void *b)
{
    return cmp_words(((const otri *)a)->c, ((const otri *)b)->c, 9);
}

static otri make_otri(uint32_t corners[3][3])
{
    otri best, r;
    int rot, k;
    for (rot = 0; rot < 3; rot++) {
        for (k = 0; k < 3; k++)
            memcpy(&r.c[3 * k], corners[(rot + k) % 3], 3 * sizeof(uint32_t));
        if (rot == 0 || cmp_otri(&r, &best) < 0)
            best = r;
    }
    return best;
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* (s + 0.5) / size rounded to float after each operation, as the words
 * must hold it: the centre of texel s, as the corpus files have it. */
static uint32_t texcoord_bits(int16_t s, uint32_t size)
{
    volatile float centre = (float)s + 0.5f;
    volatile float q = centre / (float)size;
    return bits(q);
}

/* The triangle list as oriented triangles, sorted. */
static otri *expected_set(const mesh *m)
{
    otri *out = (otri *)malloc((m->nt ? m->nt : 1) * sizeof *out);
    size_t i;
    int k;
    assert_non_null(out);
    for (i = 0; i < m->nt; i++) {
        uint32_t c[3][3];
        for (k = 0; k < 3; k++) {
            md2_texcoord st = m->st[m->tris[i].texcoord[k]];
            c[k][0] = m->tris[i].vertex[k];
            c[k][1] = texcoord_bits(st.s, m->w);
            c[k][2] = texcoord_bits(st.t, m->h);
        }
        out[i] = make_otri(c);
    }
    qsort(out, m->nt, sizeof *out, cmp_otri);
    return out;
}

/* A strip's triangle k is (k, k+1, k+2) for even k and (k+1, k, k+2) for
 * odd k; a fan's is (0, k+1, k+2). */
static void command_triangle(int fan, size_t k, size_t idx[3])
{
    if (fan) {
        idx[0] = 0;
        idx[1] = k + 1;
    } else {
        idx[0] = k % 2 ? k + 1 : k;
        idx[1] = k % 2 ? k : k + 1;
    }
    idx[2] = k + 2;
}

typedef struct expansion {
    otri *tris;
    size_t count;
    size_t commands, fans, longest, longest_fan;
} expansion;

/* Expands the words here, checking their structure: counts of at least 3
 * vertices, finite texcoords, vertex indices below nv, one 0 at the very
 * end. The triangles come out sorted. */
static void expand_words(const int32_t *w, size_t nw, size_t nv, size_t nt, expansion *e)
{
    size_t at = 0;
    memset(e, 0, sizeof *e);
    e->tris = (otri *)malloc((nt ? nt : 1) * sizeof *e->tris);
    assert_non_null(e->tris);
    assert_true(nw >= 1);
    while (w[at] != 0) {
        int32_t count = w[at];
        size_t n = (size_t)(count < 0 ? -(int64_t)count : count), k, j;
        int fan = count < 0;
        const int32_t *v = &w[at + 1];
        assert_true(n >= 3);
        assert_true(n <= (nw - at - 2) / 3); /* room for it and the final 0 */
        for (k = 0; k < n; k++) {
            float s, t;
            uint32_t u = (uint32_t)v[3 * k], u2 = (uint32_t)v[3 * k + 1];
            memcpy(&s, &u, sizeof s);
            memcpy(&t, &u2, sizeof t);
            assert_true(isfinite(s) && isfinite(t));
            assert_true(v[3 * k + 2] >= 0 && (size_t)v[3 * k + 2] < nv);
        }
        for (k = 0; k + 2 < n; k++) {
            size_t idx[3];
            uint32_t c[3][3];
            command_triangle(fan, k, idx);
            for (j = 0; j < 3; j++) {
                c[j][0] = (uint32_t)v[3 * idx[j] + 2];
                c[j][1] = (uint32_t)v[3 * idx[j]];
                c[j][2] = (uint32_t)v[3 * idx[j] + 1];
            }
            assert_true(e->count < nt);
            e->tris[e->count++] = make_otri(c);
        }
        e->commands++;
        e->fans += (size_t)fan;
        if (n - 2 > e->longest)
            e->longest = n - 2;
        if (fan && n - 2 > e->longest_fan)
            e->longest_fan = n - 2;
        at += 1 + 3 * n;
    }
    assert_int_equal(at + 1, nw);
    qsort(e->tris, e->count, sizeof *e->tris, cmp_otri);
}

/* The same through md2_glcmd_begin()/next()/get() on model m. */
static otri *expand_iterator(const md2_model *m, size_t *count)
{
    md2_glcmd_iter it;
    md2_glcmd cmd;
    otri *out = (otri *)malloc((m->num_triangles ? m->num_triangles : 1) * sizeof *out);
    size_t n = 0, k, j;
    assert_non_null(out);
    md2_glcmd_begin(&it, m);
    while (md2_glcmd_next(&it, &cmd)) {
        for (k = 0; k + 2 < cmd.num_vertices; k++) {
            size_t idx[3];
            uint32_t c[3][3];
            command_triangle(cmd.is_fan, k, idx);
            for (j = 0; j < 3; j++) {
                md2_glcmd_vertex v = md2_glcmd_get(&cmd, idx[j]);
                c[j][0] = v.vertex;
                c[j][1] = bits(v.s);
                c[j][2] = bits(v.t);
            }
            assert_true(n < m->num_triangles);
            out[n++] = make_otri(c);
        }
    }
    qsort(out, n, sizeof *out, cmp_otri);
    *count = n;
    return out;
}

static void assert_same_set(const otri *a, size_t na, const otri *b, size_t nb)
{
    size_t i;
    assert_int_equal(na, nb);
    for (i = 0; i < na; i++)
        if (cmp_otri(&a[i], &b[i]) != 0)
            fail_msg("oriented triangle %lu of %lu differs", (unsigned long)i,
                     (unsigned long)na);
}

/* ------------------------------------------------------------------------ */
/* Building and checking                                                     */
/* ------------------------------------------------------------------------ */

static md2_result build_with(const mesh *m, md2_allocator a, int32_t **w, size_t *nw)
{
    return md2__strips_build(m->tris, m->nt, m->st, m->nst, m->nv, m->w, m->h, a, w, nw);
}

/* Builds m's words with a counting allocator: one block is left, the
 * words. */
static int32_t *build_ok(const mesh *m, size_t *nw, tu_alloc *ta, md2_allocator *a)
{
    int32_t *w = NULL;
    tu_alloc_init(ta, a);
    assert_int_equal(build_with(m, *a, &w, nw), MD2_OK);
    assert_non_null(w);
    assert_int_equal(ta->live, 1);
    assert_int_equal(ta->live_bytes, *nw * sizeof(int32_t));
    return w;
}

/* Writes m with GL commands w as a one-frame model, parses it back in
 * strict mode, and checks that the parser kept the words as they are and
 * that its iterator draws the triangle list. */
static void check_parsed(const mesh *m, const int32_t *w, size_t nw, const otri *want)
{
    md2_model hand, *parsed = NULL;
    md2_frame frame;
    md2_vertex *verts = (md2_vertex *)calloc(m->nv, sizeof *verts);
    md2_options o;
    md2_diagnostic d;
    size_t size, written = 0, count = 0;
    unsigned char *file;
    otri *got;

    assert_non_null(verts);
    memset(&hand, 0, sizeof hand);
    memset(&frame, 0, sizeof frame);
    frame.scale[0] = frame.scale[1] = frame.scale[2] = 1.0f;
    strcpy(frame.name, "frame1");
    frame.vertices = verts;
    hand.skin_width = (int32_t)m->w;
    hand.skin_height = (int32_t)m->h;
    hand.num_vertices = m->nv;
    hand.num_texcoords = m->nst;
    hand.num_triangles = m->nt;
    hand.num_frames = 1;
    hand.num_glcmds = nw;
    hand.texcoords = m->st;
    hand.triangles = m->tris;
    hand.frames = &frame;
    hand.glcmds = w;
    size = md2_write_size(&hand);
    assert_true(size > 0);
    file = (unsigned char *)malloc(size);
    assert_non_null(file);
    assert_int_equal(md2_write(&hand, file, size, &written, NULL), MD2_OK);
    assert_int_equal(written, size);

    memset(&o, 0, sizeof o);
    o.strict = MD2_STRICT_ALL;
    o.error = &d;
    if (md2_parse(file, size, &o, &parsed) != MD2_OK)
        fail_msg("strict parse: %s", d.message);
    /* the hand-made frame's normals are all index 0: an advice, no quirk */
    assert_int_equal(parsed->warnings & ~(uint32_t)MD2_WARN_SAME_NORMALS, 0);
    assert_int_equal(parsed->num_glcmds, nw);
    assert_memory_equal(parsed->glcmds, w, nw * sizeof *w);
    got = expand_iterator(parsed, &count);
    assert_same_set(got, count, want, m->nt);
    free(got);
    md2_free(parsed);
    free(file);
    free(verts);
}

typedef struct result {
    size_t words, commands, fans, longest, longest_fan;
    uint64_t digest; /* FNV-1a of the words, printed to compare hosts */
} result;

static uint64_t fnv_words(const int32_t *w, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    size_t i;
    int b;
    for (i = 0; i < n; i++)
        for (b = 0; b < 4; b++) { /* in a fixed byte order on every host */
            h ^= ((uint32_t)w[i] >> (8 * b)) & 0xFFu;
            h *= 1099511628211ull;
        }
    return h;
}

/* The whole check of one model; returns what the words hold. */
static result check_mesh(const mesh *m)
{
    tu_alloc ta;
    md2_allocator a;
    size_t nw = 0;
    int32_t *w = build_ok(m, &nw, &ta, &a);
    otri *want = expected_set(m);
    expansion e;
    result r;

    expand_words(w, nw, m->nv, m->nt, &e);
    assert_same_set(e.tris, e.count, want, m->nt);
    check_parsed(m, w, nw, want);
    r.words = nw;
    r.commands = e.commands;
    r.fans = e.fans;
    r.longest = e.longest;
    r.longest_fan = e.longest_fan;
    r.digest = fnv_words(w, nw);
    free(e.tris);
    free(want);
    a.free(a.user, w);
    assert_int_equal(ta.live, 0);
    return r;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */
/* ------------------------------------------------------------------------ */

/* The comparison itself: a rotation is the same triangle, a reflection or
 * another texcoord is not. */
static void test_orientation_compare(void **state)
{
    uint32_t abc[3][3] = {{1, 10, 20}, {2, 11, 21}, {3, 12, 22}};
    uint32_t bca[3][3] = {{2, 11, 21}, {3, 12, 22}, {1, 10, 20}};
    uint32_t acb[3][3] = {{1, 10, 20}, {3, 12, 22}, {2, 11, 21}};
    uint32_t abd[3][3] = {{1, 10, 20}, {2, 11, 21}, {3, 13, 22}};
    otri x = make_otri(abc), y = make_otri(bca), z = make_otri(acb), u = make_otri(abd);
    (void)state;
    assert_int_equal(cmp_otri(&x, &y), 0);
    assert_int_not_equal(cmp_otri(&x, &z), 0);
    assert_int_not_equal(cmp_otri(&x, &u), 0);
}

static void test_one_triangle(void **state)
{
    mesh m;
    tu_alloc ta;
    md2_allocator a;
    size_t nw, k;
    int32_t *w;
    result r;
    (void)state;
    mesh_init(&m, 1, 3, 5, 64, 32);
    add_st(&m, 0, 0);
    add_st(&m, 63, 5);
    add_st(&m, -3, 40); /* outside the skin, as real files have */
    add_tri(&m, 4, 2, 0, 0, 3, 1);
    r = check_mesh(&m);
    assert_int_equal(r.words, 11);
    assert_int_equal(r.commands, 1);
    /* its words: a strip of 3, each vertex s / 64, t / 32 of its corner */
    w = build_ok(&m, &nw, &ta, &a);
    assert_int_equal(nw, 11);
    assert_int_equal(w[0], 3);
    assert_int_equal(w[10], 0);
    for (k = 0; k < 3; k++) {
        int32_t v = w[1 + 3 * k + 2];
        size_t c = v == 4 ? 0 : v == 0 ? 1 : 2; /* the corner it is */
        md2_texcoord st = m.st[m.tris[0].texcoord[c]];
        assert_int_equal(v, m.tris[0].vertex[c]);
        assert_int_equal((uint32_t)w[1 + 3 * k], texcoord_bits(st.s, 64));
        assert_int_equal((uint32_t)w[1 + 3 * k + 1], texcoord_bits(st.t, 32));
    }
    a.free(a.user, w);
    mesh_free(&m);
}

/* No triangles: the list is its 0 alone, and strict parsing takes it. */
static void test_no_triangles(void **state)
{
    mesh m;
    result r;
    tu_alloc ta;
    md2_allocator a;
    int32_t *w = NULL;
    size_t nw = 7;
    (void)state;
    mesh_init(&m, 0, 1, 3, 8, 8);
    add_st(&m, 1, 1);
    r = check_mesh(&m);
    assert_int_equal(r.words, 1);
    assert_int_equal(r.commands, 0);
    /* also with no arrays at all */
    tu_alloc_init(&ta, &a);
    assert_int_equal(md2__strips_build(NULL, 0, NULL, 0, 3, 8, 8, a, &w, &nw), MD2_OK);
    assert_int_equal(nw, 1);
    assert_int_equal(w[0], 0);
    a.free(a.user, w);
    assert_int_equal(ta.live, 0);
    mesh_free(&m);
}

/* A 32 x 32 grid: long strips (a strip's floor is 3 words a triangle). */
static void test_grid(void **state)
{
    mesh m;
    result r;
    (void)state;
    make_grid(&m, 32, 32, GRID_SHARED);
    r = check_mesh(&m);
    printf("grid 32 x 32: %lu triangles, %lu words (%.3f a triangle), %lu commands, "
           "longest %lu\n", (unsigned long)m.nt, (unsigned long)r.words,
           (double)r.words / (double)m.nt, (unsigned long)r.commands,
           (unsigned long)r.longest);
    assert_true(r.words * 100 <= m.nt * 325); /* at most 3.25 words a triangle */
    assert_true(r.longest >= 32);
    mesh_free(&m);
}

/* Corners join by their values, not their texcoord indices: a texcoord
 * entry for every corner gives the same words as shared entries, and
 * distinct values everywhere join nothing. */
static void test_texcoord_values_not_indices(void **state)
{
    mesh shared, per_corner, unique;
    tu_alloc ta1, ta2;
    md2_allocator a1, a2;
    size_t n1, n2;
    int32_t *w1, *w2;
    result r;
    (void)state;
    make_grid(&shared, 12, 7, GRID_SHARED);
    make_grid(&per_corner, 12, 7, GRID_PER_CORNER);
    make_grid(&unique, 12, 7, GRID_UNIQUE);
    assert_int_equal(per_corner.nst, 3 * per_corner.nt);
    check_mesh(&per_corner);
    w1 = build_ok(&shared, &n1, &ta1, &a1);
    w2 = build_ok(&per_corner, &n2, &ta2, &a2);
    assert_int_equal(n1, n2);
    assert_memory_equal(w1, w2, n1 * sizeof *w1);
    assert_true(n1 < 4 * shared.nt);
    r = check_mesh(&unique);
    assert_int_equal(r.commands, unique.nt);
    assert_int_equal(r.words, 10 * unique.nt + 1);
    a1.free(a1.user, w1);
    a2.free(a2.user, w2);
    mesh_free(&shared);
    mesh_free(&per_corner);
    mesh_free(&unique);
}

/* Seams: no command crosses from one chart to the next (each chart's s
 * values are its own), and the charts are still stripped well. */
static void test_seams(void **state)
{
    mesh m;
    tu_alloc ta;
    md2_allocator a;
    size_t nw, at = 0, k;
    int32_t *w;
    result r;
    (void)state;
    make_grid(&m, 16, 8, GRID_SEAMS); /* 4 charts of 4 x 8 quads */
    r = check_mesh(&m);
    assert_true(r.commands >= 4);
    assert_true(r.words * 100 <= m.nt * 400);
    w = build_ok(&m, &nw, &ta, &a);
    while (w[at] != 0) {
        size_t n = (size_t)(w[at] < 0 ? -w[at] : w[at]);
        float s0;
        uint32_t u = (uint32_t)w[at + 1];
        memcpy(&s0, &u, sizeof s0);
        for (k = 1; k < n; k++) {
            float s;
            u = (uint32_t)w[at + 1 + 3 * k];
            memcpy(&s, &u, sizeof s);
            /* chart c has s in [1000 c, 1000 c + 4] pixels of 64 */
            assert_int_equal((int)floor(s * 64.0f / 1000.0f + 0.01f),
                             (int)floor(s0 * 64.0f / 1000.0f + 0.01f));
        }
        at += 1 + 3 * n;
    }
    a.free(a.user, w);
    mesh_free(&m);
}

/* A capped tube: each cap of 24 triangles round one vertex is one fan (a
 * strip holds at most 2 of them), the sides are strips (a row of 48 cannot
 * be one: a strip of an even number of triangles must start on the other
 * triangle of a quad). */
static void test_cylinder(void **state)
{
    mesh m;
    result r;
    (void)state;
    make_cylinder(&m, 24, 6);
    r = check_mesh(&m);
    printf("cylinder 24 x 6 with caps: %lu triangles, %lu words (%.3f a triangle), "
           "%lu commands, %lu fans\n", (unsigned long)m.nt, (unsigned long)r.words,
           (double)r.words / (double)m.nt, (unsigned long)r.commands,
           (unsigned long)r.fans);
    assert_int_equal(r.fans, 2);
    assert_int_equal(r.longest_fan, 24);
    assert_true(r.longest >= 40);
    assert_true(r.words * 100 <= m.nt * 350);
    mesh_free(&m);
}

/* Degenerate triangles: two corners on one vertex with different
 * texcoords (an ordinary triangle here), two equal corners, all three
 * corners equal; each is drawn once, in its winding. */
static void test_degenerate(void **state)
{
    mesh m;
    unsigned t0, t1, t2, t3;
    tu_alloc ta;
    md2_allocator a;
    size_t nw, at = 0;
    int32_t *w;
    int lonely_seen = 0;
    (void)state;
    mesh_init(&m, 16, 4, 6, 16, 16);
    t0 = add_st(&m, 0, 0);
    t1 = add_st(&m, 5, 0);
    t2 = add_st(&m, 0, 5);
    t3 = add_st(&m, 5, 5);
    add_tri(&m, 0, t0, 1, t1, 2, t2);
    add_tri(&m, 1, t1, 3, t3, 2, t2);
    add_tri(&m, 1, t1, 1, t3, 3, t3); /* vertex 1 twice, other texcoords */
    add_tri(&m, 3, t3, 1, t1, 1, t3); /* its mirror across the 1 - 3 edge */
    add_tri(&m, 2, t2, 2, t2, 3, t3); /* two equal corners */
    add_tri(&m, 4, t0, 4, t0, 4, t0); /* three */
    add_tri(&m, 2, t2, 2, t2, 3, t3); /* the same again */
    add_tri(&m, 3, t3, 2, t2, 5, t1);
    check_mesh(&m);
    /* a triangle with two equal corners is a strip of its own */
    w = build_ok(&m, &nw, &ta, &a);
    while (w[at] != 0) {
        size_t n = (size_t)(w[at] < 0 ? -w[at] : w[at]), i, j;
        int equal = 0;
        for (i = 0; i < 3 && n == 3; i++)
            for (j = i + 1; j < 3; j++)
                equal |= memcmp(&w[at + 1 + 3 * i], &w[at + 1 + 3 * j], 3 * sizeof *w) == 0;
        lonely_seen += equal;
        at += 1 + 3 * n;
    }
    assert_int_equal(lonely_seen, 3);
    a.free(a.user, w);
    mesh_free(&m);
}

/* Non-manifold edges: many triangles on one edge, duplicated and
 * reversed triangles (a strip could run through them back and forth). */
static void test_non_manifold(void **state)
{
    mesh m;
    unsigned k;
    result r;
    (void)state;
    mesh_init(&m, 9000, 2, 3005, 32, 32);
    add_st(&m, 1, 2);
    add_st(&m, 3, 4);
    for (k = 0; k < 3000; k++) {
        add_tri(&m, 0, 0, 1, 0, 2, 1);      /* the same triangle 3000 times */
        add_tri(&m, 2, 1, 1, 0, 0, 0);      /* and its reflection */
        add_tri(&m, 0, 0, 1, 0, 3 + k, 1);  /* 3000 more on the edge 0 -> 1 */
    }
    r = check_mesh(&m);
    assert_true(r.commands < m.nt);
    mesh_free(&m);
}

static void test_random_soups(void **state)
{
    static const struct {
        size_t nt;
        unsigned nv, nst, nvalues;
    } soups[] = {
        {1, 3, 1, 1},     {2, 3, 2, 1},    {7, 4, 3, 2},       {50, 5, 4, 2},
        {500, 12, 9, 4},  {3000, 9, 5, 3}, {3000, 400, 40, 40}, {4000, 60, 200, 7},
    };
    size_t i;
    uint32_t seed;
    (void)state;
    for (i = 0; i < sizeof soups / sizeof soups[0]; i++) {
        for (seed = 1; seed <= 3; seed++) {
            mesh m;
            make_soup(&m, soups[i].nt, soups[i].nv, soups[i].nst, soups[i].nvalues,
                      seed * 7919u + (uint32_t)i);
            check_mesh(&m);
            mesh_free(&m);
        }
    }
}

/* 65,536 triangles: a grid of 256 x 128 quads and a soup of as many. */
static void test_large(void **state)
{
    mesh m;
    result r;
    (void)state;
    make_grid(&m, 256, 128, GRID_SHARED);
    assert_int_equal(m.nt, 65536);
    r = check_mesh(&m);
    printf("grid 256 x 128: %lu words (%.3f a triangle), %lu commands\n",
           (unsigned long)r.words, (double)r.words / (double)m.nt,
           (unsigned long)r.commands);
    assert_true(r.words * 100 <= m.nt * 310);
    mesh_free(&m);
    make_soup(&m, 65536, 60, 8, 4, 12345); /* every edge shared many times */
    r = check_mesh(&m);
    printf("soup of 65536: %lu words, %lu commands, digest %016llx\n",
           (unsigned long)r.words, (unsigned long)r.commands,
           (unsigned long long)r.digest);
    mesh_free(&m);
}

/* Same input, same words: twice, and through another allocator. */
static void test_deterministic(void **state)
{
    mesh m;
    tu_alloc ta1, ta2;
    md2_allocator a1, a2;
    size_t n1, n2;
    int32_t *w1, *w2;
    (void)state;
    make_soup(&m, 2000, 50, 30, 11, 99);
    w1 = build_ok(&m, &n1, &ta1, &a1);
    w2 = build_ok(&m, &n2, &ta2, &a2);
    assert_int_equal(n1, n2);
    assert_memory_equal(w1, w2, n1 * sizeof *w1);
    a1.free(a1.user, w1);
    a2.free(a2.user, w2);
    mesh_free(&m);
}

/* Every allocation fails in turn: MD2_ERR_OUT_OF_MEMORY, *words NULL,
 * nothing left allocated; the call after the last one succeeds. */
static void test_allocation_failures(void **state)
{
    mesh meshes[3];
    size_t k;
    (void)state;
    make_cylinder(&meshes[0], 10, 3);
    make_soup(&meshes[1], 300, 20, 10, 5, 3);
    mesh_init(&meshes[2], 0, 1, 1, 1, 1);
    for (k = 0; k < 3; k++) {
        tu_alloc ta;
        md2_allocator a;
        size_t calls, fail, nw = 0;
        int32_t *w = NULL;
        tu_alloc_init(&ta, &a);
        assert_int_equal(build_with(&meshes[k], a, &w, &nw), MD2_OK);
        a.free(a.user, w);
        calls = ta.calls;
        assert_true(calls >= 1);
        for (fail = 1; fail <= calls; fail++) {
            tu_alloc_init(&ta, &a);
            ta.fail_at = fail;
            w = (int32_t *)&ta; /* must be set to NULL */
            nw = 99;
            assert_int_equal(build_with(&meshes[k], a, &w, &nw), MD2_ERR_OUT_OF_MEMORY);
            assert_null(w);
            assert_int_equal(nw, 0);
            assert_int_equal(ta.live, 0);
            assert_int_equal(ta.calls, fail);
        }
        tu_alloc_init(&ta, &a);
        ta.fail_at = calls + 1;
        assert_int_equal(build_with(&meshes[k], a, &w, &nw), MD2_OK);
        a.free(a.user, w);
        assert_int_equal(ta.live, 0);
        mesh_free(&meshes[k]);
    }
}

/* What the caller should have checked is checked again: NULL outputs or
 * allocator, missing arrays, indices out of range give
 * MD2_ERR_INVALID_ARGUMENT with nothing allocated. */
static void test_invalid_arguments(void **state)
{
    mesh m;
    tu_alloc ta;
    md2_allocator a, none;
    int32_t *w = NULL;
    size_t nw = 0;
    (void)state;
    make_grid(&m, 2, 2, GRID_SHARED);
    tu_alloc_init(&ta, &a);
    memset(&none, 0, sizeof none);
    assert_int_equal(build_with(&m, a, NULL, &nw), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(build_with(&m, a, &w, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_null(w);
    assert_int_equal(build_with(&m, none, &w, &nw), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2__strips_build(NULL, m.nt, m.st, m.nst, m.nv, 64, 32, a, &w, &nw),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2__strips_build(m.tris, m.nt, NULL, m.nst, m.nv, 64, 32, a, &w, &nw),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2__strips_build(m.tris, m.nt, m.st, m.nst, m.nv - 1, 64, 32, a, &w,
                                       &nw),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2__strips_build(m.tris, m.nt, m.st, m.nst - 1, m.nv, 64, 32, a, &w,
                                       &nw),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_null(w);
    assert_int_equal(ta.calls, 0);
    mesh_free(&m);
}

/* More triangles than the builder's 32-bit indices take: out of memory,
 * before any triangle is read or anything allocated; on a 32-bit host,
 * also as many as its scratch could not hold in size_t bytes. */
static void test_too_many_triangles(void **state)
{
    md2_triangle one;
    md2_texcoord st = {0, 0};
    tu_alloc ta;
    md2_allocator a;
    int32_t *w = NULL;
    size_t nw = 0;
    (void)state;
    memset(&one, 0, sizeof one);
    tu_alloc_init(&ta, &a);
    assert_int_equal(md2__strips_build(&one, ((size_t)1 << 28) + 1, &st, 1, 1, 1, 1, a, &w,
                                       &nw),
                     MD2_ERR_OUT_OF_MEMORY);
    assert_null(w);
    if (SIZE_MAX / 4 <= UINT32_MAX)
        assert_int_equal(md2__strips_build(&one, (size_t)1 << 28, &st, 1, 1, 1, 1, a, &w,
                                           &nw),
                         MD2_ERR_OUT_OF_MEMORY);
    assert_null(w);
    assert_int_equal(ta.calls, 0);
}

/* A skin size of 0 (which callers must not pass) still gives finite
 * texcoords: the words stay valid. */
static void test_zero_skin_size(void **state)
{
    mesh m;
    tu_alloc ta;
    md2_allocator a;
    size_t nw = 0;
    int32_t *w = NULL;
    expansion e;
    (void)state;
    make_grid(&m, 3, 2, GRID_SHARED);
    tu_alloc_init(&ta, &a);
    assert_int_equal(md2__strips_build(m.tris, m.nt, m.st, m.nst, m.nv, 0, 0, a, &w, &nw),
                     MD2_OK);
    expand_words(w, nw, m.nv, m.nt, &e); /* asserts finite texcoords */
    assert_int_equal(e.count, m.nt);
    free(e.tris);
    a.free(a.user, w);
    mesh_free(&m);
}

/* The real models, rebuilt from their own triangles: at most 0.9 times
 * the words of their own lists. */
static void test_corpus(void **state)
{
    static const char *const names[] = {"faerie.md2", "sydney.md2"};
    size_t k;
    int any = 0;
    (void)state;
    for (k = 0; k < sizeof names / sizeof names[0]; k++) {
        size_t size;
        uint8_t *data = tu_read_corpus(names[k], &size);
        md2_model *model = NULL;
        mesh m;
        result r;
        if (!data)
            continue;
        any = 1;
        assert_int_equal(md2_parse(data, size, NULL, &model), MD2_OK);
        assert_true(model->num_glcmds > 0);
        mesh_init(&m, model->num_triangles, model->num_texcoords, model->num_vertices,
                  (uint32_t)model->skin_width, (uint32_t)model->skin_height);
        memcpy(m.tris, model->triangles, model->num_triangles * sizeof *m.tris);
        memcpy(m.st, model->texcoords, model->num_texcoords * sizeof *m.st);
        m.nt = model->num_triangles;
        m.nst = model->num_texcoords;
        r = check_mesh(&m);
        printf("%s: %lu triangles; rebuilt %lu words (%.3f a triangle, %lu commands, "
               "%lu fans, digest %016llx), the file's own %lu (%.3f a triangle): "
               "%.3f times\n",
               names[k], (unsigned long)m.nt, (unsigned long)r.words,
               (double)r.words / (double)m.nt, (unsigned long)r.commands,
               (unsigned long)r.fans, (unsigned long long)r.digest,
               (unsigned long)model->num_glcmds,
               (double)model->num_glcmds / (double)m.nt,
               (double)r.words / (double)model->num_glcmds);
        assert_true(r.words * 10 <= model->num_glcmds * 9);
        mesh_free(&m);
        md2_free(model);
        free(data);
    }
    if (!any)
        skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orientation_compare),
        cmocka_unit_test(test_one_triangle),
        cmocka_unit_test(test_no_triangles),
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_texcoord_values_not_indices),
        cmocka_unit_test(test_seams),
        cmocka_unit_test(test_cylinder),
        cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_non_manifold),
        cmocka_unit_test(test_random_soups),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_invalid_arguments),
        cmocka_unit_test(test_too_many_triangles),
        cmocka_unit_test(test_zero_skin_size),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
