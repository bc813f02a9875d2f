/*
 * md2 render: the software rasterizer (see raster.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "raster.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RASTER_PI 3.14159265358979323846

/* ------------------------------------------------------------------------ */
/* Scan conversion                                                           */
/* ------------------------------------------------------------------------ */

/* One edge function E(P) = dx * (Py - y0) - dy * (Px - x0) of the edge from
 * corner (x0, y0) to the next, in 1/RASTER_SUBPIXEL pixel units: positive
 * inside a clockwise triangle. */
typedef struct scan_edge {
    int64_t x0, y0, dx, dy;
    int64_t bias;       /* 0 for a top or left edge, -1 otherwise */
    double inv_length;  /* 1 / (edge length * RASTER_SUBPIXEL): E to pixels */
} scan_edge;

static int snap(double v, int64_t *out)
{
    if (!(v >= -RASTER_MAX_COORD && v <= RASTER_MAX_COORD))
        return 0;
    *out = (int64_t)floor(v * RASTER_SUBPIXEL + 0.5);
    return 1;
}

static void edge_setup(scan_edge *e, int64_t x0, int64_t y0, int64_t x1, int64_t y1)
{
    double len;
    e->x0 = x0;
    e->y0 = y0;
    e->dx = x1 - x0;
    e->dy = y1 - y0;
    /* y grows downwards: a left edge of a clockwise triangle goes up, a
     * top edge goes right */
    e->bias = (e->dy < 0 || (e->dy == 0 && e->dx > 0)) ? 0 : -1;
    len = sqrt((double)e->dx * (double)e->dx + (double)e->dy * (double)e->dy);
    e->inv_length = len > 0.0 ? 1.0 / (len * RASTER_SUBPIXEL) : 0.0;
}

static int64_t edge_at(const scan_edge *e, int64_t px, int64_t py)
{
    return e->dx * (py - e->y0) - e->dy * (px - e->x0);
}

/* Pixel range [*first, *last] whose centres lie in [lo, hi] (fixed point),
 * clipped to [0, size); 0 if empty. */
static int pixel_span(int64_t lo, int64_t hi, int size, int *first, int *last)
{
    const int64_t half = RASTER_SUBPIXEL / 2;
    int64_t a = lo - half, b = hi - half;
    /* ceil(a / S) and floor(b / S) for any sign */
    int64_t f = a >= 0 ? (a + RASTER_SUBPIXEL - 1) / RASTER_SUBPIXEL : -((-a) / RASTER_SUBPIXEL);
    int64_t l = b >= 0 ? b / RASTER_SUBPIXEL : -((-b + RASTER_SUBPIXEL - 1) / RASTER_SUBPIXEL);
    if (f < 0)
        f = 0;
    if (l > (int64_t)size - 1)
        l = (int64_t)size - 1;
    if (f > l)
        return 0;
    *first = (int)f;
    *last = (int)l;
    return 1;
}

static int64_t min3(int64_t a, int64_t b, int64_t c)
{
    int64_t m = a < b ? a : b;
    return m < c ? m : c;
}

static int64_t max3(int64_t a, int64_t b, int64_t c)
{
    int64_t m = a > b ? a : b;
    return m > c ? m : c;
}

/* Walks one row of the triangle's box; e[k] holds E_k at the first pixel. */
static void scan_row(const scan_edge edge[3], int64_t e[3], int y, int x0, int x1, double area,
                     raster_plot_fn plot, void *user)
{
    raster_fragment f;
    int x, k;
    f.y = y;
    for (x = x0; x <= x1; x++) {
        if (e[0] + edge[0].bias >= 0 && e[1] + edge[1].bias >= 0 && e[2] + edge[2].bias >= 0) {
            f.x = x;
            /* a corner's weight is the edge function of the opposite edge */
            f.weight[0] = (double)e[1] / area;
            f.weight[1] = (double)e[2] / area;
            f.weight[2] = (double)e[0] / area;
            for (k = 0; k < 3; k++)
                f.edge[k] = (double)e[k] * edge[k].inv_length;
            plot(user, &f);
        }
        for (k = 0; k < 3; k++)
            e[k] -= edge[k].dy * RASTER_SUBPIXEL;
    }
}

int raster_scan(const raster_point p[3], int width, int height, raster_plot_fn plot, void *user)
{
    int64_t X[3], Y[3], area, e[3];
    scan_edge edge[3];
    int k, x0, x1, y0, y1, y;
    for (k = 0; k < 3; k++) {
        if (!snap(p[k].x, &X[k]) || !snap(p[k].y, &Y[k]))
            return 0;
    }
    area = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
    if (area <= 0)
        return 0;
    for (k = 0; k < 3; k++)
        edge_setup(&edge[k], X[k], Y[k], X[(k + 1) % 3], Y[(k + 1) % 3]);
    if (!pixel_span(min3(X[0], X[1], X[2]), max3(X[0], X[1], X[2]), width, &x0, &x1) ||
        !pixel_span(min3(Y[0], Y[1], Y[2]), max3(Y[0], Y[1], Y[2]), height, &y0, &y1))
        return 1;
    for (y = y0; y <= y1; y++) {
        int64_t px = (int64_t)x0 * RASTER_SUBPIXEL + RASTER_SUBPIXEL / 2;
        int64_t py = (int64_t)y * RASTER_SUBPIXEL + RASTER_SUBPIXEL / 2;
        for (k = 0; k < 3; k++)
            e[k] = edge_at(&edge[k], px, py);
        scan_row(edge, e, y, x0, x1, (double)area, plot, user);
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Camera                                                                    */
/* ------------------------------------------------------------------------ */

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void camera_axes(raster_camera *cam, double yaw_degrees, double pitch_degrees)
{
    double yaw = yaw_degrees * (RASTER_PI / 180.0), pitch = pitch_degrees * (RASTER_PI / 180.0);
    double cy = cos(yaw), sy = sin(yaw), cp = cos(pitch), sp = sin(pitch);
    cam->back[0] = cp * cy;
    cam->back[1] = cp * sy;
    cam->back[2] = sp;
    cam->right[0] = -sy;
    cam->right[1] = cy;
    cam->right[2] = 0.0;
    cam->up[0] = -sp * cy; /* back x right */
    cam->up[1] = -sp * sy;
    cam->up[2] = cp;
}

/* The x / w and y / w ranges of the box's corners (offsets +-half). */
static void corner_ranges(const raster_camera *cam, const double half[3], double range[4])
{
    int c, i;
    for (c = 0; c < 8; c++) {
        double q[3], w, x, y;
        for (i = 0; i < 3; i++)
            q[i] = (c >> i) & 1 ? half[i] : -half[i];
        w = cam->distance - dot3(q, cam->back);
        x = dot3(q, cam->right) / w;
        y = dot3(q, cam->up) / w;
        if (c == 0 || x < range[0])
            range[0] = x;
        if (c == 0 || x > range[1])
            range[1] = x;
        if (c == 0 || y < range[2])
            range[2] = y;
        if (c == 0 || y > range[3])
            range[3] = y;
    }
}

void raster_camera_fit(raster_camera *cam, const double lo[3], const double hi[3],
                       double yaw_degrees, double pitch_degrees, int width, int height)
{
    double half[3], r, range[4] = {0.0, 0.0, 0.0, 0.0}, focal = HUGE_VAL;
    double half_fov = RASTER_HALF_FOV_DEGREES * RASTER_PI / 180.0;
    int i;
    camera_axes(cam, yaw_degrees, pitch_degrees);
    for (i = 0; i < 3; i++) {
        cam->center[i] = (lo[i] + hi[i]) / 2.0;
        half[i] = (hi[i] - lo[i]) / 2.0;
    }
    r = sqrt(dot3(half, half));
    if (!(r > 0.0))
        r = 1.0;
    cam->distance = r / sin(half_fov);
    cam->half_width = width / 2.0;
    cam->half_height = height / 2.0;
    corner_ranges(cam, half, range);
    cam->shift_x = (range[0] + range[1]) / 2.0;
    cam->shift_y = (range[2] + range[3]) / 2.0;
    if (range[1] > range[0])
        focal = width / (range[1] - range[0]);
    if (range[3] > range[2] && height / (range[3] - range[2]) < focal)
        focal = height / (range[3] - range[2]);
    if (focal == HUGE_VAL) /* a box of one point */
        focal = cam->half_height / tan(half_fov);
    else
        focal *= RASTER_FILL;
    cam->focal = focal;
}

void raster_camera_view(const raster_camera *cam, const double p[3], double out[3])
{
    double q[3];
    int i;
    for (i = 0; i < 3; i++)
        q[i] = p[i] - cam->center[i];
    out[0] = dot3(q, cam->right);
    out[1] = dot3(q, cam->up);
    out[2] = cam->distance - dot3(q, cam->back);
}

void raster_camera_light(const raster_camera *cam, double light[3])
{
    double l[3] = {RASTER_LIGHT_X, RASTER_LIGHT_Y, RASTER_LIGHT_Z};
    double n = sqrt(dot3(l, l));
    int i;
    for (i = 0; i < 3; i++)
        light[i] = (l[0] * cam->right[i] + l[1] * cam->up[i] + l[2] * cam->back[i]) / n;
}

/* ------------------------------------------------------------------------ */
/* Clipping                                                                  */
/* ------------------------------------------------------------------------ */

/* A polygon corner in camera space: x, y, w, u, v, normal x, y, z; edge is
 * 1 when the edge from this corner to the next lies on a model edge (not
 * on a clipping plane). */
#define CLIP_VALUES 8
/* Corners a clipped triangle can have: a plane turns n corners into at most
 * n + n / 2 (3, 4, 6, 9, 13, 19), even when rounding bends the polygon. */
#define CLIP_MAX 20
#define CLIP_PLANES 5
#define CLIP_GUARD 2.0 /* the guard band: twice the picture, about its centre */

typedef struct clip_vertex {
    double a[CLIP_VALUES];
    int edge;
} clip_vertex;

/* Planes a * x + b * y + c * w + d >= 0 that a visible point satisfies. */
typedef struct clip_set {
    double plane[CLIP_PLANES][4];
} clip_set;

static void clip_planes(const raster_camera *cam, clip_set *set)
{
    double gx = CLIP_GUARD * cam->half_width, gy = CLIP_GUARD * cam->half_height;
    double sx = cam->focal * cam->shift_x, sy = cam->focal * cam->shift_y;
    double rows[CLIP_PLANES][4] = {
        {0.0, 0.0, 1.0, -cam->distance / 1000.0}, /* near */
        {cam->focal, 0.0, gx - sx, 0.0},          /* left */
        {-cam->focal, 0.0, gx + sx, 0.0},         /* right */
        {0.0, cam->focal, gy - sy, 0.0},          /* bottom */
        {0.0, -cam->focal, gy + sy, 0.0}};        /* top */
    memcpy(set->plane, rows, sizeof rows);
}

static double plane_distance(const double pl[4], const clip_vertex *v)
{
    return pl[0] * v->a[0] + pl[1] * v->a[1] + pl[2] * v->a[2] + pl[3];
}

/* The point where the edge from inside corner a to outside corner b
 * crosses the plane (always computed from the inside corner, so two
 * triangles that share the edge get the same point). */
static clip_vertex clip_cross(const clip_vertex *in, const clip_vertex *out, double din, double dout)
{
    clip_vertex r;
    double t = din / (din - dout);
    int i;
    for (i = 0; i < CLIP_VALUES; i++)
        r.a[i] = in->a[i] + t * (out->a[i] - in->a[i]);
    r.edge = 0;
    return r;
}

/* Sutherland-Hodgman against one plane: n corners of in into out. */
static int clip_polygon(const clip_vertex *in, int n, const double pl[4], clip_vertex *out)
{
    int i, m = 0;
    for (i = 0; i < n; i++) {
        const clip_vertex *a = &in[i], *b = &in[(i + 1) % n];
        double da = plane_distance(pl, a), db = plane_distance(pl, b);
        if (da >= 0.0)
            out[m++] = *a;
        if (da >= 0.0 && db < 0.0) {
            out[m++] = clip_cross(a, b, da, db); /* leaves along the plane */
        } else if (da < 0.0 && db >= 0.0) {
            out[m] = clip_cross(b, a, db, da);
            out[m++].edge = a->edge; /* comes back along a's edge */
        }
    }
    return m;
}

/* ------------------------------------------------------------------------ */
/* Shading                                                                   */
/* ------------------------------------------------------------------------ */

/* A screen triangle being shaded: per corner 1/w and the attributes over w,
 * which interpolate linearly on screen. */
typedef struct shade_ctx {
    const raster_target *target;
    const raster_shading *shading;
    double inv_w[3];
    double attr_w[3][5]; /* u, v, normal over w */
    int edge[3];         /* edge k is a model edge */
} shade_ctx;

static long wrap_texel(double coord, int size)
{
    double p = floor(coord * size);
    p -= floor(p / size) * size;
    if (!(p >= 0.0 && p < size))
        return 0;
    return (long)p;
}

const unsigned char *raster_texel(const raster_texture *tex, double u, double v)
{
    long x = wrap_texel(u, tex->width), y = wrap_texel(v, tex->height);
    return tex->rgba + ((size_t)y * (size_t)tex->width + (size_t)x) * 4;
}

static int near_model_edge(const shade_ctx *c, const raster_fragment *f)
{
    int k;
    for (k = 0; k < 3; k++) {
        if (c->edge[k] && f->edge[k] < RASTER_WIRE_WIDTH)
            return 1;
    }
    return 0;
}

/* Attribute i at the fragment, perspective-correct. */
static double attribute(const shade_ctx *c, const raster_fragment *f, int i, double inv_w)
{
    return (f->weight[0] * c->attr_w[0][i] + f->weight[1] * c->attr_w[1][i] +
            f->weight[2] * c->attr_w[2][i]) / inv_w;
}

static double intensity(const shade_ctx *c, const raster_fragment *f, double inv_w)
{
    double n[3], len, d;
    int i;
    for (i = 0; i < 3; i++)
        n[i] = attribute(c, f, 2 + i, inv_w);
    len = sqrt(dot3(n, n));
    if (!(len > 0.0))
        return RASTER_AMBIENT;
    d = dot3(n, c->shading->light) / len;
    return RASTER_AMBIENT + RASTER_DIFFUSE * (d > 0.0 ? d : 0.0);
}

static void shade_pixel(const shade_ctx *c, const raster_fragment *f, double inv_w,
                        unsigned char *px)
{
    const raster_shading *s = c->shading;
    static const unsigned char grey[4] = {RASTER_PLAIN_GREY, RASTER_PLAIN_GREY, RASTER_PLAIN_GREY,
                                          255};
    const unsigned char *texel = grey;
    double light = 1.0;
    int i;
    if (s->wireframe && !near_model_edge(c, f)) {
        memset(px, 0, 4);
        return;
    }
    if (s->skin)
        texel = raster_texel(s->skin, attribute(c, f, 0, inv_w), attribute(c, f, 1, inv_w));
    if (s->lit)
        light = intensity(c, f, inv_w);
    for (i = 0; i < 3; i++)
        px[i] = (unsigned char)(texel[i] * light + 0.5);
    px[3] = 255;
}

static void shade_plot(void *user, const raster_fragment *f)
{
    const shade_ctx *c = (const shade_ctx *)user;
    const raster_target *t = c->target;
    double inv_w = f->weight[0] * c->inv_w[0] + f->weight[1] * c->inv_w[1] +
                   f->weight[2] * c->inv_w[2];
    float depth = (float)inv_w; /* larger is nearer */
    float *z = t->depth + (size_t)f->y * (size_t)t->width + (size_t)f->x;
    if (!(depth > *z))
        return;
    *z = depth;
    shade_pixel(c, f, inv_w, t->rgba + (size_t)f->y * t->stride + (size_t)f->x * 4);
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */
/* ------------------------------------------------------------------------ */

void raster_clear(const raster_target *t)
{
    size_t i, n = (size_t)t->width * (size_t)t->height;
    for (i = 0; i < n; i++)
        t->depth[i] = 0.0f;
}

static void to_clip(const raster_camera *cam, const raster_vertex *v, clip_vertex *out)
{
    raster_camera_view(cam, v->position, out->a);
    out->a[3] = v->uv[0];
    out->a[4] = v->uv[1];
    out->a[5] = v->normal[0];
    out->a[6] = v->normal[1];
    out->a[7] = v->normal[2];
    out->edge = 1;
}

/* Screen position and the over-w attributes of corner k of a shade_ctx. */
static raster_point project(const raster_camera *cam, const clip_vertex *v, shade_ctx *c, int k)
{
    raster_point p;
    double inv_w = 1.0 / v->a[2];
    int i;
    p.x = cam->half_width + cam->focal * (v->a[0] * inv_w - cam->shift_x);
    p.y = cam->half_height - cam->focal * (v->a[1] * inv_w - cam->shift_y);
    c->inv_w[k] = inv_w;
    for (i = 0; i < 5; i++)
        c->attr_w[k][i] = v->a[3 + i] * inv_w;
    return p;
}

/* Draws the convex polygon poly[0..n) as the fan (0, i, i + 1). */
static void draw_polygon(const raster_target *t, const raster_camera *cam,
                         const raster_shading *s, const clip_vertex *poly, int n)
{
    shade_ctx c;
    raster_point p[3];
    int i;
    c.target = t;
    c.shading = s;
    for (i = 1; i + 1 < n; i++) {
        p[0] = project(cam, &poly[0], &c, 0);
        p[1] = project(cam, &poly[i], &c, 1);
        p[2] = project(cam, &poly[i + 1], &c, 2);
        c.edge[0] = i == 1 ? poly[0].edge : 0;
        c.edge[1] = poly[i].edge;
        c.edge[2] = i + 2 == n ? poly[n - 1].edge : 0;
        raster_scan(p, t->width, t->height, shade_plot, &c);
    }
}

static int inside_all(const clip_set *set, const clip_vertex *v, int n)
{
    int i, k;
    for (k = 0; k < n; k++) {
        for (i = 0; i < CLIP_PLANES; i++) {
            if (!(plane_distance(set->plane[i], &v[k]) >= 0.0))
                return 0;
        }
    }
    return 1;
}

void raster_draw(const raster_target *t, const raster_camera *cam, const raster_shading *s,
                 const raster_vertex *const v[3])
{
    clip_vertex buf[2][CLIP_MAX];
    clip_set set;
    int i, n = 3, cur = 0;
    for (i = 0; i < 3; i++)
        to_clip(cam, v[i], &buf[0][i]);
    clip_planes(cam, &set);
    if (!inside_all(&set, buf[0], 3)) {
        for (i = 0; i < CLIP_PLANES && n >= 3; i++) {
            n = clip_polygon(buf[cur], n, set.plane[i], buf[1 - cur]);
            cur = 1 - cur;
        }
    }
    if (n >= 3)
        draw_polygon(t, cam, s, buf[cur], n);
}

double raster_cost(int width, int height, const raster_camera *cam,
                   const raster_vertex *const v[3])
{
    double lo_x = 0.0, hi_x = 0.0, lo_y = 0.0, hi_y = 0.0, area = (double)width * height;
    int i;
    for (i = 0; i < 3; i++) {
        double c[3], x, y;
        raster_camera_view(cam, v[i]->position, c);
        if (!(c[2] > cam->distance / 1000.0))
            return area + RASTER_TRIANGLE_COST; /* clipped: count the whole picture */
        x = cam->half_width + cam->focal * (c[0] / c[2] - cam->shift_x);
        y = cam->half_height - cam->focal * (c[1] / c[2] - cam->shift_y);
        if (i == 0 || x < lo_x)
            lo_x = x;
        if (i == 0 || x > hi_x)
            hi_x = x;
        if (i == 0 || y < lo_y)
            lo_y = y;
        if (i == 0 || y > hi_y)
            hi_y = y;
    }
    lo_x = lo_x < 0.0 ? 0.0 : lo_x;
    lo_y = lo_y < 0.0 ? 0.0 : lo_y;
    hi_x = hi_x > width ? (double)width : hi_x;
    hi_y = hi_y > height ? (double)height : hi_y;
    if (!(hi_x > lo_x) || !(hi_y > lo_y))
        return RASTER_TRIANGLE_COST;
    /* the box's pixel rows and columns, partly covered ones included */
    return (floor(hi_x) - floor(lo_x) + 1.0) * (floor(hi_y) - floor(lo_y) + 1.0) +
           RASTER_TRIANGLE_COST;
}

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */
/* ------------------------------------------------------------------------ */

int raster_size_mul(size_t count, size_t size, size_t *out)
{
    if (size != 0 && count > SIZE_MAX / size)
        return 0;
    *out = count * size;
    return 1;
}

void *raster_alloc_array(size_t count, size_t size)
{
    size_t bytes;
    if (!raster_size_mul(count, size, &bytes))
        return NULL;
    return malloc(bytes ? bytes : 1);
}

void *raster_calloc_array(size_t count, size_t size)
{
    size_t bytes;
    if (!raster_size_mul(count, size, &bytes))
        return NULL;
    return calloc(bytes ? bytes : 1, 1);
}
