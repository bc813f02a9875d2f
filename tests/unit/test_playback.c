/*
 * Tests of per-instance playback: timing, play modes, wrap, events, no
 * drift over a million steps, cross-fades, poses, bounds, skins, many
 * instances on one model from several threads, no allocation, and the
 * "two characters" snippet of docs/animation.md.
 *
 * SPDX-License-Identifier: MIT
 */
#if defined(__unix__) || defined(__APPLE__) || defined(__MINGW32__) /* mingw-w64: winpthreads */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#define TP_THREADS 1
#include <pthread.h>
#else
#define TP_THREADS 0
#endif

#include <md2/animation.h>

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#ifndef MD2_SHARED_DIR
#define MD2_SHARED_DIR "../shared"
#endif

/* ------------------------------------------------------------------------ */
/* A synthetic model                                                         */
/* ------------------------------------------------------------------------ */

#define NF 24 /* frames */
#define NV 7  /* vertices */

typedef struct synth {
    md2_model m;
    md2_frame frames[NF];
    md2_vertex verts[NF][NV];
    md2_skin skins[2];
} synth;

/* Frames: run1..run6 (0-5), stand1..stand8 (6-13), pain101..pain104
 * (14-17), pain201..pain204 (18-21), death1..death2 (22-23). Every frame
 * has its own scale, translate, vertices and normals. */
static void synth_init(synth *s)
{
    static const struct { const char *fmt; int from, to; } names[] = {
        {"run%d", 1, 6}, {"stand%d", 1, 8}, {"pain%d", 101, 104},
        {"pain%d", 201, 204}, {"death%d", 1, 2},
    };
    size_t f = 0, g, i;
    int k;

    memset(s, 0, sizeof *s);
    for (g = 0; g < sizeof names / sizeof names[0]; g++) {
        for (k = names[g].from; k <= names[g].to; k++, f++)
            snprintf(s->frames[f].name, sizeof s->frames[f].name, names[g].fmt, k);
    }
    for (f = 0; f < NF; f++) {
        md2_frame *fr = &s->frames[f];
        fr->scale[0] = 0.5f + 0.01f * (float)f;
        fr->scale[1] = 0.25f;
        fr->scale[2] = 1.0f - 0.02f * (float)f;
        fr->translate[0] = (float)f;
        fr->translate[1] = -3.0f;
        fr->translate[2] = 0.5f * (float)f;
        for (i = 0; i < NV; i++) {
            md2_vertex *v = &s->verts[f][i];
            v->v[0] = (uint8_t)((f * 37 + i * 11) % 256);
            v->v[1] = (uint8_t)((f * 5 + i * 29 + 3) % 256);
            v->v[2] = (uint8_t)(255 - (f * 13 + i * 7) % 256);
            v->normal = (uint8_t)((f * 17 + i * 3) % 162);
        }
        fr->vertices = s->verts[f];
    }
    snprintf(s->skins[0].name, sizeof s->skins[0].name, "models/a/skin.pcx");
    snprintf(s->skins[1].name, sizeof s->skins[1].name, "models/a/evil.pcx");
    s->m.num_vertices = NV;
    s->m.num_frames = NF;
    s->m.frames = s->frames;
    s->m.num_skins = 2;
    s->m.skins = s->skins;
}

static md2_anim make_anim(const char *name, uint32_t first, uint32_t last,
                          float fps, int loop)
{
    md2_anim a;
    memset(&a, 0, sizeof a);
    snprintf(a.name, sizeof a.name, "%s", name);
    a.first = first;
    a.last = last;
    a.fps = fps;
    a.loop = loop;
    return a;
}

static int close_to(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

static void expect_frames(const md2_player *p, uint32_t a, uint32_t b, float t)
{
    md2_player_frames st;
    md2_player_state(p, &st);
    if (st.frame_a != a || st.frame_b != b || !close_to(st.t, t, 1e-6))
        print_message("state %u %u %g, expected %u %u %g\n", (unsigned)st.frame_a,
                      (unsigned)st.frame_b, (double)st.t, (unsigned)a, (unsigned)b,
                      (double)t);
    assert_int_equal(st.frame_a, a);
    assert_int_equal(st.frame_b, b);
    assert_true(close_to(st.t, t, 1e-6));
}

/* ------------------------------------------------------------------------ */
/* Timing and modes                                                          */
/* ------------------------------------------------------------------------ */

static void test_init(void **state)
{
    md2_player p;
    md2_player_frames st;
    (void)state;
    memset(&p, 0xAB, sizeof p);
    md2_player_init(&p);
    md2_player_state(&p, &st);
    assert_int_equal(st.frame_a, 0);
    assert_int_equal(st.frame_b, 0);
    assert_true(st.t == 0.0f && st.weight == 1.0f);
    assert_int_equal(md2_player_advance(&p, 1.0), 0);
    assert_int_equal(md2_player_skin(&p), 0);
    assert_int_equal(md2_player_fading(&p), 0);
    md2_player_init(NULL); /* no-op */
}

/* run 0-5 at 8 fps: 1/16 s is half a keyframe. The last keyframe blends
 * into the first, then LOOPED is reported once. */
static void test_loop_timing_and_wrap(void **state)
{
    md2_player p;
    md2_anim run = make_anim("run", 0, 5, 8.0f, 1);
    int i;
    (void)state;
    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &run, MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
    expect_frames(&p, 0, 1, 0.0f);
    assert_int_equal(md2_player_advance(&p, 0.0625), 0);
    expect_frames(&p, 0, 1, 0.5f);
    assert_int_equal(md2_player_advance(&p, 0.25), 0);
    expect_frames(&p, 2, 3, 0.5f);
    assert_true(md2_player_position(&p) == 2.5);
    assert_int_equal(md2_player_advance(&p, 0.375), 0); /* 5.5 */
    expect_frames(&p, 5, 0, 0.5f);                      /* wrap segment */
    assert_int_equal(md2_player_advance(&p, 0.0625), MD2_EVENT_LOOPED);
    expect_frames(&p, 0, 1, 0.0f);
    assert_int_equal(md2_player_advance(&p, 0.0625), 0);
    expect_frames(&p, 0, 1, 0.5f);
    /* a step over several cycles reports LOOPED once and lands right */
    assert_int_equal(md2_player_advance(&p, 2.0), MD2_EVENT_LOOPED); /* +16 */
    expect_frames(&p, 4, 5, 0.5f);
    assert_int_equal(md2_player_finished(&p), 0);
    /* a one-frame loop shows its frame and loops every keyframe */
    run = make_anim("pose", 7, 7, 10.0f, 1);
    assert_int_equal(md2_player_play(&p, &run, MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
    for (i = 0; i < 3; i++) {
        assert_int_equal(md2_player_advance(&p, 0.05), 0);
        expect_frames(&p, 7, 7, 0.0f);
        assert_int_equal(md2_player_advance(&p, 0.05), MD2_EVENT_LOOPED);
    }
}

static void test_once_holds_last(void **state)
{
    md2_player p;
    md2_anim death = make_anim("death", 10, 13, 4.0f, 0);
    (void)state;
    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &death, MD2_PLAY_ONCE, MD2_RATE_ANIM), MD2_OK);
    assert_int_equal(md2_player_advance(&p, 0.5), 0); /* 2 keyframes */
    expect_frames(&p, 12, 13, 0.0f);
    assert_int_equal(md2_player_advance(&p, 0.125), 0);
    expect_frames(&p, 12, 13, 0.5f);
    assert_int_equal(md2_player_finished(&p), 0);
    assert_int_equal(md2_player_advance(&p, 0.125), MD2_EVENT_FINISHED);
    expect_frames(&p, 13, 13, 0.0f);
    assert_int_equal(md2_player_finished(&p), 1);
    assert_true(md2_player_position(&p) == 3.0);
    assert_int_equal(md2_player_advance(&p, 10.0), 0); /* reported once */
    expect_frames(&p, 13, 13, 0.0f);
    /* overshooting in one step */
    assert_int_equal(md2_player_play(&p, &death, MD2_PLAY_ONCE, 4.0f), MD2_OK);
    assert_int_equal(md2_player_advance(&p, 99.0), MD2_EVENT_FINISHED);
    expect_frames(&p, 13, 13, 0.0f);
    /* a one-frame once-animation finishes on its first step */
    death = make_anim("dead", 13, 13, 4.0f, 0);
    assert_int_equal(md2_player_play(&p, &death, MD2_PLAY_ONCE, 4.0f), MD2_OK);
    assert_int_equal(md2_player_advance(&p, 0.0), MD2_EVENT_FINISHED);
    assert_int_equal(md2_player_advance(&p, 0.1), 0);
}

static void test_pingpong(void **state)
{
    md2_player p;
    md2_anim a = make_anim("wave", 2, 5, 4.0f, 1); /* n = 4, cycle 6 */
    (void)state;
    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_PINGPONG, MD2_RATE_ANIM), MD2_OK);
    assert_int_equal(md2_player_advance(&p, 0.125), 0); /* 0.5 */
    expect_frames(&p, 2, 3, 0.5f);
    assert_int_equal(md2_player_advance(&p, 0.75), 0);  /* 3.5 */
    expect_frames(&p, 5, 4, 0.5f);
    assert_int_equal(md2_player_advance(&p, 0.5), 0);   /* 5.5 */
    expect_frames(&p, 3, 2, 0.5f);
    assert_int_equal(md2_player_advance(&p, 0.1875), MD2_EVENT_LOOPED); /* 6.25 */
    expect_frames(&p, 2, 3, 0.25f);
    assert_true(md2_player_position(&p) == 0.25);
    /* two-frame ping-pong: 0 -> 1 -> 0 */
    a = make_anim("nod", 8, 9, 1.0f, 1);
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_PINGPONG, MD2_RATE_ANIM), MD2_OK);
    assert_int_equal(md2_player_advance(&p, 1.5), 0);
    expect_frames(&p, 9, 8, 0.5f);
    assert_int_equal(md2_player_advance(&p, 0.5), MD2_EVENT_LOOPED);
    expect_frames(&p, 8, 9, 0.0f);
    /* one frame */
    a = make_anim("one", 4, 4, 1.0f, 1);
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_PINGPONG, MD2_RATE_ANIM), MD2_OK);
    md2_player_advance(&p, 0.5);
    expect_frames(&p, 4, 4, 0.0f);
}

static void test_default_mode(void **state)
{
    md2_player p;
    md2_anim a = make_anim("x", 0, 2, 1.0f, 0);
    (void)state;
    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_DEFAULT, MD2_RATE_ANIM), MD2_OK);
    assert_int_equal(md2_player_advance(&p, 5.0), MD2_EVENT_FINISHED);
    a.loop = 1;
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_DEFAULT, MD2_RATE_ANIM), MD2_OK);
    assert_int_equal(md2_player_advance(&p, 5.0), MD2_EVENT_LOOPED);
    assert_string_equal(md2_player_anim(&p).name, "x");
    assert_string_equal(md2_player_anim(NULL).name, "");
    assert_int_equal(md2_player_anim(NULL).last, 0);
}

static void test_rates(void **state)
{
    md2_player p;
    md2_anim a = make_anim("run", 0, 5, 10.0f, 1);
    md2_anim nofps = make_anim("nofps", 0, 5, -1.0f, 1);
    md2_anim hold = make_anim("dead1", 3, 5, 0.0f, 1); /* a side file's rate 0 */
    md2_player saved;
    (void)state;
    md2_player_init(&p);
    /* the caller's rate */
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_LOOP, 20.0f), MD2_OK);
    md2_player_advance(&p, 0.125);
    assert_true(close_to(md2_player_position(&p), 2.5, 1e-12));
    /* paused, then the animation's own rate again */
    assert_int_equal(md2_player_set_rate(&p, 0.0f), MD2_OK);
    md2_player_advance(&p, 3.0);
    assert_true(close_to(md2_player_position(&p), 2.5, 1e-12));
    assert_int_equal(md2_player_set_rate(&p, MD2_RATE_ANIM), MD2_OK);
    md2_player_advance(&p, 0.1);
    assert_true(close_to(md2_player_position(&p), 3.5, 1e-12));
    /* rate 0 at play holds the first frame */
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_LOOP, 0.0f), MD2_OK);
    md2_player_advance(&p, 1.0);
    expect_frames(&p, 0, 1, 0.0f);
    /* bad rates leave the player as it was */
    memcpy(&saved, &p, sizeof p);
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_LOOP, (float)NAN), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_LOOP, (float)HUGE_VAL), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_play(&p, &nofps, MD2_PLAY_LOOP, MD2_RATE_ANIM),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_set_rate(&p, (float)NAN), MD2_ERR_INVALID_ARGUMENT);
    assert_memory_equal(&p, &saved, sizeof p);
    /* an animation without fps plays at an explicit rate */
    assert_int_equal(md2_player_play(&p, &nofps, MD2_PLAY_LOOP, 5.0f), MD2_OK);
    assert_int_equal(md2_player_set_rate(&p, MD2_RATE_ANIM), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_set_rate(NULL, 1.0f), MD2_ERR_INVALID_ARGUMENT);
    /* fps 0 at the animation's own rate holds its first frame */
    assert_int_equal(md2_player_play(&p, &hold, MD2_PLAY_DEFAULT, MD2_RATE_ANIM), MD2_OK);
    md2_player_advance(&p, 10.0);
    expect_frames(&p, 3, 4, 0.0f);
    assert_true(md2_player_position(&p) == 0.0);
    /* ... until the caller gives it a rate */
    assert_int_equal(md2_player_set_rate(&p, 10.0f), MD2_OK);
    md2_player_advance(&p, 0.15);
    assert_true(close_to(md2_player_position(&p), 1.5, 1e-12));
}

/* Negative, NaN and infinite steps count as 0. */
static void test_bad_steps(void **state)
{
    md2_player p;
    md2_anim a = make_anim("run", 0, 5, 10.0f, 1);
    (void)state;
    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
    md2_player_advance(&p, 0.25);
    assert_int_equal(md2_player_advance(&p, -1.0), 0);
    assert_int_equal(md2_player_advance(&p, NAN), 0);
    assert_int_equal(md2_player_advance(&p, HUGE_VAL), 0);
    assert_int_equal(md2_player_advance(&p, -HUGE_VAL), 0);
    assert_true(close_to(md2_player_position(&p), 2.5, 1e-12));
    assert_int_equal(md2_player_advance(NULL, 1.0), 0);
    /* a step too large to keep a fraction keeps the phase and reports */
    assert_int_equal(md2_player_advance(&p, 1e300), MD2_EVENT_LOOPED);
    assert_true(close_to(md2_player_position(&p), 2.5, 1e-12));
    /* ... and ends a once-animation */
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_ONCE, MD2_RATE_ANIM), MD2_OK);
    assert_int_equal(md2_player_advance(&p, 1e300), MD2_EVENT_FINISHED);
    expect_frames(&p, 5, 5, 0.0f);
}

static void test_play_errors(void **state)
{
    synth s;
    md2_player p, saved;
    md2_anim anims[16];
    md2_anim bad = make_anim("bad", 5, 4, 10.0f, 1);
    size_t n;
    (void)state;
    synth_init(&s);
    n = md2_anims_from_names(&s.m, anims, 16);
    assert_int_equal(n, 5);
    md2_player_init(&p);
    memcpy(&saved, &p, sizeof p);
    assert_int_equal(md2_player_play(NULL, &anims[0], MD2_PLAY_LOOP, 1.0f), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_play(&p, NULL, MD2_PLAY_LOOP, 1.0f), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_play(&p, &bad, MD2_PLAY_LOOP, 1.0f), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_play(&p, &anims[0], (md2_play_mode)99, 1.0f),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_play_named(&p, anims, n, "walk", MD2_PLAY_LOOP, 1.0f),
                     MD2_ERR_NOT_FOUND);
    assert_int_equal(md2_player_play_named(&p, anims, n, NULL, MD2_PLAY_LOOP, 1.0f),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_play_named(&p, NULL, 3, "run", MD2_PLAY_LOOP, 1.0f),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_memory_equal(&p, &saved, sizeof p);
    assert_true(MD2_ERR_NOT_FOUND != MD2_ERR_PARSE_SIDEFILE);
    assert_true(MD2_ERR_NOT_FOUND != MD2_RESULT_COUNT_ && MD2_ERR_NOT_FOUND != MD2_OK);
    assert_non_null(md2_result_string(MD2_ERR_NOT_FOUND));
    /* play by name and by index */
    assert_int_equal(md2_player_play_named(&p, anims, n, "pain2", MD2_PLAY_ONCE, MD2_RATE_ANIM),
                     MD2_OK);
    expect_frames(&p, 18, 19, 0.0f);
    assert_int_equal(md2_player_play(&p, &anims[1], MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
    assert_string_equal(md2_player_anim(&p).name, "stand");
    /* the animation is copied: the caller's array may change */
    anims[1].first = 0;
    expect_frames(&p, 6, 7, 0.0f);
}

static void test_seek(void **state)
{
    md2_player p;
    md2_anim a = make_anim("run", 0, 5, 10.0f, 1);
    (void)state;
    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
    assert_int_equal(md2_player_seek(&p, 2.5), MD2_OK);
    expect_frames(&p, 2, 3, 0.5f);
    assert_int_equal(md2_player_seek(&p, 14.25), MD2_OK); /* 14.25 mod 6 */
    expect_frames(&p, 2, 3, 0.25f);
    assert_int_equal(md2_player_seek(&p, -1.0), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_seek(&p, NAN), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_seek(&p, HUGE_VAL), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_seek(NULL, 1.0), MD2_ERR_INVALID_ARGUMENT);
    /* once: seeking to the end reports FINISHED on the next step */
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_ONCE, MD2_RATE_ANIM), MD2_OK);
    assert_int_equal(md2_player_seek(&p, 99.0), MD2_OK);
    expect_frames(&p, 5, 5, 0.0f);
    assert_int_equal(md2_player_advance(&p, 0.0), MD2_EVENT_FINISHED);
    /* ping-pong: position in the back half */
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_PINGPONG, MD2_RATE_ANIM), MD2_OK);
    assert_int_equal(md2_player_seek(&p, 7.5), MD2_OK); /* 5 + 2.5: going back */
    expect_frames(&p, 3, 2, 0.5f);
}

/* ------------------------------------------------------------------------ */
/* No drift                                                                  */
/* ------------------------------------------------------------------------ */

/* Distance between two playhead positions on a cycle of length c. */
static double cycle_distance(double a, double b, double c)
{
    double d = fabs(a - b);
    return d < c - d ? d : c - d;
}

static void run_drift(md2_play_mode mode, double dt, double rate, double cycle)
{
    const long steps = 1000000;
    md2_player small, big;
    md2_anim a = make_anim("run", 40, 45, (float)rate, 1);
    md2_player_frames s1, s2;
    long loops = 0, i;
    double expected;

    md2_player_init(&small);
    md2_player_init(&big);
    assert_int_equal(md2_player_play(&small, &a, mode, MD2_RATE_ANIM), MD2_OK);
    assert_int_equal(md2_player_play(&big, &a, mode, MD2_RATE_ANIM), MD2_OK);
    for (i = 0; i < steps; i++)
        if (md2_player_advance(&small, dt) & MD2_EVENT_LOOPED)
            loops++;
    assert_int_equal(md2_player_advance(&big, dt * (double)steps) & MD2_EVENT_LOOPED,
                     MD2_EVENT_LOOPED);
    expected = fmod(dt * (double)steps * rate, cycle);
    assert_true(cycle_distance(md2_player_position(&small), md2_player_position(&big), cycle) <= 1e-9);
    assert_true(cycle_distance(md2_player_position(&small), expected, cycle) <= 1e-9);
    /* every loop was reported, on the step that made it */
    assert_int_equal(loops, (long)floor(dt * (double)steps * rate / cycle));
    md2_player_state(&small, &s1);
    md2_player_state(&big, &s2);
    assert_int_equal(s1.frame_a, s2.frame_a);
    assert_int_equal(s1.frame_b, s2.frame_b);
    assert_true(close_to(s1.t, s2.t, 1e-6));
}

/* A million steps of 1/60 s at 10 fps (166666.67 keyframes, 27777 loops)
 * land where one step of the sum does. */
static void test_no_drift_loop(void **state)
{
    (void)state;
    run_drift(MD2_PLAY_LOOP, 1.0 / 60.0, 10.0, 6.0);
}

static void test_no_drift_pingpong(void **state)
{
    (void)state;
    run_drift(MD2_PLAY_PINGPONG, 1.0 / 144.0, 7.0, 10.0);
}

/* Steps whose sum lands exactly on a keyframe: positions agree on the
 * cycle and the poses agree to float precision. */
static void test_no_drift_on_boundary(void **state)
{
    synth s;
    md2_player small, big;
    md2_anim a = make_anim("run", 0, 5, 10.0f, 1);
    float p1[NV * 3], p2[NV * 3];
    long i;
    int k;
    (void)state;
    synth_init(&s);
    md2_player_init(&small);
    md2_player_init(&big);
    md2_player_play(&small, &a, MD2_PLAY_LOOP, MD2_RATE_ANIM);
    md2_player_play(&big, &a, MD2_PLAY_LOOP, MD2_RATE_ANIM);
    for (i = 0; i < 1000000; i++)
        md2_player_advance(&small, 0.001); /* 0.01 keyframe, inexact */
    md2_player_advance(&big, 1000.0);      /* 10000 keyframes = 4 mod 6 */
    assert_true(cycle_distance(md2_player_position(&small), 4.0, 6.0) <= 1e-9);
    assert_true(cycle_distance(md2_player_position(&big), 4.0, 6.0) <= 1e-9);
    assert_int_equal(md2_player_pose(&small, &s.m, p1, 0, NULL, 0), MD2_OK);
    assert_int_equal(md2_player_pose(&big, &s.m, p2, 0, NULL, 0), MD2_OK);
    for (k = 0; k < NV * 3; k++)
        assert_true(close_to(p1[k], p2[k], 1e-4 * (1.0 + fabs(p2[k]))));
}

/* ------------------------------------------------------------------------ */
/* Poses                                                                     */
/* ------------------------------------------------------------------------ */

static void test_pose_matches_lerp(void **state)
{
    synth s;
    md2_player p;
    md2_anim a = make_anim("run", 0, 5, 10.0f, 1);
    md2_player_frames st;
    float pos[NV * 4], ref[NV * 4], nrm[NV * 3], rn[NV * 3];
    int step;
    (void)state;
    synth_init(&s);
    memset(pos, 0, sizeof pos);
    memset(ref, 0, sizeof ref);
    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
    for (step = 0; step < 40; step++) {
        md2_player_state(&p, &st);
        assert_int_equal(md2_lerp(&s.m, st.frame_a, st.frame_b, st.t, ref, 16, rn, 0),
                         MD2_OK);
        assert_int_equal(md2_player_pose(&p, &s.m, pos, 16, nrm, 0), MD2_OK);
        assert_memory_equal(pos, ref, sizeof pos - sizeof(float)); /* stride 16 */
        assert_memory_equal(nrm, rn, sizeof nrm);
        md2_player_advance(&p, 0.037);
    }
    /* errors */
    assert_int_equal(md2_player_pose(NULL, &s.m, pos, 0, NULL, 0), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_pose(&p, NULL, pos, 0, NULL, 0), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_pose(&p, &s.m, NULL, 0, NULL, 0), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_pose(&p, &s.m, pos, 8, NULL, 0), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_pose(&p, &s.m, pos, 0, nrm, 13), MD2_ERR_INVALID_ARGUMENT);
    a = make_anim("beyond", 20, 30, 10.0f, 1);
    assert_int_equal(md2_player_play(&p, &a, MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
    md2_player_seek(&p, 5.0);
    assert_int_equal(md2_player_pose(&p, &s.m, pos, 0, NULL, 0), MD2_ERR_FRAME_RANGE);
}

/* ------------------------------------------------------------------------ */
/* Cross-fade                                                                */
/* ------------------------------------------------------------------------ */

/* The expected blended pose, from two md2_lerp() calls. */
static void expected_blend(const md2_model *m, const md2_player_frames *st,
                           float *out, float *nout)
{
    float cur[NV * 3], old[NV * 3], nc[NV * 3], no[NV * 3];
    int k;
    assert_int_equal(md2_lerp(m, st->frame_a, st->frame_b, st->t, cur, 0, nc, 0), MD2_OK);
    assert_int_equal(md2_lerp(m, st->from_a, st->from_b, st->from_t, old, 0, no, 0), MD2_OK);
    for (k = 0; k < NV * 3; k++) {
        out[k] = (1.0f - st->weight) * old[k] + st->weight * cur[k];
        nout[k] = (1.0f - st->weight) * no[k] + st->weight * nc[k];
    }
}

static void test_crossfade(void **state)
{
    synth s;
    md2_player p, ref;
    md2_anim run = make_anim("run", 0, 5, 8.0f, 1);
    md2_anim stand = make_anim("stand", 6, 13, 4.0f, 1);
    md2_player_frames st;
    float before[NV * 3], pos[NV * 3], exp_p[NV * 3], nrm[NV * 3], exp_n[NV * 3];
    int k;
    unsigned ev;
    (void)state;
    synth_init(&s);
    md2_player_init(&p);
    assert_int_equal(md2_player_play(&p, &run, MD2_PLAY_LOOP, MD2_RATE_ANIM), MD2_OK);
    md2_player_advance(&p, 0.6875); /* run at 5.5: the wrap segment */
    ref = p;                        /* run alone, for comparison */
    assert_int_equal(md2_player_pose(&p, &s.m, before, 0, NULL, 0), MD2_OK);

    assert_int_equal(md2_player_crossfade(&p, &stand, MD2_PLAY_LOOP, MD2_RATE_ANIM, 0.5f), MD2_OK);
    assert_int_equal(md2_player_fading(&p), 1);
    md2_player_state(&p, &st);
    assert_true(st.weight == 0.0f);
    assert_int_equal(st.frame_a, 6);
    assert_int_equal(st.from_a, 5);
    assert_int_equal(st.from_b, 0);
    /* at the start the pose is exactly the outgoing one */
    assert_int_equal(md2_player_pose(&p, &s.m, pos, 0, NULL, 0), MD2_OK);
    assert_memory_equal(pos, before, sizeof pos);

    /* halfway: the outgoing run kept playing; the weight is 0.5 */
    ev = md2_player_advance(&p, 0.25);
    assert_int_equal(ev, 0); /* run looped during the fade: muted */
    md2_player_advance(&ref, 0.25);
    md2_player_state(&p, &st);
    assert_true(close_to(st.weight, 0.5, 1e-6));
    {
        md2_player_frames rs;
        md2_player_state(&ref, &rs);
        assert_int_equal(st.from_a, rs.frame_a);
        assert_int_equal(st.from_b, rs.frame_b);
        assert_true(st.from_t == rs.t);
    }
    expect_frames(&p, 7, 8, 0.0f);
    assert_int_equal(md2_player_pose(&p, &s.m, pos, 0, nrm, 0), MD2_OK);
    expected_blend(&s.m, &st, exp_p, exp_n);
    for (k = 0; k < NV * 3; k++) {
        assert_true(close_to(pos[k], exp_p[k], 1e-5 * (1.0 + fabs(exp_p[k]))));
        assert_true(close_to(nrm[k], exp_n[k], 1e-6));
    }
    /* unit normals on request */
    assert_int_equal(md2_player_pose(&p, &s.m, pos, 0, nrm, 0), MD2_OK);
    assert_int_equal(md2_normalize(nrm, NV, 0), MD2_OK);
    for (k = 0; k < NV; k++) {
        double len = sqrt((double)nrm[3 * k] * nrm[3 * k] + (double)nrm[3 * k + 1] * nrm[3 * k + 1] +
                          (double)nrm[3 * k + 2] * nrm[3 * k + 2]);
        assert_true(close_to(len, 1.0, 1e-5));
    }

    /* the end: FADE_DONE, and only stand shows */
    ev = md2_player_advance(&p, 0.25);
    assert_int_equal(ev, MD2_EVENT_FADE_DONE);
    assert_int_equal(md2_player_fading(&p), 0);
    md2_player_state(&p, &st);
    assert_true(st.weight == 1.0f);
    assert_int_equal(st.from_a, st.frame_a);
    assert_int_equal(md2_lerp(&s.m, st.frame_a, st.frame_b, st.t, exp_p, 0, NULL, 0), MD2_OK);
    assert_int_equal(md2_player_pose(&p, &s.m, pos, 0, NULL, 0), MD2_OK);
    assert_memory_equal(pos, exp_p, sizeof pos);
    assert_int_equal(md2_player_advance(&p, 0.25), 0);
}

/* The incoming animation's own events come through during a fade. */
static void test_crossfade_events(void **state)
{
    md2_player p;
    md2_anim run = make_anim("run", 0, 5, 8.0f, 1);
    md2_anim death = make_anim("death", 22, 23, 4.0f, 0);
    (void)state;
    md2_player_init(&p);
    md2_player_play(&p, &run, MD2_PLAY_LOOP, MD2_RATE_ANIM);
    assert_int_equal(md2_player_crossfade(&p, &death, MD2_PLAY_ONCE, MD2_RATE_ANIM, 1.0f), MD2_OK);
    assert_int_equal(md2_player_advance(&p, 0.5), MD2_EVENT_FINISHED);
    assert_int_equal(md2_player_advance(&p, 0.5), MD2_EVENT_FADE_DONE);
    expect_frames(&p, 23, 23, 0.0f);
}

/* A fade started during a fade keeps the heavier of the two as outgoing. */
static void test_crossfade_during_fade(void **state)
{
    md2_player p;
    md2_anim run = make_anim("run", 0, 5, 0.0f, 1);     /* frozen: easy to spot */
    md2_anim stand = make_anim("stand", 6, 13, 0.0f, 1);
    md2_anim pain = make_anim("pain", 14, 17, 0.0f, 1);
    md2_player_frames st;
    (void)state;
    md2_player_init(&p);
    md2_player_play(&p, &run, MD2_PLAY_LOOP, 0.0f);
    md2_player_crossfade(&p, &stand, MD2_PLAY_LOOP, 0.0f, 1.0f);
    md2_player_advance(&p, 0.25); /* stand weighs 0.25, run 0.75 */
    md2_player_crossfade(&p, &pain, MD2_PLAY_LOOP, 0.0f, 1.0f);
    md2_player_state(&p, &st);
    assert_int_equal(st.from_a, 0); /* run stays the outgoing pose */
    assert_int_equal(st.frame_a, 14);

    md2_player_play(&p, &run, MD2_PLAY_LOOP, 0.0f);
    md2_player_crossfade(&p, &stand, MD2_PLAY_LOOP, 0.0f, 1.0f);
    md2_player_advance(&p, 0.75); /* stand weighs 0.75 */
    md2_player_crossfade(&p, &pain, MD2_PLAY_LOOP, 0.0f, 1.0f);
    md2_player_state(&p, &st);
    assert_int_equal(st.from_a, 6); /* stand becomes the outgoing pose */
    assert_true(st.weight == 0.0f);

    md2_player_play(&p, &run, MD2_PLAY_LOOP, 0.0f);
    md2_player_crossfade(&p, &stand, MD2_PLAY_LOOP, 0.0f, 1.0f);
    md2_player_advance(&p, 0.5); /* a tie: the current one (stand) wins */
    md2_player_crossfade(&p, &pain, MD2_PLAY_LOOP, 0.0f, 1.0f);
    md2_player_state(&p, &st);
    assert_int_equal(st.from_a, 6);

    /* play() drops a fade; a zero duration is a hard switch */
    md2_player_play(&p, &run, MD2_PLAY_LOOP, 0.0f);
    assert_int_equal(md2_player_fading(&p), 0);
    assert_int_equal(md2_player_crossfade(&p, &stand, MD2_PLAY_LOOP, 0.0f, 0.0f), MD2_OK);
    assert_int_equal(md2_player_fading(&p), 0);
    expect_frames(&p, 6, 7, 0.0f);
    assert_int_equal(md2_player_crossfade(&p, &pain, MD2_PLAY_LOOP, 0.0f, (float)NAN),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_crossfade(&p, NULL, MD2_PLAY_LOOP, 0.0f, 1.0f),
                     MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_crossfade(NULL, &pain, MD2_PLAY_LOOP, 0.0f, 1.0f),
                     MD2_ERR_INVALID_ARGUMENT);
    expect_frames(&p, 6, 7, 0.0f);
}

/* ------------------------------------------------------------------------ */
/* Bounds and skins                                                          */
/* ------------------------------------------------------------------------ */

static void check_bounds_contain_pose(const md2_player *p, const md2_model *m)
{
    float pos[NV * 3], mn[3], mx[3];
    int i, k;
    assert_int_equal(md2_player_bounds(p, m, mn, mx), MD2_OK);
    assert_int_equal(md2_player_pose(p, m, pos, 0, NULL, 0), MD2_OK);
    for (i = 0; i < NV; i++)
        for (k = 0; k < 3; k++) {
            float tol = 1e-5f * (1.0f + fabsf(pos[3 * i + k]));
            assert_true(pos[3 * i + k] >= mn[k] - tol);
            assert_true(pos[3 * i + k] <= mx[k] + tol);
        }
}

static void test_bounds(void **state)
{
    synth s;
    md2_player p;
    md2_anim run = make_anim("run", 0, 5, 10.0f, 1);
    md2_anim stand = make_anim("stand", 6, 13, 10.0f, 1);
    float mn[3], mx[3], fmn[3], fmx[3], umn[3], umx[3];
    int step, k;
    (void)state;
    synth_init(&s);
    md2_player_init(&p);
    md2_player_play(&p, &run, MD2_PLAY_LOOP, MD2_RATE_ANIM);
    /* at a keyframe: exactly that frame's box */
    md2_player_seek(&p, 2.0);
    assert_int_equal(md2_player_bounds(&p, &s.m, mn, mx), MD2_OK);
    assert_int_equal(md2_frame_bounds(&s.m, 2, fmn, fmx), MD2_OK);
    assert_memory_equal(mn, fmn, sizeof mn);
    assert_memory_equal(mx, fmx, sizeof mx);
    /* between keyframes: contains the pose, inside the union */
    md2_player_seek(&p, 2.3);
    assert_int_equal(md2_player_bounds(&p, &s.m, mn, mx), MD2_OK);
    md2_frame_bounds(&s.m, 3, umn, umx);
    for (k = 0; k < 3; k++) {
        float lo = fmn[k] < umn[k] ? fmn[k] : umn[k];
        float hi = fmx[k] > umx[k] ? fmx[k] : umx[k];
        assert_true(mn[k] >= lo && mx[k] <= hi);
        assert_true(close_to(mn[k], 0.7 * fmn[k] + 0.3 * umn[k], 1e-4));
    }
    for (step = 0; step < 50; step++) {
        check_bounds_contain_pose(&p, &s.m);
        if (step == 10)
            md2_player_crossfade(&p, &stand, MD2_PLAY_PINGPONG, MD2_RATE_ANIM, 1.0f);
        md2_player_advance(&p, 0.0371);
    }
    assert_int_equal(md2_player_bounds(NULL, &s.m, mn, mx), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_bounds(&p, NULL, mn, mx), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_player_bounds(&p, &s.m, NULL, mx), MD2_ERR_INVALID_ARGUMENT);
    run = make_anim("beyond", 20, 30, 10.0f, 1);
    md2_player_play(&p, &run, MD2_PLAY_LOOP, MD2_RATE_ANIM);
    md2_player_seek(&p, 5.5);
    assert_int_equal(md2_player_bounds(&p, &s.m, mn, mx), MD2_ERR_FRAME_RANGE);
}

static void test_skins(void **state)
{
    synth s;
    md2_player a, b;
    (void)state;
    synth_init(&s);
    md2_player_init(&a);
    md2_player_init(&b);
    md2_player_set_skin(&b, 1);
    assert_int_equal(md2_player_skin(&a), 0);
    assert_int_equal(md2_player_skin(&b), 1);
    assert_string_equal(md2_player_skin_name(&a, &s.m), "models/a/skin.pcx");
    assert_string_equal(md2_player_skin_name(&b, &s.m), "models/a/evil.pcx");
    md2_player_set_skin(&b, 7); /* the caller's own texture list */
    assert_int_equal(md2_player_skin(&b), 7);
    assert_null(md2_player_skin_name(&b, &s.m));
    assert_null(md2_player_skin_name(NULL, &s.m));
    assert_null(md2_player_skin_name(&a, NULL));
    assert_int_equal(md2_player_skin(NULL), 0);
    md2_player_set_skin(NULL, 3);
    /* playing does not change the skin */
    md2_player_play(&b, md2_anims_quake2_player(NULL), MD2_PLAY_LOOP, MD2_RATE_ANIM);
    assert_int_equal(md2_player_skin(&b), 7);
}

/* ------------------------------------------------------------------------ */
/* Many instances, several threads                                           */
/* ------------------------------------------------------------------------ */

#define INSTANCES 12
#define STEPS 300

typedef struct job {
    const md2_model *m;
    const md2_anim *anims;
    size_t count;
    int first_instance;     /* instances first_instance, +threads, ... */
    int stride;
    uint64_t hash[INSTANCES];
    int failed;
} job;

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Plays instance i: its own animation, mode, rate, phase, skin and a
 * cross-fade midway; hashes every pose and box. */
static void run_instance(const md2_model *m, const md2_anim *anims, size_t count,
                         int i, uint64_t *hash, int *failed, float *pos, float *nrm)
{
    md2_player p;
    const md2_anim *a = &anims[(size_t)i % count];
    const md2_anim *b = &anims[(size_t)(i + 1) % count];
    md2_play_mode mode = (md2_play_mode)(1 + i % 3);
    uint64_t h = 1469598103934665603ull;
    float mn[3], mx[3];
    int step;

    md2_player_init(&p);
    md2_player_set_skin(&p, (uint32_t)i);
    if (md2_player_play(&p, a, mode, 5.0f + (float)i) != MD2_OK ||
        md2_player_seek(&p, 0.37 * i) != MD2_OK) {
        *failed = 1;
        return;
    }
    for (step = 0; step < STEPS; step++) {
        unsigned ev = md2_player_advance(&p, 1.0 / 60.0 + 0.001 * (i % 4));
        if (step == STEPS / 2)
            md2_player_crossfade(&p, b, MD2_PLAY_LOOP, MD2_RATE_ANIM, 0.3f);
        if (md2_player_pose(&p, m, pos, 0, nrm, 0) != MD2_OK ||
            md2_normalize(nrm, m->num_vertices, 0) != MD2_OK ||
            md2_player_bounds(&p, m, mn, mx) != MD2_OK) {
            *failed = 1;
            return;
        }
        h = fnv(h, &ev, sizeof ev);
        h = fnv(h, pos, m->num_vertices * 3 * sizeof(float));
        h = fnv(h, nrm, m->num_vertices * 3 * sizeof(float));
        h = fnv(h, mn, sizeof mn);
        h = fnv(h, mx, sizeof mx);
    }
    if (md2_player_skin(&p) != (uint32_t)i)
        *failed = 1;
    *hash = h;
}

static void *run_job(void *arg)
{
    job *j = (job *)arg;
    float *pos = (float *)malloc(j->m->num_vertices * 3 * sizeof(float));
    float *nrm = (float *)malloc(j->m->num_vertices * 3 * sizeof(float));
    if (!pos || !nrm) {
        j->failed = 1;
    } else {
        int i;
        for (i = j->first_instance; i < INSTANCES; i += j->stride)
            run_instance(j->m, j->anims, j->count, i, &j->hash[i], &j->failed, pos, nrm);
    }
    free(pos);
    free(nrm);
    return NULL;
}

static void threads_on_model(const md2_model *m)
{
#if TP_THREADS
    enum { THREADS = 4 };
    md2_anim anims[64];
    size_t count = md2_anims_from_names(m, anims, 64);
    job single, jobs[THREADS];
    pthread_t tid[THREADS];
    int t, i;

    assert_true(count > 0 && count <= 64);
    memset(&single, 0, sizeof single);
    single.m = m;
    single.anims = anims;
    single.count = count;
    single.first_instance = 0;
    single.stride = 1;
    run_job(&single); /* the reference, on one thread */
    assert_int_equal(single.failed, 0);
    for (i = 1; i < INSTANCES; i++)
        assert_true(single.hash[i] != single.hash[0]); /* instances differ */

    for (t = 0; t < THREADS; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].m = m;
        jobs[t].anims = anims;
        jobs[t].count = count;
        jobs[t].first_instance = t;
        jobs[t].stride = THREADS;
        assert_int_equal(pthread_create(&tid[t], NULL, run_job, &jobs[t]), 0);
    }
    for (t = 0; t < THREADS; t++)
        assert_int_equal(pthread_join(tid[t], NULL), 0);
    for (i = 0; i < INSTANCES; i++) {
        assert_int_equal(jobs[i % THREADS].failed, 0);
        assert_true(jobs[i % THREADS].hash[i] == single.hash[i]);
    }
#else
    (void)m;
    skip();
#endif
}

static void test_threads_synthetic(void **state)
{
    synth s;
    (void)state;
    synth_init(&s);
    threads_on_model(&s.m);
}

static void test_threads_faerie(void **state)
{
    char path[512];
    md2_model *m = NULL;
    FILE *f;
    (void)state;
    snprintf(path, sizeof path, "%s/corpus/faerie.md2", MD2_SHARED_DIR);
    f = fopen(path, "rb");
    if (!f) {
        skip();
        return;
    }
    fclose(f);
    assert_int_equal(md2_load_file(path, NULL, &m), MD2_OK);
    threads_on_model(m);
    md2_free(m);
}

/* ------------------------------------------------------------------------ */
/* No allocation                                                             */
/* ------------------------------------------------------------------------ */

typedef struct counting {
    size_t allocs, frees;
} counting;

static void *count_alloc(void *user, size_t size)
{
    ((counting *)user)->allocs++;
    return malloc(size);
}

static void count_free(void *user, void *ptr)
{
    ((counting *)user)->frees++;
    free(ptr);
}

/* A model parsed with a counting allocator: its one allocation happens at
 * load; playback on it adds none. */
static void test_no_allocation_after_load(void **state)
{
    synth s;
    static unsigned char file[65536];
    size_t size = 0, n;
    counting c = {0, 0};
    md2_options opts;
    md2_model *m = NULL;
    md2_anim anims[16];
    md2_player p;
    float pos[NV * 3], mn[3], mx[3];
    int i;
    (void)state;
    synth_init(&s);
    s.m.skin_width = 64;
    s.m.skin_height = 64;
    assert_int_equal(md2_write(&s.m, file, sizeof file, &size, NULL), MD2_OK);
    memset(&opts, 0, sizeof opts);
    opts.allocator.alloc = count_alloc;
    opts.allocator.free = count_free;
    opts.allocator.user = &c;
    assert_int_equal(md2_parse(file, size, &opts, &m), MD2_OK);
    assert_int_equal(c.allocs, 1);
    n = md2_anims_from_names(m, anims, 16);
    md2_player_init(&p);
    md2_player_play_named(&p, anims, n, "run", MD2_PLAY_LOOP, MD2_RATE_ANIM);
    for (i = 0; i < 100; i++) {
        md2_player_advance(&p, 0.016);
        if (i == 50)
            md2_player_crossfade(&p, &anims[1], MD2_PLAY_PINGPONG, MD2_RATE_ANIM, 0.2f);
        assert_int_equal(md2_player_pose(&p, m, pos, 0, NULL, 0), MD2_OK);
        assert_int_equal(md2_player_bounds(&p, m, mn, mx), MD2_OK);
    }
    assert_int_equal(c.allocs, 1);
    assert_int_equal(c.frees, 0);
    md2_free(m);
    assert_int_equal(c.frees, 1);
}

/* By construction: the playback, grouping and side-file sources call no
 * allocator. Checked on the source text when the build says where it is. */
#ifdef MD2_EXAMPLES_DIR
static int mentions_call(const char *text, const char *fn)
{
    const char *p = text;
    size_t n = strlen(fn);
    while ((p = strstr(p, fn)) != NULL) {
        char before = p == text ? ' ' : p[-1];
        const char *q = p + n;
        int ident = (before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z') ||
                    (before >= '0' && before <= '9') || before == '_';
        while (*q == ' ')
            q++;
        if (!ident && *q == '(')
            return 1;
        p += n;
    }
    return 0;
}
#endif

static void test_sources_do_not_allocate(void **state)
{
#ifdef MD2_EXAMPLES_DIR
    static const char *const files[] = {"animations.c", "playback.c", "sidefiles.c"};
    static const char *const calls[] = {"malloc", "calloc", "realloc", "free"};
    static char text[262144];
    size_t i, j;
    (void)state;
    for (i = 0; i < 3; i++) {
        char path[512];
        FILE *f;
        size_t len;
        snprintf(path, sizeof path, "%s/../src/%s", MD2_EXAMPLES_DIR, files[i]);
        f = fopen(path, "rb");
        if (!f) {
            skip();
            return;
        }
        len = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[len] = '\0';
        for (j = 0; j < 4; j++) {
            if (mentions_call(text, calls[j]))
                print_message("%s calls %s\n", files[i], calls[j]);
            assert_false(mentions_call(text, calls[j]));
        }
    }
#else
    (void)state;
    skip();
#endif
}

/* ------------------------------------------------------------------------ */
/* docs/animation.md: "Playing run on two characters that share one model"   */
/* ------------------------------------------------------------------------ */

/* BEGIN DOC SNIPPET (docs/animation.md repeats this code verbatim) */
typedef struct character {
    md2_player player; /* this character's animation state */
    float *positions;  /* model->num_vertices * 3 floats */
} character;

/* Both characters play "run" on one shared model, Bob half a cycle ahead
 * of Alice and with the second skin. */
static md2_result start_running(const md2_model *model, character *alice,
                                character *bob)
{
    md2_anim anims[64];
    size_t count = md2_anims_from_names(model, anims, 64);
    md2_result r;

    md2_player_init(&alice->player);
    md2_player_init(&bob->player);
    r = md2_player_play_named(&alice->player, anims, count, "run",
                              MD2_PLAY_LOOP, MD2_RATE_ANIM);
    if (r == MD2_OK)
        r = md2_player_play_named(&bob->player, anims, count, "run",
                                  MD2_PLAY_LOOP, MD2_RATE_ANIM);
    if (r == MD2_OK)
        r = md2_player_seek(&bob->player, 3.0);
    md2_player_set_skin(&bob->player, 1);
    return r;
}

/* Every game frame: advance each character and write its own pose. */
static md2_result update_character(const md2_model *model, character *c,
                                   double dt)
{
    md2_player_advance(&c->player, dt);
    return md2_player_pose(&c->player, model, c->positions, 0, NULL, 0);
}
/* END DOC SNIPPET */

/* The example stays in bounds on a hostile model with more animations than
 * its array holds: 100 frames named a, b, a, b, ... give 100 animations. */
static void test_doc_two_characters_hostile(void **state)
{
    enum { FRAMES = 100 };
    md2_frame frames[FRAMES];
    md2_vertex verts[FRAMES];
    md2_model m;
    character alice, bob;
    float pa[3], pb[3];
    size_t f;
    (void)state;
    memset(&m, 0, sizeof m);
    memset(frames, 0, sizeof frames);
    memset(verts, 0, sizeof verts);
    for (f = 0; f < FRAMES; f++) {
        frames[f].name[0] = (f % 2) ? 'b' : 'a';
        frames[f].scale[0] = frames[f].scale[1] = frames[f].scale[2] = 1.0f;
        frames[f].vertices = &verts[f];
    }
    /* "run" exists, but only past the 64 animations the example keeps */
    strcpy(frames[FRAMES - 1].name, "run");
    m.num_frames = FRAMES;
    m.num_vertices = 1;
    m.frames = frames;
    assert_int_equal(md2_anims_from_names(&m, NULL, 0), FRAMES);
    alice.positions = pa;
    bob.positions = pb;
    assert_int_equal(start_running(&m, &alice, &bob), MD2_ERR_NOT_FOUND);
}

static void test_doc_two_characters(void **state)
{
    synth s;
    character alice, bob;
    float pa[NV * 3], pb[NV * 3], ref[NV * 3];
    md2_player_frames sa, sb;
    int i;
    (void)state;
    synth_init(&s);
    alice.positions = pa;
    bob.positions = pb;
    assert_int_equal(start_running(&s.m, &alice, &bob), MD2_OK);
    for (i = 0; i < 10; i++) {
        assert_int_equal(update_character(&s.m, &alice, 1.0 / 60.0), MD2_OK);
        assert_int_equal(update_character(&s.m, &bob, 1.0 / 60.0), MD2_OK);
    }
    md2_player_state(&alice.player, &sa);
    md2_player_state(&bob.player, &sb);
    /* run is frames 0-5 at 10 fps: after 1/6 s Alice is at 1.667, Bob at 4.667 */
    assert_int_equal(sa.frame_a, 1);
    assert_int_equal(sb.frame_a, 4);
    assert_true(close_to(sa.t, 2.0 / 3.0, 1e-5) && close_to(sb.t, 2.0 / 3.0, 1e-5));
    assert_int_equal(md2_lerp(&s.m, 1, 2, sa.t, ref, 0, NULL, 0), MD2_OK);
    assert_memory_equal(pa, ref, sizeof pa);
    assert_int_equal(md2_lerp(&s.m, 4, 5, sb.t, ref, 0, NULL, 0), MD2_OK);
    assert_memory_equal(pb, ref, sizeof pb);
    assert_string_equal(md2_player_skin_name(&alice.player, &s.m), "models/a/skin.pcx");
    assert_string_equal(md2_player_skin_name(&bob.player, &s.m), "models/a/evil.pcx");
}

/* The snippet above and the one in docs/animation.md are the same text. */
static void test_doc_snippet_matches(void **state)
{
#ifdef MD2_EXAMPLES_DIR
    static char src[262144], doc[262144];
    const char *begin_mark = "/* BEGIN DOC SNIPPET (docs/animation.md repeats this code verbatim) */\n";
    const char *end_mark = "/* END DOC SNIPPET */";
    const char *s0, *s1, *d0;
    char path[512];
    FILE *f;
    size_t len;
    (void)state;
    snprintf(path, sizeof path, "%s/../tests/unit/test_playback.c", MD2_EXAMPLES_DIR);
    f = fopen(path, "rb");
    if (!f) {
        skip();
        return;
    }
    len = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[len] = '\0';
    snprintf(path, sizeof path, "%s/../docs/animation.md", MD2_EXAMPLES_DIR);
    f = fopen(path, "rb");
    if (!f) {
        skip();
        return;
    }
    len = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[len] = '\0';
    /* (the literal above spells the newline as an escape, so only the real
     * mark matches) */
    s0 = strstr(src, begin_mark);
    assert_non_null(s0);
    s0 += strlen(begin_mark);
    s1 = strstr(s0, end_mark);
    assert_non_null(s1);
    d0 = strstr(doc, "```c\n#include <md2/animation.h>\n\n");
    assert_non_null(d0);
    d0 += strlen("```c\n#include <md2/animation.h>\n\n");
    assert_true(strncmp(d0, s0, (size_t)(s1 - s0)) == 0);
    assert_true(strncmp(d0 + (s1 - s0), "```", 3) == 0);
#else
    (void)state;
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init),
        cmocka_unit_test(test_loop_timing_and_wrap),
        cmocka_unit_test(test_once_holds_last),
        cmocka_unit_test(test_pingpong),
        cmocka_unit_test(test_default_mode),
        cmocka_unit_test(test_rates),
        cmocka_unit_test(test_bad_steps),
        cmocka_unit_test(test_play_errors),
        cmocka_unit_test(test_seek),
        cmocka_unit_test(test_no_drift_loop),
        cmocka_unit_test(test_no_drift_pingpong),
        cmocka_unit_test(test_no_drift_on_boundary),
        cmocka_unit_test(test_pose_matches_lerp),
        cmocka_unit_test(test_crossfade),
        cmocka_unit_test(test_crossfade_events),
        cmocka_unit_test(test_crossfade_during_fade),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_skins),
        cmocka_unit_test(test_threads_synthetic),
        cmocka_unit_test(test_threads_faerie),
        cmocka_unit_test(test_no_allocation_after_load),
        cmocka_unit_test(test_sources_do_not_allocate),
        cmocka_unit_test(test_doc_two_characters),
        cmocka_unit_test(test_doc_two_characters_hostile),
        cmocka_unit_test(test_doc_snippet_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
