/*
 * The writer: serialises a model to MD2 bytes in canonical section order.
 * md2_write() writes in place into the caller's buffer; md2_write_stream()
 * gathers small fields in a buffer on the stack and hands large arrays to
 * the callback straight from the model, a few KiB at a time. Fields are
 * produced with shifts (little-endian on any host); arrays whose bytes are
 * the file's (vertices everywhere; texcoords, triangles and GL commands on
 * a little-endian host) are copied whole.
 *
 * SPDX-License-Identifier: MIT
 */
#include "format.h"
#include "reserved.h"

#include <string.h>

typedef struct md2_sink {
    uint8_t *direct;    /* md2_write: the caller's buffer, written in place */
    uint8_t buf[4096];  /* md2_write_stream: pieces for the callback */
    size_t len;
    md2_write_fn fn;
    void *user;
    int failed;
} md2_sink;

static void sink_flush(md2_sink *s)
{
    if (s->len != 0 && !s->failed && s->fn(s->user, s->buf, s->len) != 0)
        s->failed = 1;
    s->len = 0;
}

/* Appends n bytes: in place (md2_write), or through the buffer, with what
 * does not fit it handed to the callback straight from data in pieces of
 * the buffer's size (md2_write_stream). */
static void put_bytes(md2_sink *s, const void *data, size_t n)
{
    const uint8_t *p = (const uint8_t *)data;
    if (n == 0)
        return;
    if (s->direct) {
        memcpy(s->direct, p, n);
        s->direct += n;
        return;
    }
    if (n <= sizeof s->buf - s->len) {
        memcpy(s->buf + s->len, p, n);
        s->len += n;
        return;
    }
    sink_flush(s);
    for (; n >= sizeof s->buf; p += sizeof s->buf, n -= sizeof s->buf)
        if (!s->failed && s->fn(s->user, p, sizeof s->buf) != 0)
            s->failed = 1;
    if (n != 0)
        memcpy(s->buf, p, n);
    s->len = n;
}

static void put_u16(md2_sink *s, uint16_t v)
{
    uint8_t b[2];
    b[0] = (uint8_t)(v & 0xFFu);
    b[1] = (uint8_t)(v >> 8);
    put_bytes(s, b, 2);
}

/* v as 4 little-endian bytes at p */
static void le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
    p[2] = (uint8_t)((v >> 16) & 0xFFu);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static void put_u32(md2_sink *s, uint32_t v)
{
    uint8_t b[4];
    le32(b, v);
    put_bytes(s, b, 4);
}

static void put_s32(md2_sink *s, int32_t v) { put_u32(s, (uint32_t)v); }


/* Section offsets and frame size of the canonical file. */
typedef struct md2_wlayout {
    uint32_t ofs_skins, ofs_st, ofs_tris, ofs_frames, ofs_glcmds, ofs_end;
    uint32_t framesize;
} md2_wlayout;

#define INVALID MD2_ERR_INVALID_MODEL

/* The rules of the format a model in memory can break: the one check of
 * md2_write(), md2_write_stream(), md2_write_size() and md2_rebuild()
 * (format.h). Counts come first, before any array is read. */
md2_result md2__check_model(const md2_model *m, const char *fn, md2_diagnostic *d)
{
    /* the counts an MD2 file holds, each below 2^31 */
    const size_t counts[4] = {m->num_skins, m->num_triangles, m->num_frames,
                              m->num_glcmds};
    static const char *const count_names[4] = {"num_skins", "num_triangles",
                                               "num_frames", "num_glcmds"};
    /* the arrays, each set when its count is not 0 */
    const void *const arrays[5] = {m->frames, m->skins, m->texcoords, m->triangles,
                                   m->glcmds};
    const size_t array_counts[5] = {m->num_frames, m->num_skins, m->num_texcoords,
                                    m->num_triangles, m->num_glcmds};
    static const char *const array_names[5] = {"frames", "skins", "texcoords",
                                               "triangles", "glcmds"};
    static const md2_section array_sections[5] = {
        MD2_SECTION_FRAMES, MD2_SECTION_SKINS, MD2_SECTION_TEXCOORDS,
        MD2_SECTION_TRIANGLES, MD2_SECTION_GLCMDS};
    size_t i, k;
    md2_glscan scan;

    if (m->num_vertices == 0)
        return md2__fail(d, INVALID, MD2_SECTION_HEADER, "num_vertices", 0, 0,
                         "%s: model: num_vertices is 0; a model needs vertices", fn);
    if (m->num_frames == 0)
        return md2__fail(d, INVALID, MD2_SECTION_HEADER, "num_frames", 0, 0,
                         "%s: model: num_frames is 0; a model needs a frame", fn);
    for (i = 0; i < 4; i++)
        if ((uint64_t)counts[i] > MD2_MAX_DATA_SIZE)
            return md2__fail(d, INVALID, MD2_SECTION_HEADER, count_names[i], 0, 0,
                             "%s: model: %s is %lu; an MD2 file holds less than 2^31 bytes",
                             fn, count_names[i], (unsigned long)counts[i]);
    if (m->num_vertices > MD2_MAX_INDEXABLE || m->num_texcoords > MD2_MAX_INDEXABLE) {
        int xyz = m->num_vertices > MD2_MAX_INDEXABLE;
        return md2__fail(d, INVALID, MD2_SECTION_HEADER,
                         xyz ? "num_vertices" : "num_texcoords", 0, 0,
                         "%s: model: %s is %lu, more than the %d a 16-bit triangle index can address",
                         fn, xyz ? "num_vertices" : "num_texcoords",
                         (unsigned long)(xyz ? m->num_vertices : m->num_texcoords),
                         MD2_MAX_INDEXABLE);
    }
    if (m->skin_width < 0 || m->skin_height < 0) {
        int w = m->skin_width < 0;
        return md2__fail(d, INVALID, MD2_SECTION_HEADER, w ? "skin_width" : "skin_height",
                         0, 0, "%s: model: %s is %ld; a skin size cannot be negative", fn,
                         w ? "skin_width" : "skin_height",
                         (long)(w ? m->skin_width : m->skin_height));
    }
    for (i = 0; i < 5; i++)
        if (array_counts[i] != 0 && !arrays[i])
            return md2__fail(d, INVALID, array_sections[i], array_names[i], 0, 0,
                             "%s: model: %s is NULL but its count is %lu", fn,
                             array_names[i], (unsigned long)array_counts[i]);
    for (i = 0; i < m->num_frames; i++) {
        const md2_frame *f = &m->frames[i];
        if (!f->vertices)
            return md2__fail(d, INVALID, MD2_SECTION_FRAMES, "vertices", 0, i,
                             "%s: model: frames[%lu].vertices is NULL", fn,
                             (unsigned long)i);
        for (k = 0; k < 3; k++)
            if (!md2__axis_ok_fast(f->scale[k], f->translate[k]))
                return md2__fail(d, INVALID, MD2_SECTION_FRAMES, "scale", 0, i,
                                 "%s: model: frames[%lu] has scale[%lu] = %g and translate[%lu] = %g, which do not decode to finite coordinates within 1e30",
                                 fn, (unsigned long)i, (unsigned long)k,
                                 (double)f->scale[k], (unsigned long)k,
                                 (double)f->translate[k]);
    }
    for (i = 0; i < m->num_triangles; i++) {
        const md2_triangle *t = &m->triangles[i];
        for (k = 0; k < 3; k++) {
            if (t->vertex[k] >= m->num_vertices)
                return md2__fail(d, INVALID, MD2_SECTION_TRIANGLES, "vertex", 0, i,
                                 "%s: model: triangles[%lu].vertex[%lu] is %u, not below num_vertices = %lu",
                                 fn, (unsigned long)i, (unsigned long)k,
                                 (unsigned)t->vertex[k], (unsigned long)m->num_vertices);
            if (t->texcoord[k] >= m->num_texcoords)
                return md2__fail(d, INVALID, MD2_SECTION_TRIANGLES, "texcoord", 0, i,
                                 "%s: model: triangles[%lu].texcoord[%lu] is %u, not below num_texcoords = %lu",
                                 fn, (unsigned long)i, (unsigned long)k,
                                 (unsigned)t->texcoord[k], (unsigned long)m->num_texcoords);
        }
    }
    if (m->num_glcmds == 0)
        return MD2_OK;
    md2__glcmds_scan(NULL, m->glcmds, m->num_glcmds, m->num_vertices, &scan);
    if (scan.bad)
        return md2__fail(d, INVALID, MD2_SECTION_GLCMDS, "glcmds", 0, scan.bad_word,
                         "%s: model: glcmds[%lu]: %s", fn, (unsigned long)scan.bad_word,
                         scan.problem);
    if (!scan.terminated)
        return md2__fail(d, INVALID, MD2_SECTION_GLCMDS, "glcmds", 0, m->num_glcmds,
                         "%s: model: the %lu glcmds words end without the terminating 0",
                         fn, (unsigned long)m->num_glcmds);
    if (scan.valid_words + 1 != m->num_glcmds) /* nothing may hide behind the 0 */
        return md2__fail(d, INVALID, MD2_SECTION_GLCMDS, "glcmds", 0,
                         scan.valid_words + 1,
                         "%s: model: glcmds[%lu] follows the list's terminating 0 (num_glcmds is %lu)",
                         fn, (unsigned long)(scan.valid_words + 1),
                         (unsigned long)m->num_glcmds);
    return MD2_OK;
}

/* The canonical file's offsets for a model that passed md2__check_model();
 * fails when the file would be larger than MD2_MAX_DATA_SIZE. */
static md2_result plan(const md2_model *m, const char *fn, md2_wlayout *w,
                       md2_diagnostic *d)
{
    /* in uint64: every count is below 2^31 (md2__check_model), so no product
     * or sum below can wrap */
    uint64_t pos = MD2_HEADER_SIZE, framesize;
    const uint64_t cap = MD2_MAX_DATA_SIZE;

    framesize = MD2_FRAME_HEADER_SIZE + 4u * (uint64_t)m->num_vertices;
    w->framesize = (uint32_t)framesize;
    w->ofs_skins = (uint32_t)pos;
    pos += (uint64_t)m->num_skins * MD2_SKIN_BYTES;
    w->ofs_st = (uint32_t)(pos & 0xFFFFFFFFu);
    pos += (uint64_t)m->num_texcoords * MD2_TEXCOORD_BYTES;
    w->ofs_tris = (uint32_t)(pos & 0xFFFFFFFFu);
    pos += (uint64_t)m->num_triangles * MD2_TRIANGLE_BYTES;
    w->ofs_frames = (uint32_t)(pos & 0xFFFFFFFFu);
    pos += (uint64_t)m->num_frames * framesize;
    w->ofs_glcmds = (uint32_t)(pos & 0xFFFFFFFFu);
    pos += (uint64_t)m->num_glcmds * MD2_GLCMD_WORD_BYTES;
    w->ofs_end = (uint32_t)(pos & 0xFFFFFFFFu);
    /* every offset must fit a non-negative int32 (and size_t) */
    if (pos > cap || pos > (uint64_t)SIZE_MAX)
        return md2__fail(d, INVALID, MD2_SECTION_HEADER, "ofs_end", 0, 0,
                         "%s: model: the file would have %llu bytes, but ofs_end and every offset of an MD2 file stop at 2^31 - 1",
                         fn, (unsigned long long)pos);
    return MD2_OK;
}

/* Checks m and computes its file's layout; fn names the caller in the
 * messages. */
static md2_result prepare(const md2_model *m, const char *fn, md2_wlayout *w,
                          md2_diagnostic *d)
{
    MD2_TRY(md2__check_model(m, fn, d));
    return plan(m, fn, w, d);
}

size_t md2_write_size(const md2_model *m)
{
    md2_wlayout w;
    if (md2__reserved_model(m, NULL) != MD2_OK)
        return 0;
    if (!m || prepare(m, "md2_write_size", &w, NULL) != MD2_OK)
        return 0;
    return w.ofs_end;
}

static md2_result emit(const md2_model *m, const md2_wlayout *w, md2_sink *s)
{
    size_t i, k;

    put_s32(s, MD2_IDENT);
    put_s32(s, MD2_FILE_VERSION);
    put_s32(s, m->skin_width);
    put_s32(s, m->skin_height);
    put_u32(s, w->framesize);
    put_u32(s, (uint32_t)m->num_skins);
    put_u32(s, (uint32_t)m->num_vertices);
    put_u32(s, (uint32_t)m->num_texcoords);
    put_u32(s, (uint32_t)m->num_triangles);
    put_u32(s, (uint32_t)m->num_glcmds);
    put_u32(s, (uint32_t)m->num_frames);
    put_u32(s, w->ofs_skins);
    put_u32(s, w->ofs_st);
    put_u32(s, w->ofs_tris);
    put_u32(s, w->ofs_frames);
    put_u32(s, w->ofs_glcmds);
    put_u32(s, w->ofs_end);

    for (i = 0; i < m->num_skins; i++)
        put_bytes(s, m->skins[i].name, MD2_SKIN_NAME_SIZE);
    if (md2__host_little_endian() && sizeof(md2_texcoord) == MD2_TEXCOORD_BYTES &&
        sizeof(md2_triangle) == MD2_TRIANGLE_BYTES) {
        put_bytes(s, m->texcoords, m->num_texcoords * MD2_TEXCOORD_BYTES);
        put_bytes(s, m->triangles, m->num_triangles * MD2_TRIANGLE_BYTES);
    } else {
        for (i = 0; i < m->num_texcoords; i++) {
            put_u16(s, (uint16_t)m->texcoords[i].s);
            put_u16(s, (uint16_t)m->texcoords[i].t);
        }
        for (i = 0; i < m->num_triangles; i++) {
            for (k = 0; k < 3; k++)
                put_u16(s, m->triangles[i].vertex[k]);
            for (k = 0; k < 3; k++)
                put_u16(s, m->triangles[i].texcoord[k]);
        }
    }
    for (i = 0; i < m->num_frames && !s->failed; i++) {
        const md2_frame *f = &m->frames[i];
        uint8_t head[MD2_FRAME_HEADER_SIZE]; /* scale, translate, name */
        for (k = 0; k < 3; k++) {
            le32(head + 4 * k, f32_bits(f->scale[k]));
            le32(head + 12 + 4 * k, f32_bits(f->translate[k]));
        }
        memcpy(head + 24, f->name, MD2_FRAME_NAME_SIZE);
        put_bytes(s, head, sizeof head);
        /* x, y, z, normal index: an md2_vertex is the file's 4 bytes */
        if (sizeof(md2_vertex) == MD2_VERTEX_BYTES) {
            put_bytes(s, f->vertices, m->num_vertices * MD2_VERTEX_BYTES);
        } else {
            for (k = 0; k < m->num_vertices; k++) {
                uint8_t b[4];
                b[0] = f->vertices[k].v[0];
                b[1] = f->vertices[k].v[1];
                b[2] = f->vertices[k].v[2];
                b[3] = f->vertices[k].normal;
                put_bytes(s, b, 4);
            }
        }
    }
    if (md2__host_little_endian()) {
        put_bytes(s, m->glcmds, m->num_glcmds * MD2_GLCMD_WORD_BYTES);
    } else {
        for (i = 0; i < m->num_glcmds; i++)
            put_s32(s, m->glcmds[i]);
    }
    sink_flush(s);
    return s->failed ? MD2_ERR_IO : MD2_OK;
}

md2_result md2_write_stream(const md2_model *m, md2_write_fn write, void *user,
                            md2_diagnostic *error)
{
    md2_wlayout w;
    md2_sink s;

    md2__diag_clear(error);
    if (!m || !write)
        return md2__fail(error, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "", 0, 0,
                         "md2_write_stream: %s is NULL", m ? "write" : "m");
    MD2_TRY(md2__reserved_model(m, error));
    MD2_TRY(prepare(m, "md2_write_stream", &w, error));
    s.direct = NULL;
    s.len = 0;
    s.fn = write;
    s.user = user;
    s.failed = 0;
    if (emit(m, &w, &s) != MD2_OK)
        return md2__fail(error, MD2_ERR_IO, MD2_SECTION_NONE, "", 0, 0,
                         "md2_write_stream: the write callback reported a failure");
    return MD2_OK;
}

md2_result md2_write(const md2_model *m, void *buffer, size_t capacity,
                     size_t *written, md2_diagnostic *error)
{
    md2_wlayout w;
    md2_sink s;

    md2__diag_clear(error);
    if (written)
        *written = 0;
    if (!m || !buffer)
        return md2__fail(error, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "", 0, 0,
                         "md2_write: %s is NULL", m ? "buffer" : "m");
    MD2_TRY(md2__reserved_model(m, error));
    MD2_TRY(prepare(m, "md2_write", &w, error));
    if (capacity < w.ofs_end)
        return md2__fail(error, MD2_ERR_BUFFER_TOO_SMALL, MD2_SECTION_NONE, "", 0, 0,
                         "md2_write: the file has %lu bytes but the buffer holds %lu",
                         (unsigned long)w.ofs_end, (unsigned long)capacity);
    s.direct = (uint8_t *)buffer; /* large enough: checked above */
    s.len = 0;
    s.fn = NULL;
    s.user = NULL;
    s.failed = 0;
    (void)emit(m, &w, &s); /* cannot fail: the buffer is large enough */
    if (written)
        *written = w.ofs_end;
    return MD2_OK;
}
