/*
 * render_raster_test: unit tests of the rasterizer behind `md2 render`
 * (raster.c): the fill rule (meshes of triangles cover every pixel once,
 * with no crack and no pixel drawn twice), culling, the fitted camera,
 * the depth buffer, clipping at the near plane and the guard band,
 * perspective-correct texturing, the texel rule, lighting, the
 * wireframe, and the size checks of every allocation `md2 render` makes.
 * Exit status 0 when all pass.
 *
 * SPDX-License-Identifier: MIT
 */
#include "raster.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRID 64

static int failures;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            failures++;                                                                       \
            fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond);                        \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fputc('\n', stderr);                                                              \
        }                                                                                     \
    } while (0)

/* ---- coverage: how many triangles drew each pixel ---------------------- */

typedef struct coverage {
    unsigned char count[GRID * GRID];
} coverage;

static void count_plot(void *user, const raster_fragment *f)
{
    coverage *c = (coverage *)user;
    c->count[f->y * GRID + f->x]++;
}

/* A deterministic jitter in [0, 1) (a small LCG; no global state). */
static double jitter(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (double)((*state >> 8) & 0xFFFF) / 65536.0;
}

/* Every pixel of the picture covered exactly once by a mesh of quads, two
 * triangles each, whose corners are jittered (some exactly on pixel
 * centres and pixel edges), extending past the picture on every side. */
static void test_mesh_covers_once(int exact_points)
{
    enum { N = 11 };
    raster_point pts[N][N];
    coverage cov;
    unsigned state = 7u;
    int i, j, bad = 0;
    memset(&cov, 0, sizeof cov);
    for (j = 0; j < N; j++) {
        for (i = 0; i < N; i++) {
            double x = -10.0 + i * 8.4, y = -10.0 + j * 8.4;
            if (exact_points) { /* on pixel centres and edges: the fill rule decides */
                x = floor(x) + (i % 2 ? 0.5 : 0.0);
                y = floor(y) + (j % 2 ? 0.5 : 0.0);
            } else if (i > 0 && i < N - 1 && j > 0 && j < N - 1) {
                x += 3.0 * jitter(&state) - 1.5;
                y += 3.0 * jitter(&state) - 1.5;
            }
            pts[j][i].x = x;
            pts[j][i].y = y;
        }
    }
    for (j = 0; j + 1 < N; j++) {
        for (i = 0; i + 1 < N; i++) {
            /* clockwise on screen (y down): top left, top right, bottom right */
            raster_point a[3], b[3];
            a[0] = pts[j][i];
            a[1] = pts[j][i + 1];
            a[2] = pts[j + 1][i + 1];
            b[0] = pts[j][i];
            b[1] = pts[j + 1][i + 1];
            b[2] = pts[j + 1][i];
            raster_scan(a, GRID, GRID, count_plot, &cov);
            raster_scan(b, GRID, GRID, count_plot, &cov);
        }
    }
    for (i = 0; i < GRID * GRID; i++)
        bad += cov.count[i] != 1;
    CHECK(bad == 0, "%d pixels not covered exactly once (exact points: %d)", bad, exact_points);
}

/* A fan of 24 triangles about a centre that is itself a pixel centre, with
 * spokes through pixel centres (horizontal, vertical, diagonal). */
static void test_fan_covers_once(void)
{
    raster_point centre = {32.5, 32.5}, ring[24];
    coverage cov;
    int i, bad = 0, outside_ok = 1;
    memset(&cov, 0, sizeof cov);
    for (i = 0; i < 24; i++) {
        double a = i * (2.0 * 3.14159265358979323846 / 24.0);
        ring[i].x = 32.5 + 100.0 * cos(a);
        ring[i].y = 32.5 + 100.0 * sin(a);
        if (i % 6 == 0) { /* exactly axis-aligned spokes */
            ring[i].x = floor(ring[i].x + 0.5) + 0.5;
            ring[i].y = floor(ring[i].y + 0.5) + 0.5;
        }
    }
    for (i = 0; i < 24; i++) {
        /* angle grows clockwise on screen with y down */
        raster_point t[3];
        t[0] = centre;
        t[1] = ring[i];
        t[2] = ring[(i + 1) % 24];
        outside_ok &= raster_scan(t, GRID, GRID, count_plot, &cov);
    }
    for (i = 0; i < GRID * GRID; i++)
        bad += cov.count[i] != 1;
    CHECK(outside_ok, "a clockwise triangle of the fan was culled");
    CHECK(bad == 0, "%d pixels of the fan not covered exactly once", bad);
}

/* The top-left rule on a square whose sides run through pixel centres. */
static void test_top_left(void)
{
    raster_point a[3] = {{2.5, 2.5}, {6.5, 2.5}, {6.5, 6.5}}, b[3] = {{2.5, 2.5}, {6.5, 6.5}, {2.5, 6.5}};
    coverage cov;
    int x, y, bad = 0;
    memset(&cov, 0, sizeof cov);
    raster_scan(a, GRID, GRID, count_plot, &cov);
    raster_scan(b, GRID, GRID, count_plot, &cov);
    for (y = 0; y < GRID; y++)
        for (x = 0; x < GRID; x++)
            bad += cov.count[y * GRID + x] != (x >= 2 && x <= 5 && y >= 2 && y <= 5);
    CHECK(bad == 0, "the square (2.5, 2.5)-(6.5, 6.5) should cover pixels 2..5 x 2..5 (%d off)",
          bad);
}

static void test_culling(void)
{
    raster_point ccw[3] = {{2.0, 2.0}, {2.0, 20.0}, {20.0, 2.0}};
    raster_point flat[3] = {{2.0, 2.0}, {10.0, 10.0}, {20.0, 20.0}};
    raster_point far_away[3] = {{2.0, 2.0}, {2e7, 2.0}, {2.0, 20.0}};
    coverage cov;
    int i, drawn = 0;
    memset(&cov, 0, sizeof cov);
    CHECK(raster_scan(ccw, GRID, GRID, count_plot, &cov) == 0, "counter-clockwise drawn");
    CHECK(raster_scan(flat, GRID, GRID, count_plot, &cov) == 0, "zero area drawn");
    CHECK(raster_scan(far_away, GRID, GRID, count_plot, &cov) == 0, "corner past the limit");
    for (i = 0; i < GRID * GRID; i++)
        drawn += cov.count[i];
    CHECK(drawn == 0, "culled triangles drew %d pixels", drawn);
}

/* ---- camera -------------------------------------------------------------- */

/* The corners' pixel positions (the formula of raster.h): their box,
 * left, top, right, bottom. */
static void corner_pixels(const raster_camera *cam, const double lo[3], const double hi[3],
                          double box[4])
{
    double p[3], v[3];
    int k, i;
    box[0] = box[1] = HUGE_VAL;
    box[2] = box[3] = -HUGE_VAL;
    for (k = 0; k < 8; k++) {
        double x, y;
        for (i = 0; i < 3; i++)
            p[i] = (k >> i) & 1 ? hi[i] : lo[i];
        raster_camera_view(cam, p, v);
        CHECK(v[2] > 0.0, "corner %d behind the eye", k);
        x = cam->half_width + cam->focal * (v[0] / v[2] - cam->shift_x);
        y = cam->half_height - cam->focal * (v[1] / v[2] - cam->shift_y);
        box[0] = fmin(box[0], x);
        box[1] = fmin(box[1], y);
        box[2] = fmax(box[2], x);
        box[3] = fmax(box[3], y);
    }
}

/* The box's projection is centred and fills 95% of the tighter direction. */
static void test_camera_fill(int w, int h, double yaw, double pitch)
{
    double lo[3] = {-10.0, -4.0, -24.0}, hi[3] = {14.0, 4.0, 32.0}, box[4];
    double fill_x, fill_y, eps = 1e-9;
    raster_camera cam;
    raster_camera_fit(&cam, lo, hi, yaw, pitch, w, h);
    corner_pixels(&cam, lo, hi, box);
    CHECK(fabs(box[0] + box[2] - w) < eps && fabs(box[1] + box[3] - h) < eps,
          "not centred: %g %g %g %g in %dx%d", box[0], box[1], box[2], box[3], w, h);
    fill_x = (box[2] - box[0]) / w;
    fill_y = (box[3] - box[1]) / h;
    CHECK(fill_x <= RASTER_FILL + eps && fill_y <= RASTER_FILL + eps, "too big: %g %g", fill_x,
          fill_y);
    CHECK(fabs(fmax(fill_x, fill_y) - RASTER_FILL) < eps, "does not fill: %g %g", fill_x, fill_y);
}

static void test_camera(void)
{
    double lo[3] = {-10.0, -4.0, -24.0}, hi[3] = {14.0, 4.0, 32.0};
    double pt[3] = {5.0, 5.0, 5.0}, v[3];
    raster_camera cam;
    test_camera_fill(200, 100, 30.0, 15.0);
    test_camera_fill(100, 300, -120.0, -60.0);
    test_camera_fill(64, 64, 0.0, 0.0);
    /* yaw 0, pitch 0: looking at the front from +X; +Y to the right, +Z up */
    raster_camera_fit(&cam, lo, hi, 0.0, 0.0, 100, 100);
    CHECK(cam.back[0] == 1.0 && cam.right[1] == 1.0 && cam.up[2] == 1.0,
          "axes %g %g %g", cam.back[0], cam.right[1], cam.up[2]);
    CHECK(fabs(cam.distance - 0.5 * sqrt(24.0 * 24.0 + 8.0 * 8.0 + 56.0 * 56.0) /
                                   sin(20.0 * 3.14159265358979323846 / 180.0)) < 1e-9,
          "distance %g", cam.distance);
    /* a box of one point: nothing to fit; the 40-degree view */
    raster_camera_fit(&cam, pt, pt, 30.0, 15.0, 100, 50);
    raster_camera_view(&cam, pt, v);
    CHECK(cam.distance == 1.0 / sin(20.0 * 3.14159265358979323846 / 180.0) && v[2] > 0.0 &&
          fabs(cam.focal - 25.0 / tan(20.0 * 3.14159265358979323846 / 180.0)) < 1e-9,
          "one point: distance %g focal %g", cam.distance, cam.focal);
}

/* ---- drawing --------------------------------------------------------------- */

typedef struct canvas {
    unsigned char rgba[GRID * GRID * 4];
    float depth[GRID * GRID];
    raster_target target;
    raster_camera cam;
    raster_shading shading;
} canvas;

/* A canvas looking at the box -1..1 from +X (yaw 0, pitch 0), unlit grey. */
static void canvas_init(canvas *c)
{
    double lo[3] = {-1.0, -1.0, -1.0}, hi[3] = {1.0, 1.0, 1.0};
    memset(c, 0, sizeof *c);
    c->target.rgba = c->rgba;
    c->target.stride = GRID * 4;
    c->target.depth = c->depth;
    c->target.width = GRID;
    c->target.height = GRID;
    raster_clear(&c->target);
    raster_camera_fit(&c->cam, lo, hi, 0.0, 0.0, GRID, GRID);
    raster_camera_light(&c->cam, c->shading.light);
}

static raster_vertex vertex(double x, double y, double z, double u, double v)
{
    raster_vertex r;
    memset(&r, 0, sizeof r);
    r.position[0] = x;
    r.position[1] = y;
    r.position[2] = z;
    r.uv[0] = u;
    r.uv[1] = v;
    r.normal[0] = 1.0; /* facing the camera */
    return r;
}

static void draw(canvas *c, const raster_vertex *a, const raster_vertex *b,
                 const raster_vertex *d)
{
    const raster_vertex *v[3];
    v[0] = a;
    v[1] = b;
    v[2] = d;
    raster_draw(&c->target, &c->cam, &c->shading, v);
}

static const unsigned char *at(const canvas *c, int x, int y)
{
    return c->rgba + (y * GRID + x) * 4;
}

/* Two triangles at different depths, drawn in both orders: the nearer wins. */
static void test_depth(void)
{
    static const unsigned char red[4] = {255, 0, 0, 255}, blue[4] = {0, 0, 255, 255};
    raster_texture tex_red = {red, 1, 1}, tex_blue = {blue, 1, 1};
    /* seen from +X, +Y is right and +Z up: clockwise from +X is
     * (y, z): top left, top right, bottom */
    raster_vertex n0 = vertex(0.5, -1, 1, 0, 0), n1 = vertex(0.5, 1, 1, 0, 0),
                  n2 = vertex(0.5, 0, -1, 0, 0);
    raster_vertex f0 = vertex(-0.5, -1, 1, 0, 0), f1 = vertex(-0.5, 1, 1, 0, 0),
                  f2 = vertex(-0.5, 0, -1, 0, 0);
    int order;
    for (order = 0; order < 2; order++) {
        canvas *c = (canvas *)calloc(1, sizeof *c);
        if (!c)
            return;
        canvas_init(c);
        c->shading.skin = order ? &tex_blue : &tex_red;
        if (order) {
            draw(c, &f0, &f1, &f2);
            c->shading.skin = &tex_red;
            draw(c, &n0, &n1, &n2);
        } else {
            draw(c, &n0, &n1, &n2);
            c->shading.skin = &tex_blue;
            draw(c, &f0, &f1, &f2);
        }
        CHECK(memcmp(at(c, GRID / 2, GRID / 2), red, 4) == 0, "order %d: the far triangle won",
              order);
        CHECK(at(c, 1, GRID - 2)[3] == 0, "order %d: corner drawn", order);
        free(c);
    }
}

/* Two triangles at the same depth: the first drawn keeps the pixels. */
static void test_depth_tie(void)
{
    static const unsigned char red[4] = {255, 0, 0, 255}, blue[4] = {0, 0, 255, 255};
    raster_texture tex_red = {red, 1, 1}, tex_blue = {blue, 1, 1};
    raster_vertex a = vertex(0.0, -1, 1, 0, 0), b = vertex(0.0, 1, 1, 0, 0), d = vertex(0.0, 0, -1, 0, 0);
    canvas *c = (canvas *)calloc(1, sizeof *c);
    if (!c)
        return;
    canvas_init(c);
    c->shading.skin = &tex_red;
    draw(c, &a, &b, &d);
    c->shading.skin = &tex_blue;
    draw(c, &a, &b, &d);
    CHECK(memcmp(at(c, GRID / 2, GRID / 2), red, 4) == 0, "the second of two equal triangles won");
    free(c);
}

/* A wall whose near end passes behind the eye is clipped, not dropped or
 * wrapped around: it covers the lower rows, not the upper ones. */
static void test_near_clip(void)
{
    canvas *c = (canvas *)calloc(1, sizeof *c);
    raster_vertex a, b, d;
    int x, lower = 0, upper = 0;
    if (!c)
        return;
    canvas_init(c);
    /* a floor under the eye running from far behind the box to far behind
     * the eye (eye at +X, distance about 5.06), clockwise from above */
    a = vertex(-40.0, -30.0, -0.5, 0, 0);
    b = vertex(40.0, 30.0, -0.5, 0, 0);
    d = vertex(40.0, -30.0, -0.5, 0, 0);
    a.normal[0] = 0.0;
    a.normal[2] = 1.0;
    draw(c, &a, &b, &d);
    d = vertex(-40.0, 30.0, -0.5, 0, 0);
    draw(c, &a, &d, &b);
    for (x = 0; x < GRID; x++) {
        lower += at(c, x, GRID - 1)[3] == 255;
        upper += at(c, x, 0)[3] == 255;
    }
    CHECK(lower == GRID, "the floor should fill the bottom row (%d of %d)", lower, GRID);
    CHECK(upper == 0, "the floor should not reach the top row (%d)", upper);
    free(c);
}

/* A triangle far larger than the picture (clipped by the guard band) covers
 * every pixel. */
static void test_guard_band(void)
{
    canvas *c = (canvas *)calloc(1, sizeof *c);
    raster_vertex a = vertex(0, -1e6, 1e6, 0, 0), b = vertex(0, 1e6, 1e6, 0, 0),
                  d = vertex(0, 0, -1e6, 0, 0);
    int i, drawn = 0;
    if (!c)
        return;
    canvas_init(c);
    draw(c, &a, &b, &d);
    for (i = 0; i < GRID * GRID; i++)
        drawn += c->rgba[i * 4 + 3] == 255;
    CHECK(drawn == GRID * GRID, "a huge triangle covered %d of %d pixels", drawn, GRID * GRID);
    free(c);
}

/* A floor stretching away: u along the depth, 16 texels; each pixel's texel
 * is the one where its ray meets the floor (affine interpolation would be
 * several texels off in the middle). */
static void test_perspective(void)
{
    canvas *c = (canvas *)calloc(1, sizeof *c);
    unsigned char texels[16 * 4];
    raster_texture tex = {texels, 16, 1};
    raster_vertex a = vertex(1, -1, -1, 0, 0), b = vertex(-60, 1, -1, 1, 0),
                  d = vertex(1, 1, -1, 0, 0), e = vertex(-60, -1, -1, 1, 0);
    int i, y, checked = 0, wrong = 0;
    if (!c)
        return;
    for (i = 0; i < 16; i++) {
        texels[4 * i] = (unsigned char)(i * 16);
        texels[4 * i + 1] = texels[4 * i + 2] = 0;
        texels[4 * i + 3] = 255;
    }
    canvas_init(c);
    c->shading.skin = &tex;
    /* clockwise from above (+Z): near left, far right... */
    draw(c, &a, &e, &b);
    draw(c, &a, &b, &d);
    for (y = 0; y < GRID; y++) {
        const unsigned char *px = at(c, GRID / 2, y);
        /* the ray through the pixel centre meets z = -1 at depth w */
        double b_y = (c->cam.half_height - (y + 0.5)) / c->cam.focal, w, x, u, f;
        if (px[3] != 255 || !(b_y < 0.0))
            continue;
        w = -1.0 / b_y;                 /* y = b * w = -1 (the box centre is 0) */
        x = c->cam.distance - w;        /* model x of that point */
        u = (1.0 - x) / 61.0 * 16.0;    /* texel coordinate */
        f = u - floor(u);
        if (f < 0.05 || f > 0.95)
            continue;
        checked++;
        wrong += px[0] != (unsigned char)((long)floor(u) * 16);
    }
    CHECK(checked > 10 && wrong == 0, "%d of %d texels wrong", wrong, checked);
    free(c);
}

static void test_texel_rule(void)
{
    unsigned char texels[4 * 3 * 4];
    raster_texture tex;
    int i;
    memset(texels, 0, sizeof texels);
    for (i = 0; i < 12; i++)
        texels[4 * i] = (unsigned char)i; /* red: the texel's number */
    tex.rgba = texels;
    tex.width = 4;
    tex.height = 3;
    CHECK(*raster_texel(&tex, 0.0, 0.0) == 0, "u 0, v 0");
    CHECK(*raster_texel(&tex, 0.2499, 0.0) == 0, "u just below 1/4");
    CHECK(*raster_texel(&tex, 0.25, 0.0) == 1, "u 1/4 starts column 1");
    CHECK(*raster_texel(&tex, 0.9999, 0.9999) == 11, "last texel");
    CHECK(*raster_texel(&tex, 1.0, 0.0) == 0, "u 1 wraps to column 0");
    CHECK(*raster_texel(&tex, -0.01, 0.0) == 3, "u below 0 wraps to the last column");
    CHECK(*raster_texel(&tex, 0.0, 1.0 / 3.0 + 1e-9) == 4, "v 1/3 starts row 1");
    CHECK(*raster_texel(&tex, 2.6, -0.5) == 6, "u 2.6 is column 2, v -0.5 row 1");
}

/* Lit: a face turned to the light is the texel itself; one turned away
 * gets the ambient part. */
static void test_light(void)
{
    static const unsigned char white[4] = {200, 100, 50, 255};
    raster_texture tex = {white, 1, 1};
    raster_vertex a = vertex(0, -1, 1, 0, 0), b = vertex(0, 1, 1, 0, 0), d = vertex(0, 0, -1, 0, 0);
    int k, pass;
    for (pass = 0; pass < 2; pass++) {
        canvas *c = (canvas *)calloc(1, sizeof *c);
        const unsigned char *px;
        if (!c)
            return;
        canvas_init(c);
        c->shading.skin = &tex;
        c->shading.lit = 1;
        for (k = 0; k < 3; k++) {
            double s = pass ? -1.0 : 1.0;
            a.normal[k] = b.normal[k] = d.normal[k] = s * c->shading.light[k];
        }
        draw(c, &a, &b, &d);
        px = at(c, GRID / 2, GRID / 2);
        if (pass == 0)
            CHECK(px[0] == 200 && px[1] == 100 && px[2] == 50, "lit %d %d %d", px[0], px[1],
                  px[2]);
        else
            CHECK(px[0] == 80 && px[1] == 40 && px[2] == 20, "ambient %d %d %d", px[0], px[1],
                  px[2]);
        free(c);
    }
}

/* Wireframe: pixels within a pixel of an edge are drawn, the inside is
 * transparent, and the depth still hides what lies behind: a second
 * triangle behind the first, whose top edge runs through the centre of the
 * picture, does not show. */
static void test_wireframe(void)
{
    canvas *c = (canvas *)calloc(1, sizeof *c);
    raster_vertex a = vertex(0.5, -1, 1, 0, 0), b = vertex(0.5, 1, 1, 0, 0),
                  d = vertex(0.5, 0, -1, 0, 0);
    raster_vertex s0 = vertex(-0.5, -0.3, 0.0, 0, 0), s1 = vertex(-0.5, 0.3, 0.0, 0, 0),
                  s2 = vertex(-0.5, 0, -0.5, 0, 0);
    int x, row, top_edge = 0;
    if (!c)
        return;
    canvas_init(c);
    c->shading.wireframe = 1;
    draw(c, &a, &b, &d);
    draw(c, &s0, &s1, &s2);
    /* the first row whose centres lie below the top edge (inside) */
    row = (int)ceil(c->cam.half_height - c->cam.focal * 1.0 / (c->cam.distance - 0.5) - 0.5);
    for (x = 0; x < GRID; x++)
        top_edge += at(c, x, row)[3] == 255;
    CHECK(top_edge > GRID / 2, "the top edge has %d pixels in row %d", top_edge, row);
    CHECK(at(c, GRID / 2, GRID / 2)[3] == 0, "a hidden edge shows through");
    CHECK(at(c, GRID / 2, GRID / 2 + 6)[3] == 0, "the inside is drawn");
    free(c);
}

/* ---- allocation sizes ------------------------------------------------------ */

/* count * size past SIZE_MAX is refused, never wrapped into a small
 * buffer: md2 render sizes its per-vertex raster_vertex array (64 bytes
 * each) with these, and a count that fits 8 floats a vertex but not a
 * raster_vertex (2^58 + 1 on a 64-bit host, 2^26 + 1 on a 32-bit one,
 * whose product wraps to 64 bytes) must give nothing. */
static void test_alloc_sizes(void)
{
    const size_t vsize = sizeof(raster_vertex);
    const size_t wraps = SIZE_MAX / vsize + 2; /* count * vsize wraps to a few bytes */
    size_t out = 12345;
    void *p;
    CHECK(vsize == 8 * sizeof(double), "raster_vertex is %lu bytes", (unsigned long)vsize);
    CHECK(wraps <= SIZE_MAX / (8 * sizeof(float)), "the count fits 8 floats a vertex");
    CHECK(!raster_size_mul(wraps, vsize, &out) && out == 12345, "a wrapping product is refused");
    CHECK(!raster_size_mul(SIZE_MAX / 2 + 1, 2, &out), "SIZE_MAX + 1 is refused");
    CHECK(!raster_size_mul(SIZE_MAX, SIZE_MAX, &out), "SIZE_MAX squared is refused");
    CHECK(raster_size_mul(SIZE_MAX / 2, 2, &out) && out == SIZE_MAX - 1, "SIZE_MAX - 1 fits");
    CHECK(raster_size_mul(SIZE_MAX, 1, &out) && out == SIZE_MAX, "SIZE_MAX fits");
    CHECK(raster_size_mul(0, SIZE_MAX, &out) && out == 0, "0 elements fit");
    CHECK(raster_size_mul(SIZE_MAX, 0, &out) && out == 0, "elements of 0 bytes fit");
    CHECK(raster_size_mul(16384, 16384, &out) && out == (size_t)1 << 28, "16384 x 16384");

    p = raster_alloc_array(wraps, vsize);
    CHECK(p == NULL, "%lu raster_vertex elements: not refused", (unsigned long)wraps);
    free(p);
    p = raster_calloc_array(wraps, vsize);
    CHECK(p == NULL, "%lu zeroed raster_vertex elements: not refused", (unsigned long)wraps);
    free(p);
    p = raster_alloc_array(SIZE_MAX / 4 + 1, 4);
    CHECK(p == NULL, "SIZE_MAX / 4 + 1 floats: not refused");
    free(p);
    p = raster_calloc_array(SIZE_MAX / 4 + 1, 4);
    CHECK(p == NULL, "SIZE_MAX / 4 + 1 pixels: not refused");
    free(p);

    /* small arrays, and empty ones (at least one byte: NULL means failure) */
    p = raster_alloc_array(3, vsize);
    CHECK(p != NULL, "3 raster_vertex elements: refused");
    if (p)
        memset(p, 0xAB, 3 * vsize);
    free(p);
    p = raster_alloc_array(0, vsize);
    CHECK(p != NULL, "0 elements: NULL");
    free(p);
    p = raster_calloc_array(5, 4);
    CHECK(p != NULL, "5 zeroed pixels: refused");
    if (p) {
        static const unsigned char zero[20];
        CHECK(memcmp(p, zero, sizeof zero) == 0, "calloc'd pixels not zero");
    }
    free(p);
    p = raster_calloc_array(0, 4);
    CHECK(p != NULL, "0 zeroed elements: NULL");
    free(p);
}

int main(void)
{
    test_mesh_covers_once(0);
    test_mesh_covers_once(1);
    test_fan_covers_once();
    test_top_left();
    test_culling();
    test_camera();
    test_depth();
    test_depth_tie();
    test_near_clip();
    test_guard_band();
    test_perspective();
    test_texel_rule();
    test_light();
    test_wireframe();
    test_alloc_sizes();
    if (failures) {
        fprintf(stderr, "render_raster_test: %d failures\n", failures);
        return 1;
    }
    printf("render_raster_test: all passed\n");
    return 0;
}
