/*
 * libmd2 - load, validate, animate and write Quake II MD2 models.
 *
 * SPDX-License-Identifier: MIT
 *
 * Overview
 * --------
 * md2_parse() validates an MD2 file held in memory and copies it into one
 * owned, immutable md2_model (one allocation). Keyframes stay compressed:
 * 4 bytes a vertex, as in the file. md2_lerp() decodes and interpolates two
 * keyframes into caller buffers without allocating. md2_write() turns a model
 * (loaded, or filled in by hand) back into MD2 bytes.
 *
 * Thread safety: the library has no global mutable state. A loaded model is
 * never modified by the library, so any number of threads may read it and
 * call the const-model functions on it at the same time. Calls that take a
 * non-const object (an iterator, an options struct) need that object to be
 * used by one thread at a time.
 *
 * Untrusted input: every function that takes file bytes checks every count,
 * offset and index against the buffer and never reads outside it, whatever
 * the bytes say. See docs/errors.md for each check and the lenient/strict
 * behaviour of each quirk of real files.
 */
#ifndef MD2_MD2_H
#define MD2_MD2_H

#include <stddef.h>
#include <stdint.h>

#define MD2_VERSION_MAJOR 1
#define MD2_VERSION_MINOR 0
#define MD2_VERSION_PATCH 0
/** The version as one number: major * 10000 + minor * 100 + patch. */
#define MD2_VERSION_NUMBER \
    (MD2_VERSION_MAJOR * 10000 + MD2_VERSION_MINOR * 100 + MD2_VERSION_PATCH)

/* Shared-library symbol visibility. Define MD2_STATIC when linking the
 * static library from outside CMake; the CMake targets set what is needed. */
#if defined(MD2_STATIC)
#  define MD2_API
#elif defined(_WIN32)
#  if defined(MD2_BUILDING)
#    define MD2_API __declspec(dllexport)
#  else
#    define MD2_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) && defined(MD2_BUILDING)
#  define MD2_API __attribute__((visibility("default")))
#else
#  define MD2_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Format constants                                                          */
/* ------------------------------------------------------------------------ */

/** "IDP2" read as a little-endian 32-bit integer. */
#define MD2_IDENT 844121161
/** The only MD2 version there is. */
#define MD2_FILE_VERSION 8
/** Size of the file header in bytes (17 little-endian int32). */
#define MD2_HEADER_SIZE 68
/** Bytes of one skin name in the file. */
#define MD2_SKIN_NAME_SIZE 64
/** Bytes of one frame name in the file. */
#define MD2_FRAME_NAME_SIZE 16
/** Bytes of a frame record before its vertices (scale, translate, name). */
#define MD2_FRAME_HEADER_SIZE 40
/** Number of entries in the precomputed normal table. */
#define MD2_NUM_NORMALS 162
/** Normal index used for file indices >= MD2_NUM_NORMALS: (0, 0, 1). */
#define MD2_NORMAL_FALLBACK 5
/** Largest magnitude a decoded coordinate may reach: a frame whose
 *  |scale| * 255 + |translate| exceeds it on an axis (or is not finite) is
 *  repaired or refused, so decoded and interpolated positions are always
 *  finite. */
#define MD2_MAX_COORD 1e30
/** Largest data an MD2 file can describe: its offsets, ofs_end included,
 *  are signed 32-bit integers, so no section may end past this byte. */
#define MD2_MAX_DATA_SIZE 2147483647u
/** Largest vertex or texcoord count a uint16 triangle index can address. */
#define MD2_MAX_INDEXABLE 65536

/* ------------------------------------------------------------------------ */
/* Results                                                                   */
/* ------------------------------------------------------------------------ */

/** Every call that can fail returns one of these. md2_result_string() gives
 *  a short English text for each. docs/errors.md explains every code. */
typedef enum md2_result {
    MD2_OK = 0,
    MD2_ERR_INVALID_ARGUMENT,     /**< NULL pointer, bad stride, t outside [0,1] */
    MD2_ERR_OUT_OF_MEMORY,        /**< the allocator returned NULL */
    MD2_ERR_IO,                   /**< a file could not be opened, read or written (the message says why) */
    MD2_ERR_TRUNCATED_HEADER,     /**< fewer than 68 bytes (a PCX: 128) */
    MD2_ERR_BAD_MAGIC,            /**< ident is not "IDP2" (a PCX: manufacturer not 0x0A) */
    MD2_ERR_BAD_VERSION,          /**< version is not 8 (a PCX: an encoding <md2/skin.h> does not read) */
    MD2_ERR_BAD_COUNT,            /**< a count field is negative */
    MD2_ERR_BAD_SKIN_SIZE,        /**< skinwidth/skinheight negative (strict: zero) */
    MD2_ERR_BAD_FRAMESIZE,        /**< framesize < 40 + 4*num_xyz (strict: !=) */
    MD2_ERR_NO_VERTICES,          /**< num_xyz is 0 */
    MD2_ERR_NO_FRAMES,            /**< num_frames is 0 */
    MD2_ERR_LIMIT_EXCEEDED,       /**< a count, or the data's size, is above a limit */
    MD2_ERR_SECTION_OUT_OF_BOUNDS,/**< a section starts in the header or ends past the data */
    MD2_ERR_SECTION_OVERLAP,      /**< two non-empty sections share bytes */
    MD2_ERR_BAD_OFS_END,          /**< strict: ofs_end differs from the data size */
    MD2_ERR_UNTERMINATED_NAME,    /**< strict: a skin or frame name has no NUL */
    MD2_ERR_BAD_VERTEX_INDEX,     /**< strict: a triangle's vertex index >= num_xyz */
    MD2_ERR_BAD_TEXCOORD_INDEX,   /**< strict: a triangle's texcoord index >= num_st */
    MD2_ERR_BAD_NORMAL_INDEX,     /**< strict: a vertex normal index >= 162 */
    MD2_ERR_BAD_GLCMDS,           /**< strict: a GL command runs past its section or names a bad vertex */
    MD2_ERR_GLCMDS_UNTERMINATED,  /**< strict: the GL command list lacks its 0 */
    MD2_ERR_FRAME_RANGE,          /**< a frame number >= num_frames */
    MD2_ERR_BUFFER_TOO_SMALL,     /**< the caller's output buffer is too small */
    MD2_ERR_INVALID_MODEL,        /**< md2_write: the model breaks a rule of the format (the diagnostic names it) */
    MD2_ERR_PARSE_SIDEFILE,       /**< <md2/animation.h> side files: a malformed line (strict: a rate of 0) */
    MD2_ERR_NOT_FOUND,            /**< no animation has that name (<md2/animation.h>); no skin file (<md2/skin.h>) */
    MD2_ERR_BAD_FRAME_TRANSFORM,  /**< strict: a frame's scale or translate (a tag's axis or origin) is not finite or too large */
    MD2_ERR_BAD_OFFSET,           /**< a tag file's offset disagrees with the layout its counts give (<md2/tags.h>) */
    MD2_RESULT_COUNT_             /**< number of codes; not a result */
} md2_result;

/** A short, static, English description of r. Never NULL, also for values
 *  that are not md2_result codes. Thread-safe. */
MD2_API const char *md2_result_string(md2_result r);

/** Quirks of real files. The lenient default accepts each of them, repairs
 *  it as documented and records its flag in md2_model.warnings; a flag set
 *  in md2_options.strict turns that quirk into its error instead. */
typedef enum md2_warning {
    MD2_WARN_OFS_END            = 1u << 0, /**< ofs_end != data size: ignored       -> MD2_ERR_BAD_OFS_END */
    MD2_WARN_FRAMESIZE_PADDED   = 1u << 1, /**< framesize > 40 + 4n: frames stepped by framesize -> MD2_ERR_BAD_FRAMESIZE */
    MD2_WARN_SKIN_SIZE_ZERO     = 1u << 2, /**< skinwidth or skinheight 0: uv helper gives 0 -> MD2_ERR_BAD_SKIN_SIZE */
    MD2_WARN_UNTERMINATED_NAME  = 1u << 3, /**< name fills its field: terminated copy -> MD2_ERR_UNTERMINATED_NAME */
    MD2_WARN_VERTEX_INDEX       = 1u << 4, /**< triangle with a vertex index >= num_xyz: triangle dropped -> MD2_ERR_BAD_VERTEX_INDEX */
    MD2_WARN_TEXCOORD_INDEX     = 1u << 5, /**< triangle with a texcoord index >= num_st: triangle dropped -> MD2_ERR_BAD_TEXCOORD_INDEX */
    MD2_WARN_NORMAL_INDEX       = 1u << 6, /**< normal index >= 162: kept, decodes as MD2_NORMAL_FALLBACK -> MD2_ERR_BAD_NORMAL_INDEX */
    MD2_WARN_GLCMDS_INVALID     = 1u << 7, /**< bad GL command: list cut before it -> MD2_ERR_BAD_GLCMDS */
    MD2_WARN_GLCMDS_UNTERMINATED= 1u << 8, /**< GL list without its 0: 0 added -> MD2_ERR_GLCMDS_UNTERMINATED */
    MD2_WARN_GLCMDS_TRAILING    = 1u << 9, /**< words after the GL list's 0: ignored -> MD2_ERR_BAD_GLCMDS */
    MD2_WARN_FRAME_TRANSFORM    = 1u << 10,/**< scale/translate NaN, infinite or beyond MD2_MAX_COORD: that axis set to 0 -> MD2_ERR_BAD_FRAME_TRANSFORM */
    MD2_WARN_ANIM_RATE_ZERO     = 1u << 11,/**< side file: an animation's rate is 0: it holds its first frame -> MD2_ERR_PARSE_SIDEFILE */
    MD2_WARN_FRAME_COUNT        = 1u << 12,/**< a tag file or linked model has another frame count than its model: frames past its last are clamped (<md2/tags.h>, <md2/animation.h>) -> MD2_ERR_FRAME_RANGE */
    /* The builder's warnings (<md2/build.h>, docs/builder.md): raised by
     * md2_build() and md2_rebuild() only, never by a parser, so setting
     * them in md2_options.strict changes nothing there. */
    MD2_WARN_PROFILE_LIMIT      = 1u << 13,/**< the model exceeds a limit of an engine (md2_profile) other than the chosen one; the message names the engine and the limit */
    MD2_WARN_NAME_CUT           = 1u << 14,/**< an animation's name was cut so that its frame names, number included, fit 16 bytes */
    MD2_WARN_ANIM_NAMES         = 1u << 15,/**< md2_anims_from_names() does not give an input animation back from the frame names: it merges it with another, splits it or names it otherwise */
    /* An advice of the parser: the file is well formed, but something in
     * it is likely not what its author meant. Nothing is repaired, and
     * setting it in md2_options.strict changes nothing (it never refuses
     * a file). */
    MD2_WARN_SAME_NORMALS       = 1u << 16 /**< a model of 3 or more vertices whose every vertex, in every frame, has the same normal index: lighting by its normals is flat; games recompute them from the triangles (md2_rebuild() with MD2_REBUILD_NORMALS, md2_mesh_smooth()) */
} md2_warning;

/** All warning flags: md2_options.strict = MD2_STRICT_ALL is fully strict.
 *  New releases may add flags (and raise this value); a strict mask of
 *  MD2_STRICT_ALL compiled against an older header keeps the older set.
 *  It includes the builder's flags (1u << 13 to 1u << 15), which no parser
 *  raises, and MD2_WARN_SAME_NORMALS, which strict mode leaves a warning. */
#define MD2_STRICT_ALL 0x1FFFFu

/** A short, static, English description of one md2_warning flag; for a
 *  value that is not exactly one flag, a generic text. Never NULL. */
MD2_API const char *md2_warning_string(uint32_t warning);

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

/** Allocation hooks. Both functions or neither: if alloc or free is NULL
 *  the C library's malloc and free are used. alloc must return memory
 *  aligned for any type (as malloc does) or NULL. */
typedef struct md2_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr);
    void *user;
} md2_allocator;

/* Reserved fields. The structs a caller fills in and passes to the
 * library (md2_options with its md2_limits, md2_model, md2_anim,
 * md2_mesh_options, md2_mesh, md2_vertex_layout, md2_tags, md2_pcx_input,
 * and the builder's md2_build_input, md2_build_anim, md2_build_options)
 * end in reserved_ members, which later 1.x releases name and give a meaning in
 * place, with zero meaning "as before". They must be zero, and they are
 * checked: every public function that reads such a struct refuses one
 * with a non-zero reserved_ element with MD2_ERR_INVALID_ARGUMENT, after
 * its NULL checks and before any other check, read, allocation or output
 * (so a struct filled in field by field on the stack, without memset,
 * fails today rather than changing meaning in a later release). Where the
 * function has a diagnostic (md2_options.error, md2_mesh_options.error or
 * an error parameter), it has section MD2_SECTION_NONE, field naming
 * struct and element ("md2_options.reserved_[3]"), index the element and
 * a message such as "md2_options.reserved_[3] is 7, not zero: it is
 * reserved for later versions; start from a zero-initialised struct".
 * Functions without a result code answer as for a NULL argument (0, NULL,
 * MD2_ANIM_NOT_FOUND, MD2_TAG_NOT_FOUND, an empty GL command list, u and
 * v of 0). The free functions release what they are given whatever its
 * reserved_ hold. Every struct the library fills in comes with its
 * reserved_ zero, so it can be passed back as it is; the ones it only
 * writes (md2_diagnostic, md2_player_frames, md2_image, md2_bundle) are
 * never read back and so never checked. docs/errors.md lists the
 * functions that check each struct. */

/** Upper bounds on counts; 0 in a field means "no limit beyond the file":
 *  every section must fit inside the data (and end by MD2_MAX_DATA_SIZE),
 *  and vertices and texcoords are at most MD2_MAX_INDEXABLE (the uint16
 *  triangle index width). A count above its limit gives
 *  MD2_ERR_LIMIT_EXCEEDED, checked with the header (before any data past
 *  it is read). max_file_size bounds the size of the data, for md2_parse()
 *  and the loaders alike: larger data gives MD2_ERR_LIMIT_EXCEEDED once
 *  the header has passed its checks, and the loaders read at most
 *  max_file_size + 1 bytes (0: no bound beyond what the header can
 *  address). */
typedef struct md2_limits {
    uint32_t max_skins;
    uint32_t max_vertices;
    uint32_t max_texcoords;
    uint32_t max_triangles;
    uint32_t max_frames;
    uint32_t max_glcmds;
    size_t max_file_size;
    uint32_t reserved_[4];      /**< must be zero: room for new limits (checked as part of md2_options: "md2_limits.reserved_[i]") */
} md2_limits;

/** The original Quake II engine's limits (qfiles.h): 32 skins, 2048
 *  vertices, 4096 triangles, 512 frames; texcoords and GL commands as large
 *  as those imply (2048 * 3 texcoords, 16384 words). Real files exceed
 *  these; use them only to refuse what the original engine refused. */
MD2_API md2_limits md2_limits_quake2(void);

/** Where in the data a problem lies. */
typedef enum md2_section {
    MD2_SECTION_NONE = 0,
    MD2_SECTION_HEADER,
    MD2_SECTION_SKINS,
    MD2_SECTION_TEXCOORDS,
    MD2_SECTION_TRIANGLES,
    MD2_SECTION_FRAMES,
    MD2_SECTION_GLCMDS,
    MD2_SECTION_SIDEFILE,    /**< a text side file (.anm, .framegroups); see line and column */
    MD2_SECTION_TAGS         /**< a UFO:AI .tag file (<md2/tags.h>): its header, names or tag frames; field says which */
} md2_section;

/** The name of a section ("header", "skins", ...). Never NULL. */
MD2_API const char *md2_section_string(md2_section s);

/** Details of one error or warning: the one way every part of the library
 *  (parser, loaders, writer, side files, animations) says what is wrong
 *  and where. field points to a static string; message is inside the
 *  struct. A call that fails fills the md2_diagnostic it was given
 *  (md2_options.error, or a parameter) completely; on success it is left
 *  with result MD2_OK and an empty message. Output only: the library
 *  writes it and never reads it, so what it holds before a call (its
 *  reserved_ included) does not matter. */
typedef struct md2_diagnostic {
    md2_result result;      /**< the error (MD2_OK for a warning) */
    uint32_t warning;       /**< the md2_warning flag (0 for an error) */
    md2_section section;    /**< the section at fault */
    const char *field;      /**< header field or element field, e.g. "ofs_tris"; "" if none */
    size_t offset;          /**< byte offset in the data (or side-file text) where the fault is */
    size_t index;           /**< element number within the section (0 if none) */
    size_t line;            /**< side files: 1-based line (0 if the fault is not on a line) */
    size_t column;          /**< side files: 1-based byte column (0 if none) */
    char message[256];      /**< a complete English sentence naming all of the above */
    uintptr_t reserved_[4]; /**< room for growth; written as zero (output only: not checked) */
} md2_diagnostic;

/** Called once for every quirk repaired by lenient loading, in the order the
 *  checks run (header fields, section bounds, then names, triangles,
 *  frame transforms, normals and GL commands; side files line by line),
 *  before the call returns. The diagnostic is valid during the call only. */
typedef void (*md2_warning_fn)(void *user, const md2_diagnostic *warning);

/** Options for every call that reads input (md2_parse(), the loaders, the
 *  side-file parsers). A zero-initialised struct (or a NULL pointer) means
 *  the defaults: malloc/free, no limits beyond the file, lenient. Always
 *  start from zero ("md2_options o = {0};" or memset) and set what you
 *  need: later 1.x releases give meaning to reserved_ fields in place, so
 *  the struct's size and the meaning of zero never change, and every call
 *  that takes options refuses them non-zero (here or in limits:
 *  MD2_ERR_INVALID_ARGUMENT, described in *error). The library
 *  only reads the struct, but writes to *error: threads that share one
 *  md2_options must each point error at their own md2_diagnostic (or leave
 *  it NULL). */
typedef struct md2_options {
    md2_allocator allocator;
    md2_limits limits;
    uint32_t strict;            /**< md2_warning flags to treat as errors */
    md2_diagnostic *error;      /**< if not NULL, filled when a call fails */
    md2_warning_fn on_warning;  /**< if not NULL, called for each warning */
    void *warning_user;         /**< passed to on_warning */
    uintptr_t reserved_[8];     /**< must be zero: room for new options (checked by every call that takes options: "md2_options.reserved_[i]") */
} md2_options;

/* ------------------------------------------------------------------------ */
/* The model                                                                 */
/* ------------------------------------------------------------------------ */

/** The 68-byte file header, as read (the counts of the model itself are in
 *  md2_model, after lenient repairs). */
typedef struct md2_header {
    int32_t ident, version;
    int32_t skinwidth, skinheight;
    int32_t framesize;
    int32_t num_skins, num_xyz, num_st, num_tris, num_glcmds, num_frames;
    int32_t ofs_skins, ofs_st, ofs_tris, ofs_frames, ofs_glcmds, ofs_end;
} md2_header;

/** A skin path. name is always NUL-terminated at name[64]; bytes [0,64) are
 *  the file's bytes as they were (the writer writes them back). */
typedef struct md2_skin {
    char name[MD2_SKIN_NAME_SIZE + 1];
} md2_skin;

/** A texture coordinate in skin pixels; see md2_texcoord_uv(). */
typedef struct md2_texcoord {
    int16_t s, t;
} md2_texcoord;

/** A triangle: three vertex indices (into a frame's vertices) and three
 *  texcoord indices. In a loaded model all are in range. */
typedef struct md2_triangle {
    uint16_t vertex[3];
    uint16_t texcoord[3];
} md2_triangle;

/** One compressed vertex: position = scale * v + translate per axis;
 *  normal indexes the 162-entry table (>= 162 decodes as the fallback). */
typedef struct md2_vertex {
    uint8_t v[3];
    uint8_t normal;
} md2_vertex;

/** A keyframe. name is NUL-terminated at name[16]; bytes [0,16) are as in
 *  the file. vertices points to md2_model.num_vertices vertices. */
typedef struct md2_frame {
    float scale[3];
    float translate[3];
    char name[MD2_FRAME_NAME_SIZE + 1];
    const md2_vertex *vertices;
} md2_frame;

/** A loaded model: one allocation, immutable, released with md2_free().
 *  A caller may also fill one in by hand (all pointers and counts; leave
 *  header, warnings, allocator and reserved_ zero) to pass it to
 *  md2_write() or the animation functions; such a model must not be
 *  passed to md2_free(). Every function that reads a model refuses one
 *  whose reserved_ are not zero (see "Reserved fields" above). */
typedef struct md2_model {
    md2_header header;          /**< the header as read (zero for a hand-made model) */
    int32_t skin_width;         /**< skin size in pixels, for texcoords */
    int32_t skin_height;
    size_t num_skins;
    size_t num_vertices;        /**< vertices per frame */
    size_t num_texcoords;
    size_t num_triangles;       /**< triangles kept (lenient loading drops bad ones) */
    size_t num_frames;
    size_t num_glcmds;          /**< int32 words in glcmds, including the final 0; 0 if none */
    const md2_skin *skins;
    const md2_texcoord *texcoords;
    const md2_triangle *triangles;
    const md2_frame *frames;
    const int32_t *glcmds;      /**< validated GL command words; see md2_glcmd_next() */
    uint32_t warnings;          /**< md2_warning flags raised while loading */
    md2_allocator allocator;    /**< how this model is freed */
    uintptr_t reserved_[4];     /**< must be zero: room for new fields (zero in a loaded model; checked: "md2_model.reserved_[i]") */
} md2_model;

/* ------------------------------------------------------------------------ */
/* Loading                                                                   */
/* ------------------------------------------------------------------------ */

/** Validates size bytes at data and, on success, stores in *out a new model
 *  that the caller owns and releases with md2_free(). data is not kept: the
 *  caller may free it afterwards. opts may be NULL (defaults). The model is
 *  one allocation through opts->allocator, made only after every count and
 *  offset has been checked against size. Frames stay compressed, so the
 *  model's size (md2_model_memory()) is at most size plus 16 bytes a frame,
 *  1 a skin and 512 more: about 1.01 times the file for real models.
 *  Errors: MD2_ERR_INVALID_ARGUMENT (data or out NULL), a format error (the
 *  codes above; opts->error, if set, names section, field and byte offset),
 *  MD2_ERR_OUT_OF_MEMORY. On error *out is set to NULL and nothing leaks.
 *  Thread-safe: concurrent calls share nothing but what the caller shares. */
MD2_API md2_result md2_parse(const void *data, size_t size,
                             const md2_options *opts, md2_model **out);

/** Reads the file at path (fopen/fread) and parses it as md2_parse() does,
 *  through the same reading as md2_load_stream(): same errors for the same
 *  bytes, and the same bounded reads. MD2_ERR_IO if the file cannot be
 *  opened or read; the message names the path and the operating system's
 *  reason ("no such file or directory", "is a directory", "permission
 *  denied", "input/output error", ...). */
MD2_API md2_result md2_load_file(const char *path, const md2_options *opts,
                                 md2_model **out);

/** Return value of md2_read_fn that signals a read error. */
#define MD2_READ_ERROR ((size_t)-1)

/** Reads up to size bytes into dst; returns how many it read (0 at the end
 *  of the stream), or MD2_READ_ERROR. */
typedef size_t (*md2_read_fn)(void *user, void *dst, size_t size);

/** Loads a model from a stream read through read(user, ...), for archives,
 *  pipes and network streams. For the same bytes it returns what
 *  md2_parse() returns, and it reads no more than it must:
 *   1. the 68-byte header, checked as md2_parse() checks it (magic,
 *      version, counts and limits, sizes, section layout): a stream that is
 *      not an MD2 file, such as an endless pipe of random bytes, is refused
 *      after 68 bytes;
 *   2. the bytes up to the end of the last section, kept in a buffer from
 *      the allocator that starts at 64 KiB and doubles only as data
 *      arrives (a header that lies about sizes costs memory in proportion
 *      to the bytes really delivered; at its peak a load holds at most 3.5
 *      times those bytes plus 64 KiB, an honest file about 2 times);
 *   3. without opts->limits.max_file_size: the bytes up to ofs_end, if it
 *      is larger, and one byte more to learn whether data follows the
 *      model (MD2_WARN_OFS_END); with it: the bytes up to max_file_size + 1,
 *      to learn whether the data is larger than the limit
 *      (MD2_ERR_LIMIT_EXCEEDED). These are counted, not kept.
 *  So a load reads at most MD2_MAX_DATA_SIZE + 1 bytes, or
 *  max_file_size + 1 when a limit is set; the bytes read past the model are
 *  consumed: give it a stream that ends with the model (it blocks until
 *  they or the end of the stream arrive). Errors as md2_parse(), plus
 *  MD2_ERR_IO when read returns MD2_READ_ERROR (or more than asked). */
MD2_API md2_result md2_load_stream(md2_read_fn read, void *user,
                                   const md2_options *opts, md2_model **out);

/** Releases a model from md2_parse(), md2_load_file() or md2_load_stream()
 *  with the allocator it was made with. NULL is a no-op. */
MD2_API void md2_free(md2_model *model);

/** Bytes the model occupies in memory (its one allocation). */
MD2_API size_t md2_model_memory(const md2_model *model);

/** Converts a texcoord to normalised (u, v): u = s / skin_width, v = t /
 *  skin_height (v grows downward: row 0 is the top of the skin). A zero or
 *  negative skin dimension gives 0 for that axis. */
MD2_API void md2_texcoord_uv(const md2_model *model, md2_texcoord st,
                             float *u, float *v);

/* ------------------------------------------------------------------------ */
/* GL commands                                                               */
/* ------------------------------------------------------------------------ */

/** One vertex of a GL command: normalised texcoords and a vertex index
 *  (always < num_vertices in a loaded model). */
typedef struct md2_glcmd_vertex {
    float s, t;
    uint32_t vertex;
} md2_glcmd_vertex;

/** One triangle strip or fan. */
typedef struct md2_glcmd {
    int is_fan;             /**< 1 for a triangle fan, 0 for a strip */
    size_t num_vertices;    /**< at least 1 */
    const int32_t *words_;  /**< private: 3 words a vertex */
} md2_glcmd;

/** Iteration state over a model's GL commands; initialise with
 *  md2_glcmd_begin(). Opaque storage of a fixed size (its contents may
 *  change between releases without changing its size); plain data: copy
 *  it to restart from a point. */
typedef union md2_glcmd_iter {
    unsigned char opaque_[32];
    void *align_pointer_;
    uint64_t align_u64_;
} md2_glcmd_iter;

/** Starts iterating model's GL commands. */
MD2_API void md2_glcmd_begin(md2_glcmd_iter *it, const md2_model *model);

/** Stores the next command in *cmd and returns 1, or returns 0 at the end
 *  of the list. Never reads past the model's validated words. */
MD2_API int md2_glcmd_next(md2_glcmd_iter *it, md2_glcmd *cmd);

/** Vertex i (< cmd->num_vertices) of cmd; an out-of-range i gives a zeroed
 *  vertex. */
MD2_API md2_glcmd_vertex md2_glcmd_get(const md2_glcmd *cmd, size_t i);

/* ------------------------------------------------------------------------ */
/* Animation (never allocates; thread-safe on a shared model)               */
/* ------------------------------------------------------------------------ */

/** The unit normal for a file's normal index: a pointer to 3 floats in the
 *  library's constant table. Indices >= MD2_NUM_NORMALS give the entry
 *  MD2_NORMAL_FALLBACK, so the result is always a valid pointer. */
MD2_API const float *md2_normal(unsigned index);

/** The index (0 to 161) of the table normal nearest to the direction
 *  (x, y, z): the exact arg-max of the dot product with md2_normal(i),
 *  ties to the lower index. The direction need not be unit length. A zero,
 *  NaN or infinite direction (any component) gives MD2_NORMAL_FALLBACK.
 *
 *  Exact means this computation, the same on every host (x87 included):
 *  the direction is scaled by the power of two that puts its largest
 *  magnitude in [1, 2), each component rounded to float (exact unless it
 *  falls below FLT_MIN); each dot product is (x * nx + y * ny) + z * nz
 *  in float, every product and sum rounded to nearest once; the answer is
 *  the smallest i with the largest of them. So a table entry maps to its
 *  own index, also scaled by any positive factor that leaves its non-zero
 *  components normal floats, and scaling a direction by a power of two
 *  that keeps its components exact changes nothing. In the default
 *  floating-point environment (round to nearest, subnormals kept). The
 *  builder (<md2/build.h>) maps normals to the table with it.
 *  Thread-safe, no allocation: about three dot products a call, not 162. */
MD2_API unsigned md2_normal_nearest(float x, float y, float z);

/** Interpolates keyframes frame_a and frame_b at t in [0,1]:
 *    p = (1 - t) * (scale_a * v_a + translate_a) + t * (scale_b * v_b + translate_b)
 *  written as 3 floats per vertex to positions, every position_stride bytes
 *  (0: 3 * sizeof(float)). If normals is not NULL, the linear blend of the
 *  two table normals is written likewise: shorter than 1 between keyframes
 *  (call md2_normalize() on the buffer for unit normals). t = 0 gives
 *  frame_a exactly and t = 1 frame_b exactly, table normals included;
 *  a coordinate that decodes to the same value in both keyframes is that
 *  value at every t (a vertex held still stays still in between; the
 *  blend alone can be an ulp off).
 *  Buffers: positions must hold (num_vertices - 1) * stride + 12 bytes
 *  (same for normals). A stride must be 0 or a multiple of sizeof(float)
 *  that is at least 12.
 *  Errors: MD2_ERR_INVALID_ARGUMENT (NULL model or positions, bad stride, t
 *  not in [0,1] or NaN), MD2_ERR_FRAME_RANGE. Nothing is written on error.
 *  Never allocates; thread-safe on a shared model. */
MD2_API md2_result md2_lerp(const md2_model *m, uint32_t frame_a,
                            uint32_t frame_b, float t, float *positions,
                            size_t position_stride, float *normals,
                            size_t normal_stride);

/** Scales count normals (3 floats each, every normal_stride bytes; 0:
 *  packed) to unit length in place; a zero-length normal (two opposite
 *  normals blended half and half) becomes md2_normal(MD2_NORMAL_FALLBACK).
 *  The one way to get unit normals from md2_lerp() or md2_player_pose():
 *  call it on their normals buffer. Bit-identical on every host.
 *  Errors: MD2_ERR_INVALID_ARGUMENT (normals NULL with count > 0, bad
 *  stride). Never allocates; thread-safe. */
MD2_API md2_result md2_normalize(float *normals, size_t count,
                                 size_t normal_stride);

/** Decodes one keyframe: md2_lerp(m, frame, frame, 0, ...). */
MD2_API md2_result md2_decode_frame(const md2_model *m, uint32_t frame,
                                    float *positions, size_t position_stride,
                                    float *normals, size_t normal_stride);

/** The axis-aligned box of all of a frame's decoded vertices, into min[3]
 *  and max[3]. Errors: MD2_ERR_INVALID_ARGUMENT, MD2_ERR_FRAME_RANGE. */
MD2_API md2_result md2_frame_bounds(const md2_model *m, uint32_t frame,
                                    float min[3], float max[3]);

/** Each frame's scale[3] then translate[3], 6 floats a frame, into
 *  out[0 .. 6 * m->num_frames): what a shader needs to decode the frames'
 *  bytes (md2_mesh_morph_data(), <md2/mesh.h>) as md2_lerp() does.
 *  Errors: MD2_ERR_INVALID_ARGUMENT. Never allocates; thread-safe on a
 *  shared model. */
MD2_API md2_result md2_frame_transforms(const md2_model *m, float *out);

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */
/* ------------------------------------------------------------------------ */

/** Called by md2_write_stream() with consecutive pieces of the file;
 *  returns 0 on success, anything else to stop with MD2_ERR_IO. */
typedef int (*md2_write_fn)(void *user, const void *data, size_t size);

/** The size in bytes of the file md2_write() would produce, or 0 if the
 *  model is invalid (see md2_write()). */
MD2_API size_t md2_write_size(const md2_model *m);

/** Serialises m to MD2 bytes in canonical order (header, skins, texcoords,
 *  triangles, frames, GL commands), framesize = 40 + 4 * num_vertices,
 *  ofs_end = file size; names are written as their stored bytes. Writes
 *  md2_write_size(m) bytes to buffer and stores that number in *written
 *  (written may be NULL).
 *  Errors, each also described in *error when error is not NULL:
 *  MD2_ERR_INVALID_ARGUMENT (NULL m or buffer); MD2_ERR_INVALID_MODEL,
 *  where error names the rule the model breaks by field and element:
 *  "num_vertices" or "num_frames" (0, or more vertices or texcoords than
 *  MD2_MAX_INDEXABLE: "num_texcoords"), "skin_width"/"skin_height"
 *  (negative), "frames"/"skins"/"texcoords"/"triangles"/"glcmds" (NULL
 *  with a count), "vertices" (a frame without vertices; index = frame),
 *  "scale" (a frame transform that does not decode to finite coordinates;
 *  index = frame), "vertex"/"texcoord" (a triangle index out of range;
 *  index = triangle), "glcmds" (a malformed command, a missing final 0 or
 *  words after it; index = word), "num_skins"/"num_triangles"/
 *  "num_frames"/"num_glcmds"/"ofs_end" (the file would pass
 *  MD2_MAX_DATA_SIZE); MD2_ERR_BUFFER_TOO_SMALL. Never allocates.
 *  Thread-safe on a shared m. */
MD2_API md2_result md2_write(const md2_model *m, void *buffer, size_t capacity,
                             size_t *written, md2_diagnostic *error);

/** As md2_write(), through a callback in pieces of at most a few KiB, with
 *  no large buffer. Errors as md2_write(), plus MD2_ERR_IO if write fails
 *  (the pieces before it have been delivered). */
MD2_API md2_result md2_write_stream(const md2_model *m, md2_write_fn write,
                                    void *user, md2_diagnostic *error);

/* ------------------------------------------------------------------------ */
/* Version                                                                   */
/* ------------------------------------------------------------------------ */

/** The library's version as "MAJOR.MINOR.PATCH" (of the compiled library,
 *  which may differ from the header's macros). Never NULL. */
MD2_API const char *md2_version_string(void);

#ifdef __cplusplus
}
#endif

#endif /* MD2_MD2_H */
