/*
 * md2 export's writers (the library md2_export_writers): the job that
 * export.c (the command line) fills in, and the writers that carry it out,
 * export_obj.c (OBJ and MTL) and export_gltf.c (glTF 2.0 and GLB), with
 * what they share: the output budget and the skins an export must not
 * overwrite (export_job.c). The writers use core/ (messages, byte buffers,
 * files put in place together) and nothing of commands/. docs/tool.md,
 * "md2 export", is the manual.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_EXPORT_INTERNAL_H
#define MD2_EXPORT_INTERNAL_H

#include "tool.h"
#include "bytes.h"
#include "outfiles.h"

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

/* Each returns TOOL_OK, or TOOL_FAILED after printing why; nothing is left
 * behind on failure. */
int export_obj(const export_job *job);
int export_gltf(const export_job *job, int binary);

/* 0 after printing why when path, an output of job, is its skin file or
 * the skin of a model it attaches (which the export must not overwrite);
 * else 1. */
int export_not_skin(const export_job *job, const char *path);

#endif /* MD2_EXPORT_INTERNAL_H */
