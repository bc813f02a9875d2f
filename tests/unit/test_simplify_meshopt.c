/*
 * md2_simplify() side by side with meshoptimizer's meshopt_simplify(), the
 * single-pose simplifier a user has today: run on frame 0 (the welded mesh
 * of md2_mesh_build(), whose seams meshoptimizer keeps by position), its
 * index buffer used for every frame. Both are measured by the same
 * brute-force measure (lod_util.c: every source vertex to the nearest
 * triangle, every frame), on the same triangle counts: meshoptimizer first,
 * then md2_simplify() asked for the count meshoptimizer reached.
 *
 * What it prints is the table of docs/simplify.md. On the generated
 * shapes (the cylinder straight in frame 0 and a quarter circle in the
 * last, the waving plane with its seam) it asserts the goal: the
 * largest and the mean error over the frames at most 0.7 times
 * meshoptimizer's, at 50 % and 25 %. On the corpus models it asserts the
 * goal where it holds (faerie's largest error at 50 %); the other cells
 * miss it and are measured and printed (docs/simplify.md has the numbers).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <md2/md2.h>
#include <md2/mesh.h>
#include <md2/simplify.h>

#include <meshoptimizer.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lod_util.h"

typedef struct pair {
    size_t meshopt_tris, ours_tris;
    double meshopt_max, meshopt_mean, ours_max, ours_mean;
} pair;

static pair compare(const md2_model *m, double ratio, const char *name)
{
    md2_mesh *mesh;
    float *p0, *wp;
    unsigned *out;
    uint32_t *tris;
    size_t i, n, target;
    md2_simplify_target tg;
    md2_lod lod;
    pair r;

    assert_int_equal(md2_mesh_build(m, NULL, &mesh), MD2_OK);
    p0 = (float *)malloc(m->num_vertices * 12);
    wp = (float *)malloc(mesh->num_vertices * 12);
    out = (unsigned *)malloc(mesh->num_indices * sizeof(unsigned));
    tris = (uint32_t *)malloc(mesh->num_indices * sizeof(uint32_t));
    assert_true(p0 && wp && out && tris);
    assert_int_equal(md2_decode_frame(m, 0, p0, 0, NULL, 0), MD2_OK);
    for (i = 0; i < mesh->num_vertices; i++)
        memcpy(wp + 3 * i, p0 + 3 * mesh->source_vertex[i], 12);
    target = 3 * (size_t)(ratio * (double)m->num_triangles);
    n = meshopt_simplify(out, mesh->indices, mesh->num_indices, wp, mesh->num_vertices, 12,
                         target, 1.0f, 0, NULL);
    for (i = 0; i < n; i++)
        tris[i] = mesh->source_vertex[out[i]];
    r.meshopt_tris = n / 3;
    lod_brute_error(m, tris, n / 3, &r.meshopt_max, &r.meshopt_mean);

    memset(&tg, 0, sizeof tg);
    tg.kind = MD2_SIMPLIFY_TRIANGLES;
    tg.value = (double)(n / 3);
    assert_int_equal(md2_simplify(m, &tg, 1, NULL, &lod), MD2_OK);
    r.ours_tris = lod.model->num_triangles;
    r.ours_max = lod.max_error;
    r.ours_mean = lod.mean_error;
    print_message("%-16s %3.0f%%: meshopt %4lu triangles, max %.4f mean %.5f | md2_simplify %4lu triangles, max %.4f mean %.5f | ratio max %.3f mean %.3f\n",
                  name, 100.0 * ratio, (unsigned long)r.meshopt_tris, r.meshopt_max,
                  r.meshopt_mean, (unsigned long)r.ours_tris, r.ours_max, r.ours_mean,
                  r.meshopt_max > 0 ? r.ours_max / r.meshopt_max : 0.0,
                  r.meshopt_mean > 0 ? r.ours_mean / r.meshopt_mean : 0.0);
    /* the library's own measure is the brute force's */
    {
        double mx, mean;
        for (i = 0; i < lod.model->num_triangles; i++) {
            int k;
            for (k = 0; k < 3; k++)
                tris[3 * i + (size_t)k] = lod.source_vertex[lod.model->triangles[i].vertex[k]];
        }
        lod_brute_error(m, tris, lod.model->num_triangles, &mx, &mean);
        assert_true(mx <= r.ours_max * (1 + 1e-5) + 1e-6 && mx >= r.ours_max * (1 - 1e-5) - 1e-6);
    }
    md2_lod_free(&lod);
    md2_mesh_free(mesh);
    free(p0);
    free(wp);
    free(out);
    free(tris);
    return r;
}

/* The goal on a generated shape: at most 0.7 times meshoptimizer's
 * largest and mean error, at 50 % and 25 % of the triangles. */
static void goal_met(md2_model *m, const char *name)
{
    double ratios[2] = {0.5, 0.25};
    int i;
    assert_non_null(m);
    for (i = 0; i < 2; i++) {
        pair p = compare(m, ratios[i], name);
        assert_true(p.ours_tris <= p.meshopt_tris);
        assert_true(p.ours_max <= 0.7 * p.meshopt_max);
        assert_true(p.ours_mean <= 0.7 * p.meshopt_mean);
    }
    md2_free(m);
}

static void test_cylinder(void **state)
{
    (void)state;
    goal_met(lod_cylinder(12, 16, 24), "bending cylinder");
}

static void test_plane(void **state)
{
    (void)state;
    goal_met(lod_plane(16, 20), "waving plane");
}

static void test_corpus(void **state)
{
    const char *names[2] = {"faerie.md2", "sydney.md2"};
    size_t i, found = 0;
    (void)state;
    for (i = 0; i < 2; i++) {
        md2_model *m = lod_corpus_model(names[i]);
        pair a, b;
        if (!m)
            continue;
        a = compare(m, 0.5, names[i]);
        b = compare(m, 0.25, names[i]);
        assert_true(a.ours_tris <= a.meshopt_tris);
        if (i == 0) /* faerie at 50 %: the one corpus cell where the goal holds */
            assert_true(a.ours_max <= 0.7 * a.meshopt_max);
        /* where collapses run out (docs/simplify.md, Limits): within a tenth */
        assert_true(b.ours_tris <= b.meshopt_tris + b.meshopt_tris / 10);
        md2_free(m);
        found++;
    }
    if (found == 0)
        skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cylinder),
        cmocka_unit_test(test_plane),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
