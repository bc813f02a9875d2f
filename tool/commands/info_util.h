/*
 * md2 info and md2 validate: what the two subcommands share (info_util.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_INFO_UTIL_H
#define MD2_INFO_UTIL_H

#include "tool.h"

/* The side file with extension ext ("anm", "framegroups", "tag") of the
 * model at path, named as md2_bundle_load() names it: the model's
 * extension (its last '.' and what follows, unless that '.' starts the
 * file name) replaced by "." ext, in upper case when every letter of the
 * model's extension is. malloc'd; NULL when out of memory. */
char *info_side_path(const char *path, const char *ext);


/* Warnings grouped by kind (tool_warning_kind()). */
typedef struct info_groups {
    size_t count[TOOL_WARNING_KINDS];
    unsigned char seen[TOOL_WARNING_KINDS];
} info_groups;

/* The counts of the warnings of m by kind (all of them, kept or not). */
void info_groups_count(info_groups *g, const tool_model *m);

/* For the warnings of m in order: the number of warnings of w's kind when
 * w is the first of its kind, 0 for the others. */
size_t info_groups_first(info_groups *g, const md2_diagnostic *w);

#endif /* MD2_INFO_UTIL_H */
