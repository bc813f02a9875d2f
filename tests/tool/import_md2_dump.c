/*
 * import_md2_dump: an MD2 that `md2 import` made from a glTF, decoded by
 * libmd2 and turned back into the glTF's terms, as JSON for the three.js
 * judge (gltf/import_compare.mjs --md2). Test-only.
 *
 *   import_md2_dump MODEL.md2 [--scale S] -o OUT.json
 *
 * The model is loaded with its side files (md2_bundle_load_file(): the
 * .anm file `md2 import --anm` writes gives the animations' names, ranges
 * and rates). Positions: each keyframe decoded (md2_decode_frame()), in
 * glTF's axes (glTF's (x, y, z) is MD2's (y, z, x), the inverse of md2
 * import's conversion) and divided by S (the --scale md2 import was given;
 * default 1). Triangles: MD2's corners a, b, c are the source's a, c, b
 * (md2 import writes the source's corners 0, 2, 1). Writes {"frames",
 * "anims": [{"name", "first", "frames", "fps"}], "triangles", "tri_uv",
 * "positions", "normals": null, "uv" (s / skin width, t / skin height),
 * "half_step" (each keyframe's scale / 2 / S a glTF axis), "texel" (1 /
 * skin width, 1 / skin height)}. Exit 0, or 1 with libmd2's message.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>
#include <md2/animation.h>
#include <md2/tags.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

int main(int argc, char **argv)
{
    const char *path = NULL, *out_path = NULL;
    double scale = 1;
    md2_bundle *b = NULL;
    md2_result r;
    const md2_model *m;
    float *pos;
    FILE *f;
    size_t i, k;
    int a;
    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--scale") == 0 && a + 1 < argc)
            scale = atof(argv[++a]);
        else if (strcmp(argv[a], "-o") == 0 && a + 1 < argc)
            out_path = argv[++a];
        else if (argv[a][0] == '-' || path)
            path = NULL, a = argc;
        else
            path = argv[a];
    }
    if (!path || !out_path || !(scale > 0)) {
        fprintf(stderr, "usage: import_md2_dump MODEL.md2 [--scale S] -o OUT.json\n");
        return 2;
    }
    r = md2_bundle_load_file(path, NULL, &b);
    if (r != MD2_OK) {
        fprintf(stderr, "import_md2_dump: %s: cannot load it (error %d)\n", path, (int)r);
        return 1;
    }
    m = b->model;
    pos = (float *)malloc((m->num_vertices ? m->num_vertices : 1) * 3 * sizeof *pos);
    f = fopen(out_path, "w");
    if (!pos || !f) {
        fprintf(stderr, "import_md2_dump: cannot write %s\n", out_path);
        free(pos);
        if (f)
            fclose(f);
        md2_bundle_free(b);
        return 1;
    }
    fprintf(f, "{\"frames\":%lu,\"anims\":[", (unsigned long)m->num_frames);
    for (i = 0; i < b->num_anims; i++) {
        fprintf(f, "%s{\"name\":", i ? "," : "");
        json_string(f, b->anims[i].name);
        fprintf(f, ",\"first\":%lu,\"frames\":%lu,\"fps\":%.9g}", (unsigned long)b->anims[i].first,
                (unsigned long)(b->anims[i].last - b->anims[i].first + 1), (double)b->anims[i].fps);
    }
    fputs("],\"triangles\":[", f);
    for (i = 0; i < m->num_triangles; i++) {
        const md2_triangle *t = &m->triangles[i];
        fprintf(f, "%s%u,%u,%u", i ? "," : "", t->vertex[0], t->vertex[2], t->vertex[1]);
    }
    fputs("],\"tri_uv\":[", f);
    for (i = 0; i < m->num_triangles; i++) {
        const md2_triangle *t = &m->triangles[i];
        fprintf(f, "%s%u,%u,%u", i ? "," : "", t->texcoord[0], t->texcoord[2], t->texcoord[1]);
    }
    fputs("],\"positions\":[", f);
    for (k = 0; k < m->num_frames; k++) {
        if (md2_decode_frame(m, (uint32_t)k, pos, 0, NULL, 0) != MD2_OK) {
            fprintf(stderr, "import_md2_dump: %s: frame %lu cannot be decoded\n", path, (unsigned long)k);
            fclose(f);
            free(pos);
            md2_bundle_free(b);
            return 1;
        }
        fputs(k ? ",[" : "[", f);
        for (i = 0; i < m->num_vertices; i++) {
            const float *p = pos + 3 * i;
            fprintf(f, "%s%.9g,%.9g,%.9g", i ? "," : "", p[1] / scale, p[2] / scale, p[0] / scale);
        }
        fputc(']', f);
    }
    fputs("],\"normals\":null,\"uv\":[", f);
    for (i = 0; i < m->num_texcoords; i++)
        fprintf(f, "%s%.9g,%.9g", i ? "," : "", (double)m->texcoords[i].s / m->skin_width,
                (double)m->texcoords[i].t / m->skin_height);
    fputs("],\"half_step\":[", f);
    for (k = 0; k < m->num_frames; k++) {
        const float *sc = m->frames[k].scale;
        fprintf(f, "%s[%.9g,%.9g,%.9g]", k ? "," : "", sc[1] / 2 / scale, sc[2] / 2 / scale, sc[0] / 2 / scale);
    }
    fprintf(f, "],\"texel\":[%.9g,%.9g]}\n", 1.0 / m->skin_width, 1.0 / m->skin_height);
    free(pos);
    md2_bundle_free(b);
    if (fclose(f) != 0) {
        fprintf(stderr, "import_md2_dump: cannot write %s\n", out_path);
        return 1;
    }
    return 0;
}
