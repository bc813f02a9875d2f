/*
 * md2 render: the software rasterizer behind `md2 render` (raster.c):
 * the fitted camera, triangle scan conversion with exact fixed-point edge
 * functions and the top-left fill rule, clipping, a depth buffer,
 * perspective-correct nearest-texel texturing, Lambert lighting and the
 * visible-line wireframe. docs/tool.md (its "md2 render" section)
 * documents the conventions; render_raster_test.c tests them one by one.
 *
 * Everything is double precision, single-threaded and free of global
 * state: the same input gives the same pixels, bit for bit.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_RENDER_RASTER_H
#define MD2_RENDER_RASTER_H

#include <stddef.h>

/* Fixed-point steps a pixel: screen positions are rounded to 1/256 pixel
 * before the edge functions are evaluated (exactly, in 64-bit integers). */
#define RASTER_SUBPIXEL 256
/* raster_scan() refuses corners farther than this from the origin (pixels). */
#define RASTER_MAX_COORD 1048576.0

/* Half the camera's field of view, in degrees, that the bounding sphere of
 * the box fills: it sets the distance of the eye, and so the perspective. */
#define RASTER_HALF_FOV_DEGREES 20.0
/* The part of the picture the box's corners fill in the tighter direction. */
#define RASTER_FILL 0.95

/* Light: ambient + diffuse * max(0, n . l), with l the direction towards
 * the light in camera coordinates (x right, y up, z towards the viewer),
 * normalised: from the upper left, behind the viewer. */
#define RASTER_AMBIENT 0.4
#define RASTER_DIFFUSE 0.6
#define RASTER_LIGHT_X (-1.0)
#define RASTER_LIGHT_Y 1.0
#define RASTER_LIGHT_Z 2.0

/* Wireframe: a pixel is drawn when its centre lies within this many pixels
 * of an edge of the triangle it shows. */
#define RASTER_WIRE_WIDTH 1.0

/* The colour of a model without a skin (red, green, blue). */
#define RASTER_PLAIN_GREY 200

/* ------------------------------------------------------------------------ */
/* Scan conversion                                                           */
/* ------------------------------------------------------------------------ */

/* A point on screen in pixels: x to the right, y down; pixel (i, j)
 * covers [i, i + 1) x [j, j + 1) and is sampled at its centre. */
typedef struct raster_point {
    double x, y;
} raster_point;

/* One pixel a triangle covers, as raster_scan() gives it. */
typedef struct raster_fragment {
    int x, y;         /* the pixel */
    double weight[3]; /* barycentric weights of corners 0, 1, 2 at its centre */
    double edge[3];   /* distance in pixels of its centre from edge k (corner k to k + 1) */
} raster_fragment;

typedef void (*raster_plot_fn)(void *user, const raster_fragment *f);

/* Calls plot once for every pixel of [0, width) x [0, height) whose centre
 * lies inside the triangle p[0], p[1], p[2], if the corners run clockwise
 * on screen (y down); returns 1 then, 0 for a triangle that is culled
 * (counter-clockwise or without area) or has a corner that is not finite or
 * farther than RASTER_MAX_COORD. Corners are rounded to 1/RASTER_SUBPIXEL
 * of a pixel; a centre exactly on an edge belongs to the triangle when the
 * edge is a top edge (horizontal, the triangle below it) or a left edge,
 * so triangles that share an edge never both draw, nor both miss, a pixel. */
int raster_scan(const raster_point p[3], int width, int height, raster_plot_fn plot, void *user);

/* ------------------------------------------------------------------------ */
/* Camera                                                                    */
/* ------------------------------------------------------------------------ */

/* A perspective camera that looks at the centre of a box. Camera
 * coordinates of a point p: x = (p - center) . right, y = (p - center) . up,
 * z = (p - center) . back; its depth in front of the eye is
 * w = distance - z, and it lands on pixel position
 * (width / 2 + focal * (x / w - shift_x), height / 2 - focal * (y / w - shift_y)). */
typedef struct raster_camera {
    double center[3];
    double right[3], up[3], back[3]; /* unit vectors; back points to the eye */
    double distance;                 /* from the centre to the eye */
    double focal;                    /* pixels a unit of x / w spans */
    double shift_x, shift_y;         /* the x / w and y / w at the picture's centre */
    double half_width, half_height;  /* width / 2, height / 2 */
} raster_camera;

/* Fits a camera to the box lo..hi for a picture of width x height: the eye
 * looks at the box centre from yaw_degrees about +Z (0: from +X, the
 * model's front; 90: from +Y, its left) and pitch_degrees above (in
 * (-90, 90)), at the distance r / sin(RASTER_HALF_FOV_DEGREES) where r is
 * half the box's diagonal (1 for a box of one point). The eight corners'
 * x / w span [x0, x1] and their y / w [y0, y1]: shift_x and shift_y are
 * the middles of those ranges (so the box's projection is centred in the
 * picture), and focal = RASTER_FILL * min(width / (x1 - x0),
 * height / (y1 - y0)) (so it fills that much of the picture in the
 * tighter direction; a range of zero length sets no bound, and a box of
 * one point gets height / 2 / tan(RASTER_HALF_FOV_DEGREES)). */
void raster_camera_fit(raster_camera *cam, const double lo[3], const double hi[3],
                       double yaw_degrees, double pitch_degrees, int width, int height);

/* Camera coordinates x, y and depth w of point p into out[3]. */
void raster_camera_view(const raster_camera *cam, const double p[3], double out[3]);

/* The direction towards the light in model coordinates (unit length). */
void raster_camera_light(const raster_camera *cam, double light[3]);

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */
/* ------------------------------------------------------------------------ */

/* An RGBA image, 4 bytes a pixel, rows from the top down. */
typedef struct raster_texture {
    const unsigned char *rgba;
    int width, height;
} raster_texture;

/* Where a picture goes: width x height pixels starting at rgba (a cell of
 * a larger image whose rows are stride bytes apart), and its depth buffer
 * of width * height floats (raster_clear() resets it). */
typedef struct raster_target {
    unsigned char *rgba;
    size_t stride;
    float *depth;
    int width, height;
} raster_target;

/* How triangles are coloured. */
typedef struct raster_shading {
    const raster_texture *skin; /* NULL: RASTER_PLAIN_GREY */
    int lit;                    /* 0: the texel as it is */
    int wireframe;              /* 1: only pixels near a triangle edge; the rest transparent */
    double light[3];            /* raster_camera_light() */
} raster_shading;

/* A triangle corner in model coordinates. */
typedef struct raster_vertex {
    double position[3];
    double uv[2];     /* u = s / skinwidth, v = t / skinheight (v = 0: top row) */
    double normal[3]; /* unit length or nearly */
} raster_vertex;

/* Empties the depth buffer (the colours are left as they are). */
void raster_clear(const raster_target *t);

/* Draws the triangle v[0], v[1], v[2] (clockwise from outside: the other
 * side is culled) through the depth buffer: clipped against the plane at
 * depth distance / 1000 and a guard band of twice the picture, rounded as
 * raster_scan() says, each pixel kept when it is nearer than what the cell
 * holds (ties: the first triangle drawn). */
void raster_draw(const raster_target *t, const raster_camera *cam, const raster_shading *s,
                 const raster_vertex *const v[3]);

/* What a triangle costs raster_draw() beside its box: setting it up. */
#define RASTER_TRIANGLE_COST 16.0

/* The work of drawing triangle v into a picture of width x height, in
 * pixels tested: the pixels of its box on screen, clipped to the picture,
 * plus RASTER_TRIANGLE_COST (a triangle that reaches behind the near plane
 * counts the whole picture). Back faces count as well: an upper bound, for
 * a budget checked before drawing. */
double raster_cost(int width, int height, const raster_camera *cam,
                   const raster_vertex *const v[3]);

/* The texel of tex at (u, v): column floor(u * width), row
 * floor(v * height), both wrapped around (the skin repeats). */
const unsigned char *raster_texel(const raster_texture *tex, double u, double v);

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */
/* ------------------------------------------------------------------------ */

/* Every buffer `md2 render` allocates is an array of count elements of the
 * size that one element really takes, sized through these. */

/* count * size into *out, and 1; 0 (*out left alone) when the product is
 * larger than SIZE_MAX. */
int raster_size_mul(size_t count, size_t size, size_t *out);

/* malloc() of count * size bytes (at least 1, so NULL means failure), or
 * NULL without allocating anything when count * size is larger than
 * SIZE_MAX. raster_calloc_array(): the same, zero-filled. */
void *raster_alloc_array(size_t count, size_t size);
void *raster_calloc_array(size_t count, size_t size);

#endif /* MD2_RENDER_RASTER_H */
