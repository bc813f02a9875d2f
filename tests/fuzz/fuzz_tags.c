/*
 * A libFuzzer target for <md2/tags.h>: the input is a UFO:AI tag file.
 *
 * It is parsed with the default and the strict options and a counting
 * allocator: a refused input must have allocated nothing and filled the
 * diagnostic; accepted tags must fit the documented memory bound, write
 * back (byte for byte when they loaded without a quirk) and parse again
 * to the same values, and every tag is interpolated between frame pairs at
 * t values taken from the input: each matrix must be finite, exact at
 * keyframes and orthonormal between them. A player on a synthetic model
 * walks each tag through playback and a cross-fade (md2_player_tag(),
 * md2_attach(), md2_tags_check()), and the input is loaded as the .tag
 * file of a model in memory with md2_bundle_load(), with and without an
 * animation side file. Each input runs again with its four offsets made
 * to agree with its counts, so that mutated counts reach the rest of the
 * parser. Any mismatch aborts; the same function runs
 * without libFuzzer in fuzz_replay.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/tags.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

#define MODEL_FRAMES 12
#define MODEL_VERTS 2

/* A small model whose frames the player and the bundle use. */
typedef struct model {
    md2_model m;
    md2_frame frames[MODEL_FRAMES];
    md2_vertex verts[MODEL_FRAMES][MODEL_VERTS];
} model;

static void build_model(model *s)
{
    size_t f, i;
    memset(s, 0, sizeof *s);
    for (f = 0; f < MODEL_FRAMES; f++) {
        s->frames[f].scale[0] = s->frames[f].scale[1] = s->frames[f].scale[2] = 0.5f;
        s->frames[f].translate[2] = (float)f;
        snprintf(s->frames[f].name, sizeof s->frames[f].name, "%s%u", f < 6 ? "run" : "wave",
                 (unsigned)(f % 6 + 1));
        for (i = 0; i < MODEL_VERTS; i++) {
            s->verts[f][i].v[0] = (uint8_t)(f * 9 + i);
            s->verts[f][i].normal = (uint8_t)(f + i);
        }
        s->frames[f].vertices = s->verts[f];
    }
    s->m.num_vertices = MODEL_VERTS;
    s->m.num_frames = MODEL_FRAMES;
    s->m.frames = s->frames;
}

/* Columns 0-2 orthonormal (in double, to 1e-5), last row 0 0 0 1, all
 * finite. */
static void check_orthonormal(const float m[16])
{
    int i, j, k;
    for (i = 0; i < 16; i++)
        CHECK(isfinite(m[i]));
    CHECK(m[3] == 0.0f && m[7] == 0.0f && m[11] == 0.0f && m[15] == 1.0f);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            double dot = 0.0;
            for (k = 0; k < 3; k++)
                dot += (double)m[4 * i + k] * (double)m[4 * j + k];
            CHECK(fabs(dot - (i == j ? 1.0 : 0.0)) <= 1e-5);
        }
}

/* The stored floats of a keyframe, bit for bit. */
static void check_keyframe(const md2_tags *t, size_t tag, uint32_t f, const float m[16])
{
    const float *v = t->frames + (tag * t->num_frames + f) * MD2_TAG_FRAME_FLOATS;
    int c;
    for (c = 0; c < 4; c++)
        CHECK(memcmp(m + 4 * c, v + 3 * c, 3 * sizeof(float)) == 0);
}

/* A byte of the input as a t in [0, 1]. */
static float pick_t(const uint8_t *data, size_t size, size_t k)
{
    return size ? (float)data[k % size] / 255.0f : 0.5f;
}

static void walk_lerp(const md2_tags *t, const uint8_t *data, size_t size)
{
    size_t tag, step = t->num_frames > 8 ? t->num_frames / 8 : 1;
    uint32_t a, b;
    float m[16];

    for (tag = 0; tag < t->num_tags && tag < 8; tag++) {
        CHECK(md2_tags_find(t, t->names[tag].name) <= tag);
        for (a = 0; a < t->num_frames; a += (uint32_t)step) {
            for (b = 0; b < t->num_frames; b += (uint32_t)step) {
                float tt = pick_t(data, size, tag * 31u + a * 7u + b);
                CHECK(md2_tag_lerp(t, tag, a, b, 0.0f, m) == MD2_OK);
                check_keyframe(t, tag, a, m);
                CHECK(md2_tag_lerp(t, tag, a, b, 1.0f, m) == MD2_OK);
                check_keyframe(t, tag, b, m);
                CHECK(md2_tag_lerp(t, tag, a, b, tt, m) == MD2_OK);
                if (a == b || tt == 0.0f)
                    check_keyframe(t, tag, a, m);
                else if (tt == 1.0f)
                    check_keyframe(t, tag, b, m);
                else
                    check_orthonormal(m);
                CHECK(md2_tag_lerp(t, tag, a, b, 0.5f, m) == MD2_OK);
                if (a != b)
                    check_orthonormal(m);
            }
        }
    }
    CHECK(md2_tag_lerp(t, t->num_tags, 0, 0, 0.0f, m) == MD2_ERR_NOT_FOUND);
    CHECK(md2_tag_lerp(t, 0, (uint32_t)t->num_frames, 0, 0.0f, m) == MD2_ERR_FRAME_RANGE);
}

/* Every tag through a player: playback, a cross-fade, attachment. */
static void walk_player(const md2_tags *t, const model *s, const uint8_t *data, size_t size)
{
    md2_anim run_anim, wave_anim;
    md2_player p;
    md2_options o;
    float m[16], world[16], child[16];
    int step, i;

    memset(&o, 0, sizeof o);
    o.strict = (size & 4) ? MD2_STRICT_ALL : 0;
    CHECK(md2_tags_check(t, &s->m, &o) ==
          ((o.strict && t->num_frames != MODEL_FRAMES) ? MD2_ERR_FRAME_RANGE : MD2_OK));
    memset(&run_anim, 0, sizeof run_anim);
    memset(&wave_anim, 0, sizeof wave_anim);
    run_anim.last = 5;
    run_anim.fps = 10.0f;
    wave_anim.first = 6;
    wave_anim.last = 11;
    wave_anim.fps = 7.0f;
    for (i = 0; i < 16; i++)
        world[i] = (i % 5 == 0) ? 1.0f : 0.0f;
    world[12] = 100.0f;
    md2_player_init(&p);
    CHECK(md2_player_play(&p, &run_anim, MD2_PLAY_LOOP, MD2_RATE_ANIM) == MD2_OK);
    for (step = 0; step < 40; step++) {
        md2_player_frames st;
        size_t tag = (size_t)step % t->num_tags;
        md2_player_state(&p, &st);
        CHECK(md2_player_tag(&p, t, tag, m) == MD2_OK);
        for (i = 0; i < 16; i++)
            CHECK(isfinite(m[i]));
        /* between keyframes (nothing clamped): orthonormal */
        if (t->num_frames >= MODEL_FRAMES &&
            ((st.weight > 0.0f && st.weight < 1.0f) ||
             (st.weight >= 1.0f && st.t > 0.0f && st.t < 1.0f && st.frame_a != st.frame_b)))
            check_orthonormal(m);
        CHECK(md2_attach(world, m, child) == MD2_OK);
        CHECK(child[15] == 1.0f);
        if (step == 10)
            CHECK(md2_player_crossfade(&p, &wave_anim, (md2_play_mode)(size % 4),
                                       size ? (float)data[0] / 8.0f : 5.0f, 0.5f) == MD2_OK);
        md2_player_advance(&p, 0.03 + (size ? data[size - 1] : 0) / 2000.0);
    }
    CHECK(md2_player_tag(&p, t, t->num_tags, m) == MD2_ERR_NOT_FOUND);
}

/* Files in memory for md2_bundle_load(). */
typedef struct memfs {
    const uint8_t *model, *tag, *anm;
    size_t model_size, tag_size, anm_size;
} memfs;

static size_t mem_read(void *user, const char *path, void *dst, size_t capacity)
{
    const memfs *fs = (const memfs *)user;
    const uint8_t *data = NULL;
    size_t size = 0;
    if (strcmp(path, "m.md2") == 0) {
        data = fs->model;
        size = fs->model_size;
    } else if (strcmp(path, "m.tag") == 0) {
        data = fs->tag;
        size = fs->tag_size;
    } else if (strcmp(path, "m.anm") == 0 && fs->anm) {
        data = fs->anm;
        size = fs->anm_size;
    } else {
        return MD2_FILE_MISSING;
    }
    if (dst) {
        CHECK(capacity >= size);
        if (size)
            memcpy(dst, data, size);
    }
    return size;
}

static void walk_bundle(const model *s, const uint8_t *data, size_t size, int strict,
                        md2_result parsed)
{
    static const char anm[] = "run 0 5 10\nwave 6 11 0\n";
    static unsigned char model_bytes[4096];
    size_t model_size = md2_write_size(&s->m), written = 0;
    memfs fs;
    md2_options o;
    md2_diagnostic d;
    counter c;
    int with_anm;

    CHECK(model_size > 0 && model_size <= sizeof model_bytes);
    CHECK(md2_write(&s->m, model_bytes, sizeof model_bytes, &written, NULL) == MD2_OK);
    for (with_anm = 0; with_anm < 2; with_anm++) {
        md2_bundle *b = NULL;
        md2_result r;
        memset(&fs, 0, sizeof fs);
        fs.model = model_bytes;
        fs.model_size = written;
        fs.tag = data;
        fs.tag_size = size;
        if (with_anm) {
            fs.anm = (const uint8_t *)anm;
            fs.anm_size = sizeof anm - 1;
        }
        memset(&o, 0, sizeof o);
        o.error = &d;
        o.strict = strict ? MD2_STRICT_ALL : 0;
        count_allocations(&o.allocator, &c);
        r = md2_bundle_load("m.md2", mem_read, &fs, &o, &b);
        /* the tag file decides, in lenient mode; strict mode may also
         * refuse a frame count or the .anm's rate of 0 */
        CHECK(r != MD2_OK || parsed == MD2_OK);
        if (!strict && parsed == MD2_OK)
            CHECK(r == MD2_OK);
        if (r == MD2_OK) {
            CHECK(b && b->model && b->tags && (b->files & MD2_BUNDLE_TAG));
            CHECK(b->anim_source == (with_anm ? MD2_ANIMS_FROM_ANM : MD2_ANIMS_FROM_NAMES));
            CHECK(b->num_anims == 2);
            md2_bundle_free(b);
        } else {
            CHECK(b == NULL && d.result == r && strncmp(d.message, "m.", 2) == 0);
        }
        CHECK(c.live_bytes == 0);
    }
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
    p[2] = (uint8_t)((v >> 16) & 0xFFu);
    p[3] = (uint8_t)(v >> 24);
}

static void run(const uint8_t *data, size_t size)
{
    static model s;
    int pass;

    build_model(&s);
    for (pass = 0; pass < 2; pass++) {
        md2_options o;
        md2_diagnostic d;
        counter c;
        md2_tags *t = NULL, *again = NULL;
        md2_result r;
        unsigned char *out;
        size_t n, written = 0;

        memset(&o, 0, sizeof o);
        o.error = &d;
        o.strict = pass ? MD2_STRICT_ALL : 0;
        count_allocations(&o.allocator, &c);
        r = md2_tags_parse(data, size, &o, &t);
        walk_bundle(&s, data, size, pass, r);
        if (r != MD2_OK) {
            CHECK(t == NULL && c.calls == 0 && d.result == r && d.message[0] != '\0');
            CHECK(d.section == MD2_SECTION_TAGS);
            continue;
        }
        CHECK(t != NULL && t->num_tags >= 1 && t->num_frames >= 1);
        /* the documented memory bound */
        CHECK(c.peak_bytes == md2_tags_memory(t));
        CHECK(md2_tags_memory(t) <= size + t->num_tags + 128);
        if (pass == 1)
            CHECK(t->warnings == 0);
        n = md2_tags_write_size(t);
        CHECK(n >= MD2_TAG_HEADER_SIZE && n <= size);
        out = (unsigned char *)malloc(n);
        CHECK(out != NULL);
        CHECK(md2_tags_write(t, out, n, &written, NULL) == MD2_OK && written == n);
        if (t->warnings == 0)
            CHECK(n == size && memcmp(out, data, n) == 0); /* byte for byte */
        CHECK(md2_tags_parse(out, n, NULL, &again) == MD2_OK);
        CHECK((again->warnings & ~(uint32_t)MD2_WARN_UNTERMINATED_NAME) == 0);
        CHECK(again->num_tags == t->num_tags && again->num_frames == t->num_frames);
        CHECK(memcmp(again->names, t->names, t->num_tags * sizeof *t->names) == 0);
        CHECK(memcmp(again->frames, t->frames,
                     t->num_tags * t->num_frames * MD2_TAG_FRAME_FLOATS * sizeof(float)) == 0);
        md2_tags_free(again);
        free(out);
        walk_lerp(t, data, size);
        walk_player(t, &s, data, size);
        md2_tags_free(t);
        CHECK(c.live_bytes == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t tags, frames;
    uint8_t *fixed;

    run(data, size);
    /* The same input with its four offsets made to agree with its counts
     * (where they can): a mutated count then reaches the data checks, the
     * names and the values instead of stopping at the offsets. */
    if (size < MD2_TAG_HEADER_SIZE)
        return 0;
    tags = le32(data + 8);
    frames = le32(data + 12);
    if (tags == 0 || frames == 0 || tags > 65536 || frames > 65536 ||
        32 + 64 * tags + 64 * tags * frames > 0x7FFFFFFFu)
        return 0;
    fixed = (uint8_t *)malloc(size);
    CHECK(fixed != NULL);
    memcpy(fixed, data, size);
    put32(fixed + 16, 32);
    put32(fixed + 20, (uint32_t)(32 + 64 * tags));
    put32(fixed + 24, (uint32_t)(32 + 64 * tags + 48 * tags * frames));
    put32(fixed + 28, (uint32_t)(32 + 64 * tags + 64 * tags * frames));
    if (memcmp(fixed, data, size) != 0)
        run(fixed, size);
    free(fixed);
    return 0;
}
