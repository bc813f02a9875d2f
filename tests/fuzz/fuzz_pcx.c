/*
 * The skin fuzz target (libFuzzer entry point): <md2/skin.h>.
 *
 * Decodes the input as a PCX file with the default options and with a
 * size limit, through a counting allocator. A refused file must be
 * refused before any allocation, with a diagnostic; an image that loads
 * must have its documented size, one allocation within the documented
 * bound (126 times the input plus the struct), opaque pixels that can all
 * be read, and nothing may leak. Every image that loads is written again
 * with md2_pcx_encode() (it never allocates: the counter sees no call)
 * and must decode to the same pixels, unless it has more than 256 colours
 * (only a 24-bit file can), which must be refused as such. The input, cut
 * at its NUL bytes into a
 * model path, a skin name and a game root, also goes through
 * md2_skin_find() (and, with no skin name, the model's own name): at most
 * 12 candidates, each shorter than
 * MD2_SKIN_PATH_MAX, no two alike, and an accepted one copied out whole.
 * Any broken rule aborts, so the fuzzer reports it as a crash. The same
 * function runs without libFuzzer in fuzz_replay.c (fuzz_pcx_replay).
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/skin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

/* img written with md2_pcx_encode() decodes to the same pixels, or is
 * refused for its colours (a 24-bit file of more than 256). */
static void check_reencode(const md2_image *img, unsigned nplanes, const counter *c)
{
    md2_pcx_input in;
    md2_diagnostic d;
    md2_image *back = NULL;
    size_t size, written = 0, calls = c->calls;
    uint8_t *file;
    md2_result r;

    memset(&in, 0, sizeof in);
    in.width = img->width;
    in.height = img->height;
    in.rgba = img->rgba;
    if (img->width > MD2_PCX_MAX_WIDTH) {
        CHECK(md2_pcx_encode_size(&in) == 0);
        return;
    }
    size = md2_pcx_encode_size(&in);
    if (size == 0) {
        uint8_t byte;
        CHECK(md2_pcx_encode(&in, &byte, 1, NULL, &d) == MD2_ERR_LIMIT_EXCEEDED);
        CHECK(nplanes == 3 && d.index < (size_t)img->width * img->height);
        return;
    }
    CHECK(size >= 128 + 769 &&
          size <= 897 + 2 * (size_t)img->height * (img->width + (img->width & 1u)));
    file = (uint8_t *)malloc(size);
    CHECK(file != NULL);
    r = md2_pcx_encode(&in, file, size, &written, &d);
    CHECK(r == MD2_OK && written == size);
    CHECK(c->calls == calls); /* md2_pcx_encode allocated nothing */
    CHECK(md2_pcx_decode(file, size, NULL, &back) == MD2_OK);
    CHECK(back->width == img->width && back->height == img->height);
    CHECK(memcmp(back->rgba, img->rgba, (size_t)img->width * img->height * 4) == 0);
    md2_image_free(back);
    free(file);
}

static md2_result check_decode(const uint8_t *data, size_t size, size_t limit)
{
    md2_options o;
    md2_diagnostic d;
    counter c;
    md2_image *img = (md2_image *)&o; /* must be overwritten */
    md2_result r;

    memset(&o, 0, sizeof o);
    o.error = &d;
    count_allocations(&o.allocator, &c);
    o.limits.max_file_size = limit;
    r = md2_pcx_decode(data, size, &o, &img);
    CHECK(d.result == r);
    if (r != MD2_OK) {
        CHECK(img == NULL);
        CHECK(c.calls == 0); /* every check before the allocation */
        CHECK(d.message[0] != '\0' && d.field != NULL);
        CHECK(d.section == MD2_SECTION_NONE);
        CHECK(d.offset <= size || r == MD2_ERR_LIMIT_EXCEEDED);
        CHECK(r != MD2_ERR_LIMIT_EXCEEDED || (limit != 0 && size > limit));
        return r;
    }
    CHECK(limit == 0 || size <= limit);
    CHECK(img != NULL && img->rgba != NULL);
    CHECK(img->width >= 1 && img->width <= 65535 && img->height >= 1 && img->height <= 65536);
    CHECK(c.calls == 1);
    CHECK(c.peak_bytes == sizeof(md2_image) + (size_t)img->width * img->height * 4);
    CHECK(c.peak_bytes <= sizeof(md2_image) + 126 * size); /* the memory ceiling */
    {
        /* every pixel readable (ASan), every alpha opaque */
        size_t i, n = (size_t)img->width * img->height;
        size_t sum = 0;
        for (i = 0; i < n; i++) {
            CHECK(img->rgba[4 * i + 3] == 255);
            sum += (size_t)img->rgba[4 * i] + img->rgba[4 * i + 1] + img->rgba[4 * i + 2];
        }
        CHECK(sum <= (size_t)765 * n);
    }
    check_reencode(img, data[65], &c);
    md2_image_free(img);
    CHECK(c.live_bytes == 0);
    return r;
}

/* Records the candidates md2_skin_find() offers; accepts number `accept`
 * (1-based; 0: none). */
typedef struct seen {
    char paths[12][MD2_SKIN_PATH_MAX];
    size_t count, accept;
} seen;

static int record(void *user, const char *path)
{
    seen *s = (seen *)user;
    size_t n = strlen(path), i;
    CHECK(s->count < 12);
    CHECK(n > 0 && n < MD2_SKIN_PATH_MAX);
    for (i = 0; i < s->count; i++)
        CHECK(strcmp(s->paths[i], path) != 0);
    memcpy(s->paths[s->count], path, n + 1);
    s->count++;
    return s->count == s->accept;
}

/* The input as up to three NUL-separated strings. */
static void check_skin_find(const uint8_t *data, size_t size)
{
    seen *s = (seen *)malloc(sizeof *s);
    char *text = (char *)malloc(size + 3);
    const char *parts[3] = {NULL, NULL, NULL};
    char found[64];
    size_t i, k = 0;
    md2_result r;

    CHECK(text != NULL && s != NULL);
    if (size)
        memcpy(text, data, size);
    text[size] = text[size + 1] = text[size + 2] = '\0';
    parts[0] = text;
    for (i = 0; i < size && k < 2; i++)
        if (text[i] == '\0')
            parts[++k] = text + i + 1;
    memset(s, 0, sizeof *s);
    s->accept = size ? data[size - 1] % 14u : 0u;
    /* a model path alone: the model names no skin */
    r = md2_skin_find(parts[0], parts[1],
                      (size & 1) ? parts[2] : NULL, record, s, found, sizeof found);
    CHECK(r == MD2_OK || r == MD2_ERR_NOT_FOUND || r == MD2_ERR_BUFFER_TOO_SMALL ||
          r == MD2_ERR_INVALID_ARGUMENT);
    if (r == MD2_OK) {
        CHECK(s->accept != 0 && s->count == s->accept);
        CHECK(strcmp(found, s->paths[s->count - 1]) == 0);
    } else if (r == MD2_ERR_NOT_FOUND) {
        CHECK(s->count <= 12 && (s->accept == 0 || s->count < s->accept));
        CHECK(found[0] == '\0');
    } else if (r == MD2_ERR_BUFFER_TOO_SMALL) {
        /* a candidate too long (nothing offered), or the accepted one
         * does not fit in found */
        CHECK(s->count == 0 || (s->count == s->accept &&
                               strlen(s->paths[s->count - 1]) >= sizeof found));
    } else {
        CHECK(s->count == 0);
    }
    free(text);
    free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    md2_result r = check_decode(data, size, 0);
    if (size > 1) {
        /* a limit below the size: refused once the header has passed */
        md2_result limited = check_decode(data, size, (size & 1) ? size - 1 : size / 2);
        if (r == MD2_OK || r == MD2_ERR_SECTION_OUT_OF_BOUNDS || r == MD2_ERR_OUT_OF_MEMORY)
            CHECK(limited == MD2_ERR_LIMIT_EXCEEDED);
        else
            CHECK(limited == r);
    }
    check_skin_find(data, size);
    return 0;
}
