/*
 * Declarations shared between libmd2's source files (not installed).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_INTERNAL_H
#define MD2_INTERNAL_H

#include "md2/animation.h"
#include "md2/md2.h"

#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* File layout of the header fields, in order (byte offset = 4 * index). */
enum {
    MD2_H_IDENT, MD2_H_VERSION, MD2_H_SKINWIDTH, MD2_H_SKINHEIGHT,
    MD2_H_FRAMESIZE, MD2_H_NUM_SKINS, MD2_H_NUM_XYZ, MD2_H_NUM_ST,
    MD2_H_NUM_TRIS, MD2_H_NUM_GLCMDS, MD2_H_NUM_FRAMES, MD2_H_OFS_SKINS,
    MD2_H_OFS_ST, MD2_H_OFS_TRIS, MD2_H_OFS_FRAMES, MD2_H_OFS_GLCMDS,
    MD2_H_OFS_END, MD2_H_COUNT
};

/* Bytes of one element of each section in the file. */
#define MD2_SKIN_BYTES MD2_SKIN_NAME_SIZE
#define MD2_TEXCOORD_BYTES 4
#define MD2_TRIANGLE_BYTES 12
#define MD2_VERTEX_BYTES 4
#define MD2_GLCMD_WORD_BYTES 4

/* The five sections in file order: which header fields hold their count
 * and offset, and the bytes of one element (0: framesize, from the
 * header). One table for the parser and the stream loader. */
typedef struct md2_section_desc {
    md2_section id;
    int count_field;
    int ofs_field;
    uint32_t elem;
} md2_section_desc;

#define MD2_NUM_SECTIONS 5
extern const md2_section_desc md2__sections[MD2_NUM_SECTIONS];

/* The name of header field k ("ident", ..., "ofs_end"). */
const char *md2__header_field_name(int k);

/* Returns from the calling function with expr's result unless it is MD2_OK. */
#define MD2_TRY(expr)                                                         \
    do {                                                                      \
        md2_result md2_try_r_ = (expr);                                       \
        if (md2_try_r_ != MD2_OK)                                             \
            return md2_try_r_;                                                \
    } while (0)

/* The allocator to use for opts (malloc/free when unset). */
md2_allocator md2__allocator(const md2_options *opts);

/* Resets d (if not NULL) to "no error": result MD2_OK, field "", zeros. */
void md2__diag_clear(md2_diagnostic *d);

/* Fills d (if not NULL) with an error and a formatted message. Returns r. */
md2_result md2__fail(md2_diagnostic *d, md2_result r, md2_section section,
                     const char *field, size_t offset, size_t index,
                     const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* 1 if anyone reads a report of quirk flag: an on_warning callback, or an
 * error diagnostic when the flag is strict. */
int md2__quirk_heard(const md2_options *opts, uint32_t flag);
/* Delivers the quirk described by d (where and message filled in): sets
 * d's result and warning, then fills opts->error and returns the strict
 * error when the flag is strict, else calls on_warning and returns MD2_OK. */
md2_result md2__quirk_report(const md2_options *opts, uint32_t flag, md2_diagnostic *d);

/* Reports quirk flag (a single md2_warning) found at section/field/offset/
 * index: with the flag in opts->strict, fills opts->error and returns the
 * strict error (md2__warning_error()); otherwise calls opts->on_warning,
 * unless mute, and returns MD2_OK. The message is formatted only when
 * someone will read it. The caller records the flag in its warnings. */
md2_result md2__vquirk(const md2_options *opts, uint32_t flag, int mute,
                       md2_section section, const char *field, size_t offset,
                       size_t index, const char *fmt, va_list ap);

/* Formats into d->message (helper of md2__fail and the warning path). */
void md2__vformat(md2_diagnostic *d, const char *fmt, va_list ap);

/* The error code that strict mode gives for one warning flag. */
md2_result md2__warning_error(uint32_t warning);

/* Result of scanning a GL command list. */
typedef struct md2_glscan {
    size_t valid_words;   /* words of complete, valid commands before the end */
    int terminated;       /* a 0 word ended the list at valid_words */
    int bad;              /* a malformed command follows valid_words */
    size_t bad_word;      /* index of the word at fault, if bad */
    const char *problem;  /* static text describing the fault, if bad */
} md2_glscan;

/* Scans n GL command words. Words come either from little-endian bytes
 * (bytes != NULL) or from an int32 array (words != NULL). */
/* The operating system's reason for errno value e, in our own words
 * ("no such file or directory"); never NULL. Thread-safe (load.c). */
const char *md2__errno_text(int e);

void md2__glcmds_scan(const uint8_t *bytes, const int32_t *words, size_t n,
                      size_t num_vertices, md2_glscan *out);

/* The parser's entry point. data holds kept bytes of data whose whole size
 * is size (kept < size only for a stream loader that skipped bytes after
 * the last section: the checks compare ofs_end and max_file_size with
 * size); more_follows is 1 when the data is known to continue past size.
 * md2_parse(d, n, ...) is md2__parse(d, n, n, 0, ...). */
md2_result md2__parse(const void *data, size_t kept, size_t size, int more_follows,
                      const md2_options *opts, md2_model **out);

/* The checks md2__parse() makes on the header alone, in the same order and
 * with the same results (warnings are not reported: the parse that follows
 * reports them). On success, *sections_end is where the last section ends
 * (at least 68) and *data_end the larger of that and ofs_end; both are at
 * most MD2_MAX_DATA_SIZE. Fills opts->error on failure. */
md2_result md2__check_header(const uint8_t header[MD2_HEADER_SIZE],
                             const md2_options *opts, uint64_t *sections_end,
                             uint64_t *data_end);

/* Animation helpers shared by anim.c, playback.c, mesh.c and the pose
 * kernels (md2__unit_normal lives in pose_kernels.c). */

/* A byte stride (0 = packed) in floats, or 0 if it is not allowed. */
size_t md2__stride_floats(size_t stride);
/* The checks of md2_lerp() on its frames and t: MD2_OK, MD2_ERR_FRAME_RANGE,
 * or MD2_ERR_INVALID_ARGUMENT (t not in [0,1], a frame without vertices). */
md2_result md2__check_pair(const md2_model *m, uint32_t frame_a, uint32_t frame_b, float t);
/* MD2_OK, MD2_ERR_FRAME_RANGE or (a frame without vertices) INVALID_ARGUMENT */
md2_result md2__check_frame(const md2_model *m, uint32_t frame);
/* wa * a + wb * b, rounded to float after each operation on every host */
float md2__blend(float wa, float a, float wb, float b);
/* Scales n to unit length, or sets it to md2_normal(MD2_NORMAL_FALLBACK)
 * if it is (nearly) zero. */
void md2__unit_normal(float n[3]);
/* Position (and normal, if nrm is not NULL) of vertex i of keyframes fa,
 * fb at t, exactly as md2_lerp() computes it (not renormalised). */
void md2__lerp_vertex(const md2_frame *fa, const md2_frame *fb, float t, size_t i,
                      float pos[3], float nrm[3]);

/* A player's pose, checked against a model (playback.c). */
typedef struct md2__pose {
    md2_player_frames st;
    const md2_frame *ca, *cb, *oa, *ob; /* current a, b; outgoing a, b */
} md2__pose;

/* Reads the pose p shows and checks its frames against m. */
md2_result md2__pose_begin(const md2_player *p, const md2_model *m, md2__pose *pose);
/* The box of the pose st describes on m, as md2_player_bounds() gives it. */
md2_result md2__frames_bounds(const md2_model *m, const md2_player_frames *st,
                              float min[3], float max[3]);
/* Position (and normal, if nrm is not NULL) of model vertex i in the pose,
 * exactly as md2_player_pose() computes it. */
void md2__pose_vertex(const md2__pose *pose, size_t i, float pos[3], float nrm[3]);

/* 1 if a frame axis with this scale and translate decodes to finite
 * coordinates no larger than MD2_MAX_COORD for every v in 0..255. */
int md2__axis_ok(float scale, float translate);

/* md2__axis_ok() with its usual case inline, for loops over frames: both
 * within 1e27 (255 * 1e27 + 1e27 < 1e30) needs no call. NaN fails the
 * comparisons and goes to the call. */
static inline int md2__axis_ok_fast(float scale, float translate)
{
    return (fabsf(scale) <= 1e27f && fabsf(translate) <= 1e27f) ||
           md2__axis_ok(scale, translate);
}

/* Layout of a model's single allocation. */
typedef struct md2_layout {
    size_t frames, glcmds, texcoords, triangles, skins, vertices, total;
} md2_layout;

/* Computes the layout for the given counts; 0 if the size overflows. */
int md2__layout(md2_layout *l, size_t num_skins, size_t num_vertices,
                size_t num_texcoords, size_t num_triangles, size_t num_frames,
                size_t num_glcmds);

#endif /* MD2_INTERNAL_H */
