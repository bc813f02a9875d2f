/*
 * Loading from streams and files: a thin layer over the parser that reads
 * the header, then as much data as the header says exists (growing its
 * buffer with the bytes actually received), then hands the bytes to
 * md2__parse().
 *
 * SPDX-License-Identifier: MIT
 */
#include "internal.h"
#include "reader.h"

#include <stdio.h>
#include <string.h>

#define MD2_STREAM_FIRST_CHUNK 65536u

/* Reads until n bytes or the end of the stream, adding the bytes read to
 * *got; returns 0, or -1 on a read error. */
static int read_full(md2_read_fn read, void *user, uint8_t *dst, size_t n,
                     size_t *got)
{
    size_t done = 0;
    while (done < n) {
        size_t r = read(user, dst + done, n - done);
        if (r == MD2_READ_ERROR || r > n - done)
            return -1;
        if (r == 0)
            break;
        done += r;
        *got += r;
    }
    return 0;
}

/* What the header says the data spans: *sections is where the last
 * non-empty section ends, *extent also takes ofs_end into account (at least
 * the header). Fields that make no sense are skipped: the parser reports
 * them. */
static void header_extent(const uint8_t *h, uint64_t *sections, uint64_t *extent)
{
    int32_t framesize = md2_u32_to_s32(md2_le32(h + 4 * MD2_H_FRAMESIZE));
    int32_t end = md2_u32_to_s32(md2_le32(h + 4 * MD2_H_OFS_END));
    int i;

    *sections = MD2_HEADER_SIZE;
    for (i = 0; i < MD2_NUM_SECTIONS; i++) {
        const md2_section_desc *d = &md2__sections[i];
        int32_t c = md2_u32_to_s32(md2_le32(h + 4 * d->count_field));
        int32_t o = md2_u32_to_s32(md2_le32(h + 4 * d->ofs_field));
        uint64_t elem = d->elem ? d->elem : (framesize > 0 ? (uint64_t)framesize : 0u);
        uint64_t e;
        if (c <= 0 || o < 0)
            continue;
        e = (uint64_t)o + (uint64_t)c * elem;
        if (e > *sections)
            *sections = e;
    }
    *extent = *sections;
    if (end > 0 && (uint64_t)end > *extent)
        *extent = (uint64_t)end;
}

md2_result md2_load_stream(md2_read_fn read, void *user, const md2_options *opts,
                           md2_model **out)
{
    md2_diagnostic *err = opts ? opts->error : NULL;
    size_t max_size = opts && opts->limits.max_file_size ? opts->limits.max_file_size
                                                          : SIZE_MAX;
    uint8_t header[MD2_HEADER_SIZE];
    md2_allocator a = md2__allocator(opts);
    uint64_t sections, extent;
    size_t target, cap, got;
    uint8_t *buf;
    int more = 0;
    md2_result res;

    if (err) {
        memset(err, 0, sizeof *err);
        err->field = "";
    }
    if (out)
        *out = NULL;
    if (!read || !out)
        return md2__fail(err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "", 0, 0,
                         "md2_load_stream: %s is NULL", read ? "out" : "read");

    got = 0;
    if (read_full(read, user, header, MD2_HEADER_SIZE, &got) != 0)
        return md2__fail(err, MD2_ERR_IO, MD2_SECTION_HEADER, "header", got, 0,
                         "stream: reading the header failed at byte %lu",
                         (unsigned long)got);
    if (got < MD2_HEADER_SIZE)
        return md2__parse(header, got, 0, opts, out);

    header_extent(header, &sections, &extent);
    if (opts && opts->limits.max_file_size && sections > (uint64_t)max_size)
        return md2__fail(err, MD2_ERR_LIMIT_EXCEEDED, MD2_SECTION_HEADER, "header", 0, 0,
                         "stream: the header's sections end at byte %llu, past max_file_size (%lu)",
                         (unsigned long long)sections, (unsigned long)max_size);
    /* a lying ofs_end (a lenient quirk) is read only as far as the limit */
    target = extent > (uint64_t)max_size ? max_size : (size_t)extent;

    cap = target < MD2_STREAM_FIRST_CHUNK ? target : MD2_STREAM_FIRST_CHUNK;
    buf = (uint8_t *)a.alloc(a.user, cap);
    if (!buf)
        return md2__fail(err, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                         "stream: allocating a %lu-byte read buffer failed",
                         (unsigned long)cap);
    memcpy(buf, header, MD2_HEADER_SIZE);
    got = MD2_HEADER_SIZE;
    while (got < target) {
        if (got == cap) {
            size_t ncap = cap <= target / 2 ? cap * 2 : target;
            uint8_t *nbuf = (uint8_t *)a.alloc(a.user, ncap);
            if (!nbuf) {
                a.free(a.user, buf);
                return md2__fail(err, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", got, 0,
                                 "stream: growing the read buffer to %lu bytes failed",
                                 (unsigned long)ncap);
            }
            memcpy(nbuf, buf, got);
            a.free(a.user, buf);
            buf = nbuf;
            cap = ncap;
        }
        if (read_full(read, user, buf + got, cap - got, &got) != 0) {
            a.free(a.user, buf);
            return md2__fail(err, MD2_ERR_IO, MD2_SECTION_NONE, "", got, 0,
                             "stream: reading failed at byte %lu", (unsigned long)got);
        }
        if (got < cap)
            break; /* end of stream */
    }
    if (got == target) {
        uint8_t probe;
        size_t extra = 0;
        if (read_full(read, user, &probe, 1, &extra) != 0) {
            a.free(a.user, buf);
            return md2__fail(err, MD2_ERR_IO, MD2_SECTION_NONE, "", got, 0,
                             "stream: reading failed at byte %lu", (unsigned long)got);
        }
        more = extra == 1;
    }
    res = md2__parse(buf, got, more, opts, out);
    a.free(a.user, buf);
    return res;
}

static size_t read_file(void *user, void *dst, size_t size)
{
    FILE *f = (FILE *)user;
    size_t n = fread(dst, 1, size, f);
    if (n == 0 && ferror(f))
        return MD2_READ_ERROR;
    return n;
}

md2_result md2_load_file(const char *path, const md2_options *opts, md2_model **out)
{
    md2_diagnostic *err = opts ? opts->error : NULL;
    FILE *f;
    md2_result r;

    if (out)
        *out = NULL;
    if (!path || !out)
        return md2__fail(err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "", 0, 0,
                         "md2_load_file: %s is NULL", path ? "out" : "path");
    f = fopen(path, "rb");
    if (!f)
        return md2__fail(err, MD2_ERR_IO, MD2_SECTION_NONE, "path", 0, 0,
                         "cannot open '%s'", path);
    r = md2_load_stream(read_file, f, opts, out);
    fclose(f);
    if (r == MD2_ERR_IO && err && err->message[0] != '\0') {
        /* name the file in stream errors */
        char tmp[sizeof err->message];
        size_t cap = sizeof err->message, plen = strlen(path), len;
        memcpy(tmp, err->message, sizeof tmp);
        tmp[sizeof tmp - 1] = '\0';
        if (plen > cap / 2)
            plen = cap / 2;
        memcpy(err->message, path, plen);
        memcpy(err->message + plen, ": ", 2);
        len = strlen(tmp);
        if (len > cap - plen - 3)
            len = cap - plen - 3;
        memcpy(err->message + plen + 2, tmp, len);
        err->message[plen + 2 + len] = '\0';
    }
    return r;
}
