/*
 * Tests of wobble (docs/builder.md, "Stable grids"): the stable grids of
 * md2_build() (MD2_QUANTIZE_STABLE, its default), the repair of
 * md2_rebuild() and md2_wobble_score(), and md2_lerp() between two
 * keyframes that hold a position.
 *
 * The sources: a lamp made here (a still base, an arm and a head that swing:
 * "idle"; the lamp hopping, a pure translation: "hop"; the lamp turning
 * about a vertex of its base, a pure rotation about a still pivot: "turn")
 * and a walk made with Blender (tests/data/wobble/walk.py: legs and arms
 * swing, torso and head hold still). On each animation of each source the
 * three rules of the stable grids, checked with a decoder written here (one
 * float rounding per operation, scale * v + translate), not with the
 * builder's numbers:
 *  1. a vertex whose source position is the same (bits) in two frames of an
 *     animation decodes to the same bits in both;
 *  2. frames that are one frame moved decode to the same shape (every
 *     vertex's offset from vertex 0 within 1e-6 of the model's size);
 *  3. mean and largest error within 1.5 times those of a box per frame, and
 *     no coordinate further from its source than half its frame's step
 *     (plus 1/1024 of a step for a moved frame's rounding of the move, plus
 *     float rounding).
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

#ifndef MD2_WOBBLE_DATA_DIR
#define MD2_WOBBLE_DATA_DIR "data/wobble"
#endif

/* ------------------------------------------------------------------------ */
/* Sources                                                                   */
/* ------------------------------------------------------------------------ */

#define MAX_ANIMS 4

typedef struct source {
    size_t n, frames, num_tris;
    float *pos;           /* frames * n * 3 */
    uint32_t *tris;       /* num_tris * 6: vertex, texcoord 0 */
    size_t num_anims;
    md2_build_anim anims[MAX_ANIMS];
    const char *names[MAX_ANIMS];
    int moved[MAX_ANIMS]; /* the animation's frames are its first frame moved */
    float size;           /* the largest extent of any frame */
} source;

static float *at(const source *s, size_t f, size_t i) { return s->pos + 3 * (f * s->n + i); }

static void source_alloc(source *s, size_t n, size_t frames, size_t num_tris)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->frames = frames;
    s->num_tris = num_tris;
    s->pos = (float *)calloc(frames * n * 3, sizeof(float));
    s->tris = (uint32_t *)calloc(num_tris * 6 + 1, sizeof(uint32_t));
    assert_non_null(s->pos);
    assert_non_null(s->tris);
}

static void source_free(source *s)
{
    free(s->pos);
    free(s->tris);
}

static void add_anim(source *s, const char *name, size_t count, int moved)
{
    s->names[s->num_anims] = name;
    s->anims[s->num_anims].name = name;
    s->anims[s->num_anims].count = count;
    s->moved[s->num_anims] = moved;
    s->num_anims++;
}

static void measure_size(source *s)
{
    size_t f, i;
    int k;
    s->size = 0.0f;
    for (f = 0; f < s->frames; f++) {
        float lo[3] = {HUGE_VALF, HUGE_VALF, HUGE_VALF}, hi[3] = {-HUGE_VALF, -HUGE_VALF, -HUGE_VALF};
        for (i = 0; i < s->n; i++)
            for (k = 0; k < 3; k++) {
                float v = at(s, f, i)[k];
                lo[k] = v < lo[k] ? v : lo[k];
                hi[k] = v > hi[k] ? v : hi[k];
            }
        for (k = 0; k < 3; k++)
            if (hi[k] - lo[k] > s->size)
                s->size = hi[k] - lo[k];
    }
}

static md2_build_input input_of(const source *s)
{
    static const int16_t texel[2] = {0, 0};
    md2_build_input in;
    memset(&in, 0, sizeof in);
    in.num_frames = s->frames;
    in.num_vertices = s->n;
    in.positions = s->pos;
    in.num_triangles = s->num_tris;
    in.triangles = s->tris;
    in.num_texcoords = 1;
    in.texels = texel;
    in.skin_width = 64;
    in.skin_height = 64;
    in.num_anims = s->num_anims;
    in.anims = s->anims;
    return in;
}

/* The lamp: a tube of `rings` rings of `seg` vertices from a to b (in the
 * rest pose), its triangles. */
#define SEG 8
static size_t tube(float *rest, uint32_t *tris, size_t v0, size_t *t, const float a[3],
                   float length, float radius, int rings)
{
    int r, j;
    for (r = 0; r < rings; r++)
        for (j = 0; j < SEG; j++) {
            float *p = rest + 3 * (v0 + (size_t)(r * SEG + j));
            double ang = 2.0 * 3.14159265358979 * j / SEG;
            p[0] = a[0] + radius * (float)cos(ang);
            p[1] = a[1] + radius * (float)sin(ang);
            p[2] = a[2] + length * (float)r / (float)(rings - 1);
        }
    for (r = 0; r + 1 < rings; r++)
        for (j = 0; j < SEG; j++) {
            uint32_t p00 = (uint32_t)(v0 + (size_t)(r * SEG + j));
            uint32_t p01 = (uint32_t)(v0 + (size_t)(r * SEG + (j + 1) % SEG));
            uint32_t p10 = p00 + SEG, p11 = p01 + SEG;
            uint32_t *q = tris + 6 * *t;
            q[0] = p00, q[2] = p10, q[4] = p01;
            q[6] = p01, q[8] = p10, q[10] = p11;
            *t += 2;
        }
    return v0 + (size_t)(rings * SEG);
}

/* p rotated by angle a about the axis (0: x, 2: z) through pivot c */
static void rotate(float out[3], const float p[3], const float c[3], int axis, double a)
{
    double d[3], r[3], ca = cos(a), sa = sin(a);
    int k;
    for (k = 0; k < 3; k++)
        d[k] = (double)p[k] - (double)c[k];
    if (axis == 0) {
        r[0] = d[0], r[1] = ca * d[1] - sa * d[2], r[2] = sa * d[1] + ca * d[2];
    } else {
        r[0] = ca * d[0] - sa * d[1], r[1] = sa * d[0] + ca * d[1], r[2] = d[2];
    }
    for (k = 0; k < 3; k++)
        out[k] = (float)(r[k] + (double)c[k]);
}

#define LAMP_FRAMES 24
static void make_lamp(source *s)
{
    const float base_at[3] = {0.0f, 0.0f, 0.0f}, arm_at[3] = {0.0f, 0.0f, 0.3f};
    const float head_at[3] = {0.0f, 0.0f, 2.3f}, hinge[3] = {0.0f, 0.0f, 0.3f};
    const size_t base_v = 1 + 3 * SEG, arm_v = 5 * SEG, head_v = 3 * SEG;
    const size_t n = base_v + arm_v + head_v, frames = 3 * LAMP_FRAMES;
    float *rest;
    size_t t = 0, v, f, i, base_end, arm_end;

    source_alloc(s, n, frames, 2 * SEG * (2 + 4 + 2));
    rest = s->pos; /* frame 0 of idle is the rest pose */
    /* vertex 0: the pivot of "turn", on the base's rim */
    rest[0] = 1.0f, rest[1] = 0.0f, rest[2] = 0.0f;
    v = tube(rest, s->tris, 1, &t, base_at, 0.3f, 1.0f, 3);
    base_end = v;
    v = tube(rest, s->tris, v, &t, arm_at, 2.0f, 0.12f, 5);
    arm_end = v;
    v = tube(rest, s->tris, v, &t, head_at, 0.4f, 0.35f, 3);
    assert_int_equal(v, n);
    assert_int_equal(t, s->num_tris);
    /* idle: base still, the arm swings about the hinge, the head swings
     * more */
    for (f = 0; f < LAMP_FRAMES; f++) {
        double a = 0.35 * sin(2.0 * 3.14159265358979 * (double)f / LAMP_FRAMES);
        for (i = 0; i < n; i++) {
            float *p = at(s, f, i);
            if (i < base_end)
                memcpy(p, rest + 3 * i, 12);
            else if (i < arm_end)
                rotate(p, rest + 3 * i, hinge, 0, a);
            else
                rotate(p, rest + 3 * i, hinge, 0, 1.4 * a);
        }
    }
    /* hop: the rest pose moved forward and up and down */
    for (f = 0; f < LAMP_FRAMES; f++) {
        double u = (double)f / (LAMP_FRAMES - 1);
        float d[3];
        d[0] = (float)(0.0);
        d[1] = (float)(3.0 * u);
        d[2] = (float)(4.0 * 1.2 * u * (1.0 - u));
        for (i = 0; i < n; i++) {
            float *p = at(s, LAMP_FRAMES + f, i);
            int k;
            for (k = 0; k < 3; k++)
                p[k] = rest[3 * i + k] + d[k];
        }
    }
    /* turn: the rest pose turned about vertex 0, up to 50 degrees and back */
    for (f = 0; f < LAMP_FRAMES; f++) {
        double a = 0.87 * sin(3.14159265358979 * (double)f / (LAMP_FRAMES - 1));
        for (i = 0; i < n; i++)
            rotate(at(s, 2 * LAMP_FRAMES + f, i), rest + 3 * i, rest, 2, a);
    }
    add_anim(s, "idle", LAMP_FRAMES, 0);
    add_anim(s, "hop", LAMP_FRAMES, 1);
    add_anim(s, "turn", LAMP_FRAMES, 0);
    measure_size(s);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* tests/data/wobble/walk.bin (walk.py); 0 when it cannot be read */
static int read_walk(source *s)
{
    size_t size, i, n, frames, tris;
    uint8_t *d = tu_read_file(MD2_WOBBLE_DATA_DIR "/walk.bin", &size);
    if (!d)
        return 0;
    assert_true(size >= 16 && memcmp(d, "WALK", 4) == 0);
    n = le32(d + 4), frames = le32(d + 8), tris = le32(d + 12);
    assert_int_equal(size, 16 + frames * n * 12 + tris * 12);
    source_alloc(s, n, frames, tris);
    for (i = 0; i < frames * n * 3; i++) {
        uint32_t u = le32(d + 16 + 4 * i);
        memcpy(&s->pos[i], &u, 4);
    }
    for (i = 0; i < tris; i++) {
        const uint8_t *p = d + 16 + frames * n * 12 + 12 * i;
        s->tris[6 * i] = le32(p);
        s->tris[6 * i + 2] = le32(p + 8); /* Blender's winding, reversed */
        s->tris[6 * i + 4] = le32(p + 4);
    }
    free(d);
    add_anim(s, "walk", frames, 0);
    measure_size(s);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* The independent decoder and the rules                                     */
/* ------------------------------------------------------------------------ */

static float decode(const md2_frame *f, size_t i, int k)
{
    volatile float product = f->scale[k] * (float)f->vertices[i].v[k];
    volatile float sum = product + f->translate[k];
    return sum;
}

static void decode3(const md2_frame *f, size_t i, float out[3])
{
    int k;
    for (k = 0; k < 3; k++)
        out[k] = decode(f, i, k);
}

typedef struct errors {
    double mean, largest;
} errors;

/* Euclidean error of frames [first, first + count) against the source */
static errors clip_errors(const md2_model *m, const source *s, size_t first, size_t count)
{
    errors e = {0.0, 0.0};
    size_t f, i;
    for (f = first; f < first + count; f++)
        for (i = 0; i < s->n; i++) {
            float d[3];
            double sq = 0.0;
            int k;
            decode3(&m->frames[f], i, d);
            for (k = 0; k < 3; k++)
                sq += ((double)d[k] - at(s, f, i)[k]) * ((double)d[k] - at(s, f, i)[k]);
            e.mean += sqrt(sq);
            if (sqrt(sq) > e.largest)
                e.largest = sqrt(sq);
        }
    e.mean /= (double)(count * s->n);
    return e;
}

static md2_model *build(const source *s, md2_quantize q)
{
    md2_build_input in = input_of(s);
    md2_build_options o;
    md2_diagnostic d;
    md2_model *m = NULL;
    memset(&o, 0, sizeof o);
    o.quantize = q;
    o.error = &d;
    assert_int_equal(md2_build(&in, &o, &m), MD2_OK);
    return m;
}

/* The three rules on every animation of s; the numbers printed. */
static void check_rules(const source *s, const char *what)
{
    md2_model *st = build(s, MD2_QUANTIZE_DEFAULT), *pf = build(s, MD2_QUANTIZE_PER_FRAME);
    md2_model *sh = build(s, MD2_QUANTIZE_SHARED), *st2 = build(s, MD2_QUANTIZE_STABLE);
    size_t c, first = 0, f, g, i;
    int k;

    tu_assert_models_equal(st, st2); /* the default is stable */
    for (c = 0; c < s->num_anims; first += s->anims[c].count, c++) {
        size_t count = s->anims[c].count, held = 0;
        errors es = clip_errors(st, s, first, count), ep = clip_errors(pf, s, first, count);
        errors eh = clip_errors(sh, s, first, count);
        /* 1: held positions keep their bits, every pair of frames */
        for (f = first; f < first + count; f++)
            for (g = f + 1; g < first + count; g++)
                for (i = 0; i < s->n; i++) {
                    float a[3], b[3];
                    if (memcmp(at(s, f, i), at(s, g, i), 12) != 0)
                        continue;
                    held++;
                    decode3(&st->frames[f], i, a);
                    decode3(&st->frames[g], i, b);
                    assert_memory_equal(a, b, 12);
                }
        /* 2: a moved frame has the first frame's shape */
        if (s->moved[c])
            for (f = first + 1; f < first + count; f++)
                for (i = 1; i < s->n; i++) {
                    float a0[3], ai[3], b0[3], bi[3];
                    decode3(&st->frames[first], 0, a0);
                    decode3(&st->frames[first], i, ai);
                    decode3(&st->frames[f], 0, b0);
                    decode3(&st->frames[f], i, bi);
                    for (k = 0; k < 3; k++)
                        assert_true(fabs(((double)bi[k] - b0[k]) - ((double)ai[k] - a0[k])) <=
                                    1e-6 * s->size);
                }
        /* 3: half a step of the frame's own step, and the errors */
        for (f = first; f < first + count; f++)
            for (i = 0; i < s->n; i++)
                for (k = 0; k < 3; k++) {
                    const md2_frame *fr = &st->frames[f];
                    double sc = fr->scale[k], t = fr->translate[k];
                    double mag = fabs(t) > fabs(t + 255.0 * sc) ? fabs(t) : fabs(t + 255.0 * sc);
                    double err = fabs((double)decode(fr, i, k) - at(s, f, i)[k]);
                    assert_true(err <= 0.5 * sc * (1.0 + 1.0 / 1024) + ldexp(mag, -22));
                }
        print_message("%s %s: %lu held pairs; mean error stable %.5f, per-frame %.5f, shared %.5f; "
                      "largest %.5f, %.5f, %.5f (ratios %.3f, %.3f)\n",
                      what, s->names[c], (unsigned long)held, es.mean, ep.mean, eh.mean,
                      es.largest, ep.largest, eh.largest, es.mean / ep.mean,
                      es.largest / ep.largest);
        assert_true(es.mean <= 1.5 * ep.mean);
        assert_true(es.largest <= 1.5 * ep.largest);
    }
    md2_free(st);
    md2_free(st2);
    md2_free(pf);
    md2_free(sh);
}

/* The largest decoded movement, between consecutive frames of an
 * animation, of a vertex whose source position does not move */
static double held_drift(const md2_model *m, const source *s)
{
    size_t c, first = 0, f, i;
    double worst = 0.0;
    for (c = 0; c < s->num_anims; first += s->anims[c].count, c++)
        for (f = first + 1; f < first + s->anims[c].count; f++)
            for (i = 0; i < s->n; i++) {
                float a[3], b[3];
                int k;
                if (memcmp(at(s, f - 1, i), at(s, f, i), 12) != 0)
                    continue;
                decode3(&m->frames[f - 1], i, a);
                decode3(&m->frames[f], i, b);
                for (k = 0; k < 3; k++)
                    if (fabs((double)a[k] - b[k]) > worst)
                        worst = fabs((double)a[k] - b[k]);
            }
    return worst;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */
/* ------------------------------------------------------------------------ */

static void test_lamp_rules(void **state)
{
    source s;
    md2_model *pf, *st;
    (void)state;
    make_lamp(&s);
    check_rules(&s, "lamp");
    pf = build(&s, MD2_QUANTIZE_PER_FRAME);
    st = build(&s, MD2_QUANTIZE_STABLE);
    print_message("lamp: held vertices move up to %.4f (per-frame boxes), %.4f (stable)\n",
                  held_drift(pf, &s), held_drift(st, &s));
    assert_true(held_drift(pf, &s) > 0.0); /* the wobble there is to remove */
    assert_true(held_drift(st, &s) == 0.0);
    md2_free(pf);
    md2_free(st);
    source_free(&s);
}

static void test_blender_walk_rules(void **state)
{
    source s;
    md2_model *pf, *st;
    (void)state;
    if (!read_walk(&s))
        skip();
    check_rules(&s, "Blender");
    pf = build(&s, MD2_QUANTIZE_PER_FRAME);
    st = build(&s, MD2_QUANTIZE_STABLE);
    print_message("walk: held vertices move up to %.4f (per-frame boxes), %.4f (stable)\n",
                  held_drift(pf, &s), held_drift(st, &s));
    assert_true(held_drift(st, &s) == 0.0);
    md2_free(pf);
    md2_free(st);
    source_free(&s);
}

/* A model far from the origin: held positions keep their bits there too
 * (the lattice gives way to one box for the animation on such an axis). */
static void test_far_from_origin(void **state)
{
    source s;
    size_t f, i;
    (void)state;
    make_lamp(&s);
    for (f = 0; f < s.frames; f++)
        for (i = 0; i < s.n; i++)
            at(&s, f, i)[0] += 1.0e6f;
    s.moved[1] = 0; /* a move of the shape may now be a step off: not checked */
    {
        md2_model *st = build(&s, MD2_QUANTIZE_STABLE);
        size_t g;
        for (f = 0; f < LAMP_FRAMES; f++)
            for (g = f + 1; g < LAMP_FRAMES; g++)
                for (i = 0; i < s.n; i++) {
                    float a[3], b[3];
                    if (memcmp(at(&s, f, i), at(&s, g, i), 12) != 0)
                        continue;
                    decode3(&st->frames[f], i, a);
                    decode3(&st->frames[g], i, b);
                    assert_memory_equal(a, b, 12);
                }
        md2_free(st);
    }
    source_free(&s);
}

/* md2_lerp() between keyframes that hold a position gives that position,
 * bit for bit, at every t: every byte value on every axis, transforms of
 * many magnitudes, t at 4097 even steps, powers of two and random floats.
 * (fl(fl((1 - t) * a) + fl(t * a)) is not always a: about 8% of random
 * (a, t) pairs are an ulp off, so the library keeps a where both
 * keyframes decode to it.) */
static void test_lerp_keeps_held(void **state)
{
    enum { N = 256 };
    md2_frame frames[2];
    md2_vertex verts[2][N];
    md2_model m;
    float *out = (float *)malloc(N * 3 * sizeof(float)), key[N][3];
    uint32_t rng = 12345u;
    int trial, j;
    size_t i;
    (void)state;
    assert_non_null(out);
    memset(&m, 0, sizeof m);
    memset(frames, 0, sizeof frames);
    m.num_vertices = N;
    m.num_frames = 2;
    m.frames = frames;
    for (trial = 0; trial < 12; trial++) {
        int k;
        for (k = 0; k < 3; k++) {
            rng = rng * 1664525u + 1013904223u;
            frames[0].scale[k] = ldexpf((float)(rng >> 8) / 16777216.0f + 0.5f, trial - 8 + k);
            rng = rng * 1664525u + 1013904223u;
            frames[0].translate[k] = ldexpf((float)(rng >> 8) / 16777216.0f - 0.5f, 2 * trial - 6);
        }
        frames[1] = frames[0];
        for (i = 0; i < N; i++) {
            verts[0][i].v[0] = (uint8_t)i;
            verts[0][i].v[1] = (uint8_t)(255 - i);
            verts[0][i].v[2] = (uint8_t)((i * 7) & 255);
            verts[0][i].normal = (uint8_t)(i % MD2_NUM_NORMALS);
            verts[1][i] = verts[0][i];
        }
        frames[0].vertices = verts[0];
        frames[1].vertices = verts[1];
        for (i = 0; i < N; i++)
            for (k = 0; k < 3; k++)
                key[i][k] = decode(&frames[0], i, k);
        for (j = 0; j < 4097 + 24 + 512; j++) {
            float t;
            if (j <= 4096)
                t = (float)j / 4096.0f;
            else if (j < 4097 + 24)
                t = ldexpf(1.0f, -(j - 4096));
            else {
                rng = rng * 1664525u + 1013904223u;
                t = (float)(rng >> 8) / 16777216.0f;
            }
            assert_int_equal(md2_lerp(&m, 0, 1, t, out, 0, NULL, 0), MD2_OK);
            assert_memory_equal(out, key, sizeof key);
        }
    }
    free(out);
}

/* On stable grids: a vertex held between consecutive keyframes, whose
 * bytes and transforms differ, stays exactly where it is in between; the
 * player's box contains every pose. */
static void test_lerp_on_stable_grids(void **state)
{
    source s;
    md2_model *st;
    float *out;
    size_t f, i, checked = 0;
    int j;
    (void)state;
    make_lamp(&s);
    st = build(&s, MD2_QUANTIZE_STABLE);
    out = (float *)malloc(s.n * 3 * sizeof(float));
    assert_non_null(out);
    for (f = 1; f < LAMP_FRAMES; f++)
        for (j = 1; j < 64; j++) {
            float t = (float)j / 64.0f + 1e-3f * (float)(j % 5);
            assert_int_equal(md2_lerp(st, (uint32_t)(f - 1), (uint32_t)f, t, out, 0, NULL, 0),
                             MD2_OK);
            for (i = 0; i < s.n; i++) {
                float a[3];
                if (memcmp(at(&s, f - 1, i), at(&s, f, i), 12) != 0)
                    continue;
                decode3(&st->frames[f], i, a);
                assert_memory_equal(out + 3 * i, a, 12);
                checked++;
            }
        }
    assert_true(checked > 0);
    /* and md2_player_bounds() still contains the pose it shows */
    {
        md2_player pl;
        md2_anim idle;
        memset(&idle, 0, sizeof idle);
        idle.first = 0;
        idle.last = LAMP_FRAMES - 1;
        idle.fps = 24.0f;
        idle.loop = 1;
        md2_player_init(&pl);
        assert_int_equal(md2_player_play(&pl, &idle, MD2_PLAY_LOOP, 1.0f), MD2_OK);
        for (j = 0; j < 200; j++) {
            float lo[3], hi[3];
            int k;
            (void)md2_player_advance(&pl, 0.0137);
            assert_int_equal(md2_player_pose(&pl, st, out, 0, NULL, 0), MD2_OK);
            assert_int_equal(md2_player_bounds(&pl, st, lo, hi), MD2_OK);
            for (i = 0; i < s.n; i++)
                for (k = 0; k < 3; k++)
                    assert_true(out[3 * i + k] >= lo[k] && out[3 * i + k] <= hi[k]);
        }
    }
    free(out);
    md2_free(st);
    source_free(&s);
}

static void *fail_alloc(void *user, size_t size)
{
    (void)user;
    (void)size;
    return NULL;
}

static void never_free(void *user, void *p)
{
    (void)user;
    assert_null(p);
}

/* The score counts one-step flickers of a vertex whose neighbours hold
 * still, and nothing else. */
static void test_wobble_score_counts(void **state)
{
    md2_frame frames[3];
    md2_vertex verts[3][4];
    md2_triangle tri[2];
    md2_model m;
    size_t count = 99;
    int f, i, k;
    (void)state;
    memset(&m, 0, sizeof m);
    memset(frames, 0, sizeof frames);
    memset(tri, 0, sizeof tri);
    tri[0].vertex[0] = 0, tri[0].vertex[1] = 1, tri[0].vertex[2] = 2;
    tri[1].vertex[0] = 3, tri[1].vertex[1] = 3, tri[1].vertex[2] = 3; /* vertex 3 alone */
    for (f = 0; f < 3; f++) {
        for (k = 0; k < 3; k++) {
            frames[f].scale[k] = 0.25f;
            frames[f].translate[k] = -10.0f;
        }
        for (i = 0; i < 4; i++)
            for (k = 0; k < 3; k++)
                verts[f][i].v[k] = (uint8_t)(40 + 10 * i + k);
        frames[f].vertices = verts[f];
    }
    verts[1][0].v[1]++;    /* vertex 0 flickers a step in frame 1: 2 pairs */
    verts[2][3].v[2] += 5; /* vertex 3 moves 5 steps: no wobble */
    m.num_vertices = 4;
    m.num_frames = 3;
    m.num_triangles = 2;
    m.triangles = tri;
    m.frames = frames;
    assert_int_equal(md2_wobble_score(&m, NULL, &count), MD2_OK);
    assert_int_equal(count, 2);
    verts[1][1].v[0]++; /* its neighbour moves too: neither counts */
    assert_int_equal(md2_wobble_score(&m, NULL, &count), MD2_OK);
    assert_int_equal(count, 0);
    verts[2][3].v[2] -= 4; /* vertex 3, alone in a degenerate triangle, a step off: counts */
    assert_int_equal(md2_wobble_score(&m, NULL, &count), MD2_OK);
    assert_int_equal(count, 1);
    {
        md2_allocator none;
        none.alloc = fail_alloc;
        none.free = never_free;
        none.user = NULL;
        count = 7;
        assert_int_equal(md2_wobble_score(&m, &none, &count), MD2_ERR_OUT_OF_MEMORY);
        assert_int_equal(count, 0);
    }
    frames[2].vertices = NULL; /* a frame without its vertices */
    assert_int_equal(md2_wobble_score(&m, NULL, &count), MD2_ERR_INVALID_ARGUMENT);
    frames[2].vertices = verts[2];
    tri[1].vertex[2] = 4; /* out of range */
    assert_int_equal(md2_wobble_score(&m, NULL, &count), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(count, 0);
    assert_int_equal(md2_wobble_score(NULL, NULL, &count), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_wobble_score(&m, NULL, NULL), MD2_ERR_INVALID_ARGUMENT);
}

/* md2_rebuild() with MD2_QUANTIZE_STABLE repairs a per-frame file from its
 * decoded frames: the score drops, held vertices hold, the error stays
 * within a step and a half of the old grid. */
static void test_repair(void **state)
{
    source s;
    md2_model *pf, *fixed;
    md2_build_options o;
    md2_diagnostic d;
    size_t before, after, f, i;
    double worst = 0.0;
    (void)state;
    make_lamp(&s);
    pf = build(&s, MD2_QUANTIZE_PER_FRAME);
    memset(&o, 0, sizeof o);
    o.quantize = MD2_QUANTIZE_STABLE;
    o.error = &d;
    assert_int_equal(md2_rebuild(pf, &o, &fixed), MD2_OK);
    assert_int_equal(md2_wobble_score(pf, NULL, &before), MD2_OK);
    assert_int_equal(md2_wobble_score(fixed, NULL, &after), MD2_OK);
    for (f = 0; f < s.frames; f++)
        for (i = 0; i < s.n; i++) {
            int k;
            for (k = 0; k < 3; k++) {
                double e = fabs((double)decode(&fixed->frames[f], i, k) -
                                decode(&pf->frames[f], i, k)) / pf->frames[f].scale[k];
                if (pf->frames[f].scale[k] > 0.0f && e > worst)
                    worst = e;
            }
        }
    print_message("lamp, per-frame boxes: wobble score %lu, repaired %lu; held vertices move up to "
                  "%.4f, repaired %.4f; largest change %.3f old steps\n",
                  (unsigned long)before, (unsigned long)after, held_drift(pf, &s),
                  held_drift(fixed, &s), worst);
    assert_true(after <= before);
    assert_true(held_drift(fixed, &s) < held_drift(pf, &s));
    assert_true(worst <= 2.0);
    /* the names and the frames' count kept; no flags: still byte for byte */
    assert_int_equal(fixed->num_frames, pf->num_frames);
    for (f = 0; f < s.frames; f++)
        assert_string_equal(fixed->frames[f].name, pf->frames[f].name);
    md2_free(fixed);
    md2_free(pf);
    source_free(&s);
}

static void test_quantize_option_errors(void **state)
{
    source s;
    md2_build_input in;
    md2_build_options o;
    md2_diagnostic d;
    md2_model *m = NULL;
    (void)state;
    make_lamp(&s);
    in = input_of(&s);
    memset(&o, 0, sizeof o);
    o.error = &d;
    o.quantize = MD2_QUANTIZE_COUNT_;
    assert_int_equal(md2_build(&in, &o, &m), MD2_ERR_INVALID_ARGUMENT);
    assert_null(m);
    assert_string_equal(d.field, "quantize");
    o.quantize = MD2_QUANTIZE_STABLE;
    o.flags = MD2_BUILD_SHARED_BOX;
    assert_int_equal(md2_build(&in, &o, &m), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "quantize");
    o.quantize = MD2_QUANTIZE_SHARED; /* the same thing twice: fine */
    assert_int_equal(md2_build(&in, &o, &m), MD2_OK);
    md2_free(m);
    source_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lamp_rules),
        cmocka_unit_test(test_blender_walk_rules),
        cmocka_unit_test(test_far_from_origin),
        cmocka_unit_test(test_lerp_keeps_held),
        cmocka_unit_test(test_lerp_on_stable_grids),
        cmocka_unit_test(test_wobble_score_counts),
        cmocka_unit_test(test_repair),
        cmocka_unit_test(test_quantize_option_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
