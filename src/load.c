/*
 * Loading from streams and files: a thin layer over the parser. It reads
 * the 68-byte header and checks it as the parser does (so a stream that is
 * not an MD2 file, or an endless one, is refused after 68 bytes), then
 * reads only as far as the header and the caller's limit allow, keeping
 * the bytes up to the last section and counting (not keeping) the rest,
 * and hands the bytes to md2__parse(). For the same bytes it gives the
 * same result as md2_parse().
 *
 * SPDX-License-Identifier: MIT
 */
#include "format.h"
#include "reserved.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MD2_STREAM_FIRST_CHUNK 65536u

/* Where the bytes come from, and what went wrong with them. */
typedef struct source {
    md2_read_fn read;
    void *user;
    const char *name;        /* "stream", or the file's path, for messages;
                              * NULL: messages name nothing (the caller adds
                              * the name) */
    int whole_file;          /* a read error at byte 0 is "the file exists
                              * but cannot be read" (a directory, ...) */
    const char *(*why)(void *user); /* the reason for a read error, or NULL */
    md2_diagnostic *err;
    size_t got;              /* bytes read so far */
} source;

/* Reads until n bytes or the end of the stream into dst, adding the bytes
 * read to *done and src->got. Returns 0, or -1 after filling the
 * diagnostic on a read error. */
static int read_some(source *src, uint8_t *dst, size_t n, size_t *done)
{
    *done = 0;
    while (*done < n) {
        size_t want = n - *done;
        size_t r = src->read(src->user, dst + *done, want);
        if (r == 0)
            break;
        if (r == MD2_READ_ERROR || r > want) {
            const char *why = src->why ? src->why(src->user) : NULL;
            const char *reason = r != MD2_READ_ERROR
                                     ? "the read callback returned more bytes than asked for"
                                 : why ? why
                                       : "the read callback reported an error";
            if (src->whole_file && src->got == 0 && r == MD2_READ_ERROR)
                md2__fail(src->err, MD2_ERR_IO, MD2_SECTION_NONE, "path", 0, 0,
                          "%s%sthe file exists but cannot be read: %s", src->name ? src->name : "",
                          src->name ? ": " : "", reason);
            else
                md2__fail(src->err, MD2_ERR_IO, MD2_SECTION_NONE, "", src->got, 0,
                          "%s%sreading failed at byte %lu: %s", src->name ? src->name : "",
                          src->name ? ": " : "", (unsigned long)src->got, reason);
            return -1;
        }
        *done += r;
        src->got += r;
    }
    return 0;
}

/* Reads and drops up to n bytes (to the end of the stream). */
static int skip_some(source *src, uint64_t n)
{
    uint8_t scratch[4096];
    size_t got = 1;
    while (n > 0 && got > 0) {
        size_t want = n < sizeof scratch ? (size_t)n : sizeof scratch;
        if (read_some(src, scratch, want, &got) != 0)
            return -1;
        n -= got;
        if (got < want)
            break;
    }
    return 0;
}

static md2_result load(source *src, const md2_options *opts, md2_model **out)
{
    size_t max = opts ? opts->limits.max_file_size : 0;
    uint8_t header[MD2_HEADER_SIZE];
    md2_allocator a = md2__allocator(opts);
    uint64_t sections_end, data_end, target;
    size_t keep, cap, n, size;
    uint8_t *buf;
    md2_result res;

    if (read_some(src, header, MD2_HEADER_SIZE, &n) != 0)
        return MD2_ERR_IO;
    if (n < MD2_HEADER_SIZE)
        return md2__parse(header, n, n, 0, opts, out); /* truncated header */
    MD2_TRY(md2__check_header(header, opts, &sections_end, &data_end));

    /* Without a limit, read to the data's end plus one byte (to learn
     * whether more follows); with one, to the limit plus one byte (to
     * learn whether the data is larger, as md2_parse() would see it). */
    if (max == 0)
        target = data_end + 1u;
    else if (max < SIZE_MAX || SIZE_MAX < UINT64_MAX)
        target = (uint64_t)max + 1u;
    else
        target = UINT64_MAX; /* a limit of SIZE_MAX on a 64-bit host: to the end */
    keep = (size_t)(sections_end < target ? sections_end : target);
    if (keep < MD2_HEADER_SIZE)
        keep = MD2_HEADER_SIZE; /* a limit below the header: the header is read all the same */

    cap = keep < MD2_STREAM_FIRST_CHUNK ? keep : MD2_STREAM_FIRST_CHUNK;
    buf = (uint8_t *)a.alloc(a.user, cap);
    if (!buf)
        return md2__fail(src->err, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                         "%s%sallocating a %lu-byte read buffer failed",
                         src->name ? src->name : "", src->name ? ": " : "", (unsigned long)cap);
    memcpy(buf, header, MD2_HEADER_SIZE);
    /* the buffer doubles only as data arrives: a header that lies about
     * sizes costs memory in proportion to the bytes really delivered */
    while (src->got < keep) {
        if (src->got == cap) {
            size_t ncap = cap <= keep / 2 ? cap * 2 : keep;
            uint8_t *nbuf = (uint8_t *)a.alloc(a.user, ncap);
            if (!nbuf) {
                a.free(a.user, buf);
                return md2__fail(src->err, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "",
                                 src->got, 0, "%s%sgrowing the read buffer to %lu bytes failed",
                                 src->name ? src->name : "", src->name ? ": " : "",
                                 (unsigned long)ncap);
            }
            memcpy(nbuf, buf, src->got);
            a.free(a.user, buf);
            buf = nbuf;
            cap = ncap;
        }
        if (read_some(src, buf + src->got, cap - src->got, &n) != 0) {
            a.free(a.user, buf);
            return MD2_ERR_IO;
        }
        if (src->got < cap)
            break; /* end of stream */
    }
    keep = src->got;
    /* past the last section: count the bytes, do not keep them */
    if (keep == sections_end && (uint64_t)src->got < target &&
        skip_some(src, target - src->got) != 0) {
        a.free(a.user, buf);
        return MD2_ERR_IO;
    }
    size = src->got;
    if (max == 0 && (uint64_t)size > data_end) /* the probe byte arrived */
        res = md2__parse(buf, keep, (size_t)data_end, 1, opts, out);
    else
        res = md2__parse(buf, keep, size, 0, opts, out);
    a.free(a.user, buf);
    return res;
}

md2_result md2__load_source(md2_read_fn read, void *user, const char *(*why)(void *user),
                            int whole_file, const md2_options *opts, md2_model **out)
{
    source src;
    memset(&src, 0, sizeof src);
    src.read = read;
    src.user = user;
    src.why = why;
    src.whole_file = whole_file;
    src.err = opts ? opts->error : NULL;
    *out = NULL;
    return load(&src, opts, out);
}

md2_result md2_load_stream(md2_read_fn read, void *user, const md2_options *opts,
                           md2_model **out)
{
    source src;
    md2_diagnostic *err = opts ? opts->error : NULL;

    md2__diag_clear(err);
    if (out)
        *out = NULL;
    if (!read || !out)
        return md2__fail(err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "", 0, 0,
                         "md2_load_stream: %s is NULL", read ? "out" : "read");
    MD2_TRY(md2__reserved_options(opts));
    memset(&src, 0, sizeof src);
    src.read = read;
    src.user = user;
    src.name = "stream";
    src.err = err;
    return load(&src, opts, out);
}

/* ---- files ------------------------------------------------------------- */

/* The operating system's reason for errno value e, in our own words (the
 * C library's strerror() need not be thread-safe). */
const char *md2__errno_text(int e)
{
    switch (e) {
#ifdef ENOENT
    case ENOENT: return "no such file or directory";
#endif
#ifdef EACCES
    case EACCES: return "permission denied";
#endif
#ifdef EPERM
    case EPERM: return "operation not permitted";
#endif
#ifdef EISDIR
    case EISDIR: return "is a directory";
#endif
#ifdef ENOTDIR
    case ENOTDIR: return "a component of the path is not a directory";
#endif
#ifdef ENAMETOOLONG
    case ENAMETOOLONG: return "file name too long";
#endif
#ifdef ELOOP
    case ELOOP: return "too many levels of symbolic links";
#endif
#ifdef EMFILE
    case EMFILE: return "too many open files in this process";
#endif
#ifdef ENFILE
    case ENFILE: return "too many open files in the system";
#endif
#ifdef EIO
    case EIO: return "input/output error";
#endif
#ifdef ENXIO
    case ENXIO: return "no such device or address";
#endif
#ifdef ENODEV
    case ENODEV: return "no such device";
#endif
#ifdef ENOMEM
    case ENOMEM: return "out of memory";
#endif
#ifdef EINVAL
    case EINVAL: return "invalid argument";
#endif
#ifdef EOVERFLOW
    case EOVERFLOW: return "file too large for this system";
#endif
#ifdef EAGAIN
    case EAGAIN: return "resource temporarily unavailable";
#endif
#ifdef EINTR
    case EINTR: return "interrupted";
#endif
    case 0: return "unknown error (the C library set no errno)";
    default: break;
    }
    return "operating system error";
}

typedef struct file_source {
    FILE *f;
    int error; /* errno of the failed read */
} file_source;

static size_t read_file(void *user, void *dst, size_t size)
{
    file_source *fs = (file_source *)user;
    size_t n;
    errno = 0;
    n = fread(dst, 1, size, fs->f);
    if (n < size && ferror(fs->f)) {
        fs->error = errno;
        return MD2_READ_ERROR; /* the bytes of a partial read are not used */
    }
    return n;
}

static const char *file_why(void *user)
{
    return md2__errno_text(((file_source *)user)->error);
}

md2_result md2_load_file(const char *path, const md2_options *opts, md2_model **out)
{
    md2_diagnostic *err = opts ? opts->error : NULL;
    file_source fs;
    source src;
    md2_result r;

    md2__diag_clear(err);
    if (out)
        *out = NULL;
    if (!path || !out)
        return md2__fail(err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "", 0, 0,
                         "md2_load_file: %s is NULL", path ? "out" : "path");
    MD2_TRY(md2__reserved_options(opts));
    errno = 0;
    fs.f = fopen(path, "rb");
    fs.error = 0;
    if (!fs.f)
        return md2__fail(err, MD2_ERR_IO, MD2_SECTION_NONE, "path", 0, 0,
                         "cannot open '%s': %s", path, md2__errno_text(errno));
    memset(&src, 0, sizeof src);
    src.read = read_file;
    src.user = &fs;
    src.name = path;
    src.why = file_why;
    src.err = err;
    r = load(&src, opts, out);
    fclose(fs.f);
    return r;
}
