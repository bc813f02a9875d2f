/*
 * render_check: checks a picture made by `md2 render` against the model it
 * shows, for the cases of render.cases. It repeats the camera, the sheet's
 * frame spread, the texel rule and the light of the manual (docs/tool.md,
 * its "md2 render" section) from the text, in code of its own, and reads
 * the picture back with stb_image.
 *
 *   render_check MODEL PICTURE [the render's --frame, --anim, --sheet,
 *                --size, --yaw, --pitch, --wireframe, --unlit]
 *                [--convex [--skin SKIN | --plain]]
 *   render_check MODEL PICTURE [those options] --attach TAG=WEAPON... --mark RRGGBB
 *   render_check --same-pixels A.png B.png
 *
 * --attach (a render with --attach TAG=WEAPON, up to 4 of them, each WEAPON
 * drawn --unlit in the one colour RRGGBB of its flat skin, a colour the
 * body's skin has not):
 * the camera fits the box of the body's keyframes and of WEAPON's keyframe
 * box put on the tag (md2_tag_lerp() at the cell's keyframe, clamped to the
 * tag file's frames; WEAPON's keyframe the same, clamped to its last;
 * md2_attach()), as the manual says; then in every cell with a keyframe the
 * pixels of colour RRGGBB (the weapons') must exist, lie within 1.5 pixels
 * of the box of the WEAPONs' projected vertices, and come within 2 pixels of
 * the projection of the tag's origin (WEAPON's grip, its origin) and
 * within 6 of the projection of WEAPON's vertex farthest from its grip
 * (the tip: a point that thins below a pixel before it ends). The
 * other checks (the body's box) are not made then: the weapon lies outside
 * it.
 *
 * --same-pixels: the two pictures, decoded, have the same width, height
 * and RGBA bytes (so PNG files written by another libpng or zlib, whose
 * bytes differ, still compare equal); exit 0 if so, 1 if not (saying
 * where they first differ), 2 if one cannot be read.
 *
 * Every picture: its size; alpha 0 or 255 only, and transparent pixels
 * all zero; in each cell with a keyframe, opaque pixels, every one with its
 * centre inside the projection of that keyframe's bounding box, and
 * reaching within 3 pixels of the projected extremes of its vertices on all
 * four sides; cells without a keyframe fully transparent.
 * --convex (a convex model: the test cube): every pixel whose centre lies
 * inside a front-facing triangle by 0.05 pixel or more is opaque, and every
 * pixel outside all of them by as much is transparent; with --wireframe,
 * inside pixels are opaque nearer than 0.95 pixel to an edge of their
 * triangle and transparent farther than 1.05. --skin: the colour of each
 * opaque inside pixel is the texel its centre sees (the ray through it
 * meets the triangle; u = s / skinwidth picks column floor(u * width)),
 * exact when unlit, within 1 lit (texel * (0.4 + 0.6 * max(0, n . l)),
 * rounded); --plain: the same with grey 200 for every texel.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>
#include <md2/animation.h>
#include <md2/tags.h>

#include <stb/stb_image.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define NO_FRAME ((uint32_t)-1)
#define MARGIN 0.05
#define REACH 3.0
#define MAX_REPORTS 12
#define MAX_WEAPONS 4

typedef struct check_args {
    const char *model, *picture, *anim, *skin;
    long frame, cols, rows, width, height;
    double yaw, pitch;
    int wireframe, unlit, convex, plain;
    const char *attach[MAX_WEAPONS]; /* --attach TAG=WEAPON */
    int num_attach;
    unsigned long mark;          /* --mark RRGGBB */
} check_args;

/* The camera of the manual. */
typedef struct camera {
    double center[3], right[3], up[3], back[3];
    double distance, focal, sx, sy, hw, hh;
} camera;

typedef struct image {
    int w, h;
    unsigned char *rgba;
} image;

typedef struct checker {
    check_args a;
    md2_bundle *bundle;
    const md2_model *m;
    image pic, skin;
    camera cam;
    double light[3];
    float *pos, *nrm;
    md2_model *weapons[MAX_WEAPONS]; /* --attach */
    size_t tags[MAX_WEAPONS];
    long failures;
} checker;

static void fail(checker *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void fail(checker *c, const char *fmt, ...)
{
    if (c->failures++ < MAX_REPORTS) {
        va_list ap;
        fputs("render_check: ", stderr);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* ---- the camera, as the manual describes it ---------------------------- */

static void camera_fit(camera *cam, const double lo[3], const double hi[3], double yaw_deg,
                       double pitch_deg, int w, int h)
{
    double yaw = yaw_deg * PI / 180.0, pitch = pitch_deg * PI / 180.0, half[3], r;
    double x0 = 0.0, x1 = 0.0, y0 = 0.0, y1 = 0.0, fx, fy;
    int i, k;
    /* the eye direction from the centre, and right = forward x Z */
    cam->back[0] = cos(pitch) * cos(yaw);
    cam->back[1] = cos(pitch) * sin(yaw);
    cam->back[2] = sin(pitch);
    cam->right[0] = -sin(yaw);
    cam->right[1] = cos(yaw);
    cam->right[2] = 0.0;
    cross(cam->back, cam->right, cam->up);
    for (i = 0; i < 3; i++) {
        cam->center[i] = (lo[i] + hi[i]) / 2.0;
        half[i] = (hi[i] - lo[i]) / 2.0;
    }
    r = sqrt(dot(half, half));
    if (r == 0.0)
        r = 1.0;
    cam->distance = r / sin(20.0 * PI / 180.0);
    cam->hw = w / 2.0;
    cam->hh = h / 2.0;
    /* the ranges of x / w and y / w over the eight corners */
    for (k = 0; k < 8; k++) {
        double q[3], depth, x, y;
        for (i = 0; i < 3; i++)
            q[i] = (k & (1 << i)) ? half[i] : -half[i];
        depth = cam->distance - dot(q, cam->back);
        x = dot(q, cam->right) / depth;
        y = dot(q, cam->up) / depth;
        x0 = k ? fmin(x0, x) : x;
        x1 = k ? fmax(x1, x) : x;
        y0 = k ? fmin(y0, y) : y;
        y1 = k ? fmax(y1, y) : y;
    }
    cam->sx = (x0 + x1) / 2.0;
    cam->sy = (y0 + y1) / 2.0;
    fx = x1 > x0 ? w / (x1 - x0) : -1.0;
    fy = y1 > y0 ? h / (y1 - y0) : -1.0;
    if (fx < 0.0 && fy < 0.0)
        cam->focal = cam->hh / tan(20.0 * PI / 180.0);
    else
        cam->focal = 0.95 * (fx < 0.0 ? fy : fy < 0.0 ? fx : fmin(fx, fy));
}

static void project(const camera *cam, const double p[3], double *x, double *y)
{
    double q[3], w;
    int i;
    for (i = 0; i < 3; i++)
        q[i] = p[i] - cam->center[i];
    w = cam->distance - dot(q, cam->back);
    *x = cam->hw + cam->focal * (dot(q, cam->right) / w - cam->sx);
    *y = cam->hh - cam->focal * (dot(q, cam->up) / w - cam->sy);
}

/* The light: (-1, 1, 2) in camera coordinates, normalised, into model ones. */
static void camera_light(const camera *cam, double l[3])
{
    int i;
    for (i = 0; i < 3; i++)
        l[i] = (-cam->right[i] + cam->up[i] + 2.0 * cam->back[i]) / sqrt(6.0);
}

/* ---- arguments --------------------------------------------------------- */

static int parse_pair(const char *s, long *a, long *b)
{
    char tail;
    return sscanf(s, "%ldx%ld%c", a, b, &tail) == 2 && *a > 0 && *b > 0;
}

/* Options with a value; 0 for an unknown one or a bad value. */
static int parse_valued(const char *s, const char *v, check_args *a)
{
    if (strcmp(s, "--frame") == 0)
        a->frame = strtol(v, NULL, 10);
    else if (strcmp(s, "--anim") == 0)
        a->anim = v;
    else if (strcmp(s, "--skin") == 0)
        a->skin = v;
    else if (strcmp(s, "--sheet") == 0)
        return parse_pair(v, &a->cols, &a->rows);
    else if (strcmp(s, "--size") == 0)
        return parse_pair(v, &a->width, &a->height);
    else if (strcmp(s, "--yaw") == 0)
        a->yaw = strtod(v, NULL);
    else if (strcmp(s, "--pitch") == 0)
        a->pitch = strtod(v, NULL);
    else if (strcmp(s, "--attach") == 0) {
        if (a->num_attach == MAX_WEAPONS || !strchr(v, '='))
            return 0;
        a->attach[a->num_attach++] = v;
    }
    else if (strcmp(s, "--mark") == 0)
        a->mark = strtoul(v, NULL, 16);
    else
        return 0;
    return 1;
}

static int parse_args(int argc, char **argv, check_args *a)
{
    int i;
    memset(a, 0, sizeof *a);
    a->frame = -1;
    a->yaw = 30.0;
    a->pitch = 15.0;
    for (i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--wireframe") == 0)
            a->wireframe = 1;
        else if (strcmp(s, "--unlit") == 0)
            a->unlit = 1;
        else if (strcmp(s, "--convex") == 0)
            a->convex = 1;
        else if (strcmp(s, "--plain") == 0)
            a->plain = 1;
        else if (s[0] == '-') {
            if (i + 1 >= argc || !parse_valued(s, argv[i + 1], a))
                return 0;
            i++;
        } else if (!a->model)
            a->model = s;
        else if (!a->picture)
            a->picture = s;
        else
            return 0;
    }
    if (!a->width)
        a->width = a->height = a->cols ? 256 : 512;
    return a->model && a->picture && (!a->num_attach || a->mark);
}

/* ---- frames ------------------------------------------------------------- */

/* The keyframe of each cell: the manual's spread rule. */
static int cell_frames(const checker *c, uint32_t *frames, size_t cells)
{
    uint64_t first = 0, last = c->m->num_frames - 1, count;
    size_t i;
    if (c->a.anim) {
        size_t k = md2_anim_find(c->bundle->anims, c->bundle->num_anims, c->a.anim);
        if (k == MD2_ANIM_NOT_FOUND)
            return 0;
        first = c->bundle->anims[k].first;
        last = c->bundle->anims[k].last;
    }
    count = last - first + 1;
    if (!c->a.cols) {
        frames[0] = (uint32_t)(first + (uint64_t)(c->a.frame > 0 ? c->a.frame : 0));
        return 1;
    }
    for (i = 0; i < cells; i++) {
        if (count <= cells) {
            frames[i] = i < count ? (uint32_t)(first + i) : NO_FRAME;
        } else if (cells == 1) {
            frames[i] = (uint32_t)first; /* one cell: the first keyframe */
        } else {
            /* round(i * (count - 1) / (cells - 1)), halves up */
            double exact = (double)i * (double)(count - 1) / (double)(cells - 1);
            frames[i] = (uint32_t)(first + (uint64_t)floor(exact + 0.5));
        }
    }
    return 1;
}

static void frames_box(const checker *c, const uint32_t *frames, size_t cells, double lo[3],
                       double hi[3])
{
    size_t i;
    int k, any = 0;
    for (i = 0; i < cells; i++) {
        float mn[3], mx[3];
        if (frames[i] == NO_FRAME)
            continue;
        md2_frame_bounds(c->m, frames[i], mn, mx);
        for (k = 0; k < 3; k++) {
            if (!any || mn[k] < lo[k])
                lo[k] = mn[k];
            if (!any || mx[k] > hi[k])
                hi[k] = mx[k];
        }
        any = 1;
    }
}

/* ---- per-pixel checks of a convex model --------------------------------- */

typedef struct screen_tri {
    double x[3], y[3];
    double p[3][3];   /* model positions */
    size_t index;     /* the triangle */
} screen_tri;

/* Signed distance in pixels of (px, py) from edge k of t: positive inside
 * (clockwise on screen, y down). */
static double edge_distance(const screen_tri *t, int k, double px, double py)
{
    int j = (k + 1) % 3;
    double dx = t->x[j] - t->x[k], dy = t->y[j] - t->y[k];
    return (dx * (py - t->y[k]) - dy * (px - t->x[k])) / sqrt(dx * dx + dy * dy);
}

static double inside_depth(const screen_tri *t, double px, double py)
{
    double d = edge_distance(t, 0, px, py);
    int k;
    for (k = 1; k < 3; k++) {
        double e = edge_distance(t, k, px, py);
        if (e < d)
            d = e;
    }
    return d;
}

/* Barycentric weights of the point the ray through (px, py) meets t at. */
static void ray_weights(const checker *c, const screen_tri *t, double px, double py, double l[3])
{
    const camera *cam = &c->cam;
    double eye[3], dir[3], n[3], e1[3], e2[3], hit[3], v2[3], s, d00, d01, d11, d20, d21, den;
    double a = (px - cam->hw) / cam->focal + cam->sx, b = (cam->hh - py) / cam->focal + cam->sy;
    int i;
    for (i = 0; i < 3; i++) {
        eye[i] = cam->center[i] + cam->distance * cam->back[i];
        dir[i] = a * cam->right[i] + b * cam->up[i] - cam->back[i];
        e1[i] = t->p[1][i] - t->p[0][i];
        e2[i] = t->p[2][i] - t->p[0][i];
    }
    cross(e1, e2, n);
    for (i = 0; i < 3; i++)
        v2[i] = t->p[0][i] - eye[i];
    s = dot(n, v2) / dot(n, dir);
    for (i = 0; i < 3; i++) {
        hit[i] = eye[i] + s * dir[i];
        v2[i] = hit[i] - t->p[0][i];
    }
    d00 = dot(e1, e1);
    d01 = dot(e1, e2);
    d11 = dot(e2, e2);
    d20 = dot(v2, e1);
    d21 = dot(v2, e2);
    den = d00 * d11 - d01 * d01;
    l[1] = (d11 * d20 - d01 * d21) / den;
    l[2] = (d00 * d21 - d01 * d20) / den;
    l[0] = 1.0 - l[1] - l[2];
}

/* Texel index along one axis for texcoord value st of a skin of `size`
 * model pixels drawn from an image `n` wide; -1 when the point lies within
 * 0.02 texel of a texel boundary (either texel may be right). */
static long texel_index(double st, int size, int n)
{
    double x = st / size * n, f = floor(x);
    if (x - f < 0.02 || x - f > 0.98)
        return -1;
    f -= floor(f / n) * n;
    return (long)f;
}

/* The colour the pixel should have; 0 if the texel is ambiguous. */
static int expected_colour(const checker *c, const screen_tri *t, double px, double py,
                           double rgb[3])
{
    const md2_triangle *tri = &c->m->triangles[t->index];
    double l[3], s = 0.0, tt = 0.0, n[3] = {0.0, 0.0, 0.0}, light = 1.0;
    int k, i;
    ray_weights(c, t, px, py, l);
    for (k = 0; k < 3; k++) {
        s += l[k] * c->m->texcoords[tri->texcoord[k]].s;
        tt += l[k] * c->m->texcoords[tri->texcoord[k]].t;
        for (i = 0; i < 3; i++)
            n[i] += l[k] * c->nrm[tri->vertex[k] * 3 + i];
    }
    if (c->a.plain) {
        rgb[0] = rgb[1] = rgb[2] = 200.0;
    } else {
        long x = texel_index(s, c->m->skin_width, c->skin.w);
        long y = texel_index(tt, c->m->skin_height, c->skin.h);
        const unsigned char *texel;
        if (x < 0 || y < 0)
            return 0;
        texel = c->skin.rgba + ((size_t)y * (size_t)c->skin.w + (size_t)x) * 4;
        for (i = 0; i < 3; i++)
            rgb[i] = texel[i];
    }
    if (!c->a.unlit) {
        double len = sqrt(dot(n, n)), d = dot(n, c->light) / len;
        light = 0.4 + 0.6 * (d > 0.0 ? d : 0.0);
    }
    for (i = 0; i < 3; i++)
        rgb[i] = floor(rgb[i] * light + 0.5);
    return 1;
}

static void check_colour(checker *c, const screen_tri *t, int x, int y, const unsigned char *px)
{
    double rgb[3], tol = c->a.unlit ? 0.0 : 1.0;
    int i;
    if (!(c->a.skin || c->a.plain) || !expected_colour(c, t, x + 0.5, y + 0.5, rgb))
        return;
    for (i = 0; i < 3; i++) {
        if (fabs(px[i] - rgb[i]) > tol) {
            fail(c, "pixel (%d, %d) of triangle %lu is %d %d %d, expected %g %g %g", x, y,
                 (unsigned long)t->index, px[0], px[1], px[2], rgb[0], rgb[1], rgb[2]);
            return;
        }
    }
}

/* The front-facing triangles of the posed frame, on screen; returns n. */
static size_t front_triangles(const checker *c, screen_tri *out)
{
    size_t i, n = 0;
    int k, j;
    for (i = 0; i < c->m->num_triangles; i++) {
        screen_tri *t = &out[n];
        double area;
        for (k = 0; k < 3; k++) {
            for (j = 0; j < 3; j++)
                t->p[k][j] = c->pos[c->m->triangles[i].vertex[k] * 3 + j];
            project(&c->cam, t->p[k], &t->x[k], &t->y[k]);
        }
        area = (t->x[1] - t->x[0]) * (t->y[2] - t->y[0]) - (t->y[1] - t->y[0]) * (t->x[2] - t->x[0]);
        t->index = i;
        if (area > 0.0)
            n++;
    }
    return n;
}

static void check_convex_pixel(checker *c, const screen_tri *tris, size_t n, int x, int y,
                               const unsigned char *px)
{
    double cx = x + 0.5, cy = y + 0.5, best = -1e300;
    size_t i, owner = 0;
    for (i = 0; i < n; i++) {
        double d = inside_depth(&tris[i], cx, cy);
        if (d > best) {
            best = d;
            owner = i;
        }
    }
    if (best <= -MARGIN) {
        if (px[3] != 0)
            fail(c, "pixel (%d, %d) lies outside the model but is opaque", x, y);
        return;
    }
    if (best < MARGIN)
        return;
    if (c->a.wireframe) {
        const screen_tri *t = &tris[owner];
        double e = edge_distance(t, 0, cx, cy);
        int k;
        for (k = 1; k < 3; k++)
            e = fmin(e, edge_distance(t, k, cx, cy));
        if (e > 1.0 - MARGIN && e < 1.0 + MARGIN)
            return;
        if ((e < 1.0) != (px[3] == 255)) {
            fail(c, "wireframe pixel (%d, %d), %.2f pixels from an edge, is %s", x, y, e,
                 px[3] ? "opaque" : "transparent");
            return;
        }
        if (e > 1.0)
            return;
    } else if (px[3] != 255) {
        fail(c, "pixel (%d, %d) lies inside triangle %lu but is transparent", x, y,
             (unsigned long)tris[owner].index);
        return;
    }
    check_colour(c, &tris[owner], x, y, px);
}

/* ---- per cell ------------------------------------------------------------- */

static const unsigned char *pixel(const checker *c, int ox, int oy, int x, int y)
{
    return c->pic.rgba + ((size_t)(oy + y) * (size_t)c->pic.w + (size_t)(ox + x)) * 4;
}

/* Projected box of points pts[0..n) (3 doubles each) into box[4]. */
static void projected_box(const checker *c, const double *pts, size_t n, double box[4])
{
    size_t i;
    for (i = 0; i < n; i++) {
        double x, y;
        project(&c->cam, pts + 3 * i, &x, &y);
        if (i == 0 || x < box[0])
            box[0] = x;
        if (i == 0 || y < box[1])
            box[1] = y;
        if (i == 0 || x > box[2])
            box[2] = x;
        if (i == 0 || y > box[3])
            box[3] = y;
    }
}

static void frame_boxes(const checker *c, uint32_t frame, double box[4], double vbox[4])
{
    float mn[3], mx[3];
    double corners[24], p[3];
    size_t i, t;
    int k, j, any = 0;
    md2_frame_bounds(c->m, frame, mn, mx);
    for (k = 0; k < 8; k++)
        for (j = 0; j < 3; j++)
            corners[3 * k + j] = (k & (1 << j)) ? mx[j] : mn[j];
    projected_box(c, corners, 8, box);
    for (t = 0; t < c->m->num_triangles; t++) {
        for (k = 0; k < 3; k++) {
            double b[4] = {0, 0, 0, 0};
            i = c->m->triangles[t].vertex[k];
            for (j = 0; j < 3; j++)
                p[j] = c->pos[i * 3 + j];
            projected_box(c, p, 1, b);
            if (!any || b[0] < vbox[0])
                vbox[0] = b[0];
            if (!any || b[1] < vbox[1])
                vbox[1] = b[1];
            if (!any || b[2] > vbox[2])
                vbox[2] = b[2];
            if (!any || b[3] > vbox[3])
                vbox[3] = b[3];
            any = 1;
        }
    }
}

/* Pixel values: alpha 0 or 255; transparent ones all zero. Returns the
 * box of the opaque pixels' centres in seen[4] and their number. */
static long scan_cell(checker *c, int ox, int oy, double seen[4])
{
    long count = 0;
    int x, y;
    for (y = 0; y < c->a.height; y++) {
        for (x = 0; x < c->a.width; x++) {
            const unsigned char *px = pixel(c, ox, oy, x, y);
            if (px[3] != 0 && px[3] != 255)
                fail(c, "pixel (%d, %d) has alpha %d", ox + x, oy + y, px[3]);
            if (px[3] == 0 && (px[0] || px[1] || px[2]))
                fail(c, "transparent pixel (%d, %d) is not all zero", ox + x, oy + y);
            if (px[3] == 0)
                continue;
            if (count == 0 || x + 0.5 < seen[0])
                seen[0] = x + 0.5;
            if (count == 0 || y + 0.5 < seen[1])
                seen[1] = y + 0.5;
            if (count == 0 || x + 0.5 > seen[2])
                seen[2] = x + 0.5;
            if (count == 0 || y + 0.5 > seen[3])
                seen[3] = y + 0.5;
            count++;
        }
    }
    return count;
}

static void check_boxes(checker *c, size_t cell, const double seen[4], const double box[4],
                        const double vbox[4])
{
    const double eps = 0.01;
    if (seen[0] < box[0] - eps || seen[1] < box[1] - eps || seen[2] > box[2] + eps ||
        seen[3] > box[3] + eps)
        fail(c, "cell %lu: opaque pixels span %.1f %.1f %.1f %.1f, outside the projected box "
             "%.2f %.2f %.2f %.2f", (unsigned long)cell, seen[0], seen[1], seen[2], seen[3],
             box[0], box[1], box[2], box[3]);
    if (seen[0] > vbox[0] + REACH || seen[1] > vbox[1] + REACH || seen[2] < vbox[2] - REACH ||
        seen[3] < vbox[3] - REACH)
        fail(c, "cell %lu: opaque pixels span %.1f %.1f %.1f %.1f, short of the projected "
             "vertices %.2f %.2f %.2f %.2f", (unsigned long)cell, seen[0], seen[1], seen[2],
             seen[3], vbox[0], vbox[1], vbox[2], vbox[3]);
}

static void check_convex(checker *c, int ox, int oy)
{
    screen_tri *tris = (screen_tri *)malloc((c->m->num_triangles + 1) * sizeof *tris);
    size_t n;
    int x, y;
    if (!tris) {
        fail(c, "out of memory");
        return;
    }
    n = front_triangles(c, tris);
    for (y = 0; y < c->a.height; y++)
        for (x = 0; x < c->a.width; x++)
            check_convex_pixel(c, tris, n, x, y, pixel(c, ox, oy, x, y));
    free(tris);
}

static void check_cell(checker *c, size_t cell, uint32_t frame)
{
    int ox = (int)(cell % (size_t)(c->a.cols ? c->a.cols : 1)) * (int)c->a.width;
    int oy = (int)(cell / (size_t)(c->a.cols ? c->a.cols : 1)) * (int)c->a.height;
    double seen[4] = {0, 0, 0, 0}, box[4] = {0, 0, 0, 0}, vbox[4] = {0, 0, 0, 0};
    long count = scan_cell(c, ox, oy, seen);
    if (frame == NO_FRAME) {
        if (count)
            fail(c, "cell %lu has no keyframe but %ld opaque pixels", (unsigned long)cell, count);
        printf("cell %lu: empty\n", (unsigned long)cell);
        return;
    }
    md2_decode_frame(c->m, frame, c->pos, 0, c->nrm, 0);
    frame_boxes(c, frame, box, vbox);
    printf("cell %lu: keyframe %lu, %ld opaque pixels, box %.1f %.1f %.1f %.1f\n",
           (unsigned long)cell, (unsigned long)frame, count, box[0], box[1], box[2], box[3]);
    if (count == 0 || c->m->num_triangles == 0) {
        if (count == 0 && c->m->num_triangles)
            fail(c, "cell %lu (keyframe %lu) is empty", (unsigned long)cell, (unsigned long)frame);
        if (count && c->m->num_triangles == 0)
            fail(c, "cell %lu: a model without triangles drew %ld pixels", (unsigned long)cell,
                 count);
        return;
    }
    check_boxes(c, cell, seen, box, vbox);
    if (c->a.convex)
        check_convex(c, ox, oy);
}

/* ---- --attach: the weapon on its tag ------------------------------------- */

/* Weapon w's keyframe and transform when the body shows `frame`. */
static uint32_t weapon_matrix(const checker *c, int w, uint32_t frame, float matrix[16])
{
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const md2_tags *tags = c->bundle->tags;
    const md2_model *m = c->weapons[w];
    uint32_t f = frame < tags->num_frames ? frame : (uint32_t)(tags->num_frames - 1);
    float tag[16];
    md2_tag_lerp(tags, c->tags[w], f, f, 0.0f, tag);
    md2_attach(identity, tag, matrix);
    return frame < m->num_frames ? frame : (uint32_t)(m->num_frames - 1);
}

static void transform(const float m[16], const double p[3], double out[3])
{
    int i;
    for (i = 0; i < 3; i++)
        out[i] = m[i] * p[0] + m[4 + i] * p[1] + m[8 + i] * p[2] + m[12 + i];
}

/* The body's box grown by the weapons', on their tags, in every cell. */
static void weapon_boxes(const checker *c, const uint32_t *frames, size_t cells, double lo[3],
                         double hi[3])
{
    size_t i;
    int k, j, w;
    for (i = 0; i < cells; i++) {
        for (w = 0; w < c->a.num_attach && frames[i] != NO_FRAME; w++) {
            float mn[3], mx[3], m[16];
            uint32_t f = weapon_matrix(c, w, frames[i], m);
            md2_frame_bounds(c->weapons[w], f, mn, mx);
            for (k = 0; k < 8; k++) {
                double p[3], q[3];
                for (j = 0; j < 3; j++)
                    p[j] = (k & (1 << j)) ? mx[j] : mn[j];
                transform(m, p, q);
                for (j = 0; j < 3; j++) {
                    lo[j] = fmin(lo[j], q[j]);
                    hi[j] = fmax(hi[j], q[j]);
                }
            }
        }
    }
}

static int is_mark(const checker *c, const unsigned char *q)
{
    return q[3] == 255 &&
           ((unsigned long)q[0] << 16 | (unsigned long)q[1] << 8 | q[2]) == c->a.mark;
}

/* Distance from (x, y) to the nearest marked pixel's centre in the cell. */
static double nearest_mark(const checker *c, int ox, int oy, double x, double y)
{
    double best = 1e300;
    int px, py;
    for (py = 0; py < c->a.height; py++)
        for (px = 0; px < c->a.width; px++) {
            double dx = px + 0.5 - x, dy = py + 0.5 - y;
            if (is_mark(c, pixel(c, ox, oy, px, py)))
                best = fmin(best, sqrt(dx * dx + dy * dy));
        }
    return best;
}

/* Weapon w in the cell at (ox, oy) showing the body's keyframe `frame`:
 * its grip checked, its projected vertices' box grown into box. */
static void check_weapon(checker *c, int w, size_t cell, uint32_t frame, int ox, int oy,
                         double box[4])
{
    const md2_model *wm = c->weapons[w];
    float m[16], *pos;
    double grip[2], tip[2] = {0, 0}, far = -1.0, dgrip, dtip, p[3], q[3];
    uint32_t wf = weapon_matrix(c, w, frame, m);
    size_t i;
    int k;
    pos = (float *)malloc(wm->num_vertices * 3 * sizeof *pos);
    if (!pos) {
        fail(c, "out of memory");
        return;
    }
    md2_decode_frame(wm, wf, pos, 0, NULL, 0);
    p[0] = p[1] = p[2] = 0.0;
    transform(m, p, q);
    project(&c->cam, q, &grip[0], &grip[1]);
    for (i = 0; i < wm->num_vertices; i++) {
        double sx, sy, d;
        for (k = 0; k < 3; k++)
            p[k] = pos[3 * i + (size_t)k];
        d = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        transform(m, p, q);
        project(&c->cam, q, &sx, &sy);
        box[0] = fmin(box[0], sx);
        box[1] = fmin(box[1], sy);
        box[2] = fmax(box[2], sx);
        box[3] = fmax(box[3], sy);
        if (d > far) {
            far = d;
            tip[0] = sx;
            tip[1] = sy;
        }
    }
    free(pos);
    dgrip = nearest_mark(c, ox, oy, grip[0], grip[1]);
    dtip = nearest_mark(c, ox, oy, tip[0], tip[1]);
    printf("cell %lu: weapon %d, keyframe %lu: grip at %.2f %.2f (nearest weapon pixel %.2f "
           "away), tip at %.2f %.2f (%.2f away)\n", (unsigned long)cell, w, (unsigned long)wf,
           grip[0], grip[1], dgrip, tip[0], tip[1], dtip);
    if (dgrip > 2.0)
        fail(c, "cell %lu: the nearest pixel of weapon %d is %.2f pixels from the tag's origin",
             (unsigned long)cell, w, dgrip);
    if (dtip > 6.0)
        fail(c, "cell %lu: the nearest pixel of weapon %d is %.2f pixels from its tip",
             (unsigned long)cell, w, dtip);
}

static void check_attach_cell(checker *c, size_t cell, uint32_t frame)
{
    int ox = (int)(cell % (size_t)(c->a.cols ? c->a.cols : 1)) * (int)c->a.width;
    int oy = (int)(cell / (size_t)(c->a.cols ? c->a.cols : 1)) * (int)c->a.height;
    double box[4] = {1e300, 1e300, -1e300, -1e300}, seen[4] = {1e300, 1e300, -1e300, -1e300};
    long count = 0;
    int x, y, w;
    if (frame == NO_FRAME)
        return;
    for (y = 0; y < c->a.height; y++)
        for (x = 0; x < c->a.width; x++) {
            if (!is_mark(c, pixel(c, ox, oy, x, y)))
                continue;
            count++;
            seen[0] = fmin(seen[0], x + 0.5);
            seen[1] = fmin(seen[1], y + 0.5);
            seen[2] = fmax(seen[2], x + 0.5);
            seen[3] = fmax(seen[3], y + 0.5);
        }
    printf("cell %lu: keyframe %lu, %ld weapon pixels\n", (unsigned long)cell,
           (unsigned long)frame, count);
    if (count == 0) {
        fail(c, "cell %lu (keyframe %lu): no pixel has the weapon's colour %06lx",
             (unsigned long)cell, (unsigned long)frame, c->a.mark);
        return;
    }
    for (w = 0; w < c->a.num_attach; w++)
        check_weapon(c, w, cell, frame, ox, oy, box);
    if (seen[0] < box[0] - 1.5 || seen[1] < box[1] - 1.5 || seen[2] > box[2] + 1.5 ||
        seen[3] > box[3] + 1.5)
        fail(c, "cell %lu: the weapon pixels span %.1f %.1f %.1f %.1f, outside the projected "
             "weapon vertices %.2f %.2f %.2f %.2f", (unsigned long)cell, seen[0], seen[1],
             seen[2], seen[3], box[0], box[1], box[2], box[3]);
}

/* Loads --attach's weapons and finds their tags; 0 after saying why. */
static int load_weapons(checker *c)
{
    int w;
    for (w = 0; w < c->a.num_attach; w++) {
        char name[MD2_TAG_NAME_SIZE + 1];
        const char *eq = strchr(c->a.attach[w], '=');
        size_t len = (size_t)(eq - c->a.attach[w]);
        md2_options opts;
        md2_diagnostic diag;
        if (!c->bundle->tags || len >= sizeof name) {
            fprintf(stderr, "render_check: %s has no tags (or that tag name is too long)\n",
                    c->a.model);
            return 0;
        }
        memcpy(name, c->a.attach[w], len);
        name[len] = '\0';
        c->tags[w] = md2_tags_find(c->bundle->tags, name);
        if (c->tags[w] == MD2_TAG_NOT_FOUND) {
            fprintf(stderr, "render_check: no tag %s\n", name);
            return 0;
        }
        memset(&opts, 0, sizeof opts);
        opts.error = &diag;
        if (md2_load_file(eq + 1, &opts, &c->weapons[w]) != MD2_OK) {
            fprintf(stderr, "render_check: %s\n", diag.message);
            return 0;
        }
    }
    return 1;
}

/* ---- main --------------------------------------------------------------- */

static int load(checker *c)
{
    md2_options opts;
    md2_diagnostic diag;
    int n;
    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    if (md2_bundle_load_file(c->a.model, &opts, &c->bundle) != MD2_OK) {
        fprintf(stderr, "render_check: %s\n", diag.message);
        return 0;
    }
    c->m = c->bundle->model;
    c->pic.rgba = stbi_load(c->a.picture, &c->pic.w, &c->pic.h, &n, 4);
    if (!c->pic.rgba) {
        fprintf(stderr, "render_check: cannot read %s: %s\n", c->a.picture, stbi_failure_reason());
        return 0;
    }
    if (c->a.skin) {
        c->skin.rgba = stbi_load(c->a.skin, &c->skin.w, &c->skin.h, &n, 4);
        if (!c->skin.rgba) {
            fprintf(stderr, "render_check: cannot read %s\n", c->a.skin);
            return 0;
        }
    }
    if (!load_weapons(c))
        return 0;
    c->pos = (float *)malloc(c->m->num_vertices * 3 * sizeof(float));
    c->nrm = (float *)malloc(c->m->num_vertices * 3 * sizeof(float));
    return c->pos && c->nrm;
}

static int run(checker *c)
{
    size_t cells = c->a.cols ? (size_t)(c->a.cols * c->a.rows) : 1, i;
    uint32_t *frames;
    double lo[3], hi[3];
    long w = (c->a.cols ? c->a.cols : 1) * c->a.width, h = (c->a.rows ? c->a.rows : 1) * c->a.height;
    if (c->pic.w != w || c->pic.h != h) {
        fail(c, "the picture is %dx%d, expected %ldx%ld", c->pic.w, c->pic.h, w, h);
        return 0;
    }
    frames = (uint32_t *)malloc(cells * sizeof *frames);
    if (!frames || !cell_frames(c, frames, cells)) {
        free(frames);
        fprintf(stderr, "render_check: no frames (unknown animation?)\n");
        return 0;
    }
    frames_box(c, frames, cells, lo, hi);
    weapon_boxes(c, frames, cells, lo, hi);
    camera_fit(&c->cam, lo, hi, c->a.yaw, c->a.pitch, (int)c->a.width, (int)c->a.height);
    camera_light(&c->cam, c->light);
    for (i = 0; i < cells; i++) {
        if (c->a.num_attach)
            check_attach_cell(c, i, frames[i]);
        else
            check_cell(c, i, frames[i]);
    }
    free(frames);
    return c->failures == 0;
}

/* ---- --same-pixels ---------------------------------------------------------- */

static int same_pixels(const char *a_path, const char *b_path)
{
    image a, b;
    int n, status = 2;
    size_t i, size, differ = 0, first = 0;
    a.rgba = stbi_load(a_path, &a.w, &a.h, &n, 4);
    b.rgba = a.rgba ? stbi_load(b_path, &b.w, &b.h, &n, 4) : NULL;
    if (!a.rgba || !b.rgba) {
        fprintf(stderr, "render_check: cannot read %s: %s\n", a.rgba ? b_path : a_path,
                stbi_failure_reason());
    } else if (a.w != b.w || a.h != b.h) {
        fprintf(stderr, "render_check: the pictures differ: %s is %dx%d, %s is %dx%d\n", a_path,
                a.w, a.h, b_path, b.w, b.h);
        status = 1;
    } else {
        size = (size_t)a.w * (size_t)a.h;
        for (i = 0; i < size; i++) {
            if (memcmp(a.rgba + 4 * i, b.rgba + 4 * i, 4) != 0 && differ++ == 0)
                first = i;
        }
        if (differ) {
            const unsigned char *p = a.rgba + 4 * first, *q = b.rgba + 4 * first;
            fprintf(stderr, "render_check: the pictures differ: %lu of %lu pixels, the first "
                            "at (%lu, %lu): %d %d %d %d in %s, %d %d %d %d in %s\n",
                    (unsigned long)differ, (unsigned long)size, (unsigned long)(first % (size_t)a.w),
                    (unsigned long)(first / (size_t)a.w), p[0], p[1], p[2], p[3], a_path, q[0],
                    q[1], q[2], q[3], b_path);
            status = 1;
        } else {
            printf("render_check: %s and %s have the same %dx%d pixels\n", a_path, b_path, a.w,
                   a.h);
            status = 0;
        }
    }
    stbi_image_free(a.rgba);
    stbi_image_free(b.rgba);
    return status;
}

int main(int argc, char **argv)
{
    checker c;
    int ok, ok_w;
    if (argc >= 2 && strcmp(argv[1], "--same-pixels") == 0) {
        if (argc != 4) {
            fprintf(stderr, "usage: render_check --same-pixels A.png B.png\n");
            return 2;
        }
        return same_pixels(argv[2], argv[3]);
    }
    memset(&c, 0, sizeof c);
    if (!parse_args(argc, argv, &c.a)) {
        fprintf(stderr, "usage: render_check MODEL PICTURE [render options] "
                        "[--convex [--skin SKIN | --plain]]\n"
                        "       render_check MODEL PICTURE [render options] --attach TAG=WEAPON "
                        "--mark RRGGBB\n"
                        "       render_check --same-pixels A.png B.png\n");
        return 2;
    }
    ok = load(&c) && run(&c);
    if (c.failures > MAX_REPORTS)
        fprintf(stderr, "render_check: ... %ld failures in all\n", c.failures);
    if (ok)
        printf("render_check: %s is right\n", c.a.picture);
    free(c.pos);
    free(c.nrm);
    stbi_image_free(c.skin.rgba);
    stbi_image_free(c.pic.rgba);
    md2_bundle_free(c.bundle);
    for (ok_w = 0; ok_w < c.a.num_attach; ok_w++)
        md2_free(c.weapons[ok_w]);
    return ok ? 0 : 1;
}
