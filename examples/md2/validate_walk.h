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
} validate_progress;

void validate_progress_start(validate_progress *p, FILE *f, size_t total);
void validate_progress_step(validate_progress *p);
void validate_progress_hide(validate_progress *p);

#endif /* MD2_VALIDATE_WALK_H */
