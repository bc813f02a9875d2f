/*
 * Helpers shared by libmd2's tests: a byte-level builder of synthetic MD2
 * files (independent of the library's writer), a counting allocator that
 * can fail on demand, and file helpers for the real corpus.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TEST_UTIL_H
#define MD2_TEST_UTIL_H

#include <md2/md2.h>

#include <stddef.h>
#include <stdint.h>

/* Upper bounds of the synthetic builder. */
#define TU_MAX_SKINS 4
#define TU_MAX_XYZ 8
#define TU_MAX_ST 8
#define TU_MAX_TRIS 8
#define TU_MAX_FRAMES 6
#define TU_MAX_GL 64
#define TU_MAX_FILE 4096

/* A synthetic model, described field by field. tu_spec_default() fills
 * the standard tiny model that most tests start from:
 *   skin 64 x 32; 2 skins; 4 vertices; 4 texcoords; 2 triangles;
 *   3 frames ("walk1", "walk2", "run1"); GL list: a strip and a fan.
 * Frame f, vertex i: scale (1 + f, 2, 0.5), translate (-1, 0, 10 f),
 *   v = (10 i + f, 255 - i, i * i), normal = (40 i + f) % 162. */
typedef struct tu_spec {
    int32_t skinwidth, skinheight;
    int num_skins, num_xyz, num_st, num_tris, num_frames, num_gl;
    char skins[TU_MAX_SKINS][64];
    int16_t st[TU_MAX_ST][2];
    uint16_t tris[TU_MAX_TRIS][6];
    float scale[TU_MAX_FRAMES][3], translate[TU_MAX_FRAMES][3];
    char names[TU_MAX_FRAMES][16];
    uint8_t verts[TU_MAX_FRAMES][TU_MAX_XYZ][4];
    int32_t gl[TU_MAX_GL];
    int frame_padding;  /* extra bytes after each frame (framesize grows) */
    int trailing;       /* extra bytes after the data (not counted in ofs_end) */
} tu_spec;

void tu_spec_default(tu_spec *s);

/* Writes the file described by s into out (TU_MAX_FILE bytes) in canonical
 * order; returns its size. */
size_t tu_build(const tu_spec *s, uint8_t *out);

/* The standard tiny model's bytes; returns the size. */
size_t tu_tiny(uint8_t *out);

/* Header field access by index (0 = ident ... 16 = ofs_end). */
int32_t tu_get32(const uint8_t *file, size_t offset);
void tu_set32(uint8_t *file, size_t offset, int32_t value);
int32_t tu_hdr(const uint8_t *file, int field);
void tu_set_hdr(uint8_t *file, int field, int32_t value);

enum {
    TU_IDENT, TU_VERSION, TU_SKINWIDTH, TU_SKINHEIGHT, TU_FRAMESIZE,
    TU_NUM_SKINS, TU_NUM_XYZ, TU_NUM_ST, TU_NUM_TRIS, TU_NUM_GLCMDS,
    TU_NUM_FRAMES, TU_OFS_SKINS, TU_OFS_ST, TU_OFS_TRIS, TU_OFS_FRAMES,
    TU_OFS_GLCMDS, TU_OFS_END
};

/* A counting allocator for md2_allocator. fail_at = n makes the n-th call
 * (1-based) return NULL; 0 never fails. */
typedef struct tu_alloc {
    size_t calls;
    size_t fail_at;
    size_t live;        /* blocks not yet freed */
    size_t live_bytes;
    size_t peak_bytes;  /* highest live_bytes */
    size_t largest;     /* largest single request */
} tu_alloc;

void tu_alloc_init(tu_alloc *a, md2_allocator *out);

/* A stream over a memory buffer for md2_load_stream(): tu_mem_read hands
 * out at most `chunk` bytes a call (0: as many as asked) and fails with
 * MD2_READ_ERROR once pos reaches fail_at (0: never). */
typedef struct tu_memstream {
    const uint8_t *data;
    size_t size, pos, chunk;
    size_t fail_at;
    size_t reads;
} tu_memstream;

size_t tu_mem_read(void *user, void *dst, size_t size);
void tu_memstream_init(tu_memstream *s, const uint8_t *data, size_t size, size_t chunk);

/* Reads a whole file into a malloc'd buffer; NULL if it cannot. */
uint8_t *tu_read_file(const char *path, size_t *size);

/* Makes a new folder from template (ending in "XXXXXX", which is
 * replaced) and returns template, or NULL where it cannot (no POSIX
 * mkdtemp or Windows _mktemp/_mkdir): the caller then skips. */
char *tu_mkdtemp(char *template_path);

/* Removes the empty folder path; 0 on success, as rmdir(). */
int tu_rmdir(const char *path);

/* Writes size bytes of data to dir/name; 1 on success. */
int tu_write_file(const char *dir, const char *name, const void *data, size_t size);

/* Writes the path of a corpus file into path (cap bytes); returns 1 if the
 * file exists, 0 if the shared corpus is absent (tests then skip). */
int tu_corpus(const char *name, char *path, size_t cap);

/* A corpus file's bytes (malloc'd; free them), or NULL if the shared
 * corpus is absent: the caller then skips. */
uint8_t *tu_read_corpus(const char *name, size_t *size);

/* Decodes frame f, vertex i of a raw MD2 file by reading its bytes
 * directly (not through the library), for cross-checks. */
void tu_raw_position(const uint8_t *file, uint32_t f, uint32_t i, float out[3]);
unsigned tu_raw_normal_index(const uint8_t *file, uint32_t f, uint32_t i);

/* Exercises every public read path of a loaded model: interpolates frame
 * pairs (all of them for small models), decodes, computes bounds, iterates
 * the GL commands, writes the model and parses the result again, which
 * must equal it. Fails the current test on any mismatch. */
void tu_walk_model(const md2_model *m);

/* Field-by-field equality of two models (arrays compared by content). */
void tu_assert_models_equal(const md2_model *a, const md2_model *b);

/* The 162-normal table read from the shared data file, or 0 if absent. */
int tu_load_normal_table(float table[162][3]);

#endif /* MD2_TEST_UTIL_H */
