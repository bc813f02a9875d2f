/*
 * md2 export: a model's tags, and the models --attach hangs on them, in
 * the glTF and OBJ exports (export_tags.c). docs/tool.md, "Tags and
 * attachments", is the manual.
 *
 * glTF: the writer (export_gltf.c) asks for what to add to each array of
 * its document, with the indices its own entries take (export_gltf_base):
 *
 *  - one node per tag, named after it, a child of the model's node
 *    (EXPORT_TAGS_CHILDREN: its entries of that node's "children"), with the tag's
 *    translation and rotation in the rest pose, and in every animation a
 *    channel for each keyed at every keyframe of the animation (its own
 *    input accessor: the writer may drop morph keys);
 *  - each attached model as a node under its tag's node, with its own
 *    mesh (float positions and normals, the rest keyframe as the base,
 *    one morph target a keyframe as float deltas; none for a model of one
 *    keyframe), material and texture, and in every animation a weights
 *    channel showing the keyframe md2_player_pose_linked() shows.
 *
 * Everything lives in the export_tags object until the writer is done:
 *
 *   export_tags t;
 *   export_tags_init(&t, job);             // job->tm: the model, its tags
 *   export_tags_gltf_build(&t, scale, rest)// the data and warnings; 0: failed (said)
 *   ... bin: tool_buf_align(4), then t.bin appended, its offset told:
 *   t.bin_offset = at; ...
 *   export_tags_json(&t, EXPORT_TAGS_NODES, &base, 0, json) ...
 *   export_tags_free(&t);
 *
 * OBJ: export_tags_obj_*() write the attached models of one pose as more
 * objects of the same file, with their materials and skins.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_EXPORT_TAGS_H
#define MD2_EXPORT_TAGS_H

#include "attach_opt.h"
#include "export_internal.h"

#include <md2/mesh.h>

/* What the glTF writer's arrays hold before the tags' entries: the index
 * of the tags' first entry in each. */
typedef struct export_gltf_base {
    size_t nodes, meshes, materials, textures, images, accessors, views;
    size_t samplers; /* in the animation being written: the writer's own samplers */
} export_gltf_base;

/* The parts export_tags_json() writes. */
enum {
    EXPORT_TAGS_CHILDREN,  /* the tag nodes in the model node's "children" (the writer opens it) */
    EXPORT_TAGS_NODES,     /* the entries of each array, each after a ',' unless it is */
    EXPORT_TAGS_MESHES,    /* the array's first entry */
    EXPORT_TAGS_MATERIALS,
    EXPORT_TAGS_TEXTURES,
    EXPORT_TAGS_IMAGES,
    EXPORT_TAGS_ACCESSORS,
    EXPORT_TAGS_VIEWS,
    EXPORT_TAGS_CHANNELS,  /* animation anim's channels; their samplers are numbered from */
    EXPORT_TAGS_SAMPLERS   /* base->samplers: the writer's own samplers in that animation */
};

/* One accessor of the tags' data. */
typedef struct tags_accessor {
    size_t view, offset, count; /* view: local (0 to the tags' views - 1) */
    unsigned component;         /* GL component type */
    const char *type;           /* "SCALAR", "VEC3", ... */
    float min[4], max[4];       /* written when has_bounds */
    int has_bounds;
} tags_accessor;

/* One buffer view of the tags' data. */
typedef struct tags_view {
    size_t offset, length, stride;
    unsigned target;
} tags_view;

/* An attached model as the glTF export writes it. */
typedef struct tags_attached_mesh {
    const tool_attached *at;
    md2_mesh *mesh;
    size_t position, normal, uv, indices; /* local accessor indices */
    size_t first_target;                  /* its targets' accessors: 2 a keyframe (POSITION, NORMAL) */
    size_t targets;                       /* morph targets: its keyframes, or 0 for a static model */
    uint32_t rest;                        /* the keyframe of the base */
    unsigned char *png;                   /* its skin as PNG, or NULL */
    size_t png_size, image_view;
} tags_attached_mesh;

typedef struct export_tags {
    const export_job *job;
    const md2_tags *tags;        /* the model's tags, or NULL */
    size_t num_tags;             /* 0 without tags */
    tool_buf bin;                    /* the data, placed in the buffer at bin_offset */
    size_t bin_offset;           /* set by the writer (a multiple of 4) */
    tags_accessor *acc;
    size_t num_acc, acc_capacity;
    tags_view views[4];          /* indices, VEC3 floats, VEC2 floats, animation data */
    size_t num_views;            /* views[] and the attached skins' image views */
    tags_view *image_views;      /* one an attached model with a skin */
    float *rest;                 /* a tag: translation (3) and rotation (4), glTF axes */
    double node_scale;           /* the model node's scale (tag nodes undo it) */
    size_t *anim_acc;            /* per animation: time accessor, then per tag translation
                                  * and rotation, per animated attachment weights */
    size_t per_anim;             /* entries of anim_acc per animation */
    tags_attached_mesh *meshes;  /* job->num_attached */
    size_t num_textures;
    unsigned long unorthonormal; /* tag keyframes whose axes were made orthonormal */
} export_tags;

/* Starts t for job (nothing allocated). */
void export_tags_init(export_tags *t, const export_job *job);
void export_tags_free(export_tags *t);

/* Builds the tags' data for a glTF export whose model node has the
 * uniform scale node_scale and shows keyframe rest when nothing plays: 1,
 * or 0 after saying why (out of memory, a mesh that cannot be built). */
int export_tags_gltf_build(export_tags *t, double node_scale, uint32_t rest);

/* Writes part (EXPORT_TAGS_*) of the tags' JSON to j: for
 * EXPORT_TAGS_CHANNELS and EXPORT_TAGS_SAMPLERS, of animation anim (an
 * index in job->anims), its samplers numbered from first_sampler; before
 * is how many entries the writer put in that array before (a ',' goes
 * first when there are any). Returns the number of entries written. */
size_t export_tags_json(const export_tags *t, int part, const export_gltf_base *base,
                        size_t anim, size_t before, tool_buf *j);

/* The line the export prints about its tags and attachments (nothing
 * without them). */
void export_tags_report(const export_tags *t, FILE *f);

/* OBJ: the attached models at body keyframe frame, placed by md2_attach()
 * at their tag's matrix (md2_tag_lerp()), as objects of the same file after
 * the body's (its vertices and texcoords come first), each with the
 * material export_tags_obj_mtl() defines. 1, or 0 (said). */
int export_tags_obj_write(const export_job *job, FILE *f, uint32_t frame);
/* The line the OBJ export prints about its attached models (nothing
 * without them): "attached as objects: blade.md2 on tag_rweapon, ...". */
void export_tags_obj_report(const export_job *job, FILE *f);
/* The materials of the attached models, and their skins written as PNG
 * beside the OBJ (stem_TAG.png) into set. 1, or 0 (said). */
int export_tags_obj_mtl(const export_job *job, const char *stem, FILE *mtl, tool_outset *set);

#endif /* MD2_EXPORT_TAGS_H */
