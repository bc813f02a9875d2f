/*
 * md2: --attach TAG=MODEL.md2, the option that hangs a model on a tag of
 * another (md2 export; meant for md2 render and md2_view too). A small
 * internal interface of the md2 command, in two steps:
 *
 *   tool_attach_list list;
 *   memset(&list, 0, sizeof list);
 *   if (!tool_attach_add(&list, argv[i + 1], why, sizeof why))   // each --attach
 *       return usage_error("%s", why);                          // exit 2
 *   ...
 *   if (!tool_attach_load(cmd, path, &body, &list, attached))          // after the body
 *       fail;                                                    // exit 1, said
 *   ... attached[i].model, attached[i].tag ...
 *   tool_attach_free(attached, list.count);
 *
 * docs/tool.md, "md2 export", "--attach", is the manual.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_ATTACH_OPT_H
#define MD2_ATTACH_OPT_H

#include "tool.h"

/* The most --attach options one command takes. */
#define TOOL_MAX_ATTACH 8

/* The --attach options as given: tag[i] (NUL-terminated, at most
 * MD2_TAG_NAME_SIZE bytes) and path[i] (points into the argument, which
 * must outlive the list). Zero-initialise it. */
typedef struct tool_attach_list {
    size_t count;
    char tag[TOOL_MAX_ATTACH][MD2_TAG_NAME_SIZE + 1];
    const char *path[TOOL_MAX_ATTACH];
} tool_attach_list;

/* Adds the value of one --attach, "TAG=MODEL" (split at the first '='),
 * to list: 1; or 0 with why (why_size bytes) saying what is wrong with it,
 * a usage error: no '=', an empty TAG or MODEL, a TAG longer than a tag
 * file's 64-byte names, more than TOOL_MAX_ATTACH of them, or a TAG given
 * twice. */
int tool_attach_add(tool_attach_list *list, const char *value, char *why, size_t why_size);

/* One attached model, loaded by tool_attach_load(). */
typedef struct tool_attached {
    const char *path;   /* MODEL as given */
    const char *tag;    /* TAG as given (the list's copy) */
    size_t tag_index;   /* its index in the body's tags */
    tool_model model;   /* the model with its side files (tool_load()) */
    int is_static;      /* 1 for a model of one keyframe: shown as it is in every pose */
    char *skin_path;    /* its skin, found as a game would (tool_find_skin()), malloc'd;
                         * NULL when there is none */
} tool_attached;

/* Loads the models of list for body (loaded with tool_load() from
 * body_path, which messages name) into out
 * (list->count entries): 1; or 0 after printing why as "md2 CMD: ...",
 * with nothing left to free. Errors: the body has no tags (no .tag file
 * beside it); a TAG the body's tags do not have (the message lists the
 * ones it has); a MODEL that cannot be read (the loader's message); a
 * MODEL without triangles; a MODEL whose keyframes cannot follow the
 * body's: it must have one keyframe (static: shown as it is) or as many
 * as the body (md2_linked_check() in strict mode), so that the body's
 * frame numbers pose it (md2_player_pose_linked()). The first 5 warnings
 * of each MODEL's loading are printed ("md2 CMD: warning: --attach
 * TAG=MODEL: ..."), and how many more there were. Each MODEL's skin is
 * looked for (skin_path). */
int tool_attach_load(const char *cmd, const char *body_path, const tool_model *body,
                     const tool_attach_list *list, tool_attached *out);

/* Frees what tool_attach_load() loaded into the count entries of a. */
void tool_attach_free(tool_attached *a, size_t count);

#endif /* MD2_ATTACH_OPT_H */
