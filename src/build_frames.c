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
