/*
 * md2_normal_nearest() against a brute force written here from its
 * contract in <md2/build.h>: scale the direction by the power of two that
 * puts its largest magnitude in [1, 2) (frexp and ldexp in double, one
 * rounding to float), take the 162 dot products with md2_normal(i), each
 * product and sum rounded to float (round.h), and keep the first largest.
 * Nothing here uses the cells of src/normal_nearest.c except to aim
 * directions at their edges.
 *
 *  - the table's entries map to themselves, scaled by every power of two
 *    and by other factors, with -0 for their zeros;
 *  - zero, NaN and infinite directions give MD2_NORMAL_FALLBACK; the
 *    smallest and largest finite ones do not;
 *  - exact ties (mirror pairs in a coordinate plane, and the ties float
 *    rounding makes on the boundary between two neighbours) go to the
 *    lower index;
 *  - directions on and beside every cell edge, face edge and axis;
 *  - scaling by a power of two that keeps the components normal floats
 *    does not change the answer;
 *  - random directions (MD2_NEAREST_DIRECTIONS, 3 x 10^7 natively, 10^7
 *    with sanitizers and in 32-bit x86 builds, 10^6 under valgrind, 10^5
 *    under qemu, where the other parts alone take 47 s on s390x;
 *    the environment variable of that name overrides them): uniform in a
 *    cube, with random exponents over the whole float range, and near the
 *    boundaries between neighbours.
 *
 * Under qemu (MD2_NEAREST_STRIDE=8) the ties, cell edges and scalings take
 * every 8th of their directions: the same code paths, an eighth of the
 * brute force, which qemu-i386 runs in software floating point on x87.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "md2/build.h"
#include "round.h"

#ifndef MD2_NEAREST_DIRECTIONS
#define MD2_NEAREST_DIRECTIONS 30000000
#endif
#ifndef MD2_NEAREST_STRIDE
#define MD2_NEAREST_STRIDE 1
#endif

/* The cell grid of src/normal_nearest.c: GRID x GRID on each cube face. */
#define GRID 8

/* ------------------------------------------------------------------------ */
/* The reference                                                             */
/* ------------------------------------------------------------------------ */

/* The direction scaled as the contract says, into s[3]; 0 for a zero,
 * NaN or infinite direction. */
static int ref_scale(float x, float y, float z, float s[3])
{
    double d[3], top = 0.0;
    int k, e;
    d[0] = x;
    d[1] = y;
    d[2] = z;
    for (k = 0; k < 3; k++) {
        if (!isfinite(d[k]))
            return 0;
        if (fabs(d[k]) > top)
            top = fabs(d[k]);
    }
    if (top == 0.0)
        return 0;
    (void)frexp(top, &e); /* top = m 2^e, m in [0.5, 1): scale by 2^(1 - e) */
    for (k = 0; k < 3; k++)
        s[k] = md2__to_float((float)ldexp(d[k], 1 - e));
    return 1;
}

/* md2_normal()'s entries by component (main() fills them), for a brute
 * force the compiler can vectorise, padded with zeros to 168 entries (a
 * multiple of 8). */
#define PADDED (MD2_NUM_NORMALS + 6)
static float table_x[PADDED], table_y[PADDED], table_z[PADDED];

static void load_table(void)
{
    unsigned i;
    for (i = 0; i < MD2_NUM_NORMALS; i++) {
        table_x[i] = md2_normal(i)[0];
        table_y[i] = md2_normal(i)[1];
        table_z[i] = md2_normal(i)[2];
    }
}

/* dot product with entry i, each product and sum rounded to float */
static float ref_dot(const float s[3], unsigned i)
{
    return md2__add(md2__add(md2__mul(s[0], table_x[i]), md2__mul(s[1], table_y[i])),
                    md2__mul(s[2], table_z[i]));
}

/* The brute force; *ties (if not NULL) gets how many indices share the
 * largest dot product. */
static unsigned reference(float x, float y, float z, unsigned *ties)
{
    float s[3], dots[PADDED];
    unsigned best = MD2_NORMAL_FALLBACK, same = 1;
    if (ref_scale(x, y, z, s)) {
        float best_dot;
        unsigned i;
        for (i = 0; i < PADDED; i++)
            dots[i] = ref_dot(s, i);
        best = 0;
        best_dot = dots[0];
        for (i = 1; i < MD2_NUM_NORMALS; i++) {
            if (dots[i] > best_dot) {
                best_dot = dots[i];
                best = i;
                same = 1;
            } else if (dots[i] == best_dot) {
                same++;
            }
        }
    }
    if (ties)
        *ties = same;
    return best;
}

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static float float_of(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* Fails with the direction's bits unless md2_normal_nearest() gives the
 * reference's answer; returns the answer. */
static unsigned check(float x, float y, float z)
{
    unsigned want = reference(x, y, z, NULL), got = md2_normal_nearest(x, y, z);
    if (got != want)
        fail_msg("md2_normal_nearest(%.9g, %.9g, %.9g) [%08lx %08lx %08lx] = %u, brute force %u",
                 (double)x, (double)y, (double)z, (unsigned long)bits_of(x),
                 (unsigned long)bits_of(y), (unsigned long)bits_of(z), got, want);
    return got;
}

/* The float k ulps from f (k may be negative), by its bits; f finite. */
static float ulps(float f, int k)
{
    while (k > 0) {
        f = nextafterf(f, INFINITY);
        k--;
    }
    while (k < 0) {
        f = nextafterf(f, -INFINITY);
        k++;
    }
    return f;
}

/* ------------------------------------------------------------------------ */
/* A random generator (splitmix64)                                           */
/* ------------------------------------------------------------------------ */

static uint64_t next64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* uniform in [-1, 1), multiples of 2^-23 */
static float uniform(uint64_t *state)
{
    return (float)(int32_t)(next64(state) >> 40) * (1.0f / 8388608.0f) - 1.0f;
}

/* any finite float: random sign, exponent (subnormals included) and
 * mantissa, or zero one time in 16 */
static float any_float(uint64_t *state)
{
    uint64_t r = next64(state);
    uint32_t exponent = (uint32_t)(r >> 32) % 255u; /* 0 (subnormal) to 254 */
    uint32_t b = (uint32_t)(r & 0x807FFFFFu) | exponent << 23;
    if (((r >> 48) & 15u) == 0)
        b &= 0x80000000u;
    return float_of(b);
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */
/* ------------------------------------------------------------------------ */

/* Each table entry maps to itself, as it is, scaled and with -0. */
static void test_table_entries(void **state)
{
    static const float factors[] = {0.3f, 0.999f, 1.7f, 3.0f, 1e-20f, 7e-30f, 1e20f, 3e38f};
    uint64_t rng = 7;
    unsigned i, f, zeros;
    int k, e;
    (void)state;
    for (i = 0; i < MD2_NUM_NORMALS; i++) {
        const float *n = md2_normal(i);
        int exact_scales = 0;
        assert_int_equal(reference(n[0], n[1], n[2], NULL), i);
        assert_int_equal(md2_normal_nearest(n[0], n[1], n[2]), i);
        /* every power of two: itself while the scaling is exact, else the
         * brute force's answer for the rounded direction */
        for (e = -160; e <= 130; e++) {
            float s[3];
            int exact = 1;
            for (k = 0; k < 3; k++) {
                s[k] = (float)ldexp((double)n[k], e);
                exact &= isfinite(s[k]) && ldexp((double)s[k], -e) == (double)n[k];
            }
            if (exact) {
                assert_int_equal(md2_normal_nearest(s[0], s[1], s[2]), i);
                exact_scales++;
            } else if (isfinite(s[0]) && isfinite(s[1]) && isfinite(s[2])) {
                check(s[0], s[1], s[2]);
            } else {
                assert_int_equal(md2_normal_nearest(s[0], s[1], s[2]), MD2_NORMAL_FALLBACK);
            }
        }
        for (f = 0; f < sizeof factors / sizeof factors[0]; f++)
            assert_int_equal(check(n[0] * factors[f], n[1] * factors[f], n[2] * factors[f]), i);
        /* random positive factors 2^-120 to 2^127 that keep the non-zero
         * components normal floats */
        for (f = 0; f < 300; f++) {
            float factor = (float)ldexp(1.0 + (double)(next64(&rng) >> 11) * 0x1p-53,
                                        (int)(next64(&rng) % 248u) - 121);
            float s[3];
            int normal = 1;
            for (k = 0; k < 3; k++) {
                s[k] = md2__mul(n[k], factor);
                normal &= n[k] == 0.0f || (isfinite(s[k]) && fabsf(s[k]) >= FLT_MIN);
            }
            if (normal)
                assert_int_equal(check(s[0], s[1], s[2]), i);
            else
                check(s[0], s[1], s[2]);
        }
        /* -0 for each subset of its zero components */
        for (zeros = 1; zeros < 8; zeros++) {
            float s[3];
            int changed = 0;
            for (k = 0; k < 3; k++) {
                s[k] = n[k];
                if ((zeros >> k & 1u) && n[k] == 0.0f) {
                    s[k] = -0.0f;
                    changed = 1;
                }
            }
            if (changed)
                assert_int_equal(md2_normal_nearest(s[0], s[1], s[2]), i);
        }
        /* 2^-123 to 2^127 at least: components of 0.14 and more, up to 1 */
        assert_true(exact_scales >= 251);
    }
}

static void test_degenerate(void **state)
{
    const float nan = NAN, inf = INFINITY;
    const float tiny = float_of(1u); /* the smallest subnormal */
    const float values[] = {0.0f, -0.0f, 1.0f, -2.5f, FLT_MAX, -FLT_MIN, tiny, inf, -inf, nan};
    const size_t nv = sizeof values / sizeof values[0];
    size_t a, b, c;
    unsigned i, x_axis = MD2_NUM_NORMALS;
    (void)state;
    for (i = 0; i < MD2_NUM_NORMALS; i++)
        if (md2_normal(i)[0] == 1.0f)
            x_axis = i;
    assert_true(x_axis < MD2_NUM_NORMALS);
    for (a = 0; a < nv; a++)
        for (b = 0; b < nv; b++)
            for (c = 0; c < nv; c++) {
                float x = values[a], y = values[b], z = values[c];
                unsigned got = md2_normal_nearest(x, y, z);
                int bad = !isfinite(x) || !isfinite(y) || !isfinite(z) ||
                          (x == 0.0f && y == 0.0f && z == 0.0f);
                if (bad)
                    assert_int_equal(got, MD2_NORMAL_FALLBACK);
                else
                    check(x, y, z);
            }
    /* a NaN with any payload and sign */
    assert_int_equal(md2_normal_nearest(float_of(0xFFC00001u), 0.0f, 1.0f), MD2_NORMAL_FALLBACK);
    assert_int_equal(md2_normal_nearest(1.0f, float_of(0x7F800001u), 1.0f), MD2_NORMAL_FALLBACK);
    /* the smallest and the largest directions are directions */
    assert_int_equal(md2_normal_nearest(tiny, 0.0f, 0.0f), x_axis);
    assert_int_equal(md2_normal_nearest(FLT_MAX, 0.0f, -0.0f), x_axis);
    assert_int_equal(md2_normal_nearest(FLT_MAX, tiny, tiny), x_axis);
    check(FLT_MAX, FLT_MAX, FLT_MAX);
    check(-FLT_MAX, FLT_MAX, -FLT_MAX);
    check(tiny, -tiny, tiny);
    check(FLT_MIN, tiny, -FLT_MIN);
}

/* Records a tie checked: the answer must be the lowest of the tied
 * indices, which is the reference's. */
static int tie_checked(float x, float y, float z)
{
    unsigned ties;
    unsigned want = reference(x, y, z, &ties);
    if (ties < 2)
        return 0;
    assert_int_equal(check(x, y, z), want);
    return 1;
}

/* Ties: a mirror pair seen from its mirror plane (their dot products are
 * the same float), and the float ties on the boundary of two neighbours.
 * Each is a direction where a higher index has the answer's dot product. */
static void test_ties(void **state)
{
    unsigned i, j, mirror_ties = 0, rounding_ties = 0, pairs = 0;
    int k, p;
    (void)state;
    for (i = 0; i < MD2_NUM_NORMALS; i++) {
        const float *n = md2_normal(i);
        for (k = 0; k < 3; k++) {
            float d[3];
            if (n[k] == 0.0f)
                continue;
            d[0] = n[0];
            d[1] = n[1];
            d[2] = n[2];
            d[k] = 0.0f;
            mirror_ties += (unsigned)tie_checked(d[0], d[1], d[2]);
            d[k] = -0.0f;
            mirror_ties += (unsigned)tie_checked(d[0], d[1], d[2]);
        }
    }
    /* boundaries of neighbours: bisect the segment from n_i to n_j to
     * where the float dot products cross, then look at the floats around */
    for (i = 0; i < MD2_NUM_NORMALS; i++)
        for (j = i + 1; j < MD2_NUM_NORMALS; j++) {
            const float *a = md2_normal(i), *b = md2_normal(j);
            float lo = 0.0f, hi = 1.0f, d[3];
            if ((double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] < 0.8)
                continue; /* not neighbours */
            /* cppcheck-suppress moduloofone ; MD2_NEAREST_STRIDE is 1 natively, 8 under qemu */
            if (pairs++ % MD2_NEAREST_STRIDE != 0)
                continue;
            for (p = 0; p < 40; p++) {
                float t = 0.5f * (lo + hi), s[3];
                for (k = 0; k < 3; k++)
                    d[k] = (1.0f - t) * a[k] + t * b[k];
                if (!ref_scale(d[0], d[1], d[2], s))
                    break;
                if (ref_dot(s, i) >= ref_dot(s, j))
                    lo = t;
                else
                    hi = t;
            }
            for (k = 0; k < 3; k++)
                d[k] = (1.0f - lo) * a[k] + lo * b[k];
            for (p = 0; p < 9 * 9 * 3; p++) {
                float x = ulps(d[0], p % 9 - 4), y = ulps(d[1], p / 9 % 9 - 4);
                float z = ulps(d[2], p / 81 - 1);
                if (!tie_checked(x, y, z))
                    check(x, y, z);
                else
                    rounding_ties++;
            }
        }
    print_message("ties: %u of mirror pairs in their plane, %u of rounding between "
                  "neighbours\n",
                  mirror_ties, rounding_ties);
    assert_true(mirror_ties >= 100);
    assert_true(rounding_ties >= 100 / MD2_NEAREST_STRIDE);
}

/* On and beside the edges of every cell, face and octant: u or v = k / 8
 * (and 1 ulp or 2 either side), |d| equal on two or three axes, zeros. */
static void test_cell_edges(void **state)
{
    static const float majors[] = {1.0f, 1.5f, 1.99999988f, 0.75f, 3e-39f, 6e37f};
    unsigned s, f, line, along, m, checked = 0, seen = 0;
    int du, dv;
    (void)state;
    for (s = 0; s < 8; s++)
        for (f = 0; f < 3; f++)
            for (m = 0; m < sizeof majors / sizeof majors[0]; m++)
                for (line = 0; line <= GRID; line++)
                    for (along = 0; along <= 4 * GRID; along++)
                        for (du = -2; du <= 2; du++)
                            for (dv = 0; dv < 2; dv++) {
                                float major = majors[m], p[3], d[3];
                                float on = major * (float)line / (float)GRID;
                                float other = major * (float)along / (float)(4 * GRID);
                                int k;
                                on = ulps(on, du);
                                /* cppcheck-suppress moduloofone ; MD2_NEAREST_STRIDE is 1 natively, 8 under qemu */
                                if (on < 0.0f || on > major || seen++ % MD2_NEAREST_STRIDE != 0)
                                    continue;
                                /* the edge u = line / 8, or v = line / 8 */
                                p[f] = major;
                                p[(f + 1) % 3] = dv ? other : on;
                                p[(f + 2) % 3] = dv ? on : other;
                                for (k = 0; k < 3; k++)
                                    d[k] = (s >> k & 1u) ? -p[k] : p[k];
                                check(d[0], d[1], d[2]);
                                checked++;
                            }
    /* the axes, with every sign of zero; the diagonals */
    for (s = 0; s < 8; s++)
        for (f = 0; f < 3; f++) {
            float d[3];
            int k;
            for (k = 0; k < 3; k++)
                d[k] = (s >> k & 1u) ? -0.0f : 0.0f;
            d[f] = (s >> f & 1u) ? -1.0f : 1.0f;
            assert_true(md2_normal(check(d[0], d[1], d[2]))[f] == d[f]);
            d[(f + 1) % 3] = d[f];
            check(d[0], d[1], d[2]);
            d[(f + 2) % 3] = d[f];
            check(d[0], d[1], d[2]);
            checked += 3;
        }
    print_message("cell edges: %u directions\n", checked);
}

/* Scaling by 2^k keeps the answer while the components stay normal. */
static void test_power_of_two_scaling(void **state)
{
    uint64_t rng = 42;
    unsigned n, same = 0;
    (void)state;
    for (n = 0; n < 100000 / MD2_NEAREST_STRIDE; n++) {
        float x = uniform(&rng), y = uniform(&rng), z = uniform(&rng);
        int e = (int)(next64(&rng) % 280u) - 150;
        float sx = (float)ldexp(x, e), sy = (float)ldexp(y, e), sz = (float)ldexp(z, e);
        unsigned want = check(x, y, z);
        check(sx, sy, sz);
        if (ldexp(sx, -e) == x && ldexp(sy, -e) == y && ldexp(sz, -e) == z) {
            assert_int_equal(md2_normal_nearest(sx, sy, sz), want);
            same++;
        }
    }
    /* exact for e from -125 to 127 (and many below), 9 in 10 */
    assert_true(same > 85000 / MD2_NEAREST_STRIDE);
}

/* How many random directions: MD2_NEAREST_DIRECTIONS from the environment,
 * else 10^6 under valgrind (its preloaded library is in LD_PRELOAD), else
 * the build's (3 x 10^7 natively, fewer with sanitizers and in cross
 * builds). */
static unsigned long directions(void)
{
    const char *env = getenv("MD2_NEAREST_DIRECTIONS");
    const char *preload = getenv("LD_PRELOAD");
    if (env && *env)
        return strtoul(env, NULL, 10);
    if (preload && strstr(preload, "vgpreload") != NULL)
        return 1000000ul;
    return (unsigned long)MD2_NEAREST_DIRECTIONS;
}

static void test_random_directions(void **state)
{
    unsigned long total = directions(), n, kinds[3] = {0, 0, 0};
    uint64_t rng = 0x6D64325F6E6E0001u;
    clock_t t0 = clock();
    (void)state;
    for (n = 0; n < total; n++) {
        unsigned kind = (unsigned)(n % 10u);
        float x, y, z;
        if (kind < 7) { /* uniform in the cube */
            x = uniform(&rng);
            y = uniform(&rng);
            z = uniform(&rng);
            kind = 0;
        } else if (kind < 9) { /* random exponents, the whole range */
            x = any_float(&rng);
            y = any_float(&rng);
            z = any_float(&rng);
            kind = 1;
        } else { /* the middle of two random entries, moved a little */
            const float *a = md2_normal((unsigned)(next64(&rng) % MD2_NUM_NORMALS));
            const float *b = md2_normal((unsigned)(next64(&rng) % MD2_NUM_NORMALS));
            x = a[0] + b[0] + uniform(&rng) * 1e-5f;
            y = a[1] + b[1] + uniform(&rng) * 1e-5f;
            z = a[2] + b[2] + uniform(&rng) * 1e-5f;
            kind = 2;
        }
        kinds[kind]++;
        check(x, y, z);
    }
    print_message("random directions: %lu (%lu uniform, %lu with random exponents, %lu near "
                  "boundaries) equal the brute force, %.1f s\n",
                  total, kinds[0], kinds[1], kinds[2],
                  (double)(clock() - t0) / (double)CLOCKS_PER_SEC);
    assert_int_equal(kinds[0] + kinds[1] + kinds[2], total);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_entries),
        cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_ties),
        cmocka_unit_test(test_cell_edges),
        cmocka_unit_test(test_power_of_two_scaling),
        cmocka_unit_test(test_random_directions),
    };
    load_table();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
