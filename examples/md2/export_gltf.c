/*
 * md2 export: glTF 2.0 (.gltf with the buffer as a data URI, .glb).
 *
 * The welded mesh of md2_mesh_build() (its vertex order kept), one morph
 * target per keyframe, one animation per named animation driving the
 * morph weights, and a material with the skin. Compact thanks to
 * KHR_mesh_quantization and sparse accessors:
 *
 *  - base POSITION: float32, the per-vertex midpoint of its range over all
 *    keyframes, in node-local units (world / s);
 *  - morph POSITION: SHORT (not normalized) integer deltas from the base,
 *    with one uniform node scale s = (largest |delta| component) / 32767,
 *    so the error is at most s / 2 (7.6e-6 of the model's size or less).
 *    The deltas are taken from what the file holds, the float base and the
 *    float s; far from the origin, where rounding the base to float moves
 *    it by a step or more, s grows to keep every delta within 32767;
 *  - base NORMAL: a float32 unit normal per vertex, chosen so that every
 *    keyframe's normal lies within 1 of it on each axis; morph NORMAL:
 *    BYTE normalized deltas from it;
 *  - the morph deltas are sparse accessors that replace every vertex
 *    (indices 0..n-1, one index list shared by all of them): sparse
 *    values are tightly packed, 6 + 3 bytes a vertex and keyframe, where
 *    vertex-attribute buffer views would pad them to 8 + 4;
 *  - animation weights: UNSIGNED_BYTE normalized, sparse (one 255 a key).
 *
 * Axes: glTF is Y up with the front facing +Z; MD2 is Z up with X forward
 * and Y left. The data is written as glTF (x, y, z) = MD2 (y, z, x), a
 * rotation (no float arithmetic: the components are reordered). Triangles
 * are counter-clockwise (MD2_MESH_COUNTER_CLOCKWISE), as glTF wants.
 *
 * The model's tags (nodes under the model's node, keyed in every
 * animation) and the models --attach hangs on them come from
 * export_tags.c, whose entries follow the model's in each array
 * (export_tags_json()).
 *
 * SPDX-License-Identifier: MIT
 */
#include "export_tags.h"

#include <md2/mesh.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* glTF axis c takes MD2 axis gltf_axis[c]. */
static const int gltf_axis[3] = {1, 2, 0};

enum {
    GL_UNSIGNED_BYTE = 5121,
    GL_BYTE = 5120,
    GL_SHORT = 5122,
    GL_UNSIGNED_SHORT = 5123,
    GL_UNSIGNED_INT = 5125,
    GL_FLOAT = 5126,
    GL_ARRAY_BUFFER = 34962,
    GL_ELEMENT_ARRAY_BUFFER = 34963
};

/* The buffer views, in buffer order. */
enum {
    VIEW_INDICES,      /* triangle indices */
    VIEW_VERTICES,     /* base POSITION, NORMAL, TEXCOORD_0: 32 bytes a vertex */
    VIEW_SPARSE_INDEX, /* 0..n-1: the sparse indices of every morph accessor */
    VIEW_MORPH_POS,    /* morph position deltas: 3 int16 a vertex, target after target */
    VIEW_MORPH_NRM,    /* morph normal deltas: 3 int8 a vertex, target after target */
    VIEW_ANIM,         /* animation times, sparse weight indices and values */
    VIEW_IMAGE,        /* the skin as PNG */
    VIEW_COUNT
};

typedef struct view {
    size_t offset, length;
    size_t stride; /* 0: none */
    unsigned target;
    int used;
} view;

typedef struct gltf {
    const export_job *job;
    const md2_model *m;
    md2_mesh *mesh;
    size_t nv; /* welded vertices */
    size_t nt; /* morph targets: keyframes */
    xbuf bin;
    xbuf acc; /* the "accessors" array's entries */
    size_t num_acc;
    view views[VIEW_COUNT];
    /* per welded vertex, MD2 axes */
    double *pmin, *pmax; /* position range over all keyframes */
    double *nmin, *nmax; /* normal range */
    uint64_t *used;      /* 3 a vertex: bit k set if table normal k appears */
    float *base_pos;     /* glTF axes, node-local units */
    float *base_nrm;     /* glTF axes, unit */
    double *nrm_len;     /* the length every keyframe normal of the vertex gets (<= 1) */
    float *pos, *nrm;    /* one keyframe, decoded (MD2 axes) */
    double scale;        /* s: node-local unit in world units */
    double max_error;    /* largest |decoded - libmd2| over all keyframes, world units */
    double size;         /* largest side of the box over all keyframes */
    unsigned long normal_clamps; /* delta components clamped to [-1, 1] */
    unsigned long short_normals; /* vertices whose normals are written shorter than 1 */
    double min_length;           /* the shortest of them */
    size_t *anim_io;     /* per animation: its weights' input and output accessors */
    export_tags tags;    /* the model's tags and --attach models (export_tags.c) */
} gltf;

/* a * b into *out; 0 if it overflows size_t. */
static int mul_size(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > (size_t)-1 / a)
        return 0;
    *out = a * b;
    return 1;
}

static void view_begin(gltf *g, int v, size_t stride, unsigned target)
{
    xbuf_align(&g->bin, 4, 0);
    g->views[v].offset = g->bin.size;
    g->views[v].stride = stride;
    g->views[v].target = target;
    g->views[v].used = 1;
}

/* A view that would hold nothing is left out (glTF wants byteLength >= 1);
 * none of the accessors refers to it. */
static void view_end(gltf *g, int v)
{
    g->views[v].length = g->bin.size - g->views[v].offset;
    if (g->views[v].length == 0)
        g->views[v].used = 0;
}

/* The index of view v in the file's "bufferViews": the views left out
 * before it do not count. Known once the views before v are written. */
static int view_number(const gltf *g, int v)
{
    int i, n = 0;
    for (i = 0; i < v; i++)
        n += g->views[i].used;
    return n;
}

/* Starts the next accessor's JSON object and returns its index. */
static size_t accessor_begin(gltf *g)
{
    if (g->num_acc > 0)
        xbuf_str(&g->acc, ",");
    xbuf_str(&g->acc, "{");
    return g->num_acc++;
}

static void json_floats(xbuf *b, const float *v, size_t n)
{
    size_t i;
    xbuf_str(b, "[");
    for (i = 0; i < n; i++) {
        if (i)
            xbuf_str(b, ",");
        xbuf_json_float(b, v[i]);
    }
    xbuf_str(b, "]");
}

static double round_half_up(double x)
{
    return floor(x + 0.5);
}

/* The smallest float not below s. */
static float float_up(double s)
{
    float f = (float)s;
    if ((double)f < s)
        f = nextafterf(f, FLT_MAX);
    return f;
}

/* Rounds *s up to a float (the node scale the file holds) and sets the
 * float base positions for it: each vertex's midpoint / s. Returns the
 * largest |position / s - base| over all vertices, axes and keyframes, in
 * steps: below 32767.5, every offset rounds into a SHORT. */
static double place_bases(gltf *g, double *s)
{
    size_t i, c;
    double largest = 0.0, sf = float_up(*s);
    *s = sf;
    for (i = 0; i < g->nv; i++) {
        for (c = 0; c < 3; c++) {
            size_t k = 3 * i + (size_t)gltf_axis[c];
            double mid = 0.5 * g->pmin[k] + 0.5 * g->pmax[k];
            float base = (float)(mid / sf);
            /* x / sf - base grows with x: the extremes are the range's ends */
            double lo = fabs(g->pmin[k] / sf - (double)base);
            double hi = fabs(g->pmax[k] / sf - (double)base);
            g->base_pos[3 * i + c] = base;
            if (lo > largest)
                largest = lo;
            if (hi > largest)
                largest = hi;
        }
    }
    return largest;
}

/* The range of every vertex's position and normal over all keyframes, the
 * base positions, the node scale and the model's size. */
static int measure(gltf *g)
{
    size_t f, i, c;
    double half = 0.0, maxb = 0.0, lo[3], hi[3];
    for (f = 0; f < g->nt; f++) {
        if (md2_mesh_morph_floats(g->mesh, g->m, (uint32_t)f, 1, g->pos, g->nrm) != MD2_OK) {
            tool_error(EXPORT_CMD, "cannot decode keyframe %lu", (unsigned long)f);
            return 0;
        }
        for (i = 0; i < g->nv; i++) {
            unsigned k = g->m->frames[f].vertices[g->mesh->source_vertex[i]].normal;
            if (k >= MD2_NUM_NORMALS)
                k = MD2_NORMAL_FALLBACK;
            g->used[3 * i + k / 64] |= (uint64_t)1 << (k % 64);
        }
        for (i = 0; i < 3 * g->nv; i++) {
            double p = g->pos[i], n = g->nrm[i];
            if (f == 0 || p < g->pmin[i])
                g->pmin[i] = p;
            if (f == 0 || p > g->pmax[i])
                g->pmax[i] = p;
            if (f == 0 || n < g->nmin[i])
                g->nmin[i] = n;
            if (f == 0 || n > g->nmax[i])
                g->nmax[i] = n;
        }
    }
    for (c = 0; c < 3; c++) {
        lo[c] = g->pmin[c];
        hi[c] = g->pmax[c];
    }
    for (i = 0; i < g->nv; i++) {
        for (c = 0; c < 3; c++) {
            double mn = g->pmin[3 * i + c], mx = g->pmax[3 * i + c];
            double mid = 0.5 * mn + 0.5 * mx;
            if ((mx - mn) * 0.5 > half)
                half = (mx - mn) * 0.5;
            if (fabs(mid) > maxb)
                maxb = fabs(mid);
            if (mn < lo[c])
                lo[c] = mn;
            if (mx > hi[c])
                hi[c] = mx;
        }
    }
    g->size = 0.0;
    for (c = 0; c < 3; c++) {
        if (hi[c] - lo[c] > g->size)
            g->size = hi[c] - lo[c];
    }
    /* s: one quantization step. A static model keeps world units; the
     * lower bound keeps base / s finite as a float for a model that
     * barely moves far from the origin. */
    g->scale = half / 32767.0;
    if (g->scale < maxb * 1e-12)
        g->scale = maxb * 1e-12;
    if (!(half > 0.0))
        g->scale = 1.0;
    /* The file holds float bases and a float s: the offsets are measured
     * from those. Rounding a base to float moves it by up to 2^-24 of its
     * value (maxb / 2^24 world units at most), which far from the origin
     * can be a step or more (far.md2 of the tests: up to 1, farther.md2:
     * up to 128). When an offset then no longer fits in a SHORT, s covers
     * that rounding too: every offset is then at most
     * (half + maxb / 2^24) / s = 32767 steps. */
    if (place_bases(g, &g->scale) >= 32767.5) {
        double bound = (half + maxb / 16777216.0) / 32767.0;
        if (bound > g->scale)
            g->scale = bound;
        place_bases(g, &g->scale); /* fits (write_morph_views() clamps all the same) */
    }
    return 1;
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* A unit vector b with |n[c] - b[c]| <= 1 on every axis for every n in the
 * box [nmin, nmax] (the range of one vertex's normals), when there is one:
 * such b lie in the box B = [nmax - 1, nmin + 1]. Starts from the
 * normalised midpoint clamped into B and, if that is not on the unit
 * sphere, walks in B toward the point of B farthest from (or nearest to)
 * the origin until it is. When B misses the sphere, the nearest unit
 * vector is taken and the deltas are clamped later. */
static void base_normal(const double *nmin, const double *nmax, double *b)
{
    double lo[3], hi[3], d[3], p[3], q[3], e[3], len, r2;
    int c;
    for (c = 0; c < 3; c++) {
        lo[c] = nmax[c] - 1.0;
        hi[c] = nmin[c] + 1.0;
        if (lo[c] > hi[c]) /* not for unit normals; keep B a box all the same */
            lo[c] = hi[c] = 0.5 * (lo[c] + hi[c]);
        d[c] = 0.5 * nmin[c] + 0.5 * nmax[c];
    }
    len = sqrt(dot3(d, d));
    if (len > 1e-9) {
        for (c = 0; c < 3; c++)
            d[c] /= len;
    } else {
        d[0] = 0.0;
        d[1] = 0.0;
        d[2] = 1.0;
    }
    for (c = 0; c < 3; c++)
        p[c] = d[c] < lo[c] ? lo[c] : d[c] > hi[c] ? hi[c] : d[c];
    r2 = dot3(p, p);
    if (fabs(r2 - 1.0) > 1e-12) {
        int outward = r2 < 1.0;
        for (c = 0; c < 3; c++) {
            if (outward) /* the corner of B farthest from the origin */
                q[c] = fabs(lo[c]) > fabs(hi[c]) ? lo[c] : hi[c];
            else /* the point of B nearest to it */
                q[c] = lo[c] > 0.0 ? lo[c] : hi[c] < 0.0 ? hi[c] : 0.0;
        }
        if ((outward && dot3(q, q) >= 1.0) || (!outward && dot3(q, q) <= 1.0)) {
            /* |p + t e| = 1 for some t in [0, 1] */
            double ee, pe, disc, t;
            for (c = 0; c < 3; c++)
                e[c] = q[c] - p[c];
            ee = dot3(e, e);
            pe = dot3(p, e);
            disc = pe * pe - ee * (r2 - 1.0);
            if (disc < 0.0)
                disc = 0.0;
            t = ee > 0.0 ? (outward ? (-pe + sqrt(disc)) / ee : (-pe - sqrt(disc)) / ee) : 0.0;
            if (t < 0.0)
                t = 0.0;
            if (t > 1.0)
                t = 1.0;
            for (c = 0; c < 3; c++)
                p[c] += t * e[c];
        } else {
            memcpy(p, q, sizeof p);
        }
    }
    len = sqrt(dot3(p, p));
    if (!(len > 1e-9)) {
        p[0] = d[0];
        p[1] = d[1];
        p[2] = d[2];
        len = 1.0;
    }
    for (c = 0; c < 3; c++)
        b[c] = p[c] / len;
}

/* The longest lambda <= 1 with |lambda n[c] - b[c]| <= 1 on every axis:
 * a keyframe normal n (unit) written as the delta lambda n - b from the
 * base normal b points the same way, and renderers normalise normals
 * after morphing. */
static double normal_length(const float *b, const double *n)
{
    double l = 1.0;
    int c;
    for (c = 0; c < 3; c++) {
        double bound = l;
        if (n[c] > 1e-12)
            bound = (1.0 + (double)b[c]) / n[c];
        else if (n[c] < -1e-12)
            bound = (1.0 - (double)b[c]) / -n[c];
        if (bound < l)
            l = bound;
    }
    return l > 0.0 ? l : 0.0;
}

/* Table normal k in glTF axes. */
static void table_normal(unsigned k, double *n)
{
    const float *t = md2_normal(k);
    int c;
    for (c = 0; c < 3; c++)
        n[c] = t[gltf_axis[c]];
}

/* How well b serves vertex i: the shortest normal_length() over the table
 * normals the vertex uses (1: every keyframe normal exact). */
static double base_score(const gltf *g, size_t i, const float *b)
{
    double worst = 1.0, n[3];
    unsigned k;
    for (k = 0; k < MD2_NUM_NORMALS; k++) {
        if (g->used[3 * i + k / 64] & ((uint64_t)1 << (k % 64))) {
            double l;
            table_normal(k, n);
            l = normal_length(b, n);
            if (l < worst)
                worst = l;
        }
    }
    return worst;
}

/* Each vertex's base normal: base_normal() when that keeps every keyframe
 * normal exact; else, when the vertex's normals cover too much of the
 * sphere for that (a model that tumbles), the candidate (the 162 table
 * normals and the 8 diagonals) whose shortest keyframe normal is longest.
 * All keyframe normals of such a vertex are then written with that one
 * length (about 0.42 at worst), so that blends between keyframes point
 * exactly where libmd2's do, after normalisation. */
static void base_normals(gltf *g)
{
    size_t i;
    int c;
    for (i = 0; i < g->nv; i++) {
        double b[3], best_score;
        float best[3], cand[3];
        unsigned k;
        base_normal(g->nmin + 3 * i, g->nmax + 3 * i, b);
        for (c = 0; c < 3; c++)
            best[c] = (float)b[gltf_axis[c]];
        best_score = base_score(g, i, best);
        for (k = 0; k < MD2_NUM_NORMALS + 8 && best_score < 1.0; k++) {
            double score;
            if (k < MD2_NUM_NORMALS) {
                double n[3];
                table_normal(k, n);
                for (c = 0; c < 3; c++)
                    cand[c] = (float)n[c];
            } else {
                for (c = 0; c < 3; c++)
                    cand[c] = (float)(((k - MD2_NUM_NORMALS) >> c & 1u ? -1.0 : 1.0) / sqrt(3.0));
            }
            score = base_score(g, i, cand);
            if (score > best_score) {
                best_score = score;
                memcpy(best, cand, sizeof best);
            }
        }
        memcpy(g->base_nrm + 3 * i, best, sizeof best);
        g->nrm_len[i] = best_score;
        if (best_score < 1.0) {
            g->short_normals++;
            if (best_score < g->min_length)
                g->min_length = best_score;
        }
    }
}

/* Buffer views 0-2: indices, base vertices, the shared sparse indices. */
static void write_mesh_views(gltf *g)
{
    size_t i, c;
    const md2_mesh *mesh = g->mesh;
    int short_indices = g->nv <= 65535; /* 65535 itself restarts strips */
    float bmin[3], bmax[3];

    view_begin(g, VIEW_INDICES, 0, GL_ELEMENT_ARRAY_BUFFER);
    for (i = 0; i < mesh->num_indices; i++) {
        if (short_indices)
            xbuf_u16(&g->bin, (unsigned)mesh->indices[i]);
        else
            xbuf_u32(&g->bin, mesh->indices[i]);
    }
    view_end(g, VIEW_INDICES);
    accessor_begin(g);
    xbuf_printf(&g->acc, "\"bufferView\":%d,\"componentType\":%d,\"count\":%lu,\"type\":\"SCALAR\"}",
                view_number(g, VIEW_INDICES), short_indices ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT,
                (unsigned long)mesh->num_indices);

    view_begin(g, VIEW_VERTICES, 32, GL_ARRAY_BUFFER);
    for (i = 0; i < g->nv; i++) {
        for (c = 0; c < 3; c++) {
            float v = g->base_pos[3 * i + c];
            if (i == 0 || v < bmin[c])
                bmin[c] = v;
            if (i == 0 || v > bmax[c])
                bmax[c] = v;
            xbuf_f32(&g->bin, v);
        }
        for (c = 0; c < 3; c++)
            xbuf_f32(&g->bin, g->base_nrm[3 * i + c]);
        xbuf_f32(&g->bin, mesh->uv[2 * i]);
        xbuf_f32(&g->bin, mesh->uv[2 * i + 1]);
    }
    view_end(g, VIEW_VERTICES);
    accessor_begin(g); /* 1: POSITION */
    xbuf_printf(&g->acc, "\"bufferView\":%d,\"componentType\":%d,\"count\":%lu,\"type\":\"VEC3\",\"min\":",
                view_number(g, VIEW_VERTICES), GL_FLOAT, (unsigned long)g->nv);
    json_floats(&g->acc, bmin, 3);
    xbuf_str(&g->acc, ",\"max\":");
    json_floats(&g->acc, bmax, 3);
    xbuf_str(&g->acc, "}");
    accessor_begin(g); /* 2: NORMAL */
    xbuf_printf(&g->acc, "\"bufferView\":%d,\"byteOffset\":12,\"componentType\":%d,\"count\":%lu,\"type\":\"VEC3\"}",
                view_number(g, VIEW_VERTICES), GL_FLOAT, (unsigned long)g->nv);
    accessor_begin(g); /* 3: TEXCOORD_0 */
    xbuf_printf(&g->acc, "\"bufferView\":%d,\"byteOffset\":24,\"componentType\":%d,\"count\":%lu,\"type\":\"VEC2\"}",
                view_number(g, VIEW_VERTICES), GL_FLOAT, (unsigned long)g->nv);

    view_begin(g, VIEW_SPARSE_INDEX, 0, 0);
    for (i = 0; i < g->nv; i++) {
        if (g->nv <= 65536)
            xbuf_u16(&g->bin, (unsigned)i);
        else
            xbuf_u32(&g->bin, (uint32_t)i);
    }
    view_end(g, VIEW_SPARSE_INDEX);
}

/* Buffer views 3 and 4 and two accessors a keyframe: every keyframe's
 * deltas from the base, quantized. */
static int write_morph_views(gltf *g)
{
    size_t f, i, c, pos_bytes, nrm_bytes, pos_at, nrm_at;
    unsigned sparse_type = g->nv <= 65536 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;
    double s = (float)g->scale; /* the node scale as the file holds it (a float already) */
    unsigned char *pd, *nd;

    if (!mul_size(g->nt, g->nv, &pos_bytes) || !mul_size(pos_bytes, 6, &pos_bytes) ||
        !mul_size(g->nt, g->nv, &nrm_bytes) || !mul_size(nrm_bytes, 3, &nrm_bytes) ||
        pos_bytes > (size_t)-1 - 8 - nrm_bytes ||
        !xbuf_reserve(&g->bin, pos_bytes + nrm_bytes + 8)) {
        g->bin.failed = 1;
        return 0;
    }
    /* Both views are laid out now and filled keyframe by keyframe. */
    view_begin(g, VIEW_MORPH_POS, 0, 0);
    pos_at = g->bin.size;
    g->bin.size += pos_bytes;
    view_end(g, VIEW_MORPH_POS);
    view_begin(g, VIEW_MORPH_NRM, 0, 0);
    nrm_at = g->bin.size;
    g->bin.size += nrm_bytes;
    view_end(g, VIEW_MORPH_NRM);
    pd = g->bin.data + pos_at;
    nd = g->bin.data + nrm_at;

    for (f = 0; f < g->nt; f++) {
        int qmin[3] = {0, 0, 0}, qmax[3] = {0, 0, 0};
        if (md2_mesh_morph_floats(g->mesh, g->m, (uint32_t)f, 1, g->pos, g->nrm) != MD2_OK) {
            tool_error(EXPORT_CMD, "cannot decode keyframe %lu", (unsigned long)f);
            return 0;
        }
        for (i = 0; i < g->nv; i++) {
            double n[3], len = g->nrm_len[i];
            for (c = 0; c < 3; c++)
                n[c] = g->nrm[3 * i + gltf_axis[c]];
            for (c = 0; c < 3; c++) {
                int src = gltf_axis[c];
                double p = g->pos[3 * i + src];
                double base = g->base_pos[3 * i + c];
                double q = round_half_up(p / s - base), err;
                double dn;
                long qi, ni;
                unsigned u;
                if (q > 32767.0)
                    q = 32767.0;
                if (q < -32767.0)
                    q = -32767.0;
                qi = (long)q;
                /* what a reader decodes from the file (float base, float
                 * s, the SHORT delta) against libmd2's position */
                err = fabs((base + q) * s - p);
                if (err > g->max_error)
                    g->max_error = err;
                if (i == 0 || qi < qmin[c])
                    qmin[c] = (int)qi;
                if (i == 0 || qi > qmax[c])
                    qmax[c] = (int)qi;
                u = (unsigned)(qi < 0 ? 65536L + qi : qi);
                pd[6 * i + 2 * c] = (unsigned char)(u & 0xFFu);
                pd[6 * i + 2 * c + 1] = (unsigned char)(u >> 8);

                dn = round_half_up((len * n[c] - (double)g->base_nrm[3 * i + c]) * 127.0);
                if (dn > 127.0 || dn < -127.0) {
                    g->normal_clamps++;
                    dn = dn > 0.0 ? 127.0 : -127.0;
                }
                ni = (long)dn;
                nd[3 * i + c] = (unsigned char)(ni < 0 ? 256L + ni : ni);
            }
        }
        pd += 6 * g->nv;
        nd += 3 * g->nv;

        accessor_begin(g); /* POSITION deltas */
        xbuf_printf(&g->acc,
                    "\"componentType\":%d,\"count\":%lu,\"type\":\"VEC3\",\"min\":[%d,%d,%d],"
                    "\"max\":[%d,%d,%d],\"sparse\":{\"count\":%lu,\"indices\":{\"bufferView\":%d,"
                    "\"componentType\":%u},\"values\":{\"bufferView\":%d,\"byteOffset\":%lu}}}",
                    GL_SHORT, (unsigned long)g->nv, qmin[0], qmin[1], qmin[2], qmax[0], qmax[1],
                    qmax[2], (unsigned long)g->nv, view_number(g, VIEW_SPARSE_INDEX), sparse_type,
                    view_number(g, VIEW_MORPH_POS),
                    (unsigned long)(f * 6 * g->nv));
        accessor_begin(g); /* NORMAL deltas */
        xbuf_printf(&g->acc,
                    "\"componentType\":%d,\"normalized\":true,\"count\":%lu,\"type\":\"VEC3\","
                    "\"sparse\":{\"count\":%lu,\"indices\":{\"bufferView\":%d,\"componentType\":%u},"
                    "\"values\":{\"bufferView\":%d,\"byteOffset\":%lu}}}",
                    GL_BYTE, (unsigned long)g->nv, (unsigned long)g->nv,
                    view_number(g, VIEW_SPARSE_INDEX), sparse_type, view_number(g, VIEW_MORPH_NRM),
                    (unsigned long)(f * 3 * g->nv));
    }
    return 1;
}

/* The keys of one animation: times[k] shows keyframe frames[k]. A looping
 * animation gets a last key back on its first frame, one frame time after
 * its last (md2_player wraps that way); every clip has at least two keys,
 * so its duration is never 0 (a one-frame animation lasts 1 / fps
 * seconds; a rate of 0, which holds the first frame, 1 second). */
static size_t anim_keys(const md2_anim *a, float *times, uint32_t *frames)
{
    size_t n = (size_t)a->last - a->first + 1, k, keys;
    double fps = a->fps;
    if (!(fps > 0.0)) {
        times[0] = 0.0f;
        times[1] = 1.0f;
        frames[0] = frames[1] = a->first;
        return 2;
    }
    keys = (a->loop || n == 1) ? n + 1 : n;
    for (k = 0; k < keys; k++) {
        times[k] = (float)((double)k / fps);
        frames[k] = k < n ? a->first + (uint32_t)k : a->first;
    }
    return keys;
}

/* Buffer view 5, two accessors and one "animations" entry an animation;
 * without animations, nothing (no view: it would be empty). */
static int write_animations(gltf *g)
{
    size_t a, k, most = 2;
    float *times;
    uint32_t *frames;
    int ok = 1;
    for (a = 0; a < g->job->num_anims; a++) {
        size_t n = (size_t)g->job->anims[a].last - g->job->anims[a].first + 2;
        if (n > most)
            most = n;
    }
    if (g->job->num_anims == 0)
        return 1; /* no view: it would be empty */
    times = (float *)malloc(most * sizeof *times);
    frames = (uint32_t *)malloc(most * sizeof *frames);
    g->anim_io = (size_t *)malloc(2 * g->job->num_anims * sizeof *g->anim_io);
    if (!times || !frames || !g->anim_io) {
        free(times);
        free(frames);
        g->bin.failed = 1;
        return 0;
    }
    view_begin(g, VIEW_ANIM, 0, 0);
    for (a = 0; a < g->job->num_anims && ok; a++) {
        const md2_anim *an = &g->job->anims[a];
        size_t keys = anim_keys(an, times, frames), total, times_at, index_at, values_at;
        size_t input, output;
        int wide;
        for (k = 1; k < keys; k++) {
            /* the side-file parsers refuse rates whose times would not be
             * finite floats; this keeps the file valid whatever comes */
            if (!(times[k] > times[k - 1]) || !(times[k] <= FLT_MAX)) {
                fputs("md2 " EXPORT_CMD ": animation '", stderr);
                tool_put_clean(stderr, an->name);
                fprintf(stderr, "': its rate (%g fps) gives key times that glTF's floats cannot "
                        "hold\n", (double)an->fps);
                ok = 0;
                break;
            }
        }
        if (!ok)
            break;
        if (!mul_size(keys, g->nt, &total) || total > 0xFFFFFFFFu) {
            fputs("md2 " EXPORT_CMD ": animation '", stderr);
            tool_put_clean(stderr, an->name);
            fputs("' has too many weights for glTF\n", stderr);
            ok = 0;
            break;
        }
        wide = total - 1 > 65535;
        xbuf_align(&g->bin, 4, 0);
        times_at = g->bin.size - g->views[VIEW_ANIM].offset;
        for (k = 0; k < keys; k++)
            xbuf_f32(&g->bin, times[k]);
        index_at = g->bin.size - g->views[VIEW_ANIM].offset;
        for (k = 0; k < keys; k++) {
            size_t at = k * g->nt + frames[k];
            if (wide)
                xbuf_u32(&g->bin, (uint32_t)at);
            else
                xbuf_u16(&g->bin, (unsigned)at);
        }
        values_at = g->bin.size - g->views[VIEW_ANIM].offset;
        for (k = 0; k < keys; k++)
            xbuf_u8(&g->bin, 255);

        input = accessor_begin(g);
        xbuf_printf(&g->acc, "\"bufferView\":%d,\"byteOffset\":%lu,\"componentType\":%d,\"count\":%lu,"
                    "\"type\":\"SCALAR\",\"min\":", view_number(g, VIEW_ANIM), (unsigned long)times_at, GL_FLOAT,
                    (unsigned long)keys);
        json_floats(&g->acc, times, 1);
        xbuf_str(&g->acc, ",\"max\":");
        json_floats(&g->acc, times + keys - 1, 1);
        xbuf_str(&g->acc, "}");
        output = accessor_begin(g);
        xbuf_printf(&g->acc,
                    "\"componentType\":%d,\"normalized\":true,\"count\":%lu,\"type\":\"SCALAR\","
                    "\"sparse\":{\"count\":%lu,\"indices\":{\"bufferView\":%d,\"byteOffset\":%lu,"
                    "\"componentType\":%d},\"values\":{\"bufferView\":%d,\"byteOffset\":%lu}}}",
                    GL_UNSIGNED_BYTE, (unsigned long)total, (unsigned long)keys,
                    view_number(g, VIEW_ANIM), (unsigned long)index_at,
                    wide ? GL_UNSIGNED_INT : GL_UNSIGNED_SHORT, view_number(g, VIEW_ANIM),
                    (unsigned long)values_at);

        g->anim_io[2 * a] = input;
        g->anim_io[2 * a + 1] = output;
    }
    xbuf_align(&g->bin, 4, 0);
    view_end(g, VIEW_ANIM);
    free(times);
    free(frames);
    return ok;
}

/* The "animations" entries: each drives the mesh's weights, and the tags'
 * nodes and attached models (export_tags.c) with their own samplers. */
static void write_animation_json(gltf *g, xbuf *j, export_gltf_base *base)
{
    size_t a;
    for (a = 0; a < g->job->num_anims; a++) {
        const md2_anim *an = &g->job->anims[a];
        if (a > 0)
            xbuf_str(j, ",");
        xbuf_str(j, "{\"name\":");
        xbuf_json_string(j, an->name);
        xbuf_str(j, ",\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}");
        base->samplers = 1;
        export_tags_json(&g->tags, EXPORT_TAGS_CHANNELS, base, a, 1, j);
        xbuf_printf(j, "],\"samplers\":[{\"input\":%lu,\"output\":%lu}",
                    (unsigned long)g->anim_io[2 * a], (unsigned long)g->anim_io[2 * a + 1]);
        export_tags_json(&g->tags, EXPORT_TAGS_SAMPLERS, base, a, 1, j);
        xbuf_printf(j, "],\"extras\":{\"first\":%lu,\"last\":%lu,\"fps\":",
                    (unsigned long)an->first, (unsigned long)an->last);
        xbuf_json_float(j, an->fps);
        xbuf_printf(j, ",\"loop\":%s}}", an->loop ? "true" : "false");
    }
}

/* The model's file name without folders and extension: the node's name. */
static char *model_name(const char *path)
{
    const char *base = export_base_name(path);
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char *s = (char *)malloc(n + 1);
    if (s) {
        memcpy(s, base, n);
        s[n] = '\0';
    }
    return s;
}

/* The whole JSON document; buffer_uri is the data URI of a .gltf, or NULL
 * for a .glb. */
static void write_json(gltf *g, xbuf *j, const xbuf *buffer_uri)
{
    const export_job *job = g->job;
    size_t f, v;
    char *name = model_name(job->model_path);
    float scale = (float)g->scale;
    export_gltf_base base;
    size_t textures = job->png ? 1 : 0;

    /* what the body's own entries take in each array: the tags' follow */
    memset(&base, 0, sizeof base);
    base.nodes = 1;
    base.meshes = 1;
    base.materials = 1;
    base.textures = textures;
    base.images = textures;
    base.accessors = g->num_acc;
    base.views = (size_t)view_number(g, VIEW_COUNT);

    if (!name) {
        j->failed = 1;
        return;
    }
    xbuf_str(j, "{\"asset\":{\"version\":\"2.0\",\"generator\":");
    {
        char gen[96];
        snprintf(gen, sizeof gen, "md2 export (libmd2 %s)", md2_version_string());
        xbuf_json_string(j, gen);
    }
    xbuf_str(j, "},\"extensionsUsed\":[\"KHR_mesh_quantization\"],"
                "\"extensionsRequired\":[\"KHR_mesh_quantization\"],"
                "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":");
    xbuf_json_string(j, name);
    /* the scale multiplies bases of up to 2^40 steps: written as the
     * float's exact value, so that a reader that parses JSON numbers as
     * doubles (three.js) gets the float too, not the shortest decimal
     * that rounds to it, which is up to 3e-8 of it away */
    xbuf_str(j, ",\"mesh\":0,\"scale\":[");
    xbuf_json_double(j, scale);
    xbuf_str(j, ",");
    xbuf_json_double(j, scale);
    xbuf_str(j, ",");
    xbuf_json_double(j, scale);
    xbuf_str(j, "]");
    export_tags_json(&g->tags, EXPORT_TAGS_CHILDREN, &base, 0, 0, j);
    xbuf_str(j, "}");
    export_tags_json(&g->tags, EXPORT_TAGS_NODES, &base, 0, 1, j);
    xbuf_str(j, "],\"meshes\":[{\"name\":");
    xbuf_json_string(j, name);
    xbuf_str(j, ",\"primitives\":[{\"attributes\":{\"POSITION\":1,\"NORMAL\":2,\"TEXCOORD_0\":3},"
                "\"indices\":0,\"material\":0,\"targets\":[");
    for (f = 0; f < g->nt; f++)
        xbuf_printf(j, "%s{\"POSITION\":%lu,\"NORMAL\":%lu}", f ? "," : "",
                    (unsigned long)(4 + 2 * f), (unsigned long)(5 + 2 * f));
    xbuf_str(j, "]}],\"weights\":[");
    for (f = 0; f < g->nt; f++) {
        if (f)
            xbuf_str(j, ",");
        xbuf_str(j, f == job->frame ? "1" : "0");
    }
    xbuf_str(j, "],\"extras\":{\"targetNames\":[");
    for (f = 0; f < g->nt; f++) {
        if (f)
            xbuf_str(j, ",");
        xbuf_json_string(j, g->m->frames[f].name);
    }
    xbuf_str(j, "]}}");
    export_tags_json(&g->tags, EXPORT_TAGS_MESHES, &base, 0, 1, j);
    xbuf_str(j, "],\"materials\":[{\"name\":\"skin\",\"pbrMetallicRoughness\":{");
    if (job->png)
        xbuf_str(j, "\"baseColorTexture\":{\"index\":0},");
    xbuf_str(j, "\"metallicFactor\":0}}");
    export_tags_json(&g->tags, EXPORT_TAGS_MATERIALS, &base, 0, 1, j);
    xbuf_str(j, "]");
    if (job->png || g->tags.num_textures > 0) {
        xbuf_str(j, ",\"textures\":[");
        if (job->png)
            xbuf_str(j, "{\"source\":0}");
        export_tags_json(&g->tags, EXPORT_TAGS_TEXTURES, &base, 0, textures, j);
        xbuf_str(j, "],\"images\":[");
        if (job->png)
            xbuf_printf(j, "{\"bufferView\":%d,\"mimeType\":\"image/png\"}",
                        view_number(g, VIEW_IMAGE));
        export_tags_json(&g->tags, EXPORT_TAGS_IMAGES, &base, 0, textures, j);
        xbuf_str(j, "]");
    }
    if (job->num_anims > 0) {
        xbuf_str(j, ",\"animations\":[");
        write_animation_json(g, j, &base);
        xbuf_str(j, "]");
    }
    xbuf_str(j, ",\"accessors\":[");
    xbuf_bytes(j, g->acc.data, g->acc.size);
    export_tags_json(&g->tags, EXPORT_TAGS_ACCESSORS, &base, 0, g->num_acc, j);
    xbuf_str(j, "],\"bufferViews\":[");
    for (v = 0, f = 0; v < VIEW_COUNT; v++) {
        const view *w = &g->views[v];
        if (!w->used)
            continue;
        xbuf_printf(j, "%s{\"buffer\":0,\"byteOffset\":%lu,\"byteLength\":%lu", f++ ? "," : "",
                    (unsigned long)w->offset, (unsigned long)w->length);
        if (w->stride)
            xbuf_printf(j, ",\"byteStride\":%lu", (unsigned long)w->stride);
        if (w->target)
            xbuf_printf(j, ",\"target\":%u", w->target);
        xbuf_str(j, "}");
    }
    export_tags_json(&g->tags, EXPORT_TAGS_VIEWS, &base, 0, f, j);
    xbuf_printf(j, "],\"buffers\":[{\"byteLength\":%lu", (unsigned long)g->bin.size);
    if (buffer_uri) {
        xbuf_str(j, ",\"uri\":\"");
        xbuf_bytes(j, buffer_uri->data, buffer_uri->size);
        xbuf_str(j, "\"");
    }
    xbuf_str(j, "}]}");
    free(name);
}

static void gltf_free(gltf *g)
{
    md2_mesh_free(g->mesh);
    xbuf_free(&g->bin);
    xbuf_free(&g->acc);
    free(g->anim_io);
    export_tags_free(&g->tags);
    free(g->pmin);
    free(g->pmax);
    free(g->nmin);
    free(g->nmax);
    free(g->used);
    free(g->base_pos);
    free(g->base_nrm);
    free(g->nrm_len);
    free(g->pos);
    free(g->nrm);
}

static int alloc_arrays(gltf *g)
{
    size_t nd, nf;
    if (!mul_size(g->nv, 3 * sizeof(double), &nd) || !mul_size(g->nv, 3 * sizeof(float), &nf))
        return 0;
    g->pmin = (double *)malloc(nd);
    g->pmax = (double *)malloc(nd);
    g->nmin = (double *)malloc(nd);
    g->nmax = (double *)malloc(nd);
    g->used = (uint64_t *)calloc(g->nv, 3 * sizeof(uint64_t));
    g->base_pos = (float *)malloc(nf);
    g->base_nrm = (float *)malloc(nf);
    g->nrm_len = (double *)malloc(nd / 3);
    g->pos = (float *)malloc(nf);
    g->nrm = (float *)malloc(nf);
    g->min_length = 1.0;
    return g->pmin && g->pmax && g->nmin && g->nmax && g->used && g->nrm_len && g->base_pos && g->base_nrm && g->pos &&
           g->nrm;
}

int export_gltf(const export_job *job, int binary)
{
    gltf g;
    md2_mesh_options mo;
    md2_diagnostic diag;
    md2_result r;
    xbuf json, file;
    int ok = 0;
    double least;
    size_t a;

    memset(&g, 0, sizeof g);
    memset(&json, 0, sizeof json);
    memset(&file, 0, sizeof file);
    g.job = job;
    g.m = job->tm->model;
    export_tags_init(&g.tags, job);
    g.nt = g.m->num_frames;

    memset(&mo, 0, sizeof mo);
    mo.flags = MD2_MESH_COUNTER_CLOCKWISE;
    mo.error = &diag;
    r = md2_mesh_build(g.m, &mo, &g.mesh);
    if (r != MD2_OK) {
        tool_error(EXPORT_CMD, "%s: cannot build the mesh: %s", job->model_path,
                   r == MD2_ERR_OUT_OF_MEMORY ? "out of memory" : diag.message);
        return TOOL_FAILED;
    }
    g.nv = g.mesh->num_vertices;
    if (g.nv == 0) {
        tool_error(EXPORT_CMD, "%s has no triangles: there is no mesh to write as glTF",
                   job->model_path);
        gltf_free(&g);
        return TOOL_FAILED;
    }
    /* the least the file holds: each keyframe's offsets (6 bytes of
     * position, 3 of normal a vertex), the base attributes (32 bytes a
     * vertex), the sparse indices and the triangles', and for each
     * animation 7 bytes a keyframe (time, weight index, weight) and 200
     * of JSON */
    least = (double)g.nv * (9.0 * (double)g.nt + 34.0) + 2.0 * (double)g.mesh->num_indices +
            (double)job->png_size;
    for (a = 0; a < job->num_anims; a++)
        least += 7.0 * ((double)job->anims[a].last - job->anims[a].first + 1.0) + 200.0;
    if (!export_within_budget(job, least, 0))
        goto fail;
    if (!alloc_arrays(&g))
        goto out_of_memory;
    if (!measure(&g))
        goto fail;
    base_normals(&g);
    write_mesh_views(&g);
    if (!write_morph_views(&g)) {
        if (g.bin.failed)
            goto out_of_memory;
        goto fail;
    }
    if (!write_animations(&g)) {
        if (g.bin.failed)
            goto out_of_memory;
        goto fail;
    }
    if (job->png) {
        view_begin(&g, VIEW_IMAGE, 0, 0);
        xbuf_bytes(&g.bin, job->png, job->png_size);
        view_end(&g, VIEW_IMAGE);
        xbuf_align(&g.bin, 4, 0);
    }
    /* the tags' nodes and the attached models, their data last */
    if (!export_tags_gltf_build(&g.tags, (float)g.scale, job->frame))
        goto fail;
    xbuf_align(&g.bin, 4, 0);
    g.tags.bin_offset = g.bin.size;
    xbuf_bytes(&g.bin, g.tags.bin.data, g.tags.bin.size);
    if (g.bin.failed || g.acc.failed)
        goto out_of_memory;
    if (g.bin.size > 0xFFFFFFF0u) {
        /* a GLB chunk's limit; offsets are written as unsigned long */
        tool_error(EXPORT_CMD, "%s: the model is too large for glTF here (4 GiB of data)",
                   job->model_path);
        goto fail;
    }

    if (binary) {
        size_t total;
        write_json(&g, &json, NULL);
        xbuf_align(&json, 4, ' ');
        if (json.failed)
            goto out_of_memory;
        total = 12 + 8 + json.size + 8 + g.bin.size;
        if (json.size > 0xFFFFFFF0u || total > 0xFFFFFFFFu || total < json.size) {
            tool_error(EXPORT_CMD, "%s: the model is too large for a .glb (4 GiB)", job->model_path);
            goto fail;
        }
        xbuf_u32(&file, 0x46546C67u); /* "glTF" */
        xbuf_u32(&file, 2);
        xbuf_u32(&file, (uint32_t)total);
        xbuf_u32(&file, (uint32_t)json.size);
        xbuf_u32(&file, 0x4E4F534Au); /* "JSON" */
        xbuf_bytes(&file, json.data, json.size);
        xbuf_u32(&file, (uint32_t)g.bin.size);
        xbuf_u32(&file, 0x004E4942u); /* "BIN\0" */
        xbuf_bytes(&file, g.bin.data, g.bin.size);
    } else {
        xbuf uri;
        memset(&uri, 0, sizeof uri);
        xbuf_str(&uri, "data:application/octet-stream;base64,");
        xbuf_base64(&uri, g.bin.data, g.bin.size);
        if (uri.failed) {
            xbuf_free(&uri);
            goto out_of_memory;
        }
        write_json(&g, &file, &uri);
        xbuf_free(&uri);
    }
    if (file.failed)
        goto out_of_memory;
    if (!export_within_budget(job, (double)file.size, 1) || !export_not_skin(job, job->out_path) ||
        !tool_write_file(EXPORT_CMD, job->out_path, file.data, file.size))
        goto fail;

    tool_term_printf(stdout, "wrote %s (%lu bytes): %lu vertices, %lu triangles, %lu morph target%s, "
           "%lu animation%s, ", job->out_path, (unsigned long)file.size, (unsigned long)g.nv,
           (unsigned long)(g.mesh->num_indices / 3), (unsigned long)g.nt, g.nt == 1 ? "" : "s",
           (unsigned long)job->num_anims, job->num_anims == 1 ? "" : "s");
    if (job->png)
        tool_term_printf(stdout, "skin %s (%dx%d, %lu bytes of PNG)", job->skin_path, job->skin_width,
               job->skin_height, (unsigned long)job->png_size);
    else
        printf("no skin");
    printf("; quantized positions within %.2g of the model's size",
           g.size > 0.0 ? g.max_error / g.size : 0.0);
    if (g.short_normals)
        printf(", normals of %lu vertices shortened (to %.2g at least)", g.short_normals,
               g.min_length);
    if (g.normal_clamps)
        printf(", %lu normal components clamped", g.normal_clamps);
    printf("\n");
    export_tags_report(&g.tags, stdout);
    ok = 1;
    goto done;

out_of_memory:
    tool_error(EXPORT_CMD, "out of memory (or the model is too large) writing %s", job->out_path);
fail:
done:
    xbuf_free(&json);
    xbuf_free(&file);
    gltf_free(&g);
    return ok ? TOOL_OK : TOOL_FAILED;
}
