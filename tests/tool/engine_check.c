/*
 * engine_check: the MD2 loaders of Quake II engines, written down from
 * their sources as a test's own rules (not libmd2's table), to check that
 * what md2 import writes for a profile loads there and that md2 validate
 * --profile / md2_profile_check() answer as the loaders would.
 * Test-only. The rules, each from the function and file named:
 *
 *   quake2   id Software's Quake II 3.21 (github.com/id-Software/Quake-2):
 *            Mod_LoadAliasModel (ref_gl/gl_model.c, ref_soft/r_model.c):
 *            version 8; skinheight <= MAX_LBM_HEIGHT 480; 1 <= num_xyz <=
 *            MAX_VERTS 2048; num_st >= 1; num_tris >= 1; num_frames >= 1;
 *            num_skins <= MAX_MD2SKINS 32 (model_t's array); Mod_LoadModel's
 *            Hunk_Begin(0x200000) holds Hunk_Alloc(ofs_end), rounded to 32
 *            (linux/q_shlinux.c); ref_gl draws GL commands only (num_glcmds
 *            >= 1); and qcommon/qfiles.h's MAX_TRIANGLES 4096, MAX_FRAMES
 *            512 (the limits of id's tools, kept by the profile).
 *   yquake2  Mod_LoadMD2 (src/client/refresh/files/models.c): version 8;
 *            0 <= ofs_end <= the file's length; skinheight <= 480; 1 <=
 *            num_xyz <= 2048; num_st, num_tris, num_frames >= 1; more than
 *            32 skins cut to 32 (the profile refuses them); its GL
 *            renderers draw GL commands (num_glcmds >= 1).
 *   ufoai    R_ModLoadAliasMD2Mesh (src/client/renderer/r_model_md2.cpp):
 *            each count below its MD2_MAX_ (src/common/qfiles.h): num_xyz
 *            < 2048, num_tris < 4096, num_frames < 1024, num_skins < 32;
 *            num_tris, num_frames, num_skins >= 1; skin size not 0; the
 *            corners welded by (vertex, s, t) fewer than MAX_ALIAS_VERTS
 *            8192.
 *   q2pro    MOD_LoadMD2 and MOD_ValidateMD2 (src/refresh/models.c):
 *            num_tris < 1, num_st < 3, num_xyz < 3 or num_frames < 1: an
 *            empty model (nothing drawn: refused here); num_tris <=
 *            TESS_MAX_INDICES / 3 = 6144; num_xyz <= MD2_MAX_VERTS 2048;
 *            num_frames <= MD2_MAX_FRAMES 1024; num_skins <= 32; framesize
 *            from 40 + 4 * (num_xyz - 1) to 40 + 4 * 2047; every section
 *            inside the file; skin 1 to MAX_TEXTURE_SIZE 8192 a side; each
 *            skin name NUL-terminated in its 64 bytes; triangles with an
 *            index out of range skipped, at least one left; the corners
 *            welded by (vertex, s, t) at most TESS_MAX_VERTICES 6144.
 *
 *   engine_check PROFILE FILE...         exit 0 when PROFILE loads every FILE
 *   engine_check refused PROFILE FILE... exit 0 when PROFILE refuses every FILE
 *   engine_check agree FILE...           exit 0 when md2_profile_check() of
 *                                        each FILE (loaded leniently) refuses
 *                                        it for exactly the profiles above
 *   engine_check make DIR                writes over-limit models (below)
 *
 * make writes, with md2_build() and the format's limits alone: v2117.md2
 * (2117 vertices), f585.md2 (585 frames), t6145.md2 (6145 triangles),
 * w6600.md2 (6600 welded corners), h481.md2 (a 481-high skin), big.md2 (a
 * file over 2 MiB), fits.md2 (within every engine's limits).
 *
 * Each refusal is printed ("FILE: PROFILE: why"). Exit 1 when a check
 * fails, 2 for a bad command line.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>
#include <md2/build.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"format", "quake2", "yquake2", "ufoai", "q2pro"};
#define NUM_PROFILES 5

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        b = (unsigned char *)malloc((size_t)n + 1);
        if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
            free(b);
            b = NULL;
        }
        *size = (size_t)n;
    }
    fclose(f);
    return b;
}

static int32_t le32(const unsigned char *b)
{
    return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                     (uint32_t)b[3] << 24);
}

static uint16_t le16(const unsigned char *b)
{
    return (uint16_t)(b[0] | b[1] << 8);
}

/* The header's 17 ints, by their names. */
enum { IDENT, VERSION, SKINW, SKINH, FRAMESIZE, NSKINS, NXYZ, NST, NTRIS, NGLCMDS, NFRAMES,
       OSKINS, OST, OTRIS, OFRAMES, OGLCMDS, OEND };

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The distinct (vertex, s, t) corners of the triangles whose indices are
 * in range (both UFO:AI and Q2PRO weld so), or -1 when out of memory. */
static long welded(const unsigned char *b, size_t size, const int32_t *h, long *good_tris)
{
    long i, n = 0, distinct = 0;
    uint64_t *keys;
    int k;
    *good_tris = 0;
    if (h[NTRIS] <= 0 || (uint64_t)h[OTRIS] + 12 * (uint64_t)h[NTRIS] > size ||
        (uint64_t)h[OST] + 4 * (uint64_t)(h[NST] > 0 ? h[NST] : 0) > size)
        return 0;
    keys = (uint64_t *)malloc(3 * (size_t)h[NTRIS] * sizeof *keys);
    if (!keys)
        return -1;
    for (i = 0; i < h[NTRIS]; i++) {
        const unsigned char *t = b + h[OTRIS] + 12 * i;
        for (k = 0; k < 3; k++)
            if (le16(t + 2 * k) >= h[NXYZ] || le16(t + 6 + 2 * k) >= h[NST])
                break;
        if (k < 3)
            continue;
        (*good_tris)++;
        for (k = 0; k < 3; k++) {
            const unsigned char *st = b + h[OST] + 4 * le16(t + 6 + 2 * k);
            keys[n++] = (uint64_t)le16(t + 2 * k) << 32 | (uint64_t)le16(st) << 16 | le16(st + 2);
        }
    }
    qsort(keys, (size_t)n, sizeof *keys, cmp_u64);
    for (i = 0; i < n; i++)
        distinct += i == 0 || keys[i] != keys[i - 1];
    free(keys);
    return distinct;
}

#define REFUSE(cond, ...)                                                                          \
    do {                                                                                           \
        if (cond) {                                                                                \
            if (print) {                                                                           \
                printf("%s: %s: ", path, names[p]);                                                \
                printf(__VA_ARGS__);                                                               \
                putchar('\n');                                                                     \
            }                                                                                      \
            refused++;                                                                             \
        }                                                                                          \
    } while (0)

/* How many rules of profile p the file breaks (printed when print). */
static int loader(const char *path, const unsigned char *b, size_t size, int p, int print)
{
    int32_t h[17];
    int refused = 0, i;
    long weld = 0, good = 0;
    if (size < 68) {
        REFUSE(1, "shorter than the header");
        return refused;
    }
    for (i = 0; i < 17; i++)
        h[i] = le32(b + 4 * i);
    REFUSE(h[VERSION] != 8, "version %d", (int)h[VERSION]);
    if (p == 3 || p == 4) {
        weld = welded(b, size, h, &good);
        if (weld < 0) {
            REFUSE(1, "out of memory");
            return refused;
        }
    }
    switch (p) {
    case 1: /* quake2 */
        REFUSE(((h[OEND] + 31) & ~31) > 0x200000, "ofs_end %d: Hunk_Alloc overflows the 0x200000 hunk", (int)h[OEND]);
        REFUSE(h[SKINH] > 480, "skin taller than MAX_LBM_HEIGHT 480");
        REFUSE(h[NXYZ] <= 0 || h[NXYZ] > 2048, "%d vertices (1 to MAX_VERTS 2048)", (int)h[NXYZ]);
        REFUSE(h[NST] <= 0, "no st vertices");
        REFUSE(h[NTRIS] <= 0 || h[NTRIS] > 4096, "%d triangles (1 to MAX_TRIANGLES 4096)", (int)h[NTRIS]);
        REFUSE(h[NFRAMES] <= 0 || h[NFRAMES] > 512, "%d frames (1 to MAX_FRAMES 512)", (int)h[NFRAMES]);
        REFUSE(h[NSKINS] > 32, "%d skins (MAX_MD2SKINS 32)", (int)h[NSKINS]);
        REFUSE(h[NGLCMDS] <= 0, "no GL commands (ref_gl draws them only)");
        break;
    case 2: /* yquake2 */
        REFUSE(h[OEND] < 0 || (size_t)h[OEND] > size, "ofs_end %d past the file's %lu bytes", (int)h[OEND], (unsigned long)size);
        REFUSE(h[SKINH] > 480, "skin taller than MAX_LBM_HEIGHT 480");
        REFUSE(h[NXYZ] <= 0 || h[NXYZ] > 2048, "%d vertices (1 to MAX_VERTS 2048)", (int)h[NXYZ]);
        REFUSE(h[NST] <= 0, "no st vertices");
        REFUSE(h[NTRIS] <= 0, "no triangles");
        REFUSE(h[NFRAMES] <= 0, "no frames");
        REFUSE(h[NSKINS] > 32, "%d skins, cut to MAX_MD2SKINS 32", (int)h[NSKINS]);
        REFUSE(h[NGLCMDS] <= 0, "no GL commands (its GL renderers draw them)");
        break;
    case 3: /* ufoai */
        REFUSE(h[NXYZ] <= 0 || h[NXYZ] >= 2048, "%d vertices (below MD2_MAX_VERTS 2048)", (int)h[NXYZ]);
        REFUSE(h[NTRIS] <= 0 || h[NTRIS] >= 4096, "%d triangles (1 to below MD2_MAX_TRIANGLES 4096)", (int)h[NTRIS]);
        REFUSE(h[NFRAMES] <= 0 || h[NFRAMES] >= 1024, "%d frames (1 to below MD2_MAX_FRAMES 1024)", (int)h[NFRAMES]);
        REFUSE(h[NSKINS] <= 0 || h[NSKINS] >= 32, "%d skins (1 to below MD2_MAX_SKINS 32)", (int)h[NSKINS]);
        REFUSE(h[SKINW] <= 0 || h[SKINH] <= 0, "a skin size of 0");
        REFUSE(weld >= 8192, "%ld welded vertices (below MAX_ALIAS_VERTS 8192)", weld);
        break;
    case 4: /* q2pro */
        if (h[NTRIS] < 1 || h[NST] < 3 || h[NXYZ] < 3 || h[NFRAMES] < 1) {
            REFUSE(1, "an empty model (fewer than 1 triangle, 3 st, 3 vertices or 1 frame)");
            break;
        }
        REFUSE(h[NTRIS] > 6144, "%d triangles (TESS_MAX_INDICES / 3 = 6144)", (int)h[NTRIS]);
        REFUSE(h[NXYZ] > 2048, "%d vertices (MD2_MAX_VERTS 2048)", (int)h[NXYZ]);
        REFUSE(h[NFRAMES] > 1024, "%d frames (MD2_MAX_FRAMES 1024)", (int)h[NFRAMES]);
        REFUSE(h[NSKINS] > 32, "%d skins (MD2_MAX_SKINS 32)", (int)h[NSKINS]);
        REFUSE(h[FRAMESIZE] < 40 + 4 * (h[NXYZ] - 1) || h[FRAMESIZE] > 40 + 4 * 2047, "frame size %d", (int)h[FRAMESIZE]);
        REFUSE((uint64_t)h[OTRIS] + 12 * (uint64_t)h[NTRIS] > size, "tris past the end");
        REFUSE((uint64_t)h[OST] + 4 * (uint64_t)h[NST] > size, "st past the end");
        REFUSE((uint64_t)h[OFRAMES] + (uint64_t)h[NFRAMES] * (uint64_t)h[FRAMESIZE] > size, "frames past the end");
        REFUSE((uint64_t)h[OSKINS] + 64 * (uint64_t)(h[NSKINS] > 0 ? h[NSKINS] : 0) > size, "skins past the end");
        REFUSE(h[SKINW] < 1 || h[SKINW] > 8192 || h[SKINH] < 1 || h[SKINH] > 8192, "skin %dx%d (1 to MAX_TEXTURE_SIZE 8192)", (int)h[SKINW], (int)h[SKINH]);
        for (i = 0; i < h[NSKINS] && (uint64_t)h[OSKINS] + 64 * (uint64_t)(i + 1) <= size; i++)
            REFUSE(!memchr(b + h[OSKINS] + 64 * i, 0, 64), "skin %d has no NUL", i);
        REFUSE(good < 1, "too few valid indices");
        REFUSE(weld > 6144, "%ld welded vertices (TESS_MAX_VERTICES 6144)", weld);
        break;
    default:
        break;
    }
    return refused;
}

static int profile_of(const char *s)
{
    int p;
    for (p = 1; p < NUM_PROFILES; p++)
        if (strcmp(s, names[p]) == 0)
            return p;
    return -1;
}

static int run_loader(int p, int want_refused, char **files, int n)
{
    int i, bad = 0;
    for (i = 0; i < n; i++) {
        size_t size = 0;
        unsigned char *b = read_all(files[i], &size);
        int r;
        if (!b) {
            printf("%s: cannot read\n", files[i]);
            return 1;
        }
        r = loader(files[i], b, size, p, 1);
        if ((r > 0) != want_refused) {
            printf("%s: %s %s it\n", files[i], names[p], r ? "refuses" : "loads");
            bad = 1;
        }
        free(b);
    }
    return bad;
}

static void count_limit(void *user, const md2_diagnostic *d)
{
    (void)d;
    (*(int *)user)++;
}

static int agree(char **files, int n)
{
    int i, p, bad = 0;
    for (i = 0; i < n; i++) {
        size_t size = 0;
        unsigned char *b = read_all(files[i], &size);
        md2_model *m = NULL;
        if (!b || md2_parse(b, size, NULL, &m) != MD2_OK) {
            printf("%s: cannot load\n", files[i]);
            free(b);
            return 1;
        }
        for (p = 1; p < NUM_PROFILES; p++) {
            int lib = 0, ours = loader(files[i], b, size, p, 0);
            if (md2_profile_check(m, (md2_profile)p, count_limit, &lib, NULL) != MD2_OK) {
                printf("%s: md2_profile_check failed\n", files[i]);
                bad = 1;
            } else if ((lib > 0) != (ours > 0)) {
                printf("%s: %s: md2_profile_check finds %d limits, the loader's rules %d\n",
                       files[i], names[p], lib, ours);
                loader(files[i], b, size, p, 1);
                bad = 1;
            }
        }
        md2_free(m);
        free(b);
    }
    if (!bad)
        printf("engine_check: %d files, md2_profile_check and the loaders agree\n", n);
    return bad;
}

static void put32(unsigned char *b, uint32_t v)
{
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
    b[2] = (unsigned char)(v >> 16);
    b[3] = (unsigned char)(v >> 24);
}

/* The model's file with its one frame written repeat times (header
 * patched): a large file made without building every frame. */
static unsigned char *repeat_frame(const unsigned char *b, size_t size, size_t repeat, size_t *out)
{
    uint32_t fs = (uint32_t)le32(b + 16), ofr = (uint32_t)le32(b + 56), ogl = (uint32_t)le32(b + 60);
    size_t tail = size - ogl, n = ofr + repeat * fs + tail, i;
    unsigned char *r = (unsigned char *)malloc(n);
    if (!r)
        return NULL;
    memcpy(r, b, ofr);
    for (i = 0; i < repeat; i++)
        memcpy(r + ofr + i * fs, b + ofr, fs);
    memcpy(r + ofr + repeat * fs, b + ogl, tail);
    put32(r + 40, (uint32_t)repeat);
    put32(r + 60, (uint32_t)(ofr + repeat * fs));
    put32(r + 64, (uint32_t)n);
    *out = n;
    return r;
}

/* A model of v vertices, f frames (with repeat > 1: 1 frame built, its
 * bytes repeated), t triangles over c texcoords, with the format's limits
 * alone, written to dir/name. */
static int make_one(const char *dir, const char *name, size_t v, size_t f, size_t t, size_t c,
                    uint32_t skin_h, size_t repeat)
{
    float *pos = (float *)malloc(v * f * 3 * sizeof *pos);
    uint32_t *tris = (uint32_t *)malloc(t * 6 * sizeof *tris);
    int16_t *st = (int16_t *)malloc(c * 2 * sizeof *st);
    static const char *const skin[1] = {"models/x/skin.pcx"};
    md2_build_input in;
    md2_build_options o;
    md2_model *m = NULL;
    size_t i, size;
    unsigned char *bytes = NULL;
    char path[4096];
    FILE *out;
    int ok = 0;
    if (!pos || !tris || !st)
        goto done;
    for (i = 0; i < v * f; i++) {
        pos[3 * i] = (float)(i % v % 64);
        pos[3 * i + 1] = (float)(i % v / 64);
        pos[3 * i + 2] = (float)((i * 7) % 13 + i / v);
    }
    for (i = 0; i < c; i++) {
        st[2 * i] = (int16_t)(i % 256);
        st[2 * i + 1] = (int16_t)(i / 256);
    }
    for (i = 0; i < t; i++) {
        int k;
        for (k = 0; k < 3; k++) {
            tris[6 * i + 2 * (size_t)k] = (uint32_t)((i + (size_t)k) % v);
            tris[6 * i + 2 * (size_t)k + 1] = (uint32_t)((3 * i + (size_t)k) % c);
        }
    }
    memset(&in, 0, sizeof in);
    memset(&o, 0, sizeof o);
    in.num_frames = f;
    in.num_vertices = v;
    in.positions = pos;
    in.num_triangles = t;
    in.triangles = tris;
    in.num_texcoords = c;
    in.texels = st;
    in.skin_width = 256;
    in.skin_height = skin_h;
    in.num_skins = 1;
    in.skin_names = skin;
    if (md2_build(&in, &o, &m) != MD2_OK)
        goto done;
    size = md2_write_size(m);
    bytes = (unsigned char *)malloc(size);
    if (!bytes || md2_write(m, bytes, size, NULL, NULL) != MD2_OK)
        goto done;
    if (repeat > 1) {
        unsigned char *r = repeat_frame(bytes, size, repeat, &size);
        free(bytes);
        bytes = r;
        if (!bytes)
            goto done;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    out = fopen(path, "wb");
    ok = out && fwrite(bytes, 1, size, out) == size;
    if (out && fclose(out) != 0)
        ok = 0;
done:
    if (!ok)
        fprintf(stderr, "engine_check: cannot make %s\n", name);
    md2_free(m);
    free(bytes);
    free(pos);
    free(tris);
    free(st);
    return ok;
}

int main(int argc, char **argv)
{
    int p;
    if (argc == 3 && strcmp(argv[1], "make") == 0) {
        const char *d = argv[2];
        return make_one(d, "v2117.md2", 2117, 1, 40, 40, 256, 1) &&
                       make_one(d, "f585.md2", 10, 585, 8, 20, 256, 1) &&
                       make_one(d, "t6145.md2", 100, 1, 6145, 20, 256, 1) &&
                       make_one(d, "w6600.md2", 2000, 1, 2200, 7000, 256, 1) &&
                       make_one(d, "h481.md2", 10, 1, 8, 20, 481, 1) &&
                       make_one(d, "big.md2", 2000, 1, 20, 20, 256, 300) &&
                       make_one(d, "fits.md2", 100, 4, 50, 60, 256, 1)
                   ? 0
                   : 1;
    }
    if (argc >= 3 && strcmp(argv[1], "agree") == 0)
        return agree(argv + 2, argc - 2);
    if (argc >= 4 && strcmp(argv[1], "refused") == 0 && (p = profile_of(argv[2])) > 0)
        return run_loader(p, 1, argv + 3, argc - 3);
    if (argc >= 3 && (p = profile_of(argv[1])) > 0)
        return run_loader(p, 0, argv + 2, argc - 2);
    fputs("usage: engine_check PROFILE FILE... | engine_check refused PROFILE FILE...\n"
          "       engine_check agree FILE... | engine_check make DIR\n",
          stderr);
    return 2;
}
