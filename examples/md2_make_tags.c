/*
 * md2_make_tags - makes the attachment examples for the bundled crystal:
 * a UFO:AI tag file for it and a small weapon model to hold at a tag. It
 * shows how to fill md2_tags by hand for md2_tags_write(), and it is how
 * examples/models/crystal.tag and examples/models/blade.md2 are made.
 *
 * Usage: md2_make_tags CRYSTAL.md2 OUT.tag OUT_WEAPON.md2
 *        md2_make_tags --help
 *
 *   CRYSTAL.md2     the crystal (examples/models/crystal.md2, made by
 *                   md2_make_model), whose frames the tags follow
 *   OUT.tag         where to write its tag file (overwritten)
 *   OUT_WEAPON.md2  where to write the weapon model (overwritten)
 *   To remake the bundled files:
 *   md2_make_tags examples/models/crystal.md2 examples/models/crystal.tag \
 *                 examples/models/blade.md2
 *
 * Exit status: 0 on success, 1 if a file cannot be read, built, written or
 * read back, 2 for bad arguments.
 *
 * The tags, one per keyframe of the crystal (18 frames):
 *   tag_rweapon  on the first vertex of the crystal's upper ring (vertex
 *                1), exactly where the decoded keyframe puts it: forward
 *                points away from the crystal's axis, horizontally; up is
 *                +Z; right (the second axis) is cross(up, forward), so a
 *                child's +Y goes there and the basis is right-handed. As
 *                the crystal spins, bounces and pulses, the tag turns and
 *                moves with that vertex.
 *   tag_top      on the top apex (vertex 0), with the same axes.
 *
 * The weapon, "blade": one keyframe, 6 vertices and 8 triangles, a thin
 * double pyramid along +X: its grip (vertex 0) at the origin, a guard
 * 3 units along, the tip (vertex 5) at x = 15.9375. Its vertices lie on
 * the quantisation grid (scale 1/16, 1/64, 1/64; translate 0, -2, -2), so
 * the grip decodes to (0, 0, 0) exactly and sits exactly on the tag's
 * origin when attached. It names the crystal's skin (any colour will do).
 *
 * After writing, both files are loaded back in fully strict mode, and the
 * tag file's frame count is checked against the crystal's.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/tags.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CRYSTAL_FRAMES_MAX 64
#define NUM_TAGS 2

#define BLADE_VERTS 6
#define BLADE_TRIS 8
#define BLADE_ST 4

static int usage(FILE *out)
{
    fprintf(out, "usage: md2_make_tags CRYSTAL.md2 OUT.tag OUT_WEAPON.md2\n");
    return out == stdout ? 0 : 2;
}

static int write_bytes(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    int ok;
    if (!f) {
        fprintf(stderr, "%s: cannot open for writing\n", path);
        return 0;
    }
    ok = fwrite(data, 1, size, f) == size;
    ok &= fclose(f) == 0;
    if (!ok)
        fprintf(stderr, "%s: cannot write\n", path);
    return ok;
}

/* ---- the tags ------------------------------------------------------------ */

/* One tag frame: the origin o, forward = (fx, fy, 0), up = +Z, right =
 * cross(up, forward) = (-fy, fx, 0). */
static void set_frame(float *v, const float o[3], float fx, float fy)
{
    v[0] = fx;
    v[1] = fy;
    v[2] = 0.0f;
    v[3] = -fy;
    v[4] = fx;
    v[5] = 0.0f;
    v[6] = 0.0f;
    v[7] = 0.0f;
    v[8] = 1.0f;
    v[9] = o[0];
    v[10] = o[1];
    v[11] = o[2];
}

static int make_tags(const md2_model *crystal, const char *out_path)
{
    static float values[NUM_TAGS * CRYSTAL_FRAMES_MAX * MD2_TAG_FRAME_FLOATS];
    static unsigned char bytes[32 + 64 * NUM_TAGS + 48 * NUM_TAGS * CRYSTAL_FRAMES_MAX];
    md2_tag_name names[NUM_TAGS];
    md2_tags tags;
    md2_diagnostic diag;
    float *pos;
    size_t f, n = crystal->num_frames, written = 0;
    int ok;

    if (n > CRYSTAL_FRAMES_MAX || crystal->num_vertices < 14) {
        fprintf(stderr, "the model is not the crystal (%lu frames, %lu vertices)\n",
                (unsigned long)n, (unsigned long)crystal->num_vertices);
        return 0;
    }
    pos = (float *)malloc(crystal->num_vertices * 3 * sizeof *pos);
    if (!pos)
        return 0;
    for (f = 0; f < n; f++) {
        const float *top, *ring, *bottom;
        float dx, dy, len;
        if (md2_decode_frame(crystal, (uint32_t)f, pos, 0, NULL, 0) != MD2_OK) {
            free(pos);
            return 0;
        }
        top = pos;             /* vertex 0: the top apex */
        ring = pos + 3;        /* vertex 1: the upper ring's first vertex */
        bottom = pos + 3 * 13; /* vertex 13: the bottom apex */
        /* away from the axis (through the apexes), horizontally */
        dx = ring[0] - 0.5f * (top[0] + bottom[0]);
        dy = ring[1] - 0.5f * (top[1] + bottom[1]);
        len = (float)sqrt((double)dx * dx + (double)dy * dy);
        if (!(len > 0.0f)) {
            free(pos);
            fprintf(stderr, "frame %lu: the ring vertex is on the axis\n", (unsigned long)f);
            return 0;
        }
        set_frame(values + (0 * n + f) * MD2_TAG_FRAME_FLOATS, ring, dx / len, dy / len);
        set_frame(values + (1 * n + f) * MD2_TAG_FRAME_FLOATS, top, dx / len, dy / len);
    }
    free(pos);

    /* names are 64 bytes in the file: zero the rest */
    memset(names, 0, sizeof names);
    strcpy(names[0].name, "tag_rweapon");
    strcpy(names[1].name, "tag_top");
    memset(&tags, 0, sizeof tags);
    tags.num_tags = NUM_TAGS;
    tags.num_frames = n;
    tags.names = names;
    tags.frames = values;
    if (md2_tags_write(&tags, bytes, sizeof bytes, &written, &diag) != MD2_OK) {
        fprintf(stderr, "%s: %s\n", out_path, diag.message);
        return 0;
    }
    ok = write_bytes(out_path, bytes, written);
    if (ok) {
        /* read back strictly; the frame count must be the crystal's */
        md2_options opts;
        md2_tags *back = NULL;
        memset(&opts, 0, sizeof opts);
        opts.strict = MD2_STRICT_ALL;
        opts.error = &diag;
        ok = md2_tags_parse(bytes, written, &opts, &back) == MD2_OK &&
             md2_tags_check(back, crystal, &opts) == MD2_OK &&
             memcmp(back->frames, values, n * NUM_TAGS * sizeof(float) * 12) == 0;
        if (!ok)
            fprintf(stderr, "%s: does not read back: %s\n", out_path, diag.message);
        md2_tags_free(back);
    }
    if (ok)
        printf("%s: %d tags (tag_rweapon, tag_top) over %lu frames, %lu bytes\n", out_path,
               NUM_TAGS, (unsigned long)n, (unsigned long)written);
    return ok;
}

/* ---- the weapon ----------------------------------------------------------- */

/* Vertex positions on the quantisation grid, as bytes: x = v / 16,
 * y = v / 64 - 2, z = v / 64 - 2. */
static const uint8_t blade_v[BLADE_VERTS][3] = {
    {0, 128, 128},   /* 0: grip (0, 0, 0) */
    {48, 32, 128},   /* 1: guard, right (3, -1.5, 0) */
    {48, 128, 176},  /* 2: guard, top (3, 0, 0.75) */
    {48, 224, 128},  /* 3: guard, left (3, 1.5, 0) */
    {48, 128, 80},   /* 4: guard, bottom (3, 0, -0.75) */
    {255, 128, 128}, /* 5: tip (15.9375, 0, 0) */
};

/* Triangles, clockwise seen from outside as Quake II draws them: the grip
 * cone, then the blade. */
static const uint16_t blade_tris[BLADE_TRIS][3] = {
    {0, 2, 1}, {0, 3, 2}, {0, 4, 3}, {0, 1, 4},
    {5, 1, 2}, {5, 2, 3}, {5, 3, 4}, {5, 4, 1},
};

/* The table normal closest to the direction from the blade's centre line
 * (x axis) to vertex i; the grip and the tip point along x. */
static uint8_t blade_normal(int i)
{
    float d[3], best = -2.0f;
    unsigned k, pick = 0;
    d[0] = i == 0 ? -1.0f : i == 5 ? 1.0f : 0.0f;
    d[1] = i == 1 ? -1.0f : i == 3 ? 1.0f : 0.0f;
    d[2] = i == 2 ? 1.0f : i == 4 ? -1.0f : 0.0f;
    for (k = 0; k < MD2_NUM_NORMALS; k++) {
        const float *n = md2_normal(k);
        float dot = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
        if (dot > best) {
            best = dot;
            pick = k;
        }
    }
    return (uint8_t)pick;
}

static int make_weapon(const char *out_path)
{
    static unsigned char bytes[4096];
    md2_skin skin;
    md2_texcoord st[BLADE_ST];
    md2_triangle tris[BLADE_TRIS];
    md2_vertex verts[BLADE_VERTS];
    md2_frame frame;
    md2_model m;
    md2_diagnostic diag;
    size_t written = 0;
    int i, k, ok;

    memset(&skin, 0, sizeof skin);
    strcpy(skin.name, "models/crystal/skin.pcx");
    /* four texels of the crystal's skin: the blade's own colours */
    st[0].s = 100; st[0].t = 10;
    st[1].s = 120; st[1].t = 10;
    st[2].s = 100; st[2].t = 30;
    st[3].s = 120; st[3].t = 30;
    for (i = 0; i < BLADE_TRIS; i++) {
        for (k = 0; k < 3; k++) {
            tris[i].vertex[k] = blade_tris[i][k];
            tris[i].texcoord[k] = (uint16_t)(blade_tris[i][k] % BLADE_ST);
        }
    }
    for (i = 0; i < BLADE_VERTS; i++) {
        for (k = 0; k < 3; k++)
            verts[i].v[k] = blade_v[i][k];
        verts[i].normal = blade_normal(i);
    }
    memset(&frame, 0, sizeof frame);
    frame.scale[0] = 1.0f / 16.0f;
    frame.scale[1] = 1.0f / 64.0f;
    frame.scale[2] = 1.0f / 64.0f;
    frame.translate[0] = 0.0f;
    frame.translate[1] = -2.0f;
    frame.translate[2] = -2.0f;
    memcpy(frame.name, "blade", 5);
    frame.vertices = verts;

    memset(&m, 0, sizeof m);
    m.skin_width = 128;
    m.skin_height = 64;
    m.num_skins = 1;
    m.num_vertices = BLADE_VERTS;
    m.num_texcoords = BLADE_ST;
    m.num_triangles = BLADE_TRIS;
    m.num_frames = 1;
    m.skins = &skin;
    m.texcoords = st;
    m.triangles = tris;
    m.frames = &frame;
    if (md2_write(&m, bytes, sizeof bytes, &written, &diag) != MD2_OK) {
        fprintf(stderr, "%s: %s\n", out_path, diag.message);
        return 0;
    }
    ok = write_bytes(out_path, bytes, written);
    if (ok) {
        md2_options opts;
        md2_model *back = NULL;
        float grip[BLADE_VERTS * 3];
        memset(&opts, 0, sizeof opts);
        opts.strict = MD2_STRICT_ALL;
        opts.error = &diag;
        ok = md2_parse(bytes, written, &opts, &back) == MD2_OK &&
             md2_decode_frame(back, 0, grip, 0, NULL, 0) == MD2_OK && grip[0] == 0.0f &&
             grip[1] == 0.0f && grip[2] == 0.0f;
        if (!ok)
            fprintf(stderr, "%s: does not read back, or its grip is not at the origin: %s\n",
                    out_path, diag.message);
        md2_free(back);
    }
    if (ok)
        printf("%s: the weapon, %d vertices, %d triangles, 1 frame, %lu bytes\n", out_path,
               BLADE_VERTS, BLADE_TRIS, (unsigned long)written);
    return ok;
}

int main(int argc, char **argv)
{
    md2_options opts;
    md2_diagnostic diag;
    md2_model *crystal = NULL;
    int ok;

    if (argc == 2 && strcmp(argv[1], "--help") == 0)
        return usage(stdout);
    if (argc != 4)
        return usage(stderr);
    memset(&opts, 0, sizeof opts);
    opts.strict = MD2_STRICT_ALL;
    opts.error = &diag;
    if (md2_load_file(argv[1], &opts, &crystal) != MD2_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], diag.message);
        return 1;
    }
    ok = make_tags(crystal, argv[2]) && make_weapon(argv[3]);
    md2_free(crystal);
    return ok ? 0 : 1;
}
