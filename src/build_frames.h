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
