/*
 * The models below the paths of a command line (walk.c): what md2 validate
 * checks and what md2 export of folders exports.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TOOL_WALK_H
#define MD2_TOOL_WALK_H

#include <stddef.h>

/* One file to check, or a place where the walk could not go on. */
typedef struct tool_walk_entry {
    char *path;  /* malloc'd */
    char *error; /* NULL for a file to check; else why path is refused (malloc'd) */
    /* Which directory entry path is, when known (has_id): the st_dev and
     * st_ino of the directory that holds it, and where its name starts in
     * path. Two paths with the same of the three name the same entry. */
    int has_id;
    unsigned long long dir_dev, dir_ino;
    size_t name;
} tool_walk_entry;

typedef struct tool_walk_list {
    tool_walk_entry *items;
    size_t count;
    size_t capacity;
} tool_walk_list;

/* Appends what path names: when it is a directory (or a symbolic link to
 * one), every regular file below it whose name ends in ".md2" (any case),
 * directory by directory with the entries of each sorted by name (bytes),
 * subdirectories in their place in that order; symbolic links to files
 * count as files, symbolic links to directories are not followed, and a
 * directory met again (a loop through a bind mount) is skipped. A
 * directory that cannot be read, or a symbolic link that leads nowhere,
 * becomes an entry with its error. Anything else is appended as a file to
 * check, whatever its name (the loader then says if it is missing).
 * Returns 0 when out of memory. */
int tool_walk(tool_walk_list *l, const char *path);

/* Keeps the first of the entries that name the same directory entry (the
 * same name in the same directory: a file named twice, or named and also
 * found in a directory named, or reached through two paths to one
 * folder), in their order, and drops the others. A symbolic or hard link
 * under another name, or in another folder, is an entry of its own: its
 * side files are looked for beside it, under its name. Entries whose
 * directory is unknown (a path under a folder that does not exist) are the
 * same only when written the same. Returns 0 when out of memory (the list
 * is then unchanged). */
int tool_walk_unique(tool_walk_list *l);

void tool_walk_free(tool_walk_list *l);

#endif /* MD2_TOOL_WALK_H */
