/*
 * render_make_cube: test models for `md2 render` (render.cases).
 *
 *   render_make_cube DIR
 *       writes DIR/cube.md2 and its skin DIR/skin.png: a cube of 24
 *       vertices (four a face, so each face has its own normal and its own
 *       texcoords) and 12 triangles, clockwise from outside, with five
 *       keyframes grow1..grow5 (animation "grow") whose half sizes are 8,
 *       10, 12, 14 and 16 units about the origin. The skin is 48 x 32
 *       pixels: a 3 x 2 grid of 16 x 16 regions, one a face (+X, -X, +Y, -Y,
 *       +Z, -Z in that order, left to right, then the next row). Each region
 *       is 4 x 4 squares of 4 x 4 texels, and every square of the skin has
 *       a colour of its own: the face's channels (+X red, -X green, +Y blue,
 *       -Y red + green, +Z red + blue, -Z green + blue) are
 *       95 + 10 * (4 * row + column) and the others 0, or 60 in the odd
 *       squares of the checkerboard. A face shows its region upright and
 *       unmirrored seen from outside (+Z: with +X at the bottom, -Z: with
 *       +X at the top). The skin name is "models/cube/skin.png".
 *       Also DIR/skin_2x.png: the same skin at twice the size (96 x 64),
 *       with alpha 100 everywhere.
 *   render_make_cube --model-only DIR
 *       writes DIR/cube.md2 alone (a model without its skin).
 *   render_make_cube --empty DIR
 *       writes DIR/cube.md2 without triangles (its vertices alone).
 *   render_make_cube --broken-skin DIR
 *       writes DIR/cube.md2 and a DIR/skin.png that is not an image.
 *   render_make_cube --flat-skin DIR
 *       writes DIR/skin.png alone: 8 x 8 pixels all of colour ff00ff
 *       (FLAT_COLOUR), which neither the cube's skin nor the crystal's has
 *       (the weapon of the --attach cases, found by its colour).
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>

#include <stb/stb_image_write.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLAT_COLOUR 0xff00ffUL
#define CUBE_FRAMES 5
#define CUBE_VERTICES 24
#define CUBE_TRIANGLES 12
#define SKIN_W 48
#define SKIN_H 32
#define REGION 16

/* A face: outward normal, the directions of its skin's right and down. */
typedef struct cube_face {
    int normal[3], right[3], down[3];
    unsigned char channels[3]; /* 1: the face's colour uses this channel */
} cube_face;

static const cube_face faces[6] = {
    {{1, 0, 0}, {0, 1, 0}, {0, 0, -1}, {1, 0, 0}},
    {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}, {0, 1, 0}},
    {{0, 1, 0}, {-1, 0, 0}, {0, 0, -1}, {0, 0, 1}},
    {{0, -1, 0}, {1, 0, 0}, {0, 0, -1}, {1, 1, 0}},
    {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {1, 0, 1}},
    {{0, 0, -1}, {0, 1, 0}, {-1, 0, 0}, {0, 1, 1}},
};

/* The index of the table normal equal to n (every axis is in the table). */
static unsigned normal_index(const int n[3])
{
    unsigned i;
    for (i = 0; i < MD2_NUM_NORMALS; i++) {
        const float *t = md2_normal(i);
        if (t[0] == (float)n[0] && t[1] == (float)n[1] && t[2] == (float)n[2])
            return i;
    }
    return MD2_NORMAL_FALLBACK;
}

/* Byte coordinate of corner sign (-1 or 1) for half size h: the frames
 * decode as 0.25 * v - 16, so v = 64 + 4 * sign * h. */
static uint8_t coordinate(int sign, int h)
{
    return (uint8_t)(64 + 4 * sign * h);
}

/* Corner k (0 top left, 1 top right, 2 bottom right, 3 bottom left, as the
 * face is seen from outside) of face f at half size h. */
static void corner(const cube_face *f, int k, int h, md2_vertex *out)
{
    int a = (k == 1 || k == 2) ? 1 : -1, b = (k >= 2) ? 1 : -1, i;
    for (i = 0; i < 3; i++)
        out->v[i] = coordinate(f->normal[i] + a * f->right[i] + b * f->down[i], h);
    out->normal = (uint8_t)normal_index(f->normal);
}

static void fill_geometry(md2_texcoord *st, md2_triangle *tris, md2_vertex verts[][CUBE_VERTICES])
{
    int f, k, frame;
    for (f = 0; f < 6; f++) {
        int ox = (f % 3) * REGION, oy = (f / 3) * REGION;
        for (k = 0; k < 4; k++) {
            st[4 * f + k].s = (int16_t)(ox + ((k == 1 || k == 2) ? REGION : 0));
            st[4 * f + k].t = (int16_t)(oy + (k >= 2 ? REGION : 0));
            for (frame = 0; frame < CUBE_FRAMES; frame++)
                corner(&faces[f], k, 8 + 2 * frame, &verts[frame][4 * f + k]);
        }
        /* clockwise from outside: top left, top right, bottom right; top
         * left, bottom right, bottom left */
        for (k = 0; k < 3; k++) {
            static const int order[2][3] = {{0, 1, 2}, {0, 2, 3}};
            tris[2 * f].vertex[k] = tris[2 * f].texcoord[k] = (uint16_t)(4 * f + order[0][k]);
            tris[2 * f + 1].vertex[k] = tris[2 * f + 1].texcoord[k] =
                (uint16_t)(4 * f + order[1][k]);
        }
    }
}

static int write_model(const char *path, int with_triangles)
{
    md2_vertex verts[CUBE_FRAMES][CUBE_VERTICES];
    md2_texcoord st[CUBE_VERTICES];
    md2_triangle tris[CUBE_TRIANGLES];
    md2_frame frames[CUBE_FRAMES];
    md2_skin skin;
    md2_model m;
    md2_diagnostic diag;
    unsigned char *buf;
    size_t size, written;
    int i, ok;
    FILE *f;
    memset(&m, 0, sizeof m);
    memset(frames, 0, sizeof frames);
    memset(&skin, 0, sizeof skin);
    strcpy(skin.name, "models/cube/skin.png");
    fill_geometry(st, tris, verts);
    for (i = 0; i < CUBE_FRAMES; i++) {
        frames[i].scale[0] = frames[i].scale[1] = frames[i].scale[2] = 0.25f;
        frames[i].translate[0] = frames[i].translate[1] = frames[i].translate[2] = -16.0f;
        sprintf(frames[i].name, "grow%d", i + 1);
        frames[i].vertices = verts[i];
    }
    m.skin_width = SKIN_W;
    m.skin_height = SKIN_H;
    m.num_skins = 1;
    m.skins = &skin;
    m.num_vertices = CUBE_VERTICES;
    m.num_texcoords = CUBE_VERTICES;
    m.texcoords = st;
    m.num_triangles = with_triangles ? CUBE_TRIANGLES : 0;
    m.triangles = with_triangles ? tris : NULL;
    m.num_frames = CUBE_FRAMES;
    m.frames = frames;
    size = md2_write_size(&m);
    buf = (unsigned char *)malloc(size ? size : 1);
    if (!buf || md2_write(&m, buf, size, &written, &diag) != MD2_OK) {
        fprintf(stderr, "render_make_cube: %s\n", buf ? diag.message : "out of memory");
        free(buf);
        return 0;
    }
    f = fopen(path, "wb");
    ok = f && fwrite(buf, 1, written, f) == written;
    if (f && fclose(f) != 0)
        ok = 0;
    free(buf);
    if (!ok)
        fprintf(stderr, "render_make_cube: cannot write %s\n", path);
    return ok;
}

static void square_colour(int face, int col, int row, unsigned char rgba[4])
{
    int c;
    for (c = 0; c < 3; c++) {
        if (faces[face].channels[c])
            rgba[c] = (unsigned char)(95 + 10 * (4 * row + col));
        else
            rgba[c] = (unsigned char)(((col + row) & 1) ? 60 : 0);
    }
    rgba[3] = 255;
}

/* The skin at `scale` texels a skin pixel, with alpha `alpha`. */
static int write_skin(const char *path, int scale, unsigned char alpha)
{
    int x, y, w = SKIN_W * scale, h = SKIN_H * scale, ok;
    unsigned char *rgba = (unsigned char *)malloc((size_t)w * (size_t)h * 4);
    if (!rgba) {
        fprintf(stderr, "render_make_cube: out of memory\n");
        return 0;
    }
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            int sx = x / scale, sy = y / scale, face = (sy / REGION) * 3 + sx / REGION;
            unsigned char *px = rgba + (y * w + x) * 4;
            square_colour(face, (sx % REGION) / 4, (sy % REGION) / 4, px);
            px[3] = alpha;
        }
    }
    ok = stbi_write_png(path, w, h, 4, rgba, w * 4) != 0;
    free(rgba);
    if (!ok)
        fprintf(stderr, "render_make_cube: cannot write %s\n", path);
    return ok;
}

/* An 8 x 8 skin all of FLAT_COLOUR, for a model whose pixels a test finds
 * by their colour (render.cases: the weapon of --attach). */
static int write_flat(const char *path)
{
    unsigned char rgba[8 * 8 * 4];
    int i;
    for (i = 0; i < 8 * 8; i++) {
        rgba[4 * i] = (unsigned char)(FLAT_COLOUR >> 16);
        rgba[4 * i + 1] = (unsigned char)(FLAT_COLOUR >> 8 & 0xff);
        rgba[4 * i + 2] = (unsigned char)(FLAT_COLOUR & 0xff);
        rgba[4 * i + 3] = 255;
    }
    if (!stbi_write_png(path, 8, 8, 4, rgba, 8 * 4)) {
        fprintf(stderr, "render_make_cube: cannot write %s\n", path);
        return 0;
    }
    return 1;
}

/* dir + "/" + name into path (size bytes); 0 if it does not fit. */
static int join(char *path, size_t size, const char *dir, const char *name)
{
    int n = snprintf(path, size, "%s/%s", dir, name);
    return n > 0 && (size_t)n < size;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "render_make_cube: cannot write %s\n", path);
    return ok;
}

int main(int argc, char **argv)
{
    char model[4096], skin[4096], skin2[4096];
    const char *dir = argc == 3 ? argv[2] : argv[1], *mode = argc == 3 ? argv[1] : "";
    if ((argc != 2 && argc != 3) ||
        (argc == 3 && strcmp(mode, "--model-only") != 0 && strcmp(mode, "--broken-skin") != 0 &&
         strcmp(mode, "--empty") != 0 && strcmp(mode, "--flat-skin") != 0)) {
        fprintf(stderr, "usage: render_make_cube [--model-only | --empty | --broken-skin | "
                        "--flat-skin] DIR\n");
        return 2;
    }
    if (strcmp(mode, "--flat-skin") == 0)
        return join(skin, sizeof skin, dir, "skin.png") && write_flat(skin) ? 0 : 1;
    if (!join(model, sizeof model, dir, "cube.md2") || !join(skin, sizeof skin, dir, "skin.png") ||
        !join(skin2, sizeof skin2, dir, "skin_2x.png"))
        return 1;
    if (!write_model(model, strcmp(mode, "--empty") != 0))
        return 1;
    if (strcmp(mode, "--model-only") == 0 || strcmp(mode, "--empty") == 0) {
        remove(skin);
        return 0;
    }
    if (strcmp(mode, "--broken-skin") == 0)
        return write_text(skin, "this is not a PNG file\n") ? 0 : 1;
    return write_skin(skin, 1, 255) && write_skin(skin2, 2, 100) ? 0 : 1;
}
