/*
 * Bounds-checked little-endian reader (internal).
 *
 * A cursor over a byte buffer. Every read checks that its bytes lie inside
 * the buffer; a read that does not fit sets the cursor's failed flag, yields
 * 0 and leaves the position unchanged, so callers may read a whole record and
 * test once. Values are built from bytes with shifts, never by overlaying a
 * struct, so the result is the same on any host byte order.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_READER_H
#define MD2_READER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct md2_reader {
    const uint8_t *data;
    size_t size;
    size_t pos;
    int failed;
} md2_reader;

static inline void md2_reader_init(md2_reader *r, const void *data, size_t size)
{
    r->data = (const uint8_t *)data;
    r->size = size;
    r->pos = 0;
    r->failed = 0;
}

/* 1 if n more bytes are available at the current position. */
static inline int md2_reader_has(const md2_reader *r, size_t n)
{
    return r->pos <= r->size && n <= r->size - r->pos;
}

/* Moves to an absolute offset; fails (and stays) if it lies past the end. */
static inline int md2_reader_seek(md2_reader *r, size_t pos)
{
    if (pos > r->size) {
        r->failed = 1;
        return 0;
    }
    r->pos = pos;
    return 1;
}

/* Returns a pointer to the next n bytes and advances, or NULL (failed). */
static inline const uint8_t *md2_reader_take(md2_reader *r, size_t n)
{
    const uint8_t *p;
    if (!md2_reader_has(r, n)) {
        r->failed = 1;
        return NULL;
    }
    p = r->data + r->pos;
    r->pos += n;
    return p;
}

static inline uint32_t md2_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static inline uint16_t md2_le16(const uint8_t *p)
{
    return (uint16_t)((unsigned)p[0] | ((unsigned)p[1] << 8));
}

/* Two's-complement conversions without implementation-defined casts. */
static inline int32_t md2_u32_to_s32(uint32_t u)
{
    if (u <= 0x7FFFFFFFu)
        return (int32_t)u;
    return (int32_t)(u - 0x80000000u) - (int32_t)0x7FFFFFFF - 1;
}

static inline int16_t md2_u16_to_s16(uint16_t u)
{
    if (u <= 0x7FFFu)
        return (int16_t)u;
    return (int16_t)((int32_t)u - 65536);
}

static inline float md2_u32_to_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint8_t md2_read_u8(md2_reader *r)
{
    const uint8_t *p = md2_reader_take(r, 1);
    return p ? p[0] : 0;
}

static inline uint16_t md2_read_u16(md2_reader *r)
{
    const uint8_t *p = md2_reader_take(r, 2);
    return p ? md2_le16(p) : 0;
}

static inline int16_t md2_read_s16(md2_reader *r)
{
    return md2_u16_to_s16(md2_read_u16(r));
}

static inline uint32_t md2_read_u32(md2_reader *r)
{
    const uint8_t *p = md2_reader_take(r, 4);
    return p ? md2_le32(p) : 0;
}

static inline int32_t md2_read_s32(md2_reader *r)
{
    return md2_u32_to_s32(md2_read_u32(r));
}

static inline float md2_read_f32(md2_reader *r)
{
    return md2_u32_to_f32(md2_read_u32(r));
}

/* Copies n bytes into dst (or zeroes dst and fails). */
static inline int md2_read_bytes(md2_reader *r, void *dst, size_t n)
{
    const uint8_t *p = md2_reader_take(r, n);
    if (!p) {
        memset(dst, 0, n);
        return 0;
    }
    memcpy(dst, p, n);
    return 1;
}

#endif /* MD2_READER_H */
