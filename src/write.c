/*
 * The writer: serialises a model to MD2 bytes in canonical section order.
 * Bytes are produced with shifts (little-endian on any host) into a small
 * buffer on the stack that is flushed to the caller's buffer or callback.
 *
 * SPDX-License-Identifier: MIT
 */
#include "internal.h"

#include <string.h>

typedef struct md2_sink {
    uint8_t buf[4096];
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

static void put_bytes(md2_sink *s, const void *data, size_t n)
{
    const uint8_t *p = (const uint8_t *)data;
    while (n > 0) {
        size_t room = sizeof s->buf - s->len, k = n < room ? n : room;
        memcpy(s->buf + s->len, p, k);
        s->len += k;
        p += k;
        n -= k;
        if (s->len == sizeof s->buf)
            sink_flush(s);
    }
}

static void put_u16(md2_sink *s, uint16_t v)
{
    uint8_t b[2];
    b[0] = (uint8_t)(v & 0xFFu);
    b[1] = (uint8_t)(v >> 8);
    put_bytes(s, b, 2);
}

static void put_u32(md2_sink *s, uint32_t v)
{
    uint8_t b[4];
    b[0] = (uint8_t)(v & 0xFFu);
    b[1] = (uint8_t)((v >> 8) & 0xFFu);
    b[2] = (uint8_t)((v >> 16) & 0xFFu);
    b[3] = (uint8_t)(v >> 24);
    put_bytes(s, b, 4);
}

static void put_s32(md2_sink *s, int32_t v) { put_u32(s, (uint32_t)v); }

static void put_f32(md2_sink *s, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    put_u32(s, u);
}

/* Section offsets of the canonical file; 0 if the model is invalid. */
typedef struct md2_wlayout {
    uint32_t ofs_skins, ofs_st, ofs_tris, ofs_frames, ofs_glcmds, ofs_end;
    uint32_t framesize;
} md2_wlayout;

static int model_valid(const md2_model *m)
{
    size_t i, k;
    md2_glscan scan;

    if (!m || !m->frames || m->num_frames == 0 || m->num_vertices == 0 ||
        m->skin_width < 0 || m->skin_height < 0 ||
        m->num_vertices > MD2_MAX_INDEXABLE || m->num_texcoords > MD2_MAX_INDEXABLE)
        return 0;
    if ((m->num_skins && !m->skins) || (m->num_texcoords && !m->texcoords) ||
        (m->num_triangles && !m->triangles) || (m->num_glcmds && !m->glcmds))
        return 0;
    for (i = 0; i < m->num_frames; i++) {
        if (!m->frames[i].vertices)
            return 0;
        for (k = 0; k < 3; k++)
            if (!md2__axis_ok(m->frames[i].scale[k], m->frames[i].translate[k]))
                return 0;
    }
    for (i = 0; i < m->num_triangles; i++)
        for (k = 0; k < 3; k++)
            if (m->triangles[i].vertex[k] >= m->num_vertices ||
                m->triangles[i].texcoord[k] >= m->num_texcoords)
                return 0;
    if (m->num_glcmds) {
        md2__glcmds_scan(NULL, m->glcmds, m->num_glcmds, m->num_vertices, &scan);
        /* valid, and the 0 is the last word: nothing hides behind it */
        if (scan.bad || !scan.terminated || scan.valid_words + 1 != m->num_glcmds)
            return 0;
    }
    return 1;
}

static int layout(const md2_model *m, md2_wlayout *w)
{
    uint64_t pos = MD2_HEADER_SIZE, framesize;

    if (!model_valid(m))
        return 0;
    framesize = MD2_FRAME_HEADER_SIZE + 4u * (uint64_t)m->num_vertices;
    /* counts are size_t: check each before multiplying so nothing wraps */
    if (m->num_skins > 0x7FFFFFFFu || m->num_triangles > 0x7FFFFFFFu ||
        m->num_frames > 0x7FFFFFFFu || m->num_glcmds > 0x7FFFFFFFu)
        return 0;
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
    /* every offset must fit a non-negative int32 and in size_t */
    return pos <= 0x7FFFFFFFu && pos <= (uint64_t)SIZE_MAX;
}

size_t md2_write_size(const md2_model *m)
{
    md2_wlayout w;
    if (!layout(m, &w))
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
    for (i = 0; i < m->num_frames && !s->failed; i++) {
        const md2_frame *f = &m->frames[i];
        for (k = 0; k < 3; k++)
            put_f32(s, f->scale[k]);
        for (k = 0; k < 3; k++)
            put_f32(s, f->translate[k]);
        put_bytes(s, f->name, MD2_FRAME_NAME_SIZE);
        for (k = 0; k < m->num_vertices;) {
            /* a batch of vertices at a time: one put_bytes per batch */
            uint8_t batch[4 * 256];
            size_t n = 0;
            for (; k < m->num_vertices && n < sizeof batch; k++, n += 4) {
                batch[n] = f->vertices[k].v[0];
                batch[n + 1] = f->vertices[k].v[1];
                batch[n + 2] = f->vertices[k].v[2];
                batch[n + 3] = f->vertices[k].normal;
            }
            put_bytes(s, batch, n);
        }
    }
    for (i = 0; i < m->num_glcmds; i++)
        put_s32(s, m->glcmds[i]);
    sink_flush(s);
    return s->failed ? MD2_ERR_IO : MD2_OK;
}

md2_result md2_write_stream(const md2_model *m, md2_write_fn write, void *user)
{
    md2_wlayout w;
    md2_sink s;

    if (!m || !write)
        return MD2_ERR_INVALID_ARGUMENT;
    if (!layout(m, &w))
        return MD2_ERR_INVALID_MODEL;
    s.len = 0;
    s.fn = write;
    s.user = user;
    s.failed = 0;
    return emit(m, &w, &s);
}

typedef struct md2_membuf {
    uint8_t *p;
    size_t left;
} md2_membuf;

static int write_mem(void *user, const void *data, size_t size)
{
    md2_membuf *b = (md2_membuf *)user;
    if (size > b->left)
        return 1;
    memcpy(b->p, data, size);
    b->p += size;
    b->left -= size;
    return 0;
}

md2_result md2_write(const md2_model *m, void *buffer, size_t capacity,
                     size_t *written)
{
    md2_wlayout w;
    md2_sink s;
    md2_membuf b;
    md2_result r;

    if (written)
        *written = 0;
    if (!m || !buffer)
        return MD2_ERR_INVALID_ARGUMENT;
    if (!layout(m, &w))
        return MD2_ERR_INVALID_MODEL;
    if (capacity < w.ofs_end)
        return MD2_ERR_BUFFER_TOO_SMALL;
    b.p = (uint8_t *)buffer;
    b.left = capacity;
    s.len = 0;
    s.fn = write_mem;
    s.user = &b;
    s.failed = 0;
    r = emit(m, &w, &s);
    if (r == MD2_OK && written)
        *written = w.ofs_end;
    return r;
}
