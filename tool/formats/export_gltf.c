/*
 * md2 export: glTF 2.0 (.gltf with the buffer as a data URI, .glb).
 *
 * The welded mesh of md2_mesh_build() (its vertex order kept), one morph
 * target per kept keyframe, one animation per named animation driving the
 * morph weights (the idle one first: order_anims()), and a material with
 * the skin. Keyframes that blending their kept neighbours reproduces
 * within --keyframe-error are dropped (select_keys()); --max-targets
 * splits the targets over several meshes, one node each, that the clips
 * show and hide with STEP scale keys (make_parts(), split_channels()).
 *
 * The default layout needs no extension: the base POSITION and NORMAL are
 * the default animation's first keyframe as floats, in model units at
 * node scale 1, and each morph target is its keyframe's float deltas from
 * them (float_bases(), write_float_morph_views()). --compact is smaller
 * thanks to KHR_mesh_quantization and sparse accessors:
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
    VIEW_SPARSE_INDEX, /* compact: 0..n-1, the sparse indices of every morph accessor */
    VIEW_MORPH_POS,    /* morph position deltas (compact: 3 int16 a vertex; else 3 floats), target after target */
    VIEW_MORPH_NRM,    /* morph normal deltas (compact: 3 int8 a vertex; else 3 floats), target after target */
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

/* The keys of one animation after dropping keyframes: times[k] shows
 * keyframe frames[k]. */
typedef struct anim_keys {
    float *times;
    uint32_t *frames;
    size_t count;
} anim_keys;

/* One mesh and its node. targets: the morph targets it holds (global
 * indices, ascending). anim: the animation (index in order[]) whose keys
 * first..last it plays, or -1: a part that plays every animation (the one
 * part of an unsplit export) or none (keyframes no animation plays). */
typedef struct part {
    size_t *targets;
    size_t count;
    long anim;
    size_t first, last;
} part;

typedef struct gltf {
    const export_job *job;
    const md2_model *m;
    md2_mesh *mesh;
    size_t nv; /* welded vertices */
    size_t nt; /* morph targets: keyframes */
    tool_buf bin;
    tool_buf acc; /* the "accessors" array's entries */
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
    tool_buf anims;          /* each animation's channels, then its samplers */
    size_t *anim_at;     /* per animation: where its channels end and its
                          * samplers end in anims, and its sampler count */
    size_t *order_of;    /* per animation of order[]: its index in job->anims */
    export_tags tags;    /* the model's tags and --attach models (export_tags.c) */
    int compact;         /* --compact: the quantised layout */
    md2_anim *order;     /* the animations, the default (idle) one first */
    size_t num_anims;
    anim_keys *keys;     /* the kept keys of each of order[] */
    uint32_t base_frame; /* the keyframe the base mesh holds (default layout) */
    long *target_of;     /* per keyframe: its morph target, or -1 (dropped) */
    uint32_t *target_frame; /* per morph target: its keyframe */
    size_t ntargets;
    double keyframe_error; /* E, model units */
    part *parts;         /* the meshes (one, unless --max-targets splits them) */
    size_t nparts;
    size_t shown_part;   /* the part that shows job->frame by default */
    float *pa, *pb;      /* two decoded keyframes (MD2 axes), for selection */
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
    tool_buf_align(&g->bin, 4, 0);
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
        tool_buf_str(&g->acc, ",");
    tool_buf_str(&g->acc, "{");
    return g->num_acc++;
}

static void json_floats(tool_buf *b, const float *v, size_t n)
{
    size_t i;
    tool_buf_str(b, "[");
    for (i = 0; i < n; i++) {
        if (i)
            tool_buf_str(b, ",");
        tool_buf_json_float(b, v[i]);
    }
    tool_buf_str(b, "]");
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

/* ---- the default animation, kept keyframes, parts -------------------- */

/* 1 if name is word, ignoring ASCII case. */
static int same_name(const char *name, const char *word)
{
    for (; *name && *word; name++, word++) {
        char a = *name, b = *word;
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (a != b)
            return 0;
    }
    return *name == '\0' && *word == '\0';
}

/* g->order: the job's animations with the idle one first (named "stand",
 * else "idle", else the first that loops), the others in their order. */
static int order_anims(gltf *g)
{
    const md2_anim *in = g->job->anims;
    size_t n = g->job->num_anims, i, pick = 0;
    const char *const idle[] = {"stand", "idle"};
    int w, found = 0;
    g->num_anims = n;
    if (n == 0)
        return 1;
    g->order = (md2_anim *)malloc(n * sizeof *g->order);
    g->order_of = (size_t *)malloc(n * sizeof *g->order_of);
    g->keys = (anim_keys *)calloc(n, sizeof *g->keys);
    g->anim_at = (size_t *)calloc(3 * n, sizeof *g->anim_at);
    if (!g->order || !g->order_of || !g->keys || !g->anim_at)
        return 0;
    for (w = 0; w < 2 && !found; w++) {
        for (i = 0; i < n && !found; i++) {
            if (same_name(in[i].name, idle[w])) {
                pick = i;
                found = 1;
            }
        }
    }
    for (i = 0; i < n && !found; i++) {
        if (in[i].loop) {
            pick = i;
            found = 1;
        }
    }
    g->order[0] = in[pick];
    g->order_of[0] = pick;
    for (i = 0, w = 1; i < n; i++) {
        if (i != pick) {
            g->order_of[w] = i;
            g->order[w++] = in[i];
        }
    }
    return 1;
}

/* The default --keyframe-error: half the model's smallest quantisation
 * step (the smallest per-axis scale of any keyframe, 0 ignored). */
static double default_keyframe_error(const md2_model *m)
{
    double step = 0.0;
    uint32_t f;
    int c;
    for (f = 0; f < m->num_frames; f++) {
        for (c = 0; c < 3; c++) {
            double sc = fabs((double)m->frames[f].scale[c]);
            if (sc > 0.0 && (step == 0.0 || sc < step))
                step = sc;
        }
    }
    return 0.5 * step;
}

/* The largest distance between keyframe f and the blend (1 - t) pa + t pb
 * of two decoded keyframes (or a distance over E, once one is found); f is
 * decoded into g->pos. -1 if it cannot be. */
static double blend_error(gltf *g, uint32_t f, double t)
{
    size_t i;
    double worst = 0.0, enough = g->keyframe_error * g->keyframe_error;
    if (md2_mesh_morph_floats(g->mesh, g->m, f, 1, g->pos, NULL) != MD2_OK)
        return -1.0;
    for (i = 0; i < g->nv; i++) {
        double d2 = 0.0;
        int c;
        for (c = 0; c < 3; c++) {
            size_t k = 3 * i + (size_t)c;
            double d = (1.0 - t) * g->pa[k] + t * g->pb[k] - g->pos[k];
            d2 += d * d;
        }
        if (d2 > worst) {
            worst = d2;
            if (worst > enough)
                break; /* over E already: the key stays */
        }
    }
    return sqrt(worst);
}

/* How far ahead a kept key looks for the next one it must keep. */
#define KEY_LOOKAHEAD 256

/* The key positions of an animation (keyframes first.., then the wrap of a
 * loop back to first): the keyframe at position k. */
static uint32_t key_frame(const md2_anim *a, size_t k)
{
    size_t n = (size_t)a->last - a->first + 1;
    return k < n ? a->first + (uint32_t)k : a->first;
}

/* 1 if every key strictly between key positions i and j of an is within E
 * of the blend of the two (g->pa holds key i decoded), 0 if not, -1 if a
 * keyframe cannot be decoded. */
static int blend_holds(gltf *g, const md2_anim *an, size_t i, size_t j)
{
    size_t k;
    if (md2_mesh_morph_floats(g->mesh, g->m, key_frame(an, j), 1, g->pb, NULL) != MD2_OK)
        return -1;
    for (k = i + 1; k < j; k++) {
        double e = blend_error(g, key_frame(an, k), (double)(k - i) / (double)(j - i));
        if (e < 0.0)
            return -1;
        if (e > g->keyframe_error)
            return 0;
    }
    return 1;
}

/* The keys of animation a: a looping animation gets a last key back on its
 * first frame, one frame time after its last (md2_player wraps that way);
 * every clip has at least two keys, so its duration is never 0 (a
 * one-frame animation lasts 1 / fps seconds; a rate of 0, which holds the
 * first frame, 1 second). The first and the last keyframe stay (and a
 * loop's wrap); of the keys between, those that blending the kept keys on
 * either side gives within E are dropped: from each kept key, the next kept one is found by doubling the
 * distance while every key between stays within E, then halving between
 * the last distance that held and the first that did not (up to
 * KEY_LOOKAHEAD keys ahead): O(n log n) blends, not O(n^2). */
static int select_keys(gltf *g, size_t a)
{
    const md2_anim *an = &g->order[a];
    anim_keys *ak = &g->keys[a];
    size_t n = (size_t)an->last - an->first + 1, m, i;
    double fps = an->fps;
    m = !(fps > 0.0) ? 2 : (an->loop || n == 1) ? n + 1 : n;
    ak->times = (float *)malloc(m * sizeof *ak->times);
    ak->frames = (uint32_t *)malloc(m * sizeof *ak->frames);
    if (!ak->times || !ak->frames) {
        g->bin.failed = 1;
        return 0;
    }
    ak->count = 0;
    if (!(fps > 0.0)) {
        ak->times[0] = 0.0f;
        ak->times[1] = 1.0f;
        ak->frames[0] = ak->frames[1] = an->first;
        ak->count = 2;
        return 1;
    }
    i = 0;
    for (;;) {
        size_t lo = i + 1, hi, d, jmax;
        ak->times[ak->count] = (float)((double)i / fps);
        ak->frames[ak->count++] = key_frame(an, i);
        if (i + 1 >= m)
            break;
        jmax = m - 1 - i > KEY_LOOKAHEAD ? i + KEY_LOOKAHEAD : m - 1;
        if (i < n - 1 && jmax > n - 1)
            jmax = n - 1; /* the animation's last keyframe stays, before a loop's wrap */
        hi = jmax + 1; /* the nearest key known not to hold */
        if (g->keyframe_error > 0.0 && i + 2 <= jmax) {
            int r;
            if (md2_mesh_morph_floats(g->mesh, g->m, key_frame(an, i), 1, g->pa, NULL) != MD2_OK)
                goto bad;
            for (d = 2; i + d <= jmax; d *= 2) {
                if ((r = blend_holds(g, an, i, i + d)) < 0)
                    goto bad;
                if (!r) {
                    hi = i + d;
                    break;
                }
                lo = i + d;
            }
            if (hi == jmax + 1 && lo < jmax) {
                if ((r = blend_holds(g, an, i, jmax)) < 0)
                    goto bad;
                if (r)
                    lo = jmax;
                else
                    hi = jmax;
            }
            while (hi - lo > 1) {
                size_t mid = lo + (hi - lo) / 2;
                if ((r = blend_holds(g, an, i, mid)) < 0)
                    goto bad;
                if (r)
                    lo = mid;
                else
                    hi = mid;
            }
        }
        i = lo;
    }
    return 1;
bad:
    tool_error(EXPORT_CMD, "cannot decode the keyframes of animation %lu", (unsigned long)a);
    return 0;
}

/* The morph targets: every keyframe a kept key shows, the one --frame
 * shows, and every keyframe no animation plays (nothing says it may go),
 * in keyframe order. */
static int select_targets(gltf *g)
{
    size_t nf = g->m->num_frames, a, k, f;
    unsigned char *played = (unsigned char *)calloc(nf, 1);
    g->target_of = (long *)malloc(nf * sizeof *g->target_of);
    g->target_frame = (uint32_t *)malloc(nf * sizeof *g->target_frame);
    if (!played || !g->target_of || !g->target_frame) {
        free(played);
        g->bin.failed = 1;
        return 0;
    }
    for (f = 0; f < nf; f++)
        g->target_of[f] = -1;
    for (a = 0; a < g->num_anims; a++) {
        if (!select_keys(g, a)) {
            free(played);
            return 0;
        }
        for (f = g->order[a].first; f <= g->order[a].last; f++)
            played[f] = 1;
        for (k = 0; k < g->keys[a].count; k++)
            g->target_of[g->keys[a].frames[k]] = 0;
    }
    g->target_of[g->job->frame] = 0;
    g->ntargets = 0;
    for (f = 0; f < nf; f++) {
        if (g->target_of[f] == 0 || !played[f]) {
            g->target_frame[g->ntargets] = (uint32_t)f;
            g->target_of[f] = (long)g->ntargets++;
        }
    }
    free(played);
    return 1;
}

/* The index of global target t in part p; -1 if it has none. */
static long part_target(const part *p, size_t t)
{
    size_t i;
    for (i = 0; i < p->count; i++) {
        if (p->targets[i] == t)
            return (long)i;
    }
    return -1;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* A new part of g (room was made for it) with up to max targets. */
static part *add_part(gltf *g, size_t max, long anim, size_t first, size_t last)
{
    part *p = &g->parts[g->nparts];
    p->targets = (size_t *)malloc((max ? max : 1) * sizeof *p->targets);
    if (!p->targets)
        return NULL;
    g->nparts++;
    p->count = 0;
    p->anim = anim;
    p->first = first;
    p->last = last;
    return p;
}

/* The meshes: one holding every target; with --max-targets N and more
 * targets than that, each animation's keys in runs of N, each run in a
 * part of its own and starting with the key the run before ends with (so
 * that every blend between two keys happens inside one mesh), and the
 * targets no run holds (keyframes no animation plays) N to a part. */
static int make_parts(gltf *g)
{
    size_t n = g->job->max_targets, most, a, t;
    unsigned char *held;
    if (n == 0 || g->ntargets <= n) {
        g->parts = (part *)calloc(1, sizeof *g->parts);
        if (!g->parts || !add_part(g, g->ntargets, -1, 0, 0))
            return 0;
        for (t = 0; t < g->ntargets; t++)
            g->parts[0].targets[t] = t;
        g->parts[0].count = g->ntargets;
        g->shown_part = 0;
        return 1;
    }
    most = g->ntargets / n + 1;
    for (a = 0; a < g->num_anims; a++)
        most += g->keys[a].count / (n - 1) + 1;
    g->parts = (part *)calloc(most, sizeof *g->parts);
    held = (unsigned char *)calloc(g->ntargets, 1);
    if (!g->parts || !held) {
        free(held);
        return 0;
    }
    for (a = 0; a < g->num_anims; a++) {
        const anim_keys *ak = &g->keys[a];
        size_t s = 0, e, k;
        for (;;) {
            part *p;
            e = s + n - 1 < ak->count - 1 ? s + n - 1 : ak->count - 1;
            p = add_part(g, n, (long)a, s, e);
            if (!p)
                goto fail;
            for (k = s; k <= e; k++) {
                size_t tg = (size_t)g->target_of[ak->frames[k]];
                if (part_target(p, tg) < 0)
                    p->targets[p->count++] = tg;
                held[tg] = 1;
            }
            qsort(p->targets, p->count, sizeof *p->targets, cmp_size);
            if (e + 1 >= ak->count)
                break;
            s = e;
        }
    }
    for (t = 0; t < g->ntargets; t++) {
        part *p = g->nparts > 0 ? &g->parts[g->nparts - 1] : NULL;
        if (held[t])
            continue;
        if (!p || p->anim >= 0 || p->count == n) {
            p = add_part(g, n, -1, 0, 0);
            if (!p)
                goto fail;
        }
        p->targets[p->count++] = t;
    }
    free(held);
    g->shown_part = 0;
    for (a = 0; a < g->nparts; a++) {
        if (part_target(&g->parts[a], (size_t)g->target_of[g->job->frame]) >= 0) {
            g->shown_part = a;
            break;
        }
    }
    return 1;
fail:
    free(held);
    return 0;
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
            tool_buf_u16(&g->bin, (unsigned)mesh->indices[i]);
        else
            tool_buf_u32(&g->bin, mesh->indices[i]);
    }
    view_end(g, VIEW_INDICES);
    accessor_begin(g);
    tool_buf_printf(&g->acc, "\"bufferView\":%d,\"componentType\":%d,\"count\":%lu,\"type\":\"SCALAR\"}",
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
            tool_buf_f32(&g->bin, v);
        }
        for (c = 0; c < 3; c++)
            tool_buf_f32(&g->bin, g->base_nrm[3 * i + c]);
        tool_buf_f32(&g->bin, mesh->uv[2 * i]);
        tool_buf_f32(&g->bin, mesh->uv[2 * i + 1]);
    }
    view_end(g, VIEW_VERTICES);
    accessor_begin(g); /* 1: POSITION */
    tool_buf_printf(&g->acc, "\"bufferView\":%d,\"componentType\":%d,\"count\":%lu,\"type\":\"VEC3\",\"min\":",
                view_number(g, VIEW_VERTICES), GL_FLOAT, (unsigned long)g->nv);
    json_floats(&g->acc, bmin, 3);
    tool_buf_str(&g->acc, ",\"max\":");
    json_floats(&g->acc, bmax, 3);
    tool_buf_str(&g->acc, "}");
    accessor_begin(g); /* 2: NORMAL */
    tool_buf_printf(&g->acc, "\"bufferView\":%d,\"byteOffset\":12,\"componentType\":%d,\"count\":%lu,\"type\":\"VEC3\"}",
                view_number(g, VIEW_VERTICES), GL_FLOAT, (unsigned long)g->nv);
    accessor_begin(g); /* 3: TEXCOORD_0 */
    tool_buf_printf(&g->acc, "\"bufferView\":%d,\"byteOffset\":24,\"componentType\":%d,\"count\":%lu,\"type\":\"VEC2\"}",
                view_number(g, VIEW_VERTICES), GL_FLOAT, (unsigned long)g->nv);

    if (!g->compact)
        return; /* dense float targets: no sparse indices */
    view_begin(g, VIEW_SPARSE_INDEX, 0, 0);
    for (i = 0; i < g->nv; i++) {
        if (g->nv <= 65536)
            tool_buf_u16(&g->bin, (unsigned)i);
        else
            tool_buf_u32(&g->bin, (uint32_t)i);
    }
    view_end(g, VIEW_SPARSE_INDEX);
}

/* The default layout's base: keyframe base_frame as it is (glTF axes,
 * model units, unit normals), node scale 1. */
static int float_bases(gltf *g)
{
    size_t i;
    int c;
    if (md2_mesh_morph_floats(g->mesh, g->m, g->base_frame, 1, g->pos, g->nrm) != MD2_OK) {
        tool_error(EXPORT_CMD, "cannot decode keyframe %lu", (unsigned long)g->base_frame);
        return 0;
    }
    for (i = 0; i < g->nv; i++) {
        for (c = 0; c < 3; c++) {
            g->base_pos[3 * i + (size_t)c] = g->pos[3 * i + (size_t)gltf_axis[c]];
            g->base_nrm[3 * i + (size_t)c] = g->nrm[3 * i + (size_t)gltf_axis[c]];
        }
    }
    g->scale = 1.0;
    return 1;
}

/* The default layout's buffer views 3 and 4 and two accessors a morph
 * target: its keyframe's position and normal deltas from the base, dense
 * float VEC3 (12 bytes a vertex each). */
static int write_float_morph_views(gltf *g)
{
    size_t t, i, bytes;
    int c, which;
    if (!mul_size(g->ntargets, g->nv, &bytes) || !mul_size(bytes, 24, &bytes) ||
        !tool_buf_reserve(&g->bin, bytes + 8)) {
        g->bin.failed = 1;
        return 0;
    }
    for (which = 0; which < 2; which++) {
        int v = which == 0 ? VIEW_MORPH_POS : VIEW_MORPH_NRM;
        view_begin(g, v, 12, GL_ARRAY_BUFFER);
        for (t = 0; t < g->ntargets; t++) {
            uint32_t frame = g->target_frame[t];
            const float *base = which == 0 ? g->base_pos : g->base_nrm;
            float dmin[3] = {0, 0, 0}, dmax[3] = {0, 0, 0};
            if (md2_mesh_morph_floats(g->mesh, g->m, frame, 1, g->pos, g->nrm) != MD2_OK) {
                tool_error(EXPORT_CMD, "cannot decode keyframe %lu", (unsigned long)frame);
                return 0;
            }
            for (i = 0; i < g->nv; i++) {
                for (c = 0; c < 3; c++) {
                    const float *src = which == 0 ? g->pos : g->nrm;
                    float d = src[3 * i + (size_t)gltf_axis[c]] - base[3 * i + (size_t)c];
                    if (i == 0 || d < dmin[c])
                        dmin[c] = d;
                    if (i == 0 || d > dmax[c])
                        dmax[c] = d;
                    tool_buf_f32(&g->bin, d);
                }
            }
            accessor_begin(g);
            tool_buf_printf(&g->acc, "\"bufferView\":%d,\"byteOffset\":%lu,\"componentType\":%d,"
                        "\"count\":%lu,\"type\":\"VEC3\"", view_number(g, v),
                        (unsigned long)(t * 12 * g->nv), GL_FLOAT, (unsigned long)g->nv);
            if (which == 0) {
                tool_buf_str(&g->acc, ",\"min\":");
                json_floats(&g->acc, dmin, 3);
                tool_buf_str(&g->acc, ",\"max\":");
                json_floats(&g->acc, dmax, 3);
            }
            tool_buf_str(&g->acc, "}");
        }
        view_end(g, v);
    }
    return 1;
}

/* Buffer views 3 and 4 and two accessors a morph target: every target's
 * deltas from the base, quantized (--compact). */
static int write_morph_views(gltf *g)
{
    size_t f, i, c, pos_bytes, nrm_bytes, pos_at, nrm_at;
    unsigned sparse_type = g->nv <= 65536 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;
    double s = (float)g->scale; /* the node scale as the file holds it (a float already) */
    unsigned char *pd, *nd;

    if (!mul_size(g->ntargets, g->nv, &pos_bytes) || !mul_size(pos_bytes, 6, &pos_bytes) ||
        !mul_size(g->ntargets, g->nv, &nrm_bytes) || !mul_size(nrm_bytes, 3, &nrm_bytes) ||
        pos_bytes > (size_t)-1 - 8 - nrm_bytes ||
        !tool_buf_reserve(&g->bin, pos_bytes + nrm_bytes + 8)) {
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

    for (f = 0; f < g->ntargets; f++) {
        int qmin[3] = {0, 0, 0}, qmax[3] = {0, 0, 0};
        uint32_t frame = g->target_frame[f];
        if (md2_mesh_morph_floats(g->mesh, g->m, frame, 1, g->pos, g->nrm) != MD2_OK) {
            tool_error(EXPORT_CMD, "cannot decode keyframe %lu", (unsigned long)frame);
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
        tool_buf_printf(&g->acc,
                    "\"componentType\":%d,\"count\":%lu,\"type\":\"VEC3\",\"min\":[%d,%d,%d],"
                    "\"max\":[%d,%d,%d],\"sparse\":{\"count\":%lu,\"indices\":{\"bufferView\":%d,"
                    "\"componentType\":%u},\"values\":{\"bufferView\":%d,\"byteOffset\":%lu}}}",
                    GL_SHORT, (unsigned long)g->nv, qmin[0], qmin[1], qmin[2], qmax[0], qmax[1],
                    qmax[2], (unsigned long)g->nv, view_number(g, VIEW_SPARSE_INDEX), sparse_type,
                    view_number(g, VIEW_MORPH_POS),
                    (unsigned long)(f * 6 * g->nv));
        accessor_begin(g); /* NORMAL deltas */
        tool_buf_printf(&g->acc,
                    "\"componentType\":%d,\"normalized\":true,\"count\":%lu,\"type\":\"VEC3\","
                    "\"sparse\":{\"count\":%lu,\"indices\":{\"bufferView\":%d,\"componentType\":%u},"
                    "\"values\":{\"bufferView\":%d,\"byteOffset\":%lu}}}",
                    GL_BYTE, (unsigned long)g->nv, (unsigned long)g->nv,
                    view_number(g, VIEW_SPARSE_INDEX), sparse_type, view_number(g, VIEW_MORPH_NRM),
                    (unsigned long)(f * 3 * g->nv));
    }
    return 1;
}

/* 0 after saying so when animation an's key times are not increasing
 * finite floats (the side-file parsers refuse such rates; this keeps the
 * file valid whatever comes). */
static int times_ok(const md2_anim *an, const anim_keys *ak)
{
    size_t k;
    for (k = 1; k < ak->count; k++) {
        if (!(ak->times[k] > ak->times[k - 1]) || !(ak->times[k] <= FLT_MAX)) {
            fputs("md2 " EXPORT_CMD ": animation '", tool_stderr());
            tool_put_clean(tool_stderr(), an->name);
            fprintf(tool_stderr(), "': its rate (%g fps) gives key times that glTF's floats cannot "
                    "hold\n", (double)an->fps);
            return 0;
        }
    }
    return 1;
}

/* An input accessor: the float times t[0..n-1] at the end of VIEW_ANIM. */
static size_t time_accessor(gltf *g, const float *t, size_t n)
{
    size_t k, at, acc;
    tool_buf_align(&g->bin, 4, 0);
    at = g->bin.size - g->views[VIEW_ANIM].offset;
    for (k = 0; k < n; k++)
        tool_buf_f32(&g->bin, t[k]);
    acc = accessor_begin(g);
    tool_buf_printf(&g->acc, "\"bufferView\":%d,\"byteOffset\":%lu,\"componentType\":%d,\"count\":%lu,"
                "\"type\":\"SCALAR\",\"min\":", view_number(g, VIEW_ANIM), (unsigned long)at, GL_FLOAT,
                (unsigned long)n);
    json_floats(&g->acc, t, 1);
    tool_buf_str(&g->acc, ",\"max\":");
    json_floats(&g->acc, t + n - 1, 1);
    tool_buf_str(&g->acc, "}");
    return acc;
}

/* The weights of keys first..last of animation a for part p: sparse
 * UNSIGNED_BYTE normalized, one 255 a key on the target it shows. The
 * output accessor's index into *output, the input's into *input; 0 after
 * saying so if there are too many weights. */
static int weights_sampler(gltf *g, size_t a, const part *p, size_t first, size_t last,
                           size_t *input, size_t *output)
{
    const anim_keys *ak = &g->keys[a];
    size_t keys = last - first + 1, total, k, index_at, values_at;
    int wide;
    if (!mul_size(keys, p->count, &total) || total > 0xFFFFFFFFu) {
        fputs("md2 " EXPORT_CMD ": animation '", tool_stderr());
        tool_put_clean(tool_stderr(), g->order[a].name);
        fputs("' has too many weights for glTF\n", tool_stderr());
        return 0;
    }
    wide = total - 1 > 65535;
    *input = time_accessor(g, ak->times + first, keys);
    index_at = g->bin.size - g->views[VIEW_ANIM].offset;
    for (k = 0; k < keys; k++) {
        long local = part_target(p, (size_t)g->target_of[ak->frames[first + k]]);
        size_t at = k * p->count + (size_t)(local < 0 ? 0 : local);
        if (wide)
            tool_buf_u32(&g->bin, (uint32_t)at);
        else
            tool_buf_u16(&g->bin, (unsigned)at);
    }
    values_at = g->bin.size - g->views[VIEW_ANIM].offset;
    for (k = 0; k < keys; k++)
        tool_buf_u8(&g->bin, 255);
    *output = accessor_begin(g);
    tool_buf_printf(&g->acc,
                "\"componentType\":%d,\"normalized\":true,\"count\":%lu,\"type\":\"SCALAR\","
                "\"sparse\":{\"count\":%lu,\"indices\":{\"bufferView\":%d,\"byteOffset\":%lu,"
                "\"componentType\":%d},\"values\":{\"bufferView\":%d,\"byteOffset\":%lu}}}",
                GL_UNSIGNED_BYTE, (unsigned long)total, (unsigned long)keys,
                view_number(g, VIEW_ANIM), (unsigned long)index_at,
                wide ? GL_UNSIGNED_INT : GL_UNSIGNED_SHORT, view_number(g, VIEW_ANIM),
                (unsigned long)values_at);
    return 1;
}

/* A STEP sampler's output: n uniform scales on[k] ? 1 : 0 (VEC3 floats). */
static size_t scale_accessor(gltf *g, const int *on, size_t n)
{
    size_t k, at;
    int c;
    tool_buf_align(&g->bin, 4, 0);
    at = g->bin.size - g->views[VIEW_ANIM].offset;
    for (k = 0; k < n; k++) {
        for (c = 0; c < 3; c++)
            tool_buf_f32(&g->bin, on[k] ? 1.0f : 0.0f);
    }
    k = accessor_begin(g);
    tool_buf_printf(&g->acc, "\"bufferView\":%d,\"byteOffset\":%lu,\"componentType\":%d,\"count\":%lu,"
                "\"type\":\"VEC3\"}", view_number(g, VIEW_ANIM), (unsigned long)at, GL_FLOAT,
                (unsigned long)n);
    return k;
}

/* The node of part p: the one node of an unsplit export, else the
 * children 1.. of the model's node 0. */
static size_t part_node(const gltf *g, size_t p)
{
    return g->nparts == 1 ? 0 : 1 + p;
}

/* The channels and samplers of animation a over split parts: each part of
 * a's runs plays its keys and is shown (scale 1, STEP) from its first key
 * to its last (the next run takes over there); every other part is hidden
 * (scale 0) for the whole clip. */
static size_t split_channels(gltf *g, size_t a, tool_buf *ch, tool_buf *sm)
{
    const anim_keys *ak = &g->keys[a];
    size_t p, ns = 0, hidden = (size_t)-1;
    for (p = 0; p < g->nparts; p++) {
        const part *pt = &g->parts[p];
        size_t in, out;
        if (pt->anim == (long)a) {
            float t[3];
            int on[3];
            size_t n = 0;
            if (pt->first > 0) {
                t[n] = 0.0f;
                on[n++] = 0;
            }
            t[n] = ak->times[pt->first];
            on[n++] = 1;
            if (pt->last + 1 < ak->count) {
                t[n] = ak->times[pt->last];
                on[n++] = 0;
            }
            if (!weights_sampler(g, a, pt, pt->first, pt->last, &in, &out)) {
                g->bin.failed = 1; /* cannot be: make_parts() bounds every part */
                return ns;
            }
            tool_buf_printf(sm, "%s{\"input\":%lu,\"output\":%lu}", ns ? "," : "",
                        (unsigned long)in, (unsigned long)out);
            tool_buf_printf(ch, "%s{\"sampler\":%lu,\"target\":{\"node\":%lu,\"path\":\"weights\"}}",
                        ns ? "," : "", (unsigned long)ns, (unsigned long)part_node(g, p));
            ns++;
            in = time_accessor(g, t, n);
            out = scale_accessor(g, on, n);
            tool_buf_printf(sm, ",{\"input\":%lu,\"output\":%lu,\"interpolation\":\"STEP\"}",
                        (unsigned long)in, (unsigned long)out);
            tool_buf_printf(ch, ",{\"sampler\":%lu,\"target\":{\"node\":%lu,\"path\":\"scale\"}}",
                        (unsigned long)ns, (unsigned long)part_node(g, p));
            ns++;
        } else {
            if (hidden == (size_t)-1) {
                float t0 = 0.0f;
                int off = 0;
                in = time_accessor(g, &t0, 1);
                out = scale_accessor(g, &off, 1);
                tool_buf_printf(sm, "%s{\"input\":%lu,\"output\":%lu,\"interpolation\":\"STEP\"}",
                            ns ? "," : "", (unsigned long)in, (unsigned long)out);
                hidden = ns++;
            }
            tool_buf_printf(ch, "%s{\"sampler\":%lu,\"target\":{\"node\":%lu,\"path\":\"scale\"}}",
                        ch->size ? "," : "", (unsigned long)hidden, (unsigned long)part_node(g, p));
        }
    }
    return ns;
}

/* Buffer view 5 and its accessors, and each animation's channels and
 * samplers in g->anims (write_animation_json() makes the entries); without
 * animations, nothing (no view: it would be empty). */
static int write_animations(gltf *g)
{
    size_t a;
    tool_buf ch, sm;
    if (g->num_anims == 0)
        return 1;
    memset(&ch, 0, sizeof ch);
    memset(&sm, 0, sizeof sm);
    view_begin(g, VIEW_ANIM, 0, 0);
    for (a = 0; a < g->num_anims; a++) {
        const md2_anim *an = &g->order[a];
        if (!times_ok(an, &g->keys[a]))
            break;
        ch.size = 0;
        sm.size = 0;
        if (g->nparts == 1) {
            size_t in, out;
            if (!weights_sampler(g, a, &g->parts[0], 0, g->keys[a].count - 1, &in, &out))
                break;
            tool_buf_printf(&sm, "{\"input\":%lu,\"output\":%lu}", (unsigned long)in,
                        (unsigned long)out);
            tool_buf_str(&ch, "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}");
            g->anim_at[3 * a + 2] = 1;
        } else {
            g->anim_at[3 * a + 2] = split_channels(g, a, &ch, &sm);
        }
        if (ch.failed || sm.failed) {
            g->bin.failed = 1;
            break;
        }
        tool_buf_bytes(&g->anims, ch.data, ch.size);
        g->anim_at[3 * a] = g->anims.size;
        tool_buf_bytes(&g->anims, sm.data, sm.size);
        g->anim_at[3 * a + 1] = g->anims.size;
    }
    tool_buf_free(&ch);
    tool_buf_free(&sm);
    tool_buf_align(&g->bin, 4, 0);
    view_end(g, VIEW_ANIM);
    return a == g->num_anims && !g->bin.failed;
}

/* The "animations" entries: each drives the meshes' weights (and, split,
 * their scales), and the tags' nodes and attached models (export_tags.c)
 * with samplers of their own after the writer's. */
static void write_animation_json(gltf *g, tool_buf *j, export_gltf_base *base)
{
    size_t a, at = 0;
    for (a = 0; a < g->num_anims; a++) {
        const md2_anim *an = &g->order[a];
        size_t ch_end = g->anim_at[3 * a], sm_end = g->anim_at[3 * a + 1];
        if (a > 0)
            tool_buf_str(j, ",");
        tool_buf_str(j, "{\"name\":");
        tool_buf_json_string(j, an->name);
        tool_buf_str(j, ",\"channels\":[");
        tool_buf_bytes(j, g->anims.data + at, ch_end - at);
        base->samplers = g->anim_at[3 * a + 2];
        export_tags_json(&g->tags, EXPORT_TAGS_CHANNELS, base, g->order_of[a], 1, j);
        tool_buf_str(j, "],\"samplers\":[");
        tool_buf_bytes(j, g->anims.data + ch_end, sm_end - ch_end);
        export_tags_json(&g->tags, EXPORT_TAGS_SAMPLERS, base, g->order_of[a], 1, j);
        tool_buf_printf(j, "],\"extras\":{\"first\":%lu,\"last\":%lu,\"fps\":",
                    (unsigned long)an->first, (unsigned long)an->last);
        tool_buf_json_float(j, an->fps);
        tool_buf_printf(j, ",\"loop\":%s}}", an->loop ? "true" : "false");
        at = sm_end;
    }
}

/* The model's file name without folders and extension: the node's name. */
static char *model_name(const char *path)
{
    const char *base = tool_base_name(path);
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char *s = (char *)malloc(n + 1);
    if (s) {
        memcpy(s, base, n);
        s[n] = '\0';
    }
    return s;
}

/* The accessor of morph target t's POSITION (normal 0) or NORMAL deltas. */
static unsigned long target_accessor(const gltf *g, size_t t, int normal)
{
    if (g->compact)
        return (unsigned long)(4 + 2 * t + (size_t)normal);
    return (unsigned long)(4 + t + (normal ? g->ntargets : 0));
}

/* The "meshes" entry of part p: the shared base attributes and triangles,
 * its morph targets with their keyframes' names, and default weights
 * showing job->frame in the part that shows it. */
static void write_mesh(gltf *g, tool_buf *j, size_t p, const char *name)
{
    const part *pt = &g->parts[p];
    size_t t, shown = (size_t)g->target_of[g->job->frame];
    tool_buf_str(j, "{\"name\":");
    tool_buf_json_string(j, name);
    tool_buf_str(j, ",\"primitives\":[{\"attributes\":{\"POSITION\":1,\"NORMAL\":2,\"TEXCOORD_0\":3},"
                "\"indices\":0,\"material\":0");
    if (pt->count > 0) {
        tool_buf_str(j, ",\"targets\":[");
        for (t = 0; t < pt->count; t++)
            tool_buf_printf(j, "%s{\"POSITION\":%lu,\"NORMAL\":%lu}", t ? "," : "",
                        target_accessor(g, pt->targets[t], 0),
                        target_accessor(g, pt->targets[t], 1));
        tool_buf_str(j, "]");
    }
    tool_buf_str(j, "}]");
    if (pt->count > 0) {
        tool_buf_str(j, ",\"weights\":[");
        for (t = 0; t < pt->count; t++)
            tool_buf_str(j, t == 0 ? (pt->targets[t] == shown ? "1" : "0")
                               : (pt->targets[t] == shown ? ",1" : ",0"));
        tool_buf_str(j, "],\"extras\":{\"targetNames\":[");
        for (t = 0; t < pt->count; t++) {
            if (t)
                tool_buf_str(j, ",");
            tool_buf_json_string(j, g->m->frames[g->target_frame[pt->targets[t]]].name);
        }
        tool_buf_str(j, "]}");
    }
    tool_buf_str(j, "}");
}

/* The node scale (compact: the quantisation step s) as "scale":[s,s,s];
 * nothing for 1. The scale multiplies bases of up to 2^40 steps: written
 * as the float's exact value, so that a reader that parses JSON numbers as
 * doubles (three.js) gets the float too, not the shortest decimal that
 * rounds to it, which is up to 3e-8 of it away. */
static void write_scale(const gltf *g, tool_buf *j)
{
    float scale = (float)g->scale;
    int c;
    if (scale == 1.0f)
        return;
    tool_buf_str(j, ",\"scale\":[");
    for (c = 0; c < 3; c++) {
        if (c)
            tool_buf_str(j, ",");
        tool_buf_json_double(j, scale);
    }
    tool_buf_str(j, "]");
}

/* "nodes" and "meshes": one node with the mesh; split (--max-targets),
 * node 0 named after the model with a child node and mesh a part, each
 * named after its animation and run ("walk.0") or "frames.N", all but the
 * one showing job->frame at scale 0. */
static void write_nodes(gltf *g, tool_buf *j, const char *name, const export_gltf_base *base)
{
    size_t p, split = g->nparts == 1 ? 0 : g->nparts;
    tool_buf_str(j, "\"nodes\":[{\"name\":");
    tool_buf_json_string(j, name);
    if (!split)
        tool_buf_str(j, ",\"mesh\":0");
    if (split + g->tags.num_tags > 0) {
        tool_buf_str(j, ",\"children\":[");
        for (p = 0; p < split; p++)
            tool_buf_printf(j, "%s%lu", p ? "," : "", (unsigned long)part_node(g, p));
        export_tags_json(&g->tags, EXPORT_TAGS_CHILDREN, base, 0, split, j);
        tool_buf_str(j, "]");
    }
    write_scale(g, j);
    tool_buf_str(j, "}");
    for (p = 0; p < split; p++) {
        char part_name[MD2_ANIM_NAME_SIZE + 32];
        const part *pt = &g->parts[p];
        size_t run = 0, q;
        for (q = 0; q < p; q++)
            run += g->parts[q].anim == pt->anim;
        if (pt->anim >= 0)
            snprintf(part_name, sizeof part_name, "%s.%lu", g->order[pt->anim].name,
                     (unsigned long)run);
        else
            snprintf(part_name, sizeof part_name, "frames.%lu", (unsigned long)run);
        tool_buf_str(j, ",{\"name\":");
        tool_buf_json_string(j, part_name);
        tool_buf_printf(j, ",\"mesh\":%lu", (unsigned long)p);
        if (p != g->shown_part)
            tool_buf_str(j, ",\"scale\":[0,0,0]");
        tool_buf_str(j, "}");
    }
    export_tags_json(&g->tags, EXPORT_TAGS_NODES, base, 0, 1, j);
    tool_buf_str(j, "],\"meshes\":[");
    for (p = 0; p < g->nparts; p++) {
        if (p)
            tool_buf_str(j, ",");
        write_mesh(g, j, p, name);
    }
    export_tags_json(&g->tags, EXPORT_TAGS_MESHES, base, 0, 1, j);
    tool_buf_str(j, "]");
}

/* "asset" (with the generator) and the extensions the file needs. */
static void write_asset(const gltf *g, tool_buf *j)
{
    char gen[96];
    tool_buf_str(j, "{\"asset\":{\"version\":\"2.0\",\"generator\":");
    snprintf(gen, sizeof gen, "md2 export (libmd2 %s)", md2_version_string());
    tool_buf_json_string(j, gen);
    tool_buf_str(j, "}");
    if (g->compact)
        tool_buf_str(j, ",\"extensionsUsed\":[\"KHR_mesh_quantization\"],"
                    "\"extensionsRequired\":[\"KHR_mesh_quantization\"]");
}

/* "materials", and with a skin "textures" and "images": the model's, then
 * the attached models'. */
static void write_materials(const gltf *g, tool_buf *j, const export_gltf_base *base)
{
    const export_job *job = g->job;
    tool_buf_str(j, ",\"materials\":[{\"name\":\"skin\",\"pbrMetallicRoughness\":{");
    if (job->png)
        tool_buf_str(j, "\"baseColorTexture\":{\"index\":0},");
    tool_buf_str(j, "\"metallicFactor\":0}}");
    export_tags_json(&g->tags, EXPORT_TAGS_MATERIALS, base, 0, 1, j);
    tool_buf_str(j, "]");
    if (job->png || g->tags.num_textures > 0) {
        tool_buf_str(j, ",\"textures\":[");
        if (job->png)
            tool_buf_str(j, "{\"source\":0}");
        export_tags_json(&g->tags, EXPORT_TAGS_TEXTURES, base, 0, base->textures, j);
        tool_buf_str(j, "],\"images\":[");
        if (job->png)
            tool_buf_printf(j, "{\"bufferView\":%d,\"mimeType\":\"image/png\"}",
                        view_number(g, VIEW_IMAGE));
        export_tags_json(&g->tags, EXPORT_TAGS_IMAGES, base, 0, base->textures, j);
        tool_buf_str(j, "]");
    }
}

/* "accessors", "bufferViews" and "buffers" (buffer_uri: the data URI of a
 * .gltf, or NULL for a .glb), which end the document. */
static void write_data(const gltf *g, tool_buf *j, const export_gltf_base *base,
                       const tool_buf *buffer_uri)
{
    size_t f, v;
    tool_buf_str(j, ",\"accessors\":[");
    tool_buf_bytes(j, g->acc.data, g->acc.size);
    export_tags_json(&g->tags, EXPORT_TAGS_ACCESSORS, base, 0, g->num_acc, j);
    tool_buf_str(j, "],\"bufferViews\":[");
    for (v = 0, f = 0; v < VIEW_COUNT; v++) {
        const view *w = &g->views[v];
        if (!w->used)
            continue;
        tool_buf_printf(j, "%s{\"buffer\":0,\"byteOffset\":%lu,\"byteLength\":%lu", f++ ? "," : "",
                    (unsigned long)w->offset, (unsigned long)w->length);
        if (w->stride)
            tool_buf_printf(j, ",\"byteStride\":%lu", (unsigned long)w->stride);
        if (w->target)
            tool_buf_printf(j, ",\"target\":%u", w->target);
        tool_buf_str(j, "}");
    }
    export_tags_json(&g->tags, EXPORT_TAGS_VIEWS, base, 0, f, j);
    tool_buf_printf(j, "],\"buffers\":[{\"byteLength\":%lu", (unsigned long)g->bin.size);
    if (buffer_uri) {
        tool_buf_str(j, ",\"uri\":\"");
        tool_buf_bytes(j, buffer_uri->data, buffer_uri->size);
        tool_buf_str(j, "\"");
    }
    tool_buf_str(j, "}]}");
}

/* The whole JSON document; buffer_uri is the data URI of a .gltf, or NULL
 * for a .glb. */
static void write_json(gltf *g, tool_buf *j, const tool_buf *buffer_uri)
{
    const export_job *job = g->job;
    char *name = model_name(job->model_path);
    export_gltf_base base;
    size_t textures = job->png ? 1 : 0;

    /* what the body's own entries take in each array: the tags' follow */
    memset(&base, 0, sizeof base);
    base.nodes = g->nparts == 1 ? 1 : 1 + g->nparts;
    base.meshes = g->nparts;
    base.materials = 1;
    base.textures = textures;
    base.images = textures;
    base.accessors = g->num_acc;
    base.views = (size_t)view_number(g, VIEW_COUNT);

    if (!name) {
        j->failed = 1;
        return;
    }
    write_asset(g, j);
    tool_buf_str(j, ",\"scene\":0,\"scenes\":[{\"nodes\":[0]}],");
    write_nodes(g, j, name, &base);
    write_materials(g, j, &base);
    if (g->num_anims > 0) {
        tool_buf_str(j, ",\"animations\":[");
        write_animation_json(g, j, &base);
        tool_buf_str(j, "]");
    }
    write_data(g, j, &base, buffer_uri);
    free(name);
}

static void gltf_free(gltf *g)
{
    size_t a;
    md2_mesh_free(g->mesh);
    tool_buf_free(&g->bin);
    tool_buf_free(&g->acc);
    tool_buf_free(&g->anims);
    free(g->anim_at);
    free(g->order_of);
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
    free(g->pa);
    free(g->pb);
    free(g->order);
    if (g->keys) {
        for (a = 0; a < g->num_anims; a++) {
            free(g->keys[a].times);
            free(g->keys[a].frames);
        }
        free(g->keys);
    }
    for (a = 0; a < g->nparts; a++)
        free(g->parts[a].targets);
    free(g->parts);
    free(g->target_of);
    free(g->target_frame);
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
    g->pa = (float *)malloc(nf);
    g->pb = (float *)malloc(nf);
    g->min_length = 1.0;
    return g->pa && g->pb && g->pmin && g->pmax && g->nmin && g->nmax && g->used && g->nrm_len && g->base_pos && g->base_nrm && g->pos &&
           g->nrm;
}

/* How a step of export_gltf() ended: done; failed, after saying why; or
 * out of memory (export_gltf() says so). */
enum { STEP_DONE, STEP_FAILED, STEP_NO_MEMORY };

/* The least the file holds with targets morph targets: each one's deltas
 * (compact: 6 bytes of position, 3 of normal a vertex; else 24), the base
 * attributes (32 bytes a vertex), the sparse indices and the triangles',
 * and the skin. */
static double least_bytes(const gltf *g, size_t targets)
{
    return (double)g->nv * ((g->compact ? 9.0 : 24.0) * (double)targets + 34.0) +
           2.0 * (double)g->mesh->num_indices + (double)g->job->png_size;
}

/* What the file will hold: the welded mesh, the animations in order, the
 * keyframes kept as morph targets and the meshes they are split over, the
 * output budget checked as soon as the size can be told. */
static int plan(gltf *g)
{
    const export_job *job = g->job;
    md2_mesh_options mo;
    md2_diagnostic diag;
    md2_result r;
    double least;
    size_t a;

    memset(&mo, 0, sizeof mo);
    mo.flags = MD2_MESH_COUNTER_CLOCKWISE;
    mo.error = &diag;
    r = md2_mesh_build(g->m, &mo, &g->mesh);
    if (r != MD2_OK) {
        tool_error(EXPORT_CMD, "%s: cannot build the mesh: %s", job->model_path,
                   r == MD2_ERR_OUT_OF_MEMORY ? "out of memory" : diag.message);
        return STEP_FAILED;
    }
    g->nv = g->mesh->num_vertices;
    if (g->nv == 0) {
        tool_error(EXPORT_CMD, "%s has no triangles: there is no mesh to write as glTF",
                   job->model_path);
        return STEP_FAILED;
    }
    /* with every keyframe kept, the budget is known before the work */
    if (job->keyframe_error == 0.0 && !export_within_budget(job, least_bytes(g, g->nt), 0))
        return STEP_FAILED;
    if (!alloc_arrays(g) || !order_anims(g))
        return STEP_NO_MEMORY;
    g->base_frame = g->num_anims > 0 ? g->order[0].first : job->frame;
    g->keyframe_error = job->keyframe_error >= 0.0 ? job->keyframe_error
                                                   : default_keyframe_error(g->m);
    if (!select_targets(g))
        return g->bin.failed ? STEP_NO_MEMORY : STEP_FAILED;
    if (!make_parts(g))
        return STEP_NO_MEMORY;
    /* and for each animation 7 bytes a key (time, weight index, weight)
     * and 200 of JSON */
    least = least_bytes(g, g->ntargets);
    for (a = 0; a < g->num_anims; a++)
        least += 7.0 * (double)g->keys[a].count + 200.0;
    return export_within_budget(job, least, 0) ? STEP_DONE : STEP_FAILED;
}

/* The binary buffer: the mesh, the morph targets, the animations and the
 * skin, then the tags' nodes and the attached models. */
static int write_buffer(gltf *g)
{
    const export_job *job = g->job;
    if (!measure(g))
        return STEP_FAILED;
    if (g->compact)
        base_normals(g);
    else if (!float_bases(g))
        return STEP_FAILED;
    write_mesh_views(g);
    if (!(g->compact ? write_morph_views(g) : write_float_morph_views(g)))
        return g->bin.failed ? STEP_NO_MEMORY : STEP_FAILED;
    if (!write_animations(g))
        return g->bin.failed || g->anims.failed ? STEP_NO_MEMORY : STEP_FAILED;
    if (job->png) {
        view_begin(g, VIEW_IMAGE, 0, 0);
        tool_buf_bytes(&g->bin, job->png, job->png_size);
        view_end(g, VIEW_IMAGE);
        tool_buf_align(&g->bin, 4, 0);
    }
    /* the tags' nodes and the attached models, their data last */
    if (!export_tags_gltf_build(&g->tags, (float)g->scale, job->frame))
        return STEP_FAILED;
    tool_buf_align(&g->bin, 4, 0);
    g->tags.bin_offset = g->bin.size;
    tool_buf_bytes(&g->bin, g->tags.bin.data, g->tags.bin.size);
    if (g->bin.failed || g->acc.failed || g->anims.failed)
        return STEP_NO_MEMORY;
    if (g->bin.size > 0xFFFFFFF0u) {
        /* a GLB chunk's limit; offsets are written as unsigned long */
        tool_error(EXPORT_CMD, "%s: the model is too large for glTF here (4 GiB of data)",
                   job->model_path);
        return STEP_FAILED;
    }
    return STEP_DONE;
}

/* The .glb into file: its header, the JSON chunk (padded with spaces) and
 * the binary chunk. */
static int glb_file(gltf *g, tool_buf *file)
{
    tool_buf json;
    size_t total;
    int step = STEP_DONE;
    memset(&json, 0, sizeof json);
    write_json(g, &json, NULL);
    tool_buf_align(&json, 4, ' ');
    if (json.failed) {
        step = STEP_NO_MEMORY;
        goto done;
    }
    total = 12 + 8 + json.size + 8 + g->bin.size;
    if (json.size > 0xFFFFFFF0u || total > 0xFFFFFFFFu || total < json.size) {
        tool_error(EXPORT_CMD, "%s: the model is too large for a .glb (4 GiB)",
                   g->job->model_path);
        step = STEP_FAILED;
        goto done;
    }
    tool_buf_u32(file, 0x46546C67u); /* "glTF" */
    tool_buf_u32(file, 2);
    tool_buf_u32(file, (uint32_t)total);
    tool_buf_u32(file, (uint32_t)json.size);
    tool_buf_u32(file, 0x4E4F534Au); /* "JSON" */
    tool_buf_bytes(file, json.data, json.size);
    tool_buf_u32(file, (uint32_t)g->bin.size);
    tool_buf_u32(file, 0x004E4942u); /* "BIN\0" */
    tool_buf_bytes(file, g->bin.data, g->bin.size);
done:
    tool_buf_free(&json);
    return step;
}

/* The .gltf into file: the JSON, with the buffer as a data: URI. */
static int gltf_file(gltf *g, tool_buf *file)
{
    tool_buf uri;
    memset(&uri, 0, sizeof uri);
    tool_buf_str(&uri, "data:application/octet-stream;base64,");
    tool_buf_base64(&uri, g->bin.data, g->bin.size);
    if (uri.failed) {
        tool_buf_free(&uri);
        return STEP_NO_MEMORY;
    }
    write_json(g, file, &uri);
    tool_buf_free(&uri);
    return STEP_DONE;
}

/* The line that says what was written (size bytes), then the tags'. */
static void report(const gltf *g, size_t size)
{
    const export_job *job = g->job;
    FILE *out = tool_stdout();
    tool_term_printf(out, "wrote %s (%lu bytes): %lu vertices, %lu triangles, %lu morph target%s "
           "(of %lu keyframes), ", job->out_path, (unsigned long)size, (unsigned long)g->nv,
           (unsigned long)(g->mesh->num_indices / 3), (unsigned long)g->ntargets,
           g->ntargets == 1 ? "" : "s", (unsigned long)g->nt);
    if (g->nparts > 1)
        fprintf(out, "%lu meshes, ", (unsigned long)g->nparts);
    fprintf(out, "%lu animation%s, ", (unsigned long)g->num_anims, g->num_anims == 1 ? "" : "s");
    if (job->png)
        tool_term_printf(out, "skin %s (%dx%d, %lu bytes of PNG)", job->skin_path, job->skin_width,
               job->skin_height, (unsigned long)job->png_size);
    else
        fprintf(out, "no skin");
    fprintf(out, "; keyframes dropped within %.3g units", g->keyframe_error);
    if (g->compact)
        fprintf(out, "; quantized positions within %.2g of the model's size",
               g->size > 0.0 ? g->max_error / g->size : 0.0);
    else
        fprintf(out, "; float positions");
    if (g->short_normals)
        fprintf(out, ", normals of %lu vertices shortened (to %.2g at least)", g->short_normals,
               g->min_length);
    if (g->normal_clamps)
        fprintf(out, ", %lu normal components clamped", g->normal_clamps);
    fprintf(out, "\n");
    export_tags_report(&g->tags, out);
}

int export_gltf(const export_job *job, int binary)
{
    gltf g;
    tool_buf file;
    int step;

    memset(&g, 0, sizeof g);
    memset(&file, 0, sizeof file);
    g.job = job;
    g.m = job->tm->model;
    g.nt = g.m->num_frames;
    g.compact = job->compact;
    export_tags_init(&g.tags, job);

    step = plan(&g);
    if (step == STEP_DONE)
        step = write_buffer(&g);
    if (step == STEP_DONE)
        step = binary ? glb_file(&g, &file) : gltf_file(&g, &file);
    if (step == STEP_DONE && file.failed)
        step = STEP_NO_MEMORY;
    if (step == STEP_DONE &&
        (!export_within_budget(job, (double)file.size, 1) || !export_not_skin(job, job->out_path) ||
         !tool_write_file(EXPORT_CMD, job->out_path, file.data, file.size)))
        step = STEP_FAILED;
    if (step == STEP_DONE)
        report(&g, file.size);
    else if (step == STEP_NO_MEMORY)
        tool_error(EXPORT_CMD, "out of memory (or the model is too large) writing %s",
                   job->out_path);
    tool_buf_free(&file);
    gltf_free(&g);
    return step == STEP_DONE ? TOOL_OK : TOOL_FAILED;
}
