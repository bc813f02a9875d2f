/*
 * Poses of a model (<md2/md2.h>): md2_lerp(), md2_decode_frame(),
 * md2_normalize() and keyframe bounds, and the pose jobs every pose call
 * runs (pose.h). Decodes compressed keyframes (scale * v + translate),
 * looks up normals and interpolates keyframes into caller buffers. Reads
 * the model only; never allocates.
 *
 * SPDX-License-Identifier: MIT
 */
#include "pose.h"
#include "reserved.h"

#include <math.h>
#include <string.h>

#define MD2_VEC3_BYTES (3 * sizeof(float))

/* Every float operation below is rounded to float on every host (round.h
 * explains why and how), as the pose kernels (pose_kernels.c) round. */

/* scale * v + translate: one coordinate of a keyframe */
static float decode(const md2_frame *f, const md2_vertex *v, int axis)
{
    return md2__mul_add(f->scale[axis], (float)v->v[axis], f->translate[axis]);
}

/* ------------------------------------------------------------------------ */
/* Jobs                                                                      */
/* ------------------------------------------------------------------------ */

void md2__pose_write(md2__pose_job *job, size_t count, float *positions, size_t ps,
                     float *normals, size_t ns)
{
    job->end = count;
    job->pos = positions;
    job->pos_stride = ps;
    job->nrm = normals;
    job->nrm_stride = ns;
    md2__pose_run(job);
}

/* ------------------------------------------------------------------------ */
/* Checks                                                                    */
/* ------------------------------------------------------------------------ */

size_t md2__stride_floats(size_t stride)
{
    if (stride == 0)
        return 3;
    if (stride < MD2_VEC3_BYTES || stride % sizeof(float) != 0)
        return 0;
    return stride / sizeof(float);
}

md2_result md2__check_frame(const md2_model *m, uint32_t frame)
{
    if ((size_t)frame >= m->num_frames)
        return MD2_ERR_FRAME_RANGE;
    if (!m->frames[frame].vertices && m->num_vertices != 0)
        return MD2_ERR_INVALID_ARGUMENT;
    return MD2_OK;
}

md2_result md2__check_pair(const md2_model *m, uint32_t frame_a, uint32_t frame_b, float t)
{
    if (!(t >= 0.0f && t <= 1.0f)) /* also refuses NaN */
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__check_frame(m, frame_a));
    return md2__check_frame(m, frame_b);
}

/* ------------------------------------------------------------------------ */
/* The calls                                                                 */
/* ------------------------------------------------------------------------ */

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
    md2__pose_setup(&job, &m->frames[frame_a], &m->frames[frame_b], t);
    md2__pose_write(&job, m->num_vertices, positions, ps, normals, ns);
    return MD2_OK;
}

md2_result md2_decode_frame(const md2_model *m, uint32_t frame, float *positions,
                            size_t position_stride, float *normals,
                            size_t normal_stride)
{
    return md2_lerp(m, frame, frame, 0.0f, positions, position_stride,
                    normals, normal_stride);
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

md2_result md2_frame_bounds(const md2_model *m, uint32_t frame, float min[3],
                            float max[3])
{
    const md2_frame *f;
    size_t i;
    int k;

    if (!m || !min || !max || !m->frames || m->num_vertices == 0)
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_model(m, NULL));
    MD2_TRY(md2__check_frame(m, frame));
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

md2_result md2__pair_bounds(const md2_model *m, uint32_t a, uint32_t b, float t,
                            float min[3], float max[3])
{
    float mna[3], mxa[3], mnb[3], mxb[3], wa;
    int k;

    if (a == b || t == 0.0f)
        return md2_frame_bounds(m, a, min, max);
    if (t == 1.0f)
        return md2_frame_bounds(m, b, min, max);
    MD2_TRY(md2_frame_bounds(m, a, mna, mxa));
    MD2_TRY(md2_frame_bounds(m, b, mnb, mxb));
    /* The same rounded operations as the pose, a held position kept
     * (md2__keep2_lo/hi): the box contains the pose on every host. */
    wa = 1.0f - t;
    for (k = 0; k < 3; k++) {
        min[k] = md2__keep2_lo(wa, mna[k], t, mnb[k]);
        max[k] = md2__keep2_hi(wa, mxa[k], t, mxb[k]);
    }
    return MD2_OK;
}
