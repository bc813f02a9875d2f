/*
 * three.js's MD2Loader as a judge: compares what three_md2.mjs wrote (the
 * BufferGeometry that MD2Loader.parse made of FILE) with libmd2's decoding
 * of FILE.
 *
 *   md2_judge_three [--optional] [--report OUT.json] --dump DUMP FILE.md2
 *
 * What MD2Loader (three r187, examples/jsm/loaders/MD2Loader.js) does with
 * an MD2 file, as read in its source: it refuses a file whose ofs_end is
 * not the file's size; it decodes each frame as scale * v + translate in
 * double precision, then stores float32; it swaps y and z to make three's
 * y the up axis (three (x, y, z) = MD2 (x, z, y)), for normals too; it
 * makes a non-indexed geometry, one vertex per triangle corner in file
 * order, whose position and normal attributes are frame 0 and whose
 * morphAttributes.position and .normal hold every frame, absolute
 * (morphTargetsRelative false) and named after the frames; its uv are
 * (s / skinwidth, 1 - t / skinheight); its clips come from the frame names
 * at 10 frames a second.
 *
 * SPDX-License-Identifier: MIT
 */
#include "judge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const judge_axes three_axes = {
    {0, 2, 1}, {1, 1, 1}, "three.js (x, y, z) = MD2 (x, z, y): MD2's z up becomes three's y up"};

typedef struct dump {
    char *bytes;
    size_t size;
    const char *header_end; /* the "data\n" line */
    const float *data;
    size_t floats;
} dump;

static int read_dump(const char *path, dump *d)
{
    FILE *f = fopen(path, "rb");
    long n;
    const char *mark;
    memset(d, 0, sizeof *d);
    if (!f)
        return 0;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return 0;
    }
    d->size = (size_t)n;
    d->bytes = malloc(d->size + 1);
    if (!d->bytes || fread(d->bytes, 1, d->size, f) != d->size) {
        fclose(f);
        return 0;
    }
    fclose(f);
    d->bytes[d->size] = '\0';
    mark = strstr(d->bytes, "\ndata\n");
    if (!mark || strncmp(d->bytes, "md2-judge-three 1\n", 18) != 0)
        return 0;
    d->header_end = mark + 1;
    {
        size_t offset = (size_t)(mark + 6 - d->bytes);
        size_t left = d->size - offset;
        float *copy = malloc(left ? left : 1); /* aligned for floats */
        if (!copy)
            return 0;
        memcpy(copy, d->bytes + offset, left);
        d->data = copy;
        d->floats = left / sizeof(float);
        if (left % sizeof(float))
            return 0;
    }
    return 1;
}

/* The value of header line "key ...", or NULL. */
static const char *field(const dump *d, const char *key)
{
    size_t n = strlen(key);
    const char *p = d->bytes;
    while (p && p < d->header_end) {
        if (strncmp(p, key, n) == 0 && p[n] == ' ')
            return p + n + 1;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return NULL;
}

static long number(const dump *d, const char *key)
{
    const char *v = field(d, key);
    return v ? strtol(v, NULL, 10) : -1;
}

/* hex of Latin-1 bytes ("-" for none) into out, up to the line's end */
static void unhex(const char *p, char *out, size_t size)
{
    size_t n = 0;
    if (*p == '-') {
        out[0] = '\0';
        return;
    }
    while (n + 1 < size && p[0] && p[1] && p[0] != ' ' && p[0] != '\n') {
        unsigned byte;
        if (sscanf(p, "%2x", &byte) != 1)
            break;
        out[n++] = (char)byte;
        p += 2;
    }
    out[n] = '\0';
}

int main(int argc, char **argv)
{
    judge_args args;
    judge *j;
    const md2_model *m;
    dump d;
    int status;
    long vertices, targets, normal_targets, has_normal, has_uv, relative;
    size_t corners, need, f, c;
    const float *p;
    float *absolute = NULL;
    const char *line;

    if (judge_parse_args(argc, argv, &args) != 0)
        return 2;
    if (!args.dump) {
        fprintf(stderr, "md2_judge_three: --dump DUMP (three_md2.mjs's output) is needed\n");
        return 2;
    }
    j = judge_open("three.js", &args, &status);
    if (!j)
        return status;
    m = judge_model(j);
    if (!read_dump(args.dump, &d)) {
        judge_fail(j, "cannot read three_md2.mjs's output %s", args.dump);
        goto done;
    }
    line = field(&d, "three");
    if (line) {
        char version[32];
        snprintf(version, sizeof version, "r%ld", strtol(line, NULL, 10));
        judge_set_version(j, version);
    }
    line = field(&d, "status");
    if (!line || strncmp(line, "loaded", 6) != 0) {
        const char *end = line ? strchr(line, '\n') : NULL;
        judge_fail(j, "the reader refuses the file: %.*s", end ? (int)(end - line) : 7,
                   line ? line : "unknown");
        goto done;
    }
    vertices = number(&d, "vertices");
    targets = number(&d, "targets");
    normal_targets = number(&d, "normal_targets");
    has_normal = number(&d, "normal");
    has_uv = number(&d, "uv");
    relative = number(&d, "relative");
    corners = m->num_triangles * 3;
    judge_note(j, "%s; one vertex per triangle corner, frame 0 as the rest pose, every "
                  "frame as an absolute morph target", three_axes.what);
    if (!judge_count(j, NULL, "vertices (position.count: one per triangle corner)",
                     (size_t)(vertices < 0 ? 0 : vertices), corners) ||
        !judge_count(j, NULL, "morph targets (morphAttributes.position: one per keyframe)",
                     (size_t)(targets < 0 ? 0 : targets), m->num_frames))
        goto done;
    if (number(&d, "indexed") != 0)
        judge_fail(j, "the geometry is indexed: MD2Loader was expected to make one vertex "
                      "per triangle corner, in file order");
    need = (size_t)vertices * 3 * (1 + (size_t)(has_normal == 1) + (size_t)targets +
                                   (size_t)(normal_targets > 0 ? normal_targets : 0)) +
           (size_t)vertices * 2 * (size_t)(has_uv == 1);
    if (d.floats != need) {
        judge_fail(j, "three_md2.mjs wrote %zu floats, its header says %zu", d.floats, need);
        goto done;
    }

    /* the morph targets' names are the frame names, in order */
    for (f = 0; f < m->num_frames; f++) {
        char key[32], name[64];
        const char *v;
        snprintf(key, sizeof key, "target %zu", f);
        v = field(&d, key);
        unhex(v ? v : "-", name, sizeof name);
        if (!v || strcmp(name, m->frames[f].name) != 0)
            judge_fail(j, "morph target %zu is named '%s', libmd2's frame %zu '%s'", f,
                       v ? name : "(no name line)", f, m->frames[f].name);
    }

    p = d.data;
    judge_positions(j, "position attribute (the rest pose)", 0, 0, 0.0f, p, 0, &three_axes);
    {
        const float *base = p, *normal = NULL, *uv = NULL, *tp, *tn;
        p += (size_t)vertices * 3;
        if (has_normal == 1) {
            normal = p;
            p += (size_t)vertices * 3;
        }
        if (has_uv == 1) {
            uv = p;
            p += (size_t)vertices * 2;
        }
        tp = p;
        tn = p + (size_t)targets * (size_t)vertices * 3;
        if (normal)
            judge_normals(j, "normal attribute (the rest pose)", 0, 0, 0.0f, normal, 0,
                          &three_axes);
        else
            judge_fail(j, "no normal attribute");
        judge_uvs(j, uv, 0, JUDGE_UV_FLIP_V);
        if (relative == 1) {
            /* relative targets would be added to the rest pose */
            absolute = malloc(((size_t)vertices ? (size_t)vertices : 1) * 3 * sizeof *absolute);
            if (!absolute) {
                judge_fail(j, "no memory");
                goto done;
            }
            judge_note(j, "the morph targets are relative: each is added to the rest pose");
        }
        for (f = 0; f < m->num_frames; f++) {
            char label[48];
            const float *t = tp + f * (size_t)vertices * 3;
            if (absolute) {
                for (c = 0; c < (size_t)vertices * 3; c++)
                    absolute[c] = base[c] + t[c];
                t = absolute;
            }
            snprintf(label, sizeof label, "morph target %zu", f);
            judge_positions(j, label, (uint32_t)f, (uint32_t)f, 0.0f, t, 0, &three_axes);
        }
        if (judge_count(j, NULL, "normal morph targets (morphAttributes.normal)",
                        (size_t)(normal_targets < 0 ? 0 : normal_targets), m->num_frames)) {
            for (f = 0; f < m->num_frames; f++) {
                char label[48];
                const float *t = tn + f * (size_t)vertices * 3;
                if (absolute && normal) {
                    for (c = 0; c < (size_t)vertices * 3; c++)
                        absolute[c] = normal[c] + t[c];
                    t = absolute;
                }
                snprintf(label, sizeof label, "normal morph target %zu", f);
                judge_normals(j, label, (uint32_t)f, (uint32_t)f, 0.0f, t, 0, &three_axes);
            }
        }
    }
    /* the clips MD2Loader made from the frame names, for the report */
    {
        const char *q = d.bytes;
        size_t clips = 0;
        while ((q = strstr(q, "\nclip ")) != NULL && q < d.header_end) {
            char name[64];
            int tracks = 0;
            double seconds = 0;
            q += 6;
            unhex(q, name, sizeof name);
            sscanf(strchr(q, ' ') ? strchr(q, ' ') : q, "%d %lf", &tracks, &seconds);
            judge_note(j, "clip '%s': %d morph targets, %.3g s", name, tracks, seconds);
            clips++;
        }
        judge_note(j, "%zu animation clips from the frame names (10 frames a second)", clips);
    }
done:
    free(absolute);
    free((void *)d.data);
    free(d.bytes);
    return judge_close(j);
}
