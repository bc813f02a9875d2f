/*
 * The normal-index scan of the parser (parse.c, any_bad_normal), written
 * once for every instruction set: parse.c includes this file once per
 * instruction set with these defined (tier 2 of the private headers):
 *
 *   SCAN(name)      the function name for this instruction set
 *   SCAN_ATTR       function attributes (a target), or nothing
 *   SCAN_BYTES      bytes of a vector (a multiple of 4)
 *   SVEC            a vector of SCAN_BYTES bytes
 *   s_zero()        a vector of zero bytes
 *   s_load(p), s_store(p, x)   SCAN_BYTES bytes from or to p, unaligned
 *   s_max(a, b)     the larger byte of a and b, lane by lane
 *   s_over(m)       1 if a normal byte (the 4th of each 4) of m is 162 or
 *                   more
 *
 * SPDX-License-Identifier: MIT
 */

/* 1 if one of the n vertices at v has a normal index of 162 or more; with
 * dst not NULL, the n vertices are copied there too. */
SCAN_ATTR static int SCAN(any_bad_normal)(uint8_t *dst, const uint8_t *v, size_t n)
{
    const size_t per = SCAN_BYTES / 4; /* vertices a vector */
    SVEC m0 = s_zero(), m1 = m0, m2 = m0, m3 = m0;
    size_t i = 0;
    for (; i + 4 * per <= n; i += 4 * per) {
        const uint8_t *p = v + 4 * i;
        SVEC a = s_load(p), b = s_load(p + SCAN_BYTES);
        SVEC e = s_load(p + 2 * SCAN_BYTES), f = s_load(p + 3 * SCAN_BYTES);
        m0 = s_max(m0, a);
        m1 = s_max(m1, b);
        m2 = s_max(m2, e);
        m3 = s_max(m3, f);
        if (dst) {
            uint8_t *d = dst + 4 * i;
            s_store(d, a);
            s_store(d + SCAN_BYTES, b);
            s_store(d + 2 * SCAN_BYTES, e);
            s_store(d + 3 * SCAN_BYTES, f);
        }
    }
    for (; i + per <= n; i += per) {
        SVEC a = s_load(v + 4 * i);
        m0 = s_max(m0, a);
        if (dst)
            s_store(dst + 4 * i, a);
    }
    m0 = s_max(s_max(m0, m1), s_max(m2, m3));
    if (dst && i < n)
        memcpy(dst + 4 * i, v + 4 * i, 4 * (n - i));
    if (s_over(m0))
        return 1;
    for (; i < n; i++)
        if (v[4 * i + 3] >= MD2_NUM_NORMALS)
            return 1;
    return 0;
}

/* The parameters above are this instantiation's: the next one defines its
 * own. */
#undef SCAN
#undef SCAN_ATTR
#undef SCAN_BYTES
#undef SVEC
#undef s_zero
#undef s_load
#undef s_store
#undef s_max
#undef s_over
