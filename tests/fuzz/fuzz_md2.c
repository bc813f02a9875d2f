/*
 * The libmd2 fuzz target (libFuzzer entry point).
 *
 * Parses the input with the default and the strict options and, for every
 * model accepted, walks every public read path: interpolates every frame
 * pair it can reach, decodes, computes bounds, iterates the GL commands,
 * writes the model back and parses the result, which must equal the first
 * parse. It also loads the input through md2_load_stream() with short
 * reads, a size limit and read errors, which must agree with md2_parse().
 * Any mismatch aborts, so the fuzzer reports it as a crash. The
 * same function runs without libFuzzer in fuzz_replay.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>
#include <md2/mesh.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static int same_model(const md2_model *a, const md2_model *b)
{
    size_t i;
    if (a->skin_width != b->skin_width || a->skin_height != b->skin_height ||
        a->num_skins != b->num_skins || a->num_vertices != b->num_vertices ||
        a->num_texcoords != b->num_texcoords || a->num_triangles != b->num_triangles ||
        a->num_frames != b->num_frames || a->num_glcmds != b->num_glcmds)
        return 0;
    if ((a->num_skins && memcmp(a->skins, b->skins, a->num_skins * sizeof *a->skins)) ||
        (a->num_texcoords &&
         memcmp(a->texcoords, b->texcoords, a->num_texcoords * sizeof *a->texcoords)) ||
        (a->num_triangles &&
         memcmp(a->triangles, b->triangles, a->num_triangles * sizeof *a->triangles)) ||
        (a->num_glcmds && memcmp(a->glcmds, b->glcmds, a->num_glcmds * sizeof *a->glcmds)))
        return 0;
    for (i = 0; i < a->num_frames; i++) {
        const md2_frame *fa = &a->frames[i], *fb = &b->frames[i];
        if (memcmp(fa->scale, fb->scale, sizeof fa->scale) ||
            memcmp(fa->translate, fb->translate, sizeof fa->translate) ||
            memcmp(fa->name, fb->name, sizeof fa->name) ||
            memcmp(fa->vertices, fb->vertices, a->num_vertices * sizeof *fa->vertices))
            return 0;
    }
    return 1;
}

/* The mesh module on every accepted model: weld, pose into a layout (each
 * welded vertex equals md2_lerp's for its model vertex), morph data, sort
 * and smooth normals; all finite, nothing leaks. */
static void walk_mesh(const md2_model *m)
{
    md2_mesh *mesh = NULL;
    md2_vertex_layout l = md2_layout_default(MD2_LAYOUT_UNIT_NORMALS);
    float *buf, *ref;
    unsigned char *morph;
    uint32_t *order;
    void *scratch;
    size_t i, scratch_size, last = m->num_frames - 1;
    const float eye[3] = {1000.0f, 0.0f, 0.0f};

    CHECK(md2_mesh_build(m, NULL, &mesh) == MD2_OK);
    CHECK(mesh->num_indices == 3 * m->num_triangles);
    buf = (float *)malloc((mesh->num_vertices + 1) * (l.stride + 16));
    ref = (float *)malloc(m->num_vertices * 3 * sizeof(float) + 1);
    morph = (unsigned char *)malloc(md2_mesh_morph_size(mesh, m) + 1);
    order = (uint32_t *)malloc(mesh->num_indices * sizeof *order + 1);
    scratch_size = md2_mesh_sort_scratch_size(mesh) + md2_mesh_smooth_scratch_size(mesh);
    scratch = malloc(scratch_size + 1);
    CHECK(buf && ref && morph && order && scratch);
    CHECK(md2_mesh_lerp(mesh, m, 0, (uint32_t)last, 0.5f, buf, &l) == MD2_OK);
    CHECK(md2_lerp(m, 0, (uint32_t)last, 0.5f, ref, 0, NULL, 0) == MD2_OK);
    for (i = 0; i < mesh->num_vertices; i++) {
        CHECK(mesh->source_vertex[i] < m->num_vertices);
        CHECK(memcmp(buf + 8 * i, ref + 3 * mesh->source_vertex[i], 12) == 0);
        CHECK(isfinite(buf[8 * i + 3]) && isfinite(buf[8 * i + 6]) && isfinite(buf[8 * i + 7]));
    }
    for (i = 0; i < mesh->num_indices; i++)
        CHECK(mesh->indices[i] < mesh->num_vertices);
    CHECK(md2_mesh_morph_data(mesh, m, morph, md2_mesh_morph_size(mesh, m)) == MD2_OK);
    CHECK(md2_mesh_sort_back_to_front(mesh, buf, &l, eye, order, scratch, scratch_size) ==
          MD2_OK);
    CHECK(md2_mesh_smooth(mesh, buf, &l, MD2_ATTRIBUTE_NONE, scratch, scratch_size) == MD2_OK);
    for (i = 0; i < mesh->num_vertices * 8; i++)
        CHECK(isfinite(buf[i]));
    free(buf);
    free(ref);
    free(morph);
    free(order);
    free(scratch);
    md2_mesh_free(mesh);
}

static void walk(const md2_model *m)
{
    float *pos = (float *)malloc(m->num_vertices * 6 * sizeof(float) + 1);
    size_t a, step = m->num_frames > 16 ? m->num_frames / 16 : 1, size, written = 0;
    float mn[3], mx[3];
    md2_glcmd_iter it;
    md2_glcmd c;
    unsigned char *out;
    md2_model *again = NULL;

    CHECK(pos != NULL);
    for (a = 0; a < m->num_frames; a += step) {
        size_t b;
        for (b = 0; b < m->num_frames; b += step) {
            /* interleaved position + normal, unit normals */
            size_t i;
            CHECK(md2_lerp(m, (uint32_t)a, (uint32_t)b, 0.25f, pos, 24, pos + 3, 24) ==
                  MD2_OK);
            CHECK(md2_normalize(pos + 3, m->num_vertices, 24) == MD2_OK);
            for (i = 0; i < m->num_vertices * 6; i++)
                CHECK(isfinite(pos[i])); /* positions and normals are numbers */
        }
        CHECK(md2_frame_bounds(m, (uint32_t)a, mn, mx) == MD2_OK);
        CHECK(md2_decode_frame(m, (uint32_t)a, pos, 0, NULL, 0) == MD2_OK);
    }
    CHECK(md2_lerp(m, (uint32_t)m->num_frames, 0, 0.5f, pos, 0, NULL, 0) == MD2_ERR_FRAME_RANGE);
    md2_glcmd_begin(&it, m);
    while (md2_glcmd_next(&it, &c)) {
        size_t i;
        for (i = 0; i < c.num_vertices; i++)
            CHECK(md2_glcmd_get(&c, i).vertex < m->num_vertices);
    }
    for (a = 0; a < m->num_triangles; a++) {
        int k;
        for (k = 0; k < 3; k++) {
            CHECK(m->triangles[a].vertex[k] < m->num_vertices);
            CHECK(m->triangles[a].texcoord[k] < m->num_texcoords);
        }
    }
    size = md2_write_size(m);
    CHECK(size >= MD2_HEADER_SIZE);
    out = (unsigned char *)malloc(size);
    CHECK(out != NULL);
    CHECK(md2_write(m, out, size, &written, NULL) == MD2_OK && written == size);
    /* the writer repairs the layout (offsets, frame size, GL terminator,
     * dropped triangles); the rest may warn as the source did */
    again = fuzz_reparse(out, size, m->warnings);
    CHECK(same_model(m, again));
    md2_free(again);
    walk_mesh(m);
    free(out);
    free(pos);
}

/* A stream over the input that hands out reads of varying length (1 to
 * 64 bytes, from a seed) and can fail with MD2_READ_ERROR at a byte. */
typedef struct stream {
    const uint8_t *data;
    size_t size, pos, fail_at; /* fail_at: 0 never */
    uint32_t seed;
} stream;

static size_t stream_read(void *user, void *dst, size_t want)
{
    stream *s = (stream *)user;
    size_t n = s->size - s->pos;
    if (s->fail_at && s->pos >= s->fail_at)
        return MD2_READ_ERROR;
    s->seed = s->seed * 1664525u + 1013904223u;
    if (n > want)
        n = want;
    if (n > 1 + (s->seed >> 26))
        n = 1 + (s->seed >> 26);
    memcpy(dst, s->data + s->pos, n);
    s->pos += n;
    return n;
}

/* md2_load_stream() with short reads (and a limit on odd sizes) gives
 * md2_parse()'s result for the same bytes; with a read error part-way it
 * gives that result or MD2_ERR_IO; it never reads past the limit. */
static void check_stream(const uint8_t *data, size_t size, const md2_options *po)
{
    md2_options o = *po;
    md2_diagnostic d;
    md2_model *m = NULL;
    stream s;
    counter c;
    int pass;

    for (pass = 0; pass < 2; pass++) {
        memset(&s, 0, sizeof s);
        count_allocations(&o.allocator, &c);
        o.limits.max_file_size = (size & 1) ? size / 2 + 1 : 0;
        s.data = data;
        s.size = size;
        s.seed = (uint32_t)size * 2654435761u;
        if (pass == 1)
            s.fail_at = size > 0 ? 1 + data[size - 1] % (size + 1) : 1;
        o.error = NULL;
        md2_result want = md2_parse(data, size, &o, &m);
        md2_free(m);
        m = NULL;
        o.error = &d;
        md2_result got = md2_load_stream(stream_read, &s, &o, &m);
        CHECK(got == want || (pass == 1 && got == MD2_ERR_IO));
        CHECK(got == MD2_OK ? m != NULL : (m == NULL && d.result == got));
        /* the header, then no more than the limit and one byte */
        if (o.limits.max_file_size)
            CHECK(s.pos <= MD2_HEADER_SIZE || s.pos <= o.limits.max_file_size + 1);
        md2_free(m);
        CHECK(c.live_bytes == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int pass;
    for (pass = 0; pass < 2; pass++) {
        md2_options o;
        md2_diagnostic d;
        counter c;
        md2_model *m = NULL;
        md2_result r;
        memset(&o, 0, sizeof o);
        o.error = &d;
        o.strict = pass ? MD2_STRICT_ALL : 0;
        count_allocations(&o.allocator, &c);
        r = md2_parse(data, size, &o, &m);
        CHECK(c.peak_bytes <= 2 * size + 4096); /* the memory ceiling */
        if (r != MD2_OK) {
            CHECK(m == NULL && c.calls == 0 && d.result == r && d.message[0] != '\0');
            continue;
        }
        CHECK(m != NULL);
        /* the bound md2_parse() documents */
        CHECK(md2_model_memory(m) <= size + 16 * m->num_frames + m->num_skins + 512);
        walk(m);
        md2_free(m);
        CHECK(c.live_bytes == 0);
    }
    {
        md2_options o;
        memset(&o, 0, sizeof o);
        o.strict = (size & 2) ? MD2_STRICT_ALL : 0;
        check_stream(data, size, &o);
    }
    return 0;
}
