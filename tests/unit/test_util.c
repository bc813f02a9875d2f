/*
 * Helpers shared by libmd2's tests (see test_util.h).
 *
 * SPDX-License-Identifier: MIT
 */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>
#elif defined(_WIN32)
#include <direct.h>
#include <io.h>
#endif

#include "test_util.h"

#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MD2_SHARED_DIR
#define MD2_SHARED_DIR "../shared"
#endif

void tu_spec_default(tu_spec *s)
{
    static const int16_t st[4][2] = {{0, 0}, {64, 0}, {64, 32}, {-8, 40}};
    static const uint16_t tris[2][6] = {{0, 1, 2, 0, 1, 2}, {0, 2, 3, 0, 2, 3}};
    static const char *const names[3] = {"walk1", "walk2", "run1"};
    /* strip: 3 vertices; fan: 3 vertices; end */
    const float one = 1.0f, zero = 0.0f;
    int32_t w1, w0;
    int f, i, k = 0;

    memset(s, 0, sizeof *s);
    memcpy(&w1, &one, 4);
    memcpy(&w0, &zero, 4);
    s->skinwidth = 64;
    s->skinheight = 32;
    s->num_skins = 2;
    strcpy(s->skins[0], "models/tiny/skin.pcx");
    strcpy(s->skins[1], "models/tiny/evil.pcx");
    s->num_xyz = 4;
    s->num_st = 4;
    memcpy(s->st, st, sizeof st);
    s->num_tris = 2;
    memcpy(s->tris, tris, sizeof tris);
    s->num_frames = 3;
    for (f = 0; f < 3; f++) {
        s->scale[f][0] = 1.0f + (float)f;
        s->scale[f][1] = 2.0f;
        s->scale[f][2] = 0.5f;
        s->translate[f][0] = -1.0f;
        s->translate[f][1] = 0.0f;
        s->translate[f][2] = 10.0f * (float)f;
        strcpy(s->names[f], names[f]);
        for (i = 0; i < 4; i++) {
            s->verts[f][i][0] = (uint8_t)(10 * i + f);
            s->verts[f][i][1] = (uint8_t)(255 - i);
            s->verts[f][i][2] = (uint8_t)(i * i);
            s->verts[f][i][3] = (uint8_t)((40 * i + f) % 162);
        }
    }
    s->gl[k++] = 3;
    s->gl[k++] = w0; s->gl[k++] = w0; s->gl[k++] = 0;
    s->gl[k++] = w1; s->gl[k++] = w0; s->gl[k++] = 1;
    s->gl[k++] = w1; s->gl[k++] = w1; s->gl[k++] = 2;
    s->gl[k++] = -3;
    s->gl[k++] = w0; s->gl[k++] = w0; s->gl[k++] = 0;
    s->gl[k++] = w1; s->gl[k++] = w1; s->gl[k++] = 2;
    s->gl[k++] = w0; s->gl[k++] = w1; s->gl[k++] = 3;
    s->gl[k++] = 0;
    s->num_gl = k;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void putf(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put32(p, u);
}

size_t tu_build(const tu_spec *s, uint8_t *out)
{
    size_t framesize = 40 + 4 * (size_t)s->num_xyz + (size_t)s->frame_padding;
    size_t pos = 68, ofs_skins, ofs_st, ofs_tris, ofs_frames, ofs_gl, end;
    int i, k;

    memset(out, 0, TU_MAX_FILE);
    ofs_skins = pos;
    for (i = 0; i < s->num_skins; i++, pos += 64)
        memcpy(out + pos, s->skins[i], 64);
    ofs_st = pos;
    for (i = 0; i < s->num_st; i++, pos += 4) {
        put16(out + pos, (uint16_t)s->st[i][0]);
        put16(out + pos + 2, (uint16_t)s->st[i][1]);
    }
    ofs_tris = pos;
    for (i = 0; i < s->num_tris; i++, pos += 12)
        for (k = 0; k < 6; k++)
            put16(out + pos + 2 * (size_t)k, s->tris[i][k]);
    ofs_frames = pos;
    for (i = 0; i < s->num_frames; i++, pos += framesize) {
        for (k = 0; k < 3; k++) {
            putf(out + pos + 4 * (size_t)k, s->scale[i][k]);
            putf(out + pos + 12 + 4 * (size_t)k, s->translate[i][k]);
        }
        memcpy(out + pos + 24, s->names[i], 16);
        for (k = 0; k < s->num_xyz; k++)
            memcpy(out + pos + 40 + 4 * (size_t)k, s->verts[i][k], 4);
    }
    ofs_gl = pos;
    for (i = 0; i < s->num_gl; i++, pos += 4)
        put32(out + pos, (uint32_t)s->gl[i]);
    end = pos;
    put32(out + 0, MD2_IDENT);
    put32(out + 4, 8);
    put32(out + 8, (uint32_t)s->skinwidth);
    put32(out + 12, (uint32_t)s->skinheight);
    put32(out + 16, (uint32_t)framesize);
    put32(out + 20, (uint32_t)s->num_skins);
    put32(out + 24, (uint32_t)s->num_xyz);
    put32(out + 28, (uint32_t)s->num_st);
    put32(out + 32, (uint32_t)s->num_tris);
    put32(out + 36, (uint32_t)s->num_gl);
    put32(out + 40, (uint32_t)s->num_frames);
    put32(out + 44, (uint32_t)ofs_skins);
    put32(out + 48, (uint32_t)ofs_st);
    put32(out + 52, (uint32_t)ofs_tris);
    put32(out + 56, (uint32_t)ofs_frames);
    put32(out + 60, (uint32_t)ofs_gl);
    put32(out + 64, (uint32_t)end);
    for (i = 0; i < s->trailing; i++)
        out[pos++] = 0xAB;
    return pos;
}

size_t tu_tiny(uint8_t *out)
{
    tu_spec s;
    tu_spec_default(&s);
    return tu_build(&s, out);
}

int32_t tu_get32(const uint8_t *file, size_t offset)
{
    uint32_t u = (uint32_t)file[offset] | ((uint32_t)file[offset + 1] << 8) |
                 ((uint32_t)file[offset + 2] << 16) | ((uint32_t)file[offset + 3] << 24);
    int32_t v;
    memcpy(&v, &u, 4); /* two's complement on every host the tests run on */
    return v;
}

void tu_set32(uint8_t *file, size_t offset, int32_t value)
{
    put32(file + offset, (uint32_t)value);
}

int32_t tu_hdr(const uint8_t *file, int field) { return tu_get32(file, 4 * (size_t)field); }

void tu_set_hdr(uint8_t *file, int field, int32_t value)
{
    tu_set32(file, 4 * (size_t)field, value);
}

static void *tu_alloc_fn(void *user, size_t size)
{
    tu_alloc *a = (tu_alloc *)user;
    size_t *block;
    a->calls++;
    if (size > a->largest)
        a->largest = size;
    if (a->fail_at != 0 && a->calls == a->fail_at)
        return NULL;
    /* keep the size in front of the block, aligned for any type */
    block = (size_t *)malloc(size + 16);
    if (!block)
        return NULL;
    block[0] = size;
    a->live++;
    a->live_bytes += size;
    if (a->live_bytes > a->peak_bytes)
        a->peak_bytes = a->live_bytes;
    return (unsigned char *)block + 16;
}

static void tu_free_fn(void *user, void *ptr)
{
    tu_alloc *a = (tu_alloc *)user;
    size_t *block;
    if (!ptr)
        return;
    block = (size_t *)(void *)((unsigned char *)ptr - 16);
    a->live--;
    a->live_bytes -= block[0];
    free(block);
}

size_t tu_mem_read(void *user, void *dst, size_t size)
{
    tu_memstream *s = (tu_memstream *)user;
    size_t n = s->size - s->pos;
    s->reads++;
    if (s->fail_at && s->pos >= s->fail_at)
        return MD2_READ_ERROR;
    if (n > size)
        n = size;
    if (s->chunk && n > s->chunk)
        n = s->chunk;
    memcpy(dst, s->data + s->pos, n);
    s->pos += n;
    return n;
}

void tu_memstream_init(tu_memstream *s, const uint8_t *data, size_t size, size_t chunk)
{
    memset(s, 0, sizeof *s);
    s->data = data;
    s->size = size;
    s->chunk = chunk;
}

void tu_alloc_init(tu_alloc *a, md2_allocator *out)
{
    memset(a, 0, sizeof *a);
    out->alloc = tu_alloc_fn;
    out->free = tu_free_fn;
    out->user = a;
}

uint8_t *tu_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    buf = (uint8_t *)malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

char *tu_mkdtemp(char *template_path)
{
#if defined(__unix__) || defined(__APPLE__)
    return mkdtemp(template_path);
#elif defined(_WIN32)
    return _mktemp(template_path) && _mkdir(template_path) == 0 ? template_path : NULL;
#else
    (void)template_path;
    return NULL;
#endif
}

int tu_rmdir(const char *path)
{
#if defined(__unix__) || defined(__APPLE__)
    return rmdir(path);
#elif defined(_WIN32)
    return _rmdir(path);
#else
    return remove(path);
#endif
}

int tu_write_file(const char *dir, const char *name, const void *data, size_t size)
{
    char path[1024];
    FILE *f;
    int ok;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f)
        return 0;
    ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

int tu_corpus(const char *name, char *path, size_t cap)
{
    FILE *f;
    snprintf(path, cap, "%s/corpus/%s", MD2_SHARED_DIR, name);
    f = fopen(path, "rb");
    if (!f)
        return 0;
    fclose(f);
    return 1;
}

uint8_t *tu_read_corpus(const char *name, size_t *size)
{
    char path[512];
    if (!tu_corpus(name, path, sizeof path))
        return NULL;
    return tu_read_file(path, size);
}

static float rawf(const uint8_t *p)
{
    uint32_t u = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
                 ((uint32_t)p[3] << 24);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

void tu_raw_position(const uint8_t *file, uint32_t f, uint32_t i, float out[3])
{
    size_t frame = (size_t)tu_hdr(file, TU_OFS_FRAMES) + (size_t)f * (size_t)tu_hdr(file, TU_FRAMESIZE);
    int k;
    for (k = 0; k < 3; k++) {
        float scale = rawf(file + frame + 4 * (size_t)k);
        float translate = rawf(file + frame + 12 + 4 * (size_t)k);
        /* one rounding per operation, as IEEE float arithmetic does it: a
         * volatile float is stored, which rounds also where the compiler
         * keeps float variables in wider registers (clang on x87) */
        volatile float product = scale * (float)file[frame + 40 + 4 * (size_t)i + (size_t)k];
        volatile float sum = product + translate;
        out[k] = sum;
    }
}

unsigned tu_raw_normal_index(const uint8_t *file, uint32_t f, uint32_t i)
{
    size_t frame = (size_t)tu_hdr(file, TU_OFS_FRAMES) + (size_t)f * (size_t)tu_hdr(file, TU_FRAMESIZE);
    return file[frame + 40 + 4 * (size_t)i + 3];
}

int tu_load_normal_table(float table[162][3])
{
    FILE *f = fopen(MD2_SHARED_DIR "/data/md2_normals.txt", "r");
    char line[256];
    int n = 0;
    if (!f)
        return 0;
    while (n < 162 && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%f %f %f", &table[n][0], &table[n][1], &table[n][2]) == 3)
            n++;
    }
    fclose(f);
    return n == 162;
}

void tu_assert_models_equal(const md2_model *a, const md2_model *b)
{
    size_t i;
    assert_int_equal(a->skin_width, b->skin_width);
    assert_int_equal(a->skin_height, b->skin_height);
    assert_int_equal(a->num_skins, b->num_skins);
    assert_int_equal(a->num_vertices, b->num_vertices);
    assert_int_equal(a->num_texcoords, b->num_texcoords);
    assert_int_equal(a->num_triangles, b->num_triangles);
    assert_int_equal(a->num_frames, b->num_frames);
    assert_int_equal(a->num_glcmds, b->num_glcmds);
    if (a->num_skins)
        assert_memory_equal(a->skins, b->skins, a->num_skins * sizeof(md2_skin));
    if (a->num_texcoords)
        assert_memory_equal(a->texcoords, b->texcoords, a->num_texcoords * sizeof(md2_texcoord));
    if (a->num_triangles)
        assert_memory_equal(a->triangles, b->triangles, a->num_triangles * sizeof(md2_triangle));
    if (a->num_glcmds)
        assert_memory_equal(a->glcmds, b->glcmds, a->num_glcmds * sizeof(int32_t));
    for (i = 0; i < a->num_frames; i++) {
        assert_memory_equal(a->frames[i].scale, b->frames[i].scale, sizeof a->frames[i].scale);
        assert_memory_equal(a->frames[i].translate, b->frames[i].translate,
                            sizeof a->frames[i].translate);
        assert_memory_equal(a->frames[i].name, b->frames[i].name, sizeof a->frames[i].name);
        assert_memory_equal(a->frames[i].vertices, b->frames[i].vertices,
                            a->num_vertices * sizeof(md2_vertex));
    }
}

/* Frames a side of the lerp pairs tu_walk_model() takes: 8 (64 pairs, every
 * frame decoded); under qemu or valgrind (its preloaded library is in
 * LD_PRELOAD) 3 (9 pairs, as many frames decoded), where a walk of every
 * mutant of test_hostile took minutes (qemu does x87 in software). */
static size_t walk_frames(void)
{
#ifdef MD2_TEST_EMULATED
    return 3;
#else
    const char *preload = getenv("LD_PRELOAD");
    return preload && strstr(preload, "vgpreload") ? 3 : 8;
#endif
}

void tu_walk_model(const md2_model *m)
{
    float *pos = (float *)malloc(m->num_vertices * 3 * sizeof(float));
    float *nrm = (float *)malloc(m->num_vertices * 3 * sizeof(float));
    size_t frames = walk_frames(), step = m->num_frames > frames ? m->num_frames / frames : 1;
    /* cppcheck-suppress knownConditionTrueFalse ; walk_frames() is 8 natively, 3 under qemu or valgrind */
    size_t decode_step = frames < 8 ? step : 1, a, b, size, written = 0;
    float mn[3], mx[3];
    md2_glcmd_iter it;
    md2_glcmd c;
    uint8_t *out;
    md2_model *again = NULL;

    assert_non_null(pos);
    assert_non_null(nrm);
    for (a = 0; a < m->num_frames; a += step)
        for (b = 0; b < m->num_frames; b += step) {
            size_t i;
            assert_int_equal(md2_lerp(m, (uint32_t)a, (uint32_t)b, 0.5f, pos, 0, nrm, 0),
                             MD2_OK);
            assert_int_equal(md2_normalize(nrm, m->num_vertices, 0), MD2_OK);
            /* whatever the file says, positions and normals are numbers */
            for (i = 0; i < m->num_vertices * 3; i++)
                assert_true(isfinite(pos[i]) && isfinite(nrm[i]));
        }
    for (a = 0; a < m->num_frames; a += decode_step) {
        assert_int_equal(md2_decode_frame(m, (uint32_t)a, pos, 0, NULL, 0), MD2_OK);
        assert_int_equal(md2_frame_bounds(m, (uint32_t)a, mn, mx), MD2_OK);
        assert_true(isfinite(mn[0]) && isfinite(mx[2]) && mn[1] <= mx[1]);
    }
    md2_glcmd_begin(&it, m);
    while (md2_glcmd_next(&it, &c)) {
        size_t i;
        for (i = 0; i < c.num_vertices; i++)
            assert_true(md2_glcmd_get(&c, i).vertex < m->num_vertices);
    }
    size = md2_write_size(m);
    assert_true(size >= MD2_HEADER_SIZE);
    out = (uint8_t *)malloc(size);
    assert_non_null(out);
    assert_int_equal(md2_write(m, out, size, &written, NULL), MD2_OK);
    assert_int_equal(written, size);
    assert_int_equal(md2_parse(out, written, NULL, &again), MD2_OK);
    tu_assert_models_equal(m, again);
    md2_free(again);
    free(out);
    free(pos);
    free(nrm);
}
