/*
 * libmd2 - making MD2 models: the builder.
 *
 * md2_write() serialises a model you already have; the builder makes one
 * from floats, as a modern tool holds a model: positions per frame,
 * optional normals, triangles whose corners are (vertex, texcoord) pairs,
 * texcoords as floats or texels, skin and frame names. It checks every
 * input before it allocates anything, quantises with rounding (no decoded
 * coordinate more than half a step from the input), maps normals to the
 * nearest of the 162 table normals, writes GL command strips and fans, and
 * reports the engines whose limits the model exceeds. The result is an
 * ordinary md2_model (one allocation, md2_free()), ready for md2_write().
 *
 * md2_rebuild() makes a model from a model, keeping its frames byte for
 * byte unless asked to change them (repairs: new normals, a new grid, new
 * GL commands).
 *
 * Guarantees, error bounds and the order of everything written are in
 * docs/builder.md. All functions are thread-safe: they read their inputs,
 * write their outputs and keep no state.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_BUILD_H
#define MD2_BUILD_H

#include "md2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Building                                                                  */
/* ------------------------------------------------------------------------ */

/** Limits profiles: whose limits the model must keep. The format's own
 *  limits (uint16 indices, 8-bit coordinates, name sizes, a file below
 *  2^31 bytes) always hold; a chosen profile makes its limits errors
 *  (MD2_ERR_LIMIT_EXCEEDED, index the profile), and every limit of
 *  another engine that the model exceeds (stricter there than the chosen
 *  one, by necessity) is a warning, MD2_WARN_PROFILE_LIMIT, naming the
 *  engine and the limit (index the profile). docs/builder.md lists each
 *  profile's numbers and where in the engine's source they come from. */
typedef enum md2_profile {
    MD2_PROFILE_FORMAT = 0, /**< the file format's limits alone (default) */
    MD2_PROFILE_QUAKE2,     /**< Quake II: qfiles.h and what both renderers' loaders refuse (a skin over 480 high, no GL commands for ref_gl) */
    MD2_PROFILE_YQUAKE2,    /**< yquake2: Quake II's model limits kept, triangles and frames unlimited */
    MD2_PROFILE_UFOAI,      /**< UFO:AI: 1023 frames, one below Quake II's other counts, 8191 welded vertices */
    MD2_PROFILE_Q2PRO,      /**< Q2PRO: 2048 vertices, 6144 triangles, 1024 frames, 6144 welded vertices, a skin 1 to 8192 a side, at least 3 vertices and texcoords */
    MD2_PROFILE_COUNT_      /**< count sentinel, not a profile */
} md2_profile;

/** The name of a profile ("format", "Quake II", "yquake2", "UFO:AI",
 *  "Q2PRO"; "unknown md2_profile" for another value); never NULL. */
MD2_API const char *md2_profile_string(md2_profile p);

/** Checks a model (loaded, built or rebuilt) against profile p's limits,
 *  the same ones md2_build() keeps for p (docs/builder.md lists them with
 *  their sources in each engine's code): on_limit (if not NULL) is called
 *  with user and a diagnostic for each limit m breaks, in the table's
 *  order: section MD2_SECTION_HEADER, field the quantity ("num_vertices",
 *  "num_frames", "skin_height", "welded_vertices", ...), offset the
 *  header byte that holds it (0 for welded vertices), index p, and a
 *  message that starts with the engine's name and gives the number, the
 *  limit and its source: "Quake II: 2117 vertices, more than its limit of
 *  2048 (MAX_VERTS in qcommon/qfiles.h; ...)"; the file's size is field
 *  "ofs_end" (a loaded model's header value, else md2_write_size()).
 *  *broken (if not NULL) gets
 *  how many. MD2_PROFILE_FORMAT has no limits of its own here (0 broken).
 *  Welded vertices (distinct pairs of vertex index and texcoord values,
 *  as UFO:AI and Q2PRO weld the corners; triangles with an index out of
 *  range skipped, as Q2PRO skips them) are counted in one temporary
 *  allocation of 8 bytes a corner through m->allocator (malloc when it is
 *  zero), only when p has a welded limit the corners could pass. The
 *  counts are the model's (a lenient load's triangles are those kept). Thread-safe for distinct diagnostics; m is not changed.
 *  Errors: MD2_ERR_INVALID_ARGUMENT (m NULL, p not a profile),
 *  MD2_ERR_OUT_OF_MEMORY (the count's allocation: nothing reported). */
MD2_API md2_result md2_profile_check(const md2_model *m, md2_profile p, md2_warning_fn on_limit,
                                     void *user, size_t *broken);

/** Largest magnitude of a coordinate md2_build() takes: with every
 *  coordinate within it, every frame transform decodes within
 *  MD2_MAX_COORD (|scale| * 255 + |translate| is at most about 3e29). */
#define MD2_BUILD_MAX_COORD 1e29

/** An animation of the input, for frame names: count consecutive frames
 *  named name1 .. nameN (or name01 .. with MD2_BUILD_ZERO_PAD); a name that
 *  ends in a digit gets a '_' before the number (attack2_1 .. attack2_10),
 *  so that md2_anims_from_names() gives it back whole. */
typedef struct md2_build_anim {
    const char *name;       /**< NUL-terminated; cut to fit 16 bytes with its number (a warning) */
    size_t count;           /**< frames, at least 1 */
    uintptr_t reserved_[2]; /**< must be zero */
} md2_build_anim;

/** What to build. Zero-initialise it and fill in what you have. Counts are
 *  checked against the format and the profile before anything is
 *  allocated; every pointer is read only during md2_build(). */
typedef struct md2_build_input {
    size_t num_frames;             /**< at least 1 */
    size_t num_vertices;           /**< vertices per frame, at least 1 */
    /** Position of vertex i of frame f: 3 floats at
     *  (const char *)positions + f * frame_stride + i * vertex_stride.
     *  Strides in bytes; 0: packed (vertex_stride 12, frame_stride
     *  num_vertices * vertex_stride). Strides are multiples of
     *  sizeof(float), a vertex_stride other than 0 at least 12; the
     *  pointer is aligned for float. Finite, within MD2_BUILD_MAX_COORD. */
    const float *positions;
    size_t vertex_stride, frame_stride;
    /** Optional normals in the same layout (NULL: computed per frame from
     *  the positions); finite, need not be unit length (a zero normal
     *  gets MD2_NORMAL_FALLBACK). */
    const float *normals;
    size_t normal_vertex_stride, normal_frame_stride;
    /** num_triangles triangles, 6 indices each: the (vertex, texcoord)
     *  index pair of each of its 3 corners, v0 t0 v1 t1 v2 t2, in MD2's
     *  winding (clockwise seen from the front). The model keeps them in
     *  this order (MD2_REBUILD_DROP_DEGENERATE drops some). */
    size_t num_triangles;
    const uint32_t *triangles;
    /** Texcoords, one kind: uv (2 floats each, u right and v down in the
     *  skin, [0, 1] across it) or texels (2 int16_t each, skin pixels, as
     *  the file holds them). uv is turned to texels by rounding to the
     *  nearest pixel of skin_width x skin_height (exactly: s is u *
     *  skin_width rounded, halves away from zero), which must give an
     *  int16_t. Give one of the two when num_texcoords > 0. */
    size_t num_texcoords;
    const float *uv;
    const int16_t *texels;
    uint32_t skin_width, skin_height; /**< at least 1 each, at most 2^31 - 1 */
    /** Skin paths (each under 64 bytes), or none. */
    size_t num_skins;
    const char *const *skin_names;
    /** Frame names: num_frames names (each under 16 bytes), or NULL to
     *  name the frames from anims (their counts must add up to
     *  num_frames), or NULL and no anims: frame1 .. frameN (as one
     *  animation "frame"). Not both frame_names and anims. */
    const char *const *frame_names;
    size_t num_anims;
    const md2_build_anim *anims;
    uintptr_t reserved_[8];        /**< must be zero: room for new inputs */
} md2_build_input;

/** md2_build_options.flags */
#define MD2_BUILD_SHARED_BOX 1u  /**< one box for all frames: a vertex that does not move decodes to the same bits in every frame */
#define MD2_BUILD_NO_GLCMDS 2u   /**< write no GL commands */
#define MD2_BUILD_ZERO_PAD 4u    /**< frame numbers from anims zero-padded to the same width (run01 .. run12) */
/** md2_rebuild() flags: what to change (nothing: the frames byte for byte) */
#define MD2_REBUILD_NORMALS 8u     /**< new normals, computed from the decoded positions */
#define MD2_REBUILD_REQUANTIZE 16u /**< a new grid for every frame (per-frame or, with MD2_BUILD_SHARED_BOX, shared) */
#define MD2_REBUILD_GLCMDS 32u     /**< new GL commands from the triangles (replaces the model's) */
#define MD2_REBUILD_DROP_DEGENERATE 64u /**< drop triangles with two corners on one vertex (md2_build() too) */

/** How md2_build() and md2_rebuild() choose each frame's grid (its scale
 *  and translate), md2_build_options.quantize. docs/builder.md compares them
 *  with numbers. */
typedef enum md2_quantize {
    /** md2_build(): MD2_QUANTIZE_STABLE (MD2_QUANTIZE_SHARED with
     *  MD2_BUILD_SHARED_BOX); md2_rebuild(): the frames kept byte for byte
     *  (MD2_REBUILD_REQUANTIZE: MD2_QUANTIZE_PER_FRAME, MD2_BUILD_SHARED_BOX:
     *  MD2_QUANTIZE_SHARED) */
    MD2_QUANTIZE_DEFAULT = 0,
    /** each frame the box of its vertices: the finest steps, but a vertex
     *  that holds still can decode a step apart in two frames (wobble) */
    MD2_QUANTIZE_PER_FRAME,
    /** one box for all frames (as MD2_BUILD_SHARED_BOX): still vertices
     *  keep their bits, at the cost of coarse steps when the model travels */
    MD2_QUANTIZE_SHARED,
    /** per animation (md2_anims_from_names() of the frame names) one step
     *  per axis, each frame's translate on the lattice of that step (or, for
     *  a frame that is an earlier one moved, that frame's translate moved by
     *  as much): a vertex whose position is the same in two frames of an
     *  animation decodes to the same bits in both, a frame that is another
     *  moved decodes to the same shape moved. md2_rebuild() first holds
     *  still each decoded coordinate whose half-step intervals overlap over
     *  every frame of its animation, at the middle of the overlap (a repair
     *  of wobble: a coordinate stays within half a step of what the file
     *  decodes to) */
    MD2_QUANTIZE_STABLE,
    MD2_QUANTIZE_COUNT_ /**< count sentinel, not a mode */
} md2_quantize;

/** Options of md2_build() and md2_rebuild(). Zero-initialise (or pass
 *  NULL): malloc/free, stable grids (md2_rebuild(): the frames kept), GL
 *  commands, the format's limits, no diagnostic. */
typedef struct md2_build_options {
    md2_allocator allocator;    /**< the model's allocation; zero: malloc/free */
    unsigned flags;             /**< MD2_BUILD_* and MD2_REBUILD_* (md2_build(): MD2_REBUILD_DROP_DEGENERATE only; other bits are refused) */
    md2_profile profile;        /**< its limits are errors; stricter ones warn */
    md2_diagnostic *error;      /**< if not NULL, filled when the build fails */
    md2_warning_fn on_warning;  /**< if not NULL, called for each warning */
    void *warning_user;         /**< passed to on_warning */
    /** the grids (0: MD2_QUANTIZE_DEFAULT); MD2_BUILD_SHARED_BOX with
     *  another than DEFAULT or SHARED is refused, as is a value past
     *  MD2_QUANTIZE_STABLE (field "quantize") */
    md2_quantize quantize;
    uintptr_t reserved_[7];     /**< must be zero: room for new options */
} md2_build_options;

/** Builds a model from in into *out (released with md2_free()): one
 *  allocation through opts->allocator, its header filled in as
 *  md2_write() writes it, md2_model.warnings the builder's warning flags
 *  raised. Each frame gets its grid as opts->quantize says (by default
 *  stable grids: a vertex the input holds still in two frames of an
 *  animation decodes to the same bits in both; MD2_QUANTIZE_PER_FRAME: the
 *  box of its vertices; MD2_BUILD_SHARED_BOX or MD2_QUANTIZE_SHARED: one
 *  box for all) and every coordinate decodes, through md2_lerp() and
 *  md2_decode_frame(), to the nearest of the 256 values its axis can
 *  decode to: within half a step (scale / 2) of the input plus the float
 *  rounding of the decode (docs/builder.md has the bound; a frame of stable
 *  grids that is an earlier frame moved takes that frame's bytes, within
 *  half a step plus 1/2048 of a step). Normals are the
 *  table normals md2_normal_nearest() gives for the given ones, or for
 *  smooth area-weighted normals of the positions (summed per vertex:
 *  smooth across texture seams, which share their vertex). Every input is checked before anything is
 *  allocated (the derived limits, UFO:AI's and Q2PRO's welded vertices and
 *  Quake II's file size, are counted in scratch memory first); warnings (on_warning) are delivered once the
 *  model is complete, so a failed build delivers none. On failure *out
 *  is NULL, nothing stays allocated and opts->error says which input,
 *  element and field is wrong. Errors: MD2_ERR_INVALID_ARGUMENT (NULL, a
 *  bad index, a NaN, infinite or too large coordinate, a name too long,
 *  inconsistent counts, strides or flags, non-zero reserved_),
 *  MD2_ERR_LIMIT_EXCEEDED (a count past the format's or the chosen
 *  profile's limits), MD2_ERR_OUT_OF_MEMORY. */
MD2_API md2_result md2_build(const md2_build_input *in, const md2_build_options *opts,
                             md2_model **out);

/** Builds a model from model m into *out, keeping its skins, texcoords,
 *  triangles, frame names, transforms and vertices byte for byte and its
 *  GL commands as they are, unless opts->flags asks for a change
 *  (MD2_REBUILD_*; MD2_BUILD_SHARED_BOX asks for a new, shared grid,
 *  opts->quantize other than MD2_QUANTIZE_DEFAULT for new grids of that
 *  kind from the decoded frames, and MD2_BUILD_NO_GLCMDS for no GL
 *  commands). m may be loaded or made by
 *  hand; the new model is one allocation as md2_build() makes it, with
 *  md2_model.warnings the builder's warnings (not m's). Errors as
 *  md2_build() (MD2_ERR_INVALID_ARGUMENT also when a new grid is asked
 *  for a frame that decodes beyond MD2_BUILD_MAX_COORD), plus
 *  MD2_ERR_INVALID_MODEL when m breaks a rule of the format, named as
 *  md2_write() names it (or has a skin size of 0 where new GL commands
 *  need one). */
MD2_API md2_result md2_rebuild(const md2_model *m, const md2_build_options *opts,
                               md2_model **out);

/** The wobble score of model m: over every pair of consecutive frames
 *  (f, f + 1), the number of vertices that move by one step while every
 *  vertex that shares a triangle with them holds still, summed. A vertex
 *  moves by n steps when n is its largest movement over the three axes,
 *  each the decoded movement divided by the larger of the two frames'
 *  scales on that axis, rounded to the nearest whole number (an axis whose
 *  scales are both 0 counts as 0 steps when it does not move, 2 when it
 *  does); it holds still when n is 0. So a file whose still parts flicker
 *  by a step, the wobble players see, scores high; one that keeps still
 *  parts still scores 0 there (docs/builder.md has the corpus' scores).
 *  Decodes as md2_decode_frame() does. Uses 2 decoded frames and 2 bytes
 *  a vertex of memory through allocator (NULL or without functions:
 *  malloc/free), freed before it returns. Errors: MD2_ERR_INVALID_ARGUMENT
 *  (m or count NULL, m without frames or vertices, a frame without its
 *  vertex array, a triangle index at or past num_vertices, non-zero
 *  reserved_), MD2_ERR_OUT_OF_MEMORY; *count is 0
 *  then. Thread-safe; reads m only. */
MD2_API md2_result md2_wobble_score(const md2_model *m, const md2_allocator *allocator,
                                    size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* MD2_BUILD_H */
