/*
 * The simplifier's fuzz target (libFuzzer entry point; fuzz_replay.c runs
 * it without libFuzzer): md2_simplify() on any MD2 file that loads (its
 * first 4 frames, which keeps each run short).
 *
 * The input is parsed leniently; its last bytes choose the targets (a
 * ratio, a triangle count, an error in model units) and the allocation
 * that fails. Whatever the model, md2_simplify() either fails with a
 * diagnostic and nothing allocated, or gives levels that a strict parse
 * takes back from their files, with no more triangles than the source,
 * whose every texcoord is one the source has at that vertex, whose
 * vertices keep their bytes in every frame and whose reported error is a
 * finite number of at least 0. Any broken promise aborts.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>
#include <md2/simplify.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "../unit/lod_util.h"

typedef struct falloc {
    size_t calls, fail_at, live;
} falloc;

static void *f_alloc(void *user, size_t size)
{
    falloc *a = (falloc *)user;
    void *p;
    a->calls++;
    if (a->fail_at && a->calls == a->fail_at)
        return NULL;
    p = malloc(size);
    if (p)
        a->live++;
    return p;
}

static void f_free(void *user, void *ptr)
{
    falloc *a = (falloc *)user;
    if (!ptr)
        return;
    a->live--;
    free(ptr);
}

/* (vertex, s, t) of a corner, as one number. */
static uint64_t corner_key(uint32_t v, md2_texcoord st)
{
    return ((uint64_t)v << 32) | ((uint64_t)(uint16_t)st.s << 16) | (uint64_t)(uint16_t)st.t;
}

static int key_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The keys of every corner of src, sorted (a texcoord is one the source
 * has at a vertex if its key is among them: what lod_has_texcoord() says,
 * without its pass over the triangles for each corner, which made a
 * model of thousands of triangles take seconds). */
static uint64_t *corner_keys(const md2_model *src)
{
    uint64_t *keys = (uint64_t *)malloc((src->num_triangles * 3 + 1) * sizeof(uint64_t));
    size_t t;
    int k;
    CHECK(keys);
    for (t = 0; t < src->num_triangles; t++)
        for (k = 0; k < 3; k++)
            keys[3 * t + (size_t)k] = corner_key(src->triangles[t].vertex[k],
                                                 src->texcoords[src->triangles[t].texcoord[k]]);
    qsort(keys, src->num_triangles * 3, sizeof(uint64_t), key_cmp);
    return keys;
}

static void check_level(const md2_model *src, const uint64_t *keys, const md2_lod *lod)
{
    const md2_model *m = lod->model;
    size_t t, f, i, size, written = 0;
    unsigned char *bytes;
    md2_options strict;
    md2_model *back = NULL;
    int k;
    CHECK(m && m->num_triangles <= src->num_triangles && m->num_frames == src->num_frames);
    CHECK(lod->max_error >= 0.0 && lod->max_error < HUGE_VAL);
    CHECK(lod->mean_error >= 0.0 && lod->mean_error <= lod->max_error);
    for (t = 0; t < m->num_triangles; t++)
        for (k = 0; k < 3; k++) {
            uint64_t key = corner_key(lod->source_vertex[m->triangles[t].vertex[k]],
                                      m->texcoords[m->triangles[t].texcoord[k]]);
            CHECK(bsearch(&key, keys, src->num_triangles * 3, sizeof(uint64_t), key_cmp));
        }
    for (f = 0; f < m->num_frames; f++)
        for (i = 0; i < m->num_vertices; i++)
            CHECK(memcmp(&m->frames[f].vertices[i],
                         &src->frames[f].vertices[lod->source_vertex[i]], 4) == 0);
    size = md2_write_size(m);
    bytes = (unsigned char *)malloc(size ? size : 1);
    CHECK(bytes);
    CHECK(md2_write(m, bytes, size, &written, NULL) == MD2_OK);
    memset(&strict, 0, sizeof strict);
    /* what the simplifier keeps byte for byte may be strict-only quirks of
     * the source (names without a NUL, normal indices of 162 and up) */
    strict.strict = MD2_STRICT_ALL & ~(uint32_t)(MD2_WARN_UNTERMINATED_NAME |
                                                 MD2_WARN_NORMAL_INDEX |
                                                 MD2_WARN_SKIN_SIZE_ZERO);
    CHECK(md2_parse(bytes, written, &strict, &back) == MD2_OK);
    md2_free(back);
    free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    md2_model *m = NULL, few;
    md2_frame frames[4];
    md2_simplify_target t[3];
    md2_simplify_options o;
    md2_diagnostic d;
    md2_lod lod[3];
    falloc a;
    unsigned char tail[4] = {0, 0, 0, 0};
    md2_result r;
    size_t i;

    if (size > (1u << 20) || md2_parse(data, size, NULL, &m) != MD2_OK)
        return 0;
    if (m->num_triangles > 4000u) {
        md2_free(m); /* keep each run short */
        return 0;
    }
    if (size >= 4)
        memcpy(tail, data + size - 4, 4);
    memset(t, 0, sizeof t);
    t[0].kind = MD2_SIMPLIFY_RATIO;
    t[0].value = (double)tail[0] / 255.0;
    t[1].kind = MD2_SIMPLIFY_TRIANGLES;
    t[1].value = (double)(tail[1] % 16);
    t[2].kind = MD2_SIMPLIFY_ERROR;
    t[2].value = (double)tail[2] / 16.0;
    memset(&a, 0, sizeof a);
    a.fail_at = tail[3] < 64 ? tail[3] : 0;
    memset(&o, 0, sizeof o);
    o.allocator.alloc = f_alloc;
    o.allocator.free = f_free;
    o.allocator.user = &a;
    o.error = &d;
    /* at most its first 4 frames (keeps each run short) */
    lod_some_frames(m, 1, 4, frames, &few);
    r = md2_simplify(&few, t, 3, &o, lod);
    if (r == MD2_OK) {
        uint64_t *keys = corner_keys(&few);
        for (i = 0; i < 3; i++) {
            check_level(&few, keys, &lod[i]);
            md2_lod_free(&lod[i]);
        }
        free(keys);
    } else {
        CHECK(d.result == r && d.message[0] != '\0');
        CHECK(r == MD2_ERR_OUT_OF_MEMORY || r == MD2_ERR_INVALID_MODEL);
        for (i = 0; i < 3; i++)
            CHECK(lod[i].model == NULL);
    }
    CHECK(a.live == 0);
    md2_free(m);
    return 0;
}
