/*
 * export_png_check: tool_png_encode() (common.c), which md2 export
 * converts skins with, on its own (export.cases, case png).
 * Built with the tests only; not part of the md2 command.
 *
 *  - images of more than 2^31 bytes of pixels (where libpng's size bounds
 *    may wrap) are refused before anything is read or allocated, with a
 *    message that says so; so is an image without pixels;
 *  - a small image encodes to a PNG that libpng reads back as the same
 *    pixels, through tool_png_encode() and tool_png_encode().
 *
 * Exit 0 if all holds, 1 otherwise.
 *
 * SPDX-License-Identifier: MIT
 */
#include "tool.h"

#include <png.h>

#include <stdlib.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAILED: %s\n", what);
        failures++;
    }
}

/* An image of w x h whose pixels must not be read: rgba is NULL. */
static void refused(int w, int h, const char *expect)
{
    tool_image img;
    unsigned char *png = (unsigned char *)&img; /* must become NULL */
    size_t size = 1;
    char why[256], what[320];
    img.width = w;
    img.height = h;
    img.rgba = NULL;
    strcpy(why, "(nothing)");
    snprintf(what, sizeof what, "a %dx%d image is refused", w, h);
    check(!tool_png_encode(&img, &png, &size, why, sizeof why), what);
    check(png == NULL && size == 0, "a refused image leaves no PNG");
    snprintf(what, sizeof what, "the %dx%d image's message '%s' says '%s'", w, h, why, expect);
    check(strstr(why, expect) != NULL, what);
    printf("%dx%d: %s\n", w, h, why);
}

static void round_trip(int with_why)
{
    enum { W = 5, H = 3 };
    unsigned char pixels[W * H * 4], *png = NULL;
    tool_image img;
    png_image read;
    size_t size = 0, i;
    char why[256];
    int ok;
    for (i = 0; i < sizeof pixels; i++)
        pixels[i] = (unsigned char)(i * 37 + 11);
    img.width = W;
    img.height = H;
    img.rgba = pixels;
    ok = tool_png_encode(&img, &png, &size, with_why ? why : NULL, with_why ? sizeof why : 0);
    check(ok && png && size > 8, "a 5x3 image encodes");
    if (!ok || !png)
        return;
    memset(&read, 0, sizeof read);
    read.version = PNG_IMAGE_VERSION;
    ok = png_image_begin_read_from_memory(&read, png, size);
    check(ok && read.width == W && read.height == H, "the PNG reads back as 5x3");
    if (ok) {
        unsigned char back[W * H * 4];
        read.format = PNG_FORMAT_RGBA;
        ok = png_image_finish_read(&read, NULL, back, 0, NULL);
        check(ok && memcmp(back, pixels, sizeof back) == 0, "the PNG holds the same pixels");
    }
    png_image_free(&read);
    free(png);
    printf("5x3 (%s): %lu bytes of PNG, read back the same\n",
           with_why ? "with its message" : "without a message", (unsigned long)size);
}

int main(void)
{
    refused(23171, 23171, "too large"); /* 2,147,592,964 bytes of pixels */
    refused(16384, 32769, "too large"); /* 2^31 + 65,536 */
    refused(46341, 46341, "too large"); /* over 2^33: wraps 32 bits */
    refused(0, 7, "no pixels");
    refused(7, -1, "no pixels");
    round_trip(1);
    round_trip(0);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
