/*
 * Writes the fuzz seed corpus: small synthetic MD2 files, one per quirk,
 * built byte by byte by tests/unit/test_util.c, and, given a second folder,
 * small UFO:AI tag files for tests/fuzz/fuzz_tags.c, built byte by byte
 * here.
 *
 *   make_seeds OUTDIR [TAGS_OUTDIR]
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../unit/test_util.h"

static int save(const char *dir, const char *name, const tu_spec *s)
{
    static uint8_t buf[TU_MAX_FILE];
    char path[1024];
    size_t n = tu_build(s, buf);
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, n, f) != n) {
        fprintf(stderr, "cannot write %s\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    return fclose(f) != 0;
}

/* ---- tag files ---------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
    p[2] = (uint8_t)((v >> 16) & 0xFFu);
    p[3] = (uint8_t)(v >> 24);
}

static void putf(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    put32(p, u);
}

/* sin and cos of k * 45 degrees, without libm (exact seeds on any host) */
static const float sin45[8] = {0.0f, 0.70710677f, 1.0f, 0.70710677f,
                               0.0f, -0.70710677f, -1.0f, -0.70710677f};

/* A tag file of tags x frames: tag k in frame f turns by (k + f) * 45
 * degrees about Z (axes scaled by `scale`, right negated when `mirror`),
 * at origin (k, f, k + f); `extra` bytes of 0xEE follow the data. */
static int save_tags(const char *dir, const char *name, uint32_t tags, uint32_t frames,
                     float scale, int mirror, size_t extra)
{
    static uint8_t buf[8192];
    size_t size = 32 + 64 * (size_t)tags + 48 * (size_t)tags * frames, k, f;
    char path[1024];
    FILE *file;

    if (size + extra > sizeof buf)
        return 1;
    memset(buf, 0, size);
    memset(buf + size, 0xEE, extra);
    put32(buf, 844121162u); /* JDP2 */
    put32(buf + 4, 1);
    put32(buf + 8, tags);
    put32(buf + 12, frames);
    put32(buf + 16, 32);
    put32(buf + 20, 32 + 64 * tags);
    put32(buf + 24, (uint32_t)size);
    put32(buf + 28, 32 + 64 * tags + 64 * tags * frames);
    for (k = 0; k < tags; k++)
        snprintf((char *)buf + 32 + 64 * k, 64, k == 0 ? "tag_rweapon" : "tag_%u",
                 (unsigned)k);
    for (k = 0; k < tags; k++) {
        for (f = 0; f < frames; f++) {
            uint8_t *p = buf + 32 + 64 * tags + 48 * (k * frames + f);
            float c = sin45[(k + f + 2) % 8], s = sin45[(k + f) % 8];
            float v[12];
            int j;
            v[0] = scale * c;
            v[1] = scale * s;
            v[2] = 0.0f;
            v[3] = (mirror ? scale : -scale) * s;
            v[4] = (mirror ? -scale : scale) * c;
            v[5] = 0.0f;
            v[6] = 0.0f;
            v[7] = 0.0f;
            v[8] = scale;
            v[9] = (float)k;
            v[10] = (float)f;
            v[11] = (float)(k + f);
            for (j = 0; j < 12; j++)
                putf(p + 4 * j, v[j]);
        }
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    file = fopen(path, "wb");
    if (!file || fwrite(buf, 1, size + extra, file) != size + extra) {
        fprintf(stderr, "cannot write %s\n", path);
        if (file)
            fclose(file);
        return 1;
    }
    return fclose(file) != 0;
}

static int save_tag_seeds(const char *dir)
{
    int bad = 0;
    bad |= save_tags(dir, "one.tag", 1, 1, 1.0f, 0, 0);
    bad |= save_tags(dir, "three-by-eight.tag", 3, 8, 1.0f, 0, 0);
    bad |= save_tags(dir, "twelve-frames.tag", 2, 12, 1.0f, 0, 0);
    bad |= save_tags(dir, "mirrored.tag", 2, 4, 1.0f, 1, 0);
    bad |= save_tags(dir, "scaled.tag", 1, 6, 1e20f, 0, 0);
    bad |= save_tags(dir, "zero-axes.tag", 2, 3, 0.0f, 0, 0);
    bad |= save_tags(dir, "trailing.tag", 1, 2, 1.0f, 0, 5);
    return bad;
}

int main(int argc, char **argv)
{
    tu_spec s;
    int bad = 0;
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: make_seeds OUTDIR [TAGS_OUTDIR]\n");
        return 2;
    }
    if (argc == 3)
        bad |= save_tag_seeds(argv[2]);
    tu_spec_default(&s);
    bad |= save(argv[1], "tiny.md2", &s);
    s.frame_padding = 8;
    bad |= save(argv[1], "padded-frames.md2", &s);
    tu_spec_default(&s);
    s.num_gl = 20;
    bad |= save(argv[1], "gl-unterminated.md2", &s);
    s.num_gl = 0;
    s.num_skins = 0;
    bad |= save(argv[1], "no-gl-no-skins.md2", &s);
    tu_spec_default(&s);
    s.gl[13] = 9;
    bad |= save(argv[1], "gl-bad-index.md2", &s);
    tu_spec_default(&s);
    s.tris[1][1] = 0xFFFF;
    s.tris[0][4] = 7;
    bad |= save(argv[1], "bad-triangles.md2", &s);
    tu_spec_default(&s);
    s.verts[1][2][3] = 200;
    bad |= save(argv[1], "bad-normal.md2", &s);
    tu_spec_default(&s);
    memset(s.skins[0], 'x', 64);
    memcpy(s.names[2], "sixteen_chars_xx", 16);
    s.trailing = 6;
    bad |= save(argv[1], "unterminated-names-trailing.md2", &s);
    tu_spec_default(&s);
    s.skinwidth = 0;
    s.num_st = 0;
    bad |= save(argv[1], "no-texcoords.md2", &s);
    /* the warnings no seed above raises: MD2_WARN_SAME_NORMALS (every
     * vertex of every frame on normal index 5), MD2_WARN_SKIN_SIZE_ZERO
     * (with texcoords), MD2_WARN_FRAME_TRANSFORM (a NaN scale) */
    tu_spec_default(&s);
    {
        int f, v;
        for (f = 0; f < TU_MAX_FRAMES; f++)
            for (v = 0; v < TU_MAX_XYZ; v++)
                s.verts[f][v][3] = 5;
    }
    bad |= save(argv[1], "same-normals.md2", &s);
    tu_spec_default(&s);
    s.skinheight = 0;
    bad |= save(argv[1], "skin-size-zero.md2", &s);
    tu_spec_default(&s);
    s.scale[1][2] = (float)NAN;
    bad |= save(argv[1], "frame-transform-nan.md2", &s);
    return bad;
}
