/*
 * md2 import --pcx: the skin as an 8-bit PCX (md2_pcx_encode()), with a
 * palette from --palette FILE or chosen from the image (import_cmd.h).
 *
 * The image's alpha is dropped (a PCX has none). Without --palette, an
 * image of at most 256 colours keeps them exactly (md2_pcx_encode()'s
 * palette in the order they first appear); a richer one gets 256 colours
 * by median cut: starting from one box holding every pixel, the box with
 * the widest channel range (red, green, blue; the first box and the first
 * channel on ties) is sorted along that channel (ties by the whole RGB
 * value) and split at its middle pixel, until there are 256 boxes or no
 * box has two colours; each entry is the rounded mean of its box's pixels.
 * Each pixel then takes the nearest entry (squared RGB distance, the
 * lowest index on ties). The same image always gives the same bytes.
 *
 * SPDX-License-Identifier: MIT
 */
#include "import_cmd.h"

#include <md2/skin.h>

#include <stdlib.h>
#include <string.h>

typedef struct box {
    size_t start, end; /* pixels [start, end) of the sorted array */
    int channel;       /* the widest */
    int range;         /* its extent */
} box;

static uint32_t rgb_of(const unsigned char *p)
{
    return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static int channel_of(uint32_t c, int ch)
{
    return (int)(c >> (16 - 8 * ch) & 0xff);
}

static int cmp_u32(uint32_t a, uint32_t b)
{
    return a < b ? -1 : a > b;
}

static int by_red(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int d = channel_of(x, 0) - channel_of(y, 0);
    return d ? d : cmp_u32(x, y);
}

static int by_green(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int d = channel_of(x, 1) - channel_of(y, 1);
    return d ? d : cmp_u32(x, y);
}

static int by_blue(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int d = channel_of(x, 2) - channel_of(y, 2);
    return d ? d : cmp_u32(x, y);
}

static void measure(box *b, const uint32_t *px)
{
    int lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0}, ch;
    size_t i;
    for (i = b->start; i < b->end; i++) {
        for (ch = 0; ch < 3; ch++) {
            int v = channel_of(px[i], ch);
            if (v < lo[ch])
                lo[ch] = v;
            if (v > hi[ch])
                hi[ch] = v;
        }
    }
    b->channel = 0;
    b->range = hi[0] - lo[0];
    for (ch = 1; ch < 3; ch++) {
        if (hi[ch] - lo[ch] > b->range) {
            b->range = hi[ch] - lo[ch];
            b->channel = ch;
        }
    }
}

/* 256 colours for the n pixels px (sorted in place) into palette. */
static void median_cut(uint32_t *px, size_t n, uint8_t *palette)
{
    static int (*const cmp[3])(const void *, const void *) = {by_red, by_green, by_blue};
    box boxes[256];
    size_t count = 1, i;
    boxes[0].start = 0;
    boxes[0].end = n;
    measure(&boxes[0], px);
    while (count < 256) {
        size_t best = count, mid;
        for (i = 0; i < count; i++)
            if (boxes[i].range > 0 && boxes[i].end - boxes[i].start > 1 &&
                (best == count || boxes[i].range > boxes[best].range))
                best = i;
        if (best == count)
            break;
        qsort(px + boxes[best].start, boxes[best].end - boxes[best].start, sizeof *px,
              cmp[boxes[best].channel]);
        mid = boxes[best].start + (boxes[best].end - boxes[best].start) / 2;
        boxes[count].start = mid;
        boxes[count].end = boxes[best].end;
        boxes[best].end = mid;
        measure(&boxes[best], px);
        measure(&boxes[count], px);
        count++;
    }
    memset(palette, 0, 768);
    for (i = 0; i < count; i++) {
        double sum[3] = {0, 0, 0};
        size_t j, m = boxes[i].end - boxes[i].start;
        int ch;
        for (j = boxes[i].start; j < boxes[i].end; j++)
            for (ch = 0; ch < 3; ch++)
                sum[ch] += channel_of(px[j], ch);
        for (ch = 0; ch < 3; ch++)
            palette[3 * i + (size_t)ch] = (uint8_t)(sum[ch] / (double)m + 0.5);
    }
}

/* The palette of --palette FILE: an 8-bit PCX file's own 256 colours (the
 * 768 bytes after the 0x0C marker at its end); any other image's first 256
 * pixels in row order (the rest black). Told by the file's first bytes, as
 * skins are. */
static int load_palette(const char *path, uint8_t *palette)
{
    tool_image img;
    char err[600];
    unsigned char *bytes;
    size_t i, n, size;
    if (!tool_read_regular(path, (size_t)256 << 20, &bytes, &size, err, sizeof err)) {
        tool_error(IMPORT_CMD, "--palette: %s", err);
        return 0;
    }
    memset(palette, 0, 768);
    if (size > 0 && bytes[0] == 0x0A) {
        /* a PCX: 8 bits a pixel in one plane, a 128-byte header, then the
         * marker and the palette at the end */
        int ok = size >= 128 + 769 && bytes[3] == 8 && bytes[65] == 1 && bytes[size - 769] == 0x0C;
        if (ok)
            memcpy(palette, bytes + size - 768, 768);
        free(bytes);
        if (!ok) {
            tool_error(IMPORT_CMD, "--palette: %s is a PCX file without a 256-colour palette "
                                   "(not 8 bits a pixel in one plane, or no 0x0C marker 769 "
                                   "bytes from its end)", path);
            return 0;
        }
        return 1;
    }
    if (!tool_image_decode(path, bytes, size, &img, err, sizeof err)) {
        free(bytes);
        tool_error(IMPORT_CMD, "--palette: %s", err);
        return 0;
    }
    free(bytes);
    n = (size_t)img.width * (size_t)img.height;
    for (i = 0; i < n && i < 256; i++)
        memcpy(palette + 3 * i, img.rgba + 4 * i, 3);
    tool_image_free(&img);
    return 1;
}

static uint8_t nearest(const uint8_t *palette, const unsigned char *p)
{
    long best = -1;
    int i, at = 0;
    for (i = 0; i < 256; i++) {
        long dr = (long)p[0] - palette[3 * i], dg = (long)p[1] - palette[3 * i + 1],
             db = (long)p[2] - palette[3 * i + 2];
        long d = dr * dr + dg * dg + db * db;
        if (best < 0 || d < best) {
            best = d;
            at = i;
        }
    }
    return (uint8_t)at;
}

int imp_skin_pcx(const tool_image *img, const char *palette_path, const uint8_t *game_palette,
                 unsigned char **out, size_t *out_size)
{
    size_t n = (size_t)img->width * (size_t)img->height, i, size;
    unsigned char *rgba = NULL;
    uint8_t *indices = NULL;
    uint32_t *px = NULL;
    uint8_t palette[768];
    md2_pcx_input in;
    md2_diagnostic d;
    int ok = 0;
    *out = NULL;
    *out_size = 0;
    memset(&in, 0, sizeof in);
    in.width = (uint32_t)img->width;
    in.height = (uint32_t)img->height;
    if (in.width > MD2_PCX_MAX_WIDTH || in.height > MD2_PCX_MAX_HEIGHT) {
        tool_error(IMPORT_CMD, "the %dx%d skin is too large for PCX", img->width, img->height);
        return 0;
    }
    rgba = (unsigned char *)malloc(4 * n);
    if (!rgba)
        goto oom;
    memcpy(rgba, img->rgba, 4 * n);
    for (i = 0; i < n; i++)
        rgba[4 * i + 3] = 255;
    in.rgba = rgba;
    if (palette_path || game_palette || md2_pcx_encode_size(&in) == 0) {
        /* a palette given, or more than 256 colours: indices into one */
        if (game_palette) {
            memcpy(palette, game_palette, 768);
        } else if (palette_path) {
            if (!load_palette(palette_path, palette))
                goto done;
        } else {
            px = (uint32_t *)malloc(n * sizeof *px);
            if (!px)
                goto oom;
            for (i = 0; i < n; i++)
                px[i] = rgb_of(rgba + 4 * i);
            median_cut(px, n, palette);
        }
        indices = (uint8_t *)malloc(n);
        if (!indices)
            goto oom;
        for (i = 0; i < n; i++)
            indices[i] = nearest(palette, rgba + 4 * i);
        in.rgba = NULL;
        in.indices = indices;
        in.palette = palette;
    }
    size = md2_pcx_encode_size(&in);
    if (size == 0) {
        tool_error(IMPORT_CMD, "cannot write the skin as PCX");
        goto done;
    }
    *out = (unsigned char *)malloc(size);
    if (!*out)
        goto oom;
    if (md2_pcx_encode(&in, *out, size, out_size, &d) != MD2_OK) {
        tool_error(IMPORT_CMD, "cannot write the skin as PCX: %s", d.message);
        free(*out);
        *out = NULL;
        goto done;
    }
    ok = 1;
    goto done;
oom:
    tool_error(IMPORT_CMD, "out of memory");
done:
    free(rgba);
    free(indices);
    free(px);
    return ok;
}
