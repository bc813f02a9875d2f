/*
 * libmd2 - levels of detail: one simplification for every frame.
 *
 * md2_simplify() removes triangles from an animated model by half-edge
 * collapses (a vertex merged into a neighbour, which keeps its bytes in
 * every frame), one sequence of collapses for all keyframes, each chosen
 * by its error over the keyframes: a quadric of the planes of the
 * vertex's triangles in each of at most 16 representative poses, each
 * weighted by its area and by the frames the pose stands for, summed over
 * the poses (Mohr and Gleicher, "Deformation sensitive decimation", 2003;
 * the poses chosen by farthest-point sampling of the frames), over the
 * area it stands for, as meshoptimizer normalises its costs. A collapse
 * never tears the skin (texcoords of the result are texcoords of the
 * source at the surviving vertex; seams and open borders collapse only
 * along themselves), never leaves a triangle facing away (by more than
 * 90 degrees) from its source triangle in any keyframe, and keeps the
 * surface manifold where it was.
 * Each result is an ordinary md2_model (one allocation; md2_write() it)
 * with the source's frames, transforms, normals, skins and names, and new
 * GL commands. docs/simplify.md explains the method and its numbers.
 *
 * All functions are thread-safe: they read their inputs, write their
 * outputs and keep no state. The result is the same bytes on every host.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_SIMPLIFY_H
#define MD2_SIMPLIFY_H

#include "md2.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a level aims at (md2_simplify_target.kind). */
typedef enum md2_simplify_kind {
    MD2_SIMPLIFY_TRIANGLES = 0, /**< at most value triangles (a whole number; 0: as few as it can) */
    MD2_SIMPLIFY_RATIO,         /**< at most value times the source's triangles, rounded down (value in [0, 1]; more: all) */
    MD2_SIMPLIFY_ERROR          /**< as few triangles as keep the largest error (md2_lod.max_error) at most value, in model units */
} md2_simplify_kind;

/** One level to make. A target above the source's triangles gives the
 *  source's triangles (no collapse). */
typedef struct md2_simplify_target {
    md2_simplify_kind kind;
    double value;           /**< finite, at least 0 */
    uintptr_t reserved_[2]; /**< must be zero ("md2_simplify_target.reserved_[i]") */
} md2_simplify_target;

/** md2_simplify_options.flags: do not measure the error of triangle and
 *  ratio levels (md2_lod.max_error, mean_error and relative_error are then
 *  -1); error levels are always measured. */
#define MD2_SIMPLIFY_NO_ERROR 1u

/** Options of md2_simplify(). Zero-initialise (or pass NULL): malloc/free,
 *  errors measured, no diagnostic. */
typedef struct md2_simplify_options {
    md2_allocator allocator;    /**< every allocation; zero: malloc/free */
    unsigned flags;             /**< MD2_SIMPLIFY_* */
    md2_diagnostic *error;      /**< if not NULL, filled when the call fails */
    uintptr_t reserved_[6];     /**< must be zero ("md2_simplify_options.reserved_[i]") */
} md2_simplify_options;

/** One level of detail, filled in by md2_simplify() and released with
 *  md2_lod_free(). */
typedef struct md2_lod {
    md2_model *model;           /**< the simplified model (md2_free() is done by md2_lod_free()) */
    size_t num_collapses;       /**< collapses applied to the source to make it */
    /** Over every keyframe f and every source vertex that a source
     *  triangle uses: the distance in model units from its position in
     *  frame f to the nearest triangle of this model in frame f. The
     *  largest and the mean; relative_error is max_error divided by the
     *  diagonal of the box of the source's vertices in all frames (0 when
     *  that box is a point). -1 when not measured (MD2_SIMPLIFY_NO_ERROR). */
    double max_error, mean_error, relative_error;
    /** model->num_vertices entries: the source vertex of each vertex (its
     *  bytes in every frame are that vertex's). */
    const uint32_t *source_vertex;
    /** model->num_texcoords entries: the source texcoord of each. */
    const uint32_t *source_texcoord;
    /** model->num_triangles entries: the source triangle each comes from
     *  (its corners moved by the collapses, in the source's order). */
    const uint32_t *source_triangle;
    md2_allocator allocator_;   /**< private: how the maps are freed */
    uintptr_t reserved_[4];     /**< written as zero */
} md2_lod;

/** Simplifies m once and stores a level for each of the num_targets
 *  targets in levels[0 .. num_targets) (the caller's array), all from one
 *  sequence of collapses: a level with fewer triangles is the same
 *  sequence run further, so the levels nest. The triangles of a level are
 *  the source's (in its order) that survive, their corners moved to the
 *  surviving vertices; vertices and texcoords are the used ones, in the
 *  source's order, each frame's vertex bytes and transform as in the
 *  source. GL commands are made anew (none when the skin size is 0).
 *  Triangles with two corners on one vertex are dropped first. Vertices
 *  on an edge of three or more triangles, and seam or border vertices
 *  where seams and borders meet, never move; a vertex with more than 64
 *  neighbours moves only once it has fewer. The collapses stop at a
 *  target or when no collapse is allowed (then a level has more triangles
 *  than it asked for). Time: O(T log T) whatever the valence of the
 *  vertices (a collapse computes again the costs of the edges it changed,
 *  over at most 16 representative poses chosen by one pass over the
 *  frames), and a test of the facing of the moved triangles in all F
 *  keyframes, O(F), for each candidate that comes to the top; plus one
 *  measure of the error per level (in each frame a tree of the level's
 *  triangles, O(T log T), searched from each vertex; an error level:
 *  O(log T) measures). Memory: 56 bytes a vertex and pose for the
 *  quadrics, 3 a vertex and frame for the frames, about 350 bytes a
 *  triangle, and 120 more while a level is measured.
 *  On failure every level is zeroed and nothing stays allocated. Errors:
 *  MD2_ERR_INVALID_ARGUMENT (m, targets or levels NULL, num_targets 0, a
 *  target's kind or value, reserved_ not zero, unknown flags; the
 *  diagnostic's index is the target), MD2_ERR_INVALID_MODEL (m breaks a
 *  rule of the format, or has no triangle with three distinct vertices),
 *  MD2_ERR_OUT_OF_MEMORY. */
MD2_API md2_result md2_simplify(const md2_model *m, const md2_simplify_target *targets,
                                size_t num_targets, const md2_simplify_options *opts,
                                md2_lod *levels);

/** Releases what md2_simplify() put in lod (its model and maps) and zeroes
 *  it. NULL, or a zeroed lod, is a no-op. */
MD2_API void md2_lod_free(md2_lod *lod);

#ifdef __cplusplus
}
#endif

#endif /* MD2_SIMPLIFY_H */
