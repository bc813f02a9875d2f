/*
 * The shapes and the independent error measure of the simplifier's tests
 * (lod_util.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "lod_util.h"

#include <md2/build.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MD2_SHARED_DIR
#define MD2_SHARED_DIR "../shared"
#endif

static const double pi = 3.14159265358979323846;

static md2_model *build(size_t frames, size_t nv, float *pos, size_t ntris, uint32_t *tris,
                        size_t nst, float *uv)
{
    md2_build_input in;
    md2_build_options o;
    md2_model *m = NULL;
    memset(&in, 0, sizeof in);
    memset(&o, 0, sizeof o);
    /* a box a frame: the shapes docs/simplify.md's table measures, as they
     * were before stable grids became md2_build()'s default */
    o.quantize = MD2_QUANTIZE_PER_FRAME;
    in.num_frames = frames;
    in.num_vertices = nv;
    in.positions = pos;
    in.num_triangles = ntris;
    in.triangles = tris;
    in.num_texcoords = nst;
    in.uv = uv;
    in.skin_width = 256;
    in.skin_height = 256;
    if (md2_build(&in, &o, &m) != MD2_OK)
        m = NULL;
    free(pos);
    free(tris);
    free(uv);
    return m;
}

md2_model *lod_cylinder(size_t sides, size_t rings, size_t frames)
{
    size_t nv = sides * (rings + 1), nst = (sides + 1) * (rings + 1), f, r, c, t = 0;
    float *pos = (float *)malloc(frames * nv * 3 * sizeof(float));
    float *uv = (float *)malloc(nst * 2 * sizeof(float));
    uint32_t *tris = (uint32_t *)malloc(2 * sides * rings * 6 * sizeof(uint32_t));
    const double length = 60.0, radius = 6.0;
    if (!pos || !uv || !tris) {
        free(pos);
        free(uv);
        free(tris);
        return NULL;
    }
    for (f = 0; f < frames; f++) {
        double angle = frames > 1 ? 0.5 * pi * (double)f / (double)(frames - 1) : 0.0;
        for (r = 0; r <= rings; r++) {
            double s = length * (double)r / (double)rings;
            for (c = 0; c < sides; c++) {
                double ph = 2.0 * pi * (double)c / (double)sides;
                double x = radius * cos(ph), y = radius * sin(ph);
                float *p = pos + 3 * (f * nv + r * sides + c);
                if (angle == 0.0) {
                    p[0] = (float)x;
                    p[1] = (float)y;
                    p[2] = (float)s;
                } else { /* the axis bent along an arc of radius length / angle */
                    double rho = length / angle, a = s / rho;
                    p[0] = (float)(rho - (rho - x) * cos(a));
                    p[1] = (float)y;
                    p[2] = (float)((rho - x) * sin(a));
                }
            }
        }
    }
    for (r = 0; r <= rings; r++)
        for (c = 0; c <= sides; c++) {
            uv[2 * (r * (sides + 1) + c)] = (float)c / (float)sides;
            uv[2 * (r * (sides + 1) + c) + 1] = (float)r / (float)rings;
        }
    for (r = 0; r < rings; r++)
        for (c = 0; c < sides; c++) {
            /* (ring, column) of the quad's corners, two triangles */
            size_t q[2][3][2] = {{{r, c}, {r + 1, c}, {r, c + 1}},
                                 {{r, c + 1}, {r + 1, c}, {r + 1, c + 1}}};
            int h, k;
            for (h = 0; h < 2; h++, t++)
                for (k = 0; k < 3; k++) {
                    size_t rr = q[h][k][0], cc = q[h][k][1];
                    tris[6 * t + 2 * (size_t)k] = (uint32_t)(rr * sides + cc % sides);
                    tris[6 * t + 2 * (size_t)k + 1] = (uint32_t)(rr * (sides + 1) + cc);
                }
        }
    return build(frames, nv, pos, t, tris, nst, uv);
}

md2_model *lod_plane(size_t n, size_t frames)
{
    size_t nv = (n + 1) * (n + 1), half = n / 2, nst = nv + (n + 1), f, r, c, t = 0;
    float *pos = (float *)malloc(frames * nv * 3 * sizeof(float));
    float *uv = (float *)malloc(nst * 2 * sizeof(float));
    uint32_t *tris = (uint32_t *)malloc(2 * n * n * 6 * sizeof(uint32_t));
    if (!pos || !uv || !tris) {
        free(pos);
        free(uv);
        free(tris);
        return NULL;
    }
    for (f = 0; f < frames; f++)
        for (r = 0; r <= n; r++)
            for (c = 0; c <= n; c++) {
                float *p = pos + 3 * (f * nv + r * (n + 1) + c);
                double x = 4.0 * (double)c, y = 4.0 * (double)r;
                double phase = 2.0 * pi * (double)f / (double)frames;
                p[0] = (float)x;
                p[1] = (float)y;
                p[2] = (float)(6.0 * sin(0.12 * x + phase) * (0.3 + 0.7 * y / (4.0 * (double)n)));
            }
    /* chart A: texcoord r * (n + 1) + c for columns up to half; chart B (the
     * right half, lower in the skin): the same, but the middle column has
     * its own texcoords nv + r */
    for (r = 0; r <= n; r++) {
        for (c = 0; c <= n; c++) {
            float *st = uv + 2 * (r * (n + 1) + c);
            st[0] = (float)c / (float)(n + 2) + (c > half ? 1.0f / (float)(n + 2) : 0.0f);
            st[1] = 0.5f * (float)r / (float)n;
        }
        uv[2 * (nv + r)] = (float)(half + 1) / (float)(n + 2);
        uv[2 * (nv + r) + 1] = 0.5f * (float)r / (float)n;
    }
    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++) {
            size_t q[2][3][2] = {{{r, c}, {r, c + 1}, {r + 1, c}},
                                 {{r, c + 1}, {r + 1, c + 1}, {r + 1, c}}};
            int h, k;
            for (h = 0; h < 2; h++, t++)
                for (k = 0; k < 3; k++) {
                    size_t rr = q[h][k][0], cc = q[h][k][1];
                    size_t v = rr * (n + 1) + cc;
                    tris[6 * t + 2 * (size_t)k] = (uint32_t)v;
                    /* the right half's corners on the middle column */
                    tris[6 * t + 2 * (size_t)k + 1] =
                        (uint32_t)(cc == half && c >= half ? nv + rr : v);
                }
        }
    return build(frames, nv, pos, t, tris, nst, uv);
}

/* Squared distance from p to triangle abc, in double: the nearest of the
 * point's projection (when inside) and the three edges. */
static double dist2(const double *p, const double *a, const double *b, const double *c)
{
    const double *v[3];
    double n[3], e1[3], e2[3], nn, best = HUGE_VAL;
    int i, e;
    v[0] = a;
    v[1] = b;
    v[2] = c;
    for (i = 0; i < 3; i++) {
        e1[i] = b[i] - a[i];
        e2[i] = c[i] - a[i];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    nn = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if (nn > 0.0) {
        double d = ((p[0] - a[0]) * n[0] + (p[1] - a[1]) * n[1] + (p[2] - a[2]) * n[2]) / nn;
        double q[3];
        int inside = 1;
        for (i = 0; i < 3; i++)
            q[i] = p[i] - d * n[i];
        for (e = 0; e < 3; e++) {
            const double *x = v[e], *y = v[(e + 1) % 3];
            double ex[3], qx[3], cr[3];
            for (i = 0; i < 3; i++) {
                ex[i] = y[i] - x[i];
                qx[i] = q[i] - x[i];
            }
            cr[0] = ex[1] * qx[2] - ex[2] * qx[1];
            cr[1] = ex[2] * qx[0] - ex[0] * qx[2];
            cr[2] = ex[0] * qx[1] - ex[1] * qx[0];
            if (cr[0] * n[0] + cr[1] * n[1] + cr[2] * n[2] < 0.0)
                inside = 0;
        }
        if (inside)
            return d * d * nn;
    }
    for (e = 0; e < 3; e++) {
        const double *x = v[e], *y = v[(e + 1) % 3];
        double ex[3], px[3], ee = 0.0, t = 0.0, dd = 0.0;
        for (i = 0; i < 3; i++) {
            ex[i] = y[i] - x[i];
            px[i] = p[i] - x[i];
            ee += ex[i] * ex[i];
            t += px[i] * ex[i];
        }
        t = ee > 0.0 ? t / ee : 0.0;
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        for (i = 0; i < 3; i++)
            dd += (px[i] - t * ex[i]) * (px[i] - t * ex[i]);
        best = dd < best ? dd : best;
    }
    return best;
}

void lod_brute_error(const md2_model *src, const uint32_t *tris, size_t num_tris,
                     double *max_error, double *mean_error)
{
    size_t V = src->num_vertices, F = src->num_frames, f, v, t, i, used_count = 0;
    float *pf = (float *)malloc(V * 3 * sizeof(float));
    double *p = (double *)malloc(V * 3 * sizeof(double)), worst = 0.0, sum = 0.0;
    double *ball = (double *)malloc((num_tris ? num_tris : 1) * 4 * sizeof(double));
    unsigned char *used = (unsigned char *)calloc(V, 1);
    *max_error = *mean_error = -1.0;
    if (!pf || !p || !ball || !used)
        goto done;
    for (t = 0; t < src->num_triangles; t++) {
        const uint16_t *c = src->triangles[t].vertex;
        if (c[0] != c[1] && c[1] != c[2] && c[0] != c[2])
            used[c[0]] = used[c[1]] = used[c[2]] = 1;
    }
    for (v = 0; v < V; v++)
        used_count += used[v];
    for (f = 0; f < F; f++) {
        (void)md2_decode_frame(src, (uint32_t)f, pf, 0, NULL, 0);
        for (i = 0; i < 3 * V; i++)
            p[i] = pf[i];
        /* each triangle's ball (centroid, radius to its farthest corner):
         * a point is at least |p - centre| - radius from the triangle, so
         * a triangle whose ball is farther than the nearest distance found
         * so far cannot be nearer (kept with a margin: exact) */
        for (t = 0; t < num_tris; t++) {
            double *b = ball + 4 * t, r2 = 0.0;
            int k, a;
            for (a = 0; a < 3; a++)
                b[a] = (p[3 * tris[3 * t] + a] + p[3 * tris[3 * t + 1] + a] +
                        p[3 * tris[3 * t + 2] + a]) / 3.0;
            for (k = 0; k < 3; k++) {
                double d2 = 0.0;
                for (a = 0; a < 3; a++) {
                    double e = p[3 * tris[3 * t + (size_t)k] + a] - b[a];
                    d2 += e * e;
                }
                r2 = d2 > r2 ? d2 : r2;
            }
            b[3] = sqrt(r2);
        }
        for (v = 0; v < V; v++) {
            double best = HUGE_VAL;
            if (!used[v])
                continue;
            for (t = 0; t < num_tris; t++) {
                const double *b = ball + 4 * t, *q = p + 3 * v;
                double e0 = q[0] - b[0], e1 = q[1] - b[1], e2 = q[2] - b[2];
                double lower = sqrt(e0 * e0 + e1 * e1 + e2 * e2) - b[3], d;
                if (lower > 0.0 && lower * lower > best * (1.0 + 1e-9) + 1e-12)
                    continue;
                d = dist2(q, p + 3 * tris[3 * t], p + 3 * tris[3 * t + 1],
                          p + 3 * tris[3 * t + 2]);
                best = d < best ? d : best;
            }
            best = sqrt(best);
            worst = best > worst ? best : worst;
            sum += best;
        }
    }
    *max_error = worst;
    *mean_error = used_count ? sum / (double)(used_count * F) : 0.0;
done:
    free(pf);
    free(p);
    free(ball);
    free(used);
}

static void normal_d(const float *p, const uint32_t *c, double *n)
{
    double e1[3], e2[3];
    int i;
    for (i = 0; i < 3; i++) {
        e1[i] = (double)p[3 * c[1] + i] - p[3 * c[0] + i];
        e2[i] = (double)p[3 * c[2] + i] - p[3 * c[0] + i];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
}

size_t lod_flipped(const md2_model *src, const uint32_t *tris, const uint32_t *sources,
                   size_t num_tris)
{
    float *p = (float *)malloc((src->num_vertices + 1) * 3 * sizeof(float));
    unsigned char *bad = (unsigned char *)calloc(num_tris + 1, 1);
    size_t f, t, count = 0;
    if (!p || !bad) {
        free(p);
        free(bad);
        return (size_t)-1;
    }
    for (f = 0; f < src->num_frames; f++) {
        (void)md2_decode_frame(src, (uint32_t)f, p, 0, NULL, 0);
        for (t = 0; t < num_tris; t++) {
            const uint16_t *o = src->triangles[sources[t]].vertex;
            uint32_t s[3];
            double a[3], b[3];
            s[0] = o[0];
            s[1] = o[1];
            s[2] = o[2];
            normal_d(p, tris + 3 * t, a);
            normal_d(p, s, b);
            if (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] < 0.0)
                bad[t] = 1;
        }
    }
    for (t = 0; t < num_tris; t++)
        count += bad[t];
    free(p);
    free(bad);
    return count;
}

md2_model *lod_fan(size_t n)
{
    md2_model *m;
    md2_frame *fr;
    md2_vertex *v;
    md2_triangle *t;
    md2_texcoord *st;
    size_t i;
    if (n + 2 > 65536)
        return NULL;
    /* one block: the model, its frame, vertices, triangles and a texcoord */
    m = (md2_model *)calloc(1, sizeof *m + sizeof *fr + (n + 2) * sizeof *v + n * sizeof *t +
                                   sizeof *st + 16);
    if (!m)
        return NULL;
    fr = (md2_frame *)(m + 1);
    v = (md2_vertex *)(fr + 1);
    t = (md2_triangle *)(v + n + 2);
    st = (md2_texcoord *)(t + n);
    v[0].v[0] = v[0].v[1] = 128;
    v[0].v[2] = 200;
    for (i = 0; i <= n; i++) {
        double a = 6.0 * (double)i / (double)n;
        v[i + 1].v[0] = (uint8_t)(128.0 + 120.0 * cos(a));
        v[i + 1].v[1] = (uint8_t)(128.0 + 120.0 * sin(a));
        v[i + 1].v[2] = (uint8_t)(i % 2 ? 40 : 0);
    }
    for (i = 0; i < n; i++) {
        t[i].vertex[1] = (uint16_t)(i + 1);
        t[i].vertex[2] = (uint16_t)(i + 2);
    }
    fr->scale[0] = fr->scale[1] = fr->scale[2] = 1.0f;
    strcpy(fr->name, "fan");
    fr->vertices = v;
    m->skin_width = m->skin_height = 64;
    m->num_vertices = n + 2;
    m->num_texcoords = 1;
    m->texcoords = st;
    m->num_triangles = n;
    m->triangles = t;
    m->num_frames = 1;
    m->frames = fr;
    return m;
}

int lod_has_texcoord(const md2_model *src, uint32_t v, md2_texcoord st)
{
    size_t t;
    int k;
    for (t = 0; t < src->num_triangles; t++)
        for (k = 0; k < 3; k++) {
            const md2_texcoord *s = &src->texcoords[src->triangles[t].texcoord[k]];
            if (src->triangles[t].vertex[k] == v && s->s == st.s && s->t == st.t)
                return 1;
        }
    return 0;
}

md2_model *lod_corpus_model(const char *name)
{
    char path[1024];
    md2_model *m = NULL;
    md2_result r;
    snprintf(path, sizeof path, "%s/corpus/%s", MD2_SHARED_DIR, name);
    r = md2_load_file(path, NULL, &m);
    if (r != MD2_OK && r != MD2_ERR_IO) {
        fprintf(stderr, "%s: %s\n", path, md2_result_string(r));
        abort(); /* the corpus is there but does not load: a failure, not a skip */
    }
    return m;
}

void lod_some_frames(const md2_model *src, size_t step, size_t max, md2_frame *frames,
                     md2_model *out)
{
    size_t f;
    *out = *src;
    memset(&out->header, 0, sizeof out->header);
    memset(&out->allocator, 0, sizeof out->allocator);
    out->warnings = 0;
    out->glcmds = NULL;
    out->num_glcmds = 0;
    out->num_frames = 0;
    for (f = 0; f < src->num_frames && out->num_frames < max; f += step)
        frames[out->num_frames++] = src->frames[f];
    out->frames = frames;
}
