/*
 * bounds_make: the hostile inputs of tests/tool/bounds.cases (issue #22),
 * made when the tests run instead of committed:
 *
 *   bounds_make names DIR        an empty file DIR/nB.md2 for every byte B
 *                                but NUL and '/', and DIR/cpX.md2 for code
 *                                points a terminal acts on (U+0085, U+009B,
 *                                U+009D, U+200E, U+2028, U+202E, U+2066)
 *   bounds_make png W H FILE     a valid W x H PNG of one bit a pixel, all
 *                                black: a few kilobytes that decode to
 *                                W * H * 4 bytes (written a row at a time)
 *   bounds_make fill N FILE      a model of 3 vertices and 2N copies of one
 *                                large triangle (N each way round, so N face
 *                                any camera): render's cost is N times the
 *                                pixels it covers
 *   bounds_make weld T F FILE    a model of 3 vertices, T triangles over
 *                                them with 3 texcoords of their own each,
 *                                and F keyframes: it welds to 3T vertices,
 *                                so a glTF export holds 3T x F morph offsets
 *   bounds_make badtris N FILE   a model of one triangle and N more whose
 *                                vertex indices are out of range: N warnings
 *                                (lenient loading drops them)
 *   bounds_make gltf SHAPE N FILE  md2 import's hostile glTF (issue #32), one
 *                                triangle (data: URIs) and: wide, a node of
 *                                N - 1 children; deep, N nodes nested; keys,
 *                                N empty nodes beside it and two keys 99,999.9
 *                                s apart (999,999 keyframes at 10 fps); idx, N
 *                                primitives sharing an accessor of 16,777,215
 *                                indices without a buffer view
 *   bounds_make glb N PNG FILE   a .glb of N images, each the PNG file PNG
 *                                (one buffer view), on N materials and
 *                                primitives: N textures side by side
 *
 * The models are written byte by byte from the format (../shared/FORMAT.md),
 * and but for badtris pass md2 validate --strict. Exit status 0, or 1 with a message.
 *
 * SPDX-License-Identifier: MIT
 */
#include <png.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, const char *path)
{
    fprintf(stderr, "bounds_make: %s %s\n", what, path);
    return 1;
}

static void put32(unsigned char *p, unsigned long v)
{
    p[0] = (unsigned char)(v & 0xFF);
    p[1] = (unsigned char)((v >> 8) & 0xFF);
    p[2] = (unsigned char)((v >> 16) & 0xFF);
    p[3] = (unsigned char)((v >> 24) & 0xFF);
}

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)(v & 0xFF);
    p[1] = (unsigned char)((v >> 8) & 0xFF);
}

static int make_names(const char *dir)
{
    static const char *const points[] = {"\xC2\x85", "\xC2\x9B", "\xC2\x9D", "\xE2\x80\x8E",
                                         "\xE2\x80\xA8", "\xE2\x80\xAE", "\xE2\x81\xA6"};
    char path[4096];
    int b;
    size_t i;
    FILE *f;
    for (b = 1; b < 256; b++) {
        if (b == '/')
            continue;
        snprintf(path, sizeof path, "%s/n%c.md2", dir, b);
        if (!(f = fopen(path, "wb")) || fclose(f) != 0)
            return fail("cannot write", path);
    }
    for (i = 0; i < sizeof points / sizeof points[0]; i++) {
        snprintf(path, sizeof path, "%s/cp%s.md2", dir, points[i]);
        if (!(f = fopen(path, "wb")) || fclose(f) != 0)
            return fail("cannot write", path);
    }
    return 0;
}

static int make_png(long w, long h, const char *path)
{
    FILE *f;
    png_structp png;
    png_infop info;
    unsigned char *row;
    long y;
    if (w <= 0 || h <= 0 || w > 1000000 || h > 1000000)
        return fail("bad size for", path);
    row = (unsigned char *)calloc((size_t)(w + 7) / 8, 1);
    f = fopen(path, "wb");
    if (!row || !f) {
        free(row);
        if (f)
            fclose(f);
        return fail("cannot write", path);
    }
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        free(row);
        return fail("libpng failed writing", path);
    }
    png_init_io(png, f);
    png_set_compression_level(png, 9);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 1, PNG_COLOR_TYPE_GRAY,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (y = 0; y < h; y++)
        png_write_row(png, row);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    return fclose(f) == 0 ? 0 : fail("cannot write", path);
}

/* A model of 3 vertices (a right triangle of 200 units in the plane x = 0)
 * with the given texcoords (num_st), triangles (corners 0 1 2, their st
 * indices from st_of) and frames. */
static int write_model(const char *path, unsigned long num_st, unsigned long num_tris,
                       unsigned long num_frames, int mode)
{
    const unsigned long nv = 3, framesize = 40 + 4 * nv;
    unsigned long ofs_st = 68, ofs_tris = ofs_st + 4 * num_st;
    unsigned long ofs_frames = ofs_tris + 12 * num_tris;
    unsigned long ofs_end = ofs_frames + framesize * num_frames, i;
    unsigned char *d = (unsigned char *)calloc(ofs_end, 1);
    static const unsigned char corner[3][3] = {{0, 0, 0}, {0, 200, 0}, {0, 0, 200}};
    FILE *f;
    int ok;
    if (!d)
        return fail("out of memory for", path);
    memcpy(d, "IDP2", 4);
    put32(d + 4, 8);
    put32(d + 8, 256);   /* skinwidth */
    put32(d + 12, 256);  /* skinheight */
    put32(d + 16, framesize);
    put32(d + 20, 0);    /* no skin */
    put32(d + 24, nv);
    put32(d + 28, num_st);
    put32(d + 32, num_tris);
    put32(d + 36, 0);    /* no GL commands */
    put32(d + 40, num_frames);
    put32(d + 44, ofs_st); /* ofs_skins: empty */
    put32(d + 48, ofs_st);
    put32(d + 52, ofs_tris);
    put32(d + 56, ofs_frames);
    put32(d + 60, ofs_end); /* ofs_glcmds: empty */
    put32(d + 64, ofs_end);
    for (i = 0; i < num_st; i++) {
        put16(d + ofs_st + 4 * i, (unsigned)(i % 256));
        put16(d + ofs_st + 4 * i + 2, (unsigned)(i / 256 % 256));
    }
    for (i = 0; i < num_tris; i++) {
        unsigned char *t = d + ofs_tris + 12 * i;
        int k;
        /* fill: half the copies run the other way round */
        int flip = mode == 0 && i % 2 == 1;
        for (k = 0; k < 3; k++) {
            int c = flip && k > 0 ? 3 - k : k;
            put16(t + 2 * k, (unsigned)(mode == 2 && i > 0 ? c + 3 : c));
            put16(t + 6 + 2 * k, (unsigned)(mode != 1 ? (unsigned long)c : 3 * i + (unsigned long)k));
        }
    }
    for (i = 0; i < num_frames; i++) {
        unsigned char *fr = d + ofs_frames + framesize * i;
        float one = 1.0f;
        unsigned long k;
        int a;
        for (a = 0; a < 3; a++)
            memcpy(fr + 4 * a, &one, 4); /* little-endian hosts: the test hosts */
        snprintf((char *)fr + 24, 16, "f%u", (unsigned)(unsigned short)i);
        for (k = 0; k < nv; k++) {
            for (a = 0; a < 3; a++)
                fr[40 + 4 * k + (unsigned long)a] =
                    (unsigned char)(corner[k][a] > 0 ? corner[k][a] - i % 50 : 0);
            /* normal indices 0, 1, 2: not one for all (MD2_WARN_SAME_NORMALS) */
            fr[40 + 4 * k + 3] = (unsigned char)k;
        }
    }
    f = fopen(path, "wb");
    ok = f && fwrite(d, 1, ofs_end, f) == ofs_end;
    if (f && fclose(f) != 0)
        ok = 0;
    free(d);
    return ok ? 0 : fail("cannot write", path);
}

/* ---- md2 import's hostile glTF ------------------------------------------ */

/* a triangle's positions (0 0 0, 1 0 0, 0 1 0), then the key times 0 and
 * 99999.9 and two translations (0 0 0, 1 0 0): 68 bytes, base64 */
#define GLTF_TRIANGLE "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"
#define GLTF_KEYS GLTF_TRIANGLE "AAAAAPNPw0cAAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAA="

/* The JSON up to the first accessor's end: views holds more buffer views. */
static void gltf_start(FILE *f, const char *data, int bytes, const char *views)
{
    fprintf(f, "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%d,\"uri\":"
               "\"data:application/octet-stream;base64,%s\"}],\"bufferViews\":[{\"buffer\":0,"
               "\"byteLength\":36}%s],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,"
               "\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]}",
            bytes, data, views);
}

#define GLTF_MESH "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]"

static int make_gltf(const char *shape, long n, const char *path)
{
    FILE *f = fopen(path, "wb");
    long i;
    if (!f)
        return fail("cannot write", path);
    if (strcmp(shape, "wide") == 0) { /* node 0's children: 1 (the mesh), 2 ... n - 1 */
        gltf_start(f, GLTF_TRIANGLE, 36, "");
        fputs("]," GLTF_MESH ",\"nodes\":[{\"children\":[", f);
        for (i = 1; i < n; i++)
            fprintf(f, "%s%ld", i > 1 ? "," : "", i);
        fputs("]},{\"mesh\":0}", f);
        for (i = 2; i < n; i++)
            fputs(",{}", f);
        fputs("],\"scenes\":[{\"nodes\":[0]}]}", f);
    } else if (strcmp(shape, "deep") == 0) { /* node i's child i + 1; the last has the mesh */
        gltf_start(f, GLTF_TRIANGLE, 36, "");
        fputs("]," GLTF_MESH ",\"nodes\":[", f);
        for (i = 0; i + 1 < n; i++)
            fprintf(f, "{\"children\":[%ld]},", i + 1);
        fputs("{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]}", f);
    } else if (strcmp(shape, "keys") == 0) { /* node 0 moved by two keys, n empty roots */
        gltf_start(f, GLTF_KEYS, 68, ",{\"buffer\":0,\"byteOffset\":36,\"byteLength\":8},"
                                     "{\"buffer\":0,\"byteOffset\":44,\"byteLength\":24}");
        fputs(",{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],"
              "\"max\":[99999.9]},{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
              GLTF_MESH ",\"nodes\":[{\"mesh\":0}", f);
        for (i = 0; i < n; i++)
            fputs(",{}", f);
        fputs("],\"scenes\":[{\"nodes\":[0", f);
        for (i = 1; i <= n; i++)
            fprintf(f, ",%ld", i);
        fputs("]}],\"animations\":[{\"samplers\":[{\"input\":1,\"output\":2}],\"channels\":[{\"sampler\":0,"
              "\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}", f);
    } else if (strcmp(shape, "idx") == 0) { /* n primitives, one accessor of indices */
        gltf_start(f, GLTF_TRIANGLE, 36, "");
        fputs(",{\"componentType\":5125,\"count\":16777215,\"type\":\"SCALAR\"}],\"meshes\":[{"
              "\"primitives\":[", f);
        for (i = 0; i < n; i++)
            fprintf(f, "%s{\"attributes\":{\"POSITION\":0},\"indices\":1}", i ? "," : "");
        fputs("]}],\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]}", f);
    } else {
        fclose(f);
        return fail("no such shape:", shape);
    }
    return fclose(f) == 0 ? 0 : fail("cannot write", path);
}

/* A .glb of n images that are the PNG file at png, each on a material of
 * its own, each material on a primitive (one triangle, texture coordinates
 * 0 0, 1 0, 0 1). */
static int make_glb(long n, const char *png, const char *path)
{
    static const int tri[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1};
    FILE *in = fopen(png, "rb"), *f;
    unsigned char *bin = NULL, *json = NULL, head[12];
    long psize, bsize, jsize = 0, jcap, i;
    int ok = 1;
    if (!in || fseek(in, 0, SEEK_END) != 0 || (psize = ftell(in)) <= 0 || fseek(in, 0, SEEK_SET) != 0) {
        if (in)
            fclose(in);
        return fail("cannot read", png);
    }
    bsize = (psize + 3) / 4 * 4 + 60;
    jcap = 400 + n * 200;
    bin = (unsigned char *)calloc((size_t)bsize, 1);
    json = (unsigned char *)malloc((size_t)jcap);
    if (!bin || !json || fread(bin, 1, (size_t)psize, in) != (size_t)psize) {
        fclose(in);
        free(bin);
        free(json);
        return fail("cannot read", png);
    }
    fclose(in);
    for (i = 0; i < 15; i++) /* little-endian floats: 1.0f is 0x3F800000 */
        put32(bin + (psize + 3) / 4 * 4 + 4 * i, tri[i] ? 0x3F800000ul : 0ul);
#define J(...) (jsize += snprintf((char *)json + jsize, (size_t)(jcap - jsize), __VA_ARGS__))
    J("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%ld}],\"bufferViews\":[{\"buffer\":0,"
      "\"byteLength\":%ld},{\"buffer\":0,\"byteOffset\":%ld,\"byteLength\":36},{\"buffer\":0,"
      "\"byteOffset\":%ld,\"byteLength\":24}],\"accessors\":[{\"bufferView\":1,\"componentType\":5126,"
      "\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},{\"bufferView\":2,"
      "\"componentType\":5126,\"count\":3,\"type\":\"VEC2\"}],\"images\":[",
      bsize, psize, (psize + 3) / 4 * 4, (psize + 3) / 4 * 4 + 36);
    for (i = 0; i < n; i++)
        J("%s{\"bufferView\":0,\"mimeType\":\"image/png\"}", i ? "," : "");
    J("],\"textures\":[");
    for (i = 0; i < n; i++)
        J("%s{\"source\":%ld}", i ? "," : "", i);
    J("],\"materials\":[");
    for (i = 0; i < n; i++)
        J("%s{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":%ld}}}", i ? "," : "", i);
    J("],\"meshes\":[{\"primitives\":[");
    for (i = 0; i < n; i++)
        J("%s{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":1},\"material\":%ld}", i ? "," : "", i);
    J("]}],\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]}");
#undef J
    while (jsize % 4)
        json[jsize++] = ' ';
    f = fopen(path, "wb");
    memcpy(head, "glTF", 4);
    put32(head + 4, 2);
    put32(head + 8, (unsigned long)(12 + 8 + jsize + 8 + bsize));
    ok = f && fwrite(head, 1, 12, f) == 12;
    put32(head, (unsigned long)jsize);
    memcpy(head + 4, "JSON", 4);
    ok = ok && fwrite(head, 1, 8, f) == 8 && fwrite(json, 1, (size_t)jsize, f) == (size_t)jsize;
    put32(head, (unsigned long)bsize);
    memcpy(head + 4, "BIN\0", 4);
    ok = ok && fwrite(head, 1, 8, f) == 8 && fwrite(bin, 1, (size_t)bsize, f) == (size_t)bsize;
    if (f && fclose(f) != 0)
        ok = 0;
    free(bin);
    free(json);
    return ok ? 0 : fail("cannot write", path);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "names") == 0)
        return make_names(argv[2]);
    if (argc == 5 && strcmp(argv[1], "png") == 0)
        return make_png(strtol(argv[2], NULL, 10), strtol(argv[3], NULL, 10), argv[4]);
    if (argc == 4 && strcmp(argv[1], "fill") == 0) {
        unsigned long n = strtoul(argv[2], NULL, 10);
        return write_model(argv[3], 3, 2 * n, 1, 0);
    }
    if (argc == 4 && strcmp(argv[1], "badtris") == 0) {
        unsigned long n = strtoul(argv[2], NULL, 10);
        return write_model(argv[3], 3, n + 1, 1, 2);
    }
    if (argc == 5 && strcmp(argv[1], "weld") == 0) {
        unsigned long t = strtoul(argv[2], NULL, 10), frames = strtoul(argv[3], NULL, 10);
        return write_model(argv[4], 3 * t, t, frames, 1);
    }
    if (argc == 5 && strcmp(argv[1], "gltf") == 0)
        return make_gltf(argv[2], strtol(argv[3], NULL, 10), argv[4]);
    if (argc == 5 && strcmp(argv[1], "glb") == 0)
        return make_glb(strtol(argv[2], NULL, 10), argv[3], argv[4]);
    fprintf(stderr, "usage: bounds_make names DIR | png W H FILE | fill N FILE | "
                    "weld T F FILE | badtris N FILE | gltf wide|deep|keys|idx N FILE | glb N PNG FILE\n");
    return 2;
}
