/*
 * A second libFuzzer target: animation side files and playback.
 *
 * The first input byte chooses the side-file format (.anm or .framegroups)
 * and the model (a 40-frame synthetic model, or none: a syntax check);
 * the rest is the file's text. Every animation parsed is then validated,
 * played in every mode at rates and time steps taken from the input, with
 * seeks and cross-fades, and every pose and box written; the frame numbers
 * the player reports must stay inside the model. Frame-name grouping runs
 * on a model whose frame names come from the input too. What was parsed
 * or grouped is written back as .anm text, which must parse back to the
 * same entries and be written again byte for byte.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/animation.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

#define FRAMES 40
#define VERTS 3
#define MAX_ANIMS 64

typedef struct model {
    md2_model m;
    md2_frame frames[FRAMES];
    md2_vertex verts[FRAMES][VERTS];
} model;

static void build_model(model *s, const uint8_t *names, size_t n)
{
    size_t f, i;
    memset(s, 0, sizeof *s);
    for (f = 0; f < FRAMES; f++) {
        s->frames[f].scale[0] = s->frames[f].scale[1] = s->frames[f].scale[2] = 0.5f;
        s->frames[f].translate[0] = (float)f;
        /* frame names from the input where there is enough of it */
        for (i = 0; i < MD2_FRAME_NAME_SIZE; i++) {
            size_t at = f * MD2_FRAME_NAME_SIZE + i;
            s->frames[f].name[i] = at < n ? (char)names[at] : (char)('a' + (char)(f % 3));
        }
        s->frames[f].name[MD2_FRAME_NAME_SIZE] = '\0';
        for (i = 0; i < VERTS; i++) {
            s->verts[f][i].v[0] = (uint8_t)(f * 7 + i);
            s->verts[f][i].normal = (uint8_t)(f + i * 60);
        }
        s->frames[f].vertices = s->verts[f];
    }
    s->m.num_frames = FRAMES;
    s->m.num_vertices = VERTS;
    s->m.frames = s->frames;
}

/* A byte of input as a value in a range, for rates and steps. */
static double pick(const uint8_t *data, size_t size, size_t k, double lo, double hi)
{
    unsigned v = size ? data[k % size] : 0u;
    return lo + (hi - lo) * (double)v / 255.0;
}

static void play_all(const model *s, const md2_anim *anims, size_t count,
                     const uint8_t *data, size_t size)
{
    float pos[VERTS * 3], nrm[VERTS * 3], mn[3], mx[3];
    size_t a;
    for (a = 0; a < count && a < 8; a++) {
        md2_player p;
        int mode, step;
        for (mode = 0; mode < 4; mode++) {
            double rate = pick(data, size, a + (size_t)mode, -1.0, 60.0);
            md2_player_init(&p);
            if (md2_player_play(&p, &anims[a], (md2_play_mode)mode, (float)rate) != MD2_OK)
                continue;
            for (step = 0; step < 24; step++) {
                md2_player_frames fr;
                double dt = pick(data, size, (size_t)step * 3u + a, 0.0, 2.0);
                if (step == 5)
                    md2_player_seek(&p, pick(data, size, 7, -3.0, 80.0));
                if (step == 9)
                    md2_player_crossfade(&p, &anims[(a + 1) % count], MD2_PLAY_PINGPONG,
                                         (float)pick(data, size, 11, -1.0, 30.0),
                                         (float)pick(data, size, 13, 0.0, 1.0));
                if (step == 15)
                    md2_player_set_rate(&p, (float)pick(data, size, 17, 0.0, 100.0));
                md2_player_advance(&p, dt);
                md2_player_state(&p, &fr);
                CHECK(fr.frame_a < FRAMES && fr.frame_b < FRAMES);
                CHECK(fr.t >= 0.0f && fr.t <= 1.0f);
                CHECK(md2_player_pose(&p, &s->m, pos, 0, nrm, 0) == MD2_OK);
                CHECK(md2_normalize(nrm, s->m.num_vertices, 0) == MD2_OK);
                CHECK(md2_player_bounds(&p, &s->m, mn, mx) == MD2_OK);
                CHECK(isfinite(pos[0]) && mn[0] <= mx[0]);
                CHECK(isfinite(md2_player_position(&p)));
            }
        }
    }
}

/* md2_write_anm(): md2_parse_anm() reads back what it writes as the same
 * entries (loop by name, as the parser gives it), and writing those again
 * gives the same text. Entries from an .anm file always come back; those
 * of a .framegroups file or of frame names may have a name that an .anm
 * line cannot hold: then the writer refuses it, field "name". */
static void write_back(const md2_anim *anims, size_t n, int from_anm)
{
    char text[MAX_ANIMS * 72], again[MAX_ANIMS * 72];
    md2_anim back[MAX_ANIMS];
    md2_diagnostic err;
    size_t len = 0, len2 = 0, count = 0, i;
    md2_result r = md2_write_anm(anims, n, NULL, text, sizeof text, &len, &err);

    if (r != MD2_OK) {
        CHECK(!from_anm && r == MD2_ERR_INVALID_ARGUMENT && strcmp(err.field, "name") == 0);
        CHECK(len == 0);
        return;
    }
    CHECK(md2_parse_anm(text, len, NULL, NULL, back, MAX_ANIMS, &count) == MD2_OK);
    CHECK(count == n);
    for (i = 0; i < n; i++) {
        CHECK(strcmp(back[i].name, anims[i].name) == 0);
        CHECK(back[i].first == anims[i].first && back[i].last == anims[i].last);
        CHECK(memcmp(&back[i].fps, &anims[i].fps, sizeof back[i].fps) == 0);
        CHECK(back[i].loop == md2_anim_loops(anims[i].name));
    }
    CHECK(md2_write_anm(back, count, NULL, again, sizeof again, &len2, NULL) == MD2_OK);
    CHECK(len2 == len && memcmp(again, text, len) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    model s;
    md2_anim anims[MAX_ANIMS];
    md2_diagnostic err;
    md2_options opts;
    size_t count = 0;
    md2_result r;
    int framegroups, with_model;

    if (size < 1)
        return 0;
    framegroups = data[0] & 1;
    with_model = (data[0] & 2) == 0;
    memset(&opts, 0, sizeof opts);
    opts.error = &err;
    if (data[0] & 4)
        opts.strict = MD2_STRICT_ALL;
    build_model(&s, data + 1, size - 1);

    if (framegroups)
        r = md2_parse_framegroups((const char *)data + 1, size - 1, with_model ? &s.m : NULL,
                                  &opts, anims, MAX_ANIMS, &count);
    else
        r = md2_parse_anm((const char *)data + 1, size - 1, with_model ? &s.m : NULL,
                          &opts, anims, MAX_ANIMS, &count);
    if (r == MD2_OK)
        write_back(anims, count, !framegroups);
    if (r != MD2_OK) {
        CHECK(err.result == r && err.message[0] != '\0');
    } else if (with_model) {
        size_t n = count < MAX_ANIMS ? count : MAX_ANIMS;
        CHECK(err.result == MD2_OK && err.message[0] == '\0');
        CHECK(md2_anims_validate(anims, n, &s.m, &err) == MD2_OK);
        play_all(&s, anims, n, data, size); /* nothing to play when n is 0 */
    }

    /* grouping of input-made frame names */
    count = md2_anims_from_names(&s.m, anims, MAX_ANIMS);
    CHECK(count >= 1 && count <= FRAMES);
    CHECK(md2_anims_validate(anims, count, &s.m, &err) == MD2_OK);
    write_back(anims, count, 0);
    play_all(&s, anims, count, data, size);
    return 0;
}
