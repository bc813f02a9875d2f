/*
 * The md2 command's skin loader, shared with md2_view (see image.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "image.h"
#include "platform.h"

#include <md2/skin.h>
#include <stb/stb_image.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Images larger than this are refused before they are read. */
#define MAX_IMAGE_FILE (256u * 1024u * 1024u)

const char *tool_errno_text(int e)
{
    switch (e) {
    case ENOENT: return "no such file or directory";
    case ENOTDIR: return "a component of the path is not a directory";
    case EACCES: return "permission denied";
    case EISDIR: return "is a directory";
    case ELOOP: return "too many levels of symbolic links";
    case ENAMETOOLONG: return "file name too long";
    default: return tool_sys_strerror(e);
    }
}

/* What a file that is not a regular file is, for messages. */
static const char *kind_of(int kind)
{
    switch (kind) {
    case TOOL_SYS_DIRECTORY: return "is a directory";
    case TOOL_SYS_FIFO: return "not a regular file (a FIFO)";
    case TOOL_SYS_CHAR: return "not a regular file (a character device)";
    case TOOL_SYS_BLOCK: return "not a regular file (a block device)";
    case TOOL_SYS_SOCKET: return "not a regular file (a socket)";
    default: return "not a regular file";
    }
}

int tool_open_input(const char *path, int streams, int *missing, char *why, size_t why_size)
{
    tool_sys_stat st;
    int fd;
    *missing = 0;
    if (why_size)
        why[0] = '\0';
    /* never waits on the way (a FIFO without a writer); then what was
     * opened is looked at */
    fd = tool_sys_open_read(path);
    if (fd < 0) {
        *missing = errno == ENOENT;
        snprintf(why, why_size, "%s", tool_errno_text(errno));
        return -1;
    }
    if (tool_sys_stat_fd(fd, &st) != 0) {
        snprintf(why, why_size, "%s", tool_errno_text(errno));
        tool_sys_close(fd);
        return -1;
    }
    if (st.kind != TOOL_SYS_REGULAR &&
        !(streams && (st.kind == TOOL_SYS_FIFO || st.kind == TOOL_SYS_CHAR))) {
        snprintf(why, why_size, "%s", kind_of(st.kind));
        tool_sys_close(fd);
        return -1;
    }
    return fd;
}

size_t tool_read_fd(int fd, void *dst, size_t size, int *error)
{
    size_t got = 0;
    while (got < size) {
        long n = tool_sys_read(fd, (unsigned char *)dst + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            *error = errno;
            return (size_t)-1;
        }
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return got;
}

int tool_file_exists(const char *path)
{
    char why[64];
    int missing, fd = tool_open_input(path, 0, &missing, why, sizeof why);
    if (fd < 0)
        return 0;
    tool_sys_close(fd);
    return 1;
}

int tool_read_regular(const char *path, size_t max_size, unsigned char **data, size_t *size,
                      char *err, size_t err_size)
{
    tool_sys_stat st;
    unsigned char *buf;
    size_t len, got;
    int missing, error = 0, fd;
    char why[128];
    *data = NULL;
    *size = 0;
    fd = tool_open_input(path, 0, &missing, why, sizeof why);
    if (fd < 0) {
        snprintf(err, err_size, "cannot open %s: %s", path, why);
        return 0;
    }
    if (tool_sys_stat_fd(fd, &st) != 0) {
        snprintf(err, err_size, "cannot read %s: %s", path, tool_errno_text(errno));
        tool_sys_close(fd);
        return 0;
    }
    if ((unsigned long long)st.size > (unsigned long long)max_size) {
        snprintf(err, err_size, "%s is larger than %lu bytes", path, (unsigned long)max_size);
        tool_sys_close(fd);
        return 0;
    }
    len = (size_t)st.size;
    /* one byte more: to see that the file grew since it was measured; it ends the
     * text with a NUL */
    buf = (unsigned char *)malloc(len + 1);
    if (!buf) {
        snprintf(err, err_size, "out of memory reading %s", path);
        tool_sys_close(fd);
        return 0;
    }
    got = tool_read_fd(fd, buf, len + 1, &error);
    tool_sys_close(fd);
    if (got == (size_t)-1) {
        snprintf(err, err_size, "cannot read %s: %s", path, tool_errno_text(error));
        free(buf);
        return 0;
    }
    if (got != len) {
        snprintf(err, err_size, "cannot read %s: it changed size while it was read", path);
        free(buf);
        return 0;
    }
    buf[len] = 0;
    *data = buf;
    *size = len;
    return 1;
}

/* 1 if path ends with ext (".pcx"), ignoring ASCII case. */
static int has_extension(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext), i;
    if (n < e)
        return 0;
    for (i = 0; i < e; i++) {
        char a = path[n - e + i], b = ext[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (a != b)
            return 0;
    }
    return 1;
}

static int load_pcx(const char *path, const unsigned char *data, size_t size,
                    tool_image *out, char *err, size_t err_size)
{
    md2_options opts;
    md2_diagnostic diag;
    md2_image *img = NULL;
    size_t bytes;
    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    if (md2_pcx_decode(data, size, &opts, &img) != MD2_OK) {
        snprintf(err, err_size, "%s: %s", path, diag.message);
        return 0;
    }
    if (img->width > (uint32_t)INT_MAX / 4u / img->height) {
        snprintf(err, err_size, "%s: %ux%u pixels is too large", path,
                 (unsigned)img->width, (unsigned)img->height);
        md2_image_free(img);
        return 0;
    }
    bytes = (size_t)img->width * img->height * 4u;
    out->rgba = (unsigned char *)malloc(bytes);
    if (!out->rgba) {
        snprintf(err, err_size, "out of memory decoding %s", path);
        md2_image_free(img);
        return 0;
    }
    memcpy(out->rgba, img->rgba, bytes);
    out->width = (int)img->width;
    out->height = (int)img->height;
    md2_image_free(img);
    return 1;
}

static int load_stb(const char *path, const unsigned char *data, size_t size,
                    tool_image *out, char *err, size_t err_size)
{
    int w = 0, h = 0, channels = 0;
    unsigned char *pixels;
    size_t bytes;
    if (size > (size_t)INT_MAX) {
        snprintf(err, err_size, "%s is too large", path);
        return 0;
    }
    pixels = stbi_load_from_memory(data, (int)size, &w, &h, &channels, 4);
    if (!pixels) {
        snprintf(err, err_size, "%s: stb_image cannot read it (%s)", path,
                 stbi_failure_reason() ? stbi_failure_reason() : "unknown reason");
        return 0;
    }
    /* a copy in malloc'd memory, so that tool_image_free() is one free() */
    bytes = (size_t)w * (size_t)h * 4u;
    out->rgba = (unsigned char *)malloc(bytes);
    if (!out->rgba) {
        snprintf(err, err_size, "out of memory decoding %s", path);
        stbi_image_free(pixels);
        return 0;
    }
    memcpy(out->rgba, pixels, bytes);
    stbi_image_free(pixels);
    out->width = w;
    out->height = h;
    return 1;
}

/* The formats a skin may have, told by the file's first bytes, never by
 * its name (stb_image would also decode GIF, PSD, HDR, PIC and PNM under
 * any name: more decoder than a skin needs). */
enum { FORMAT_UNKNOWN, FORMAT_PCX, FORMAT_PNG, FORMAT_JPEG, FORMAT_BMP, FORMAT_TGA };

static int format_of(const char *path, const unsigned char *d, size_t n)
{
    static const unsigned char png[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (n >= 8 && memcmp(d, png, 8) == 0)
        return FORMAT_PNG;
    if (n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF)
        return FORMAT_JPEG;
    if (n >= 2 && d[0] == 'B' && d[1] == 'M')
        return FORMAT_BMP;
    if (n >= 1 && d[0] == 0x0A)
        return FORMAT_PCX;
    /* TGA has no signature: a file named .tga whose header is one (no
     * colour map or one of type 1; image type 1, 2, 3, 9, 10 or 11) */
    if (n >= 18 && has_extension(path, ".tga") && d[1] <= 1 &&
        (d[2] == 1 || d[2] == 2 || d[2] == 3 || d[2] == 9 || d[2] == 10 || d[2] == 11))
        return FORMAT_TGA;
    return FORMAT_UNKNOWN;
}

/* The size a PCX header gives (xmax - xmin + 1 by ymax - ymin + 1). */
static void pcx_size(const unsigned char *d, size_t n, long *w, long *h)
{
    *w = *h = 0;
    if (n < 12)
        return;
    *w = (long)(d[8] | d[9] << 8) - (long)(d[4] | d[5] << 8) + 1;
    *h = (long)(d[10] | d[11] << 8) - (long)(d[6] | d[7] << 8) + 1;
}

/* The size a PNG's IHDR gives, read here: stb_image refuses one of more
 * than 2^24 a side, and its stbi_info() then tells "unknown image type". */
static int png_size(const unsigned char *d, size_t n, long *w, long *h)
{
    if (n < 24 || memcmp(d + 12, "IHDR", 4) != 0)
        return 0;
    *w = (long)((unsigned long)d[16] << 24 | (unsigned long)d[17] << 16 | (unsigned long)d[18] << 8 | d[19]);
    *h = (long)((unsigned long)d[20] << 24 | (unsigned long)d[21] << 16 | (unsigned long)d[22] << 8 | d[23]);
    return 1;
}

/* The format (FORMAT_*) and size of the image in data from its signature
 * and header, or FORMAT_UNKNOWN with the reason in err. */
static int header_of(const char *label, const unsigned char *data, size_t size, long *pw, long *ph,
                     char *err, size_t err_size)
{
    int format, w = 0, h = 0, channels = 0;
    format = format_of(label, data, size);
    if (format == FORMAT_UNKNOWN) {
        snprintf(err, err_size, "%s is not a PCX, PNG, JPEG or BMP file (by its first bytes), "
                 "nor a TGA file named .tga", label);
        return FORMAT_UNKNOWN;
    }
    /* the pixels, from the header, before any decoder allocates them */
    if (format == FORMAT_PCX) {
        pcx_size(data, size, pw, ph);
    } else if (format == FORMAT_PNG && png_size(data, size, pw, ph) &&
               (double)*pw * (double)*ph > (double)TOOL_MAX_SKIN_PIXELS) {
        return format; /* too large: said by the caller, with its limit */
    } else if (size <= (size_t)INT_MAX && stbi_info_from_memory(data, (int)size, &w, &h,
                                                               &channels)) {
        *pw = w;
        *ph = h;
    } else {
        /* no size, no decoding: the pixel limit must hold before a decoder
         * allocates anything */
        snprintf(err, err_size, "%s: stb_image cannot read its size (%s)", label,
                 stbi_failure_reason() ? stbi_failure_reason() : "unknown reason");
        return FORMAT_UNKNOWN;
    }
    return format;
}

int tool_image_size(const char *label, const unsigned char *data, size_t size, long *w, long *h,
                    char *err, size_t err_size)
{
    *w = *h = 0;
    return header_of(label, data, size, w, h, err, err_size) != FORMAT_UNKNOWN;
}

/* The image in data (size bytes; label names it in messages and, for TGA,
 * by its name): its format by signature and its size by its header, both
 * checked before a decoder sees it. */
static int decode_max(const char *label, const unsigned char *data, size_t size,
                      unsigned long max_pixels, const char *option, tool_image *out, char *err,
                      size_t err_size)
{
    int format;
    long pw = 0, ph = 0;
    double pixels;
    memset(out, 0, sizeof *out);
    if ((format = header_of(label, data, size, &pw, &ph, err, err_size)) == FORMAT_UNKNOWN)
        return 0;
    pixels = (double)pw * (double)ph;
    if (pixels > (double)max_pixels) {
        snprintf(err, err_size, "%s: a %ldx%ld image is over the limit of %lu pixels for a "
                 "skin%s%s%s", label, pw, ph, max_pixels, option ? "; " : "",
                 option ? option : "", option ? " raises it" : "");
        return 0;
    }
    if (format == FORMAT_PCX)
        return load_pcx(label, data, size, out, err, err_size);
    return load_stb(label, data, size, out, err, err_size);
}

int tool_image_decode(const char *label, const unsigned char *data, size_t size,
                      tool_image *out, char *err, size_t err_size)
{
    return decode_max(label, data, size, TOOL_MAX_SKIN_PIXELS, NULL, out, err, err_size);
}

int tool_image_read_max(const char *path, unsigned long max_pixels, const char *option,
                        tool_image *out, char *err, size_t err_size)
{
    unsigned char *data = NULL;
    size_t size = 0;
    int ok;
    memset(out, 0, sizeof *out);
    if (!tool_read_regular(path, MAX_IMAGE_FILE, &data, &size, err, err_size))
        return 0;
    ok = decode_max(path, data, size, max_pixels, option, out, err, err_size);
    free(data);
    return ok;
}

int tool_image_read(const char *path, tool_image *out, char *err, size_t err_size)
{
    return tool_image_read_max(path, TOOL_MAX_SKIN_PIXELS, NULL, out, err, err_size);
}

void tool_image_free(tool_image *img)
{
    if (!img)
        return;
    free(img->rgba);
    memset(img, 0, sizeof *img);
}

/* The source pixels [*first, *last) an output pixel i of n covers along an
 * axis of size from, and the weight of each in w (at most from + 1). */
static void footprint(int i, int n, int from, int *first, int *last, double *w)
{
    double a = (double)i * from / n, b = (double)(i + 1) * from / n;
    int k;
    *first = (int)a;
    *last = (int)b;
    if (*last < from && (double)*last < b)
        (*last)++;
    if (*last <= *first)
        *last = *first + 1;
    for (k = *first; k < *last; k++) {
        double lo = k > a ? k : a, hi = k + 1 < b ? k + 1 : b;
        w[k - *first] = hi > lo ? hi - lo : 0;
    }
}

int tool_image_resize(const tool_image *src, int width, int height, tool_image *out)
{
    double *wx, *wy;
    int x, y;
    out->width = out->height = 0;
    out->rgba = NULL;
    if (width < 1 || height < 1 || (unsigned long)width * (unsigned long)height > TOOL_MAX_SKIN_PIXELS)
        return 0;
    out->rgba = (unsigned char *)malloc((size_t)width * (size_t)height * 4);
    wx = (double *)malloc(((size_t)src->width + 2) * sizeof *wx);
    wy = (double *)malloc(((size_t)src->height + 2) * sizeof *wy);
    if (!out->rgba || !wx || !wy) {
        free(out->rgba);
        free(wx);
        free(wy);
        out->rgba = NULL;
        return 0;
    }
    out->width = width;
    out->height = height;
    for (y = 0; y < height; y++) {
        int y0, y1, x0, x1, i, j, c;
        footprint(y, height, src->height, &y0, &y1, wy);
        for (x = 0; x < width; x++) {
            double sum[4] = {0, 0, 0, 0}, total = 0;
            footprint(x, width, src->width, &x0, &x1, wx);
            for (j = y0; j < y1; j++)
                for (i = x0; i < x1; i++) {
                    const unsigned char *p = src->rgba + 4 * ((size_t)j * (size_t)src->width + (size_t)i);
                    double w = wx[i - x0] * wy[j - y0];
                    for (c = 0; c < 4; c++)
                        sum[c] += w * p[c];
                    total += w;
                }
            for (c = 0; c < 4; c++)
                out->rgba[4 * ((size_t)y * (size_t)width + (size_t)x) + (size_t)c] =
                    (unsigned char)(total > 0 ? sum[c] / total + 0.5 : 0);
        }
    }
    free(wx);
    free(wy);
    return 1;
}
