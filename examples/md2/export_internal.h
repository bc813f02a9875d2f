/*
 * md2 export: what export.c (the command line), export_obj.c (OBJ and MTL)
 * and export_gltf.c (glTF 2.0 and GLB) share, and the byte buffer they
 * build files in (export_buf.c). docs/tool.md, "md2 export", is the manual.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_EXPORT_INTERNAL_H
#define MD2_EXPORT_INTERNAL_H

#include "tool.h"

/* The command's name in messages ("md2 export: ..."). */
#define EXPORT_CMD "export"

/* What to export, decided by export.c from the command line. */
typedef struct export_job {
    const char *model_path;  /* MODEL as given */
    const char *out_path;    /* -o OUT as given */
    const tool_model *tm;    /* the model with its side files */
    const md2_anim *anims;   /* the animations to export: all, or the one of --anim */
    size_t num_anims;
    int anim_given;          /* 1 with --anim (OBJ: one file per frame of anims[0]) */
    uint32_t frame;          /* --frame N, else 0 */
    int y_up;                /* --y-up */
    const char *skin_path;   /* the skin file used, or NULL for none */
    const unsigned char *png;/* the skin as PNG (png_size bytes), or NULL */
    size_t png_size;
    int skin_width, skin_height;
    double max_output;       /* --max-output: the most bytes the export may write */
    /* glTF only */
    int compact;             /* --compact: quantised (KHR_mesh_quantization) */
    double keyframe_error;   /* --keyframe-error E in model units; < 0: the default */
    unsigned long max_targets; /* --max-targets N (>= 2); 0: no limit */
    const struct tool_attached *attached; /* --attach: the models on tags (attach_opt.h) */
    size_t num_attached;
} export_job;

/* The most bytes an export writes by default (--max-output raises it). */
#define EXPORT_MAX_OUTPUT 268435456.0

/* 1 if bytes (at least what the export will write, or with exact what it
 * wrote) are within job->max_output; else 0 after saying so: "the export
 * would be 1.7 GiB, over the 256 MiB limit; --max-output raises it". */
int export_within_budget(const export_job *job, double bytes, int exact);

/* ---- folders (export_folder.c) ----
 * md2 export DIR... -o OUTDIR/: every model below the DIRs (and every
 * MODEL named) exported as OUTDIR/ + its path below its DIR (a MODEL: its
 * name), with the extension ext (".glb", ".gltf", ".obj"), by a pool of
 * jobs threads (0: one per online CPU), each model as export_model() of
 * the command line's options. roles (argc bytes) says what each word of
 * argv is: */
enum {
    EXPORT_WORD_OPTION = 0, /* an option every model is exported with (or its value) */
    EXPORT_WORD_INPUT = 1,  /* a MODEL or DIR */
    EXPORT_WORD_FOLDER = 2  /* read by the folder export alone: -o, --format, --jobs, -- */
};
/* The most threads --jobs gives. */
#define EXPORT_MAX_JOBS 256
#define EXPORT_MAX_JOBS_TEXT "256"
/* TOOL_OK when every model was exported; TOOL_FAILED when one was not (all
 * the others are), after listing them. */
int export_folder(int argc, char **argv, const unsigned char *roles, const char *out_dir,
                  const char *ext, long jobs);
/* md2 export of one model (a folder export's worker: never of a folder). */
int export_model(int argc, char **argv);
/* 1 if path is a folder (or a link to one). */
int export_is_folder(const char *path);
/* 1 if path is there and is not a folder. */
int export_exists_not_folder(const char *path);

/* Each returns TOOL_OK, or TOOL_FAILED after printing why; nothing is left
 * behind on failure. */
int export_obj(const export_job *job);
int export_gltf(const export_job *job, int binary);

/* A growing byte buffer. An allocation failure (or a size that would
 * overflow) sets failed; every later append is then ignored, so callers
 * check failed once, at the end. */
typedef struct xbuf {
    unsigned char *data;
    size_t size;
    size_t capacity;
    int failed;
} xbuf;

void xbuf_free(xbuf *b);
/* Makes room for n more bytes; 0 (and failed set) if it cannot. */
int xbuf_reserve(xbuf *b, size_t n);
void xbuf_bytes(xbuf *b, const void *data, size_t n);
void xbuf_str(xbuf *b, const char *s);
void xbuf_printf(xbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Little-endian integers and IEEE-754 single floats, byte by byte: the
 * same bytes on every host. */
void xbuf_u8(xbuf *b, unsigned v);
void xbuf_u16(xbuf *b, unsigned v);
void xbuf_u32(xbuf *b, uint32_t v);
void xbuf_f32(xbuf *b, float v);
/* Appends fill bytes until size is a multiple of align. */
void xbuf_align(xbuf *b, size_t align, unsigned char fill);
/* s as a JSON string with its quotes: printable ASCII as it is (with \" and
 * \\ escaped), every other byte as \u00XX (read as Latin-1), so any bytes
 * give valid JSON and valid UTF-8. */
void xbuf_json_string(xbuf *b, const char *s);
/* A float32 value as the shortest of %.9g that reads back as the same
 * float (JSON has no NaN or infinity: callers pass finite values). */
void xbuf_json_float(xbuf *b, float v);
/* A double as the shortest of %.15g to %.17g that reads back as the same
 * double (finite values only). A float written so reads back as that very
 * float whether the reader parses JSON numbers as floats or as doubles. */
void xbuf_json_double(xbuf *b, double v);
/* data as base64 (RFC 4648, with padding). */
void xbuf_base64(xbuf *b, const unsigned char *data, size_t n);

/* The files of one export that must appear together or not at all (an OBJ
 * set: OUT.png, OUT.mtl, the .obj files), put in place one by one. Each is
 * written under a temporary name (tool_out) and renamed into place by
 * export_set_place(); a file of the same name that was there before is
 * first kept aside, as NAME.old-md2 (a hard link, else a rename), until
 * export_set_finish() removes those copies (success) or removes the new
 * files and puts the old ones back (failure). Zero-initialise it. */
typedef struct export_placed {
    char *path;   /* the file put in place */
    char *backup; /* the old file of that name, kept aside; NULL: there was none */
} export_placed;

typedef struct export_set {
    export_placed *files;
    size_t count;
    size_t capacity;
    const char *cmd; /* the command named in messages ("import"); NULL: "export" */
    double bytes;     /* the bytes of the files placed */
} export_set;

/* Closes out (opened with tool_out_open()) and renames it into place as a
 * file of set: 1; or 0 after printing why, with its temporary file removed
 * and any old file of that name as it was. out is empty afterwards. */
int export_set_place(export_set *set, tool_out *out);
/* The size bytes at data as the file path of set, as export_set_place(). */
int export_set_write(export_set *set, const char *path, const void *data, size_t size);
/* ok: removes the copies kept aside. Not ok: removes every file of set and
 * puts back the old files they replaced, last placed first. Empties set. */
void export_set_finish(export_set *set, int ok);

/* 0 after printing why when path, an output of job, is its skin file or
 * the skin of a model it attaches (which the export must not overwrite);
 * else 1. */
int export_not_skin(const export_job *job, const char *path);

/* A copy of path with its extension (the last '.' of the last path
 * component) replaced by ext, ext including its '.'. NULL when out of
 * memory; free() it. */
char *export_with_extension(const char *path, const char *ext);
/* The last path component of path. (Names from files are printed with
 * tool_put_clean().) */
const char *export_base_name(const char *path);

#endif /* MD2_EXPORT_INTERNAL_H */
