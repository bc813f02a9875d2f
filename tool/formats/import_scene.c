/*
 * md2 import: the scene the source readers fill (import.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "import.h"
#include "platform.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int imp_scene_note(imp_scene *s, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *line;
    char **grown;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return 0;
    line = (char *)malloc((size_t)n + 1);
    if (!line)
        return 0;
    va_start(ap, fmt);
    vsnprintf(line, (size_t)n + 1, fmt, ap);
    va_end(ap);
    grown = (char **)realloc(s->notes, (s->num_notes + 1) * sizeof *grown);
    if (!grown) {
        free(line);
        return 0;
    }
    s->notes = grown;
    s->notes[s->num_notes++] = line;
    return 1;
}

static void free_strings(char **v, size_t n)
{
    size_t i;
    if (!v)
        return;
    for (i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void imp_scene_free(imp_scene *s)
{
    size_t i;
    if (!s)
        return;
    free(s->positions);
    free(s->normals);
    free(s->uv);
    free(s->triangles);
    free(s->tri_material);
    free(s->material_image);
    free_strings(s->material_names, s->num_materials);
    if (s->images) {
        for (i = 0; i < s->num_images; i++) {
            free(s->images[i].label);
            free(s->images[i].path);
            free(s->images[i].bytes);
        }
        free(s->images);
    }
    if (s->anims) {
        for (i = 0; i < s->num_anims; i++)
            free(s->anims[i].name);
        free(s->anims);
    }
    free_strings(s->notes, s->num_notes);
    memset(s, 0, sizeof *s);
}

/* ---- files a source names, kept inside its folder ------------------------ */

static int hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* name percent-decoded (when percent) and with '\\' as '/', into d (room
 * for strlen(name) + 1): 0 with why on a bad escape or %00. */
static int decode_name(const char *name, int percent, char *d, char *why, size_t why_size)
{
    size_t i, n = 0;
    for (i = 0; name[i]; i++) {
        char c = name[i];
        if (percent && c == '%') {
            int hi = hex_digit((unsigned char)name[i + 1]);
            int lo = hi < 0 ? -1 : hex_digit((unsigned char)name[i + 2]);
            if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
                snprintf(why, why_size, "has a bad percent escape at character %lu", (unsigned long)i);
                return 0;
            }
            c = (char)(hi * 16 + lo);
            i += 2;
        }
        d[n++] = c == '\\' ? '/' : c;
    }
    d[n] = '\0';
    return 1;
}

/* Why the decoded name d is not a path inside its folder, or NULL. */
static const char *outside_reason(const char *d)
{
    const char *p = d;
    long depth = 0;
    if (!*d)
        return "is empty";
    if (d[0] == '/')
        return d[1] == '/' ? "is a network path (//host), outside the source's folder"
                           : "is an absolute path, outside the source's folder";
    if (((d[0] >= 'A' && d[0] <= 'Z') || (d[0] >= 'a' && d[0] <= 'z')) && d[1] == ':')
        return "names a drive (C:), outside the source's folder";
    while (*p) {
        size_t len = strcspn(p, "/");
        if (len == 2 && p[0] == '.' && p[1] == '.') {
            if (--depth < 0)
                return "climbs out of the source's folder with '..'";
        } else if (len > 0 && !(len == 1 && p[0] == '.')) {
            depth++;
        }
        p += len;
        if (*p == '/')
            p++;
    }
    return NULL;
}

/* 1 if the existing file at path, through its symbolic links, lies in the
 * folder root (or path does not exist: opening it then says so); 0 if it
 * does not; -1 when out of memory. */
static int really_inside(const char *root, const char *path)
{
    char *rr, *rp;
    size_t n;
    int inside;
    errno = 0;
    rp = tool_sys_real_path(path);
    if (!rp)
        return errno == ENOMEM ? -1 : 1;
    rr = tool_sys_real_path(*root ? root : ".");
    if (!rr) {
        free(rp);
        return errno == ENOMEM ? -1 : 0;
    }
    n = strlen(rr);
    /* a root of "/" (or "C:\") ends in its separator already */
    inside = strncmp(rp, rr, n) == 0 &&
             (tool_sys_is_separator(rp[n]) || (n > 0 && tool_sys_is_separator(rr[n - 1])));
    free(rr);
    free(rp);
    return inside;
}

int imp_path_inside(const char *root, const char *name, int percent, char **out, char *why,
                    size_t why_size)
{
    size_t rl = strlen(root), nl = strlen(name);
    char *d, *path;
    const char *reason;
    int inside;
    *out = NULL;
    d = (char *)malloc(nl + 1);
    if (!d)
        return -1;
    if (!decode_name(name, percent, d, why, why_size)) {
        free(d);
        return -2;
    }
    if ((reason = outside_reason(d)) != NULL) {
        snprintf(why, why_size, "%s", reason);
        free(d);
        return 0;
    }
    path = (char *)malloc(rl + strlen(d) + 2);
    if (!path) {
        free(d);
        return -1;
    }
    snprintf(path, rl + strlen(d) + 2, "%s%s%s", root, rl && root[rl - 1] != '/' ? "/" : "", d);
    free(d);
    inside = really_inside(root, path);
    if (inside <= 0) {
        free(path);
        if (inside < 0)
            return -1;
        snprintf(why, why_size, "leads out of the source's folder through a symbolic link");
        return 0;
    }
    *out = path;
    return 1;
}
