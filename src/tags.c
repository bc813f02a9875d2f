/*
 * UFO:AI tag files: the parser (every check before its one allocation),
 * the writer, name lookup and tag interpolation into matrices.
 *
 * SPDX-License-Identifier: MIT
 */
#include "attach.h"
#include "reserved.h"
#include "reader.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Header fields, in file order (byte offset = 4 * index). */
enum {
    TH_IDENT, TH_VERSION, TH_NUM_TAGS, TH_NUM_FRAMES, TH_OFS_NAMES, TH_OFS_TAGS,
    TH_OFS_END, TH_OFS_EXTRACTEND, TH_COUNT
};

static const char *const header_names[TH_COUNT] = {
    "ident", "version", "num_tags", "num_frames",
    "ofs_names", "ofs_tags", "ofs_end", "ofs_extractend"};

/* The four vectors of a tag frame, for diagnostics. */
static const char *const vector_names[4] = {"forward", "right", "up", "origin"};

/* The largest magnitude of a tag value, as a double object (the constant
 * may be evaluated in long double on x87). */
static const double max_value = MD2_MAX_COORD;

typedef struct tctx {
    const uint8_t *data;
    size_t size;
    const md2_options *opts;
    md2_diagnostic *err;
    uint32_t strict;
    uint32_t warnings;
    int32_t h[TH_COUNT];
} tctx;

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                               */
/* ------------------------------------------------------------------------ */

/* A quirk: recorded and reported to on_warning, or an error when strict. */
static md2_result warn(tctx *c, uint32_t flag, const char *field, size_t offset,
                       size_t index, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static md2_result warn(tctx *c, uint32_t flag, const char *field, size_t offset,
                       size_t index, const char *fmt, ...)
{
    va_list ap;
    md2_result r;

    if (!(c->strict & flag))
        c->warnings |= flag;
    va_start(ap, fmt);
    r = md2__vquirk(c->opts, flag, 0, MD2_SECTION_TAGS, field, offset, index, fmt, ap);
    va_end(ap);
    return r;
}

md2_result md2__frame_count_quirk(const md2_options *opts, md2_section section,
                                  const char *field, size_t offset, size_t index,
                                  const char *fmt, ...)
{
    va_list ap;
    md2_result r;

    va_start(ap, fmt);
    r = md2__vquirk(opts, MD2_WARN_FRAME_COUNT, 0, section, field, offset, index, fmt, ap);
    va_end(ap);
    return r;
}

/* Fails for header field k: "tag file: <name> (byte N) is V<why>". */
static md2_result field_fail(const tctx *c, md2_result r, int k, const char *why)
{
    return md2__fail(c->err, r, MD2_SECTION_TAGS, header_names[k], 4u * (size_t)k, 0,
                     "tag file: %s (byte %u) is %ld%s", header_names[k],
                     (unsigned)(4 * k), (long)c->h[k], why);
}

/* ------------------------------------------------------------------------ */
/* Layout                                                                    */
/* ------------------------------------------------------------------------ */

/* The bytes of the canonical file for these counts (ofs_end), and its
 * ofs_extractend (through *extract_end); each 0 if it passes
 * MD2_MAX_DATA_SIZE, the largest offset the header can hold. */
static uint64_t file_bytes(uint64_t tags, uint64_t frames, uint64_t *extract_end)
{
    uint64_t tf, names_end, end;
    *extract_end = 0;
    if (tags > MD2_MAX_DATA_SIZE || frames > MD2_MAX_DATA_SIZE)
        return 0;
    tf = tags * frames; /* < 2^62 */
    if (tf > MD2_MAX_DATA_SIZE)
        return 0;
    names_end = MD2_TAG_HEADER_SIZE + (uint64_t)MD2_TAG_NAME_SIZE * tags;
    end = names_end + MD2_TAG_MATRIX_BYTES * tf;
    if (end <= MD2_MAX_DATA_SIZE)
        *extract_end = end;
    end = names_end + MD2_TAG_FRAME_BYTES * tf;
    return end <= MD2_MAX_DATA_SIZE ? end : 0;
}

/* Where names and floats go in the one allocation; 0 on overflow. */
static int tags_layout(size_t num_tags, size_t num_frames, size_t *names_at,
                       size_t *frames_at, size_t *total)
{
    size_t align = MD2_ALIGNOF(float);
    size_t at = sizeof(md2_tags), floats;

    if (num_tags > (SIZE_MAX - at) / sizeof(md2_tag_name))
        return 0;
    *names_at = at;
    at += num_tags * sizeof(md2_tag_name);
    if (at > SIZE_MAX - align)
        return 0;
    at = (at + align - 1) / align * align;
    if (num_frames != 0 && num_tags > SIZE_MAX / num_frames)
        return 0;
    floats = num_tags * num_frames;
    if (floats > (SIZE_MAX - at) / (MD2_TAG_FRAME_FLOATS * sizeof(float)))
        return 0;
    *frames_at = at;
    *total = at + floats * MD2_TAG_FRAME_FLOATS * sizeof(float);
    return 1;
}

size_t md2_tags_memory(const md2_tags *tags)
{
    size_t names_at, frames_at, total;
    if (md2__reserved_tags(tags, NULL) != MD2_OK)
        return 0;
    if (!tags || !tags_layout(tags->num_tags, tags->num_frames, &names_at, &frames_at,
                              &total))
        return 0;
    return total;
}

/* 1 if a value read from a file is a number the library keeps. */
static int value_ok(float v)
{
    return isfinite(v) && fabs((double)v) <= max_value;
}

/* ------------------------------------------------------------------------ */
/* Parser                                                                    */
/* ------------------------------------------------------------------------ */

static md2_result check_header(tctx *c)
{
    const md2_limits *lim = c->opts ? &c->opts->limits : NULL;
    uint64_t tags, frames, want, extract_end, bytes, tf;
    char why[128];
    int k;

    for (k = 0; k < TH_COUNT; k++)
        c->h[k] = md2_u32_to_s32(md2_le32(c->data + 4 * k));
    if (c->h[TH_IDENT] != MD2_TAG_IDENT)
        return md2__fail(c->err, MD2_ERR_BAD_MAGIC, MD2_SECTION_TAGS, "ident", 0, 0,
                         "tag file: ident (byte 0) is 0x%08lX, not \"JDP2\" (0x3250444A): not a tag file",
                         (unsigned long)md2_le32(c->data));
    if (c->h[TH_VERSION] != MD2_TAG_FILE_VERSION)
        return field_fail(c, MD2_ERR_BAD_VERSION, TH_VERSION, "; tag files are version 1");
    if (c->h[TH_NUM_TAGS] < 0 || c->h[TH_NUM_FRAMES] < 0)
        return field_fail(c, MD2_ERR_BAD_COUNT,
                          c->h[TH_NUM_TAGS] < 0 ? TH_NUM_TAGS : TH_NUM_FRAMES,
                          "; a count cannot be negative");
    if (c->h[TH_NUM_TAGS] == 0)
        return field_fail(c, MD2_ERR_BAD_COUNT, TH_NUM_TAGS, "; a tag file needs a tag");
    if (c->h[TH_NUM_FRAMES] == 0)
        return field_fail(c, MD2_ERR_NO_FRAMES, TH_NUM_FRAMES, "; a tag file needs a frame");
    if (lim && lim->max_frames != 0 && (uint32_t)c->h[TH_NUM_FRAMES] > lim->max_frames) {
        snprintf(why, sizeof why, ", above the caller's limit of %lu",
                 (unsigned long)lim->max_frames);
        return field_fail(c, MD2_ERR_LIMIT_EXCEEDED, TH_NUM_FRAMES, why);
    }

    tags = (uint64_t)c->h[TH_NUM_TAGS];
    frames = (uint64_t)c->h[TH_NUM_FRAMES];
    if (c->h[TH_OFS_NAMES] != MD2_TAG_HEADER_SIZE)
        return field_fail(c, MD2_ERR_BAD_OFFSET, TH_OFS_NAMES,
                          "; the names follow the 32-byte header, at byte 32");
    want = MD2_TAG_HEADER_SIZE + 64u * tags;
    if ((uint64_t)(int64_t)c->h[TH_OFS_TAGS] != want) {
        snprintf(why, sizeof why, ", but ofs_names + 64 * num_tags = %llu",
                 (unsigned long long)want);
        return field_fail(c, MD2_ERR_BAD_OFFSET, TH_OFS_TAGS, why);
    }
    bytes = file_bytes(tags, frames, &extract_end);
    tf = tags * frames;
    if (bytes == 0 || (uint64_t)(int64_t)c->h[TH_OFS_END] != bytes) {
        if (tf <= MD2_MAX_DATA_SIZE)
            snprintf(why, sizeof why, ", but ofs_tags + 48 * num_tags * num_frames = %llu",
                     (unsigned long long)(want + MD2_TAG_FRAME_BYTES * tf));
        else
            snprintf(why, sizeof why,
                     ", but ofs_tags + 48 * num_tags * num_frames is past 2^31 - 1");
        return field_fail(c, MD2_ERR_BAD_OFFSET, TH_OFS_END, why);
    }
    if (extract_end == 0 || (uint64_t)(int64_t)c->h[TH_OFS_EXTRACTEND] != extract_end) {
        if (extract_end != 0)
            snprintf(why, sizeof why,
                     ", but ofs_tags + 64 * num_tags * num_frames = %llu (4x4 matrices)",
                     (unsigned long long)extract_end);
        else
            snprintf(why, sizeof why,
                     ", but ofs_tags + 64 * num_tags * num_frames is past 2^31 - 1");
        return field_fail(c, MD2_ERR_BAD_OFFSET, TH_OFS_EXTRACTEND, why);
    }
    return MD2_OK;
}

/* The data's size against the limit and the layout; bytes after it. */
static md2_result check_data(tctx *c)
{
    size_t max = c->opts ? c->opts->limits.max_file_size : 0;
    uint64_t ofs_tags = (uint64_t)c->h[TH_OFS_TAGS], end = (uint64_t)c->h[TH_OFS_END];

    if (max != 0 && c->size > max)
        return md2__fail(c->err, MD2_ERR_LIMIT_EXCEEDED, MD2_SECTION_TAGS, "max_file_size",
                         max, 0,
                         "tag file: the data has %lu bytes, more than the caller's max_file_size of %lu",
                         (unsigned long)c->size, (unsigned long)max);
    if ((uint64_t)c->size < ofs_tags)
        return md2__fail(c->err, MD2_ERR_SECTION_OUT_OF_BOUNDS, MD2_SECTION_TAGS, "ofs_names",
                         MD2_TAG_HEADER_SIZE, 0,
                         "tag file: %ld names of 64 bytes from ofs_names = 32 end at byte %llu, past the end of the data (%lu bytes)",
                         (long)c->h[TH_NUM_TAGS], (unsigned long long)ofs_tags,
                         (unsigned long)c->size);
    if ((uint64_t)c->size < end)
        return md2__fail(c->err, MD2_ERR_SECTION_OUT_OF_BOUNDS, MD2_SECTION_TAGS, "ofs_tags",
                         (size_t)ofs_tags, 0,
                         "tag file: %ld tags of %ld frames of 48 bytes from ofs_tags = %llu end at byte %llu, past the end of the data (%lu bytes)",
                         (long)c->h[TH_NUM_TAGS], (long)c->h[TH_NUM_FRAMES],
                         (unsigned long long)ofs_tags, (unsigned long long)end,
                         (unsigned long)c->size);
    if ((uint64_t)c->size > end)
        return warn(c, MD2_WARN_OFS_END, "ofs_end", 4u * TH_OFS_END, 0,
                    "tag file: ofs_end (byte 24) is %ld, but the data has %lu bytes; the %lu bytes after it are ignored",
                    (long)c->h[TH_OFS_END], (unsigned long)c->size,
                    (unsigned long)(c->size - (size_t)end));
    return MD2_OK;
}

static md2_result scan_names(tctx *c)
{
    size_t i, n = (size_t)c->h[TH_NUM_TAGS];
    for (i = 0; i < n; i++) {
        size_t at = MD2_TAG_HEADER_SIZE + i * MD2_TAG_NAME_SIZE;
        if (!memchr(c->data + at, 0, MD2_TAG_NAME_SIZE))
            MD2_TRY(warn(c, MD2_WARN_UNTERMINATED_NAME, "name", at, i,
                         "tag file: name of tag %lu at byte %lu fills all 64 bytes without a NUL",
                         (unsigned long)i, (unsigned long)at));
    }
    return MD2_OK;
}

/* The float at byte `at` of the data. */
static float float_at(const tctx *c, size_t at)
{
    return md2_u32_to_f32(md2_le32(c->data + at));
}

static md2_result scan_values(tctx *c)
{
    size_t frames = (size_t)c->h[TH_NUM_FRAMES];
    size_t records = (size_t)c->h[TH_NUM_TAGS] * frames, r;
    size_t base = (size_t)c->h[TH_OFS_TAGS];
    int j;

    for (r = 0; r < records; r++) {
        for (j = 0; j < MD2_TAG_FRAME_FLOATS; j++) {
            size_t at = base + r * MD2_TAG_FRAME_BYTES + 4u * (size_t)j;
            float v = float_at(c, at);
            if (!value_ok(v)) {
                size_t tag = r / frames;
                const char *name = (const char *)c->data + MD2_TAG_HEADER_SIZE +
                                   tag * MD2_TAG_NAME_SIZE;
                MD2_TRY(warn(c, MD2_WARN_FRAME_TRANSFORM, vector_names[j / 3], at, r,
                             "tag file: tag %lu ('%.32s') in frame %lu: %s[%d] at byte %lu is %g, not a finite number within 1e30",
                             (unsigned long)tag, name, (unsigned long)(r % frames),
                             vector_names[j / 3], j % 3, (unsigned long)at, (double)v));
                break; /* once per tag frame */
            }
        }
    }
    return MD2_OK;
}

static void copy_tags(const tctx *c, md2_tags *t, size_t names_at, size_t frames_at)
{
    unsigned char *base = (unsigned char *)t;
    md2_tag_name *names = (md2_tag_name *)(void *)(base + names_at);
    float *values = (float *)(void *)(base + frames_at);
    size_t n = (size_t)c->h[TH_NUM_TAGS], f = (size_t)c->h[TH_NUM_FRAMES], i;
    size_t count = n * f * MD2_TAG_FRAME_FLOATS;

    for (i = 0; i < n; i++) {
        memcpy(names[i].name, c->data + MD2_TAG_HEADER_SIZE + i * MD2_TAG_NAME_SIZE,
               MD2_TAG_NAME_SIZE);
        names[i].name[MD2_TAG_NAME_SIZE] = '\0';
    }
    for (i = 0; i < count; i++) {
        float v = float_at(c, (size_t)c->h[TH_OFS_TAGS] + 4u * i);
        values[i] = value_ok(v) ? v : 0.0f; /* lenient repair (MD2_WARN_FRAME_TRANSFORM) */
    }
    t->header.ident = c->h[TH_IDENT];
    t->header.version = c->h[TH_VERSION];
    t->header.num_tags = c->h[TH_NUM_TAGS];
    t->header.num_frames = c->h[TH_NUM_FRAMES];
    t->header.ofs_names = c->h[TH_OFS_NAMES];
    t->header.ofs_tags = c->h[TH_OFS_TAGS];
    t->header.ofs_end = c->h[TH_OFS_END];
    t->header.ofs_extractend = c->h[TH_OFS_EXTRACTEND];
    t->num_tags = n;
    t->num_frames = f;
    t->names = names;
    t->frames = values;
    t->warnings = c->warnings;
}

md2_result md2_tags_parse(const void *data, size_t size, const md2_options *opts,
                          md2_tags **out)
{
    tctx c;
    md2_allocator a;
    md2_tags *t;
    size_t names_at, frames_at, total;

    memset(&c, 0, sizeof c);
    c.err = opts ? opts->error : NULL;
    c.opts = opts;
    c.strict = opts ? opts->strict : 0;
    md2__diag_clear(c.err);
    if (!out)
        return md2__fail(c.err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_TAGS, "out", 0, 0,
                         "md2_tags_parse: out is NULL");
    *out = NULL;
    if (!data)
        return md2__fail(c.err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_TAGS, "data", 0, 0,
                         "md2_tags_parse: data is NULL");
    MD2_TRY(md2__reserved_options(opts));
    c.data = (const uint8_t *)data;
    c.size = size;
    if (size < MD2_TAG_HEADER_SIZE)
        return md2__fail(c.err, MD2_ERR_TRUNCATED_HEADER, MD2_SECTION_TAGS, "header", size, 0,
                         "tag file: the data has %lu bytes, fewer than the 32 of a tag file header",
                         (unsigned long)size);
    MD2_TRY(check_header(&c));
    MD2_TRY(check_data(&c));
    MD2_TRY(scan_names(&c));
    MD2_TRY(scan_values(&c));

    if (!tags_layout((size_t)c.h[TH_NUM_TAGS], (size_t)c.h[TH_NUM_FRAMES], &names_at,
                     &frames_at, &total))
        return md2__fail(c.err, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_TAGS, "", 0, 0,
                         "md2_tags_parse: the tags' size does not fit in memory");
    a = md2__allocator(opts);
    t = (md2_tags *)a.alloc(a.user, total);
    if (!t)
        return md2__fail(c.err, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_TAGS, "", 0, 0,
                         "md2_tags_parse: allocating %lu bytes for the tags failed",
                         (unsigned long)total);
    memset(t, 0, sizeof *t);
    copy_tags(&c, t, names_at, frames_at);
    t->allocator_ = a;
    *out = t;
    return MD2_OK;
}

void md2_tags_free(md2_tags *tags)
{
    if (!tags || !tags->allocator_.free)
        return;
    tags->allocator_.free(tags->allocator_.user, tags);
}

size_t md2_tags_find(const md2_tags *tags, const char *name)
{
    size_t i;
    if (!tags || !tags->names || !name)
        return MD2_TAG_NOT_FOUND;
    if (md2__reserved_tags(tags, NULL) != MD2_OK)
        return MD2_TAG_NOT_FOUND;
    for (i = 0; i < tags->num_tags; i++)
        if (strcmp(tags->names[i].name, name) == 0)
            return i;
    return MD2_TAG_NOT_FOUND;
}

/* ------------------------------------------------------------------------ */
/* Frame counts                                                              */
/* ------------------------------------------------------------------------ */

md2_result md2_tags_check(const md2_tags *tags, const md2_model *m,
                          const md2_options *opts)
{
    md2_diagnostic *err = opts ? opts->error : NULL;

    md2__diag_clear(err);
    if (!tags || !m)
        return md2__fail(err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_TAGS, tags ? "m" : "tags",
                         0, 0, "md2_tags_check: %s is NULL", tags ? "m" : "tags");
    MD2_TRY(md2__reserved_tags(tags, err));
    MD2_TRY(md2__reserved_model(m, err));
    MD2_TRY(md2__reserved_options(opts));
    if (tags->num_frames == m->num_frames)
        return MD2_OK;
    return md2__frame_count_quirk(
        opts, MD2_SECTION_TAGS, "num_frames", 4u * TH_NUM_FRAMES, 0,
        "tag file: num_frames (byte 12) is %lu, but the model has %lu frames%s",
        (unsigned long)tags->num_frames, (unsigned long)m->num_frames,
        tags->num_frames < m->num_frames
            ? "; frames past the tag file's last are clamped to it"
            : "; the tag file's frames past the model's are never shown");
}

/* ------------------------------------------------------------------------ */
/* Writer                                                                    */
/* ------------------------------------------------------------------------ */

#define INVALID MD2_ERR_INVALID_MODEL

/* The rules a tag set in memory can break; *bytes gets the file size. */
static md2_result check_tags(const md2_tags *t, md2_diagnostic *d, size_t *bytes)
{
    uint64_t extract_end, size;
    size_t i, count;

    if (t->num_tags == 0)
        return md2__fail(d, INVALID, MD2_SECTION_TAGS, "num_tags", 0, 0,
                         "tags: num_tags is 0; a tag file needs a tag");
    if (t->num_frames == 0)
        return md2__fail(d, INVALID, MD2_SECTION_TAGS, "num_frames", 0, 0,
                         "tags: num_frames is 0; a tag file needs a frame");
    size = file_bytes((uint64_t)t->num_tags, (uint64_t)t->num_frames, &extract_end);
    if (size == 0 || extract_end == 0 || size > SIZE_MAX) {
        int tags_field = (uint64_t)t->num_tags > MD2_MAX_DATA_SIZE / 64u;
        return md2__fail(d, INVALID, MD2_SECTION_TAGS,
                         tags_field ? "num_tags" : "num_frames", 0, 0,
                         "tags: %lu tags of %lu frames do not fit a tag file, whose offsets end by 2^31 - 1",
                         (unsigned long)t->num_tags, (unsigned long)t->num_frames);
    }
    if (!t->names)
        return md2__fail(d, INVALID, MD2_SECTION_TAGS, "names", 0, 0,
                         "tags: names is NULL but num_tags is %lu", (unsigned long)t->num_tags);
    if (!t->frames)
        return md2__fail(d, INVALID, MD2_SECTION_TAGS, "frames", 0, 0,
                         "tags: frames is NULL but num_tags is %lu", (unsigned long)t->num_tags);
    count = t->num_tags * t->num_frames * MD2_TAG_FRAME_FLOATS;
    for (i = 0; i < count; i++) {
        if (!value_ok(t->frames[i])) {
            size_t r = i / MD2_TAG_FRAME_FLOATS;
            int j = (int)(i % MD2_TAG_FRAME_FLOATS);
            return md2__fail(d, INVALID, MD2_SECTION_TAGS, "frames", 0, r,
                             "tags: tag %lu in frame %lu: %s[%d] is %g, not a finite number within 1e30",
                             (unsigned long)(r / t->num_frames),
                             (unsigned long)(r % t->num_frames), vector_names[j / 3], j % 3,
                             (double)t->frames[i]);
        }
    }
    *bytes = (size_t)size;
    return MD2_OK;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
    p[2] = (uint8_t)((v >> 16) & 0xFFu);
    p[3] = (uint8_t)(v >> 24);
}

size_t md2_tags_write_size(const md2_tags *tags)
{
    size_t bytes = 0;
    if (md2__reserved_tags(tags, NULL) != MD2_OK)
        return 0;
    if (!tags || check_tags(tags, NULL, &bytes) != MD2_OK)
        return 0;
    return bytes;
}

md2_result md2_tags_write(const md2_tags *tags, void *buffer, size_t capacity,
                          size_t *written, md2_diagnostic *error)
{
    uint8_t *p = (uint8_t *)buffer;
    uint64_t extract_end;
    uint32_t h[TH_COUNT];
    size_t bytes = 0, i, count;

    md2__diag_clear(error);
    if (written)
        *written = 0;
    if (!tags || !buffer)
        return md2__fail(error, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_TAGS, "", 0, 0,
                         "md2_tags_write: %s is NULL", tags ? "buffer" : "tags");
    MD2_TRY(md2__reserved_tags(tags, error));
    MD2_TRY(check_tags(tags, error, &bytes));
    if (capacity < bytes)
        return md2__fail(error, MD2_ERR_BUFFER_TOO_SMALL, MD2_SECTION_TAGS, "", 0, 0,
                         "md2_tags_write: the file needs %lu bytes, the buffer holds %lu",
                         (unsigned long)bytes, (unsigned long)capacity);
    (void)file_bytes((uint64_t)tags->num_tags, (uint64_t)tags->num_frames, &extract_end);
    h[TH_IDENT] = (uint32_t)MD2_TAG_IDENT;
    h[TH_VERSION] = MD2_TAG_FILE_VERSION;
    h[TH_NUM_TAGS] = (uint32_t)tags->num_tags;
    h[TH_NUM_FRAMES] = (uint32_t)tags->num_frames;
    h[TH_OFS_NAMES] = MD2_TAG_HEADER_SIZE;
    h[TH_OFS_TAGS] = (uint32_t)(MD2_TAG_HEADER_SIZE + MD2_TAG_NAME_SIZE * tags->num_tags);
    h[TH_OFS_END] = (uint32_t)bytes;
    h[TH_OFS_EXTRACTEND] = (uint32_t)extract_end;
    for (i = 0; i < TH_COUNT; i++)
        put_u32(p + 4 * i, h[i]);
    p += MD2_TAG_HEADER_SIZE;
    for (i = 0; i < tags->num_tags; i++, p += MD2_TAG_NAME_SIZE)
        memcpy(p, tags->names[i].name, MD2_TAG_NAME_SIZE);
    count = tags->num_tags * tags->num_frames * MD2_TAG_FRAME_FLOATS;
    for (i = 0; i < count; i++, p += 4) {
        uint32_t u;
        memcpy(&u, &tags->frames[i], sizeof u);
        put_u32(p, u);
    }
    if (written)
        *written = bytes;
    return MD2_OK;
}

/* ------------------------------------------------------------------------ */
/* Interpolation                                                             */
/* ------------------------------------------------------------------------ */

/* Float arithmetic with one rounding per operation on every host
 * (round.h), so the matrices are the same bit for bit on x86-64, s390x,
 * aarch64 and 32-bit x86. */

static float dot3(const float a[3], const float b[3])
{
    float s = md2__mul(a[0], b[0]);
    s = md2__add(s, md2__mul(a[1], b[1]));
    s = md2__add(s, md2__mul(a[2], b[2]));
    return s;
}

static void cross3(const float a[3], const float b[3], float out[3])
{
    float x = md2__sub(md2__mul(a[1], b[2]), md2__mul(a[2], b[1]));
    float y = md2__sub(md2__mul(a[2], b[0]), md2__mul(a[0], b[2]));
    float z = md2__sub(md2__mul(a[0], b[1]), md2__mul(a[1], b[0]));
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* Shortest vector given a direction (the axes blended are unit vectors, so
 * this is a fraction of their length); as a float object (see pose_kernels.c). */
static const float min_length = 1e-3f;

/* Scales v to unit length into out and returns its length, or returns 0
 * (out untouched) for a zero vector. v is scaled by its largest component
 * first, so no square can overflow or vanish. */
static float unit3(const float v[3], float out[3])
{
    float m = fabsf(v[0]), w[3], len, total;
    int k;
    if (fabsf(v[1]) > m)
        m = fabsf(v[1]);
    if (fabsf(v[2]) > m)
        m = fabsf(v[2]);
    if (!(m > 0.0f) || !isfinite(m))
        return 0.0f;
    for (k = 0; k < 3; k++)
        w[k] = md2__div(v[k], m);
    len = md2__to_float(sqrtf(dot3(w, w))); /* in [1, sqrt(3)] */
    for (k = 0; k < 3; k++)
        out[k] = md2__div(w[k], len);
    total = md2__mul(m, len);
    return total;
}

/* v - (v . f) f for a unit f. */
static void reject3(const float v[3], const float f[3], float out[3])
{
    float d = dot3(v, f);
    int k;
    for (k = 0; k < 3; k++)
        out[k] = md2__sub(v[k], md2__mul(d, f[k]));
}

/* The unit axes of an orientation (a zero vector where an axis is zero). */
typedef struct unit_axes {
    float v[3][3]; /* forward, right, up */
} unit_axes;

static void unit_axes_of(const float o[MD2_TAG_FRAME_FLOATS], unit_axes *u)
{
    int a;
    for (a = 0; a < 3; a++)
        if (unit3(o + 3 * a, u->v[a]) == 0.0f)
            u->v[a][0] = u->v[a][1] = u->v[a][2] = 0.0f;
}

/* The forward axis: the first candidate long enough, made unit. The last
 * candidate, the X axis, always is. */
static void pick_forward(const float *const cand[3], float f[3])
{
    int i;
    for (i = 0; i < 3; i++)
        if (unit3(cand[i], f) >= min_length)
            return;
    f[0] = 1.0f;
    f[1] = 0.0f;
    f[2] = 0.0f;
}

/* The right axis: the first candidate whose part orthogonal to the unit
 * f is long enough, made unit and orthogonal to f (twice: the second pass
 * removes what rounding left of f). One of the three coordinate axes
 * always is: the one least aligned with f keeps at least sqrt(2/3). */
static void pick_right(const float *const cand[6], const float f[3], float r[3])
{
    static const float axes[3][3] = {{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f},
                                     {0.0f, 0.0f, 1.0f}};
    float p[3], q[3];
    int i;
    for (i = 0; i < 9; i++) {
        const float *c = i < 6 ? cand[i] : axes[i - 6];
        reject3(c, f, p);
        if (unit3(p, q) >= min_length) {
            reject3(q, f, p);
            if (unit3(p, r) > 0.0f)
                return;
        }
    }
    /* not reached for a unit f; keep the result orthonormal anyway */
    r[0] = -f[1];
    r[1] = f[0];
    r[2] = 0.0f;
    (void)unit3(r, r);
}

/* The sign of det(forward, right, up) of unit axes: 1, -1, or 0. */
static int handedness(const unit_axes *u)
{
    float c[3], d;
    cross3(u->v[0], u->v[1], c);
    d = dot3(c, u->v[2]);
    return d > 0.0f ? 1 : d < 0.0f ? -1 : 0;
}

/* Orthonormal axes from the blended ones (fb, rb, ub), with the nearer
 * and the other keyframe's unit axes for degenerate blends. */
static void orthonormalize(const float fb[3], const float rb[3], const float ub[3],
                           const unit_axes *near, const unit_axes *other, float out[9])
{
    float f[3], r[3], u[3], c[3][3], s;
    const float *fcand[3], *rcand[6];
    int k, sign;

    fcand[0] = fb;
    fcand[1] = near->v[0];
    fcand[2] = other->v[0];
    pick_forward(fcand, f);

    cross3(ub, f, c[0]);
    cross3(near->v[2], f, c[1]);
    cross3(other->v[2], f, c[2]);
    rcand[0] = rb;
    rcand[1] = near->v[1];
    rcand[2] = other->v[1];
    rcand[3] = c[0];
    rcand[4] = c[1];
    rcand[5] = c[2];
    pick_right(rcand, f, r);

    cross3(f, r, c[0]);
    if (unit3(c[0], u) == 0.0f) { /* not reached: f and r are orthonormal */
        u[0] = u[1] = 0.0f;
        u[2] = 1.0f;
    }
    /* keep the handedness of the blend: up on the side of the blended up,
     * or, where that says nothing, of the nearer keyframe, then the other */
    s = dot3(u, ub);
    if (s >= min_length)
        sign = 1;
    else if (s <= -min_length)
        sign = -1;
    else if ((sign = handedness(near)) == 0 && (sign = handedness(other)) == 0)
        sign = 1;
    for (k = 0; k < 3; k++) {
        out[k] = f[k];
        out[3 + k] = r[k];
        out[6 + k] = sign < 0 ? -u[k] : u[k];
    }
}

void md2__orient_blend(const float a[MD2_TAG_FRAME_FLOATS],
                       const float b[MD2_TAG_FRAME_FLOATS], float t,
                       float out[MD2_TAG_FRAME_FLOATS])
{
    unit_axes ua, ub;
    float blended[3][3], wa;
    int k, axis;

    if (t == 0.0f || a == b) {
        memcpy(out, a, MD2_TAG_FRAME_FLOATS * sizeof *out);
        return;
    }
    if (t == 1.0f) {
        memcpy(out, b, MD2_TAG_FRAME_FLOATS * sizeof *out);
        return;
    }
    wa = 1.0f - t;
    unit_axes_of(a, &ua);
    unit_axes_of(b, &ub);
    for (axis = 0; axis < 3; axis++)
        for (k = 0; k < 3; k++)
            blended[axis][k] = md2__blend2(wa, ua.v[axis][k], t, ub.v[axis][k]);
    if (t <= 0.5f)
        orthonormalize(blended[0], blended[1], blended[2], &ua, &ub, out);
    else
        orthonormalize(blended[0], blended[1], blended[2], &ub, &ua, out);
    /* the origin as md2_lerp() blends a position */
    for (k = 0; k < 3; k++)
        out[9 + k] = md2__keep2(wa, a[9 + k], t, b[9 + k]);
}

void md2__orient_matrix(const float o[MD2_TAG_FRAME_FLOATS], float m[16])
{
    int c, k;
    for (c = 0; c < 4; c++) {
        for (k = 0; k < 3; k++)
            m[4 * c + k] = o[3 * c + k];
        m[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
    }
}

void md2__tag_orient(const md2_tags *tags, size_t tag, uint32_t fa, uint32_t fb,
                     float t, float out[MD2_TAG_FRAME_FLOATS])
{
    const float *a = tags->frames + (tag * tags->num_frames + fa) * MD2_TAG_FRAME_FLOATS;
    const float *b = tags->frames + (tag * tags->num_frames + fb) * MD2_TAG_FRAME_FLOATS;
    md2__orient_blend(a, b, t, out);
}

md2_result md2_tag_lerp(const md2_tags *tags, size_t tag, uint32_t frame_a,
                        uint32_t frame_b, float t, float matrix[16])
{
    float o[MD2_TAG_FRAME_FLOATS];

    if (!tags || !tags->frames || !matrix || !(t >= 0.0f && t <= 1.0f))
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_tags(tags, NULL));
    if (tag >= tags->num_tags)
        return MD2_ERR_NOT_FOUND;
    if ((size_t)frame_a >= tags->num_frames || (size_t)frame_b >= tags->num_frames)
        return MD2_ERR_FRAME_RANGE;
    md2__tag_orient(tags, tag, frame_a, frame_b, t, o);
    md2__orient_matrix(o, matrix);
    return MD2_OK;
}
