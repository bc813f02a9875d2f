/*
 * md2 info: what it reports about a loaded model (info_report.c), and the
 * two forms it prints it in: text for people (info_text.c) and JSON
 * (info_json.c, documented in docs/tool.md).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_INFO_REPORT_H
#define MD2_INFO_REPORT_H

#include "tool.h"

#include <md2/skin.h>

/* The version of the JSON form ("md2_info_version"): raised when a key
 * changes meaning or goes away; new keys may appear without it. */
#define INFO_JSON_VERSION 1

/* The side files md2_bundle_load_file() may read, in the order of
 * info_report.side. */
enum { INFO_SIDE_ANM, INFO_SIDE_FRAMEGROUPS, INFO_SIDE_TAG, INFO_SIDE_COUNT };

/* A limit an engine's loader refuses the model for (md2_profile_check()). */
typedef struct info_refusal {
    int profile;         /* an md2_profile */
    const char *field;   /* the quantity: "num_vertices", ... (static) */
    char *message;       /* "Quake II: 2117 vertices, more than ... (SOURCE)" (malloc'd) */
} info_refusal;

typedef struct info_report {
    const char *path;              /* the model's path as given */
    const tool_model *m;
    int has_size;                  /* 1 if file_size is known (a regular file) */
    unsigned long long file_size;  /* bytes of the model file */
    float min[3], max[3];          /* box of every frame's vertices */
    size_t strips, fans;           /* GL commands */
    int has_wobble;                /* 1 if wobble is known (md2_wobble_score()) */
    size_t wobble;                 /* md2_wobble_score() */
    char skin_file[MD2_SKIN_PATH_MAX]; /* the first skin found on disk, or "" */
    char *side[INFO_SIDE_COUNT];   /* paths of the side files read, NULL for others */
    /* the engines' verdicts (info_report_engines()) */
    int engines_from, engines_to;  /* the profiles checked: [from, to) */
    info_refusal *refusals;        /* each limit broken, in profile order */
    size_t num_refusals, cap_refusals;
} info_report;

/* The name of side file kind k ("anm", "framegroups", "tag"). */
const char *info_side_name(int k);

/* Gathers what info reports about m, loaded from path. Returns 0 (after
 * printing why) when out of memory; info_report_free() is safe then. */
int info_report_make(info_report *r, const char *path, const tool_model *m);
void info_report_free(info_report *r);
/* The verdict of each engine profile (only, or every one when only is
 * MD2_PROFILE_FORMAT) on r's model, into r->refusals. 0 (after printing
 * why) when out of memory. */
int info_report_engines(info_report *r, int only);

/* "names", "anm" or "framegroups". */
const char *info_anim_source(md2_anim_source s);

/* The two forms (the caller checks f for write errors). */
void info_write_text(FILE *f, const info_report *r);
void info_write_json(FILE *f, const info_report *r);

#endif /* MD2_INFO_REPORT_H */
