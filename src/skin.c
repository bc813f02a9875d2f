/*
 * Skins (<md2/skin.h>): PCX images decoded to RGBA, and the candidate
 * paths of a skin file.
 *
 * md2_pcx_decode() checks the whole file before it allocates: the header,
 * the caller's size limit, the palette, a bound on the pixels the
 * run-length data can hold, and then a pass over the run-length data that
 * decodes nothing but counts. Only a file that will decode gets its one
 * allocation, and the decoding pass that follows cannot fail.
 *
 * SPDX-License-Identifier: MIT
 */
#include "md2/skin.h"
#include "diag.h"
#include "reserved.h"
#include "reader.h"

#include <string.h>

/* ------------------------------------------------------------------------ */
/* PCX layout                                                                */
/* ------------------------------------------------------------------------ */

#define PCX_HEADER_SIZE 128u
#define PCX_MANUFACTURER 0x0Au   /* ZSoft */
#define PCX_ENCODING_RLE 1u
#define PCX_PALETTE_MARKER 0x0Cu /* the byte before a 256-colour palette */
#define PCX_PALETTE_BYTES 768u   /* 256 RGB triples */
#define PCX_PALETTE_TAIL (1u + PCX_PALETTE_BYTES)
#define PCX_RUN_FLAG 0xC0u       /* a byte >= this starts a run ... */
#define PCX_RUN_COUNT 0x3Fu      /* ... of (byte & 0x3F) copies of the next */

/* Byte offsets of the header fields read here. */
enum {
    PCX_AT_MANUFACTURER = 0,
    PCX_AT_VERSION = 1,
    PCX_AT_ENCODING = 2,
    PCX_AT_BITS_PER_PIXEL = 3,
    PCX_AT_XMIN = 4,
    PCX_AT_YMIN = 6,
    PCX_AT_XMAX = 8,
    PCX_AT_YMAX = 10,
    PCX_AT_NPLANES = 65,
    PCX_AT_BYTES_PER_LINE = 66
};

/* What the header says, and where the run-length data lies. */
typedef struct pcx_info {
    const uint8_t *data;
    size_t size;
    md2_diagnostic *err;
    unsigned nplanes;         /* 1: palette indices, 3: R, G, B planes */
    uint32_t width, height;   /* from the window, 1 to 65536 each */
    uint32_t bytes_per_line;  /* bytes of one plane of one scanline */
    uint64_t line_bytes;      /* nplanes * bytes_per_line */
    uint64_t stream;          /* decoded bytes: height * line_bytes */
    size_t rle_end;           /* run-length data is [128, rle_end) */
    const uint8_t *palette;   /* 768 bytes (8-bit), or NULL */
} pcx_info;

static md2_result pcx_fail(const pcx_info *p, md2_result r, const char *field,
                           size_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* md2__fail() for a PCX: section NONE, the field, the byte offset. */
static md2_result pcx_fail(const pcx_info *p, md2_result r, const char *field,
                           size_t offset, const char *fmt, ...)
{
    va_list ap;
    if (!p->err)
        return r;
    md2__fail(p->err, r, MD2_SECTION_NONE, field, offset, 0, "%s", "");
    va_start(ap, fmt);
    md2__vformat(p->err, fmt, ap);
    va_end(ap);
    return r;
}

/* The format: manufacturer, version, encoding, bits and planes. */
static md2_result check_format(const pcx_info *p)
{
    const uint8_t *h = p->data;
    unsigned version = h[PCX_AT_VERSION];

    if (h[PCX_AT_MANUFACTURER] != PCX_MANUFACTURER)
        return pcx_fail(p, MD2_ERR_BAD_MAGIC, "manufacturer", PCX_AT_MANUFACTURER,
                        "pcx header: manufacturer (byte 0) is 0x%02X, not 0x0A: not a PCX file",
                        (unsigned)h[PCX_AT_MANUFACTURER]);
    if (version != 0 && version != 2 && version != 3 && version != 4 && version != 5)
        return pcx_fail(p, MD2_ERR_BAD_VERSION, "version", PCX_AT_VERSION,
                        "pcx header: version (byte 1) is %u; PCX versions are 0, 2, 3, 4 and 5",
                        version);
    if (h[PCX_AT_ENCODING] != PCX_ENCODING_RLE)
        return pcx_fail(p, MD2_ERR_BAD_VERSION, "encoding", PCX_AT_ENCODING,
                        "pcx header: encoding (byte 2) is %u; only 1 (run-length) is supported",
                        (unsigned)h[PCX_AT_ENCODING]);
    if (h[PCX_AT_BITS_PER_PIXEL] != 8)
        return pcx_fail(p, MD2_ERR_BAD_VERSION, "bits_per_pixel", PCX_AT_BITS_PER_PIXEL,
                        "pcx header: bits_per_pixel (byte 3) is %u; only 8 (with 1 plane: "
                        "256 colours, or 3 planes: 24-bit RGB) is supported",
                        (unsigned)h[PCX_AT_BITS_PER_PIXEL]);
    if (h[PCX_AT_NPLANES] != 1 && h[PCX_AT_NPLANES] != 3)
        return pcx_fail(p, MD2_ERR_BAD_VERSION, "nplanes", PCX_AT_NPLANES,
                        "pcx header: nplanes (byte 65) is %u; only 1 (256 colours) and 3 "
                        "(24-bit RGB) are supported",
                        (unsigned)h[PCX_AT_NPLANES]);
    return MD2_OK;
}

/* The window and the scanline size. */
static md2_result check_sizes(pcx_info *p)
{
    const uint8_t *h = p->data;
    uint16_t xmin = md2_le16(h + PCX_AT_XMIN), ymin = md2_le16(h + PCX_AT_YMIN);
    uint16_t xmax = md2_le16(h + PCX_AT_XMAX), ymax = md2_le16(h + PCX_AT_YMAX);

    if (xmax < xmin)
        return pcx_fail(p, MD2_ERR_BAD_COUNT, "xmax", PCX_AT_XMAX,
                        "pcx header: xmax (byte 8) is %u, less than xmin (byte 4) = %u",
                        (unsigned)xmax, (unsigned)xmin);
    if (ymax < ymin)
        return pcx_fail(p, MD2_ERR_BAD_COUNT, "ymax", PCX_AT_YMAX,
                        "pcx header: ymax (byte 10) is %u, less than ymin (byte 6) = %u",
                        (unsigned)ymax, (unsigned)ymin);
    p->nplanes = h[PCX_AT_NPLANES];
    p->width = (uint32_t)xmax - xmin + 1u;
    p->height = (uint32_t)ymax - ymin + 1u;
    p->bytes_per_line = md2_le16(h + PCX_AT_BYTES_PER_LINE);
    if (p->bytes_per_line < p->width)
        return pcx_fail(p, MD2_ERR_BAD_COUNT, "bytes_per_line", PCX_AT_BYTES_PER_LINE,
                        "pcx header: bytes_per_line (byte 66) is %lu, less than the width "
                        "of %lu pixels (xmax - xmin + 1)",
                        (unsigned long)p->bytes_per_line, (unsigned long)p->width);
    /* at most 3 * 65535 and 65536 * that: no overflow in 64 bits */
    p->line_bytes = (uint64_t)p->nplanes * p->bytes_per_line;
    p->stream = (uint64_t)p->height * p->line_bytes;
    return MD2_OK;
}

/* The palette of an 8-bit image: the last 769 bytes, a 0x0C marker and
 * 768 RGB bytes. The run-length data ends where it starts. */
static md2_result find_palette(pcx_info *p)
{
    size_t at;

    p->rle_end = p->size;
    p->palette = NULL;
    if (p->nplanes != 1)
        return MD2_OK;
    if (p->size < PCX_HEADER_SIZE + PCX_PALETTE_TAIL)
        return pcx_fail(p, MD2_ERR_SECTION_OUT_OF_BOUNDS, "palette", p->size,
                        "pcx palette: the data has %lu bytes, too few for the 128-byte header "
                        "and the 769-byte palette (0x0C and 768 RGB bytes) that end an "
                        "8-bit PCX",
                        (unsigned long)p->size);
    at = p->size - PCX_PALETTE_TAIL;
    if (p->data[at] != PCX_PALETTE_MARKER)
        return pcx_fail(p, MD2_ERR_SECTION_OUT_OF_BOUNDS, "palette", at,
                        "pcx palette: byte %lu (769 bytes before the end) is 0x%02X, not the "
                        "0x0C that marks the 256-colour palette of an 8-bit PCX: the palette "
                        "is missing or the file is cut short",
                        (unsigned long)at, (unsigned)p->data[at]);
    p->rle_end = at;
    p->palette = p->data + at + 1;
    return MD2_OK;
}

/* The most decoded bytes n bytes of run-length data can hold: a pair of
 * bytes gives at most 63, a lone byte 1. */
static uint64_t rle_capacity(size_t n)
{
    return (uint64_t)(n / 2) * PCX_RUN_COUNT + (uint64_t)(n % 2);
}

/* The image fits what the data can encode, and in memory. *total is the
 * size of the allocation: the md2_image and width * height * 4 bytes. */
static md2_result check_bounds(const pcx_info *p, size_t *total)
{
    size_t n = p->rle_end - PCX_HEADER_SIZE;
    uint64_t pixels = (uint64_t)p->width * p->height;

    if (p->stream > rle_capacity(n))
        return pcx_fail(p, MD2_ERR_SECTION_OUT_OF_BOUNDS, "pixels", PCX_HEADER_SIZE,
                        "pcx pixels: the image (%lu x %lu, %u plane%s of %lu bytes a line) "
                        "needs %llu bytes, more than the %lu bytes of run-length data from "
                        "byte 128 can hold (at most %llu)",
                        (unsigned long)p->width, (unsigned long)p->height, p->nplanes,
                        p->nplanes == 1 ? "" : "s", (unsigned long)p->bytes_per_line,
                        (unsigned long long)p->stream, (unsigned long)n,
                        (unsigned long long)rle_capacity(n));
    if (pixels > (SIZE_MAX - sizeof(md2_image)) / 4u)
        return pcx_fail(p, MD2_ERR_OUT_OF_MEMORY, "", 0,
                        "md2_pcx_decode: a %lu x %lu image does not fit in memory",
                        (unsigned long)p->width, (unsigned long)p->height);
    *total = sizeof(md2_image) + (size_t)pixels * 4u;
    return MD2_OK;
}

/* Where decoding stands: the next decoded byte is pixel x of plane
 * `plane` of scanline `row` (x may be in the padding past the width). */
typedef struct pcx_cursor {
    uint32_t x, plane, row;
} pcx_cursor;

/* Writes count copies of the decoded byte v from the cursor on into rgba
 * (the pad bytes past the width are dropped) and moves the cursor. count
 * never takes the cursor past the last scanline. */
static void put_run(const pcx_info *p, uint8_t *rgba, pcx_cursor *c, uint8_t v,
                    uint64_t count)
{
    while (count > 0) {
        uint32_t left = p->bytes_per_line - c->x;
        uint32_t span = count < left ? (uint32_t)count : left;
        if (c->x < p->width) {
            uint32_t visible = p->width - c->x < span ? p->width - c->x : span;
            uint8_t *out = rgba + ((size_t)c->row * p->width + c->x) * 4u;
            uint32_t i;
            if (p->palette) {
                const uint8_t *rgb = p->palette + 3u * v;
                for (i = 0; i < visible; i++, out += 4) {
                    out[0] = rgb[0];
                    out[1] = rgb[1];
                    out[2] = rgb[2];
                    out[3] = 255;
                }
            } else {
                for (i = 0; i < visible; i++, out += 4)
                    out[c->plane] = v;
            }
        }
        count -= span;
        c->x += span;
        if (c->x == p->bytes_per_line) {
            c->x = 0;
            if (++c->plane == p->nplanes) {
                c->plane = 0;
                c->row++;
            }
        }
    }
}

/* Runs through the run-length data until the image's p->stream bytes are
 * decoded, into rgba (or, with rgba NULL, only counting). A run that goes
 * past the image's last byte is cut there; runs may cross scanlines and
 * planes. Returns the decoded bytes (p->stream unless the data ran out)
 * and the offset where reading stopped in *stop: the byte after the
 * image's last run, or where the data ran out. */
static uint64_t rle_walk(const pcx_info *p, uint8_t *rgba, size_t *stop)
{
    const uint8_t *d = p->data;
    size_t at = PCX_HEADER_SIZE;
    uint64_t done = 0;
    pcx_cursor c = {0, 0, 0};

    while (done < p->stream && at < p->rle_end) {
        uint64_t count = 1;
        uint8_t v = d[at];
        if (v >= PCX_RUN_FLAG) {
            if (p->rle_end - at < 2)
                break; /* a run's count without its value */
            count = v & PCX_RUN_COUNT;
            v = d[at + 1];
            at += 2;
        } else {
            at++;
        }
        if (count > p->stream - done)
            count = p->stream - done;
        if (rgba)
            put_run(p, rgba, &c, v, count);
        done += count;
    }
    *stop = at;
    return done;
}

/* The counting pass: the data holds every byte of the image. */
static md2_result check_pixels(const pcx_info *p)
{
    size_t stop;
    uint64_t done = rle_walk(p, NULL, &stop);

    if (done < p->stream) {
        uint64_t row = done / p->line_bytes;
        uint64_t plane = done % p->line_bytes / p->bytes_per_line;
        int cut_run = stop < p->rle_end; /* a count byte was the last one */
        return pcx_fail(p, MD2_ERR_SECTION_OUT_OF_BOUNDS, "pixels", stop,
                        "pcx pixels: the run-length data ends at byte %lu (%s)%s after %llu of "
                        "the %llu bytes the image needs (scanline %llu, plane %llu)",
                        (unsigned long)(cut_run ? p->rle_end : stop),
                        p->palette ? "where the palette starts" : "the end of the data",
                        cut_run ? ", inside a run," : "", (unsigned long long)done,
                        (unsigned long long)p->stream, (unsigned long long)row,
                        (unsigned long long)plane);
    }
    return MD2_OK;
}

md2_result md2_pcx_decode(const void *data, size_t size, const md2_options *opts,
                          md2_image **out)
{
    md2_diagnostic *err = opts ? opts->error : NULL;
    size_t max = opts ? opts->limits.max_file_size : 0;
    size_t total = 0, stop;
    pcx_info p;
    md2_allocator a;
    md2_image *img;
    uint8_t *pixels;

    md2__diag_clear(err);
    if (!out)
        return md2__fail(err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "out", 0, 0,
                         "md2_pcx_decode: out is NULL");
    *out = NULL;
    if (!data)
        return md2__fail(err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "data", 0, 0,
                         "md2_pcx_decode: data is NULL");
    MD2_TRY(md2__reserved_options(opts));
    memset(&p, 0, sizeof p);
    p.data = (const uint8_t *)data;
    p.size = size;
    p.err = err;
    if (size < PCX_HEADER_SIZE)
        return pcx_fail(&p, MD2_ERR_TRUNCATED_HEADER, "header", size,
                        "pcx header: the data has %lu bytes, fewer than the 128 of a PCX header",
                        (unsigned long)size);
    MD2_TRY(check_format(&p));
    MD2_TRY(check_sizes(&p));
    if (max != 0 && size > max)
        return pcx_fail(&p, MD2_ERR_LIMIT_EXCEEDED, "max_file_size", max,
                        "the data has %lu bytes, more than the caller's max_file_size of %lu",
                        (unsigned long)size, (unsigned long)max);
    MD2_TRY(find_palette(&p));
    MD2_TRY(check_bounds(&p, &total));
    MD2_TRY(check_pixels(&p));

    a = md2__allocator(opts);
    img = (md2_image *)a.alloc(a.user, total);
    if (!img)
        return pcx_fail(&p, MD2_ERR_OUT_OF_MEMORY, "", 0,
                        "md2_pcx_decode: allocating %lu bytes for the image failed",
                        (unsigned long)total);
    memset(img, 0, sizeof *img);
    pixels = (uint8_t *)img + sizeof(md2_image);
    if (!p.palette) /* 24-bit: the planes fill R, G, B; alpha is opaque */
        memset(pixels, 255, total - sizeof(md2_image));
    rle_walk(&p, pixels, &stop);
    img->width = p.width;
    img->height = p.height;
    img->rgba = pixels;
    img->allocator_ = a;
    *out = img;
    return MD2_OK;
}

void md2_image_free(md2_image *image)
{
    if (!image || !image->allocator_.free)
        return;
    image->allocator_.free(image->allocator_.user, image);
}

/* ------------------------------------------------------------------------ */
/* Skin lookup                                                               */
/* ------------------------------------------------------------------------ */

#define SKIN_NUM_EXTS 5
#define SKIN_NUM_CANDIDATES (2 * (1 + SKIN_NUM_EXTS))

/* .bmp last: Irrlicht's models ship BMP skins (sydney.md2, sydney.bmp) */
static const char *const skin_exts[SKIN_NUM_EXTS] = {".pcx", ".png", ".tga", ".jpg", ".bmp"};

static int is_sep(char c) { return c == '/' || c == '\\'; }

/* Offset just past the last separator of s[0, n) (0 if none). */
static size_t after_last_sep(const char *s, size_t n)
{
    while (n > 0 && !is_sep(s[n - 1]))
        n--;
    return n;
}

/* Length of a file name without its extension: the last '.' and what
 * follows, unless that '.' is the name's first character. */
static size_t base_len(const char *name, size_t n)
{
    size_t i = n;
    while (i > 1 && name[i - 1] != '.')
        i--;
    return i > 1 ? i - 1 : n;
}

/* Equal strings, '/' and '\\' counting as the same character. */
static int same_path(const char *a, const char *b)
{
    for (;; a++, b++) {
        if (*a != *b && !(is_sep(*a) && is_sep(*b)))
            return 0;
        if (*a == '\0')
            return 1;
    }
}

/* The parts candidates are made of. */
typedef struct skin_parts {
    const char *root;   /* prefix of the game-root candidates, or NULL */
    size_t root_len;
    int root_sep;       /* 1: a '/' goes between root and skin */
    const char *skin;   /* skin_name */
    size_t skin_len, skin_base; /* its length, and without its extension */
    const char *dir;    /* the model's directory with its final separator */
    size_t dir_len;     /* (0: the model path names no directory) */
    const char *file;   /* the skin's file name */
    size_t file_len, file_base;
    int with_ext_only;  /* 1: no candidate of the name as it is (the model's own name) */
} skin_parts;

/* 1 if name may be joined to a game root: relative (no leading
 * separator, no drive letter) and without a ".." component. */
static int is_safe_relative(const char *name, size_t n)
{
    size_t i, start = 0;
    if (n == 0 || is_sep(name[0]) || (n >= 2 && name[1] == ':'))
        return 0;
    for (i = 0; i <= n; i++) {
        if (i == n || is_sep(name[i])) {
            if (i - start == 2 && name[start] == '.' && name[start + 1] == '.')
                return 0;
            start = i + 1;
        }
    }
    return 1;
}

/* The game root inferred from the model's directory: the part of it
 * before the skin's own directory, when the model's directory ends with
 * that (at a separator). */
static void infer_root(skin_parts *s, const char *model_path)
{
    size_t skin_dir = after_last_sep(s->skin, s->skin_len);
    size_t model_dir, k, i;
    if (skin_dir == 0 || s->dir_len == 0)
        return;
    skin_dir--; /* without its final separator */
    model_dir = s->dir_len - 1;
    if (model_dir < skin_dir)
        return;
    k = model_dir - skin_dir; /* where the skin's directory would start */
    if (k > 0 && !is_sep(model_path[k - 1]))
        return;
    for (i = 0; i < skin_dir; i++) {
        char m = model_path[k + i], n = s->skin[i];
        if (m != n && !(is_sep(m) && is_sep(n)))
            return;
    }
    s->root = model_path;
    s->root_len = k;
    s->root_sep = 0; /* empty, or ends with a separator */
}

/* 1 if skin_name is one of UFO:AI's "this name, beside the model" names:
 * a '.' and then a name (".body"), not "./x", "../x" or ".". */
static int is_beside_name(const char *skin_name)
{
    char c = skin_name[0] == '.' ? skin_name[1] : '\0';
    return c != '\0' && c != '.' && !is_sep(c);
}

/* Splits the arguments into the parts of the candidates. skin_name NULL:
 * the model's own name. 0 if there is no file name to look for. */
static int skin_split(skin_parts *s, const char *model_path, const char *skin_name,
                      const char *game_root)
{
    size_t model_len = strlen(model_path), f;

    memset(s, 0, sizeof *s);
    s->dir = model_path;
    s->dir_len = after_last_sep(model_path, model_len);
    if (!skin_name) { /* the model names no skin: its own name, beside it */
        s->file = model_path + s->dir_len;
        s->file_len = model_len - s->dir_len;
        s->file_base = base_len(s->file, s->file_len);
        s->with_ext_only = 1;
        return s->file_len > 0;
    }
    s->skin = skin_name;
    s->skin_len = strlen(skin_name);
    f = after_last_sep(skin_name, s->skin_len);
    s->file = skin_name + f;
    s->file_len = s->skin_len - f;
    if (s->file_len == 0 || strcmp(s->file, ".") == 0 || strcmp(s->file, "..") == 0)
        return 0;
    if (is_beside_name(skin_name)) {
        /* ".body": body.* beside the model, never under a root */
        if (f == 0) {
            s->file++;
            s->file_len--;
        }
        s->file_base = base_len(s->file, s->file_len);
        return 1;
    }
    s->file_base = base_len(s->file, s->file_len);
    s->skin_base = f + s->file_base;
    if (!is_safe_relative(skin_name, s->skin_len))
        return 1; /* beside the model only */
    if (game_root) {
        s->root = game_root;
        s->root_len = strlen(game_root);
        s->root_sep = s->root_len > 0 && !is_sep(game_root[s->root_len - 1]);
    } else {
        infer_root(s, model_path);
    }
    return 1;
}

/* Appends n bytes of src at *len in buf (cap bytes); 0 if they do not fit
 * with a NUL. */
static int append(char *buf, size_t cap, size_t *len, const char *src, size_t n)
{
    if (n >= cap - *len)
        return 0;
    memcpy(buf + *len, src, n);
    *len += n;
    buf[*len] = '\0';
    return 1;
}

/* Candidate k (0 .. SKIN_NUM_CANDIDATES - 1) into buf (MD2_SKIN_PATH_MAX
 * bytes): 1 made, 0 no such candidate (no game root), -1 too long. */
static int skin_candidate(const skin_parts *s, int k, char *buf)
{
    const size_t cap = MD2_SKIN_PATH_MAX;
    size_t len = 0;
    int ext = k % (1 + SKIN_NUM_EXTS) - 1; /* -1: the name as it is */
    int ok;

    buf[0] = '\0';
    if (ext < 0 && s->with_ext_only)
        return 0;
    if (k < 1 + SKIN_NUM_EXTS) {
        if (!s->root)
            return 0;
        ok = append(buf, cap, &len, s->root, s->root_len) &&
             append(buf, cap, &len, "/", s->root_sep ? 1u : 0u) &&
             append(buf, cap, &len, s->skin, ext < 0 ? s->skin_len : s->skin_base);
    } else {
        ok = append(buf, cap, &len, s->dir, s->dir_len) &&
             append(buf, cap, &len, s->file, ext < 0 ? s->file_len : s->file_base);
    }
    if (ok && ext >= 0)
        ok = append(buf, cap, &len, skin_exts[ext], strlen(skin_exts[ext]));
    return ok ? 1 : -1;
}

/* 1 if candidate k was offered before as an earlier candidate. */
static int offered_before(const skin_parts *s, int k, const char *path)
{
    char other[MD2_SKIN_PATH_MAX];
    int j;
    for (j = 0; j < k; j++)
        if (skin_candidate(s, j, other) == 1 && same_path(other, path))
            return 1;
    return 0;
}

md2_result md2_skin_find(const char *model_path, const char *skin_name,
                         const char *game_root, md2_path_fn accept, void *user,
                         char *found, size_t found_size)
{
    char path[MD2_SKIN_PATH_MAX];
    skin_parts s;
    int k;

    if (found && found_size > 0)
        found[0] = '\0';
    if (!model_path || !accept || (skin_name && skin_name[0] == '\0'))
        return MD2_ERR_INVALID_ARGUMENT;
    if (!skin_split(&s, model_path, skin_name, game_root))
        return MD2_ERR_INVALID_ARGUMENT;
    /* every candidate fits before any is offered: the result does not
     * depend on which files exist */
    for (k = 0; k < SKIN_NUM_CANDIDATES; k++)
        if (skin_candidate(&s, k, path) < 0)
            return MD2_ERR_BUFFER_TOO_SMALL;
    for (k = 0; k < SKIN_NUM_CANDIDATES; k++) {
        size_t n;
        if (skin_candidate(&s, k, path) != 1 || offered_before(&s, k, path))
            continue;
        if (!accept(user, path))
            continue;
        n = strlen(path);
        if (found && n < found_size) {
            memcpy(found, path, n + 1);
        } else if (found) {
            return MD2_ERR_BUFFER_TOO_SMALL;
        }
        return MD2_OK;
    }
    return MD2_ERR_NOT_FOUND;
}
