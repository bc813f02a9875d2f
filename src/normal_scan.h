/*
 * The normal-index scan of the parser (md2__normal_scan_fn, format.h),
 * written once for every instruction set: normal_scan.c includes this file
 * once per instruction set with these defined (tier 2 of the private
 * headers):
 *
 *   SCAN(name)      the function name for this instruction set
 *   SCAN_ATTR       function attributes (a target), or nothing
 *   SCAN_BYTES      bytes of a vector (a multiple of 4)
 *   SVEC            a vector of SCAN_BYTES bytes
 *   s_zero()        a vector of zero bytes
 *   s_ones()        a vector of 0xFF bytes
 *   s_load(p), s_store(p, x)   SCAN_BYTES bytes from or to p, unaligned
 *   s_max(a, b), s_min(a, b)   the larger or smaller byte of a and b, lane
 *                   by lane
 *   s_top_max(m), s_top_min(m) the largest or smallest normal byte (the
 *                   4th of each 4) of m, as an unsigned
 *
 * SPDX-License-Identifier: MIT
 */

/* See md2__normal_scan_fn: one pass over the n vertices at v that keeps
 * the largest and the smallest byte of each position of a vector (2 running
 * maxima and minima), then reads the normal bytes' extremes: an index of
 * 162 or more makes the largest one so; one other than ref makes the
 * largest or the smallest one differ from ref. */
SCAN_ATTR static unsigned SCAN(normal_scan)(uint8_t *dst, const uint8_t *v, size_t n,
                                            unsigned ref)
{
    const size_t per = SCAN_BYTES / 4; /* vertices a vector */
    SVEC hi0 = s_zero(), hi1 = hi0, lo0 = s_ones(), lo1 = lo0;
    unsigned hi, lo;
    size_t i = 0;
    for (; i + 4 * per <= n; i += 4 * per) {
        const uint8_t *p = v + 4 * i;
        SVEC a = s_load(p), b = s_load(p + SCAN_BYTES);
        SVEC e = s_load(p + 2 * SCAN_BYTES), f = s_load(p + 3 * SCAN_BYTES);
        hi0 = s_max(hi0, s_max(a, b));
        hi1 = s_max(hi1, s_max(e, f));
        lo0 = s_min(lo0, s_min(a, b));
        lo1 = s_min(lo1, s_min(e, f));
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
        hi0 = s_max(hi0, a);
        lo0 = s_min(lo0, a);
        if (dst)
            s_store(dst + 4 * i, a);
    }
    if (i < n && n >= per) {
        /* the last vector's worth, again in part: the extremes do not
         * mind, and the bytes stored again are the same */
        SVEC a = s_load(v + 4 * (n - per));
        hi1 = s_max(hi1, a);
        lo1 = s_min(lo1, a);
        if (dst)
            s_store(dst + 4 * (n - per), a);
        i = n;
    }
    if (dst && i < n)
        memcpy(dst + 4 * i, v + 4 * i, 4 * (n - i));
    hi = s_top_max(s_max(hi0, hi1)); /* 0 and 255 when no vector was read */
    lo = s_top_min(s_min(lo0, lo1));
    for (; i < n; i++) { /* fewer vertices than a vector holds */
        unsigned x = v[4 * i + 3];
        hi = x > hi ? x : hi;
        lo = x < lo ? x : lo;
    }
    if (n == 0)
        return 0;
    return (hi >= MD2_NUM_NORMALS ? MD2_NSCAN_BAD : 0u) |
           (hi != ref || lo != ref ? MD2_NSCAN_OTHER : 0u);
}

/* The parameters above are this instantiation's: the next one defines its
 * own. */
#undef SCAN
#undef SCAN_ATTR
#undef SCAN_BYTES
#undef SVEC
#undef s_zero
#undef s_ones
#undef s_load
#undef s_store
#undef s_max
#undef s_min
#undef s_top_max
#undef s_top_min
