/*
 * md2 import: a source's scene (import.h) turned into what the builder
 * takes (import_cmd.h).
 *
 * - Axes: the scene is Y up, +Z forward (glTF; OBJ unless --up z), MD2 Z
 *   up, X forward: MD2 (x, y, z) = scene (z, x, y), the exact inverse of
 *   md2 export's glTF (x, y, z) = MD2 (y, z, x): no bit of a coordinate
 *   changes. With --up z the coordinates stay as they are.
 * - Size: every coordinate times the scale (--scale, or --height H over
 *   the first frame's height); a scale of 1 changes nothing.
 * - Winding: the scene's counter-clockwise corners (0, 1, 2) become MD2's
 *   clockwise (0, 2, 1).
 * - Welding: scene vertices whose positions have the same bits in every
 *   frame become one MD2 vertex, whatever their normals and texcoords (an
 *   MD2 vertex is one position and one normal a frame, its texcoords are
 *   the triangles'), its normal the mean of the distinct source normals
 *   met there (or none with --normals smooth: the builder's, from the
 *   geometry); corners with the same texcoord bits (after packing) one
 *   texcoord: hash tables, in the order vertices are first met.
 * - Skin: the images of the materials the triangles use; several are
 *   packed side by side, left to right in the order of the scene's images,
 *   their tops aligned, and their texcoords remapped (which then must lie
 *   in 0..1).
 * - Animations: the scene's, as read, name the frames (frames outside
 *   them "frame"); their rates go along for the .anm file and the summary.
 *
 * The result is the builder's own input, md2_build_input, filled in
 * place (imp_input: it and the arrays it points at).
 *
 * SPDX-License-Identifier: MIT
 */
#include "import_cmd.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void imp_error(const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fputs("md2 " IMPORT_CMD ": ", stderr);
    tool_put_clean(stderr, line);
    fputc('\n', stderr);
}

static uint32_t fnv(uint32_t h, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

/* A table of 2^k slots for n keys, each slot 0 (empty) or 1 + a key. */
static uint32_t *new_table(size_t n, size_t *mask)
{
    size_t size = 16;
    while (size < 2 * n && size < ((size_t)1 << 30))
        size *= 2;
    if (n >= size) /* over 2^30 keys: no room to probe (and no such model fits an MD2) */
        return NULL;
    *mask = size - 1;
    return (uint32_t *)calloc(size, sizeof(uint32_t));
}

/* Whether scene vertices a and b have the same position bits in every
 * frame, and (normals 1) the same normal bits too. */
static int same_vertex(const imp_scene *s, size_t a, size_t b, int normals)
{
    size_t f, nv = s->num_vertices;
    for (f = 0; f < s->num_frames; f++) {
        if (memcmp(s->positions + 3 * (f * nv + a), s->positions + 3 * (f * nv + b),
                   3 * sizeof(float)) != 0)
            return 0;
        if (normals && memcmp(s->normals + 3 * (f * nv + a), s->normals + 3 * (f * nv + b),
                              3 * sizeof(float)) != 0)
            return 0;
    }
    return 1;
}

static uint32_t vertex_hash(const imp_scene *s, size_t i, int normals)
{
    size_t f, nv = s->num_vertices;
    uint32_t h = 2166136261u;
    for (f = 0; f < s->num_frames; f++) {
        h = fnv(h, s->positions + 3 * (f * nv + i), 3 * sizeof(float));
        if (normals)
            h = fnv(h, s->normals + 3 * (f * nv + i), 3 * sizeof(float));
    }
    return h;
}

/* Welds the scene vertices that the triangles use (in corner order) by
 * their position bits in every frame, and their normal bits too when
 * normals is 1. map[v]: the welded vertex of scene vertex v
 * (UINT32_MAX for those not met); rep[w]: the scene vertex standing for
 * welded w, the first met. Returns the welded count, or (size_t)-1 when
 * out of memory. */
static size_t weld_pass(const imp_scene *s, int normals, uint32_t *map, uint32_t *rep)
{
    size_t mask, i, n = 0;
    uint32_t *table = new_table(s->num_vertices, &mask);
    if (!table)
        return (size_t)-1;
    for (i = 0; i < s->num_vertices; i++)
        map[i] = UINT32_MAX;
    for (i = 0; i < 3 * s->num_triangles; i++) {
        uint32_t v = s->triangles[2 * i];
        size_t slot;
        if (map[v] != UINT32_MAX)
            continue;
        slot = vertex_hash(s, v, normals) & mask;
        while (table[slot] && !same_vertex(s, rep[table[slot] - 1], v, normals))
            slot = (slot + 1) & mask;
        if (!table[slot]) {
            rep[n] = v;
            table[slot] = (uint32_t)++n;
        }
        map[v] = table[slot] - 1;
    }
    free(table);
    return n;
}

/* The welded vertices: map[v] the one of scene vertex v, by position
 * alone (an MD2 vertex is one position in every frame; its texcoords are
 * the corners', apart); rep[w] a scene vertex of welded w. With source
 * normals (not smooth), normals (nw * frames * 3, the scene's axes) gets
 * each welded vertex's normal in each frame: the mean of the distinct
 * normals met there (a scene vertex of the same position and normal bits
 * in every frame counts once, however many corners use it), of unit
 * length; where they cancel out (a sheet's two sides), the first one.
 * Returns the welded count, or (size_t)-1 when out of memory. */
static size_t weld_vertices(const imp_scene *s, int smooth, uint32_t *map, uint32_t *rep,
                            float **normals)
{
    size_t nw, nd, i, f, nv = s->num_vertices;
    uint32_t *dmap, *drep, *count;
    float *sum;
    *normals = NULL;
    nw = weld_pass(s, 0, map, rep);
    if (nw == (size_t)-1 || !s->normals || smooth)
        return nw;
    /* the distinct (position, normal) vertices, then their mean per welded one */
    dmap = (uint32_t *)malloc(nv * sizeof *dmap);
    drep = (uint32_t *)malloc(nv * sizeof *drep);
    count = (uint32_t *)calloc(nw + 1, sizeof *count);
    sum = (float *)calloc(s->num_frames * nw * 3 + 1, sizeof *sum);
    nd = dmap && drep && count && sum ? weld_pass(s, 1, dmap, drep) : (size_t)-1;
    if (nd == (size_t)-1) {
        free(dmap);
        free(drep);
        free(count);
        free(sum);
        return (size_t)-1;
    }
    for (i = 0; i < nd; i++)
        count[map[drep[i]]]++;
    for (f = 0; f < s->num_frames; f++) {
        float *out = sum + 3 * f * nw;
        for (i = 0; i < nd; i++) {
            const float *n = s->normals + 3 * (f * nv + drep[i]);
            float *o = out + 3 * (size_t)map[drep[i]];
            o[0] += n[0], o[1] += n[1], o[2] += n[2];
        }
        for (i = 0; i < nw; i++) {
            float *o = out + 3 * i;
            double len = sqrt((double)o[0] * o[0] + (double)o[1] * o[1] + (double)o[2] * o[2]);
            if (count[i] == 1)
                continue; /* the one normal there, as it is */
            if (len > 1e-6) {
                o[0] = (float)(o[0] / len), o[1] = (float)(o[1] / len), o[2] = (float)(o[2] / len);
            } else {
                memcpy(o, s->normals + 3 * (f * nv + rep[i]), 3 * sizeof(float));
            }
        }
    }
    free(dmap);
    free(drep);
    free(count);
    *normals = sum;
    return nw;
}

/* corner_uv (2 floats a corner) welded into uv (*count), each corner's
 * index into tex. Returns 0 when out of memory. */
static int weld_uv(const float *corner_uv, size_t corners, float *uv, size_t *count, uint32_t *tex)
{
    size_t mask, i, n = 0;
    uint32_t *table = new_table(corners, &mask);
    if (!table)
        return 0;
    for (i = 0; i < corners; i++) {
        const float *q = corner_uv + 2 * i;
        size_t slot = fnv(2166136261u, q, 2 * sizeof(float)) & mask;
        while (table[slot] && memcmp(uv + 2 * (table[slot] - 1), q, 2 * sizeof(float)) != 0)
            slot = (slot + 1) & mask;
        if (!table[slot]) {
            memcpy(uv + 2 * n, q, 2 * sizeof(float));
            table[slot] = (uint32_t)++n;
        }
        tex[i] = table[slot] - 1;
    }
    free(table);
    *count = n;
    return 1;
}

/* MD2 axes from the scene's: (z, x, y), or as they are with up_z. */
static void to_md2(const float *in, float *out, int up_z, double scale)
{
    float p[3];
    if (up_z) {
        p[0] = in[0], p[1] = in[1], p[2] = in[2];
    } else {
        p[0] = in[2], p[1] = in[0], p[2] = in[1];
    }
    if (scale != 1.0) {
        p[0] = (float)((double)p[0] * scale);
        p[1] = (float)((double)p[1] * scale);
        p[2] = (float)((double)p[2] * scale);
    }
    memcpy(out, p, sizeof p);
}

/* Whether an image reader's message (image.c's) is one to stop at rather
 * than go on without the texture: memory ran out (image.c's, the
 * library's, the system's words), or stb_image knew the image by its
 * header but could not decode its pixels, which its own messages do not
 * tell from memory running out (it tries each format in turn, and says
 * the last one's reason). A file that cannot be opened, or that is no
 * image stb_image or PCX knows, is a texture to go on without. */
static int ran_out(const char *err)
{
    return strstr(err, "out of memory") || strstr(err, "outofmem") ||
           strstr(err, "annot allocate memory") || strstr(err, "stb_image cannot read it (");
}

/* The most images a skin is packed from: each is read and decoded. */
#define IMP_MAX_IMAGES 256

/* The used images' sizes from their headers, before any is decoded: at
 * most IMP_MAX_IMAGES of them, and side by side within a skin's limits
 * (a 57 KB GLB of 40 images naming one 4096 x 4096 PNG took 2.7 GB
 * decoding them all before the packed skin was found too large). */
static int check_image_sizes(const char *source, const imp_scene *s, const unsigned char *used, size_t count)
{
    size_t i;
    double w = 0, h = 0;
    char err[600];
    const char *one = NULL; /* the label of the one image sized */
    if (count > IMP_MAX_IMAGES) {
        imp_error("%s: the model uses %lu textures, more than the %d a skin is packed from", source,
                  (unsigned long)count, IMP_MAX_IMAGES);
        return 0;
    }
    for (i = 0; i < s->num_images; i++) {
        const imp_image *im = &s->images[i];
        unsigned char *data = NULL;
        size_t size = im->size;
        long iw = 0, ih = 0;
        int ok;
        if (!used[i])
            continue;
        /* one that cannot be read or sized is load_images()'s to tell */
        if (!im->bytes && !tool_read_regular(im->path, (size_t)256 << 20, &data, &size, err, sizeof err))
            continue;
        ok = tool_image_size(im->label, im->bytes ? im->bytes : data, size, &iw, &ih, err, sizeof err);
        free(data);
        if (!ok)
            continue;
        one = im->label;
        w += (double)iw;
        if ((double)ih > h)
            h = (double)ih;
    }
    if ((w > 32768 || h > 32768 || w * h > (double)TOOL_MAX_SKIN_PIXELS) && count == 1) {
        imp_error("%s: the texture %s is a %.0fx%.0f image, over the limit of %lu pixels (and 32768 a side) "
                  "for a skin", source, one, w, h, (unsigned long)TOOL_MAX_SKIN_PIXELS);
        return 0;
    }
    if (w > 32768 || h > 32768 || w * h > (double)TOOL_MAX_SKIN_PIXELS) {
        imp_error("%s: the %lu textures side by side would make a %.0fx%.0f skin, over the limit of %lu "
                  "pixels (and 32768 a side) for a skin", source, (unsigned long)count, w, h, (unsigned long)TOOL_MAX_SKIN_PIXELS);
        return 0;
    }
    return 1;
}

/* The images the triangles use (used[i] = 1), decoded into imgs. One
 * that cannot be read is left out (used[i] = 0; its materials untextured)
 * and said in warn (warn_size bytes: the first such); so are all of them
 * when the scene has no texture coordinates to map them with. */
static int load_images(const char *source, const imp_scene *s, unsigned char *used,
                       tool_image *imgs, size_t *count, char *warn, size_t warn_size)
{
    size_t i;
    char err[600];
    *count = 0;
    if (!s->tri_material)
        return 1;
    if (s->num_texcoords == 0) {
        for (i = 0; i < s->num_triangles; i++) {
            uint32_t m = s->tri_material[i];
            if (m != IMP_NO_MATERIAL && m < s->num_materials && s->material_image[m] >= 0 &&
                (size_t)s->material_image[m] < s->num_images) {
                snprintf(warn, warn_size, "%s: material '%s' has the texture %s, but the model "
                         "has no texture coordinates to map it with: the model is made without "
                         "its texture (unwrap its UVs in Blender and export them)",
                         source, s->material_names[m], s->images[s->material_image[m]].label);
                return 1;
            }
        }
        return 1;
    }
    for (i = 0; i < s->num_triangles; i++) {
        uint32_t m = s->tri_material[i];
        if (m != IMP_NO_MATERIAL && m < s->num_materials && s->material_image[m] >= 0 &&
            (size_t)s->material_image[m] < s->num_images)
            used[s->material_image[m]] = 1;
    }
    for (i = 0; i < s->num_images; i++)
        *count += used[i];
    if (*count && !check_image_sizes(source, s, used, *count))
        return 0;
    *count = 0;
    for (i = 0; i < s->num_images; i++) {
        const imp_image *im = &s->images[i];
        int ok;
        if (!used[i])
            continue;
        if (im->bytes)
            ok = tool_image_decode(im->label, im->bytes, im->size, &imgs[i], err, sizeof err);
        else
            ok = tool_image_read(im->path, &imgs[i], err, sizeof err);
        if (!ok && ran_out(err)) { /* no reason to go on without the texture */
            imp_error("%s: the texture %s cannot be read: %s", source, im->label, err);
            return 0;
        }
        if (!ok) {
            if (!warn[0])
                snprintf(warn, warn_size, "%s: the texture %s cannot be read: %s: the model is "
                         "made without it (its materials untextured)", source, im->label, err);
            used[i] = 0;
            continue;
        }
        (*count)++;
    }
    return 1;
}

/* The skin from the used images: the one, or all side by side; x[i] the
 * left column of image i. */
static int pack_skin(const char *source, const imp_scene *s, const unsigned char *used, tool_image *imgs,
                     size_t count, tool_image *skin, uint32_t *x)
{
    size_t i, w = 0, h = 0, row;
    if (count == 1) {
        for (i = 0; i < s->num_images; i++) {
            if (used[i]) {
                *skin = imgs[i];
                memset(&imgs[i], 0, sizeof imgs[i]);
                x[i] = 0;
            }
        }
        return 1;
    }
    for (i = 0; i < s->num_images; i++) {
        if (!used[i])
            continue;
        x[i] = (uint32_t)w;
        w += (size_t)imgs[i].width;
        if ((size_t)imgs[i].height > h)
            h = (size_t)imgs[i].height;
        if (w > 32768) {
            imp_error("%s: the %lu textures side by side would be over 32768 pixels wide", source,
                      (unsigned long)count);
            return 0;
        }
    }
    /* the packed skin keeps the limits of one skin: checked before it is
     * allocated (a 1 x 4,000,000 texture beside a wide one would ask for
     * gigabytes) */
    if (h > 32768 || (double)w * (double)h > (double)TOOL_MAX_SKIN_PIXELS) {
        imp_error("%s: the %lu textures side by side would make a %lux%lu skin, over the limit of %lu "
                  "pixels (and 32768 a side) for a skin", source, (unsigned long)count, (unsigned long)w,
                  (unsigned long)h,
                   (unsigned long)TOOL_MAX_SKIN_PIXELS);
        return 0;
    }
    skin->rgba = (unsigned char *)calloc(w * h, 4);
    if (!skin->rgba) {
        tool_error(IMPORT_CMD, "out of memory");
        return 0;
    }
    skin->width = (int)w;
    skin->height = (int)h;
    for (i = 0; i < s->num_images; i++) {
        size_t iw = (size_t)imgs[i].width;
        if (!used[i])
            continue;
        for (row = 0; row < (size_t)imgs[i].height; row++)
            memcpy(skin->rgba + 4 * (row * w + x[i]), imgs[i].rgba + 4 * row * iw, 4 * iw);
    }
    return 1;
}

/* Each corner's uv on the skin (of in->skin_width x in->skin_height):
 * the scene's, remapped into its image's place when images are packed
 * (checked to lie in 0..1 there). */
static int corner_uvs(const char *source, const imp_scene *s, const tool_image *imgs,
                      const unsigned char *used, const uint32_t *x, int packed,
                      const md2_build_input *in, float *cuv)
{
    size_t i;
    for (i = 0; i < 3 * s->num_triangles; i++) {
        uint32_t t = s->triangles[2 * i + 1];
        size_t tri = i / 3;
        float u = 0, v = 0;
        if (s->num_texcoords > 0) {
            u = s->uv[2 * (size_t)t];
            v = s->uv[2 * (size_t)t + 1];
        }
        if (packed && s->tri_material && s->tri_material[tri] < s->num_materials &&
            s->material_image[s->tri_material[tri]] >= 0 &&
            (size_t)s->material_image[s->tri_material[tri]] < s->num_images &&
            used[s->material_image[s->tri_material[tri]]]) {
            uint32_t m = s->tri_material[tri];
            size_t im = (size_t)s->material_image[m];
            if (!(u >= 0.0f && u <= 1.0f && v >= 0.0f && v <= 1.0f)) {
                imp_error("%s: material '%s' (texture %s): triangle %lu has the texcoord (%g, %g), "
                          "outside 0..1: its texture is packed with others into one skin, where "
                          "it cannot repeat",
                          source, s->material_names[m], s->images[im].label, (unsigned long)tri,
                          (double)u, (double)v);
                return 0;
            }
            u = (float)(((double)x[im] + (double)u * imgs[im].width) / in->skin_width);
            v = (float)((double)v * imgs[im].height / in->skin_height);
        }
        cuv[2 * i] = u;
        cuv[2 * i + 1] = v;
    }
    return 1;
}

/* The frames' animations for the builder (in.anims) and their rates: the
 * scene's, in order, frames outside them named "frame" (at 10 fps). */
static int make_anims(const char *source, const imp_scene *s, imp_input *out)
{
    size_t i, at = 0, n = 0;
    out->anims = (md2_build_anim *)calloc(2 * s->num_anims + 1, sizeof *out->anims);
    out->anim_fps = (double *)calloc(2 * s->num_anims + 1, sizeof *out->anim_fps);
    if (!out->anims || !out->anim_fps) {
        tool_error(IMPORT_CMD, "out of memory");
        return 0;
    }
    for (i = 0; i <= s->num_anims; i++) {
        size_t first = i < s->num_anims ? s->anims[i].first_frame : s->num_frames;
        if (first < at || (i < s->num_anims && (s->anims[i].num_frames == 0 ||
                                                s->anims[i].num_frames > s->num_frames - first))) {
            tool_error(IMPORT_CMD, "%s: animation %lu's frames are not after the ones before",
                       source, (unsigned long)i);
            return 0;
        }
        if (first > at) {
            out->anims[n].name = "frame";
            out->anims[n].count = first - at;
            out->anim_fps[n++] = 10.0;
        }
        if (i == s->num_anims)
            break;
        out->anims[n].name = s->anims[i].name;
        out->anims[n].count = s->anims[i].num_frames;
        out->anim_fps[n++] = s->anims[i].fps;
        at = first + s->anims[i].num_frames;
    }
    out->in.anims = out->anims;
    out->in.num_anims = n;
    return 1;
}

/* The scale: opt->scale, or opt->height over the first frame's height. */
static int find_scale(const char *source, const imp_scene *s, const imp_make_options *opt,
                      double *scale)
{
    size_t i;
    float lo = 0, hi = 0;
    *scale = opt->scale;
    if (opt->height <= 0)
        return 1;
    for (i = 0; i < 3 * s->num_triangles; i++) {
        float p[3];
        to_md2(s->positions + 3 * (size_t)s->triangles[2 * i], p, opt->up_z, 1.0);
        if (i == 0 || p[2] < lo)
            lo = p[2];
        if (i == 0 || p[2] > hi)
            hi = p[2];
    }
    if (!(hi > lo)) {
        tool_error(IMPORT_CMD, "%s: --height: the first frame has no height to scale", source);
        return 0;
    }
    *scale = opt->height / ((double)hi - (double)lo);
    return 1;
}

/* 1 if s has triangles, each corner's vertex and texcoord in range; else
 * 0 after saying which is not. */
static int check_triangles(const char *source, const imp_scene *s)
{
    size_t i;
    if (s->num_triangles == 0) {
        tool_error(IMPORT_CMD, "%s: no triangles to make a model of", source);
        return 0;
    }
    for (i = 0; i < 3 * s->num_triangles; i++) {
        if (s->triangles[2 * i] >= s->num_vertices ||
            (s->num_texcoords > 0 && s->triangles[2 * i + 1] >= s->num_texcoords)) {
            tool_error(IMPORT_CMD, "%s: triangle %lu has an index out of range", source,
                       (unsigned long)(i / 3));
            return 0;
        }
    }
    return 1;
}

/* The skin (out->skin, out->skin_images, in.skin_width and skin_height)
 * from the images the triangles use (resized to opt's size when it has
 * one), or the size of opt (default IMP_DEFAULT_SKIN_SIZE) without any;
 * cuv: each corner's uv on it. */
static int make_skin(const char *source, const imp_scene *s, const imp_make_options *opt,
                     imp_input *out, float *cuv)
{
    unsigned char *used = (unsigned char *)calloc(s->num_images + 1, 1);
    tool_image *imgs = (tool_image *)calloc(s->num_images + 1, sizeof *imgs);
    uint32_t *x = (uint32_t *)calloc(s->num_images + 1, sizeof *x);
    size_t count = 0, i;
    int ok = 0;
    if (!used || !imgs || !x) {
        tool_error(IMPORT_CMD, "out of memory");
        goto done;
    }
    if (!load_images(source, s, used, imgs, &count, out->texture_warning,
                     sizeof out->texture_warning))
        goto done;
    out->skin_images = count;
    if (count > 0) {
        if (!pack_skin(source, s, used, imgs, count, &out->skin, x))
            goto done;
        out->in.skin_width = (uint32_t)out->skin.width;
        out->in.skin_height = (uint32_t)out->skin.height;
    } else {
        out->in.skin_width = opt->skin_width > 0 ? (uint32_t)opt->skin_width : IMP_DEFAULT_SKIN_SIZE;
        out->in.skin_height = opt->skin_height > 0 ? (uint32_t)opt->skin_height : IMP_DEFAULT_SKIN_SIZE;
    }
    ok = corner_uvs(source, s, imgs, used, x, count > 1, &out->in, cuv);
    if (ok && count > 0 && opt->skin_width > 0 &&
        (opt->skin_width != out->skin.width || opt->skin_height != out->skin.height)) {
        /* --skin-size: the texture resampled; the uvs, 0 to 1 across the
         * skin, stay as they are */
        tool_image small;
        if (!tool_image_resize(&out->skin, (int)opt->skin_width, (int)opt->skin_height, &small)) {
            tool_error(IMPORT_CMD, "out of memory resizing the skin to %ldx%ld", opt->skin_width,
                       opt->skin_height);
            ok = 0;
        } else {
            tool_image_free(&out->skin);
            out->skin = small;
            out->in.skin_width = (uint32_t)small.width;
            out->in.skin_height = (uint32_t)small.height;
        }
    }
done:
    if (imgs)
        for (i = 0; i < s->num_images; i++)
            tool_image_free(&imgs[i]);
    free(imgs);
    free(used);
    free(x);
    return ok;
}

/* The welded model: in.positions (MD2's axes, scaled), in.normals,
 * in.uv (cuv, each corner's uv, welded) and in.triangles (MD2's winding,
 * corners 0, 2, 1 of the scene's) with their counts. */
static int weld(const imp_scene *s, const imp_make_options *opt, double scale, const float *cuv,
                imp_input *out)
{
    size_t nv = s->num_vertices, nc = 3 * s->num_triangles, nw, i, f;
    uint32_t *map = (uint32_t *)malloc(nv * sizeof *map);
    uint32_t *rep = (uint32_t *)malloc(nv * sizeof *rep);
    uint32_t *tex = (uint32_t *)malloc(nc * sizeof *tex);
    float *mean = NULL; /* each welded vertex's normal in each frame, the scene's axes */
    int ok = 0;
    if (!map || !rep || !tex)
        goto done;
    nw = weld_vertices(s, opt->smooth_normals, map, rep, &mean);
    if (nw == (size_t)-1)
        goto done;
    out->uv = (float *)malloc(nc * 2 * sizeof *out->uv);
    if (!out->uv || !weld_uv(cuv, nc, out->uv, &out->in.num_texcoords, tex))
        goto done;
    out->triangles = (uint32_t *)malloc(nc * 2 * sizeof *out->triangles);
    out->positions = (float *)malloc(s->num_frames * nw * 3 * sizeof(float));
    if (mean)
        out->normals = (float *)malloc(s->num_frames * nw * 3 * sizeof(float));
    if (!out->triangles || !out->positions || (mean && !out->normals))
        goto done;
    for (i = 0; i < s->num_triangles; i++) {
        static const int order[3] = {0, 2, 1};
        int k;
        for (k = 0; k < 3; k++) {
            size_t c = 3 * i + (size_t)order[k];
            out->triangles[6 * i + 2 * (size_t)k] = map[s->triangles[2 * c]];
            out->triangles[6 * i + 2 * (size_t)k + 1] = tex[c];
        }
    }
    for (f = 0; f < s->num_frames; f++) {
        for (i = 0; i < nw; i++) {
            size_t from = 3 * (f * nv + rep[i]), to = 3 * (f * nw + i);
            to_md2(s->positions + from, out->positions + to, opt->up_z, scale);
            if (out->normals)
                to_md2(mean + to, out->normals + to, opt->up_z, 1.0);
        }
    }
    out->in.num_frames = s->num_frames;
    out->in.num_vertices = nw;
    out->in.positions = out->positions;
    out->in.normals = out->normals;
    out->in.num_triangles = s->num_triangles;
    out->in.triangles = out->triangles;
    out->in.uv = out->uv;
    ok = 1;
done:
    if (!ok)
        tool_error(IMPORT_CMD, "out of memory");
    free(map);
    free(rep);
    free(tex);
    free(mean);
    return ok;
}

int imp_make(const char *source, const imp_scene *s, const imp_make_options *opt, imp_input *out)
{
    float *cuv;
    double scale = 1;
    int ok;
    memset(out, 0, sizeof *out);
    if (!check_triangles(source, s))
        return 0;
    cuv = (float *)malloc(3 * s->num_triangles * 2 * sizeof *cuv);
    if (!cuv) {
        tool_error(IMPORT_CMD, "out of memory");
        return 0;
    }
    ok = find_scale(source, s, opt, &scale) && make_anims(source, s, out) &&
         make_skin(source, s, opt, out, cuv) && weld(s, opt, scale, cuv, out);
    free(cuv);
    if (!ok)
        imp_input_free(out);
    return ok;
}

void imp_input_free(imp_input *out)
{
    free(out->positions);
    free(out->normals);
    free(out->uv);
    free(out->triangles);
    free(out->anims);
    free(out->anim_fps);
    tool_image_free(&out->skin);
    memset(out, 0, sizeof *out);
}
