/*
 * md2_bench - measures libmd2 against memcpy of the same bytes and against
 * a naive C loop that computes the same result, and its memory use against
 * the file and against decompressed frames.
 *
 * Usage: md2_bench [--quick] [--json] [MODEL.md2]
 *        md2_bench --wobble [MODEL.md2...]
 *        md2_bench --help
 *
 *   MODEL.md2  the model to measure (default: the bundled sample model,
 *              MD2_EXAMPLES_DIR/models/crystal.md2). A generated model the
 *              size of a big real one (1480 vertices, 1007 frames, 6 MB:
 *              its frames do not fit in a core's L2 cache) is measured
 *              after it.
 *   --quick    about 0.02 s a measurement instead of 0.2 s (a smoke test:
 *              the numbers are rough)
 *   --json     one JSON object on stdout instead of the tables
 *
 * It only measures and prints; it asserts nothing about speed. Each
 * measurement repeats the call in samples of a millisecond or more for
 * about 0.2 s of wall time and keeps the fastest sample, so a machine
 * shared with other work still gives the speed the code has. Rows:
 *
 *   md2_parse+free      parse the whole file from memory and free the model
 *   parse: same normals the same with every normal index set to the first
 *                       vertex's (MD2_WARN_SAME_NORMALS: the parser learns it
 *                       from every vertex of every frame)
 *   parse: last differs the same, but for the last vertex of the last frame
 *                       (no warning: the first vertex that differs is the
 *                       last one)
 *   md2_lerp            blend two keyframes into packed positions and
 *                       normals (3 + 3 floats a vertex), walking all frame
 *                       pairs
 *   md2_lerp positions  the same, positions only (normals NULL)
 *   lerp + normalize    md2_lerp, then md2_normalize() on the normals
 *   md2_write           serialise the model into a buffer
 *   md2_mesh_build      weld the triangle list into a mesh, and free it
 *   md2_mesh_lerp       blend two keyframes into the default interleaved
 *                       layout (position, normal, uv: 32 bytes a welded
 *                       vertex)
 *   md2_mesh_pose fade  the same layout from a player halfway through a
 *                       cross-fade: four keyframes, two blends of two
 *   md2_build           the model decoded to floats (every frame, uv,
 *                       triangles, frame names) built again with the
 *                       defaults: stable grids, smooth normals, GL
 *                       commands; in vertex-frames (vertices x frames)
 *   build per-frame     the same with a box per frame (MD2_QUANTIZE_PER_FRAME)
 *   md2_build quantise  the defaults with the decoded normals given and no
 *                       GL commands: quantisation and md2_normal_nearest()
 *   quantise per-frame  the same with a box per frame
 *   (then the two ratios, stable grids' time over a box per frame's)
 *
 * Columns: the time of one call, the speed in units (bytes, vertices,
 * triangles) a second, "vs naive": how many times faster than a plain C
 * loop written here that computes the same bits (the kind of loop a user
 * would write; no SIMD, no tricks), and "vs memcpy": how many memcpys of
 * the call's output bytes (the file's bytes for parse and write, the
 * triangles' for the mesh build) one call costs. 1.0 would be as fast as
 * copying the result.
 *
 * Then: posing many instances of one shared model (md2_lerp into each
 * instance's own buffers) on one thread and on two, in instances a second;
 * the time to weld a synthetic 65,000-triangle model; and memory.
 *
 * Last, md2_normal_nearest() in directions a second against a brute-force
 * loop over the 162 normals (one thread, the same random directions,
 * taken in turn: the ratio is measured in one run); md2_simplify() to
 * half the triangles of the model and of the generated one (without and
 * with its error measure) beside meshoptimizer's meshopt_simplify() on
 * frame 0 (where md2_bench was built with meshoptimizer) and the flip
 * tests of its result (every frame decoded, every triangle's normal
 * against the normal of the model triangle it stands for, in the same
 * frame): the yardstick of issue #29 is 3 times meshoptimizer plus those
 * tests; and md2_simplify() of fans of 8000 and
 * 32000 triangles around one vertex (a vertex of valence 8000; the
 * time of the larger over the smaller shows how it grows).
 *
 * Where it was built beside the md2 command (POSIX; MD2_BENCH_TOOL names
 * it), the command's own round trip on the generated model: `md2 export
 * big.md2 -o big.glb`, then `md2 import big.glb -o back.md2`, each run as
 * a process (the fastest of a few runs), and the ratio of the two: issue
 * 31 holds the import of a model's own export to 3 times the export.
 *
 * SPDX-License-Identifier: MIT
 */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L
#define BENCH_POSIX 1
#endif

#include <md2/md2.h>
#include <md2/animation.h>
#include <md2/mesh.h>
#include <md2/build.h>
#include <md2/simplify.h>

#ifdef MD2_BENCH_MESHOPT
#include <meshoptimizer.h>
#endif

#include "md2_bench_model.h"

#if defined(BENCH_POSIX) && defined(MD2_BENCH_TOOL)
#define BENCH_TOOL 1
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Threads: POSIX threads where the build found them (examples/CMakeLists.txt
 * defines MD2_BENCH_THREADS); elsewhere the thread rows are skipped. */
#if defined(BENCH_POSIX) && defined(MD2_BENCH_THREADS)
#define BENCH_THREADS 1
#include <pthread.h>
#endif

#ifndef MD2_EXAMPLES_DIR
#define MD2_EXAMPLES_DIR "examples"
#endif

#define DEFAULT_MODEL MD2_EXAMPLES_DIR "/models/crystal.md2"


/* Results land here so the compiler cannot drop the work. */
static volatile unsigned long sink;

/* memcpy through a volatile pointer: never inlined, never elided. */
static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;

/* Seconds of wall time (monotonic), or of CPU time without POSIX. */
static double now(void)
{
#if defined(BENCH_POSIX)
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#else
    return (double)clock() / (double)CLOCKS_PER_SEC;
#endif
}

/* ------------------------------------------------------------------------ */
/* What is measured                                                          */
/* ------------------------------------------------------------------------ */

typedef struct bench {
    const unsigned char *file;  /* the file's bytes */
    size_t file_size;
    const unsigned char *parse_file; /* what the parse rows parse (file_size bytes) */
    const md2_model *model;
    const md2_mesh *mesh;
    unsigned char *out;         /* md2_write / memcpy destination */
    size_t out_size;
    float *positions, *normals; /* lerp output: positions, then normals */
    float *copy_src;            /* memcpy source (as large as any output) */
    float *mesh_out;            /* md2_mesh_lerp output, 8 floats a vertex */
    md2_player player;          /* mid cross-fade, for the fade row */
    size_t copy_bytes;          /* what the memcpy row copies */
    uint32_t frame;             /* next frame pair */
    const md2_build_input *build_in; /* the model as floats, for md2_build */
    unsigned build_flags;       /* md2_build_options.flags of the build row */
    md2_quantize build_quantize; /* md2_build_options.quantize of the build row */
} bench;

typedef void (*bench_fn)(bench *b, long reps);

static void run_parse(bench *b, long reps)
{
    long i;
    for (i = 0; i < reps; i++) {
        md2_model *m = NULL;
        if (md2_parse(b->parse_file, b->file_size, NULL, &m) == MD2_OK)
            sink += (unsigned long)m->num_vertices;
        md2_free(m);
    }
}

static void run_copy(bench *b, long reps)
{
    long i;
    for (i = 0; i < reps; i++) {
        copy_fn(b->out, b->copy_src, b->copy_bytes);
        sink += b->out[(size_t)i % b->copy_bytes];
    }
}

/* The next frame pair and a t that is never 0 or 1. */
static uint32_t next_pair(bench *b, long i, uint32_t *fb, float *t)
{
    uint32_t fa = b->frame;
    *fb = (uint32_t)((fa + 1) % b->model->num_frames);
    *t = (float)(i & 7) * 0.125f + 0.0625f;
    b->frame = *fb;
    return fa;
}

static void lerp_loop(bench *b, long reps, int normals, int unit)
{
    const md2_model *m = b->model;
    long i;
    for (i = 0; i < reps; i++) {
        uint32_t fb;
        float t;
        uint32_t fa = next_pair(b, i, &fb, &t);
        if (md2_lerp(m, fa, fb, t, b->positions, 0, normals ? b->normals : NULL, 0) == MD2_OK &&
            (!unit || md2_normalize(b->normals, m->num_vertices, 0) == MD2_OK))
            sink += (unsigned long)(b->positions[0] > b->normals[0]);
    }
}

static void run_lerp(bench *b, long reps) { lerp_loop(b, reps, 1, 0); }
static void run_lerp_pos(bench *b, long reps) { lerp_loop(b, reps, 0, 0); }
static void run_lerp_unit(bench *b, long reps) { lerp_loop(b, reps, 1, 1); }

static void run_write(bench *b, long reps)
{
    long i;
    for (i = 0; i < reps; i++) {
        size_t written = 0;
        if (md2_write(b->model, b->out, b->out_size, &written, NULL) == MD2_OK)
            sink += b->out[written - 1];
    }
}

static void run_mesh_build(bench *b, long reps)
{
    long i;
    for (i = 0; i < reps; i++) {
        md2_mesh *mesh = NULL;
        if (md2_mesh_build(b->model, NULL, &mesh) == MD2_OK)
            sink += (unsigned long)mesh->num_vertices;
        md2_mesh_free(mesh);
    }
}

static void run_mesh_lerp(bench *b, long reps)
{
    md2_vertex_layout l = md2_layout_default(0);
    long i;
    for (i = 0; i < reps; i++) {
        uint32_t fb;
        float t;
        uint32_t fa = next_pair(b, i, &fb, &t);
        if (md2_mesh_lerp(b->mesh, b->model, fa, fb, t, b->mesh_out, &l) == MD2_OK)
            sink += (unsigned long)(b->mesh_out[0] > b->mesh_out[3]);
    }
}

/* The builder's rows: md2_build() of the model decoded to floats. */
static void run_build(bench *b, long reps)
{
    md2_build_options o;
    long i;
    memset(&o, 0, sizeof o);
    o.flags = b->build_flags;
    o.quantize = b->build_quantize;
    for (i = 0; i < reps; i++) {
        md2_model *m = NULL;
        if (md2_build(b->build_in, &o, &m) == MD2_OK)
            sink += (unsigned long)m->num_glcmds;
        md2_free(m);
    }
}

/* A model as md2_build()'s input: every frame decoded (positions and
 * normals), texcoords as uv, triangles, frame names. */
typedef struct build_floats {
    md2_build_input in;
    float *pos, *nrm, *uv;
    uint32_t *tris;
    const char **names;
} build_floats;

static void build_floats_free(build_floats *f)
{
    free(f->pos);
    free(f->nrm);
    free(f->uv);
    free(f->tris);
    free((void *)f->names);
}

/* 0 on success. */
static int build_floats_make(build_floats *f, const md2_model *m)
{
    size_t n = m->num_vertices, i;
    uint32_t fr;
    int k;
    memset(f, 0, sizeof *f);
    f->pos = (float *)malloc(m->num_frames * n * 3 * sizeof(float));
    f->nrm = (float *)malloc(m->num_frames * n * 3 * sizeof(float));
    f->uv = (float *)malloc((m->num_texcoords + 1) * 2 * sizeof(float));
    f->tris = (uint32_t *)malloc((m->num_triangles + 1) * 6 * sizeof(uint32_t));
    f->names = (const char **)malloc(m->num_frames * sizeof *f->names);
    if (!f->pos || !f->nrm || !f->uv || !f->tris || !f->names) {
        build_floats_free(f);
        return 1;
    }
    for (fr = 0; fr < m->num_frames; fr++) {
        md2_decode_frame(m, fr, f->pos + fr * n * 3, 0, f->nrm + fr * n * 3, 0);
        f->names[fr] = m->frames[fr].name;
    }
    for (i = 0; i < m->num_texcoords; i++)
        md2_texcoord_uv(m, m->texcoords[i], &f->uv[2 * i], &f->uv[2 * i + 1]);
    for (i = 0; i < m->num_triangles; i++)
        for (k = 0; k < 3; k++) {
            f->tris[6 * i + 2 * (size_t)k] = m->triangles[i].vertex[k];
            f->tris[6 * i + 2 * (size_t)k + 1] = m->triangles[i].texcoord[k];
        }
    f->in.num_frames = m->num_frames;
    f->in.num_vertices = n;
    f->in.positions = f->pos;
    f->in.num_triangles = m->num_triangles;
    f->in.triangles = f->tris;
    f->in.num_texcoords = m->num_texcoords;
    f->in.uv = f->uv;
    f->in.skin_width = m->skin_width > 0 ? (uint32_t)m->skin_width : 1u;
    f->in.skin_height = m->skin_height > 0 ? (uint32_t)m->skin_height : 1u;
    f->in.frame_names = f->names;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Naive loops: what a user would write, for comparison                      */
/* ------------------------------------------------------------------------ */

/* md2_lerp's arithmetic as a plain loop: (s * v + t) per keyframe, then
 * (1 - t) * a + t * b; the table normals blended the same way. With the
 * build's -ffp-contract=off it gives md2_lerp's bits (checked below). */
static void naive_lerp(const md2_model *m, uint32_t a, uint32_t b, float t, float *pos,
                       float *nrm)
{
    const md2_frame *fa = &m->frames[a], *fb = &m->frames[b];
    const float *table = md2_normal(0);
    float wa = 1.0f - t;
    size_t i;
    int k;
    for (i = 0; i < m->num_vertices; i++) {
        const md2_vertex *va = &fa->vertices[i], *vb = &fb->vertices[i];
        const float *na = table + 3 * (va->normal < 162 ? va->normal : 5);
        const float *nb = table + 3 * (vb->normal < 162 ? vb->normal : 5);
        for (k = 0; k < 3; k++) {
            float pa = fa->scale[k] * (float)va->v[k] + fa->translate[k];
            float pb = fb->scale[k] * (float)vb->v[k] + fb->translate[k];
            pos[3 * i + k] = wa * pa + t * pb;
            if (nrm)
                nrm[3 * i + k] = wa * na[k] + t * nb[k];
        }
    }
}

/* md2_normalize's arithmetic as a plain loop */
static void naive_normalize(float *n, size_t count)
{
    size_t i;
    for (i = 0; i < count; i++, n += 3) {
        float len = sqrtf(n[2] * n[2] + (n[0] * n[0] + n[1] * n[1]));
        if (len > 1e-6f) {
            float inv = 1.0f / len;
            n[0] *= inv;
            n[1] *= inv;
            n[2] *= inv;
        } else {
            n[0] = 0.0f;
            n[1] = 0.0f;
            n[2] = 1.0f;
        }
    }
}

/* The fade row: md2_mesh_pose of a player halfway through a cross-fade,
 * in the default layout. */
static void run_mesh_fade(bench *b, long reps)
{
    md2_vertex_layout l = md2_layout_default(0);
    long i;
    for (i = 0; i < reps; i++)
        if (md2_mesh_pose(b->mesh, b->model, &b->player, b->mesh_out, &l) == MD2_OK)
            sink += (unsigned long)(b->mesh_out[0] > b->mesh_out[3]);
}

/* md2_mesh_pose's cross-fade as a plain loop: both poses blended as
 * naive_mesh_lerp blends two keyframes, then (1 - w) * from + w * cur */
static void naive_mesh_fade(const md2_mesh *mesh, const md2_model *m,
                            const md2_player_frames *st, float *out)
{
    const md2_frame *f[4];
    const float *table = md2_normal(0);
    float wt[4], w = st->weight, wo = 1.0f - st->weight;
    size_t i;
    int k, j;
    f[0] = &m->frames[st->frame_a];
    f[1] = &m->frames[st->frame_b];
    f[2] = &m->frames[st->from_a];
    f[3] = &m->frames[st->from_b];
    wt[0] = 1.0f - st->t;
    wt[1] = st->t;
    wt[2] = 1.0f - st->from_t;
    wt[3] = st->from_t;
    for (i = 0; i < mesh->num_vertices; i++, out += 8) {
        uint32_t s = mesh->source_vertex[i];
        float p[4][3], n[4][3];
        for (j = 0; j < 4; j++) {
            const md2_vertex *v = &f[j]->vertices[s];
            const float *nv = table + 3 * (v->normal < 162 ? v->normal : 5);
            for (k = 0; k < 3; k++) {
                p[j][k] = f[j]->scale[k] * (float)v->v[k] + f[j]->translate[k];
                n[j][k] = nv[k];
            }
        }
        for (k = 0; k < 3; k++) {
            float pc = wt[0] * p[0][k] + wt[1] * p[1][k], po = wt[2] * p[2][k] + wt[3] * p[3][k];
            float nc = wt[0] * n[0][k] + wt[1] * n[1][k], no = wt[2] * n[2][k] + wt[3] * n[3][k];
            out[k] = wo * po + w * pc;
            out[3 + k] = wo * no + w * nc;
        }
        out[6] = mesh->uv[2 * i];
        out[7] = mesh->uv[2 * i + 1];
    }
}

static void run_naive_mesh_fade(bench *b, long reps)
{
    md2_player_frames st;
    long i;
    md2_player_state(&b->player, &st);
    for (i = 0; i < reps; i++) {
        naive_mesh_fade(b->mesh, b->model, &st, b->mesh_out);
        sink += (unsigned long)(b->mesh_out[0] > b->mesh_out[3]);
    }
}

/* A player halfway through a cross-fade between two halves of the model's
 * frames, each between two keyframes. */
static void fade_player(md2_player *p, const md2_model *m)
{
    md2_anim a, c;
    uint32_t half = (uint32_t)(m->num_frames / 2);
    memset(&a, 0, sizeof a);
    memset(&c, 0, sizeof c);
    a.first = 0;
    a.last = half > 0 ? half - 1 : 0;
    a.fps = 10.0f;
    c.first = half;
    c.last = (uint32_t)m->num_frames - 1;
    c.fps = 10.0f;
    md2_player_init(p);
    if (md2_player_play(p, &a, MD2_PLAY_LOOP, MD2_RATE_ANIM) == MD2_OK)
        md2_player_advance(p, 0.137);
    if (md2_player_crossfade(p, &c, MD2_PLAY_LOOP, MD2_RATE_ANIM, 0.2f) == MD2_OK)
        md2_player_advance(p, 0.1);
}

/* md2_mesh_lerp's default layout as a plain loop over the welded vertices */
static void naive_mesh_lerp(const md2_mesh *mesh, const md2_model *m, uint32_t a, uint32_t b,
                            float t, float *out)
{
    const md2_frame *fa = &m->frames[a], *fb = &m->frames[b];
    const float *table = md2_normal(0);
    float wa = 1.0f - t;
    size_t i;
    int k;
    for (i = 0; i < mesh->num_vertices; i++, out += 8) {
        uint32_t s = mesh->source_vertex[i];
        const md2_vertex *va = &fa->vertices[s], *vb = &fb->vertices[s];
        const float *na = table + 3 * (va->normal < 162 ? va->normal : 5);
        const float *nb = table + 3 * (vb->normal < 162 ? vb->normal : 5);
        for (k = 0; k < 3; k++) {
            float pa = fa->scale[k] * (float)va->v[k] + fa->translate[k];
            float pb = fb->scale[k] * (float)vb->v[k] + fb->translate[k];
            out[k] = wa * pa + t * pb;
            out[3 + k] = wa * na[k] + t * nb[k];
        }
        out[6] = mesh->uv[2 * i];
        out[7] = mesh->uv[2 * i + 1];
    }
}

static void naive_loop(bench *b, long reps, int normals, int unit)
{
    long i;
    for (i = 0; i < reps; i++) {
        uint32_t fb;
        float t;
        uint32_t fa = next_pair(b, i, &fb, &t);
        naive_lerp(b->model, fa, fb, t, b->positions, normals ? b->normals : NULL);
        if (unit)
            naive_normalize(b->normals, b->model->num_vertices);
        sink += (unsigned long)(b->positions[0] > b->normals[0]);
    }
}

static void run_naive_lerp(bench *b, long reps) { naive_loop(b, reps, 1, 0); }
static void run_naive_lerp_pos(bench *b, long reps) { naive_loop(b, reps, 0, 0); }
static void run_naive_lerp_unit(bench *b, long reps) { naive_loop(b, reps, 1, 1); }

static void run_naive_mesh_lerp(bench *b, long reps)
{
    long i;
    for (i = 0; i < reps; i++) {
        uint32_t fb;
        float t;
        uint32_t fa = next_pair(b, i, &fb, &t);
        naive_mesh_lerp(b->mesh, b->model, fa, fb, t, b->mesh_out);
        sink += (unsigned long)(b->mesh_out[0] > b->mesh_out[3]);
    }
}

/* 1 if the library and the naive loops give the same bits on pair (0, 1). */
static int same_bits(bench *b)
{
    const md2_model *m = b->model;
    size_t n = m->num_vertices, w = b->mesh->num_vertices;
    float *lib = (float *)malloc((6 * n + 8 * w) * sizeof(float));
    float *ref = (float *)malloc((6 * n + 8 * w) * sizeof(float));
    md2_vertex_layout l = md2_layout_default(0);
    uint32_t fb = m->num_frames > 1 ? 1 : 0;
    md2_player_frames st;
    int same = 0;
    if (lib && ref && md2_lerp(m, 0, fb, 0.3f, lib, 0, lib + 3 * n, 0) == MD2_OK &&
        md2_mesh_lerp(b->mesh, m, 0, fb, 0.3f, lib + 6 * n, &l) == MD2_OK) {
        naive_lerp(m, 0, fb, 0.3f, ref, ref + 3 * n);
        naive_mesh_lerp(b->mesh, m, 0, fb, 0.3f, ref + 6 * n);
        same = memcmp(lib, ref, (6 * n + 8 * w) * sizeof(float)) == 0;
    }
    /* and the fade row's pose (b->player is mid cross-fade) */
    md2_player_state(&b->player, &st);
    if (same && md2_mesh_pose(b->mesh, m, &b->player, lib, &l) == MD2_OK) {
        naive_mesh_fade(b->mesh, m, &st, ref);
        same = memcmp(lib, ref, 8 * w * sizeof(float)) == 0;
    }
    free(lib);
    free(ref);
    return same;
}

/* ------------------------------------------------------------------------ */
/* Timing                                                                    */
/* ------------------------------------------------------------------------ */

/* Repetitions of fn that take at least sample seconds (one calibration). */
static long calibrate(bench_fn fn, bench *b, double sample, double *spent, double *best)
{
    long reps = 1;
    for (;;) {
        double t0 = now(), dt;
        fn(b, reps);
        dt = now() - t0;
        *spent += dt;
        *best = dt / (double)reps;
        if (dt >= sample || reps > 0x3FFFFFFFL / 4)
            return reps;
        reps *= dt > 0.0 && dt * 8.0 >= sample ? 2 : 4;
    }
}

/* Seconds one call of each of the n functions takes, into t[]: samples of
 * at least budget / 50 (and 0.5 ms) each, taken in turn (so that the
 * ratios of the functions are measured under the same conditions, on a
 * machine shared with other work) for about budget seconds a function;
 * the fastest sample of each counts. */
static void measure_set(const bench_fn *fns, int n, bench *b, double budget, double *t)
{
    double sample = budget / 50.0 > 5e-4 ? budget / 50.0 : 5e-4, spent = 0.0;
    long reps[4];
    int k;

    for (k = 0; k < n; k++)
        reps[k] = calibrate(fns[k], b, sample, &spent, &t[k]);
    while (spent < budget * n) {
        for (k = 0; k < n; k++) {
            double t0 = now(), dt;
            fns[k](b, reps[k]);
            dt = now() - t0;
            spent += dt;
            if (dt / (double)reps[k] < t[k])
                t[k] = dt / (double)reps[k];
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct row {
    const char *name;
    const char *unit;    /* "byte", "vertex", ... */
    double t_lib;        /* seconds a call */
    double t_naive;      /* seconds a call of the naive loop, or 0 */
    double t_copy;       /* seconds of memcpy of the call's bytes */
    size_t units;        /* units a call */
    size_t copy_bytes;   /* bytes memcpy copies */
} row;

#define MAX_ROWS 16

typedef struct report {
    const char *label;
    size_t file_size, vertices, triangles, frames, welded;
    size_t memory, mesh_memory;
    int same_bits;
    row rows[MAX_ROWS];
    int num_rows;
    double threads_1, threads_2; /* instances a second, 0: not measured */
    size_t instances;
    double stable_full, stable_quantise; /* md2_build's time, stable / per-frame */
} report;

static void print_time(double s)
{
    if (s >= 1e-3)
        printf("%8.3f ms", s * 1e3);
    else if (s >= 1e-6)
        printf("%8.3f us", s * 1e6);
    else
        printf("%8.1f ns", s * 1e9);
}

static void print_report(const report *r)
{
    int i;
    printf("%s: %lu bytes, %lu vertices, %lu triangles (%lu welded vertices), %lu frames\n",
           r->label, (unsigned long)r->file_size, (unsigned long)r->vertices,
           (unsigned long)r->triangles, (unsigned long)r->welded, (unsigned long)r->frames);
    printf("%-20s %11s %16s %11s %9s %10s %12s\n", "operation", "per call", "speed", "naive",
           "vs naive", "vs memcpy", "memcpy");
    for (i = 0; i < r->num_rows; i++) {
        const row *w = &r->rows[i];
        double speed = (double)w->units / w->t_lib;
        printf("%-20s ", w->name);
        print_time(w->t_lib);
        if (speed >= 1e9)
            printf(" %7.2f G %-6s/s", speed * 1e-9, w->unit);
        else
            printf(" %7.1f M %-6s/s", speed * 1e-6, w->unit);
        if (w->t_naive > 0.0) {
            printf(" ");
            print_time(w->t_naive);
            printf(" %8.2fx", w->t_naive / w->t_lib);
        } else {
            printf(" %11s %9s", "-", "-");
        }
        printf(" %9.2fx  %6.1f GB/s\n", w->t_lib / w->t_copy,
               (double)w->copy_bytes / w->t_copy * 1e-9);
    }
    printf("(vs naive: times faster than the plain C loop, whose bits the library's %s%s. "
           "vs memcpy: the call's time in memcpys of its output bytes, or of the file for "
           "parse and write, of the triangles for the mesh build)\n",
           r->same_bits ? "equal" : "do not equal",
           r->same_bits ? "" : " (the loop's C floats are evaluated in a wider type here, "
                               "FLT_EVAL_METHOD != 0; libmd2's are not)");
    printf("stable grids (the default) against a box per frame: %.2fx the time of a build, "
           "%.2fx of quantisation alone\n", r->stable_full, r->stable_quantise);
    if (r->threads_1 > 0.0)
        printf("posing %lu instances of the model (md2_lerp, positions and normals): "
               "1 thread %.0f/s, 2 threads %.0f/s (%.2fx)\n",
               (unsigned long)r->instances, r->threads_1, r->threads_2,
               r->threads_2 / r->threads_1);
    printf("memory: model %lu bytes = %.2fx the file; all frames as floats (pos + normal) "
           "would be %.1fx the model; mesh %lu bytes\n\n",
           (unsigned long)r->memory, (double)r->memory / (double)r->file_size,
           (double)r->frames * (double)r->vertices * 24.0 / (double)r->memory,
           (unsigned long)r->mesh_memory);
}

/* s as a JSON string (file names: escape quotes and backslashes) */
static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        if ((unsigned char)*s >= 0x20)
            putchar(*s);
    }
    putchar('"');
}

static void json_report(const report *r)
{
    int i;
    printf("{\"model\": ");
    json_string(r->label);
    printf(", \"file_bytes\": %lu, \"vertices\": %lu, \"triangles\": %lu, \"welded\": %lu, "
           "\"frames\": %lu, \"same_bits_as_naive\": %s, \"rows\": [",
           (unsigned long)r->file_size, (unsigned long)r->vertices,
           (unsigned long)r->triangles, (unsigned long)r->welded, (unsigned long)r->frames,
           r->same_bits ? "true" : "false");
    for (i = 0; i < r->num_rows; i++) {
        const row *w = &r->rows[i];
        printf("%s\n    {\"name\": \"%s\", \"unit\": \"%s\", \"seconds_per_call\": %.4g, "
               "\"units_per_second\": %.4g, \"naive_seconds_per_call\": %.4g, "
               "\"vs_naive\": %.4g, \"memcpy_seconds\": %.4g, \"memcpy_bytes\": %lu, "
               "\"memcpy_bytes_per_second\": %.4g, \"vs_memcpy\": %.4g}",
               i ? "," : "", w->name, w->unit, w->t_lib, (double)w->units / w->t_lib,
               w->t_naive, w->t_naive > 0.0 ? w->t_naive / w->t_lib : 0.0, w->t_copy,
               (unsigned long)w->copy_bytes, (double)w->copy_bytes / w->t_copy,
               w->t_lib / w->t_copy);
    }
    printf("],\n  \"stable_vs_per_frame\": {\"build\": %.4g, \"quantise\": %.4g}",
           r->stable_full, r->stable_quantise);
    printf(",\n  \"threads\": {\"instances\": %lu, \"one_thread_per_second\": %.4g, "
           "\"two_threads_per_second\": %.4g, \"scaling\": %.4g},\n"
           "  \"memory_bytes\": %lu, \"mesh_memory_bytes\": %lu}",
           (unsigned long)r->instances, r->threads_1, r->threads_2,
           r->threads_1 > 0.0 ? r->threads_2 / r->threads_1 : 0.0, (unsigned long)r->memory,
           (unsigned long)r->mesh_memory);
}

/* ------------------------------------------------------------------------ */
/* Instances on threads                                                      */
/* ------------------------------------------------------------------------ */

#define INSTANCES 64

#if defined(BENCH_THREADS)
typedef struct worker {
    const md2_model *model;
    float *buffers;      /* 6 floats a vertex for each of its instances */
    size_t first, count; /* its instances */
    double deadline;     /* now() at which it stops */
    unsigned long posed;
} worker;

/* Until the deadline, poses each of the worker's instances in turn:
 * instance k shows the pair (k + round, k + round + 1) at a t of its own. */
static void *work(void *arg)
{
    worker *w = (worker *)arg;
    const md2_model *m = w->model;
    size_t n = m->num_vertices, k, r;
    for (r = 0; now() < w->deadline; r++)
        for (k = 0; k < w->count; k++) {
            size_t id = w->first + k;
            uint32_t fa = (uint32_t)((id + r) % m->num_frames);
            uint32_t fb = (uint32_t)((fa + 1) % m->num_frames);
            float *out = w->buffers + 6 * n * k;
            float t = (float)((id * 7 + r) % 15 + 1) / 16.0f;
            if (md2_lerp(m, fa, fb, t, out, 0, out + 3 * n, 0) == MD2_OK)
                w->posed++;
        }
    return NULL;
}
#endif

/* Instances a second posed by threads threads sharing m (each posing its
 * share of the instances, in its own buffers) over budget seconds: the
 * poses all of them made, over the time; 0 without threads. */
static double instances_window(const md2_model *m, int threads, double budget)
{
#if defined(BENCH_THREADS)
    worker w[2];
    pthread_t tid[2];
    size_t n = m->num_vertices, per = INSTANCES / (size_t)threads;
    float *buffers = (float *)malloc(INSTANCES * 6 * n * sizeof(float));
    double t0 = now(), dt;
    unsigned long posed = 0;
    int i, started = 1;

    if (!buffers)
        return 0.0;
    for (i = 0; i < threads; i++) {
        w[i].model = m;
        w[i].first = (size_t)i * per;
        w[i].count = per;
        w[i].buffers = buffers + 6 * n * w[i].first;
        w[i].deadline = t0 + budget;
        w[i].posed = 0;
    }
    for (i = 1; i < threads; i++)
        if (pthread_create(&tid[i], NULL, work, &w[i]) == 0)
            started++;
    work(&w[0]);
    for (i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    dt = now() - t0;
    for (i = 0; i < started; i++)
        posed += w[i].posed;
    free(buffers);
    return started == threads ? (double)posed / dt : 0.0;
#else
    (void)m;
    (void)threads;
    (void)budget;
    return 0.0;
#endif
}

/* The best of 3 windows of instances_window() */
static double instances_per_second(const md2_model *m, int threads, double budget)
{
    double best = 0.0;
    int i;
    for (i = 0; i < 3; i++) {
        double rate = instances_window(m, threads, budget);
        if (rate > best)
            best = rate;
    }
    return best;
}

/* ------------------------------------------------------------------------ */
/* Models                                                                    */
/* ------------------------------------------------------------------------ */

/* Reads a whole file with standard C; returns NULL on failure. */
static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    unsigned char *data = NULL;
    size_t cap = 0, len = 0;

    if (!fp)
        return NULL;
    for (;;) {
        size_t got;
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            unsigned char *p = (unsigned char *)realloc(data, ncap);
            if (!p) {
                free(data);
                fclose(fp);
                return NULL;
            }
            data = p;
            cap = ncap;
        }
        got = fread(data + len, 1, cap - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(fp) || len == 0) {
        free(data);
        fclose(fp);
        return NULL;
    }
    fclose(fp);
    *size = len;
    return data;
}

/* ------------------------------------------------------------------------ */
/* One model                                                                 */
/* ------------------------------------------------------------------------ */

static void add_row(report *r, const char *name, const char *unit, double t_lib,
                    double t_naive, double t_copy, size_t units, size_t copy_bytes)
{
    row *w = &r->rows[r->num_rows++];
    w->name = name;
    w->unit = unit;
    w->t_lib = t_lib;
    w->t_naive = t_naive;
    w->t_copy = t_copy;
    w->units = units;
    w->copy_bytes = copy_bytes;
}

/* Measures lib, naive (if not NULL) and memcpy of copy_bytes in turn and
 * adds their row: units a call. */
static void measure_row(report *r, bench *b, const char *name, const char *unit, bench_fn lib,
                        bench_fn naive, size_t units, size_t copy_bytes, double budget)
{
    bench_fn fns[3];
    double t[3] = {0.0, 0.0, 0.0};
    int n = 0;
    fns[n++] = lib;
    fns[n++] = run_copy;
    if (naive)
        fns[n++] = naive;
    b->copy_bytes = copy_bytes;
    measure_set(fns, n, b, budget, t);
    add_row(r, name, unit, t[0], naive ? t[2] : 0.0, t[1], units, copy_bytes);
}

/* 1 if md2_parse() gives the model in data (size bytes) MD2_WARN_SAME_NORMALS,
 * 0 if not or if it fails. */
static int same_normals_advised(const unsigned char *data, size_t size)
{
    md2_model *m = NULL;
    int advised = md2_parse(data, size, NULL, &m) == MD2_OK &&
                  (m->warnings & MD2_WARN_SAME_NORMALS) != 0;
    md2_free(m);
    return advised;
}

/* Measures the model in data (size bytes) into r; 0 on success. */
static int bench_model(const char *label, const unsigned char *data, size_t size, double budget,
                       report *r)
{
    md2_diagnostic diag;
    md2_options opts;
    md2_model *m = NULL;
    md2_mesh *mesh = NULL;
    bench b;
    build_floats bf;
    md2_build_input given;
    size_t n, w, lerp_bytes, big, build_bytes;
    unsigned char *same = NULL, *last = NULL; /* the parse rows' variants */
    int rc = 1;

    memset(r, 0, sizeof *r);
    memset(&b, 0, sizeof b);
    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    if (md2_parse(data, size, &opts, &m) != MD2_OK) {
        fprintf(stderr, "md2_bench: cannot load %s: %s\n", label, diag.message);
        return 1;
    }
    if (md2_mesh_build(m, NULL, &mesh) != MD2_OK) {
        fprintf(stderr, "md2_bench: md2_mesh_build failed on %s\n", label);
        md2_free(m);
        return 1;
    }
    n = m->num_vertices;
    w = mesh->num_vertices;
    lerp_bytes = n * 6 * sizeof(float);
    b.file = data;
    b.parse_file = data;
    b.file_size = size;
    b.model = m;
    b.mesh = mesh;
    b.out_size = md2_write_size(m);
    big = b.out_size > size ? b.out_size : size;
    if (big < lerp_bytes)
        big = lerp_bytes;
    if (big < (w + 1) * 8 * sizeof(float))
        big = (w + 1) * 8 * sizeof(float);
    build_bytes = m->num_frames * n * 3 * sizeof(float); /* the builder's positions */
    if (big < build_bytes)
        big = build_bytes;
    if (build_floats_make(&bf, m) != 0) {
        fprintf(stderr, "md2_bench: out of memory\n");
        md2_mesh_free(mesh);
        md2_free(m);
        return 1;
    }
    b.out = (unsigned char *)malloc(big);
    b.copy_src = (float *)calloc(big / sizeof(float) + 1, sizeof(float));
    b.positions = (float *)malloc(lerp_bytes);
    b.mesh_out = (float *)calloc(w + 1, 8 * sizeof(float));
    same = md2_bench_same_normals(data, size, 0);
    last = md2_bench_same_normals(data, size, 1);
    if (!b.out || !b.copy_src || !b.positions || !b.mesh_out || !same || !last) {
        fprintf(stderr, "md2_bench: out of memory\n");
        goto done;
    }
    /* the advice for the first (a model of 3 or more vertices), none for the second */
    if (same_normals_advised(same, size) != (n >= 3) || same_normals_advised(last, size) != 0) {
        fprintf(stderr, "md2_bench: %s: the variants with equal normals do not get "
                        "MD2_WARN_SAME_NORMALS as they should\n", label);
        goto done;
    }
    b.normals = b.positions + 3 * n;
    memcpy(b.copy_src, data, size);
    /* memcpy's destination touched once before it is timed: on Linux the
     * first row's memcpy into fresh pages measured 2x slower than the
     * others (21 against 47 GB/s on the generated model), and only there */
    memset(b.out, 0, big);

    r->label = label;
    r->file_size = size;
    r->vertices = n;
    r->triangles = m->num_triangles;
    r->frames = m->num_frames;
    r->welded = w;
    r->memory = md2_model_memory(m);
    r->mesh_memory = md2_mesh_memory(mesh);
    fade_player(&b.player, m);
    r->same_bits = same_bits(&b);

    measure_row(r, &b, "md2_parse+free", "byte", run_parse, NULL, size, size, budget);
    b.parse_file = same;
    measure_row(r, &b, "parse: same normals", "byte", run_parse, NULL, size, size, budget);
    b.parse_file = last;
    measure_row(r, &b, "parse: last differs", "byte", run_parse, NULL, size, size, budget);
    b.parse_file = data;
    measure_row(r, &b, "md2_lerp", "vertex", run_lerp, run_naive_lerp, n, lerp_bytes, budget);
    measure_row(r, &b, "md2_lerp positions", "vertex", run_lerp_pos, run_naive_lerp_pos, n,
                n * 3 * sizeof(float), budget);
    measure_row(r, &b, "lerp + normalize", "vertex", run_lerp_unit, run_naive_lerp_unit, n,
                lerp_bytes, budget);
    measure_row(r, &b, "md2_write", "byte", run_write, NULL, b.out_size, size, budget);
    if (m->num_triangles > 0) {
        measure_row(r, &b, "md2_mesh_build", "tri", run_mesh_build, NULL, m->num_triangles,
                    m->num_triangles * 12, budget);
        measure_row(r, &b, "md2_mesh_lerp", "welded", run_mesh_lerp, run_naive_mesh_lerp, w,
                    w * 8 * sizeof(float), budget);
        measure_row(r, &b, "md2_mesh_pose fade", "welded", run_mesh_fade, run_naive_mesh_fade,
                    w, w * 8 * sizeof(float), budget);
    }
    /* the builder: vertex-frames a second; memcpy of the positions given. The
     * defaults (stable grids), then a box per frame, in one run: their ratio */
    b.build_in = &bf.in;
    b.build_flags = 0;
    measure_row(r, &b, "md2_build", "vframe", run_build, NULL, n * m->num_frames, build_bytes,
                budget);
    b.build_quantize = MD2_QUANTIZE_PER_FRAME;
    measure_row(r, &b, "build per-frame", "vframe", run_build, NULL, n * m->num_frames,
                build_bytes, budget);
    b.build_quantize = MD2_QUANTIZE_DEFAULT;
    given = bf.in;
    given.normals = bf.nrm;
    b.build_in = &given;
    b.build_flags = MD2_BUILD_NO_GLCMDS;
    measure_row(r, &b, "md2_build quantise", "vframe", run_build, NULL, n * m->num_frames,
                build_bytes, budget);
    b.build_quantize = MD2_QUANTIZE_PER_FRAME;
    measure_row(r, &b, "quantise per-frame", "vframe", run_build, NULL, n * m->num_frames,
                build_bytes, budget);
    r->stable_full = r->rows[r->num_rows - 4].t_lib / r->rows[r->num_rows - 3].t_lib;
    r->stable_quantise = r->rows[r->num_rows - 2].t_lib / r->rows[r->num_rows - 1].t_lib;
    r->instances = INSTANCES;
    r->threads_1 = instances_per_second(m, 1, budget);
    r->threads_2 = r->threads_1 > 0.0 ? instances_per_second(m, 2, budget) : 0.0;
    rc = 0;
done:
    free(same);
    free(last);
    free(b.out);
    free(b.copy_src);
    free(b.positions);
    free(b.mesh_out);
    build_floats_free(&bf);
    md2_mesh_free(mesh);
    md2_free(m);
    return rc;
}

/* Builds a mesh of a synthetic model of n triangles whose 3 n corners all
 * differ; returns the seconds, or a negative number on failure. */
static double time_big_mesh(size_t n, size_t *welded)
{
    md2_model m;
    md2_frame frame;
    md2_vertex verts[3];
    md2_texcoord *st = (md2_texcoord *)malloc(n * sizeof *st);
    md2_triangle *tris = (md2_triangle *)malloc(n * sizeof *tris);
    md2_mesh *mesh = NULL;
    double dt = -1.0;

    if (st && tris && n <= 65536) {
        size_t i;
        double t0;
        int k;
        memset(&m, 0, sizeof m);
        memset(&frame, 0, sizeof frame);
        memset(verts, 0, sizeof verts);
        frame.vertices = verts;
        for (i = 0; i < n; i++) {
            st[i].s = (int16_t)(i % 251);
            st[i].t = (int16_t)(i / 251);
            for (k = 0; k < 3; k++) {
                tris[i].vertex[k] = (uint16_t)k;
                tris[i].texcoord[k] = (uint16_t)i;
            }
        }
        m.skin_width = m.skin_height = 256;
        m.num_vertices = 3;
        m.num_texcoords = n;
        m.texcoords = st;
        m.num_triangles = n;
        m.triangles = tris;
        m.num_frames = 1;
        m.frames = &frame;
        t0 = now();
        if (md2_mesh_build(&m, NULL, &mesh) == MD2_OK) {
            dt = now() - t0;
            *welded = mesh->num_vertices;
        }
        md2_mesh_free(mesh);
    }
    free(st);
    free(tris);
    return dt;
}

/* ------------------------------------------------------------------------ */
/* md2_normal_nearest: directions a second, against a brute-force loop       */
/* ------------------------------------------------------------------------ */

/* NEAREST_DIRS random directions (uniform in the cube [-1, 1]^3), made once
 * by nearest_setup(): each run of the functions below maps all of them. */
#define NEAREST_DIRS 4096
static float nearest_dirs[NEAREST_DIRS][3];

static void nearest_setup(void)
{
    uint32_t seed = 2024;
    size_t i;
    int k;
    for (i = 0; i < NEAREST_DIRS; i++)
        for (k = 0; k < 3; k++)
            nearest_dirs[i][k] = (float)md2_bench_lcg(&seed) / 8388608.0f - 1.0f;
}

/* The nearest normal as a user would write it: all 162 dot products,
 * the first largest. For these directions (no component tiny enough to
 * lose bits when scaled by a power of two) it is md2_normal_nearest's
 * answer wherever floats are evaluated as float (checked below). */
static unsigned brute_nearest(float x, float y, float z)
{
    const float *table = md2_normal(0);
    float best_dot = -FLT_MAX;
    unsigned i, best = 0;
    for (i = 0; i < MD2_NUM_NORMALS; i++) {
        const float *n = table + 3 * i;
        float dot = x * n[0] + y * n[1] + z * n[2];
        if (dot > best_dot) {
            best_dot = dot;
            best = i;
        }
    }
    return best;
}

static void run_nearest(bench *b, long reps)
{
    unsigned long sum = 0;
    long r;
    size_t i;
    (void)b;
    for (r = 0; r < reps; r++)
        for (i = 0; i < NEAREST_DIRS; i++)
            sum += md2_normal_nearest(nearest_dirs[i][0], nearest_dirs[i][1], nearest_dirs[i][2]);
    sink += sum;
}

static void run_brute_nearest(bench *b, long reps)
{
    unsigned long sum = 0;
    long r;
    size_t i;
    (void)b;
    for (r = 0; r < reps; r++)
        for (i = 0; i < NEAREST_DIRS; i++)
            sum += brute_nearest(nearest_dirs[i][0], nearest_dirs[i][1], nearest_dirs[i][2]);
    sink += sum;
}

typedef struct nearest_result {
    double lib, brute; /* directions a second */
    int same;          /* 1 if both give the same answers */
} nearest_result;

/* Times md2_normal_nearest and the brute force in turn, on one thread. */
static nearest_result bench_nearest(double budget)
{
    bench_fn fns[2] = {run_nearest, run_brute_nearest};
    double t[2] = {0.0, 0.0};
    nearest_result r;
    size_t i;
    nearest_setup();
    r.same = 1;
    for (i = 0; i < NEAREST_DIRS; i++) {
        const float *d = nearest_dirs[i];
        if (md2_normal_nearest(d[0], d[1], d[2]) != brute_nearest(d[0], d[1], d[2]))
            r.same = 0;
    }
    measure_set(fns, 2, NULL, budget, t);
    r.lib = (double)NEAREST_DIRS / t[0];
    r.brute = (double)NEAREST_DIRS / t[1];
    return r;
}

/* The CPU's vector extensions, as far as the compiler can tell (the
 * library's own kernels also depend on how it was built: MD2_SIMD). */
#ifdef BENCH_TOOL
/* Runs the md2 command with argv (its stdout and stderr to /dev/null);
 * the wall time, or -1 when it could not run or failed. */
static double run_tool(char *const *argv)
{
    double t0 = now();
    int status = 0;
    pid_t pid = fork();
    if (pid < 0)
        return -1.0;
    if (pid == 0) {
        FILE *null = freopen("/dev/null", "w", stdout);
        if (null && freopen("/dev/null", "w", stderr))
            execv(argv[0], argv);
        _exit(127);
    }
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1.0;
    return now() - t0;
}

/* The fastest of runs runs of the command; -1 when one fails. */
static double best_tool(char *const *argv, int runs)
{
    double best = -1.0;
    int i;
    for (i = 0; i < runs; i++) {
        double t = run_tool(argv);
        if (t < 0)
            return -1.0;
        if (best < 0 || t < best)
            best = t;
    }
    return best;
}

/* md2 export of the model (data) to .glb, then md2 import of that .glb:
 * their times (fastest of runs), in a folder of its own, removed after. */
static int bench_round_trip(const unsigned char *data, size_t size, int runs, double *t_export,
                            double *t_import)
{
    char dir[] = "/tmp/md2_bench_XXXXXX";
    char md2[64], glb[64], back[64], skin[64];
    char tool[] = MD2_BENCH_TOOL, cmd_export[] = "export", cmd_import[] = "import", o[] = "-o";
    char *export_argv[6], *import_argv[6];
    FILE *f;
    int ok = 0;
    if (!mkdtemp(dir))
        return 0;
    snprintf(md2, sizeof md2, "%s/big.md2", dir);
    snprintf(glb, sizeof glb, "%s/big.glb", dir);
    snprintf(back, sizeof back, "%s/back.md2", dir);
    snprintf(skin, sizeof skin, "%s/back.png", dir);
    f = fopen(md2, "wb");
    if (f && fwrite(data, 1, size, f) == size && fclose(f) == 0) {
        f = NULL;
        export_argv[0] = tool, export_argv[1] = cmd_export, export_argv[2] = md2;
        export_argv[3] = o, export_argv[4] = glb, export_argv[5] = NULL;
        import_argv[0] = tool, import_argv[1] = cmd_import, import_argv[2] = glb;
        import_argv[3] = o, import_argv[4] = back, import_argv[5] = NULL;
        *t_export = best_tool(export_argv, runs);
        *t_import = *t_export > 0 ? best_tool(import_argv, runs) : -1.0;
        ok = *t_export > 0 && *t_import > 0;
    }
    if (f)
        fclose(f);
    remove(md2);
    remove(glb);
    remove(back);
    remove(skin);
    rmdir(dir);
    return ok;
}
#endif

static const char *cpu_simd(void)
{
#if defined(__GNUC__) && defined(__x86_64__)
    return __builtin_cpu_supports("avx2") ? "CPU x86-64 with AVX2" : "CPU x86-64 (SSE2)";
#elif defined(__aarch64__)
    return "CPU aarch64 (NEON)";
#else
    return "CPU without SIMD kernels";
#endif
}


/* ------------------------------------------------------------------------ */
/* md2_simplify beside meshoptimizer                                         */
/* ------------------------------------------------------------------------ */

typedef struct simplify_result {
    double ours, ours_measured, meshopt, flips; /* seconds a call; -1: not run */
    size_t triangles, meshopt_triangles, meshopt_flipped;
} simplify_result;

/* The fastest of samples of one call, for about budget seconds. */
#define FASTEST(out, budget, call)                                            \
    do {                                                                      \
        double t_end_ = now() + (budget), best_ = -1.0;                       \
        do {                                                                  \
            double t0_ = now(), t_;                                           \
            call;                                                             \
            t_ = now() - t0_;                                                 \
            if (best_ < 0.0 || t_ < best_)                                    \
                best_ = t_;                                                   \
        } while (now() < t_end_);                                             \
        (out) = best_;                                                        \
    } while (0)

#ifdef MD2_BENCH_MESHOPT
/* The flip tests a user of a single-pose simplifier needs to know whether
 * its index buffer (n triangles of model vertices, tris) holds in every
 * pose: every frame decoded, and every triangle's normal there against
 * the normal there of the model's triangle it stands for (src). Returns
 * how many triangles face away from theirs in some frame. */
static size_t flip_tests(const md2_model *m, const uint32_t *tris, const uint32_t *src, size_t n,
                         float *frame, unsigned char *turned)
{
    uint32_t f;
    size_t t, count = 0;
    memset(turned, 0, n ? n : 1);
    for (f = 0; f < m->num_frames; f++) {
        md2_decode_frame(m, f, frame, 0, NULL, 0);
        for (t = 0; t < n; t++) {
            const uint16_t *o = m->triangles[src[t]].vertex;
            const float *p[6];
            float e[4][3], nr[2][3];
            int k, q;
            p[0] = frame + 3 * tris[3 * t];
            p[1] = frame + 3 * tris[3 * t + 1];
            p[2] = frame + 3 * tris[3 * t + 2];
            p[3] = frame + 3 * o[0];
            p[4] = frame + 3 * o[1];
            p[5] = frame + 3 * o[2];
            for (q = 0; q < 2; q++) {
                for (k = 0; k < 3; k++) {
                    e[2 * q][k] = p[3 * q + 1][k] - p[3 * q][k];
                    e[2 * q + 1][k] = p[3 * q + 2][k] - p[3 * q][k];
                }
                nr[q][0] = e[2 * q][1] * e[2 * q + 1][2] - e[2 * q][2] * e[2 * q + 1][1];
                nr[q][1] = e[2 * q][2] * e[2 * q + 1][0] - e[2 * q][0] * e[2 * q + 1][2];
                nr[q][2] = e[2 * q][0] * e[2 * q + 1][1] - e[2 * q][1] * e[2 * q + 1][0];
            }
            turned[t] |= nr[0][0] * nr[1][0] + nr[0][1] * nr[1][1] + nr[0][2] * nr[1][2] < 0.0f;
        }
    }
    for (t = 0; t < n; t++)
        count += turned[t];
    return count;
}

/* The model triangle each of the n triangles of welded corners out stands
 * for: of the model's triangles at its corners, the one with the most
 * corners in the same places (the first of those). */
static void sources_of(const md2_mesh *mesh, const unsigned *out, size_t n, uint32_t *src)
{
    size_t nt = mesh->num_indices / 3, t, i;
    uint32_t *start = (uint32_t *)calloc(mesh->num_vertices + 1, sizeof(uint32_t));
    uint32_t *list = (uint32_t *)malloc((mesh->num_indices + 1) * sizeof(uint32_t));
    if (!start || !list) {
        for (t = 0; t < n; t++)
            src[t] = 0;
        free(start);
        free(list);
        return;
    }
    for (i = 0; i < mesh->num_indices; i++)
        start[mesh->indices[i] + 1]++;
    for (i = 0; i < mesh->num_vertices; i++)
        start[i + 1] += start[i];
    for (t = 0; t < nt; t++)
        for (i = 0; i < 3; i++)
            list[start[mesh->indices[3 * t + i]]++] = (uint32_t)t;
    for (i = mesh->num_vertices; i > 0; i--)
        start[i] = start[i - 1];
    start[0] = 0;
    for (t = 0; t < n; t++) {
        int best = -1, c;
        src[t] = 0;
        for (c = 0; c < 3; c++) {
            unsigned w = out[3 * t + (size_t)c];
            uint32_t x;
            for (x = start[w]; x < start[w + 1]; x++) {
                uint32_t s = list[x];
                int same = 0, k;
                for (k = 0; k < 3; k++)
                    same += mesh->indices[3 * (size_t)s + (size_t)k] == out[3 * t + (size_t)k];
                if (same > best || (same == best && s < src[t])) {
                    best = same;
                    src[t] = s;
                }
            }
        }
    }
    free(start);
    free(list);
}
#endif

/* md2_simplify() of the model to half its triangles (without and with its
 * error measure) beside meshopt_simplify() of its frame 0 and the flip
 * tests of meshoptimizer's result in every frame. */
static simplify_result bench_simplify(const unsigned char *data, size_t size, double budget)
{
    simplify_result r = {-1.0, -1.0, -1.0, -1.0, 0, 0, 0};
    md2_model *m = NULL;
    md2_simplify_target tg;
    md2_simplify_options o;
    md2_lod lod;
    float *frame;

    if (md2_parse(data, size, NULL, &m) != MD2_OK || m->num_triangles < 4) {
        md2_free(m);
        return r;
    }
    frame = (float *)malloc(m->num_vertices * 3 * sizeof(float));
    if (!frame) {
        md2_free(m);
        return r;
    }
    memset(&tg, 0, sizeof tg);
    tg.kind = MD2_SIMPLIFY_RATIO;
    tg.value = 0.5;
    memset(&o, 0, sizeof o);
    o.flags = MD2_SIMPLIFY_NO_ERROR;
    FASTEST(r.ours, budget, if (md2_simplify(m, &tg, 1, &o, &lod) == MD2_OK) {
        r.triangles = lod.model->num_triangles;
        md2_lod_free(&lod);
    });
    FASTEST(r.ours_measured, budget, if (md2_simplify(m, &tg, 1, NULL, &lod) == MD2_OK)
                                         md2_lod_free(&lod));
#ifdef MD2_BENCH_MESHOPT
    {
        md2_mesh *mesh = NULL;
        if (md2_mesh_build(m, NULL, &mesh) == MD2_OK) {
            float *wp = (float *)malloc(mesh->num_vertices * 3 * sizeof(float));
            unsigned *idx = (unsigned *)malloc(mesh->num_indices * sizeof(unsigned));
            uint32_t *tris = (uint32_t *)malloc(mesh->num_indices * sizeof(uint32_t));
            uint32_t *src = (uint32_t *)malloc((mesh->num_indices / 3 + 1) * sizeof(uint32_t));
            unsigned char *turned = (unsigned char *)malloc(mesh->num_indices / 3 + 1);
            if (wp && idx && tris && src && turned) {
                size_t i, n = 0;
                md2_decode_frame(m, 0, frame, 0, NULL, 0);
                for (i = 0; i < mesh->num_vertices; i++)
                    memcpy(wp + 3 * i, frame + 3 * mesh->source_vertex[i], 3 * sizeof(float));
                FASTEST(r.meshopt, budget,
                        n = meshopt_simplify(idx, mesh->indices, mesh->num_indices, wp,
                                             mesh->num_vertices, 12, 3 * (m->num_triangles / 2),
                                             1.0f, 0, NULL));
                for (i = 0; i < n; i++)
                    tris[i] = mesh->source_vertex[idx[i]];
                sources_of(mesh, idx, n / 3, src);
                r.meshopt_triangles = n / 3;
                FASTEST(r.flips, budget,
                        r.meshopt_flipped = flip_tests(m, tris, src, n / 3, frame, turned));
            }
            free(wp);
            free(idx);
            free(tris);
            free(src);
            free(turned);
        }
        md2_mesh_free(mesh);
    }
#endif
    free(frame);
    md2_free(m);
    return r;
}

static void print_simplify(const char *label, const simplify_result *s)
{
    if (s->ours < 0.0)
        return;
    printf("md2_simplify of %s to %lu triangles: %.3f ms (%.2f ms with its error measure)",
           label, (unsigned long)s->triangles, s->ours * 1e3, s->ours_measured * 1e3);
    if (s->meshopt >= 0.0)
        printf("; meshopt_simplify of frame 0 %.3f ms (%lu triangles), the flip tests of its "
               "result in every frame %.3f ms (%lu face away from the model's triangle they "
               "share most corners with in some frame): %.1f times 3 x meshopt + flip tests\n",
               s->meshopt * 1e3, (unsigned long)s->meshopt_triangles, s->flips * 1e3,
               (unsigned long)s->meshopt_flipped, s->ours / (3.0 * s->meshopt + s->flips));
    else
        printf(" (md2_bench was built without meshoptimizer)\n");
}

static void json_simplify(const char *key, const simplify_result *s)
{
    printf(",\n \"%s\": {\"triangles\": %lu, \"seconds\": %.4g, "
           "\"seconds_with_error\": %.4g, \"meshopt_frame0_seconds\": %.4g, "
           "\"meshopt_flip_tests_seconds\": %.4g}",
           key, (unsigned long)s->triangles, s->ours, s->ours_measured, s->meshopt, s->flips);
}

/* A fan of n triangles around one vertex (one frame): the centre and n + 1
 * vertices along six radians of a circle, every other one raised, as
 * md2_write() writes it; NULL on failure. The worst case of a per-vertex
 * simplifier: the centre has n neighbours. */
static unsigned char *fan_model(size_t n, size_t *size)
{
    md2_vertex *v = (md2_vertex *)calloc(n + 2, sizeof *v);
    md2_triangle *t = (md2_triangle *)calloc(n, sizeof *t);
    md2_texcoord st = {0, 0};
    md2_frame fr;
    unsigned char *data = NULL;
    if (v && t && n + 2 <= 65536) {
        size_t i;
        memset(&fr, 0, sizeof fr);
        v[0].v[0] = v[0].v[1] = 128;
        v[0].v[2] = 200;
        for (i = 0; i <= n; i++) {
            double a = 6.0 * (double)i / (double)n;
            v[i + 1].v[0] = (uint8_t)(128.0 + 120.0 * cos(a));
            v[i + 1].v[1] = (uint8_t)(128.0 + 120.0 * sin(a));
            v[i + 1].v[2] = (uint8_t)(i % 2 ? 40 : 0);
        }
        for (i = 0; i < n; i++) {
            t[i].vertex[1] = (uint16_t)(i + 1);
            t[i].vertex[2] = (uint16_t)(i + 2);
        }
        fr.scale[0] = fr.scale[1] = fr.scale[2] = 1.0f;
        strcpy(fr.name, "fan");
        fr.vertices = v;
        data = md2_bench_write(&fr, 1, n + 2, &st, 1, t, n, size);
    }
    free(v);
    free(t);
    return data;
}

/* md2_simplify() of fans of 8000 and 32000 triangles to half of them,
 * with its error measure, taken in turn for about budget seconds (so that
 * both see the same load), the fastest of each into t[0], t[1]; -1 on
 * failure. */
static void bench_fans(double budget, double *t)
{
    size_t n[2] = {8000, 32000}, size[2] = {0, 0}, i;
    unsigned char *data[2] = {NULL, NULL};
    md2_model *m[2] = {NULL, NULL};
    md2_simplify_target tg;
    double t_end;
    memset(&tg, 0, sizeof tg);
    tg.kind = MD2_SIMPLIFY_RATIO;
    tg.value = 0.5;
    t[0] = t[1] = -1.0;
    for (i = 0; i < 2; i++) {
        data[i] = fan_model(n[i], &size[i]);
        if (!data[i] || md2_parse(data[i], size[i], NULL, &m[i]) != MD2_OK)
            goto done;
    }
    t_end = now() + budget;
    do {
        for (i = 0; i < 2; i++) {
            md2_lod lod;
            double t0 = now(), dt;
            if (md2_simplify(m[i], &tg, 1, NULL, &lod) != MD2_OK)
                goto done;
            md2_lod_free(&lod);
            dt = now() - t0;
            if (t[i] < 0.0 || dt < t[i])
                t[i] = dt;
        }
    } while (now() < t_end);
done:
    for (i = 0; i < 2; i++) {
        md2_free(m[i]);
        free(data[i]);
    }
}

/* ------------------------------------------------------------------------ */
/* Wobble (--wobble): the score and the repair                               */
/* ------------------------------------------------------------------------ */

/* Largest and mean distance between the frames of a and b (decoded), or of
 * a and the source floats src (b NULL) */
static void wobble_distance(const md2_model *a, const md2_model *b, const float *src,
                            double *mean, double *largest)
{
    size_t n = a->num_vertices, i;
    float *pa = (float *)malloc(n * 3 * sizeof(float)), *pb = (float *)malloc(n * 3 * sizeof(float));
    uint32_t f;
    *mean = 0.0;
    *largest = 0.0;
    if (!pa || !pb) {
        free(pa);
        free(pb);
        *mean = *largest = -1.0;
        return;
    }
    for (f = 0; f < a->num_frames; f++) {
        md2_decode_frame(a, f, pa, 0, NULL, 0);
        if (b)
            md2_decode_frame(b, f, pb, 0, NULL, 0);
        else
            memcpy(pb, src + (size_t)f * n * 3, n * 3 * sizeof(float));
        for (i = 0; i < n; i++) {
            double d = 0.0;
            int k;
            for (k = 0; k < 3; k++)
                d += ((double)pa[3 * i + k] - pb[3 * i + k]) * ((double)pa[3 * i + k] - pb[3 * i + k]);
            d = sqrt(d);
            *mean += d;
            if (d > *largest)
                *largest = d;
        }
    }
    *mean /= (double)(n * a->num_frames);
    free(pa);
    free(pb);
}

/* One row of the table: m's score, its repair's and what the repair
 * moved (and, with src, both models' error against the source floats).
 * 0 if the repair moved nothing further than half a step of the old grid
 * plus half a step of the new one. */
static int wobble_row(const char *label, const md2_model *m, const float *src)
{
    md2_model *fixed = NULL;
    md2_build_options o;
    size_t before = 0, after = 0, f;
    double mean, largest, bound = 0.0, em = 0.0, el = 0.0, fm = 0.0, fl = 0.0;
    memset(&o, 0, sizeof o);
    o.quantize = MD2_QUANTIZE_STABLE;
    if (md2_wobble_score(m, NULL, &before) != MD2_OK || md2_rebuild(m, &o, &fixed) != MD2_OK ||
        md2_wobble_score(fixed, NULL, &after) != MD2_OK) {
        printf("%-34s (cannot score or repair it)\n", label);
        md2_free(fixed);
        return 1;
    }
    wobble_distance(fixed, m, NULL, &mean, &largest);
    for (f = 0; f < m->num_frames; f++) { /* half an old step plus half a new one, per axis */
        int k;
        double b2 = 0.0;
        for (k = 0; k < 3; k++) {
            double h = 0.5 * (fabs((double)m->frames[f].scale[k]) + fabs((double)fixed->frames[f].scale[k]));
            b2 += h * h;
        }
        if (sqrt(b2) > bound)
            bound = sqrt(b2);
    }
    printf("%-34s %6lu %6lu %9lu %9lu %10.5f %10.5f", label, (unsigned long)m->num_vertices,
           (unsigned long)m->num_frames, (unsigned long)before, (unsigned long)after, mean, largest);
    if (src) {
        wobble_distance(m, NULL, src, &em, &el);
        wobble_distance(fixed, NULL, src, &fm, &fl);
        printf("  %.5f -> %.5f (largest %.5f -> %.5f)", em, fm, el, fl);
    }
    printf("\n");
    md2_free(fixed);
    return largest > bound * (1.0 + 1e-6);
}

/* A generated source: a grid of 20 x 20 vertices (its triangles), 40
 * frames; swing: the half at x < 0 still, the other half turning about the
 * z axis through x = 0; hop: the whole grid moved forward and up and down */
#define WG 20
#define WF 40
static float *wobble_source(int hop, md2_build_input *in, uint32_t *tris, int16_t *texel)
{
    float *pos = (float *)malloc((size_t)WG * WG * WF * 3 * sizeof(float));
    size_t t = 0;
    int f, r, c;
    if (!pos)
        return NULL;
    for (f = 0; f < WF; f++) {
        double a = 0.5 * sin(6.28318530718 * f / WF), u = (double)f / (WF - 1);
        for (r = 0; r < WG; r++)
            for (c = 0; c < WG; c++) {
                float *p = pos + 3 * ((size_t)f * WG * WG + (size_t)r * WG + (size_t)c);
                double x = (c - WG / 2 + 0.5) * 0.1, y = r * 0.1, z = 0.05 * sin(r + 2.0 * c);
                if (hop) {
                    p[0] = (float)x + (float)(2.0 * u);
                    p[1] = (float)y;
                    p[2] = (float)z + (float)(4.0 * u * (1.0 - u));
                } else if (x < 0.0) {
                    p[0] = (float)x, p[1] = (float)y, p[2] = (float)z;
                } else {
                    p[0] = (float)(x * cos(a) - z * sin(a));
                    p[1] = (float)y;
                    p[2] = (float)(x * sin(a) + z * cos(a));
                }
            }
    }
    for (r = 0; r + 1 < WG; r++)
        for (c = 0; c + 1 < WG; c++) {
            uint32_t v = (uint32_t)(r * WG + c);
            const uint32_t q[6] = {0, 0, 1, 0, WG, 0}, q2[6] = {1, 0, WG + 1, 0, WG, 0};
            int k;
            for (k = 0; k < 6; k += 2) {
                tris[6 * t + (size_t)k] = v + q[k];
                tris[6 * t + 6 + (size_t)k] = v + q2[k];
                tris[6 * t + (size_t)k + 1] = 0;
                tris[6 * t + 6 + (size_t)k + 1] = 0;
            }
            t += 2;
        }
    memset(in, 0, sizeof *in);
    in->num_frames = WF;
    in->num_vertices = WG * WG;
    in->positions = pos;
    in->num_triangles = t;
    in->triangles = tris;
    in->num_texcoords = 1;
    texel[0] = texel[1] = 0;
    in->texels = texel;
    in->skin_width = in->skin_height = 64;
    return pos;
}

/* md2_bench --wobble [MODEL.md2...]: the table of docs/builder.md */
static int wobble_table(int count, char **paths, const unsigned char *big, size_t big_size)
{
    static uint32_t tris[6 * 2 * (WG - 1) * (WG - 1)];
    int16_t texel[2];
    md2_build_input in;
    md2_model *m = NULL;
    int i, bad = 0, hop;
    printf("%-34s %6s %6s %9s %9s %10s %10s  %s\n", "model", "verts", "frames", "wobble",
           "repaired", "moved mean", "largest", "error vs source: before -> after");
    for (i = 0; i < count; i++) {
        size_t size;
        unsigned char *data = read_file(paths[i], &size);
        const char *name = strrchr(paths[i], '/') ? strrchr(paths[i], '/') + 1 : paths[i];
        if (!data || md2_parse(data, size, NULL, &m) != MD2_OK) {
            printf("%-34s (cannot read it)\n", name);
            bad = 1;
        } else {
            bad |= wobble_row(name, m, NULL);
        }
        md2_free(m);
        m = NULL;
        free(data);
    }
    if (md2_parse(big, big_size, NULL, &m) == MD2_OK)
        bad |= wobble_row("generated 1480 x 1007 (md2_bench)", m, NULL);
    md2_free(m);
    for (hop = 0; hop < 2; hop++) {
        float *pos = wobble_source(hop, &in, tris, texel);
        int q;
        for (q = 0; pos && q < 3; q++) {
            static const md2_quantize kinds[3] = {MD2_QUANTIZE_PER_FRAME, MD2_QUANTIZE_SHARED,
                                                  MD2_QUANTIZE_STABLE};
            static const char *const names[2][3] = {
                {"swing, per-frame boxes", "swing, shared box", "swing, stable grids"},
                {"hop, per-frame boxes", "hop, shared box", "hop, stable grids"}};
            md2_build_options o;
            memset(&o, 0, sizeof o);
            o.quantize = kinds[q];
            m = NULL;
            if (md2_build(&in, &o, &m) == MD2_OK)
                bad |= wobble_row(names[hop][q], m, pos);
            else
                bad = 1;
            md2_free(m);
        }
        free(pos);
    }
    printf("(wobble: md2_wobble_score(); repaired: md2 import X.md2 --quantize stable, "
           "md2_rebuild() with MD2_QUANTIZE_STABLE; moved: how far the repair moved vertices, "
           "mean and largest, in units)\n");
    return bad;
}

/* The rows measured after the two models' reports. */
typedef struct extra_rows {
    double t_big;                   /* the 65000-triangle mesh build, s (below 0: failed) */
    size_t big_welded;              /* its welded vertices */
    nearest_result nearest;         /* md2_normal_nearest against the brute force */
    simplify_result simp, simp_big; /* md2_simplify of the model and of the generated one */
    double fan_small, fan_large;    /* md2_simplify of the fans of 8000 and 32000 triangles, s */
    double t_export, t_import;      /* the md2 command's round trip, s (below 0: not run) */
} extra_rows;

/* Measures the extra rows on the model (data) and the generated one (big);
 * quick: one run of the round trip, not 3. */
static void bench_extras(const unsigned char *data, size_t size, const unsigned char *big,
                         size_t big_size, double budget, int quick, extra_rows *x)
{
    double fans[2];
    x->t_export = x->t_import = -1.0;
    x->big_welded = 0;
    x->t_big = time_big_mesh(65000, &x->big_welded);
    x->nearest = bench_nearest(budget);
    x->simp = bench_simplify(data, size, budget);
    x->simp_big = bench_simplify(big, big_size, budget);
    bench_fans(10.0 * budget, fans); /* more samples: the ratio of the two matters */
    x->fan_small = fans[0];
    x->fan_large = fans[1];
#ifdef BENCH_TOOL
    if (!bench_round_trip(big, big_size, quick ? 1 : 3, &x->t_export, &x->t_import))
        x->t_export = x->t_import = -1.0;
#else
    (void)quick;
#endif
}

/* The JSON object of --json but its last key ("ok", printed once all ran
 * and was freed): the two models' reports, then the extra rows. */
static void print_json(const report *reports, double budget, const extra_rows *x)
{
    printf("{\"libmd2\": \"%s\", \"simd\": \"%s\", \"seconds_per_measurement\": %g,\n"
           " \"models\": [\n  ",
           md2_version_string(), cpu_simd(), budget);
    json_report(&reports[0]);
    printf(",\n  ");
    json_report(&reports[1]);
    printf("],\n \"mesh_build_65000_triangles_seconds\": %.4g", x->t_big);
    printf(",\n \"normal_nearest\": {\"directions_per_second\": %.4g, "
           "\"brute_force_per_second\": %.4g, \"vs_naive\": %.3g, \"same\": %s}",
           x->nearest.lib, x->nearest.brute, x->nearest.lib / x->nearest.brute,
           x->nearest.same ? "true" : "false");
    json_simplify("simplify_half", &x->simp);
    json_simplify("simplify_half_generated", &x->simp_big);
    printf(",\n \"simplify_fan\": {\"triangles_8000_seconds\": %.4g, "
           "\"triangles_32000_seconds\": %.4g}",
           x->fan_small, x->fan_large);
    if (x->t_export > 0)
        printf(",\n \"tool_round_trip\": {\"export_glb_seconds\": %.4g, "
               "\"import_glb_seconds\": %.4g, \"import_vs_export\": %.3g}",
               x->t_export, x->t_import, x->t_import / x->t_export);
}

/* The extra rows as text, after the reports; path names the model. */
static void print_extras(const char *path, const extra_rows *x)
{
    if (x->t_big >= 0.0)
        printf("mesh build of a synthetic 65000-triangle model (%lu welded vertices): %.1f ms\n",
               (unsigned long)x->big_welded, x->t_big * 1e3);
    printf("md2_normal_nearest: %.1f M directions/s; the brute force over 162 normals "
           "%.1f M/s: %.1fx (one thread, %d random directions, answers %s)\n",
           x->nearest.lib * 1e-6, x->nearest.brute * 1e-6, x->nearest.lib / x->nearest.brute,
           NEAREST_DIRS, x->nearest.same ? "equal" : "differ");
    print_simplify(path, &x->simp);
    print_simplify("the generated model", &x->simp_big);
    printf("md2_simplify of a fan of 8000 triangles around one vertex to half of them, with "
           "its error measure: %.3f s; of 32000: %.3f s (%.1f times)\n",
           x->fan_small, x->fan_large, x->fan_small > 0.0 ? x->fan_large / x->fan_small : 0.0);
    if (x->t_export > 0)
        printf("md2 export of the generated model to .glb: %.3f s; md2 import of that .glb: "
               "%.3f s: %.2fx the export\n",
               x->t_export, x->t_import, x->t_import / x->t_export);
}

/* The command line: sets *path (NULL if none given), *json, *quick and
 * *wobble (the index of --wobble's first model; 0 without --wobble).
 * Returns -1 to go on, else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, const char **path, int *json, int *quick,
                      int *wobble)
{
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            *json = 1;
        } else if (strcmp(argv[i], "--quick") == 0) {
            *quick = 1;
        } else if (strcmp(argv[i], "--wobble") == 0) {
            *wobble = i + 1; /* the rest are models */
            break;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: md2_bench [--quick] [--json] [MODEL.md2]\n"
                   "       md2_bench --wobble [MODEL.md2...]\n"
                   "Times md2_parse, md2_lerp, md2_mesh_lerp and md2_write against memcpy of\n"
                   "the same bytes and against plain C loops, on the model (default: %s)\n"
                   "and on a generated 1480-vertex, 1007-frame model (about 10 s; --quick:\n"
                   "about 1 s), then, built beside the md2 command, its export of that model\n"
                   "to .glb and import of the .glb (3 runs each; --quick: 1) and their ratio.\n"
                   "--json prints one JSON object. --wobble prints the wobble\n"
                   "table of docs/builder.md for the models and generated ones (exit 1 if a\n"
                   "repair moved a vertex too far).\n",
                   DEFAULT_MODEL);
            return 0;
        } else if (argv[i][0] == '-' || *path) {
            fprintf(stderr, "usage: md2_bench [--quick] [--json] [MODEL.md2]\n");
            return 2;
        } else {
            *path = argv[i];
        }
    }
    return -1;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    double budget = 0.2;
    int json = 0, quick = 0, rc = 1, wobble = 0;
    unsigned char *data = NULL, *big = NULL;
    size_t size = 0, big_size = 0;
    extra_rows x;
    report *reports = (report *)calloc(2, sizeof(report));

    rc = parse_args(argc, argv, &path, &json, &quick, &wobble);
    if (rc >= 0) {
        free(reports);
        return rc;
    }
    rc = 1;
    if (wobble) {
        big = md2_bench_big_model(&big_size);
        rc = big ? wobble_table(argc - wobble, argv + wobble, big, big_size) : 1;
        free(big);
        free(reports);
        return rc;
    }
    if (!path)
        path = DEFAULT_MODEL;
    if (quick)
        budget = 0.02;
    if (!reports) {
        fprintf(stderr, "md2_bench: out of memory\n");
        return 1;
    }
    data = read_file(path, &size);
    if (!data) {
        fprintf(stderr, "md2_bench: cannot read %s\n", path);
        goto done;
    }
    big = md2_bench_big_model(&big_size);
    if (!big) {
        fprintf(stderr, "md2_bench: cannot make the generated model\n");
        goto done;
    }
    if (!json)
        printf("md2_bench: libmd2 %s, %s, %s per measurement (fastest sample)\n\n",
               md2_version_string(), cpu_simd(), quick ? "0.02 s" : "0.2 s");
    if (bench_model(path, data, size, budget, &reports[0]) != 0)
        goto done;
    if (!json)
        print_report(&reports[0]);
    if (bench_model("generated 1480 x 1007", big, big_size, budget, &reports[1]) != 0)
        goto done;
    if (!json)
        print_report(&reports[1]);
    bench_extras(data, size, big, big_size, budget, quick, &x);
    if (json)
        print_json(reports, budget, &x);
    else
        print_extras(path, &x);
    rc = 0;
done:
    free(data);
    free(big);
    free(reports);
    if (json && rc == 0) /* the last key: everything ran and was freed */
        printf(",\n \"ok\": true}\n");
    return rc;
}
