/*
 * md2: the libmd2 command (info, validate, export, render, import). A user of the
 * library like any other: everything it knows of MD2 comes from the public
 * headers. Each subcommand lives in a file of its own; this header holds
 * what they share (common.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TOOL_H
#define MD2_TOOL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <md2/md2.h>
#include <md2/animation.h>
#include <md2/tags.h>

#include "image.h"

/* Exit statuses of every subcommand. */
enum {
    TOOL_OK = 0,      /* done */
    TOOL_FAILED = 1,  /* a file could not be read, was refused, or an output could not be written */
    TOOL_USAGE = 2    /* bad command line */
};

/* "md2 CMD: " + the formatted message + newline, to stderr; the message
 * goes through tool_put_clean(), so whatever it quotes from a file (or a
 * command line) cannot break the line or reach the terminal as control
 * sequences. The format must therefore hold no newline of its own. */
void tool_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The streams the command prints to: stdout and stderr, unless a hook set
 * with tool_set_stream_hook() names others for the calling thread (it is
 * called with err 0 for stdout, 1 for stderr, and returns NULL for the
 * usual one). md2 export of a folder gives each worker thread streams of
 * its own, printed whole when its model is done. tool_error() and
 * everything an export prints go through them. The hook is the command's
 * one global: set it before any thread starts, clear it (NULL) after they
 * have all ended. */
typedef FILE *(*tool_stream_hook)(int err);
void tool_set_stream_hook(tool_stream_hook hook);
FILE *tool_stdout(void);
FILE *tool_stderr(void);

/* 1 if arg is -h or --help. */
int tool_is_help(const char *arg);

/* Parses a whole decimal number in [min, max] into *out; 0 if arg is not one. */
int tool_parse_long(const char *arg, long min, long max, long *out);
/* Parses a whole decimal number (with fraction and sign allowed) into *out. */
int tool_parse_double(const char *arg, double *out);
/* Parses "AxB" (two whole numbers in [1, max]) into *a and *b. */
int tool_parse_pair(const char *arg, long max, long *a, long *b);
/* The engine profiles the command names (--profile): "quake2", "yquake2",
 * "ufoai", "q2pro", in md2_profile order from MD2_PROFILE_QUAKE2; the
 * list for messages. Parses one into *p (an md2_profile); 0 if arg is
 * none of them. */
#define TOOL_PROFILE_NAMES "quake2, yquake2, ufoai or q2pro"
int tool_parse_profile(const char *arg, int *p);
/* The command-line name of profile p ("quake2"), "format" for
 * MD2_PROFILE_FORMAT. */
const char *tool_profile_name(int p);

/* The largest side file (.anm, .framegroups, .tag) the command reads: the
 * real ones are a few kilobytes; a larger one is refused unread. */
#define TOOL_MAX_SIDE_FILE (16ul * 1024ul * 1024ul)

/* Warnings by kind: the same md2_warning flag in the same section (so a
 * model's ofs_end and its tag file's are two kinds). */
#define TOOL_WARNING_FLAGS 32
#define TOOL_WARNING_SECTIONS 16
#define TOOL_WARNING_KINDS (TOOL_WARNING_FLAGS * TOOL_WARNING_SECTIONS)
/* The warnings kept whatever their kind; past them, only the first of each
 * kind is kept (the others are counted), so that a file with 200,000 bad
 * triangles costs no more memory than one with a thousand. */
#define TOOL_KEPT_WARNINGS 1000

/* w's kind: 0 to TOOL_WARNING_KINDS - 1. */
size_t tool_warning_kind(const md2_diagnostic *w);

/* A model loaded with its side files (md2_bundle_load_stream(): .anm or
 * .framegroups animations, else animations from the frame names; .tag
 * tags), and the warnings raised while loading them: all counted, the
 * first TOOL_KEPT_WARNINGS kept, and after them the first of each kind. */
typedef struct tool_model {
    md2_bundle *bundle;
    const md2_model *model;   /* bundle->model */
    const md2_anim *anims;    /* bundle->anims, num_anims entries */
    size_t num_anims;
    md2_diagnostic *warnings; /* warning_count entries, malloc'd: the ones kept */
    size_t warning_count;
    size_t warning_capacity;
    size_t warning_total;     /* every warning raised, kept or not */
    size_t kind_count[TOOL_WARNING_KINDS]; /* warnings raised of each kind */
    int warnings_lost;        /* 1 if a warning could not be kept (out of memory) */
    md2_model *smoothed;      /* tool_smooth_normals(): model then points here */
} tool_model;

/* Loads path and its side files. strict: md2_warning flags to refuse
 * (MD2_STRICT_ALL or 0). On failure returns the result and fills *error;
 * *out is then empty. The model is opened with tool_open_input() (a pipe
 * works) and read as md2_load_stream() reads (its header first, then no
 * further than it describes); the side files must be regular files of at
 * most TOOL_MAX_SIDE_FILE bytes (md2_bundle_load_stream()). */
md2_result tool_load(const char *path, uint32_t strict, tool_model *out, md2_diagnostic *error);

/* The message of d without the "PATH: " it starts with when it is about
 * the file at path itself (md2_bundle_load_file() names the file in its
 * messages): the caller prints "PATH: " before it. A message about a side
 * file keeps that file's name. */
const char *tool_message(const char *path, const md2_diagnostic *d);

/* --normals smooth (md2 export, md2 render): m->model becomes a copy of
 * the model whose normals are recomputed from its triangles, frame by
 * frame, as md2 import --normals smooth does (md2_rebuild() with
 * MD2_REBUILD_NORMALS: area-weighted smooth normals, as table indices);
 * positions, texcoords, triangles and names stay byte for byte.
 * tool_model_free() releases it. Returns 1, or 0 with a message printed
 * for command cmd. */
int tool_smooth_normals(const char *cmd, const char *path, tool_model *m);

/* 1 if value is a --normals kind the commands know ("smooth"). */
int tool_normals_kind(const char *value);

/* Prints "md2 CMD: PATH: MESSAGE" for d, an error of tool_load(path, ...). */
void tool_load_error(const char *cmd, const char *path, const md2_diagnostic *d);

/* Writes s for a person at a terminal: printable ASCII and valid UTF-8 as
 * they are, every other byte (control characters, DEL, bytes that are not
 * UTF-8) as \xNN, and so is each byte of a character that a terminal acts
 * on instead of showing it (the C1 controls U+0080 to U+009F, U+2028,
 * U+2029, and the bidirectional controls U+061C, U+200E, U+200F, U+202A to
 * U+202E, U+2066 to U+2069), so that a name from a file can neither break
 * a line, nor send escape sequences, nor reorder what follows it. Returns
 * the number of columns written (a UTF-8 character counts as one); with f
 * NULL, writes nothing and only counts. The one escaping function of the
 * command: everything it prints that a file or a command line gave goes
 * through it (directly, or through tool_error() and tool_term_printf()). */
size_t tool_put_clean(FILE *f, const char *s);

/* printf() of fmt to f through tool_put_clean(): the whole formatted text
 * is cleaned, a newline in it included (write the line's end apart). */
void tool_term_printf(FILE *f, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Writes s as a JSON string, in pure ASCII: '"' and '\\' escaped, printable
 * ASCII as it is, every other byte b as \u00XX (the code point b, so a
 * reader gets one character per byte of the file). */
void tool_json_string(FILE *f, const char *s);

/* The animation named name (--anim NAME) of a loaded model: its index in
 * m->anims, or MD2_ANIM_NOT_FOUND after printing (as cmd) which names there
 * are (names as tool_put_clean() writes them). */
size_t tool_find_anim(const char *cmd, const tool_model *m, const char *name);
void tool_model_free(tool_model *m);

/* 1 if paths a and b name the same file: the same device and inode when
 * both exist (./skin.png, skin.png and a link to it), else the same
 * spelling. An output that would replace an input is refused with it. */
int tool_same_file(const char *a, const char *b);

/* 1 if a failed read ran out of memory (errno ENOMEM, set to 0 before the
 * read, or "out of memory" in its message err): an error even where a
 * file that cannot be read is only a note. */
int tool_is_out_of_memory(const char *err);

/* The longest file name the command makes (a folder entry's limit on the
 * common file systems). */
#define TOOL_NAME_MAX 255

/* How many bytes of path to keep before adding a suffix of suffix_len
 * bytes ("PATH.tmp-md2-999") so that the file's name stays within
 * TOOL_NAME_MAX: all of path, or less, its name cut short. */
size_t tool_name_beside(const char *path, size_t suffix_len);

/* An output file that appears only when it is complete: the bytes go to a
 * temporary file beside path, and tool_out_commit() renames it into place.
 * A command that fails calls tool_out_abort(), which removes the temporary
 * file, so nothing is left behind. The temporary file is a new one, created
 * exclusively (O_CREAT | O_EXCL, and O_NOFOLLOW where there is one): a file
 * or link already there (another run's temporary file, a planted link) is
 * never opened or followed, and the next name is tried: PATH.tmp-md2, then
 * PATH.tmp-md2-1 to PATH.tmp-md2-999. */
typedef struct tool_out {
    FILE *file;
    char *path;
    char *tmp;
} tool_out;

/* Creates and opens the temporary file (its name in out->tmp); on failure
 * prints why (as cmd) and returns 0. */
int tool_out_open(tool_out *out, const char *cmd, const char *path);
/* Writes size bytes of data to the temporary file; on a short write prints
 * why (as cmd), removes the temporary file (tool_out_abort()) and returns 0. */
int tool_out_write(tool_out *out, const char *cmd, const void *data, size_t size);
/* Flushes and closes the temporary file (without renaming it); on failure
 * prints why and returns 0, the file then closed but still there. */
int tool_out_close(tool_out *out, const char *cmd);
/* Flushes, closes and renames; on failure prints why, removes the
 * temporary file and returns 0. */
int tool_out_commit(tool_out *out, const char *cmd);
/* Closes and removes the temporary file (safe on an unopened tool_out). */
void tool_out_abort(tool_out *out);
/* A whole output file at once: tool_out_open(), tool_out_write() and
 * tool_out_commit() of the size bytes at data; 0 after printing why. */
int tool_write_file(const char *cmd, const char *path, const void *data, size_t size);

/* Loads a skin image (tool_image_read(), image.h): PCX through libmd2's
 * md2_pcx_decode(), PNG, TGA, BMP, JPEG through stb_image. On failure
 * prints why (as cmd) and returns 0. Free it with tool_image_free(). */
int tool_image_load(const char *cmd, const char *path, tool_image *out);

/* The most bytes of pixels (width * height * 4) tool_png_encode()
 * takes: 2^31, which keeps libpng's size bounds from wrapping. */
#define TOOL_PNG_MAX_BYTES 2147483648.0

/* Encodes img as PNG (libpng's simplified API) into a malloc'd buffer
 * (*png, *size bytes) and returns 1. On failure returns 0 with *png NULL
 * and writes why into why (why_size bytes; why may be NULL): "out of
 * memory", libpng's own message, or a sentence saying that the image is
 * too large (more than TOOL_PNG_MAX_BYTES bytes of pixels) or has no
 * pixels. Print it as "cannot convert ... to PNG: WHY". */
int tool_png_encode(const tool_image *img, unsigned char **png, size_t *size, char *why,
                    size_t why_size);

/* Finds the skin of a model the way a game would (md2_skin_find): the
 * model's skin names, under root (may be NULL: the folders above the model
 * are tried) and beside the model (UFO:AI's ".body" beside it only; a
 * model that names no skin, its own name). Writes the first path that exists into
 * path (path_size bytes) and returns 1, or returns 0 if there is none. */
int tool_find_skin(const char *model_path, const md2_model *model, char *path, size_t path_size);

#endif /* MD2_TOOL_H */
