/*
 * libmd2 - draw-ready meshes: welded vertices, index buffers, poses written
 * straight into interleaved vertex buffers, GPU morph data, back-to-front
 * triangle order and smooth normals with tangents.
 *
 * SPDX-License-Identifier: MIT
 *
 * Overview
 * --------
 * An MD2 triangle corner has a position index (into every frame's
 * vertices) and a separate texcoord index, so a GPU vertex is a (model
 * vertex, texcoord) pair. md2_mesh_build() welds the distinct pairs of the
 * triangle list into one index space, once per model; md2_mesh_lerp() then
 * writes any pose into the caller's vertex buffer in that space, with
 * positions, normals and texcoords where the caller's layout wants them.
 *
 * Conventions (docs/rendering.md has pictures and more):
 *  - Axes: MD2 is Z up, X forward, Y left (right-handed), in Quake units.
 *    MD2_LAYOUT_Y_UP writes (x, z, -y) instead: Y up, still right-handed.
 *  - Winding: Quake II's front faces are the triangles whose corners, in
 *    file order, run clockwise on screen (OpenGL: glFrontFace(GL_CW)).
 *    MD2_MESH_COUNTER_CLOCKWISE reverses every triangle in the index buffer
 *    for APIs whose front faces are counter-clockwise (the OpenGL default,
 *    glTF).
 *  - Texels: u = s / skinwidth, v = t / skinheight, with no half-texel
 *    offset (as Quake II draws them); v = 0 is the top row of the skin
 *    image, as decoded by md2_pcx_decode() and uploaded row 0 first.
 *    MD2_LAYOUT_FLIP_V writes 1 - v for conventions whose v = 0 is the
 *    bottom row (OBJ).
 *
 * Memory: a mesh is one allocation (md2_mesh_build() also uses a
 * temporary table while it welds); everything else writes into caller
 * buffers and never allocates. Thread safety: a built mesh is
 * immutable; any number of threads may pose from one mesh and one model at
 * the same time, each into its own buffer.
 */
#ifndef MD2_MESH_H
#define MD2_MESH_H

#include "animation.h"
#include "md2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Building                                                                  */
/* ------------------------------------------------------------------------ */

/** md2_mesh_options.flags: index triangles counter-clockwise (front faces
 *  counter-clockwise), the reverse of the file's order. */
#define MD2_MESH_COUNTER_CLOCKWISE 1u

/** Options of md2_mesh_build(). Zero-initialise it (or pass NULL): malloc
 *  and free, file winding, no diagnostic. A non-zero reserved_ element is
 *  refused (MD2_ERR_INVALID_ARGUMENT, described in error). */
typedef struct md2_mesh_options {
    md2_allocator allocator;    /**< as in md2_options; zero: malloc/free */
    unsigned flags;             /**< MD2_MESH_* flags */
    md2_diagnostic *error;      /**< if not NULL, filled when the build fails */
    uintptr_t reserved_[6];     /**< must be zero: room for new options (checked: "md2_mesh_options.reserved_[i]") */
} md2_mesh_options;

/** A draw-ready mesh: welded vertices and an index buffer. Read-only; made
 *  by md2_mesh_build(), released by md2_mesh_free(). The functions that
 *  read a mesh refuse one whose reserved_ are not zero (a mesh built by
 *  the library has them zero). */
typedef struct md2_mesh {
    size_t num_vertices;            /**< welded vertices: distinct (vertex, s, t) of the triangles */
    size_t num_indices;             /**< 3 per triangle of the model */
    const uint32_t *indices;        /**< num_indices indices into the welded vertices, triangles in file order */
    const uint16_t *indices16;      /**< the same indices as uint16_t when num_vertices <= 65536, else NULL */
    const uint32_t *source_vertex;  /**< num_vertices: the model vertex of each welded vertex */
    const float *uv;                /**< 2 * num_vertices: u, v of each welded vertex (file convention) */
    size_t num_model_vertices;      /**< the model's num_vertices when the mesh was built */
    unsigned flags;                 /**< the md2_mesh_options flags it was built with */
    md2_allocator allocator_;       /**< private: how the mesh is freed */
    uintptr_t reserved_[4];         /**< zero: room for new fields (written as zero; checked: "md2_mesh.reserved_[i]") */
} md2_mesh;

/** Welds model m's triangle list into a mesh and stores it in *out (the
 *  caller owns it; md2_mesh_free()). The welded vertices are the distinct
 *  (model vertex, s, t) of the triangle corners, in order of first use;
 *  texcoords are compared by value, not by index (some real files repeat
 *  equal texcoords under different indices). Linear time: a hash table of
 *  at most 32 bytes a triangle corner, allocated and freed before the call
 *  returns, then the mesh in one allocation of its exact size (faerie.md2:
 *  17,928 bytes; md2_mesh_memory()). Both come from opts->allocator. A
 *  model without triangles gives an empty mesh. m may be loaded or hand-made (indices must be in range).
 *  Errors (*out NULL, diagnostic in opts->error): MD2_ERR_INVALID_ARGUMENT
 *  (m or out NULL), MD2_ERR_INVALID_MODEL (a triangle index out of range,
 *  more corners than a uint32_t counts), MD2_ERR_OUT_OF_MEMORY.
 *  Thread-safe. */
MD2_API md2_result md2_mesh_build(const md2_model *m, const md2_mesh_options *opts,
                                  md2_mesh **out);

/** Releases a mesh from md2_mesh_build(). NULL is a no-op. */
MD2_API void md2_mesh_free(md2_mesh *mesh);

/** Bytes the mesh occupies (its one allocation); 0 for NULL. */
MD2_API size_t md2_mesh_memory(const md2_mesh *mesh);

/* ------------------------------------------------------------------------ */
/* Poses into interleaved vertex buffers                                     */
/* ------------------------------------------------------------------------ */

/** An offset that leaves an attribute out. */
#define MD2_ATTRIBUTE_NONE ((size_t)-1)

/** md2_vertex_layout.flags: renormalise blended normals (md2_normalize()). */
#define MD2_LAYOUT_UNIT_NORMALS 1u
/** md2_vertex_layout.flags: write Y-up coordinates (x, z, -y), normals too. */
#define MD2_LAYOUT_Y_UP 2u
/** md2_vertex_layout.flags: write v as 1 - t / skinheight. */
#define MD2_LAYOUT_FLIP_V 4u

/** Where a pose goes in the caller's vertex buffer: vertex i starts at
 *  byte i * stride; a position is 3 floats at position_offset, a normal 3
 *  floats at normal_offset, a texcoord 2 floats at uv_offset (each offset
 *  a multiple of 4, the attributes inside the stride and apart from each
 *  other; MD2_ATTRIBUTE_NONE leaves normal or uv out). Bytes of the stride
 *  that no attribute covers are left as they were. md2_layout_default()
 *  gives a ready one; start one of your own from zero: a non-zero
 *  reserved_ element is refused (MD2_ERR_INVALID_ARGUMENT). */
typedef struct md2_vertex_layout {
    size_t stride;
    size_t position_offset;
    size_t normal_offset;
    size_t uv_offset;
    unsigned flags;             /**< MD2_LAYOUT_* flags */
    uintptr_t reserved_[2];     /**< must be zero: room for new fields (checked by every function that takes a layout) */
} md2_vertex_layout;

/** The layout { position, normal, uv } of 32 bytes a vertex (3 + 3 + 2
 *  floats, offsets 0, 12 and 24), with flags. */
MD2_API md2_vertex_layout md2_layout_default(unsigned flags);

/** Writes the pose between keyframes frame_a and frame_b at t (as
 *  md2_lerp(): exact at t = 0 and 1) for every welded vertex of mesh into
 *  vertices, as layout says. vertices must be aligned for float and hold
 *  (mesh->num_vertices - 1) * stride + the end of the last attribute
 *  bytes. The position and normal of welded vertex i are bit for bit those
 *  md2_lerp() gives for model vertex source_vertex[i] (before the layout's
 *  flags apply). Errors (nothing written): MD2_ERR_INVALID_ARGUMENT (NULL
 *  argument, bad layout, t outside [0,1], a model with other vertices than
 *  the mesh was built for), MD2_ERR_FRAME_RANGE. Never allocates;
 *  thread-safe on a shared mesh and model. */
MD2_API md2_result md2_mesh_lerp(const md2_mesh *mesh, const md2_model *m,
                                 uint32_t frame_a, uint32_t frame_b, float t,
                                 void *vertices, const md2_vertex_layout *layout);

/** Writes the pose player p shows (md2_player_pose(), cross-fades
 *  included) for every welded vertex of mesh, as md2_mesh_lerp() does.
 *  Errors as md2_mesh_lerp(). */
MD2_API md2_result md2_mesh_pose(const md2_mesh *mesh, const md2_model *m,
                                 const md2_player *p, void *vertices,
                                 const md2_vertex_layout *layout);

/* ------------------------------------------------------------------------ */
/* GPU morph data                                                            */
/* ------------------------------------------------------------------------ */

/** Bytes md2_mesh_morph_data() writes: num_frames * mesh->num_vertices * 4
 *  (0 if an argument is NULL or the size overflows). */
MD2_API size_t md2_mesh_morph_size(const md2_mesh *mesh, const md2_model *m);

/** Every frame's vertices in welded order as the file holds them, 4 bytes
 *  a vertex (x, y, z, normal index), frame after frame: vertex i of frame f
 *  at byte 4 * (f * num_vertices + i). Normal indices of 162 and more are
 *  written as MD2_NORMAL_FALLBACK, so a shader's table lookup stays inside
 *  the table. With md2_frame_transforms() (<md2/md2.h>) and the normal
 *  table (md2_normal(0) points to all 162 * 3 floats) the GPU holds what
 *  the file holds. Errors: MD2_ERR_INVALID_ARGUMENT, MD2_ERR_BUFFER_TOO_SMALL.
 *  Never allocates. */
MD2_API md2_result md2_mesh_morph_data(const md2_mesh *mesh, const md2_model *m,
                                       void *out, size_t capacity);

/** The plain float variant for simple engines: positions (3 floats) and
 *  table normals (3 floats) of frames first .. first + count - 1, every
 *  welded vertex of each, frame after frame, into positions and normals
 *  (each count * num_vertices * 3 floats; normals may be NULL). Errors:
 *  MD2_ERR_INVALID_ARGUMENT, MD2_ERR_FRAME_RANGE. */
MD2_API md2_result md2_mesh_morph_floats(const md2_mesh *mesh, const md2_model *m,
                                         uint32_t first, uint32_t count,
                                         float *positions, float *normals);

/* ------------------------------------------------------------------------ */
/* Back-to-front order, smooth normals and tangents                          */
/* ------------------------------------------------------------------------ */

/** Scratch bytes md2_mesh_sort_back_to_front() needs: 16 per triangle. */
MD2_API size_t md2_mesh_sort_scratch_size(const md2_mesh *mesh);

/** Writes mesh's indices to indices (num_indices of them), triangles
 *  ordered from the farthest to the nearest to eye[3] (by the squared
 *  distance of their centroids; equal distances keep file order), for
 *  transparency and painter's-algorithm renderers. Positions are read from
 *  vertices at layout->position_offset (a pose written by md2_mesh_lerp()
 *  with the same layout and the same eye space). scratch must hold
 *  md2_mesh_sort_scratch_size() bytes, aligned for float. O(n log n), no
 *  allocation. Errors: MD2_ERR_INVALID_ARGUMENT, MD2_ERR_BUFFER_TOO_SMALL
 *  (scratch). */
MD2_API md2_result md2_mesh_sort_back_to_front(const md2_mesh *mesh, const void *vertices,
                                               const md2_vertex_layout *layout,
                                               const float eye[3], uint32_t *indices,
                                               void *scratch, size_t scratch_size);

/** Scratch bytes md2_mesh_smooth() needs: 24 per model vertex and 48 per
 *  welded vertex (sums in double: coordinates reach 1e30). */
MD2_API size_t md2_mesh_smooth_scratch_size(const md2_mesh *mesh);

/** Smooth normals (and tangents) from a pose, as an alternative to the
 *  162-direction table: each model vertex's normal is the sum of the
 *  normals of the triangles around it weighted by their area, so normals
 *  are smooth across texture seams (welded vertices of one model vertex
 *  share it). Reads positions (and texcoords, for tangents) from vertices
 *  as layout says; writes unit normals at layout->normal_offset (which must
 *  not be MD2_ATTRIBUTE_NONE) and, unless tangent_offset is
 *  MD2_ATTRIBUTE_NONE, tangents of 4 floats at tangent_offset: x, y, z (unit
 *  length, orthogonal to the normal, along +u) and w = +1 or -1, the
 *  handedness (bitangent = w * cross(normal, tangent)). Vertices of no
 *  triangle, or of only degenerate ones, get (0, 0, 1) ((0, 1, 0) with
 *  MD2_LAYOUT_Y_UP) and a tangent orthogonal to it. scratch: md2_mesh_smooth_scratch_size() bytes, aligned for
 *  double (as malloc gives). Errors: MD2_ERR_INVALID_ARGUMENT, MD2_ERR_BUFFER_TOO_SMALL. */
MD2_API md2_result md2_mesh_smooth(const md2_mesh *mesh, void *vertices,
                                   const md2_vertex_layout *layout,
                                   size_t tangent_offset, void *scratch,
                                   size_t scratch_size);

#ifdef __cplusplus
}
#endif

#endif /* MD2_MESH_H */
