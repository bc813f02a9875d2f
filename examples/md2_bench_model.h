/*
 * The generated model md2_bench measures beside the one it is given, also
 * written by tests/web/web_native.c for the browser benchmark
 * (examples/web/bench.html), so that both measure the same bytes.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_BENCH_MODEL_H
#define MD2_BENCH_MODEL_H

#include <md2/md2.h>

#include <stddef.h>
#include <stdint.h>

/* Its size: a 40 x 37 grid of vertices, 1007 frames. */
#define BIG_COLUMNS 40
#define BIG_ROWS 37 /* 40 * 37 = 1480 vertices */
#define BIG_FRAMES 1007

/* The next number of a linear congruential sequence in *s (24 bits). */
uint32_t md2_bench_lcg(uint32_t *s);

/* md2_write()'s bytes (malloc'd) of a model of these parts, with a skin of
 * 256 x 256 and no skin names or GL commands, its size in *size; NULL on
 * failure. */
unsigned char *md2_bench_write(const md2_frame *frames, size_t num_frames, size_t num_vertices,
                               const md2_texcoord *st, size_t num_texcoords,
                               const md2_triangle *tris, size_t num_triangles, size_t *size);

/* The bytes of the generated model (malloc'd), its size in *size; NULL on failure. */
unsigned char *md2_bench_big_model(size_t *size);

/* A copy (malloc'd) of the size bytes of an MD2 file at data in which every
 * vertex of every frame has the normal index of the first vertex of frame 0,
 * but for the last vertex of the last frame when last_differs: that one has
 * the next index (161 wraps to 0). NULL if md2_parse() refuses the file or
 * the copy cannot be allocated. */
unsigned char *md2_bench_same_normals(const unsigned char *data, size_t size, int last_differs);

#endif
