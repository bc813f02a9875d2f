/*
 * Tier 3 of the private headers (see diag.h): pose jobs. Every call that
 * writes a pose (md2_lerp, md2_decode_frame, md2_player_pose and its
 * _linked twin, md2_mesh_lerp, md2_mesh_pose, md2_mesh_morph_floats) fills
 * one job and runs it: one output stage for all of them (not installed).
 *
 * A job describes a whole pose: up to four keyframes with their weights
 * (one pair blended at t, and during a cross-fade a second pair blended
 * with the first), their per-frame constants (read once, so nothing in the
 * vertex loop reloads them), the vertices to write (the model's, or a
 * mesh's source_vertex gather), where each attribute goes (pointers and
 * strides), the output flags and the rows to write. A kernel runs it;
 * there is the scalar kernel (the reference, and the only one on hosts
 * without SIMD code or with MD2_SIMD off) and one per instruction set that
 * pays (pose_kernels.c), and md2__pose_run() picks the best one the CPU
 * has, at each call (no global state).
 *
 * Every kernel gives the scalar kernel's bits, on every input: the same
 * IEEE single-precision operations in the same order, one rounding each,
 * never fused. A vertex of pair (a, b) at t is wa * (sa * va + ta) +
 * wb * (sb * vb + tb) with wa = 1 - t, wb = t, or a keyframe's decode
 * alone (t = 0, t = 1, a == b); a cross-fade is w_from * from + w_cur *
 * cur, of positions and of the blended (not yet normalised) normals.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_POSE_H
#define MD2_POSE_H

#include "format.h"
#include "round.h"

/* Output flags of a job: the values of <md2/mesh.h>'s MD2_LAYOUT_* (mesh.c
 * checks that they agree). */
#define MD2__POSE_UNIT_NORMALS 1u /* normals scaled to unit length */
#define MD2__POSE_Y_UP 2u         /* (x, z, -y) */
#define MD2__POSE_FLIP_V 4u       /* 1 - v */

/* Two keyframes blended at t. */
typedef struct md2__pose_pair {
    const md2_vertex *va;  /* keyframe a's vertices (the keyframe, if key) */
    const md2_vertex *vb;  /* keyframe b's vertices (unused if key) */
    float sa[4], ta[4];    /* a's scale and translate; [3] is 0 */
    float sb[4], tb[4];    /* b's */
    float wa, wb;          /* 1 - t and t */
    int key;               /* 1: decode va alone (t = 0, t = 1 or a == b) */
} md2__pose_pair;

typedef struct md2__pose_job {
    md2__pose_pair cur;    /* the pose shown (the incoming one in a fade) */
    md2__pose_pair from;   /* fade: the outgoing pose */
    float w_from, w_cur;   /* fade: 1 - weight and weight */
    int fade;              /* 1: blend from and cur; 0: cur alone */
    const uint32_t *index; /* output row i is model vertex index[i]; NULL: i */
    size_t begin, end;     /* the rows to write: [begin, end) */
    size_t model_vertices; /* with index: the frames' vertex count (0: not known) */
    /* Outputs: attribute of row i at ptr + i * stride (strides in floats,
     * at least 3, or 2 for uv). nrm and uv may be NULL. */
    float *pos;
    size_t pos_stride;
    float *nrm;
    size_t nrm_stride;
    float *uv;             /* mesh: u, v of row i from uv_src[2 i] */
    size_t uv_stride;
    const float *uv_src;
    unsigned flags;        /* MD2__POSE_* */
} md2__pose_job;

typedef void (*md2__pose_fn)(const md2__pose_job *job);

/* Clears job (no rows, no outputs, no flags, no fade) and sets its pose to
 * keyframes fa, fb at t (0 <= t <= 1). */
void md2__pose_setup(md2__pose_job *job, const md2_frame *fa, const md2_frame *fb, float t);

/* Makes job a cross-fade: keyframes fa, fb at t (the outgoing pose) blended
 * with the pose set up before, which weighs weight (0 <= weight < 1). */
void md2__pose_fade(md2__pose_job *job, const md2_frame *fa, const md2_frame *fb, float t,
                    float weight);

/* Points job at count rows of packed or strided positions and (if not
 * NULL) normals, strides in floats (md2__stride_floats()), and runs it:
 * the output stage of md2_lerp() and the player poses. */
void md2__pose_write(md2__pose_job *job, size_t count, float *positions, size_t ps,
                     float *normals, size_t ns);

/* Runs job with the best kernel for this CPU (checked at each call: no
 * global state). */
void md2__pose_run(const md2__pose_job *job);

/* A kernel by name ("scalar", "sse2", "avx2", "neon"), or NULL when this
 * build or this CPU has not got it (for the tests and the benchmark). */
md2__pose_fn md2__pose_kernel_named(const char *name);

/* The reference kernel. */
void md2__pose_scalar(const md2__pose_job *job);

/* The normal table padded to 4 floats an entry ([3] = 0) and to 256
 * entries: entries 162 to 255 are MD2_NORMAL_FALLBACK's, so any index byte
 * reads a normal without a test. normals.c lays it out from the same data
 * list as md2_normal()'s 162 x 3 array. */
extern const float md2__normals4[256][4];

/* Scales n to unit length, or sets it to md2_normal(MD2_NORMAL_FALLBACK)
 * if it is (nearly) zero: the scalar kernel's normalisation. */
void md2__unit_normal(float n[3]);

/* A byte stride (0 = packed) in floats, or 0 if it is not allowed. */
size_t md2__stride_floats(size_t stride);

/* MD2_OK, MD2_ERR_FRAME_RANGE or (a frame without vertices) INVALID_ARGUMENT */
md2_result md2__check_frame(const md2_model *m, uint32_t frame);

/* The checks of md2_lerp() on its frames and t: MD2_OK, MD2_ERR_FRAME_RANGE,
 * or MD2_ERR_INVALID_ARGUMENT (t not in [0,1], a frame without vertices). */
md2_result md2__check_pair(const md2_model *m, uint32_t frame_a, uint32_t frame_b, float t);

/* The box of keyframes (a, b) at t, checked: the keyframe boxes blended as
 * the vertices are, so it holds the pose on every host. */
md2_result md2__pair_bounds(const md2_model *m, uint32_t a, uint32_t b, float t,
                            float min[3], float max[3]);

#endif /* MD2_POSE_H */
