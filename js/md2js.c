/*
 * md2js: the WebAssembly face of libmd2 for js/libmd2.mjs.
 *
 * The library's own functions that take only numbers and pointers are
 * exported as they are (the list is in js/build.mjs); these
 * wrappers cover the calls that take structs by pointer (options,
 * diagnostics, layouts, animations), so that the JavaScript side never
 * needs to know a struct's layout beyond the plain records it reads back
 * here: every record this file fills is an array of 32-bit words.
 *
 * No state lives here: a context (md2js_ctx_new()) holds the diagnostic of
 * the last failed call, and JavaScript owns every pointer it is given.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/mesh.h>
#include <md2/skin.h>
#include <md2/tags.h>

#include <stdlib.h>
#include <string.h>

#if defined(__wasm__)
#define MD2JS_EXPORT(name) __attribute__((export_name(#name)))
#else
#define MD2JS_EXPORT(name)
#endif

/* What one JavaScript module instance shares between its calls. */
typedef struct md2js_ctx {
    md2_diagnostic diag; /* the last failure */
    md2_options opts;    /* opts.error points at diag */
} md2js_ctx;

MD2JS_EXPORT(md2js_alloc) void *md2js_alloc(size_t size)
{
    return malloc(size ? size : 1);
}

MD2JS_EXPORT(md2js_free) void md2js_free(void *p)
{
    free(p);
}

MD2JS_EXPORT(md2js_ctx_new) md2js_ctx *md2js_ctx_new(void)
{
    md2js_ctx *c = (md2js_ctx *)calloc(1, sizeof *c);
    if (c)
        c->opts.error = &c->diag;
    return c;
}

/* A failure the wrappers themselves find (an allocation here). */
static void ctx_fail(md2js_ctx *c, md2_result r, const char *what)
{
    memset(&c->diag, 0, sizeof c->diag);
    c->diag.result = r;
    c->diag.field = "";
    strncpy(c->diag.message, what, sizeof c->diag.message - 1);
}

/* The last diagnostic as words: result, section, offset, index, line,
 * column, warning; its message and field by md2js_error_text(). */
MD2JS_EXPORT(md2js_error) void md2js_error(const md2js_ctx *c, uint32_t out[7])
{
    out[0] = (uint32_t)c->diag.result;
    out[1] = (uint32_t)c->diag.section;
    out[2] = (uint32_t)c->diag.offset;
    out[3] = (uint32_t)c->diag.index;
    out[4] = (uint32_t)c->diag.line;
    out[5] = (uint32_t)c->diag.column;
    out[6] = c->diag.warning;
}

/* 0: the message, 1: the field, 2: the section's name, 3: the result's text. */
MD2JS_EXPORT(md2js_error_text) const char *md2js_error_text(const md2js_ctx *c, int which)
{
    switch (which) {
    case 0: return c->diag.message;
    case 1: return c->diag.field ? c->diag.field : "";
    case 2: return md2_section_string(c->diag.section);
    default: return md2_result_string(c->diag.result);
    }
}

/* md2_parse() with strict flags; NULL on failure (the context says why). */
MD2JS_EXPORT(md2js_parse)
md2_model *md2js_parse(md2js_ctx *c, const void *data, size_t size, uint32_t strict)
{
    md2_model *m = NULL;
    c->opts.strict = strict;
    if (md2_parse(data, size, &c->opts, &m) != MD2_OK)
        return NULL;
    return m;
}

/* A model's counts: vertices, texcoords, triangles, frames, skins, GL
 * command words, skin width, skin height, warnings, bytes in memory. */
MD2JS_EXPORT(md2js_model_info) void md2js_model_info(const md2_model *m, uint32_t out[10])
{
    out[0] = (uint32_t)m->num_vertices;
    out[1] = (uint32_t)m->num_texcoords;
    out[2] = (uint32_t)m->num_triangles;
    out[3] = (uint32_t)m->num_frames;
    out[4] = (uint32_t)m->num_skins;
    out[5] = (uint32_t)m->num_glcmds;
    out[6] = (uint32_t)m->skin_width;
    out[7] = (uint32_t)m->skin_height;
    out[8] = m->warnings;
    out[9] = (uint32_t)md2_model_memory(m);
}

/* 0: skin i's path, 1: frame i's name (NUL-terminated; i in range). */
MD2JS_EXPORT(md2js_model_name) const char *md2js_model_name(const md2_model *m, int which, size_t i)
{
    return which == 0 ? m->skins[i].name : m->frames[i].name;
}

/* Animations: kind 0 from the frame names, 1 an .anm text, 2 a
 * .framegroups text, 3 the Quake II player table. A new array of them
 * (md2js_free()), its length in count[0] and the idle one's index
 * (md2_anim_idle()) in count[1]; NULL on failure (the context says why;
 * count[0] is 0). */
MD2JS_EXPORT(md2js_anims)
md2_anim *md2js_anims(md2js_ctx *c, const md2_model *m, int kind, const char *text,
                      size_t size, uint32_t count[2])
{
    size_t n = 0, i;
    md2_anim *out;
    md2_result r = MD2_OK;

    count[0] = count[1] = 0;
    c->opts.strict = 0;
    if (kind == 0) {
        n = m->num_frames;
    } else if (kind == 3) {
        (void)md2_anims_quake2_player(&n);
    } else {
        r = kind == 1 ? md2_parse_anm(text, size, m, &c->opts, NULL, 0, &n)
                      : md2_parse_framegroups(text, size, m, &c->opts, NULL, 0, &n);
        if (r != MD2_OK)
            return NULL;
    }
    out = (md2_anim *)calloc(n ? n : 1, sizeof *out);
    if (!out) {
        ctx_fail(c, MD2_ERR_OUT_OF_MEMORY, "out of memory for the animations");
        return NULL;
    }
    if (kind == 0) {
        n = md2_anims_from_names(m, out, n);
    } else if (kind == 3) {
        const md2_anim *table = md2_anims_quake2_player(&n);
        for (i = 0; i < n; i++)
            out[i] = table[i];
        r = md2_anims_validate(out, n, m, &c->diag);
    } else {
        r = kind == 1 ? md2_parse_anm(text, size, m, &c->opts, out, n, &n)
                      : md2_parse_framegroups(text, size, m, &c->opts, out, n, &n);
    }
    if (r != MD2_OK) {
        free(out);
        return NULL;
    }
    count[0] = (uint32_t)n;
    count[1] = n ? (uint32_t)md2_anim_idle(out, n) : 0;
    return out;
}

/* Animation i of an array: its name, and first, last, fps (as float bits)
 * and loop into out. */
MD2JS_EXPORT(md2js_anim) const char *md2js_anim(const md2_anim *a, size_t i, uint32_t out[4])
{
    out[0] = a[i].first;
    out[1] = a[i].last;
    memcpy(&out[2], &a[i].fps, 4);
    out[3] = (uint32_t)a[i].loop;
    return a[i].name;
}

/* A new player (md2js_free()), showing keyframe 0. */
MD2JS_EXPORT(md2js_player_new) md2_player *md2js_player_new(void)
{
    md2_player *p = (md2_player *)malloc(sizeof *p);
    if (p)
        md2_player_init(p);
    return p;
}

/* Plays keyframes first..last at fps (loop: whether it loops by default)
 * in a mode (md2_play_mode) at a rate (MD2_RATE_ANIM: fps). */
MD2JS_EXPORT(md2js_player_play)
md2_result md2js_player_play(md2_player *p, uint32_t first, uint32_t last, float fps, int loop,
                             int mode, float rate)
{
    md2_anim a;
    memset(&a, 0, sizeof a);
    a.first = first;
    a.last = last;
    a.fps = fps;
    a.loop = loop;
    return md2_player_play(p, &a, (md2_play_mode)mode, rate);
}

/* Cross-fades from what the player shows to keyframes first..last over
 * duration seconds (md2_player_crossfade()). */
MD2JS_EXPORT(md2js_player_crossfade)
md2_result md2js_player_crossfade(md2_player *p, uint32_t first, uint32_t last, float fps,
                                  int loop, int mode, float rate, float duration)
{
    md2_anim a;
    memset(&a, 0, sizeof a);
    a.first = first;
    a.last = last;
    a.fps = fps;
    a.loop = loop;
    return md2_player_crossfade(p, &a, (md2_play_mode)mode, rate, duration);
}

/* What the player shows: frame_a, frame_b, t (float bits), from_a,
 * from_b, from_t, weight, finished, and its position (float bits). */
MD2JS_EXPORT(md2js_player_state) void md2js_player_state(const md2_player *p, uint32_t out[9])
{
    md2_player_frames f;
    float pos = (float)md2_player_position(p);
    md2_player_state(p, &f);
    out[0] = f.frame_a;
    out[1] = f.frame_b;
    memcpy(&out[2], &f.t, 4);
    out[3] = f.from_a;
    out[4] = f.from_b;
    memcpy(&out[5], &f.from_t, 4);
    memcpy(&out[6], &f.weight, 4);
    out[7] = (uint32_t)md2_player_finished(p);
    memcpy(&out[8], &pos, 4);
}

/* md2_mesh_build() with flags (MD2_MESH_*); NULL on failure. */
MD2JS_EXPORT(md2js_mesh_build) md2_mesh *md2js_mesh_build(md2js_ctx *c, const md2_model *m, unsigned flags)
{
    md2_mesh_options o;
    md2_mesh *mesh = NULL;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    o.error = &c->diag;
    if (md2_mesh_build(m, &o, &mesh) != MD2_OK)
        return NULL;
    return mesh;
}

/* A mesh's vertices, indices, and the addresses of its indices, source
 * vertices and uv, and its bytes in memory. */
MD2JS_EXPORT(md2js_mesh_info) void md2js_mesh_info(const md2_mesh *mesh, uint32_t out[6])
{
    out[0] = (uint32_t)mesh->num_vertices;
    out[1] = (uint32_t)mesh->num_indices;
    out[2] = (uint32_t)(uintptr_t)mesh->indices;
    out[3] = (uint32_t)(uintptr_t)mesh->source_vertex;
    out[4] = (uint32_t)(uintptr_t)mesh->uv;
    out[5] = (uint32_t)md2_mesh_memory(mesh);
}

/* md2_mesh_lerp() into md2_layout_default(layout_flags): 8 floats a
 * welded vertex (position, normal, uv). */
MD2JS_EXPORT(md2js_mesh_lerp)
md2_result md2js_mesh_lerp(const md2_mesh *mesh, const md2_model *m, uint32_t a, uint32_t b,
                           float t, void *vertices, unsigned layout_flags)
{
    md2_vertex_layout layout = md2_layout_default(layout_flags);
    return md2_mesh_lerp(mesh, m, a, b, t, vertices, &layout);
}

/* Triangles from the farthest to the nearest to eye: vertices in
 * md2_layout_default() (as md2js_mesh_lerp() writes them), the order into
 * indices; scratch of md2_mesh_sort_scratch_size() bytes. */
MD2JS_EXPORT(md2js_mesh_sort)
md2_result md2js_mesh_sort(const md2_mesh *mesh, const void *vertices, const float eye[3],
                           uint32_t *indices, void *scratch, size_t scratch_size)
{
    md2_vertex_layout layout = md2_layout_default(0);
    return md2_mesh_sort_back_to_front(mesh, vertices, &layout, eye, indices, scratch,
                                       scratch_size);
}

/* md2_pcx_decode(); NULL on failure. */
MD2JS_EXPORT(md2js_pcx_decode)
md2_image *md2js_pcx_decode(md2js_ctx *c, const void *data, size_t size)
{
    md2_image *img = NULL;
    c->opts.strict = 0;
    if (md2_pcx_decode(data, size, &c->opts, &img) != MD2_OK)
        return NULL;
    return img;
}

/* An image's width, height and the address of its RGBA bytes. */
MD2JS_EXPORT(md2js_image_info) void md2js_image_info(const md2_image *img, uint32_t out[3])
{
    out[0] = img->width;
    out[1] = img->height;
    out[2] = (uint32_t)(uintptr_t)img->rgba;
}

/* md2_tags_parse(); NULL on failure. */
MD2JS_EXPORT(md2js_tags_parse)
md2_tags *md2js_tags_parse(md2js_ctx *c, const void *data, size_t size)
{
    md2_tags *tags = NULL;
    c->opts.strict = 0;
    if (md2_tags_parse(data, size, &c->opts, &tags) != MD2_OK)
        return NULL;
    return tags;
}

/* Tags: their count, frames, and the name of tag i (when i is in range). */
MD2JS_EXPORT(md2js_tags_info)
const char *md2js_tags_info(const md2_tags *tags, size_t i, uint32_t out[2])
{
    out[0] = (uint32_t)tags->num_tags;
    out[1] = (uint32_t)tags->num_frames;
    return i < tags->num_tags ? tags->names[i].name : "";
}
