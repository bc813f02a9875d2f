/*
 * Writes the seed corpus of tests/fuzz/fuzz_build.c: builder inputs in its
 * byte layout (see read_input there), one per path through md2_build():
 * small steps and raw float bits, interleaved rows, given normals, uv and
 * texels, frame names and animations, flags and profiles. The committed
 * folder tests/fuzz/build_corpus was made with
 *
 *   make_build_seeds tests/fuzz/build_corpus
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct seed {
    unsigned char b[4096];
    size_t n;
} seed;

static void put(seed *s, unsigned v) { s->b[s->n++] = (unsigned char)v; }

static void put16(seed *s, unsigned v)
{
    put(s, v & 0xFFu);
    put(s, (v >> 8) & 0xFFu);
}

/* The float's bits as the target reads them: low half first. */
static void put_float(seed *s, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    put16(s, (unsigned)(u & 0xFFFFu));
    put16(s, (unsigned)(u >> 16));
}

static void put_name(seed *s, const char *name)
{
    size_t i, n = strlen(name);
    put(s, (unsigned)n);
    for (i = 0; i < n; i++)
        put(s, (unsigned)(unsigned char)name[i] - 33u);
}

/* A cube-ish model of nv vertices (<= 8), nf frames, nt triangles and nst
 * texcoords, in the target's layout; mode as read_input() reads it. */
static void model(seed *s, unsigned flags, unsigned profile, unsigned nf, unsigned nv,
                  unsigned nt, unsigned nst, unsigned ns, unsigned mode)
{
    unsigned f, i, k;
    memset(s, 0, sizeof *s);
    put(s, flags);
    put(s, 0);
    put(s, profile);
    put(s, nf);
    put(s, nv);
    put(s, nt);
    put(s, nst);
    put(s, ns);
    put16(s, 64);
    put16(s, 32);
    put(s, mode);
    put(s, 15); /* step: 1 */
    for (f = 0; f < nf; f++)
        for (i = 0; i < nv; i++)
            for (k = 0; k < 3; k++) {
                int v = (int)(((i >> k) & 1u) * 10 + f * (k + 1));
                if (mode & 1)
                    put_float(s, (float)v * 0.37f - 2.0f);
                else
                    put(s, (unsigned)(128 + v));
            }
    if (mode & 4)
        for (f = 0; f < nf; f++)
            for (i = 0; i < nv; i++)
                for (k = 0; k < 3; k++) {
                    if (mode & 1)
                        put_float(s, (float)((i >> k) & 1u) - 0.5f);
                    else
                        put(s, 128 + ((i >> k) & 1u ? 50u : 0u) - 25u);
                }
    for (i = 0; i < nt; i++) {
        put(s, i % nv);
        put(s, i % nst);
        put(s, (i + 1) % nv);
        put(s, (i + 1) % nst);
        put(s, (i + 2) % nv);
        put(s, (i + 2) % nst);
    }
    for (i = 0; i < nst; i++) {
        if (mode & 8) {
            put16(s, i * 7);
            put16(s, 100 - i);
        } else if (mode & 1) {
            put_float(s, (float)i / 8.0f);
            put_float(s, 1.0f - (float)i / 8.0f);
        } else {
            put(s, 64 + i * 8);
            put(s, 128 - i * 8);
        }
    }
    for (i = 0; i < ns; i++)
        put_name(s, i ? "models/x/skin2.pcx" : "models/x/skin.pcx");
    if ((mode & 0x30) == 0x10)
        for (f = 0; f < nf; f++)
            put_name(s, f % 2 ? "run1" : "stand1");
    if ((mode & 0x30) == 0x20) {
        put(s, 1); /* two animations */
        put_name(s, "stand");
        put(s, 0); /* its count: 1 + 0 */
        put(s, 0);
        put_name(s, "run");
        put(s, 0);
    }
    put(s, 2); /* the second allocation fails in the second build */
}

static int save(const char *dir, const char *name, const seed *s)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f || fwrite(s->b, 1, s->n, f) != s->n) {
        fprintf(stderr, "cannot write %s\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    seed s;
    int bad = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: make_build_seeds OUTDIR\n");
        return 2;
    }
    model(&s, 0, 0, 2, 8, 12, 8, 1, 0x00);
    bad |= save(argv[1], "steps-default-names.bin", &s);
    model(&s, 1, 0, 3, 8, 12, 8, 2, 0x20);
    bad |= save(argv[1], "shared-box-anims.bin", &s);
    model(&s, 0, 1, 2, 6, 6, 6, 0, 0x11);
    bad |= save(argv[1], "raw-floats-names-quake2.bin", &s);
    model(&s, 4, 3, 1, 8, 12, 8, 1, 0x06);
    bad |= save(argv[1], "interleaved-normals-ufoai.bin", &s);
    model(&s, 64, 2, 2, 5, 10, 4, 1, 0x0D);
    bad |= save(argv[1], "texels-raw-normals-drop.bin", &s);
    model(&s, 0, 0, 1, 3, 0, 0, 0, 0x00);
    bad |= save(argv[1], "no-triangles.bin", &s);
    model(&s, 0, 4, 1, 3, 1, 3, 0, 0x00);
    bad |= save(argv[1], "bad-profile.bin", &s);
    return bad;
}
