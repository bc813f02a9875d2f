/*
 * md2 import: what import.c (the command line, the MD2 repair path, the
 * outputs, the summary) and import_make.c (a source's scene turned into
 * the builder's input: axes, size, winding, welding, the skin) share.
 * docs/tool.md, "md2 import", is the manual.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TOOL_IMPORT_CMD_H
#define MD2_TOOL_IMPORT_CMD_H

#include "import.h"
#include "tool.h"

#include <md2/build.h>

/* The command's name in messages ("md2 import: ..."). */
#define IMPORT_CMD "import"

/* How to turn a scene into an MD2 (from the command line). */
typedef struct imp_make_options {
    int up_z;                 /* the source is Z up, X forward (OBJ --up z): kept as it is */
    double scale;             /* --scale S (1 by default) */
    double height;            /* --height H, or 0: then scale */
    long skin_width, skin_height; /* --skin-size (a model without texture), or 0: the default */
} imp_make_options;

/* A scene made into the builder's input by imp_make(): in is what
 * md2_build() takes, filled from the scene, but for the skin's name
 * (in.num_skins and in.skin_names, which import.c sets). Its arrays are
 * the ones below, owned here; the skin's pixels and the animations' rates
 * go along. imp_input_free() frees it all. */
typedef struct imp_input {
    md2_build_input in;
    float *positions;       /* in.positions: welded vertices, MD2's axes, scaled */
    float *normals;         /* in.normals (MD2's axes), or NULL */
    float *uv;              /* in.uv: welded texcoords, on the skin */
    uint32_t *triangles;    /* in.triangles: MD2's winding */
    md2_build_anim *anims;  /* in.anims: the scene's animations in frame order, its frames
                               outside them as "frame"; names point into the scene */
    double *anim_fps;       /* in.num_anims rates: the scene's (10 for "frame") */
    tool_image skin;        /* in.skin_width x in.skin_height: the materials' images side by side, or empty */
    size_t skin_images;     /* how many images it holds (0: no texture, no skin to write) */
} imp_input;

/* "md2 import: " + the formatted message + newline on stderr, the message
 * written with tool_put_clean() (it may hold names from files). */
void imp_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The default skin size of a model without texture. */
#define IMP_DEFAULT_SKIN_SIZE 256

/* Makes *out from s, which must outlive it (the animations' names are
 * s's); 0 after printing why (as md2 import), *out then empty. source
 * names the input in messages. */
int imp_make(const char *source, const imp_scene *s, const imp_make_options *opt, imp_input *out);
/* Frees what out owns (safe on an empty one) and empties it. */
void imp_input_free(imp_input *out);

/* The skin img as an 8-bit PCX (import_pcx.c): its alpha dropped, the
 * palette of the file at palette_path (a PCX's own; another image's first
 * 256 pixels in row order), or without one the image's colours when there
 * are at most 256, else 256 by median cut; each pixel the nearest entry.
 * A malloc'd file in *out (*out_size bytes); 0 after printing why. */
int imp_skin_pcx(const tool_image *img, const char *palette_path, unsigned char **out,
                 size_t *out_size);

#endif /* MD2_TOOL_IMPORT_CMD_H */
