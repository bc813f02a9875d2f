/*
 * The builder's frames: boxes and frame transforms, quantisation that
 * rounds, and normals (build_frames.h). Every float operation is rounded
 * to float on every host (round.h), as the decoder rounds, so a built
 * model has the same bytes on x86-64, aarch64, s390x and x87.
 *
 * SPDX-License-Identifier: MIT
 */
#include "build_frames.h"

#include "md2/build.h"
#include "round.h"

#include <math.h>
#include <string.h>

/* Row i of 3 floats at base, every stride bytes */
static const float *row(const float *base, size_t stride, size_t i)
{
    return (const float *)(const void *)((const char *)base + i * stride);
}

/* ------------------------------------------------------------------------ */
/* Boxes and transforms                                                      */
/* ------------------------------------------------------------------------ */

void md2__box_empty(float lo[3], float hi[3])
{
    int k;
    for (k = 0; k < 3; k++) {
        lo[k] = HUGE_VALF;
        hi[k] = -HUGE_VALF;
    }
}

void md2__box_add(const float *pos, size_t stride, size_t n, float lo[3], float hi[3])
{
    size_t i;
    int k;
    for (i = 0; i < n; i++) {
        const float *p = row(pos, stride, i);
        for (k = 0; k < 3; k++) {
            if (p[k] < lo[k])
                lo[k] = p[k];
            if (p[k] > hi[k])
                hi[k] = p[k];
        }
    }
}

void md2__box_transform(const float lo[3], const float hi[3], float scale[3],
                        float translate[3])
{
    int k;
    for (k = 0; k < 3; k++) {
        /* hi - lo is at most 2 * MD2_BUILD_MAX_COORD: no overflow; 0 for
         * a flat axis, whose every step then decodes to lo exactly */
        scale[k] = md2__div(md2__sub(hi[k], lo[k]), 255.0f);
        translate[k] = lo[k];
    }
}

/* ------------------------------------------------------------------------ */
/* Quantisation                                                              */
/* ------------------------------------------------------------------------ */

/* Step v of an axis, decoded as md2_decode_frame() decodes it. */
static float decoded(float scale, int v, float translate)
{
    return md2__mul_add(scale, (float)v, translate);
}

/* The step of 0..255 whose decoded value is nearest to p (the lower of two
 * as near), starting from the guess. The decoded values do not decrease
 * with v (each rounding is monotonic and scale >= 0), so the nearest is
 * one of the two around p: walk to them. The guess is right or one off
 * but for degenerate transforms (a scale below the float spacing of
 * translate), where the walk is at most 255 steps. */
static uint8_t nearest_step(float p, float scale, float translate, int v)
{
    float g = decoded(scale, v, translate);
    if (g < p) {
        while (v < 255) {
            float next = decoded(scale, v + 1, translate);
            if (next >= p) /* g < p <= next */
                return (uint8_t)(md2__sub(next, p) < md2__sub(p, g) ? v + 1 : v);
            v++;
            g = next;
        }
        return 255;
    }
    while (v > 0 && g > p) {
        float prev = decoded(scale, v - 1, translate);
        if (prev <= p) /* prev <= p < g */
            return (uint8_t)(md2__sub(p, prev) <= md2__sub(g, p) ? v - 1 : v);
        v--;
        g = prev;
    }
    return (uint8_t)v;
}

/* A first guess of the nearest step: (p - translate) / scale rounded. */
static int guess_step(float p, float translate, float inverse)
{
    float q = md2__mul(md2__sub(p, translate), inverse);
    if (!(q > 0.0f)) /* also NaN: 0 * inf when the scale is tiny */
        return 0;
    if (!(q < 255.0f))
        return 255;
    return (int)md2__add(q, 0.5f);
}

void md2__quantize(const float *pos, size_t stride, size_t n, const float scale[3],
                   const float translate[3], md2_vertex *out)
{
    float inverse[3];
    size_t i;
    int k;

    for (k = 0; k < 3; k++)
        inverse[k] = scale[k] > 0.0f ? md2__div(1.0f, scale[k]) : 0.0f;
    for (i = 0; i < n; i++) {
        const float *p = row(pos, stride, i);
        for (k = 0; k < 3; k++) {
            if (scale[k] > 0.0f)
                out[i].v[k] = nearest_step(p[k], scale[k], translate[k],
                                           guess_step(p[k], translate[k], inverse[k]));
            else
                out[i].v[k] = 0; /* a flat axis: every step decodes to translate */
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Stable grids                                                              */
/* ------------------------------------------------------------------------ */

size_t md2__stable_scratch_size(size_t count)
{
    return count * sizeof(md2__stable_frame);
}

/* Whether frame b is frame a moved (every coordinate of b within tol of
 * a's plus the difference of the boxes' centres); the move into d. */
static int stable_moved(const float *pa, const float *pb, size_t vstride, size_t n,
                        const md2__stable_frame *fa, const md2__stable_frame *fb, double d[3])
{
    double mag = 0.0, tol;
    size_t i;
    int k;
    for (k = 0; k < 3; k++) {
        double ea = (double)fa->hi[k] - (double)fa->lo[k];
        double eb = (double)fb->hi[k] - (double)fb->lo[k];
        double m = fabs((double)fa->lo[k]);
        if (fabs((double)fa->hi[k]) > m)
            m = fabs((double)fa->hi[k]);
        if (fabs((double)fb->lo[k]) > m)
            m = fabs((double)fb->lo[k]);
        if (fabs((double)fb->hi[k]) > m)
            m = fabs((double)fb->hi[k]);
        if (m > mag)
            mag = m;
        d[k] = 0.5 * (((double)fb->lo[k] + (double)fb->hi[k]) -
                      ((double)fa->lo[k] + (double)fa->hi[k]));
        if (fabs(ea - eb) > 4.0 * ldexp(m, -23))
            return 0;
    }
    tol = 4.0 * ldexp(mag, -23); /* a few roundings of the largest coordinate */
    for (i = 0; i < n; i++) {
        const float *a = row(pa, vstride, i), *b = row(pb, vstride, i);
        for (k = 0; k < 3; k++)
            if (fabs((double)b[k] - (double)a[k] - d[k]) > tol)
                return 0;
    }
    return 1;
}

/* The step of an axis: S * 2^e, S below 2^16, at least need; e large
 * enough that every value within mag is below 2^24 units. 0 when no such
 * step keeps S at 16 or more (or 2^e is below float's least). */
static int stable_step(double need, double mag, long long *S, int *e)
{
    int x, y, e0, er;
    (void)frexp(need, &x);     /* need < 2^x */
    (void)frexp(mag, &y);      /* mag < 2^y */
    e0 = x - 16;
    er = y - 24;
    *e = e0 > er ? e0 : er;
    if (*e < -149)
        return 0;
    *S = (long long)ceil(ldexp(need, -*e));
    return *S >= 16 && *S <= 65536; /* 255 * 65536 < 2^24 */
}

void md2__quantize_stable(const float *pos, size_t vstride, size_t fstride, size_t n,
                          size_t first, size_t count, void *scratch, md2_frame *frames)
{
    md2__stable_frame *sf = (md2__stable_frame *)scratch;
    size_t f;
    int k;

    for (f = 0; f < count; f++) {
        const float *p = row(pos, fstride, first + f);
        /* cppcheck-suppress variableScope ; filled for each frame after the first */
        double d[3];
        md2__box_empty(sf[f].lo, sf[f].hi);
        md2__box_add(p, vstride, n, sf[f].lo, sf[f].hi);
        sf[f].ref = f;
        if (f > 0) {
            size_t r = sf[f - 1].ref;
            if (stable_moved(row(pos, fstride, first + r), p, vstride, n, &sf[r], &sf[f], d))
                sf[f].ref = r;
        }
    }
    for (k = 0; k < 3; k++) {
        double extent = 0.0, mag = 0.0, need, unit;
        float clo = HUGE_VALF, chi = -HUGE_VALF, box_scale, box_t;
        long long S = 0;
        int e = 0, lattice;
        for (f = 0; f < count; f++) {
            double ext = (double)sf[f].hi[k] - (double)sf[f].lo[k];
            if (ext > extent)
                extent = ext;
            if (fabs((double)sf[f].lo[k]) > mag)
                mag = fabs((double)sf[f].lo[k]);
            if (fabs((double)sf[f].hi[k]) > mag)
                mag = fabs((double)sf[f].hi[k]);
            if (sf[f].lo[k] < clo)
                clo = sf[f].lo[k];
            if (sf[f].hi[k] > chi)
                chi = sf[f].hi[k];
        }
        /* the animation's one box, as md2__box_transform() makes it */
        box_scale = md2__div(md2__sub(chi, clo), 255.0f);
        box_t = clo;
        need = extent / 254.0;
        lattice = extent > 0.0 && stable_step(need, mag + 4.0 * need, &S, &e) &&
                  ldexp((double)S, e) < (double)box_scale;
        unit = ldexp(1.0, e);
        for (f = 0; f < count; f++) {
            md2_frame *fr = &frames[first + f];
            size_t r = sf[f].ref;
            sf[f].copy[k] = 0;
            if (extent == 0.0) { /* flat in every frame: exact */
                fr->scale[k] = 0.0f;
                fr->translate[k] = sf[f].lo[k];
                continue;
            }
            if (!lattice) {
                fr->scale[k] = box_scale;
                fr->translate[k] = box_t;
                continue;
            }
            if (r != f) { /* moved: the reference's translate moved by d */
                double dd = 0.5 * (((double)sf[f].lo[k] + (double)sf[f].hi[k]) -
                                   ((double)sf[r].lo[k] + (double)sf[r].hi[k]));
                sf[f].t[k] = sf[r].t[k] + (long long)floor(dd / unit + 0.5);
                /* the move's rounding, at most 2^(e - 1), is below 1/2048 of a
                 * step (S >= 1024), and the decode stays exact */
                if (S >= 1024 && sf[f].t[k] > -(1LL << 24) + 255 * S &&
                    sf[f].t[k] < (1LL << 24) - 255 * S)
                    sf[f].copy[k] = 1;
            }
            if (!sf[f].copy[k]) { /* the lattice point at or below the least coordinate */
                double lo = (double)sf[f].lo[k];
                long long t = (long long)floor(lo / ldexp((double)S, e)) * S;
                while (ldexp((double)t, e) > lo)
                    t -= S;
                while (ldexp((double)(t + S), e) <= lo)
                    t += S;
                sf[f].t[k] = t;
            }
            fr->scale[k] = (float)ldexp((double)S, e);
            fr->translate[k] = (float)ldexp((double)sf[f].t[k], e);
        }
    }
    for (f = 0; f < count; f++) {
        md2_frame *fr = &frames[first + f];
        md2_vertex *out = (md2_vertex *)(void *)(uintptr_t)fr->vertices;
        size_t r = sf[f].ref, i;
        md2__quantize(row(pos, fstride, first + f), vstride, n, fr->scale, fr->translate, out);
        if (r == f)
            continue;
        for (k = 0; k < 3; k++) {
            const md2_vertex *src = frames[first + r].vertices;
            if (!sf[f].copy[k])
                continue;
            for (i = 0; i < n; i++)
                out[i].v[k] = src[i].v[k];
        }
    }
}

void md2__wobble_states(const float *a, const float *b, size_t n, const float h[3],
                        const md2_triangle *tris, size_t num_tris, unsigned char *state,
                        unsigned char *busy)
{
    size_t i;
    int k;
    for (i = 0; i < n; i++) {
        int steps = 0;
        for (k = 0; k < 3; k++) {
            float d = fabsf(md2__sub(b[3 * i + k], a[3 * i + k]));
            int s;
            if (d == 0.0f)
                s = 0;
            else if (!(h[k] > 0.0f))
                s = 2;
            else
                s = d < md2__mul(0.5f, h[k]) ? 0 : d < md2__mul(1.5f, h[k]) ? 1 : 2;
            if (s > steps)
                steps = s;
        }
        state[i] = (unsigned char)steps;
        busy[i] = 0;
    }
    for (i = 0; i < num_tris; i++) {
        const uint16_t *v = tris[i].vertex;
        int c;
        for (c = 0; c < 3; c++) {
            int o;
            if (state[v[c]] == 0)
                continue;
            for (o = 1; o < 3; o++) /* its neighbours (not itself, in a degenerate triangle) */
                if (v[(c + o) % 3] != v[c])
                    busy[v[(c + o) % 3]] = 1;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Normals                                                                   */
/* ------------------------------------------------------------------------ */

void md2__normals_given(const float *nrm, size_t stride, size_t n, md2_vertex *out)
{
    size_t i;
    for (i = 0; i < n; i++) {
        const float *v = row(nrm, stride, i);
        out[i].normal = (uint8_t)md2_normal_nearest(v[0], v[1], v[2]);
    }
}

size_t md2__smooth_scratch_size(size_t n)
{
    return n * 3 * sizeof(float); /* a sum a vertex */
}

/* A power of two that brings the frame's largest extent into [2^11, 2^12)
 * (1 for a frame of one point), as two factors: each within float range,
 * their product possibly not. Scaling by it is exact (up to underflow), so
 * the face normals' directions do not change, and their products stay far
 * from overflow for any coordinate within MD2_BUILD_MAX_COORD. */
static void extent_scale(const float *pos, size_t stride, size_t n, float factor[2])
{
    float lo[3], hi[3], largest = 0.0f;
    int k, e = 0, shift;

    md2__box_empty(lo, hi);
    md2__box_add(pos, stride, n, lo, hi);
    for (k = 0; k < 3; k++) {
        float extent = md2__sub(hi[k], lo[k]);
        if (extent > largest)
            largest = extent;
    }
    if (largest > 0.0f)
        (void)frexpf(largest, &e); /* largest < 2^e */
    shift = largest > 0.0f ? 12 - e : 0;
    factor[0] = ldexpf(1.0f, shift / 2);
    factor[1] = ldexpf(1.0f, shift - shift / 2);
}

/* a - b, scaled by the two factors */
static void scaled_edge(float out[3], const float *a, const float *b, const float factor[2])
{
    int k;
    for (k = 0; k < 3; k++)
        out[k] = md2__mul(md2__mul(md2__sub(a[k], b[k]), factor[0]), factor[1]);
}

void md2__normals_smooth(const float *pos, size_t stride, size_t n,
                         const md2_triangle *tris, size_t num_tris, void *scratch,
                         md2_vertex *out)
{
    float *sum = (float *)scratch, factor[2];
    size_t i;
    int k;

    extent_scale(pos, stride, n, factor);
    for (i = 0; i < 3 * n; i++)
        sum[i] = 0.0f;
    /* each triangle's normal, its length twice its area, onto its corners
     * in triangle order (a fixed order of additions: the same bits
     * everywhere): (c - a) x (b - a) points to the front of a triangle
     * that is clockwise seen from the front */
    for (i = 0; i < num_tris; i++) {
        const md2_triangle *t = &tris[i];
        const float *a = row(pos, stride, t->vertex[0]);
        float e1[3], e2[3], c[3];
        int j;
        scaled_edge(e1, row(pos, stride, t->vertex[2]), a, factor);
        scaled_edge(e2, row(pos, stride, t->vertex[1]), a, factor);
        c[0] = md2__sub(md2__mul(e1[1], e2[2]), md2__mul(e1[2], e2[1]));
        c[1] = md2__sub(md2__mul(e1[2], e2[0]), md2__mul(e1[0], e2[2]));
        c[2] = md2__sub(md2__mul(e1[0], e2[1]), md2__mul(e1[1], e2[0]));
        for (j = 0; j < 3; j++) {
            float *s = sum + 3 * (size_t)t->vertex[j];
            for (k = 0; k < 3; k++)
                s[k] = md2__add(s[k], c[k]);
        }
    }
    for (i = 0; i < n; i++)
        out[i].normal = (uint8_t)md2_normal_nearest(sum[3 * i], sum[3 * i + 1], sum[3 * i + 2]);
}
