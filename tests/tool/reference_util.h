/*
 * What the reference programs of the glTF judges share (export_reference.c,
 * export_tags_reference.c): the model loaded as md2 export loads it, the
 * animations and keyframe asked for, the model's size, and numbers written
 * so that JSON readers get them back exactly. Built with the tests only.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_REFERENCE_UTIL_H
#define MD2_REFERENCE_UTIL_H

#include <md2/md2.h>
#include <md2/animation.h>
#include <md2/tags.h>

#include <stdio.h>

/* A model for a reference: ref_load()'s, freed with md2_bundle_free(bundle). */
typedef struct ref_model {
    md2_bundle *bundle;     /* the model with its side files (md2_bundle_load_file()) */
    size_t first_anim;      /* the animations to play: [first_anim, anim_end) */
    size_t anim_end;
    unsigned long frame;    /* --frame, as a keyframe of the model */
    double size;            /* the largest side of the model's box over all keyframes */
} ref_model;

/* "PROG: MSG: DETAIL" (detail may be NULL) on stderr. */
void ref_fail(const char *prog, const char *msg, const char *detail);

/* Loads path as md2 export does, the animations to play (all, or the one
 * named anim_name when not NULL) and keyframe frame, counted in that
 * animation with anim_name, as md2 export counts --frame. 1, or 0 after
 * ref_fail() (nothing to free). */
int ref_load(const char *prog, const char *path, const char *anim_name, unsigned long frame,
             ref_model *out);

/* Closes f (the reference written to path; NULL: nothing to close) and
 * returns status, or 1 after saying so when status is 0 and the file
 * could not be written. */
int ref_close(const char *prog, FILE *f, const char *path, int status);

/* v (a float or a double) as the shortest %.Ng that reads back as the
 * same double, after sep: a JSON reader of doubles gets v itself, which
 * %.9g alone does not give far from the origin (100000.867 for
 * 100000.8671875). */
void ref_put_number(FILE *f, const char *sep, double v);

#endif /* MD2_REFERENCE_UTIL_H */
