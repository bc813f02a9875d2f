/*
 * The md2 command's byte buffer (tool_buf): files are built in memory (glTF, GLB, OBJ,
 * JSON), with little-endian numbers, JSON strings and numbers and base64
 * written the same on every host (bytes.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TOOL_BYTES_H
#define MD2_TOOL_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* A growing byte buffer. An allocation failure (or a size that would
 * overflow) sets failed; every later append is then ignored, so callers
 * check failed once, at the end. */
typedef struct tool_buf {
    unsigned char *data;
    size_t size;
    size_t capacity;
    int failed;
} tool_buf;

void tool_buf_free(tool_buf *b);
/* Makes room for n more bytes; 0 (and failed set) if it cannot. */
int tool_buf_reserve(tool_buf *b, size_t n);
void tool_buf_bytes(tool_buf *b, const void *data, size_t n);
void tool_buf_str(tool_buf *b, const char *s);
void tool_buf_printf(tool_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Little-endian integers and IEEE-754 single floats, byte by byte: the
 * same bytes on every host. */
void tool_buf_u8(tool_buf *b, unsigned v);
void tool_buf_u16(tool_buf *b, unsigned v);
void tool_buf_u32(tool_buf *b, uint32_t v);
void tool_buf_f32(tool_buf *b, float v);
/* Appends fill bytes until size is a multiple of align. */
void tool_buf_align(tool_buf *b, size_t align, unsigned char fill);
/* s as a JSON string with its quotes: printable ASCII as it is (with \" and
 * \\ escaped), every other byte as \u00XX (read as Latin-1), so any bytes
 * give valid JSON and valid UTF-8. */
void tool_buf_json_string(tool_buf *b, const char *s);
/* A float32 value as the shortest of %.9g that reads back as the same
 * float (JSON has no NaN or infinity: callers pass finite values). */
void tool_buf_json_float(tool_buf *b, float v);
/* A double as the shortest of %.15g to %.17g that reads back as the same
 * double (finite values only). A float written so reads back as that very
 * float whether the reader parses JSON numbers as floats or as doubles. */
void tool_buf_json_double(tool_buf *b, double v);
/* data as base64 (RFC 4648, with padding). */
void tool_buf_base64(tool_buf *b, const unsigned char *data, size_t n);

#endif /* MD2_TOOL_BYTES_H */
