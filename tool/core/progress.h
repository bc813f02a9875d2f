/*
 * The md2 command's progress bar on a terminal (progress.c), for the
 * commands that go through many models (md2 validate, md2 export of
 * folders).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TOOL_PROGRESS_H
#define MD2_TOOL_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

/* A progress bar on f (stderr), drawn only when f is a terminal and there
 * are at least TOOL_PROGRESS_MIN files; redrawn in place with '\r' when
 * its tenth of a percent changes, erased (spaces, then '\r') before each
 * line of output and at the end. */
#define TOOL_PROGRESS_MIN 100

typedef struct tool_progress {
    FILE *f;        /* where the bar goes; NULL: no bar */
    size_t total;
    size_t done;
    long shown;     /* the per mille last drawn, -1 for none */
    int width;      /* columns on the screen, 0 if erased */
    const char *cmd;/* the command the bar names ("md2 CMD: [###...]"); NULL: validate */
} tool_progress;

void tool_progress_start(tool_progress *p, FILE *f, size_t total);
void tool_progress_step(tool_progress *p);
void tool_progress_hide(tool_progress *p);

#endif /* MD2_TOOL_PROGRESS_H */
