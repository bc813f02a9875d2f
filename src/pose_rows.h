/*
 * The row loop of the SIMD pose kernels (internal), included once per
 * instruction set by pose_kernels.c with these defined:
 *
 *   ROWS(name)            the function name for this instruction set
 *   VEC                   a vector of 4 floats
 *   v_load(p)             4 floats from p
 *   v_load3(p)            p[0], p[1], p[2], 0 (from scalar loads: the job
 *                         was just written float by float, and a vector
 *                         load of it would wait for the stores to retire)
 *   v_set1(x)             x in every lane
 *   v_mul(a, b), v_add(a, b)   lane-wise, one rounding each, never fused
 *   v_keep(a, b, r)       lane-wise a where a == b, else r (a position held
 *                         by both keyframes is that position, not a blend
 *                         an ulp off it: md2__keep2() in round.h)
 *   v_decode(v, s, t)     s * (float)v->v[k] + t lane by lane ([3]: 0)
 *   v_put3(p, v), v_put4(p, v)   store lanes 0-2, or 0-3
 *   v_unit(v)             md2__unit_normal() of lanes 0-2
 *   v_yup(v)              (x, z, -y)
 *   v_put_uv(p, src, flip)     p[0] = src[0], p[1] = src[1] or 1 - src[1]
 *
 * A vertex is one row: x, y, z (and 0) in one vector, its normal in
 * another; a cross-fade computes both pairs' rows, then blends them. A row
 * is stored with a 16-byte store where the 4 bytes past the attribute are
 * written again later in the same call (see wide_plan in pose_kernels.c),
 * else with an 8-byte and a 4-byte store.
 *
 * SPDX-License-Identifier: MIT
 */

/* One keyframe pair's constants, as vectors. */
typedef struct ROWS(pair) {
    VEC sa, ta, sb, tb, wa, wb;
    const md2_vertex *va, *vb;
} ROWS(pair);

static inline void ROWS(pair_init)(ROWS(pair) *k, const md2__pose_pair *p)
{
    k->sa = v_load3(p->sa);
    k->ta = v_load3(p->ta);
    k->sb = v_load3(p->sb);
    k->tb = v_load3(p->tb);
    k->wa = v_set1(p->wa);
    k->wb = v_set1(p->wb);
    k->va = p->va;
    k->vb = p->vb;
}

/* The position and (if normals) the normal of model vertex s in pair k. */
static inline void ROWS(vertex)(const ROWS(pair) *k, size_t s, int key, int normals,
                                VEC *pos, VEC *nrm)
{
    const md2_vertex *a = k->va + s;
    if (key) {
        *pos = v_decode(a, k->sa, k->ta);
        if (normals)
            *nrm = v_load(md2__normals4[a->normal]);
    } else {
        const md2_vertex *b = k->vb + s;
        VEC pa = v_decode(a, k->sa, k->ta);
        VEC pb = v_decode(b, k->sb, k->tb);
        *pos = v_keep(pa, pb, v_add(v_mul(k->wa, pa), v_mul(k->wb, pb)));
        if (normals) {
            VEC na = v_load(md2__normals4[a->normal]);
            VEC nb = v_load(md2__normals4[b->normal]);
            *nrm = v_add(v_mul(k->wa, na), v_mul(k->wb, nb));
        }
    }
}

/* Rows [begin, end) of job j, its current pair a keyframe if key. Every-
 * thing the loop reads from j is copied first: the stores below may alias
 * any memory. */
static inline void ROWS(loop)(const md2__pose_job *j, size_t begin, size_t end, int key)
{
    ROWS(pair) cur, from;
    wide_plan w;
    const uint32_t *index = j->index;
    const float *uv_src = j->uv_src;
    const size_t last = j->end;
    float *pos = j->pos, *nrm = j->nrm, *uv = j->uv;
    const size_t ps = j->pos_stride, ns = j->nrm_stride, us = j->uv_stride;
    const int normals = nrm != NULL;
    const int unit = normals && (j->flags & MD2__POSE_UNIT_NORMALS) != 0;
    const int y_up = (j->flags & MD2__POSE_Y_UP) != 0;
    const int flip = (j->flags & MD2__POSE_FLIP_V) != 0;
    const int fade = j->fade, from_key = j->from.key;
    const VEC w_from = v_set1(j->w_from), w_cur = v_set1(j->w_cur);
    size_t i;

    ROWS(pair_init)(&cur, &j->cur);
    ROWS(pair_init)(&from, &j->from);
    plan_wide_stores(j, &w);
    for (i = begin; i < end; i++) {
        const int more = i + 1 < last; /* a row follows this one */
        const size_t s = index ? index[i] : i;
        VEC p, n = v_set1(0.0f); /* n: unused without normals */
        ROWS(vertex)(&cur, s, key, normals, &p, &n);
        if (fade) { /* w_from * from + w_cur * cur */
            VEC po, no = n;
            ROWS(vertex)(&from, s, from_key, normals, &po, &no);
            p = v_keep(po, p, v_add(v_mul(w_from, po), v_mul(w_cur, p)));
            if (normals)
                n = v_add(v_mul(w_from, no), v_mul(w_cur, n));
        }
        if (unit)
            n = v_unit(n);
        if (y_up) {
            p = v_yup(p);
            if (normals)
                n = v_yup(n);
        }
        if (w.pos_all || (w.pos_next && more))
            v_put4(pos + i * ps, p);
        else
            v_put3(pos + i * ps, p);
        if (normals) {
            if (w.nrm_all || (w.nrm_next && more))
                v_put4(nrm + i * ns, n);
            else
                v_put3(nrm + i * ns, n);
        }
        if (uv)
            v_put_uv(uv + i * us, uv_src + 2 * i, flip);
    }
}

static void ROWS(rows)(const md2__pose_job *j, size_t begin, size_t end)
{
    if (j->cur.key)
        ROWS(loop)(j, begin, end, 1);
    else
        ROWS(loop)(j, begin, end, 0);
}

/* The parameters above are this instantiation's: the next one defines its
 * own. */
#undef ROWS
#undef VEC
#undef v_load
#undef v_load3
#undef v_set1
#undef v_mul
#undef v_add
#undef v_keep
#undef v_decode
#undef v_put3
#undef v_put4
#undef v_unit
#undef v_yup
#undef v_put_uv
