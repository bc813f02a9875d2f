/*
 * Draw-ready meshes (<md2/mesh.h>): poses written into caller layouts, GPU
 * morph data, back-to-front order and smooth normals with tangents. Reads
 * a built mesh (mesh_build.c) and a model; never allocates.
 *
 * SPDX-License-Identifier: MIT
 */
#include "md2/mesh.h"
#include "player.h"
#include "reserved.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Layouts and poses                                                         */
/* ------------------------------------------------------------------------ */

/* The layout flags are the pose jobs' output flags (pose.h). */
typedef char md2__unit_flag_agrees[MD2_LAYOUT_UNIT_NORMALS == MD2__POSE_UNIT_NORMALS ? 1 : -1];
typedef char md2__y_up_flag_agrees[MD2_LAYOUT_Y_UP == MD2__POSE_Y_UP ? 1 : -1];
typedef char md2__flip_flag_agrees[MD2_LAYOUT_FLIP_V == MD2__POSE_FLIP_V ? 1 : -1];

md2_vertex_layout md2_layout_default(unsigned flags)
{
    md2_vertex_layout l;
    memset(&l, 0, sizeof l);
    l.stride = 8 * sizeof(float);
    l.position_offset = 0;
    l.normal_offset = 3 * sizeof(float);
    l.uv_offset = 6 * sizeof(float);
    l.flags = flags;
    return l;
}

/* An attribute of n floats at offset: inside the stride, float-aligned. */
static int attribute_ok(size_t offset, size_t floats, size_t stride)
{
    if (offset == MD2_ATTRIBUTE_NONE)
        return 1;
    return offset % sizeof(float) == 0 && offset <= stride &&
           floats * sizeof(float) <= stride - offset;
}

static int apart(size_t a, size_t na, size_t b, size_t nb)
{
    if (a == MD2_ATTRIBUTE_NONE || b == MD2_ATTRIBUTE_NONE)
        return 1;
    return a + na * sizeof(float) <= b || b + nb * sizeof(float) <= a;
}

/* The layout's attributes fit its stride and do not overlap; extra is one
 * more attribute (tangents) of extra_n floats, or MD2_ATTRIBUTE_NONE. */
static int layout_ok(const md2_vertex_layout *l, size_t extra, size_t extra_n)
{
    if (!l || l->stride == 0 || l->stride % sizeof(float) != 0 ||
        l->position_offset == MD2_ATTRIBUTE_NONE)
        return 0;
    return attribute_ok(l->position_offset, 3, l->stride) &&
           attribute_ok(l->normal_offset, 3, l->stride) &&
           attribute_ok(l->uv_offset, 2, l->stride) &&
           attribute_ok(extra, extra_n, l->stride) &&
           apart(l->position_offset, 3, l->normal_offset, 3) &&
           apart(l->position_offset, 3, l->uv_offset, 2) &&
           apart(l->normal_offset, 3, l->uv_offset, 2) &&
           apart(extra, extra_n, l->position_offset, 3) &&
           apart(extra, extra_n, l->normal_offset, 3) && apart(extra, extra_n, l->uv_offset, 2);
}

/* The floats of attribute offset of vertex i. */
static float *attr(void *vertices, const md2_vertex_layout *l, size_t i, size_t offset)
{
    return (float *)(void *)((unsigned char *)vertices + i * l->stride + offset);
}

static const float *attr_c(const void *vertices, const md2_vertex_layout *l, size_t i,
                           size_t offset)
{
    return (const float *)(const void *)((const unsigned char *)vertices + i * l->stride +
                                         offset);
}

/* Common argument checks of the pose writers. */
static md2_result pose_args(const md2_mesh *mesh, const md2_model *m, void *vertices,
                            const md2_vertex_layout *l)
{
    if (!mesh || !m || !vertices || !m->frames || !layout_ok(l, MD2_ATTRIBUTE_NONE, 0) ||
        (uintptr_t)vertices % sizeof(float) != 0 || m->num_vertices != mesh->num_model_vertices)
        return MD2_ERR_INVALID_ARGUMENT;
    return MD2_OK;
}

/* Points job's outputs at every welded vertex of mesh in vertices, as l
 * says (arguments checked); its pose is set up already. */
static void mesh_outputs(md2__pose_job *job, const md2_mesh *mesh, void *vertices,
                         const md2_vertex_layout *l)
{
    size_t stride = l->stride / sizeof(float);
    job->index = mesh->source_vertex;
    job->end = mesh->num_vertices;
    job->model_vertices = mesh->num_model_vertices;
    job->pos = attr(vertices, l, 0, l->position_offset);
    job->pos_stride = stride;
    if (l->normal_offset != MD2_ATTRIBUTE_NONE) {
        job->nrm = attr(vertices, l, 0, l->normal_offset);
        job->nrm_stride = stride;
    }
    if (l->uv_offset != MD2_ATTRIBUTE_NONE) {
        job->uv = attr(vertices, l, 0, l->uv_offset);
        job->uv_stride = stride;
        job->uv_src = mesh->uv;
    }
    job->flags = l->flags & (MD2__POSE_UNIT_NORMALS | MD2__POSE_Y_UP | MD2__POSE_FLIP_V);
}

md2_result md2_mesh_lerp(const md2_mesh *mesh, const md2_model *m, uint32_t frame_a,
                         uint32_t frame_b, float t, void *vertices,
                         const md2_vertex_layout *layout)
{
    md2__pose_job job;

    MD2_TRY(md2__reserved_mesh(mesh, NULL));
    MD2_TRY(md2__reserved_model(m, NULL));
    MD2_TRY(md2__reserved_layout(layout, NULL));
    MD2_TRY(pose_args(mesh, m, vertices, layout));
    MD2_TRY(md2__check_pair(m, frame_a, frame_b, t));
    md2__pose_setup(&job, &m->frames[frame_a], &m->frames[frame_b], t);
    mesh_outputs(&job, mesh, vertices, layout);
    md2__pose_run(&job);
    return MD2_OK;
}

md2_result md2_mesh_pose(const md2_mesh *mesh, const md2_model *m, const md2_player *p,
                         void *vertices, const md2_vertex_layout *layout)
{
    md2_player_frames st;
    md2__pose_job job;

    if (!p)
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_mesh(mesh, NULL));
    MD2_TRY(md2__reserved_model(m, NULL));
    MD2_TRY(md2__reserved_layout(layout, NULL));
    MD2_TRY(pose_args(mesh, m, vertices, layout));
    md2_player_state(p, &st);
    MD2_TRY(md2__pose_frames(&job, m, &st));
    mesh_outputs(&job, mesh, vertices, layout);
    md2__pose_run(&job);
    return MD2_OK;
}

/* ------------------------------------------------------------------------ */
/* GPU morph data                                                            */
/* ------------------------------------------------------------------------ */

size_t md2_mesh_morph_size(const md2_mesh *mesh, const md2_model *m)
{
    if (!mesh || !m || (m->num_frames != 0 && mesh->num_vertices > SIZE_MAX / 4 / m->num_frames))
        return 0;
    if (md2__reserved_mesh(mesh, NULL) != MD2_OK || md2__reserved_model(m, NULL) != MD2_OK)
        return 0;
    return m->num_frames * mesh->num_vertices * 4;
}

md2_result md2_mesh_morph_data(const md2_mesh *mesh, const md2_model *m, void *out,
                               size_t capacity)
{
    uint8_t *o = (uint8_t *)out;
    size_t f, i, need = md2_mesh_morph_size(mesh, m);

    if (!mesh || !m || !out || !m->frames || m->num_vertices != mesh->num_model_vertices ||
        (need == 0 && m->num_frames != 0 && mesh->num_vertices != 0))
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_mesh(mesh, NULL));
    MD2_TRY(md2__reserved_model(m, NULL));
    if (capacity < need)
        return MD2_ERR_BUFFER_TOO_SMALL;
    for (f = 0; f < m->num_frames; f++) {
        const md2_vertex *v = m->frames[f].vertices;
        if (!v && mesh->num_vertices != 0)
            return MD2_ERR_INVALID_ARGUMENT;
        for (i = 0; i < mesh->num_vertices; i++, o += 4) {
            const md2_vertex *s = &v[mesh->source_vertex[i]];
            o[0] = s->v[0];
            o[1] = s->v[1];
            o[2] = s->v[2];
            o[3] = s->normal < MD2_NUM_NORMALS ? s->normal : (uint8_t)MD2_NORMAL_FALLBACK;
        }
    }
    return MD2_OK;
}

md2_result md2_frame_transforms(const md2_model *m, float *out)
{
    size_t f;
    if (!m || !out || (!m->frames && m->num_frames != 0))
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_model(m, NULL));
    for (f = 0; f < m->num_frames; f++) {
        memcpy(out + 6 * f, m->frames[f].scale, 3 * sizeof(float));
        memcpy(out + 6 * f + 3, m->frames[f].translate, 3 * sizeof(float));
    }
    return MD2_OK;
}

md2_result md2_mesh_morph_floats(const md2_mesh *mesh, const md2_model *m, uint32_t first,
                                 uint32_t count, float *positions, float *normals)
{
    size_t f, n;

    if (!mesh || !m || !positions || !m->frames || m->num_vertices != mesh->num_model_vertices)
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_mesh(mesh, NULL));
    MD2_TRY(md2__reserved_model(m, NULL));
    if ((uint64_t)first + count > (uint64_t)m->num_frames)
        return MD2_ERR_FRAME_RANGE;
    n = mesh->num_vertices;
    for (f = 0; f < count; f++) {
        const md2_frame *fr = &m->frames[first + f];
        md2__pose_job job;
        MD2_TRY(md2__check_frame(m, (uint32_t)(first + f)));
        md2__pose_setup(&job, fr, fr, 0.0f);
        job.index = mesh->source_vertex;
        job.end = n;
        job.pos = positions + 3 * f * n;
        job.pos_stride = 3;
        job.nrm = normals ? normals + 3 * f * n : NULL;
        job.nrm_stride = 3;
        md2__pose_run(&job);
    }
    return MD2_OK;
}

/* ------------------------------------------------------------------------ */
/* Back to front                                                             */
/* ------------------------------------------------------------------------ */

typedef struct keyed {
    float key;     /* squared distance of the centroid to the eye */
    uint32_t tri;
} keyed;

/* a before b: farther first; equal distances in file order */
static int before(const keyed *a, const keyed *b)
{
    return a->key > b->key || (a->key == b->key && a->tri < b->tri);
}

size_t md2_mesh_sort_scratch_size(const md2_mesh *mesh)
{
    if (md2__reserved_mesh(mesh, NULL) != MD2_OK)
        return 0;
    return mesh ? 2 * (mesh->num_indices / 3) * sizeof(keyed) : 0;
}

md2_result md2_mesh_sort_back_to_front(const md2_mesh *mesh, const void *vertices,
                                       const md2_vertex_layout *layout, const float eye[3],
                                       uint32_t *indices, void *scratch, size_t scratch_size)
{
    size_t n, i, width;
    keyed *a, *b;

    if (!mesh || !vertices || !eye || !indices || !layout_ok(layout, MD2_ATTRIBUTE_NONE, 0) ||
        (uintptr_t)vertices % sizeof(float) != 0 || (!scratch && mesh->num_indices != 0) ||
        (uintptr_t)scratch % sizeof(float) != 0)
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_mesh(mesh, NULL));
    MD2_TRY(md2__reserved_layout(layout, NULL));
    if (scratch_size < md2_mesh_sort_scratch_size(mesh))
        return MD2_ERR_BUFFER_TOO_SMALL;
    n = mesh->num_indices / 3;
    a = (keyed *)scratch;
    b = a + n;
    for (i = 0; i < n; i++) {
        float c[3] = {0.0f, 0.0f, 0.0f}, d = 0.0f;
        int k, j;
        for (k = 0; k < 3; k++) {
            const float *p = attr_c(vertices, layout, mesh->indices[3 * i + k],
                                    layout->position_offset);
            for (j = 0; j < 3; j++)
                c[j] += p[j];
        }
        for (j = 0; j < 3; j++) {
            float e = c[j] / 3.0f - eye[j];
            d += e * e;
        }
        a[i].key = d;
        a[i].tri = (uint32_t)i;
    }
    /* bottom-up merge sort, stable, O(n log n) */
    for (width = 1; width < n; width *= 2) {
        keyed *t;
        for (i = 0; i < n; i += 2 * width) {
            size_t lo = i, mid = i + width < n ? i + width : n;
            size_t hi = i + 2 * width < n ? i + 2 * width : n;
            size_t x = lo, y = mid, o = lo;
            while (x < mid && y < hi)
                b[o++] = before(&a[y], &a[x]) ? a[y++] : a[x++];
            while (x < mid)
                b[o++] = a[x++];
            while (y < hi)
                b[o++] = a[y++];
        }
        t = a;
        a = b;
        b = t;
    }
    for (i = 0; i < n; i++)
        memcpy(indices + 3 * i, mesh->indices + 3 * (size_t)a[i].tri, 3 * sizeof(uint32_t));
    return MD2_OK;
}

/* ------------------------------------------------------------------------ */
/* Smooth normals and tangents                                               */
/* ------------------------------------------------------------------------ */

size_t md2_mesh_smooth_scratch_size(const md2_mesh *mesh)
{
    if (md2__reserved_mesh(mesh, NULL) != MD2_OK)
        return 0;
    return mesh ? (3 * mesh->num_model_vertices + 6 * mesh->num_vertices) * sizeof(double) : 0;
}

/* In double: coordinates reach 1e30 (MD2_MAX_COORD), so products of two
 * edges would overflow float. */
static void sub3(double out[3], const float a[3], const float b[3])
{
    out[0] = (double)a[0] - (double)b[0];
    out[1] = (double)a[1] - (double)b[1];
    out[2] = (double)a[2] - (double)b[2];
}

static void cross3(double out[3], const double a[3], const double b[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Scales v to unit length; 0 if it is (nearly) zero or not finite. */
static int normalize3(double v[3])
{
    double len = sqrt(dot3(v, v));
    if (!(len > 1e-30) || !(len < HUGE_VAL))
        return 0;
    v[0] /= len;
    v[1] /= len;
    v[2] /= len;
    return 1;
}

/* Adds triangle tri's area-weighted normal to the model vertices' sums and
 * its texture directions to the welded vertices' tangent sums. */
static void accumulate(const md2_mesh *mesh, const void *vertices, const md2_vertex_layout *l,
                       size_t tri, double sign, double *nsum, double *tsum, int tangents)
{
    const uint32_t *idx = mesh->indices + 3 * tri;
    const float *p[3];
    double e1[3], e2[3], n[3];
    int k, j;

    for (k = 0; k < 3; k++)
        p[k] = attr_c(vertices, l, idx[k], l->position_offset);
    sub3(e1, p[1], p[0]);
    sub3(e2, p[2], p[0]);
    cross3(n, e1, e2); /* length: twice the area */
    for (k = 0; k < 3; k++)
        for (j = 0; j < 3; j++)
            nsum[3 * mesh->source_vertex[idx[k]] + j] += sign * n[j];
    if (tangents) {
        const float *uv[3];
        double du1, dv1, du2, dv2, det, t[3], b[3];
        for (k = 0; k < 3; k++)
            uv[k] = attr_c(vertices, l, idx[k], l->uv_offset);
        du1 = (double)uv[1][0] - uv[0][0];
        dv1 = (double)uv[1][1] - uv[0][1];
        du2 = (double)uv[2][0] - uv[0][0];
        dv2 = (double)uv[2][1] - uv[0][1];
        det = du1 * dv2 - du2 * dv1;
        if (!(fabs(det) > 1e-20))
            return; /* no texture direction on this triangle */
        for (j = 0; j < 3; j++) {
            t[j] = (e1[j] * dv2 - e2[j] * dv1) / det;
            b[j] = (e2[j] * du1 - e1[j] * du2) / det;
        }
        for (k = 0; k < 3; k++)
            for (j = 0; j < 3; j++) {
                tsum[6 * idx[k] + j] += t[j];
                tsum[6 * idx[k] + 3 + j] += b[j];
            }
    }
}

/* A unit vector orthogonal to unit n. */
static void any_orthogonal(double out[3], const double n[3])
{
    static const double axes[2][3] = {{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}};
    const double *a = fabs(n[0]) < 0.9 ? axes[0] : axes[1];
    double d = dot3(a, n);
    int j;
    for (j = 0; j < 3; j++)
        out[j] = a[j] - d * n[j];
    normalize3(out);
}

static void put3(float *out, const double v[3])
{
    out[0] = (float)v[0];
    out[1] = (float)v[1];
    out[2] = (float)v[2];
}

md2_result md2_mesh_smooth(const md2_mesh *mesh, void *vertices, const md2_vertex_layout *layout,
                           size_t tangent_offset, void *scratch, size_t scratch_size)
{
    int tangents = tangent_offset != MD2_ATTRIBUTE_NONE;
    double *nsum, *tsum;
    /* file order is clockwise seen from outside: its cross product points
     * in, so it is turned around; a counter-clockwise mesh needs not */
    double sign = (mesh && (mesh->flags & MD2_MESH_COUNTER_CLOCKWISE)) ? 1.0 : -1.0;
    size_t i;

    if (!mesh || !vertices || !scratch || !layout_ok(layout, tangent_offset, 4) ||
        layout->normal_offset == MD2_ATTRIBUTE_NONE ||
        (tangents && layout->uv_offset == MD2_ATTRIBUTE_NONE) ||
        (uintptr_t)vertices % sizeof(float) != 0 || (uintptr_t)scratch % MD2_ALIGNOF(double) != 0)
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_mesh(mesh, NULL));
    MD2_TRY(md2__reserved_layout(layout, NULL));
    if (scratch_size < md2_mesh_smooth_scratch_size(mesh))
        return MD2_ERR_BUFFER_TOO_SMALL;
    nsum = (double *)scratch;
    tsum = nsum + 3 * mesh->num_model_vertices;
    for (i = 0; i < 3 * mesh->num_model_vertices + 6 * mesh->num_vertices; i++)
        nsum[i] = 0.0;
    for (i = 0; i < mesh->num_indices / 3; i++)
        accumulate(mesh, vertices, layout, i, sign, nsum, tsum, tangents);
    for (i = 0; i < mesh->num_vertices; i++) {
        double n[3];
        memcpy(n, nsum + 3 * mesh->source_vertex[i], sizeof n);
        if (!normalize3(n)) {
            int y_up = (layout->flags & MD2_LAYOUT_Y_UP) != 0;
            n[0] = 0.0;
            n[1] = y_up ? 1.0 : 0.0;
            n[2] = y_up ? 0.0 : 1.0;
        }
        put3(attr(vertices, layout, i, layout->normal_offset), n);
        if (tangents) {
            float *tan = attr(vertices, layout, i, tangent_offset);
            const double *t = tsum + 6 * i, *b = tsum + 6 * i + 3;
            double o[3], c[3], d = dot3(n, t);
            int j;
            for (j = 0; j < 3; j++)
                o[j] = t[j] - d * n[j];
            if (!normalize3(o))
                any_orthogonal(o, n);
            cross3(c, n, o);
            put3(tan, o);
            tan[3] = dot3(c, b) < 0.0 ? -1.0f : 1.0f;
        }
    }
    return MD2_OK;
}
