/*
 * md2 import: what the source readers (import_gltf.c, import_obj.c) hand
 * to the command (import.c), which turns it into an MD2 with the builder.
 *
 * A reader fills an imp_scene in the SOURCE's own terms: its axes (glTF: Y
 * up, +Z forward; OBJ: as the file has them), its units, its winding
 * (counter-clockwise seen from the front, as glTF and OBJ have it), its
 * texture coordinates (u right, v down, 0..1 across the image: glTF's own
 * convention, whose v = 0 is the top row as MD2's t = 0 is; an OBJ reader
 * flips its v to this). import.c does everything MD2-specific: the axis
 * conversion (inverse of md2 export's), --scale / --height, the winding,
 * packing several materials' images into one skin, PNG / PCX output,
 * naming the frames, the builder, the summary.
 *
 * Every array is malloc'd and owned by the scene; imp_scene_free() frees
 * them all (safe on a zeroed or partly filled scene). Readers never
 * print: they fill err with one line naming what is wrong and where (the
 * JSON path "meshes[2].primitives[0].attributes.POSITION", or "FILE:LINE")
 * and return 0, the scene then freed and zeroed. Notes (something skipped,
 * not an error) go into the scene's notes for import.c to print.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TOOL_IMPORT_H
#define MD2_TOOL_IMPORT_H

#include <stddef.h>
#include <stdint.h>

/* An image a material uses: either a file (path, resolved against the
 * source's folder) or bytes the source carries (a glTF data URI or
 * buffer view), still encoded (PNG, JPEG...). import.c decodes it. */
typedef struct imp_image {
    char *label;          /* for messages: "images[2]" or the file name */
    char *path;           /* a file to read, or NULL */
    unsigned char *bytes; /* the encoded image, or NULL (then path) */
    size_t size;
} imp_image;

/* A stretch of the scene's frames that came from one animation. */
typedef struct imp_anim {
    char *name;         /* the source's name ("walk"); readers invent "anim0"... for unnamed ones */
    size_t first_frame; /* into the scene's frames */
    size_t num_frames;  /* at least 1 */
    double fps;         /* the keyframe rate it was sampled at (> 0) */
} imp_anim;

typedef struct imp_scene {
    size_t num_frames;       /* at least 1 */
    size_t num_vertices;     /* per frame */
    float *positions;        /* num_frames * num_vertices * 3: frame f, vertex i at [3 * (f * num_vertices + i)] */
    float *normals;          /* same layout, or NULL (the builder then computes them) */
    size_t num_texcoords;
    float *uv;               /* num_texcoords * 2, u right, v down, 0..1 across the material's image; or NULL when num_texcoords is 0 */
    size_t num_triangles;
    uint32_t *triangles;     /* 6 a triangle: v0 t0 v1 t1 v2 t2, counter-clockwise seen from the front (t: 0 when there are no texcoords) */
    uint32_t *tri_material;  /* num_triangles material indices, IMP_NO_MATERIAL for none; or NULL: none at all */
    size_t num_materials;
    int32_t *material_image; /* num_materials: each material's base colour image (index into images), or -1 */
    char **material_names;   /* num_materials names (for messages), never NULL entries */
    size_t num_images;
    imp_image *images;
    size_t num_anims;        /* 0: one rest pose (num_frames 1), import.c names it */
    imp_anim *anims;         /* in the order their frames lie */
    size_t num_notes;
    char **notes;            /* lines for the user ("meshes[1].primitives[0]: POINTS skipped") */
} imp_scene;

#define IMP_NO_MATERIAL UINT32_MAX

/* What the command line asks of a reader. */
typedef struct imp_options {
    double fps;                   /* keyframes a second for sampled animations (default 10) */
    int fps_given;                /* --fps was given: fps also overrides the rates md2 export's glTF records */
    const char *const *anims;     /* --anim NAME...: keep only these animations, in this order */
    size_t num_anims;             /* 0: all of them, in the source's order */
    const char *anim_name;        /* OBJ sequences: the animation's name (--anim-name), or NULL */
    size_t max_bytes;             /* a budget for what a reader may allocate for the scene (0: none) */
    size_t max_nodes;             /* glTF: the most nodes (0: none); "--max-nodes" raises it with max_bytes_option */
    size_t max_work;              /* glTF: the most keyframes x (nodes + channels) posed (0: none); "--max-work" */
    const char *max_bytes_option; /* the option that raises it, named in the error ("--max-scene"), or NULL */
} imp_options;

/* The end of a reader's message about opt->max_bytes: "; OPTION raises it"
 * (three strings, for "%s%s%s"), or nothing when there is no option. */
#define IMP_RAISED_BY(o) ((o) && (o)->max_bytes_option ? "; " : ""), \
    ((o) && (o)->max_bytes_option ? (o)->max_bytes_option : ""), \
    ((o) && (o)->max_bytes_option ? " raises it" : "")

/* The end of a message about another budget of o, raised by the option
 * named: "; --max-nodes raises it" when the command gave its options. */
#define IMP_RAISED_BY_OPT(o, name) ((o) && (o)->max_bytes_option ? "; " name " raises it" : "")

/* glTF 2.0 (.gltf with its .bin files or data URIs, .glb). */
int imp_gltf_read(const char *path, const imp_options *opt, imp_scene *out, char *err, size_t err_size);
/* The same from bytes in memory (a .glb or a .gltf's JSON, told apart by
 * the GLB magic): files it names (buffers, images) are resolved against
 * base_dir, or refused when base_dir is NULL (the fuzz target). */
int imp_gltf_read_memory(const unsigned char *data, size_t size, const char *base_dir, const imp_options *opt,
                         imp_scene *out, char *err, size_t err_size);
/* One OBJ (a single frame) or several (the frames of one animation, in the
 * order given; every file with the same faces). */
int imp_obj_read(const char *const *paths, size_t num_paths, const imp_options *opt, imp_scene *out,
                 char *err, size_t err_size);
/* One OBJ file from memory (size bytes at data; name stands for its path
 * in messages and names the animation). Its mtllib files are read from
 * base_dir, or, when base_dir is NULL (the fuzz target), not read (a note
 * says so). */
int imp_obj_read_memory(const unsigned char *data, size_t size, const char *name, const char *base_dir,
                        const imp_options *opt, imp_scene *out, char *err, size_t err_size);

/* A file a source names (a glTF buffer's or image's relative uri when
 * percent is 1, percent-decoded first; an OBJ's mtllib, an MTL's map_Kd,
 * already prefixed with the MTL's folder inside root) as a path inside
 * the folder root (the source file's folder; "" the current one): '\\'
 * is read as '/', and a name that is empty, absolute ('/', '//host',
 * 'C:'), climbs out of root with '..', or (POSIX) is a symbolic link, or
 * lies under one, whose real path is outside root's real path, is
 * refused. 1 and *out (malloc'd: root, '/', the name) when it is inside;
 * 0 with the reason in why (a phrase: "climbs out of its folder with
 * '..'"); -1 when out of memory; -2 for a bad percent escape or %00 (the
 * phrase in why). */
int imp_path_inside(const char *root, const char *name, int percent, char **out, char *why,
                    size_t why_size);

/* Appends a note (printf-style) to s; 0 when out of memory. */
int imp_scene_note(imp_scene *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void imp_scene_free(imp_scene *s);

#endif /* MD2_TOOL_IMPORT_H */
