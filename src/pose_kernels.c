/*
 * Pose kernels: decode keyframe vertices (scale * v + translate), look up
 * their normals and blend two keyframes, for md2_lerp(), md2_mesh_lerp()
 * and the calls built on them. See pose.h for the job a kernel runs.
 *
 * Kernels: scalar C (the reference, and the only one on s390x, x87 and
 * with MD2_SIMD off), SSE2 (the x86-64 baseline; also 32-bit x86 built
 * with SSE2 arithmetic),
 * AVX2 (x86-64, chosen at run time on CPUs that have it), NEON
 * (little-endian 64-bit ARM) and WebAssembly SIMD128 (wasm builds with
 * -msimd128, docs/web.md). Each gives the scalar kernel's bits: SSE,
 * AVX, NEON and SIMD128 float multiplies and adds are IEEE single precision
 * with one rounding each, the kernels do the same operations in the same order as
 * the scalar code (decode: (s * v) + t; blend: (wa * a) + (wb * b)), and
 * nothing is fused: no FMA intrinsic (vmulq_f32 then vaddq_f32 on NEON,
 * not vfmaq_f32 or vmlaq_f32), the AVX2 functions are compiled for
 * "avx2" without "fma", and the build passes -ffp-contract=off. Byte to
 * float conversions are exact (0 to 255). test_kernels checks every kernel
 * against the scalar one, bit for bit, on every frame pair of the corpus,
 * on cross-fades and on row ranges.
 *
 * Each SIMD path is kept because md2_bench shows it pays (the commit that
 * removed the others has the numbers): the SSE2 rows (2.6x the scalar
 * kernel), the AVX2 stream of packed arrays (3.1x the SSE2 rows on
 * md2_lerp) and AVX2's paths for md2_layout_default(0) (1.6x-1.9x the
 * generic AVX2 pairs on md2_mesh_lerp). NEON and SIMD128 mirror the SSE2
 * rows; SIMD128 makes md2_lerp in Node about twice as fast as the scalar
 * kernel compiled with -msimd128 (docs/web.md). The WebAssembly build's digest
 * equals the native one's (tests/web), which is how SIMD128 is tested: no
 * native test can run it.
 *
 * Also the jobs' set-up (md2__pose_setup, md2__pose_fade). Never allocates;
 * reads the model and writes the job's outputs only.
 *
 * SPDX-License-Identifier: MIT
 */
#include "pose.h"

#include <math.h>
#include <string.h>

/* Which SIMD kernels this build has. x87 builds (no __SSE2__), big-endian
 * hosts and builds with MD2_SIMD off (MD2_NO_SIMD) keep to the scalar
 * kernel. */
#if !defined(MD2_NO_SIMD) && defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__)) && \
    defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define MD2_POSE_SSE2 1
#include <emmintrin.h>
#endif
#if defined(MD2_POSE_SSE2) && defined(__x86_64__) && defined(__GNUC__) && \
    (defined(__clang__) || __GNUC__ >= 5)
#define MD2_POSE_AVX2 1
#include <immintrin.h>
#endif
#if !defined(MD2_NO_SIMD) && defined(__aarch64__) && defined(__ARM_NEON) && \
    defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MD2_POSE_NEON 1
#include <arm_neon.h>
#endif
#if !defined(MD2_NO_SIMD) && defined(__wasm_simd128__)
#define MD2_POSE_WASM 1
#include <wasm_simd128.h>
#endif


/* The shortest length normalised, as a float object: the constant 1e-6f may
 * be evaluated in a wider type (FLT_EVAL_METHOD). */
static const float min_length = 1e-6f;

void md2__unit_normal(float n[3])
{
    /* sqrtf is correctly rounded (IEEE 754); on x87 it comes in extended
     * precision, and md2__to_float() rounds it to the same float (round.h).
     * The SIMD kernels repeat these operations lane by lane. */
    float square = md2__mul_add(n[2], n[2], md2__blend2(n[0], n[0], n[1], n[1]));
    float len = md2__to_float(sqrtf(square));
    if (len > min_length) {
        float inv = md2__to_float(1.0f / len);
        n[0] = md2__to_float(n[0] * inv);
        n[1] = md2__to_float(n[1] * inv);
        n[2] = md2__to_float(n[2] * inv);
    } else {
        /* opposite normals cancel out (or a zero vector): any direction is
         * as good as another; use the table's fallback, straight up */
        const float *up = md2__normals4[MD2_NORMAL_FALLBACK];
        n[0] = up[0];
        n[1] = up[1];
        n[2] = up[2];
    }
}

/* ------------------------------------------------------------------------ */
/* Jobs                                                                      */
/* ------------------------------------------------------------------------ */

static void frame_constants(const md2_frame *f, float s[4], float t[4])
{
    int k;
    for (k = 0; k < 3; k++) {
        s[k] = f->scale[k];
        t[k] = f->translate[k];
    }
    s[3] = 0.0f;
    t[3] = 0.0f;
}

static void pair_setup(md2__pose_pair *p, const md2_frame *fa, const md2_frame *fb, float t)
{
    /* t = 0, t = 1 and a == b give a keyframe exactly, not a blend */
    p->key = t == 0.0f || t == 1.0f || fa == fb;
    if (p->key && t == 1.0f)
        fa = fb;
    p->va = fa->vertices;
    p->vb = fb->vertices;
    frame_constants(fa, p->sa, p->ta);
    frame_constants(fb, p->sb, p->tb);
    p->wa = md2__to_float(1.0f - t);
    p->wb = t;
}

void md2__pose_setup(md2__pose_job *job, const md2_frame *fa, const md2_frame *fb, float t)
{
    memset(job, 0, sizeof *job);
    pair_setup(&job->cur, fa, fb, t);
}

void md2__pose_fade(md2__pose_job *job, const md2_frame *fa, const md2_frame *fb, float t,
                    float weight)
{
    pair_setup(&job->from, fa, fb, t);
    job->w_from = md2__to_float(1.0f - weight);
    job->w_cur = weight;
    job->fade = 1;
}

/* ------------------------------------------------------------------------ */
/* The scalar kernel: the reference                                          */
/* ------------------------------------------------------------------------ */

/* The position and (if nrm is not NULL) the normal of model vertex s in
 * pair p. */
static inline void scalar_vertex(const md2__pose_pair *p, size_t s, float pos[3],
                                 float nrm[3])
{
    const md2_vertex *a = &p->va[s];
    int k;
    if (p->key) {
        for (k = 0; k < 3; k++)
            pos[k] = md2__mul_add(p->sa[k], (float)a->v[k], p->ta[k]);
        if (nrm)
            memcpy(nrm, md2__normals4[a->normal], 3 * sizeof(float));
    } else {
        const md2_vertex *b = &p->vb[s];
        for (k = 0; k < 3; k++)
            pos[k] = md2__keep2(p->wa, md2__mul_add(p->sa[k], (float)a->v[k], p->ta[k]),
                                p->wb, md2__mul_add(p->sb[k], (float)b->v[k], p->tb[k]));
        if (nrm) {
            const float *na = md2__normals4[a->normal], *nb = md2__normals4[b->normal];
            for (k = 0; k < 3; k++)
                nrm[k] = md2__blend2(p->wa, na[k], p->wb, nb[k]);
        }
    }
}

/* Writes v (3 floats) at out, turned to Y up if y_up. */
static void put3(float *out, const float v[3], int y_up)
{
    out[0] = v[0];
    out[1] = y_up ? v[2] : v[1];
    out[2] = y_up ? -v[1] : v[2];
}

void md2__pose_scalar(const md2__pose_job *job)
{
    /* a copy the stores below cannot alias, so nothing is reloaded */
    const md2__pose_job copy = *job, *j = &copy;
    const int y_up = (j->flags & MD2__POSE_Y_UP) != 0;
    size_t i;

    for (i = j->begin; i < j->end; i++) {
        const size_t s = j->index ? j->index[i] : i;
        float pos[3], nrm[3];
        scalar_vertex(&j->cur, s, pos, j->nrm ? nrm : NULL);
        if (j->fade) { /* w_from * from + w_cur * cur */
            float po[3], no[3];
            int k;
            scalar_vertex(&j->from, s, po, j->nrm ? no : NULL);
            for (k = 0; k < 3; k++) {
                pos[k] = md2__keep2(j->w_from, po[k], j->w_cur, pos[k]);
                if (j->nrm)
                    nrm[k] = md2__blend2(j->w_from, no[k], j->w_cur, nrm[k]);
            }
        }
        put3(j->pos + i * j->pos_stride, pos, y_up);
        if (j->nrm) {
            if (j->flags & MD2__POSE_UNIT_NORMALS)
                md2__unit_normal(nrm);
            put3(j->nrm + i * j->nrm_stride, nrm, y_up);
        }
        if (j->uv) {
            float *uv = j->uv + i * j->uv_stride;
            const float *src = j->uv_src + 2 * i;
            uv[0] = src[0];
            uv[1] = (j->flags & MD2__POSE_FLIP_V) ? md2__to_float(1.0f - src[1]) : src[1];
        }
    }
}

#if defined(MD2_POSE_SSE2) || defined(MD2_POSE_NEON) || defined(MD2_POSE_WASM)
/* ------------------------------------------------------------------------ */
/* Shared by the SIMD kernels                                                */
/* ------------------------------------------------------------------------ */

/* Where a 16-byte store may write a position or normal (3 floats): where
 * the float past it is written again later in the same call, in the
 * scalar kernel's order (vertex by vertex; position, normal, uv), so the
 * memory ends as the scalar kernel leaves it whatever the layout. _all:
 * that float starts a later attribute of the same vertex (interleaved
 * position and normal); _next: it starts an attribute of the next vertex
 * (packed arrays), so not for the last vertex. */
typedef struct wide_plan {
    int pos_all, pos_next, nrm_all, nrm_next;
} wide_plan;

static uintptr_t addr(const float *p) { return (uintptr_t)(const void *)p; }

/* 1 if byte address at starts attribute p (stride floats) of some vertex
 * i + 1, given attribute p of vertex i at addr(p) */
static int starts_next(uintptr_t at, const float *p, size_t stride)
{
    return p && at == addr(p) + stride * sizeof(float);
}

static void plan_wide_stores(const md2__pose_job *j, wide_plan *w)
{
    uintptr_t past_pos = addr(j->pos) + 3 * sizeof(float);
    uintptr_t past_nrm = addr(j->nrm) + 3 * sizeof(float);

    w->pos_all = (j->nrm && past_pos == addr(j->nrm)) || (j->uv && past_pos == addr(j->uv));
    w->pos_next = starts_next(past_pos, j->pos, j->pos_stride) ||
                  starts_next(past_pos, j->nrm, j->nrm_stride) ||
                  starts_next(past_pos, j->uv, j->uv_stride);
    w->nrm_all = j->nrm && j->uv && past_nrm == addr(j->uv);
    w->nrm_next = j->nrm && (starts_next(past_nrm, j->pos, j->pos_stride) ||
                             starts_next(past_nrm, j->nrm, j->nrm_stride) ||
                             starts_next(past_nrm, j->uv, j->uv_stride));
}
#endif

#if defined(MD2_POSE_SSE2)
/* ------------------------------------------------------------------------ */
/* SSE2                                                                      */
/* ------------------------------------------------------------------------ */

static inline __m128 sse2_load(const float *p) { return _mm_loadu_ps(p); }

static inline __m128 sse2_load3(const float *p) { return _mm_setr_ps(p[0], p[1], p[2], 0.0f); }

/* s * (x, y, z, normal index) + t with s[3] = t[3] = 0 */
static inline __m128 sse2_decode(const md2_vertex *v, __m128 s, __m128 t)
{
    const __m128i zero = _mm_setzero_si128();
    int32_t bytes;
    __m128i b;
    memcpy(&bytes, v, sizeof bytes);
    b = _mm_cvtsi32_si128(bytes);
    b = _mm_unpacklo_epi16(_mm_unpacklo_epi8(b, zero), zero);
    return _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(b), s), t);
}

/* a where a == b, else r */
static inline __m128 sse2_keep(__m128 a, __m128 b, __m128 r)
{
    __m128 same = _mm_cmpeq_ps(a, b);
    return _mm_or_ps(_mm_and_ps(same, a), _mm_andnot_ps(same, r));
}

static inline void sse2_put3(float *p, __m128 v)
{
    _mm_storel_pi((__m64 *)(void *)p, v);
    _mm_store_ss(p + 2, _mm_movehl_ps(v, v));
}

static inline void sse2_put4(float *p, __m128 v) { _mm_storeu_ps(p, v); }

/* md2__unit_normal(): square = z * z + (x * x + y * y), len = sqrt,
 * n * (1 / len) */
static inline __m128 sse2_unit(__m128 n)
{
    __m128 sq = _mm_mul_ps(n, n);
    __m128 s01 = _mm_add_ss(sq, _mm_shuffle_ps(sq, sq, _MM_SHUFFLE(1, 1, 1, 1)));
    __m128 len = _mm_sqrt_ss(_mm_add_ss(_mm_movehl_ps(sq, sq), s01));
    if (_mm_cvtss_f32(len) > min_length) {
        __m128 inv = _mm_div_ss(_mm_set_ss(1.0f), len);
        return _mm_mul_ps(n, _mm_shuffle_ps(inv, inv, 0));
    }
    return _mm_loadu_ps(md2__normals4[MD2_NORMAL_FALLBACK]);
}

/* (x, z, -y) */
static inline __m128 sse2_yup(__m128 v)
{
    const __m128 sign = _mm_set_ps(0.0f, -0.0f, 0.0f, 0.0f);
    return _mm_xor_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 1, 2, 0)), sign);
}

static inline void sse2_put_uv(float *p, const float *src, int flip)
{
    __m128 uv = _mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(const void *)src);
    if (flip) /* (u, 1 - v) */
        uv = _mm_move_ss(_mm_sub_ps(_mm_set1_ps(1.0f), uv), uv);
    _mm_storel_pi((__m64 *)(void *)p, uv);
}

#define ROWS(name) sse2_##name
#define VEC __m128
#define v_load sse2_load
#define v_load3 sse2_load3
#define v_set1 _mm_set1_ps
#define v_mul _mm_mul_ps
#define v_add _mm_add_ps
#define v_keep sse2_keep
#define v_decode sse2_decode
#define v_put3 sse2_put3
#define v_put4 sse2_put4
#define v_unit sse2_unit
#define v_yup sse2_yup
#define v_put_uv sse2_put_uv
#include "pose_rows.h" /* it undefines its parameters */

static void md2__pose_sse2(const md2__pose_job *j)
{
    sse2_rows(j, j->begin, j->end);
}
#endif /* MD2_POSE_SSE2 */

#if defined(MD2_POSE_AVX2)
/* ------------------------------------------------------------------------ */
/* AVX2                                                                      */
/* ------------------------------------------------------------------------ */
/*
 * Two loops. The stream (packed position arrays, the common case): the 24
 * floats x0 y0 z0 x1 ... z7 of 8 vertices are 3 vectors of 8, computed in
 * the order they are stored, group g holding floats 8g to 8g + 7. Float f
 * is coordinate f % 3 of vertex f / 3, so a group's lanes take their bytes
 * from the 32 bytes of the 8 vertices with one byte shuffle (vpshufb works
 * within 128-bit halves: the source of group 0 is bytes 0-15 in both
 * halves, of group 1 the 32 bytes as they are, of group 2 bytes 16-31 in
 * both halves) and their scale and translate from a permutation of (sx,
 * sy, sz). No lane is wasted and nothing is rearranged before the store.
 * Pairs (normals, meshes, any layout): two vertices a vector, one in each
 * 128-bit half, as rows (x, y, z, 0), stored half by half as the SSE2 rows
 * are (wide_plan).
 */

/* vpshufb masks, one dword a lane: the source byte, then 3 zero bytes */
#define B(x) (0x80808000u | (x))
static const uint32_t stream_bytes[3][8] = {
    {B(0), B(1), B(2), B(4), B(5), B(6), B(8), B(9)},
    {B(10), B(12), B(13), B(14), B(0), B(1), B(2), B(4)},
    {B(5), B(6), B(8), B(9), B(10), B(12), B(13), B(14)},
};
#undef B
/* the coordinate (f % 3) of each lane of each group */
static const int32_t stream_axis[3][8] = {
    {0, 1, 2, 0, 1, 2, 0, 1},
    {2, 0, 1, 2, 0, 1, 2, 0},
    {1, 2, 0, 1, 2, 0, 1, 2},
};

/* What group g needs: its byte shuffle and both keyframes' scale and
 * translate, lane by lane */
typedef struct avx2_group {
    __m256i bytes;
    __m256 sa, ta, sb, tb;
} avx2_group;

__attribute__((target("avx2"))) static inline __m256i avx2_load_i(const void *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

__attribute__((target("avx2"))) static inline __m256 avx2_axes(const float v[4], __m256i axis)
{
    return _mm256_permutevar8x32_ps(_mm256_castps128_ps256(sse2_load3(v)), axis);
}

/* v[0], v[1], v[2], 0 in both halves */
__attribute__((target("avx2"))) static inline __m256 avx2_load3x2(const float v[4])
{
    __m128 x = sse2_load3(v);
    return _mm256_insertf128_ps(_mm256_castps128_ps256(x), x, 1);
}

__attribute__((target("avx2"))) static void avx2_group_init(avx2_group *c, int g,
                                                            const md2__pose_job *j)
{
    __m256i axis = avx2_load_i(stream_axis[g]);
    c->bytes = avx2_load_i(stream_bytes[g]);
    c->sa = avx2_axes(j->cur.sa, axis);
    c->ta = avx2_axes(j->cur.ta, axis);
    c->sb = avx2_axes(j->cur.sb, axis);
    c->tb = avx2_axes(j->cur.tb, axis);
}

/* The byte sources of groups 0, 1 and 2 of the 8 vertices at p */
__attribute__((target("avx2"))) static inline __m256i avx2_source0(const md2_vertex *p)
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p));
}

__attribute__((target("avx2"))) static inline __m256i avx2_source1(const md2_vertex *p)
{
    return avx2_load_i(p);
}

__attribute__((target("avx2"))) static inline __m256i avx2_source2(const md2_vertex *p)
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p + 1));
}

/* A group of positions: s * v + t */
__attribute__((target("avx2"))) static inline __m256 avx2_decode(__m256i src, __m256i bytes,
                                                                 __m256 s, __m256 t)
{
    __m256 v = _mm256_cvtepi32_ps(_mm256_shuffle_epi8(src, bytes));
    return _mm256_add_ps(_mm256_mul_ps(v, s), t);
}

/* a where a == b, else r */
__attribute__((target("avx2"))) static inline __m256 avx2_keep(__m256 a, __m256 b, __m256 r)
{
    return _mm256_blendv_ps(r, a, _mm256_cmp_ps(a, b, _CMP_EQ_OQ));
}

/* One group of a blend: wa * a + wb * b (a where a == b) */
__attribute__((target("avx2"))) static inline __m256 avx2_mid(const avx2_group *c, __m256 wa,
                                                              __m256 wb, __m256i src_a,
                                                              __m256i src_b)
{
    __m256 pa = avx2_decode(src_a, c->bytes, c->sa, c->ta);
    __m256 pb = avx2_decode(src_b, c->bytes, c->sb, c->tb);
    return avx2_keep(pa, pb, _mm256_add_ps(_mm256_mul_ps(wa, pa), _mm256_mul_ps(wb, pb)));
}

/* Rows of vertices s0 and s1 of frame v: s * (x, y, z, index) + t, with
 * s and t (sx, sy, sz, 0) in both halves */
__attribute__((target("avx2"))) static inline __m256 avx2_pair_decode(const md2_vertex *v,
                                                                      size_t s0, size_t s1,
                                                                      __m256 s, __m256 t)
{
    int32_t w0, w1;
    __m128i b;
    memcpy(&w0, v + s0, sizeof w0);
    memcpy(&w1, v + s1, sizeof w1);
    b = _mm_unpacklo_epi32(_mm_cvtsi32_si128(w0), _mm_cvtsi32_si128(w1));
    return _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b)), s), t);
}

/* Table normals of vertices s0 and s1 of frame v */
__attribute__((target("avx2"))) static inline __m256 avx2_pair_table(const md2_vertex *v,
                                                                     size_t s0, size_t s1)
{
    __m256 lo = _mm256_castps128_ps256(_mm_loadu_ps(md2__normals4[v[s0].normal]));
    return _mm256_insertf128_ps(lo, _mm_loadu_ps(md2__normals4[v[s1].normal]), 1);
}

/* Blended table normals of vertices s0 and s1 (va's alone if key) */
__attribute__((target("avx2"))) static inline __m256 avx2_pair_normals(const md2_vertex *va,
                                                                       const md2_vertex *vb,
                                                                       int key, size_t s0,
                                                                       size_t s1, __m256 wa,
                                                                       __m256 wb)
{
    __m256 na = avx2_pair_table(va, s0, s1);
    if (key)
        return na;
    return _mm256_add_ps(_mm256_mul_ps(wa, na), _mm256_mul_ps(wb, avx2_pair_table(vb, s0, s1)));
}

/* Rows of 8 vertices (pairs 01, 23, 45, 67) into 24 packed floats: lane
 * permutations and blends (see avx2_pack) */
static const int32_t pack_lanes[6][8] = {
    {0, 1, 2, 4, 5, 6, 0, 0}, /* 01 -> floats 0-5 */
    {0, 0, 0, 0, 0, 0, 0, 1}, /* 23 -> floats 6-7 */
    {2, 4, 5, 6, 0, 0, 0, 0}, /* 23 -> floats 8-11 */
    {0, 0, 0, 0, 0, 1, 2, 4}, /* 45 -> floats 12-15 */
    {5, 6, 0, 0, 0, 0, 0, 0}, /* 45 -> floats 16-17 */
    {0, 0, 0, 1, 2, 4, 5, 6}, /* 67 -> floats 18-23 */
};

__attribute__((target("avx2"))) static inline __m256 avx2_perm(__m256 v, int k)
{
    return _mm256_permutevar8x32_ps(v, avx2_load_i(pack_lanes[k]));
}

__attribute__((target("avx2"))) static inline void avx2_pack(float *out, __m256 r01, __m256 r23,
                                                             __m256 r45, __m256 r67)
{
    _mm256_storeu_ps(out, _mm256_blend_ps(avx2_perm(r01, 0), avx2_perm(r23, 1), 0xC0));
    _mm256_storeu_ps(out + 8, _mm256_blend_ps(avx2_perm(r23, 2), avx2_perm(r45, 3), 0xF0));
    _mm256_storeu_ps(out + 16, _mm256_blend_ps(avx2_perm(r45, 4), avx2_perm(r67, 5), 0xFC));
}

/* Vertices [0, 8 * blocks) into packed positions (and normals). */
__attribute__((target("avx2"))) static void avx2_stream(const md2__pose_job *j, size_t blocks)
{
    avx2_group c0, c1, c2;
    const __m256 wa = _mm256_set1_ps(j->cur.wa), wb = _mm256_set1_ps(j->cur.wb);
    const md2_vertex *va = j->cur.va, *vb = j->cur.vb;
    float *pos = j->pos, *nrm = j->nrm;
    const int key = j->cur.key;
    size_t b;

    avx2_group_init(&c0, 0, j);
    avx2_group_init(&c1, 1, j);
    avx2_group_init(&c2, 2, j);
    for (b = 0; b < blocks; b++, va += 8, vb += 8, pos += 24) {
        __m256i a0 = avx2_source0(va), a1 = avx2_source1(va), a2 = avx2_source2(va);
        if (key) {
            _mm256_storeu_ps(pos, avx2_decode(a0, c0.bytes, c0.sa, c0.ta));
            _mm256_storeu_ps(pos + 8, avx2_decode(a1, c1.bytes, c1.sa, c1.ta));
            _mm256_storeu_ps(pos + 16, avx2_decode(a2, c2.bytes, c2.sa, c2.ta));
        } else {
            _mm256_storeu_ps(pos, avx2_mid(&c0, wa, wb, a0, avx2_source0(vb)));
            _mm256_storeu_ps(pos + 8, avx2_mid(&c1, wa, wb, a1, avx2_source1(vb)));
            _mm256_storeu_ps(pos + 16, avx2_mid(&c2, wa, wb, a2, avx2_source2(vb)));
        }
        if (nrm) {
            avx2_pack(nrm, avx2_pair_normals(va, vb, key, 0, 1, wa, wb),
                      avx2_pair_normals(va, vb, key, 2, 3, wa, wb),
                      avx2_pair_normals(va, vb, key, 4, 5, wa, wb),
                      avx2_pair_normals(va, vb, key, 6, 7, wa, wb));
            nrm += 24;
        }
    }
}

/* md2__unit_normal() of both rows */
__attribute__((target("avx2"))) static inline __m256 avx2_unit(__m256 n)
{
    const __m256 fallback = _mm256_broadcast_ps((const __m128 *)(const void *)
                                                    md2__normals4[MD2_NORMAL_FALLBACK]);
    __m256 sq = _mm256_mul_ps(n, n);
    __m256 s01 = _mm256_add_ps(sq, _mm256_shuffle_ps(sq, sq, _MM_SHUFFLE(1, 1, 1, 1)));
    __m256 len = _mm256_sqrt_ps(_mm256_add_ps(_mm256_shuffle_ps(sq, sq, _MM_SHUFFLE(2, 2, 2, 2)), s01));
    __m256 inv = _mm256_div_ps(_mm256_set1_ps(1.0f), len);
    __m256 ok = _mm256_cmp_ps(len, _mm256_set1_ps(min_length), _CMP_GT_OQ);
    /* lane 0 of each half holds that row's results */
    inv = _mm256_shuffle_ps(inv, inv, 0);
    ok = _mm256_shuffle_ps(ok, ok, 0);
    return _mm256_blendv_ps(fallback, _mm256_mul_ps(n, inv), ok);
}

/* (x, z, -y) in both rows */
__attribute__((target("avx2"))) static inline __m256 avx2_yup(__m256 v)
{
    const __m256 sign = _mm256_setr_ps(0.0f, 0.0f, -0.0f, 0.0f, 0.0f, 0.0f, -0.0f, 0.0f);
    return _mm256_xor_ps(_mm256_shuffle_ps(v, v, _MM_SHUFFLE(3, 1, 2, 0)), sign);
}

/* Stores row half (0 or 1) of v at p: 16 bytes if wide, else 12 */
__attribute__((target("avx2"))) static inline void avx2_put_row(float *p, __m256 v, int half,
                                                                int wide)
{
    __m128 row = half ? _mm256_extractf128_ps(v, 1) : _mm256_castps256_ps128(v);
    if (wide)
        _mm_storeu_ps(p, row);
    else
        sse2_put3(p, row);
}

/* Output vertices [begin, end) two at a time; each has a vertex after it
 * (end < j->end), so wide_plan's _next stores apply to all. */
__attribute__((target("avx2"))) static void avx2_pairs(const md2__pose_job *j, size_t begin,
                                                       size_t end)
{
    const __m256 sa = avx2_load3x2(j->cur.sa);
    const __m256 ta = avx2_load3x2(j->cur.ta);
    const __m256 sb = avx2_load3x2(j->cur.sb);
    const __m256 tb = avx2_load3x2(j->cur.tb);
    const __m256 wa = _mm256_set1_ps(j->cur.wa), wb = _mm256_set1_ps(j->cur.wb);
    const __m128 one = _mm_set1_ps(1.0f);
    const uint32_t *index = j->index;
    const md2_vertex *va = j->cur.va, *vb = j->cur.vb;
    const int key = j->cur.key;
    float *pos = j->pos, *nrm = j->nrm, *uv_out = j->uv;
    const float *uv_src = j->uv_src;
    const size_t ps = j->pos_stride, ns = j->nrm_stride, us = j->uv_stride;
    const int y_up = (j->flags & MD2__POSE_Y_UP) != 0;
    const int unit = (j->flags & MD2__POSE_UNIT_NORMALS) != 0;
    const int flip = (j->flags & MD2__POSE_FLIP_V) != 0;
    wide_plan w;
    int wide_pos, wide_nrm;
    size_t i;

    plan_wide_stores(j, &w);
    wide_pos = w.pos_all || w.pos_next;
    wide_nrm = w.nrm_all || w.nrm_next;
    for (i = begin; i + 1 < end; i += 2) {
        size_t s0 = index ? index[i] : i, s1 = index ? index[i + 1] : i + 1;
        __m256 p = avx2_pair_decode(va, s0, s1, sa, ta), n = p;
        __m128 uv = one;
        int half;
        if (!key) {
            __m256 pb = avx2_pair_decode(vb, s0, s1, sb, tb);
            p = avx2_keep(p, pb, _mm256_add_ps(_mm256_mul_ps(wa, p), _mm256_mul_ps(wb, pb)));
        }
        if (y_up)
            p = avx2_yup(p);
        if (nrm) {
            n = avx2_pair_normals(va, vb, key, s0, s1, wa, wb);
            if (unit)
                n = avx2_unit(n);
            if (y_up)
                n = avx2_yup(n);
        }
        if (uv_out) {
            uv = _mm_loadu_ps(uv_src + 2 * i); /* u0 v0 u1 v1 */
            if (flip)
                uv = _mm_blend_ps(uv, _mm_sub_ps(one, uv), 10);
        }
        /* vertex by vertex, attribute by attribute, as wide_plan wants */
        for (half = 0; half < 2; half++) {
            size_t at = i + (size_t)half;
            avx2_put_row(pos + at * ps, p, half, wide_pos);
            if (nrm)
                avx2_put_row(nrm + at * ns, n, half, wide_nrm);
            if (uv_out) {
                __m64 *out = (__m64 *)(void *)(uv_out + at * us);
                if (half)
                    _mm_storeh_pi(out, uv);
                else
                    _mm_storel_pi(out, uv);
            }
        }
    }
}

/* The default mesh layout, position, normal, uv at floats 0, 3, 6 of 8,
 * without flags (md2_layout_default(0), what engines use): avx2_pairs
 * without its tests. */
__attribute__((target("avx2"))) static void avx2_mesh_default(const md2__pose_job *j,
                                                              size_t end)
{
    const __m256 sa = avx2_load3x2(j->cur.sa), ta = avx2_load3x2(j->cur.ta);
    const __m256 sb = avx2_load3x2(j->cur.sb), tb = avx2_load3x2(j->cur.tb);
    const __m256 wa = _mm256_set1_ps(j->cur.wa), wb = _mm256_set1_ps(j->cur.wb);
    const uint32_t *index = j->index;
    const md2_vertex *va = j->cur.va, *vb = j->cur.vb;
    const float *uv = j->uv_src;
    const int key = j->cur.key;
    float *out = j->pos;
    size_t i;

    for (i = 0; i + 1 < end; i += 2, out += 16, uv += 4) {
        size_t s0 = index[i], s1 = index[i + 1];
        __m256 p = avx2_pair_decode(va, s0, s1, sa, ta);
        __m256 n = avx2_pair_normals(va, vb, key, s0, s1, wa, wb);
        __m128 uv01 = _mm_loadu_ps(uv); /* u0 v0 u1 v1 */
        if (!key) {
            __m256 pb = avx2_pair_decode(vb, s0, s1, sb, tb);
            p = avx2_keep(p, pb, _mm256_add_ps(_mm256_mul_ps(wa, p), _mm256_mul_ps(wb, pb)));
        }
        /* row by row, vertex by vertex: each 16-byte row store spills
         * into the next attribute, written right after (wide_plan) */
        _mm_storeu_ps(out, _mm256_castps256_ps128(p));
        _mm_storeu_ps(out + 3, _mm256_castps256_ps128(n));
        _mm_storel_pi((__m64 *)(void *)(out + 6), uv01);
        _mm_storeu_ps(out + 8, _mm256_extractf128_ps(p, 1));
        _mm_storeu_ps(out + 11, _mm256_extractf128_ps(n, 1));
        _mm_storeh_pi((__m64 *)(void *)(out + 14), uv01);
    }
}

/* The default mesh layout for models of up to MESH_SMALL vertices: the
 * model's pose by the stream into packed arrays on the stack (12 KiB),
 * then each welded vertex copied from there (rows of 16 bytes, which
 * spill into the next attribute, written right after). A welded vertex
 * costs a copy, a model vertex the stream's arithmetic: less than blending
 * every welded vertex (faerie.md2: 366 model, 503 welded vertices). */
#define MESH_SMALL 512

__attribute__((target("avx2"))) static void avx2_mesh_small(const md2__pose_job *j)
{
    float pos[3 * MESH_SMALL + 1], nrm[3 * MESH_SMALL + 1]; /* + 1: a row's 4th float */
    const uint32_t *index = j->index;
    const float *uv_src = j->uv_src;
    float *out = j->pos;
    md2__pose_job model = *j;
    size_t i, count = j->end, n = j->model_vertices;

    pos[3 * n] = 0.0f;
    nrm[3 * n] = 0.0f;
    model.index = NULL;
    model.begin = 0;
    model.end = n;
    model.pos = pos;
    model.pos_stride = 3;
    model.nrm = nrm;
    model.nrm_stride = 3;
    model.uv = NULL;
    avx2_stream(&model, n / 8);
    sse2_rows(&model, n / 8 * 8, n);
    for (i = 0; i < count; i++, out += 8, uv_src += 2) {
        size_t s = index[i];
        _mm_storeu_ps(out, _mm_loadu_ps(pos + 3 * s));
        _mm_storeu_ps(out + 3, _mm_loadu_ps(nrm + 3 * s));
        _mm_storel_pi((__m64 *)(void *)(out + 6),
                      _mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(const void *)uv_src));
    }
}

/* 1 if n floats at a and n at b do not share a byte */
static int disjoint(const float *a, const float *b, size_t n)
{
    uintptr_t x = addr(a), y = addr(b), bytes = n * sizeof(float);
    return x + bytes <= y || y + bytes <= x;
}

__attribute__((target("avx2"))) static void md2__pose_avx2(const md2__pose_job *j)
{
    size_t paired;
    if (j->fade || j->begin != 0) { /* cross-fades and row ranges: rows */
        sse2_rows(j, j->begin, j->end);
        return;
    }
    /* the stream writes 8 positions, then 8 normals: only for packed
     * arrays that do not overlap, where the order cannot matter */
    if (!j->index && j->flags == 0 && !j->uv && j->pos_stride == 3 &&
        (!j->nrm || (j->nrm_stride == 3 && disjoint(j->pos, j->nrm, 3 * j->end)))) {
        size_t blocks = j->end / 8;
        avx2_stream(j, blocks);
        sse2_rows(j, 8 * blocks, j->end);
        return;
    }
    /* md2_layout_default(0): a small model posed first, or pairs of welded
     * vertices, then the last one if the count is odd */
    if (j->index && j->flags == 0 && j->pos_stride == 8 && j->nrm == j->pos + 3 &&
        j->nrm_stride == 8 && j->uv == j->pos + 6 && j->uv_stride == 8) {
        if (j->model_vertices > 0 && j->model_vertices <= MESH_SMALL) {
            avx2_mesh_small(j);
            return;
        }
        paired = j->end & ~(size_t)1;
        avx2_mesh_default(j, paired);
        sse2_rows(j, paired, j->end);
        return;
    }
    /* any layout: pairs of vertices that each have one after them (16-byte
     * row stores may spill into it), then the rest */
    paired = j->end > 0 ? (j->end - 1) & ~(size_t)1 : 0;
    avx2_pairs(j, 0, paired);
    sse2_rows(j, paired, j->end);
}
#endif /* MD2_POSE_AVX2 */

#if defined(MD2_POSE_NEON)
/* ------------------------------------------------------------------------ */
/* NEON (64-bit ARM, little-endian)                                          */
/* ------------------------------------------------------------------------ */

static inline float32x4_t neon_load(const float *p) { return vld1q_f32(p); }

static inline float32x4_t neon_load3(const float *p)
{
    float32x4_t v = vdupq_n_f32(0.0f);
    v = vsetq_lane_f32(p[0], v, 0);
    v = vsetq_lane_f32(p[1], v, 1);
    return vsetq_lane_f32(p[2], v, 2);
}

/* s * (x, y, z, normal index) + t with s[3] = t[3] = 0 */
static inline float32x4_t neon_decode(const md2_vertex *v, float32x4_t s, float32x4_t t)
{
    uint32_t bytes;
    uint16x8_t h;
    memcpy(&bytes, v, sizeof bytes);
    h = vmovl_u8(vreinterpret_u8_u32(vdup_n_u32(bytes)));
    return vaddq_f32(vmulq_f32(vcvtq_f32_u32(vmovl_u16(vget_low_u16(h))), s), t);
}

static inline void neon_put3(float *p, float32x4_t v)
{
    vst1_f32(p, vget_low_f32(v));
    vst1q_lane_f32(p + 2, v, 2);
}

static inline void neon_put4(float *p, float32x4_t v) { vst1q_f32(p, v); }

/* md2__unit_normal(): square = z * z + (x * x + y * y), len = sqrt,
 * n * (1 / len); scalar float arithmetic on aarch64 is IEEE single */
static inline float32x4_t neon_unit(float32x4_t n)
{
    float32x4_t sq = vmulq_f32(n, n);
    float s01 = vgetq_lane_f32(sq, 0) + vgetq_lane_f32(sq, 1);
    float len = sqrtf(vgetq_lane_f32(sq, 2) + s01);
    if (len > min_length)
        return vmulq_n_f32(n, 1.0f / len);
    return vld1q_f32(md2__normals4[MD2_NORMAL_FALLBACK]);
}

/* (x, z, -y) */
static inline float32x4_t neon_yup(float32x4_t v)
{
    float32x4_t r = vsetq_lane_f32(vgetq_lane_f32(v, 2), v, 1);
    return vsetq_lane_f32(-vgetq_lane_f32(v, 1), r, 2);
}

static inline void neon_put_uv(float *p, const float *src, int flip)
{
    float32x2_t uv = vld1_f32(src);
    if (flip) /* (u, 1 - v) */
        uv = vset_lane_f32(1.0f - vget_lane_f32(uv, 1), uv, 1);
    vst1_f32(p, uv);
}

#define ROWS(name) neon_##name
#define VEC float32x4_t
#define v_load neon_load
#define v_load3 neon_load3
#define v_set1 vdupq_n_f32
#define v_mul vmulq_f32
#define v_add vaddq_f32
#define v_keep(a, b, r) vbslq_f32(vceqq_f32((a), (b)), (a), (r))
#define v_decode neon_decode
#define v_put3 neon_put3
#define v_put4 neon_put4
#define v_unit neon_unit
#define v_yup neon_yup
#define v_put_uv neon_put_uv
#include "pose_rows.h" /* it undefines its parameters */

static void md2__pose_neon(const md2__pose_job *j)
{
    neon_rows(j, j->begin, j->end);
}
#endif /* MD2_POSE_NEON */

#if defined(MD2_POSE_WASM)
/* ------------------------------------------------------------------------ */
/* WebAssembly SIMD128                                                       */
/* ------------------------------------------------------------------------ */

static inline v128_t wasm_load(const float *p) { return wasm_v128_load(p); }

static inline v128_t wasm_load3(const float *p) { return wasm_f32x4_make(p[0], p[1], p[2], 0.0f); }

/* s * (x, y, z, normal index) + t with s[3] = t[3] = 0 */
static inline v128_t wasm_decode(const md2_vertex *v, v128_t s, v128_t t)
{
    v128_t b = wasm_v128_load32_zero(v);
    b = wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(b));
    return wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_convert_u32x4(b), s), t);
}

static inline void wasm_put3(float *p, v128_t v)
{
    wasm_v128_store64_lane(p, v, 0);
    p[2] = wasm_f32x4_extract_lane(v, 2);
}

static inline void wasm_put4(float *p, v128_t v) { wasm_v128_store(p, v); }

/* md2__unit_normal() itself, on lanes 0-2: its square, square root and
 * division are scalar operations with one rounding each */
static inline v128_t wasm_unit(v128_t n)
{
    float f[3];
    f[0] = wasm_f32x4_extract_lane(n, 0);
    f[1] = wasm_f32x4_extract_lane(n, 1);
    f[2] = wasm_f32x4_extract_lane(n, 2);
    md2__unit_normal(f);
    return wasm_f32x4_make(f[0], f[1], f[2], 0.0f);
}

/* (x, z, -y) */
static inline v128_t wasm_yup(v128_t v)
{
    const v128_t sign = wasm_f32x4_make(0.0f, 0.0f, -0.0f, 0.0f);
    return wasm_v128_xor(wasm_i32x4_shuffle(v, v, 0, 2, 1, 3), sign);
}

static inline void wasm_put_uv(float *p, const float *src, int flip)
{
    p[0] = src[0];
    p[1] = flip ? 1.0f - src[1] : src[1];
}

#define ROWS(name) wasm_##name
#define VEC v128_t
#define v_load wasm_load
#define v_load3 wasm_load3
#define v_set1 wasm_f32x4_splat
#define v_mul wasm_f32x4_mul
#define v_add wasm_f32x4_add
#define v_keep(a, b, r) wasm_v128_bitselect((a), (r), wasm_f32x4_eq((a), (b)))
#define v_decode wasm_decode
#define v_put3 wasm_put3
#define v_put4 wasm_put4
#define v_unit wasm_unit
#define v_yup wasm_yup
#define v_put_uv wasm_put_uv
#include "pose_rows.h" /* it undefines its parameters */

static void md2__pose_wasm(const md2__pose_job *j)
{
    wasm_rows(j, j->begin, j->end);
}
#endif /* MD2_POSE_WASM */

/* ------------------------------------------------------------------------ */
/* Choosing a kernel                                                         */
/* ------------------------------------------------------------------------ */

/* The best kernel for this CPU */
static md2__pose_fn best_kernel(void)
{
#if defined(MD2_POSE_AVX2)
    if (__builtin_cpu_supports("avx2"))
        return md2__pose_avx2;
#endif
#if defined(MD2_POSE_SSE2)
    return md2__pose_sse2;
#elif defined(MD2_POSE_NEON)
    return md2__pose_neon;
#elif defined(MD2_POSE_WASM)
    return md2__pose_wasm;
#else
    return md2__pose_scalar;
#endif
}

void md2__pose_run(const md2__pose_job *job)
{
    if (job->end > job->begin)
        best_kernel()(job);
}

md2__pose_fn md2__pose_kernel_named(const char *name)
{
    if (strcmp(name, "scalar") == 0)
        return md2__pose_scalar;
#if defined(MD2_POSE_SSE2)
    if (strcmp(name, "sse2") == 0)
        return md2__pose_sse2;
#endif
#if defined(MD2_POSE_AVX2)
    if (strcmp(name, "avx2") == 0)
        return __builtin_cpu_supports("avx2") ? md2__pose_avx2 : NULL;
#endif
#if defined(MD2_POSE_NEON)
    if (strcmp(name, "neon") == 0)
        return md2__pose_neon;
#endif
#if defined(MD2_POSE_WASM)
    if (strcmp(name, "wasm_simd128") == 0)
        return md2__pose_wasm;
#endif
    return NULL;
}
