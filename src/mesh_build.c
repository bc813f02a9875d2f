/*
 * Building draw-ready meshes (<md2/mesh.h>): welding the distinct
 * (vertex, s, t) corners of a model's triangles into one index space with
 * a hash table. The only part of the mesh module that allocates: a
 * temporary table and the mesh (mesh.c never does).
 *
 * SPDX-License-Identifier: MIT
 */
#include "md2/mesh.h"
#include "diag.h"
#include "reserved.h"

#include <string.h>

/* ------------------------------------------------------------------------ */
/* Building                                                                  */
/* ------------------------------------------------------------------------ */

/* A corner's identity: model vertex and texcoord values. */
static uint64_t corner_key(uint16_t vertex, md2_texcoord st)
{
    return ((uint64_t)vertex << 32) | ((uint64_t)(uint16_t)st.s << 16) |
           (uint64_t)(uint16_t)st.t;
}

static size_t hash_slot(uint64_t key, unsigned bits)
{
    /* Fibonacci hashing: the top bits of key times 2^64 / phi */
    return (size_t)((key * 0x9E3779B97F4A7C15u) >> (64 - bits));
}

/* Offsets of the parts of a mesh's one allocation. */
typedef struct mesh_layout {
    size_t indices, indices16, source, uv, total;
} mesh_layout;

static int add_part(size_t *total, size_t *at, size_t count, size_t elem, size_t align)
{
    size_t start = (*total + align - 1) / align * align;
    if (start < *total || (count != 0 && elem > (SIZE_MAX - start) / count))
        return 0;
    *at = start;
    *total = start + count * elem;
    return 1;
}

static int plan_mesh(mesh_layout *l, size_t num_indices, size_t num_vertices)
{
    size_t total = sizeof(md2_mesh);
    int small = num_vertices <= 65536u;
    if (!add_part(&total, &l->indices, num_indices, sizeof(uint32_t), MD2_ALIGNOF(uint32_t)) ||
        !add_part(&total, &l->indices16, small ? num_indices : 0, sizeof(uint16_t),
                  MD2_ALIGNOF(uint16_t)) ||
        !add_part(&total, &l->source, num_vertices, sizeof(uint32_t), MD2_ALIGNOF(uint32_t)) ||
        !add_part(&total, &l->uv, 2 * num_vertices, sizeof(float), MD2_ALIGNOF(float)))
        return 0;
    l->total = total;
    return 1;
}

/* The weld table: open addressing on corner keys; slot values are
 * welded-vertex numbers + 1 (0: empty). Corner c of the triangle list
 * gets corner_vertex[c]. */
typedef struct weld {
    uint32_t *slots;
    uint64_t *keys;          /* key of each welded vertex */
    uint32_t *corner_vertex; /* welded vertex of each corner */
    uint32_t *first_corner;  /* a corner of each welded vertex (for uv) */
    unsigned bits;
    size_t count;
} weld;

static md2_result check_triangles(const md2_model *m, md2_diagnostic *d)
{
    size_t i;
    int k;
    if (m->num_triangles != 0 && !m->triangles)
        return md2__fail(d, MD2_ERR_INVALID_MODEL, MD2_SECTION_TRIANGLES, "triangles", 0, 0,
                         "md2_mesh_build: triangles is NULL but num_triangles is %lu",
                         (unsigned long)m->num_triangles);
    if (m->num_triangles > (size_t)UINT32_MAX / 3u)
        return md2__fail(d, MD2_ERR_INVALID_MODEL, MD2_SECTION_TRIANGLES, "num_triangles",
                         0, 0, "md2_mesh_build: %lu triangles have more corners than a uint32_t counts",
                         (unsigned long)m->num_triangles);
    for (i = 0; i < m->num_triangles; i++)
        for (k = 0; k < 3; k++) {
            const md2_triangle *t = &m->triangles[i];
            if (t->vertex[k] >= m->num_vertices || t->texcoord[k] >= m->num_texcoords ||
                !m->texcoords)
                return md2__fail(d, MD2_ERR_INVALID_MODEL, MD2_SECTION_TRIANGLES,
                                 t->vertex[k] >= m->num_vertices ? "vertex" : "texcoord", 0, i,
                                 "md2_mesh_build: triangle %lu corner %d has vertex %u and texcoord %u, past the model's %lu vertices or %lu texcoords",
                                 (unsigned long)i, k, (unsigned)t->vertex[k],
                                 (unsigned)t->texcoord[k], (unsigned long)m->num_vertices,
                                 (unsigned long)m->num_texcoords);
        }
    return MD2_OK;
}

/* Welds every corner; w's arrays are sized for n corners. */
static void weld_corners(const md2_model *m, weld *w)
{
    size_t i, n = 3 * m->num_triangles, mask = ((size_t)1 << w->bits) - 1;

    memset(w->slots, 0, ((size_t)1 << w->bits) * sizeof *w->slots);
    w->count = 0;
    for (i = 0; i < n; i++) {
        const md2_triangle *t = &m->triangles[i / 3];
        int k = (int)(i % 3);
        uint64_t key = corner_key(t->vertex[k], m->texcoords[t->texcoord[k]]);
        size_t s = hash_slot(key, w->bits);
        while (w->slots[s] != 0 && w->keys[w->slots[s] - 1] != key)
            s = (s + 1) & mask;
        if (w->slots[s] == 0) {
            w->keys[w->count] = key;
            w->first_corner[w->count] = (uint32_t)i;
            w->slots[s] = (uint32_t)++w->count;
        }
        w->corner_vertex[i] = w->slots[s] - 1;
    }
}

static void fill_mesh(md2_mesh *mesh, const md2_model *m, const weld *w, const mesh_layout *l,
                      unsigned flags)
{
    unsigned char *base = (unsigned char *)mesh;
    uint32_t *indices = (uint32_t *)(void *)(base + l->indices);
    uint16_t *indices16 = (uint16_t *)(void *)(base + l->indices16);
    uint32_t *source = (uint32_t *)(void *)(base + l->source);
    float *uv = (float *)(void *)(base + l->uv);
    size_t i, n = 3 * m->num_triangles;
    int small = w->count <= 65536u;

    for (i = 0; i < n; i++) {
        /* counter-clockwise: corners 1 and 2 of every triangle swap */
        size_t from = (flags & MD2_MESH_COUNTER_CLOCKWISE) && i % 3 != 0
                          ? i - i % 3 + (3 - i % 3)
                          : i;
        indices[i] = w->corner_vertex[from];
        if (small)
            indices16[i] = (uint16_t)indices[i];
    }
    for (i = 0; i < w->count; i++) {
        size_t c = w->first_corner[i];
        const md2_triangle *t = &m->triangles[c / 3];
        source[i] = t->vertex[c % 3];
        md2_texcoord_uv(m, m->texcoords[t->texcoord[c % 3]], &uv[2 * i], &uv[2 * i + 1]);
    }
    mesh->num_vertices = w->count;
    mesh->num_indices = n;
    mesh->indices = n ? indices : NULL;
    mesh->indices16 = (n && small) ? indices16 : NULL;
    mesh->source_vertex = w->count ? source : NULL;
    mesh->uv = w->count ? uv : NULL;
    mesh->num_model_vertices = m->num_vertices;
    mesh->flags = flags;
}

md2_result md2_mesh_build(const md2_model *m, const md2_mesh_options *opts, md2_mesh **out)
{
    md2_diagnostic *d = opts ? opts->error : NULL;
    md2_allocator a;
    size_t n, table, scratch_size;
    mesh_layout l;
    weld w;
    unsigned char *scratch;
    md2_mesh *mesh;

    md2__diag_clear(d);
    if (out)
        *out = NULL;
    if (!m || !out)
        return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "", 0, 0,
                         "md2_mesh_build: %s is NULL", m ? "out" : "m");
    MD2_TRY(md2__reserved_model(m, d));
    MD2_TRY(md2__reserved_mesh_options(opts));
    MD2_TRY(check_triangles(m, d));
    if (opts && opts->allocator.alloc && opts->allocator.free)
        a = opts->allocator;
    else
        a = md2__allocator(NULL);

    /* the table: a power of two at least twice the corners */
    n = 3 * m->num_triangles;
    for (w.bits = 4; ((size_t)1 << w.bits) < 2 * n; w.bits++)
        ;
    table = (size_t)1 << w.bits;
    /* scratch: slots, keys, corner_vertex, first_corner (8-byte keys first) */
    scratch_size = n * sizeof(uint64_t) + table * sizeof(uint32_t) + 2 * n * sizeof(uint32_t);
    scratch = (unsigned char *)a.alloc(a.user, scratch_size);
    if (!scratch)
        return md2__fail(d, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                         "md2_mesh_build: allocating %lu bytes of welding table failed",
                         (unsigned long)scratch_size);
    w.keys = (uint64_t *)(void *)scratch;
    w.slots = (uint32_t *)(void *)(scratch + n * sizeof(uint64_t));
    w.corner_vertex = w.slots + table;
    w.first_corner = w.corner_vertex + n;
    weld_corners(m, &w);

    if (!plan_mesh(&l, n, w.count) || !(mesh = (md2_mesh *)a.alloc(a.user, l.total))) {
        a.free(a.user, scratch);
        return md2__fail(d, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                         "md2_mesh_build: allocating the mesh (%lu welded vertices) failed",
                         (unsigned long)w.count);
    }
    memset(mesh, 0, sizeof *mesh);
    fill_mesh(mesh, m, &w, &l, opts ? opts->flags : 0u);
    mesh->allocator_ = a;
    a.free(a.user, scratch);
    *out = mesh;
    return MD2_OK;
}

void md2_mesh_free(md2_mesh *mesh)
{
    if (mesh && mesh->allocator_.free)
        mesh->allocator_.free(mesh->allocator_.user, mesh);
}

size_t md2_mesh_memory(const md2_mesh *mesh)
{
    mesh_layout l;
    if (md2__reserved_mesh(mesh, NULL) != MD2_OK)
        return 0;
    if (!mesh || !plan_mesh(&l, mesh->num_indices, mesh->num_vertices))
        return 0;
    return l.total;
}
