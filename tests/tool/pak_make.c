/*
 * pak_make: game folders and PAK files for the tests of md2 import --game
 * (import.cases) and the seeds of fuzz_pak. Test-only; everything it
 * writes is generated here (no id Software data).
 *
 *   pak_make game DIR REF.pcx TEX.tga
 *       DIR/pak0.pak holding pics/colormap.pcx (a 16x16 8-bit PCX of the
 *       palette below) and models/readme.txt; DIR/pak1.pak holding
 *       readme.txt only (so the palette is found past a higher PAK);
 *       REF.pcx, outside DIR, the same colormap (the reference); TEX.tga
 *       a 64x64 true-colour texture of 4096 colours (red x * 4, green
 *       y * 4, blue (x xor y) * 4), uncompressed 24-bit TGA.
 *   pak_make game2 DIR REF2.pcx
 *       DIR/pak2.pak holding another pics/colormap.pcx (the palette with
 *       its entries in reverse order), and REF2.pcx the same: pak2.pak is
 *       searched before pak0.pak, so its colormap wins.
 *   pak_make hostile DIR
 *       DIR/NAME.pak for each hostile shape: short, magic, dirofs_neg,
 *       dirlen_odd, dirlen_zero, dir_past_end, dir_over_header, huge
 *       (a 2 GB entry), entry_past_end, entry_over_dir, overlap,
 *       unterminated, many (2^20 + 1 entries declared), and ok (valid).
 *
 * The palette: entry i is (i * 67 mod 256, i * 149 mod 256, (255 - i) * 11
 * mod 256), 256 colours all different, far from any one image's own.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/skin.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put32(unsigned char *b, uint32_t v)
{
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
    b[2] = (unsigned char)(v >> 16);
    b[3] = (unsigned char)(v >> 24);
}

static int write_file(const char *dir, const char *name, const void *data, size_t n)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
    f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "pak_make: cannot write %s\n", path);
        return 0;
    }
    return 1;
}

typedef struct file {
    const char *name;
    const unsigned char *data;
    size_t size;
} file;

/* A valid PAK of the files: header, data, directory at the end. */
static unsigned char *pak(const file *files, size_t n, size_t *size)
{
    size_t data = 0, i, at = 12;
    unsigned char *b;
    for (i = 0; i < n; i++)
        data += files[i].size;
    *size = 12 + data + 64 * n;
    b = (unsigned char *)calloc(1, *size);
    if (!b)
        return NULL;
    memcpy(b, "PACK", 4);
    put32(b + 4, (uint32_t)(12 + data));
    put32(b + 8, (uint32_t)(64 * n));
    for (i = 0; i < n; i++) {
        unsigned char *e = b + 12 + data + 64 * i;
        memcpy(b + at, files[i].data, files[i].size);
        strncpy((char *)e, files[i].name, 55);
        put32(e + 56, (uint32_t)at);
        put32(e + 60, (uint32_t)files[i].size);
        at += files[i].size;
    }
    return b;
}

static unsigned char *colormap(size_t *size, int reverse)
{
    uint8_t palette[768], idx[256];
    md2_pcx_input in;
    unsigned char *b;
    int i;
    for (i = 0; i < 256; i++) {
        int j = reverse ? 255 - i : i;
        palette[3 * i] = (uint8_t)(j * 67 % 256);
        palette[3 * i + 1] = (uint8_t)(j * 149 % 256);
        palette[3 * i + 2] = (uint8_t)((255 - j) * 11 % 256);
        idx[i] = (uint8_t)i;
    }
    memset(&in, 0, sizeof in);
    in.width = 16;
    in.height = 16;
    in.indices = idx;
    in.palette = palette;
    *size = md2_pcx_encode_size(&in);
    b = (unsigned char *)malloc(*size);
    if (!b || md2_pcx_encode(&in, b, *size, NULL, NULL) != MD2_OK) {
        free(b);
        return NULL;
    }
    return b;
}

static int texture(const char *path)
{
    unsigned char t[18 + 64 * 64 * 3];
    int x, y;
    memset(t, 0, 18);
    t[2] = 2;  /* uncompressed true colour */
    t[12] = 64;
    t[14] = 64;
    t[16] = 24;
    t[17] = 0x20; /* rows from the top */
    for (y = 0; y < 64; y++)
        for (x = 0; x < 64; x++) {
            unsigned char *p = t + 18 + 3 * (64 * y + x);
            p[0] = (unsigned char)((x ^ y) * 4); /* blue, green, red */
            p[1] = (unsigned char)(y * 4);
            p[2] = (unsigned char)(x * 4);
        }
    return write_file(NULL, path, t, sizeof t);
}

static int game(const char *dir, const char *ref, const char *tex)
{
    static const unsigned char text[] = "generated for libmd2's tests\n";
    size_t cm_size, size;
    unsigned char *cm = colormap(&cm_size, 0), *p;
    file f[2];
    int ok;
    if (!cm)
        return 1;
    f[0].name = "models/readme.txt";
    f[0].data = text;
    f[0].size = sizeof text - 1;
    f[1].name = "pics/colormap.pcx";
    f[1].data = cm;
    f[1].size = cm_size;
    p = pak(f, 2, &size);
    ok = p && write_file(dir, "pak0.pak", p, size) && write_file(NULL, ref, cm, cm_size);
    free(p);
    f[0].name = "readme.txt";
    p = ok ? pak(f, 1, &size) : NULL;
    ok = p && write_file(dir, "pak1.pak", p, size) && texture(tex);
    free(p);
    free(cm);
    return ok ? 0 : 1;
}

static int game2(const char *dir, const char *ref)
{
    size_t cm_size, size;
    unsigned char *cm = colormap(&cm_size, 1), *p;
    file f;
    int ok;
    if (!cm)
        return 1;
    f.name = "PICS/COLORMAP.PCX"; /* the name's case does not matter */
    f.data = cm;
    f.size = cm_size;
    p = pak(&f, 1, &size);
    ok = p && write_file(dir, "pak2.pak", p, size) && write_file(NULL, ref, cm, cm_size);
    free(p);
    free(cm);
    return ok ? 0 : 1;
}

static int hostile(const char *dir)
{
    static const unsigned char text[] = "0123456789abcdef";
    file f[2];
    unsigned char b[12 + 32 + 128], *big;
    size_t size = 12 + 32 + 128;
    int ok = 1;
    f[0].name = "pics/colormap.pcx";
    f[0].data = text;
    f[0].size = 16;
    f[1].name = "readme.txt";
    f[1].data = text;
    f[1].size = 16;
    {
        unsigned char *p = pak(f, 2, &size);
        if (!p)
            return 1;
        memcpy(b, p, size);
        free(p);
    }
#define SHAPE(name, edit)                                                                          \
    do {                                                                                           \
        unsigned char c[sizeof b];                                                                 \
        size_t n = sizeof b;                                                                       \
        memcpy(c, b, n);                                                                           \
        edit;                                                                                      \
        ok = ok && write_file(dir, name ".pak", c, n);                                             \
    } while (0)
    /* the directory at 44: entries 0 (data 12..28) and 1 (data 28..44) */
    SHAPE("ok", (void)0);
    SHAPE("short", n = 10);
    SHAPE("magic", c[0] = 'Q');
    SHAPE("dirofs_neg", put32(c + 4, 0xfffffff0u));
    SHAPE("dirlen_odd", put32(c + 8, 100));
    SHAPE("dirlen_zero", put32(c + 8, 0));
    SHAPE("dir_past_end", put32(c + 4, 100));
    SHAPE("dir_over_header", put32(c + 4, 4));
    SHAPE("huge", put32(c + 44 + 60, 0x7ffffff0u));
    SHAPE("entry_past_end", put32(c + 44 + 64 + 60, 1000));
    SHAPE("entry_over_dir", put32(c + 44 + 64 + 60, 40));
    SHAPE("overlap", put32(c + 44 + 64 + 56, 20));
    SHAPE("unterminated", memset(c + 44 + 64, 'a', 56));
    SHAPE("many", put32(c + 8, (1u << 20) * 64 + 64));
    SHAPE("entry_neg", put32(c + 44 + 56, 0x80000000u));
#undef SHAPE
    /* 2 GB declared and a directory near the end of a sparse-looking file:
     * the reader must not allocate or read for what is only declared */
    big = (unsigned char *)calloc(1, 12 + 64);
    if (!big)
        return 1;
    memcpy(big, "PACK", 4);
    put32(big + 4, 12);
    put32(big + 8, 64);
    strcpy((char *)big + 12, "pics/colormap.pcx");
    put32(big + 12 + 56, 0x7fffff00u);
    put32(big + 12 + 60, 0xff);
    ok = ok && write_file(dir, "huge_pos.pak", big, 12 + 64);
    free(big);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "game") == 0)
        return game(argv[2], argv[3], argv[4]);
    if (argc == 4 && strcmp(argv[1], "game2") == 0)
        return game2(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "hostile") == 0)
        return hostile(argv[2]);
    fputs("usage: pak_make game DIR REF.pcx TEX.tga | game2 DIR REF2.pcx | hostile DIR\n", stderr);
    return 2;
}
