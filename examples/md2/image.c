/*
 * The md2 command's skin loader, shared with md2_view (see image.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "image.h"

#include <md2/skin.h>
#include <stb/stb_image.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Images larger than this are refused before they are read. */
#define MAX_IMAGE_FILE (256u * 1024u * 1024u)

int tool_file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fclose(f);
    return 1;
}

/* The whole file at path in a malloc'd buffer (*data, *size), or 0 with a
 * message in err. */
static int read_file(const char *path, unsigned char **data, size_t *size,
                     char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    if (!f) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return 0;
    }
    for (;;) {
        size_t got;
        if (len == cap) {
            size_t new_cap = cap ? cap * 2 : 64u * 1024u;
            unsigned char *p;
            if (cap >= MAX_IMAGE_FILE) {
                snprintf(err, err_size, "%s is larger than %u bytes", path, MAX_IMAGE_FILE);
                free(buf);
                fclose(f);
                return 0;
            }
            p = (unsigned char *)realloc(buf, new_cap);
            if (!p) {
                snprintf(err, err_size, "out of memory reading %s", path);
                free(buf);
                fclose(f);
                return 0;
            }
            buf = p;
            cap = new_cap;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        snprintf(err, err_size, "cannot read %s", path);
        free(buf);
        fclose(f);
        return 0;
    }
    fclose(f);
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

int tool_image_decode(const char *label, const unsigned char *data, size_t size,
                      tool_image *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    /* PCX by name, or by its first byte (0x0A) when the name says nothing
     * stb_image knows */
    if (has_extension(label, ".pcx") ||
        (size > 0 && data[0] == 0x0A && !has_extension(label, ".png") &&
         !has_extension(label, ".tga") && !has_extension(label, ".bmp") &&
         !has_extension(label, ".jpg") && !has_extension(label, ".jpeg")))
        return load_pcx(label, data, size, out, err, err_size);
    return load_stb(label, data, size, out, err, err_size);
}

int tool_image_read(const char *path, tool_image *out, char *err, size_t err_size)
{
    unsigned char *data = NULL;
    size_t size = 0;
    int ok;
    memset(out, 0, sizeof *out);
    if (!read_file(path, &data, &size, err, err_size))
        return 0;
    ok = tool_image_decode(path, data, size, out, err, err_size);
    free(data);
    return ok;
}

void tool_image_free(tool_image *img)
{
    if (!img)
        return;
    free(img->rgba);
    memset(img, 0, sizeof *img);
}
