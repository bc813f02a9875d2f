/*
 * Putting a set of files in place together or not at all, and the path
 * helpers outputs are named with (outfiles.h). Files
 * through platform.h: lstat(), link(), rename() and their Windows forms.
 *
 * SPDX-License-Identifier: MIT
 */
#include "outfiles.h"
#include "platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BACKUP_SUFFIX ".old-md2"

/* A name beside path that nothing has: path.old-md2, else path.old-md2-2,
 * -3, ... NULL when out of memory or all are taken (said). */
static char *backup_name(const char *cmd, const char *path)
{
    size_t n = tool_name_beside(path, sizeof BACKUP_SUFFIX - 1 + 4);
    char *name = (char *)malloc(n + sizeof BACKUP_SUFFIX + 8);
    tool_sys_stat st;
    int i;
    if (!name) {
        tool_error(cmd, "out of memory");
        return NULL;
    }
    memcpy(name, path, n);
    memcpy(name + n, BACKUP_SUFFIX, sizeof BACKUP_SUFFIX);
    for (i = 2; tool_sys_stat_path(name, 0, &st) == 0; i++) {
        if (i > 999) {
            tool_error(cmd, "cannot keep the old %s aside: %s and the names after it "
                       "are taken", path, name);
            free(name);
            return NULL;
        }
        snprintf(name + n + sizeof BACKUP_SUFFIX - 1, 8, "-%d", i);
    }
    return name;
}

/* 1 if tool_sys_link() failed with errno e because there are no hard links here
 * (the file system has none, or no more for this file): then path is
 * renamed instead. */
static int no_hard_links(int e)
{
    if (e == EPERM || e == EXDEV || e == EMLINK)
        return 1;
#ifdef ENOTSUP
    if (e == ENOTSUP)
        return 1;
#endif
#ifdef EOPNOTSUPP
    if (e == EOPNOTSUPP)
        return 1;
#endif
    return 0;
}

/* Keeps the existing file path aside: a hard link to it under a new name
 * (path itself stays until the rename that replaces it), else, where the
 * file system has no hard links, path renamed. A name taken between
 * backup_name() and the link (EEXIST) is never replaced: the next one is
 * tried. The name, or NULL (said). */
static char *keep_aside(const char *cmd, const char *path, int *moved)
{
    int tries;
    *moved = 0;
    for (tries = 0; tries < 1000; tries++) {
        char *backup = backup_name(cmd, path);
        int e;
        if (!backup)
            return NULL;
        if (tool_sys_link(path, backup) == 0)
            return backup;
        e = errno;
        if (e == EEXIST) { /* taken since backup_name() looked: another name */
            free(backup);
            continue;
        }
        if (no_hard_links(e)) {
            if (tool_sys_replace(path, backup) == 0) {
                *moved = 1;
                return backup;
            }
            e = errno;
        }
        tool_error(cmd, "cannot keep the old %s aside as %s: %s", path, backup,
                   tool_sys_strerror(e));
        free(backup);
        return NULL;
    }
    tool_error(cmd, "cannot keep the old %s aside: the names %s" BACKUP_SUFFIX
               " and after it keep being taken", path, path);
    return NULL;
}

int tool_outset_place(tool_outset *set, tool_out *out)
{
    const char *cmd = set->cmd ? set->cmd : "export";
    tool_sys_stat st;
    char *backup = NULL;
    int moved = 0, ok = out->file != NULL;

    if (ok && set->count == set->capacity) {
        size_t cap = set->capacity ? 2 * set->capacity : 8;
        tool_outset_file *p = NULL;
        if (cap <= (size_t)-1 / sizeof *p)
            p = (tool_outset_file *)realloc(set->files, cap * sizeof *p);
        if (!p) {
            tool_error(cmd, "out of memory");
            ok = 0;
        } else {
            set->files = p;
            set->capacity = cap;
        }
    }
    if (ok) { /* else tool_out_abort() below closes it */
        long size = ftell(out->file);
        if (size > 0)
            set->bytes += (double)size;
        ok = tool_out_close(out, cmd);
    }
    /* an old file (not a folder, which the rename below refuses to
     * replace) is kept until the whole set is in place */
    if (ok && tool_sys_stat_path(out->path, 0, &st) == 0 && st.kind != TOOL_SYS_DIRECTORY) {
        backup = keep_aside(cmd, out->path, &moved);
        if (!backup)
            ok = 0;
    }
    if (ok && tool_sys_replace(out->tmp, out->path) != 0) {
        int e = errno;
        tool_error(cmd, "cannot rename %s to %s: %s", out->tmp, out->path, tool_sys_strerror(e));
        if (backup && moved && tool_sys_replace(backup, out->path) != 0)
            tool_error(cmd, "cannot put the old %s back: it is %s", out->path, backup);
        else if (backup && !moved)
            tool_sys_remove(backup);
        free(backup);
        ok = 0;
    }
    if (!ok) {
        tool_out_abort(out); /* removes the temporary file */
        return 0;
    }
    set->files[set->count].path = out->path;
    set->files[set->count].backup = backup;
    set->count++;
    out->path = NULL;
    free(out->tmp);
    out->tmp = NULL;
    tool_out_abort(out);
    return 1;
}

int tool_outset_write(tool_outset *set, const char *path, const void *data, size_t size)
{
    const char *cmd = set->cmd ? set->cmd : "export";
    tool_out out;
    return tool_out_open(&out, cmd, path) &&
           tool_out_write(&out, cmd, data, size) && tool_outset_place(set, &out);
}

void tool_outset_finish(tool_outset *set, int ok)
{
    const char *cmd = set->cmd ? set->cmd : "export";
    size_t i;
    for (i = set->count; i-- > 0;) {
        tool_outset_file *p = &set->files[i];
        if (ok) {
            if (p->backup)
                tool_sys_remove(p->backup);
        } else if (p->backup) {
            if (tool_sys_replace(p->backup, p->path) != 0)
                tool_error(cmd, "cannot put the old %s back (it is %s): %s", p->path,
                           p->backup, tool_sys_strerror(errno));
        } else {
            tool_sys_remove(p->path);
        }
        free(p->path);
        free(p->backup);
    }
    free(set->files);
    memset(set, 0, sizeof *set);
}

char *tool_with_extension(const char *path, const char *ext)
{
    size_t len = strlen(path), stem = len, i;
    const char *base = tool_base_name(path);
    size_t start = (size_t)(base - path);
    char *out;
    for (i = len; i > start + 1; i--) {
        if (path[i - 1] == '.') {
            stem = i - 1;
            break;
        }
    }
    out = (char *)malloc(stem + strlen(ext) + 1);
    if (out) {
        memcpy(out, path, stem);
        strcpy(out + stem, ext);
    }
    return out;
}

const char *tool_base_name(const char *path)
{
    const char *b = path, *p;
    for (p = path; *p; p++) {
        if (*p == '/' || *p == '\\')
            b = p + 1;
    }
    return b;
}
