/*
 * Tests of the builder (<md2/build.h>, docs/builder.md): md2_build() and
 * md2_rebuild().
 *
 *  - round trips on the real models of ../shared/corpus (skipped where it
 *    is absent) and on generated ones: decode every frame to floats,
 *    build, write, parse in strict mode: the same triangles and texcoords,
 *    every coordinate the nearest of the 256 values its axis decodes to
 *    (so within half a step), normals the brute-force nearest of the
 *    given normal or of the smooth normal, GL commands that a strict
 *    parse takes;
 *  - the shared box (no wobble), flat axes, extreme coordinates, texels
 *    from uv, frame names, the profiles' limits and warnings;
 *  - every field of the input wrong in turn, huge counts, reserved_,
 *    every allocation failing in turn: a specific error, nothing
 *    allocated or leaked, no warning;
 *  - md2_rebuild(): frames byte for byte unless asked, each change, the
 *    repair of a file without GL commands, hand-made models that break a
 *    rule.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <md2/animation.h>
#include <md2/build.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

/* A model's content as the builder's input: every frame decoded to
 * floats, texcoords as uv, triangles as index pairs, the frame names. */
typedef struct floats {
    md2_build_input in;
    float *pos, *nrm, *uv;
    uint32_t *tris;
    const char **names;
} floats;

static void floats_from_model(floats *f, const md2_model *m, int with_normals)
{
    size_t n = m->num_vertices, i;
    uint32_t fr;
    memset(f, 0, sizeof *f);
    f->pos = (float *)malloc(m->num_frames * n * 3 * sizeof(float));
    f->nrm = (float *)malloc(m->num_frames * n * 3 * sizeof(float));
    f->uv = (float *)malloc((m->num_texcoords + 1) * 2 * sizeof(float));
    f->tris = (uint32_t *)malloc((m->num_triangles + 1) * 6 * sizeof(uint32_t));
    f->names = (const char **)malloc(m->num_frames * sizeof *f->names);
    assert_true(f->pos && f->nrm && f->uv && f->tris && f->names);
    for (fr = 0; fr < m->num_frames; fr++) {
        assert_int_equal(md2_decode_frame(m, fr, f->pos + fr * n * 3, 0, f->nrm + fr * n * 3, 0),
                         MD2_OK);
        f->names[fr] = m->frames[fr].name;
    }
    for (i = 0; i < m->num_texcoords; i++)
        md2_texcoord_uv(m, m->texcoords[i], &f->uv[2 * i], &f->uv[2 * i + 1]);
    for (i = 0; i < m->num_triangles; i++) {
        int k;
        for (k = 0; k < 3; k++) {
            f->tris[6 * i + 2 * (size_t)k] = m->triangles[i].vertex[k];
            f->tris[6 * i + 2 * (size_t)k + 1] = m->triangles[i].texcoord[k];
        }
    }
    f->in.num_frames = m->num_frames;
    f->in.num_vertices = n;
    f->in.positions = f->pos;
    f->in.normals = with_normals ? f->nrm : NULL;
    f->in.num_triangles = m->num_triangles;
    f->in.triangles = f->tris;
    f->in.num_texcoords = m->num_texcoords;
    f->in.uv = f->uv;
    f->in.skin_width = (uint32_t)m->skin_width;
    f->in.skin_height = (uint32_t)m->skin_height;
    f->in.frame_names = f->names;
}

static void floats_free(floats *f)
{
    free(f->pos);
    free(f->nrm);
    free(f->uv);
    free(f->tris);
    free(f->names);
}

/* Warnings heard: how many, the flags, the last one. */
typedef struct heard {
    size_t count;
    uint32_t flags;
    md2_diagnostic last;
    md2_diagnostic all[32];
} heard;

static void on_warning(void *user, const md2_diagnostic *d)
{
    heard *h = (heard *)user;
    assert_int_equal(d->result, MD2_OK);
    assert_true(d->warning != 0);
    assert_true(d->message[0] != '\0');
    if (h->count < COUNT(h->all))
        h->all[h->count] = *d;
    h->count++;
    h->flags |= d->warning;
    h->last = *d;
}

/* Options with a diagnostic, a counting allocator and a warning listener. */
typedef struct env {
    md2_build_options o;
    md2_diagnostic d;
    tu_alloc a;
    heard h;
} env;

static void env_init(env *e, unsigned flags, md2_profile profile)
{
    memset(e, 0, sizeof *e);
    tu_alloc_init(&e->a, &e->o.allocator);
    e->o.flags = flags;
    e->o.profile = profile;
    e->o.error = &e->d;
    e->o.on_warning = on_warning;
    e->o.warning_user = &e->h;
}

/* Bytes of a model as md2_write() writes them (malloc'd). */
static uint8_t *written(const md2_model *m, size_t *size)
{
    uint8_t *out;
    md2_diagnostic d;
    *size = md2_write_size(m);
    assert_true(*size >= MD2_HEADER_SIZE);
    out = (uint8_t *)malloc(*size);
    assert_non_null(out);
    assert_int_equal(md2_write(m, out, *size, NULL, &d), MD2_OK);
    return out;
}

/* Writes m, parses the bytes in strict mode; the caller frees the result. */
static md2_model *strict_again(const md2_model *m)
{
    size_t size;
    uint8_t *bytes = written(m, &size);
    md2_options o;
    md2_diagnostic d;
    md2_model *back = NULL;
    memset(&o, 0, sizeof o);
    o.strict = MD2_STRICT_ALL;
    o.error = &d;
    if (md2_parse(bytes, size, &o, &back) != MD2_OK)
        fail_msg("strict parse of a built model: %s", d.message);
    free(bytes);
    /* the header md2_write() writes is the built model's */
    assert_memory_equal(&back->header, &m->header, sizeof m->header);
    return back;
}

/* The brute-force nearest table normal (ties: the lower index), in
 * double; MD2_NORMAL_FALLBACK for a zero direction. best and second get
 * the two largest dot products of the unit direction. */
static unsigned brute_nearest(double x, double y, double z, double *best, double *second)
{
    double len = sqrt(x * x + y * y + z * z), b = -2.0, s = -2.0;
    unsigned i, at = MD2_NORMAL_FALLBACK;
    if (!(len > 0.0)) {
        if (best)
            *best = *second = 0.0;
        return MD2_NORMAL_FALLBACK;
    }
    for (i = 0; i < MD2_NUM_NORMALS; i++) {
        const float *n = md2_normal(i);
        double d = (n[0] * x + n[1] * y + n[2] * z) / len;
        if (d > b) {
            s = b;
            b = d;
            at = i;
        } else if (d > s) {
            s = d;
        }
    }
    if (best) {
        *best = b;
        *second = s;
    }
    return at;
}

/* The 256 values each axis of a frame transform decodes to, as the
 * library decodes them: a hand-made model of 256 vertices (i, i, i). */
static void decodable(const float scale[3], const float translate[3], float out[256][3])
{
    static md2_vertex v[256];
    md2_model m;
    md2_frame f;
    int i;
    for (i = 0; i < 256; i++) {
        v[i].v[0] = v[i].v[1] = v[i].v[2] = (uint8_t)i;
        v[i].normal = 0;
    }
    memset(&m, 0, sizeof m);
    memset(&f, 0, sizeof f);
    memcpy(f.scale, scale, sizeof f.scale);
    memcpy(f.translate, translate, sizeof f.translate);
    f.vertices = v;
    m.num_vertices = 256;
    m.num_frames = 1;
    m.frames = &f;
    assert_int_equal(md2_decode_frame(&m, 0, &out[0][0], 0, NULL, 0), MD2_OK);
}

/* Checks each coordinate of built model b against the input positions
 * (vertex i of frame f at pos + f * fstride + i * vstride bytes): its
 * decoded value is the nearest of the 256 its axis decodes to (by a full
 * scan when brute, else by bisection: the values do not decrease), so
 * within half a step. Returns the largest error in steps. */
static double check_grid(const md2_model *b, const float *pos, size_t vstride, size_t fstride,
                         int brute)
{
    float *dec = (float *)malloc(b->num_vertices * 3 * sizeof(float));
    static float cand[256][3];
    double worst = 0.0;
    uint32_t f;
    size_t i;
    int k, v;
    assert_non_null(dec);
    for (f = 0; f < b->num_frames; f++) {
        const md2_frame *fr = &b->frames[f];
        decodable(fr->scale, fr->translate, cand);
        for (k = 0; k < 3; k++) {
            assert_true(fr->scale[k] >= 0.0f);
            for (v = 1; v < 256; v++)
                assert_true(cand[v][k] >= cand[v - 1][k]);
        }
        assert_int_equal(md2_decode_frame(b, f, dec, 0, NULL, 0), MD2_OK);
        for (i = 0; i < b->num_vertices; i++) {
            const float *p = (const float *)(const void *)((const char *)pos + f * fstride +
                                                           i * vstride);
            for (k = 0; k < 3; k++) {
                double want = p[k], got = dec[3 * i + (size_t)k], best = HUGE_VAL, tol, err;
                if (brute) {
                    for (v = 0; v < 256; v++)
                        if (fabs(cand[v][k] - want) < best)
                            best = fabs(cand[v][k] - want);
                } else {
                    int lo = 0, hi = 255;
                    while (lo < hi) { /* the first value at or above want */
                        int mid = (lo + hi) / 2;
                        if (cand[mid][k] >= want)
                            hi = mid;
                        else
                            lo = mid + 1;
                    }
                    best = fabs(cand[lo][k] - want);
                    if (lo > 0 && fabs(cand[lo - 1][k] - want) < best)
                        best = fabs(cand[lo - 1][k] - want);
                }
                assert_true(got == cand[b->frames[f].vertices[i].v[k]][k]);
                /* the float rounding of the decode: 2^-22 of the axis's
                 * magnitude (docs/builder.md) */
                tol = ldexp(fabs(fr->translate[k]) > fabs(cand[255][k]) ? fabs(fr->translate[k])
                                                                         : fabs(cand[255][k]),
                            -22);
                err = fabs(got - want);
                if (err > best + tol)
                    fail_msg("frame %u vertex %lu axis %d: %.9g decodes to %.9g, but %.9g is %.3g away",
                             (unsigned)f, (unsigned long)i, k, want, got, want, best);
                if (fr->scale[k] == 0.0f) {
                    /* a flat axis decodes exactly; an extent below the
                     * smallest float's 255 steps rounds to a scale of 0 */
                    assert_true(err <= tol + 1e-42);
                } else {
                    double steps = err / fr->scale[k];
                    if (!(steps <= 0.5 + tol / fr->scale[k]))
                        fail_msg("frame %u vertex %lu axis %d: %.9g decodes to %.9g, %.9g steps (scale %.9g, best %.9g)",
                                 (unsigned)f, (unsigned long)i, k, want, got, steps,
                                 (double)fr->scale[k], best);
                    if (steps > worst)
                        worst = steps;
                }
            }
        }
    }
    free(dec);
    return worst;
}

/* The smooth normal the docs promise, in double: per vertex the sum of
 * (c - a) x (b - a) of its triangles. */
static void smooth_reference(const float *pos, size_t n, const uint32_t *tris, size_t ntris,
                             double *out)
{
    double *sum = (double *)calloc(3 * n, sizeof(double));
    size_t i, j;
    int k;
    assert_non_null(sum);
    for (i = 0; i < ntris; i++) {
        const float *a = pos + 3 * tris[6 * i], *b = pos + 3 * tris[6 * i + 2],
                    *c = pos + 3 * tris[6 * i + 4];
        double e1[3], e2[3], x[3];
        for (k = 0; k < 3; k++) {
            e1[k] = (double)c[k] - a[k];
            e2[k] = (double)b[k] - a[k];
        }
        x[0] = e1[1] * e2[2] - e1[2] * e2[1];
        x[1] = e1[2] * e2[0] - e1[0] * e2[2];
        x[2] = e1[0] * e2[1] - e1[1] * e2[0];
        for (j = 0; j < 3; j++)
            for (k = 0; k < 3; k++)
                sum[3 * tris[6 * i + 2 * j] + (size_t)k] += x[k];
    }
    memcpy(out, sum, 3 * n * sizeof(double));
    free(sum);
}

/* Checks the normals of built model b: given ones (nrm not NULL, packed)
 * map to their brute-force nearest; computed ones to the nearest of the
 * reference smooth normal (exactly, unless its two nearest are within
 * float rounding of each other). */
static void check_normals(const md2_model *b, const float *pos, const float *nrm,
                          const uint32_t *tris, size_t ntris)
{
    size_t n = b->num_vertices, i;
    double *ref = (double *)malloc(3 * n * sizeof(double));
    uint32_t f;
    assert_non_null(ref);
    for (f = 0; f < b->num_frames; f++) {
        const md2_vertex *v = b->frames[f].vertices;
        if (!nrm)
            smooth_reference(pos + 3 * n * f, n, tris, ntris, ref);
        for (i = 0; i < n; i++) {
            double best, second;
            unsigned want;
            if (nrm) {
                const float *g = nrm + 3 * (n * f + i);
                want = brute_nearest(g[0], g[1], g[2], &best, &second);
            } else {
                const double *r = ref + 3 * i;
                want = brute_nearest(r[0], r[1], r[2], &best, &second);
            }
            if (v[i].normal != want && best - second > 1e-5)
                fail_msg("frame %u vertex %lu: normal %u, but the nearest is %u", (unsigned)f,
                         (unsigned long)i, (unsigned)v[i].normal, want);
        }
    }
    free(ref);
}

/* ------------------------------------------------------------------------ */
/* Generated models                                                          */
/* ------------------------------------------------------------------------ */

/* A sphere of `slices` x `stacks`, breathing and moving over `frames`
 * frames, optionally with pseudo-random jitter, made as MD2 makes models:
 * one vertex at each pole and each ring point, the texture seam at the
 * first column one vertex with two texcoords; triangles in MD2's winding
 * (clockwise seen from outside). */
typedef struct sphere {
    size_t n, ntris, nst, frames, cols;
    float *pos;
    float *uv;
    uint32_t *tris;
    md2_build_input in;
} sphere;

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* The vertex at ring r (0: north pole, stacks: south pole), column c. */
static uint32_t sphere_vertex(size_t slices, size_t stacks, size_t r, size_t c)
{
    if (r == 0)
        return 0;
    if (r == stacks)
        return (uint32_t)(1 + (stacks - 1) * slices);
    return (uint32_t)(1 + (r - 1) * slices + c % slices);
}

static void sphere_make(sphere *s, int slices, int stacks, size_t frames, double jitter)
{
    size_t sl = (size_t)slices, st = (size_t)stacks, f, r, c, t = 0;
    uint32_t seed = 7;
    memset(s, 0, sizeof *s);
    s->n = 2 + (st - 1) * sl;
    s->cols = sl;
    s->nst = (sl + 1) * (st + 1);
    s->frames = frames;
    s->ntris = 2 * sl * (st - 1);
    s->pos = (float *)malloc(frames * s->n * 3 * sizeof(float));
    s->uv = (float *)malloc(s->nst * 2 * sizeof(float));
    s->tris = (uint32_t *)malloc(s->ntris * 6 * sizeof(uint32_t));
    assert_true(s->pos && s->uv && s->tris);
    for (f = 0; f < frames; f++) {
        double radius = 20.0 + 3.0 * sin(0.7 * (double)f), shift = 5.0 * (double)f;
        for (r = 0; r <= st; r++) {
            for (c = 0; c < sl; c++) {
                double th = 3.14159265358979 * (double)r / (double)st;
                double ph = 2.0 * 3.14159265358979 * (double)c / (double)sl;
                float *p = s->pos + 3 * (f * s->n + sphere_vertex(sl, st, r, c));
                double j = jitter * ((double)(lcg(&seed) % 1000u) / 1000.0 - 0.5);
                if ((r == 0 || r == st) && c > 0)
                    continue;
                p[0] = (float)(radius * sin(th) * cos(ph) + shift + j);
                p[1] = (float)(radius * sin(th) * sin(ph) - 0.5 * shift);
                p[2] = (float)(radius * cos(th) * 1.5 + j);
            }
        }
    }
    for (r = 0; r <= st; r++)
        for (c = 0; c <= sl; c++) {
            s->uv[2 * (r * (sl + 1) + c)] = (float)c / (float)sl;
            s->uv[2 * (r * (sl + 1) + c) + 1] = (float)r / (float)st;
        }
    for (r = 0; r < st; r++) {
        for (c = 0; c < sl; c++) {
            /* corners: (ring, column) */
            size_t q[2][3][2] = {{{r, c}, {r + 1, c}, {r, c + 1}},
                                 {{r, c + 1}, {r + 1, c}, {r + 1, c + 1}}};
            int k, h;
            for (h = 0; h < 2; h++) {
                uint32_t v[3];
                const float *p[3];
                double u[3], w[3], x[3], mid[3];
                if ((h == 0 && r == 0) || (h == 1 && r + 1 == st))
                    continue; /* the caps: one triangle a column */
                for (k = 0; k < 3; k++) {
                    v[k] = sphere_vertex(sl, st, q[h][k][0], q[h][k][1]);
                    p[k] = s->pos + 3 * v[k];
                }
                for (k = 0; k < 3; k++) {
                    u[k] = (double)p[1][k] - p[0][k];
                    w[k] = (double)p[2][k] - p[0][k];
                    mid[k] = ((double)p[0][k] + p[1][k] + p[2][k]) / 3.0;
                }
                x[0] = u[1] * w[2] - u[2] * w[1];
                x[1] = u[2] * w[0] - u[0] * w[2];
                x[2] = u[0] * w[1] - u[1] * w[0];
                if (x[0] * mid[0] + x[1] * mid[1] + x[2] * mid[2] > 0.0) {
                    size_t tmp[2];
                    memcpy(tmp, q[h][1], sizeof tmp);
                    memcpy(q[h][1], q[h][2], sizeof tmp);
                    memcpy(q[h][2], tmp, sizeof tmp);
                }
                for (k = 0; k < 3; k++) {
                    s->tris[6 * t + 2 * (size_t)k] = sphere_vertex(sl, st, q[h][k][0], q[h][k][1]);
                    s->tris[6 * t + 2 * (size_t)k + 1] =
                        (uint32_t)(q[h][k][0] * (sl + 1) + q[h][k][1]);
                }
                t++;
            }
        }
    }
    assert_int_equal(t, s->ntris);
    s->in.num_frames = frames;
    s->in.num_vertices = s->n;
    s->in.positions = s->pos;
    s->in.num_triangles = s->ntris;
    s->in.triangles = s->tris;
    s->in.num_texcoords = s->nst;
    s->in.uv = s->uv;
    s->in.skin_width = 256;
    s->in.skin_height = 128;
}

static void sphere_free(sphere *s)
{
    free(s->pos);
    free(s->uv);
    free(s->tris);
}

/* The standard small input of the error tests: 4 vertices, 2 frames, 2
 * triangles, 4 texcoords, a skin, two animations. */
typedef struct small {
    float pos[2][4][3];
    float nrm[2][4][3];
    uint32_t tris[2][6];
    float uv[4][2];
    int16_t texels[4][2];
    const char *skins[1];
    const char *frames[2];
    md2_build_anim anims[2];
    md2_build_input in;
} small;

static void small_make(small *s)
{
    int f, i, k;
    static const uint32_t tris[2][6] = {{0, 0, 1, 1, 2, 2}, {0, 0, 2, 2, 3, 3}};
    memset(s, 0, sizeof *s);
    for (f = 0; f < 2; f++)
        for (i = 0; i < 4; i++)
            for (k = 0; k < 3; k++) {
                s->pos[f][i][k] = (float)(i * (k + 1) + f) * 0.5f;
                s->nrm[f][i][k] = k == 2 ? 1.0f : 0.0f;
            }
    memcpy(s->tris, tris, sizeof tris);
    for (i = 0; i < 4; i++) {
        s->uv[i][0] = (float)i / 4.0f;
        s->uv[i][1] = (float)(3 - i) / 4.0f;
        s->texels[i][0] = (int16_t)(i * 16);
        s->texels[i][1] = (int16_t)((3 - i) * 8);
    }
    s->skins[0] = "models/x/skin.pcx";
    s->frames[0] = "stand1";
    s->frames[1] = "run1";
    s->anims[0].name = "stand";
    s->anims[0].count = 1;
    s->anims[1].name = "run";
    s->anims[1].count = 1;
    s->in.num_frames = 2;
    s->in.num_vertices = 4;
    s->in.positions = &s->pos[0][0][0];
    s->in.num_triangles = 2;
    s->in.triangles = &s->tris[0][0];
    s->in.num_texcoords = 4;
    s->in.uv = &s->uv[0][0];
    s->in.skin_width = 64;
    s->in.skin_height = 32;
    s->in.num_skins = 1;
    s->in.skin_names = s->skins;
    s->in.num_anims = 2;
    s->in.anims = s->anims;
}

static size_t bits_set(unsigned v)
{
    size_t n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* Builds in with e's options: MD2_OK or fails the test. */
static md2_model *build_ok(const md2_build_input *in, env *e)
{
    md2_model *m = NULL;
    md2_result r = md2_build(in, &e->o, &m);
    if (r != MD2_OK)
        fail_msg("md2_build: %s (%s)", md2_result_string(r), e->d.message);
    assert_non_null(m);
    assert_int_equal(e->d.result, MD2_OK);
    return m;
}

/* ------------------------------------------------------------------------ */
/* Round trips                                                               */
/* ------------------------------------------------------------------------ */

static const char *const corpus_files[] = {"faerie.md2", "sydney.md2"};

/* A built model against its input: counts, triangles, texcoords, names,
 * the grid and the normals, and a strict parse of its file. */
static double check_built(const md2_model *b, const md2_build_input *in, const float *pos,
                          const float *nrm, int brute)
{
    md2_model *back = strict_again(b);
    md2_glcmd_iter it;
    md2_glcmd c;
    size_t i, gl_vertices = 0;
    double worst;
    tu_assert_models_equal(b, back);
    assert_int_equal(b->num_frames, in->num_frames);
    assert_int_equal(b->num_vertices, in->num_vertices);
    assert_int_equal(b->num_triangles, in->num_triangles);
    assert_int_equal(b->num_texcoords, in->num_texcoords);
    for (i = 0; i < in->num_triangles; i++) {
        int k;
        for (k = 0; k < 3; k++) {
            assert_int_equal(b->triangles[i].vertex[k], in->triangles[6 * i + 2 * (size_t)k]);
            assert_int_equal(b->triangles[i].texcoord[k],
                             in->triangles[6 * i + 2 * (size_t)k + 1]);
        }
    }
    worst = check_grid(b, pos, 12, 12 * in->num_vertices, brute);
    check_normals(b, pos, nrm, in->triangles, in->num_triangles);
    md2_glcmd_begin(&it, back);
    while (md2_glcmd_next(&it, &c)) {
        for (i = 0; i < c.num_vertices; i++)
            assert_true(md2_glcmd_get(&c, i).vertex < b->num_vertices);
        gl_vertices += c.num_vertices;
    }
    if (in->num_triangles > 0)
        assert_true(gl_vertices >= 3);
    md2_free(back);
    return worst;
}

static void test_corpus_round_trip(void **state)
{
    size_t k, ran = 0;
    (void)state;
    for (k = 0; k < COUNT(corpus_files); k++) {
        size_t size, i, f;
        uint8_t *data = tu_read_corpus(corpus_files[k], &size);
        md2_model *m = NULL, *b;
        floats fl;
        env e;
        double worst;
        if (!data)
            continue;
        ran++;
        assert_int_equal(md2_parse(data, size, NULL, &m), MD2_OK);
        floats_from_model(&fl, m, 1);
        /* given normals: each the table normal it was */
        env_init(&e, 0, MD2_PROFILE_FORMAT);
        e.o.quantize = MD2_QUANTIZE_PER_FRAME;
        b = build_ok(&fl.in, &e);
        e.o.quantize = MD2_QUANTIZE_DEFAULT;
        worst = check_built(b, &fl.in, fl.pos, fl.nrm, 0);
        print_message("%s, box per frame, given normals: largest error %.6f steps\n",
                      corpus_files[k], worst);
        /* the words target: at most 0.9 times the file's own GL commands */
        print_message("%s: GL commands %.3f words a triangle, the file's %.3f\n",
                      corpus_files[k], (double)b->num_glcmds / (double)m->num_triangles,
                      (double)m->num_glcmds / (double)m->num_triangles);
        assert_true((double)b->num_glcmds <= 0.9 * (double)m->num_glcmds);
        for (f = 0; f < m->num_frames; f++) {
            assert_memory_equal(b->frames[f].name, m->frames[f].name, 17);
            for (i = 0; i < m->num_vertices; i++) {
                unsigned want = m->frames[f].vertices[i].normal;
                assert_int_equal(b->frames[f].vertices[i].normal,
                                 want < MD2_NUM_NORMALS ? want : MD2_NORMAL_FALLBACK);
            }
        }
        assert_memory_equal(b->texcoords, m->texcoords, m->num_texcoords * 4);
        md2_free(b);
        /* computed normals, and a shared box */
        fl.in.normals = NULL;
        e.o.flags = MD2_BUILD_SHARED_BOX;
        b = build_ok(&fl.in, &e);
        worst = check_built(b, &fl.in, fl.pos, NULL, 0);
        print_message("%s, shared box, smooth normals: largest error %.6f steps\n",
                      corpus_files[k], worst);
        {
            /* the smooth normals agree with the artist's on the whole */
            double dot = 0.0;
            for (f = 0; f < m->num_frames; f++)
                for (i = 0; i < m->num_vertices; i++) {
                    const float *a = md2_normal(b->frames[f].vertices[i].normal);
                    const float *c = md2_normal(m->frames[f].vertices[i].normal);
                    dot += (double)a[0] * c[0] + (double)a[1] * c[1] + (double)a[2] * c[2];
                }
            dot /= (double)(m->num_frames * m->num_vertices);
            print_message("%s: mean cosine of smooth and original normals %.4f\n",
                          corpus_files[k], dot);
            assert_true(dot > 0.85);
        }
        md2_free(b);
        floats_free(&fl);
        md2_free(m);
        free(data);
    }
    if (ran == 0)
        skip();
}

static void test_generated_round_trip(void **state)
{
    sphere s;
    env e;
    int pass;
    (void)state;
    for (pass = 0; pass < 4; pass++) {
        md2_model *b;
        double worst;
        sphere_make(&s, 16, 9, 12, pass >= 2 ? 0.37 : 0.0);
        env_init(&e, (pass & 1) ? MD2_BUILD_SHARED_BOX : 0u, MD2_PROFILE_FORMAT);
        b = build_ok(&s.in, &e);
        worst = check_built(b, &s.in, s.pos, NULL, 1);
        print_message("sphere%s%s: largest error %.6f steps\n", (pass & 1) ? ", shared box" : "",
                      pass >= 2 ? ", jittered" : "", worst);
        assert_true(worst > 0.0); /* these are not on a grid already */
        md2_free(b);
        sphere_free(&s);
    }
}

/* A vertex that does not move decodes to the same bits in every frame of
 * a shared box; with a box per frame it wobbles. */
static void test_shared_box_no_wobble(void **state)
{
    sphere s;
    env e;
    md2_model *shared, *per;
    size_t f;
    float *dec, first_shared[3], first_per[3];
    int wobble = 0;
    (void)state;
    sphere_make(&s, 8, 5, 10, 0.0);
    for (f = 1; f < s.frames; f++) /* vertex 7 stays where it is */
        memcpy(s.pos + 3 * (f * s.n + 7), s.pos + 3 * 7, 3 * sizeof(float));
    env_init(&e, MD2_BUILD_SHARED_BOX, MD2_PROFILE_FORMAT);
    shared = build_ok(&s.in, &e);
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    e.o.quantize = MD2_QUANTIZE_PER_FRAME;
    per = build_ok(&s.in, &e);
    dec = (float *)malloc(s.n * 3 * sizeof(float));
    assert_non_null(dec);
    for (f = 0; f < s.frames; f++) {
        assert_memory_equal(shared->frames[f].scale, shared->frames[0].scale, 12);
        assert_memory_equal(shared->frames[f].translate, shared->frames[0].translate, 12);
        assert_int_equal(md2_decode_frame(shared, (uint32_t)f, dec, 0, NULL, 0), MD2_OK);
        if (f == 0)
            memcpy(first_shared, dec + 21, 12);
        assert_memory_equal(dec + 21, first_shared, 12);
        assert_int_equal(md2_decode_frame(per, (uint32_t)f, dec, 0, NULL, 0), MD2_OK);
        if (f == 0)
            memcpy(first_per, dec + 21, 12);
        else if (memcmp(first_per, dec + 21, 12) != 0)
            wobble = 1;
    }
    assert_true(wobble);
    free(dec);
    md2_free(shared);
    md2_free(per);
    sphere_free(&s);
}

/* An axis of zero extent decodes exactly, in a frame and in a shared box;
 * so does a frame that is one point. */
static void test_flat_axes_decode_exactly(void **state)
{
    small s;
    env e;
    int pass, f, i, k;
    (void)state;
    for (pass = 0; pass < 3; pass++) {
        md2_model *b;
        small_make(&s);
        for (f = 0; f < 2; f++)
            for (i = 0; i < 4; i++) {
                s.pos[f][i][2] = -3.140625f; /* flat z in both frames */
                if (pass == 2)
                    for (k = 0; k < 3; k++)
                        s.pos[f][i][k] = 1e-3f * (float)(f + 1); /* one point */
            }
        env_init(&e, pass == 1 ? MD2_BUILD_SHARED_BOX : 0u, MD2_PROFILE_FORMAT);
        b = build_ok(&s.in, &e);
        for (f = 0; f < 2; f++) {
            float dec[4][3];
            assert_true(b->frames[f].scale[2] == 0.0f);
            assert_int_equal(md2_decode_frame(b, (uint32_t)f, &dec[0][0], 0, NULL, 0), MD2_OK);
            for (i = 0; i < 4; i++) {
                assert_true(dec[i][2] == s.pos[f][i][2]);
                if (pass == 2)
                    assert_memory_equal(dec[i], s.pos[f][i], 12);
            }
        }
        (void)check_grid(b, &s.pos[0][0][0], 12, 48, 1);
        md2_free(b);
    }
}

/* Coordinates at the limit, tiny boxes far from the origin (where the
 * grid is coarser than a step) and denormal extents: still the nearest
 * decodable value, every transform within MD2_MAX_COORD. */
static void test_extreme_coordinates(void **state)
{
    static const float cases[][2] = {
        {-1e29f, 1e29f}, {1e29f, 1e29f}, {1e6f, 1e6f + 0.0625f}, {-7e5f, -7e5f + 1e-3f},
        {0.0f, 1e-44f}, {-1e-38f, 1e-38f}, {3.0f, 3.0f + 1e-6f}, {-1e29f, -1e-30f},
    };
    size_t c;
    (void)state;
    for (c = 0; c < COUNT(cases); c++) {
        small s;
        env e;
        int f, i, k, pass;
        for (pass = 0; pass < 2; pass++) {
            md2_model *b;
            small_make(&s);
            for (f = 0; f < 2; f++)
                for (i = 0; i < 4; i++)
                    for (k = 0; k < 3; k++) {
                        float t = (float)((i * 7 + k * 3 + f) % 5) / 4.0f;
                        s.pos[f][i][k] = cases[c][0] + t * (cases[c][1] - cases[c][0]);
                        if (s.pos[f][i][k] > cases[c][1])
                            s.pos[f][i][k] = cases[c][1];
                    }
            env_init(&e, pass ? MD2_BUILD_SHARED_BOX : 0u, MD2_PROFILE_FORMAT);
            b = build_ok(&s.in, &e);
            for (f = 0; f < 2; f++)
                for (k = 0; k < 3; k++)
                    assert_true(fabs((double)b->frames[f].scale[k]) * 255.0 +
                                    fabs((double)b->frames[f].translate[k]) <=
                                MD2_MAX_COORD);
            (void)check_grid(b, &s.pos[0][0][0], 12, 48, 1);
            md2_free(strict_again(b));
            md2_free(b);
        }
    }
}

/* Interleaved input: strides in bytes, position and normal in one row. */
static void test_strides(void **state)
{
    small s;
    env e;
    float rows[2][4][8];
    md2_model *packed, *strided;
    int f, i, k;
    (void)state;
    small_make(&s);
    s.in.normals = &s.nrm[0][0][0];
    for (f = 0; f < 2; f++)
        for (i = 0; i < 4; i++) {
            s.nrm[f][i][0] = (float)i - 1.5f;
            s.nrm[f][i][1] = (float)f - 0.5f;
            for (k = 0; k < 3; k++) {
                rows[f][i][k] = s.pos[f][i][k];
                rows[f][i][4 + k] = s.nrm[f][i][k];
            }
            rows[f][i][3] = rows[f][i][7] = NAN; /* never read */
        }
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    packed = build_ok(&s.in, &e);
    s.in.positions = &rows[0][0][0];
    s.in.vertex_stride = 32;
    s.in.frame_stride = sizeof rows[0];
    s.in.normals = &rows[0][0][4];
    s.in.normal_vertex_stride = 32;
    s.in.normal_frame_stride = sizeof rows[0];
    strided = build_ok(&s.in, &e);
    tu_assert_models_equal(packed, strided);
    check_normals(packed, &s.pos[0][0][0], &s.nrm[0][0][0], s.in.triangles, 2);
    md2_free(packed);
    md2_free(strided);
}

/* ------------------------------------------------------------------------ */
/* Normals                                                                   */
/* ------------------------------------------------------------------------ */

static void test_normals_given(void **state)
{
    enum { N = 500 };
    static float pos[N][3], nrm[N][3];
    md2_build_input in;
    env e;
    md2_model *b;
    uint32_t seed = 99;
    size_t i;
    (void)state;
    for (i = 0; i < N; i++) {
        int k;
        for (k = 0; k < 3; k++) {
            pos[i][k] = (float)i;
            nrm[i][k] = ((float)(lcg(&seed) % 2001u) - 1000.0f) * (i % 3 ? 1e-3f : 7.0f);
        }
    }
    nrm[0][0] = nrm[0][1] = nrm[0][2] = 0.0f;         /* zero: the fallback */
    memcpy(nrm[1], md2_normal(17), 12);                /* a table normal: itself */
    memset(&in, 0, sizeof in);
    in.num_frames = 1;
    in.num_vertices = N;
    in.positions = &pos[0][0];
    in.normals = &nrm[0][0];
    in.skin_width = in.skin_height = 1;
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    b = build_ok(&in, &e);
    check_normals(b, &pos[0][0], &nrm[0][0], NULL, 0);
    assert_int_equal(b->frames[0].vertices[0].normal, MD2_NORMAL_FALLBACK);
    assert_int_equal(b->frames[0].vertices[1].normal, 17);
    md2_free(b);
}

/* Smooth normals point out of a closed sphere (its seam one vertex with
 * two texcoords, so smooth across it) and follow the winding; two
 * vertices at one position keep their own normals (a double-sided
 * sheet); a vertex of no triangle gets the fallback. */
static void test_normals_smooth(void **state)
{
    sphere s;
    env e;
    md2_model *b;
    size_t f, i;
    (void)state;
    sphere_make(&s, 12, 7, 3, 0.0);
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    b = build_ok(&s.in, &e);
    check_normals(b, s.pos, NULL, s.tris, s.ntris);
    for (f = 0; f < s.frames; f++) {
        double c[3] = {0, 0, 0};
        int k;
        for (i = 0; i < s.n; i++)
            for (k = 0; k < 3; k++)
                c[k] += s.pos[3 * (f * s.n + i) + (size_t)k] / (double)s.n;
        for (i = 0; i < s.n; i++) {
            const float *p = s.pos + 3 * (f * s.n + i);
            const float *n = md2_normal(b->frames[f].vertices[i].normal);
            double out = 0.0, len = 0.0;
            for (k = 0; k < 3; k++) {
                out += (p[k] - c[k]) * n[k];
                len += (p[k] - c[k]) * (p[k] - c[k]);
            }
            if (!(out / sqrt(len) > 0.5)) /* an ellipsoid's normal is not its radius */
                fail_msg("frame %lu vertex %lu: normal %u points along %.3f of the radius",
                         (unsigned long)f, (unsigned long)i,
                         (unsigned)b->frames[f].vertices[i].normal, out / sqrt(len));
        }
    }
    md2_free(b);
    /* turned around: the normals point in */
    for (i = 0; i < s.ntris; i++) {
        const uint32_t v[2] = {s.tris[6 * i + 2], s.tris[6 * i + 3]};
        s.tris[6 * i + 2] = s.tris[6 * i + 4];
        s.tris[6 * i + 3] = s.tris[6 * i + 5];
        s.tris[6 * i + 4] = v[0];
        s.tris[6 * i + 5] = v[1];
    }
    b = build_ok(&s.in, &e);
    for (i = 0; i < s.n; i++) {
        const float *n = md2_normal(b->frames[0].vertices[i].normal), *p = s.pos + 3 * i;
        assert_true(n[0] * p[0] + n[1] * p[1] + n[2] * p[2] < 0.0f);
    }
    md2_free(b);
    /* no triangles: every normal is the fallback */
    s.in.num_triangles = 0;
    b = build_ok(&s.in, &e);
    for (i = 0; i < s.n; i++)
        assert_int_equal(b->frames[0].vertices[i].normal, MD2_NORMAL_FALLBACK);
    assert_int_equal(b->num_glcmds, 0);
    md2_free(b);
    sphere_free(&s);
    {
        /* a double-sided square: front vertices 0-3, back 4-7 at the same
         * places, wound the other way */
        static const float sq[8][3] = {{0, 0, 0}, {4, 0, 0}, {4, 4, 0}, {0, 4, 0},
                                       {0, 0, 0}, {4, 0, 0}, {4, 4, 0}, {0, 4, 0}};
        static const uint32_t tris[4][6] = {{0, 0, 1, 0, 2, 0}, {0, 0, 2, 0, 3, 0},
                                            {4, 0, 6, 0, 5, 0}, {4, 0, 7, 0, 6, 0}};
        static const float uv[2] = {0.5f, 0.5f};
        md2_build_input in;
        memset(&in, 0, sizeof in);
        in.num_frames = 1;
        in.num_vertices = 8;
        in.positions = &sq[0][0];
        in.num_triangles = 4;
        in.triangles = &tris[0][0];
        in.num_texcoords = 1;
        in.uv = uv;
        in.skin_width = in.skin_height = 8;
        b = build_ok(&in, &e);
        for (i = 0; i < 4; i++) {
            assert_true(md2_normal(b->frames[0].vertices[i].normal)[2] == -1.0f);
            assert_true(md2_normal(b->frames[0].vertices[i + 4].normal)[2] == 1.0f);
        }
        md2_free(b);
    }
}

/* ------------------------------------------------------------------------ */
/* Texcoords, names, order                                                   */
/* ------------------------------------------------------------------------ */

static void test_texcoords(void **state)
{
    /* u, skin size, texel: u * size rounded, halves away from zero */
    static const struct {
        float u;
        uint32_t size;
        int s;
    } cases[] = {
        {0.0f, 64, 0},           {0.5f / 64.0f, 64, 1},    {-0.5f / 64.0f, 64, -1},
        {1.5f / 64.0f, 64, 2},   {2.5f / 64.0f, 64, 3},    {1.0f, 64, 64},
        {0.49999997f, 1, 0},     {0.5f, 1, 1},             {-0.5f, 1, -1},
        {32767.0f, 1, 32767},    {-32768.0f, 1, -32768},   {1.0f, 32767, 32767},
        {1e-30f, 0x7FFFFFFF, 0}, {1e-45f, 0x7FFFFFFF, 0},  {0.49999997f, 65535, 32767},
        {-0.0f, 3, 0},           {3.0f / 7.0f, 7, 3},      {2.9999998f / 7.0f, 7, 3},
    };
    static const float bad[][2] = {{32767.5f, 1}, {-32768.5f, 1}, {2.0f, 32767}, {1e30f, 1}};
    size_t c;
    (void)state;
    for (c = 0; c < COUNT(cases); c++) {
        small s;
        env e;
        md2_model *b;
        small_make(&s);
        memset(s.uv, 0, sizeof s.uv);
        s.uv[1][0] = cases[c].u;
        s.in.skin_width = cases[c].size;
        env_init(&e, 0, MD2_PROFILE_FORMAT);
        b = build_ok(&s.in, &e);
        if (b->texcoords[1].s != cases[c].s)
            fail_msg("u %.9g on %lu pixels: texel %d, not %d", (double)cases[c].u,
                     (unsigned long)cases[c].size, b->texcoords[1].s, cases[c].s);
        md2_free(b);
    }
    for (c = 0; c < COUNT(bad); c++) {
        small s;
        env e;
        md2_model *b = (md2_model *)&s;
        small_make(&s);
        memset(s.uv, 0, sizeof s.uv);
        s.uv[2][1] = bad[c][0];
        s.in.skin_height = (uint32_t)bad[c][1];
        env_init(&e, 0, MD2_PROFILE_FORMAT);
        assert_int_equal(md2_build(&s.in, &e.o, &b), MD2_ERR_INVALID_ARGUMENT);
        assert_null(b);
        assert_string_equal(e.d.field, "uv");
        assert_int_equal(e.d.index, 2);
        assert_int_equal(e.d.offset, 2 * 8 + 4);
        assert_int_equal(e.d.section, MD2_SECTION_TEXCOORDS);
        assert_int_equal(e.a.calls, 0);
    }
    {
        /* texels as they are; the round trip of a loaded model's uv */
        small s;
        env e;
        md2_model *b;
        int i;
        small_make(&s);
        s.in.uv = NULL;
        s.in.texels = &s.texels[0][0];
        s.texels[3][0] = -32768;
        s.texels[3][1] = 32767;
        env_init(&e, 0, MD2_PROFILE_FORMAT);
        b = build_ok(&s.in, &e);
        for (i = 0; i < 4; i++) {
            float u, v;
            assert_int_equal(b->texcoords[i].s, s.texels[i][0]);
            assert_int_equal(b->texcoords[i].t, s.texels[i][1]);
            md2_texcoord_uv(b, b->texcoords[i], &u, &v);
            s.uv[i][0] = u;
            s.uv[i][1] = v;
        }
        md2_free(strict_again(b));
        s.in.texels = NULL;
        s.in.uv = &s.uv[0][0];
        {
            md2_model *again = build_ok(&s.in, &e);
            assert_memory_equal(again->texcoords, b->texcoords, 4 * sizeof(md2_texcoord));
            md2_free(again);
        }
        md2_free(b);
    }
}

/* Names of the frames made from an animation list, and back. */
typedef struct naming {
    const char *names[4];
    size_t counts[4];
    unsigned flags;
    const char *want[6];    /* the first frame names */
    size_t want_back;       /* md2_anims_from_names() gives this many */
    uint32_t warnings;      /* the flags raised */
    size_t nwarn;           /* how many such warnings */
} naming;

static void test_frame_names(void **state)
{
    static const naming cases[] = {
        {{"stand", "run"}, {3, 2}, 0, {"stand1", "stand2", "stand3", "run1", "run2"}, 2, 0, 0},
        {{"run"}, {12}, MD2_BUILD_ZERO_PAD, {"run01", "run02", "run03", "run04", "run05", "run06"}, 1, 0, 0},
        {{"run"}, {12}, 0, {"run1", "run2", "run3", "run4", "run5", "run6"}, 1, 0, 0},
        /* a name that ends in a digit: a '_' before the number */
        {{"pain1", "pain2", "pain3"}, {2, 2, 2}, 0, {"pain1_1", "pain1_2", "pain2_1", "pain2_2", "pain3_1", "pain3_2"}, 3, 0, 0},
        /* cut to keep the number */
        {{"a_very_long_animation"}, {12}, 0, {"a_very_long_a1", "a_very_long_a2"}, 1, MD2_WARN_NAME_CUT, 1},
        {{"fifteencharsxyz"}, {3}, MD2_BUILD_ZERO_PAD, {"fifteencharsxy1", "fifteencharsxy2"}, 1, MD2_WARN_NAME_CUT, 1},
        /* cut to end in a separator: comes back without it */
        {{"fifteen_chars__"}, {3}, 0, {"fifteen_chars_1"}, 1, MD2_WARN_NAME_CUT | MD2_WARN_ANIM_NAMES, 2},
        /* two animations of one name whose numbers go on: they merge */
        {{"step", "step"}, {1, 3}, 0, {"step1", "step1", "step2", "step3"}, 1, MD2_WARN_ANIM_NAMES, 1},
        /* numbers that start again: two animations, walk1 and walk2 */
        {{"walk", "walk"}, {2, 2}, 0, {"walk1", "walk2", "walk1", "walk2"}, 2, MD2_WARN_ANIM_NAMES, 2},
        /* a digit at the end of the name: pain1_9 then pain1_10, one animation (without
           the '_', pain19 then pain110 split it in two) */
        {{"pain1"}, {11}, 0, {"pain1_1", "pain1_2"}, 1, 0, 0},
        {{"attack2"}, {10}, MD2_BUILD_ZERO_PAD, {"attack2_01", "attack2_02"}, 1, 0, 0},
        /* cut to fit a '_' (13 bytes of room beside 2 digits): the cut name ends in a
           letter, no separator then; or in a digit, and the separator follows it */
        {{"fourteen_abc12"}, {10}, 0, {"fourteen_abc1", "fourteen_abc2"}, 1, MD2_WARN_NAME_CUT, 1},
        {{"fourteen_ab123"}, {10}, 0, {"fourteen_ab1_1", "fourteen_ab1_2"}, 1, MD2_WARN_NAME_CUT, 1},
        /* a separator at the end comes back without it */
        {{"idle_"}, {2}, 0, {"idle_1", "idle_2"}, 1, MD2_WARN_ANIM_NAMES, 1},
        /* a lone name that ends in a digit comes back with it */
        {{"pain1"}, {4}, 0, {"pain1_1", "pain1_2", "pain1_3", "pain1_4"}, 1, 0, 0},
    };
    size_t c;
    (void)state;
    for (c = 0; c < COUNT(cases); c++) {
        const naming *t = &cases[c];
        md2_build_anim anims[4];
        sphere s;
        env e;
        md2_model *b;
        md2_anim back[32];
        size_t k, total = 0, nback;
        memset(anims, 0, sizeof anims);
        for (k = 0; k < 4 && t->names[k]; k++) {
            anims[k].name = t->names[k];
            anims[k].count = t->counts[k];
            total += t->counts[k];
        }
        sphere_make(&s, 4, 3, total, 0.0);
        s.in.anims = anims;
        s.in.num_anims = k;
        env_init(&e, t->flags, MD2_PROFILE_FORMAT);
        b = build_ok(&s.in, &e);
        for (k = 0; k < 6 && t->want[k]; k++)
            assert_string_equal(b->frames[k].name, t->want[k]);
        for (k = 0; k < total; k++) {
            assert_true(strlen(b->frames[k].name) <= 15);
            assert_true(b->frames[k].name[strlen(b->frames[k].name) - 1] >= '0');
        }
        nback = md2_anims_from_names(b, back, 32);
        if (nback != t->want_back)
            fail_msg("case %lu ('%s'): %lu animations back, not %lu ('%s' first)",
                     (unsigned long)c, t->names[0], (unsigned long)nback,
                     (unsigned long)t->want_back, back[0].name);
        assert_int_equal(b->warnings & ~(uint32_t)MD2_WARN_PROFILE_LIMIT, t->warnings);
        assert_int_equal(e.h.flags & ~(uint32_t)MD2_WARN_PROFILE_LIMIT, t->warnings);
        if (t->warnings) {
            size_t w, found = 0;
            for (w = 0; w < e.h.count && w < COUNT(e.h.all); w++)
                if (e.h.all[w].warning != MD2_WARN_PROFILE_LIMIT) {
                    assert_string_equal(e.h.all[w].field, "anims");
                    assert_int_equal(e.h.all[w].section, MD2_SECTION_FRAMES);
                    found++;
                }
            assert_int_equal(found, t->nwarn);
        }
        md2_free(strict_again(b));
        md2_free(b);
        sphere_free(&s);
    }
    {
        /* given names as they are; no names and no animations: frame1.. */
        small s;
        env e;
        md2_model *b;
        small_make(&s);
        s.in.num_anims = 0;
        s.in.frame_names = s.frames;
        env_init(&e, 0, MD2_PROFILE_FORMAT);
        b = build_ok(&s.in, &e);
        assert_string_equal(b->frames[0].name, "stand1");
        assert_string_equal(b->frames[1].name, "run1");
        assert_memory_equal(b->frames[1].name + 4, "\0\0\0\0\0\0\0\0\0\0\0\0\0", 13);
        md2_free(b);
        s.in.frame_names = NULL;
        b = build_ok(&s.in, &e);
        assert_string_equal(b->frames[0].name, "frame1");
        assert_string_equal(b->frames[1].name, "frame2");
        md2_free(b);
    }
}

/* Triangles, vertices and texcoords stay in the input's order; dropping
 * degenerate triangles keeps the order of the rest. */
static void test_order_kept(void **state)
{
    small s;
    env e;
    md2_model *b;
    uint32_t tris[4][6] = {{3, 1, 2, 0, 0, 2}, {1, 1, 1, 3, 2, 0}, {2, 3, 0, 0, 1, 1},
                           {0, 2, 3, 3, 0, 1}};
    (void)state;
    small_make(&s);
    s.in.triangles = &tris[0][0];
    s.in.num_triangles = 4;
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    b = build_ok(&s.in, &e);
    assert_int_equal(b->num_triangles, 4);
    assert_int_equal(b->triangles[1].vertex[0], 1);
    assert_int_equal(b->triangles[3].texcoord[2], 1);
    assert_int_equal(b->texcoords[3].s, 48);
    md2_free(b);
    e.o.flags = MD2_REBUILD_DROP_DEGENERATE;
    b = build_ok(&s.in, &e);
    assert_int_equal(b->num_triangles, 2);
    assert_int_equal(b->triangles[0].vertex[0], 3);
    assert_int_equal(b->triangles[1].vertex[0], 2);
    assert_int_equal(b->triangles[1].texcoord[0], 3);
    md2_free(strict_again(b));
    md2_free(b);
}

/* ------------------------------------------------------------------------ */
/* The model: one allocation, header, warnings                               */
/* ------------------------------------------------------------------------ */

static void test_one_allocation_and_header(void **state)
{
    small s;
    env e;
    md2_model *b;
    (void)state;
    small_make(&s);
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    b = build_ok(&s.in, &e);
    assert_int_equal(e.a.live, 1);
    assert_int_equal(e.a.live_bytes, md2_model_memory(b));
    assert_true(b->allocator.user == &e.a);
    assert_int_equal(b->header.ident, MD2_IDENT);
    assert_int_equal(b->header.version, 8);
    assert_int_equal(b->header.framesize, 40 + 4 * 4);
    assert_int_equal(b->header.ofs_end, (int32_t)md2_write_size(b));
    assert_int_equal(b->header.num_glcmds, (int32_t)b->num_glcmds);
    assert_string_equal(b->skins[0].name, "models/x/skin.pcx");
    assert_memory_equal(b->skins[0].name + 17, "\0\0\0\0\0\0\0\0", 8);
    md2_free(strict_again(b));
    md2_free(b);
    assert_int_equal(e.a.live, 0);
    /* no GL commands on request */
    e.o.flags = MD2_BUILD_NO_GLCMDS;
    b = build_ok(&s.in, &e);
    assert_int_equal(b->num_glcmds, 0);
    assert_null(b->glcmds);
    assert_int_equal(b->header.num_glcmds, 0);
    md2_free(strict_again(b));
    md2_free(b);
}

/* ------------------------------------------------------------------------ */
/* Profiles                                                                  */
/* ------------------------------------------------------------------------ */

/* Each case: a model shape, the profiles whose limit it breaks (bit p). */
typedef struct shape {
    const char *what;
    size_t vertices, frames, triangles, skins, texcoords;
    uint32_t skin_height;
    unsigned flags;
    unsigned breaks;       /* bit p: profile p refuses it */
    const char *field;     /* for this limit, the first it breaks */
    const char *also;      /* the fields of other limits it may break */
} shape;

#define P(x) (1u << MD2_PROFILE_##x)

static const char *const many_skins[40] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j",
                                           "k", "l", "m", "n", "o", "p", "q", "r", "s", "t",
                                           "u", "v", "w", "x", "y", "z", "0", "1", "2", "3",
                                           "4", "5", "6", "7", "8", "9", "A", "B", "C", "D"};

/* A model of the shape: vertices in a line, triangles fanned over them. */
static void shape_input(const shape *sh, float **pos, uint32_t **tris, int16_t **st,
                        md2_build_input *in)
{
    size_t i, n = sh->vertices * sh->frames;
    *pos = (float *)malloc(n * 3 * sizeof(float) + 1);
    *tris = (uint32_t *)malloc(sh->triangles * 6 * sizeof(uint32_t) + 1);
    *st = (int16_t *)malloc(sh->texcoords * 2 * sizeof(int16_t) + 2);
    assert_true(*pos && *tris && *st);
    for (i = 0; i < n; i++) {
        (*pos)[3 * i] = (float)(i % sh->vertices);
        (*pos)[3 * i + 1] = (float)((i * 7) % 13);
        (*pos)[3 * i + 2] = (float)(i / sh->vertices);
    }
    for (i = 0; i < sh->texcoords; i++) {
        (*st)[2 * i] = (int16_t)(i % 32000);
        (*st)[2 * i + 1] = (int16_t)(i / 32000);
    }
    for (i = 0; i < sh->triangles; i++) {
        int k;
        for (k = 0; k < 3; k++) {
            (*tris)[6 * i + 2 * (size_t)k] = (uint32_t)((i + (size_t)k) % sh->vertices);
            (*tris)[6 * i + 2 * (size_t)k + 1] = (uint32_t)((3 * i + (size_t)k) % sh->texcoords);
        }
    }
    memset(in, 0, sizeof *in);
    in->num_frames = sh->frames;
    in->num_vertices = sh->vertices;
    in->positions = *pos;
    in->num_triangles = sh->triangles;
    in->triangles = *tris;
    in->num_texcoords = sh->texcoords;
    in->texels = *st;
    in->skin_width = 64;
    in->skin_height = sh->skin_height;
    in->num_skins = sh->skins;
    in->skin_names = many_skins;
}

/* md2_profile_check()'s reports: how many, and whether each named one of
 * the fields expected (field, or one in also). */
typedef struct limit_seen {
    size_t count, bad;
    md2_profile p;
    const char *field, *also;
} limit_seen;

static void on_limit_seen(void *user, const md2_diagnostic *d)
{
    limit_seen *l = (limit_seen *)user;
    l->count++;
    if (d->index != (size_t)l->p || d->section != MD2_SECTION_HEADER ||
        strncmp(d->message, md2_profile_string(l->p), strlen(md2_profile_string(l->p))) != 0 ||
        (strcmp(d->field, l->field) != 0 && !strstr(l->also, d->field)))
        l->bad++;
}

/* A model made with the format's limits alone, checked against each
 * profile: refused by exactly the profiles md2_build() refuses it for. */
static void check_model_profiles(const md2_model *b, const char *what, unsigned breaks,
                                 const char *field, const char *also)
{
    int q;
    size_t broken = 99;
    assert_int_equal(md2_profile_check(NULL, MD2_PROFILE_QUAKE2, NULL, NULL, &broken),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(broken, 0);
    assert_int_equal(md2_profile_check(b, MD2_PROFILE_COUNT_, NULL, NULL, NULL),
                     MD2_ERR_INVALID_ARGUMENT);
    for (q = 0; q < MD2_PROFILE_COUNT_; q++) {
        limit_seen l;
        memset(&l, 0, sizeof l);
        l.p = (md2_profile)q;
        l.field = field;
        l.also = also;
        assert_int_equal(md2_profile_check(b, (md2_profile)q, on_limit_seen, &l, &broken), MD2_OK);
        assert_int_equal(broken, l.count);
        if ((l.count > 0) != ((breaks >> q) & 1u) || l.bad)
            fail_msg("%s: md2_profile_check(%s) found %lu limits (%lu unexpected)", what,
                     md2_profile_string((md2_profile)q), (unsigned long)l.count, (unsigned long)l.bad);
    }
}

static void test_profiles(void **state)
{
    static const shape shapes[] = {
        {"fits all", 100, 4, 50, 1, 60, 256, 0, 0, "", ""},
        {"2048 vertices", 2048, 1, 20, 1, 20, 256, 0, P(UFOAI), "num_vertices", ""},
        {"2049 vertices", 2049, 1, 20, 1, 20, 256, 0, P(QUAKE2) | P(YQUAKE2) | P(UFOAI) | P(Q2PRO), "num_vertices", ""},
        {"4096 triangles", 100, 1, 4096, 1, 20, 256, 0, P(UFOAI), "num_triangles", ""},
        {"4097 triangles", 100, 1, 4097, 1, 20, 256, 0, P(QUAKE2) | P(UFOAI), "num_triangles", ""},
        {"513 frames", 10, 513, 5, 1, 20, 256, 0, P(QUAKE2), "num_frames", ""},
        {"1024 frames", 10, 1024, 5, 1, 20, 256, 0, P(QUAKE2) | P(UFOAI), "num_frames", ""},
        {"32 skins", 10, 1, 5, 32, 20, 256, 0, P(UFOAI), "num_skins", ""},
        {"33 skins", 10, 1, 5, 33, 20, 256, 0, P(QUAKE2) | P(YQUAKE2) | P(UFOAI) | P(Q2PRO), "num_skins", ""},
        {"no skin", 10, 1, 5, 0, 20, 256, 0, P(UFOAI), "num_skins", ""},
        {"skin 480 high", 10, 1, 5, 1, 20, 480, 0, 0, "", ""},
        {"skin 481 high", 10, 1, 5, 1, 20, 481, 0, P(QUAKE2) | P(YQUAKE2), "skin_height", ""},
        {"2731 triangles, 1000 welded vertices", 100, 1, 2731, 1, 10, 256, 0, 0, "", ""},
        {"no triangles", 10, 1, 0, 1, 20, 256, 0, P(QUAKE2) | P(YQUAKE2) | P(UFOAI) | P(Q2PRO), "num_triangles", "num_glcmds"},
        {"no texcoords", 10, 1, 0, 1, 0, 256, 0, P(QUAKE2) | P(YQUAKE2) | P(UFOAI) | P(Q2PRO), "num_texcoords", "num_triangles num_glcmds"},
        {"no GL commands", 10, 1, 5, 1, 20, 256, MD2_BUILD_NO_GLCMDS, P(QUAKE2) | P(YQUAKE2), "num_glcmds", ""},
        {"8193 welded vertices", 2000, 1, 2731, 1, 8193, 256, 0, P(UFOAI) | P(Q2PRO), "welded_vertices", ""},
        {"6145 triangles", 100, 1, 6145, 1, 20, 256, 0, P(QUAKE2) | P(UFOAI) | P(Q2PRO), "num_triangles", ""},
        {"6600 welded vertices", 2000, 1, 2200, 1, 7000, 256, 0, P(Q2PRO), "welded_vertices", ""},
        {"2 vertices", 2, 1, 1, 1, 20, 256, 0, P(Q2PRO), "num_vertices", ""},
        {"2 texcoords", 10, 1, 5, 1, 2, 256, 0, P(Q2PRO), "num_texcoords", ""},
        {"a file over 2 MiB", 2000, 300, 20, 1, 20, 256, 0, P(QUAKE2), "ofs_end", ""},
    };
    size_t c;
    (void)state;
    assert_string_equal(md2_profile_string(MD2_PROFILE_FORMAT), "format");
    assert_string_equal(md2_profile_string(MD2_PROFILE_QUAKE2), "Quake II");
    assert_string_equal(md2_profile_string(MD2_PROFILE_YQUAKE2), "yquake2");
    assert_string_equal(md2_profile_string(MD2_PROFILE_UFOAI), "UFO:AI");
    assert_string_equal(md2_profile_string(MD2_PROFILE_Q2PRO), "Q2PRO");
    assert_string_equal(md2_profile_string(MD2_PROFILE_COUNT_), "unknown md2_profile");
    assert_string_equal(md2_profile_string((md2_profile)-1), "unknown md2_profile");
    for (c = 0; c < COUNT(shapes); c++) {
        const shape *sh = &shapes[c];
        float *pos;
        uint32_t *tris;
        int16_t *st;
        md2_build_input in;
        int p;
        shape_input(sh, &pos, &tris, &st, &in);
        for (p = 0; p < MD2_PROFILE_COUNT_; p++) {
            env e;
            md2_model *b = NULL;
            md2_result r;
            unsigned warned = 0;
            size_t w;
            env_init(&e, sh->flags, (md2_profile)p);
            r = md2_build(&in, &e.o, &b);
            if (sh->breaks & (1u << p)) {
                if (r != MD2_ERR_LIMIT_EXCEEDED)
                    fail_msg("%s, profile %s: %s, not a limit error", sh->what,
                             md2_profile_string((md2_profile)p), md2_result_string(r));
                assert_null(b);
                assert_true(strcmp(e.d.field, sh->field) == 0 || strstr(sh->also, e.d.field));
                assert_int_equal(e.d.index, (size_t)p);
                assert_int_equal(e.d.section, MD2_SECTION_HEADER);
                assert_non_null(strstr(e.d.message, md2_profile_string((md2_profile)p)));
                assert_int_equal(e.h.count, 0);
                assert_int_equal(e.a.live, 0);
                /* only the welded count needs the scratch first, and the file's
                 * size the GL commands too */
                if (strcmp(e.d.field, "ofs_end") == 0)
                    assert_true(e.a.calls >= 1);
                else
                    assert_int_equal(e.a.calls, strcmp(e.d.field, "welded_vertices") == 0 ? 1u : 0u);
                continue;
            }
            if (r != MD2_OK)
                fail_msg("%s, profile %s: %s", sh->what, md2_profile_string((md2_profile)p),
                         e.d.message);
            for (w = 0; w < e.h.count; w++) {
                const md2_diagnostic *d = &e.h.all[w];
                assert_int_equal(d->warning, MD2_WARN_PROFILE_LIMIT);
                assert_int_equal(d->section, MD2_SECTION_HEADER);
                assert_true(d->index != (size_t)p && d->index < MD2_PROFILE_COUNT_);
                assert_true(strncmp(d->message, md2_profile_string((md2_profile)d->index),
                                    strlen(md2_profile_string((md2_profile)d->index))) == 0);
                /* the limit of the error, and what comes with it (no
                 * triangles: no GL commands either) */
                assert_true(strcmp(d->field, sh->field) == 0 ||
                            strstr(sh->also, d->field) != NULL);
                warned |= 1u << d->index;
            }
            /* every other engine that refuses it */
            assert_int_equal(warned, sh->breaks & ~(1u << p));
            assert_true(e.h.count >= bits_set(warned));
            assert_int_equal(b->warnings, warned ? (uint32_t)MD2_WARN_PROFILE_LIMIT : 0u);
            if (p == MD2_PROFILE_FORMAT)
                check_model_profiles(b, sh->what, sh->breaks, sh->field, sh->also);
            if (p == MD2_PROFILE_FORMAT && strcmp(sh->field, "welded_vertices") == 0) {
                /* the welded count's one allocation (the model's allocator)
                 * failing: an error, nothing reported, nothing kept */
                limit_seen l;
                size_t broken = 7, live = e.a.live;
                memset(&l, 0, sizeof l);
                l.p = MD2_PROFILE_Q2PRO;
                l.field = sh->field;
                l.also = sh->also;
                e.a.fail_at = e.a.calls + 1;
                assert_int_equal(md2_profile_check(b, MD2_PROFILE_Q2PRO, on_limit_seen, &l, &broken),
                                 MD2_ERR_OUT_OF_MEMORY);
                assert_int_equal(l.count, 0);
                assert_int_equal(broken, 0);
                assert_int_equal(e.a.live, live); /* e is made again for the next profile */
            }
            md2_free(b);
        }
        free(pos);
        free(tris);
        free(st);
    }
}

/* ------------------------------------------------------------------------ */
/* Bad input                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct mutation {
    const char *what;
    void (*apply)(small *s, md2_build_options *o);
    md2_result result;
    const char *field;
    md2_section section;
    size_t index, offset;
    const char *says; /* in the message */
} mutation;

static uint32_t bad_tris[2][6];
static float nan_value(void) { return NAN; }

static void m_frames0(small *s, md2_build_options *o) { (void)o; s->in.num_frames = 0; }
static void m_vertices0(small *s, md2_build_options *o) { (void)o; s->in.num_vertices = 0; }
static void m_vertices_max(small *s, md2_build_options *o) { (void)o; s->in.num_vertices = 65537; s->in.positions = NULL; }
static void m_texcoords_max(small *s, md2_build_options *o) { (void)o; s->in.num_texcoords = 65537; }
static void m_skin_w0(small *s, md2_build_options *o) { (void)o; s->in.skin_width = 0; }
static void m_skin_h_big(small *s, md2_build_options *o) { (void)o; s->in.skin_height = 0x80000000u; }
static void m_huge_frames(small *s, md2_build_options *o) { (void)o; s->in.num_frames = (size_t)1 << 30; s->in.num_anims = 0; }
static void m_huge_skins(small *s, md2_build_options *o) { (void)o; s->in.num_skins = SIZE_MAX; }
static void m_huge_tris(small *s, md2_build_options *o) { (void)o; s->in.num_triangles = (size_t)1 << 28; }
static void m_positions_null(small *s, md2_build_options *o) { (void)o; s->in.positions = NULL; }
static void m_positions_misaligned(small *s, md2_build_options *o) { (void)o; s->in.positions = (const float *)(const void *)((const char *)s->in.positions + 2); }
static void m_vstride(small *s, md2_build_options *o) { (void)o; s->in.vertex_stride = 8; }
static void m_vstride_odd(small *s, md2_build_options *o) { (void)o; s->in.vertex_stride = 14; }
static void m_fstride(small *s, md2_build_options *o) { (void)o; s->in.frame_stride = 6; }
static void m_fstride_huge(small *s, md2_build_options *o) { (void)o; s->in.frame_stride = (size_t)PTRDIFF_MAX / 4 * 4; }
static void m_nstride(small *s, md2_build_options *o) { (void)o; s->in.normals = &s->nrm[0][0][0]; s->in.normal_vertex_stride = 4; }
static void m_nan(small *s, md2_build_options *o) { (void)o; s->pos[1][2][1] = nan_value(); }
static void m_inf(small *s, md2_build_options *o) { (void)o; s->pos[0][3][0] = -HUGE_VALF; }
static void m_too_far(small *s, md2_build_options *o) { (void)o; s->pos[1][0][2] = 2e29f; }
static void m_normal_nan(small *s, md2_build_options *o) { (void)o; s->in.normals = &s->nrm[0][0][0]; s->nrm[1][1][2] = nan_value(); }
static void m_tris_null(small *s, md2_build_options *o) { (void)o; s->in.triangles = NULL; }
static void m_tris_misaligned(small *s, md2_build_options *o) { (void)o; s->in.triangles = (const uint32_t *)(const void *)((const char *)s->in.triangles + 1); }
static void m_tri_vertex(small *s, md2_build_options *o) { (void)o; memcpy(bad_tris, s->tris, sizeof bad_tris); bad_tris[1][4] = 4; s->in.triangles = &bad_tris[0][0]; }
static void m_tri_texcoord(small *s, md2_build_options *o) { (void)o; memcpy(bad_tris, s->tris, sizeof bad_tris); bad_tris[0][3] = 0xFFFFFFFFu; s->in.triangles = &bad_tris[0][0]; }
static void m_uv_both(small *s, md2_build_options *o) { (void)o; s->in.texels = &s->texels[0][0]; }
static void m_uv_none(small *s, md2_build_options *o) { (void)o; s->in.uv = NULL; }
static void m_uv_nan(small *s, md2_build_options *o) { (void)o; s->uv[3][1] = nan_value(); }
static void m_uv_far(small *s, md2_build_options *o) { (void)o; s->uv[0][0] = 600.0f; }
static void m_texels_misaligned(small *s, md2_build_options *o) { (void)o; s->in.uv = NULL; s->in.texels = (const int16_t *)(const void *)((const char *)&s->texels[0][0] + 1); }
static void m_skins_null(small *s, md2_build_options *o) { (void)o; s->in.skin_names = NULL; }
static void m_skin_entry_null(small *s, md2_build_options *o) { (void)o; s->skins[0] = NULL; }
static void m_skin_long(small *s, md2_build_options *o) { (void)o; s->skins[0] = "0123456789012345678901234567890123456789012345678901234567890123"; }
static void m_frame_names_and_anims(small *s, md2_build_options *o) { (void)o; s->in.frame_names = s->frames; }
static void m_frame_name_null(small *s, md2_build_options *o) { (void)o; s->in.num_anims = 0; s->in.frame_names = s->frames; s->frames[1] = NULL; }
static void m_frame_name_long(small *s, md2_build_options *o) { (void)o; s->in.num_anims = 0; s->in.frame_names = s->frames; s->frames[1] = "sixteen_bytes_16"; }
static void m_anims_null(small *s, md2_build_options *o) { (void)o; s->in.anims = NULL; }
static void m_anim_name_null(small *s, md2_build_options *o) { (void)o; s->anims[1].name = NULL; }
static void m_anim_count0(small *s, md2_build_options *o) { (void)o; s->anims[0].count = 0; }
static void m_anim_too_many(small *s, md2_build_options *o) { (void)o; s->anims[1].count = SIZE_MAX; }
static void m_anim_too_few(small *s, md2_build_options *o) { (void)o; s->in.num_anims = 1; }
static void m_flags(small *s, md2_build_options *o) { (void)s; o->flags = 0x100; }
static void m_flags_rebuild(small *s, md2_build_options *o) { (void)s; o->flags = MD2_REBUILD_NORMALS; }
static void m_profile(small *s, md2_build_options *o) { (void)s; o->profile = MD2_PROFILE_COUNT_; }

static const mutation mutations[] = {
    {"no frames", m_frames0, MD2_ERR_INVALID_ARGUMENT, "num_frames", MD2_SECTION_NONE, 0, 0, "needs a frame"},
    {"no vertices", m_vertices0, MD2_ERR_INVALID_ARGUMENT, "num_vertices", MD2_SECTION_NONE, 0, 0, "needs vertices"},
    {"65537 vertices", m_vertices_max, MD2_ERR_LIMIT_EXCEEDED, "num_vertices", MD2_SECTION_NONE, 0, 0, "65536"},
    {"65537 texcoords", m_texcoords_max, MD2_ERR_LIMIT_EXCEEDED, "num_texcoords", MD2_SECTION_NONE, 0, 0, "65536"},
    {"skin width 0", m_skin_w0, MD2_ERR_INVALID_ARGUMENT, "skin_width", MD2_SECTION_NONE, 0, 0, "skin_width is 0"},
    {"skin height 2^31", m_skin_h_big, MD2_ERR_INVALID_ARGUMENT, "skin_height", MD2_SECTION_NONE, 0, 0, "2147483648"},
    {"2^30 frames", m_huge_frames, MD2_ERR_LIMIT_EXCEEDED, "num_frames", MD2_SECTION_HEADER, 0, 0, "2^31 - 1"},
    {"SIZE_MAX skins", m_huge_skins, MD2_ERR_LIMIT_EXCEEDED, "num_skins", MD2_SECTION_HEADER, 0, 0, "2^31 - 1"},
    {"2^28 triangles", m_huge_tris, MD2_ERR_LIMIT_EXCEEDED, "num_triangles", MD2_SECTION_HEADER, 0, 0, "2^31 - 1"},
    {"positions NULL", m_positions_null, MD2_ERR_INVALID_ARGUMENT, "positions", MD2_SECTION_FRAMES, 0, 0, "positions is NULL"},
    {"positions misaligned", m_positions_misaligned, MD2_ERR_INVALID_ARGUMENT, "positions", MD2_SECTION_FRAMES, 0, 0, "aligned"},
    {"vertex stride 8", m_vstride, MD2_ERR_INVALID_ARGUMENT, "vertex_stride", MD2_SECTION_NONE, 0, 0, "at least 12"},
    {"vertex stride 14", m_vstride_odd, MD2_ERR_INVALID_ARGUMENT, "vertex_stride", MD2_SECTION_NONE, 0, 0, "multiple of 4"},
    {"frame stride 6", m_fstride, MD2_ERR_INVALID_ARGUMENT, "frame_stride", MD2_SECTION_NONE, 0, 0, "multiple of 4"},
    {"frame stride past memory", m_fstride_huge, MD2_ERR_INVALID_ARGUMENT, "frame_stride", MD2_SECTION_NONE, 0, 0, "do not fit"},
    {"normal stride 4", m_nstride, MD2_ERR_INVALID_ARGUMENT, "normal_vertex_stride", MD2_SECTION_NONE, 0, 0, "at least 12"},
    {"NaN position", m_nan, MD2_ERR_INVALID_ARGUMENT, "positions", MD2_SECTION_FRAMES, 1, 48 + 24 + 4, "frame 1, vertex 2: y is nan"},
    {"infinite position", m_inf, MD2_ERR_INVALID_ARGUMENT, "positions", MD2_SECTION_FRAMES, 0, 36, "vertex 3: x is -inf"},
    {"position past 1e29", m_too_far, MD2_ERR_INVALID_ARGUMENT, "positions", MD2_SECTION_FRAMES, 1, 56, "within 1e29"},
    {"NaN normal", m_normal_nan, MD2_ERR_INVALID_ARGUMENT, "normals", MD2_SECTION_FRAMES, 1, 48 + 12 + 8, "frame 1, vertex 1: z is nan"},
    {"triangles NULL", m_tris_null, MD2_ERR_INVALID_ARGUMENT, "triangles", MD2_SECTION_TRIANGLES, 0, 0, "NULL"},
    {"triangles misaligned", m_tris_misaligned, MD2_ERR_INVALID_ARGUMENT, "triangles", MD2_SECTION_TRIANGLES, 0, 0, "aligned"},
    {"vertex index", m_tri_vertex, MD2_ERR_INVALID_ARGUMENT, "triangles", MD2_SECTION_TRIANGLES, 1, 40, "triangle 1, corner 2: vertex index 4"},
    {"texcoord index", m_tri_texcoord, MD2_ERR_INVALID_ARGUMENT, "triangles", MD2_SECTION_TRIANGLES, 0, 12, "corner 1: texcoord index 4294967295"},
    {"uv and texels", m_uv_both, MD2_ERR_INVALID_ARGUMENT, "uv", MD2_SECTION_TEXCOORDS, 0, 0, "both"},
    {"no uv", m_uv_none, MD2_ERR_INVALID_ARGUMENT, "uv", MD2_SECTION_TEXCOORDS, 0, 0, "NULL"},
    {"NaN uv", m_uv_nan, MD2_ERR_INVALID_ARGUMENT, "uv", MD2_SECTION_TEXCOORDS, 3, 28, "uv 3: v is nan"},
    {"uv beyond int16", m_uv_far, MD2_ERR_INVALID_ARGUMENT, "uv", MD2_SECTION_TEXCOORDS, 0, 0, "32767"},
    {"texels misaligned", m_texels_misaligned, MD2_ERR_INVALID_ARGUMENT, "texels", MD2_SECTION_TEXCOORDS, 0, 0, "aligned"},
    {"skin names NULL", m_skins_null, MD2_ERR_INVALID_ARGUMENT, "skin_names", MD2_SECTION_SKINS, 0, 0, "NULL"},
    {"skin name NULL", m_skin_entry_null, MD2_ERR_INVALID_ARGUMENT, "skin_names", MD2_SECTION_SKINS, 0, 0, "skin_names[0] is NULL"},
    {"skin name of 64", m_skin_long, MD2_ERR_INVALID_ARGUMENT, "skin_names", MD2_SECTION_SKINS, 0, 0, "at most 63"},
    {"names and anims", m_frame_names_and_anims, MD2_ERR_INVALID_ARGUMENT, "frame_names", MD2_SECTION_FRAMES, 0, 0, "one way"},
    {"frame name NULL", m_frame_name_null, MD2_ERR_INVALID_ARGUMENT, "frame_names", MD2_SECTION_FRAMES, 1, 0, "frame_names[1] is NULL"},
    {"frame name of 16", m_frame_name_long, MD2_ERR_INVALID_ARGUMENT, "frame_names", MD2_SECTION_FRAMES, 1, 0, "at most 15"},
    {"anims NULL", m_anims_null, MD2_ERR_INVALID_ARGUMENT, "anims", MD2_SECTION_FRAMES, 0, 0, "anims is NULL"},
    {"anim name NULL", m_anim_name_null, MD2_ERR_INVALID_ARGUMENT, "anims", MD2_SECTION_FRAMES, 1, 0, "NULL name"},
    {"anim count 0", m_anim_count0, MD2_ERR_INVALID_ARGUMENT, "anims", MD2_SECTION_FRAMES, 0, 0, "count of 0"},
    {"anims too long", m_anim_too_many, MD2_ERR_INVALID_ARGUMENT, "anims", MD2_SECTION_FRAMES, 1, 0, "more frames than num_frames"},
    {"anims too short", m_anim_too_few, MD2_ERR_INVALID_ARGUMENT, "anims", MD2_SECTION_FRAMES, 0, 0, "1 frames, not num_frames = 2"},
    {"unknown flag", m_flags, MD2_ERR_INVALID_ARGUMENT, "flags", MD2_SECTION_NONE, 0, 0, "0x100"},
    {"rebuild flag", m_flags_rebuild, MD2_ERR_INVALID_ARGUMENT, "flags", MD2_SECTION_NONE, 0, 0, "md2_rebuild"},
    {"bad profile", m_profile, MD2_ERR_INVALID_ARGUMENT, "profile", MD2_SECTION_NONE, 0, 0, "no md2_profile"},
};

static void test_bad_input(void **state)
{
    size_t c;
    (void)state;
    for (c = 0; c < COUNT(mutations); c++) {
        const mutation *t = &mutations[c];
        small s;
        env e;
        md2_model *b = (md2_model *)&s; /* overwritten with NULL */
        md2_result r;
        small_make(&s);
        env_init(&e, 0, MD2_PROFILE_FORMAT);
        t->apply(&s, &e.o);
        r = md2_build(&s.in, &e.o, &b);
        if (r != t->result || strcmp(e.d.field, t->field) != 0 ||
            !strstr(e.d.message, t->says) || e.d.index != t->index || e.d.section != t->section ||
            e.d.offset != t->offset)
            fail_msg("%s: %s, field '%s', section %d, index %lu, offset %lu: %s", t->what,
                     md2_result_string(r), e.d.field, (int)e.d.section,
                     (unsigned long)e.d.index, (unsigned long)e.d.offset, e.d.message);
        assert_null(b);
        assert_int_equal(e.d.result, r);
        assert_int_equal(e.a.calls, 0); /* refused before any allocation */
        assert_int_equal(e.h.count, 0);
        assert_non_null(strstr(e.d.message, "md2_build: "));
    }
}

static void test_null_arguments(void **state)
{
    small s;
    env e;
    md2_model *b = NULL;
    (void)state;
    small_make(&s);
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    assert_int_equal(md2_build(&s.in, &e.o, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(e.d.field, "out");
    b = (md2_model *)&s;
    assert_int_equal(md2_build(NULL, &e.o, &b), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(e.d.field, "in");
    assert_null(b);
    assert_int_equal(md2_rebuild(NULL, &e.o, &b), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(e.d.field, "m");
    assert_int_equal(md2_rebuild(NULL, NULL, NULL), MD2_ERR_INVALID_ARGUMENT);
    /* NULL options: the defaults */
    assert_int_equal(md2_build(&s.in, NULL, &b), MD2_OK);
    assert_non_null(b);
    md2_free(b);
    assert_int_equal(e.a.calls, 0);
}

static void test_reserved(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < COUNT(((md2_build_input *)0)->reserved_); i++) {
        small s;
        env e;
        md2_model *b = NULL;
        char field[64];
        small_make(&s);
        env_init(&e, 0x100, MD2_PROFILE_COUNT_); /* reserved_ is checked first */
        s.in.reserved_[i] = 5;
        s.in.num_frames = 0;
        assert_int_equal(md2_build(&s.in, &e.o, &b), MD2_ERR_INVALID_ARGUMENT);
        snprintf(field, sizeof field, "md2_build_input.reserved_[%lu]", (unsigned long)i);
        assert_string_equal(e.d.field, field);
        assert_int_equal(e.d.index, i);
        assert_non_null(strstr(e.d.message, "is 5, not zero"));
        assert_int_equal(e.a.calls, 0);
        assert_null(b);
    }
    for (i = 0; i < COUNT(((md2_build_options *)0)->reserved_); i++) {
        small s;
        env e;
        md2_model *b = NULL, *m = NULL;
        char field[64];
        size_t calls;
        small_make(&s);
        env_init(&e, 0, MD2_PROFILE_FORMAT);
        m = build_ok(&s.in, &e);
        calls = e.a.calls;
        e.o.reserved_[i] = 9;
        assert_int_equal(md2_build(&s.in, &e.o, &b), MD2_ERR_INVALID_ARGUMENT);
        snprintf(field, sizeof field, "md2_build_options.reserved_[%lu]", (unsigned long)i);
        assert_string_equal(e.d.field, field);
        assert_int_equal(md2_rebuild(m, &e.o, &b), MD2_ERR_INVALID_ARGUMENT);
        assert_string_equal(e.d.field, field);
        assert_int_equal(e.a.calls, calls);
        assert_null(b);
        md2_free(m);
    }
    for (i = 0; i < COUNT(((md2_build_anim *)0)->reserved_); i++) {
        small s;
        env e;
        md2_model *b = NULL;
        char field[64];
        small_make(&s);
        env_init(&e, 0x100, MD2_PROFILE_FORMAT);
        s.anims[1].reserved_[i] = 3;
        assert_int_equal(md2_build(&s.in, &e.o, &b), MD2_ERR_INVALID_ARGUMENT);
        snprintf(field, sizeof field, "md2_build_anim.reserved_[%lu]", (unsigned long)i);
        assert_string_equal(e.d.field, field);
        assert_non_null(strstr(e.d.message, "animation 1 ('run')"));
        assert_int_equal(e.a.calls, 0);
    }
    {
        /* a hand-made model's reserved_ */
        small s;
        env e;
        md2_model *m, copy, *b = NULL;
        small_make(&s);
        env_init(&e, 0, MD2_PROFILE_FORMAT);
        m = build_ok(&s.in, &e);
        copy = *m;
        copy.reserved_[2] = 1;
        copy.num_vertices = 0;
        e.o.flags = 0x100;
        assert_int_equal(md2_rebuild(&copy, &e.o, &b), MD2_ERR_INVALID_ARGUMENT);
        assert_string_equal(e.d.field, "md2_model.reserved_[2]");
        assert_null(b);
        md2_free(m);
    }
}

/* Every allocation fails in turn: the error, nothing left allocated, no
 * warning; then the build succeeds. */
static void fail_each_allocation(const md2_build_input *in, const md2_model *src,
                                 unsigned flags, md2_profile profile, md2_result last)
{
    size_t n;
    for (n = 1;; n++) {
        env e;
        md2_model *b = (md2_model *)&e;
        md2_result r;
        env_init(&e, flags, profile);
        e.a.fail_at = n;
        r = src ? md2_rebuild(src, &e.o, &b) : md2_build(in, &e.o, &b);
        if (e.a.calls < n) { /* no allocation failed: done */
            assert_int_equal(r, last);
            if (r == MD2_OK) {
                assert_int_equal(e.a.live, 1);
                md2_free(b);
            }
            assert_int_equal(e.a.live, 0);
            assert_true(n > 1);
            return;
        }
        assert_int_equal(r, MD2_ERR_OUT_OF_MEMORY);
        assert_int_equal(e.d.result, MD2_ERR_OUT_OF_MEMORY);
        assert_true(e.d.message[0] != '\0');
        assert_null(b);
        assert_int_equal(e.a.live, 0);
        assert_int_equal(e.h.count, 0);
    }
}

static void test_allocation_failures(void **state)
{
    sphere s;
    small t;
    env e;
    md2_model *m;
    shape welded = {"welded", 2000, 1, 2731, 1, 8193, 256, 0, 0, "", ""};
    float *pos;
    uint32_t *tris;
    int16_t *st;
    md2_build_input in;
    (void)state;
    sphere_make(&s, 6, 4, 3, 0.1);
    fail_each_allocation(&s.in, NULL, 0, MD2_PROFILE_FORMAT, MD2_OK);
    fail_each_allocation(&s.in, NULL, MD2_BUILD_SHARED_BOX | MD2_BUILD_ZERO_PAD,
                         MD2_PROFILE_FORMAT, MD2_OK);
    small_make(&t);
    t.in.normals = &t.nrm[0][0][0];
    t.in.num_anims = 0;
    t.in.frame_names = t.frames;
    fail_each_allocation(&t.in, NULL, MD2_BUILD_NO_GLCMDS, MD2_PROFILE_FORMAT, MD2_OK);
    shape_input(&welded, &pos, &tris, &st, &in);
    fail_each_allocation(&in, NULL, 0, MD2_PROFILE_FORMAT, MD2_OK);
    fail_each_allocation(&in, NULL, 0, MD2_PROFILE_UFOAI, MD2_ERR_LIMIT_EXCEEDED);
    free(pos);
    free(tris);
    free(st);
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    m = build_ok(&s.in, &e);
    fail_each_allocation(NULL, m, 0, MD2_PROFILE_FORMAT, MD2_OK);
    fail_each_allocation(NULL, m,
                         MD2_REBUILD_NORMALS | MD2_REBUILD_REQUANTIZE | MD2_REBUILD_GLCMDS |
                             MD2_REBUILD_DROP_DEGENERATE,
                         MD2_PROFILE_FORMAT, MD2_OK);
    fail_each_allocation(NULL, m, MD2_BUILD_SHARED_BOX | MD2_BUILD_NO_GLCMDS,
                         MD2_PROFILE_FORMAT, MD2_OK);
    md2_free(m);
    sphere_free(&s);
}

/* ------------------------------------------------------------------------ */
/* md2_rebuild                                                               */
/* ------------------------------------------------------------------------ */

/* The frames of a and b: equal bytes (transforms, names, vertices). */
static void assert_frames_equal(const md2_model *a, const md2_model *b, int positions,
                                int normals)
{
    size_t f, i;
    assert_int_equal(a->num_frames, b->num_frames);
    for (f = 0; f < a->num_frames; f++) {
        assert_memory_equal(a->frames[f].name, b->frames[f].name, 17);
        if (positions) {
            assert_memory_equal(a->frames[f].scale, b->frames[f].scale, 12);
            assert_memory_equal(a->frames[f].translate, b->frames[f].translate, 12);
        }
        for (i = 0; i < a->num_vertices; i++) {
            if (positions)
                assert_memory_equal(a->frames[f].vertices[i].v, b->frames[f].vertices[i].v, 3);
            if (normals)
                assert_int_equal(a->frames[f].vertices[i].normal, b->frames[f].vertices[i].normal);
        }
    }
}

static void rebuild_checks(const md2_model *m)
{
    env e;
    md2_model *r, *built;
    floats fl;
    size_t size_a, size_b;
    uint8_t *a, *b;

    /* no flags: the same file, byte for byte */
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_OK);
    a = written(m, &size_a);
    b = written(r, &size_b);
    assert_int_equal(size_a, size_b);
    assert_memory_equal(a, b, size_a);
    assert_int_equal(e.a.live, 1);
    assert_int_equal(e.a.live_bytes, md2_model_memory(r));
    free(a);
    free(b);
    md2_free(r);

    /* new GL commands only: frames byte for byte, a strict file */
    e.o.flags = MD2_REBUILD_GLCMDS;
    assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_OK);
    assert_frames_equal(m, r, 1, 1);
    assert_memory_equal(r->triangles, m->triangles, m->num_triangles * sizeof(md2_triangle));
    assert_true(r->num_glcmds > 0);
    md2_free(strict_again(r));
    md2_free(r);

    /* everything new: what md2_build() makes of the decoded floats */
    floats_from_model(&fl, m, 0);
    e.o.flags = 0;
    e.o.quantize = MD2_QUANTIZE_PER_FRAME; /* what MD2_REBUILD_REQUANTIZE gives */
    built = build_ok(&fl.in, &e);
    e.o.quantize = MD2_QUANTIZE_DEFAULT;
    e.o.flags = MD2_REBUILD_NORMALS | MD2_REBUILD_REQUANTIZE | MD2_REBUILD_GLCMDS;
    assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_OK);
    tu_assert_models_equal(built, r);
    md2_free(r);
    /* new normals only: positions kept */
    e.o.flags = MD2_REBUILD_NORMALS;
    assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_OK);
    assert_frames_equal(m, r, 1, 0);
    assert_frames_equal(built, r, 0, 1);
    md2_free(r);
    /* a new grid only: normals kept */
    e.o.flags = MD2_REBUILD_REQUANTIZE;
    assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_OK);
    assert_frames_equal(built, r, 1, 0);
    assert_frames_equal(m, r, 0, 1);
    (void)check_grid(r, fl.pos, 12, 12 * m->num_vertices, 0);
    md2_free(r);
    md2_free(built);
    /* a shared box, as md2_build() makes one */
    e.o.flags = MD2_BUILD_SHARED_BOX;
    built = build_ok(&fl.in, &e);
    assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_OK);
    assert_frames_equal(built, r, 1, 0);
    (void)check_grid(r, fl.pos, 12, 12 * m->num_vertices, 0);
    md2_free(r);
    md2_free(built);
    /* zero padding: no effect, the names are kept */
    e.o.flags = MD2_BUILD_ZERO_PAD;
    assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_OK);
    tu_assert_models_equal(m, r);
    md2_free(r);
    /* no GL commands */
    e.o.flags = MD2_BUILD_NO_GLCMDS;
    assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_OK);
    assert_int_equal(r->num_glcmds, 0);
    assert_frames_equal(m, r, 1, 1);
    md2_free(r);
    floats_free(&fl);
    assert_int_equal(e.a.live, 0);
}

static void test_rebuild_corpus(void **state)
{
    size_t k, ran = 0;
    (void)state;
    for (k = 0; k < COUNT(corpus_files); k++) {
        size_t size;
        uint8_t *data = tu_read_corpus(corpus_files[k], &size);
        md2_model *m = NULL;
        if (!data)
            continue;
        ran++;
        assert_int_equal(md2_parse(data, size, NULL, &m), MD2_OK);
        rebuild_checks(m);
        md2_free(m);
        free(data);
    }
    if (ran == 0)
        skip();
}

static void test_rebuild_generated(void **state)
{
    sphere s;
    env e;
    md2_model *m;
    (void)state;
    sphere_make(&s, 10, 6, 5, 0.2);
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    m = build_ok(&s.in, &e);
    rebuild_checks(m);
    md2_free(m);
    sphere_free(&s);
}

/* A damaged file and one without GL commands, repaired: frames byte for
 * byte, GL commands new, and the result passes a strict parse. */
static void test_rebuild_repairs(void **state)
{
    tu_spec sp;
    uint8_t file[TU_MAX_FILE];
    size_t pass;
    (void)state;
    for (pass = 0; pass < 3; pass++) {
        md2_model *m = NULL, *r = NULL;
        env e;
        size_t size;
        tu_spec_default(&sp);
        if (pass == 0)
            sp.num_gl = 0;          /* no GL commands */
        if (pass == 1) {
            sp.num_gl = 20;         /* cut short: no terminating 0 */
            sp.tris[1][1] = 0xFFFF; /* a triangle out of range: dropped */
            sp.frame_padding = 4;
            sp.trailing = 3;
        }
        if (pass == 2)
            sp.gl[13] = 9;          /* a GL command naming a bad vertex */
        size = tu_build(&sp, file);
        assert_int_equal(md2_parse(file, size, NULL, &m), MD2_OK);
        env_init(&e, MD2_REBUILD_GLCMDS, MD2_PROFILE_FORMAT);
        assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_OK);
        assert_frames_equal(m, r, 1, 1);
        assert_int_equal(r->num_triangles, m->num_triangles);
        assert_true(r->num_glcmds > 1);
        assert_int_equal(r->warnings, 0);
        md2_free(strict_again(r));
        md2_free(r);
        md2_free(m);
    }
}

/* A loaded model with a skin size of 0: kept; UFO:AI's limit warns, or
 * refuses when chosen; new GL commands need a size. */
static void test_rebuild_skin_size_zero(void **state)
{
    tu_spec sp;
    uint8_t file[TU_MAX_FILE];
    md2_model *m = NULL, *r = NULL;
    env e;
    size_t w, ufo = 0;
    (void)state;
    tu_spec_default(&sp);
    sp.skinwidth = 0;
    assert_int_equal(md2_parse(file, tu_build(&sp, file), NULL, &m), MD2_OK);
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_OK);
    assert_int_equal(r->skin_width, 0);
    for (w = 0; w < e.h.count; w++)
        if (e.h.all[w].index == MD2_PROFILE_UFOAI &&
            strcmp(e.h.all[w].field, "skin_width") == 0)
            ufo++;
    assert_int_equal(ufo, 1);
    md2_free(r);
    env_init(&e, 0, MD2_PROFILE_UFOAI);
    assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_ERR_LIMIT_EXCEEDED);
    assert_string_equal(e.d.field, "skin_width");
    env_init(&e, MD2_REBUILD_GLCMDS, MD2_PROFILE_FORMAT);
    assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_ERR_INVALID_MODEL);
    assert_string_equal(e.d.field, "skin_width");
    assert_non_null(strstr(e.d.message, "skin size"));
    md2_free(m);
}

/* Degenerate triangles dropped: the rest in order. */
static void test_rebuild_drop_degenerate(void **state)
{
    small s;
    env e;
    md2_model *m, *r;
    uint32_t tris[3][6] = {{0, 0, 1, 1, 2, 2}, {1, 1, 1, 2, 3, 3}, {0, 0, 2, 2, 3, 3}};
    (void)state;
    small_make(&s);
    s.in.triangles = &tris[0][0];
    s.in.num_triangles = 3;
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    m = build_ok(&s.in, &e);
    e.o.flags = MD2_REBUILD_DROP_DEGENERATE;
    assert_int_equal(md2_rebuild(m, &e.o, &r), MD2_OK);
    assert_int_equal(r->num_triangles, 2);
    assert_memory_equal(&r->triangles[0], &m->triangles[0], sizeof(md2_triangle));
    assert_memory_equal(&r->triangles[1], &m->triangles[2], sizeof(md2_triangle));
    assert_frames_equal(m, r, 1, 1);
    assert_int_equal(r->num_glcmds, m->num_glcmds); /* kept as they are */
    md2_free(r);
    md2_free(m);
}

/* Hand-made models that break a rule of the format. */
static void test_rebuild_invalid_models(void **state)
{
    small s;
    env e;
    md2_model *m, copy, *r = NULL;
    md2_frame frames[2];
    md2_triangle tris[2];
    int32_t gl[4] = {1, 0, 0, 0};
    size_t calls;
    int pass;
    static const struct {
        const char *field;
        md2_result result;
        int write_too; /* md2_write() refuses the model for the same rule */
    } want[] = {
        {"num_vertices", MD2_ERR_INVALID_MODEL, 1}, {"num_frames", MD2_ERR_INVALID_MODEL, 1},
        {"num_texcoords", MD2_ERR_INVALID_MODEL, 1}, {"skin_height", MD2_ERR_INVALID_MODEL, 1},
        {"skin_width", MD2_ERR_INVALID_MODEL, 0}, {"triangles", MD2_ERR_INVALID_MODEL, 1},
        {"vertices", MD2_ERR_INVALID_MODEL, 1}, {"scale", MD2_ERR_INVALID_MODEL, 1},
        {"vertex", MD2_ERR_INVALID_MODEL, 1}, {"texcoord", MD2_ERR_INVALID_MODEL, 1},
        {"glcmds", MD2_ERR_INVALID_MODEL, 1}, {"num_skins", MD2_ERR_INVALID_MODEL, 1},
        {"flags", MD2_ERR_INVALID_ARGUMENT, 0},
    };
    (void)state;
    small_make(&s);
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    m = build_ok(&s.in, &e);
    calls = e.a.calls;
    for (pass = 0; pass < (int)COUNT(want); pass++) {
        copy = *m;
        memcpy(frames, m->frames, sizeof frames);
        memcpy(tris, m->triangles, sizeof tris);
        copy.frames = frames;
        copy.triangles = tris;
        e.o.flags = 0;
        switch (pass) {
        case 0: copy.num_vertices = 0; break;
        case 1: copy.num_frames = 0; break;
        case 2: copy.num_texcoords = 70000; break;
        case 3: copy.skin_height = -1; break;
        case 4: copy.skin_width = 0; e.o.flags = MD2_REBUILD_GLCMDS; break;
        case 5: copy.triangles = NULL; break;
        case 6: frames[1].vertices = NULL; break;
        case 7: frames[0].scale[1] = NAN; break;
        case 8: tris[1].vertex[2] = 4; break;
        case 9: tris[0].texcoord[0] = 4; break;
        case 10: copy.glcmds = gl; copy.num_glcmds = 4; break;
        /* more skins than a file holds: refused before any is read (the
         * rule md2_write() has; md2_rebuild() said MD2_ERR_LIMIT_EXCEEDED
         * after reading the triangles before both had one check) */
        case 11: copy.num_skins = (size_t)MD2_MAX_DATA_SIZE + 1u; break;
        default: e.o.flags = MD2_REBUILD_GLCMDS | MD2_BUILD_NO_GLCMDS; break;
        }
        r = m;
        assert_int_equal(md2_rebuild(&copy, &e.o, &r), want[pass].result);
        assert_string_equal(e.d.field, want[pass].field);
        assert_null(r);
        assert_int_equal(e.a.calls, calls); /* nothing allocated */
        if (want[pass].result == MD2_ERR_INVALID_MODEL) {
            assert_true(strncmp(e.d.message, "md2_rebuild: model: ", 20) == 0);
            assert_non_null(strstr(e.d.message, want[pass].field));
        }
        if (want[pass].write_too) {
            /* one check for both: the same rule, place and words */
            md2_diagnostic w;
            uint8_t bytes[16];
            assert_int_equal(md2_write(&copy, bytes, sizeof bytes, NULL, &w),
                             MD2_ERR_INVALID_MODEL);
            assert_string_equal(w.field, e.d.field);
            assert_int_equal(w.section, e.d.section);
            assert_int_equal(w.index, e.d.index);
            assert_true(strncmp(w.message, "md2_write: model: ", 18) == 0);
            assert_string_equal(w.message + 18, e.d.message + 20);
        }
    }
    md2_free(m);
}

/* A new grid needs every coordinate within MD2_BUILD_MAX_COORD: a model
 * whose frame decodes to 5e29 keeps its frames, but is refused a new
 * grid before anything is allocated. */
static void test_rebuild_far_coordinates(void **state)
{
    small s;
    env e;
    md2_model *m, copy, *r = NULL;
    md2_frame frames[2];
    size_t calls;
    (void)state;
    small_make(&s);
    env_init(&e, 0, MD2_PROFILE_FORMAT);
    m = build_ok(&s.in, &e);
    copy = *m;
    memcpy(frames, m->frames, sizeof frames);
    frames[1].scale[2] = 1.5e27f;
    frames[1].translate[2] = -5e29f;
    copy.frames = frames;
    assert_int_equal(md2_rebuild(&copy, &e.o, &r), MD2_OK);
    md2_free(r);
    e.o.flags = MD2_REBUILD_NORMALS | MD2_REBUILD_GLCMDS; /* no new grid: fine */
    assert_int_equal(md2_rebuild(&copy, &e.o, &r), MD2_OK);
    md2_free(r);
    calls = e.a.calls;
    e.o.flags = MD2_REBUILD_REQUANTIZE;
    assert_int_equal(md2_rebuild(&copy, &e.o, &r), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(e.d.field, "scale");
    assert_int_equal(e.d.index, 1);
    assert_int_equal(e.d.section, MD2_SECTION_FRAMES);
    assert_non_null(strstr(e.d.message, "beyond 1e29"));
    assert_null(r);
    e.o.flags = MD2_BUILD_SHARED_BOX;
    assert_int_equal(md2_rebuild(&copy, &e.o, &r), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(e.a.calls, calls);
    md2_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_round_trip),
        cmocka_unit_test(test_generated_round_trip),
        cmocka_unit_test(test_shared_box_no_wobble),
        cmocka_unit_test(test_flat_axes_decode_exactly),
        cmocka_unit_test(test_extreme_coordinates),
        cmocka_unit_test(test_strides),
        cmocka_unit_test(test_normals_given),
        cmocka_unit_test(test_normals_smooth),
        cmocka_unit_test(test_texcoords),
        cmocka_unit_test(test_frame_names),
        cmocka_unit_test(test_order_kept),
        cmocka_unit_test(test_one_allocation_and_header),
        cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_reserved),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_rebuild_corpus),
        cmocka_unit_test(test_rebuild_generated),
        cmocka_unit_test(test_rebuild_repairs),
        cmocka_unit_test(test_rebuild_skin_size_zero),
        cmocka_unit_test(test_rebuild_drop_degenerate),
        cmocka_unit_test(test_rebuild_invalid_models),
        cmocka_unit_test(test_rebuild_far_coordinates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
