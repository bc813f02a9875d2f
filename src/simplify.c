/*
 * Levels of detail (<md2/simplify.h>, docs/simplify.md): one sequence of
 * half-edge collapses for every keyframe, chosen by quadric error over
 * representative poses of the keyframes.
 *
 * The work, in order: every check of the input; the frames' steps copied
 * vertex-major (bytes: the flip tests decode them as they go); at most
 * POSES representative frames, found in one pass over the decoded frames,
 * each standing for the frames nearest to it; per vertex and pose
 * a quadric of the planes of its triangles (kept relative to the vertex's
 * own position in that pose, so that float keeps its precision where the
 * collapses happen) with the area it stands for; the edges in a hash
 * table, and a heap of their two directions by cost; collapses until the
 * smallest target, each tested when it comes to the top (the rules of the
 * surface and the skin, and the facing of the triangles it moves in every
 * keyframe) and logged (which corners moved where), so that any prefix of
 * the sequence can be made again; then each level: its prefix made,
 * measured (point to surface, every frame) and turned into a model by
 * md2_rebuild() (GL commands).
 *
 * The cost of merging v into u is the error of v's quadrics at u's
 * positions over the area they stand for (meshoptimizer's normalisation:
 * a mean squared distance), plus the same for the merged quadrics (which
 * carry the error u already has, so that collapses spread over the
 * surface instead of piling into one vertex). A collapse changes the
 * quadrics of u alone: the costs of u's edges are computed again, and the
 * edges of v move to u; nothing else. A collapse refused by its test
 * waits until something around its vertex changes.
 *
 * Time: O(T log T) whatever the valence. A vertex with more than HUB
 * neighbours (never in real models; a fan of thousands of triangles)
 * does not move until it has fewer (moving it moves all its triangles: a
 * hub that moved again and again would cost its valence each time), has
 * the costs of its edges brought up to date when they come to the top
 * rather than after each collapse into it, and is looked at again after a
 * number of changes around it proportional to its valence; any vertex's
 * refused collapses are tried again at most TRIES at a time. So no step
 * costs more than a constant (HUB) times the frames, and the looks at a
 * vertex are paid for by the changes around it.
 *
 * Every float operation that decides anything (costs, normals, distances)
 * is rounded to float on every host (round.h), sums run in a fixed order
 * and ties go to the lower index: the same collapses, and so the same
 * bytes, on x86-64, aarch64, s390x and x87.
 *
 * SPDX-License-Identifier: MIT
 */
#include "diag.h"
#include "round.h"

#include "md2/build.h"
#include "md2/simplify.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define NONE 0xFFFFFFFFu
#define ALIVE 0xFFFFFFFFu
#ifndef POSES
#define POSES 16 /* representative poses for the quadrics */
#endif
#define HUB 64   /* neighbours above which a vertex does not move, and is brought up to date lazily */
#define TRIES 16 /* refused tests of one vertex before its other collapses wait */

/* A quadric relative to its vertex's position t = x - p: t^T A t + 2 b.t + c,
 * and the area it stands for: A (xx, yy, zz, xy, xz, yz), b (x, y, z), c, w. */
#define QN 11
#define QC 9
#define QW 10

typedef struct change {
    uint32_t corner, vertex, texcoord;
} change;

/* One neighbour of the vertex being looked at: the triangles on the edge
 * to it (the first two), and whether the edge is special. */
typedef struct nbr {
    uint32_t vertex;
    uint32_t count;      /* triangles on the edge */
    uint32_t tri[2];     /* corners (3 * triangle + k) of the vertex in the first two */
    int special;         /* border, seam or an edge of 3 or more triangles */
} nbr;

/* An edge of the live triangles, a < b (a free one: a is NONE, b the next
 * free). Its two directions are slots 2e (a merges into b) and 2e + 1 (b
 * into a). */
typedef struct sedge {
    uint32_t a, b, ntri;
} sedge;

enum { SLOT_IDLE = 0, SLOT_HEAP, SLOT_PARKED };

/* An entry of the heap: a slot and its cost (kept beside it, so that the
 * heap's comparisons stay in the heap's memory). */
typedef struct hent {
    float key;
    uint32_t slot;
} hent;

typedef struct sjob {
    const md2_model *m;
    md2_allocator a;
    md2_diagnostic *err;
    size_t V, F, T;
    size_t K;            /* representative poses (POSES at most) */
    uint32_t *rep;       /* K: their frames */
    float *weight;       /* K: how many frames each stands for */
    /* the frames, vertex-major: vertex v's steps in frame f at v * F + f,
     * one array an axis (the flip tests decode them as they go, as
     * md2_decode_frame() does: a quarter of the memory of floats) */
    unsigned char *bx, *by, *bz;
    float *fsx, *fsy, *fsz, *ftx, *fty, *ftz; /* F each: each frame's transform */
    float *frame;        /* V * 3: one decoded frame (the measure, the poses) */
    float *pos0;         /* V * 3: frame 0 */
    float *quad;         /* V * K * QN: vertex v, pose k at (v * K + k) * QN */
    float *rpos;         /* V * K * 3: vertex v's position in pose k at (v * K + k) * 3 */
    float *qc, *qw;      /* V: c and w summed over the poses */
    uint32_t *ver;       /* V: bumped when the vertex's quadrics change */
    uint32_t *init_v, *init_s; /* 3T: corners after dropping degenerate triangles */
    uint32_t *tv, *ts;   /* 3T: corners now */
    uint32_t *death;     /* T: the step (1-based) that removed it; ALIVE; 0: dropped */
    uint32_t *next;      /* 3T: corner lists of the vertices */
    uint32_t *head, *tail; /* V */
    uint32_t *ntris;     /* V: live triangles at the vertex */
    uint32_t *ndeg;      /* V: live edges at the vertex */
    unsigned char *locked; /* V */
    uint32_t *gone_step, *gone_into; /* V: when and into what a vertex was merged */
    uint32_t *changes, *fails; /* V: changes around it, refused tests since it was last woken */
    uint32_t *nparked;   /* V: its directions that wait */
    /* edges: a pool and an open-addressing table (linear probing) */
    sedge *edge;
    size_t num_edges;    /* pool size */
    uint32_t free_edge;
    uint32_t *table;
    size_t table_mask;
    /* slots (directions of edges): 2 * num_edges of each */
    float *key, *serr;   /* cost, and the error of the source's quadrics (key's part) */
    unsigned char *sexact; /* serr is the sum over every pose (else pose 0's alone: a lower bound) */
    uint32_t *sver, *dver; /* ver of the source when serr was made, of the target for key */
    uint32_t *heap_pos;
    unsigned char *state;
    hent *heap;          /* the heap: 2 * num_edges entries at most */
    size_t heap_n;
    /* the log */
    change *log;
    size_t log_n, log_cap;
    uint32_t *log_end;   /* V + 1: log entries made by steps 1 .. s */
    uint32_t *tris_after;/* V + 1: triangles left after s steps */
    size_t steps, live;
    /* scratch for looking at one vertex */
    uint32_t *fan_a, *fan_b; /* T each */
    nbr *nb;             /* V */
    uint32_t *nbidx;     /* V: position in nb, valid where mark is the stamp */
    uint32_t *mark;      /* V: stamps */
    uint32_t *todo;      /* 2V: the neighbours of v and of u, in a collapse */
    uint32_t stamp;
    size_t used_vertices; /* vertices of the kept source triangles */
    /* cppcheck-suppress unusedStructMember ; read by the AVX2 flip test, in a configuration cppcheck does not check */
    int avx2;            /* the flip test's AVX2 build may run */
    float diag;          /* of the box of every frame */
} sjob;

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */
/* ------------------------------------------------------------------------ */

static void *alloc_n(sjob *j, size_t count, size_t size, int *ok)
{
    void *p;
    if (!*ok)
        return NULL;
    if (count == 0)
        count = 1;
    if (count > (size_t)-1 / size) {
        *ok = 0;
        return NULL;
    }
    p = j->a.alloc(j->a.user, count * size);
    if (!p)
        *ok = 0;
    return p;
}

static void release(sjob *j, void *p)
{
    if (p)
        j->a.free(j->a.user, p);
}

static void release_all(sjob *j)
{
    void *all[] = {j->rep, j->weight, j->bx, j->by, j->bz, j->fsx, j->fsy, j->fsz, j->ftx, j->fty, j->ftz,
                   j->frame,
                   j->pos0, j->rpos, j->quad, j->qc, j->qw, j->ver, j->init_v,
                   j->init_s, j->tv, j->ts, j->death, j->next, j->head, j->tail, j->ntris,
                   j->ndeg, j->locked, j->gone_step, j->gone_into, j->changes, j->fails, j->nparked,
                   j->edge, j->table, j->key, j->serr, j->sexact, j->sver, j->dver, j->heap_pos,
                   j->state, j->heap, j->log, j->log_end, j->tris_after, j->fan_a, j->fan_b,
                   j->nb, j->nbidx, j->mark, j->todo};
    size_t i;
    for (i = 0; i < sizeof all / sizeof all[0]; i++)
        release(j, all[i]);
}

/* ------------------------------------------------------------------------ */
/* Float arithmetic, one rounding an operation                               */
/* ------------------------------------------------------------------------ */

static float dot3(const float *a, const float *b)
{
    return md2__add(md2__add(md2__mul(a[0], b[0]), md2__mul(a[1], b[1])), md2__mul(a[2], b[2]));
}

static void sub3(float *out, const float *a, const float *b)
{
    out[0] = md2__sub(a[0], b[0]);
    out[1] = md2__sub(a[1], b[1]);
    out[2] = md2__sub(a[2], b[2]);
}

static void cross3(float *out, const float *a, const float *b)
{
    out[0] = md2__sub(md2__mul(a[1], b[2]), md2__mul(a[2], b[1]));
    out[1] = md2__sub(md2__mul(a[2], b[0]), md2__mul(a[0], b[2]));
    out[2] = md2__sub(md2__mul(a[0], b[1]), md2__mul(a[1], b[0]));
}

/* (b - a) x (c - a) */
static void normal3(float *out, const float *a, const float *b, const float *c)
{
    float e1[3], e2[3];
    sub3(e1, b, a);
    sub3(e2, c, a);
    cross3(out, e1, e2);
}

static float sqrt_f(float x)
{
    return md2__to_float(sqrtf(x));
}

/* Squared distance from p to triangle abc (the closest point by the
 * Voronoi regions of the triangle's vertices, edges and face). */
static float dist2_point_triangle(const float *p, const float *a, const float *b, const float *c)
{
    float ab[3], ac[3], ap[3], bp[3], cp[3], q[3], d[3];
    float d1, d2, d3, d4, d5, d6, va, vb, vc, v, w, denom;
    int i;

    sub3(ab, b, a);
    sub3(ac, c, a);
    sub3(ap, p, a);
    d1 = dot3(ab, ap);
    d2 = dot3(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f)
        return dot3(ap, ap);
    sub3(bp, p, b);
    d3 = dot3(ab, bp);
    d4 = dot3(ac, bp);
    if (d3 >= 0.0f && d4 <= d3)
        return dot3(bp, bp);
    vc = md2__sub(md2__mul(d1, d4), md2__mul(d3, d2));
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
        v = md2__div(d1, md2__sub(d1, d3));
        for (i = 0; i < 3; i++)
            q[i] = md2__mul_add(v, ab[i], a[i]);
        sub3(d, p, q);
        return dot3(d, d);
    }
    sub3(cp, p, c);
    d5 = dot3(ab, cp);
    d6 = dot3(ac, cp);
    if (d6 >= 0.0f && d5 <= d6)
        return dot3(cp, cp);
    vb = md2__sub(md2__mul(d5, d2), md2__mul(d1, d6));
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
        w = md2__div(d2, md2__sub(d2, d6));
        for (i = 0; i < 3; i++)
            q[i] = md2__mul_add(w, ac[i], a[i]);
        sub3(d, p, q);
        return dot3(d, d);
    }
    va = md2__sub(md2__mul(d3, d6), md2__mul(d5, d4));
    if (va <= 0.0f && md2__sub(d4, d3) >= 0.0f && md2__sub(d5, d6) >= 0.0f) {
        float bc[3];
        w = md2__div(md2__sub(d4, d3), md2__add(md2__sub(d4, d3), md2__sub(d5, d6)));
        sub3(bc, c, b);
        for (i = 0; i < 3; i++)
            q[i] = md2__mul_add(w, bc[i], b[i]);
        sub3(d, p, q);
        return dot3(d, d);
    }
    denom = md2__add(md2__add(va, vb), vc);
    if (!(denom > 0.0f)) /* degenerate: the nearest of its corners will do */
        return dot3(ap, ap);
    v = md2__div(vb, denom);
    w = md2__div(vc, denom);
    for (i = 0; i < 3; i++)
        q[i] = md2__add(md2__mul_add(v, ab[i], a[i]), md2__mul(w, ac[i]));
    sub3(d, p, q);
    return dot3(d, d);
}

/* Vertex v in the frame decoded into j->frame, in frame 0, in pose k. */
static const float *FP(const sjob *j, uint32_t v)
{
    return j->frame + (size_t)v * 3;
}

static const float *P0(const sjob *j, uint32_t v)
{
    return j->pos0 + (size_t)v * 3;
}

static const float *RP(const sjob *j, size_t k, uint32_t v)
{
    return j->rpos + ((size_t)v * j->K + k) * 3;
}

/* ------------------------------------------------------------------------ */
/* Quadrics                                                                  */
/* ------------------------------------------------------------------------ */

/* Adds w * n n^T to quadric q. */
static void quad_add_plane(float *q, const float *n, float w)
{
    float wn[3];
    wn[0] = md2__mul(w, n[0]);
    wn[1] = md2__mul(w, n[1]);
    wn[2] = md2__mul(w, n[2]);
    q[0] = md2__mul_add(wn[0], n[0], q[0]);
    q[1] = md2__mul_add(wn[1], n[1], q[1]);
    q[2] = md2__mul_add(wn[2], n[2], q[2]);
    q[3] = md2__mul_add(wn[0], n[1], q[3]);
    q[4] = md2__mul_add(wn[0], n[2], q[4]);
    q[5] = md2__mul_add(wn[1], n[2], q[5]);
}

/* A t (into at) for quadric q. */
static void quad_apply(float *at, const float *q, const float *t)
{
    at[0] = md2__add(md2__add(md2__mul(q[0], t[0]), md2__mul(q[3], t[1])), md2__mul(q[4], t[2]));
    at[1] = md2__add(md2__add(md2__mul(q[3], t[0]), md2__mul(q[1], t[1])), md2__mul(q[5], t[2]));
    at[2] = md2__add(md2__add(md2__mul(q[4], t[0]), md2__mul(q[5], t[1])), md2__mul(q[2], t[2]));
}

/* t^T A t + 2 b.t */
static float quad_eval(const float *q, const float *t)
{
    float at[3], g[3];
    int i;
    quad_apply(at, q, t);
    for (i = 0; i < 3; i++)
        g[i] = md2__add(at[i], md2__add(q[6 + i], q[6 + i]));
    return dot3(t, g);
}

/* The representative poses: K frames by farthest-point sampling of the
 * frames' shapes (frame 0 first, then each time the frame farthest from
 * every pose chosen so far, by the sum of squared distances of at most
 * SAMPLES vertices spread over the model, summed in 8 lanes; ties to the
 * lower frame), each weighted by the frames nearest to it, so that a cost
 * summed over the poses stands for the sum over every frame. Returns 0
 * when out of memory. */
#define SAMPLES 64
static int poses(sjob *j)
{
    size_t F = j->F, V = j->V, K = j->K, stride = V > SAMPLES ? (V + SAMPLES - 1) / SAMPLES : 1;
    size_t f, k, i, ns = (V + stride - 1) / stride, np = (ns + 7) / 8 * 8;
    int ok = 1, c;
    float *best, *smp;
    uint32_t *near;
    if (K == 0)
        return 1; /* no frame: no pose (and no quadric) */
    best = (float *)alloc_n(j, F, sizeof(float), &ok);
    near = (uint32_t *)alloc_n(j, F, sizeof(uint32_t), &ok);
    smp = (float *)alloc_n(j, F * np, 3 * sizeof(float), &ok);
    if (!ok) {
        release(j, best);
        release(j, near);
        release(j, smp);
        return 0;
    }
    /* the samples of frame f: x at smp[(3 f + 0) np + i], then y, z (the
     * padding zero) */
    for (f = 0; f < F; f++) {
        best[f] = FLT_MAX;
        near[f] = 0;
        (void)md2_decode_frame(j->m, (uint32_t)f, j->frame, 0, NULL, 0);
        for (c = 0; c < 3; c++)
            for (i = 0; i < np; i++)
                smp[(3 * f + (size_t)c) * np + i] =
                    i < ns ? FP(j, (uint32_t)(i * stride))[c] : 0.0f;
    }
    j->rep[0] = 0;
    for (k = 0;; k++) {
        size_t far = 0;
        const float *r = smp + 3 * j->rep[k] * np;
        for (f = 0; f < F; f++) {
            const float *a = smp + 3 * f * np;
            float lane[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}, d;
            size_t l;
            for (i = 0; i < np; i += 8)
                for (l = 0; l < 8; l++) {
                    float ex = md2__sub(a[i + l], r[i + l]);
                    float ey = md2__sub(a[np + i + l], r[np + i + l]);
                    float ez = md2__sub(a[2 * np + i + l], r[2 * np + i + l]);
                    float dd = md2__add(md2__add(md2__mul(ex, ex), md2__mul(ey, ey)), md2__mul(ez, ez));
                    lane[l] = md2__add(lane[l], dd);
                }
            d = md2__add(md2__add(md2__add(lane[0], lane[1]), md2__add(lane[2], lane[3])),
                         md2__add(md2__add(lane[4], lane[5]), md2__add(lane[6], lane[7])));
            if (d < best[f]) {
                best[f] = d;
                near[f] = (uint32_t)k;
            }
            if (best[f] > best[far])
                far = f;
        }
        if (k + 1 == K)
            break;
        j->rep[k + 1] = (uint32_t)far;
    }
    for (k = 0; k < K; k++)
        j->weight[k] = 0.0f;
    for (f = 0; f < F; f++)
        j->weight[near[f]] = md2__add(j->weight[near[f]], 1.0f);
    release(j, best);
    release(j, near);
    release(j, smp);
    return 1;
}

/* The quadrics of every vertex: for each kept triangle and pose, its plane
 * weighted by its area and the pose's weight, added to its three corners
 * (relative to each, the plane passes through it: b = 0, c = 0), with that
 * area; for each border or seam edge (border[corner] set: open in the mesh
 * as it is drawn), the plane through it perpendicular to its triangle,
 * weighted by the edge's length squared, with the edge's length as its
 * area, so that borders and seams keep their shape. */
static void quadrics(sjob *j, const unsigned char *border)
{
    size_t t, k2;
    int k;
    memset(j->quad, 0, j->V * j->K * QN * sizeof(float));
    for (t = 0; t < j->T; t++) {
        const uint32_t *c = j->init_v + 3 * t;
        if (j->death[t] == 0)
            continue;
        for (k2 = 0; k2 < j->K; k2++) {
            float n[3], len2, len, w = j->weight[k2], area;
            normal3(n, RP(j, k2, c[0]), RP(j, k2, c[1]), RP(j, k2, c[2]));
            len2 = dot3(n, n);
            if (!(len2 > 0.0f) || !(len2 <= FLT_MAX))
                continue;
            len = sqrt_f(len2);
            area = md2__mul(md2__mul(0.5f, w), len);
            for (k = 0; k < 3; k++) {
                float *q = j->quad + ((size_t)c[k] * j->K + k2) * QN;
                quad_add_plane(q, n, md2__div(md2__mul(0.5f, w), len));
                q[QW] = md2__add(q[QW], area);
            }
            for (k = 0; k < 3; k++) {
                float e[3], mvec[3], el;
                uint32_t a = c[k], b = c[(k + 1) % 3];
                float *qa = j->quad + ((size_t)a * j->K + k2) * QN;
                float *qb = j->quad + ((size_t)b * j->K + k2) * QN;
                if (!border[3 * t + (size_t)k])
                    continue;
                sub3(e, RP(j, k2, b), RP(j, k2, a));
                cross3(mvec, e, n);
                el = md2__mul(w, sqrt_f(dot3(e, e)));
                quad_add_plane(qa, mvec, md2__div(w, len2));
                quad_add_plane(qb, mvec, md2__div(w, len2));
                qa[QW] = md2__add(qa[QW], el);
                qb[QW] = md2__add(qb[QW], el);
            }
        }
    }
}

/* c and w of vertex v summed over the poses, in order. */
static void quad_sums(sjob *j, uint32_t v)
{
    const float *q = j->quad + (size_t)v * j->K * QN;
    float c = 0.0f, w = 0.0f;
    size_t k;
    for (k = 0; k < j->K; k++, q += QN) {
        c = md2__add(c, q[QC]);
        w = md2__add(w, q[QW]);
    }
    j->qc[v] = c;
    j->qw[v] = w;
}

/* v's quadric of pose k evaluated at u's position in that pose (at least 0). */
static float quad_at(const sjob *j, const float *q, size_t k, uint32_t v, uint32_t u)
{
    float t[3], e;
    sub3(t, j->rpos + ((size_t)u * j->K + k) * 3, j->rpos + ((size_t)v * j->K + k) * 3);
    e = md2__add(quad_eval(q, t), q[QC]);
    return e > 0.0f ? e : 0.0f;
}

/* The error of v's quadrics at u's positions, summed over the poses. */
static float err_of(const sjob *j, uint32_t v, uint32_t u)
{
    const float *q = j->quad + (size_t)v * j->K * QN;
    float e = 0.0f;
    size_t k;
    for (k = 0; k < j->K; k++, q += QN)
        e = md2__add(e, quad_at(j, q, k, v, u));
    return e;
}

/* A lower bound of err_of(v, u) (every pose's error is at least 0, and
 * float addition of such terms does not decrease): pose 0's alone, the
 * first term of its sum. */
static float err_first(const sjob *j, uint32_t v, uint32_t u)
{
    return j->K ? md2__add(0.0f, quad_at(j, j->quad + (size_t)v * j->K * QN, 0, v, u)) : 0.0f;
}

/* The cost of merging v into u, whose v-part of the error is e: e over v's
 * area, plus the merged error (e and u's own) over the merged area. */
static float key_of(const sjob *j, uint32_t v, uint32_t u, float e)
{
    float wv = j->qw[v], wm = md2__add(j->qw[v], j->qw[u]);
    float own = wv > 0.0f ? md2__div(e, wv) : 0.0f;
    float merged = wm > 0.0f ? md2__div(md2__add(e, j->qc[u]), wm) : 0.0f;
    return md2__add(own, merged);
}

/* u's quadrics absorb v's, moved to u's positions. */
static void quad_merge(sjob *j, uint32_t v, uint32_t u)
{
    size_t k;
    float *qv = j->quad + (size_t)v * j->K * QN;
    float *qu = j->quad + (size_t)u * j->K * QN;
    for (k = 0; k < j->K; k++, qv += QN, qu += QN) {
        float t[3], at[3], c = quad_at(j, qv, k, v, u);
        int i;
        sub3(t, j->rpos + ((size_t)u * j->K + k) * 3, j->rpos + ((size_t)v * j->K + k) * 3);
        quad_apply(at, qv, t);
        for (i = 0; i < 6; i++)
            qu[i] = md2__add(qu[i], qv[i]);
        for (i = 0; i < 3; i++)
            qu[6 + i] = md2__add(qu[6 + i], md2__add(at[i], qv[6 + i]));
        qu[QC] = md2__add(qu[QC], c);
        qu[QW] = md2__add(qu[QW], qv[QW]);
    }
    quad_sums(j, u);
    j->ver[u]++;
}

/* ------------------------------------------------------------------------ */
/* Edges: a pool, and a table from (a, b) to the edge                        */
/* ------------------------------------------------------------------------ */

static size_t edge_hash(const sjob *j, uint32_t a, uint32_t b)
{
    uint32_t h = a * 0x9E3779B1u + b * 0x85EBCA6Bu;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return (size_t)h & j->table_mask;
}

/* The edge of a and b, or NONE. */
static uint32_t edge_find(const sjob *j, uint32_t a, uint32_t b)
{
    size_t i;
    if (a > b) {
        uint32_t x = a;
        a = b;
        b = x;
    }
    for (i = edge_hash(j, a, b); j->table[i] != NONE; i = (i + 1) & j->table_mask) {
        const sedge *e = &j->edge[j->table[i]];
        if (e->a == a && e->b == b)
            return j->table[i];
    }
    return NONE;
}

/* The source and the target of slot s. */
static uint32_t slot_src(const sjob *j, uint32_t s)
{
    return s & 1u ? j->edge[s >> 1].b : j->edge[s >> 1].a;
}

static uint32_t slot_dst(const sjob *j, uint32_t s)
{
    return s & 1u ? j->edge[s >> 1].a : j->edge[s >> 1].b;
}

/* The slot that merges v into u (an edge of the two: e). */
static uint32_t slot_of(const sjob *j, uint32_t e, uint32_t v)
{
    return 2u * e + (j->edge[e].a == v ? 0u : 1u);
}

/* The edge of a and b, made if there is none (the pool always has room: a
 * collapse drops every edge of the vertex that goes before it makes new
 * ones, fewer than it dropped). */
static uint32_t edge_add(sjob *j, uint32_t a, uint32_t b)
{
    uint32_t e = edge_find(j, a, b), s;
    size_t i;
    if (e != NONE)
        return e;
    if (a > b) {
        uint32_t x = a;
        a = b;
        b = x;
    }
    e = j->free_edge;
    j->free_edge = j->edge[e].b;
    j->edge[e].a = a;
    j->edge[e].b = b;
    j->edge[e].ntri = 0;
    for (i = edge_hash(j, a, b); j->table[i] != NONE; i = (i + 1) & j->table_mask) {
    }
    j->table[i] = e;
    for (s = 2u * e; s < 2u * e + 2u; s++) {
        j->state[s] = SLOT_IDLE;
        j->sver[s] = j->dver[s] = NONE; /* no cost yet */
    }
    j->ndeg[a]++;
    j->ndeg[b]++;
    return e;
}

/* ------------------------------------------------------------------------ */
/* The heap of slots by (cost, source, target)                               */
/* ------------------------------------------------------------------------ */

/* (cost, source, target) of a before b's */
static int heap_less(const sjob *j, const hent *a, const hent *b)
{
    uint32_t va, vb;
    if (a->key != b->key)
        return a->key < b->key;
    va = slot_src(j, a->slot);
    vb = slot_src(j, b->slot);
    if (va != vb)
        return va < vb;
    return slot_dst(j, a->slot) < slot_dst(j, b->slot);
}

static void heap_place(sjob *j, size_t i, hent e)
{
    j->heap[i] = e;
    j->heap_pos[e.slot] = (uint32_t)i;
}

static void heap_down(sjob *j, size_t i)
{
    hent e = j->heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= j->heap_n)
            break;
        if (c + 1 < j->heap_n && heap_less(j, &j->heap[c + 1], &j->heap[c]))
            c++;
        if (!heap_less(j, &j->heap[c], &e))
            break;
        heap_place(j, i, j->heap[c]);
        i = c;
    }
    heap_place(j, i, e);
}

/* The entry at i (its key just set) to its place. */
static void heap_fix(sjob *j, size_t i)
{
    hent e = j->heap[i];
    if (i == 0 || !heap_less(j, &e, &j->heap[(i - 1) / 2])) {
        heap_down(j, i);
        return;
    }
    while (i > 0 && heap_less(j, &e, &j->heap[(i - 1) / 2])) {
        heap_place(j, i, j->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    heap_place(j, i, e);
}

/* Slot s's entry in the heap takes its new key. */
static void heap_rekey(sjob *j, uint32_t s)
{
    j->heap[j->heap_pos[s]].key = j->key[s];
    heap_fix(j, j->heap_pos[s]);
}

static void heap_push(sjob *j, uint32_t s)
{
    hent e;
    e.key = j->key[s];
    e.slot = s;
    j->state[s] = SLOT_HEAP;
    heap_place(j, j->heap_n, e);
    j->heap_n++;
    heap_fix(j, j->heap_n - 1);
}

/* Takes slot s out of the heap (if it is there) and leaves it in state. */
static void heap_take(sjob *j, uint32_t s, unsigned char state)
{
    if ((j->state[s] == SLOT_PARKED) != (state == SLOT_PARKED)) {
        if (state == SLOT_PARKED)
            j->nparked[slot_src(j, s)]++;
        else
            j->nparked[slot_src(j, s)]--;
    }
    if (j->state[s] == SLOT_HEAP) {
        size_t i = j->heap_pos[s];
        j->heap_n--;
        if (i != j->heap_n) {
            heap_place(j, i, j->heap[j->heap_n]);
            heap_fix(j, i);
        }
    }
    j->state[s] = state;
}

/* Slot s's cost brought up to date (the source's error only where the
 * source's quadrics changed); returns 1 if it changed. */
static int slot_refresh(sjob *j, uint32_t s)
{
    uint32_t v = slot_src(j, s), u = slot_dst(j, s);
    float old = j->key[s];
    if (j->sver[s] == j->ver[v] && j->dver[s] == j->ver[u])
        return 0;
    if (j->sver[s] != j->ver[v]) {
        /* a lower bound, made exact when the slot comes to the top of the
         * heap (run()): most never do, and their other 15 poses are never
         * looked at; the keys at the top are the same, so the collapses are */
        j->serr[s] = err_first(j, v, u);
        j->sexact[s] = j->K <= 1;
        j->sver[s] = j->ver[v];
    }
    j->key[s] = key_of(j, v, u, j->serr[s]);
    j->dver[s] = j->ver[u];
    return j->key[s] != old;
}

/* Slot s up to date, and in the heap unless it waits (parked) or its source
 * never moves. */
static void slot_update(sjob *j, uint32_t s)
{
    int changed;
    if (j->locked[slot_src(j, s)])
        return;
    changed = slot_refresh(j, s);
    if (j->state[s] == SLOT_IDLE)
        heap_push(j, s);
    else if (j->state[s] == SLOT_HEAP && changed)
        heap_rekey(j, s);
}

/* Drops edge e (no triangle left on it): out of the heap and the table. */
static void edge_drop(sjob *j, uint32_t e)
{
    size_t i, k;
    heap_take(j, 2u * e, SLOT_IDLE);
    heap_take(j, 2u * e + 1u, SLOT_IDLE);
    for (i = edge_hash(j, j->edge[e].a, j->edge[e].b); j->table[i] != e;
         i = (i + 1) & j->table_mask) {
    }
    /* backward shift: entries after it that may sit at i move there */
    j->table[i] = NONE;
    for (k = (i + 1) & j->table_mask; j->table[k] != NONE; k = (k + 1) & j->table_mask) {
        const sedge *x = &j->edge[j->table[k]];
        size_t home = edge_hash(j, x->a, x->b);
        int stays = i <= k ? (home > i && home <= k) : (home > i || home <= k);
        if (!stays) {
            j->table[i] = j->table[k];
            j->table[k] = NONE;
            i = k;
        }
    }
    j->ndeg[j->edge[e].a]--;
    j->ndeg[j->edge[e].b]--;
    j->edge[e].a = NONE;
    j->edge[e].b = j->free_edge;
    j->free_edge = e;
}

/* One triangle fewer on the edge of a and b. */
static void edge_less(sjob *j, uint32_t a, uint32_t b)
{
    uint32_t e = edge_find(j, a, b);
    if (e != NONE && --j->edge[e].ntri == 0)
        edge_drop(j, e);
}

/* ------------------------------------------------------------------------ */
/* Looking at a vertex                                                       */
/* ------------------------------------------------------------------------ */

static int same_st(const sjob *j, uint32_t a, uint32_t b)
{
    const md2_texcoord *st = j->m->texcoords;
    return st[a].s == st[b].s && st[a].t == st[b].t;
}

/* The live corners of v into out (unlinking dead ones); returns how many. */
static size_t fan(sjob *j, uint32_t v, uint32_t *out)
{
    uint32_t c = j->head[v], prev = NONE;
    size_t n = 0;
    while (c != NONE) {
        uint32_t nx = j->next[c];
        if (j->death[c / 3] != ALIVE) {
            if (prev == NONE)
                j->head[v] = nx;
            else
                j->next[prev] = nx;
            if (j->tail[v] == c)
                j->tail[v] = prev;
        } else {
            out[n++] = c;
            prev = c;
        }
        c = nx;
    }
    return n;
}

static uint32_t corner_of(const sjob *j, uint32_t tri, uint32_t vertex)
{
    uint32_t k;
    for (k = 0; k < 3; k++)
        if (j->tv[3 * tri + k] == vertex)
            return 3 * tri + k;
    return NONE;
}

/* The neighbours of v (whose live corners are fanv[0 .. n)) into j->nb,
 * with the triangles of each edge (j->nbidx[w] is w's entry); returns how
 * many. Uses j->mark. */
static size_t neighbours(sjob *j, uint32_t v, const uint32_t *fanv, size_t n)
{
    size_t i, count = 0;
    int k;
    j->stamp++;
    for (i = 0; i < n; i++) {
        uint32_t tri = fanv[i] / 3;
        for (k = 0; k < 3; k++) {
            uint32_t w = j->tv[3 * tri + (uint32_t)k];
            nbr *e;
            if (w == v)
                continue;
            if (j->mark[w] != j->stamp) {
                j->mark[w] = j->stamp;
                j->nbidx[w] = (uint32_t)count;
                e = &j->nb[count++];
                e->vertex = w;
                e->count = 0;
                e->special = 0;
            } else {
                e = &j->nb[j->nbidx[w]];
            }
            if (e->count < 2)
                e->tri[e->count] = fanv[i];
            e->count++;
        }
    }
    for (i = 0; i < count; i++) {
        nbr *e = &j->nb[i];
        if (e->count != 2) {
            e->special = 1;
        } else {
            uint32_t a = e->tri[0], b = e->tri[1];
            uint32_t wa = corner_of(j, a / 3, e->vertex), wb = corner_of(j, b / 3, e->vertex);
            e->special = !same_st(j, j->ts[a], j->ts[b]) || !same_st(j, j->ts[wa], j->ts[wb]);
        }
    }
    return count;
}

/* The texcoord u's corner takes for a corner of v with texcoord st, when
 * v merges into u across edge e; NONE if no triangle of the edge says. */
static uint32_t st_map(const sjob *j, const nbr *e, uint32_t st)
{
    uint32_t i;
    for (i = 0; i < e->count && i < 2; i++) {
        uint32_t c = e->tri[i];
        if (same_st(j, j->ts[c], st))
            return j->ts[corner_of(j, c / 3, e->vertex)];
    }
    return NONE;
}

/* 1 if v may merge into its neighbour e->vertex (all but the facing test):
 * the edge is a manifold edge; v has no edge of 3 or more triangles; a
 * vertex on a border or seam moves along it only, and only where it has
 * exactly two such edges; every texcoord of v maps to one of u's by a
 * triangle of the edge, equal values to equal values; the neighbours the
 * two have in common are the edge's triangles' opposite corners (no fold);
 * no vertex loses its last triangle. O(valence of v). */
static int allowed(sjob *j, uint32_t v, const nbr *e, const uint32_t *fanv, size_t n,
                   size_t num_nb)
{
    uint32_t u = e->vertex, opp[2] = {NONE, NONE};
    size_t i, specials = 0;
    uint32_t k;

    if (e->count > 2 || e->count == 0)
        return 0;
    for (i = 0; i < num_nb; i++) {
        if (j->nb[i].count > 2)
            return 0;
        specials += j->nb[i].special ? 1u : 0u;
    }
    if (specials > 0 && (specials != 2 || !e->special))
        return 0;
    if (e->count == 2) {
        uint32_t sv0 = j->ts[e->tri[0]], sv1 = j->ts[e->tri[1]];
        uint32_t su0 = j->ts[corner_of(j, e->tri[0] / 3, u)];
        uint32_t su1 = j->ts[corner_of(j, e->tri[1] / 3, u)];
        if (same_st(j, sv0, sv1) && !same_st(j, su0, su1))
            return 0; /* one texcoord of v would go two ways */
    }
    for (i = 0; i < n; i++)
        if (st_map(j, e, j->ts[fanv[i]]) == NONE)
            return 0; /* a part of v's skin that the edge does not reach: a tear */
    /* the opposite corners of the edge's triangles keep a triangle */
    for (k = 0; k < e->count; k++) {
        const uint32_t *c = j->tv + 3 * (e->tri[k] / 3);
        uint32_t w = c[0] != u && c[0] != v ? c[0] : c[1] != u && c[1] != v ? c[1] : c[2];
        opp[k] = w;
        if (j->ntris[w] < 2)
            return 0;
    }
    if (e->count == 2 && opp[0] == opp[1])
        return 0;
    if (j->ntris[u] <= e->count && n <= e->count)
        return 0; /* nothing would be left of the two */
    /* the link condition: the neighbours of v that u has are the opposite ones */
    for (i = 0; i < num_nb; i++) {
        uint32_t w = j->nb[i].vertex;
        if (w != u && w != opp[0] && w != opp[1] && edge_find(j, u, w) != NONE)
            return 0;
    }
    return 1;
}

/* 1 if triangle a b d faces within 90 degrees of triangle s[0..2] (the
 * dot product of their normals is not negative) in every frame of
 * [f0, f1): the vertices decoded from their steps as md2_decode_frame()
 * decodes them, the frames in a row, in chunks without a branch inside
 * (the compiler makes vectors of them; the same rounded operations, so
 * the same bits, on every host). shared: s[1] and s[2] are b and d (a
 * triangle's first move), decoded once for both. */
static inline int faces_alike(const sjob *j, uint32_t a, uint32_t b, uint32_t d,
                              const uint32_t *s, size_t f0, size_t f1, int shared)
{
    const size_t F = j->F;
    const unsigned char *ax = j->bx + a * F, *ay = j->by + a * F, *az = j->bz + a * F;
    const unsigned char *bx = j->bx + b * F, *by = j->by + b * F, *bz = j->bz + b * F;
    const unsigned char *dx = j->bx + d * F, *dy = j->by + d * F, *dz = j->bz + d * F;
    const unsigned char *px = j->bx + s[0] * F, *py = j->by + s[0] * F, *pz = j->bz + s[0] * F;
    const unsigned char *qx = j->bx + s[1] * F, *qy = j->by + s[1] * F, *qz = j->bz + s[1] * F;
    const unsigned char *rx = j->bx + s[2] * F, *ry = j->by + s[2] * F, *rz = j->bz + s[2] * F;
    const float *sx = j->fsx, *sy = j->fsy, *sz = j->fsz;
    const float *tx = j->ftx, *ty = j->fty, *tz = j->ftz;
    size_t c0, f;
    for (c0 = f0; c0 < f1; c0 += 32) {
        size_t c1 = c0 + 32 < f1 ? c0 + 32 : f1;
        int bad = 0;
        for (f = c0; f < c1; f++) {
            float ox = md2__mul_add(sx[f], (float)ax[f], tx[f]);
            float oy = md2__mul_add(sy[f], (float)ay[f], ty[f]);
            float oz = md2__mul_add(sz[f], (float)az[f], tz[f]);
            float bbx = md2__mul_add(sx[f], (float)bx[f], tx[f]);
            float bby = md2__mul_add(sy[f], (float)by[f], ty[f]);
            float bbz = md2__mul_add(sz[f], (float)bz[f], tz[f]);
            float ddx = md2__mul_add(sx[f], (float)dx[f], tx[f]);
            float ddy = md2__mul_add(sy[f], (float)dy[f], ty[f]);
            float ddz = md2__mul_add(sz[f], (float)dz[f], tz[f]);
            float e1x = md2__sub(bbx, ox), e1y = md2__sub(bby, oy), e1z = md2__sub(bbz, oz);
            float e2x = md2__sub(ddx, ox), e2y = md2__sub(ddy, oy), e2z = md2__sub(ddz, oz);
            float gx = md2__mul_add(sx[f], (float)px[f], tx[f]);
            float gy = md2__mul_add(sy[f], (float)py[f], ty[f]);
            float gz = md2__mul_add(sz[f], (float)pz[f], tz[f]);
            float g1x = md2__sub(shared ? bbx : md2__mul_add(sx[f], (float)qx[f], tx[f]), gx);
            float g1y = md2__sub(shared ? bby : md2__mul_add(sy[f], (float)qy[f], ty[f]), gy);
            float g1z = md2__sub(shared ? bbz : md2__mul_add(sz[f], (float)qz[f], tz[f]), gz);
            float g2x = md2__sub(shared ? ddx : md2__mul_add(sx[f], (float)rx[f], tx[f]), gx);
            float g2y = md2__sub(shared ? ddy : md2__mul_add(sy[f], (float)ry[f], ty[f]), gy);
            float g2z = md2__sub(shared ? ddz : md2__mul_add(sz[f], (float)rz[f], tz[f]), gz);
            float nx = md2__sub(md2__mul(e1y, e2z), md2__mul(e1z, e2y));
            float ny = md2__sub(md2__mul(e1z, e2x), md2__mul(e1x, e2z));
            float nz = md2__sub(md2__mul(e1x, e2y), md2__mul(e1y, e2x));
            float mx = md2__sub(md2__mul(g1y, g2z), md2__mul(g1z, g2y));
            float my = md2__sub(md2__mul(g1z, g2x), md2__mul(g1x, g2z));
            float mz = md2__sub(md2__mul(g1x, g2y), md2__mul(g1y, g2x));
            float dot = md2__add(md2__add(md2__mul(nx, mx), md2__mul(ny, my)), md2__mul(nz, mz));
            bad |= dot < 0.0f;
        }
        if (bad)
            return 0;
    }
    return 1;
}

/* The same test built for AVX2 (chosen at run time, as the pose kernels
 * are: pose_kernels.c): the compiler makes 8-lane vectors of the same
 * loop; the same rounded operations, nothing fused ("avx2" without "fma"),
 * so the same bits as the plain build. */
#if !defined(MD2_NO_SIMD) && defined(__x86_64__) && defined(__GNUC__) && \
    (defined(__clang__) || __GNUC__ >= 5) && defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define MD2_SIMPLIFY_AVX2 1
__attribute__((target("avx2"))) static int faces_alike_avx2(const sjob *j, uint32_t a, uint32_t b,
                                                            uint32_t d, const uint32_t *s,
                                                            int shared)
{
    return shared ? faces_alike(j, a, b, d, s, 0, j->F, 1) : faces_alike(j, a, b, d, s, 0, j->F, 0);
}
#endif

/* Triangle a b d against s[0..2] in every frame, with the build's best
 * vectors. */
static int faces_alike_all(const sjob *j, uint32_t a, uint32_t b, uint32_t d, const uint32_t *s)
{
    int shared = s[1] == b && s[2] == d;
#if defined(MD2_SIMPLIFY_AVX2)
    if (j->avx2)
        return faces_alike_avx2(j, a, b, d, s, shared);
#endif
    return shared ? faces_alike(j, a, b, d, s, 0, j->F, 1) : faces_alike(j, a, b, d, s, 0, j->F, 0);
}

/* 1 if merging v into u keeps every triangle of v (but those on the edge)
 * facing within 90 degrees of where its source triangle faces, in every
 * frame, and, in frame 0, within about 75 degrees of where it faced
 * before (a fold there is never worth it). */
static int keeps_facing(const sjob *j, uint32_t v, uint32_t u, const uint32_t *fanv, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t tri = fanv[i] / 3, k = fanv[i] % 3, s[3];
        const uint32_t *c = j->tv + 3 * tri, *o = j->init_v + 3 * tri;
        uint32_t b = c[(k + 1) % 3], d = c[(k + 2) % 3];
        float before[3], after[3];
        if (c[0] == u || c[1] == u || c[2] == u)
            continue;
        normal3(after, P0(j, u), P0(j, b), P0(j, d));
        normal3(before, P0(j, v), P0(j, b), P0(j, d));
        if (dot3(before, after) < md2__mul(0.25f, md2__mul(sqrt_f(dot3(before, before)),
                                                        sqrt_f(dot3(after, after)))))
            return 0;
        /* the source triangle (the one before, while nothing of it moved) */
        if (c[0] != o[0] || c[1] != o[1] || c[2] != o[2]) {
            s[0] = o[0];
            s[1] = o[1];
            s[2] = o[2];
        } else {
            s[0] = v;
            s[1] = b;
            s[2] = d;
        }
        if (!faces_alike_all(j, u, b, d, s))
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Collapsing                                                                */
/* ------------------------------------------------------------------------ */

static int log_push(sjob *j, uint32_t corner, uint32_t vertex, uint32_t texcoord)
{
    if (j->log_n == j->log_cap) {
        size_t cap = j->log_cap ? 2 * j->log_cap : 256;
        int ok = 1;
        change *grown = (change *)alloc_n(j, cap, sizeof(change), &ok);
        if (!ok)
            return 0;
        if (j->log_n)
            memcpy(grown, j->log, j->log_n * sizeof(change));
        release(j, j->log);
        j->log = grown;
        j->log_cap = cap;
    }
    j->log[j->log_n].corner = corner;
    j->log[j->log_n].vertex = vertex;
    j->log[j->log_n].texcoord = texcoord;
    j->log_n++;
    return 1;
}

/* The collapses of w that wait for a change around it go back into the heap
 * (with a cost brought up to date). O(valence of w). */
static void wake(sjob *j, uint32_t w)
{
    size_t n, i;
    int k;
    j->changes[w] = 0;
    j->fails[w] = 0;
    if (j->locked[w] || j->nparked[w] == 0 || j->ndeg[w] > HUB)
        return;
    n = fan(j, w, j->fan_b);
    for (i = 0; i < n; i++) {
        const uint32_t *c = j->tv + 3 * (j->fan_b[i] / 3);
        for (k = 0; k < 3; k++) {
            uint32_t x = c[k], e, s;
            if (x == w)
                continue;
            e = edge_find(j, w, x);
            s = slot_of(j, e, w);
            if (j->state[s] == SLOT_PARKED) {
                j->state[s] = SLOT_IDLE;
                j->nparked[w]--;
                slot_update(j, s);
            }
        }
    }
}

/* One change around w: wakes it, at once when it has at most HUB
 * neighbours, else once for every ndeg / 8 changes (each wake costs
 * O(ndeg), and at most TRIES tests of O(ndeg) each: a constant a change). */
static void touch(sjob *j, uint32_t w)
{
    uint32_t need = j->ndeg[w] > HUB ? j->ndeg[w] / 8 : 1u;
    if (++j->changes[w] >= need)
        wake(j, w);
}

/* Merges v into u across j->nb[x] (the neighbours and fan of v as the test
 * left them in j->nb, j->fan_a); returns 0 when out of memory. */
static int collapse(sjob *j, uint32_t v, uint32_t u, size_t n, size_t num_nb, size_t x)
{
    size_t i, first = j->log_n, count;
    nbr e = j->nb[x];
    uint32_t step = (uint32_t)j->steps + 1;

    /* the log first (the one thing that can fail): the corners that move */
    for (i = 0; i < n; i++) {
        uint32_t c = j->fan_a[i];
        if (corner_of(j, c / 3, u) == NONE && !log_push(j, c, u, st_map(j, &e, j->ts[c])))
            return 0;
    }
    /* v's neighbours, kept (the scratch is needed again) */
    for (i = 0; i < num_nb; i++)
        j->todo[i] = j->nb[i].vertex;
    /* every edge of v loses its triangles; the triangles of the edge die */
    for (i = 0; i < n; i++) {
        uint32_t c = j->fan_a[i], tri = c / 3, k = c % 3;
        const uint32_t *t = j->tv + 3 * tri;
        uint32_t b = t[(k + 1) % 3], d = t[(k + 2) % 3];
        edge_less(j, v, b);
        edge_less(j, v, d);
        if (b == u || d == u) {
            edge_less(j, b, d);
            j->death[tri] = step;
            j->live--;
            j->ntris[b]--;
            j->ntris[d]--;
        }
    }
    /* the others move to u */
    for (i = first; i < j->log_n; i++) {
        uint32_t c = j->log[i].corner, k = c % 3;
        const uint32_t *t = j->tv + 3 * (c / 3);
        j->tv[c] = u;
        j->ts[c] = j->log[i].texcoord;
        j->edge[edge_add(j, u, t[(k + 1) % 3])].ntri++;
        j->edge[edge_add(j, u, t[(k + 2) % 3])].ntri++;
        j->ntris[u]++;
    }
    j->ntris[v] = 0;
    /* v's corners join u's list */
    if (j->head[v] != NONE) {
        if (j->head[u] == NONE)
            j->head[u] = j->head[v];
        else
            j->next[j->tail[u]] = j->head[v];
        j->tail[u] = j->tail[v];
        j->head[v] = j->tail[v] = NONE;
    }
    quad_merge(j, v, u);
    j->gone_step[v] = step;
    j->gone_into[v] = u;
    j->steps++;
    j->log_end[j->steps] = (uint32_t)j->log_n;
    j->tris_after[j->steps] = (uint32_t)j->live;
    /* costs: both ways along u's edges, all of them (a hub: the ones that
     * were v's; the others are brought up to date at the top) */
    count = num_nb;
    if (j->ndeg[u] <= HUB) {
        size_t m = fan(j, u, j->fan_b);
        int k;
        j->stamp++;
        count = 0;
        for (i = 0; i < m; i++) {
            const uint32_t *c = j->tv + 3 * (j->fan_b[i] / 3);
            for (k = 0; k < 3; k++)
                if (c[k] != u && j->mark[c[k]] != j->stamp) {
                    j->mark[c[k]] = j->stamp;
                    j->todo[num_nb + count++] = c[k];
                }
        }
        for (i = 0; i < count; i++) {
            uint32_t w = j->todo[num_nb + i], ew = edge_find(j, u, w);
            slot_update(j, slot_of(j, ew, u));
            slot_update(j, slot_of(j, ew, w));
        }
    } else {
        for (i = 0; i < num_nb; i++) {
            uint32_t w = j->todo[i], ew;
            if (w == u)
                continue;
            ew = edge_find(j, u, w);
            if (ew == NONE)
                continue; /* w lost its edge to v and has none to u (a border) */
            slot_update(j, slot_of(j, ew, u));
            slot_update(j, slot_of(j, ew, w));
        }
    }
    /* what was refused around v may be allowed now */
    for (i = 0; i < num_nb; i++)
        touch(j, j->todo[i]);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* The run                                                                   */
/* ------------------------------------------------------------------------ */

/* Collapses until at most goal triangles are left or none is allowed: the
 * cheapest direction of an edge at the top of the heap is tested (the
 * rules, then the facing in every frame) and done, or waits for a change
 * around its source. */
static md2_result run(sjob *j, size_t goal)
{
    while (j->live > goal && j->heap_n > 0) {
        uint32_t s = j->heap[0].slot, v = slot_src(j, s), u = slot_dst(j, s), x;
        size_t n, num_nb;
        if (slot_refresh(j, s)) { /* a hub's edge, out of date */
            heap_rekey(j, s);
            continue;
        }
        if (!j->sexact[s]) { /* its cost a lower bound: the sum over every pose now */
            j->serr[s] = err_of(j, v, u);
            j->sexact[s] = 1;
            j->key[s] = key_of(j, v, u, j->serr[s]);
            heap_rekey(j, s);
            continue;
        }
        if (j->fails[v] >= TRIES || j->ndeg[v] > HUB) {
            heap_take(j, s, SLOT_PARKED); /* until a change around v (a hub: until it is none) */
            continue;
        }
        n = fan(j, v, j->fan_a);
        num_nb = neighbours(j, v, j->fan_a, n);
        x = j->nbidx[u];
        if (!allowed(j, v, &j->nb[x], j->fan_a, n, num_nb) ||
            !keeps_facing(j, v, u, j->fan_a, n)) {
            heap_take(j, s, SLOT_PARKED);
            j->fails[v]++;
            continue;
        }
        if (!collapse(j, v, u, n, num_nb, x))
            return md2__fail(j->err, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                             "md2_simplify: out of memory for the log of collapses (step %lu)",
                             (unsigned long)j->steps + 1);
    }
    return MD2_OK;
}

/* ------------------------------------------------------------------------ */
/* Making a prefix of the sequence, and measuring it                        */
/* ------------------------------------------------------------------------ */

/* The corners after k steps into tv, ts (death tells which are alive). */
static void replay(sjob *j, size_t k)
{
    size_t i;
    memcpy(j->tv, j->init_v, 3 * j->T * sizeof(uint32_t));
    memcpy(j->ts, j->init_s, 3 * j->T * sizeof(uint32_t));
    for (i = 0; i < j->log_end[k]; i++) {
        j->tv[j->log[i].corner] = j->log[i].vertex;
        j->ts[j->log[i].corner] = j->log[i].texcoord;
    }
}

static int alive_at(const sjob *j, size_t tri, size_t k)
{
    return j->death[tri] != 0 && (j->death[tri] == ALIVE || j->death[tri] > k);
}

/* A node of the tree of the measure: the box of its triangles; a leaf
 * holds order[first .. first + count), an inner node (count 0) has its
 * first child next to it and its second at first. */
typedef struct bnode {
    float lo[3], hi[3];
    uint32_t first, count;
} bnode;

typedef struct btree {
    bnode *node;
    size_t n;
    uint32_t *order;     /* the live triangles, in the order of their centres' Morton codes */
    const float *tbox;   /* 6 a triangle (by its place in live): its box */
} btree;

/* The subtree of order[a .. e) from node b->n on (halves of the Morton
 * order down to leaves of at most 4 triangles); returns its node. The
 * depth is at most 64 (halving a range of at most 2^32). */
static uint32_t btree_build(btree *b, size_t a, size_t e)
{
    uint32_t id = (uint32_t)b->n++;
    bnode *nd = &b->node[id];
    int c;
    /* cppcheck-suppress knownConditionTrueFalse ; a leaf for 4 triangles or fewer; the recursion below otherwise */
    if (e - a <= 4) {
        size_t i;
        nd->first = (uint32_t)a;
        nd->count = (uint32_t)(e - a);
        for (c = 0; c < 3; c++) {
            nd->lo[c] = FLT_MAX;
            nd->hi[c] = -FLT_MAX;
        }
        for (i = a; i < e; i++) {
            const float *bx = b->tbox + 6 * (size_t)b->order[i];
            for (c = 0; c < 3; c++) {
                nd->lo[c] = bx[c] < nd->lo[c] ? bx[c] : nd->lo[c];
                nd->hi[c] = bx[3 + c] > nd->hi[c] ? bx[3 + c] : nd->hi[c];
            }
        }
        return id;
    } else {
        size_t m = a + (e - a) / 2;
        uint32_t l = btree_build(b, a, m), r = btree_build(b, m, e);
        nd = &b->node[id];
        nd->first = r;
        nd->count = 0;
        for (c = 0; c < 3; c++) {
            const bnode *x = &b->node[l], *y = &b->node[r];
            nd->lo[c] = x->lo[c] < y->lo[c] ? x->lo[c] : y->lo[c];
            nd->hi[c] = x->hi[c] > y->hi[c] ? x->hi[c] : y->hi[c];
        }
        return id;
    }
}

/* Squared distance from p to node nd's box (0 inside). */
static float box_dist2(const bnode *nd, const float *p)
{
    float d = 0.0f;
    int c;
    for (c = 0; c < 3; c++) {
        float e = p[c] < nd->lo[c] ? md2__sub(nd->lo[c], p[c])
                  : p[c] > nd->hi[c] ? md2__sub(p[c], nd->hi[c]) : 0.0f;
        d = md2__add(d, md2__mul(e, e));
    }
    return d;
}

/* 1 if no triangle of nd can be nearer to p than best: its box is farther,
 * by a margin that covers the rounding of both (the box's size and the
 * distance: a big box near the root is always opened). */
static int box_beyond(const bnode *nd, const float *p, float best)
{
    float d = box_dist2(nd, p), e[3];
    sub3(e, nd->hi, nd->lo);
    return d > md2__add(md2__mul(best, 1.0002f), md2__mul(md2__add(dot3(e, e), d), 1e-6f));
}

/* 10 bits of x, spread to every third bit. */
static uint32_t spread10(uint32_t x)
{
    x &= 0x3FFu;
    x = (x | (x << 16)) & 0x030000FFu;
    x = (x | (x << 8)) & 0x0300F00Fu;
    x = (x | (x << 4)) & 0x030C30C3u;
    x = (x | (x << 2)) & 0x09249249u;
    return x;
}

/* The error of the prefix of k steps (replayed in tv): the largest and
 * mean distance over frames and used source vertices to the surface. Per
 * frame, the live triangles go in a tree of boxes (in the Morton order of
 * their centres, halved down to 4 triangles a leaf: O(T log T), whatever
 * their shapes: the slivers of a fan are grouped by where they are, not
 * spread over a grid); each vertex's distance to the triangles around the
 * vertex it went into bounds the search, nearer boxes first. */
static int measure(sjob *j, size_t k, double *max_out, double *mean_out)
{
    size_t T = j->T, V = j->V, f, t, v, nt = 0;
    int ok = 1;
    uint32_t *live = (uint32_t *)alloc_n(j, T, sizeof(uint32_t), &ok);
    uint32_t *vstart = (uint32_t *)alloc_n(j, V + 1, sizeof(uint32_t), &ok);
    uint32_t *vtris = (uint32_t *)alloc_n(j, 3 * T, sizeof(uint32_t), &ok);
    unsigned char *used = (unsigned char *)alloc_n(j, V, 1, &ok);
    uint32_t *key = (uint32_t *)alloc_n(j, T, 2 * sizeof(uint32_t), &ok);
    uint32_t *order = (uint32_t *)alloc_n(j, T, 2 * sizeof(uint32_t), &ok);
    float *tbox = (float *)alloc_n(j, T, 6 * sizeof(float), &ok);
    bnode *node = (bnode *)alloc_n(j, T, 2 * sizeof(bnode), &ok);
    float worst = 0.0f, total = 0.0f;
    btree tree;

    if (ok) {
        memset(used, 0, V);
        memset(vstart, 0, (V + 1) * sizeof(uint32_t));
        for (t = 0; t < T; t++) {
            int c;
            if (j->death[t] == 0)
                continue;
            for (c = 0; c < 3; c++)
                used[j->init_v[3 * t + (size_t)c]] = 1;
            if (!alive_at(j, t, k))
                continue;
            live[nt++] = (uint32_t)t;
            for (c = 0; c < 3; c++)
                vstart[j->tv[3 * t + (size_t)c] + 1]++;
        }
        for (v = 0; v < V; v++)
            vstart[v + 1] += vstart[v];
        for (t = 0; t < nt; t++) {
            int c;
            for (c = 0; c < 3; c++) {
                uint32_t w = j->tv[3 * (size_t)live[t] + (size_t)c];
                vtris[vstart[w]++] = live[t];
            }
        }
        for (v = V; v > 0; v--)
            vstart[v] = vstart[v - 1];
        vstart[0] = 0;
    }
    tree.node = node;
    tree.tbox = tbox;
    for (f = 0; ok && f < j->F && nt > 0; f++) {
        float lo[3], hi[3], scale[3], frame_total = 0.0f;
        uint32_t *src = order, *dst = order + nt, *ks = key, *kd = key + nt;
        int a, pass;
        (void)md2_decode_frame(j->m, (uint32_t)f, j->frame, 0, NULL, 0);
        /* each triangle's box, the box of their centres */
        for (a = 0; a < 3; a++) {
            lo[a] = FLT_MAX;
            hi[a] = -FLT_MAX;
        }
        for (t = 0; t < nt; t++) {
            const uint32_t *c = j->tv + 3 * (size_t)live[t];
            float *bx = tbox + 6 * t;
            for (a = 0; a < 3; a++) {
                float x = FP(j, c[0])[a], y = FP(j, c[1])[a], z = FP(j, c[2])[a], mid;
                bx[a] = x < y ? (x < z ? x : z) : (y < z ? y : z);
                bx[3 + a] = x > y ? (x > z ? x : z) : (y > z ? y : z);
                mid = md2__mul(md2__add(bx[a], bx[3 + a]), 0.5f);
                lo[a] = mid < lo[a] ? mid : lo[a];
                hi[a] = mid > hi[a] ? mid : hi[a];
            }
        }
        for (a = 0; a < 3; a++) {
            float e = md2__sub(hi[a], lo[a]);
            scale[a] = e > 0.0f ? md2__div(1023.0f, e) : 0.0f;
        }
        /* Morton codes of the centres, sorted (3 stable passes of 10 bits:
         * ties keep the triangles' order) */
        for (t = 0; t < nt; t++) {
            const float *bx = tbox + 6 * t;
            uint32_t code = 0;
            for (a = 0; a < 3; a++) {
                float mid = md2__mul(md2__add(bx[a], bx[3 + a]), 0.5f);
                float q = md2__mul(md2__sub(mid, lo[a]), scale[a]);
                uint32_t qi = q > 0.0f ? (q < 1023.0f ? (uint32_t)q : 1023u) : 0u;
                code |= spread10(qi) << a;
            }
            ks[t] = code;
            src[t] = (uint32_t)t;
        }
        for (pass = 0; pass < 3; pass++) {
            uint32_t count[1025], *x;
            int shift = 10 * pass;
            memset(count, 0, sizeof count);
            for (t = 0; t < nt; t++)
                count[((ks[t] >> shift) & 1023u) + 1]++;
            for (a = 0; a < 1024; a++)
                count[a + 1] += count[a];
            for (t = 0; t < nt; t++) {
                uint32_t slot = count[(ks[t] >> shift) & 1023u]++;
                kd[slot] = ks[t];
                dst[slot] = src[t];
            }
            x = ks;
            ks = kd;
            kd = x;
            x = src;
            src = dst;
            dst = x;
        }
        tree.order = src;
        tree.n = 0;
        (void)btree_build(&tree, 0, nt);
        for (v = 0; v < V; v++) {
            const float *p = FP(j, (uint32_t)v);
            uint32_t r = (uint32_t)v, i, stack[130];
            size_t top = 0;
            float best = FLT_MAX;
            if (!used[v])
                continue;
            while (j->gone_step[r] != NONE && j->gone_step[r] <= k)
                r = j->gone_into[r];
            /* a bound from (at most 16 of) the triangles around the vertex it
             * went into; 0 (a corner of the level) needs no search */
            for (i = vstart[r]; i < vstart[r + 1] && i < vstart[r] + 16; i++) {
                const uint32_t *c = j->tv + 3 * (size_t)vtris[i];
                float d = dist2_point_triangle(p, FP(j, c[0]), FP(j, c[1]), FP(j, c[2]));
                best = d < best ? d : best;
            }
            if (best == 0.0f)
                continue;
            stack[top++] = 0;
            while (top > 0) {
                const bnode *nd = &node[stack[--top]];
                if (box_beyond(nd, p, best))
                    continue;
                if (nd->count > 0) {
                    uint32_t q;
                    for (q = nd->first; q < nd->first + nd->count; q++) {
                        const uint32_t *c = j->tv + 3 * (size_t)live[tree.order[q]];
                        float d = dist2_point_triangle(p, FP(j, c[0]), FP(j, c[1]),
                                                       FP(j, c[2]));
                        best = d < best ? d : best;
                    }
                } else {
                    /* the nearer child on top */
                    uint32_t l = (uint32_t)(nd - node) + 1, rr = nd->first;
                    if (box_dist2(&node[l], p) <= box_dist2(&node[rr], p)) {
                        stack[top++] = rr;
                        stack[top++] = l;
                    } else {
                        stack[top++] = l;
                        stack[top++] = rr;
                    }
                }
            }
            if (best < FLT_MAX) {
                float d = sqrt_f(best);
                worst = d > worst ? d : worst;
                frame_total = md2__add(frame_total, d);
            }
        }
        total = md2__add(total, frame_total);
    }
    release(j, live);
    release(j, vstart);
    release(j, vtris);
    release(j, used);
    release(j, key);
    release(j, order);
    release(j, tbox);
    release(j, node);
    if (!ok)
        return 0;
    *max_out = worst;
    *mean_out = j->used_vertices
                    ? (double)md2__div(md2__div(total, (float)j->F), (float)j->used_vertices)
                    : 0.0;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Levels                                                                    */
/* ------------------------------------------------------------------------ */

/* The model of the prefix of k steps (replayed in tv, ts) into lod. */
static md2_result make_level(sjob *j, size_t k, md2_lod *lod, int measure_it)
{
    const md2_model *m = j->m;
    size_t T = j->T, V = j->V, F = j->F, t, f, nv = 0, ns = 0, nt = 0, i;
    int ok = 1;
    uint32_t *vmap = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), &ok);
    uint32_t *smap = (uint32_t *)alloc_n(j, m->num_texcoords, sizeof(uint32_t), &ok);
    md2_triangle *tris = (md2_triangle *)alloc_n(j, T, sizeof(md2_triangle), &ok);
    md2_texcoord *st = (md2_texcoord *)alloc_n(j, m->num_texcoords, sizeof(md2_texcoord), &ok);
    md2_frame *frames = (md2_frame *)alloc_n(j, F, sizeof(md2_frame), &ok);
    md2_vertex *verts = NULL;
    uint32_t *maps = NULL;
    md2_model hm;
    md2_build_options bo;
    md2_result r = MD2_OK;

    if (ok) {
        for (i = 0; i < V; i++)
            vmap[i] = NONE;
        for (i = 0; i < m->num_texcoords; i++)
            smap[i] = NONE;
        for (t = 0; t < T; t++) {
            int c;
            if (!alive_at(j, t, k))
                continue;
            for (c = 0; c < 3; c++) {
                vmap[j->tv[3 * t + (size_t)c]] = 0;
                smap[j->ts[3 * t + (size_t)c]] = 0;
            }
            nt++;
        }
        for (i = 0; i < V; i++)
            if (vmap[i] != NONE)
                vmap[i] = (uint32_t)nv++;
        for (i = 0; i < m->num_texcoords; i++)
            if (smap[i] != NONE)
                smap[i] = (uint32_t)ns++;
        verts = (md2_vertex *)alloc_n(j, F * nv, sizeof(md2_vertex), &ok);
        maps = (uint32_t *)alloc_n(j, nv + ns + nt, sizeof(uint32_t), &ok);
    }
    if (!ok) {
        r = MD2_ERR_OUT_OF_MEMORY;
        goto done;
    }
    nt = 0;
    for (t = 0; t < T; t++) {
        int c;
        if (!alive_at(j, t, k))
            continue;
        for (c = 0; c < 3; c++) {
            tris[nt].vertex[c] = (uint16_t)vmap[j->tv[3 * t + (size_t)c]];
            tris[nt].texcoord[c] = (uint16_t)smap[j->ts[3 * t + (size_t)c]];
        }
        maps[nv + ns + nt] = (uint32_t)t;
        nt++;
    }
    for (i = 0; i < V; i++)
        if (vmap[i] != NONE)
            maps[vmap[i]] = (uint32_t)i;
    for (i = 0; i < m->num_texcoords; i++)
        if (smap[i] != NONE) {
            maps[nv + smap[i]] = (uint32_t)i;
            st[smap[i]] = m->texcoords[i];
        }
    for (f = 0; f < F; f++) {
        frames[f] = m->frames[f];
        frames[f].vertices = verts + f * nv;
        for (i = 0; i < nv; i++)
            verts[f * nv + i] = m->frames[f].vertices[maps[i]];
    }
    memset(&hm, 0, sizeof hm);
    hm.skin_width = m->skin_width;
    hm.skin_height = m->skin_height;
    hm.num_skins = m->num_skins;
    hm.skins = m->skins;
    hm.num_vertices = nv;
    hm.num_texcoords = ns;
    hm.texcoords = st;
    hm.num_triangles = nt;
    hm.triangles = tris;
    hm.num_frames = F;
    hm.frames = frames;
    memset(&bo, 0, sizeof bo);
    bo.allocator = j->a;
    bo.error = j->err;
    bo.flags = m->skin_width >= 1 && m->skin_height >= 1 ? MD2_REBUILD_GLCMDS : MD2_BUILD_NO_GLCMDS;
    r = md2_rebuild(&hm, &bo, &lod->model);
    if (r != MD2_OK)
        goto done;
    lod->num_collapses = k;
    lod->source_vertex = maps;
    lod->source_texcoord = maps + nv;
    lod->source_triangle = maps + nv + ns;
    lod->allocator_ = j->a;
    maps = NULL;
    lod->max_error = lod->mean_error = lod->relative_error = -1.0;
    if (measure_it) {
        if (!measure(j, k, &lod->max_error, &lod->mean_error)) {
            r = MD2_ERR_OUT_OF_MEMORY;
            goto done;
        }
        lod->relative_error = j->diag > 0.0f ? lod->max_error / (double)j->diag : 0.0;
    }
done:
    release(j, vmap);
    release(j, smap);
    release(j, tris);
    release(j, st);
    release(j, frames);
    release(j, verts);
    release(j, maps);
    return r;
}

/* ------------------------------------------------------------------------ */
/* The call                                                                  */
/* ------------------------------------------------------------------------ */

static int stop_writing(void *user, const void *data, size_t size)
{
    (void)user;
    (void)data;
    (void)size;
    return 1;
}

static md2_result check(const md2_model *m, const md2_simplify_target *targets, size_t num,
                        const md2_simplify_options *opts, const md2_lod *levels,
                        md2_diagnostic *d)
{
    size_t i, r;
    md2_result res;
    if (!m || !targets || !levels)
        return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "", 0, 0,
                         "md2_simplify: %s is NULL", !m ? "the model" : !targets ? "targets" : "levels");
    if (opts)
        for (r = 0; r < 6; r++)
            if (opts->reserved_[r] != 0)
                return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE,
                                 "md2_simplify_options.reserved_", 0, r,
                                 "md2_simplify_options.reserved_[%lu] is %lu, not zero: it is reserved for later versions; start from a zero-initialised struct",
                                 (unsigned long)r, (unsigned long)opts->reserved_[r]);
    if (num == 0)
        return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "num_targets", 0, 0,
                         "md2_simplify: no target given (num_targets is 0)");
    for (i = 0; i < num; i++) {
        const md2_simplify_target *t = &targets[i];
        for (r = 0; r < 2; r++)
            if (t->reserved_[r] != 0)
                return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE,
                                 "md2_simplify_target.reserved_", 0, i,
                                 "target %lu: md2_simplify_target.reserved_[%lu] is %lu, not zero: start from a zero-initialised struct",
                                 (unsigned long)i, (unsigned long)r, (unsigned long)t->reserved_[r]);
        if ((unsigned)t->kind > (unsigned)MD2_SIMPLIFY_ERROR)
            return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "kind", 0, i,
                             "target %lu: kind %d is no md2_simplify_kind (0 to 2)",
                             (unsigned long)i, (int)t->kind);
        if (!(t->value >= 0.0) || !(t->value <= DBL_MAX))
            return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "value", 0, i,
                             "target %lu: value %g is not a finite number of at least 0",
                             (unsigned long)i, t->value);
        if (t->kind == MD2_SIMPLIFY_TRIANGLES && t->value != floor(t->value))
            return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "value", 0, i,
                             "target %lu: %g triangles is not a whole number", (unsigned long)i,
                             t->value);
    }
    if (opts && (opts->flags & ~MD2_SIMPLIFY_NO_ERROR))
        return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "flags", 0, 0,
                         "md2_simplify: flags 0x%X has bits that are no MD2_SIMPLIFY_ flag",
                         opts->flags);
    /* the writer checks the model (and stops at its first piece) */
    res = md2_write_stream(m, stop_writing, NULL, d);
    if (res != MD2_ERR_IO)
        return res == MD2_OK ? MD2_OK : res;
    md2__diag_clear(d);
    return MD2_OK;
}

/* setup, stage 1: every working array of the job (tables of cap slots for
 * the edge hash); leaves *ok 0 when one allocation failed, the later ones
 * then not tried. */
static void setup_alloc(sjob *j, size_t cap, int *ok)
{
    size_t V = j->V, F = j->F, T = j->T, E = 3 * T;
    j->bx = (unsigned char *)alloc_n(j, F, V, ok);
    j->by = (unsigned char *)alloc_n(j, F, V, ok);
    j->bz = (unsigned char *)alloc_n(j, F, V, ok);
    j->fsx = (float *)alloc_n(j, F, sizeof(float), ok);
    j->fsy = (float *)alloc_n(j, F, sizeof(float), ok);
    j->fsz = (float *)alloc_n(j, F, sizeof(float), ok);
    j->ftx = (float *)alloc_n(j, F, sizeof(float), ok);
    j->fty = (float *)alloc_n(j, F, sizeof(float), ok);
    j->ftz = (float *)alloc_n(j, F, sizeof(float), ok);
    j->frame = (float *)alloc_n(j, V, 3 * sizeof(float), ok);
    j->pos0 = (float *)alloc_n(j, V, 3 * sizeof(float), ok);
    j->K = F < POSES ? F : POSES;
    j->rep = (uint32_t *)alloc_n(j, j->K, sizeof(uint32_t), ok);
    j->weight = (float *)alloc_n(j, j->K, sizeof(float), ok);
    j->quad = (float *)alloc_n(j, V * j->K, QN * sizeof(float), ok);
    j->rpos = (float *)alloc_n(j, V * j->K, 3 * sizeof(float), ok);
    j->qc = (float *)alloc_n(j, V, sizeof(float), ok);
    j->qw = (float *)alloc_n(j, V, sizeof(float), ok);
    j->ver = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), ok);
    j->init_v = (uint32_t *)alloc_n(j, T, 3 * sizeof(uint32_t), ok);
    j->init_s = (uint32_t *)alloc_n(j, T, 3 * sizeof(uint32_t), ok);
    j->tv = (uint32_t *)alloc_n(j, T, 3 * sizeof(uint32_t), ok);
    j->ts = (uint32_t *)alloc_n(j, T, 3 * sizeof(uint32_t), ok);
    j->death = (uint32_t *)alloc_n(j, T, sizeof(uint32_t), ok);
    j->next = (uint32_t *)alloc_n(j, T, 3 * sizeof(uint32_t), ok);
    j->head = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), ok);
    j->tail = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), ok);
    j->ntris = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), ok);
    j->ndeg = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), ok);
    j->locked = (unsigned char *)alloc_n(j, V, 1, ok);
    j->gone_step = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), ok);
    j->gone_into = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), ok);
    j->changes = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), ok);
    j->fails = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), ok);
    j->nparked = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), ok);
    j->edge = (sedge *)alloc_n(j, E, sizeof(sedge), ok);
    j->table = (uint32_t *)alloc_n(j, cap, sizeof(uint32_t), ok);
    j->key = (float *)alloc_n(j, E, 2 * sizeof(float), ok);
    j->serr = (float *)alloc_n(j, E, 2 * sizeof(float), ok);
    j->sexact = (unsigned char *)alloc_n(j, E, 2, ok);
    j->sver = (uint32_t *)alloc_n(j, E, 2 * sizeof(uint32_t), ok);
    j->dver = (uint32_t *)alloc_n(j, E, 2 * sizeof(uint32_t), ok);
    j->heap_pos = (uint32_t *)alloc_n(j, E, 2 * sizeof(uint32_t), ok);
    j->state = (unsigned char *)alloc_n(j, E, 2, ok);
    j->heap = (hent *)alloc_n(j, E, 2 * sizeof(hent), ok);
    j->log_end = (uint32_t *)alloc_n(j, V + 1, sizeof(uint32_t), ok);
    j->tris_after = (uint32_t *)alloc_n(j, V + 1, sizeof(uint32_t), ok);
    j->fan_a = (uint32_t *)alloc_n(j, T, sizeof(uint32_t), ok);
    j->fan_b = (uint32_t *)alloc_n(j, T, sizeof(uint32_t), ok);
    j->nb = (nbr *)alloc_n(j, V, sizeof(nbr), ok);
    j->nbidx = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), ok);
    j->mark = (uint32_t *)alloc_n(j, V, sizeof(uint32_t), ok);
    j->todo = (uint32_t *)alloc_n(j, V, 2 * sizeof(uint32_t), ok);
}

/* setup, stage 2: each frame's smallest and largest step on each axis into
 * ext (6 a frame; in registers, one frame at a time), then the steps
 * vertex-major (16 frames at a time), the transforms, frame 0. */
static void setup_frames(sjob *j, unsigned char *ext)
{
    size_t V = j->V, F = j->F, f, v;
    for (f = 0; f < F; f++) {
        const md2_vertex *fv = j->m->frames[f].vertices;
        unsigned lo0 = 255, lo1 = 255, lo2 = 255, hi0 = 0, hi1 = 0, hi2 = 0;
        for (v = 0; v < V; v++) {
            unsigned x = fv[v].v[0], y = fv[v].v[1], z = fv[v].v[2];
            lo0 = x < lo0 ? x : lo0;
            lo1 = y < lo1 ? y : lo1;
            lo2 = z < lo2 ? z : lo2;
            hi0 = x > hi0 ? x : hi0;
            hi1 = y > hi1 ? y : hi1;
            hi2 = z > hi2 ? z : hi2;
        }
        ext[6 * f] = (unsigned char)lo0;
        ext[6 * f + 1] = (unsigned char)lo1;
        ext[6 * f + 2] = (unsigned char)lo2;
        ext[6 * f + 3] = (unsigned char)hi0;
        ext[6 * f + 4] = (unsigned char)hi1;
        ext[6 * f + 5] = (unsigned char)hi2;
    }
    for (f = 0; f < F; f += 16) {
        /* the frames' vertices and the outputs in locals: a byte store may
         * alias anything, so the compiler would load them again each time */
        size_t nf = f + 16 < F ? 16 : F - f, g;
        const md2_vertex *src[16];
        unsigned char *bx = j->bx, *by = j->by, *bz = j->bz;
        for (g = 0; g < nf; g++)
            src[g] = j->m->frames[f + g].vertices;
        for (v = 0; v < V; v++)
            for (g = 0; g < nf; g++) {
                const uint8_t *b = src[g][v].v;
                bx[v * F + f + g] = b[0];
                by[v * F + f + g] = b[1];
                bz[v * F + f + g] = b[2];
            }
    }
    for (f = 0; f < F; f++) {
        const md2_frame *fr = &j->m->frames[f];
        j->fsx[f] = fr->scale[0];
        j->fsy[f] = fr->scale[1];
        j->fsz[f] = fr->scale[2];
        j->ftx[f] = fr->translate[0];
        j->fty[f] = fr->translate[1];
        j->ftz[f] = fr->translate[2];
    }
    if (F > 0)
        (void)md2_decode_frame(j->m, 0, j->pos0, 0, NULL, 0);
}

/* setup, stage 3: the vertices' starting state, every edge on the free
 * list and the edge hash (cap slots) empty. */
static void setup_clear(sjob *j, size_t cap)
{
    size_t V = j->V, E = j->num_edges, v, i;
    for (v = 0; v < V; v++) {
        j->head[v] = j->tail[v] = NONE;
        j->ntris[v] = j->ndeg[v] = j->ver[v] = j->changes[v] = j->fails[v] = j->nparked[v] = 0;
        j->locked[v] = 0;
        j->gone_step[v] = j->gone_into[v] = NONE;
        j->mark[v] = 0;
    }
    j->stamp = 0;
    for (i = 0; i < E; i++) {
        j->edge[i].a = NONE;
        j->edge[i].b = i + 1 < E ? (uint32_t)(i + 1) : NONE;
    }
    j->free_edge = E ? 0u : NONE;
    for (i = 0; i < cap; i++)
        j->table[i] = NONE;
}

/* setup, stage 4: the triangles' corners, degenerate ones dead from the
 * start, the others linked into their vertices' corner lists and their
 * edges (the first two corners of each edge into etri, 2 an edge). */
static void setup_triangles(sjob *j, uint32_t *etri)
{
    size_t T = j->T, t;
    int c;
    j->live = 0;
    for (t = 0; t < T; t++) {
        const md2_triangle *tr = &j->m->triangles[t];
        for (c = 0; c < 3; c++) {
            j->init_v[3 * t + (size_t)c] = tr->vertex[c];
            j->init_s[3 * t + (size_t)c] = tr->texcoord[c];
        }
        if (tr->vertex[0] == tr->vertex[1] || tr->vertex[1] == tr->vertex[2] ||
            tr->vertex[0] == tr->vertex[2]) {
            j->death[t] = 0;
            continue;
        }
        j->death[t] = ALIVE;
        j->live++;
        for (c = 0; c < 3; c++) {
            uint32_t corner = (uint32_t)(3 * t + (size_t)c), w = tr->vertex[c], e;
            j->next[corner] = NONE;
            if (j->head[w] == NONE)
                j->head[w] = corner;
            else
                j->next[j->tail[w]] = corner;
            j->tail[w] = corner;
            j->ntris[w]++;
            e = edge_add(j, w, tr->vertex[(c + 1) % 3]);
            if (j->edge[e].ntri < 2)
                etri[2 * e + j->edge[e].ntri] = corner;
            j->edge[e].ntri++;
        }
    }
    memcpy(j->tv, j->init_v, 3 * T * sizeof(uint32_t));
    memcpy(j->ts, j->init_s, 3 * T * sizeof(uint32_t));
}

/* setup, stage 5: the vertices of edges of 3 or more triangles never move
 * (locked); border and seam edges (open in the mesh as it is drawn) get 1
 * in border, 3 a triangle. */
static void setup_borders(sjob *j, unsigned char *border, const uint32_t *etri)
{
    size_t T = j->T, t;
    int c;
    memset(border, 0, 3 * T);
    for (t = 0; t < T; t++) {
        if (j->death[t] == 0)
            continue;
        for (c = 0; c < 3; c++) {
            uint32_t a = j->tv[3 * t + (size_t)c], b = j->tv[3 * t + (size_t)(c + 1) % 3];
            uint32_t e = edge_find(j, a, b);
            if (j->edge[e].ntri > 2) {
                j->locked[a] = j->locked[b] = 1;
            } else if (j->edge[e].ntri == 1) {
                border[3 * t + (size_t)c] = 1;
            } else {
                uint32_t p = etri[2 * e] / 3, q = etri[2 * e + 1] / 3;
                border[3 * t + (size_t)c] =
                    !same_st(j, j->ts[corner_of(j, p, a)], j->ts[corner_of(j, q, a)]) ||
                    !same_st(j, j->ts[corner_of(j, p, b)], j->ts[corner_of(j, q, b)]);
            }
        }
    }
}

/* setup, stage 6: the diagonal of the box of every frame, from each
 * frame's smallest and largest step on each axis in ext (decoded as
 * md2_decode_frame() does: the same floats as the smallest and largest
 * decoded positions). */
static void setup_diagonal(sjob *j, const unsigned char *ext)
{
    size_t V = j->V, F = j->F, f;
    int c;
    float e[3], lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (f = 0; f < F && V > 0; f++) {
        const md2_frame *fr = &j->m->frames[f];
        for (c = 0; c < 3; c++) {
            float a = md2__mul_add(fr->scale[c], (float)ext[6 * f + (size_t)c],
                                   fr->translate[c]);
            float b = md2__mul_add(fr->scale[c], (float)ext[6 * f + 3 + (size_t)c],
                                   fr->translate[c]);
            lo[c] = a < lo[c] ? a : lo[c];
            lo[c] = b < lo[c] ? b : lo[c];
            hi[c] = a > hi[c] ? a : hi[c];
            hi[c] = b > hi[c] ? b : hi[c];
        }
    }
    for (c = 0; c < 3; c++)
        e[c] = lo[c] <= hi[c] ? md2__sub(hi[c], lo[c]) : 0.0f;
    j->diag = sqrt_f(dot3(e, e));
}

/* setup, stage 7: every direction that may move, costed, and the heap
 * made in one go. */
static void setup_heap(sjob *j)
{
    size_t E = j->num_edges, i;
    j->heap_n = 0;
    for (i = 0; i < 2 * E; i++) {
        uint32_t sl = (uint32_t)i;
        if (j->edge[i / 2].a == NONE || j->locked[slot_src(j, sl)])
            continue;
        (void)slot_refresh(j, sl);
        j->state[sl] = SLOT_HEAP;
        j->heap[j->heap_n].key = j->key[sl];
        j->heap[j->heap_n].slot = sl;
        j->heap_pos[sl] = (uint32_t)j->heap_n++;
    }
    for (i = j->heap_n / 2; i > 0; i--)
        heap_down(j, i - 1);
}

/* The job's working state for j->m: the arrays, the mesh's corners and
 * edges, the locked vertices, the quadrics of the poses, the diagonal and
 * the heap of every collapse that may be made. */
static md2_result setup(sjob *j)
{
    size_t V = j->V, F = j->F, T = j->T, v, E = 3 * T, cap = 16, i;
    int ok = 1;
    unsigned char *border, *ext;
    uint32_t *etri;

    while (cap < 2 * E && cap < ((size_t)1 << 31))
        cap *= 2;
    j->num_edges = E;
    j->table_mask = cap - 1;
    setup_alloc(j, cap, &ok);
    border = (unsigned char *)alloc_n(j, T, 3, &ok);
    etri = (uint32_t *)alloc_n(j, E, 2 * sizeof(uint32_t), &ok);
    ext = (unsigned char *)alloc_n(j, F, 6, &ok);
    if (!ok) {
        release(j, border);
        release(j, etri);
        release(j, ext);
        return md2__fail(j->err, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                         "md2_simplify: out of memory for the working state of %lu vertices x %lu frames",
                         (unsigned long)V, (unsigned long)F);
    }
    setup_frames(j, ext);
    setup_clear(j, cap);
    setup_triangles(j, etri);
    setup_borders(j, border, etri);
    release(j, etri);
    j->used_vertices = 0;
    for (v = 0; v < V; v++)
        j->used_vertices += j->ntris[v] > 0;
    if (!poses(j)) {
        release(j, border);
        release(j, ext);
        return md2__fail(j->err, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                         "md2_simplify: out of memory choosing the poses of %lu frames",
                         (unsigned long)F);
    }
    for (i = 0; i < j->K; i++) {
        (void)md2_decode_frame(j->m, j->rep[i], j->frame, 0, NULL, 0);
        for (v = 0; v < V; v++)
            memcpy(j->rpos + (v * j->K + i) * 3, FP(j, (uint32_t)v), 3 * sizeof(float));
    }
    quadrics(j, border);
    release(j, border);
    for (v = 0; v < V; v++)
        quad_sums(j, (uint32_t)v);
    setup_diagonal(j, ext);
    release(j, ext);
    j->log_end[0] = 0;
    j->tris_after[0] = (uint32_t)j->live;
    j->steps = 0;
    setup_heap(j);
    return MD2_OK;
}

/* The goal in triangles of a triangle or ratio target. */
static size_t goal_of(const sjob *j, const md2_simplify_target *t)
{
    double g = t->kind == MD2_SIMPLIFY_RATIO ? floor(t->value * (double)j->m->num_triangles)
                                             : t->value;
    return g >= (double)j->T ? j->T : (size_t)g;
}

/* The steps of the level for target t. */
static md2_result steps_for(sjob *j, const md2_simplify_target *t, size_t *k)
{
    size_t lo = 0, hi = j->steps;
    double mx, mean;
    if (t->kind != MD2_SIMPLIFY_ERROR) {
        size_t goal = goal_of(j, t), s;
        for (s = 0; s < j->steps && j->tris_after[s] > goal; s++) {
        }
        *k = s;
        return MD2_OK;
    }
    /* the longest prefix measured within the error, by bisection */
    replay(j, hi);
    if (!measure(j, hi, &mx, &mean))
        goto oom;
    if (mx <= t->value) {
        *k = hi;
        return MD2_OK;
    }
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        replay(j, mid);
        if (!measure(j, mid, &mx, &mean))
            goto oom;
        if (mx <= t->value)
            lo = mid;
        else
            hi = mid;
    }
    *k = lo;
    return MD2_OK;
oom:
    return md2__fail(j->err, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                     "md2_simplify: out of memory measuring the error");
}

md2_result md2_simplify(const md2_model *m, const md2_simplify_target *targets,
                        size_t num_targets, const md2_simplify_options *opts, md2_lod *levels)
{
    sjob j;
    md2_result r;
    size_t i, goal = (size_t)-1, tris = 0;
    md2_diagnostic *d = opts ? opts->error : NULL;

    md2__diag_clear(d);
    if (levels)
        for (i = 0; i < num_targets; i++)
            memset(&levels[i], 0, sizeof levels[i]);
    MD2_TRY(check(m, targets, num_targets, opts, levels, d));
    for (i = 0; i < m->num_triangles; i++) {
        const md2_triangle *t = &m->triangles[i];
        tris += t->vertex[0] != t->vertex[1] && t->vertex[1] != t->vertex[2] &&
                t->vertex[0] != t->vertex[2];
    }
    if (tris == 0)
        return md2__fail(d, MD2_ERR_INVALID_MODEL, MD2_SECTION_TRIANGLES, "num_triangles", 0, 0,
                         "md2_simplify: the model has no triangle with three distinct vertices (%lu triangles): nothing to simplify",
                         (unsigned long)m->num_triangles);
    memset(&j, 0, sizeof j);
    j.m = m;
    j.err = d;
    j.a = opts && opts->allocator.alloc && opts->allocator.free ? opts->allocator
                                                                 : md2__allocator(NULL);
    j.V = m->num_vertices;
    j.F = m->num_frames;
    j.T = m->num_triangles;
#if defined(MD2_SIMPLIFY_AVX2)
    j.avx2 = __builtin_cpu_supports("avx2");
#endif
    r = setup(&j);
    for (i = 0; i < num_targets && r == MD2_OK; i++) {
        size_t g = targets[i].kind == MD2_SIMPLIFY_ERROR ? 0 : goal_of(&j, &targets[i]);
        goal = g < goal ? g : goal;
    }
    if (r == MD2_OK)
        r = run(&j, goal);
    for (i = 0; i < num_targets && r == MD2_OK; i++) {
        size_t k = 0;
        r = steps_for(&j, &targets[i], &k);
        if (r != MD2_OK)
            break;
        replay(&j, k);
        r = make_level(&j, k, &levels[i],
                       targets[i].kind == MD2_SIMPLIFY_ERROR ||
                           !(opts && (opts->flags & MD2_SIMPLIFY_NO_ERROR)));
        if (r == MD2_ERR_OUT_OF_MEMORY && d && d->result == MD2_OK)
            md2__fail(d, r, MD2_SECTION_NONE, "", 0, i,
                      "md2_simplify: out of memory making level %lu", (unsigned long)i);
    }
    release_all(&j);
    if (r != MD2_OK)
        for (i = 0; i < num_targets; i++)
            md2_lod_free(&levels[i]);
    return r;
}

void md2_lod_free(md2_lod *lod)
{
    if (!lod)
        return;
    md2_free(lod->model);
    if (lod->source_vertex && lod->allocator_.free)
        lod->allocator_.free(lod->allocator_.user, (void *)(uintptr_t)lod->source_vertex);
    memset(lod, 0, sizeof *lod);
}
