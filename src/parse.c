/*
 * The parser: validates an MD2 file held in memory and copies it into one
 * owned allocation. Every check that can refuse the file runs before the
 * allocation, so a file that lies about its counts is refused without
 * allocating anything, and the allocation is bounded by the data's size.
 * (The lenient checks of names, frame transforms and normal indices,
 * which cannot refuse it unless strict, ride the copy when none of them is
 * strict and no callback listens, so that the skins and frames are read
 * once: see md2__parse.)
 *
 * SPDX-License-Identifier: MIT
 */
#include "format.h"
#include "reserved.h"
#include "reader.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The SSE2 version of the parser's triangle scan (any_bad_triangle), unless
 * MD2_SIMD is off (MD2_NO_SIMD); the normal indices' scans are in
 * normal_scan.c. */
#if !defined(MD2_NO_SIMD) && defined(__SSE2__)
#define MD2_SCAN_SSE2 1
#include <emmintrin.h>
#endif

typedef struct md2_pctx {
    const uint8_t *data;
    size_t kept;        /* bytes at data: every section lies inside them */
    size_t size;        /* bytes of the whole data: kept, or more for a stream
                         * that skipped bytes after the last section */
    int more_follows;   /* a stream: the data goes on past size */
    int mute;           /* the stream loader's header pass: no warning calls */
    const md2_options *opts;
    md2_diagnostic *err;
    uint32_t strict;
    uint32_t warnings;
    int32_t h[MD2_H_COUNT];
} md2_pctx;

/* Positions of the sections in md2__sections (file order). */
enum { SEC_SKINS, SEC_ST, SEC_TRIS, SEC_FRAMES, SEC_GLCMDS };

/* One section of the file, from the header. */
typedef struct md2_section_info {
    md2_section id;
    int count_field;  /* header field index of the count */
    int ofs_field;    /* header field index of the offset */
    size_t count;
    size_t elem;      /* bytes per element */
    size_t ofs;
    uint64_t end;
} md2_section_info;

static size_t field_offset(int k) { return (size_t)k * 4u; }

/* Records a lenient repair, or fails in strict mode. */
static md2_result warn(md2_pctx *c, uint32_t flag, md2_section section,
                       const char *field, size_t offset, size_t index,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

static md2_result warn(md2_pctx *c, uint32_t flag, md2_section section,
                       const char *field, size_t offset, size_t index,
                       const char *fmt, ...)
{
    va_list ap;
    md2_result r;

    if (!(c->strict & flag))
        c->warnings |= flag;
    va_start(ap, fmt);
    r = md2__vquirk(c->opts, flag, c->mute, section, field, offset, index, fmt, ap);
    va_end(ap);
    return r;
}

static size_t align_up(size_t v, size_t a, int *ok)
{
    size_t r = v % a;
    if (r == 0)
        return v;
    if (v > SIZE_MAX - (a - r)) {
        *ok = 0;
        return 0;
    }
    return v + (a - r);
}

/* Reserves count * elem bytes aligned to align after *total. */
static size_t reserve(size_t *total, size_t count, size_t elem, size_t align,
                      int *ok)
{
    size_t at = align_up(*total, align, ok);
    if (!*ok)
        return 0;
    if (count != 0 && elem > (SIZE_MAX - at) / count) {
        *ok = 0;
        return 0;
    }
    *total = at + count * elem;
    return at;
}

int md2__layout(md2_layout *l, size_t num_skins, size_t num_vertices,
                size_t num_texcoords, size_t num_triangles, size_t num_frames,
                size_t num_glcmds)
{
    int ok = 1;
    size_t total = sizeof(md2_model);
    size_t num_verts_total;

    if (num_frames != 0 && num_vertices > SIZE_MAX / num_frames)
        return 0;
    num_verts_total = num_frames * num_vertices;
    l->frames = reserve(&total, num_frames, sizeof(md2_frame),
                        MD2_ALIGNOF(md2_frame), &ok);
    l->glcmds = reserve(&total, num_glcmds, sizeof(int32_t),
                        MD2_ALIGNOF(int32_t), &ok);
    l->texcoords = reserve(&total, num_texcoords, sizeof(md2_texcoord),
                           MD2_ALIGNOF(md2_texcoord), &ok);
    l->triangles = reserve(&total, num_triangles, sizeof(md2_triangle),
                           MD2_ALIGNOF(md2_triangle), &ok);
    l->skins = reserve(&total, num_skins, sizeof(md2_skin),
                       MD2_ALIGNOF(md2_skin), &ok);
    l->vertices = reserve(&total, num_verts_total, sizeof(md2_vertex),
                          MD2_ALIGNOF(md2_vertex), &ok);
    l->total = total;
    return ok;
}

size_t md2_model_memory(const md2_model *m)
{
    md2_layout l;
    if (!m)
        return 0;
    if (md2__reserved_model(m, NULL) != MD2_OK)
        return 0;
    if (!md2__layout(&l, m->num_skins, m->num_vertices, m->num_texcoords,
                     m->num_triangles, m->num_frames, m->num_glcmds))
        return 0;
    return l.total;
}

/* ---- header ------------------------------------------------------------ */

/* The header's count fields, in file order, with the caller's limit on
 * each (an offset into md2_limits). */
static const struct count_field {
    int field;
    size_t limit;
} count_fields[] = {
    {MD2_H_NUM_SKINS, offsetof(md2_limits, max_skins)},
    {MD2_H_NUM_XYZ, offsetof(md2_limits, max_vertices)},
    {MD2_H_NUM_ST, offsetof(md2_limits, max_texcoords)},
    {MD2_H_NUM_TRIS, offsetof(md2_limits, max_triangles)},
    {MD2_H_NUM_GLCMDS, offsetof(md2_limits, max_glcmds)},
    {MD2_H_NUM_FRAMES, offsetof(md2_limits, max_frames)},
};
#define NUM_COUNT_FIELDS (sizeof count_fields / sizeof count_fields[0])

static uint32_t limit_of(const md2_limits *lim, size_t at)
{
    uint32_t v;
    memcpy(&v, (const unsigned char *)lim + at, sizeof v);
    return v;
}

/* Fails with r for header field k: "header: <name> (byte N) is V<why>". */
static md2_result field_fail(md2_pctx *c, md2_result r, int k, const char *why)
{
    return md2__fail(c->err, r, MD2_SECTION_HEADER, md2__header_field_name(k),
                     field_offset(k), 0, "header: %s (byte %u) is %ld%s",
                     md2__header_field_name(k), (unsigned)field_offset(k),
                     (long)c->h[k], why);
}

static md2_result check_counts(md2_pctx *c)
{
    const md2_limits *lim = c->opts ? &c->opts->limits : NULL;
    char why[64];
    size_t i;

    for (i = 0; i < NUM_COUNT_FIELDS; i++)
        if (c->h[count_fields[i].field] < 0)
            return field_fail(c, MD2_ERR_BAD_COUNT, count_fields[i].field,
                              "; a count cannot be negative");
    if (c->h[MD2_H_NUM_XYZ] == 0)
        return field_fail(c, MD2_ERR_NO_VERTICES, MD2_H_NUM_XYZ, "; a model needs vertices");
    if (c->h[MD2_H_NUM_FRAMES] == 0)
        return field_fail(c, MD2_ERR_NO_FRAMES, MD2_H_NUM_FRAMES, "; a model needs a frame");
    if (c->h[MD2_H_NUM_XYZ] > MD2_MAX_INDEXABLE || c->h[MD2_H_NUM_ST] > MD2_MAX_INDEXABLE)
        return field_fail(c, MD2_ERR_LIMIT_EXCEEDED,
                          c->h[MD2_H_NUM_XYZ] > MD2_MAX_INDEXABLE ? MD2_H_NUM_XYZ
                                                                   : MD2_H_NUM_ST,
                          ", more than the 65536 a 16-bit triangle index can address");
    for (i = 0; lim && i < NUM_COUNT_FIELDS; i++) {
        int k = count_fields[i].field;
        uint32_t limit = limit_of(lim, count_fields[i].limit);
        if (limit != 0 && (uint32_t)c->h[k] > limit) {
            snprintf(why, sizeof why, ", above the caller's limit of %lu",
                     (unsigned long)limit);
            return field_fail(c, MD2_ERR_LIMIT_EXCEEDED, k, why);
        }
    }
    return MD2_OK;
}

static md2_result check_sizes(md2_pctx *c)
{
    int k;
    long min_framesize = MD2_FRAME_HEADER_SIZE + 4L * c->h[MD2_H_NUM_XYZ];

    for (k = MD2_H_SKINWIDTH; k <= MD2_H_SKINHEIGHT; k++) {
        if (c->h[k] < 0)
            return md2__fail(c->err, MD2_ERR_BAD_SKIN_SIZE, MD2_SECTION_HEADER,
                             md2__header_field_name(k), field_offset(k), 0,
                             "header: %s (byte %u) is %ld; a skin size cannot be negative",
                             md2__header_field_name(k), (unsigned)field_offset(k),
                             (long)c->h[k]);
    }
    for (k = MD2_H_SKINWIDTH; k <= MD2_H_SKINHEIGHT; k++) {
        if (c->h[k] == 0)
            MD2_TRY(warn(c, MD2_WARN_SKIN_SIZE_ZERO, MD2_SECTION_HEADER,
                         md2__header_field_name(k), field_offset(k), 0,
                         "header: %s (byte %u) is 0; texcoords cannot be normalised on that axis",
                         md2__header_field_name(k), (unsigned)field_offset(k)));
    }
    if ((long)c->h[MD2_H_FRAMESIZE] < min_framesize)
        return md2__fail(c->err, MD2_ERR_BAD_FRAMESIZE, MD2_SECTION_HEADER,
                         "framesize", field_offset(MD2_H_FRAMESIZE), 0,
                         "header: framesize (byte 16) is %ld, less than 40 + 4 * num_xyz = %ld",
                         (long)c->h[MD2_H_FRAMESIZE], min_framesize);
    if ((long)c->h[MD2_H_FRAMESIZE] > min_framesize)
        MD2_TRY(warn(c, MD2_WARN_FRAMESIZE_PADDED, MD2_SECTION_HEADER, "framesize",
                     field_offset(MD2_H_FRAMESIZE), 0,
                     "header: framesize (byte 16) is %ld, more than 40 + 4 * num_xyz = %ld",
                     (long)c->h[MD2_H_FRAMESIZE], min_framesize));
    return MD2_OK;
}

static void describe_sections(const md2_pctx *c, md2_section_info s[MD2_NUM_SECTIONS])
{
    int i;

    for (i = 0; i < MD2_NUM_SECTIONS; i++) {
        const md2_section_desc *d = &md2__sections[i];
        int32_t ofs = c->h[d->ofs_field];
        s[i].id = d->id;
        s[i].count_field = d->count_field;
        s[i].ofs_field = d->ofs_field;
        s[i].count = (size_t)c->h[d->count_field];
        s[i].elem = d->elem ? (size_t)d->elem : (size_t)c->h[MD2_H_FRAMESIZE];
        s[i].ofs = ofs < 0 ? 0 : (size_t)ofs;
        s[i].end = (uint64_t)s[i].ofs + (uint64_t)s[i].count * (uint64_t)s[i].elem;
    }
}

/* What the header alone must tell before a stream is read: no section
 * ends past the largest offset a file can hold. */
static md2_result check_extent(md2_pctx *c, const md2_section_info s[MD2_NUM_SECTIONS])
{
    int i;

    for (i = 0; i < MD2_NUM_SECTIONS; i++) {
        if (s[i].count != 0 && s[i].end > (uint64_t)MD2_MAX_DATA_SIZE)
            return md2__fail(c->err, MD2_ERR_SECTION_OUT_OF_BOUNDS, s[i].id,
                             md2__header_field_name(s[i].ofs_field), s[i].ofs, 0,
                             "%s: %lu entries of %lu bytes from %s = %lu end at byte %llu, past 2^31 - 1, the largest offset an MD2 file can hold",
                             md2_section_string(s[i].id), (unsigned long)s[i].count,
                             (unsigned long)s[i].elem,
                             md2__header_field_name(s[i].ofs_field),
                             (unsigned long)s[i].ofs, (unsigned long long)s[i].end);
    }
    return MD2_OK;
}

/* Each section starts after the header and ends inside the data, and no
 * two share bytes. */
static md2_result check_sections(md2_pctx *c, const md2_section_info s[MD2_NUM_SECTIONS])
{
    int i, j;

    for (i = 0; i < MD2_NUM_SECTIONS; i++) {
        const char *ofs_name = md2__header_field_name(s[i].ofs_field);
        if (s[i].count == 0)
            continue;
        if (c->h[s[i].ofs_field] < MD2_HEADER_SIZE)
            return md2__fail(c->err, MD2_ERR_SECTION_OUT_OF_BOUNDS, s[i].id,
                             ofs_name, field_offset(s[i].ofs_field), 0,
                             "%s: %s (header byte %u) is %ld, inside the 68-byte header",
                             md2_section_string(s[i].id), ofs_name,
                             (unsigned)field_offset(s[i].ofs_field),
                             (long)c->h[s[i].ofs_field]);
        if (s[i].end > (uint64_t)c->kept)
            return md2__fail(c->err, MD2_ERR_SECTION_OUT_OF_BOUNDS, s[i].id,
                             ofs_name, s[i].ofs, 0,
                             "%s: %lu entries of %lu bytes from %s = %lu end at byte %llu, past the end of the data (%lu bytes)",
                             md2_section_string(s[i].id), (unsigned long)s[i].count,
                             (unsigned long)s[i].elem, ofs_name,
                             (unsigned long)s[i].ofs, (unsigned long long)s[i].end,
                             (unsigned long)c->size);
    }
    for (i = 0; i < MD2_NUM_SECTIONS; i++) {
        for (j = i + 1; j < MD2_NUM_SECTIONS; j++) {
            if (s[i].count == 0 || s[j].count == 0)
                continue;
            if ((uint64_t)s[i].ofs < s[j].end && (uint64_t)s[j].ofs < s[i].end) {
                size_t at = s[i].ofs > s[j].ofs ? s[i].ofs : s[j].ofs;
                /* Never accepted: it would let a file's sections add up
                 * to several times its size, and the model with them. */
                return md2__fail(c->err, MD2_ERR_SECTION_OVERLAP, s[j].id,
                                 md2__header_field_name(s[j].ofs_field), at, 0,
                                 "%s (bytes %lu-%llu) and %s (bytes %lu-%llu) overlap from byte %lu",
                                 md2_section_string(s[i].id), (unsigned long)s[i].ofs,
                                 (unsigned long long)s[i].end,
                                 md2_section_string(s[j].id), (unsigned long)s[j].ofs,
                                 (unsigned long long)s[j].end, (unsigned long)at);
            }
        }
    }
    return MD2_OK;
}

/* The header's checks, in order: magic, version, counts and limits, skin
 * and frame sizes, where the sections end. c->data holds at least the
 * header. */
static md2_result check_header(md2_pctx *c, md2_section_info s[MD2_NUM_SECTIONS])
{
    md2_reader r;
    int k;

    md2_reader_init(&r, c->data, MD2_HEADER_SIZE);
    for (k = 0; k < MD2_H_COUNT; k++)
        c->h[k] = md2_read_s32(&r);
    if (c->h[MD2_H_IDENT] != MD2_IDENT)
        return md2__fail(c->err, MD2_ERR_BAD_MAGIC, MD2_SECTION_HEADER, "ident", 0, 0,
                         "header: ident (byte 0) is 0x%08lX, not \"IDP2\" (0x32504449): not an MD2 file",
                         (unsigned long)md2_le32(c->data));
    if (c->h[MD2_H_VERSION] != MD2_FILE_VERSION)
        return md2__fail(c->err, MD2_ERR_BAD_VERSION, MD2_SECTION_HEADER, "version", 4, 0,
                         "header: version (byte 4) is %ld; MD2 files are version 8",
                         (long)c->h[MD2_H_VERSION]);
    MD2_TRY(check_counts(c));
    MD2_TRY(check_sizes(c));
    describe_sections(c, s);
    return check_extent(c, s);
}

/* What needs the data: its size against the caller's limit, the sections
 * against the data, and ofs_end. */
static md2_result check_data(md2_pctx *c, const md2_section_info s[MD2_NUM_SECTIONS])
{
    size_t max = c->opts ? c->opts->limits.max_file_size : 0;

    if (max != 0 && c->size > max)
        return md2__fail(c->err, MD2_ERR_LIMIT_EXCEEDED, MD2_SECTION_NONE, "max_file_size",
                         max, 0,
                         "the data has %s%lu bytes, more than the caller's max_file_size of %lu",
                         c->size == max + 1 ? "at least " : "", (unsigned long)c->size,
                         (unsigned long)max);
    MD2_TRY(check_sections(c, s));
    if (c->more_follows)
        return warn(c, MD2_WARN_OFS_END, MD2_SECTION_HEADER, "ofs_end",
                    field_offset(MD2_H_OFS_END), 0,
                    "header: ofs_end (byte 64) is %ld, but the data continues past byte %lu",
                    (long)c->h[MD2_H_OFS_END], (unsigned long)c->size);
    if (c->h[MD2_H_OFS_END] < 0 || (uint64_t)c->h[MD2_H_OFS_END] != (uint64_t)c->size)
        return warn(c, MD2_WARN_OFS_END, MD2_SECTION_HEADER, "ofs_end",
                    field_offset(MD2_H_OFS_END), 0,
                    "header: ofs_end (byte 64) is %ld, but the data has %lu bytes",
                    (long)c->h[MD2_H_OFS_END], (unsigned long)c->size);
    return MD2_OK;
}

/* ---- section scans (before allocation) ---------------------------------- */

/* The lenient checks of names, frame transforms and normal indices give
 * their warnings through these, written once for the scans before the
 * allocation and for the copy that makes the same checks on its way
 * (copy_model). */

static int has_nul(const uint8_t *p, size_t n) { return memchr(p, 0, n) != NULL; }

/* MD2_WARN_UNTERMINATED_NAME for skin i. */
static md2_result warn_skin_name(md2_pctx *c, const md2_section_info *skins, size_t i)
{
    size_t at = skins->ofs + i * MD2_SKIN_BYTES;
    return warn(c, MD2_WARN_UNTERMINATED_NAME, MD2_SECTION_SKINS, "name", at, i,
                "skins: name of skin %lu at byte %lu fills all 64 bytes without a NUL",
                (unsigned long)i, (unsigned long)at);
}

/* MD2_WARN_UNTERMINATED_NAME for frame f. */
static md2_result warn_frame_name(md2_pctx *c, const md2_section_info *frames, size_t f)
{
    size_t at = frames->ofs + f * frames->elem + 24;
    return warn(c, MD2_WARN_UNTERMINATED_NAME, MD2_SECTION_FRAMES, "name", at, f,
                "frames: name of frame %lu at byte %lu fills all 16 bytes without a NUL",
                (unsigned long)f, (unsigned long)at);
}

/* The first axis of a frame whose scale and translate do not decode to
 * finite coordinates within 1e30 (md2__axis_ok), or 3. */
static int first_bad_axis(const float scale[3], const float translate[3])
{
    int k;
    for (k = 0; k < 3 && md2__axis_ok_fast(scale[k], translate[k]); k++)
        ;
    return k;
}

/* MD2_WARN_FRAME_TRANSFORM for axis k of frame f, its first bad one (the
 * warning is once a frame), with the values read from the file. */
static md2_result warn_transform(md2_pctx *c, const md2_section_info *frames, size_t f, int k,
                                 const float scale[3], const float translate[3])
{
    size_t at = frames->ofs + f * frames->elem + 4 * (size_t)k;
    return warn(c, MD2_WARN_FRAME_TRANSFORM, MD2_SECTION_FRAMES, "scale", at, f,
                "frames: frame %lu has scale[%d] = %g (byte %lu) and translate[%d] = %g, which do not decode to finite coordinates within 1e30",
                (unsigned long)f, k, (double)scale[k], (unsigned long)at, k,
                (double)translate[k]);
}

/* MD2_WARN_NORMAL_INDEX for frame f, whose n vertices are at v (in
 * c->data), at its first vertex with a normal index of 162 or more (the
 * warning is once a frame), if it has one. */
static md2_result warn_normal_index(md2_pctx *c, const uint8_t *v, size_t n, size_t f)
{
    size_t i, at;
    for (i = 0; i < n && v[4 * i + 3] < MD2_NUM_NORMALS; i++)
        ;
    if (i == n)
        return MD2_OK;
    at = (size_t)(v + 4 * i + 3 - c->data);
    return warn(c, MD2_WARN_NORMAL_INDEX, MD2_SECTION_FRAMES, "lightnormalindex", at, f,
                "frames: vertex %lu of frame %lu at byte %lu has normal index %u, not below 162",
                (unsigned long)i, (unsigned long)f, (unsigned long)at, (unsigned)v[4 * i + 3]);
}

static md2_result scan_names(md2_pctx *c, const md2_section_info *skins,
                             const md2_section_info *frames)
{
    size_t i;
    for (i = 0; i < skins->count; i++)
        if (!has_nul(c->data + skins->ofs + i * MD2_SKIN_BYTES, MD2_SKIN_NAME_SIZE))
            MD2_TRY(warn_skin_name(c, skins, i));
    for (i = 0; i < frames->count; i++)
        if (!has_nul(c->data + frames->ofs + i * frames->elem + 24, MD2_FRAME_NAME_SIZE))
            MD2_TRY(warn_frame_name(c, frames, i));
    return MD2_OK;
}

/* 1 if a triangle of the count at p has an index out of range (n_xyz and
 * n_st at least 1), without saying which: the fast test of real files,
 * whose triangles are all good. */
static int any_bad_triangle(const uint8_t *p, size_t count, size_t n_xyz, size_t n_st)
{
    size_t i = 0;
    unsigned over = 0;
#if defined(MD2_SCAN_SSE2)
    /* 4 triangles (24 indices: 3 of vertices, 3 of texcoords, ...) in 3
     * vectors of 8; an index at or above its limit survives the saturated
     * subtraction of limit - 1 */
    const short v = (short)(uint16_t)(n_xyz - 1), t = (short)(uint16_t)(n_st - 1);
    const __m128i l0 = _mm_setr_epi16(v, v, v, t, t, t, v, v);
    const __m128i l1 = _mm_setr_epi16(v, t, t, t, v, v, v, t);
    const __m128i l2 = _mm_setr_epi16(t, t, v, v, v, t, t, t);
    __m128i bad = _mm_setzero_si128();
    for (; i + 4 <= count; i += 4, p += 4 * MD2_TRIANGLE_BYTES) {
        const __m128i *q = (const __m128i *)(const void *)p;
        bad = _mm_or_si128(bad, _mm_subs_epu16(_mm_loadu_si128(q), l0));
        bad = _mm_or_si128(bad, _mm_subs_epu16(_mm_loadu_si128(q + 1), l1));
        bad = _mm_or_si128(bad, _mm_subs_epu16(_mm_loadu_si128(q + 2), l2));
    }
    over = _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) != 0xFFFF;
#endif
    for (; i < count; i++, p += MD2_TRIANGLE_BYTES) {
        over |= (unsigned)(md2_le16(p) >= n_xyz) | (unsigned)(md2_le16(p + 2) >= n_xyz) |
                (unsigned)(md2_le16(p + 4) >= n_xyz) | (unsigned)(md2_le16(p + 6) >= n_st) |
                (unsigned)(md2_le16(p + 8) >= n_st) | (unsigned)(md2_le16(p + 10) >= n_st);
    }
    return over != 0;
}

static md2_result scan_triangles(md2_pctx *c, const md2_section_info *tris,
                                 size_t *kept)
{
    size_t i, n_xyz = (size_t)c->h[MD2_H_NUM_XYZ], n_st = (size_t)c->h[MD2_H_NUM_ST];
    *kept = 0;
    if (n_st != 0 && !any_bad_triangle(c->data + tris->ofs, tris->count, n_xyz, n_st)) {
        *kept = tris->count;
        return MD2_OK;
    }
    for (i = 0; i < tris->count; i++) {
        const uint8_t *p = c->data + tris->ofs + i * MD2_TRIANGLE_BYTES;
        int bad = 0, k;
        for (k = 0; k < 3 && !bad; k++) {
            size_t v = md2_le16(p + 2 * k);
            if (v >= n_xyz) {
                size_t at = tris->ofs + i * MD2_TRIANGLE_BYTES + 2 * (size_t)k;
                MD2_TRY(warn(c, MD2_WARN_VERTEX_INDEX, MD2_SECTION_TRIANGLES, "index_xyz",
                             at, i,
                             "triangles: index_xyz[%d] of triangle %lu at byte %lu is %lu, not below num_xyz = %lu",
                             k, (unsigned long)i, (unsigned long)at, (unsigned long)v,
                             (unsigned long)n_xyz));
                bad = 1;
            }
        }
        for (k = 0; k < 3 && !bad; k++) {
            size_t st = md2_le16(p + 6 + 2 * k);
            if (st >= n_st) {
                size_t at = tris->ofs + i * MD2_TRIANGLE_BYTES + 6 + 2 * (size_t)k;
                MD2_TRY(warn(c, MD2_WARN_TEXCOORD_INDEX, MD2_SECTION_TRIANGLES, "index_st",
                             at, i,
                             "triangles: index_st[%d] of triangle %lu at byte %lu is %lu, not below num_st = %lu",
                             k, (unsigned long)i, (unsigned long)at, (unsigned long)st,
                             (unsigned long)n_st));
                bad = 1;
            }
        }
        if (!bad)
            (*kept)++;
    }
    return MD2_OK;
}

/* Warns of each frame with a normal index of 162 or more, and learns
 * whether every vertex of every frame has the index of frame 0's first
 * vertex (*same = 1: MD2_WARN_SAME_NORMALS), in one pass over the vertices
 * (md2__normal_scan_fn, normal_scan.c): before the allocation, where the
 * warning may refuse the file or be heard (see md2__parse); else
 * copy_frames() makes the same checks as it copies the vertices. */
static md2_result scan_normals(md2_pctx *c, const md2_section_info *frames, int *same)
{
    size_t f, n = (size_t)c->h[MD2_H_NUM_XYZ];
    md2__normal_scan_fn scan = md2__normal_scan_best();
    unsigned ref, found = 0;

    *same = 0;
    if (frames->count == 0)
        return MD2_OK;
    ref = c->data[frames->ofs + MD2_FRAME_HEADER_SIZE + 3];
    for (f = 0; f < frames->count; f++) {
        const uint8_t *v = c->data + frames->ofs + f * frames->elem + MD2_FRAME_HEADER_SIZE;
        unsigned r = scan(NULL, v, n, ref);
        found |= r;
        if (r & MD2_NSCAN_BAD)
            MD2_TRY(warn_normal_index(c, v, n, f));
    }
    *same = !(found & MD2_NSCAN_OTHER);
    return MD2_OK;
}

/* MD2_WARN_SAME_NORMALS: in a model of 3 or more vertices, every vertex
 * of every frame has the normal index of the first one (97 of UFO:AI's
 * models are so; the game recomputes their normals), as scan_normals()
 * learnt while it read them. An advice that strict mode leaves a warning,
 * so it is given on the finished model. frames_ofs: where frame 0 starts
 * in the file, for the diagnostic. */
static void advise_same_normals(md2_pctx *c, const md2_model *m, size_t frames_ofs)
{
    size_t n = m->num_vertices;
    md2_pctx advice;
    md2_options o;

    if (n < 3 || m->num_frames == 0)
        return;
    /* reported as a warning whatever md2_options.strict says */
    advice = *c;
    advice.strict &= ~(uint32_t)MD2_WARN_SAME_NORMALS;
    if (c->opts) {
        o = *c->opts;
        o.strict &= ~(uint32_t)MD2_WARN_SAME_NORMALS;
        advice.opts = &o;
    }
    (void)warn(&advice, MD2_WARN_SAME_NORMALS, MD2_SECTION_FRAMES, "lightnormalindex",
               frames_ofs + MD2_FRAME_HEADER_SIZE + 3, 0,
               "frames: all %lu vertices of %s%lu frame%s have normal index %u, so lighting "
               "by the model's normals is flat: games recompute its normals from the "
               "triangles (md2 export and md2 render: --normals smooth)",
               (unsigned long)n, m->num_frames == 1 ? "its " : "all ",
               (unsigned long)m->num_frames, m->num_frames == 1 ? "" : "s",
               (unsigned)m->frames[0].vertices[0].normal);
    c->warnings |= advice.warnings & MD2_WARN_SAME_NORMALS;
}

/* A frame's scale and translate, read from the file. */
static void read_transform(const uint8_t *frame, float scale[3], float translate[3])
{
    int k;
    for (k = 0; k < 3; k++) {
        scale[k] = md2_u32_to_f32(md2_le32(frame + 4 * k));
        translate[k] = md2_u32_to_f32(md2_le32(frame + 12 + 4 * k));
    }
}

static md2_result scan_transforms(md2_pctx *c, const md2_section_info *frames)
{
    size_t f;
    for (f = 0; f < frames->count; f++) {
        float scale[3], translate[3];
        int k;
        read_transform(c->data + frames->ofs + f * frames->elem, scale, translate);
        k = first_bad_axis(scale, translate);
        if (k < 3)
            MD2_TRY(warn_transform(c, frames, f, k, scale, translate));
    }
    return MD2_OK;
}

static md2_result scan_glcmds(md2_pctx *c, const md2_section_info *gl,
                              size_t *stored)
{
    md2_glscan scan;
    *stored = 0;
    if (gl->count == 0)
        return MD2_OK;
    md2__glcmds_scan(c->data + gl->ofs, NULL, gl->count,
                     (size_t)c->h[MD2_H_NUM_XYZ], &scan);
    *stored = scan.valid_words + 1;
    if (scan.bad) {
        size_t at = gl->ofs + scan.bad_word * 4;
        return warn(c, MD2_WARN_GLCMDS_INVALID, MD2_SECTION_GLCMDS, "glcmds", at,
                    scan.bad_word,
                    "glcmds: word %lu at byte %lu: %s; the list is cut there",
                    (unsigned long)scan.bad_word, (unsigned long)at, scan.problem);
    }
    if (scan.terminated && scan.valid_words + 1 < gl->count) {
        size_t at = gl->ofs + (scan.valid_words + 1) * 4;
        return warn(c, MD2_WARN_GLCMDS_TRAILING, MD2_SECTION_GLCMDS, "glcmds", at,
                    scan.valid_words + 1,
                    "glcmds: %lu words at byte %lu follow the list's terminating 0 and are ignored",
                    (unsigned long)(gl->count - scan.valid_words - 1), (unsigned long)at);
    }
    if (!scan.terminated)
        return warn(c, MD2_WARN_GLCMDS_UNTERMINATED, MD2_SECTION_GLCMDS, "glcmds",
                    gl->ofs + gl->count * 4, gl->count,
                    "glcmds: the list of %lu words ends at byte %lu without its terminating 0",
                    (unsigned long)gl->count, (unsigned long)(gl->ofs + gl->count * 4));
    return MD2_OK;
}

/* ---- copy into the model ------------------------------------------------ */

static void fill_header(md2_header *h, const int32_t v[MD2_H_COUNT])
{
    h->ident = v[MD2_H_IDENT];
    h->version = v[MD2_H_VERSION];
    h->skinwidth = v[MD2_H_SKINWIDTH];
    h->skinheight = v[MD2_H_SKINHEIGHT];
    h->framesize = v[MD2_H_FRAMESIZE];
    h->num_skins = v[MD2_H_NUM_SKINS];
    h->num_xyz = v[MD2_H_NUM_XYZ];
    h->num_st = v[MD2_H_NUM_ST];
    h->num_tris = v[MD2_H_NUM_TRIS];
    h->num_glcmds = v[MD2_H_NUM_GLCMDS];
    h->num_frames = v[MD2_H_NUM_FRAMES];
    h->ofs_skins = v[MD2_H_OFS_SKINS];
    h->ofs_st = v[MD2_H_OFS_ST];
    h->ofs_tris = v[MD2_H_OFS_TRIS];
    h->ofs_frames = v[MD2_H_OFS_FRAMES];
    h->ofs_glcmds = v[MD2_H_OFS_GLCMDS];
    h->ofs_end = v[MD2_H_OFS_END];
}

/* The model's element types are the file's bytes (on a little-endian
 * host for the multi-byte ones). */
typedef char md2_vertex_is_4_bytes[sizeof(md2_vertex) == MD2_VERTEX_BYTES ? 1 : -1];
typedef char md2_texcoord_is_4_bytes[sizeof(md2_texcoord) == MD2_TEXCOORD_BYTES ? 1 : -1];
typedef char md2_triangle_is_12_bytes[sizeof(md2_triangle) == MD2_TRIANGLE_BYTES ? 1 : -1];

/* Copies the frames into the model: each one's scale and translate (an
 * axis that does not decode to finite coordinates flattened, the repair of
 * MD2_WARN_FRAME_TRANSFORM), its name and its vertices. With checks (see
 * md2__parse), the frames' lenient checks ride the copy, in the one pass
 * over each frame's bytes, its header then its vertices: names without a
 * NUL, transforms, normal indices of 162 or more, and whether every vertex
 * has frame 0's first index (*same, as scan_normals() learns it). Their
 * warnings cannot refuse the file there (none of them is strict) and
 * nothing hears them (no on_warning): they are the model's flags. */
static void copy_frames(md2_pctx *c, const md2_section_info *fs, md2_frame *frames,
                        md2_vertex *verts, int checks, int *same)
{
    size_t f, n = (size_t)c->h[MD2_H_NUM_XYZ];
    md2__normal_scan_fn scan = md2__normal_scan_best();
    unsigned ref = fs->count ? c->data[fs->ofs + MD2_FRAME_HEADER_SIZE + 3] : 0, found = 0;
    int repair = checks || (c->warnings & MD2_WARN_FRAME_TRANSFORM);

    for (f = 0; f < fs->count; f++) {
        md2_frame *fr = &frames[f];
        /* the frames section lies inside the data (check_sections) */
        const uint8_t *p = c->data + fs->ofs + f * fs->elem;
        const uint8_t *v = p + MD2_FRAME_HEADER_SIZE;
        md2_vertex *out = verts + f * n;
        int k;
        read_transform(p, fr->scale, fr->translate);
        k = repair ? first_bad_axis(fr->scale, fr->translate) : 3;
        if (k < 3 && checks)
            (void)warn_transform(c, fs, f, k, fr->scale, fr->translate);
        for (; k < 3; k++) {
            if (!md2__axis_ok_fast(fr->scale[k], fr->translate[k])) {
                /* lenient repair (MD2_WARN_FRAME_TRANSFORM): a flat axis */
                fr->scale[k] = 0.0f;
                fr->translate[k] = 0.0f;
            }
        }
        memcpy(fr->name, p + 24, MD2_FRAME_NAME_SIZE);
        fr->name[MD2_FRAME_NAME_SIZE] = '\0';
        if (checks && !has_nul(p + 24, MD2_FRAME_NAME_SIZE))
            (void)warn_frame_name(c, fs, f);
        /* x, y, z, normal index: an md2_vertex is the file's 4 bytes */
        if (checks) {
            unsigned r = scan((uint8_t *)(void *)out, v, n, ref);
            found |= r;
            if (r & MD2_NSCAN_BAD)
                (void)warn_normal_index(c, v, n, f);
        } else {
            memcpy(out, v, n * MD2_VERTEX_BYTES);
        }
        fr->vertices = out;
    }
    if (checks)
        *same = !(found & MD2_NSCAN_OTHER);
}

/* Copies the checked sections into m, with the lenient checks of names,
 * frame transforms and normal indices on the way when checks is 1 (see
 * copy_frames; *same: MD2_WARN_SAME_NORMALS's test, when they do). */
static void copy_model(md2_pctx *c, const md2_section_info s[MD2_NUM_SECTIONS], md2_model *m,
                       const md2_layout *l, size_t kept_tris, size_t gl_words, int checks,
                       int *same)
{
    unsigned char *base = (unsigned char *)m;
    md2_skin *skins = (md2_skin *)(void *)(base + l->skins);
    md2_texcoord *st = (md2_texcoord *)(void *)(base + l->texcoords);
    md2_triangle *tris = (md2_triangle *)(void *)(base + l->triangles);
    md2_frame *frames = (md2_frame *)(void *)(base + l->frames);
    md2_vertex *verts = (md2_vertex *)(void *)(base + l->vertices);
    int32_t *gl = (int32_t *)(void *)(base + l->glcmds);
    size_t n_xyz = (size_t)c->h[MD2_H_NUM_XYZ], n_st = (size_t)c->h[MD2_H_NUM_ST];
    size_t i;
    md2_reader r;

    md2_reader_init(&r, c->data, c->kept);

    for (i = 0; i < s[SEC_SKINS].count; i++) {
        const uint8_t *p = c->data + s[SEC_SKINS].ofs + i * MD2_SKIN_BYTES;
        memcpy(skins[i].name, p, MD2_SKIN_NAME_SIZE);
        skins[i].name[MD2_SKIN_NAME_SIZE] = '\0';
        if (checks && !has_nul(p, MD2_SKIN_NAME_SIZE))
            (void)warn_skin_name(c, &s[SEC_SKINS], i);
    }

    /* The file's little-endian int16/uint16/int32 fields are the model's
     * own bytes on a little-endian host: one memcpy a section there. */
    if (md2__host_little_endian()) {
        memcpy(st, c->data + s[SEC_ST].ofs, s[SEC_ST].count * MD2_TEXCOORD_BYTES);
    } else {
        md2_reader_seek(&r, s[SEC_ST].ofs);
        for (i = 0; i < s[SEC_ST].count; i++) {
            st[i].s = md2_read_s16(&r);
            st[i].t = md2_read_s16(&r);
        }
    }

    if (md2__host_little_endian() && kept_tris == s[SEC_TRIS].count) { /* none dropped */
        memcpy(tris, c->data + s[SEC_TRIS].ofs, kept_tris * MD2_TRIANGLE_BYTES);
    } else {
        size_t t = 0;
        md2_reader_seek(&r, s[SEC_TRIS].ofs);
        for (i = 0; i < s[SEC_TRIS].count; i++) {
            md2_triangle tri;
            int ok = 1;
            size_t k;
            for (k = 0; k < 3; k++)
                tri.vertex[k] = md2_read_u16(&r);
            for (k = 0; k < 3; k++)
                tri.texcoord[k] = md2_read_u16(&r);
            for (k = 0; k < 3; k++)
                ok &= tri.vertex[k] < n_xyz && tri.texcoord[k] < n_st;
            if (ok && t < kept_tris)
                tris[t++] = tri;
        }
    }

    copy_frames(c, &s[SEC_FRAMES], frames, verts, checks, same);

    if (gl_words != 0) {
        if (md2__host_little_endian()) {
            memcpy(gl, c->data + s[SEC_GLCMDS].ofs, (gl_words - 1) * MD2_GLCMD_WORD_BYTES);
        } else {
            md2_reader_seek(&r, s[SEC_GLCMDS].ofs);
            for (i = 0; i + 1 < gl_words; i++)
                gl[i] = md2_read_s32(&r);
        }
        gl[gl_words - 1] = 0;
    }

    m->skin_width = c->h[MD2_H_SKINWIDTH];
    m->skin_height = c->h[MD2_H_SKINHEIGHT];
    m->num_skins = s[SEC_SKINS].count;
    m->num_vertices = n_xyz;
    m->num_texcoords = n_st;
    m->num_triangles = kept_tris;
    m->num_frames = s[SEC_FRAMES].count;
    m->num_glcmds = gl_words;
    m->skins = s[SEC_SKINS].count ? skins : NULL;
    m->texcoords = n_st ? st : NULL;
    m->triangles = kept_tris ? tris : NULL;
    m->frames = frames;
    m->glcmds = gl_words ? gl : NULL;
}

/* ---- entry points ------------------------------------------------------ */

/* Sets up c for the data at data and checks its header. */
static md2_result begin(md2_pctx *c, const void *data, size_t kept,
                        const md2_options *opts, int mute,
                        md2_section_info s[MD2_NUM_SECTIONS])
{
    memset(c, 0, sizeof *c);
    c->mute = mute;
    c->err = opts ? opts->error : NULL;
    c->opts = opts;
    c->strict = opts ? opts->strict : 0;
    c->data = (const uint8_t *)data;
    c->kept = kept;
    c->size = kept;
    if (kept < MD2_HEADER_SIZE)
        return md2__fail(c->err, MD2_ERR_TRUNCATED_HEADER, MD2_SECTION_HEADER, "header",
                         kept, 0,
                         "header: the data has %lu bytes, fewer than the 68 of an MD2 header",
                         (unsigned long)kept);
    return check_header(c, s);
}

md2_result md2__check_header(const uint8_t header[MD2_HEADER_SIZE],
                             const md2_options *opts, uint64_t *sections_end,
                             uint64_t *data_end)
{
    md2_pctx c;
    md2_section_info s[MD2_NUM_SECTIONS];
    uint64_t end = MD2_HEADER_SIZE;
    int i;

    md2__diag_clear(opts ? opts->error : NULL);
    MD2_TRY(begin(&c, header, MD2_HEADER_SIZE, opts, 1, s));
    for (i = 0; i < MD2_NUM_SECTIONS; i++)
        if (s[i].count != 0 && s[i].end > end)
            end = s[i].end;
    *sections_end = end;
    *data_end = end;
    if (c.h[MD2_H_OFS_END] > 0 && (uint64_t)c.h[MD2_H_OFS_END] > end)
        *data_end = (uint64_t)c.h[MD2_H_OFS_END];
    return MD2_OK;
}

md2_result md2__parse(const void *data, size_t kept, size_t size, int more_follows,
                      const md2_options *opts, md2_model **out)
{
    md2_pctx c;
    md2_section_info s[MD2_NUM_SECTIONS];
    md2_layout l;
    md2_allocator a;
    md2_model *m;
    size_t kept_tris, gl_words;
    md2_diagnostic *err = opts ? opts->error : NULL;
    int checks_in_copy, same_normals = 0;

    md2__diag_clear(err);
    if (!out)
        return md2__fail(err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "out", 0, 0,
                         "md2_parse: out is NULL");
    *out = NULL;
    if (!data)
        return md2__fail(err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "data", 0, 0,
                         "md2_parse: data is NULL");
    MD2_TRY(md2__reserved_options(opts));
    MD2_TRY(begin(&c, data, kept, opts, 0, s));
    c.size = size;
    c.more_follows = more_follows;
    MD2_TRY(check_data(&c, s));
    /* The checks of names, frame transforms and normal indices give
     * warnings that cannot refuse the file unless strict. When nothing can
     * tell the difference (none of them strict, and no on_warning callback
     * to hear the warnings in check order), they ride the copy into the
     * model (copy_model), which reads the skins and frames once; else they
     * run here, before the allocation, in their place in the order. The
     * triangles and GL commands are checked here always: what they keep
     * sizes the model. */
    checks_in_copy = !(c.strict & (MD2_WARN_UNTERMINATED_NAME | MD2_WARN_FRAME_TRANSFORM |
                                   MD2_WARN_NORMAL_INDEX)) &&
                     !(opts && opts->on_warning);
    if (!checks_in_copy)
        MD2_TRY(scan_names(&c, &s[SEC_SKINS], &s[SEC_FRAMES]));
    MD2_TRY(scan_triangles(&c, &s[SEC_TRIS], &kept_tris));
    if (!checks_in_copy) {
        MD2_TRY(scan_transforms(&c, &s[SEC_FRAMES]));
        MD2_TRY(scan_normals(&c, &s[SEC_FRAMES], &same_normals));
    }
    MD2_TRY(scan_glcmds(&c, &s[SEC_GLCMDS], &gl_words));

    if (!md2__layout(&l, s[SEC_SKINS].count, (size_t)c.h[MD2_H_NUM_XYZ],
                     (size_t)c.h[MD2_H_NUM_ST], kept_tris, s[SEC_FRAMES].count, gl_words))
        return md2__fail(c.err, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                         "md2_parse: the model's size does not fit in memory");
    a = md2__allocator(opts);
    m = (md2_model *)a.alloc(a.user, l.total);
    if (!m)
        return md2__fail(c.err, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                         "md2_parse: allocating %lu bytes for the model failed",
                         (unsigned long)l.total);
    memset(m, 0, sizeof *m);
    fill_header(&m->header, c.h);
    copy_model(&c, s, m, &l, kept_tris, gl_words, checks_in_copy, &same_normals);
    if (same_normals)
        advise_same_normals(&c, m, s[SEC_FRAMES].ofs);
    m->warnings = c.warnings;
    m->allocator = a;
    *out = m;
    return MD2_OK;
}

md2_result md2_parse(const void *data, size_t size, const md2_options *opts,
                     md2_model **out)
{
    return md2__parse(data, size, size, 0, opts, out);
}

void md2_free(md2_model *model)
{
    if (!model || !model->allocator.free)
        return;
    model->allocator.free(model->allocator.user, model);
}
