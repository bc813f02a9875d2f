/*
 * Tests of the animation module: decoding and interpolation checked
 * against values computed by hand, strides, normals, bounds and errors.
 *
 * SPDX-License-Identifier: MIT
 */
#if defined(__unix__) || defined(__APPLE__) || defined(__MINGW32__) /* mingw-w64: winpthreads */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#define HAVE_PTHREADS 1
#endif
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "test_util.h"

static md2_model *load_tiny(void)
{
    static uint8_t file[TU_MAX_FILE];
    size_t size = tu_tiny(file);
    md2_model *m = NULL;
    assert_int_equal(md2_parse(file, size, NULL, &m), MD2_OK);
    return m;
}

static int near(float a, float b, float tol) { return fabsf(a - b) <= tol; }

static void test_decode_by_hand(void **state)
{
    md2_model *m = load_tiny();
    float pos[4][3], nrm[4][3];
    (void)state;
    /* frame 1, vertex 2: scale (2, 2, 0.5), v = (21, 253, 4),
     * translate (-1, 0, 10): (41, 506, 12) */
    assert_int_equal(md2_decode_frame(m, 1, &pos[0][0], 0, &nrm[0][0], 0), MD2_OK);
    assert_true(pos[2][0] == 41.0f);
    assert_true(pos[2][1] == 506.0f);
    assert_true(pos[2][2] == 12.0f);
    /* frame 1, vertex 0: v = (1, 255, 0): (1, 510, 10) */
    assert_true(pos[0][0] == 1.0f && pos[0][1] == 510.0f && pos[0][2] == 10.0f);
    /* normal index of frame 1, vertex 2 is 81: the table's entry */
    assert_memory_equal(nrm[2], md2_normal(81), sizeof nrm[2]);
    md2_free(m);
}

static void test_lerp_midpoint_by_hand(void **state)
{
    md2_model *m = load_tiny();
    float pos[4][3];
    (void)state;
    /* vertex 3: frame 0 = (1*30 - 1, 2*252, 0.5*9 + 0) = (29, 504, 4.5)
     *           frame 2 = (3*32 - 1, 2*252, 0.5*9 + 20) = (95, 504, 24.5)
     * t = 0.25: (45.5, 504, 9.5) */
    assert_int_equal(md2_lerp(m, 0, 2, 0.25f, &pos[0][0], 0, NULL, 0), MD2_OK);
    assert_true(near(pos[3][0], 45.5f, 1e-5f));
    assert_true(near(pos[3][1], 504.0f, 1e-5f));
    assert_true(near(pos[3][2], 9.5f, 1e-5f));
    md2_free(m);
}

static void test_lerp_matches_formula_everywhere(void **state)
{
    md2_model *m = load_tiny();
    float pos[4][3], nrm[4][3];
    uint32_t a, b;
    int ti, i, k;
    (void)state;
    for (a = 0; a < 3; a++)
        for (b = 0; b < 3; b++)
            for (ti = 0; ti <= 8; ti++) {
                float t = (float)ti / 8.0f;
                assert_int_equal(md2_lerp(m, a, b, t, &pos[0][0], 0, &nrm[0][0], 0), MD2_OK);
                for (i = 0; i < 4; i++) {
                    const md2_vertex *va = &m->frames[a].vertices[i];
                    const md2_vertex *vb = &m->frames[b].vertices[i];
                    for (k = 0; k < 3; k++) {
                        float pa = m->frames[a].scale[k] * va->v[k] + m->frames[a].translate[k];
                        float pb = m->frames[b].scale[k] * vb->v[k] + m->frames[b].translate[k];
                        float want = pa + t * (pb - pa);
                        float nwant = md2_normal(va->normal)[k] +
                                      t * (md2_normal(vb->normal)[k] - md2_normal(va->normal)[k]);
                        assert_true(near(pos[i][k], want, 1e-4f));
                        assert_true(near(nrm[i][k], nwant, 1e-6f));
                    }
                }
            }
    md2_free(m);
}

static void test_endpoints_are_exact(void **state)
{
    md2_model *m = load_tiny();
    float lerped[4][3], frame[4][3];
    (void)state;
    assert_int_equal(md2_lerp(m, 0, 2, 0.0f, &lerped[0][0], 0, NULL, 0), MD2_OK);
    assert_int_equal(md2_decode_frame(m, 0, &frame[0][0], 0, NULL, 0), MD2_OK);
    assert_memory_equal(lerped, frame, sizeof frame);
    assert_int_equal(md2_lerp(m, 0, 2, 1.0f, &lerped[0][0], 0, NULL, 0), MD2_OK);
    assert_int_equal(md2_decode_frame(m, 2, &frame[0][0], 0, NULL, 0), MD2_OK);
    assert_memory_equal(lerped, frame, sizeof frame);
    md2_free(m);
}

static void test_interleaved_strides(void **state)
{
    md2_model *m = load_tiny();
    /* position, normal, uv: 8 floats a vertex; one guard vertex after */
    float buf[5][8], packed[4][3], normals[4][3];
    int i, k;
    (void)state;
    for (i = 0; i < 5; i++)
        for (k = 0; k < 8; k++)
            buf[i][k] = -777.0f;
    assert_int_equal(md2_lerp(m, 1, 2, 0.5f, &buf[0][0], sizeof buf[0], &buf[0][3],
                              sizeof buf[0]), MD2_OK);
    assert_int_equal(md2_lerp(m, 1, 2, 0.5f, &packed[0][0], 0, &normals[0][0], 0), MD2_OK);
    for (i = 0; i < 4; i++) {
        assert_memory_equal(&buf[i][0], packed[i], sizeof packed[i]);
        assert_memory_equal(&buf[i][3], normals[i], sizeof normals[i]);
        assert_true(buf[i][6] == -777.0f && buf[i][7] == -777.0f); /* untouched */
    }
    for (i = 0; i < 8; i++)
        assert_true(buf[4][i] == -777.0f);
    /* an explicit stride of 12 is the packed layout */
    assert_int_equal(md2_lerp(m, 1, 2, 0.5f, &buf[0][0], 12, NULL, 0), MD2_OK);
    assert_memory_equal(&buf[0][0], packed, sizeof packed);
    md2_free(m);
}

static void test_unit_normals(void **state)
{
    md2_model *m = load_tiny();
    float pos[4][3], nrm[4][3];
    int i;
    (void)state;
    assert_int_equal(md2_lerp(m, 0, 2, 0.5f, &pos[0][0], 0, &nrm[0][0], 0), MD2_OK);
    assert_int_equal(md2_normalize(&nrm[0][0], 4, 0), MD2_OK);
    for (i = 0; i < 4; i++) {
        float len = sqrtf(nrm[i][0] * nrm[i][0] + nrm[i][1] * nrm[i][1] + nrm[i][2] * nrm[i][2]);
        assert_true(near(len, 1.0f, 1e-5f));
    }
    md2_free(m);
}

/* md2_normalize(): unit length in place, at any stride, bytes between the
 * normals untouched; a zero normal becomes the fallback (0, 0, 1). */
static void test_normalize(void **state)
{
    float buf[4][4] = {{3.0f, 0.0f, 4.0f, 99.0f},
                       {0.0f, 0.0f, 0.0f, 99.0f},
                       {0.0f, -2.0f, 0.0f, 99.0f},
                       {1e-7f, 0.0f, 0.0f, 99.0f}};
    float packed[2][3] = {{0.0f, 0.5f, 0.0f}, {1.0f, 1.0f, 1.0f}};
    int i;
    (void)state;
    assert_int_equal(md2_normalize(&buf[0][0], 4, sizeof buf[0]), MD2_OK);
    assert_true(near(buf[0][0], 0.6f, 1e-7f) && near(buf[0][2], 0.8f, 1e-7f));
    assert_true(buf[1][0] == 0.0f && buf[1][1] == 0.0f && buf[1][2] == 1.0f);
    assert_true(buf[2][0] == 0.0f && buf[2][1] == -1.0f && buf[2][2] == 0.0f);
    /* (nearly) zero: below 1e-6 the direction is noise, so the fallback */
    assert_true(buf[3][0] == 0.0f && buf[3][2] == 1.0f);
    for (i = 0; i < 4; i++)
        assert_true(buf[i][3] == 99.0f);
    assert_int_equal(md2_normalize(&packed[0][0], 2, 0), MD2_OK);
    assert_true(packed[0][1] == 1.0f);
    assert_true(near(packed[1][0], 0.57735026f, 1e-7f));
    /* a normal blended from two opposite table normals at t = 0.5 */
    {
        md2_model *m = load_tiny();
        float pos[4][3], nrm[4][3];
        assert_int_equal(md2_lerp(m, 0, 2, 0.5f, &pos[0][0], 0, &nrm[0][0], 0), MD2_OK);
        assert_int_equal(md2_normalize(&nrm[0][0], m->num_vertices, 0), MD2_OK);
        for (i = 0; i < 4; i++) {
            float len = sqrtf(nrm[i][0] * nrm[i][0] + nrm[i][1] * nrm[i][1] +
                              nrm[i][2] * nrm[i][2]);
            assert_true(near(len, 1.0f, 1e-6f));
        }
        md2_free(m);
    }
    /* errors */
    assert_int_equal(md2_normalize(NULL, 0, 0), MD2_OK);
    assert_int_equal(md2_normalize(NULL, 1, 0), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_normalize(&buf[0][0], 1, 8), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_normalize(&buf[0][0], 1, 13), MD2_ERR_INVALID_ARGUMENT);
}

static void test_normal_table(void **state)
{
    float table[162][3];
    unsigned i;
    (void)state;
    for (i = 0; i < MD2_NUM_NORMALS; i++) {
        const float *n = md2_normal(i);
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        assert_true(near(len, 1.0f, 2e-6f));
    }
    assert_true(md2_normal(MD2_NORMAL_FALLBACK)[2] == 1.0f);
    assert_ptr_equal(md2_normal(162), md2_normal(MD2_NORMAL_FALLBACK));
    assert_ptr_equal(md2_normal(~0u), md2_normal(MD2_NORMAL_FALLBACK));
    if (!tu_load_normal_table(table)) {
        skip();
        return;
    }
    for (i = 0; i < MD2_NUM_NORMALS; i++)
        assert_memory_equal(md2_normal(i), table[i], sizeof table[i]);
}

static void test_bounds(void **state)
{
    md2_model *m = load_tiny();
    float mn[3], mx[3];
    (void)state;
    /* frame 2: x = 3 * (2, 12, 22, 32) - 1, y = 2 * (255..252), z = 0.5 * (0,1,4,9) + 20 */
    assert_int_equal(md2_frame_bounds(m, 2, mn, mx), MD2_OK);
    assert_true(mn[0] == 5.0f && mx[0] == 95.0f);
    assert_true(mn[1] == 504.0f && mx[1] == 510.0f);
    assert_true(mn[2] == 20.0f && mx[2] == 24.5f);
    assert_int_equal(md2_frame_bounds(m, 3, mn, mx), MD2_ERR_FRAME_RANGE);
    assert_int_equal(md2_frame_bounds(m, 0, NULL, mx), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_frame_bounds(NULL, 0, mn, mx), MD2_ERR_INVALID_ARGUMENT);
    md2_free(m);
}

static void test_err_frame_range(void **state)
{
    md2_model *m = load_tiny();
    float pos[4][3];
    (void)state;
    pos[0][0] = 123.0f;
    assert_int_equal(md2_lerp(m, 3, 0, 0.5f, &pos[0][0], 0, NULL, 0), MD2_ERR_FRAME_RANGE);
    assert_int_equal(md2_lerp(m, 0, 3, 0.5f, &pos[0][0], 0, NULL, 0), MD2_ERR_FRAME_RANGE);
    assert_int_equal(md2_lerp(m, 0, UINT32_MAX, 0.5f, &pos[0][0], 0, NULL, 0), MD2_ERR_FRAME_RANGE);
    assert_int_equal(md2_decode_frame(m, 3, &pos[0][0], 0, NULL, 0), MD2_ERR_FRAME_RANGE);
    assert_true(pos[0][0] == 123.0f); /* nothing written */
    md2_free(m);
}

static void test_err_invalid_arguments(void **state)
{
    md2_model *m = load_tiny();
    float pos[4][4], nrm[4][3];
    (void)state;
    pos[0][0] = 123.0f;
    assert_int_equal(md2_lerp(NULL, 0, 1, 0.5f, &pos[0][0], 0, NULL, 0), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_lerp(m, 0, 1, 0.5f, NULL, 0, NULL, 0), MD2_ERR_INVALID_ARGUMENT);
    /* strides too small for 3 floats, or not a multiple of a float */
    assert_int_equal(md2_lerp(m, 0, 1, 0.5f, &pos[0][0], 8, NULL, 0), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_lerp(m, 0, 1, 0.5f, &pos[0][0], 13, NULL, 0), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_lerp(m, 0, 1, 0.5f, &pos[0][0], 16, &nrm[0][0], 4), MD2_ERR_INVALID_ARGUMENT);
    /* t outside [0, 1] or NaN */
    assert_int_equal(md2_lerp(m, 0, 1, -0.01f, &pos[0][0], 0, NULL, 0), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_lerp(m, 0, 1, 1.01f, &pos[0][0], 0, NULL, 0), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_lerp(m, 0, 1, (float)NAN, &pos[0][0], 0, NULL, 0), MD2_ERR_INVALID_ARGUMENT);
    assert_true(pos[0][0] == 123.0f);
    /* a stride of 16 (one spare float) is fine */
    assert_int_equal(md2_lerp(m, 0, 1, 0.5f, &pos[0][0], 16, NULL, 0), MD2_OK);
    md2_free(m);
}

static void test_hand_made_model(void **state)
{
    /* the animation functions work on a model filled in by hand */
    md2_vertex v0[2] = {{{0, 0, 0}, 5}, {{255, 255, 255}, 5}};
    md2_vertex v1[2] = {{{255, 0, 0}, 5}, {{0, 255, 255}, 5}};
    md2_frame frames[2];
    md2_model m;
    float pos[2][3];
    (void)state;
    memset(&m, 0, sizeof m);
    memset(frames, 0, sizeof frames);
    frames[0].scale[0] = frames[0].scale[1] = frames[0].scale[2] = 1.0f / 255.0f;
    frames[1] = frames[0];
    frames[0].vertices = v0;
    frames[1].vertices = v1;
    m.num_vertices = 2;
    m.num_frames = 2;
    m.frames = frames;
    assert_int_equal(md2_lerp(&m, 0, 1, 0.5f, &pos[0][0], 0, NULL, 0), MD2_OK);
    assert_true(near(pos[0][0], 0.5f, 1e-6f));
    assert_true(near(pos[1][0], 0.5f, 1e-6f));
    assert_true(near(pos[1][1], 1.0f, 1e-6f));
    frames[1].vertices = NULL;
    assert_int_equal(md2_lerp(&m, 0, 1, 0.5f, &pos[0][0], 0, NULL, 0), MD2_ERR_INVALID_ARGUMENT);
}

#ifdef HAVE_PTHREADS
/* Several threads interpolate one shared model at once; each must get
 * exactly what a single thread gets. */
typedef struct job {
    const md2_model *m;
    uint32_t first;
    float out[64][3];
    int ok;
} job;

static void *lerp_worker(void *arg)
{
    job *j = (job *)arg;
    int round, i;
    j->ok = 1;
    for (round = 0; round < 2000; round++) {
        uint32_t a = (j->first + (uint32_t)round) % (uint32_t)j->m->num_frames;
        uint32_t b = (a + 1) % (uint32_t)j->m->num_frames;
        float t = (float)(round % 11) / 10.0f;
        float want[64][3];
        if (md2_lerp(j->m, a, b, t, &j->out[0][0], 0, NULL, 0) != MD2_OK)
            j->ok = 0;
        /* the same call again must give the same bits */
        if (md2_lerp(j->m, a, b, t, &want[0][0], 0, NULL, 0) != MD2_OK)
            j->ok = 0;
        for (i = 0; i < (int)j->m->num_vertices; i++)
            if (memcmp(j->out[i], want[i], sizeof want[i]) != 0)
                j->ok = 0;
    }
    return NULL;
}
#endif

static void test_many_threads_share_one_model(void **state)
{
#ifdef HAVE_PTHREADS
    md2_model *m = load_tiny();
    pthread_t th[4];
    job jobs[4];
    float single[64][3];
    int k, i;
    (void)state;
    for (k = 0; k < 4; k++) {
        jobs[k].m = m;
        jobs[k].first = (uint32_t)k;
        assert_int_equal(pthread_create(&th[k], NULL, lerp_worker, &jobs[k]), 0);
    }
    for (k = 0; k < 4; k++) {
        assert_int_equal(pthread_join(th[k], NULL), 0);
        assert_true(jobs[k].ok);
    }
    /* and the last pose of each equals a single-threaded computation */
    for (k = 0; k < 4; k++) {
        uint32_t a = (jobs[k].first + 1999u) % 3u;
        assert_int_equal(md2_lerp(m, a, (a + 1) % 3u, (float)(1999 % 11) / 10.0f,
                                  &single[0][0], 0, NULL, 0), MD2_OK);
        for (i = 0; i < 4; i++)
            assert_memory_equal(jobs[k].out[i], single[i], sizeof single[i]);
    }
    md2_free(m);
#else
    (void)state;
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_by_hand),
        cmocka_unit_test(test_lerp_midpoint_by_hand),
        cmocka_unit_test(test_lerp_matches_formula_everywhere),
        cmocka_unit_test(test_endpoints_are_exact),
        cmocka_unit_test(test_interleaved_strides),
        cmocka_unit_test(test_unit_normals),
        cmocka_unit_test(test_normalize),
        cmocka_unit_test(test_normal_table),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_err_frame_range),
        cmocka_unit_test(test_err_invalid_arguments),
        cmocka_unit_test(test_hand_made_model),
        cmocka_unit_test(test_many_threads_share_one_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
