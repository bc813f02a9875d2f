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

/* Loads the image at path into *out. Returns 1 on success; on failure
 * returns 0 and writes a sentence that says why into err (err_size bytes). */
int tool_image_read(const char *path, tool_image *out, char *err, size_t err_size);

/* The same for an image already in memory (size bytes at data, still
 * encoded); label names it in messages and, by its extension, tells PCX
 * from the rest as a path does. */
int tool_image_decode(const char *label, const unsigned char *data, size_t size,
                      tool_image *out, char *err, size_t err_size);

/* Releases what tool_image_read() allocated (NULL is a no-op); the struct
 * becomes empty. */
void tool_image_free(tool_image *img);

/* 1 if the file at path can be opened for reading, else 0. */
int tool_file_exists(const char *path);

#endif /* MD2_TOOL_IMAGE_H */
