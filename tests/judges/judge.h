/*
 * The judges of MD2 files (tests/judges/CMakeLists.txt): MD2 readers that
 * nobody here wrote (three.js's MD2Loader, Assimp, Irrlicht) load a file,
 * and this compares what each made of it with what libmd2 decodes from the
 * same bytes: counts, every position of every frame the reader exposes,
 * normals and texture coordinates, each after the reader's own conventions
 * (axes, one vertex per triangle corner, uv origin), which each reader's
 * program states in a judge_axes and a judge_uv.
 *
 * Tolerance of a position. A reader and libmd2 that decode the same byte
 * differ only by float rounding; a reader that takes another byte (another
 * vertex, frame or axis) is off by at least one step of the frame's grid,
 * |scale| on that axis. Half a step lies between the two with the widest
 * margin on both sides, and it is the bound the builder promises for its
 * quantisation (<md2/build.h>: no decoded coordinate more than half a step
 * from its input), so a built model judged here is held to the same bound
 * everywhere. The step is each MD2 axis's own (a grid can be finer on one
 * axis than another, and max(scale) / 2 would let a whole step on the fine
 * axis through); after an axis swap, the reader's axis is held to the step
 * of the MD2 axis it holds. Float rounding adds 4 FLT_EPSILON times the
 * largest magnitude in the sum (255 |scale| + |translate|): two roundings
 * in libmd2 (multiply, add), one or two in the reader, with a factor two
 * to spare. A blend of keyframes a and b at t (Irrlicht's in-between
 * frames) gets (1 - t) times a's tolerance plus t times b's. Normals and
 * texture coordinates are compared within 1e-6 (times the value, when it
 * is larger than 1): every reader has the same table and the same division.
 *
 * Everything checked and every failure is printed and written to a JSON
 * report (--report): the file, the reader and its version, counts, the
 * largest difference seen and where, and each failure naming file,
 * reader, frame, vertex, axis, both values and the tolerance.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_JUDGE_H
#define MD2_JUDGE_H

#include <md2/md2.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit status of a judge that was told its file may be absent (--optional)
 * and found none: CTest's SKIP_RETURN_CODE. */
#define JUDGE_SKIP 77

/* How a reader's axes hold MD2's: reader axis i is sign[i] times MD2 axis
 * md2_axis[i]. */
typedef struct judge_axes {
    int md2_axis[3];
    int sign[3];
    const char *what; /* e.g. "three.js (x, y, z) = MD2 (x, z, y)" */
} judge_axes;

/* How a reader turns a texcoord (s, t) into (u, v), with libmd2's
 * md2_texcoord_uv() giving s / skin_width and t / skin_height. */
typedef enum judge_uv {
    JUDGE_UV_FLIP_V,    /* (s / w, 1 - t / h): three.js, Assimp */
    JUDGE_UV_HALF_TEXEL /* ((s + 0.5) / w, (t + 0.5) / h): Irrlicht */
} judge_uv;

typedef struct judge judge;

/* The command line every judge takes:
 *   PROGRAM [--optional] [--report OUT.json] [--dump DUMP] [--accept-known-refusal]
 *           [--reader-file OTHER] FILE
 * --optional: FILE may be absent (a corpus model): skip, not fail.
 * --report: where the JSON report goes. --dump: what the reader wrote
 * (three.js). --accept-known-refusal: a refusal the reader's program can
 * predict from the file and explain (Assimp 5.2) is not a failure, if the
 * reader then loads the same sections another way. --reader-file: the
 * reader loads OTHER while libmd2 loads FILE (the judges' self-test gives
 * the reader a copy with one byte changed, which must fail). */
typedef struct judge_args {
    const char *file, *report, *dump, *reader_file;
    int optional, accept_known_refusal;
} judge_args;

/* Fills *a from argv; prints the usage and returns 2 for a bad command
 * line, else 0. */
int judge_parse_args(int argc, char **argv, judge_args *a);

/* Loads a->file with libmd2 and decodes every keyframe, for judging
 * reader (its name, e.g. "three.js"). Returns the judge, or NULL with
 * *status set: JUDGE_SKIP (the file is absent and a->optional), 1 (libmd2
 * cannot load the file, or no memory: the judge fails, as a reader is only
 * judged against a file libmd2 reads). */
judge *judge_open(const char *reader, const judge_args *a, int *status);

/* The file's path, the file the reader loads (the same, but for
 * --reader-file) and libmd2's model of the file. */
const char *judge_path(const judge *j);
const char *judge_reader_path(const judge *j);
const md2_model *judge_model(const judge *j);

/* Sets the reader's version, for messages and the report. */
void judge_set_version(judge *j, const char *version);

/* A note for the report and stdout (what the reader does, what it showed). */
void judge_note(judge *j, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A failure that is not a comparison (the reader refused the file, an
 * attribute is missing, ...). */
void judge_fail(judge *j, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A count the reader shows (got) against libmd2's (want); non-zero when
 * they agree. where (or NULL) says where the reader shows it, for a
 * failure; the report lists each (what, got, want) once. */
int judge_count(judge *j, const char *where, const char *what, size_t got, size_t want);

/* The reader's pose of the model, one position per triangle corner (corner
 * k of triangle i at index 3i + k, the layout every reader here uses),
 * against libmd2's pose: keyframe frame_a when t is 0, else md2_lerp() of
 * frame_a and frame_b at t. Positions are 3 floats every stride bytes from
 * p. label names the reader's frame (e.g. "Irrlicht frame 49"). */
void judge_positions(judge *j, const char *label, uint32_t frame_a, uint32_t frame_b, float t,
                     const float *p, size_t stride, const judge_axes *axes);

/* The same for normals, against md2_decode_frame()'s (md2_lerp()'s for a
 * blend: not renormalised, as the readers do not renormalise either). */
void judge_normals(judge *j, const char *label, uint32_t frame_a, uint32_t frame_b, float t,
                   const float *n, size_t stride, const judge_axes *axes);

/* The reader's texture coordinates, one (u, v) per corner, 2 floats every
 * stride bytes from uv. */
void judge_uvs(judge *j, const float *uv, size_t stride, judge_uv convention);

/* Prints the summary, writes the report, frees everything. Returns the
 * exit status: 0 when every check passed, 1 otherwise. */
int judge_close(judge *j);

#ifdef __cplusplus
}
#endif

#endif /* MD2_JUDGE_H */
