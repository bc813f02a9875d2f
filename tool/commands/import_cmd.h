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
    long skin_width, skin_height; /* --skin-size: a texture resized to it, a model without one that size; or 0 */
    int smooth_normals;       /* --normals smooth: the source's normals not used, the builder's from the geometry */
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
    char texture_warning[768]; /* a texture left out (unreadable, or no texcoords to map it), or "" */
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
int imp_skin_pcx(const tool_image *img, const char *palette_path, const uint8_t *game_palette,
                 unsigned char **out, size_t *out_size);

/* Where the skin goes and its name in the model (import_game.c). */
typedef struct imp_skin_plan {
    char *file;          /* the skin's file to write (malloc'd) */
    char *name;          /* its name in the model (malloc'd) */
    char *png_file;      /* --skin-png: the true-colour PNG beside file, or NULL */
    int pcx;             /* file is an 8-bit PCX (else a PNG) */
    int game_path;       /* name is a game path under --game's folder */
    int have_palette;    /* palette is the game's (--game) */
    uint8_t palette[768];
    char *palette_source; /* where the palette was read ("DIR/pak0.pak, entry 3"), or NULL */
} imp_skin_plan;

/* 1 for a name ending in .pcx, 0 for .png (any case), -1 for another. */
int imp_skin_name_kind(const char *name);
/* The plan for OUT with --skin-name (or NULL), --game DIR (or NULL),
 * --pcx and --skin-png: with DIR, its palette read (pak.h) and, when out
 * lies under DIR, a game path checked (relative, '/', lower case, under 64
 * bytes). 0 after saying why, p then empty. */
int imp_skin_plan_make(const char *out, const char *skin_name, const char *game, int pcx,
                       int skin_png, imp_skin_plan *p);
void imp_skin_plan_free(imp_skin_plan *p);

#endif /* MD2_TOOL_IMPORT_CMD_H */
