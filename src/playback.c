/*
 * Per-instance playback: play modes, drift-free time, cross-fades, pose
 * output, interpolated bounds and skin choice. The player is caller-owned
 * plain data; the model is only read. Never allocates.
 *
 * SPDX-License-Identifier: MIT
 */
#include "player.h"
#include "reserved.h"

#include <math.h>
#include <string.h>

/* One animation's playhead. */
typedef struct playhead {
    md2_anim anim_;
    md2_play_mode mode_;  /* resolved: never MD2_PLAY_DEFAULT */
    float rate_;          /* keyframes per second */
    uint64_t whole_;      /* whole keyframes into the cycle */
    double frac_;         /* fraction of a keyframe, in [0, 1) */
    int finished_;        /* a once-animation reached its end */
} playhead;

/* What an md2_player holds. The public type is opaque storage of a fixed
 * size; the state is copied in and out with memcpy (valid whatever the
 * storage's declared type), so this struct may change between releases. */
typedef struct player_state {
    playhead cur_;          /* the current (incoming) animation */
    playhead out_;          /* the outgoing animation while fading */
    double fade_elapsed_;   /* seconds into the cross-fade */
    double fade_duration_;  /* 0: no cross-fade */
    uint32_t skin_;
} player_state;

/* compile-time check: the state fits the public storage */
typedef char md2__player_state_fits[sizeof(player_state) <= sizeof(md2_player) ? 1 : -1];

static player_state load(const md2_player *p)
{
    player_state st;
    memcpy(&st, p, sizeof st);
    return st;
}

static void store(md2_player *p, const player_state *st)
{
    memcpy(p, st, sizeof *st);
}

/* Above this many keyframes a double no longer holds a fraction. */
#define HUGE_STEP 4503599627370496.0 /* 2^52 */

/* ------------------------------------------------------------------------ */
/* Playheads                                                                 */
/* ------------------------------------------------------------------------ */

static uint64_t anim_frames(const md2_anim *a)
{
    return (uint64_t)a->last - (uint64_t)a->first + 1u;
}

/* Keyframes in one cycle of the playhead: n for a loop, 2 (n - 1) for a
 * ping-pong (1 for a one-frame animation); for a once-animation the last
 * position, n - 1. */
static uint64_t span(const playhead *h)
{
    uint64_t n = anim_frames(&h->anim_);
    switch (h->mode_) {
    case MD2_PLAY_PINGPONG: return n > 1 ? 2u * (n - 1u) : 1u;
    case MD2_PLAY_ONCE: return n - 1u;
    default: return n;
    }
}

static int valid_mode(md2_play_mode mode)
{
    return mode == MD2_PLAY_DEFAULT || mode == MD2_PLAY_LOOP ||
           mode == MD2_PLAY_ONCE || mode == MD2_PLAY_PINGPONG;
}

/* The rate to use: the animation's fps for a negative rate. Returns 0 if
 * the rate cannot be used. */
static int resolve_rate(const md2_anim *a, float rate, float *out)
{
    if (!isfinite(rate))
        return 0;
    if (rate < 0.0f) {
        if (!(a->fps >= 0.0f) || !isfinite(a->fps))
            return 0; /* fps 0 (a side file's hold) plays at rate 0 */
        rate = a->fps;
    }
    *out = rate;
    return 1;
}

static md2_result playhead_start(playhead *h, const md2_anim *anim,
                                 md2_play_mode mode, float rate)
{
    float r;

    if (!anim || anim->first > anim->last || !valid_mode(mode) ||
        !resolve_rate(anim, rate, &r))
        return MD2_ERR_INVALID_ARGUMENT;
    memset(h, 0, sizeof *h);
    h->anim_ = *anim;
    h->anim_.name[MD2_ANIM_NAME_SIZE] = '\0';
    if (mode == MD2_PLAY_DEFAULT)
        mode = anim->loop ? MD2_PLAY_LOOP : MD2_PLAY_ONCE;
    h->mode_ = mode;
    h->rate_ = r;
    h->whole_ = 0;
    h->frac_ = 0.0;
    h->finished_ = 0;
    return MD2_OK;
}

/* Puts the playhead at 'whole' keyframes (a non-negative integral double)
 * plus frac, wrapping or clamping by mode. Returns 1 if a cycle boundary
 * was passed (loop, ping-pong) or the end reached (once). */
static int playhead_place(playhead *h, double whole, double frac)
{
    double s = (double)span(h);

    if (h->mode_ == MD2_PLAY_ONCE) {
        if (whole >= s) {
            h->whole_ = (uint64_t)s;
            h->frac_ = 0.0;
            return 1;
        }
        h->whole_ = (uint64_t)whole;
        h->frac_ = frac;
        return 0;
    }
    h->frac_ = frac;
    if (whole >= s) {
        h->whole_ = (uint64_t)fmod(whole, s); /* exact */
        return 1;
    }
    h->whole_ = (uint64_t)whole;
    return 0;
}

/* Advances by delta keyframes (finite, >= 0). Returns MD2_EVENT_* flags.
 * Only the fraction is rounded (once, in frac + delta); whole keyframes
 * are counted exactly, so many small steps equal one large step. */
static unsigned playhead_advance(playhead *h, double delta)
{
    unsigned events = 0;
    int passed;

    if (delta >= HUGE_STEP) {
        /* more keyframes than a double can count with a fraction: the
         * phase is meaningless; keep it and report the wrap or the end */
        passed = playhead_place(h, (double)span(h) + (double)h->whole_, h->frac_);
    } else {
        double s = h->frac_ + delta;
        double k = floor(s);
        passed = playhead_place(h, (double)h->whole_ + k, s - k);
    }
    if (h->mode_ == MD2_PLAY_ONCE) {
        if (h->whole_ >= span(h) && !h->finished_) {
            h->finished_ = 1;
            events |= MD2_EVENT_FINISHED;
        }
    } else if (passed) {
        events |= MD2_EVENT_LOOPED;
    }
    return events;
}

/* The keyframes and fraction a playhead shows. */
static void playhead_frames(const playhead *h, uint32_t *fa, uint32_t *fb,
                            float *t)
{
    const md2_anim *a = &h->anim_;
    uint64_t n = anim_frames(a);
    uint64_t w = h->whole_;

    *t = (float)h->frac_;
    if (n == 1) {
        *fa = *fb = a->first;
        *t = 0.0f;
        return;
    }
    switch (h->mode_) {
    case MD2_PLAY_ONCE:
        if (w >= n - 1u) {
            *fa = *fb = a->last;
            *t = 0.0f;
        } else {
            *fa = (uint32_t)(a->first + w);
            *fb = *fa + 1u;
        }
        break;
    case MD2_PLAY_PINGPONG:
        if (w < n - 1u) {
            *fa = (uint32_t)(a->first + w);
            *fb = *fa + 1u;
        } else {
            *fa = (uint32_t)(a->last - (w - (n - 1u)));
            *fb = *fa - 1u;
        }
        break;
    default: /* loop: the last keyframe blends into the first */
        *fa = (uint32_t)(a->first + w);
        *fb = (w + 1u < n) ? *fa + 1u : a->first;
        break;
    }
}

/* Weight of the current animation during a cross-fade, in [0, 1]. */
static float fade_weight(const player_state *p)
{
    double w;
    if (!(p->fade_duration_ > 0.0))
        return 1.0f;
    w = p->fade_elapsed_ / p->fade_duration_;
    if (w >= 1.0)
        return 1.0f;
    if (!(w > 0.0))
        return 0.0f;
    return (float)w;
}

/* Switches st to h at once (no cross-fade). */
static void hard_switch(player_state *st, const playhead *h)
{
    st->cur_ = *h;
    st->out_ = *h;
    st->fade_elapsed_ = 0.0;
    st->fade_duration_ = 0.0;
}

static void state_frames(const player_state *st, md2_player_frames *out)
{
    memset(out, 0, sizeof *out);
    playhead_frames(&st->cur_, &out->frame_a, &out->frame_b, &out->t);
    out->weight = fade_weight(st);
    if (out->weight < 1.0f) {
        playhead_frames(&st->out_, &out->from_a, &out->from_b, &out->from_t);
    } else {
        out->from_a = out->frame_a;
        out->from_b = out->frame_b;
        out->from_t = out->t;
    }
}

/* ------------------------------------------------------------------------ */
/* Public playback calls                                                     */
/* ------------------------------------------------------------------------ */

void md2_player_init(md2_player *p)
{
    player_state st;
    md2_anim still;

    if (!p)
        return;
    memset(p, 0, sizeof *p);
    memset(&st, 0, sizeof st);
    memset(&still, 0, sizeof still);
    still.first = 0;
    still.last = 0;
    still.fps = MD2_ANIM_DEFAULT_FPS;
    still.loop = 0;
    (void)playhead_start(&st.cur_, &still, MD2_PLAY_ONCE, MD2_RATE_ANIM);
    st.cur_.finished_ = 1; /* a new player reports no event */
    hard_switch(&st, &st.cur_);
    st.skin_ = 0;
    store(p, &st);
}

md2_result md2_player_play(md2_player *p, const md2_anim *anim,
                           md2_play_mode mode, float rate)
{
    player_state st;
    playhead h;
    md2_result r;

    if (!p)
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_anims(anim, 1, NULL));
    if ((r = playhead_start(&h, anim, mode, rate)) != MD2_OK)
        return r;
    st = load(p);
    hard_switch(&st, &h);
    store(p, &st);
    return MD2_OK;
}

md2_result md2_player_play_named(md2_player *p, const md2_anim *anims,
                                 size_t count, const char *name,
                                 md2_play_mode mode, float rate)
{
    size_t i;

    if (!p || !name || (!anims && count > 0))
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_anims(anims, count, NULL));
    i = md2_anim_find(anims, count, name);
    if (i == MD2_ANIM_NOT_FOUND)
        return MD2_ERR_NOT_FOUND;
    return md2_player_play(p, &anims[i], mode, rate);
}

md2_result md2_player_crossfade(md2_player *p, const md2_anim *anim,
                                md2_play_mode mode, float rate, float duration)
{
    player_state st;
    playhead h;
    md2_result r;

    if (!p || !isfinite(duration))
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_anims(anim, 1, NULL));
    if ((r = playhead_start(&h, anim, mode, rate)) != MD2_OK)
        return r;
    st = load(p);
    if (!(duration > 0.0f)) {
        hard_switch(&st, &h);
    } else {
        /* the outgoing pose: the current animation, or during a
         * cross-fade the one of the two that weighs more */
        if (fade_weight(&st) >= 0.5f)
            st.out_ = st.cur_;
        st.cur_ = h;
        st.fade_elapsed_ = 0.0;
        st.fade_duration_ = (double)duration;
    }
    store(p, &st);
    return MD2_OK;
}

md2_result md2_player_set_rate(md2_player *p, float rate)
{
    player_state st;
    float r;

    if (!p)
        return MD2_ERR_INVALID_ARGUMENT;
    st = load(p);
    if (!resolve_rate(&st.cur_.anim_, rate, &r))
        return MD2_ERR_INVALID_ARGUMENT;
    st.cur_.rate_ = r;
    store(p, &st);
    return MD2_OK;
}

md2_result md2_player_seek(md2_player *p, double position)
{
    player_state st;
    double k;

    if (!p || !(position >= 0.0) || !isfinite(position))
        return MD2_ERR_INVALID_ARGUMENT;
    st = load(p);
    k = floor(position);
    (void)playhead_place(&st.cur_, k, position - k);
    st.cur_.finished_ = 0;
    store(p, &st);
    return MD2_OK;
}

unsigned md2_player_advance(md2_player *p, double dt)
{
    player_state st;
    unsigned events;

    if (!p)
        return 0;
    if (!(dt > 0.0) || !isfinite(dt))
        dt = 0.0;
    st = load(p);
    events = playhead_advance(&st.cur_, dt * (double)st.cur_.rate_);
    if (st.fade_duration_ > 0.0) {
        (void)playhead_advance(&st.out_, dt * (double)st.out_.rate_);
        st.fade_elapsed_ += dt;
        if (st.fade_elapsed_ >= st.fade_duration_) {
            hard_switch(&st, &st.cur_);
            events |= MD2_EVENT_FADE_DONE;
        }
    }
    store(p, &st);
    return events;
}

void md2_player_state(const md2_player *p, md2_player_frames *out)
{
    player_state st;
    if (!p || !out)
        return;
    st = load(p);
    state_frames(&st, out);
}

md2_anim md2_player_anim(const md2_player *p)
{
    md2_anim a;
    player_state st;
    if (!p) {
        memset(&a, 0, sizeof a);
        return a;
    }
    st = load(p);
    return st.cur_.anim_;
}

double md2_player_position(const md2_player *p)
{
    player_state st;
    if (!p)
        return 0.0;
    st = load(p);
    return (double)st.cur_.whole_ + st.cur_.frac_;
}

int md2_player_finished(const md2_player *p)
{
    player_state st;
    if (!p)
        return 0;
    st = load(p);
    return st.cur_.mode_ == MD2_PLAY_ONCE && st.cur_.whole_ >= span(&st.cur_);
}

int md2_player_fading(const md2_player *p)
{
    player_state st;
    if (!p)
        return 0;
    st = load(p);
    return st.fade_duration_ > 0.0;
}

/* ------------------------------------------------------------------------ */
/* Poses                                                                     */
/* ------------------------------------------------------------------------ */

md2_result md2__pose_frames(md2__pose_job *job, const md2_model *m,
                            const md2_player_frames *st)
{
    MD2_TRY(md2__check_frame(m, st->frame_a));
    MD2_TRY(md2__check_frame(m, st->frame_b));
    MD2_TRY(md2__check_frame(m, st->from_a));
    MD2_TRY(md2__check_frame(m, st->from_b));
    md2__pose_setup(job, &m->frames[st->frame_a], &m->frames[st->frame_b], st->t);
    if (st->weight < 1.0f) /* else no cross-fade: exactly md2_lerp() */
        md2__pose_fade(job, &m->frames[st->from_a], &m->frames[st->from_b], st->from_t,
                       st->weight);
    return MD2_OK;
}

md2_result md2__pose_frames_write(const md2_model *m, const md2_player_frames *st,
                                  float *positions, size_t position_stride, float *normals,
                                  size_t normal_stride)
{
    md2__pose_job job;
    size_t ps = md2__stride_floats(position_stride);
    size_t ns = md2__stride_floats(normal_stride);

    if (!positions || !m->frames || ps == 0 || (normals && ns == 0))
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_model(m, NULL));
    MD2_TRY(md2__pose_frames(&job, m, st));
    md2__pose_write(&job, m->num_vertices, positions, ps, normals, ns);
    return MD2_OK;
}

md2_result md2_player_pose(const md2_player *p, const md2_model *m,
                           float *positions, size_t position_stride,
                           float *normals, size_t normal_stride)
{
    md2_player_frames st;

    if (!p || !m)
        return MD2_ERR_INVALID_ARGUMENT;
    md2_player_state(p, &st);
    return md2__pose_frames_write(m, &st, positions, position_stride, normals, normal_stride);
}

md2_result md2__frames_bounds(const md2_model *m, const md2_player_frames *st,
                              float min[3], float max[3])
{
    float mnc[3], mxc[3], mno[3], mxo[3], wo;
    int k;

    MD2_TRY(md2__pair_bounds(m, st->frame_a, st->frame_b, st->t, mnc, mxc));
    if (st->weight >= 1.0f) {
        memcpy(min, mnc, sizeof mnc);
        memcpy(max, mxc, sizeof mxc);
        return MD2_OK;
    }
    MD2_TRY(md2__pair_bounds(m, st->from_a, st->from_b, st->from_t, mno, mxo));
    wo = 1.0f - st->weight; /* as md2_player_pose() blends the two poses */
    for (k = 0; k < 3; k++) {
        min[k] = md2__keep2_lo(wo, mno[k], st->weight, mnc[k]);
        max[k] = md2__keep2_hi(wo, mxo[k], st->weight, mxc[k]);
    }
    return MD2_OK;
}

md2_result md2_player_bounds(const md2_player *p, const md2_model *m,
                             float min[3], float max[3])
{
    md2_player_frames st;

    if (!p || !m || !min || !max)
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_model(m, NULL));
    md2_player_state(p, &st);
    return md2__frames_bounds(m, &st, min, max);
}

/* ------------------------------------------------------------------------ */
/* Skins                                                                     */
/* ------------------------------------------------------------------------ */

void md2_player_set_skin(md2_player *p, uint32_t skin)
{
    player_state st;
    if (!p)
        return;
    st = load(p);
    st.skin_ = skin;
    store(p, &st);
}

uint32_t md2_player_skin(const md2_player *p)
{
    player_state st;
    if (!p)
        return 0u;
    st = load(p);
    return st.skin_;
}

const char *md2_player_skin_name(const md2_player *p, const md2_model *m)
{
    uint32_t skin = md2_player_skin(p);
    if (!p || !m || !m->skins || (size_t)skin >= m->num_skins)
        return NULL;
    if (md2__reserved_model(m, NULL) != MD2_OK)
        return NULL;
    return m->skins[skin].name;
}
