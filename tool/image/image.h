/*
 * The md2 command's skin loader (image.c), also compiled into md2_view and
 * md2_view_check, which read skins the same way. PCX files go through libmd2's md2_pcx_decode(); PNG, TGA, BMP, JPEG (and
 * whatever else stb_image reads) through stb_image. Either way the result
 * is RGBA, 4 bytes a pixel, rows from the top of the image down.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TOOL_IMAGE_H
#define MD2_TOOL_IMAGE_H

#include <stddef.h>

/* An RGBA image, 4 bytes a pixel, rows from the top down. */
typedef struct tool_image {
    int width;
    int height;
    unsigned char *rgba; /* width * height * 4 bytes, malloc'd */
} tool_image;

/* The most pixels a skin may have by default: 4096 x 4096 (64 MiB of
 * RGBA). A 16384 x 16384 PNG of one bit a pixel is 55 KB of file. */
#define TOOL_MAX_SKIN_PIXELS 16777216ul

/* Loads the image at path into *out: a regular file (tool_open_input()),
 * of at most 256 MiB, whose format is told by its first bytes (PCX, PNG,
 * JPEG, BMP; TGA, which has none, by its name and header), and whose
 * header gives at most max_pixels pixels: checked before any decoder sees
 * the pixels. Returns 1 on success; on failure returns 0 and writes a
 * sentence that says why into err (err_size bytes); over the limit, it
 * ends with "; OPTION raises it" when option is not NULL. */
int tool_image_read_max(const char *path, unsigned long max_pixels, const char *option,
                        tool_image *out, char *err, size_t err_size);

/* tool_image_read_max() with TOOL_MAX_SKIN_PIXELS and no option. */
int tool_image_read(const char *path, tool_image *out, char *err, size_t err_size);

/* tool_image_read() for an image already in memory (size bytes at data,
 * still encoded): the same formats told by signature, the same pixel
 * limit; label names it in messages (and, by its extension, a TGA). */
int tool_image_decode(const char *label, const unsigned char *data, size_t size,
                      tool_image *out, char *err, size_t err_size);

/* The width and height the header of the image in data gives (its format
 * told as tool_image_decode() tells it; a PNG's IHDR read here, so that
 * one of 2147483647 x 2147483647 is a size, not an unknown type), without
 * decoding it: 1, or 0 with the reason in err. */
int tool_image_size(const char *label, const unsigned char *data, size_t size, long *w, long *h,
                    char *err, size_t err_size);

/* src resampled to width x height (each 1 or more) into *out: each new
 * pixel the area-weighted mean of the source pixels its footprint covers
 * (red, green, blue and alpha apart, rounded), so a smaller skin keeps
 * each region's mean colour and a larger one repeats pixels. 0 when out
 * of memory or too large (more than TOOL_MAX_SKIN_PIXELS), *out empty. */
int tool_image_resize(const tool_image *src, int width, int height, tool_image *out);

/* Releases what tool_image_read() allocated (NULL is a no-op); the struct
 * becomes empty. */
void tool_image_free(tool_image *img);

/* 1 if the file at path is a regular file that can be opened for
 * reading (tool_open_input()), else 0. */
int tool_file_exists(const char *path);

/* The operating system's reason for errno value e, in the words of
 * libmd2's messages for the common ones ("is a directory", "permission
 * denied"), else strerror()'s. */
const char *tool_errno_text(int e);

/* Opens path for reading without ever waiting on the way: open() with
 * O_NONBLOCK (opening a FIFO that has no writer would wait), then fstat().
 * A regular file is opened; with streams 1, a FIFO, a pipe or a character
 * device too (md2 info /dev/stdin); anything else (a directory, a socket,
 * a FIFO without streams) is refused. Reads on the descriptor wait for data
 * as usual. Returns the descriptor (close() it), or -1 with *missing 1 when
 * nothing is at path, and the reason in why (why_size bytes): the
 * operating system's (tool_errno_text()), "is a directory", or "not a
 * regular file (a FIFO)". Every file the md2 command reads is opened so.
 * POSIX. */
int tool_open_input(const char *path, int streams, int *missing, char *why, size_t why_size);

/* The whole regular file at path (tool_open_input() without streams), of at
 * most max_size bytes, read in one pass after fstat() gave its size, into a
 * malloc'd buffer *data of *size bytes plus a NUL after them (for text).
 * Returns 1, or 0 with *data NULL and a sentence naming path in err: it
 * cannot be opened (why), is not a regular file, is larger than max_size,
 * changed size while read, or memory ran out ("out of memory reading"). */
int tool_read_regular(const char *path, size_t max_size, unsigned char **data, size_t *size,
                      char *err, size_t err_size);

/* Reads up to size bytes from fd (to its end), retrying interrupted reads:
 * the count, or (size_t)-1 with *error set to errno. */
size_t tool_read_fd(int fd, void *dst, size_t size, int *error);

#endif /* MD2_TOOL_IMAGE_H */
