/*
 * What the tests of <md2/simplify.h> share (lod_util.c): the generated
 * bending shapes, and an independent measure of a simplified model's error
 * (brute force in double: every source vertex against every triangle, in
 * every frame, a triangle passed over only where its bounding ball is
 * farther than the nearest triangle found: exact), so that the library's own measure is checked against code
 * that does not share its grid, its float rounding or its search.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_LOD_UTIL_H
#define MD2_LOD_UTIL_H

#include <md2/md2.h>

#include <stddef.h>
#include <stdint.h>

/* A cylinder of `sides` x `rings` quads (closed around, open at both ends,
 * a texture seam where u = 0 meets u = 1) that bends from straight in
 * frame 0 to a quarter circle in the last of `frames`. Built with
 * md2_build(); NULL if that fails. Free with md2_free(). */
md2_model *lod_cylinder(size_t sides, size_t rings, size_t frames);

/* An n x n grid of quads, a plane waving through `frames` frames, whose
 * texcoords come in two charts (left and right half, apart in the skin): a
 * seam down the middle column. */
md2_model *lod_plane(size_t n, size_t frames);

/* The largest and mean distance, over every frame and every vertex of the
 * source's triangles with three distinct vertices, from the vertex to the
 * nearest of the num_tris triangles tris (3 source vertex indices each) in
 * that frame. */
void lod_brute_error(const md2_model *src, const uint32_t *tris, size_t num_tris,
                     double *max_error, double *mean_error);

/* How many of the num_tris triangles tris (3 source vertex indices each)
 * face away from their source triangle (sources[i], a triangle of src) in
 * some frame of src: the dot product of the two normals, in double, is
 * negative. */
size_t lod_flipped(const md2_model *src, const uint32_t *tris, const uint32_t *sources,
                   size_t num_tris);

/* A fan of n triangles around one vertex (one frame, made by hand in one
 * block: free() it): the centre raised, the other n + 1 vertices along six
 * radians of a circle, every other one raised: a vertex of valence n. NULL
 * if n + 2 vertices do not fit in MD2's 16-bit indices or memory runs
 * out. */
md2_model *lod_fan(size_t n);

/* 1 if source vertex v has texcoord value st at some corner of src. */
int lod_has_texcoord(const md2_model *src, uint32_t v, md2_texcoord st);

/* The corpus model name (from MD2_SHARED_DIR/corpus), or NULL when the
 * file cannot be read (the shared corpus is absent: tests then skip); a
 * file that is there but does not load aborts. Free it with md2_free(). */
md2_model *lod_corpus_model(const char *name);

/* A view of src with every step-th of its frames, at most max of them
 * (frames holds max entries): a hand-made model, not to be freed. */
void lod_some_frames(const md2_model *src, size_t step, size_t max, md2_frame *frames,
                     md2_model *out);

#endif /* MD2_LOD_UTIL_H */
