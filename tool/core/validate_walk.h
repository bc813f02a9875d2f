/*
 * md2 validate: the files to check (validate_walk.c) and the progress bar
 * (validate_progress.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_VALIDATE_WALK_H
#define MD2_VALIDATE_WALK_H

#include <stddef.h>
#include <stdio.h>

/* One file to check, or a place where the walk could not go on. */
typedef struct validate_entry {
    char *path;  /* malloc'd */
    char *error; /* NULL for a file to check; else why path is refused (malloc'd) */
    /* Which directory entry path is, when known (has_id): the st_dev and
     * st_ino of the directory that holds it, and where its name starts in
     * path. Two paths with the same of the three name the same entry. */
    int has_id;
    unsigned long long dir_dev, dir_ino;
    size_t name;
} validate_entry;

typedef struct validate_list {
    validate_entry *items;
    size_t count;
    size_t capacity;
} validate_list;

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
int validate_walk(validate_list *l, const char *path);

/* Keeps the first of the entries that name the same directory entry (the
 * same name in the same directory: a file named twice, or named and also
 * found in a directory named, or reached through two paths to one
 * folder), in their order, and drops the others. A symbolic or hard link
 * under another name, or in another folder, is an entry of its own: its
 * side files are looked for beside it, under its name. Entries whose
 * directory is unknown (a path under a folder that does not exist) are the
 * same only when written the same. Returns 0 when out of memory (the list
 * is then unchanged). */
int validate_list_unique(validate_list *l);

void validate_list_free(validate_list *l);

/* A progress bar on stderr, drawn only when stderr is a terminal and there
 * are at least VALIDATE_BAR_MIN files; redrawn in place with '\r' when
 * its tenth of a percent changes, erased (spaces, then '\r') before each
 * line of output and at the end. */
#define VALIDATE_BAR_MIN 100

typedef struct validate_progress {
    FILE *f;        /* where the bar goes; NULL: no bar */
    size_t total;
    size_t done;
    long shown;     /* the per mille last drawn, -1 for none */
    int width;      /* columns on the screen, 0 if erased */
    const char *cmd;/* the command the bar names ("md2 CMD: [###...]"); NULL: validate */
} validate_progress;

void validate_progress_start(validate_progress *p, FILE *f, size_t total);
void validate_progress_step(validate_progress *p);
void validate_progress_hide(validate_progress *p);

#endif /* MD2_VALIDATE_WALK_H */
