/*
 * libmd2 - attachments: UFO:AI tag files, tag matrices and models attached
 * to models.
 *
 * SPDX-License-Identifier: MIT
 *
 * Overview
 * --------
 * Games attach one model to another in two ways:
 *
 *  - tags: UFO:AI keeps, beside body.md2, a body.tag file that gives for
 *    every frame named coordinate frames ("tag_rweapon", "tag_head") where
 *    other models go. md2_tags_parse() reads it with the care of the model
 *    parser; md2_tag_lerp() interpolates a tag between two frames into a
 *    4x4 matrix; md2_player_tag() gives the tag matrix of what a player
 *    shows, cross-fades included; md2_attach() puts a child model at a tag.
 *  - linked models: Quake II draws a player's weapon model with the
 *    player's frames, frame for frame. md2_player_pose_linked(),
 *    md2_player_bounds_linked() and md2_linked_check() are player calls,
 *    declared in <md2/animation.h>, which this header includes.
 *
 * This header also includes <md2/bundle.h>: md2_bundle_load() and
 * md2_bundle_load_file() load a model and the side files found beside it
 * (.anm, .framegroups, .tag) in one call. (libmd2 1.0 declared both groups
 * here; a program that includes only this header still gets them.)
 *
 * Conventions (docs/animation.md, "Tags"): a tag matrix is a column-major
 * 4x4 matrix (OpenGL order, 16 floats, element (row r, column c) at
 * [4 c + r]): column 0 is the tag's first axis ("forward"), column 1 its
 * second ("right" in UFO:AI's source), column 2 its third ("up"), column 3
 * its origin; the last row is 0 0 0 1. The axes are kept as the file
 * stores them, as UFO:AI's renderer uses them: a child model's x goes
 * along column 0, its y along column 1 and its z along column 2, in the
 * parent model's coordinates (Quake units, X forward, Y left, Z up).
 *
 * Memory: md2_tags_parse() makes one allocation per tag file; everything
 * else declared here writes into caller buffers and never allocates.
 *
 * Thread safety: no global state. Parsed tags are immutable; any number of
 * threads may read them at the same time.
 */
#ifndef MD2_TAGS_H
#define MD2_TAGS_H

#include "animation.h"
#include "bundle.h"
#include "md2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Tag files                                                                 */
/* ------------------------------------------------------------------------ */

/** "JDP2" read as a little-endian 32-bit integer: a UFO:AI tag file. */
#define MD2_TAG_IDENT 844121162
/** The only tag file version there is. */
#define MD2_TAG_FILE_VERSION 1
/** Size of the tag file header in bytes (8 little-endian int32). */
#define MD2_TAG_HEADER_SIZE 32
/** Bytes of one tag name in the file. */
#define MD2_TAG_NAME_SIZE 64
/** Floats of one tag in one frame: forward[3], right[3], up[3], origin[3]. */
#define MD2_TAG_FRAME_FLOATS 12
/** Bytes of one tag in one frame in the file (12 little-endian floats). */
#define MD2_TAG_FRAME_BYTES 48
/** Bytes of one tag in one frame as a 4x4 matrix: what ofs_extractend
 *  counts (the matrices are not in the file; it is only a size). */
#define MD2_TAG_MATRIX_BYTES 64
/** Returned by md2_tags_find() when no tag has the name: (size_t)-1,
 *  never a valid index. md2_tag_lerp() and md2_player_tag() answer it with
 *  MD2_ERR_NOT_FOUND. */
#define MD2_TAG_NOT_FOUND ((size_t)-1)

/** The 32-byte tag file header, as read. A file is accepted only when its
 *  offsets agree with its counts (what UFO:AI checks): ofs_names = 32,
 *  ofs_tags = ofs_names + 64 * num_tags, ofs_end = ofs_tags + 48 *
 *  num_tags * num_frames, ofs_extractend = ofs_tags + 64 * num_tags *
 *  num_frames. */
typedef struct md2_tag_header {
    int32_t ident, version;
    int32_t num_tags, num_frames;
    int32_t ofs_names, ofs_tags, ofs_end, ofs_extractend;
} md2_tag_header;

/** A tag name. name is always NUL-terminated at name[64]; bytes [0,64) are
 *  the file's bytes as they were (the writer writes them back). */
typedef struct md2_tag_name {
    char name[MD2_TAG_NAME_SIZE + 1];
} md2_tag_name;

/** A parsed tag file: one allocation, immutable, released with
 *  md2_tags_free(). The data of tag k in frame f is the 12 floats at
 *  frames + (k * num_frames + f) * MD2_TAG_FRAME_FLOATS (tag after tag, as
 *  in the file): forward[3], right[3], up[3], origin[3], each finite and
 *  at most MD2_MAX_COORD in magnitude.
 *  A caller may also fill one in by hand (counts and pointers; leave the
 *  rest zero) for md2_tags_write(), md2_tag_lerp() and md2_player_tag();
 *  such tags must not be passed to md2_tags_free(). Every function that
 *  reads tags refuses them when reserved_ is not zero
 *  (MD2_ERR_INVALID_ARGUMENT, or the answer for NULL).
 *  (The typedef md2_tags is in <md2/bundle.h>, included above: a bundle
 *  holds tags.) */
struct md2_tags {
    md2_tag_header header;      /**< the header as read (zero in hand-made tags) */
    size_t num_tags;            /**< at least 1 in a parsed file */
    size_t num_frames;          /**< at least 1 in a parsed file */
    const md2_tag_name *names;  /**< num_tags names */
    const float *frames;        /**< num_tags * num_frames * 12 floats */
    uint32_t warnings;          /**< md2_warning flags raised while parsing */
    md2_allocator allocator_;   /**< private: how the tags are freed */
    uintptr_t reserved_[4];     /**< must be zero: room for new fields (zero in parsed tags; checked: "md2_tags.reserved_[i]") */
};

/** Validates a UFO:AI tag file held in memory (size bytes at data) and, on
 *  success, stores in *out new tags that the caller owns and releases with
 *  md2_tags_free(). data is not kept. opts may be NULL (defaults); its
 *  allocator, limits.max_frames (bounds num_frames),
 *  limits.max_file_size, strict, error and on_warning are used.
 *  Checks, in this order, each with its own error (all before the one
 *  allocation, so a refused file costs none):
 *   - fewer than 32 bytes: MD2_ERR_TRUNCATED_HEADER ("header");
 *   - ident not "JDP2": MD2_ERR_BAD_MAGIC ("ident"); version not 1:
 *     MD2_ERR_BAD_VERSION ("version");
 *   - num_tags negative or 0, num_frames negative: MD2_ERR_BAD_COUNT;
 *     num_frames 0: MD2_ERR_NO_FRAMES; num_frames above
 *     limits.max_frames: MD2_ERR_LIMIT_EXCEEDED;
 *   - ofs_names, ofs_tags, ofs_end, ofs_extractend not what the counts
 *     give (see md2_tag_header): MD2_ERR_BAD_OFFSET, field naming the
 *     offset;
 *   - the data larger than limits.max_file_size: MD2_ERR_LIMIT_EXCEEDED
 *     ("max_file_size");
 *   - the names or the tag frames past the end of the data:
 *     MD2_ERR_SECTION_OUT_OF_BOUNDS ("ofs_names" or "ofs_tags");
 *   - quirks, lenient by default (md2_tags.warnings, opts->on_warning) or
 *     errors when their flag is in opts->strict: bytes after ofs_end
 *     (ignored: MD2_WARN_OFS_END -> MD2_ERR_BAD_OFS_END); a name without a
 *     NUL in its 64 bytes (terminated copy: MD2_WARN_UNTERMINATED_NAME ->
 *     MD2_ERR_UNTERMINATED_NAME); a float that is NaN, infinite or larger
 *     than MD2_MAX_COORD in magnitude (set to 0, reported once per tag
 *     frame: MD2_WARN_FRAME_TRANSFORM -> MD2_ERR_BAD_FRAME_TRANSFORM).
 *  Every diagnostic has section MD2_SECTION_TAGS, the field, the byte
 *  offset in the data and, for names and tag frames, the element (name:
 *  the tag; tag frame: tag * num_frames + frame).
 *  Memory: one allocation of at most size + num_tags + 128 bytes
 *  (md2_tags_memory()). Other errors: MD2_ERR_INVALID_ARGUMENT (data or
 *  out NULL), MD2_ERR_OUT_OF_MEMORY. On error *out is NULL and nothing
 *  leaks. Thread-safe. */
MD2_API md2_result md2_tags_parse(const void *data, size_t size,
                                  const md2_options *opts, md2_tags **out);

/** Releases tags from md2_tags_parse() with the allocator they were made
 *  with. NULL is a no-op. */
MD2_API void md2_tags_free(md2_tags *tags);

/** Bytes parsed tags occupy in memory (their one allocation); 0 for NULL. */
MD2_API size_t md2_tags_memory(const md2_tags *tags);

/** Index of the first tag whose name equals name exactly (case-sensitive,
 *  up to its NUL), or MD2_TAG_NOT_FOUND (also when tags or name is NULL).
 *  Thread-safe. */
MD2_API size_t md2_tags_find(const md2_tags *tags, const char *name);

/** The size in bytes of the file md2_tags_write() would produce
 *  (32 + 64 * num_tags + 48 * num_tags * num_frames), or 0 if the tags
 *  cannot be written (see md2_tags_write()). */
MD2_API size_t md2_tags_write_size(const md2_tags *tags);

/** Serialises tags to a tag file: the header (ident "JDP2", version 1, the
 *  counts and the offsets the counts give, ofs_extractend = ofs_tags + 64
 *  * num_tags * num_frames), the names as their stored 64 bytes, then the
 *  tag frames, tag after tag, as little-endian floats. A file that
 *  md2_tags_parse() accepts without warnings is written back byte for
 *  byte. Writes md2_tags_write_size() bytes to buffer and stores that
 *  number in *written (written may be NULL).
 *  Errors, each also described in *error (section MD2_SECTION_TAGS) when
 *  error is not NULL: MD2_ERR_INVALID_ARGUMENT (tags or buffer NULL);
 *  MD2_ERR_INVALID_MODEL with field "num_tags" or "num_frames" (0, or a
 *  file past MD2_MAX_DATA_SIZE), "names" or "frames" (NULL), "frames"
 *  (a value NaN, infinite or beyond MD2_MAX_COORD; index = tag * num_frames
 *  + frame); MD2_ERR_BUFFER_TOO_SMALL (capacity below the size; nothing is
 *  written). Never allocates; thread-safe on shared tags. */
MD2_API md2_result md2_tags_write(const md2_tags *tags, void *buffer,
                                  size_t capacity, size_t *written,
                                  md2_diagnostic *error);

/** Checks the frame count of tags against model m, as UFO:AI does when it
 *  loads a tag file: a different count is the quirk MD2_WARN_FRAME_COUNT,
 *  reported to opts->on_warning (section MD2_SECTION_TAGS, field
 *  "num_frames", offset 12), or, with that flag in opts->strict, the error
 *  MD2_ERR_FRAME_RANGE described in opts->error. (md2_player_tag() clamps
 *  frames past the tags' last to it.) opts may be NULL.
 *  Errors: MD2_ERR_INVALID_ARGUMENT (tags or m NULL), MD2_ERR_FRAME_RANGE
 *  (strict). Never allocates; thread-safe. */
MD2_API md2_result md2_tags_check(const md2_tags *tags, const md2_model *m,
                                  const md2_options *opts);

/* ------------------------------------------------------------------------ */
/* Tag matrices                                                              */
/* ------------------------------------------------------------------------ */

/** The matrix of tag tag between frames frame_a and frame_b at t in [0,1],
 *  into matrix (16 floats, column-major; see the conventions above).
 *  At a keyframe (t = 0, t = 1, or frame_a == frame_b) the matrix holds
 *  that frame's axes and origin exactly as stored, even where they are not
 *  orthonormal. Between keyframes: each axis of both frames is scaled to
 *  unit length, the axes are blended linearly (w_a = 1 - t, w_b = t) and
 *  made orthonormal again: column 0 is the blended forward, normalised;
 *  column 1 the blended right, made orthogonal to column 0 (Gram-Schmidt)
 *  and normalised; column 2 is cross(column 0, column 1), negated if the
 *  blended up points the other way (so a mirrored, left-handed file stays
 *  mirrored). A blend that leaves no direction (opposite axes at the
 *  midpoint, zero axes) takes that axis from the nearer keyframe, then the
 *  other, then a fixed axis (docs/animation.md). The origin is
 *  (1 - t) * origin_a + t * origin_b with the same float operations as
 *  md2_lerp(). The result is orthonormal to within 1e-6, finite, and the
 *  same bit for bit on every host.
 *  Errors (nothing written): MD2_ERR_INVALID_ARGUMENT (tags, its arrays or
 *  matrix NULL; t not in [0,1] or NaN), MD2_ERR_NOT_FOUND (tag not below
 *  num_tags, MD2_TAG_NOT_FOUND included), MD2_ERR_FRAME_RANGE (a frame not
 *  below num_frames). Never allocates; thread-safe on shared tags. */
MD2_API md2_result md2_tag_lerp(const md2_tags *tags, size_t tag,
                                uint32_t frame_a, uint32_t frame_b, float t,
                                float matrix[16]);

/** The matrix of tag tag in the pose player p shows (md2_player_state()),
 *  into matrix (16 floats, column-major). Without a cross-fade it is
 *  md2_tag_lerp(tags, tag, frame_a, frame_b, t). During one it is the
 *  outgoing pose's tag matrix (from_a, from_b, from_t) and the current
 *  one's blended with the pose's weight as md2_tag_lerp() blends two
 *  frames (exactly the outgoing matrix at weight 0, the current one at
 *  weight 1, orthonormal between), so an attached model follows the
 *  cross-fade of its parent. Frame numbers past the tags' last frame are
 *  clamped to it (md2_tags_check() reports such a file once), and a
 *  cross-fade whose two poses are then the same pose gives that pose's
 *  matrix exactly, as md2_player_pose_linked() does.
 *  Errors (nothing written): MD2_ERR_INVALID_ARGUMENT (p, tags, its arrays
 *  or matrix NULL; tags without frames), MD2_ERR_NOT_FOUND (tag not below
 *  num_tags). Never allocates; thread-safe on shared tags. */
MD2_API md2_result md2_player_tag(const md2_player *p, const md2_tags *tags,
                                  size_t tag, float matrix[16]);

/** Puts a child at a parent's tag: child = parent * tag (column-major 4x4
 *  products, the sum over k in order k = 0..3, rounded to float after each
 *  operation on every host). parent is the parent model's own transform
 *  (model to world; the identity for a parent drawn where it stands), tag
 *  a matrix from md2_tag_lerp() or md2_player_tag(); child receives the
 *  child model's model-to-world transform: a child vertex v is drawn at
 *  child * (v, 1). Chains: the child's matrix is the parent of its own
 *  attachments. child may be the same array as parent or tag.
 *  Errors: MD2_ERR_INVALID_ARGUMENT (a NULL pointer; nothing written).
 *  Never allocates; thread-safe. */
MD2_API md2_result md2_attach(const float parent[16], const float tag[16],
                              float child[16]);

#ifdef __cplusplus
}
#endif

#endif /* MD2_TAGS_H */
