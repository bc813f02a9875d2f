/*
 * Writes the fuzz seed corpus: small synthetic MD2 files, one per quirk,
 * built byte by byte by tests/test_util.c.
 *
 *   make_seeds OUTDIR
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "../test_util.h"

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

int main(int argc, char **argv)
{
    tu_spec s;
    int bad = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: make_seeds OUTDIR\n");
        return 2;
    }
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
    return bad;
}
