/*
 * Float arithmetic with one rounding per operation on every host: tier 1
 * of the private headers (see diag.h), for the pose code, bounds and tag
 * matrices.
 *
 * C lets a compiler evaluate float expressions in a wider type
 * (FLT_EVAL_METHOD: s390x GCC and x87 use double or long double) and round
 * only once at the end, which changes the last bit of a * b + c. Each
 * helper below rounds every intermediate result with md2__to_float(), so
 * the results are bit-identical on x86-64, s390x, aarch64 and 32-bit x86
 * (the build also disables FMA contraction).
 *
 * Where floats are evaluated as float or double (FLT_EVAL_METHOD 0 or 1),
 * storing a result in a float variable rounds it, as C99 requires, and
 * md2__to_float() is nothing. x87 (FLT_EVAL_METHOD 2: plain gcc -m32,
 * clang -m32 without SSE) is not so kind: clang keeps float variables in
 * its 80-bit registers unrounded, and GCC takes sqrtf's return value, which
 * glibc leaves in extended precision, for a float. Only a store to memory
 * rounds there, hence the volatile float. Rounding a wider result once to
 * float is correct: one +, -, *, / or sqrt of floats done in x87 or double
 * precision is correctly rounded to p >= 53 bits, and rounding that again
 * to float (24 bits) is innocuous when p >= 2 * 24 + 2 (Figueroa, 1995):
 * md2__to_float() gives the correctly rounded float, as SSE2 and s390x do.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_ROUND_H
#define MD2_ROUND_H

#include <float.h>

#if defined(FLT_EVAL_METHOD) && (FLT_EVAL_METHOD == 0 || FLT_EVAL_METHOD == 1)
#define md2__to_float(x) (x)
#else
static inline float md2__to_float(float x)
{
    volatile float rounded = x;
    return rounded;
}
#endif

/* a * b, a + b, a - b and a / b, each rounded to float */
static inline float md2__mul(float a, float b)
{
    float r = md2__to_float(a * b);
    return r;
}

static inline float md2__add(float a, float b)
{
    float r = md2__to_float(a + b);
    return r;
}

static inline float md2__sub(float a, float b)
{
    float r = md2__to_float(a - b);
    return r;
}

static inline float md2__div(float a, float b)
{
    float r = md2__to_float(a / b);
    return r;
}

/* a * b + c; callers pass floats (read from memory or from md2__to_float()) */
static inline float md2__mul_add(float a, float b, float c)
{
    float product = md2__to_float(a * b);
    float sum = md2__to_float(product + c);
    return sum;
}

/* wa * a + wb * b. The weights may be the callers' arithmetic (1.0f - t),
 * so they are rounded first; a and b are floats (decoded, or read from
 * memory). */
static inline float md2__blend2(float wa, float a, float wb, float b)
{
    float x = md2__to_float(md2__to_float(wa) * a);
    float y = md2__to_float(md2__to_float(wb) * b);
    float sum = md2__to_float(x + y);
    return sum;
}

/* md2__blend2(), but a itself when a == b: a position both keyframes hold
 * is that position at every weight (the blend alone can be an ulp off:
 * (1 - t) * a + t * a is not always a in float). */
static inline float md2__keep2(float wa, float a, float wb, float b)
{
    return a == b ? a : md2__blend2(wa, a, wb, b);
}

/* Bounds of md2__keep2() over a box: the least (lo) and the largest (hi)
 * it gives for any a >= al, b >= bl (lo), or a <= ah, b <= bh (hi). The
 * blend of the bounds, but no further in than the nearer bound: where a
 * == b, md2__keep2() gives a, which is at least max(al, bl) (at most
 * min(ah, bh)); elsewhere the blend, monotonic in a and b. */
static inline float md2__keep2_lo(float wa, float al, float wb, float bl)
{
    float r = md2__blend2(wa, al, wb, bl), m = al > bl ? al : bl;
    return r < m ? r : m;
}

static inline float md2__keep2_hi(float wa, float ah, float wb, float bh)
{
    float r = md2__blend2(wa, ah, wb, bh), m = ah < bh ? ah : bh;
    return r > m ? r : m;
}

#endif /* MD2_ROUND_H */
