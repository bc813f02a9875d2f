/*
 * md2 info and md2 validate: side-file names and warning kinds
 * (see info_util.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "info_util.h"

#include <stdlib.h>
#include <string.h>

char *info_side_path(const char *path, const char *ext)
{
    size_t len = strlen(path), name = 0, dot, i, ext_len = strlen(ext);
    int letters = 0, lower = 0;
    char *out;
    for (i = 0; i < len; i++)
        if (path[i] == '/' || path[i] == '\\')
            name = i + 1;
    dot = len;
    for (i = name; i < len; i++)
        if (path[i] == '.')
            dot = i;
    if (dot == name)
        dot = len;
    for (i = dot; i < len; i++) {
        char ch = path[i];
        letters += (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
        lower += ch >= 'a' && ch <= 'z';
    }
    out = (char *)malloc(dot + ext_len + 2);
    if (!out)
        return NULL;
    memcpy(out, path, dot);
    out[dot] = '.';
    for (i = 0; i <= ext_len; i++) {
        char ch = ext[i];
        if (letters > 0 && lower == 0 && ch >= 'a' && ch <= 'z')
            ch = (char)(ch - 'a' + 'A');
        out[dot + 1 + i] = ch;
    }
    return out;
}

/* The kind of a warning: its flag's bit and its section. */
void info_groups_count(info_groups *g, const tool_model *m)
{
    memset(g, 0, sizeof *g);
    memcpy(g->count, m->kind_count, sizeof g->count);
}

size_t info_groups_first(info_groups *g, const md2_diagnostic *w)
{
    size_t key = tool_warning_kind(w);
    if (g->seen[key])
        return 0;
    g->seen[key] = 1;
    return g->count[key];
}
