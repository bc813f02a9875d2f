/*
 * md2_view_check: checks a picture written by `md2_view --screenshot`
 * (the md2_view_* CTest tests run it through md2_view_test.cmake).
 *
 *   md2_view_check IMAGE SKIN --bg RRGGBB --bbox X0 Y0 X1 Y1
 *                  [--inside] [--no-colors] [--min-pixels N] [--tolerance P]
 *                  [--fill F]
 *
 *   IMAGE   the screenshot: binary PPM (P6), or anything stb_image reads
 *   SKIN    the skin it was drawn with, read with md2_view's own loader
 *           (PCX through md2_pcx_decode(), others through stb_image)
 *   --bg    the background colour the picture was cleared with; it must
 *           not be a colour of the skin, so that every other pixel is the
 *           model's
 *   --bbox  the box md2_view printed as "projected-bbox" (inclusive pixels)
 *
 * Checks, each reported with its numbers:
 *  1. the box of the model's (non-background) pixels equals --bbox within
 *     --tolerance pixels (default 2) on each side; with --inside it only
 *     has to lie inside --bbox grown by the tolerance (for views where the
 *     projected box of the bounding box is larger than the model);
 *  2. unless --no-colors: every model pixel has one of the skin's texel
 *     colours (an --unlit picture, drawn with nearest-neighbour filtering);
 *  3. there are at least --min-pixels model pixels (default 100);
 *  4. with --fill F: the box of the model's pixels spans at least F (0 to
 *     1) of the picture's width or of its height, the side that limits a
 *     viewer's framing (a standing figure fills the height of a landscape
 *     picture, not its area); the share of the area is printed too.
 * Exit status: 0 all checks pass, 1 a check fails or a file cannot be read,
 * 2 bad arguments.
 *
 *   md2_view_check --mark IMAGE RRGGBB --near X Y --box X0 Y0 X1 Y1 [--reach SIDES]
 *
 * An attached model (md2_view --attach) drawn --unlit in the one colour
 * RRGGBB of its flat skin: the picture has at least 10 pixels of that
 * colour, the one nearest the point --near (the "attach-origin" line
 * md2_view prints: the tag origin's projection, in pixels) has its centre
 * within 2 pixels of it, and every one lies inside --box (the
 * "attach-vertex-bbox" line) grown by 2 pixels. --reach: on each of the
 * sides SIDES names (l left, t top, r right, b bottom: those the body does
 * not hide), the pixels also reach within 2 pixels of --box, so a pose
 * smaller than the one projected fails.
 *
 *   md2_view_check --flat-pcx FILE RRGGBB
 *
 * Writes an 8 x 8 PCX of that one colour (md2_pcx_encode()): the skin of
 * such an attached model.
 *
 * SPDX-License-Identifier: MIT
 */
#include "image.h" /* tool/image: the md2 command's skin loader */

#include <md2/skin.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct check_args {
    const char *image;
    const char *skin;
    unsigned char bg[3];
    int have_bg, have_bbox;
    long bbox[4];
    int inside, colors;
    long min_pixels, tolerance;
    double fill; /* --fill: the least share of the picture's width or height the box spans */
} check_args;

static int usage(void)
{
    fprintf(stderr,
            "usage: md2_view_check IMAGE SKIN --bg RRGGBB --bbox X0 Y0 X1 Y1\n"
            "                      [--inside] [--no-colors] [--min-pixels N] [--tolerance P]\n"
            "                      [--fill F]\n"
            "       md2_view_check --mark IMAGE RRGGBB --near X Y --box X0 Y0 X1 Y1 [--reach SIDES]\n"
            "       md2_view_check --flat-pcx FILE RRGGBB\n");
    return 2;
}

static int parse_long(const char *s, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0')
        return 0;
    *out = v;
    return 1;
}

static int parse_colour(const char *s, unsigned char rgb[3])
{
    unsigned long v;
    char *end;
    if (s[0] == '#')
        s++;
    if (strlen(s) != 6)
        return 0;
    v = strtoul(s, &end, 16);
    if (*end != '\0')
        return 0;
    rgb[0] = (unsigned char)(v >> 16);
    rgb[1] = (unsigned char)(v >> 8);
    rgb[2] = (unsigned char)v;
    return 1;
}

static int parse_args(int argc, char **argv, check_args *a)
{
    int i, k;
    memset(a, 0, sizeof *a);
    a->colors = 1;
    a->min_pixels = 100;
    a->tolerance = 2;
    for (i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--inside") == 0) {
            a->inside = 1;
        } else if (strcmp(s, "--no-colors") == 0) {
            a->colors = 0;
        } else if (strcmp(s, "--bg") == 0 && i + 1 < argc) {
            if (!parse_colour(argv[++i], a->bg))
                return 0;
            a->have_bg = 1;
        } else if (strcmp(s, "--bbox") == 0 && i + 4 < argc) {
            for (k = 0; k < 4; k++)
                if (!parse_long(argv[++i], &a->bbox[k]))
                    return 0;
            a->have_bbox = 1;
        } else if (strcmp(s, "--min-pixels") == 0 && i + 1 < argc) {
            if (!parse_long(argv[++i], &a->min_pixels))
                return 0;
        } else if (strcmp(s, "--fill") == 0 && i + 1 < argc) {
            char *end;
            a->fill = strtod(argv[++i], &end);
            if (end == argv[i] || *end != '\0' || !(a->fill >= 0.0 && a->fill <= 1.0))
                return 0;
        } else if (strcmp(s, "--tolerance") == 0 && i + 1 < argc) {
            if (!parse_long(argv[++i], &a->tolerance) || a->tolerance < 0)
                return 0;
        } else if (s[0] == '-') {
            return 0;
        } else if (!a->image) {
            a->image = s;
        } else if (!a->skin) {
            a->skin = s;
        } else {
            return 0;
        }
    }
    return a->image && a->skin && a->have_bg && a->have_bbox;
}

/* Skips whitespace and '#' comments in a PPM header. */
static void skip_space(FILE *f)
{
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (c == '#') {
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
        } else if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
            ungetc(c, f);
            return;
        }
    }
}

static int read_header_number(FILE *f, long *out)
{
    skip_space(f);
    return fscanf(f, "%ld", out) == 1;
}

/* Reads a binary PPM into RGBA (alpha 255); 0 if it is not one. */
static int read_ppm(const char *path, tool_image *img)
{
    FILE *f = fopen(path, "rb");
    long w, h, maxval;
    size_t n, i;
    unsigned char *rgb;
    memset(img, 0, sizeof *img);
    if (!f)
        return 0;
    if (fgetc(f) != 'P' || fgetc(f) != '6' || !read_header_number(f, &w) ||
        !read_header_number(f, &h) || !read_header_number(f, &maxval) || w < 1 || h < 1 ||
        w > 65536 || h > 65536 || maxval != 255 || fgetc(f) == EOF) {
        fclose(f);
        return 0;
    }
    n = (size_t)w * (size_t)h;
    rgb = (unsigned char *)malloc(n * 3);
    img->rgba = (unsigned char *)malloc(n * 4);
    if (!rgb || !img->rgba || fread(rgb, 3, n, f) != n) {
        free(rgb);
        tool_image_free(img);
        fclose(f);
        return 0;
    }
    fclose(f);
    for (i = 0; i < n; i++) {
        img->rgba[4 * i + 0] = rgb[3 * i + 0];
        img->rgba[4 * i + 1] = rgb[3 * i + 1];
        img->rgba[4 * i + 2] = rgb[3 * i + 2];
        img->rgba[4 * i + 3] = 255;
    }
    free(rgb);
    img->width = (int)w;
    img->height = (int)h;
    return 1;
}

static uint32_t rgb_key(const unsigned char *p)
{
    return ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int parse_longs(char **argv, int n, long *out)
{
    int k;
    for (k = 0; k < n; k++)
        if (!parse_long(argv[k], &out[k]))
            return 0;
    return 1;
}

/* --mark IMAGE RRGGBB --near X Y --box X0 Y0 X1 Y1 [--reach SIDES] */
static int check_mark(int argc, char **argv)
{
    tool_image pic;
    unsigned char rgb[3];
    long box[4], seen[4] = {0, 0, -1, -1}, short_of = 0;
    const char *reach = argc == 14 && strcmp(argv[12], "--reach") == 0 ? argv[13] : "";
    static const char sides[] = "ltrb";
    double px, py, best = 1e300;
    char err[512];
    long count = 0, outside = 0;
    int x, y;
    char *end_x, *end_y;
    if ((argc != 12 && !*reach) || strspn(reach, sides) != strlen(reach) ||
        !parse_colour(argv[3], rgb) || strcmp(argv[4], "--near") != 0 ||
        strcmp(argv[7], "--box") != 0 || !parse_longs(argv + 8, 4, box))
        return usage();
    px = strtod(argv[5], &end_x);
    py = strtod(argv[6], &end_y);
    if (end_x == argv[5] || *end_x || end_y == argv[6] || *end_y)
        return usage();
    if (!read_ppm(argv[2], &pic) && !tool_image_read(argv[2], &pic, err, sizeof err)) {
        fprintf(stderr, "md2_view_check: cannot read the picture %s\n", argv[2]);
        return 1;
    }
    for (y = 0; y < pic.height; y++)
        for (x = 0; x < pic.width; x++) {
            const unsigned char *p = pic.rgba + 4 * ((size_t)y * pic.width + x);
            double dx = x + 0.5 - px, dy = y + 0.5 - py, d = sqrt(dx * dx + dy * dy);
            if (p[0] != rgb[0] || p[1] != rgb[1] || p[2] != rgb[2])
                continue;
            if (count == 0 || x < seen[0])
                seen[0] = x;
            if (count == 0 || y < seen[1])
                seen[1] = y;
            if (count == 0 || x > seen[2])
                seen[2] = x;
            if (count == 0 || y > seen[3])
                seen[3] = y;
            count++;
            if (d < best)
                best = d;
            if (x < box[0] - 2 || x > box[2] + 2 || y < box[1] - 2 || y > box[3] + 2)
                outside++;
        }
    tool_image_free(&pic);
    for (x = 0; x < 4; x++) {
        if (strchr(reach, sides[x]) && labs(seen[x] - box[x]) > 2)
            short_of++;
    }
    printf("%ld pixels of colour %s, spanning %ld %ld %ld %ld; the tag origin at %.1f %.1f, the "
           "nearest of them %.2f pixels away; %ld outside the box %ld %ld %ld %ld grown by 2; "
           "%ld of the sides '%s' short of it\n", count, argv[3], seen[0], seen[1], seen[2],
           seen[3], px, py, count ? best : -1.0, outside, box[0], box[1], box[2], box[3],
           short_of, reach);
    if (count < 10 || best > 2.0 || outside || short_of) {
        printf("FAIL: the attached model is not on its tag\n");
        return 1;
    }
    return 0;
}

/* --flat-pcx FILE RRGGBB */
static int write_flat_pcx(int argc, char **argv)
{
    unsigned char rgba[8 * 8 * 4], pcx[2048], rgb[3];
    md2_pcx_input in;
    size_t written = 0;
    FILE *f;
    int i, ok;
    if (argc != 4 || !parse_colour(argv[3], rgb))
        return usage();
    for (i = 0; i < 64; i++) {
        memcpy(rgba + 4 * i, rgb, 3);
        rgba[4 * i + 3] = 255;
    }
    memset(&in, 0, sizeof in);
    in.width = in.height = 8;
    in.rgba = rgba;
    if (md2_pcx_encode(&in, pcx, sizeof pcx, &written, NULL) != MD2_OK)
        return 1;
    f = fopen(argv[2], "wb");
    ok = f && fwrite(pcx, 1, written, f) == written;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "md2_view_check: cannot write %s\n", argv[2]);
    return ok ? 0 : 1;
}

/* The skin's texel colours (rgb_key), sorted and unique: a malloc'd array
 * of *num_colours; NULL when out of memory. */
static uint32_t *skin_colours(const tool_image *skin, size_t *num_colours)
{
    size_t n = (size_t)skin->width * (size_t)skin->height, i, num = 0;
    uint32_t *colours = (uint32_t *)malloc(n * sizeof *colours);
    if (!colours)
        return NULL;
    for (i = 0; i < n; i++)
        colours[i] = rgb_key(skin->rgba + 4 * i);
    qsort(colours, n, sizeof *colours, compare_u32);
    for (i = 0; i < n; i++)
        if (num == 0 || colours[num - 1] != colours[i])
            colours[num++] = colours[i];
    *num_colours = num;
    return colours;
}

/* The model's pixels (those not bg): returns their count, sets box (left
 * top right bottom; untouched when there are none) to their box and, with
 * colors, counts in *foreign those whose colour is not one of colours (the
 * first 5 printed). */
static size_t model_pixels(const tool_image *pic, uint32_t bg, int colors,
                           const uint32_t *colours, size_t num_colours, long box[4],
                           size_t *foreign)
{
    size_t pixels = 0;
    int x, y;
    for (y = 0; y < pic->height; y++)
        for (x = 0; x < pic->width; x++) {
            const unsigned char *p = pic->rgba + 4 * ((size_t)y * pic->width + x);
            uint32_t c = rgb_key(p);
            if (c == bg)
                continue;
            if (pixels == 0) {
                box[0] = box[2] = x;
                box[1] = box[3] = y;
            } else {
                if (x < box[0])
                    box[0] = x;
                if (x > box[2])
                    box[2] = x;
                if (y < box[1])
                    box[1] = y;
                if (y > box[3])
                    box[3] = y;
            }
            pixels++;
            if (colors &&
                !bsearch(&c, colours, num_colours, sizeof *colours, compare_u32)) {
                if (*foreign < 5)
                    printf("pixel (%d, %d) has colour %06lx, not in the skin\n", x, y,
                           (unsigned long)c);
                (*foreign)++;
            }
        }
    return pixels;
}

/* Checks 1, 3 and 4 of the top comment on the model's pixels (their box
 * and count): prints the boxes, the inset and each failure; returns 1 when
 * one fails, else 0. */
static int check_box(const check_args *a, const tool_image *pic, const long box[4],
                     size_t pixels)
{
    long diff[4];
    size_t i;
    int failed = 0;
    printf("picture %s: %dx%d, %zu model pixels\n", a->image, pic->width, pic->height, pixels);
    printf("model pixels' box: %ld %ld %ld %ld\n", box[0], box[1], box[2], box[3]);
    printf("projected box:     %ld %ld %ld %ld\n", a->bbox[0], a->bbox[1], a->bbox[2],
           a->bbox[3]);
    /* differences, positive where the model's pixels stay inside the box */
    diff[0] = box[0] - a->bbox[0];
    diff[1] = box[1] - a->bbox[1];
    diff[2] = a->bbox[2] - box[2];
    diff[3] = a->bbox[3] - box[3];
    printf("inset (left top right bottom): %ld %ld %ld %ld\n", diff[0], diff[1], diff[2],
           diff[3]);

    if ((long)pixels < a->min_pixels) {
        printf("FAIL: %zu model pixels, fewer than %ld\n", pixels, a->min_pixels);
        failed = 1;
    }
    for (i = 0; i < 4; i++) {
        int bad = a->inside ? diff[i] < -a->tolerance
                            : (diff[i] < -a->tolerance || diff[i] > a->tolerance);
        if (bad && pixels > 0) {
            printf("FAIL: the model's pixels' box is %s the projected box by more than %ld "
                   "pixels (%s side: %ld)\n",
                   diff[i] < 0 ? "outside" : "inside", a->tolerance,
                   i == 0 ? "left" : i == 1 ? "top" : i == 2 ? "right" : "bottom", diff[i]);
            failed = 1;
        }
    }
    if (a->fill > 0.0) {
        double bw = pixels ? (double)(box[2] - box[0] + 1) : 0.0;
        double bh = pixels ? (double)(box[3] - box[1] + 1) : 0.0;
        double fw = bw / pic->width, fh = bh / pic->height, span = fw > fh ? fw : fh;
        printf("the model's pixels' box spans %.3f of the picture's width and %.3f of its "
               "height (%.3f of its area)\n", fw, fh, fw * fh);
        if (span < a->fill) {
            printf("FAIL: the model's pixels' box spans %.3f of the picture's %s, less than %g\n",
                   span, fw > fh ? "width" : "height", a->fill);
            failed = 1;
        }
    }
    return failed;
}

int main(int argc, char **argv)
{
    check_args a;
    tool_image pic, skin;
    char err[512];
    uint32_t *colours, bg;
    size_t num_colours = 0, pixels, foreign = 0;
    long box[4] = {0, 0, -1, -1};
    int failed = 0;

    if (argc >= 2 && strcmp(argv[1], "--mark") == 0)
        return check_mark(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "--flat-pcx") == 0)
        return write_flat_pcx(argc, argv);
    if (!parse_args(argc, argv, &a))
        return usage();
    if (!read_ppm(a.image, &pic) && !tool_image_read(a.image, &pic, err, sizeof err)) {
        fprintf(stderr, "md2_view_check: cannot read the picture %s\n", a.image);
        return 1;
    }
    if (!tool_image_read(a.skin, &skin, err, sizeof err)) {
        fprintf(stderr, "md2_view_check: %s\n", err);
        tool_image_free(&pic);
        return 1;
    }

    colours = skin_colours(&skin, &num_colours);
    if (!colours) {
        fprintf(stderr, "md2_view_check: out of memory\n");
        tool_image_free(&pic);
        tool_image_free(&skin);
        return 1;
    }
    bg = rgb_key(a.bg);
    printf("skin %s: %dx%d, %zu colours\n", a.skin, skin.width, skin.height, num_colours);
    if (bsearch(&bg, colours, num_colours, sizeof *colours, compare_u32)) {
        printf("FAIL: the background %06lx is a colour of the skin: choose another --bg\n",
               (unsigned long)bg);
        failed = 1;
    }

    pixels = model_pixels(&pic, bg, a.colors, colours, num_colours, box, &foreign);
    if (check_box(&a, &pic, box, pixels))
        failed = 1;
    if (a.colors) {
        printf("%zu of %zu model pixels have a colour that is not the skin's\n", foreign, pixels);
        if (foreign)
            failed = 1;
    }
    printf("%s\n", failed ? "md2_view_check: FAILED" : "md2_view_check: passed");
    free(colours);
    tool_image_free(&pic);
    tool_image_free(&skin);
    return failed ? 1 : 0;
}
