/*
 * The byte buffer files are built in: little-endian writes, JSON strings
 * and numbers, base64 (bytes.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "bytes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tool_buf_free(tool_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

int tool_buf_reserve(tool_buf *b, size_t n)
{
    size_t cap;
    unsigned char *p;
    if (b->failed)
        return 0;
    if (b->capacity - b->size >= n)
        return 1;
    if (n > (size_t)-1 - b->size) {
        b->failed = 1;
        return 0;
    }
    cap = b->capacity ? b->capacity : 4096;
    while (cap - b->size < n) {
        if (cap > (size_t)-1 / 2) {
            cap = b->size + n;
            break;
        }
        cap *= 2;
    }
    p = (unsigned char *)realloc(b->data, cap);
    if (!p) {
        b->failed = 1;
        return 0;
    }
    b->data = p;
    b->capacity = cap;
    return 1;
}

void tool_buf_bytes(tool_buf *b, const void *data, size_t n)
{
    if (n == 0 || !tool_buf_reserve(b, n))
        return;
    memcpy(b->data + b->size, data, n);
    b->size += n;
}

void tool_buf_str(tool_buf *b, const char *s)
{
    tool_buf_bytes(b, s, strlen(s));
}

void tool_buf_printf(tool_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        tool_buf_bytes(b, small, (size_t)n);
        return;
    }
    /* longer than the stack buffer: format straight into the buffer */
    if (!tool_buf_reserve(b, (size_t)n + 1))
        return;
    va_start(ap, fmt);
    vsnprintf((char *)b->data + b->size, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->size += (size_t)n;
}

void tool_buf_u8(tool_buf *b, unsigned v)
{
    unsigned char c = (unsigned char)(v & 0xFFu);
    tool_buf_bytes(b, &c, 1);
}

void tool_buf_u16(tool_buf *b, unsigned v)
{
    unsigned char c[2];
    c[0] = (unsigned char)(v & 0xFFu);
    c[1] = (unsigned char)((v >> 8) & 0xFFu);
    tool_buf_bytes(b, c, 2);
}

void tool_buf_u32(tool_buf *b, uint32_t v)
{
    unsigned char c[4];
    c[0] = (unsigned char)(v & 0xFFu);
    c[1] = (unsigned char)((v >> 8) & 0xFFu);
    c[2] = (unsigned char)((v >> 16) & 0xFFu);
    c[3] = (unsigned char)((v >> 24) & 0xFFu);
    tool_buf_bytes(b, c, 4);
}

void tool_buf_f32(tool_buf *b, float v)
{
    uint32_t bits;
    /* float and uint32_t share their byte order on every host C99 code
     * runs on in practice; the bits are then written least significant
     * byte first */
    memcpy(&bits, &v, sizeof bits);
    tool_buf_u32(b, bits);
}

void tool_buf_align(tool_buf *b, size_t align, unsigned char fill)
{
    while (!b->failed && b->size % align != 0)
        tool_buf_bytes(b, &fill, 1);
}

void tool_buf_json_string(tool_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    tool_buf_bytes(b, "\"", 1);
    for (; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char esc[2];
            esc[0] = '\\';
            esc[1] = (char)*p;
            tool_buf_bytes(b, esc, 2);
        } else if (*p >= 0x20 && *p < 0x7F) {
            tool_buf_bytes(b, p, 1);
        } else {
            tool_buf_printf(b, "\\u%04x", (unsigned)*p);
        }
    }
    tool_buf_bytes(b, "\"", 1);
}

void tool_buf_json_float(tool_buf *b, float v)
{
    char text[48];
    int precision;
    if (v == 0.0f) {
        tool_buf_str(b, "0");
        return;
    }
    for (precision = 6; precision <= 9; precision++) {
        snprintf(text, sizeof text, "%.*g", precision, (double)v);
        if (strtof(text, NULL) == v)
            break;
    }
    tool_buf_str(b, text);
}

void tool_buf_json_double(tool_buf *b, double v)
{
    char text[48];
    int precision;
    if (v == 0.0) {
        tool_buf_str(b, "0");
        return;
    }
    for (precision = 15; precision <= 17; precision++) {
        snprintf(text, sizeof text, "%.*g", precision, v);
        if (strtod(text, NULL) == v)
            break;
    }
    tool_buf_str(b, text);
}

void tool_buf_base64(tool_buf *b, const unsigned char *data, size_t n)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i;
    char out[4];
    if (n / 3 >= ((size_t)-1) / 4 - 1) {
        b->failed = 1;
        return;
    }
    if (!tool_buf_reserve(b, (n + 2) / 3 * 4))
        return;
    for (i = 0; i + 3 <= n; i += 3) {
        unsigned long w = ((unsigned long)data[i] << 16) | ((unsigned long)data[i + 1] << 8) |
                          (unsigned long)data[i + 2];
        out[0] = digits[(w >> 18) & 63];
        out[1] = digits[(w >> 12) & 63];
        out[2] = digits[(w >> 6) & 63];
        out[3] = digits[w & 63];
        tool_buf_bytes(b, out, 4);
    }
    if (n - i == 1) {
        unsigned long w = (unsigned long)data[i] << 16;
        out[0] = digits[(w >> 18) & 63];
        out[1] = digits[(w >> 12) & 63];
        out[2] = '=';
        out[3] = '=';
        tool_buf_bytes(b, out, 4);
    } else if (n - i == 2) {
        unsigned long w = ((unsigned long)data[i] << 16) | ((unsigned long)data[i + 1] << 8);
        out[0] = digits[(w >> 18) & 63];
        out[1] = digits[(w >> 12) & 63];
        out[2] = digits[(w >> 6) & 63];
        out[3] = '=';
        tool_buf_bytes(b, out, 4);
    }
}
