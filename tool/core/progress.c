/*
 * The md2 command's progress bar on a terminal (see progress.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "progress.h"
#include "platform.h"

#include <string.h>

/* Columns of the bar between its brackets. */
#define BAR_COLUMNS 30

void tool_progress_start(tool_progress *p, FILE *f, size_t total)
{
    memset(p, 0, sizeof *p);
    p->shown = -1;
    p->total = total;
    if (total >= TOOL_PROGRESS_MIN && tool_sys_is_terminal(f))
        p->f = f;
}

static void draw(tool_progress *p)
{
    long permille = (long)((double)p->done * 1000.0 / (double)p->total);
    char bar[BAR_COLUMNS + 1];
    int filled = (int)(permille * BAR_COLUMNS / 1000), n;
    memset(bar, '#', (size_t)filled);
    memset(bar + filled, '.', (size_t)(BAR_COLUMNS - filled));
    bar[BAR_COLUMNS] = '\0';
    n = fprintf(p->f, "\rmd2 %s: [%s] %lu/%lu files", p->cmd ? p->cmd : "validate", bar,
                (unsigned long)p->done,
                (unsigned long)p->total);
    fflush(p->f);
    p->width = n > 1 ? n - 1 : 0; /* without the '\r' */
    p->shown = permille;
}

void tool_progress_step(tool_progress *p)
{
    if (p->done < p->total)
        p->done++;
    if (p->f && (long)((double)p->done * 1000.0 / (double)p->total) != p->shown)
        draw(p);
}

void tool_progress_hide(tool_progress *p)
{
    if (!p->f || p->width == 0)
        return;
    fprintf(p->f, "\r%*s\r", p->width, "");
    fflush(p->f);
    p->width = 0;
    p->shown = -1;
}
