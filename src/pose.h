/*
 * Pose kernels (internal): decode keyframe vertices and blend two of them
 * into caller buffers, for md2_lerp(), md2_mesh_lerp() and their relatives.
 *
 * One job describes a whole call: the keyframes, their per-frame constants
 * (read once, so nothing in the vertex loop reloads them), the vertices to
 * write (every model vertex, or a mesh's source_vertex gather), and where
 * each attribute goes. A kernel runs it; there is one kernel per
 * instruction set (scalar C, SSE2, AVX2, NEON), and md2__pose_kernel()
 * picks the best one the CPU has, at each call (no global state).
 *
 * Every kernel gives the scalar kernel's bits, on every input: the same
 * IEEE single-precision operations in the same order, one rounding each,
 * never fused (see pose_kernels.c). The scalar kernel is the reference and
 * the only one on hosts without SIMD code (s390x, x87).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_POSE_H
#define MD2_POSE_H

#include "internal.h"
#include "md2/mesh.h"

typedef struct md2__pose_job {
    const md2_vertex *va;  /* keyframe a's vertices (the keyframe, if key) */
    const md2_vertex *vb;  /* keyframe b's vertices (unused if key) */
    float sa[4], ta[4];    /* a's scale and translate; [3] is 0 */
    float sb[4], tb[4];    /* b's */
    float wa, wb;          /* 1 - t and t */
    int key;               /* 1: decode va alone (t = 0, t = 1 or a == b) */
    const uint32_t *index; /* output vertex i is model vertex index[i]; NULL: i */
    size_t count;          /* output vertices */
    size_t model_vertices; /* with index: the frames' vertex count (0: not known) */
    /* Outputs: attribute of vertex i at ptr + i * stride (strides in
     * floats, at least 3, or 2 for uv). nrm and uv may be NULL. */
    float *pos;
    size_t pos_stride;
    float *nrm;
    size_t nrm_stride;
    float *uv;             /* mesh: u, v of vertex i from uv_src[2 i] */
    size_t uv_stride;
    const float *uv_src;
    unsigned flags;        /* MD2_LAYOUT_Y_UP, _UNIT_NORMALS, _FLIP_V */
} md2__pose_job;

typedef void (*md2__pose_fn)(const md2__pose_job *job);

/* Fills the keyframe part of job for keyframes fa, fb at t (0 <= t <= 1)
 * and clears the rest (no index, no outputs, no flags). */
void md2__pose_setup(md2__pose_job *job, const md2_frame *fa, const md2_frame *fb, float t);

/* The best kernel for this CPU (checked at each call: no global state). */
md2__pose_fn md2__pose_kernel(void);

/* Runs job with the best kernel. */
void md2__pose_run(const md2__pose_job *job);

/* A kernel by name ("scalar", "sse2", "avx2", "neon"), or NULL when this
 * build or this CPU has not got it (for the tests). */
md2__pose_fn md2__pose_kernel_named(const char *name);

/* The reference kernel. */
void md2__pose_scalar(const md2__pose_job *job);

/* The normal table padded to 4 floats an entry ([3] = 0) and to 256
 * entries: entries 162 to 255 are MD2_NORMAL_FALLBACK's, so any index byte
 * reads md2_normal(index) without a test. Bit-identical to md2_normal()
 * (test_kernels checks it). */
extern const float md2__normals4[256][4];

#endif /* MD2_POSE_H */
