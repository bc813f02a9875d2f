/*
 * md2 info and md2 validate: side-file names, text for a terminal, warning kinds
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

/* Bytes of the valid UTF-8 sequence of two or more bytes at s, or 0. */
static size_t utf8_length(const unsigned char *s)
{
    unsigned char lo = 0x80, hi = 0xBF;
    size_t n, i;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        n = 2;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF)
        n = 3;
    else if (s[0] >= 0xF0 && s[0] <= 0xF4)
        n = 4;
    else
        return 0;
    if (s[0] == 0xE0)
        lo = 0xA0; /* no overlong forms */
    else if (s[0] == 0xED)
        hi = 0x9F; /* no surrogates */
    else if (s[0] == 0xF0)
        lo = 0x90;
    else if (s[0] == 0xF4)
        hi = 0x8F; /* nothing past U+10FFFF */
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

/* Writes (if f is not NULL) and measures s as info_put_text() describes. */
static size_t put_text(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t columns = 0, n;
    while (*p) {
        if (*p >= 0x20 && *p < 0x7F) {
            if (f)
                fputc(*p, f);
            p++;
            columns++;
        } else if ((n = utf8_length(p)) != 0) {
            if (f)
                fwrite(p, 1, n, f);
            p += n;
            columns++;
        } else {
            if (f)
                fprintf(f, "\\x%02X", (unsigned)*p);
            p++;
            columns += 4;
        }
    }
    return columns;
}

size_t info_put_text(FILE *f, const char *s)
{
    return put_text(f, s);
}

size_t info_text_width(const char *s)
{
    return put_text(NULL, s);
}

/* The kind of a warning: its flag's bit and its section. */
static size_t group_key(const md2_diagnostic *w)
{
    size_t bit = 0, section = (size_t)w->section;
    while (bit + 1 < INFO_GROUP_FLAGS && !(w->warning & (1u << bit)))
        bit++;
    if (section >= INFO_GROUP_SECTIONS)
        section = INFO_GROUP_SECTIONS - 1;
    return bit * INFO_GROUP_SECTIONS + section;
}

void info_groups_count(info_groups *g, const tool_model *m)
{
    size_t i;
    memset(g, 0, sizeof *g);
    for (i = 0; i < m->warning_count; i++)
        g->count[group_key(&m->warnings[i])]++;
}

size_t info_groups_first(info_groups *g, const md2_diagnostic *w)
{
    size_t key = group_key(w);
    if (g->seen[key])
        return 0;
    g->seen[key] = 1;
    return g->count[key];
}
