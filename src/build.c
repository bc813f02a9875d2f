/*
 * The builder (<md2/build.h>, docs/builder.md): md2_build() makes a model
 * from floats, md2_rebuild() makes one from a model.
 *
 * Both run in the same order: every check of their input, with its own
 * diagnostic, before anything is allocated (the limits of the chosen
 * profile among them); then one scratch allocation (triangles and
 * texcoords in the model's form, the sums of smooth normals, the check of
 * animation names, UFO:AI's welded vertices), the GL command strips
 * (src/strips.c) and the model's single allocation; then the frames, the
 * names and the header, written into the model; and only then the
 * warnings, so that a build that fails delivers none. The frames' own
 * work (boxes, quantisation, normals) is in build_frames.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "build_frames.h"
#include "reserved.h"
#include "round.h"
#include "strips.h"

#include "md2/animation.h"
#include "md2/build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BAD MD2_ERR_INVALID_ARGUMENT
#define LIMIT MD2_ERR_LIMIT_EXCEEDED

/* The flags each function takes. */
#define BUILD_FLAGS (MD2_BUILD_SHARED_BOX | MD2_BUILD_NO_GLCMDS | MD2_BUILD_ZERO_PAD | \
                     MD2_REBUILD_DROP_DEGENERATE)
#define REBUILD_ONLY (MD2_REBUILD_NORMALS | MD2_REBUILD_REQUANTIZE | MD2_REBUILD_GLCMDS)
#define ALL_FLAGS (BUILD_FLAGS | REBUILD_ONLY)

const char *md2_profile_string(md2_profile p)
{
    switch (p) {
    case MD2_PROFILE_FORMAT: return "format";
    case MD2_PROFILE_QUAKE2: return "Quake II";
    case MD2_PROFILE_YQUAKE2: return "yquake2";
    case MD2_PROFILE_UFOAI: return "UFO:AI";
    case MD2_PROFILE_Q2PRO: return "Q2PRO";
    case MD2_PROFILE_COUNT_: break;
    }
    return "unknown md2_profile";
}

/* ------------------------------------------------------------------------ */
/* Profiles: the limits of the engines (docs/builder.md has the sources)       */
/* ------------------------------------------------------------------------ */

/* What a profile limits. */
enum {
    L_VERTICES, L_TEXCOORDS, L_TRIANGLES, L_FRAMES, L_SKINS, L_SKIN_WIDTH, L_SKIN_HEIGHT,
    L_GLCMDS, L_WELDED, L_FILE, L_COUNT
};

/* Each limited quantity: the diagnostic's field, the noun of its message,
 * and the byte of the header field that holds it (0: none). */
static const struct item {
    const char *field;
    const char *noun;
    size_t offset;
} items[L_COUNT] = {
    {"num_vertices", "vertices", 24},
    {"num_texcoords", "texcoords", 28},
    {"num_triangles", "triangles", 32},
    {"num_frames", "frames", 40},
    {"num_skins", "skins", 20},
    {"skin_width", "pixels of skin width", 8},
    {"skin_height", "pixels of skin height", 12},
    {"num_glcmds", "GL command words", 36},
    {"welded_vertices", "welded vertices (distinct vertex and texcoord pairs)", 0},
    {"ofs_end", "bytes in the file", 64},
};

/* One limit of one engine: the quantity must lie in [min, max] (max 0: no
 * upper limit). */
typedef struct rule {
    md2_profile profile;
    int item;
    uint32_t min, max;
    const char *why;
} rule;

static const rule rules[] = {
    /* id Software's Quake II, as released in 2001 */
    {MD2_PROFILE_QUAKE2, L_VERTICES, 0, 2048,
     "MAX_VERTS in qcommon/qfiles.h; Mod_LoadAliasModel (ref_gl, ref_soft) refuses more"},
    {MD2_PROFILE_QUAKE2, L_TEXCOORDS, 1, 0,
     "Mod_LoadAliasModel (ref_gl, ref_soft) refuses a model without texcoords"},
    {MD2_PROFILE_QUAKE2, L_TRIANGLES, 1, 0,
     "Mod_LoadAliasModel (ref_gl, ref_soft) refuses a model without triangles"},
    {MD2_PROFILE_QUAKE2, L_TRIANGLES, 0, 4096, "MAX_TRIANGLES in qcommon/qfiles.h"},
    {MD2_PROFILE_QUAKE2, L_FRAMES, 0, 512, "MAX_FRAMES in qcommon/qfiles.h"},
    {MD2_PROFILE_QUAKE2, L_SKINS, 0, 32,
     "MAX_MD2SKINS in qcommon/qfiles.h: a model_t holds 32 skins and the loader writes past them"},
    {MD2_PROFILE_QUAKE2, L_SKIN_HEIGHT, 0, 480,
     "MAX_LBM_HEIGHT in ref_soft/r_local.h and ref_gl/gl_local.h; Mod_LoadAliasModel refuses a taller skin"},
    {MD2_PROFILE_QUAKE2, L_GLCMDS, 1, 0, "ref_gl draws a model from its GL commands only"},
    {MD2_PROFILE_QUAKE2, L_FILE, 0, 0x200000,
     "Mod_LoadModel's Hunk_Begin (0x200000) for an alias model in ref_gl/gl_model.c and ref_soft/r_model.c; Mod_LoadAliasModel's Hunk_Alloc of ofs_end overflows past it"},
    /* yquake2 */
    {MD2_PROFILE_YQUAKE2, L_VERTICES, 0, 2048,
     "MAX_VERTS in src/common/header/files.h; Mod_LoadMD2 refuses more"},
    {MD2_PROFILE_YQUAKE2, L_TEXCOORDS, 1, 0, "Mod_LoadMD2 refuses a model without texcoords"},
    {MD2_PROFILE_YQUAKE2, L_TRIANGLES, 1, 0, "Mod_LoadMD2 refuses a model without triangles"},
    {MD2_PROFILE_YQUAKE2, L_SKINS, 0, 32,
     "MAX_MD2SKINS in src/common/header/files.h; Mod_LoadMD2 ignores the skins past it"},
    {MD2_PROFILE_YQUAKE2, L_SKIN_HEIGHT, 0, 480,
     "MAX_LBM_HEIGHT in src/client/refresh/ref_shared.h; Mod_LoadMD2 refuses a taller skin"},
    {MD2_PROFILE_YQUAKE2, L_GLCMDS, 1, 0, "its OpenGL renderers draw a model from its GL commands"},
    /* UFO:AI */
    {MD2_PROFILE_UFOAI, L_VERTICES, 0, 2047,
     "R_ModLoadAliasMD2Mesh refuses num_verts >= MD2_MAX_VERTS (2048, src/common/qfiles.h)"},
    {MD2_PROFILE_UFOAI, L_TRIANGLES, 1, 0, "R_ModLoadAliasMD2Mesh refuses a model without triangles"},
    {MD2_PROFILE_UFOAI, L_TRIANGLES, 0, 4095,
     "R_ModLoadAliasMD2Mesh refuses num_tris >= MD2_MAX_TRIANGLES (4096, src/common/qfiles.h)"},
    {MD2_PROFILE_UFOAI, L_FRAMES, 0, 1023,
     "R_ModLoadAliasMD2Model refuses num_frames >= MD2_MAX_FRAMES (1024, src/common/qfiles.h)"},
    {MD2_PROFILE_UFOAI, L_SKINS, 1, 0,
     "R_ModLoadAliasMD2Mesh refuses a model without skins, but under models/soldiers/"},
    {MD2_PROFILE_UFOAI, L_SKINS, 0, 31,
     "R_ModLoadAliasMD2Mesh refuses num_skins >= MD2_MAX_SKINS (32, src/common/qfiles.h)"},
    {MD2_PROFILE_UFOAI, L_SKIN_WIDTH, 1, 0, "R_ModLoadAliasMD2Mesh refuses a skin size of 0"},
    {MD2_PROFILE_UFOAI, L_SKIN_HEIGHT, 1, 0, "R_ModLoadAliasMD2Mesh refuses a skin size of 0"},
    {MD2_PROFILE_UFOAI, L_WELDED, 0, 8191,
     "R_ModLoadAliasMD2Mesh refuses MAX_ALIAS_VERTS (8192, src/client/renderer/r_model_alias.h) or more"},
    /* Q2PRO: MOD_LoadMD2 and MOD_ValidateMD2 in src/refresh/models.c */
    {MD2_PROFILE_Q2PRO, L_VERTICES, 3, 0,
     "MOD_LoadMD2 (src/refresh/models.c) loads a model of fewer than 3 vertices as empty: it draws nothing"},
    {MD2_PROFILE_Q2PRO, L_VERTICES, 0, 2048,
     "MD2_MAX_VERTS in inc/format/md2.h; MOD_ValidateMD2 refuses more"},
    {MD2_PROFILE_Q2PRO, L_TEXCOORDS, 3, 0,
     "MOD_LoadMD2 loads a model of fewer than 3 texcoords as empty: it draws nothing"},
    {MD2_PROFILE_Q2PRO, L_TRIANGLES, 1, 0,
     "MOD_LoadMD2 loads a model without triangles as empty: it draws nothing"},
    {MD2_PROFILE_Q2PRO, L_TRIANGLES, 0, 6144,
     "TESS_MAX_INDICES / 3 (TESS_MAX_VERTICES 6144, src/refresh/gl.h); MOD_ValidateMD2 refuses more"},
    {MD2_PROFILE_Q2PRO, L_FRAMES, 0, 1024,
     "MD2_MAX_FRAMES in inc/format/md2.h; MOD_ValidateMD2 refuses more"},
    {MD2_PROFILE_Q2PRO, L_SKINS, 0, 32, "MD2_MAX_SKINS in inc/format/md2.h; MOD_ValidateMD2 refuses more"},
    {MD2_PROFILE_Q2PRO, L_SKIN_WIDTH, 1, 8192,
     "MAX_TEXTURE_SIZE (8192, src/refresh/images.h); MOD_ValidateMD2 refuses a skin width outside 1 to it"},
    {MD2_PROFILE_Q2PRO, L_SKIN_HEIGHT, 1, 8192,
     "MAX_TEXTURE_SIZE (8192, src/refresh/images.h); MOD_ValidateMD2 refuses a skin height outside 1 to it"},
    {MD2_PROFILE_Q2PRO, L_WELDED, 0, 6144,
     "MOD_LoadMD2 welds corners by vertex and texcoord values and refuses more than TESS_MAX_VERTICES (6144, src/refresh/gl.h)"},
};
#define NUM_RULES (sizeof rules / sizeof rules[0])

/* The quantities of the model to be made. */
typedef struct counts {
    size_t v[L_COUNT];
    int have_welded; /* v[L_WELDED] was counted (only when it can matter) */
    int have_file;   /* v[L_FILE] was counted (once the GL commands are) */
} counts;

static int rule_broken(const rule *r, const counts *c)
{
    size_t v = c->v[r->item];
    if ((r->item == L_WELDED && !c->have_welded) || (r->item == L_FILE && !c->have_file))
        return 0;
    return v < r->min || (r->max != 0 && v > r->max);
}

/* ------------------------------------------------------------------------ */
/* The job                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct job {
    const char *fn;                 /* "md2_build" or "md2_rebuild" */
    const md2_build_options *opts;
    md2_diagnostic *err;
    unsigned flags;
    md2_profile profile;
    md2_quantize quantize;          /* resolved: never MD2_QUANTIZE_DEFAULT when regridding */
    md2_allocator a;
    /* the model to be made */
    size_t num_frames, num_vertices, num_texcoords, num_skins, num_tris;
    uint32_t skin_width, skin_height;
    int new_glcmds;                 /* strips are made (else: kept or none) */
    size_t kept_glcmds;             /* md2_rebuild: words kept from the model */
    counts c;
    /* scratch */
    unsigned char *scratch;
    md2_triangle *tris;             /* the triangles to keep */
    md2_texcoord *st;               /* the texcoords */
    void *smooth;                   /* md2__normals_smooth() scratch, or NULL */
    float *decoded;                 /* md2_rebuild: one frame decoded (stable: all), or NULL */
    void *stable;                   /* md2__quantize_stable() scratch, or NULL */
    md2_anim *clips;                /* the animations of the stable grids, or NULL */
    md2_anim *anims_back;           /* md2_anims_from_names() of the result, or NULL */
    uint64_t *welded;               /* keys of the corners, or NULL */
    int32_t *words;                 /* new GL commands */
    size_t num_words;
} job;

static md2_result fail(const job *j, md2_result r, md2_section section, const char *field,
                       size_t offset, size_t index, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

static md2_result fail(const job *j, md2_result r, md2_section section, const char *field,
                       size_t offset, size_t index, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r = md2__vfail(j->err, r, section, field, offset, index, fmt, ap);
    va_end(ap);
    return r;
}

/* Records warning flag in m and hands it to on_warning (if set). */
static void warn(const job *j, md2_model *m, uint32_t flag, md2_section section,
                 const char *field, size_t offset, size_t index, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 8, 9)))
#endif
    ;

static void warn(const job *j, md2_model *m, uint32_t flag, md2_section section,
                 const char *field, size_t offset, size_t index, const char *fmt, ...)
{
    md2_diagnostic d;
    va_list ap;

    m->warnings |= flag;
    if (!j->opts || !j->opts->on_warning)
        return;
    md2__diag_clear(&d);
    d.warning = flag;
    d.section = section;
    d.field = field;
    d.offset = offset;
    d.index = index;
    va_start(ap, fmt);
    md2__vformat(&d, fmt, ap);
    va_end(ap);
    j->opts->on_warning(j->opts->warning_user, &d);
}

/* Sets up the job for opts and checks the options' reserved_ (the first
 * check after the NULL checks). */
static md2_result start(job *j, const char *fn, const md2_build_options *opts)
{
    memset(j, 0, sizeof *j);
    j->fn = fn;
    j->opts = opts;
    j->err = opts ? opts->error : NULL;
    j->flags = opts ? opts->flags : 0u;
    j->profile = opts ? opts->profile : MD2_PROFILE_FORMAT;
    j->quantize = opts ? opts->quantize : MD2_QUANTIZE_DEFAULT;
    j->a = md2__allocator(NULL);
    if (opts && opts->allocator.alloc && opts->allocator.free)
        j->a = opts->allocator;
    return md2__reserved_build_options(opts);
}

/* The flags (those of allowed) and the profile, after every reserved_
 * check. */
static md2_result check_flags(const job *j, const char *fn, unsigned allowed)
{
    if (j->flags & ~(unsigned)ALL_FLAGS)
        return fail(j, BAD, MD2_SECTION_NONE, "flags", 0, 0,
                    "%s: flags 0x%X has bits that are no MD2_BUILD_ or MD2_REBUILD_ flag (0x%X)",
                    fn, j->flags, j->flags & ~(unsigned)ALL_FLAGS);
    if (j->flags & ~allowed)
        return fail(j, BAD, MD2_SECTION_NONE, "flags", 0, 0,
                    "%s: flags 0x%X: MD2_REBUILD_NORMALS, _REQUANTIZE and _GLCMDS are for md2_rebuild(); md2_build() always computes what they ask for",
                    fn, j->flags);
    if ((j->flags & MD2_BUILD_NO_GLCMDS) && (j->flags & MD2_REBUILD_GLCMDS))
        return fail(j, BAD, MD2_SECTION_NONE, "flags", 0, 0,
                    "%s: flags ask for new GL commands (MD2_REBUILD_GLCMDS) and for none (MD2_BUILD_NO_GLCMDS)",
                    fn);
    if ((unsigned)j->profile >= (unsigned)MD2_PROFILE_COUNT_)
        return fail(j, BAD, MD2_SECTION_NONE, "profile", 0, 0,
                    "%s: profile %d is no md2_profile (0 to %d)", fn, (int)j->profile,
                    (int)MD2_PROFILE_COUNT_ - 1);
    if ((unsigned)j->quantize >= (unsigned)MD2_QUANTIZE_COUNT_)
        return fail(j, BAD, MD2_SECTION_NONE, "quantize", 0, 0,
                    "%s: quantize %d is no md2_quantize (0 to %d)", fn, (int)j->quantize,
                    (int)MD2_QUANTIZE_COUNT_ - 1);
    if ((j->flags & MD2_BUILD_SHARED_BOX) && j->quantize != MD2_QUANTIZE_DEFAULT &&
        j->quantize != MD2_QUANTIZE_SHARED)
        return fail(j, BAD, MD2_SECTION_NONE, "quantize", 0, 0,
                    "%s: flags ask for one shared box (MD2_BUILD_SHARED_BOX) and quantize for %s grids",
                    fn, j->quantize == MD2_QUANTIZE_STABLE ? "stable" : "per-frame");
    return MD2_OK;
}

/* The chosen profile's limits: the first one the model breaks is the
 * error. */
static md2_result check_profile(const job *j)
{
    size_t i;
    for (i = 0; i < NUM_RULES; i++) {
        const rule *r = &rules[i];
        const struct item *it = &items[r->item];
        size_t v = j->c.v[r->item];
        if (r->profile != j->profile || !rule_broken(r, &j->c))
            continue;
        return fail(j, LIMIT, MD2_SECTION_HEADER, it->field, it->offset, (size_t)r->profile,
                    "%s: %lu %s, %s %s's %s of %lu (%s)", j->fn, (unsigned long)v, it->noun,
                    v < r->min ? "fewer than" : "more than", md2_profile_string(r->profile),
                    v < r->min ? "minimum" : "limit",
                    (unsigned long)(v < r->min ? r->min : r->max), r->why);
    }
    return MD2_OK;
}

/* Every other engine's limit the model breaks: a warning each. */
static void warn_profiles(const job *j, md2_model *m)
{
    size_t i;
    for (i = 0; i < NUM_RULES; i++) {
        const rule *r = &rules[i];
        const struct item *it = &items[r->item];
        size_t v = j->c.v[r->item];
        if (r->profile == j->profile || !rule_broken(r, &j->c))
            continue;
        warn(j, m, MD2_WARN_PROFILE_LIMIT, MD2_SECTION_HEADER, it->field, it->offset,
             (size_t)r->profile, "%s: %lu %s, %s its %s of %lu (%s)",
             md2_profile_string(r->profile), (unsigned long)v, it->noun,
             v < r->min ? "fewer than" : "more than", v < r->min ? "minimum" : "limit",
             (unsigned long)(v < r->min ? r->min : r->max), r->why);
    }
}

/* The format's bound on the file: every offset, ofs_end included, is a
 * signed 32-bit integer. Counts in file order; the field of the first one
 * that takes the file past the bound is the error's. */
static md2_result check_file_size(const job *j, size_t glcmds)
{
    const size_t count[5] = {j->num_skins, j->num_texcoords, j->num_tris, j->num_frames,
                             glcmds};
    const uint64_t elem[5] = {64, 4, 12, 40 + 4 * (uint64_t)j->num_vertices, 4};
    static const char *const fields[5] = {"num_skins", "num_texcoords", "num_triangles",
                                          "num_frames", "num_glcmds"};
    uint64_t size = MD2_HEADER_SIZE;
    int i;

    for (i = 0; i < 5; i++) {
        /* elem < 2^19 and a count <= 2^31: no overflow */
        if ((uint64_t)count[i] <= MD2_MAX_DATA_SIZE)
            size += (uint64_t)count[i] * elem[i];
        if ((uint64_t)count[i] > MD2_MAX_DATA_SIZE || size > MD2_MAX_DATA_SIZE)
            return fail(j, LIMIT, MD2_SECTION_HEADER, fields[i], 0, 0,
                        "%s: %s is %lu: the file would pass 2^31 - 1 bytes, the most an MD2 file can hold (%lu skins, %lu texcoords, %lu triangles, %lu frames of %lu vertices)",
                        j->fn, fields[i], (unsigned long)count[i], (unsigned long)j->num_skins,
                        (unsigned long)j->num_texcoords, (unsigned long)j->num_tris,
                        (unsigned long)j->num_frames, (unsigned long)j->num_vertices);
    }
    return MD2_OK;
}

/* ------------------------------------------------------------------------ */
/* Scratch                                                                   */
/* ------------------------------------------------------------------------ */

/* Reserves count * elem bytes, 8-aligned, after *total; SIZE_MAX on
 * overflow. */
static size_t reserve(size_t *total, size_t count, size_t elem)
{
    size_t at = (*total + 7u) & ~(size_t)7u;
    if (*total == SIZE_MAX || at < *total || (count != 0 && elem > (SIZE_MAX - at) / count)) {
        *total = SIZE_MAX;
        return 0;
    }
    *total = at + count * elem;
    return at;
}

/* What the scratch holds: byte offsets (0 and a zero size: absent). */
typedef struct scratch_plan {
    size_t tris, st, smooth, decoded, anims, stable, welded, total;
} scratch_plan;

static md2_result alloc_scratch(job *j, const scratch_plan *p)
{
    if (p->total == SIZE_MAX)
        return fail(j, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                    "%s: the scratch memory's size does not fit in memory", j->fn);
    if (p->total == 0)
        return MD2_OK;
    j->scratch = (unsigned char *)j->a.alloc(j->a.user, p->total);
    if (!j->scratch)
        return fail(j, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                    "%s: allocating %lu bytes of scratch memory failed", j->fn,
                    (unsigned long)p->total);
    return MD2_OK;
}

/* The scratch at byte offset at (NULL without scratch). */
static void *scratch_at(const job *j, size_t at)
{
    return j->scratch ? (void *)(j->scratch + at) : NULL;
}

static void release(job *j)
{
    if (j->words)
        j->a.free(j->a.user, j->words);
    if (j->scratch)
        j->a.free(j->a.user, j->scratch);
    j->words = NULL;
    j->scratch = NULL;
}

/* UFO:AI and Q2PRO weld the corners of the triangles by vertex and
 * texcoord values; their limits matter only when the corners could reach
 * them and the triangles are within the engines' own limit. */
static int welded_matters(const job *j)
{
    /* the lowest welded limit is Q2PRO's 6144; past 6144 triangles every
     * engine with a welded limit refuses the triangles already */
    return 3 * j->num_tris > 6144 && j->num_tris <= 6144;
}

static int compare_keys(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void count_welded(job *j)
{
    size_t i, n = 3 * j->num_tris, distinct = 0;
    int k;
    for (i = 0; i < j->num_tris; i++) {
        for (k = 0; k < 3; k++) {
            const md2_texcoord *t = &j->st[j->tris[i].texcoord[k]];
            j->welded[3 * i + (size_t)k] = ((uint64_t)j->tris[i].vertex[k] << 32) |
                                           ((uint64_t)(uint16_t)t->s << 16) |
                                           (uint64_t)(uint16_t)t->t;
        }
    }
    qsort(j->welded, n, sizeof *j->welded, compare_keys);
    for (i = 0; i < n; i++)
        distinct += i == 0 || j->welded[i] != j->welded[i - 1];
    j->c.v[L_WELDED] = distinct;
    j->c.have_welded = 1;
}

/* The new GL commands, the file's size with them, and UFO:AI's welded
 * limit: what needs the scratch (filled in) but comes before the model. */
static md2_result before_model(job *j)
{
    if (j->welded) {
        count_welded(j);
        MD2_TRY(check_profile(j));
    }
    if (j->new_glcmds) {
        /* on checked input it fails only for want of memory */
        md2_result r = md2__strips_build(j->tris, j->num_tris, j->st, j->num_texcoords,
                                         j->num_vertices, j->skin_width, j->skin_height, j->a,
                                         &j->words, &j->num_words);
        if (r != MD2_OK)
            return fail(j, r, MD2_SECTION_GLCMDS, "glcmds", 0, 0,
                        "%s: making the GL commands of %lu triangles failed: %s", j->fn,
                        (unsigned long)j->num_tris, md2_result_string(r));
    }
    MD2_TRY(check_file_size(j, j->new_glcmds ? j->num_words : j->kept_glcmds));
    /* the file's size, now known: Quake II's hunk for it */
    j->c.v[L_FILE] = (size_t)(MD2_HEADER_SIZE + 64 * (uint64_t)j->num_skins +
                              4 * (uint64_t)j->num_texcoords + 12 * (uint64_t)j->num_tris +
                              (40 + 4 * (uint64_t)j->num_vertices) * j->num_frames +
                              4 * (uint64_t)(j->new_glcmds ? j->num_words : j->kept_glcmds));
    j->c.have_file = 1;
    return check_profile(j);
}

/* ------------------------------------------------------------------------ */
/* The model                                                                 */
/* ------------------------------------------------------------------------ */

/* Allocates the model for the job's counts with num_glcmds words and sets
 * its counts, pointers and header (as md2_write() writes it). */
static md2_result alloc_model(job *j, size_t num_glcmds, md2_model **out)
{
    md2_layout l;
    md2_model *m;
    unsigned char *base;
    md2_frame *frames;
    md2_vertex *verts;
    md2_header *h;
    size_t f;

    if (!md2__layout(&l, j->num_skins, j->num_vertices, j->num_texcoords, j->num_tris,
                     j->num_frames, num_glcmds))
        return fail(j, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                    "%s: the model's size does not fit in memory", j->fn);
    m = (md2_model *)j->a.alloc(j->a.user, l.total);
    if (!m)
        return fail(j, MD2_ERR_OUT_OF_MEMORY, MD2_SECTION_NONE, "", 0, 0,
                    "%s: allocating %lu bytes for the model failed", j->fn,
                    (unsigned long)l.total);
    memset(m, 0, sizeof *m);
    base = (unsigned char *)m;
    frames = (md2_frame *)(void *)(base + l.frames);
    verts = (md2_vertex *)(void *)(base + l.vertices);
    memset(frames, 0, j->num_frames * sizeof *frames);
    for (f = 0; f < j->num_frames; f++)
        frames[f].vertices = verts + f * j->num_vertices;
    m->skin_width = (int32_t)j->skin_width;
    m->skin_height = (int32_t)j->skin_height;
    m->num_skins = j->num_skins;
    m->num_vertices = j->num_vertices;
    m->num_texcoords = j->num_texcoords;
    m->num_triangles = j->num_tris;
    m->num_frames = j->num_frames;
    m->num_glcmds = num_glcmds;
    m->skins = j->num_skins ? (const md2_skin *)(const void *)(base + l.skins) : NULL;
    m->texcoords = j->num_texcoords ? (const md2_texcoord *)(const void *)(base + l.texcoords)
                                    : NULL;
    m->triangles = j->num_tris ? (const md2_triangle *)(const void *)(base + l.triangles)
                               : NULL;
    m->frames = frames;
    m->glcmds = num_glcmds ? (const int32_t *)(const void *)(base + l.glcmds) : NULL;
    m->allocator = j->a;
    /* the header md2_write() writes (checked before: all below 2^31) */
    h = &m->header;
    h->ident = MD2_IDENT;
    h->version = MD2_FILE_VERSION;
    h->skinwidth = m->skin_width;
    h->skinheight = m->skin_height;
    h->framesize = (int32_t)(MD2_FRAME_HEADER_SIZE + 4 * j->num_vertices);
    h->num_skins = (int32_t)j->num_skins;
    h->num_xyz = (int32_t)j->num_vertices;
    h->num_st = (int32_t)j->num_texcoords;
    h->num_tris = (int32_t)j->num_tris;
    h->num_glcmds = (int32_t)num_glcmds;
    h->num_frames = (int32_t)j->num_frames;
    h->ofs_skins = MD2_HEADER_SIZE;
    h->ofs_st = h->ofs_skins + MD2_SKIN_NAME_SIZE * h->num_skins;
    h->ofs_tris = h->ofs_st + 4 * h->num_st;
    h->ofs_frames = h->ofs_tris + 12 * h->num_tris;
    h->ofs_glcmds = h->ofs_frames + h->framesize * h->num_frames;
    h->ofs_end = h->ofs_glcmds + 4 * h->num_glcmds;
    *out = m;
    return MD2_OK;
}

/* The model's writable arrays (it is const to its users only). */
static md2_frame *frames_of(md2_model *m) { return (md2_frame *)(void *)(uintptr_t)m->frames; }

static md2_vertex *vertices_of(md2_model *m, size_t f)
{
    return (md2_vertex *)(void *)(uintptr_t)m->frames[f].vertices;
}

static void copy_common(const job *j, md2_model *m)
{
    if (j->num_texcoords)
        memcpy((void *)(uintptr_t)m->texcoords, j->st, j->num_texcoords * sizeof *j->st);
    if (j->num_tris)
        memcpy((void *)(uintptr_t)m->triangles, j->tris, j->num_tris * sizeof *j->tris);
}

/* ------------------------------------------------------------------------ */
/* Animation names                                                           */
/* ------------------------------------------------------------------------ */

/* Decimal digits of v (at least 1). */
static int digits_of(size_t v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

/* Bytes of name before its NUL, counting at most max + 1. */
static size_t bounded_length(const char *name, size_t max)
{
    size_t n = 0;
    while (n <= max && name[n] != '\0')
        n++;
    return n;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* How many bytes of an animation's name its frames keep: room for the
 * number of its last frame, and for a '_' before it (*sep 1) when the
 * kept name ends in a digit, so that the name's digits and the frame's
 * number stay apart ("attack2" of 10 frames: attack2_1 .. attack2_10, not
 * attack21 .. attack210, which md2_anims_from_names() reads as two). */
static size_t kept_name_bytes(const md2_build_anim *a, int *sep)
{
    size_t room = MD2_FRAME_NAME_SIZE - 1 - (size_t)digits_of(a->count);
    size_t len = bounded_length(a->name, room);
    size_t keep = len < room ? len : room;
    *sep = 0;
    if (keep > 0 && is_digit(a->name[keep - 1])) {
        if (keep == room)
            keep--; /* the separator takes the last byte */
        *sep = keep > 0 && is_digit(a->name[keep - 1]);
    }
    return keep;
}

/* kept_name_bytes() without the separator's flag. */
static size_t kept_bytes(const md2_build_anim *a)
{
    int sep;
    return kept_name_bytes(a, &sep);
}

/* The default names: one animation "frame" of every frame. */
static md2_build_anim default_anim(size_t num_frames)
{
    md2_build_anim a;
    memset(&a, 0, sizeof a);
    a.name = "frame";
    a.count = num_frames;
    return a;
}

/* Names frames from the animations: name, then the 1-based number within
 * it (zero-padded to the width of the last with MD2_BUILD_ZERO_PAD). */
static void name_from_anims(const job *j, const md2_build_anim *anims, size_t num_anims,
                            md2_frame *frames)
{
    size_t k, f = 0;
    for (k = 0; k < num_anims; k++) {
        const md2_build_anim *a = &anims[k];
        int sep;
        size_t keep = kept_name_bytes(a, &sep), i;
        int width = (j->flags & MD2_BUILD_ZERO_PAD) ? digits_of(a->count) : 1;
        for (i = 1; i <= a->count; i++, f++) {
            char *name = frames[f].name;
            int nd = digits_of(i), pad = width > nd ? width - nd : 0, d;
            size_t v = i;
            size_t at = keep + (size_t)sep;
            memcpy(name, a->name, keep);
            if (sep)
                name[keep] = '_';
            memset(name + at, '0', (size_t)pad);
            for (d = nd - 1; d >= 0; d--, v /= 10)
                name[at + (size_t)pad + (size_t)d] = (char)('0' + (int)(v % 10u));
        }
    }
}

/* The animations' warnings, with the model complete: names cut, and
 * animations that md2_anims_from_names() does not give back. */
static void warn_anims(const job *j, md2_model *m, const md2_build_anim *anims,
                       size_t num_anims)
{
    size_t k, o = 0, first = 0, count, reported = (size_t)-1;

    for (k = 0; k < num_anims; k++) {
        const md2_build_anim *a = &anims[k];
        size_t keep = kept_bytes(a);
        if (a->name[keep] != '\0')
            warn(j, m, MD2_WARN_NAME_CUT, MD2_SECTION_FRAMES, "anims", 0, k,
                 "animation %lu ('%.16s...') is cut to '%.*s' so that its frame names, number included, fit 16 bytes",
                 (unsigned long)k, a->name, (int)keep, a->name);
    }
    count = md2_anims_from_names(m, j->anims_back, j->num_frames);
    for (k = 0; k < num_anims; first += anims[k].count, k++) {
        const md2_build_anim *a = &anims[k];
        size_t last = first + a->count - 1, keep = kept_bytes(a), parts = 0, p;
        const md2_anim *back;
        while (o < count && j->anims_back[o].last < first)
            o++;
        if (o >= count)
            break; /* cannot happen: the animations cover every frame */
        back = &j->anims_back[o];
        if (back->first < first || back->last > last) {
            /* merged with a neighbour: once for each merged animation */
            size_t other = back->first < first ? k - 1 : k + 1;
            if (reported != o && other < num_anims)
                warn(j, m, MD2_WARN_ANIM_NAMES, MD2_SECTION_FRAMES, "anims", 0, k,
                     "animations %lu ('%.*s') and %lu ('%.*s') come back from the frame names as one, '%s' (frames %lu-%lu): md2_anims_from_names() merges them",
                     (unsigned long)(other < k ? other : k),
                     (int)kept_bytes(&anims[other < k ? other : k]),
                     anims[other < k ? other : k].name, (unsigned long)(other < k ? k : other),
                     (int)kept_bytes(&anims[other < k ? k : other]),
                     anims[other < k ? k : other].name, back->name, (unsigned long)back->first,
                     (unsigned long)back->last);
            reported = o;
            continue;
        }
        for (p = o; p < count && j->anims_back[p].last <= last; p++)
            parts++;
        if (parts > 1)
            warn(j, m, MD2_WARN_ANIM_NAMES, MD2_SECTION_FRAMES, "anims", 0, k,
                 "animation %lu ('%.*s', frames %lu-%lu) comes back from the frame names as %lu animations, the first '%s' (frames %lu-%lu): md2_anims_from_names() splits it",
                 (unsigned long)k, (int)keep, a->name, (unsigned long)first,
                 (unsigned long)last, (unsigned long)parts, back->name,
                 (unsigned long)back->first, (unsigned long)back->last);
        else if (strlen(back->name) != keep || memcmp(back->name, a->name, keep) != 0)
            warn(j, m, MD2_WARN_ANIM_NAMES, MD2_SECTION_FRAMES, "anims", 0, k,
                 "animation %lu ('%.*s') comes back from the frame names as '%s'",
                 (unsigned long)k, (int)keep, a->name, back->name);
    }
}

/* ------------------------------------------------------------------------ */
/* md2_build: the input's checks                                             */
/* ------------------------------------------------------------------------ */

/* The largest coordinate, as a float object (the constant may be
 * evaluated in a wider type). */
static const float max_coord = (float)MD2_BUILD_MAX_COORD;

static const char axis_name[3] = {'x', 'y', 'z'};

static md2_result check_counts(job *j, const md2_build_input *in)
{
    if (in->num_frames == 0)
        return fail(j, BAD, MD2_SECTION_NONE, "num_frames", 0, 0,
                    "%s: num_frames is 0; a model needs a frame", j->fn);
    if (in->num_vertices == 0)
        return fail(j, BAD, MD2_SECTION_NONE, "num_vertices", 0, 0,
                    "%s: num_vertices is 0; a model needs vertices", j->fn);
    if (in->num_vertices > MD2_MAX_INDEXABLE || in->num_texcoords > MD2_MAX_INDEXABLE) {
        int xyz = in->num_vertices > MD2_MAX_INDEXABLE;
        return fail(j, LIMIT, MD2_SECTION_NONE, xyz ? "num_vertices" : "num_texcoords", 0, 0,
                    "%s: %s is %lu, more than the %d a 16-bit triangle index can address",
                    j->fn, xyz ? "num_vertices" : "num_texcoords",
                    (unsigned long)(xyz ? in->num_vertices : in->num_texcoords),
                    MD2_MAX_INDEXABLE);
    }
    if (in->skin_width == 0 || in->skin_height == 0 || in->skin_width > 0x7FFFFFFFu ||
        in->skin_height > 0x7FFFFFFFu) {
        int w = in->skin_width == 0 || in->skin_width > 0x7FFFFFFFu;
        uint32_t v = w ? in->skin_width : in->skin_height;
        return fail(j, BAD, MD2_SECTION_NONE, w ? "skin_width" : "skin_height", 0, 0,
                    "%s: %s is %lu; a skin size must be 1 to 2^31 - 1", j->fn,
                    w ? "skin_width" : "skin_height", (unsigned long)v);
    }
    j->num_frames = in->num_frames;
    j->num_vertices = in->num_vertices;
    j->num_texcoords = in->num_texcoords;
    j->num_skins = in->num_skins;
    j->num_tris = in->num_triangles;
    j->skin_width = in->skin_width;
    j->skin_height = in->skin_height;
    return check_file_size(j, 0);
}

/* The pointer and strides of rows of 3 floats per vertex and frame: float
 * alignment, strides in floats (a vertex stride at least 12 bytes), and
 * the extent addressable. Fills in the strides 0 stands for. */
static md2_result check_rows(const job *j, const char *field, const float *base,
                             size_t *vstride, size_t *fstride, const char *vfield,
                             const char *ffield)
{
    size_t n = j->num_vertices, frames = j->num_frames;
    if ((uintptr_t)base % sizeof(float) != 0)
        return fail(j, BAD, MD2_SECTION_FRAMES, field, 0, 0,
                    "%s: %s is not aligned for float", j->fn, field);
    if (*vstride == 0)
        *vstride = 3 * sizeof(float);
    else if (*vstride < 3 * sizeof(float) || *vstride % sizeof(float) != 0)
        return fail(j, BAD, MD2_SECTION_NONE, vfield, 0, 0,
                    "%s: %s is %lu; a stride is 0 or a multiple of 4 bytes of at least 12",
                    j->fn, vfield, (unsigned long)*vstride);
    if (*fstride == 0) {
        if (n > SIZE_MAX / *vstride)
            return fail(j, BAD, MD2_SECTION_NONE, vfield, 0, 0,
                        "%s: %lu vertices of %s %lu bytes do not fit in memory", j->fn,
                        (unsigned long)n, vfield, (unsigned long)*vstride);
        *fstride = n * *vstride;
    } else if (*fstride % sizeof(float) != 0) {
        return fail(j, BAD, MD2_SECTION_NONE, ffield, 0, 0,
                    "%s: %s is %lu; a stride is 0 or a multiple of 4 bytes", j->fn, ffield,
                    (unsigned long)*fstride);
    }
    /* the bytes addressed, (frames - 1) * fstride + (n - 1) * vstride + 12,
     * must fit one object (at most PTRDIFF_MAX bytes) */
    if ((n - 1) > ((size_t)PTRDIFF_MAX - 12) / *vstride ||
        (frames - 1) > ((size_t)PTRDIFF_MAX - 12 - (n - 1) * *vstride) / *fstride)
        return fail(j, BAD, MD2_SECTION_NONE, ffield, 0, 0,
                    "%s: %lu frames of %s %lu bytes do not fit in memory", j->fn,
                    (unsigned long)frames, ffield, (unsigned long)*fstride);
    return MD2_OK;
}

/* Every coordinate of every frame finite (and, for positions, within
 * MD2_BUILD_MAX_COORD). */
static md2_result check_floats(const job *j, const char *field, const float *base,
                               size_t vstride, size_t fstride, int bounded)
{
    size_t f, i;
    int k;
    for (f = 0; f < j->num_frames; f++) {
        for (i = 0; i < j->num_vertices; i++) {
            size_t at = f * fstride + i * vstride;
            const float *p = (const float *)(const void *)((const char *)base + at);
            for (k = 0; k < 3; k++) {
                float x = p[k];
                if (isfinite(x) && (!bounded || fabsf(x) <= max_coord))
                    continue;
                return fail(j, BAD, MD2_SECTION_FRAMES, field, at + 4 * (size_t)k, f,
                            "%s: %s of frame %lu, vertex %lu: %c is %g (byte %lu from %s); %s",
                            j->fn, field, (unsigned long)f, (unsigned long)i, axis_name[k],
                            (double)x, (unsigned long)(at + 4 * (size_t)k), field,
                            bounded ? "a coordinate must be finite and within 1e29 (MD2_BUILD_MAX_COORD)"
                                    : "a normal must be finite");
            }
        }
    }
    return MD2_OK;
}

static md2_result check_triangles(job *j, const md2_build_input *in)
{
    size_t i, flat = 0;
    int k;
    if (in->num_triangles == 0)
        return MD2_OK;
    if (!in->triangles)
        return fail(j, BAD, MD2_SECTION_TRIANGLES, "triangles", 0, 0,
                    "%s: triangles is NULL but num_triangles is %lu", j->fn,
                    (unsigned long)in->num_triangles);
    if ((uintptr_t)in->triangles % sizeof(uint32_t) != 0)
        return fail(j, BAD, MD2_SECTION_TRIANGLES, "triangles", 0, 0,
                    "%s: triangles is not aligned for uint32_t", j->fn);
    for (i = 0; i < in->num_triangles; i++) {
        const uint32_t *t = in->triangles + 6 * i;
        for (k = 0; k < 3; k++) {
            if (t[2 * k] >= in->num_vertices)
                return fail(j, BAD, MD2_SECTION_TRIANGLES, "triangles", 4 * (6 * i + 2 * (size_t)k),
                            i, "%s: triangle %lu, corner %d: vertex index %lu is not below num_vertices = %lu",
                            j->fn, (unsigned long)i, k, (unsigned long)t[2 * k],
                            (unsigned long)in->num_vertices);
            if (t[2 * k + 1] >= in->num_texcoords)
                return fail(j, BAD, MD2_SECTION_TRIANGLES, "triangles",
                            4 * (6 * i + 2 * (size_t)k + 1), i,
                            "%s: triangle %lu, corner %d: texcoord index %lu is not below num_texcoords = %lu",
                            j->fn, (unsigned long)i, k, (unsigned long)t[2 * k + 1],
                            (unsigned long)in->num_texcoords);
        }
        flat += t[0] == t[2] || t[2] == t[4] || t[0] == t[4];
    }
    if (j->flags & MD2_REBUILD_DROP_DEGENERATE)
        j->num_tris = in->num_triangles - flat;
    return MD2_OK;
}

/* u * size rounded to the nearest integer (halves away from zero), exactly:
 * u's significand times size in 64-bit integers, then shifted by u's
 * exponent. 0 if the result is not an int16_t. */
static int texel_of(float u, uint32_t size, int16_t *out)
{
    uint32_t bits, mant;
    int exp, shift;
    uint64_t product, whole;
    memcpy(&bits, &u, sizeof bits);
    exp = (int)((bits >> 23) & 0xFFu);
    mant = bits & 0x7FFFFFu;
    if (exp == 0xFF)
        return 0;
    if (exp != 0)
        mant |= 0x800000u;
    else
        exp = 1;
    product = (uint64_t)mant * size; /* u * size = product * 2^(exp - 150) */
    shift = 150 - exp;
    if (product == 0) {
        whole = 0;
    } else if (shift <= 0) {
        if (-shift >= 16 || product > (32768u >> -shift))
            return 0;
        whole = product << -shift;
    } else if (shift >= 64) {
        whole = 0; /* below 2^56 * 2^-64: less than a half */
    } else {
        whole = product >> shift;
        if ((product >> (shift - 1)) & 1u) /* a half or more: away from zero */
            whole++;
    }
    if (whole > ((bits >> 31) ? 32768u : 32767u))
        return 0;
    *out = (bits >> 31) ? (int16_t)(-(int32_t)whole) : (int16_t)whole;
    return 1;
}

static md2_result check_texcoords(const job *j, const md2_build_input *in)
{
    size_t i;
    int k;
    if (in->num_texcoords == 0)
        return MD2_OK;
    if (in->uv && in->texels)
        return fail(j, BAD, MD2_SECTION_TEXCOORDS, "uv", 0, 0,
                    "%s: both uv and texels are given; give the texcoords one way", j->fn);
    if (!in->uv && !in->texels)
        return fail(j, BAD, MD2_SECTION_TEXCOORDS, "uv", 0, 0,
                    "%s: num_texcoords is %lu but uv and texels are both NULL", j->fn,
                    (unsigned long)in->num_texcoords);
    if (in->texels) {
        if ((uintptr_t)in->texels % sizeof(int16_t) != 0)
            return fail(j, BAD, MD2_SECTION_TEXCOORDS, "texels", 0, 0,
                        "%s: texels is not aligned for int16_t", j->fn);
        return MD2_OK;
    }
    if ((uintptr_t)in->uv % sizeof(float) != 0)
        return fail(j, BAD, MD2_SECTION_TEXCOORDS, "uv", 0, 0,
                    "%s: uv is not aligned for float", j->fn);
    for (i = 0; i < in->num_texcoords; i++) {
        for (k = 0; k < 2; k++) {
            float u = in->uv[2 * i + (size_t)k];
            uint32_t size = k ? in->skin_height : in->skin_width;
            int16_t texel;
            if (!isfinite(u))
                return fail(j, BAD, MD2_SECTION_TEXCOORDS, "uv", 8 * i + 4 * (size_t)k, i,
                            "%s: uv %lu: %c is %g; texcoords must be finite", j->fn,
                            (unsigned long)i, k ? 'v' : 'u', (double)u);
            if (!texel_of(u, size, &texel))
                return fail(j, BAD, MD2_SECTION_TEXCOORDS, "uv", 8 * i + 4 * (size_t)k, i,
                            "%s: uv %lu: %c = %g on a skin of %lu pixels is beyond -32768..32767, the texels a texcoord holds",
                            j->fn, (unsigned long)i, k ? 'v' : 'u', (double)u,
                            (unsigned long)size);
        }
    }
    return MD2_OK;
}

/* A name's field: NULL entries and names of max bytes or more refused. */
static md2_result check_names(const job *j, const char *const *names, size_t count,
                              const char *field, md2_section section, size_t max,
                              const char *what)
{
    size_t i;
    if (count == 0)
        return MD2_OK;
    if (!names)
        return fail(j, BAD, section, field, 0, 0, "%s: %s is NULL but there are %lu %ss",
                    j->fn, field, (unsigned long)count, what);
    for (i = 0; i < count; i++) {
        if (!names[i])
            return fail(j, BAD, section, field, 0, i, "%s: %s[%lu] is NULL", j->fn, field,
                        (unsigned long)i);
        if (bounded_length(names[i], max) >= max)
            return fail(j, BAD, section, field, 0, i,
                        "%s: %s[%lu] ('%.16s...') has %lu bytes or more; a %s name has at most %lu, then its NUL",
                        j->fn, field, (unsigned long)i, names[i], (unsigned long)max, what,
                        (unsigned long)(max - 1));
    }
    return MD2_OK;
}

static md2_result check_anims(const job *j, const md2_build_input *in)
{
    size_t k, sum = 0;
    if (in->num_anims == 0)
        return MD2_OK;
    if (in->frame_names)
        return fail(j, BAD, MD2_SECTION_FRAMES, "frame_names", 0, 0,
                    "%s: both frame_names and %lu anims are given; the frames are named one way",
                    j->fn, (unsigned long)in->num_anims);
    for (k = 0; k < in->num_anims; k++) {
        const md2_build_anim *a = &in->anims[k];
        if (!a->name)
            return fail(j, BAD, MD2_SECTION_FRAMES, "anims", 0, k,
                        "%s: animation %lu has a NULL name", j->fn, (unsigned long)k);
        if (a->count == 0)
            return fail(j, BAD, MD2_SECTION_FRAMES, "anims", 0, k,
                        "%s: animation %lu ('%.16s') has a count of 0; it needs a frame",
                        j->fn, (unsigned long)k, a->name);
        if (a->count > in->num_frames - sum)
            return fail(j, BAD, MD2_SECTION_FRAMES, "anims", 0, k,
                        "%s: animations 0 to %lu ('%.16s' the last) have more frames than num_frames = %lu",
                        j->fn, (unsigned long)k, a->name, (unsigned long)in->num_frames);
        sum += a->count;
    }
    if (sum != in->num_frames)
        return fail(j, BAD, MD2_SECTION_FRAMES, "anims", 0, in->num_anims - 1,
                    "%s: the %lu animations have %lu frames, not num_frames = %lu", j->fn,
                    (unsigned long)in->num_anims, (unsigned long)sum,
                    (unsigned long)in->num_frames);
    return MD2_OK;
}

/* Everything about the input, in the order docs/builder.md gives. */
static md2_result check_input(job *j, const md2_build_input *in, size_t strides[4])
{
    MD2_TRY(check_counts(j, in));
    if (!in->positions)
        return fail(j, BAD, MD2_SECTION_FRAMES, "positions", 0, 0, "%s: positions is NULL",
                    j->fn);
    strides[0] = in->vertex_stride;
    strides[1] = in->frame_stride;
    MD2_TRY(check_rows(j, "positions", in->positions, &strides[0], &strides[1],
                       "vertex_stride", "frame_stride"));
    strides[2] = in->normal_vertex_stride;
    strides[3] = in->normal_frame_stride;
    if (in->normals)
        MD2_TRY(check_rows(j, "normals", in->normals, &strides[2], &strides[3],
                           "normal_vertex_stride", "normal_frame_stride"));
    if (in->num_anims > 0 && !in->anims)
        return fail(j, BAD, MD2_SECTION_FRAMES, "anims", 0, 0,
                    "%s: anims is NULL but num_anims is %lu", j->fn,
                    (unsigned long)in->num_anims);
    MD2_TRY(check_floats(j, "positions", in->positions, strides[0], strides[1], 1));
    if (in->normals)
        MD2_TRY(check_floats(j, "normals", in->normals, strides[2], strides[3], 0));
    MD2_TRY(check_triangles(j, in));
    MD2_TRY(check_texcoords(j, in));
    MD2_TRY(check_names(j, in->skin_names, in->num_skins, "skin_names", MD2_SECTION_SKINS,
                        MD2_SKIN_NAME_SIZE, "skin"));
    MD2_TRY(check_names(j, in->frame_names, in->frame_names ? in->num_frames : 0,
                        "frame_names", MD2_SECTION_FRAMES, MD2_FRAME_NAME_SIZE, "frame"));
    return check_anims(j, in);
}

/* ------------------------------------------------------------------------ */
/* md2_build                                                                 */
/* ------------------------------------------------------------------------ */

/* The triangles kept, in the model's form, and the texcoords as texels. */
static void convert_input(job *j, const md2_build_input *in)
{
    size_t i, t = 0;
    int k;
    for (i = 0; i < in->num_triangles; i++) {
        const uint32_t *s = in->triangles + 6 * i;
        if ((j->flags & MD2_REBUILD_DROP_DEGENERATE) &&
            (s[0] == s[2] || s[2] == s[4] || s[0] == s[4]))
            continue;
        for (k = 0; k < 3; k++) {
            j->tris[t].vertex[k] = (uint16_t)s[2 * k];
            j->tris[t].texcoord[k] = (uint16_t)s[2 * k + 1];
        }
        t++;
    }
    for (i = 0; i < in->num_texcoords; i++) {
        if (in->texels) {
            j->st[i].s = in->texels[2 * i];
            j->st[i].t = in->texels[2 * i + 1];
        } else {
            (void)texel_of(in->uv[2 * i], in->skin_width, &j->st[i].s);
            (void)texel_of(in->uv[2 * i + 1], in->skin_height, &j->st[i].t);
        }
    }
}

static const float *frame_rows(const float *base, size_t fstride, size_t f)
{
    return (const float *)(const void *)((const char *)base + f * fstride);
}

/* The stable grids of every animation of m (its frames named): the
 * animations md2_anims_from_names() finds (they cover every frame). */
static void stable_grids(const job *j, md2_model *m, const float *pos, size_t vstride,
                         size_t fstride)
{
    size_t count = md2_anims_from_names(m, j->clips, j->num_frames), c, next = 0;
    for (c = 0; c < count; c++) {
        size_t first = j->clips[c].first, last = j->clips[c].last;
        if (first != next || last < first || last >= j->num_frames)
            break; /* cannot happen: consecutive, covering; one clip then */
        md2__quantize_stable(pos, vstride, fstride, j->num_vertices, first, last - first + 1,
                             j->stable, frames_of(m));
        next = last + 1;
    }
    if (next < j->num_frames)
        md2__quantize_stable(pos, vstride, fstride, j->num_vertices, next,
                             j->num_frames - next, j->stable, frames_of(m));
}

static void build_frames(const job *j, const md2_build_input *in, const size_t strides[4],
                         md2_model *m)
{
    md2_frame *frames = frames_of(m);
    float lo[3], hi[3], scale[3], translate[3];
    size_t f;
    int stable = j->quantize == MD2_QUANTIZE_STABLE;

    if (stable)
        stable_grids(j, m, in->positions, strides[0], strides[1]);
    if (j->quantize == MD2_QUANTIZE_SHARED) {
        md2__box_empty(lo, hi);
        for (f = 0; f < j->num_frames; f++)
            md2__box_add(frame_rows(in->positions, strides[1], f), strides[0],
                         j->num_vertices, lo, hi);
        md2__box_transform(lo, hi, scale, translate);
    }
    for (f = 0; f < j->num_frames; f++) {
        const float *pos = frame_rows(in->positions, strides[1], f);
        md2_vertex *out = vertices_of(m, f);
        if (!stable) {
            if (j->quantize == MD2_QUANTIZE_PER_FRAME) {
                md2__box_empty(lo, hi);
                md2__box_add(pos, strides[0], j->num_vertices, lo, hi);
                md2__box_transform(lo, hi, scale, translate);
            }
            memcpy(frames[f].scale, scale, sizeof scale);
            memcpy(frames[f].translate, translate, sizeof translate);
            md2__quantize(pos, strides[0], j->num_vertices, scale, translate, out);
        }
        if (in->normals)
            md2__normals_given(frame_rows(in->normals, strides[3], f), strides[2],
                               j->num_vertices, out);
        else
            md2__normals_smooth(pos, strides[0], j->num_vertices, j->tris, j->num_tris,
                                j->smooth, out);
    }
}

/* Given frame names (checked: each under 16 bytes) into zeroed fields. */
static void copy_frame_names(md2_frame *frames, const char *const *names, size_t count)
{
    size_t f;
    for (f = 0; f < count; f++)
        memcpy(frames[f].name, names[f], strlen(names[f]));
}

static void name_skins(md2_model *m, const char *const *names, size_t count)
{
    md2_skin *skins = (md2_skin *)(void *)(uintptr_t)m->skins;
    size_t i;
    for (i = 0; i < count; i++) {
        memset(skins[i].name, 0, sizeof skins[i].name);
        memcpy(skins[i].name, names[i], strlen(names[i])); /* < 64: checked */
    }
}

md2_result md2_build(const md2_build_input *in, const md2_build_options *opts,
                     md2_model **out)
{
    job j;
    size_t strides[4];
    scratch_plan p;
    md2_model *m = NULL;
    md2_build_anim one;
    const md2_build_anim *anims;
    size_t num_anims;
    md2_result r;

    md2__diag_clear(opts ? opts->error : NULL);
    if (!out)
        return md2__fail(opts ? opts->error : NULL, BAD, MD2_SECTION_NONE, "out", 0, 0,
                         "md2_build: out is NULL");
    *out = NULL;
    if (!in)
        return md2__fail(opts ? opts->error : NULL, BAD, MD2_SECTION_NONE, "in", 0, 0,
                         "md2_build: in is NULL");
    MD2_TRY(start(&j, "md2_build", opts));
    MD2_TRY(md2__reserved_build_input(in, j.err));
    MD2_TRY(md2__reserved_build_anims(in->anims, in->num_anims, j.err));
    MD2_TRY(check_flags(&j, "md2_build", BUILD_FLAGS));
    if (j.quantize == MD2_QUANTIZE_DEFAULT)
        j.quantize = (j.flags & MD2_BUILD_SHARED_BOX) ? MD2_QUANTIZE_SHARED : MD2_QUANTIZE_STABLE;
    MD2_TRY(check_input(&j, in, strides));
    one = default_anim(in->num_frames);
    anims = in->num_anims ? in->anims : &one;
    num_anims = in->num_anims ? in->num_anims : 1;

    /* the profile: what the model will be */
    j.new_glcmds = j.num_tris > 0 && !(j.flags & MD2_BUILD_NO_GLCMDS);
    j.c.v[L_VERTICES] = j.num_vertices;
    j.c.v[L_TEXCOORDS] = j.num_texcoords;
    j.c.v[L_TRIANGLES] = j.num_tris;
    j.c.v[L_FRAMES] = j.num_frames;
    j.c.v[L_SKINS] = j.num_skins;
    j.c.v[L_SKIN_WIDTH] = j.skin_width;
    j.c.v[L_SKIN_HEIGHT] = j.skin_height;
    j.c.v[L_GLCMDS] = j.new_glcmds; /* at least one word; counted once made */
    MD2_TRY(check_profile(&j));

    memset(&p, 0, sizeof p);
    p.tris = reserve(&p.total, j.num_tris, sizeof(md2_triangle));
    p.st = reserve(&p.total, j.num_texcoords, sizeof(md2_texcoord));
    if (!in->normals)
        p.smooth = reserve(&p.total, 1, md2__smooth_scratch_size(j.num_vertices));
    if (!in->frame_names || j.quantize == MD2_QUANTIZE_STABLE)
        p.anims = reserve(&p.total, j.num_frames, sizeof(md2_anim));
    if (j.quantize == MD2_QUANTIZE_STABLE)
        p.stable = reserve(&p.total, 1, md2__stable_scratch_size(j.num_frames));
    if (welded_matters(&j))
        p.welded = reserve(&p.total, 3 * j.num_tris, sizeof(uint64_t));
    MD2_TRY(alloc_scratch(&j, &p));
    if (j.quantize == MD2_QUANTIZE_STABLE) {
        j.clips = (md2_anim *)scratch_at(&j, p.anims);
        j.stable = scratch_at(&j, p.stable);
    }
    j.tris = (md2_triangle *)scratch_at(&j, p.tris);
    j.st = (md2_texcoord *)scratch_at(&j, p.st);
    j.smooth = in->normals ? NULL : scratch_at(&j, p.smooth);
    j.anims_back = in->frame_names ? NULL : (md2_anim *)scratch_at(&j, p.anims);
    j.welded = welded_matters(&j) ? (uint64_t *)scratch_at(&j, p.welded) : NULL;
    convert_input(&j, in);

    r = before_model(&j);
    if (r == MD2_OK)
        r = alloc_model(&j, j.num_words, &m);
    if (r != MD2_OK) {
        release(&j);
        return r;
    }
    if (j.num_words)
        memcpy((void *)(uintptr_t)m->glcmds, j.words, j.num_words * sizeof *j.words);
    j.c.v[L_GLCMDS] = j.num_words;
    copy_common(&j, m);
    name_skins(m, in->skin_names, in->num_skins);
    if (in->frame_names)
        copy_frame_names(frames_of(m), in->frame_names, j.num_frames);
    else
        name_from_anims(&j, anims, num_anims, frames_of(m));
    build_frames(&j, in, strides, m);

    /* complete: the warnings */
    warn_profiles(&j, m);
    if (!in->frame_names)
        warn_anims(&j, m, anims, num_anims);
    release(&j);
    *out = m;
    return MD2_OK;
}

/* ------------------------------------------------------------------------ */
/* md2_rebuild                                                               */
/* ------------------------------------------------------------------------ */

/* The model must be one md2_write() takes (md2__check_model(), write.c),
 * and new GL commands need a skin size to normalise their texcoords. */
static md2_result check_model(const job *j, const md2_model *m)
{
    MD2_TRY(md2__check_model(m, j->fn, j->err));
    if ((j->flags & MD2_REBUILD_GLCMDS) && (m->skin_width == 0 || m->skin_height == 0)) {
        int w = m->skin_width == 0;
        return fail(j, MD2_ERR_INVALID_MODEL, MD2_SECTION_HEADER,
                    w ? "skin_width" : "skin_height", 0, 0,
                    "%s: model: %s is 0; new GL commands (MD2_REBUILD_GLCMDS) need a skin size to normalise their texcoords",
                    j->fn, w ? "skin_width" : "skin_height");
    }
    return MD2_OK;
}

/* A new grid needs coordinates within MD2_BUILD_MAX_COORD, as md2_build()
 * does: checked from the transforms, and vertex by vertex only for an
 * axis that could decode beyond it. */
static md2_result check_regrid(const job *j, const md2_model *m)
{
    size_t f, i;
    int k;
    for (f = 0; f < m->num_frames; f++) {
        const md2_frame *fr = &m->frames[f];
        for (k = 0; k < 3; k++) {
            /* half the limit: no rounding of this sum can matter */
            if (fabs((double)fr->translate[k]) + 255.0 * fabs((double)fr->scale[k]) <=
                0.5 * (double)max_coord)
                continue;
            for (i = 0; i < m->num_vertices; i++) {
                float x = md2__mul_add(fr->scale[k], (float)fr->vertices[i].v[k],
                                       fr->translate[k]);
                if (fabsf(x) > max_coord)
                    return fail(j, BAD, MD2_SECTION_FRAMES, "scale", 0, f,
                                "%s: model: vertex %lu of frame %lu decodes to %c = %g, beyond 1e29 (MD2_BUILD_MAX_COORD): too far for a new grid",
                                j->fn, (unsigned long)i, (unsigned long)f, axis_name[k],
                                (double)x);
            }
        }
    }
    return MD2_OK;
}

static int degenerate(const md2_triangle *t)
{
    return t->vertex[0] == t->vertex[1] || t->vertex[1] == t->vertex[2] ||
           t->vertex[0] == t->vertex[2];
}

/* The repair before stable grids: all frames decoded into j->decoded; then
 * each coordinate whose intervals of half a step around it (the positions
 * that decode to what the file has) overlap over every frame of its
 * animation, held at the middle of their overlap: a part the source held
 * still through an animation is still again, and every coordinate stays
 * within half a step of its decoded value. (A coordinate that holds still
 * for a part of an animation only is left as it is: holding every run of
 * overlapping frames turns a slow movement into a step now and then, which
 * is wobble of another kind.) */
static void hold_coordinate(const job *j, const md2_model *src, size_t i, int k, size_t first,
                            size_t count)
{
    size_t n = j->num_vertices, f;
    float *d = j->decoded + 3 * i + (size_t)k, mid, lo = -HUGE_VALF, hi = HUGE_VALF;
    for (f = first; f < first + count; f++) { /* in float, rounded as everywhere (round.h) */
        float x = d[f * 3 * n], h = md2__mul(0.5f, fabsf(src->frames[f].scale[k]));
        float a = md2__sub(x, h), b = md2__add(x, h);
        lo = a > lo ? a : lo;
        hi = b < hi ? b : hi;
        if (lo > hi)
            return;
    }
    mid = md2__add(md2__mul(0.5f, lo), md2__mul(0.5f, hi));
    for (f = first; f < first + count; f++)
        d[f * 3 * n] = mid;
}

static void decode_steady(const job *j, const md2_model *src)
{
    size_t n = j->num_vertices, f, i, c, count;
    int k;
    for (f = 0; f < j->num_frames; f++) /* checked: it cannot fail */
        (void)md2_decode_frame(src, (uint32_t)f, j->decoded + f * 3 * n, 0, NULL, 0);
    count = md2_anims_from_names(src, j->clips, j->num_frames);
    for (c = 0; c < count; c++) {
        size_t first = j->clips[c].first, frames = j->clips[c].last - first + 1;
        if (frames < 2 || j->clips[c].last >= j->num_frames)
            continue;
        for (i = 0; i < n; i++)
            for (k = 0; k < 3; k++)
                hold_coordinate(j, src, i, k, first, frames);
    }
}

static void rebuild_frames(const job *j, const md2_model *src, md2_model *m)
{
    int stable = j->quantize == MD2_QUANTIZE_STABLE;
    int requantize = j->quantize != MD2_QUANTIZE_DEFAULT;
    int normals = (j->flags & MD2_REBUILD_NORMALS) != 0;
    int shared = j->quantize == MD2_QUANTIZE_SHARED;
    md2_frame *frames = frames_of(m);
    size_t n = j->num_vertices, f;
    float lo[3], hi[3], scale[3], translate[3];

    if (stable) {
        for (f = 0; f < j->num_frames; f++) /* the names first: the animations */
            memcpy(frames[f].name, src->frames[f].name, MD2_FRAME_NAME_SIZE);
        decode_steady(j, src);
        stable_grids(j, m, j->decoded, 12, 12 * n);
        for (f = 0; f < j->num_frames; f++) {
            const md2_vertex *s = src->frames[f].vertices;
            md2_vertex *out = vertices_of(m, f);
            /* cppcheck-suppress variableScope ; used by the loops of both branches */
            size_t i;
            if (normals)
                md2__normals_smooth(j->decoded + f * 3 * n, 12, n, j->tris, j->num_tris,
                                    j->smooth, out);
            else
                for (i = 0; i < n; i++)
                    out[i].normal = s[i].normal;
        }
        return;
    }
    if (shared) {
        md2__box_empty(lo, hi);
        for (f = 0; f < j->num_frames; f++) {
            (void)md2_decode_frame(src, (uint32_t)f, j->decoded, 0, NULL, 0);
            md2__box_add(j->decoded, 12, n, lo, hi);
        }
        md2__box_transform(lo, hi, scale, translate);
    }
    for (f = 0; f < j->num_frames; f++) {
        const md2_frame *s = &src->frames[f];
        md2_vertex *out = vertices_of(m, f);
        memcpy(frames[f].name, s->name, MD2_FRAME_NAME_SIZE);
        memcpy(out, s->vertices, n * sizeof *out);
        if (requantize || normals) /* checked: it cannot fail */
            (void)md2_decode_frame(src, (uint32_t)f, j->decoded, 0, NULL, 0);
        if (requantize) {
            if (!shared) {
                md2__box_empty(lo, hi);
                md2__box_add(j->decoded, 12, n, lo, hi);
                md2__box_transform(lo, hi, scale, translate);
            }
            md2__quantize(j->decoded, 12, n, scale, translate, out);
            memcpy(frames[f].scale, scale, sizeof scale);
            memcpy(frames[f].translate, translate, sizeof translate);
        } else {
            memcpy(frames[f].scale, s->scale, sizeof s->scale);
            memcpy(frames[f].translate, s->translate, sizeof s->translate);
        }
        if (normals) /* else the normal bytes stay as copied */
            md2__normals_smooth(j->decoded, 12, n, j->tris, j->num_tris, j->smooth, out);
    }
}

/* md2_rebuild, stage 1: the quantizing the flags ask for, the counts of the
 * model to make (degenerate triangles out if asked), the command list kept
 * or made, each checked against the file bound and the profile. */
static md2_result rebuild_counts(job *j, const md2_model *src)
{
    /* cppcheck-suppress variableScope ; used by the loops of both branches */
    size_t i;
    int drop = (j->flags & MD2_REBUILD_DROP_DEGENERATE) != 0;
    if (j->quantize == MD2_QUANTIZE_DEFAULT && (j->flags & MD2_BUILD_SHARED_BOX))
        j->quantize = MD2_QUANTIZE_SHARED;
    else if (j->quantize == MD2_QUANTIZE_DEFAULT && (j->flags & MD2_REBUILD_REQUANTIZE))
        j->quantize = MD2_QUANTIZE_PER_FRAME;
    j->num_frames = src->num_frames;
    j->num_vertices = src->num_vertices;
    j->num_texcoords = src->num_texcoords;
    j->num_skins = src->num_skins;
    j->skin_width = (uint32_t)src->skin_width;
    j->skin_height = (uint32_t)src->skin_height;
    j->num_tris = src->num_triangles;
    if (drop)
        for (i = 0; i < src->num_triangles; i++)
            j->num_tris -= (size_t)degenerate(&src->triangles[i]);
    if (j->quantize != MD2_QUANTIZE_DEFAULT)
        MD2_TRY(check_regrid(j, src));
    j->new_glcmds = (j->flags & MD2_REBUILD_GLCMDS) && j->num_tris > 0;
    j->kept_glcmds = (j->flags & (MD2_REBUILD_GLCMDS | MD2_BUILD_NO_GLCMDS)) ? 0 : src->num_glcmds;
    /* a model md2_write() takes has a file within the bound */
    MD2_TRY(check_file_size(j, j->kept_glcmds));

    j->c.v[L_VERTICES] = j->num_vertices;
    j->c.v[L_TEXCOORDS] = j->num_texcoords;
    j->c.v[L_TRIANGLES] = j->num_tris;
    j->c.v[L_FRAMES] = j->num_frames;
    j->c.v[L_SKINS] = j->num_skins;
    j->c.v[L_SKIN_WIDTH] = j->skin_width;
    j->c.v[L_SKIN_HEIGHT] = j->skin_height;
    j->c.v[L_GLCMDS] = j->new_glcmds ? 1 : j->kept_glcmds;
    return check_profile(j);
}

/* md2_rebuild, stage 2: one allocation of the scratch the job needs (the
 * kept triangles, decoded frames, normals' and welding's scratch), and the
 * job's arrays pointed into it or at src's. */
static md2_result rebuild_scratch(job *j, const md2_model *src)
{
    scratch_plan p;
    /* cppcheck-suppress variableScope ; used by the loops of both branches */
    size_t i;
    int drop = (j->flags & MD2_REBUILD_DROP_DEGENERATE) != 0;
    int requantize = j->quantize != MD2_QUANTIZE_DEFAULT;
    int normals = (j->flags & MD2_REBUILD_NORMALS) != 0;

    memset(&p, 0, sizeof p);
    if (drop)
        p.tris = reserve(&p.total, j->num_tris, sizeof(md2_triangle));
    if (j->quantize == MD2_QUANTIZE_STABLE) {
        size_t rows = j->num_vertices * j->num_frames; /* below 2^29: a file under 2^31 bytes */
        p.decoded = reserve(&p.total, rows, 3 * sizeof(float));
        p.anims = reserve(&p.total, j->num_frames, sizeof(md2_anim));
        p.stable = reserve(&p.total, 1, md2__stable_scratch_size(j->num_frames));
    } else if (requantize || normals) {
        p.decoded = reserve(&p.total, 3 * j->num_vertices, sizeof(float));
    }
    if (normals)
        p.smooth = reserve(&p.total, 1, md2__smooth_scratch_size(j->num_vertices));
    if (welded_matters(j))
        p.welded = reserve(&p.total, 3 * j->num_tris, sizeof(uint64_t));
    MD2_TRY(alloc_scratch(j, &p));
    if (drop) {
        size_t t = 0;
        j->tris = (md2_triangle *)scratch_at(j, p.tris);
        for (i = 0; i < src->num_triangles; i++)
            if (!degenerate(&src->triangles[i]))
                j->tris[t++] = src->triangles[i];
    } else {
        j->tris = (md2_triangle *)(void *)(uintptr_t)src->triangles;
    }
    j->st = (md2_texcoord *)(void *)(uintptr_t)src->texcoords;
    j->decoded = (requantize || normals) ? (float *)scratch_at(j, p.decoded) : NULL;
    j->smooth = normals ? scratch_at(j, p.smooth) : NULL;
    j->welded = welded_matters(j) ? (uint64_t *)scratch_at(j, p.welded) : NULL;
    if (j->quantize == MD2_QUANTIZE_STABLE) {
        j->clips = (md2_anim *)scratch_at(j, p.anims);
        j->stable = scratch_at(j, p.stable);
    }
    return MD2_OK;
}

/* md2_rebuild, stage 3: the new model m filled: its commands (made or
 * kept), what every model has, the skins and the frames. */
static void rebuild_fill(job *j, const md2_model *src, md2_model *m)
{
    size_t i;
    if (j->new_glcmds && j->num_words)
        memcpy((void *)(uintptr_t)m->glcmds, j->words, j->num_words * sizeof *j->words);
    else if (j->kept_glcmds)
        memcpy((void *)(uintptr_t)m->glcmds, src->glcmds, j->kept_glcmds * sizeof *src->glcmds);
    j->c.v[L_GLCMDS] = m->num_glcmds;
    copy_common(j, m);
    if (j->num_skins)
        memcpy((void *)(uintptr_t)m->skins, src->skins, j->num_skins * sizeof *src->skins);
    for (i = 0; i < j->num_skins; i++) /* a hand-made model's name may fill its field */
        ((md2_skin *)(void *)(uintptr_t)m->skins)[i].name[MD2_SKIN_NAME_SIZE] = '\0';
    rebuild_frames(j, src, m);
}

md2_result md2_rebuild(const md2_model *src, const md2_build_options *opts, md2_model **out)
{
    job j;
    md2_model *m = NULL;
    md2_result r;

    md2__diag_clear(opts ? opts->error : NULL);
    if (!out)
        return md2__fail(opts ? opts->error : NULL, BAD, MD2_SECTION_NONE, "out", 0, 0,
                         "md2_rebuild: out is NULL");
    *out = NULL;
    if (!src)
        return md2__fail(opts ? opts->error : NULL, BAD, MD2_SECTION_NONE, "m", 0, 0,
                         "md2_rebuild: m is NULL");
    MD2_TRY(start(&j, "md2_rebuild", opts));
    MD2_TRY(md2__reserved_model(src, j.err));
    MD2_TRY(check_flags(&j, "md2_rebuild", ALL_FLAGS));
    MD2_TRY(check_model(&j, src));
    MD2_TRY(rebuild_counts(&j, src));
    MD2_TRY(rebuild_scratch(&j, src));

    r = before_model(&j);
    if (r == MD2_OK)
        r = alloc_model(&j, j.new_glcmds ? j.num_words : j.kept_glcmds, &m);
    if (r != MD2_OK) {
        release(&j);
        return r;
    }
    rebuild_fill(&j, src, m);

    warn_profiles(&j, m);
    release(&j);
    *out = m;
    return MD2_OK;
}

/* ------------------------------------------------------------------------ */
/* A model against a profile                                                 */
/* ------------------------------------------------------------------------ */

/* The distinct (vertex, s, t) corners of m's triangles whose indices are
 * all in range; SIZE_MAX when the keys' allocation fails. */
static size_t model_welded(const md2_model *m)
{
    size_t i, n = 0, distinct = 0;
    uint64_t *keys;
    int k;
    md2_allocator a = m->allocator.alloc && m->allocator.free ? m->allocator : md2__allocator(NULL);
    if (m->num_triangles == 0)
        return 0;
    if (m->num_triangles > SIZE_MAX / 3 / sizeof *keys)
        return SIZE_MAX;
    keys = (uint64_t *)a.alloc(a.user, 3 * (size_t)m->num_triangles * sizeof *keys);
    if (!keys)
        return SIZE_MAX;
    for (i = 0; i < m->num_triangles; i++) {
        const md2_triangle *t = &m->triangles[i];
        for (k = 0; k < 3; k++)
            if (t->vertex[k] >= m->num_vertices || t->texcoord[k] >= m->num_texcoords)
                break;
        if (k < 3)
            continue; /* Q2PRO skips such a triangle */
        for (k = 0; k < 3; k++) {
            const md2_texcoord *st = &m->texcoords[t->texcoord[k]];
            keys[n++] = ((uint64_t)t->vertex[k] << 32) | ((uint64_t)(uint16_t)st->s << 16) |
                        (uint64_t)(uint16_t)st->t;
        }
    }
    qsort(keys, n, sizeof *keys, compare_keys);
    for (i = 0; i < n; i++)
        distinct += i == 0 || keys[i] != keys[i - 1];
    a.free(a.user, keys);
    return distinct;
}

static void limit_message(md2_diagnostic *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void limit_message(md2_diagnostic *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    md2__vformat(d, fmt, ap);
    va_end(ap);
}

md2_result md2_profile_check(const md2_model *m, md2_profile p, md2_warning_fn on_limit,
                             void *user, size_t *broken)
{
    counts c;
    size_t i, n = 0;
    if (broken)
        *broken = 0;
    if (!m || (unsigned)p >= (unsigned)MD2_PROFILE_COUNT_)
        return MD2_ERR_INVALID_ARGUMENT;
    memset(&c, 0, sizeof c);
    c.v[L_VERTICES] = m->num_vertices;
    c.v[L_TEXCOORDS] = m->num_texcoords;
    c.v[L_TRIANGLES] = m->num_triangles;
    c.v[L_FRAMES] = m->num_frames;
    c.v[L_SKINS] = m->num_skins;
    c.v[L_SKIN_WIDTH] = m->skin_width < 0 ? 0 : (size_t)m->skin_width;
    c.v[L_SKIN_HEIGHT] = m->skin_height < 0 ? 0 : (size_t)m->skin_height;
    c.v[L_GLCMDS] = m->num_glcmds;
    /* a loaded model: its header's ofs_end, what the engines allocate;
     * another: the file md2_write() makes of it */
    c.v[L_FILE] = m->header.ident != 0 && m->header.ofs_end > 0 ? (size_t)m->header.ofs_end
                                                                 : md2_write_size(m);
    c.have_file = c.v[L_FILE] != 0;
    for (i = 0; i < NUM_RULES; i++)
        if (rules[i].profile == p && rules[i].item == L_WELDED &&
            3 * (uint64_t)m->num_triangles > rules[i].max) {
            c.v[L_WELDED] = model_welded(m);
            if (c.v[L_WELDED] == SIZE_MAX)
                return MD2_ERR_OUT_OF_MEMORY;
            c.have_welded = 1;
        }
    for (i = 0; i < NUM_RULES; i++) {
        const rule *r = &rules[i];
        const struct item *it = &items[r->item];
        size_t v = c.v[r->item];
        md2_diagnostic d;
        if (r->profile != p || !rule_broken(r, &c))
            continue;
        n++;
        if (!on_limit)
            continue;
        md2__diag_clear(&d);
        d.section = MD2_SECTION_HEADER;
        d.field = it->field;
        d.offset = it->offset;
        d.index = (size_t)p;
        limit_message(&d, "%s: %lu %s, %s its %s of %lu (%s)", md2_profile_string(p),
                    (unsigned long)v, it->noun, v < r->min ? "fewer than" : "more than",
                    v < r->min ? "minimum" : "limit",
                    (unsigned long)(v < r->min ? r->min : r->max), r->why);
        on_limit(user, &d);
    }
    if (broken)
        *broken = n;
    return MD2_OK;
}

/* ------------------------------------------------------------------------ */
/* md2_wobble_score                                                          */
/* ------------------------------------------------------------------------ */

md2_result md2_wobble_score(const md2_model *m, const md2_allocator *allocator, size_t *count)
{
    md2_allocator a = md2__allocator(NULL);
    size_t n, f, i, total = 0, bytes;
    unsigned char *mem;
    float *rows[2];

    if (count)
        *count = 0;
    if (!m || !count || !m->frames || m->num_frames == 0 || m->num_vertices == 0 ||
        (m->num_triangles > 0 && !m->triangles))
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_model(m, NULL));
    n = m->num_vertices;
    for (i = 0; i < m->num_triangles; i++) {
        const uint16_t *v = m->triangles[i].vertex;
        if (v[0] >= n || v[1] >= n || v[2] >= n)
            return MD2_ERR_INVALID_ARGUMENT;
    }
    if (allocator && allocator->alloc && allocator->free)
        a = *allocator;
    if (n > (SIZE_MAX / 2 - 2) / (12 + 1))
        return MD2_ERR_OUT_OF_MEMORY;
    bytes = n * 2 * (3 * sizeof(float)) + 2 * n;
    mem = (unsigned char *)a.alloc(a.user, bytes);
    if (!mem)
        return MD2_ERR_OUT_OF_MEMORY;
    rows[0] = (float *)(void *)mem;
    rows[1] = rows[0] + 3 * n;
    if (md2_decode_frame(m, 0, rows[0], 0, NULL, 0) != MD2_OK) {
        a.free(a.user, mem);
        return MD2_ERR_INVALID_ARGUMENT; /* a frame without vertices */
    }
    for (f = 1; f < m->num_frames; f++) {
        const float *prev = rows[(f - 1) & 1];
        float *cur = rows[f & 1], h[3];
        unsigned char *state = mem + n * 2 * (3 * sizeof(float)), *busy = state + n;
        int k;
        if (md2_decode_frame(m, (uint32_t)f, cur, 0, NULL, 0) != MD2_OK) {
            a.free(a.user, mem);
            return MD2_ERR_INVALID_ARGUMENT;
        }
        for (k = 0; k < 3; k++)
            h[k] = fabsf(m->frames[f - 1].scale[k]) > fabsf(m->frames[f].scale[k]) ? fabsf(m->frames[f - 1].scale[k])
                                                                     : fabsf(m->frames[f].scale[k]);
        md2__wobble_states(prev, cur, n, h, m->triangles, m->num_triangles, state, busy);
        for (i = 0; i < n; i++)
            total += state[i] == 1 && !busy[i];
    }
    a.free(a.user, mem);
    *count = total;
    return MD2_OK;
}
