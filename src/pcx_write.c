/*
 * PCX writing (<md2/skin.h>): md2_pcx_encode(), the inverse of
 * md2_pcx_decode() for 8-bit images.
 *
 * Everything is checked before a byte is written: the arguments, every
 * pixel (opaque, and a colour of the palette or one of at most 256), and
 * the file's exact size against the caller's buffer, which one pass of
 * the run-length encoder that only counts gives. The pass that writes
 * cannot fail. Colours are found in a 512-slot hash table on the stack
 * (at most 256 of them: half full), so nothing is allocated. All values
 * are written byte by byte with shifts: the file is the same on any host.
 *
 * SPDX-License-Identifier: MIT
 */
#include "md2/skin.h"
#include "diag.h"
#include "reserved.h"

#include <string.h>

#define PCX_HEADER_SIZE 128u
#define PCX_PALETTE_MARKER 0x0Cu
#define PCX_PALETTE_BYTES 768u
#define PCX_TAIL (1u + PCX_PALETTE_BYTES)
#define PCX_RUN_FLAG 0xC0u
#define PCX_MAX_RUN 63u
#define PCX_DPI 72u

/* Colours: a 24-bit RGB key (r << 16 | g << 8 | b). The table's slots
 * hold key + 1 (0: empty) and the palette index of that colour. */
#define COLOUR_SLOTS 512u

typedef struct colour_table {
    uint32_t key[COLOUR_SLOTS];
    uint8_t index[COLOUR_SLOTS];
    unsigned count; /* colours in the table */
} colour_table;

/* What md2_pcx_encode() writes, once every check has passed. */
typedef struct pcx_plan {
    const md2_pcx_input *in;
    uint32_t bytes_per_line;     /* width rounded up to even */
    uint8_t palette[PCX_PALETTE_BYTES];
    colour_table colours;        /* rgba: colour -> index */
    uint64_t size;               /* the file's bytes */
} pcx_plan;

static uint32_t rgb_key(const uint8_t *px)
{
    return (uint32_t)px[0] << 16 | (uint32_t)px[1] << 8 | (uint32_t)px[2];
}

/* Fibonacci hashing to 9 bits. */
static unsigned colour_slot(uint32_t key)
{
    return (unsigned)((uint32_t)(key * 2654435761u) >> 23);
}

/* The slot of key, or the empty slot where it would go. The table is
 * never full (at most 256 of 512 slots), so the probe ends. */
static unsigned colour_find(const colour_table *t, uint32_t key)
{
    unsigned s = colour_slot(key);
    while (t->key[s] != 0 && t->key[s] != key + 1u)
        s = (s + 1u) & (COLOUR_SLOTS - 1u);
    return s;
}

/* Adds key with the next index unless it is there; 1 if it was added. */
static int colour_add(colour_table *t, uint32_t key)
{
    unsigned s = colour_find(t, key);
    if (t->key[s] != 0)
        return 0;
    t->key[s] = key + 1u;
    t->index[s] = (uint8_t)t->count;
    t->count++;
    return 1;
}

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
}

/* Pixel i (x, y) for messages. */
#define PIXEL_ARGS(plan, i)                                                    \
    (unsigned long long)(i), (unsigned long long)((i) % (plan)->in->width),   \
        (unsigned long long)((i) / (plan)->in->width)

/* The arguments, the size, and the form of the input. */
static md2_result check_input(pcx_plan *p, md2_diagnostic *d)
{
    const md2_pcx_input *in = p->in;
    uint64_t pixels, worst;

    if (in->width == 0 || in->height == 0)
        return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE,
                         in->width == 0 ? "width" : "height", 0, 0,
                         "md2_pcx_encode: the image is %lu x %lu pixels; a PCX has at least one "
                         "pixel each way",
                         (unsigned long)in->width, (unsigned long)in->height);
    if (in->width > MD2_PCX_MAX_WIDTH)
        return md2__fail(d, MD2_ERR_LIMIT_EXCEEDED, MD2_SECTION_NONE, "width", 0, 0,
                         "md2_pcx_encode: the width is %lu pixels, more than the %lu of a PCX "
                         "(its bytes_per_line is even and at most 65535)",
                         (unsigned long)in->width, (unsigned long)MD2_PCX_MAX_WIDTH);
    if (in->height > MD2_PCX_MAX_HEIGHT)
        return md2__fail(d, MD2_ERR_LIMIT_EXCEEDED, MD2_SECTION_NONE, "height", 0, 0,
                         "md2_pcx_encode: the height is %lu pixels, more than the %lu of a PCX "
                         "(ymax is 16 bits)",
                         (unsigned long)in->height, (unsigned long)MD2_PCX_MAX_HEIGHT);
    p->bytes_per_line = in->width + (in->width & 1u);
    /* at most 65534 * 65536 * 4 and 897 + 2 * 65536 * 65534: 64 bits hold them */
    pixels = (uint64_t)in->width * in->height;
    worst = PCX_HEADER_SIZE + PCX_TAIL + 2u * (uint64_t)in->height * p->bytes_per_line;
    if (worst > SIZE_MAX || (in->rgba && pixels > SIZE_MAX / 4u))
        return md2__fail(d, MD2_ERR_LIMIT_EXCEEDED, MD2_SECTION_NONE, "height", 0, 0,
                         "md2_pcx_encode: a %lu x %lu image (%s %llu bytes) does not fit in "
                         "this host's size_t",
                         (unsigned long)in->width, (unsigned long)in->height,
                         worst > SIZE_MAX ? "a PCX of up to" : "rgba of",
                         (unsigned long long)(worst > SIZE_MAX ? worst : pixels * 4u));
    if (in->rgba && in->indices)
        return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "rgba", 0, 0,
                         "md2_pcx_encode: both rgba and indices are given; give one: rgba "
                         "(with or without a palette) or indices with a palette");
    if (!in->rgba && !in->indices)
        return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "rgba", 0, 0,
                         "md2_pcx_encode: neither rgba nor indices is given");
    if (in->indices && !in->palette)
        return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "palette", 0, 0,
                         "md2_pcx_encode: indices are given without their palette");
    return MD2_OK;
}

/* rgba: every pixel opaque, and a colour of the palette given (which
 * fills the table first) or one of at most 256 (which make the palette). */
static md2_result check_colours(pcx_plan *p, md2_diagnostic *d)
{
    const md2_pcx_input *in = p->in;
    colour_table *t = &p->colours;
    size_t n = (size_t)in->width * in->height, i;
    uint32_t last = 0xFFFFFFFFu; /* not a key: the previous pixel's colour */

    memset(t, 0, sizeof *t);
    if (in->palette) {
        unsigned k;
        for (k = 0; k < 256u; k++) {
            /* a colour twice keeps its first entry */
            unsigned s = colour_find(t, rgb_key(in->palette + 3u * k));
            if (t->key[s] == 0) {
                t->key[s] = rgb_key(in->palette + 3u * k) + 1u;
                t->index[s] = (uint8_t)k;
            }
        }
    }
    for (i = 0; i < n; i++) {
        const uint8_t *px = in->rgba + 4u * i;
        uint32_t key = rgb_key(px);
        if (px[3] != 255u)
            return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "rgba", 4u * i + 3u,
                             i,
                             "md2_pcx_encode: pixel %llu (x %llu, y %llu) has alpha %u; a PCX "
                             "has no alpha: every pixel must be opaque (255)",
                             PIXEL_ARGS(p, i), (unsigned)px[3]);
        if (key == last)
            continue;
        last = key;
        if (in->palette) {
            if (t->key[colour_find(t, key)] == 0)
                return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "rgba", 4u * i,
                                 i,
                                 "md2_pcx_encode: pixel %llu (x %llu, y %llu) is #%06lX, a "
                                 "colour that is not in the palette",
                                 PIXEL_ARGS(p, i), (unsigned long)key);
        } else if (t->count == 256u) {
            if (t->key[colour_find(t, key)] == 0)
                return md2__fail(d, MD2_ERR_LIMIT_EXCEEDED, MD2_SECTION_NONE, "rgba", 4u * i, i,
                                 "md2_pcx_encode: the image has more than 256 colours: pixel "
                                 "%llu (x %llu, y %llu), #%06lX, is the first of a 257th; an "
                                 "8-bit PCX holds 256 (give indices and a palette, or fewer "
                                 "colours)",
                                 PIXEL_ARGS(p, i), (unsigned long)key);
        } else if (colour_add(t, key)) {
            uint8_t *rgb = p->palette + 3u * (t->count - 1u);
            rgb[0] = px[0];
            rgb[1] = px[1];
            rgb[2] = px[2];
        }
    }
    return MD2_OK;
}

/* The byte of column x (< bytes_per_line) of the scanline whose first
 * pixel is pixel `row`: a palette index, or 0 for the pad byte. last_key
 * and last_index remember the previous rgba lookup. */
typedef struct line_reader {
    const pcx_plan *p;
    size_t row;
    uint32_t last_key;
    uint8_t last_index;
} line_reader;

static uint8_t line_byte(line_reader *r, uint32_t x)
{
    const md2_pcx_input *in = r->p->in;
    const uint8_t *px;
    uint32_t key;

    if (x >= in->width)
        return 0; /* the pad byte */
    if (in->indices)
        return in->indices[r->row + x];
    px = in->rgba + 4u * (r->row + x);
    key = rgb_key(px);
    if (key != r->last_key) {
        const colour_table *t = &r->p->colours;
        r->last_key = key;
        r->last_index = t->index[colour_find(t, key)]; /* there: checked */
    }
    return r->last_index;
}

/* Run-length encodes scanline y into out (NULL: only counts); returns its
 * encoded bytes. Runs end with the line. */
static size_t encode_line(const pcx_plan *p, uint32_t y, uint8_t *out)
{
    line_reader r;
    uint32_t bpl = p->bytes_per_line, x = 0;
    size_t n = 0;
    uint8_t v;

    r.p = p;
    r.row = (size_t)y * p->in->width;
    r.last_key = 0xFFFFFFFFu;
    r.last_index = 0;
    v = line_byte(&r, 0);
    while (x < bpl) {
        uint32_t run = 1;
        uint8_t next = 0;
        while (x + run < bpl) {
            next = line_byte(&r, x + run);
            if (next != v || run == PCX_MAX_RUN)
                break;
            run++;
        }
        if (run > 1 || v >= PCX_RUN_FLAG) {
            if (out) {
                out[n] = (uint8_t)(PCX_RUN_FLAG | run);
                out[n + 1] = v;
            }
            n += 2;
        } else {
            if (out)
                out[n] = v;
            n++;
        }
        x += run;
        v = next; /* the byte that ended the run (unless the line ended) */
    }
    return n;
}

/* Checks everything and fills p, the file's size included. */
static md2_result plan(pcx_plan *p, const md2_pcx_input *in, md2_diagnostic *d)
{
    uint32_t y;
    uint64_t size = PCX_HEADER_SIZE + PCX_TAIL;

    p->in = in;
    MD2_TRY(md2__reserved_pcx_input(in, d));
    MD2_TRY(check_input(p, d));
    memset(p->palette, 0, sizeof p->palette);
    if (in->palette)
        memcpy(p->palette, in->palette, sizeof p->palette);
    if (in->rgba)
        MD2_TRY(check_colours(p, d));
    for (y = 0; y < in->height; y++)
        size += encode_line(p, y, NULL);
    p->size = size; /* at most the worst case, which fits size_t */
    return MD2_OK;
}

static void write_header(const pcx_plan *p, uint8_t *h)
{
    memset(h, 0, PCX_HEADER_SIZE);
    h[0] = 0x0A; /* ZSoft */
    h[1] = 5;    /* version 5: 256-colour palette at the end */
    h[2] = 1;    /* run-length encoding */
    h[3] = 8;    /* bits per pixel (per plane) */
    put16(h + 4, 0);  /* xmin */
    put16(h + 6, 0);  /* ymin */
    put16(h + 8, p->in->width - 1u);
    put16(h + 10, p->in->height - 1u);
    put16(h + 12, PCX_DPI);
    put16(h + 14, PCX_DPI);
    memcpy(h + 16, p->palette, 48); /* the 16-colour palette: the first 16 entries */
    h[65] = 1;                      /* planes */
    put16(h + 66, p->bytes_per_line);
    put16(h + 68, 1); /* palette_info: colour */
}

size_t md2_pcx_encode_size(const md2_pcx_input *in)
{
    pcx_plan p;
    if (!in || plan(&p, in, NULL) != MD2_OK)
        return 0;
    return (size_t)p.size;
}

md2_result md2_pcx_encode(const md2_pcx_input *in, void *buffer, size_t capacity,
                          size_t *written, md2_diagnostic *error)
{
    pcx_plan p;
    uint8_t *out = (uint8_t *)buffer;
    size_t at;
    uint32_t y;

    md2__diag_clear(error);
    if (written)
        *written = 0;
    if (!in || !buffer)
        return md2__fail(error, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE,
                         in ? "buffer" : "in", 0, 0, "md2_pcx_encode: %s is NULL",
                         in ? "buffer" : "in");
    MD2_TRY(plan(&p, in, error));
    if (capacity < p.size)
        return md2__fail(error, MD2_ERR_BUFFER_TOO_SMALL, MD2_SECTION_NONE, "capacity", 0, 0,
                         "md2_pcx_encode: the PCX has %llu bytes but the buffer holds %llu",
                         (unsigned long long)p.size, (unsigned long long)capacity);
    write_header(&p, out);
    at = PCX_HEADER_SIZE;
    for (y = 0; y < in->height; y++)
        at += encode_line(&p, y, out + at);
    out[at] = PCX_PALETTE_MARKER;
    memcpy(out + at + 1, p.palette, PCX_PALETTE_BYTES);
    if (written)
        *written = at + PCX_TAIL;
    return MD2_OK;
}
