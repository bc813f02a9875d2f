/*
 * GL command strips and fans for a triangle list (internal; tier 2 of the
 * private headers, see diag.h): what md2_build() and md2_rebuild() write
 * into a model's GL command list (strips.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_STRIPS_H
#define MD2_STRIPS_H

#include "format.h"

/* Makes the GL command list of num_triangles triangles (vertex indices
 * below num_vertices, texcoord indices below num_texcoords, all checked by
 * the caller), whose texcoords are st in skin pixels of a skin_width x
 * skin_height skin (both at least 1): strips and fans that cover every
 * triangle exactly once in MD2's winding, each vertex with the float
 * texcoords s / skin_width, t / skin_height of its corner, then the 0 word
 * that ends the list. Two triangles continue one strip or fan across an
 * edge only when its corners have the same vertex and the same texcoord
 * values (values, not indices). Degenerate triangles are drawn too; one
 * with two equal corners (vertex and texcoord values) is a strip of its
 * own. The words, *num_words of them, are in one allocation of a at *words
 * (free it with a.free); md2_parse() in strict mode accepts them. The same
 * input gives the same words on every host; the work is O(n) expected.
 * Returns MD2_OK, MD2_ERR_OUT_OF_MEMORY (also for more than 2^28
 * triangles) or MD2_ERR_INVALID_ARGUMENT (words, num_words, a.alloc or
 * a.free NULL, triangles or st NULL with triangles to make, an index out
 * of range); on failure nothing is allocated and *words is NULL. */
md2_result md2__strips_build(const md2_triangle *triangles, size_t num_triangles,
                             const md2_texcoord *st, size_t num_texcoords,
                             size_t num_vertices, uint32_t skin_width, uint32_t skin_height,
                             md2_allocator a, int32_t **words, size_t *num_words);

#endif /* MD2_STRIPS_H */
