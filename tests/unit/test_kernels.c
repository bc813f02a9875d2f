/*
 * The pose kernels (src/pose_kernels.c, compiled into this test) against
 * each other, bit for bit: every SIMD kernel this build and CPU have
 * (SSE2, AVX2, NEON) against the scalar kernel, and the scalar kernel
 * against an independent reference written here, on
 *  - every frame pair of the real models (../shared/corpus; skipped when
 *    absent), with t cycling through 0, tiny, 0.5, 1 - ulp and 1;
 *  - synthetic models with odd vertex counts (tails), normal indices up to
 *    255, opposite normals that cancel, and every output layout the
 *    kernels treat apart (packed, interleaved, strides with gaps whose
 *    bytes must stay, overlapping outputs, gathers through an index, uv,
 *    and every MD2_LAYOUT_* flag);
 * cross-fades (the second keyframe pair of a job) and row ranges, and the
 * public calls (md2_lerp, md2_decode_frame, md2_player_pose and its
 * _linked twin, md2_mesh_lerp, md2_mesh_pose, md2_mesh_morph_floats)
 * against the scalar kernel.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "md2/animation.h"
#include "md2/mesh.h"
#include "md2/tags.h"
#include "format.h"
#include "pose.h"
#include "test_util.h"

#ifndef MD2_SHARED_DIR
#define MD2_SHARED_DIR "../shared"
#endif

static const char *const simd_names[] = {"sse2", "avx2", "neon"};
#define NUM_SIMD (sizeof simd_names / sizeof simd_names[0])

/* A float whose bits no kernel writes: marks bytes that must stay. */
static float canary(void)
{
    uint32_t u = 0x7FC0DEADu;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void fill_canary(float *p, size_t n)
{
    size_t i;
    float c = canary();
    for (i = 0; i < n; i++)
        p[i] = c;
}

/* ------------------------------------------------------------------------ */
/* An independent reference: one rounding per operation (volatile stores)  */
/* ------------------------------------------------------------------------ */

static float rnd(float x)
{
    volatile float v = x;
    return v;
}

static float ref_decode(float s, uint8_t v, float t) { return rnd(rnd(s * (float)v) + t); }

static float ref_blend(float wa, float a, float wb, float b)
{
    return rnd(rnd(wa * a) + rnd(wb * b));
}

static void ref_vertex(const md2_frame *fa, const md2_frame *fb, float t, size_t i,
                       float pos[3], float nrm[3])
{
    const md2_vertex *a = &fa->vertices[i], *b = &fb->vertices[i];
    int k;
    if (t == 0.0f || t == 1.0f || fa == fb) {
        const md2_frame *f = t == 1.0f ? fb : fa;
        const md2_vertex *v = &f->vertices[i];
        for (k = 0; k < 3; k++) {
            pos[k] = ref_decode(f->scale[k], v->v[k], f->translate[k]);
            nrm[k] = md2_normal(v->normal)[k];
        }
        return;
    }
    for (k = 0; k < 3; k++) {
        float wa = rnd(1.0f - t);
        float pa = ref_decode(fa->scale[k], a->v[k], fa->translate[k]);
        float pb = ref_decode(fb->scale[k], b->v[k], fb->translate[k]);
        /* a position both keyframes hold is kept, not blended (animation.h) */
        pos[k] = pa == pb ? pa : ref_blend(wa, pa, t, pb);
        nrm[k] = ref_blend(wa, md2_normal(a->normal)[k], t, md2_normal(b->normal)[k]);
    }
}

/* ------------------------------------------------------------------------ */
/* Synthetic models                                                          */
/* ------------------------------------------------------------------------ */

#define SYN_FRAMES 3
#define SYN_MAX 64

typedef struct syn_model {
    md2_model m;
    md2_frame frames[SYN_FRAMES];
    md2_vertex verts[SYN_FRAMES][SYN_MAX];
} syn_model;

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* n vertices of random bytes (normal indices 0-255, and a pair of opposite
 * normals at vertex 0 of frames 0 and 1), scales and translates of either
 * sign, a translate of -0.0 */
static void syn_build(syn_model *s, size_t n, uint32_t seed)
{
    size_t f, i;
    int k;
    memset(s, 0, sizeof *s);
    for (f = 0; f < SYN_FRAMES; f++) {
        for (k = 0; k < 3; k++) {
            s->frames[f].scale[k] = (float)((int)(lcg(&seed) % 2001u) - 1000) / 97.0f;
            s->frames[f].translate[k] = (float)((int)(lcg(&seed) % 2001u) - 1000) / 7.0f;
        }
        for (i = 0; i < n; i++) {
            for (k = 0; k < 3; k++)
                s->verts[f][i].v[k] = (uint8_t)lcg(&seed);
            s->verts[f][i].normal = (uint8_t)lcg(&seed);
        }
        s->frames[f].vertices = s->verts[f];
    }
    s->frames[1].translate[2] = -0.0f;
    s->frames[2].scale[0] = -0.0f;
    /* 5 is (0, 0, 1); find (0, 0, -1) */
    for (k = 0; k < MD2_NUM_NORMALS; k++)
        if (md2_normal((unsigned)k)[2] == -1.0f)
            break;
    assert_true(k < MD2_NUM_NORMALS);
    s->verts[0][0].normal = MD2_NORMAL_FALLBACK;
    s->verts[1][0].normal = (uint8_t)k;
    s->m.num_vertices = n;
    s->m.num_frames = SYN_FRAMES;
    s->m.frames = s->frames;
}

/* 0, tiny, 0.5, 1 - ulp, 1 and values in between */
static float t_value(unsigned i)
{
    static const float fixed[5] = {0.0f, 1e-30f, 0.5f, 1.0f - FLT_EPSILON / 2.0f, 1.0f};
    if (i < 5)
        return fixed[i];
    return (float)(i % 97u) / 97.0f;
}

#define NUM_T 7

/* 0, a quarter, a half and 1 - ulp: cross-fade weights of the current pose */
static float w_value(unsigned i)
{
    static const float fixed[4] = {0.0f, 0.25f, 0.5f, 1.0f - FLT_EPSILON / 2.0f};
    return fixed[i % 4u];
}

/* ------------------------------------------------------------------------ */
/* Running kernels on layouts                                                */
/* ------------------------------------------------------------------------ */

/* Where the attributes go, in floats from the start of one buffer;
 * NONE leaves one out. */
#define NONE ((size_t)-1)
typedef struct layout {
    const char *name;
    size_t pos, pos_stride, nrm, nrm_stride, uv, uv_stride;
    unsigned flags;
    int gather; /* through an index, with more outputs than vertices */
} layout;

static const layout layouts[] = {
    {"packed positions", 0, 3, NONE, 0, NONE, 0, 0, 0},
    {"packed, normals after", 0, 3, 3 * SYN_MAX, 3, NONE, 0, 0, 0},
    {"packed, normals right after the positions", 0, 3, 0 /* set below */, 3, NONE, 0, 0, 0},
    {"interleaved position, normal", 0, 6, 3, 6, NONE, 0, 0, 0},
    {"normal then position", 3, 6, 0, 6, NONE, 0, 0, 0},
    {"stride 7 with gaps", 0, 7, 4, 7, NONE, 0, 0, 0},
    {"separate strides 4 and 5", 0, 4, 4 * SYN_MAX + 8, 5, NONE, 0, 0, 0},
    {"normals over the positions", 0, 3, 0, 3, NONE, 0, 0, 0},
    {"normals one float into the positions", 0, 3, 1, 3, NONE, 0, 0, 0},
    {"mesh default", 0, 8, 3, 8, 6, 8, 0, 1},
    {"mesh default, unit normals", 0, 8, 3, 8, 6, 8, MD2_LAYOUT_UNIT_NORMALS, 1},
    {"mesh default, y up", 0, 8, 3, 8, 6, 8, MD2_LAYOUT_Y_UP, 1},
    {"mesh default, flip v", 0, 8, 3, 8, 6, 8, MD2_LAYOUT_FLIP_V, 1},
    {"mesh default, all flags", 0, 8, 3, 8, 6, 8, 7u, 1},
    {"mesh uv first", 2, 8, 5, 8, 0, 8, 7u, 1},
    {"mesh gaps", 1, 10, 5, 10, 8, 10, 3u, 1},
    {"mesh positions and uv", 0, 5, NONE, 5, 3, 5, 6u, 1},
    {"mesh packed positions", 0, 3, NONE, 0, NONE, 0, MD2_LAYOUT_Y_UP, 1},
    {"mesh packed positions, normals after", 0, 3, 3 * (2 * SYN_MAX), 3, NONE, 0, 0, 1},
};
#define NUM_LAYOUTS (sizeof layouts / sizeof layouts[0])

#define BUF_FLOATS (16 * 2 * SYN_MAX + 64)

/* Fills job's outputs for layout l over buf (n output vertices). */
static void apply_layout(md2__pose_job *job, const layout *l, float *buf, size_t n,
                         size_t model_vertices, const uint32_t *index, const float *uv_src)
{
    size_t nrm = l->nrm;
    if (strcmp(l->name, "packed, normals right after the positions") == 0)
        nrm = 3 * n;
    job->end = n;
    job->pos = buf + l->pos;
    job->pos_stride = l->pos_stride;
    job->nrm = nrm == NONE ? NULL : buf + nrm;
    job->nrm_stride = l->nrm_stride;
    job->uv = l->uv == NONE ? NULL : buf + l->uv;
    job->uv_stride = l->uv_stride;
    job->uv_src = uv_src;
    job->index = l->gather ? index : NULL;
    job->model_vertices = l->gather ? model_vertices : 0;
    job->flags = l->flags;
}

/* Floats of buf that job's outputs reach, and 8 more. */
static size_t extent(const md2__pose_job *job, const float *buf)
{
    size_t end = (size_t)(job->pos - buf) + (job->end - 1) * job->pos_stride + 3, e;
    if (job->nrm && (e = (size_t)(job->nrm - buf) + (job->end - 1) * job->nrm_stride + 3) > end)
        end = e;
    if (job->uv && (e = (size_t)(job->uv - buf) + (job->end - 1) * job->uv_stride + 2) > end)
        end = e;
    assert_true(end + 8 <= BUF_FLOATS);
    return end + 8;
}

/* Runs job with the scalar kernel and with fn over canary-filled buffers
 * and fails where a byte differs. */
static void compare_job(md2__pose_fn fn, const char *kernel, const md2__pose_job *job,
                        float *buf_ref, float *buf_out, const char *what)
{
    md2__pose_job a = *job, b = *job;
    ptrdiff_t shift = buf_out - buf_ref;
    size_t used = extent(job, buf_ref);
    fill_canary(buf_ref, used);
    fill_canary(buf_out, used);
    b.pos += shift;
    if (b.nrm)
        b.nrm += shift;
    if (b.uv)
        b.uv += shift;
    md2__pose_scalar(&a);
    fn(&b);
    if (memcmp(buf_ref, buf_out, used * sizeof(float)) != 0) {
        size_t i;
        for (i = 0; i < used; i++)
            if (memcmp(&buf_ref[i], &buf_out[i], sizeof(float)) != 0)
                break;
        fail_msg("%s differs from scalar at float %lu (%.9g vs %.9g): %s", kernel,
                 (unsigned long)i, (double)buf_ref[i], (double)buf_out[i], what);
    }
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */
/* ------------------------------------------------------------------------ */

static void test_normal_table(void **state)
{
    unsigned i;
    (void)state;
    for (i = 0; i < 256; i++) {
        assert_memory_equal(md2__normals4[i], md2_normal(i), 3 * sizeof(float));
        assert_true(md2__normals4[i][3] == 0.0f);
    }
}

static void test_kernels_available(void **state)
{
    size_t k;
    (void)state;
    assert_true(md2__pose_kernel_named("scalar") == md2__pose_scalar);
    assert_null(md2__pose_kernel_named("mmx"));
    for (k = 0; k < NUM_SIMD; k++)
        print_message("kernel %s: %s\n", simd_names[k],
                      md2__pose_kernel_named(simd_names[k]) ? "tested" : "not in this build or CPU");
}

/* The scalar kernel is the reference written here. */
static void test_scalar_matches_reference(void **state)
{
    static syn_model s;
    size_t n, i;
    unsigned a, b, ti;
    (void)state;
    for (n = 1; n <= 33; n += 4) {
        syn_build(&s, n, (uint32_t)n);
        for (a = 0; a < SYN_FRAMES; a++)
            for (b = 0; b < SYN_FRAMES; b++)
                for (ti = 0; ti < NUM_T; ti++) {
                    float pos[SYN_MAX][3], nrm[SYN_MAX][3];
                    md2__pose_job job;
                    float t = t_value(ti);
                    md2__pose_setup(&job, &s.frames[a], &s.frames[b], t);
                    job.end = n;
                    job.pos = &pos[0][0];
                    job.pos_stride = 3;
                    job.nrm = &nrm[0][0];
                    job.nrm_stride = 3;
                    md2__pose_scalar(&job);
                    for (i = 0; i < n; i++) {
                        float p[3], q[3];
                        ref_vertex(&s.frames[a], &s.frames[b], t, i, p, q);
                        assert_memory_equal(p, pos[i], sizeof p);
                        assert_memory_equal(q, nrm[i], sizeof q);
                    }
                }
    }
}

/* Every SIMD kernel on every layout, vertex count, frame pair and t; for
 * one pair in three also as a cross-fade, on row ranges that end before the
 * last row (starting at row 0 or past it), and both. */
static void test_kernels_layouts(void **state)
{
    static syn_model s;
    static float buf_ref[BUF_FLOATS], buf_out[BUF_FLOATS];
    static uint32_t index[2 * SYN_MAX];
    static float uv_src[2 * 2 * SYN_MAX];
    static const size_t counts[] = {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 24, 31, 33, 63, 64};
    size_t k, c, li, i;
    unsigned a, b, ti, ri;
    uint32_t seed = 7;
    int ran = 0;
    (void)state;
    for (i = 0; i < 2 * 2 * SYN_MAX; i++)
        uv_src[i] = (float)(lcg(&seed) % 1000u) / 999.0f;
    for (k = 0; k < NUM_SIMD; k++) {
        md2__pose_fn fn = md2__pose_kernel_named(simd_names[k]);
        if (!fn)
            continue;
        ran = 1;
        for (c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            size_t n = counts[c];
            syn_build(&s, n, (uint32_t)(n * 31u + k));
            for (i = 0; i < 2 * SYN_MAX; i++)
                index[i] = lcg(&seed) % (uint32_t)n;
            for (li = 0; li < NUM_LAYOUTS; li++) {
                const layout *l = &layouts[li];
                /* a gather writes more vertices than the model has */
                size_t outs = l->gather ? n + n / 2 + 1 : n;
                for (a = 0; a < SYN_FRAMES; a++)
                    for (b = 0; b < SYN_FRAMES; b++)
                        for (ti = 0; ti < NUM_T; ti++)
                            for (ri = 0; ri < (b == (a + 1) % SYN_FRAMES ? 6u : 1u); ri++) {
                                md2__pose_job job;
                                char what[200];
                                md2__pose_setup(&job, &s.frames[a], &s.frames[b], t_value(ti));
                                /* with and without the model's vertex count (the
                                 * kernels may pose the model first when they know it) */
                                apply_layout(&job, l, buf_ref, outs, (ti & 1) ? n : 0, index,
                                             uv_src);
                                if (ri & 1) /* a cross-fade from another pair */
                                    md2__pose_fade(&job, &s.frames[(a + 2) % SYN_FRAMES],
                                                   &s.frames[a], t_value(ti + 3), w_value(ti));
                                if (ri >= 2) { /* rows [outs / 3, end - 1), [0, end - 1) */
                                    job.begin = ri < 4 ? outs / 3 : 0;
                                    job.end = outs > 1 ? outs - 1 : outs;
                                }
                                snprintf(what, sizeof what,
                                         "layout \"%s\", %lu vertices, frames %u %u, t %.9g, "
                                         "%s, rows %lu-%lu",
                                         l->name, (unsigned long)n, a, b, (double)t_value(ti),
                                         job.fade ? "cross-fade" : "no fade",
                                         (unsigned long)job.begin, (unsigned long)job.end);
                                if (job.end > job.begin)
                                    compare_job(fn, simd_names[k], &job, buf_ref, buf_out, what);
                            }
            }
        }
    }
    if (!ran)
        print_message("no SIMD kernel here: the scalar kernel alone is used\n");
}

/* A cross-fade by the scalar kernel is the reference's two poses blended,
 * outgoing first: (1 - w) * from + w * cur, positions and normals. */
static void test_scalar_fade_matches_reference(void **state)
{
    static syn_model s;
    size_t n, i;
    unsigned a, c, ti, wi;
    (void)state;
    for (n = 1; n <= 17; n += 8) {
        syn_build(&s, n, (uint32_t)(n + 100));
        for (a = 0; a < SYN_FRAMES; a++)
            for (c = 0; c < SYN_FRAMES; c++)
                for (ti = 0; ti < NUM_T; ti++)
                    for (wi = 0; wi < 4; wi++) {
                        float pos[SYN_MAX][3], nrm[SYN_MAX][3];
                        md2__pose_job job;
                        unsigned b = (a + 1) % SYN_FRAMES, d = (c + 2) % SYN_FRAMES;
                        float t = t_value(ti), u = t_value(ti + 2), w = w_value(wi);
                        md2__pose_setup(&job, &s.frames[a], &s.frames[b], t);
                        md2__pose_fade(&job, &s.frames[c], &s.frames[d], u, w);
                        job.end = n;
                        job.pos = &pos[0][0];
                        job.pos_stride = 3;
                        job.nrm = &nrm[0][0];
                        job.nrm_stride = 3;
                        md2__pose_scalar(&job);
                        for (i = 0; i < n; i++) {
                            float pc[3], nc[3], po[3], no[3], p[3], q[3];
                            int k;
                            ref_vertex(&s.frames[a], &s.frames[b], t, i, pc, nc);
                            ref_vertex(&s.frames[c], &s.frames[d], u, i, po, no);
                            for (k = 0; k < 3; k++) {
                                p[k] = po[k] == pc[k] ? po[k] : ref_blend(rnd(1.0f - w), po[k], w, pc[k]);
                                q[k] = ref_blend(rnd(1.0f - w), no[k], w, nc[k]);
                            }
                            assert_memory_equal(p, pos[i], sizeof p);
                            assert_memory_equal(q, nrm[i], sizeof q);
                        }
                    }
    }
}

/* Points job at every welded vertex of mesh in md2_layout_default(flags)
 * over buf (model_vertices: the model's vertex count, or 0). */
static void mesh_default_job(md2__pose_job *job, const md2_mesh *mesh, size_t model_vertices,
                             float *buf, unsigned flags)
{
    job->index = mesh->source_vertex;
    job->end = mesh->num_vertices;
    job->model_vertices = model_vertices;
    job->pos = buf;
    job->pos_stride = 8;
    job->nrm = buf + 3;
    job->nrm_stride = 8;
    job->uv = buf + 6;
    job->uv_stride = 8;
    job->uv_src = mesh->uv;
    job->flags = flags;
}

/* The model's mesh in the default layout (and with all flags), frame
 * after frame: every kernel against the scalar one. */
static void corpus_mesh(const md2_model *m, const char *file)
{
    md2_mesh *mesh = NULL;
    float *ref, *out;
    size_t k, bytes;
    uint32_t a;
    assert_int_equal(md2_mesh_build(m, NULL, &mesh), MD2_OK);
    bytes = (mesh->num_vertices + 1) * 8 * sizeof(float);
    ref = (float *)malloc(bytes);
    out = (float *)malloc(bytes);
    assert_non_null(ref);
    assert_non_null(out);
    for (a = 0; a < m->num_frames; a++) {
        md2__pose_job job;
        float t = t_value(a % NUM_T);
        md2__pose_setup(&job, &m->frames[a], &m->frames[(a + 1) % m->num_frames], t);
        mesh_default_job(&job, mesh, m->num_vertices, ref, (a & 1) ? 7u : 0u);
        memset(ref, 0, bytes);
        md2__pose_scalar(&job);
        for (k = 0; k < NUM_SIMD; k++) {
            md2__pose_fn fn = md2__pose_kernel_named(simd_names[k]);
            md2__pose_job o = job;
            if (!fn)
                continue;
            o.pos = out;
            o.nrm = out + 3;
            o.uv = out + 6;
            memset(out, 0, bytes);
            fn(&o);
            if (memcmp(ref, out, bytes) != 0)
                fail_msg("%s: %s mesh differs from scalar on frame %lu, flags %u", file,
                         simd_names[k], (unsigned long)a, job.flags);
        }
    }
    free(ref);
    free(out);
    md2_mesh_free(mesh);
}

/* 1 under valgrind (its preloaded library is in LD_PRELOAD): the corpus
 * sweep then takes every 16th frame pair, to keep the memcheck pass of the
 * suite short; native and emulated runs take them all. */
static int under_valgrind(void)
{
    const char *preload = getenv("LD_PRELOAD");
    return preload && strstr(preload, "vgpreload") != NULL;
}

/* Every frame pair of a real model, packed positions and normals. */
static void corpus_pairs(const char *file)
{
    char path[512];
    md2_model *m = NULL;
    float *buf_ref, *buf_out;
    size_t k, n;
    uint32_t a, b;
    unsigned ti = 0;
    int tested[NUM_SIMD] = {0};
    size_t step = under_valgrind() ? 16 : 1;
    int any = 0;

    snprintf(path, sizeof path, "%s/corpus/%s", MD2_SHARED_DIR, file);
    if (md2_load_file(path, NULL, &m) != MD2_OK) {
        print_message("%s: absent, skipped\n", path);
        return;
    }
    n = m->num_vertices;
    buf_ref = (float *)malloc(6 * n * sizeof(float));
    buf_out = (float *)malloc(6 * n * sizeof(float));
    assert_non_null(buf_ref);
    assert_non_null(buf_out);
    for (k = 0; k < NUM_SIMD; k++)
        any |= md2__pose_kernel_named(simd_names[k]) != NULL;
    if (!any) { /* the scalar kernel alone (s390x, x87): against the reference */
        for (a = 0; a < m->num_frames; a++) {
            md2__pose_job ref;
            size_t i;
            b = (a + 1) % (uint32_t)m->num_frames;
            md2__pose_setup(&ref, &m->frames[a], &m->frames[b], t_value(a % NUM_T));
            ref.end = n;
            ref.pos = buf_ref;
            ref.pos_stride = 3;
            ref.nrm = buf_ref + 3 * n;
            ref.nrm_stride = 3;
            md2__pose_scalar(&ref);
            for (i = 0; i < n; i++) {
                float p[3], q[3];
                ref_vertex(&m->frames[a], &m->frames[b], t_value(a % NUM_T), i, p, q);
                assert_memory_equal(p, buf_ref + 3 * i, sizeof p);
                assert_memory_equal(q, buf_ref + 3 * (n + i), sizeof q);
            }
        }
        print_message("%s: no SIMD kernel; the scalar one equals the reference on %lu "
                      "consecutive frame pairs\n", file, (unsigned long)m->num_frames);
    }
    for (a = 0; any && a < m->num_frames; a++)
        for (b = 0; b < m->num_frames; b++, ti++) {
            md2__pose_job ref, out;
            float t = t_value(ti % NUM_T);
            if (step > 1 && (a * m->num_frames + b) % step != 0)
                continue;
            md2__pose_setup(&ref, &m->frames[a], &m->frames[b], t);
            ref.end = n;
            ref.pos = buf_ref;
            ref.pos_stride = 3;
            ref.nrm = buf_ref + 3 * n;
            ref.nrm_stride = 3;
            out = ref;
            out.pos = buf_out;
            out.nrm = buf_out + 3 * n;
            md2__pose_scalar(&ref);
            for (k = 0; k < NUM_SIMD; k++) {
                md2__pose_fn fn = md2__pose_kernel_named(simd_names[k]);
                if (!fn)
                    continue;
                fn(&out);
                if (memcmp(buf_ref, buf_out, 6 * n * sizeof(float)) != 0)
                    fail_msg("%s: %s differs from scalar on frames %lu, %lu at t %.9g", file,
                             simd_names[k], (unsigned long)a, (unsigned long)b, (double)t);
                tested[k] = 1;
            }
        }
    for (k = 0; k < NUM_SIMD; k++)
        if (tested[k])
            print_message("%s: %s equals scalar on %s%lu frame pairs\n", file, simd_names[k],
                          step > 1 ? "1 in 16 of the " : "all ",
                          (unsigned long)(m->num_frames * m->num_frames));
    corpus_mesh(m, file);
    free(buf_ref);
    free(buf_out);
    md2_free(m);
}

static void test_kernels_corpus(void **state)
{
    (void)state;
    corpus_pairs("faerie.md2");
    corpus_pairs("sydney.md2");
}

/* md2_lerp(), md2_decode_frame() and the mesh calls give the scalar
 * kernel's bits (whatever kernel the library picks here). */
static void test_public_calls(void **state)
{
    static syn_model s;
    static float ref[BUF_FLOATS], out[BUF_FLOATS];
    md2_mesh_options mo;
    md2_model *m = NULL;
    md2_mesh *mesh = NULL;
    uint8_t file[TU_MAX_FILE];
    size_t size = tu_tiny(file), n, li;
    unsigned ti;
    (void)state;

    syn_build(&s, 37, 5);
    n = s.m.num_vertices;
    for (ti = 0; ti < NUM_T; ti++) {
        md2__pose_job job;
        float t = t_value(ti);
        for (li = 0; li < 7; li++) { /* the md2_lerp() layouts */
            const layout *l = &layouts[li];
            float *nrm;
            md2__pose_setup(&job, &s.frames[0], &s.frames[2], t);
            apply_layout(&job, l, ref, n, 0, NULL, NULL);
            fill_canary(ref, BUF_FLOATS);
            fill_canary(out, BUF_FLOATS);
            md2__pose_scalar(&job);
            nrm = job.nrm ? out + (job.nrm - ref) : NULL;
            assert_int_equal(md2_lerp(&s.m, 0, 2, t, out + l->pos, l->pos_stride * 4, nrm,
                                      job.nrm_stride * 4),
                             MD2_OK);
            assert_memory_equal(ref, out, sizeof ref);
        }
    }
    /* md2_decode_frame: frame 1 packed */
    {
        md2__pose_job job;
        md2__pose_setup(&job, &s.frames[1], &s.frames[1], 0.0f);
        apply_layout(&job, &layouts[1], ref, n, 0, NULL, NULL);
        fill_canary(ref, BUF_FLOATS);
        fill_canary(out, BUF_FLOATS);
        md2__pose_scalar(&job);
        assert_int_equal(md2_decode_frame(&s.m, 1, out, 0, out + 3 * SYN_MAX, 0), MD2_OK);
        assert_memory_equal(ref, out, sizeof ref);
    }

    /* the mesh calls, on the tiny model */
    assert_int_equal(md2_parse(file, size, NULL, &m), MD2_OK);
    memset(&mo, 0, sizeof mo);
    assert_int_equal(md2_mesh_build(m, &mo, &mesh), MD2_OK);
    for (ti = 0; ti < NUM_T; ti++) {
        unsigned flags;
        float t = t_value(ti);
        for (flags = 0; flags < 8; flags++) {
            md2_vertex_layout vl = md2_layout_default(flags);
            md2__pose_job job;
            md2__pose_setup(&job, &m->frames[1], &m->frames[2], t);
            mesh_default_job(&job, mesh, 0, ref, flags);
            fill_canary(ref, BUF_FLOATS);
            fill_canary(out, BUF_FLOATS);
            md2__pose_scalar(&job);
            assert_int_equal(md2_mesh_lerp(mesh, m, 1, 2, t, out, &vl), MD2_OK);
            assert_memory_equal(ref, out, sizeof ref);
        }
    }
    {
        /* a player without a cross-fade poses as md2_mesh_lerp() */
        md2_player p;
        md2_player_frames st;
        md2_vertex_layout vl = md2_layout_default(MD2_LAYOUT_UNIT_NORMALS);
        md2_anim anim;
        memset(&anim, 0, sizeof anim);
        anim.first = 0;
        anim.last = 2;
        anim.fps = 10.0f;
        md2_player_init(&p);
        assert_int_equal(md2_player_play(&p, &anim, MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
        md2_player_advance(&p, 0.137);
        md2_player_state(&p, &st);
        fill_canary(ref, BUF_FLOATS);
        fill_canary(out, BUF_FLOATS);
        assert_int_equal(md2_mesh_lerp(mesh, m, st.frame_a, st.frame_b, st.t, ref, &vl), MD2_OK);
        assert_int_equal(md2_mesh_pose(mesh, m, &p, out, &vl), MD2_OK);
        assert_memory_equal(ref, out, sizeof ref);
    }
    {
        /* during a cross-fade md2_player_pose(), md2_player_pose_linked()
         * and md2_mesh_pose() give the scalar kernel's fade */
        md2_player p;
        md2_player_frames st;
        md2_anim one, two;
        unsigned flags;
        memset(&one, 0, sizeof one);
        memset(&two, 0, sizeof two);
        one.first = 0;
        one.last = 1;
        one.fps = 10.0f;
        two.first = 1;
        two.last = 2;
        two.fps = 7.0f;
        md2_player_init(&p);
        assert_int_equal(md2_player_play(&p, &one, MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
        md2_player_advance(&p, 0.061);
        assert_int_equal(md2_player_crossfade(&p, &two, MD2_PLAY_LOOP, MD2_RATE_ANIM, 0.5),
                         MD2_OK);
        md2_player_advance(&p, 0.13);
        md2_player_state(&p, &st);
        assert_true(st.weight > 0.0f && st.weight < 1.0f);
        assert_true(st.t > 0.0f && st.t < 1.0f);
        for (flags = 0; flags < 8; flags++) {
            md2_vertex_layout vl = md2_layout_default(flags);
            md2__pose_job job;
            md2__pose_setup(&job, &m->frames[st.frame_a], &m->frames[st.frame_b], st.t);
            md2__pose_fade(&job, &m->frames[st.from_a], &m->frames[st.from_b], st.from_t,
                           st.weight);
            mesh_default_job(&job, mesh, 0, ref, flags);
            fill_canary(ref, BUF_FLOATS);
            fill_canary(out, BUF_FLOATS);
            md2__pose_scalar(&job);
            assert_int_equal(md2_mesh_pose(mesh, m, &p, out, &vl), MD2_OK);
            assert_memory_equal(ref, out, sizeof ref);
        }
        {
            md2__pose_job job;
            size_t nv = m->num_vertices;
            md2__pose_setup(&job, &m->frames[st.frame_a], &m->frames[st.frame_b], st.t);
            md2__pose_fade(&job, &m->frames[st.from_a], &m->frames[st.from_b], st.from_t,
                           st.weight);
            job.end = nv;
            job.pos = ref;
            job.pos_stride = 3;
            job.nrm = ref + 3 * nv;
            job.nrm_stride = 3;
            fill_canary(ref, BUF_FLOATS);
            fill_canary(out, BUF_FLOATS);
            md2__pose_scalar(&job);
            assert_int_equal(md2_player_pose(&p, m, out, 0, out + 3 * nv, 0), MD2_OK);
            assert_memory_equal(ref, out, sizeof ref);
            fill_canary(out, BUF_FLOATS);
            assert_int_equal(md2_player_pose_linked(&p, m, out, 0, out + 3 * nv, 0), MD2_OK);
            assert_memory_equal(ref, out, sizeof ref);
        }
    }
    {
        /* md2_mesh_morph_floats: keyframes in welded order */
        size_t f, i, w = mesh->num_vertices;
        assert_true(3 * w * m->num_frames <= BUF_FLOATS / 2);
        assert_int_equal(md2_mesh_morph_floats(mesh, m, 0, (uint32_t)m->num_frames, out,
                                               out + BUF_FLOATS / 2),
                         MD2_OK);
        for (f = 0; f < m->num_frames; f++)
            for (i = 0; i < w; i++) {
                float p[3], q[3];
                ref_vertex(&m->frames[f], &m->frames[f], 0.0f, mesh->source_vertex[i], p, q);
                assert_memory_equal(p, out + 3 * (f * w + i), sizeof p);
                assert_memory_equal(q, out + BUF_FLOATS / 2 + 3 * (f * w + i), sizeof q);
            }
    }
    md2_mesh_free(mesh);
    md2_free(m);
}

/* ------------------------------------------------------------------------ */
/* The parser's normal-index scans (src/normal_scan.c, compiled in)          */
/* ------------------------------------------------------------------------ */

static const char *const scan_names[] = {"scalar", "sse2", "avx2", "neon"};
#define NUM_SCANS (sizeof scan_names / sizeof scan_names[0])
#define SCAN_MAX 1480 /* vertices: md2_bench's generated model */
#define SCAN_CANARY 0xA5

/* What a scan must find, by a plain loop. */
static unsigned scan_reference(const uint8_t *v, size_t n, unsigned ref)
{
    unsigned found = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        if (v[4 * i + 3] >= MD2_NUM_NORMALS)
            found |= MD2_NSCAN_BAD;
        if (v[4 * i + 3] != ref)
            found |= MD2_NSCAN_OTHER;
    }
    return found;
}

/* scan on the n vertices at v, without a destination and with one at
 * out + 32 + shift (canary bytes around it): the plain loop's result, and
 * the copy is the bytes, no more. */
static void scan_check(md2__normal_scan_fn scan, const char *name, const uint8_t *v, size_t n,
                       unsigned ref, uint8_t *out, size_t shift)
{
    unsigned want = scan_reference(v, n, ref), got;
    uint8_t *dst = out + 32 + shift;
    size_t i;
    got = scan(NULL, v, n, ref);
    if (got != want)
        fail_msg("%s: %u, not %u, for %lu vertices against %u", name, got, want,
                 (unsigned long)n, ref);
    memset(out, SCAN_CANARY, 4 * n + 72);
    got = scan(dst, v, n, ref);
    if (got != want)
        fail_msg("%s copying: %u, not %u, for %lu vertices against %u", name, got, want,
                 (unsigned long)n, ref);
    assert_memory_equal(dst, v, 4 * n);
    for (i = 0; i < 32 + shift; i++)
        assert_int_equal(out[i], SCAN_CANARY);
    for (i = 0; i < 32; i++)
        assert_int_equal(dst[4 * n + i], SCAN_CANARY);
}

/* Vertex counts: every one to 100 (the tails of 4, 8, 16 and 32
 * vertices), and real models' (faerie's 366, the generated 1480). */
static size_t scan_count(size_t k) { return k <= 100 ? k : (k == 101 ? 366 : SCAN_MAX); }
#define SCAN_COUNTS 103

/* Each scan of this build and CPU (scalar, SSE2, AVX2, NEON) against the
 * plain loop: every vertex count to 100, unaligned sources and
 * destinations; x, y, z of 0, 255 or anything (they must not count);
 * every normal index equal, for indices on either side of 162, and then
 * one differing at each vertex, by one or as a bad index; random indices. */
static void test_normal_scans(void **state)
{
    static uint8_t src[4 * SCAN_MAX + 8], out[4 * SCAN_MAX + 80];
    static const unsigned refs[] = {0, 7, 161, 162, 255};
    size_t k, c, j, i, r, fill;
    uint32_t seed = 99;
    (void)state;
    assert_non_null(md2__normal_scan_named("scalar"));
    assert_null(md2__normal_scan_named("mmx"));
    assert_non_null(md2__normal_scan_best());
    for (k = 0; k < NUM_SCANS; k++) {
        md2__normal_scan_fn scan = md2__normal_scan_named(scan_names[k]);
        print_message("normal scan %s: %s\n", scan_names[k],
                      scan ? "tested" : "not in this build or CPU");
        if (!scan)
            continue;
        for (c = 0; c < SCAN_COUNTS; c++) {
            size_t n = scan_count(c), shift = c % 4, step = n <= 100 ? 1 : 7;
            uint8_t *v = src + (c * 3) % 4; /* unaligned too */
            for (fill = 0; fill < 3; fill++) {
                for (i = 0; i < 4 * n; i++)
                    v[i] = fill == 0 ? 0 : fill == 1 ? 255 : (uint8_t)(lcg(&seed) >> 8);
                for (r = 0; r < sizeof refs / sizeof refs[0]; r++) {
                    unsigned ref = refs[r];
                    for (i = 0; i < n; i++)
                        v[4 * i + 3] = (uint8_t)ref;
                    scan_check(scan, scan_names[k], v, n, ref, out, shift);
                    for (j = 0; j < n; j += step) {
                        v[4 * j + 3] = (uint8_t)(ref ^ 1u);
                        scan_check(scan, scan_names[k], v, n, ref, out, shift);
                        v[4 * j + 3] = (uint8_t)(ref < 200 ? 200 : 161);
                        scan_check(scan, scan_names[k], v, n, ref, out, shift);
                        v[4 * j + 3] = (uint8_t)ref;
                    }
                    if (n > 0) { /* the last vertex, whatever the step */
                        v[4 * (n - 1) + 3] = (uint8_t)(ref ^ 1u);
                        scan_check(scan, scan_names[k], v, n, ref, out, shift);
                        v[4 * (n - 1) + 3] = (uint8_t)ref;
                    }
                }
                for (i = 0; i < n; i++) /* random indices, good ones, then any */
                    v[4 * i + 3] = (uint8_t)((lcg(&seed) >> 8) % 162u);
                scan_check(scan, scan_names[k], v, n, v[3], out, shift);
                for (i = 0; i < n; i++)
                    v[4 * i + 3] = (uint8_t)(lcg(&seed) >> 8);
                scan_check(scan, scan_names[k], v, n, v[3], out, shift);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normal_table),
        cmocka_unit_test(test_kernels_available),
        cmocka_unit_test(test_scalar_matches_reference),
        cmocka_unit_test(test_kernels_layouts),
        cmocka_unit_test(test_scalar_fade_matches_reference),
        cmocka_unit_test(test_kernels_corpus),
        cmocka_unit_test(test_public_calls),
        cmocka_unit_test(test_normal_scans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
