/*
 * Tier 2 of the private headers (see diag.h): the file format's layout
 * and the parser's entry points and helpers, shared by the parser, the
 * stream loader, the writer and the GL command scan (not installed).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_FORMAT_H
#define MD2_FORMAT_H

#include "diag.h"

#include <math.h>

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
void md2__glcmds_scan(const uint8_t *bytes, const int32_t *words, size_t n,
                      size_t num_vertices, md2_glscan *out);

/* The rules of the format a model in memory (loaded, or filled in by hand)
 * can break, in one place for md2_write(), md2_write_stream(),
 * md2_write_size() and md2_rebuild() (write.c). Returns MD2_OK, or
 * MD2_ERR_INVALID_MODEL for the first rule broken, with d (if not NULL)
 * naming it: section, field, index (the frame, triangle or GL command word
 * at fault) and a message "FN: model: ..." that says what is wrong and
 * where (fn: the public function that was called). In order: 0 vertices
 * or frames; a count the format cannot hold (num_skins, num_triangles,
 * num_frames, num_glcmds of 2^31 or more; num_vertices or num_texcoords
 * above MD2_MAX_INDEXABLE), checked before any array is read; a negative
 * skin size; an array that is NULL while its count is not 0; a frame
 * without vertices or with a transform that does not decode to finite
 * coordinates within MD2_MAX_COORD; a triangle index out of range; a
 * malformed GL command list (a bad command, no terminating 0, words after
 * it). m must not be NULL; its reserved_ are the caller's to check. */
md2_result md2__check_model(const md2_model *m, const char *fn, md2_diagnostic *d);

/* What a scan of normal indices found (md2__normal_scan_fn): */
#define MD2_NSCAN_BAD 1u   /* an index of 162 or more (MD2_WARN_NORMAL_INDEX) */
#define MD2_NSCAN_OTHER 2u /* an index other than the one asked about */

/* The parser's scan of a frame's normal indices (normal_scan.c): reads the
 * n vertices at v (4 bytes each: x, y, z, normal index) once and returns
 * MD2_NSCAN_BAD if one has an index of 162 or more, plus MD2_NSCAN_OTHER
 * if one has an index other than ref (0 for n = 0). With dst not NULL the
 * 4 n bytes are also copied to dst (which must not overlap them) in the
 * same pass. Each instruction set's scan gives the same result. */
typedef unsigned (*md2__normal_scan_fn)(uint8_t *dst, const uint8_t *v, size_t n, unsigned ref);

/* The fastest scan of this build on this CPU. */
md2__normal_scan_fn md2__normal_scan_best(void);

/* The scan of one instruction set, "scalar", "sse2", "avx2" or "neon"
 * (tests/unit/test_kernels.c calls each); NULL when this build (MD2_SIMD=OFF
 * has the scalar one alone) or this CPU does not have it. */
md2__normal_scan_fn md2__normal_scan_named(const char *name);

/* The parser's entry point. data holds kept bytes of data whose whole size
 * is size (kept < size only for a stream loader that skipped bytes after
 * the last section: the checks compare ofs_end and max_file_size with
 * size); more_follows is 1 when the data is known to continue past size.
 * md2_parse(d, n, ...) is md2__parse(d, n, n, 0, ...). */
md2_result md2__parse(const void *data, size_t kept, size_t size, int more_follows,
                      const md2_options *opts, md2_model **out);

/* md2_load_stream() without the argument checks, for the bundle loader:
 * the messages name no file (the caller puts its name before them), a
 * read's failure has why(user)'s reason (why may be NULL), and with
 * whole_file a read that fails at byte 0 is "the file exists but cannot be
 * read: REASON" (a directory opened as a file). */
md2_result md2__load_source(md2_read_fn read, void *user, const char *(*why)(void *user),
                            int whole_file, const md2_options *opts, md2_model **out);

/* The checks md2__parse() makes on the header alone, in the same order and
 * with the same results (warnings are not reported: the parse that follows
 * reports them). On success, *sections_end is where the last section ends
 * (at least 68) and *data_end the larger of that and ofs_end; both are at
 * most MD2_MAX_DATA_SIZE. Fills opts->error on failure. */
md2_result md2__check_header(const uint8_t header[MD2_HEADER_SIZE],
                             const md2_options *opts, uint64_t *sections_end,
                             uint64_t *data_end);

/* 1 if a frame axis with this scale and translate decodes to finite
 * coordinates no larger than MD2_MAX_COORD for every v in 0..255: the rule
 * of the parser and the writer (format.c). */
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

#endif /* MD2_FORMAT_H */
