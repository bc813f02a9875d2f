/*
 * md2 import: the scene the source readers fill (import.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "import.h"

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
