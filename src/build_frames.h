/*
 * The builder's frame work (internal; tier 2 of the private headers, see
 * diag.h): boxes and their frame transforms, quantisation that rounds to
 * the nearest decoded value, and normals, given or smooth (build_frames.c).
 * md2_build() and md2_rebuild() (build.c) call these on checked input.
 *
 * Positions and normals are rows of 3 floats: row i at
 * (const char *)base + i * stride. All float arithmetic rounds every
 * operation to float on every host (round.h), so the results are the same
 * bits everywhere.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_BUILD_FRAMES_H
#define MD2_BUILD_FRAMES_H

#include "format.h"

/* Widens the box lo..hi (3 floats each) by n rows of positions. Start a
 * box with md2__box_empty(). */
void md2__box_empty(float lo[3], float hi[3]);
void md2__box_add(const float *pos, size_t stride, size_t n, float lo[3], float hi[3]);

/* The frame transform of the box lo..hi (finite, lo <= hi, within
 * MD2_BUILD_MAX_COORD): translate = lo, scale = (hi - lo) / 255, each axis
 * in float; an axis of zero extent gets scale 0 and decodes exactly. */
void md2__box_transform(const float lo[3], const float hi[3], float scale[3],
                        float translate[3]);

/* Writes out[i].v for n rows of positions: on each axis the step v in
 * 0..255 whose decoded value scale * v + translate (rounded as
 * md2_decode_frame() rounds it) is nearest to the position; of two as
 * near, the lower. out[i].normal is left alone. */
void md2__quantize(const float *pos, size_t stride, size_t n, const float scale[3],
                   const float translate[3], md2_vertex *out);

/* The stable grids (MD2_QUANTIZE_STABLE) of one animation: frames
 * [first, first + count) of positions (row i of frame f at pos + f *
 * fstride + i * vstride, n rows a frame) into frames[f]: scale, translate
 * and every vertex's v (normals left alone). On each axis, one step
 * S * 2^e (S an integer below 2^16) for the animation, at least the
 * largest extent of a frame / 254, and each frame's translate T * 2^e on
 * the lattice of that step, the multiple of the step at or below the
 * frame's least coordinate, so that every decode, (S * v + T) * 2^e, is
 * exact in float: a position held in two frames decodes to the same bits.
 * A frame that is its predecessor's reference frame moved by d (every
 * vertex within a few float roundings) gets that frame's translate moved
 * by d rounded to 2^e and that frame's bytes: the same shape, moved (on an
 * axis whose S is 1024 or more: the rounding below 1/2048 of a step). An
 * axis that no lattice within float's 24 bits reaches (coordinates of
 * more than about 2^8 steps at the step's finest), or whose one box for
 * the animation has the finer step, gets that box for every frame. An
 * axis flat in every frame keeps scale 0 and translate the frame's
 * coordinate. scratch: md2__stable_scratch_size(count) bytes. */
typedef struct md2__stable_frame {
    float lo[3], hi[3];
    size_t ref;       /* the frame this one is a moved copy of (itself: none) */
    long long t[3];   /* translate in units of 2^e */
    int copy[3];      /* the axis' bytes are the reference frame's */
} md2__stable_frame;

size_t md2__stable_scratch_size(size_t count);
void md2__quantize_stable(const float *pos, size_t vstride, size_t fstride, size_t n,
                          size_t first, size_t count, void *scratch, md2_frame *frames);

/* Movement in whole steps of n vertices from a (row i at a + 3 * i) to b
 * with steps h (the larger scale of the two frames on each axis):
 * state[i] 0 (still), 1 (one step) or 2 (more); busy[i] 1 when a vertex
 * that shares one of the triangles with it does not hold still. */
void md2__wobble_states(const float *a, const float *b, size_t n, const float h[3],
                        const md2_triangle *tris, size_t num_tris, unsigned char *state,
                        unsigned char *busy);

/* out[i].normal = md2_normal_nearest() of row i of n given normals. */
void md2__normals_given(const float *nrm, size_t stride, size_t n, md2_vertex *out);

/* Scratch bytes md2__normals_smooth() needs for n vertices (n at most
 * MD2_MAX_INDEXABLE), aligned for float as an allocator returns it. */
size_t md2__smooth_scratch_size(size_t n);

/* out[i].normal for n rows of positions: the table normal nearest to the
 * sum of the area-weighted normals of the triangles around vertex i (so
 * smooth across texture seams, which share their vertex; two vertices at
 * one position keep their own). Triangles are in MD2's winding (clockwise
 * seen from the front) with indices below n; a vertex of no triangle, or
 * of degenerate ones only, gets MD2_NORMAL_FALLBACK. */
void md2__normals_smooth(const float *pos, size_t stride, size_t n,
                         const md2_triangle *tris, size_t num_tris, void *scratch,
                         md2_vertex *out);

#endif /* MD2_BUILD_FRAMES_H */
