/*
 * The generated model of md2_bench (md2_bench_model.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "md2_bench_model.h"

#include <md2/md2.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t md2_bench_lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

unsigned char *md2_bench_write(const md2_frame *frames, size_t num_frames, size_t num_vertices,
                               const md2_texcoord *st, size_t num_texcoords,
                               const md2_triangle *tris, size_t num_triangles, size_t *size)
{
    md2_model m;
    unsigned char *data;
    memset(&m, 0, sizeof m);
    m.skin_width = 256;
    m.skin_height = 256;
    m.num_vertices = num_vertices;
    m.num_texcoords = num_texcoords;
    m.texcoords = st;
    m.num_triangles = num_triangles;
    m.triangles = num_triangles ? tris : NULL;
    m.num_frames = num_frames;
    m.frames = frames;
    *size = md2_write_size(&m);
    data = *size ? (unsigned char *)malloc(*size) : NULL;
    if (data && md2_write(&m, data, *size, NULL, NULL) != MD2_OK) {
        free(data);
        data = NULL;
    }
    return data;
}

/* The bytes of a generated model of 1480 vertices (a 40 x 37 grid rolled
 * into a tube, with a texture seam: about 1520 welded vertices) and 1007
 * frames of waving keyframes, as md2_write() writes it; NULL on failure. */
unsigned char *md2_bench_big_model(size_t *size)
{
    const size_t nv = BIG_COLUMNS * BIG_ROWS, nst = nv + BIG_ROWS;
    const size_t ntri = 2 * BIG_COLUMNS * (BIG_ROWS - 1);
    md2_frame *frames = (md2_frame *)calloc(BIG_FRAMES, sizeof *frames);
    md2_vertex *verts = (md2_vertex *)malloc(BIG_FRAMES * nv * sizeof *verts);
    md2_texcoord *st = (md2_texcoord *)malloc(nst * sizeof *st);
    md2_triangle *tris = (md2_triangle *)malloc(ntri * sizeof *tris);
    unsigned char *data = NULL;
    uint32_t seed = 12345;
    size_t f, i, r, c, t = 0;
    int k;

    if (!frames || !verts || !st || !tris)
        goto done;
    for (i = 0; i < nst; i++) { /* the seam's column again, at s = 256 */
        size_t col = i < nv ? i % BIG_COLUMNS : BIG_COLUMNS;
        size_t rw = i < nv ? i / BIG_COLUMNS : i - nv;
        st[i].s = (int16_t)(col * 256 / BIG_COLUMNS);
        st[i].t = (int16_t)(rw * 256 / (BIG_ROWS - 1));
    }
    for (r = 0; r + 1 < BIG_ROWS; r++)
        for (c = 0; c < BIG_COLUMNS; c++) {
            size_t c1 = (c + 1) % BIG_COLUMNS;
            uint16_t a = (uint16_t)(r * BIG_COLUMNS + c), b = (uint16_t)(r * BIG_COLUMNS + c1);
            uint16_t d = (uint16_t)((r + 1) * BIG_COLUMNS + c);
            uint16_t e = (uint16_t)((r + 1) * BIG_COLUMNS + c1);
            /* the last column's right edge uses the seam's texcoords */
            uint16_t sb = c1 ? b : (uint16_t)(nv + r), se = c1 ? e : (uint16_t)(nv + r + 1);
            md2_triangle t1 = {{a, d, b}, {a, d, sb}}, t2 = {{b, d, e}, {sb, d, se}};
            tris[t++] = t1;
            tris[t++] = t2;
        }
    for (f = 0; f < BIG_FRAMES; f++) {
        for (k = 0; k < 3; k++) {
            frames[f].scale[k] = 0.25f + (float)(md2_bench_lcg(&seed) % 100u) / 1000.0f;
            frames[f].translate[k] = -32.0f + (float)(md2_bench_lcg(&seed) % 100u) / 10.0f;
        }
        snprintf(frames[f].name, sizeof frames[f].name, "wave%03u", (unsigned)(f % 1000u));
        for (i = 0; i < nv; i++) {
            md2_vertex *v = &verts[f * nv + i];
            size_t col = i % BIG_COLUMNS, rw = i / BIG_COLUMNS;
            v->v[0] = (uint8_t)(128 + (col * 5 + f) % 96 - 48);
            v->v[1] = (uint8_t)(128 + (col * 11 + f * 3) % 96 - 48);
            v->v[2] = (uint8_t)(rw * 6 + (f + col) % 16);
            v->normal = (uint8_t)(md2_bench_lcg(&seed) % 162u);
        }
        frames[f].vertices = &verts[f * nv];
    }
    data = md2_bench_write(frames, BIG_FRAMES, nv, st, nst, tris, ntri, size);
done:
    free(frames);
    free(verts);
    free(st);
    free(tris);
    return data;
}

unsigned char *md2_bench_same_normals(const unsigned char *data, size_t size, int last_differs)
{
    md2_model *m = NULL;
    unsigned char *out = NULL;
    size_t frames, framesize, n;

    if (md2_parse(data, size, NULL, &m) != MD2_OK)
        return NULL;
    /* the header's own numbers, which md2_parse() checked against the data */
    frames = (size_t)m->header.ofs_frames;
    framesize = (size_t)m->header.framesize;
    n = m->num_vertices;
    out = (unsigned char *)malloc(size);
    if (out) {
        const unsigned char normal = data[frames + 40 + 3]; /* a frame: 40 bytes, 4 a vertex */
        size_t f, i;
        memcpy(out, data, size);
        for (f = 0; f < m->num_frames; f++)
            for (i = 0; i < n; i++)
                out[frames + f * framesize + 40 + 4 * i + 3] = normal;
        if (last_differs)
            out[frames + (m->num_frames - 1) * framesize + 40 + 4 * (n - 1) + 3] =
                (unsigned char)((normal + 1u) % 162u);
    }
    md2_free(m);
    return out;
}
