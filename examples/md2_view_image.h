/*
 * md2_view_image: the skin loader shared by md2_view and md2_view_check.
 * PCX files go through libmd2's md2_pcx_decode(); PNG, TGA, BMP, JPEG (and
 * whatever else stb_image reads) through stb_image. Either way the result
 * is RGBA, 4 bytes a pixel, rows from the top of the image down.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_VIEW_IMAGE_H
#define MD2_VIEW_IMAGE_H

#include <stddef.h>

typedef struct view_image {
    int width;
    int height;
    unsigned char *rgba; /* width * height * 4 bytes, malloc'd */
} view_image;

/* Loads the image at path into *out. Returns 1 on success; on failure
 * returns 0 and writes a sentence that says why into err (err_size bytes). */
int view_image_load(const char *path, view_image *out, char *err, size_t err_size);

/* Releases what view_image_load() allocated; the struct becomes empty. */
void view_image_free(view_image *img);

/* 1 if the file at path can be opened for reading, else 0. */
int view_file_exists(const char *path);

#endif /* MD2_VIEW_IMAGE_H */
