/*
 * The parser's scan of the normal indices (md2__normal_scan_fn, format.h):
 * one pass over a frame's vertices that copies them into the model and
 * learns, from the same loads, whether an index is 162 or more
 * (MD2_WARN_NORMAL_INDEX) and whether one differs from the first vertex's
 * (MD2_WARN_SAME_NORMALS needs every vertex of every frame: in a model
 * whose indices are all equal, a pass of its own read the whole file a
 * second time). Real files have no bad index, and most have no two frames
 * alike, so the common case is a pass that finds no bad index and cannot
 * stop early: it costs what the copy costs.
 *
 * One function per instruction set, the same bits from each: the SIMD ones
 * from the template normal_scan.h (SSE2 and AVX2 on x86, NEON on 64-bit
 * ARM, unless MD2_SIMD is off: MD2_NO_SIMD), and a scalar one in plain C
 * for every other host (s390x, x87, WebAssembly, MD2_SIMD=OFF).
 *
 * SPDX-License-Identifier: MIT
 */
#include "format.h"
#include "reader.h"

#include <string.h>

#if !defined(MD2_NO_SIMD) && defined(__SSE2__)
#define MD2_NORMALS_SSE2 1
#include <emmintrin.h>
#if defined(__x86_64__) && defined(__GNUC__) && (defined(__clang__) || __GNUC__ >= 5)
#define MD2_NORMALS_AVX2 1
#include <immintrin.h>
#endif
#elif !defined(MD2_NO_SIMD) && defined(__aarch64__) && defined(__ARM_NEON)
#define MD2_NORMALS_NEON 1
#include <arm_neon.h>
#endif

/* Two vertices a 64-bit word, as md2_le32() reads them: their normal
 * indices in bits 0-7 and 32-39 once shifted down by 24. 94 (0x5E) added
 * to an index carries into bit 8 of its field when the index is 162 or
 * more; an index other than ref leaves bits in its field when xor'd with
 * ref. */
static unsigned scalar_normal_scan(uint8_t *dst, const uint8_t *v, size_t n, unsigned ref)
{
    const uint64_t twice = ((uint64_t)ref << 32) | ref; /* ref in both fields */
    uint64_t carry = 0, diff = 0;
    size_t i = 0;
    if (n == 0)
        return 0;
    if (dst)
        memcpy(dst, v, 4 * n);
    for (; i + 2 <= n; i += 2) {
        uint64_t w = (uint64_t)md2_le32(v + 4 * i) | ((uint64_t)md2_le32(v + 4 * i + 4) << 32);
        uint64_t index = (w >> 24) & 0x000000FF000000FFull;
        carry |= index + 0x0000005E0000005Eull;
        diff |= index ^ twice;
    }
    if (i < n) {
        carry |= (uint64_t)v[4 * i + 3] + 0x5Eu;
        diff |= (uint64_t)(v[4 * i + 3] ^ ref);
    }
    return ((carry & 0x0000010000000100ull) ? MD2_NSCAN_BAD : 0u) |
           (diff ? MD2_NSCAN_OTHER : 0u);
}

#if defined(MD2_NORMALS_SSE2)
/* the largest or smallest of bytes 3, 7, 11 and 15, in byte 3 */
static inline unsigned sse2_top_max(__m128i m)
{
    m = _mm_max_epu8(m, _mm_srli_si128(m, 8));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
    return (unsigned)_mm_cvtsi128_si32(m) >> 24;
}

static inline unsigned sse2_top_min(__m128i m)
{
    m = _mm_min_epu8(m, _mm_srli_si128(m, 8));
    m = _mm_min_epu8(m, _mm_srli_si128(m, 4));
    return (unsigned)_mm_cvtsi128_si32(m) >> 24;
}

#define SCAN(name) sse2_##name
#define SCAN_ATTR
#define SCAN_BYTES 16
#define SVEC __m128i
#define s_zero() _mm_setzero_si128()
#define s_ones() _mm_set1_epi32(-1)
#define s_load(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define s_store(p, x) _mm_storeu_si128((__m128i *)(void *)(p), x)
#define s_max(a, b) _mm_max_epu8(a, b)
#define s_min(a, b) _mm_min_epu8(a, b)
#define s_top_max(m) sse2_top_max(m)
#define s_top_min(m) sse2_top_min(m)
#include "normal_scan.h" /* it undefines its parameters */
#endif

#if defined(MD2_NORMALS_AVX2)
/* The same with 32-byte vectors, for CPUs with AVX2 (x86-64 only): the two
 * halves folded into one, then as SSE2 does (in VEX code, as part of this
 * function's target). */
__attribute__((target("avx2"))) static inline unsigned avx2_top_max(__m256i m)
{
    __m128i h = _mm_max_epu8(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
    h = _mm_max_epu8(h, _mm_srli_si128(h, 8));
    h = _mm_max_epu8(h, _mm_srli_si128(h, 4));
    return (unsigned)_mm_cvtsi128_si32(h) >> 24;
}

__attribute__((target("avx2"))) static inline unsigned avx2_top_min(__m256i m)
{
    __m128i h = _mm_min_epu8(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
    h = _mm_min_epu8(h, _mm_srli_si128(h, 8));
    h = _mm_min_epu8(h, _mm_srli_si128(h, 4));
    return (unsigned)_mm_cvtsi128_si32(h) >> 24;
}

#define SCAN(name) avx2_##name
#define SCAN_ATTR __attribute__((target("avx2")))
#define SCAN_BYTES 32
#define SVEC __m256i
#define s_zero() _mm256_setzero_si256()
#define s_ones() _mm256_set1_epi32(-1)
#define s_load(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define s_store(p, x) _mm256_storeu_si256((__m256i *)(void *)(p), x)
#define s_max(a, b) _mm256_max_epu8(a, b)
#define s_min(a, b) _mm256_min_epu8(a, b)
#define s_top_max(m) avx2_top_max(m)
#define s_top_min(m) avx2_top_min(m)
#include "normal_scan.h"
#endif

#if defined(MD2_NORMALS_NEON)
#define SCAN(name) neon_##name
#define SCAN_ATTR
#define SCAN_BYTES 16
#define SVEC uint8x16_t
#define s_zero() vdupq_n_u8(0)
#define s_ones() vdupq_n_u8(0xFF)
#define s_load(p) vld1q_u8(p)
#define s_store(p, x) vst1q_u8(p, x)
#define s_max(a, b) vmaxq_u8(a, b)
#define s_min(a, b) vminq_u8(a, b)
/* the normal bytes are the top bytes of the 32-bit lanes */
#define s_top_max(m) ((unsigned)vmaxvq_u32(vshrq_n_u32(vreinterpretq_u32_u8(m), 24)))
#define s_top_min(m) ((unsigned)vminvq_u32(vshrq_n_u32(vreinterpretq_u32_u8(m), 24)))
#include "normal_scan.h"
#endif

md2__normal_scan_fn md2__normal_scan_best(void)
{
#if defined(MD2_NORMALS_AVX2)
    if (__builtin_cpu_supports("avx2"))
        return avx2_normal_scan;
#endif
#if defined(MD2_NORMALS_SSE2)
    return sse2_normal_scan;
#elif defined(MD2_NORMALS_NEON)
    return neon_normal_scan;
#else
    return scalar_normal_scan;
#endif
}

md2__normal_scan_fn md2__normal_scan_named(const char *name)
{
    if (strcmp(name, "scalar") == 0)
        return scalar_normal_scan;
#if defined(MD2_NORMALS_SSE2)
    if (strcmp(name, "sse2") == 0)
        return sse2_normal_scan;
#endif
#if defined(MD2_NORMALS_AVX2)
    if (strcmp(name, "avx2") == 0)
        return __builtin_cpu_supports("avx2") ? avx2_normal_scan : NULL;
#endif
#if defined(MD2_NORMALS_NEON)
    if (strcmp(name, "neon") == 0)
        return neon_normal_scan;
#endif
    return NULL;
}
