/*
 * Tests of the reserved_ rule (docs/errors.md, "Reserved fields"): for
 * each public struct a caller passes in (md2_options and its md2_limits,
 * md2_model, md2_anim, md2_mesh_options, md2_mesh, md2_vertex_layout,
 * md2_tags) and each element of its reserved_ member, a non-zero value
 * makes every public function that reads the struct refuse it with
 * MD2_ERR_INVALID_ARGUMENT before any allocation, read or output, with a
 * diagnostic that names the struct and the element wherever the function
 * has one; functions without a result code answer as for NULL. The same
 * calls with the member back at zero succeed, and every struct the
 * library itself fills in comes with its reserved_ zero.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/animation.h>
#include <md2/md2.h>
#include <md2/mesh.h>
#include <md2/skin.h>
#include <md2/tags.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"

#define TR_COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define TR_PCX_SIZE (128 + 2 + 769)
#define TR_TAG_FRAMES 3 /* the tiny model's frames */

static const char anm_text[] = "walk 0 1 10\nrun 2 2 10\n";
static const char framegroups_text[] = "0 2 10 1 walk\n2 1 10 1 run\n";
static const char crystal_path[] = MD2_EXAMPLES_DIR "/models/crystal.md2";

/* Everything the calls need, made once (group_setup) from the tiny model
 * of test_util.c. */
static struct fixture {
    uint8_t file[TU_MAX_FILE];
    size_t size;
    md2_model *m;                 /* loaded */
    md2_mesh *mesh;               /* built */
    md2_anim anims[8];
    size_t num_anims;
    md2_tag_name tag_names[1];
    float tag_frames[TR_TAG_FRAMES * MD2_TAG_FRAME_FLOATS];
    md2_tags tags;                /* hand-made */
    uint8_t tag_file[512];
    size_t tag_size;
    uint8_t pcx[TR_PCX_SIZE];
    md2_player player;            /* playing anims[0] */
    float pos[3 * TU_MAX_XYZ], nrm[3 * TU_MAX_XYZ];
    float vbuf[8 * 3 * TU_MAX_TRIS];  /* md2_layout_default(): 8 floats a welded vertex */
    uint32_t indices[3 * TU_MAX_TRIS];
    double scratch[512];
    float morph_pos[3 * 3 * 3 * TU_MAX_TRIS], morph_nrm[3 * 3 * 3 * TU_MAX_TRIS];
    uint8_t morph[4 * 3 * 3 * TU_MAX_TRIS];
    uint8_t out[TU_MAX_FILE];
} fx;

/* A 1 x 1 8-bit PCX: header, 2 run-length bytes (one line of
 * bytes_per_line 2), the 0x0C marker and a palette. */
static void make_pcx(uint8_t *p)
{
    memset(p, 0, TR_PCX_SIZE);
    p[0] = 0x0A; /* manufacturer */
    p[1] = 5;    /* version */
    p[2] = 1;    /* run-length encoded */
    p[3] = 8;    /* bits per pixel; window 0..0 x 0..0 */
    p[65] = 1;   /* one plane */
    p[66] = 2;   /* bytes_per_line */
    p[128] = 1;  /* pixel: palette entry 1 */
    p[129] = 0;  /* pad byte */
    p[130] = 0x0C;
    p[131 + 3] = 200; /* entry 1 red */
}

static int group_setup(void **state)
{
    md2_player_frames st;
    size_t f;
    (void)state;

    memset(&fx, 0, sizeof fx);
    fx.size = tu_tiny(fx.file);
    if (md2_parse(fx.file, fx.size, NULL, &fx.m) != MD2_OK)
        return -1;
    if (md2_mesh_build(fx.m, NULL, &fx.mesh) != MD2_OK)
        return -1;
    fx.num_anims = md2_anims_from_names(fx.m, fx.anims, TR_COUNT(fx.anims));
    if (fx.num_anims != 2 || fx.m->num_frames != TR_TAG_FRAMES)
        return -1;

    strcpy(fx.tag_names[0].name, "tag_weapon");
    for (f = 0; f < TR_TAG_FRAMES; f++) {
        float *v = fx.tag_frames + f * MD2_TAG_FRAME_FLOATS;
        v[0] = 1.0f;  /* forward */
        v[4] = 1.0f;  /* right */
        v[8] = 1.0f;  /* up */
        v[9] = (float)f; /* origin x */
    }
    memset(&fx.tags, 0, sizeof fx.tags);
    fx.tags.num_tags = 1;
    fx.tags.num_frames = TR_TAG_FRAMES;
    fx.tags.names = fx.tag_names;
    fx.tags.frames = fx.tag_frames;
    if (md2_tags_write(&fx.tags, fx.tag_file, sizeof fx.tag_file, &fx.tag_size, NULL) != MD2_OK)
        return -1;

    make_pcx(fx.pcx);
    md2_player_init(&fx.player);
    if (md2_player_play(&fx.player, &fx.anims[0], MD2_PLAY_LOOP, MD2_RATE_ANIM) != MD2_OK)
        return -1;
    (void)md2_player_advance(&fx.player, 0.05); /* between frames 0 and 1 */
    md2_player_state(&fx.player, &st);
    if (!(st.t > 0.0f))
        return -1;
    if (md2_mesh_sort_scratch_size(fx.mesh) > sizeof fx.scratch ||
        md2_mesh_smooth_scratch_size(fx.mesh) > sizeof fx.scratch ||
        fx.mesh->num_vertices * 8 > TR_COUNT(fx.vbuf))
        return -1;
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    md2_mesh_free(fx.mesh);
    md2_free(fx.m);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Checking a refusal                                                        */
/* ------------------------------------------------------------------------ */

/* The values each reserved element is set to in turn: 1 and all bits. */
static const uintptr_t ptr_values[] = {1u, UINTPTR_MAX};
static const uint32_t u32_values[] = {1u, UINT32_MAX};

/* "md2_options.reserved_[3]" */
static const char *field_name(char *buf, size_t cap, const char *type, size_t i)
{
    (void)snprintf(buf, cap, "%s.reserved_[%lu]", type, (unsigned long)i);
    return buf;
}

/* The decimal digits of v, as the library's message writes them. */
static const char *decimal(char *buf, size_t cap, uintptr_t v)
{
    char tmp[32];
    size_t n = 0, k;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0 && n < sizeof tmp);
    for (k = 0; k < n && k + 1 < cap; k++)
        buf[k] = tmp[n - 1 - k];
    buf[k] = '\0';
    return buf;
}

/* r must be MD2_ERR_INVALID_ARGUMENT; d (if not NULL) must name field and
 * index i, with section NONE and a message "<prefix><field> is <value>,
 * not zero: ...". */
static void refused(const char *call, md2_result r, const md2_diagnostic *d,
                    const char *field, size_t i, uintptr_t value, const char *prefix)
{
    char expect[256], digits[32];

    if (r != MD2_ERR_INVALID_ARGUMENT)
        fail_msg("%s with %s = %s: result %d (%s), not MD2_ERR_INVALID_ARGUMENT", call, field,
                 decimal(digits, sizeof digits, value), (int)r, md2_result_string(r));
    if (!d)
        return;
    (void)snprintf(expect, sizeof expect,
                   "%s%s is %s, not zero: it is reserved for later versions; start from a "
                   "zero-initialised struct",
                   prefix, field, decimal(digits, sizeof digits, value));
    if (d->result != MD2_ERR_INVALID_ARGUMENT || d->section != MD2_SECTION_NONE ||
        strcmp(d->field, field) != 0 || d->index != i || d->offset != 0 || d->line != 0 ||
        strcmp(d->message, expect) != 0)
        fail_msg("%s with %s set: diagnostic result %d, section %d, field '%s', index %lu, "
                 "message '%s'; expected field '%s', index %lu, message '%s'",
                 call, field, (int)d->result, (int)d->section, d->field,
                 (unsigned long)d->index, d->message, field, (unsigned long)i, expect);
}

static void accepted(const char *call, md2_result r)
{
    if (r != MD2_OK)
        fail_msg("%s with every reserved_ member zero: result %d (%s), not MD2_OK", call,
                 (int)r, md2_result_string(r));
}

/* ------------------------------------------------------------------------ */
/* md2_options and md2_options.limits (md2_limits)                          */
/* ------------------------------------------------------------------------ */

typedef struct reader_count {
    size_t calls;
} reader_count;

static size_t bundle_read(void *user, const char *path, void *dst, size_t capacity)
{
    const char *base = strrchr(path, '/');
    ((reader_count *)user)->calls++;
    base = base ? base + 1 : path;
    if (strcmp(base, "tiny.md2") != 0)
        return MD2_FILE_MISSING;
    if (dst) {
        if (capacity < fx.size)
            return MD2_FILE_ERROR;
        memcpy(dst, fx.file, fx.size);
    }
    return fx.size;
}

/* Each call that takes md2_options; returns its result, frees what it
 * made, and says (reads) how many times it read input. */
typedef md2_result (*opts_call)(const md2_options *o, size_t *reads);

static md2_result c_parse(const md2_options *o, size_t *reads)
{
    md2_model *out = fx.m; /* not NULL: a refusal must clear it */
    md2_result r = md2_parse(fx.file, fx.size, o, &out);
    *reads = 0;
    if (r != MD2_OK)
        assert_null(out);
    md2_free(out);
    return r;
}

static md2_result c_load_file(const md2_options *o, size_t *reads)
{
    md2_model *out = fx.m;
    md2_result r = md2_load_file(crystal_path, o, &out);
    *reads = 0;
    if (r != MD2_OK)
        assert_null(out);
    md2_free(out);
    return r;
}

static md2_result c_load_stream(const md2_options *o, size_t *reads)
{
    tu_memstream s;
    md2_model *out = fx.m;
    md2_result r;
    tu_memstream_init(&s, fx.file, fx.size, 0);
    r = md2_load_stream(tu_mem_read, &s, o, &out);
    *reads = s.reads;
    if (r != MD2_OK)
        assert_null(out);
    md2_free(out);
    return r;
}

static md2_result c_parse_anm(const md2_options *o, size_t *reads)
{
    md2_anim out[4];
    size_t count = 99;
    md2_result r = md2_parse_anm(anm_text, sizeof anm_text - 1, fx.m, o, out, 4, &count);
    *reads = count;
    return r;
}

static md2_result c_parse_framegroups(const md2_options *o, size_t *reads)
{
    md2_anim out[4];
    size_t count = 99;
    md2_result r = md2_parse_framegroups(framegroups_text, sizeof framegroups_text - 1, fx.m,
                                         o, out, 4, &count);
    *reads = count;
    return r;
}

static md2_result c_pcx_decode(const md2_options *o, size_t *reads)
{
    md2_image *out = (md2_image *)(void *)&fx; /* not NULL */
    md2_result r = md2_pcx_decode(fx.pcx, sizeof fx.pcx, o, &out);
    *reads = 0;
    if (r != MD2_OK)
        assert_null(out);
    md2_image_free(out);
    return r;
}

static md2_result c_tags_parse(const md2_options *o, size_t *reads)
{
    md2_tags *out = &fx.tags;
    md2_result r = md2_tags_parse(fx.tag_file, fx.tag_size, o, &out);
    *reads = 0;
    if (r != MD2_OK)
        assert_null(out);
    md2_tags_free(out);
    return r;
}

static md2_result c_tags_check(const md2_options *o, size_t *reads)
{
    *reads = 0;
    return md2_tags_check(&fx.tags, fx.m, o);
}

static md2_result c_linked_check(const md2_options *o, size_t *reads)
{
    const md2_model *linked[1];
    linked[0] = fx.m;
    *reads = 0;
    return md2_linked_check(fx.m, linked, 1, o);
}

static md2_result c_bundle_load(const md2_options *o, size_t *reads)
{
    reader_count rc = {0};
    md2_bundle *out = (md2_bundle *)(void *)&fx;
    md2_result r = md2_bundle_load("models/tiny.md2", bundle_read, &rc, o, &out);
    *reads = rc.calls;
    if (r != MD2_OK)
        assert_null(out);
    md2_bundle_free(out);
    return r;
}

static md2_result c_bundle_load_file(const md2_options *o, size_t *reads)
{
    md2_bundle *out = (md2_bundle *)(void *)&fx;
    md2_result r = md2_bundle_load_file(crystal_path, o, &out);
    *reads = 0;
    if (r != MD2_OK)
        assert_null(out);
    md2_bundle_free(out);
    return r;
}

static const struct {
    const char *name;
    opts_call call;
} opts_calls[] = {
    {"md2_parse", c_parse},
    {"md2_load_file", c_load_file},
    {"md2_load_stream", c_load_stream},
    {"md2_parse_anm", c_parse_anm},
    {"md2_parse_framegroups", c_parse_framegroups},
    {"md2_pcx_decode", c_pcx_decode},
    {"md2_tags_parse", c_tags_parse},
    {"md2_tags_check", c_tags_check},
    {"md2_linked_check", c_linked_check},
    {"md2_bundle_load", c_bundle_load},
    {"md2_bundle_load_file", c_bundle_load_file},
};

/* Runs every options call on o as given (refused: expect field, index i,
 * value v; no allocation through o's allocator and no input read) and
 * then with o's reserved_ members zero (accepted). */
static void run_opts_calls(md2_options *o, tu_alloc *counter, const char *field, size_t i,
                           uintptr_t v, const char *prefix, md2_options *zeroed)
{
    size_t k;
    for (k = 0; k < TR_COUNT(opts_calls); k++) {
        size_t reads = 0;
        md2_result r;
        tu_alloc_init(counter, &o->allocator); /* calls = 0 */
        memset(o->error, 0x5A, sizeof *o->error); /* every field must be written */
        r = opts_calls[k].call(o, &reads);
        refused(opts_calls[k].name, r, o->error, field, i, v, prefix);
        if (counter->calls != 0)
            fail_msg("%s allocated %lu times before refusing %s", opts_calls[k].name,
                     (unsigned long)counter->calls, field);
        if (reads != 0)
            fail_msg("%s read its input before refusing %s", opts_calls[k].name, field);
        accepted(opts_calls[k].name, opts_calls[k].call(zeroed, &reads));
        assert_int_equal(counter->live, 0);
    }
}

static void test_options_reserved(void **state)
{
    size_t i, v;
    (void)state;

    for (i = 0; i < TR_COUNT(((md2_options *)0)->reserved_); i++) {
        for (v = 0; v < TR_COUNT(ptr_values); v++) {
            md2_options o, zeroed;
            md2_diagnostic d, dz;
            tu_alloc counter;
            char field[64];

            memset(&o, 0, sizeof o);
            tu_alloc_init(&counter, &o.allocator);
            o.error = &d;
            zeroed = o;
            zeroed.error = &dz;
            o.reserved_[i] = ptr_values[v];
            run_opts_calls(&o, &counter, field_name(field, sizeof field, "md2_options", i), i,
                           ptr_values[v], "", &zeroed);
        }
    }
}

static void test_limits_reserved(void **state)
{
    size_t i, v;
    (void)state;

    for (i = 0; i < TR_COUNT(((md2_limits *)0)->reserved_); i++) {
        for (v = 0; v < TR_COUNT(u32_values); v++) {
            md2_options o, zeroed;
            md2_diagnostic d, dz;
            tu_alloc counter;
            char field[64];

            memset(&o, 0, sizeof o);
            tu_alloc_init(&counter, &o.allocator);
            o.limits = md2_limits_quake2(); /* real limits beside the reserved ones */
            o.error = &d;
            zeroed = o;
            zeroed.error = &dz;
            o.limits.reserved_[i] = u32_values[v];
            run_opts_calls(&o, &counter, field_name(field, sizeof field, "md2_limits", i), i,
                           u32_values[v], "md2_options.limits: ", &zeroed);
        }
    }
}

/* Without a diagnostic, and with the first of several reserved_ elements
 * reported. */
static void test_options_first_element_and_no_diagnostic(void **state)
{
    md2_options o;
    md2_diagnostic d;
    md2_model *out = NULL;
    (void)state;

    memset(&o, 0, sizeof o);
    o.reserved_[2] = 5;
    o.reserved_[6] = 9;
    assert_int_equal(md2_parse(fx.file, fx.size, &o, &out), MD2_ERR_INVALID_ARGUMENT);
    assert_null(out);
    o.error = &d;
    refused("md2_parse", md2_parse(fx.file, fx.size, &o, &out), &d, "md2_options.reserved_[2]",
            2, 5, "");
    /* the options are checked before the model's bytes: bad options and
     * bad bytes give the options' error */
    refused("md2_parse", md2_parse("not an md2", 10, &o, &out), &d, "md2_options.reserved_[2]",
            2, 5, "");
    /* and NULL arguments still come first */
    assert_int_equal(md2_parse(NULL, 0, &o, &out), MD2_ERR_INVALID_ARGUMENT);
    assert_string_equal(d.field, "data");
}

/* ------------------------------------------------------------------------ */
/* md2_model (hand-made)                                                     */
/* ------------------------------------------------------------------------ */

static int write_sink(void *user, const void *data, size_t size)
{
    (void)data;
    *(size_t *)user += size;
    return 0;
}

/* Each call that takes a model, with the diagnostic it fills (d is NULL
 * for the calls that have none). */
typedef md2_result (*model_call)(const md2_model *m, md2_diagnostic *d);

static md2_result m_write(const md2_model *m, md2_diagnostic *d)
{
    size_t written = 99;
    md2_result r = md2_write(m, fx.out, sizeof fx.out, &written, d);
    if (r != MD2_OK)
        assert_int_equal(written, 0);
    return r;
}

static md2_result m_write_stream(const md2_model *m, md2_diagnostic *d)
{
    size_t bytes = 0;
    md2_result r = md2_write_stream(m, write_sink, &bytes, d);
    if (r != MD2_OK)
        assert_int_equal(bytes, 0);
    return r;
}

static md2_result m_anims_validate(const md2_model *m, md2_diagnostic *d)
{
    return md2_anims_validate(fx.anims, fx.num_anims, m, d);
}

static md2_result m_parse_anm(const md2_model *m, md2_diagnostic *d)
{
    md2_options o;
    md2_anim out[4];
    size_t count;
    memset(&o, 0, sizeof o);
    o.error = d;
    return md2_parse_anm(anm_text, sizeof anm_text - 1, m, &o, out, 4, &count);
}

static md2_result m_write_anm(const md2_model *m, md2_diagnostic *d)
{
    char text[256];
    size_t size = 99;
    md2_result r = md2_write_anm(fx.anims, fx.num_anims, m, text, sizeof text, &size, d);
    if (r != MD2_OK)
        assert_int_equal(size, 0);
    return r;
}

static md2_result m_parse_framegroups(const md2_model *m, md2_diagnostic *d)
{
    md2_options o;
    md2_anim out[4];
    size_t count;
    memset(&o, 0, sizeof o);
    o.error = d;
    return md2_parse_framegroups(framegroups_text, sizeof framegroups_text - 1, m, &o, out, 4,
                                 &count);
}

static md2_result m_mesh_build(const md2_model *m, md2_diagnostic *d)
{
    md2_mesh_options o;
    md2_mesh *out = fx.mesh;
    tu_alloc counter;
    md2_result r;
    memset(&o, 0, sizeof o);
    tu_alloc_init(&counter, &o.allocator);
    o.error = d;
    r = md2_mesh_build(m, &o, &out);
    if (r != MD2_OK) {
        assert_null(out);
        assert_int_equal(counter.calls, 0);
    }
    md2_mesh_free(out);
    return r;
}

static md2_result m_tags_check(const md2_model *m, md2_diagnostic *d)
{
    md2_options o;
    memset(&o, 0, sizeof o);
    o.error = d;
    return md2_tags_check(&fx.tags, m, &o);
}

static md2_result m_linked_driver(const md2_model *m, md2_diagnostic *d)
{
    md2_options o;
    const md2_model *linked[1];
    memset(&o, 0, sizeof o);
    o.error = d;
    linked[0] = fx.m;
    return md2_linked_check(m, linked, 1, &o);
}

static md2_result m_lerp(const md2_model *m, md2_diagnostic *d)
{
    (void)d;
    return md2_lerp(m, 0, 1, 0.5f, fx.pos, 0, fx.nrm, 0);
}

static md2_result m_decode_frame(const md2_model *m, md2_diagnostic *d)
{
    (void)d;
    return md2_decode_frame(m, 1, fx.pos, 0, NULL, 0);
}

static md2_result m_frame_bounds(const md2_model *m, md2_diagnostic *d)
{
    float mn[3], mx[3];
    (void)d;
    return md2_frame_bounds(m, 2, mn, mx);
}

static md2_result m_player_pose(const md2_model *m, md2_diagnostic *d)
{
    (void)d;
    return md2_player_pose(&fx.player, m, fx.pos, 0, fx.nrm, 0);
}

static md2_result m_player_bounds(const md2_model *m, md2_diagnostic *d)
{
    float mn[3], mx[3];
    (void)d;
    return md2_player_bounds(&fx.player, m, mn, mx);
}

static md2_result m_player_pose_linked(const md2_model *m, md2_diagnostic *d)
{
    (void)d;
    return md2_player_pose_linked(&fx.player, m, fx.pos, 0, fx.nrm, 0);
}

static md2_result m_player_bounds_linked(const md2_model *m, md2_diagnostic *d)
{
    float mn[3], mx[3];
    (void)d;
    return md2_player_bounds_linked(&fx.player, m, mn, mx);
}

static md2_result m_mesh_lerp(const md2_model *m, md2_diagnostic *d)
{
    md2_vertex_layout l = md2_layout_default(0);
    (void)d;
    return md2_mesh_lerp(fx.mesh, m, 0, 1, 0.5f, fx.vbuf, &l);
}

static md2_result m_mesh_pose(const md2_model *m, md2_diagnostic *d)
{
    md2_vertex_layout l = md2_layout_default(MD2_LAYOUT_UNIT_NORMALS);
    (void)d;
    return md2_mesh_pose(fx.mesh, m, &fx.player, fx.vbuf, &l);
}

static md2_result m_mesh_morph_data(const md2_model *m, md2_diagnostic *d)
{
    (void)d;
    return md2_mesh_morph_data(fx.mesh, m, fx.morph, sizeof fx.morph);
}

static md2_result m_frame_transforms(const md2_model *m, md2_diagnostic *d)
{
    float out[6 * TR_TAG_FRAMES];
    (void)d;
    return md2_frame_transforms(m, out);
}

static md2_result m_mesh_morph_floats(const md2_model *m, md2_diagnostic *d)
{
    (void)d;
    return md2_mesh_morph_floats(fx.mesh, m, 0, 3, fx.morph_pos, fx.morph_nrm);
}

static const struct {
    const char *name;
    model_call call;
    int has_diagnostic;
} model_calls[] = {
    {"md2_write", m_write, 1},
    {"md2_write_stream", m_write_stream, 1},
    {"md2_anims_validate", m_anims_validate, 1},
    {"md2_parse_anm", m_parse_anm, 1},
    {"md2_write_anm", m_write_anm, 1},
    {"md2_parse_framegroups", m_parse_framegroups, 1},
    {"md2_mesh_build", m_mesh_build, 1},
    {"md2_tags_check", m_tags_check, 1},
    {"md2_linked_check (driver)", m_linked_driver, 1},
    {"md2_lerp", m_lerp, 0},
    {"md2_decode_frame", m_decode_frame, 0},
    {"md2_frame_bounds", m_frame_bounds, 0},
    {"md2_player_pose", m_player_pose, 0},
    {"md2_player_bounds", m_player_bounds, 0},
    {"md2_player_pose_linked", m_player_pose_linked, 0},
    {"md2_player_bounds_linked", m_player_bounds_linked, 0},
    {"md2_mesh_lerp", m_mesh_lerp, 0},
    {"md2_mesh_pose", m_mesh_pose, 0},
    {"md2_mesh_morph_data", m_mesh_morph_data, 0},
    {"md2_frame_transforms", m_frame_transforms, 0},
    {"md2_mesh_morph_floats", m_mesh_morph_floats, 0},
};

static void test_model_reserved(void **state)
{
    size_t i, v, k;
    (void)state;

    for (i = 0; i < TR_COUNT(fx.m->reserved_); i++) {
        for (v = 0; v < TR_COUNT(ptr_values); v++) {
            md2_model hand = *fx.m; /* a hand-made model: never md2_free()d */
            char field[64];
            field_name(field, sizeof field, "md2_model", i);
            hand.reserved_[i] = ptr_values[v];
            for (k = 0; k < TR_COUNT(model_calls); k++) {
                md2_diagnostic d;
                md2_diagnostic *dp;
                memset(&d, 0x5A, sizeof d);
                dp = model_calls[k].has_diagnostic ? &d : NULL;
                /* nothing is written on refusal */
                memset(fx.pos, 0x77, sizeof fx.pos);
                refused(model_calls[k].name, model_calls[k].call(&hand, dp), dp, field, i,
                        ptr_values[v], "");
                assert_int_equal(((const unsigned char *)fx.pos)[0], 0x77);
            }
            hand.reserved_[i] = 0;
            for (k = 0; k < TR_COUNT(model_calls); k++) {
                md2_diagnostic d;
                accepted(model_calls[k].name,
                         model_calls[k].call(&hand, model_calls[k].has_diagnostic ? &d : NULL));
            }
        }
    }
}

/* A linked model: "linked model i: " before the field. */
static void test_linked_model_reserved(void **state)
{
    size_t i;
    (void)state;

    for (i = 0; i < TR_COUNT(fx.m->reserved_); i++) {
        md2_model hand = *fx.m;
        const md2_model *linked[3];
        md2_options o;
        md2_diagnostic d;
        char field[64];

        memset(&o, 0, sizeof o);
        o.error = &d;
        linked[0] = fx.m;
        linked[1] = fx.m;
        linked[2] = &hand;
        hand.reserved_[i] = 3;
        refused("md2_linked_check", md2_linked_check(fx.m, linked, 3, &o), &d,
                field_name(field, sizeof field, "md2_model", i), i, 3, "linked model 2: ");
        /* the first fault by position: a NULL entry before the bad one is
         * reported as NULL, a bad one before a NULL entry as reserved */
        linked[1] = NULL;
        assert_int_equal(md2_linked_check(fx.m, linked, 3, &o), MD2_ERR_INVALID_ARGUMENT);
        assert_string_equal(d.field, "linked");
        assert_int_equal(d.index, 1);
        linked[0] = &hand;
        refused("md2_linked_check", md2_linked_check(fx.m, linked, 3, &o), &d, field, i, 3,
                "linked model 0: ");
        /* a NULL entry comes before the options, which follow linked */
        linked[0] = fx.m;
        o.reserved_[0] = 5;
        assert_int_equal(md2_linked_check(fx.m, linked, 3, &o), MD2_ERR_INVALID_ARGUMENT);
        assert_string_equal(d.field, "linked");
        assert_int_equal(d.index, 1);
        o.reserved_[0] = 0;
        linked[1] = fx.m;
        hand.reserved_[i] = 0;
        accepted("md2_linked_check", md2_linked_check(fx.m, linked, 3, &o));
    }
}

/* The calls without a result code answer as they do for a NULL model. */
static void test_model_reserved_without_result_code(void **state)
{
    size_t i;
    md2_texcoord st;
    (void)state;

    st = fx.m->texcoords[2]; /* (64, 32): u = v = 1 */
    for (i = 0; i < TR_COUNT(fx.m->reserved_); i++) {
        md2_model hand = *fx.m;
        md2_glcmd_iter it;
        md2_glcmd cmd;
        md2_anim out[4];
        float u = -1.0f, v = -1.0f;

        hand.reserved_[i] = 1;
        assert_int_equal(md2_write_size(&hand), 0);
        assert_int_equal(md2_model_memory(&hand), 0);
        md2_texcoord_uv(&hand, st, &u, &v);
        assert_true(u == 0.0f && v == 0.0f);
        md2_glcmd_begin(&it, &hand);
        assert_int_equal(md2_glcmd_next(&it, &cmd), 0);
        assert_int_equal(md2_anims_from_names(&hand, out, 4), 0);
        assert_null(md2_player_skin_name(&fx.player, &hand));
        assert_int_equal(md2_mesh_morph_size(fx.mesh, &hand), 0);

        hand.reserved_[i] = 0;
        assert_int_equal(md2_write_size(&hand), fx.size);
        assert_int_equal(md2_model_memory(&hand), md2_model_memory(fx.m));
        md2_texcoord_uv(&hand, st, &u, &v);
        assert_true(u == 1.0f && v == 1.0f);
        md2_glcmd_begin(&it, &hand);
        assert_int_equal(md2_glcmd_next(&it, &cmd), 1);
        assert_int_equal(md2_anims_from_names(&hand, out, 4), 2);
        assert_string_equal(md2_player_skin_name(&fx.player, &hand), "models/tiny/skin.pcx");
        assert_int_not_equal(md2_mesh_morph_size(fx.mesh, &hand), 0);
    }
}

/* ------------------------------------------------------------------------ */
/* md2_anim                                                                  */
/* ------------------------------------------------------------------------ */

static void test_anim_reserved(void **state)
{
    size_t a, i, v;
    (void)state;

    for (a = 0; a < fx.num_anims; a++) {
        for (i = 0; i < TR_COUNT(fx.anims[0].reserved_); i++) {
            for (v = 0; v < TR_COUNT(u32_values); v++) {
                md2_anim anims[8];
                md2_player p = fx.player, before = fx.player;
                md2_diagnostic d;
                char field[64], prefix[64];

                memcpy(anims, fx.anims, sizeof anims);
                anims[a].reserved_[i] = u32_values[v];
                field_name(field, sizeof field, "md2_anim", i);
                (void)snprintf(prefix, sizeof prefix, "animation %lu ('%.16s'): ",
                               (unsigned long)a, anims[a].name);

                refused("md2_anims_validate",
                        md2_anims_validate(anims, fx.num_anims, fx.m, &d), &d, field, i,
                        u32_values[v], prefix);
                {
                    char text[256];
                    size_t size = 99;
                    refused("md2_write_anm",
                            md2_write_anm(anims, fx.num_anims, fx.m, text, sizeof text, &size,
                                          &d),
                            &d, field, i, u32_values[v], prefix);
                    assert_int_equal(size, 0);
                }
                refused("md2_player_play",
                        md2_player_play(&p, &anims[a], MD2_PLAY_DEFAULT, MD2_RATE_ANIM), NULL,
                        field, i, u32_values[v], "");
                refused("md2_player_crossfade",
                        md2_player_crossfade(&p, &anims[a], MD2_PLAY_ONCE, 5.0f, 0.5f), NULL,
                        field, i, u32_values[v], "");
                /* the whole array is checked, whichever name is asked for */
                refused("md2_player_play_named",
                        md2_player_play_named(&p, anims, fx.num_anims, "walk",
                                              MD2_PLAY_DEFAULT, MD2_RATE_ANIM),
                        NULL, field, i, u32_values[v], "");
                assert_memory_equal(&p, &before, sizeof p); /* p unchanged */
                assert_int_equal(md2_anim_find(anims, fx.num_anims, "run"), MD2_ANIM_NOT_FOUND);

                anims[a].reserved_[i] = 0;
                accepted("md2_anims_validate", md2_anims_validate(anims, fx.num_anims, fx.m, &d));
                {
                    char text[256];
                    size_t size;
                    accepted("md2_write_anm", md2_write_anm(anims, fx.num_anims, fx.m, text,
                                                            sizeof text, &size, &d));
                }
                accepted("md2_player_play",
                         md2_player_play(&p, &anims[a], MD2_PLAY_DEFAULT, MD2_RATE_ANIM));
                accepted("md2_player_crossfade",
                         md2_player_crossfade(&p, &anims[a], MD2_PLAY_ONCE, 5.0f, 0.5f));
                accepted("md2_player_play_named",
                         md2_player_play_named(&p, anims, fx.num_anims, "walk",
                                               MD2_PLAY_DEFAULT, MD2_RATE_ANIM));
                assert_int_equal(md2_anim_find(anims, fx.num_anims, "run"), 1);
            }
        }
    }
}

/* ------------------------------------------------------------------------ */
/* md2_mesh_options, md2_mesh, md2_vertex_layout                            */
/* ------------------------------------------------------------------------ */

static void test_mesh_options_reserved(void **state)
{
    size_t i, v;
    (void)state;

    for (i = 0; i < TR_COUNT(((md2_mesh_options *)0)->reserved_); i++) {
        for (v = 0; v < TR_COUNT(ptr_values); v++) {
            md2_mesh_options o;
            md2_diagnostic d;
            md2_mesh *out = fx.mesh;
            tu_alloc counter;
            char field[64];

            memset(&o, 0, sizeof o);
            tu_alloc_init(&counter, &o.allocator);
            o.flags = MD2_MESH_COUNTER_CLOCKWISE;
            o.error = &d;
            o.reserved_[i] = ptr_values[v];
            refused("md2_mesh_build", md2_mesh_build(fx.m, &o, &out), &d,
                    field_name(field, sizeof field, "md2_mesh_options", i), i, ptr_values[v],
                    "");
            assert_null(out);
            assert_int_equal(counter.calls, 0);
            o.reserved_[i] = 0;
            accepted("md2_mesh_build", md2_mesh_build(fx.m, &o, &out));
            assert_int_equal(out->flags, MD2_MESH_COUNTER_CLOCKWISE);
            md2_mesh_free(out);
            assert_int_equal(counter.live, 0);
        }
    }
}

/* The calls that take a mesh and a layout; either may be the bad one. */
static md2_result mesh_calls(size_t k, const md2_mesh *mesh, const md2_vertex_layout *l,
                             const char **name)
{
    static const float eye[3] = {100.0f, 0.0f, 0.0f};
    switch (k) {
    case 0:
        *name = "md2_mesh_lerp";
        return md2_mesh_lerp(mesh, fx.m, 0, 1, 0.25f, fx.vbuf, l);
    case 1:
        *name = "md2_mesh_pose";
        return md2_mesh_pose(mesh, fx.m, &fx.player, fx.vbuf, l);
    case 2:
        *name = "md2_mesh_sort_back_to_front";
        return md2_mesh_sort_back_to_front(mesh, fx.vbuf, l, eye, fx.indices, fx.scratch,
                                           sizeof fx.scratch);
    case 3:
        *name = "md2_mesh_smooth";
        return md2_mesh_smooth(mesh, fx.vbuf, l, MD2_ATTRIBUTE_NONE, fx.scratch,
                               sizeof fx.scratch);
    case 4:
        *name = "md2_mesh_morph_data";
        return md2_mesh_morph_data(mesh, fx.m, fx.morph, sizeof fx.morph);
    case 5:
        *name = "md2_mesh_morph_floats";
        return md2_mesh_morph_floats(mesh, fx.m, 1, 2, fx.morph_pos, NULL);
    default:
        break;
    }
    *name = NULL;
    return MD2_OK;
}

#define TR_LAYOUT_CALLS 4 /* mesh_calls 0..3 take a layout */
#define TR_MESH_CALLS 6

static void test_mesh_reserved(void **state)
{
    size_t i, v, k;
    md2_vertex_layout l = md2_layout_default(0);
    (void)state;

    for (i = 0; i < TR_COUNT(fx.mesh->reserved_); i++) {
        for (v = 0; v < TR_COUNT(ptr_values); v++) {
            md2_mesh hand = *fx.mesh; /* never md2_mesh_free()d */
            char field[64];
            const char *name;

            field_name(field, sizeof field, "md2_mesh", i);
            hand.reserved_[i] = ptr_values[v];
            for (k = 0; k < TR_MESH_CALLS; k++) {
                md2_result r;
                memset(fx.vbuf, 0x77, sizeof fx.vbuf);
                memset(fx.morph, 0x77, sizeof fx.morph);
                r = mesh_calls(k, &hand, &l, &name);
                refused(name, r, NULL, field, i, ptr_values[v], "");
                assert_int_equal(((const unsigned char *)fx.morph)[0], 0x77);
            }
            assert_int_equal(md2_mesh_morph_size(&hand, fx.m), 0);
            assert_int_equal(md2_mesh_sort_scratch_size(&hand), 0);
            assert_int_equal(md2_mesh_smooth_scratch_size(&hand), 0);
            assert_int_equal(md2_mesh_memory(&hand), 0);

            hand.reserved_[i] = 0;
            /* in call order: the sort and smooth read the pose the lerp wrote */
            for (k = 0; k < TR_MESH_CALLS; k++) {
                md2_result r = mesh_calls(k, &hand, &l, &name);
                accepted(name, r);
            }
            assert_int_equal(md2_mesh_morph_size(&hand, fx.m), md2_mesh_morph_size(fx.mesh, fx.m));
            assert_int_not_equal(md2_mesh_sort_scratch_size(&hand), 0);
            assert_int_not_equal(md2_mesh_smooth_scratch_size(&hand), 0);
            assert_int_equal(md2_mesh_memory(&hand), md2_mesh_memory(fx.mesh));
        }
    }
}

static void test_layout_reserved(void **state)
{
    size_t i, v, k;
    (void)state;

    for (i = 0; i < TR_COUNT(((md2_vertex_layout *)0)->reserved_); i++) {
        for (v = 0; v < TR_COUNT(ptr_values); v++) {
            md2_vertex_layout l = md2_layout_default(MD2_LAYOUT_Y_UP);
            char field[64];
            const char *name;

            field_name(field, sizeof field, "md2_vertex_layout", i);
            l.reserved_[i] = ptr_values[v];
            for (k = 0; k < TR_LAYOUT_CALLS; k++) {
                md2_result r;
                memset(fx.vbuf, 0x77, sizeof fx.vbuf);
                r = mesh_calls(k, fx.mesh, &l, &name);
                refused(name, r, NULL, field, i, ptr_values[v], "");
                assert_int_equal(((const unsigned char *)fx.vbuf)[0], 0x77);
            }
            l.reserved_[i] = 0;
            for (k = 0; k < TR_LAYOUT_CALLS; k++) {
                md2_result r = mesh_calls(k, fx.mesh, &l, &name);
                accepted(name, r);
            }
        }
    }
}

/* ------------------------------------------------------------------------ */
/* md2_tags (hand-made)                                                      */
/* ------------------------------------------------------------------------ */

static void test_tags_reserved(void **state)
{
    size_t i, v;
    (void)state;

    for (i = 0; i < TR_COUNT(fx.tags.reserved_); i++) {
        for (v = 0; v < TR_COUNT(ptr_values); v++) {
            md2_tags hand = fx.tags;
            md2_options o;
            md2_diagnostic d;
            float matrix[16];
            size_t written = 99;
            char field[64];

            memset(&o, 0, sizeof o);
            o.error = &d;
            field_name(field, sizeof field, "md2_tags", i);
            hand.reserved_[i] = ptr_values[v];
            memset(fx.out, 0x77, sizeof fx.out);
            refused("md2_tags_write",
                    md2_tags_write(&hand, fx.out, sizeof fx.out, &written, &d), &d, field, i,
                    ptr_values[v], "");
            assert_int_equal(written, 0);
            assert_int_equal(fx.out[0], 0x77);
            refused("md2_tags_check", md2_tags_check(&hand, fx.m, &o), &d, field, i,
                    ptr_values[v], "");
            refused("md2_tag_lerp", md2_tag_lerp(&hand, 0, 0, 1, 0.5f, matrix), NULL, field, i,
                    ptr_values[v], "");
            refused("md2_player_tag", md2_player_tag(&fx.player, &hand, 0, matrix), NULL, field,
                    i, ptr_values[v], "");
            assert_int_equal(md2_tags_write_size(&hand), 0);
            assert_int_equal(md2_tags_find(&hand, "tag_weapon"), MD2_TAG_NOT_FOUND);
            assert_int_equal(md2_tags_memory(&hand), 0);

            hand.reserved_[i] = 0;
            accepted("md2_tags_write", md2_tags_write(&hand, fx.out, sizeof fx.out, &written, &d));
            assert_int_equal(written, fx.tag_size);
            accepted("md2_tags_check", md2_tags_check(&hand, fx.m, &o));
            accepted("md2_tag_lerp", md2_tag_lerp(&hand, 0, 0, 1, 0.5f, matrix));
            accepted("md2_player_tag", md2_player_tag(&fx.player, &hand, 0, matrix));
            assert_int_equal(md2_tags_write_size(&hand), fx.tag_size);
            assert_int_equal(md2_tags_find(&hand, "tag_weapon"), 0);
            assert_int_not_equal(md2_tags_memory(&hand), 0);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* What the library fills in comes with its reserved_ zero                  */
/* ------------------------------------------------------------------------ */

static void assert_zero(const void *p, size_t size, const char *what)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t k;
    for (k = 0; k < size; k++)
        if (b[k] != 0)
            fail_msg("%s: byte %lu of reserved_ is %u", what, (unsigned long)k, (unsigned)b[k]);
}

#define TR_ASSERT_ZERO(s, what) assert_zero((s).reserved_, sizeof (s).reserved_, what)

static void test_library_output_is_zero(void **state)
{
    md2_options o;
    md2_diagnostic d;
    md2_limits q = md2_limits_quake2();
    md2_vertex_layout l = md2_layout_default(MD2_LAYOUT_FLIP_V);
    md2_player_frames st;
    md2_anim anims[4], a;
    const md2_anim *q2;
    size_t n, k, count = 0;
    md2_tags *tags = NULL;
    md2_image *img = NULL;
    md2_bundle *b = NULL;
    md2_model *m = NULL;
    md2_player p;
    (void)state;

    TR_ASSERT_ZERO(q, "md2_limits_quake2()");
    TR_ASSERT_ZERO(l, "md2_layout_default()");
    TR_ASSERT_ZERO(*fx.m, "a parsed md2_model");
    TR_ASSERT_ZERO(*fx.mesh, "a built md2_mesh");
    for (k = 0; k < fx.num_anims; k++)
        TR_ASSERT_ZERO(fx.anims[k], "md2_anims_from_names()");
    q2 = md2_anims_quake2_player(&n);
    for (k = 0; k < n; k++)
        TR_ASSERT_ZERO(q2[k], "md2_anims_quake2_player()");
    assert_int_equal(md2_parse_anm(anm_text, sizeof anm_text - 1, NULL, NULL, anims, 4, &count),
                     MD2_OK);
    for (k = 0; k < count; k++)
        TR_ASSERT_ZERO(anims[k], "md2_parse_anm()");
    assert_int_equal(md2_parse_framegroups(framegroups_text, sizeof framegroups_text - 1, NULL,
                                           NULL, anims, 4, &count),
                     MD2_OK);
    for (k = 0; k < count; k++)
        TR_ASSERT_ZERO(anims[k], "md2_parse_framegroups()");

    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &fx.anims[1], MD2_PLAY_LOOP, 3.0f), MD2_OK);
    memset(&a, 0x5A, sizeof a);
    a = md2_player_anim(&p);
    TR_ASSERT_ZERO(a, "md2_player_anim()");
    memset(&st, 0x5A, sizeof st);
    md2_player_state(&p, &st);
    TR_ASSERT_ZERO(st, "md2_player_state()");

    memset(&o, 0, sizeof o);
    o.error = &d;
    memset(&d, 0x5A, sizeof d);
    assert_int_equal(md2_parse(fx.file, fx.size, &o, &m), MD2_OK);
    TR_ASSERT_ZERO(d, "md2_diagnostic after success");
    TR_ASSERT_ZERO(*m, "md2_parse()");
    md2_free(m);
    memset(&d, 0x5A, sizeof d);
    assert_int_equal(md2_parse(fx.file, 10, &o, &m), MD2_ERR_TRUNCATED_HEADER);
    TR_ASSERT_ZERO(d, "md2_diagnostic after an error");

    assert_int_equal(md2_tags_parse(fx.tag_file, fx.tag_size, NULL, &tags), MD2_OK);
    TR_ASSERT_ZERO(*tags, "md2_tags_parse()");
    md2_tags_free(tags);
    assert_int_equal(md2_pcx_decode(fx.pcx, sizeof fx.pcx, NULL, &img), MD2_OK);
    TR_ASSERT_ZERO(*img, "md2_pcx_decode()");
    assert_int_equal(img->rgba[0], 200);
    md2_image_free(img);
    assert_int_equal(md2_bundle_load_file(crystal_path, NULL, &b), MD2_OK);
    TR_ASSERT_ZERO(*b, "md2_bundle_load_file()");
    TR_ASSERT_ZERO(*b->model, "md2_bundle.model");
    if (b->tags)
        TR_ASSERT_ZERO(*b->tags, "md2_bundle.tags");
    for (k = 0; k < b->num_anims; k++)
        TR_ASSERT_ZERO(b->anims[k], "md2_bundle.anims");
    md2_bundle_free(b);
}

/* The library's own structs go straight back in: a loaded model, a built
 * mesh and parsed tags pass every check (the other tests hand-make theirs
 * from them), and so do a bundle's. */
static void test_bundle_parts_accepted(void **state)
{
    md2_bundle *b = NULL;
    md2_mesh *mesh = NULL;
    md2_diagnostic d;
    md2_player p;
    float *pos;
    (void)state;

    assert_int_equal(md2_bundle_load_file(crystal_path, NULL, &b), MD2_OK);
    assert_int_equal(md2_anims_validate(b->anims, b->num_anims, b->model, &d), MD2_OK);
    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &b->anims[0], MD2_PLAY_DEFAULT, MD2_RATE_ANIM), MD2_OK);
    pos = (float *)malloc(b->model->num_vertices * 3 * sizeof *pos);
    assert_non_null(pos);
    assert_int_equal(md2_player_pose(&p, b->model, pos, 0, NULL, 0), MD2_OK);
    assert_int_equal(md2_mesh_build(b->model, NULL, &mesh), MD2_OK);
    if (b->tags) {
        float matrix[16];
        assert_int_equal(md2_player_tag(&p, b->tags, 0, matrix), MD2_OK);
    }
    free(pos);
    md2_mesh_free(mesh);
    md2_bundle_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_reserved),
        cmocka_unit_test(test_limits_reserved),
        cmocka_unit_test(test_options_first_element_and_no_diagnostic),
        cmocka_unit_test(test_model_reserved),
        cmocka_unit_test(test_linked_model_reserved),
        cmocka_unit_test(test_model_reserved_without_result_code),
        cmocka_unit_test(test_anim_reserved),
        cmocka_unit_test(test_mesh_options_reserved),
        cmocka_unit_test(test_mesh_reserved),
        cmocka_unit_test(test_layout_reserved),
        cmocka_unit_test(test_tags_reserved),
        cmocka_unit_test(test_library_output_is_zero),
        cmocka_unit_test(test_bundle_parts_accepted),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
