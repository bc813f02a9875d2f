/*
 * import_dump: what md2 import's glTF reader (imp_gltf_read, import.h)
 * makes of a file, as JSON, for the three.js judge (gltf/import_compare.mjs)
 * and the table cases.
 *
 *   import_dump FILE [--fps N] [--anim NAME]... [--max-bytes N] [-o OUT]
 *
 * Writes {"frames", "vertices", "anims": [{"name", "first", "frames",
 * "fps"}], "triangles": [v0, v1, v2, ...], "positions": [[x, y, z, ...] a
 * frame], "normals" (the same, or null), "uv" ([u, v, ...] a vertex, or
 * null), "tri_material", "materials": [{"name", "image"}], "images":
 * [{"label", "path", "size"}], "notes"} to OUT (default stdout). Exit 0,
 * or 1 with the reader's error on stderr.
 *
 * SPDX-License-Identifier: MIT
 */
#include "import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void floats(FILE *f, const float *v, size_t n)
{
    size_t i;
    fputc('[', f);
    for (i = 0; i < n; i++)
        fprintf(f, "%s%.9g", i ? "," : "", (double)v[i]);
    fputc(']', f);
}

static void frames(FILE *f, const char *key, const float *v, const imp_scene *s)
{
    size_t k;
    fprintf(f, ",\"%s\":", key);
    if (!v) {
        fputs("null", f);
        return;
    }
    fputc('[', f);
    for (k = 0; k < s->num_frames; k++) {
        if (k)
            fputc(',', f);
        floats(f, v + 3 * k * s->num_vertices, 3 * s->num_vertices);
    }
    fputc(']', f);
}

int main(int argc, char **argv)
{
    const char *file = NULL, *out_path = NULL;
    const char **names = (const char **)calloc((size_t)argc, sizeof *names);
    imp_options opt;
    imp_scene s;
    char err[512];
    FILE *f;
    size_t i;
    int a, ok;
    memset(&opt, 0, sizeof opt);
    opt.fps = 10;
    if (!names)
        return 1;
    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--fps") == 0 && a + 1 < argc) {
            opt.fps = atof(argv[++a]);
            opt.fps_given = 1;
        } else if (strcmp(argv[a], "--anim") == 0 && a + 1 < argc) {
            names[opt.num_anims++] = argv[++a];
        } else if (strcmp(argv[a], "--max-bytes") == 0 && a + 1 < argc) {
            opt.max_bytes = (size_t)strtoul(argv[++a], NULL, 10);
        } else if (strcmp(argv[a], "-o") == 0 && a + 1 < argc) {
            out_path = argv[++a];
        } else if (argv[a][0] == '-' || file) {
            fprintf(stderr, "usage: import_dump FILE [--fps N] [--anim NAME]... [--max-bytes N] [-o OUT]\n");
            free(names);
            return 2;
        } else {
            file = argv[a];
        }
    }
    if (!file) {
        fprintf(stderr, "usage: import_dump FILE [--fps N] [--anim NAME]... [--max-bytes N] [-o OUT]\n");
        free(names);
        return 2;
    }
    opt.anims = names;
    ok = imp_gltf_read(file, &opt, &s, err, sizeof err);
    free(names);
    if (!ok) {
        fprintf(stderr, "import_dump: %s: %s\n", file, err);
        return 1;
    }
    f = out_path ? fopen(out_path, "w") : stdout;
    if (!f) {
        perror(out_path);
        imp_scene_free(&s);
        return 1;
    }
    fprintf(f, "{\"frames\":%lu,\"vertices\":%lu,\"anims\":[", (unsigned long)s.num_frames,
            (unsigned long)s.num_vertices);
    for (i = 0; i < s.num_anims; i++) {
        fprintf(f, "%s{\"name\":", i ? "," : "");
        json_string(f, s.anims[i].name);
        fprintf(f, ",\"first\":%lu,\"frames\":%lu,\"fps\":%.17g}", (unsigned long)s.anims[i].first_frame,
                (unsigned long)s.anims[i].num_frames, s.anims[i].fps);
    }
    fputs("],\"triangles\":[", f);
    for (i = 0; i < s.num_triangles; i++)
        fprintf(f, "%s%lu,%lu,%lu", i ? "," : "", (unsigned long)s.triangles[6 * i],
                (unsigned long)s.triangles[6 * i + 2], (unsigned long)s.triangles[6 * i + 4]);
    fputs("],\"tri_uv\":[", f);
    for (i = 0; i < s.num_triangles; i++)
        fprintf(f, "%s%lu,%lu,%lu", i ? "," : "", (unsigned long)s.triangles[6 * i + 1],
                (unsigned long)s.triangles[6 * i + 3], (unsigned long)s.triangles[6 * i + 5]);
    fputc(']', f);
    frames(f, "positions", s.positions, &s);
    frames(f, "normals", s.normals, &s);
    fputs(",\"uv\":", f);
    if (s.uv)
        floats(f, s.uv, 2 * s.num_texcoords);
    else
        fputs("null", f);
    fputs(",\"tri_material\":", f);
    if (s.tri_material) {
        fputc('[', f);
        for (i = 0; i < s.num_triangles; i++)
            fprintf(f, "%s%ld", i ? "," : "",
                    s.tri_material[i] == IMP_NO_MATERIAL ? -1L : (long)s.tri_material[i]);
        fputc(']', f);
    } else {
        fputs("null", f);
    }
    fputs(",\"materials\":[", f);
    for (i = 0; i < s.num_materials; i++) {
        fprintf(f, "%s{\"name\":", i ? "," : "");
        json_string(f, s.material_names[i]);
        fprintf(f, ",\"image\":%ld}", (long)s.material_image[i]);
    }
    fputs("],\"images\":[", f);
    for (i = 0; i < s.num_images; i++) {
        fprintf(f, "%s{\"label\":", i ? "," : "");
        json_string(f, s.images[i].label);
        fputs(",\"path\":", f);
        if (s.images[i].path)
            json_string(f, s.images[i].path);
        else
            fputs("null", f);
        fprintf(f, ",\"size\":%lu}", (unsigned long)s.images[i].size);
    }
    fputs("],\"notes\":[", f);
    for (i = 0; i < s.num_notes; i++) {
        if (i)
            fputc(',', f);
        json_string(f, s.notes[i]);
    }
    fputs("]}\n", f);
    imp_scene_free(&s);
    if (out_path) {
        if (fclose(f) != 0) {
            perror(out_path);
            return 1;
        }
    } else if (fflush(stdout) != 0) {
        perror("stdout");
        return 1;
    }
    return 0;
}
