/*
 * md2 export: tags as animated glTF nodes, and the models --attach hangs
 * on them, in glTF and OBJ (export_tags.h says how the writers use it).
 *
 * Axes: glTF (x, y, z) = MD2 (y, z, x), as export_gltf.c writes the body:
 * a point p is P p with P that permutation, so a tag's matrix M (MD2: a
 * child's coordinates to the parent's) becomes P M P^T: rotation element
 * (r, c) = M (axis[r], axis[c]), translation r = M (axis[r], 3).
 *
 * glTF nodes hold a rotation, not any 3x3 matrix: a tag whose axes in a
 * keyframe are not orthonormal (scaled, sheared, or mirrored) is written
 * as the rotation md2_tag_lerp() makes of blended axes: forward
 * normalised, right made orthogonal to it and normalised, up their cross
 * product. The export then warns.
 *
 * SPDX-License-Identifier: MIT
 */
#include "export_tags.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* glTF axis c takes MD2 axis tag_axis[c]. */
static const int tag_axis[3] = {1, 2, 0};

/* Parts of the tags' data, each one buffer view when not empty. */
enum { PART_INDICES, PART_VEC3, PART_VEC2, PART_ANIM, PART_COUNT };

enum {
    T_UNSIGNED_SHORT = 5123,
    T_UNSIGNED_INT = 5125,
    T_FLOAT = 5126,
    T_ARRAY_BUFFER = 34962,
    T_ELEMENT_ARRAY_BUFFER = 34963
};

/* How far from orthonormal (in dot products and lengths) a tag's axes may
 * be before they count as not orthonormal: what float files carry. */
#define TAG_ORTHO_SLACK 1e-4

typedef struct build {
    export_tags *t;
    tool_buf part[PART_COUNT];
    size_t part_view[PART_COUNT]; /* the local view of each part, or (size_t)-1 */
} build;

void export_tags_init(export_tags *t, const export_job *job)
{
    memset(t, 0, sizeof *t);
    t->job = job;
    t->tags = job->tm->bundle ? job->tm->bundle->tags : NULL;
    t->num_tags = t->tags ? t->tags->num_tags : 0;
    t->node_scale = 1.0;
}

void export_tags_free(export_tags *t)
{
    if (t->meshes) {
        size_t i;
        for (i = 0; i < t->job->num_attached; i++) {
            md2_mesh_free(t->meshes[i].mesh);
            free(t->meshes[i].png);
        }
    }
    free(t->meshes);
    free(t->acc);
    free(t->rest);
    free(t->anim_acc);
    free(t->image_views);
    tool_buf_free(&t->bin);
    memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------------------ */
/* Tag matrices as translation and rotation                                  */
/* ------------------------------------------------------------------------ */

static double dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* v scaled to unit length: 1, or 0 (v left) if it has none. */
static int unit(double *v)
{
    double n = sqrt(dot(v, v));
    int c;
    if (!(n > 1e-12))
        return 0;
    for (c = 0; c < 3; c++)
        v[c] /= n;
    return 1;
}

/* The columns of an MD2 tag matrix made a rotation, as md2_tag_lerp()
 * makes blended axes one (see the top of this file); 1 if they already
 * were one within TAG_ORTHO_SLACK. */
static int orthonormalise(const float *m, double axes[3][3])
{
    static const double fallback[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double f[3], r[3], u[3], d;
    int c, ok = 1;
    for (c = 0; c < 3; c++) {
        f[c] = m[c];
        r[c] = m[4 + c];
        u[c] = m[8 + c];
    }
    if (fabs(dot(f, f) - 1.0) > TAG_ORTHO_SLACK || fabs(dot(r, r) - 1.0) > TAG_ORTHO_SLACK ||
        fabs(dot(u, u) - 1.0) > TAG_ORTHO_SLACK || fabs(dot(f, r)) > TAG_ORTHO_SLACK ||
        fabs(dot(f, u)) > TAG_ORTHO_SLACK || fabs(dot(r, u)) > TAG_ORTHO_SLACK)
        ok = 0;
    if (!unit(f))
        memcpy(f, fallback[0], sizeof f);
    d = dot(r, f);
    for (c = 0; c < 3; c++)
        r[c] -= d * f[c];
    if (!unit(r)) {
        /* right along forward or zero: any axis across forward */
        cross(f, fabs(f[2]) < 0.9 ? fallback[2] : fallback[1], r);
        unit(r);
    }
    cross(f, r, axes[2]);
    if (dot(axes[2], u) < 0.0)
        ok = 0; /* mirrored: a rotation cannot show it */
    memcpy(axes[0], f, sizeof f);
    memcpy(axes[1], r, sizeof r);
    return ok;
}

/* The unit quaternion (x, y, z, w) of rotation matrix a (a[r][c]). */
static void quaternion(double a[3][3], double q[4])
{
    double tr = a[0][0] + a[1][1] + a[2][2], s, n;
    int c;
    if (tr > 0.0) {
        s = 2.0 * sqrt(tr + 1.0);
        q[3] = 0.25 * s;
        q[0] = (a[2][1] - a[1][2]) / s;
        q[1] = (a[0][2] - a[2][0]) / s;
        q[2] = (a[1][0] - a[0][1]) / s;
    } else if (a[0][0] > a[1][1] && a[0][0] > a[2][2]) {
        s = 2.0 * sqrt(1.0 + a[0][0] - a[1][1] - a[2][2]);
        q[3] = (a[2][1] - a[1][2]) / s;
        q[0] = 0.25 * s;
        q[1] = (a[0][1] + a[1][0]) / s;
        q[2] = (a[0][2] + a[2][0]) / s;
    } else if (a[1][1] > a[2][2]) {
        s = 2.0 * sqrt(1.0 + a[1][1] - a[0][0] - a[2][2]);
        q[3] = (a[0][2] - a[2][0]) / s;
        q[0] = (a[0][1] + a[1][0]) / s;
        q[1] = 0.25 * s;
        q[2] = (a[1][2] + a[2][1]) / s;
    } else {
        s = 2.0 * sqrt(1.0 + a[2][2] - a[0][0] - a[1][1]);
        q[3] = (a[1][0] - a[0][1]) / s;
        q[0] = (a[0][2] + a[2][0]) / s;
        q[1] = (a[1][2] + a[2][1]) / s;
        q[2] = 0.25 * s;
    }
    n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (c = 0; c < 4; c++)
        q[c] /= n;
}

/* Tag k in body keyframe frame (clamped to the tag file's frames, as
 * md2_player_tag() does) as a glTF translation (out[0..2], in the model
 * node's units) and rotation (out[3..6]); prev, when not NULL, is the
 * previous key's rotation, which the new one is kept on the same side
 * of (so that interpolation takes the short way). */
static int tag_trs(export_tags *t, size_t k, uint32_t frame, const float *prev, float *out)
{
    float m[16];
    double axes[3][3], a[3][3], q[4];
    uint32_t last = (uint32_t)(t->tags->num_frames - 1);
    int r, c;
    if (md2_tag_lerp(t->tags, k, frame < last ? frame : last, frame < last ? frame : last, 0.0f,
                     m) != MD2_OK)
        return 0;
    orthonormalise(m, axes);
    /* a[r][c]: row r, column c of the rotation in glTF axes; axes[c] is
     * MD2 column c */
    for (r = 0; r < 3; r++)
        for (c = 0; c < 3; c++)
            a[r][c] = axes[tag_axis[c]][tag_axis[r]];
    quaternion(a, q);
    if (prev && q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0.0)
        for (c = 0; c < 4; c++)
            q[c] = -q[c];
    for (r = 0; r < 3; r++)
        out[r] = (float)((double)m[12 + tag_axis[r]] / t->node_scale);
    for (c = 0; c < 4; c++)
        out[3 + c] = (float)q[c];
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Keys                                                                      */
/* ------------------------------------------------------------------------ */

/* The keys of animation a, as the body's morph weights have them when
 * none is dropped: keyframe k at k / fps, a looping (or one-frame)
 * animation back on its first frame one frame time after its last, and a
 * rate of 0 (which holds the first frame) two keys, at 0 and 1 s. */
static size_t key_count(const md2_anim *a)
{
    size_t n = (size_t)a->last - a->first + 1;
    if (!(a->fps > 0.0f))
        return 2;
    return (a->loop || n == 1) ? n + 1 : n;
}

static void key_at(const md2_anim *a, size_t k, float *time, uint32_t *frame)
{
    size_t n = (size_t)a->last - a->first + 1;
    if (!(a->fps > 0.0f)) {
        *time = (float)k;
        *frame = a->first;
        return;
    }
    *time = (float)((double)k / (double)a->fps);
    *frame = k < n ? a->first + (uint32_t)k : a->first;
}

/* The keyframe of attached model i that body keyframe frame shows. */
static uint32_t attached_frame(const tool_attached *at, uint32_t frame)
{
    return at->is_static ? 0 : frame;
}

/* ------------------------------------------------------------------------ */
/* The data                                                                  */
/* ------------------------------------------------------------------------ */

/* A new accessor of part over count elements from the part's end; its
 * local index, or (size_t)-1 when out of memory. */
static size_t add_accessor(build *b, int part, size_t count, unsigned component, const char *type)
{
    export_tags *t = b->t;
    tags_accessor *a;
    if (t->num_acc == t->acc_capacity) {
        size_t cap = t->acc_capacity ? 2 * t->acc_capacity : 16;
        tags_accessor *p = (tags_accessor *)realloc(t->acc, cap * sizeof *p);
        if (!p)
            return (size_t)-1;
        t->acc = p;
        t->acc_capacity = cap;
    }
    tool_buf_align(&b->part[part], 4, 0);
    a = &t->acc[t->num_acc];
    memset(a, 0, sizeof *a);
    a->view = (size_t)part;
    a->offset = b->part[part].size;
    a->count = count;
    a->component = component;
    a->type = type;
    return t->num_acc++;
}

/* n floats of size comps each at v into part, bounded (min, max) in acc. */
static void put_floats(build *b, int part, size_t acc, const float *v, size_t n, int comps)
{
    tags_accessor *a = &b->t->acc[acc];
    size_t i;
    int c;
    for (i = 0; i < n; i++) {
        for (c = 0; c < comps; c++) {
            float x = v[i * (size_t)comps + (size_t)c];
            if (i == 0 || x < a->min[c])
                a->min[c] = x;
            if (i == 0 || x > a->max[c])
                a->max[c] = x;
            tool_buf_f32(&b->part[part], x);
        }
    }
}

/* The skin of an attached model as PNG: found as the body's is; none, or
 * one that cannot be read, is a note. 0 only when out of memory. */
static int attached_skin(tags_attached_mesh *am)
{
    char err[512];
    tool_image img;
    const tool_attached *at = am->at;
    const char *path = at->skin_path;
    if (!path) {
        tool_error(EXPORT_CMD, "note: no skin file found for the attached %s; no texture on it",
                   at->path);
        return 1;
    }
    errno = 0;
    if (!tool_image_read(path, &img, err, sizeof err)) {
        if (tool_is_out_of_memory(err))
            return 0;
        tool_error(EXPORT_CMD, "note: the skin of the attached %s cannot be read (%s); no "
                   "texture on it", at->path, err);
        return 1;
    }
    if (!tool_png_encode(&img, &am->png, &am->png_size, err, sizeof err)) {
        tool_image_free(&img);
        if (tool_is_out_of_memory(err))
            return 0;
        tool_error(EXPORT_CMD, "note: the skin of the attached %s: %s; no texture on it",
                   at->path, err);
        return 1;
    }
    tool_image_free(&img);
    return 1;
}

/* nv vectors of MD2's axes at src in glTF's at dst, less base (glTF's
 * axes) when it is not NULL. */
static void gltf_axes(const float *src, const float *base, size_t nv, float *dst)
{
    size_t v;
    int c;
    for (v = 0; v < nv; v++)
        for (c = 0; c < 3; c++)
            dst[3 * v + (size_t)c] = src[3 * v + (size_t)tag_axis[c]] -
                                     (base ? base[3 * v + (size_t)c] : 0.0f);
}

/* Attached model i's mesh: indices, base and morph targets, uv. */
static int build_mesh(build *b, size_t i, uint32_t rest)
{
    export_tags *t = b->t;
    tags_attached_mesh *am = &t->meshes[i];
    const md2_model *m = am->at->model.model;
    md2_mesh_options mo;
    md2_diagnostic diag;
    float *pos, *nrm, *base, *basen, *tmp;
    size_t nv, v, f, n3;
    int ok = 0, short_indices;
    memset(&mo, 0, sizeof mo);
    mo.flags = MD2_MESH_COUNTER_CLOCKWISE;
    mo.error = &diag;
    if (md2_mesh_build(m, &mo, &am->mesh) != MD2_OK) {
        tool_error(EXPORT_CMD, "--attach %s=%s: cannot build its mesh: %s", am->at->tag,
                   am->at->path, diag.message);
        return 0;
    }
    nv = am->mesh->num_vertices;
    n3 = 3 * nv;
    am->rest = attached_frame(am->at, rest);
    am->targets = am->at->is_static ? 0 : m->num_frames;
    pos = (float *)malloc(n3 * sizeof *pos);
    nrm = (float *)malloc(n3 * sizeof *nrm);
    base = (float *)malloc(n3 * sizeof *base);
    basen = (float *)malloc(n3 * sizeof *basen);
    tmp = (float *)malloc(n3 * sizeof *tmp);
    if (!pos || !nrm || !base || !basen || !tmp)
        goto oom;
    short_indices = nv <= 65535;
    am->indices = add_accessor(b, PART_INDICES, am->mesh->num_indices,
                               short_indices ? T_UNSIGNED_SHORT : T_UNSIGNED_INT, "SCALAR");
    if (am->indices == (size_t)-1)
        goto oom;
    for (v = 0; v < am->mesh->num_indices; v++) {
        if (short_indices)
            tool_buf_u16(&b->part[PART_INDICES], (unsigned)am->mesh->indices[v]);
        else
            tool_buf_u32(&b->part[PART_INDICES], am->mesh->indices[v]);
    }
    /* MD2 axes to glTF's */
    if (md2_mesh_morph_floats(am->mesh, m, am->rest, 1, pos, nrm) != MD2_OK)
        goto bad_frame;
    gltf_axes(pos, NULL, nv, base);
    gltf_axes(nrm, NULL, nv, basen);
    am->position = add_accessor(b, PART_VEC3, nv, T_FLOAT, "VEC3");
    if (am->position == (size_t)-1)
        goto oom;
    put_floats(b, PART_VEC3, am->position, base, nv, 3);
    t->acc[am->position].has_bounds = 1;
    am->normal = add_accessor(b, PART_VEC3, nv, T_FLOAT, "VEC3");
    if (am->normal == (size_t)-1)
        goto oom;
    put_floats(b, PART_VEC3, am->normal, basen, nv, 3);
    am->uv = add_accessor(b, PART_VEC2, nv, T_FLOAT, "VEC2");
    if (am->uv == (size_t)-1)
        goto oom;
    put_floats(b, PART_VEC2, am->uv, am->mesh->uv, nv, 2);
    am->first_target = t->num_acc;
    for (f = 0; f < am->targets; f++) {
        size_t pa, na;
        if (md2_mesh_morph_floats(am->mesh, m, (uint32_t)f, 1, pos, nrm) != MD2_OK)
            goto bad_frame;
        gltf_axes(pos, base, nv, tmp);
        pa = add_accessor(b, PART_VEC3, nv, T_FLOAT, "VEC3");
        if (pa == (size_t)-1)
            goto oom;
        put_floats(b, PART_VEC3, pa, tmp, nv, 3);
        t->acc[pa].has_bounds = 1;
        gltf_axes(nrm, basen, nv, tmp);
        na = add_accessor(b, PART_VEC3, nv, T_FLOAT, "VEC3");
        if (na == (size_t)-1)
            goto oom;
        put_floats(b, PART_VEC3, na, tmp, nv, 3);
    }
    if (!attached_skin(am))
        goto oom;
    ok = 1;
    goto done;
bad_frame:
    tool_error(EXPORT_CMD, "--attach %s=%s: cannot decode its keyframes", am->at->tag,
               am->at->path);
    goto done;
oom:
    tool_error(EXPORT_CMD, "out of memory writing the attached %s", am->at->path);
done:
    free(pos);
    free(nrm);
    free(base);
    free(basen);
    free(tmp);
    return ok;
}

/* The animated attachments: those with morph targets. */
static size_t animated_attachments(const export_tags *t)
{
    size_t i, n = 0;
    for (i = 0; i < t->job->num_attached; i++)
        n += t->meshes[i].targets > 0;
    return n;
}

/* Animation a's keys: times, each tag's translations and rotations, each
 * animated attachment's weights. */
static int build_anim(build *b, size_t a)
{
    export_tags *t = b->t;
    const md2_anim *an = &t->job->anims[a];
    size_t keys = key_count(an), k, j, i, *acc = t->anim_acc + a * t->per_anim, slot = 0;
    float *trs = (float *)malloc(keys * 7 * sizeof *trs), *times = (float *)malloc(keys * sizeof *times);
    uint32_t *frames = (uint32_t *)malloc(keys * sizeof *frames);
    int ok = 0;
    if (!trs || !times || !frames)
        goto done;
    for (k = 0; k < keys; k++)
        key_at(an, k, &times[k], &frames[k]);
    if ((acc[slot++] = add_accessor(b, PART_ANIM, keys, T_FLOAT, "SCALAR")) == (size_t)-1)
        goto done;
    put_floats(b, PART_ANIM, acc[0], times, keys, 1);
    t->acc[acc[0]].has_bounds = 1;
    for (j = 0; j < t->num_tags; j++) {
        for (k = 0; k < keys; k++)
            if (!tag_trs(t, j, frames[k], k ? trs + 7 * (k - 1) + 3 : NULL, trs + 7 * k))
                goto done;
        if ((acc[slot] = add_accessor(b, PART_ANIM, keys, T_FLOAT, "VEC3")) == (size_t)-1)
            goto done;
        for (k = 0; k < keys; k++)
            put_floats(b, PART_ANIM, acc[slot], trs + 7 * k, 1, 3);
        slot++;
        if ((acc[slot] = add_accessor(b, PART_ANIM, keys, T_FLOAT, "VEC4")) == (size_t)-1)
            goto done;
        for (k = 0; k < keys; k++)
            put_floats(b, PART_ANIM, acc[slot], trs + 7 * k + 3, 1, 4);
        slot++;
    }
    for (i = 0; i < t->job->num_attached; i++) {
        const tags_attached_mesh *am = &t->meshes[i];
        size_t f;
        if (am->targets == 0)
            continue;
        if ((acc[slot] = add_accessor(b, PART_ANIM, keys * am->targets, T_FLOAT, "SCALAR")) ==
            (size_t)-1)
            goto done;
        for (k = 0; k < keys; k++)
            for (f = 0; f < am->targets; f++)
                tool_buf_f32(&b->part[PART_ANIM], f == attached_frame(am->at, frames[k]) ? 1.0f : 0.0f);
        slot++;
    }
    ok = 1;
done:
    free(trs);
    free(times);
    free(frames);
    return ok;
}

/* The parts one after another in t->bin, each a view when not empty, and
 * the attached skins' images after them. */
static int place_parts(build *b)
{
    export_tags *t = b->t;
    size_t p, i, img = 0;
    static const size_t stride[PART_COUNT] = {0, 12, 8, 0};
    static const unsigned target[PART_COUNT] = {T_ELEMENT_ARRAY_BUFFER, T_ARRAY_BUFFER,
                                                T_ARRAY_BUFFER, 0};
    t->image_views = (tags_view *)calloc(t->job->num_attached + 1, sizeof *t->image_views);
    if (!t->image_views)
        return 0;
    for (p = 0; p < PART_COUNT; p++) {
        b->part_view[p] = (size_t)-1;
        if (b->part[p].failed)
            return 0;
        if (b->part[p].size == 0)
            continue;
        tool_buf_align(&t->bin, 4, 0);
        b->part_view[p] = t->num_views;
        t->views[t->num_views].offset = t->bin.size;
        t->views[t->num_views].length = b->part[p].size;
        t->views[t->num_views].stride = stride[p];
        t->views[t->num_views].target = target[p];
        t->num_views++;
        tool_buf_bytes(&t->bin, b->part[p].data, b->part[p].size);
    }
    for (i = 0; i < t->num_acc; i++)
        t->acc[i].view = b->part_view[t->acc[i].view];
    for (i = 0; i < t->job->num_attached; i++) {
        tags_attached_mesh *am = &t->meshes[i];
        if (!am->png)
            continue;
        tool_buf_align(&t->bin, 4, 0);
        am->image_view = t->num_views + img;
        t->image_views[img].offset = t->bin.size;
        t->image_views[img].length = am->png_size;
        img++;
        tool_buf_bytes(&t->bin, am->png, am->png_size);
    }
    t->num_textures = img;
    tool_buf_align(&t->bin, 4, 0);
    return !t->bin.failed;
}

int export_tags_gltf_build(export_tags *t, double node_scale, uint32_t rest)
{
    build b;
    size_t i, a;
    int ok = 0;
    const export_job *job = t->job;
    memset(&b, 0, sizeof b);
    b.t = t;
    t->node_scale = node_scale > 0.0 ? node_scale : 1.0;
    if (t->num_tags == 0 && job->num_attached == 0)
        return 1;
    t->rest = (float *)malloc((t->num_tags + 1) * 7 * sizeof *t->rest);
    t->meshes = (tags_attached_mesh *)calloc(job->num_attached + 1, sizeof *t->meshes);
    if (!t->rest || !t->meshes)
        goto oom;
    for (i = 0; i < t->num_tags; i++) {
        uint32_t f;
        if (!tag_trs(t, i, rest, NULL, t->rest + 7 * i))
            goto oom;
        for (f = 0; f < t->tags->num_frames; f++) {
            float m[16];
            double axes[3][3];
            if (md2_tag_lerp(t->tags, i, f, f, 0.0f, m) == MD2_OK && !orthonormalise(m, axes))
                t->unorthonormal++;
        }
    }
    for (i = 0; i < job->num_attached; i++) {
        t->meshes[i].at = &job->attached[i];
        if (!build_mesh(&b, i, rest))
            goto done;
    }
    t->per_anim = 1 + 2 * t->num_tags + animated_attachments(t);
    t->anim_acc = (size_t *)calloc(job->num_anims * t->per_anim + 1, sizeof *t->anim_acc);
    if (!t->anim_acc)
        goto oom;
    for (a = 0; a < job->num_anims; a++)
        if (!build_anim(&b, a))
            goto oom;
    if (!place_parts(&b))
        goto oom;
    if (t->unorthonormal)
        tool_error(EXPORT_CMD, "warning: %lu tag keyframe%s of %s %s axes that are not "
                   "orthonormal (scaled, sheared or mirrored): exported as the nearest rotation "
                   "(forward, then right made orthogonal to it)", t->unorthonormal,
                   t->unorthonormal == 1 ? "" : "s", job->model_path,
                   t->unorthonormal == 1 ? "has" : "have");
    ok = 1;
    goto done;
oom:
    tool_error(EXPORT_CMD, "out of memory writing the tags of %s", job->model_path);
done:
    for (i = 0; i < PART_COUNT; i++)
        tool_buf_free(&b.part[i]);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* The JSON                                                                  */
/* ------------------------------------------------------------------------ */

static void floats(tool_buf *j, const float *v, size_t n)
{
    size_t i;
    tool_buf_str(j, "[");
    for (i = 0; i < n; i++) {
        if (i)
            tool_buf_str(j, ",");
        tool_buf_json_float(j, v[i]);
    }
    tool_buf_str(j, "]");
}

/* The file name of path without folders and extension. */
static void put_stem(tool_buf *j, const char *path)
{
    const char *name = tool_base_name(path), *ext = strrchr(name, '.');
    size_t n = ext && ext != name ? (size_t)(ext - name) : strlen(name);
    char *s = (char *)malloc(n + 1);
    if (!s) {
        j->failed = 1;
        return;
    }
    memcpy(s, name, n);
    s[n] = '\0';
    tool_buf_json_string(j, s);
    free(s);
}

static void sep(tool_buf *j, size_t *written, size_t before)
{
    if (*written > 0 || before > 0)
        tool_buf_str(j, ",");
    (*written)++;
}

static void json_nodes(const export_tags *t, const export_gltf_base *base, size_t before,
                       size_t *n, tool_buf *j)
{
    size_t k, i;
    double inv = 1.0 / t->node_scale;
    for (k = 0; k < t->num_tags; k++) {
        int children = 0;
        sep(j, n, before);
        tool_buf_str(j, "{\"name\":");
        tool_buf_json_string(j, t->tags->names[k].name);
        tool_buf_str(j, ",\"translation\":");
        floats(j, t->rest + 7 * k, 3);
        tool_buf_str(j, ",\"rotation\":");
        floats(j, t->rest + 7 * k + 3, 4);
        if (t->node_scale != 1.0) {
            /* undoes the model node's scale: the tag is in world units */
            tool_buf_str(j, ",\"scale\":[");
            tool_buf_json_double(j, inv);
            tool_buf_str(j, ",");
            tool_buf_json_double(j, inv);
            tool_buf_str(j, ",");
            tool_buf_json_double(j, inv);
            tool_buf_str(j, "]");
        }
        for (i = 0; i < t->job->num_attached; i++) {
            if (t->job->attached[i].tag_index != k)
                continue;
            tool_buf_printf(j, "%s%lu", children++ ? "," : ",\"children\":[",
                        (unsigned long)(base->nodes + t->num_tags + i));
        }
        if (children)
            tool_buf_str(j, "]");
        tool_buf_str(j, "}");
    }
    for (i = 0; i < t->job->num_attached; i++) {
        sep(j, n, before);
        tool_buf_str(j, "{\"name\":");
        put_stem(j, t->job->attached[i].path);
        tool_buf_printf(j, ",\"mesh\":%lu}", (unsigned long)(base->meshes + i));
    }
}

static void json_meshes(const export_tags *t, const export_gltf_base *base, size_t before,
                        size_t *n, tool_buf *j)
{
    size_t i, f;
    for (i = 0; i < t->job->num_attached; i++) {
        const tags_attached_mesh *am = &t->meshes[i];
        const md2_model *m = am->at->model.model;
        sep(j, n, before);
        tool_buf_str(j, "{\"name\":");
        put_stem(j, am->at->path);
        tool_buf_printf(j, ",\"primitives\":[{\"attributes\":{\"POSITION\":%lu,\"NORMAL\":%lu,"
                       "\"TEXCOORD_0\":%lu},\"indices\":%lu,\"material\":%lu",
                    (unsigned long)(base->accessors + am->position),
                    (unsigned long)(base->accessors + am->normal),
                    (unsigned long)(base->accessors + am->uv),
                    (unsigned long)(base->accessors + am->indices),
                    (unsigned long)(base->materials + i));
        if (am->targets == 0) {
            tool_buf_str(j, "}]}");
            continue;
        }
        tool_buf_str(j, ",\"targets\":[");
        for (f = 0; f < am->targets; f++)
            tool_buf_printf(j, "%s{\"POSITION\":%lu,\"NORMAL\":%lu}", f ? "," : "",
                        (unsigned long)(base->accessors + am->first_target + 2 * f),
                        (unsigned long)(base->accessors + am->first_target + 2 * f + 1));
        tool_buf_str(j, "]}],\"weights\":[");
        for (f = 0; f < am->targets; f++)
            tool_buf_str(j, f ? ",0" : "0");
        tool_buf_str(j, "],\"extras\":{\"targetNames\":[");
        for (f = 0; f < am->targets; f++) {
            if (f)
                tool_buf_str(j, ",");
            tool_buf_json_string(j, m->frames[f].name);
        }
        tool_buf_str(j, "]}}");
    }
}

static void json_accessors(const export_tags *t, const export_gltf_base *base, size_t before,
                           size_t *n, tool_buf *j)
{
    size_t i;
    for (i = 0; i < t->num_acc; i++) {
        const tags_accessor *a = &t->acc[i];
        size_t comps = a->type[0] == 'S' ? 1 : (size_t)(a->type[3] - '0');
        sep(j, n, before);
        tool_buf_printf(j, "{\"bufferView\":%lu,\"byteOffset\":%lu,\"componentType\":%u,"
                       "\"count\":%lu,\"type\":\"%s\"",
                    (unsigned long)(base->views + a->view), (unsigned long)a->offset,
                    a->component, (unsigned long)a->count, a->type);
        if (a->has_bounds) {
            tool_buf_str(j, ",\"min\":");
            floats(j, a->min, comps);
            tool_buf_str(j, ",\"max\":");
            floats(j, a->max, comps);
        }
        tool_buf_str(j, "}");
    }
}

static void json_view(tool_buf *j, const export_tags *t, const tags_view *v)
{
    tool_buf_printf(j, "{\"buffer\":0,\"byteOffset\":%lu,\"byteLength\":%lu",
                (unsigned long)(t->bin_offset + v->offset), (unsigned long)v->length);
    if (v->stride)
        tool_buf_printf(j, ",\"byteStride\":%lu", (unsigned long)v->stride);
    if (v->target)
        tool_buf_printf(j, ",\"target\":%u", v->target);
    tool_buf_str(j, "}");
}

static void json_anim(const export_tags *t, int part, size_t a, size_t first, size_t before,
                      const export_gltf_base *base, size_t *n, tool_buf *j)
{
    const size_t *acc = t->anim_acc + a * t->per_anim;
    size_t k, i, s = 0;
    static const char *const paths[2] = {"translation", "rotation"};
    for (k = 0; k < 2 * t->num_tags + t->job->num_attached; k++) {
        size_t node;
        const char *path;
        if (k < 2 * t->num_tags) {
            node = base->nodes + k / 2;
            path = paths[k % 2];
        } else {
            i = k - 2 * t->num_tags;
            if (t->meshes[i].targets == 0)
                continue;
            node = base->nodes + t->num_tags + i;
            path = "weights";
        }
        s++;
        sep(j, n, before);
        if (part == EXPORT_TAGS_CHANNELS)
            tool_buf_printf(j, "{\"sampler\":%lu,\"target\":{\"node\":%lu,\"path\":\"%s\"}}",
                        (unsigned long)(first + s - 1), (unsigned long)node, path);
        else
            tool_buf_printf(j, "{\"input\":%lu,\"output\":%lu}", (unsigned long)(base->accessors + acc[0]),
                        (unsigned long)(base->accessors + acc[s]));
    }
}

size_t export_tags_json(const export_tags *t, int part, const export_gltf_base *base,
                        size_t anim, size_t before, tool_buf *j)
{
    size_t n = 0, i, img = 0;
    if (t->num_tags == 0 && t->job->num_attached == 0)
        return 0;
    switch (part) {
    case EXPORT_TAGS_CHILDREN:
        for (i = 0; i < t->num_tags; i++)
            tool_buf_printf(j, "%s%lu", i || before ? "," : "", (unsigned long)(base->nodes + i));
        return t->num_tags;
    case EXPORT_TAGS_NODES:
        json_nodes(t, base, before, &n, j);
        break;
    case EXPORT_TAGS_MESHES:
        json_meshes(t, base, before, &n, j);
        break;
    case EXPORT_TAGS_MATERIALS:
        for (i = 0; i < t->job->num_attached; i++) {
            sep(j, &n, before);
            tool_buf_str(j, "{\"name\":");
            put_stem(j, t->job->attached[i].path);
            tool_buf_str(j, ",\"pbrMetallicRoughness\":{");
            if (t->meshes[i].png)
                tool_buf_printf(j, "\"baseColorTexture\":{\"index\":%lu},",
                            (unsigned long)(base->textures + img++));
            tool_buf_str(j, "\"metallicFactor\":0}}");
        }
        break;
    case EXPORT_TAGS_TEXTURES:
    case EXPORT_TAGS_IMAGES:
        for (i = 0; i < t->job->num_attached; i++) {
            if (!t->meshes[i].png)
                continue;
            sep(j, &n, before);
            if (part == EXPORT_TAGS_TEXTURES)
                tool_buf_printf(j, "{\"source\":%lu}", (unsigned long)(base->images + img));
            else
                tool_buf_printf(j, "{\"bufferView\":%lu,\"mimeType\":\"image/png\"}",
                            (unsigned long)(base->views + t->meshes[i].image_view));
            img++;
        }
        break;
    case EXPORT_TAGS_ACCESSORS:
        json_accessors(t, base, before, &n, j);
        break;
    case EXPORT_TAGS_VIEWS:
        for (i = 0; i < t->num_views; i++) {
            sep(j, &n, before);
            json_view(j, t, &t->views[i]);
        }
        for (i = 0; i < t->num_textures; i++) {
            sep(j, &n, before);
            json_view(j, t, &t->image_views[i]);
        }
        break;
    case EXPORT_TAGS_CHANNELS:
    case EXPORT_TAGS_SAMPLERS:
        if (t->anim_acc)
            json_anim(t, part, anim, base->samplers, before, base, &n, j);
        break;
    default:
        break;
    }
    return n;
}

void export_tags_report(const export_tags *t, FILE *f)
{
    size_t k;
    if (t->num_tags == 0)
        return;
    fprintf(f, "tags as nodes:");
    for (k = 0; k < t->num_tags; k++) {
        fputc(' ', f);
        tool_put_clean(f, t->tags->names[k].name);
    }
    for (k = 0; k < t->job->num_attached; k++) {
        const tool_attached *at = &t->job->attached[k];
        tool_term_printf(f, "; %s on %s (%s)", at->path, at->tag,
                         at->is_static ? "one keyframe" : "animated with the model");
    }
    fputc('\n', f);
}

/* ------------------------------------------------------------------------ */
/* OBJ                                                                       */
/* ------------------------------------------------------------------------ */

/* stem + "_" + tag (bytes other than letters, digits, '-' and '_' as '_')
 * + ".png"; NULL when out of memory. */
static char *skin_path(const char *stem, const char *tag)
{
    size_t n = strlen(stem), k = strlen(tag), i;
    char *p = (char *)malloc(n + 1 + k + sizeof ".png");
    if (!p)
        return NULL;
    memcpy(p, stem, n);
    p[n] = '_';
    for (i = 0; i < k; i++) {
        char c = tag[i];
        int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '-' || c == '_';
        p[n + 1 + i] = keep ? c : '_';
    }
    memcpy(p + n + 1 + k, ".png", sizeof ".png");
    return p;
}

void export_tags_obj_report(const export_job *job, FILE *f)
{
    size_t i;
    for (i = 0; i < job->num_attached; i++)
        tool_term_printf(f, "%s%s on %s", i ? ", " : "attached as objects: ", job->attached[i].path,
                         job->attached[i].tag);
    if (job->num_attached > 0)
        fputc('\n', f);
}

int export_tags_obj_mtl(const export_job *job, const char *stem, FILE *mtl, tool_outset *set)
{
    size_t i;
    for (i = 0; i < job->num_attached; i++) {
        tags_attached_mesh am;
        char *png_path = NULL;
        int ok = 1;
        memset(&am, 0, sizeof am);
        am.at = &job->attached[i];
        if (!attached_skin(&am)) {
            tool_error(EXPORT_CMD, "out of memory writing the attached %s", am.at->path);
            return 0;
        }
        fprintf(mtl, "# the model on tag ");
        tool_put_clean(mtl, am.at->tag);
        fputs(": ", mtl);
        tool_put_clean(mtl, am.at->path);
        fprintf(mtl, "\nnewmtl attached%lu\nKa 1 1 1\nKd 1 1 1\nKs 0 0 0\nd 1\nillum 1\n",
                (unsigned long)(i + 1));
        if (am.png) {
            png_path = skin_path(stem, am.at->tag);
            ok = png_path && export_not_skin(job, png_path) &&
                 tool_outset_write(set, png_path, am.png, am.png_size);
            if (!png_path)
                tool_error(EXPORT_CMD, "out of memory");
            if (ok) {
                fputs("map_Kd ", mtl);
                tool_put_clean(mtl, tool_base_name(png_path));
                fputc('\n', mtl);
            }
        }
        free(png_path);
        free(am.png);
        if (!ok)
            return 0;
    }
    return 1;
}

/* child * (v, 1) (w = 1) or, with w = 0, its direction, normalised. */
static void transform(const float *child, const float *v, int w, double *out)
{
    int r;
    for (r = 0; r < 3; r++)
        out[r] = (double)child[r] * v[0] + (double)child[4 + r] * v[1] +
                 (double)child[8 + r] * v[2] + (w ? (double)child[12 + r] : 0.0);
    if (!w && !unit(out)) {
        out[0] = 0.0;
        out[1] = 0.0;
        out[2] = 1.0;
    }
}

static void put_xyz(FILE *f, const char *what, const double *p, int y_up, const char *format)
{
    fputs(what, f);
    if (y_up)
        fprintf(f, format, p[1], p[2], p[0]);
    else
        fprintf(f, format, p[0], p[1], p[2]);
}

int export_tags_obj_write(const export_job *job, FILE *f, uint32_t frame)
{
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    static const int order[3] = {0, 2, 1};
    const md2_model *body = job->tm->model;
    const md2_tags *tags = job->tm->bundle->tags;
    unsigned long vbase = (unsigned long)body->num_vertices;
    unsigned long tbase = (unsigned long)body->num_texcoords;
    size_t i, v;
    for (i = 0; i < job->num_attached; i++) {
        const tool_attached *at = &job->attached[i];
        const md2_model *m = at->model.model;
        uint32_t last = (uint32_t)(tags->num_frames - 1), tf = frame < last ? frame : last;
        float tag[16], child[16];
        float *pos = (float *)malloc(m->num_vertices * 3 * sizeof *pos);
        float *nrm = (float *)malloc(m->num_vertices * 3 * sizeof *nrm);
        if (!pos || !nrm) {
            free(pos);
            free(nrm);
            tool_error(EXPORT_CMD, "out of memory");
            return 0;
        }
        if (md2_tag_lerp(tags, at->tag_index, tf, tf, 0.0f, tag) != MD2_OK ||
            md2_attach(identity, tag, child) != MD2_OK ||
            md2_decode_frame(m, attached_frame(at, frame), pos, 0, nrm, 0) != MD2_OK) {
            free(pos);
            free(nrm);
            tool_error(EXPORT_CMD, "--attach %s=%s: cannot pose it", at->tag, at->path);
            return 0;
        }
        fputs("o ", f);
        tool_put_clean(f, tool_base_name(at->path));
        fputs("_on_", f);
        tool_put_clean(f, at->tag);
        fputc('\n', f);
        for (v = 0; v < m->num_vertices; v++) {
            double p[3];
            transform(child, pos + 3 * v, 1, p);
            put_xyz(f, "v ", p, job->y_up, "%.9g %.9g %.9g\n");
        }
        for (v = 0; v < m->num_texcoords; v++) {
            float u, t;
            md2_texcoord_uv(m, m->texcoords[v], &u, &t);
            fprintf(f, "vt %.9g %.9g\n", (double)u, (double)(1.0f - t));
        }
        for (v = 0; v < m->num_vertices; v++) {
            double n[3];
            transform(child, nrm + 3 * v, 0, n);
            put_xyz(f, "vn ", n, job->y_up, "%.6g %.6g %.6g\n");
        }
        fprintf(f, "usemtl attached%lu\n", (unsigned long)(i + 1));
        for (v = 0; v < m->num_triangles; v++) {
            const md2_triangle *tri = &m->triangles[v];
            int k;
            fputc('f', f);
            for (k = 0; k < 3; k++) {
                unsigned long pv = (unsigned long)tri->vertex[order[k]] + 1 + vbase;
                unsigned long st = (unsigned long)tri->texcoord[order[k]] + 1 + tbase;
                fprintf(f, " %lu/%lu/%lu", pv, st, pv);
            }
            fputc('\n', f);
        }
        vbase += (unsigned long)m->num_vertices;
        tbase += (unsigned long)m->num_texcoords;
        free(pos);
        free(nrm);
    }
    return 1;
}
