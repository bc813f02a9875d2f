/*
 * import_check: checks the models md2 import writes (import.cases), with
 * libmd2 alone. Test-only.
 *
 *   import_check same A.md2 B.md2 [--first N] [--tol T | --tol-size F] [--counts]
 *                     [--anims]
 *       B is A again: the same number of triangles and, corner by corner,
 *       the same texcoords (s, t) and positions: frame f of B against frame
 *       N + f of A (N: 0 by default; B may have fewer frames), each
 *       coordinate within T (default 0; --tol-size F: F times A's size,
 *       the largest side of its box over all frames) plus half a step of
 *       B's grid on that axis (its frame's scale / 2) plus 1e-6 of A's
 *       size (float rounding). --counts:
 *       also as many vertices and texcoords; --anims: the same animations
 *       found in the frame names (names and ranges).
 *   import_check model X.md2 CHECK...
 *       vertices=N texcoords=N triangles=N frames=N skins=N glcmds=N
 *       skin_width=N skin_height=N skin0=NAME frame0=NAME frameN=NAME
 *       (frame N's name), glcmds>0, height=H (frame 0's Z extent, within
 *       1e-3), size=X,Y,Z (frame 0's box, within 1e-3), triN=A,B,C
 *       (triangle N's vertex indices, in its order), normals=one (one
 *       normal index everywhere), normals=varied (more than 1 in frame 0),
 *       normalN=X,Y,Z (frame 0's vertex N has the normal of the 162
 *       nearest to X,Y,Z, MD2's axes: md2_normal_nearest()),
 *       box=shared (every frame has the same scale and translate).
 *   import_check anims X.md2 NAME:FIRST:LAST:FPS...
 *       md2_bundle_load_file() finds exactly these animations (the .anm
 *       file beside X, else the frame names), in this order, FPS exact.
 *
 *   import_check pixels A B MAXDIFF MEANDIFF [X Y]
 *       Images A and B (PCX through md2_pcx_decode(), others through
 *       stb_image) have the same size (with X Y: A is the part of B at
 *       column X, row Y), and their red, green and blue differ by at most
 *       MAXDIFF on any pixel and MEANDIFF on average.
 *   import_check nearest X.pcx SRC
 *       Each pixel of X is a colour of X's palette nearest (squared
 *       distance in red, green, blue) to SRC's pixel.
 *   import_check mean A B TOL
 *       Images A and B (of any sizes) have mean red, green and blue
 *       within TOL of each other.
 *   import_check error X.pcx SRC PAL.pcx RATIO
 *       X's colour error against SRC (the sum over pixels of the squared
 *       red, green, blue differences) is at most RATIO times that of SRC
 *       mapped to the nearest colours of PAL's palette; prints both.
 *   import_check colours IMG MIN
 *       IMG has at least MIN distinct red, green, blue colours.
 *   import_check palette X.pcx SRC
 *       X's 256-colour palette (its last 768 bytes) is SRC's: a PCX's
 *       own, another image's first 256 pixels in row order (black past
 *       its last pixel).
 *
 * Exit 0 when every check holds, 1 otherwise (saying which), 2 for a bad
 * command line.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>
#include <md2/animation.h>
#include <md2/tags.h>

#include <md2/skin.h>

#include <stb/stb_image.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void fail(const char *fmt, ...)
{
    va_list ap;
    printf("import_check: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    failures++;
}

static md2_model *load(const char *path)
{
    md2_model *m = NULL;
    md2_diagnostic d;
    md2_options o;
    memset(&o, 0, sizeof o);
    o.error = &d;
    if (md2_load_file(path, &o, &m) != MD2_OK) {
        printf("import_check: %s\n", d.message);
        return NULL;
    }
    return m;
}

static float *decode_all(const md2_model *m)
{
    float *p = (float *)malloc(m->num_frames * m->num_vertices * 3 * sizeof *p + 1);
    uint32_t f;
    if (!p)
        return NULL;
    for (f = 0; f < m->num_frames; f++)
        md2_decode_frame(m, f, p + 3 * m->num_vertices * f, 0, NULL, 0);
    return p;
}

static double model_size(const md2_model *m, const float *p)
{
    size_t i, n = m->num_frames * m->num_vertices;
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, s = 0;
    int k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 3; k++) {
            if (i == 0 || p[3 * i + k] < lo[k])
                lo[k] = p[3 * i + k];
            if (i == 0 || p[3 * i + k] > hi[k])
                hi[k] = p[3 * i + k];
        }
    for (k = 0; k < 3; k++)
        if (hi[k] - lo[k] > s)
            s = hi[k] - lo[k];
    return s;
}

static int cmp_same(int argc, char **argv)
{
    md2_model *a, *b;
    float *pa, *pb;
    size_t first = 0, i, f;
    double tol = 0, tol_size = 0, worst = 0, size;
    int counts = 0, anims = 0, k, c;
    for (i = 4; i < (size_t)argc; i++) {
        if (strcmp(argv[i], "--first") == 0 && i + 1 < (size_t)argc)
            first = (size_t)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--tol") == 0 && i + 1 < (size_t)argc)
            tol = strtod(argv[++i], NULL);
        else if (strcmp(argv[i], "--tol-size") == 0 && i + 1 < (size_t)argc)
            tol_size = strtod(argv[++i], NULL);
        else if (strcmp(argv[i], "--counts") == 0)
            counts = 1;
        else if (strcmp(argv[i], "--anims") == 0)
            anims = 1;
        else
            return 2;
    }
    a = load(argv[2]);
    b = load(argv[3]);
    if (!a || !b) {
        md2_free(a);
        md2_free(b);
        return 1;
    }
    pa = decode_all(a);
    pb = decode_all(b);
    if (!pa || !pb)
        return 1;
    size = model_size(a, pa);
    tol += tol_size * size;
    if (a->num_triangles != b->num_triangles)
        fail("%s: %g triangles, not %g", "B", (double)b->num_triangles, (double)a->num_triangles);
    else if (first + b->num_frames > a->num_frames)
        fail("%s: %g frames from %g: more than A has", "B", (double)b->num_frames, (double)first);
    else {
        for (i = 0; i < a->num_triangles; i++) {
            for (c = 0; c < 3; c++) {
                const md2_texcoord ta = a->texcoords[a->triangles[i].texcoord[c]];
                const md2_texcoord tb = b->texcoords[b->triangles[i].texcoord[c]];
                size_t va = a->triangles[i].vertex[c], vb = b->triangles[i].vertex[c];
                if (ta.s != tb.s || ta.t != tb.t) {
                    printf("import_check: triangle %lu corner %d: texcoord %d %d, not %d %d\n",
                           (unsigned long)i, c, tb.s, tb.t, ta.s, ta.t);
                    failures++;
                }
                for (f = 0; f < b->num_frames; f++) {
                    for (k = 0; k < 3; k++) {
                        double x = pa[3 * (a->num_vertices * (first + f) + va) + (size_t)k];
                        double y = pb[3 * (b->num_vertices * f + vb) + (size_t)k];
                        double lim = tol + b->frames[f].scale[k] / 2 + 1e-6 * size;
                        double d = fabs(x - y);
                        if (d > worst)
                            worst = d;
                        if (d > lim && failures < 10) {
                            printf("import_check: triangle %lu corner %d frame %lu axis %d: "
                                   "%.9g, not %.9g (off by %g, more than %g)\n",
                                   (unsigned long)i, c, (unsigned long)f, k, y, x, d, lim);
                            failures++;
                        }
                    }
                }
            }
        }
    }
    if (counts && (a->num_vertices != b->num_vertices || a->num_texcoords != b->num_texcoords)) {
        printf("import_check: %lu vertices and %lu texcoords, not %lu and %lu\n",
               (unsigned long)b->num_vertices, (unsigned long)b->num_texcoords,
               (unsigned long)a->num_vertices, (unsigned long)a->num_texcoords);
        failures++;
    }
    if (anims) {
        md2_anim x[256], y[256];
        size_t nx = md2_anims_from_names(a, x, 256), ny = md2_anims_from_names(b, y, 256);
        if (nx != ny) {
            fail("%s: %g animations, not %g", "B", (double)ny, (double)nx);
        } else {
            for (i = 0; i < nx && i < 256; i++)
                if (strcmp(x[i].name, y[i].name) != 0 || x[i].first != y[i].first ||
                    x[i].last != y[i].last)
                    fail("animation %s: not the same name or range (%g-%g)", y[i].name,
                         (double)y[i].first, (double)y[i].last);
        }
    }
    printf("import_check: largest position difference %.3g (model size %.6g)\n", worst, size);
    free(pa);
    free(pb);
    md2_free(a);
    md2_free(b);
    return failures ? 1 : 0;
}

static int cmp_model(int argc, char **argv)
{
    md2_model *m = load(argv[2]);
    float *p;
    int i;
    if (!m)
        return 1;
    p = decode_all(m);
    if (!p)
        return 1;
    for (i = 3; i < argc; i++) {
        const char *c = argv[i];
        const char *eq = strchr(c, '=');
        const char *v = eq ? eq + 1 : "";
        size_t klen = eq ? (size_t)(eq - c) : strlen(c);
        double want = strtod(v, NULL), got = -1;
        int counted = 1;
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(klen < 31 ? klen : 31), c);
        if (strcmp(key, "vertices") == 0)
            got = (double)m->num_vertices;
        else if (strcmp(key, "texcoords") == 0)
            got = (double)m->num_texcoords;
        else if (strcmp(key, "triangles") == 0)
            got = (double)m->num_triangles;
        else if (strcmp(key, "frames") == 0)
            got = (double)m->num_frames;
        else if (strcmp(key, "skins") == 0)
            got = (double)m->num_skins;
        else if (strcmp(key, "glcmds") == 0)
            got = (double)m->num_glcmds;
        else if (strcmp(key, "skin_width") == 0)
            got = m->skin_width;
        else if (strcmp(key, "skin_height") == 0)
            got = m->skin_height;
        else
            counted = 0;
        if (counted) {
            if (got != want)
                fail("%s is %g, not %g", key, got, want);
            continue;
        }
        if (strcmp(c, "glcmds>0") == 0) {
            if (m->num_glcmds == 0)
                fail("%s: the model has no GL commands", c);
        } else if (strncmp(key, "tri", 3) == 0 && klen > 3) {
            unsigned long n = strtoul(key + 3, NULL, 10), x = 0, y = 0, z = 0;
            if (sscanf(v, "%lu,%lu,%lu", &x, &y, &z) != 3 || n >= m->num_triangles ||
                m->triangles[n].vertex[0] != x || m->triangles[n].vertex[1] != y ||
                m->triangles[n].vertex[2] != z)
                fail("triangle %lu is not %s", n, v);
        } else if (strcmp(key, "skin0") == 0) {
            if (m->num_skins < 1 || strcmp(m->skins[0].name, v) != 0)
                fail("skin 0 is not '%s'", v);
        } else if (strncmp(key, "frame", 5) == 0 && klen > 5) {
            unsigned long n = strtoul(key + 5, NULL, 10);
            if (n >= m->num_frames || strcmp(m->frames[n].name, v) != 0)
                fail("frame %lu's name is not '%s'", n, v);
        } else if (strcmp(key, "height") == 0 || strcmp(key, "size") == 0) {
            double lo[3], hi[3], w[3] = {0, 0, 0};
            size_t j;
            int k, axes = strcmp(key, "height") == 0 ? 1 : 3;
            for (k = 0; k < 3; k++)
                lo[k] = hi[k] = p[k];
            for (j = 0; j < m->num_vertices; j++)
                for (k = 0; k < 3; k++) {
                    if (p[3 * j + (size_t)k] < lo[k])
                        lo[k] = p[3 * j + (size_t)k];
                    if (p[3 * j + (size_t)k] > hi[k])
                        hi[k] = p[3 * j + (size_t)k];
                }
            if (axes == 1)
                w[0] = want;
            else
                sscanf(v, "%lf,%lf,%lf", &w[0], &w[1], &w[2]);
            for (k = 0; k < axes; k++) {
                int axis = axes == 1 ? 2 : k;
                double ext = hi[axis] - lo[axis];
                if (fabs(ext - w[k]) > 1e-3)
                    fail("%s: the extent is %g, not %g", key, ext, w[k]);
            }
        } else if (strcmp(c, "normals=one") == 0 || strcmp(c, "normals=varied") == 0) {
            size_t j, distinct = 0;
            unsigned char seen[256];
            memset(seen, 0, sizeof seen);
            for (j = 0; j < m->num_vertices; j++)
                if (!seen[m->frames[0].vertices[j].normal]++)
                    distinct++;
            if ((strcmp(v, "one") == 0) != (distinct == 1))
                fail("%s: frame 0 has %lu distinct normal indices", c, (unsigned long)distinct);
        } else if (strncmp(key, "normal", 6) == 0 && klen > 6 && key[6] >= '0' && key[6] <= '9') {
            unsigned long at = strtoul(key + 6, NULL, 10);
            double d[3] = {0, 0, 0};
            int wanted;
            sscanf(v, "%lf,%lf,%lf", &d[0], &d[1], &d[2]);
            wanted = md2_normal_nearest((float)d[0], (float)d[1], (float)d[2]);
            if (at >= m->num_vertices)
                fail("%s: there are %lu vertices", c, (unsigned long)m->num_vertices);
            else if (m->frames[0].vertices[at].normal != wanted)
                fail("%s: the normal is %d, not %d", c, m->frames[0].vertices[at].normal, wanted);
        } else if (strcmp(c, "box=shared") == 0) {
            size_t f;
            for (f = 1; f < m->num_frames; f++)
                if (memcmp(m->frames[f].scale, m->frames[0].scale, sizeof m->frames[0].scale) ||
                    memcmp(m->frames[f].translate, m->frames[0].translate,
                           sizeof m->frames[0].translate))
                    fail("%s: frame %lu has another box", c, (unsigned long)f);
        } else {
            printf("import_check: unknown check '%s'\n", c);
            free(p);
            md2_free(m);
            return 2;
        }
    }
    free(p);
    md2_free(m);
    return failures ? 1 : 0;
}

static int cmp_anims(int argc, char **argv)
{
    md2_bundle *b = NULL;
    md2_diagnostic d;
    md2_options o;
    size_t i;
    memset(&o, 0, sizeof o);
    o.error = &d;
    if (md2_bundle_load_file(argv[2], &o, &b) != MD2_OK) {
        printf("import_check: %s\n", d.message);
        return 1;
    }
    if (b->num_anims != (size_t)argc - 3)
        fail("%s: %g animations, not %g", argv[2], (double)b->num_anims, (double)argc - 3);
    for (i = 0; i < b->num_anims && i + 3 < (size_t)argc; i++) {
        char name[64];
        unsigned long first, last;
        double fps;
        const md2_anim *a = &b->anims[i];
        if (sscanf(argv[i + 3], "%63[^:]:%lu:%lu:%lf", name, &first, &last, &fps) != 4) {
            md2_bundle_free(b);
            return 2;
        }
        if (strcmp(name, a->name) != 0 || first != a->first || last != a->last ||
            (float)fps != a->fps)
            fail("animation %s: %g-%g or its rate is not the one expected", a->name,
                 (double)a->first, (double)a->last);
    }
    md2_bundle_free(b);
    return failures ? 1 : 0;
}

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        !(b = (unsigned char *)malloc((size_t)n + 1)) || fread(b, 1, (size_t)n, f) != (size_t)n) {
        printf("import_check: cannot read %s\n", path);
        free(b);
        if (f)
            fclose(f);
        return NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return b;
}

static int is_pcx(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcmp(path + n - 4, ".pcx") == 0;
}

/* path decoded to RGBA (malloc'd) with its size. */
static unsigned char *decode(const char *path, int *w, int *h)
{
    size_t size = 0;
    unsigned char *data = read_all(path, &size), *out = NULL;
    if (!data)
        return NULL;
    if (is_pcx(path)) {
        md2_image *img = NULL;
        if (md2_pcx_decode(data, size, NULL, &img) == MD2_OK) {
            out = (unsigned char *)malloc((size_t)img->width * img->height * 4);
            if (out)
                memcpy(out, img->rgba, (size_t)img->width * img->height * 4);
            *w = (int)img->width;
            *h = (int)img->height;
            md2_image_free(img);
        }
    } else {
        int c;
        unsigned char *p = stbi_load_from_memory(data, (int)size, w, h, &c, 4);
        if (p) {
            out = (unsigned char *)malloc((size_t)*w * (size_t)*h * 4);
            if (out)
                memcpy(out, p, (size_t)*w * (size_t)*h * 4);
            stbi_image_free(p);
        }
    }
    if (!out)
        printf("import_check: cannot decode %s\n", path);
    free(data);
    return out;
}

static int cmp_pixels(int argc, char **argv)
{
    int wa = 0, ha = 0, wb = 0, hb = 0;
    unsigned char *a = decode(argv[2], &wa, &ha), *b = decode(argv[3], &wb, &hb);
    double maxd = strtod(argv[4], NULL), meand = strtod(argv[5], NULL);
    long x0 = argc == 8 ? strtol(argv[6], NULL, 10) : 0, y0 = argc == 8 ? strtol(argv[7], NULL, 10) : 0;
    if (!a || !b) {
        free(a);
        free(b);
        return 1;
    }
    if ((argc != 8 && (wa != wb || ha != hb)) || x0 < 0 || y0 < 0 || x0 + wa > wb ||
        y0 + ha > hb) {
        fail("%s: %dx%d, which does not hold %s (%dx%d) there", argv[3], wb, hb, argv[2], wa, ha);
    } else {
        long x, y;
        double sum = 0;
        int worst = 0;
        for (y = 0; y < ha; y++) {
            for (x = 0; x < wa; x++) {
                const unsigned char *p = a + 4 * ((size_t)y * (size_t)wa + (size_t)x);
                const unsigned char *q = b + 4 * ((size_t)(y + y0) * (size_t)wb + (size_t)(x + x0));
                int k;
                for (k = 0; k < 3; k++) {
                    int d = abs((int)p[k] - (int)q[k]);
                    if (d > worst)
                        worst = d;
                    sum += d;
                }
            }
        }
        sum /= 3.0 * (double)wa * (double)ha;
        printf("import_check: largest channel difference %d, mean %.3f\n", worst, sum);
        if (worst > maxd || sum > meand)
            fail("%s: off by more than allowed (largest %d, mean %g)", argv[3], worst, sum);
    }
    free(a);
    free(b);
    return failures ? 1 : 0;
}

static long dist2(const unsigned char *p, const unsigned char *q)
{
    long r = (long)p[0] - q[0], g = (long)p[1] - q[1], b = (long)p[2] - q[2];
    return r * r + g * g + b * b;
}

static int cmp_nearest(char **argv)
{
    int wx = 0, hx = 0, ws = 0, hs = 0;
    size_t size = 0;
    unsigned char *x = decode(argv[2], &wx, &hx), *src = decode(argv[3], &ws, &hs);
    unsigned char *file = read_all(argv[2], &size);
    if (!x || !src || !file || size < 769 || wx != ws || hx != hs) {
        fail("%s, %s: cannot compare", argv[2], argv[3]);
    } else {
        const unsigned char *pal = file + size - 768;
        size_t i, n = (size_t)wx * (size_t)hx;
        for (i = 0; i < n && failures < 5; i++) {
            long best = -1;
            int e;
            for (e = 0; e < 256; e++)
                if (best < 0 || dist2(src + 4 * i, pal + 3 * e) < best)
                    best = dist2(src + 4 * i, pal + 3 * e);
            if (dist2(src + 4 * i, x + 4 * i) != best)
                fail("%s: pixel %lu is not the nearest colour of the palette", argv[2],
                     (unsigned long)i);
        }
    }
    free(x);
    free(src);
    free(file);
    return failures ? 1 : 0;
}

/* X's colour error against SRC (the sum of squared red, green, blue
 * differences) within RATIO times that of SRC mapped to the nearest
 * colour of PAL's palette (an 8-bit PCX's last 768 bytes). */
static int cmp_error(char **argv)
{
    int wx = 0, hx = 0, ws = 0, hs = 0;
    size_t size = 0;
    unsigned char *x = decode(argv[2], &wx, &hx), *src = decode(argv[3], &ws, &hs);
    unsigned char *pal = read_all(argv[4], &size);
    double ratio = atof(argv[5]);
    if (!x || !src || !pal || size < 769 || wx != ws || hx != hs) {
        fail("%s, %s, %s: cannot compare", argv[2], argv[3], argv[4]);
    } else {
        const unsigned char *p = pal + size - 768;
        size_t i, n = (size_t)wx * (size_t)hx;
        double err = 0, nearest = 0;
        for (i = 0; i < n; i++) {
            long best = -1;
            int e;
            for (e = 0; e < 256; e++)
                if (best < 0 || dist2(src + 4 * i, p + 3 * e) < best)
                    best = dist2(src + 4 * i, p + 3 * e);
            nearest += (double)best;
            err += (double)dist2(src + 4 * i, x + 4 * i);
        }
        printf("import_check: colour error %.6g, nearest-colour %.6g, ratio %.4f (%lu pixels)\n", err,
               nearest, nearest > 0 ? err / nearest : (err > 0 ? 1e9 : 1.0), (unsigned long)n);
        if (err > ratio * nearest)
            fail("%s: colour error %g is over %g times the nearest colours' %g", argv[2], err, ratio,
                 nearest);
    }
    free(x);
    free(src);
    free(pal);
    return failures ? 1 : 0;
}

/* Images A and B (any sizes) have mean red, green and blue within TOL. */
static int cmp_mean(char **argv)
{
    int w[2] = {0, 0}, h[2] = {0, 0};
    unsigned char *img[2];
    double tol = atof(argv[4]);
    img[0] = decode(argv[2], &w[0], &h[0]);
    img[1] = decode(argv[3], &w[1], &h[1]);
    if (!img[0] || !img[1]) {
        fail("%s, %s: cannot compare", argv[2], argv[3]);
    } else {
        double mean[2][3] = {{0, 0, 0}, {0, 0, 0}};
        int k, c;
        for (k = 0; k < 2; k++) {
            size_t i, n = (size_t)w[k] * (size_t)h[k];
            for (i = 0; i < n; i++)
                for (c = 0; c < 3; c++)
                    mean[k][c] += img[k][4 * i + (size_t)c] / (double)n;
        }
        printf("import_check: mean colours %.3f %.3f %.3f and %.3f %.3f %.3f\n", mean[0][0],
               mean[0][1], mean[0][2], mean[1][0], mean[1][1], mean[1][2]);
        for (c = 0; c < 3; c++)
            if (fabs(mean[0][c] - mean[1][c]) > tol)
                fail("%s: mean channel %d differs by more than %g", argv[2], c, tol);
    }
    free(img[0]);
    free(img[1]);
    return failures ? 1 : 0;
}

static int cmp_palette(char **argv)
{
    size_t size = 0;
    unsigned char *x = read_all(argv[2], &size), want[768];
    memset(want, 0, sizeof want);
    if (!x || size < 769) {
        free(x);
        return 1;
    }
    if (is_pcx(argv[3])) {
        size_t n = 0;
        unsigned char *src = read_all(argv[3], &n);
        if (!src || n < 769) {
            free(src);
            free(x);
            return 1;
        }
        memcpy(want, src + n - 768, 768);
        free(src);
    } else {
        int w = 0, h = 0;
        size_t i;
        unsigned char *img = decode(argv[3], &w, &h);
        if (!img) {
            free(x);
            return 1;
        }
        for (i = 0; i < 256 && i < (size_t)w * (size_t)h; i++)
            memcpy(want + 3 * i, img + 4 * i, 3);
        free(img);
    }
    if (x[size - 769] != 0x0C || memcmp(x + size - 768, want, 768) != 0)
        fail("%s: its palette is not the one of %s", argv[2], argv[3]);
    free(x);
    return failures ? 1 : 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int count_colours(char **argv)
{
    int w = 0, h = 0;
    unsigned char *img = decode(argv[2], &w, &h);
    size_t n, i, distinct = 0;
    uint32_t *c;
    if (!img)
        return 1;
    n = (size_t)w * (size_t)h;
    c = (uint32_t *)malloc(n * sizeof *c + 1);
    if (!c) {
        free(img);
        return 1;
    }
    for (i = 0; i < n; i++)
        c[i] = (uint32_t)img[4 * i] << 16 | (uint32_t)img[4 * i + 1] << 8 | img[4 * i + 2];
    qsort(c, n, sizeof *c, cmp_u32);
    for (i = 0; i < n; i++)
        if (i == 0 || c[i] != c[i - 1])
            distinct++;
    printf("import_check: %s has %lu colours\n", argv[2], (unsigned long)distinct);
    if (distinct < strtoul(argv[3], NULL, 10))
        fail("%s: %lu colours, fewer than %s", argv[2], (unsigned long)distinct, argv[3]);
    free(c);
    free(img);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "colours") == 0)
        return count_colours(argv);
    if ((argc == 6 || argc == 8) && strcmp(argv[1], "pixels") == 0)
        return cmp_pixels(argc, argv);
    if (argc == 4 && strcmp(argv[1], "nearest") == 0)
        return cmp_nearest(argv);
    if (argc == 5 && strcmp(argv[1], "mean") == 0)
        return cmp_mean(argv);
    if (argc == 6 && strcmp(argv[1], "error") == 0)
        return cmp_error(argv);
    if (argc == 4 && strcmp(argv[1], "palette") == 0)
        return cmp_palette(argv);
    if (argc >= 4 && strcmp(argv[1], "same") == 0)
        return cmp_same(argc, argv);
    if (argc >= 3 && strcmp(argv[1], "model") == 0)
        return cmp_model(argc, argv);
    if (argc >= 3 && strcmp(argv[1], "anims") == 0)
        return cmp_anims(argc, argv);
    fprintf(stderr, "usage: import_check same|model|anims ...\n");
    return 2;
}
