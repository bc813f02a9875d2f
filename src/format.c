/*
 * The format's shared facts: the section table and header field names of
 * the parser and the stream loader, the frame transform rule of the parser
 * and the writer, Quake II's limits and texture coordinates as uv.
 *
 * SPDX-License-Identifier: MIT
 */
#include "format.h"
#include "reserved.h"

#include <float.h>
#include <math.h>
#include <string.h>

const md2_section_desc md2__sections[MD2_NUM_SECTIONS] = {
    {MD2_SECTION_SKINS, MD2_H_NUM_SKINS, MD2_H_OFS_SKINS, MD2_SKIN_BYTES},
    {MD2_SECTION_TEXCOORDS, MD2_H_NUM_ST, MD2_H_OFS_ST, MD2_TEXCOORD_BYTES},
    {MD2_SECTION_TRIANGLES, MD2_H_NUM_TRIS, MD2_H_OFS_TRIS, MD2_TRIANGLE_BYTES},
    {MD2_SECTION_FRAMES, MD2_H_NUM_FRAMES, MD2_H_OFS_FRAMES, 0u},
    {MD2_SECTION_GLCMDS, MD2_H_NUM_GLCMDS, MD2_H_OFS_GLCMDS, MD2_GLCMD_WORD_BYTES},
};

const char *md2__header_field_name(int k)
{
    static const char *const names[MD2_H_COUNT] = {
        "ident", "version", "skinwidth", "skinheight", "framesize",
        "num_skins", "num_xyz", "num_st", "num_tris", "num_glcmds",
        "num_frames", "ofs_skins", "ofs_st", "ofs_tris", "ofs_frames",
        "ofs_glcmds", "ofs_end"};
    if (k < 0 || k >= MD2_H_COUNT)
        return "?";
    return names[k];
}

md2_limits md2_limits_quake2(void)
{
    md2_limits l;
    memset(&l, 0, sizeof l);
    l.max_skins = 32;
    l.max_vertices = 2048;
    l.max_texcoords = 2048 * 3;
    l.max_triangles = 4096;
    l.max_frames = 512;
    l.max_glcmds = 16384;
    return l;
}

/* The largest coordinate allowed, as a double object: the constant
 * MD2_MAX_COORD may be evaluated in long double on x87. */
static const double max_coord = MD2_MAX_COORD;

int md2__axis_ok(float scale, float translate)
{
    /* Does |scale| * 255 + |translate|, rounded to double, not exceed
     * max_coord? In double neither the products nor the sum can overflow.
     * The product is exact (32 significant bits); the sum is not, and x87
     * would round it to 64 bits first (and then to double, at worst
     * differently), so the test uses exact operations only. */
    double a = fabs((double)scale) * 255.0;
    double b = fabs((double)translate);
    double hi = a > b ? a : b, lo = a > b ? b : a, r, half_ulp, t;
    int e;

    /* the usual case, at once: 255 * 1e27 + 1e27 < 1e30 */
    if (fabsf(scale) <= 1e27f && fabsf(translate) <= 1e27f)
        return 1;
    if (!isfinite(scale) || !isfinite(translate) || !(hi <= max_coord))
        return 0;
    if (hi < 0.5 * max_coord) /* then lo + hi < max_coord */
        return 1;
    r = max_coord - hi; /* exact: hi is within a factor 2 of max_coord */
    if (lo <= r)
        return 1;
    /* lo + hi > max_coord: it rounds to max_coord below the midpoint
     * max_coord + half an ulp, that is lo < t = r + half_ulp (exact: a
     * multiple of half_ulp, which divides hi, and at most 2^53 of them), and
     * at the midpoint if max_coord's significand is even (ties to even) */
    (void)frexp(max_coord, &e);
    half_ulp = ldexp(1.0, e - DBL_MANT_DIG - 1);
    t = r + half_ulp;
    return lo < t || (lo == t && fmod(max_coord, 4.0 * half_ulp) == 0.0);
}

void md2_texcoord_uv(const md2_model *model, md2_texcoord st, float *u, float *v)
{
    float fu = 0.0f, fv = 0.0f;
    if (md2__reserved_model(model, NULL) != MD2_OK)
        model = NULL; /* answered as for NULL: 0, 0 */
    if (model && model->skin_width > 0)
        fu = (float)st.s / (float)model->skin_width;
    if (model && model->skin_height > 0)
        fv = (float)st.t / (float)model->skin_height;
    if (u)
        *u = fu;
    if (v)
        *v = fv;
}
