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
 *   v_decode(v, s, t)     s * (float)v->v[k] + t lane by lane ([3]: 0)
 *   v_put3(p, v), v_put4(p, v)   store lanes 0-2, or 0-3
 *   v_unit(v)             md2__unit_normal() of lanes 0-2
 *   v_yup(v)              (x, z, -y)
 *   v_put_uv(p, src, flip)     p[0] = src[0], p[1] = src[1] or 1 - src[1]
 *
 * A vertex is one row: x, y, z (and 0) in one vector, its normal in
 * another. A row is stored with a 16-byte store where the 4 bytes past the
 * attribute are written again later in the same call (see wide_plan in
 * pose_kernels.c), else with an 8-byte and a 4-byte store.
 *
 * SPDX-License-Identifier: MIT
 */

typedef struct ROWS(consts) {
    VEC sa, ta, sb, tb, wa, wb;
} ROWS(consts);

/* The position and (if normals) the normal of model vertex s. */
static inline void ROWS(vertex)(const md2_vertex *va, const md2_vertex *vb,
                                const ROWS(consts) *k, size_t s, int key, int normals,
                                VEC *pos, VEC *nrm)
{
    const md2_vertex *a = va + s;
    if (key) {
        *pos = v_decode(a, k->sa, k->ta);
        if (normals)
            *nrm = v_load(md2__normals4[a->normal]);
    } else {
        const md2_vertex *b = vb + s;
        VEC pa = v_decode(a, k->sa, k->ta);
        VEC pb = v_decode(b, k->sb, k->tb);
        *pos = v_add(v_mul(k->wa, pa), v_mul(k->wb, pb));
        if (normals) {
            VEC na = v_load(md2__normals4[a->normal]);
            VEC nb = v_load(md2__normals4[b->normal]);
            *nrm = v_add(v_mul(k->wa, na), v_mul(k->wb, nb));
        }
    }
}

/* Output vertices [begin, end) of job j. Everything the loop reads from j
 * is copied first: the stores below may alias any memory. */
static inline void ROWS(loop)(const md2__pose_job *j, size_t begin, size_t end, int key)
{
    ROWS(consts) k;
    wide_plan w;
    const uint32_t *index = j->index;
    const md2_vertex *va = j->va, *vb = j->vb;
    const float *uv_src = j->uv_src;
    const size_t count = j->count;
    float *pos = j->pos, *nrm = j->nrm, *uv = j->uv;
    const size_t ps = j->pos_stride, ns = j->nrm_stride, us = j->uv_stride;
    const int normals = nrm != NULL;
    const int unit = normals && (j->flags & MD2_LAYOUT_UNIT_NORMALS) != 0;
    const int y_up = (j->flags & MD2_LAYOUT_Y_UP) != 0;
    const int flip = (j->flags & MD2_LAYOUT_FLIP_V) != 0;
    size_t i;

    k.sa = v_load3(j->sa);
    k.ta = v_load3(j->ta);
    k.sb = v_load3(j->sb);
    k.tb = v_load3(j->tb);
    k.wa = v_set1(j->wa);
    k.wb = v_set1(j->wb);
    plan_wide_stores(j, &w);
    for (i = begin; i < end; i++) {
        const int more = i + 1 < count; /* a vertex follows this one */
        VEC p, n = v_set1(0.0f); /* n: unused without normals */
        ROWS(vertex)(va, vb, &k, index ? index[i] : i, key, normals, &p, &n);
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
    if (j->key)
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
#undef v_decode
#undef v_put3
#undef v_put4
#undef v_unit
#undef v_yup
#undef v_put_uv
