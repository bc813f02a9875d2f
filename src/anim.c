/*
 * The animation module: decodes compressed keyframes (scale * v +
 * translate), looks up normals and interpolates two keyframes into caller
 * buffers. Reads the model only; never allocates.
 *
 * SPDX-License-Identifier: MIT
 */
#include "internal.h"
#include "pose.h"
#include "reserved.h"
#include "round.h"

#include <float.h>
#include <math.h>

#define MD2_VEC3_BYTES (3 * sizeof(float))

/* Every float operation below is rounded to float on every host
 * (round.h explains why and how). The pose kernels (pose_kernels.c) do the
 * same operations for whole poses; these helpers serve one vertex at a
 * time (md2__lerp_vertex, cross-fades) and the bounds. */

/* scale * v + translate: one coordinate of a keyframe */
static float decode(const md2_frame *f, const md2_vertex *v, int axis)
{
    return md2__mul_add(f->scale[axis], (float)v->v[axis], f->translate[axis]);
}

/* wa * a + wb * b, each product and the sum rounded (weights too) */
static float blend(float wa, float a, float wb, float b)
{
    return md2__blend2(wa, a, wb, b);
}

/* The largest coordinate allowed, as a double object: the constant
 * MD2_MAX_COORD may be evaluated in long double on x87. */
static const double max_coord = MD2_MAX_COORD;

int md2__axis_ok(float scale, float translate)
{
    /* Does |scale| * 255 + |translate|, rounded to double, not exceed
     * max_coord? In double neither the products nor the sum can overflow.
     * The product is exact (32 significant bits); the sum is not, and x87
     * would round it to 64 bits first (and then to double, at worst
     * differently), so the test uses exact operations only. */
    double a = fabs((double)scale) * 255.0;
    double b = fabs((double)translate);
    double hi = a > b ? a : b, lo = a > b ? b : a, r, half_ulp, t;
    int e;

    /* the usual case, at once: 255 * 1e27 + 1e27 < 1e30 */
    if (fabsf(scale) <= 1e27f && fabsf(translate) <= 1e27f)
        return 1;
    if (!isfinite(scale) || !isfinite(translate) || !(hi <= max_coord))
        return 0;
    if (hi < 0.5 * max_coord) /* then lo + hi < max_coord */
        return 1;
    r = max_coord - hi; /* exact: hi is within a factor 2 of max_coord */
    if (lo <= r)
        return 1;
    /* lo + hi > max_coord: it rounds to max_coord below the midpoint
     * max_coord + half an ulp, that is lo < t = r + half_ulp (exact: a
     * multiple of half_ulp, which divides hi, and at most 2^53 of them), and
     * at the midpoint if max_coord's significand is even (ties to even) */
    (void)frexp(max_coord, &e);
    half_ulp = ldexp(1.0, e - DBL_MANT_DIG - 1);
    t = r + half_ulp;
    return lo < t || (lo == t && fmod(max_coord, 4.0 * half_ulp) == 0.0);
}

size_t md2__stride_floats(size_t stride)
{
    if (stride == 0)
        return 3;
    if (stride < MD2_VEC3_BYTES || stride % sizeof(float) != 0)
        return 0;
    return stride / sizeof(float);
}

md2_result md2__check_pair(const md2_model *m, uint32_t frame_a, uint32_t frame_b, float t)
{
    md2_result r;
    if (!(t >= 0.0f && t <= 1.0f)) /* also refuses NaN */
        return MD2_ERR_INVALID_ARGUMENT;
    if ((r = md2__check_frame(m, frame_a)) != MD2_OK)
        return r;
    return md2__check_frame(m, frame_b);
}

md2_result md2__check_frame(const md2_model *m, uint32_t frame)
{
    if ((size_t)frame >= m->num_frames)
        return MD2_ERR_FRAME_RANGE;
    if (!m->frames[frame].vertices && m->num_vertices != 0)
        return MD2_ERR_INVALID_ARGUMENT;
    return MD2_OK;
}

float md2__blend(float wa, float a, float wb, float b) { return blend(wa, a, wb, b); }

/* Vertex i of keyframe f: scale * v + translate, and its table normal. */
static void key_vertex(const md2_frame *f, size_t i, float *pos, float *nrm)
{
    const md2_vertex *v = &f->vertices[i];
    int k;
    for (k = 0; k < 3; k++)
        pos[k] = decode(f, v, k);
    if (nrm) {
        const float *nv = md2_normal(v->normal);
        for (k = 0; k < 3; k++)
            nrm[k] = nv[k];
    }
}

/* Vertex i blended between keyframes fa and fb at 0 < t < 1. */
static void mid_vertex(const md2_frame *fa, const md2_frame *fb, float t, size_t i,
                       float *pos, float *nrm)
{
    const md2_vertex *va = &fa->vertices[i];
    const md2_vertex *vb = &fb->vertices[i];
    float wa = 1.0f - t;
    int k;
    for (k = 0; k < 3; k++)
        pos[k] = blend(wa, decode(fa, va, k), t, decode(fb, vb, k));
    if (nrm) {
        const float *na = md2_normal(va->normal);
        const float *nb = md2_normal(vb->normal);
        for (k = 0; k < 3; k++)
            nrm[k] = blend(wa, na[k], t, nb[k]);
    }
}

/* t = 0, t = 1 and a == b give a keyframe exactly, not a blend */
static int is_keyframe(const md2_frame *fa, const md2_frame *fb, float t)
{
    return t == 0.0f || t == 1.0f || fa == fb;
}

void md2__lerp_vertex(const md2_frame *fa, const md2_frame *fb, float t, size_t i,
                      float pos[3], float nrm[3])
{
    if (is_keyframe(fa, fb, t))
        key_vertex(t == 1.0f ? fb : fa, i, pos, nrm);
    else
        mid_vertex(fa, fb, t, i, pos, nrm);
}

md2_result md2_lerp(const md2_model *m, uint32_t frame_a, uint32_t frame_b,
                    float t, float *positions, size_t position_stride,
                    float *normals, size_t normal_stride)
{
    md2__pose_job job;
    size_t ps = md2__stride_floats(position_stride);
    size_t ns = md2__stride_floats(normal_stride);

    if (!m || !positions || !m->frames || ps == 0 || (normals && ns == 0))
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_model(m, NULL));
    MD2_TRY(md2__check_pair(m, frame_a, frame_b, t));

    /* one kernel call for the whole pose (pose_kernels.c): the same bits
     * as md2__lerp_vertex() for every vertex, on every host */
    md2__pose_setup(&job, &m->frames[frame_a], &m->frames[frame_b], t);
    job.count = m->num_vertices;
    job.pos = positions;
    job.pos_stride = ps;
    job.nrm = normals;
    job.nrm_stride = ns;
    md2__pose_run(&job);
    return MD2_OK;
}

md2_result md2_normalize(float *normals, size_t count, size_t normal_stride)
{
    size_t ns = md2__stride_floats(normal_stride);
    size_t i;

    if ((!normals && count > 0) || ns == 0)
        return MD2_ERR_INVALID_ARGUMENT;
    for (i = 0; i < count; i++)
        md2__unit_normal(normals + i * ns);
    return MD2_OK;
}

md2_result md2_decode_frame(const md2_model *m, uint32_t frame, float *positions,
                            size_t position_stride, float *normals,
                            size_t normal_stride)
{
    return md2_lerp(m, frame, frame, 0.0f, positions, position_stride,
                    normals, normal_stride);
}

md2_result md2_frame_bounds(const md2_model *m, uint32_t frame, float min[3],
                            float max[3])
{
    const md2_frame *f;
    size_t i;
    int k;
    md2_result r;

    if (!m || !min || !max || !m->frames || m->num_vertices == 0)
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_model(m, NULL));
    if ((r = md2__check_frame(m, frame)) != MD2_OK)
        return r;
    f = &m->frames[frame];
    for (k = 0; k < 3; k++) {
        float p = decode(f, &f->vertices[0], k);
        min[k] = p;
        max[k] = p;
    }
    for (i = 1; i < m->num_vertices; i++) {
        for (k = 0; k < 3; k++) {
            float p = decode(f, &f->vertices[i], k);
            if (p < min[k])
                min[k] = p;
            if (p > max[k])
                max[k] = p;
        }
    }
    return MD2_OK;
}
