/*
 * Tests of animations from frame names, the Quake II player table, lookup
 * and validation: synthetic names for every rule and trap, and the real
 * models faerie.md2 and sydney.md2 (skipped when the corpus is absent).
 *
 * SPDX-License-Identifier: MIT
 */
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
/* Synthetic models with chosen frame names                                 */
/* ------------------------------------------------------------------------ */

#define SYN_MAX_FRAMES 256

typedef struct synth {
    md2_model m;
    md2_frame frames[SYN_MAX_FRAMES];
    md2_vertex verts[1];
} synth;

/* Sets frame i's 16 name bytes: name is copied up to its NUL (at most 16
 * bytes); the rest is zero. */
static void set_frame_name(synth *s, size_t i, const char *name)
{
    size_t n = strlen(name);
    if (n > MD2_FRAME_NAME_SIZE)
        n = MD2_FRAME_NAME_SIZE;
    memset(s->frames[i].name, 0, sizeof s->frames[i].name);
    memcpy(s->frames[i].name, name, n);
}

static void synth_init(synth *s, size_t num_frames)
{
    size_t i;
    assert_true(num_frames <= SYN_MAX_FRAMES);
    memset(s, 0, sizeof *s);
    for (i = 0; i < num_frames; i++) {
        s->frames[i].scale[0] = s->frames[i].scale[1] = s->frames[i].scale[2] = 1.0f;
        s->frames[i].vertices = s->verts;
    }
    s->m.num_vertices = 1;
    s->m.num_frames = num_frames;
    s->m.frames = s->frames;
}

/* A model whose frames are named from a list. */
static void synth_names(synth *s, const char *const *names, size_t n)
{
    size_t i;
    synth_init(s, n);
    for (i = 0; i < n; i++)
        set_frame_name(s, i, names[i]);
}

/* Appends frames prefix<from>..prefix<to> (printf format fmt for the
 * number, e.g. "%s%02d") starting at frame *at. */
static void add_seq(synth *s, size_t *at, const char *fmt, const char *prefix,
                    int from, int to)
{
    int k;
    char buf[64];
    for (k = from; k <= to; k++) {
        snprintf(buf, sizeof buf, fmt, prefix, k);
        assert_true(*at < SYN_MAX_FRAMES);
        set_frame_name(s, *at, buf);
        (*at)++;
    }
}

typedef struct expect {
    const char *name;
    uint32_t first, last;
} expect;

static void check_anims(const md2_model *m, const expect *e, size_t n)
{
    md2_anim anims[SYN_MAX_FRAMES];
    size_t count = md2_anims_from_names(m, anims, SYN_MAX_FRAMES);
    size_t i;

    if (count != n) {
        for (i = 0; i < count && i < SYN_MAX_FRAMES; i++)
            print_message("  got %s %u-%u\n", anims[i].name,
                          (unsigned)anims[i].first, (unsigned)anims[i].last);
    }
    assert_int_equal(count, n);
    for (i = 0; i < n; i++) {
        assert_string_equal(anims[i].name, e[i].name);
        assert_int_equal(anims[i].first, e[i].first);
        assert_int_equal(anims[i].last, e[i].last);
        assert_true(anims[i].fps == MD2_ANIM_DEFAULT_FPS);
        assert_int_equal(anims[i].loop, md2_anim_loops(e[i].name));
    }
}

/* ------------------------------------------------------------------------ */
/* Grouping rules and traps                                                  */
/* ------------------------------------------------------------------------ */

/* pain101..104, pain201..204, pain301..304: three sub-animations named by
 * their hundreds digit, and the same for death with uneven lengths. */
static void test_sub_animations(void **state)
{
    synth s;
    size_t at = 0;
    static const expect e[] = {
        {"pain1", 0, 3}, {"pain2", 4, 7}, {"pain3", 8, 11},
        {"death1", 12, 17}, {"death2", 18, 23}, {"death3", 24, 31},
    };
    (void)state;
    synth_init(&s, 32);
    add_seq(&s, &at, "%s%d", "pain", 101, 104);
    add_seq(&s, &at, "%s%d", "pain", 201, 204);
    add_seq(&s, &at, "%s%d", "pain", 301, 304);
    add_seq(&s, &at, "%s%d", "death", 101, 106);
    add_seq(&s, &at, "%s%d", "death", 201, 206);
    add_seq(&s, &at, "%s%d", "death", 301, 308);
    assert_int_equal(at, 32);
    check_anims(&s.m, e, 6);
}

/* death1..death20 continues by +1 throughout (9 -> 10 changes the digit
 * count, not the sequence): one animation, which grouping cannot split. */
static void test_continuous_numbers_one_clip(void **state)
{
    synth s;
    size_t at = 0;
    static const expect e[] = {{"pain", 0, 11}, {"death", 12, 31}};
    (void)state;
    synth_init(&s, 32);
    add_seq(&s, &at, "%s%d", "pain", 1, 12);
    add_seq(&s, &at, "%s%d", "death", 1, 20);
    check_anims(&s.m, e, 2);
}

/* With and without leading zeros; crossing 09 -> 10 and 99 -> 100. */
static void test_leading_zeros(void **state)
{
    synth s;
    size_t at = 0;
    static const expect e[] = {
        {"stand", 0, 39}, {"run", 40, 45}, {"walk", 46, 85},
        {"taunt", 86, 102}, {"swim", 103, 107},
    };
    (void)state;
    synth_init(&s, 108);
    add_seq(&s, &at, "%s%02d", "stand", 1, 40);
    add_seq(&s, &at, "%s%03d", "run", 1, 6);
    add_seq(&s, &at, "%s%d", "walk", 1, 40);
    add_seq(&s, &at, "%s%03d", "taunt", 1, 17);
    add_seq(&s, &at, "%s%d", "swim", 98, 102);
    check_anims(&s.m, e, 5);
}

/* Zero-based numbering and a continuous run across a leading digit
 * (frame099 -> frame100) stay one animation. */
static void test_zero_based_and_hundreds(void **state)
{
    synth s;
    size_t at = 0;
    static const expect e[] = {{"idle", 0, 4}, {"frame", 5, 124}};
    (void)state;
    synth_init(&s, 125);
    add_seq(&s, &at, "%s%d", "idle", 0, 4);
    add_seq(&s, &at, "%s%03d", "frame", 80, 199);
    check_anims(&s.m, e, 2);
}

/* Names without digits: consecutive equal names form one animation. */
static void test_names_without_digits(void **state)
{
    static const char *const names[] = {"idle", "idle", "idle", "walk", "walk", "idle"};
    static const expect e[] = {{"idle", 0, 2}, {"walk", 3, 4}, {"idle", 5, 5}};
    synth s;
    (void)state;
    synth_names(&s, names, 6);
    check_anims(&s.m, e, 3);
}

/* Every frame named alike: one animation over all frames. */
static void test_all_named_alike(void **state)
{
    static const char *const frame[] = {"frame", "frame", "frame", "frame"};
    static const char *const empty[] = {"", "", "", "", ""};
    static const char *const same_number[] = {"pose1", "pose1", "pose1"};
    static const expect e1[] = {{"frame", 0, 3}};
    static const expect e2[] = {{"", 0, 4}};
    static const expect e3[] = {{"pose", 0, 2}};
    synth s;
    (void)state;
    synth_names(&s, frame, 4);
    check_anims(&s.m, e1, 1);
    synth_names(&s, empty, 5);
    check_anims(&s.m, e2, 1);
    synth_names(&s, same_number, 3);
    check_anims(&s.m, e3, 1);
}

/* Names that fill all 16 bytes (no NUL in the file's field). */
static void test_sixteen_byte_names(void **state)
{
    static const char *const numbered[] = {
        "abcdefghijklmn01", "abcdefghijklmn02", "abcdefghijklmn03",
        "abcdefghijklmnop", "abcdefghijklmnop",
    };
    static const expect e[] = {{"abcdefghijklmn", 0, 2}, {"abcdefghijklmnop", 3, 4}};
    synth s;
    size_t i;
    (void)state;
    synth_names(&s, numbered, 5);
    for (i = 0; i < 5; i++)
        assert_int_equal(strlen(s.frames[i].name), 16);
    check_anims(&s.m, e, 2);
}

/* A hand-made model whose name bytes are not terminated within the 16
 * bytes of the file field is read only to 16 bytes. */
static void test_unterminated_hand_made_name(void **state)
{
    synth s;
    md2_anim a[2];
    (void)state;
    synth_init(&s, 2);
    memcpy(s.frames[0].name, "runrunrunrunrun1", 16);
    memcpy(s.frames[1].name, "runrunrunrunrun2", 16);
    s.frames[0].name[16] = 'X'; /* not a NUL: must not be read */
    s.frames[1].name[16] = 'Y';
    assert_int_equal(md2_anims_from_names(&s.m, a, 2), 1);
    assert_string_equal(a[0].name, "runrunrunrunrun");
    assert_int_equal(a[0].last, 1);
}

/* Ordinal names that no longer fit 16 bytes shorten the prefix. */
static void test_long_prefix_ordinals(void **state)
{
    synth s;
    md2_anim a[12];
    size_t i;
    (void)state;
    synth_init(&s, 12);
    for (i = 0; i < 12; i++) /* 5, 1, 5, 1: every frame starts anew */
        set_frame_name(&s, i, (i % 2) ? "abcdefghijklmno1" : "abcdefghijklmno5");
    assert_int_equal(md2_anims_from_names(&s.m, a, 12), 12);
    assert_string_equal(a[0].name, "abcdefghijklmno1");
    assert_string_equal(a[8].name, "abcdefghijklmno9");
    assert_string_equal(a[9].name, "abcdefghijklmn10");
    assert_string_equal(a[11].name, "abcdefghijklmn12");
    for (i = 0; i < 12; i++) {
        assert_int_equal(a[i].first, i);
        assert_int_equal(a[i].last, i);
    }
}

/* Digits inside a name are part of the prefix; only trailing digits count. */
static void test_digits_inside_names(void **state)
{
    static const char *const names[] = {
        "r2d2walk1", "r2d2walk2", "r2d2walk3", "mp5fire01", "mp5fire02",
        "crattak1", "crattak2", "crpain1",
    };
    static const expect e[] = {{"r2d2walk", 0, 2}, {"mp5fire", 3, 4},
                               {"crattak", 5, 6}, {"crpain", 7, 7}};
    synth s;
    (void)state;
    synth_names(&s, names, 8);
    check_anims(&s.m, e, 4);
}

/* A prefix run split by a restart or a gap that is not a sub-animation
 * pattern: parts are numbered in order. */
static void test_restart_and_gap(void **state)
{
    synth s;
    size_t at = 0;
    static const expect e[] = {
        {"walk1", 0, 2}, {"walk2", 3, 5}, {"jump1", 6, 7}, {"jump2", 8, 9},
        {"fall1", 10, 13}, {"fall2", 14, 15},
    };
    (void)state;
    synth_init(&s, 16);
    add_seq(&s, &at, "%s%d", "walk", 1, 3);
    add_seq(&s, &at, "%s%d", "walk", 1, 3);
    add_seq(&s, &at, "%s%d", "jump", 1, 2);
    add_seq(&s, &at, "%s%d", "jump", 5, 6);
    /* same leading digit twice: not a sub-animation pattern */
    add_seq(&s, &at, "%s%d", "fall", 101, 104);
    add_seq(&s, &at, "%s%d", "fall", 107, 108);
    check_anims(&s.m, e, 6);
}

/* A numbered name after an unnumbered one with the same prefix starts a
 * new animation. */
static void test_number_after_plain_name(void **state)
{
    static const char *const names[] = {"run", "run1", "run2"};
    static const expect e[] = {{"run1", 0, 0}, {"run2", 1, 2}};
    synth s;
    (void)state;
    synth_names(&s, names, 3);
    check_anims(&s.m, e, 2);
}

/* A lone sub-animation pattern (only pain101..104) is not split, so it
 * keeps the plain prefix; an adjacent different prefix ends a run. */
static void test_unsplit_hundreds_and_prefix_change(void **state)
{
    synth s;
    size_t at = 0;
    static const expect e[] = {{"crdeath", 0, 4}, {"death", 5, 10}};
    (void)state;
    synth_init(&s, 11);
    add_seq(&s, &at, "%s%d", "crdeath", 1, 5);
    add_seq(&s, &at, "%s%d", "death", 101, 106);
    check_anims(&s.m, e, 2);
}

/* Trailing separators are dropped from names (not from grouping). */
static void test_separators(void **state)
{
    static const char *const names[] = {"run_01", "run_02", "walk-1", "walk-2",
                                        "_1", "_2", "jump.1"};
    static const expect e[] = {{"run", 0, 1}, {"walk", 2, 3}, {"_", 4, 5}, {"jump", 6, 6}};
    synth s;
    (void)state;
    synth_names(&s, names, 7);
    check_anims(&s.m, e, 4);
}

/* Bytes after a name's NUL (garbage in real files) are ignored. */
static void test_garbage_after_nul(void **state)
{
    synth s;
    static const expect e[] = {{"run", 0, 1}};
    (void)state;
    synth_init(&s, 2);
    memcpy(s.frames[0].name, "run1\0garbage!!!!", 16);
    memcpy(s.frames[1].name, "run2\0other junk", 16);
    check_anims(&s.m, e, 1);
}

/* Digit-only names have an empty prefix. */
static void test_digit_only_names(void **state)
{
    static const char *const names[] = {"001", "002", "003"};
    static const expect e[] = {{"", 0, 2}};
    synth s;
    (void)state;
    synth_names(&s, names, 3);
    check_anims(&s.m, e, 1);
}

/* Sizing with NULL, partial output, NULL or empty models. */
static void test_capacity(void **state)
{
    synth s;
    size_t at = 0;
    md2_anim a[4];
    (void)state;
    synth_init(&s, 12);
    add_seq(&s, &at, "%s%d", "pain", 101, 104);
    add_seq(&s, &at, "%s%d", "pain", 201, 204);
    add_seq(&s, &at, "%s%d", "pain", 301, 304);

    assert_int_equal(md2_anims_from_names(&s.m, NULL, 0), 3);
    assert_int_equal(md2_anims_from_names(&s.m, NULL, 99), 3);
    memset(a, 0x5A, sizeof a);
    assert_int_equal(md2_anims_from_names(&s.m, a, 2), 2); /* written, not total */
    assert_string_equal(a[0].name, "pain1");
    assert_string_equal(a[1].name, "pain2");
    assert_int_equal((unsigned char)a[2].name[0], 0x5A); /* untouched */
    assert_int_equal(md2_anims_from_names(NULL, a, 4), 0);
    s.m.num_frames = 0;
    assert_int_equal(md2_anims_from_names(&s.m, a, 4), 0);
    s.m.num_frames = 12;
    s.m.frames = NULL;
    assert_int_equal(md2_anims_from_names(&s.m, a, 4), 0);
}

/* Names repeat when a model repeats a prefix; find returns the first. */
static void test_find(void **state)
{
    synth s;
    size_t at = 0;
    md2_anim a[8];
    size_t n;
    (void)state;
    synth_init(&s, 8);
    add_seq(&s, &at, "%s%d", "stand", 1, 3);
    add_seq(&s, &at, "%s%d", "run", 1, 2);
    add_seq(&s, &at, "%s%d", "stand", 1, 3);
    n = md2_anims_from_names(&s.m, a, 8);
    assert_int_equal(n, 3);
    assert_int_equal(md2_anim_find(a, n, "stand"), 0);
    assert_int_equal(md2_anim_find(a, n, "run"), 1);
    assert_int_equal(md2_anim_find(a, n, "walk"), MD2_ANIM_NOT_FOUND);
    assert_int_equal(md2_anim_find(a, n, "stan"), MD2_ANIM_NOT_FOUND);
    assert_int_equal(md2_anim_find(a, n, "stand1"), MD2_ANIM_NOT_FOUND);
    assert_int_equal(md2_anim_find(a, n, "an-overlong-name-of-20"), MD2_ANIM_NOT_FOUND);
    assert_int_equal(md2_anim_find(NULL, n, "run"), MD2_ANIM_NOT_FOUND);
    assert_int_equal(md2_anim_find(a, n, NULL), MD2_ANIM_NOT_FOUND);
    assert_int_equal(md2_anim_find(a, 0, "stand"), MD2_ANIM_NOT_FOUND);
}

/* md2_anim_idle(): "stand", else "idle" (any case, alone or followed by
 * digits), else the first that loops, else the first. */
static void test_idle(void **state)
{
    static const struct {
        const char *names;
        const char *loops;
        size_t idle;
    } cases[] = {
        {"death1 run Stand idle", "0110", 2},
        {"death1 IDLE run stand1", "0111", 3},
        {"death1 IDLE run stands1", "0111", 1},
        {"death1 0 idle2 stand", "0011", 3},
        {"death1 0 idle2 1stand", "0011", 2},
        {"death1 dead1 walk run", "0011", 2},
        {"death1 pain2", "00", 0},
        {"idle stand", "11", 1},
        {"standing idles stand0", "111", 2},
        {"standing idles", "011", 1},
        {"death1 Idle", "00", 1},
    };
    md2_anim a[8];
    size_t c, n;
    (void)state;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *p = cases[c].names;
        memset(a, 0, sizeof a);
        for (n = 0; *p; n++) {
            size_t len = strcspn(p, " ");
            memcpy(a[n].name, p, len);
            a[n].loop = cases[c].loops[n] == '1';
            p += len + (p[len] == ' ');
        }
        if (md2_anim_idle(a, n) != cases[c].idle)
            print_message("case %lu: %s\n", (unsigned long)c, cases[c].names);
        assert_int_equal(md2_anim_idle(a, n), cases[c].idle);
    }
    /* a full-length name with no NUL in it is read no further than its 16 bytes */
    memset(a, 0, sizeof a);
    memset(a[0].name, 's', sizeof a[0].name);
    strcpy(a[1].name, "stand");
    assert_int_equal(md2_anim_idle(a, 2), 1);
    assert_int_equal(md2_anim_idle(NULL, 2), MD2_ANIM_NOT_FOUND);
    assert_int_equal(md2_anim_idle(a, 0), MD2_ANIM_NOT_FOUND);
    a[1].reserved_[1] = 3;
    assert_int_equal(md2_anim_idle(a, 2), MD2_ANIM_NOT_FOUND);
}

/* ------------------------------------------------------------------------ */
/* The Quake II player table                                                 */
/* ------------------------------------------------------------------------ */

static const struct {
    const char *name;
    uint32_t first, last;
    float fps;
} standard[20] = {
    {"stand", 0, 39, 9}, {"run", 40, 45, 10}, {"attack", 46, 53, 10},
    {"pain1", 54, 57, 7}, {"pain2", 58, 61, 7}, {"pain3", 62, 65, 7},
    {"jump", 66, 71, 7}, {"flip", 72, 83, 7}, {"salute", 84, 94, 7},
    {"taunt", 95, 111, 10}, {"wave", 112, 122, 7}, {"point", 123, 134, 6},
    {"crstand", 135, 153, 10}, {"crwalk", 154, 159, 7},
    {"crattack", 160, 168, 10}, {"crpain", 169, 172, 7},
    {"crdeath", 173, 177, 5}, {"death1", 178, 183, 7},
    {"death2", 184, 189, 7}, {"death3", 190, 197, 7},
};

static void test_quake2_table(void **state)
{
    size_t n = 0, i;
    const md2_anim *t = md2_anims_quake2_player(&n);
    uint32_t next = 0;
    (void)state;
    assert_non_null(t);
    assert_int_equal(n, MD2_QUAKE2_PLAYER_ANIMS);
    assert_true(md2_anims_quake2_player(NULL) == t);
    for (i = 0; i < n; i++) {
        assert_string_equal(t[i].name, standard[i].name);
        assert_int_equal(t[i].first, standard[i].first);
        assert_int_equal(t[i].last, standard[i].last);
        assert_true(t[i].fps == standard[i].fps);
        assert_int_equal(t[i].first, next); /* contiguous, in order */
        next = t[i].last + 1;
    }
    assert_int_equal(next, MD2_QUAKE2_PLAYER_FRAMES);
    /* the cyclic ones loop by default */
    assert_int_equal(t[md2_anim_find(t, n, "stand")].loop, 1);
    assert_int_equal(t[md2_anim_find(t, n, "run")].loop, 1);
    assert_int_equal(t[md2_anim_find(t, n, "crwalk")].loop, 1);
    assert_int_equal(t[md2_anim_find(t, n, "death1")].loop, 0);
    assert_int_equal(t[md2_anim_find(t, n, "wave")].loop, 0);
}

/* Which animations loop by default: what Quake II plays once does not. */
static void test_default_loop_by_name(void **state)
{
    static const char *const once[] = {
        "death", "death1", "death301", "dead1", "dead_rifle", "DEATH2", "die",
        "pain", "pain1", "pain203", "jump", "flip", "salute", "taunt", "wave",
        "point", "crpain", "crdeath", "CRDeath1", "crpain2", "jump1", "wave-2"};
    static const char *const loops[] = {
        "stand", "stand01", "run", "run1", "attack", "crstand", "crstnd", "crwalk",
        "crattack", "crattak", "walk0", "panic0", "painting", "deathstar", "frame",
        "", "cr", "cry", "points", "waver", "idle", "swim"};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof once / sizeof once[0]; i++) {
        if (md2_anim_loops(once[i]) != 0)
            print_message("'%s' loops\n", once[i]);
        assert_int_equal(md2_anim_loops(once[i]), 0);
    }
    for (i = 0; i < sizeof loops / sizeof loops[0]; i++) {
        if (md2_anim_loops(loops[i]) != 1)
            print_message("'%s' plays once\n", loops[i]);
        assert_int_equal(md2_anim_loops(loops[i]), 1);
    }
    assert_int_equal(md2_anim_loops(NULL), 1);
}

/* The Quake II player table agrees with the rule, entry by entry. */
static void test_quake2_table_follows_the_rule(void **state)
{
    size_t n, i;
    const md2_anim *t = md2_anims_quake2_player(&n);
    (void)state;
    for (i = 0; i < n; i++)
        assert_int_equal(t[i].loop, md2_anim_loops(t[i].name));
}

static void test_validate(void **state)
{
    synth s;
    size_t n;
    const md2_anim *t = md2_anims_quake2_player(&n);
    md2_anim a[2];
    md2_diagnostic d;
    (void)state;
    synth_init(&s, 198);
    assert_int_equal(md2_anims_validate(t, n, &s.m, &d), MD2_OK);
    assert_int_equal(d.result, MD2_OK);
    assert_string_equal(d.message, "");
    s.m.num_frames = 250; /* any model of 198 frames or more */
    assert_int_equal(md2_anims_validate(t, n, &s.m, &d), MD2_OK);
    s.m.num_frames = 100; /* too few for taunt (95-111) onwards */
    assert_int_equal(md2_anims_validate(t, n, &s.m, &d), MD2_ERR_FRAME_RANGE);
    assert_int_equal(d.result, MD2_ERR_FRAME_RANGE);
    assert_int_equal(d.index, 9);
    assert_string_equal(d.field, "last");
    assert_non_null(strstr(d.message, "taunt"));
    assert_non_null(strstr(d.message, "95-111"));
    s.m.num_frames = 198;
    memcpy(a, t, sizeof a);
    a[1].first = 50;
    a[1].last = 49;
    assert_int_equal(md2_anims_validate(a, 2, &s.m, &d), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(d.index, 1);
    assert_string_equal(d.field, "last");
    assert_non_null(strstr(d.message, "run"));
    memcpy(a, t, sizeof a);
    a[0].fps = 0.0f; /* a side file's hold: valid */
    assert_int_equal(md2_anims_validate(a, 2, &s.m, &d), MD2_OK);
    a[0].fps = -1.0f;
    assert_int_equal(md2_anims_validate(a, 2, &s.m, &d), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(d.index, 0);
    assert_string_equal(d.field, "fps");
    a[0].fps = -(float)HUGE_VAL;
    assert_int_equal(md2_anims_validate(a, 2, &s.m, NULL), MD2_ERR_INVALID_ARGUMENT);
    a[0].fps = (float)HUGE_VAL;
    assert_int_equal(md2_anims_validate(a, 2, &s.m, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_anims_validate(t, n, NULL, &d), MD2_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.message, "NULL"));
    assert_int_equal(md2_anims_validate(NULL, 1, &s.m, NULL), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_anims_validate(NULL, 0, &s.m, NULL), MD2_OK);
}

/* ------------------------------------------------------------------------ */
/* The real models                                                           */
/* ------------------------------------------------------------------------ */

static md2_model *load_corpus(const char *name)
{
    char path[512];
    md2_model *m = NULL;
    FILE *f;

    snprintf(path, sizeof path, "%s/corpus/%s", MD2_SHARED_DIR, name);
    f = fopen(path, "rb");
    if (!f)
        return NULL;
    fclose(f);
    assert_int_equal(md2_load_file(path, NULL, &m), MD2_OK);
    return m;
}

/* faerie.md2 gives exactly the 20 standard animations with the standard
 * ranges; its names are the file's own (crstnd and crattak are the file's
 * abbreviations of crstand and crattack). */
static void test_faerie(void **state)
{
    static const char *const names[20] = {
        "stand", "run", "attack", "pain1", "pain2", "pain3", "jump", "flip",
        "salute", "taunt", "wave", "point", "crstnd", "crwalk", "crattak",
        "crpain", "crdeath", "death1", "death2", "death3",
    };
    md2_model *m = load_corpus("faerie.md2");
    md2_anim a[64];
    size_t n, i, tn;
    const md2_anim *t = md2_anims_quake2_player(&tn);
    (void)state;
    if (!m) {
        skip();
        return;
    }
    assert_int_equal(m->num_frames, 198);
    n = md2_anims_from_names(m, a, 64);
    assert_int_equal(n, 20);
    for (i = 0; i < n; i++) {
        assert_string_equal(a[i].name, names[i]);
        assert_int_equal(a[i].first, t[i].first);
        assert_int_equal(a[i].last, t[i].last);
        /* the name rule plays once exactly what the Quake II table does,
         * also for the file's own crstnd and crattak */
        assert_int_equal(a[i].loop, t[i].loop);
    }
    assert_int_equal(md2_anims_validate(a, n, m, NULL), MD2_OK);
    assert_int_equal(md2_anims_validate(t, tn, m, NULL), MD2_OK);
    md2_free(m);
}

/* sydney.md2 names pain1..pain12 and death1..death20 without a jump, so
 * the three pains and three deaths cannot be told apart by name: 16
 * animations. The standard table still applies to its 198 frames. */
static void test_sydney(void **state)
{
    static const expect e[16] = {
        {"stand", 0, 39}, {"run", 40, 45}, {"attack", 46, 53},
        {"pain", 54, 65}, {"jump", 66, 71}, {"flip", 72, 83},
        {"salute", 84, 94}, {"taunt", 95, 111}, {"wave", 112, 122},
        {"point", 123, 134}, {"crstnd", 135, 153}, {"crwalk", 154, 159},
        {"crattak", 160, 168}, {"crpain", 169, 172}, {"crdeth", 173, 177},
        {"death", 178, 197},
    };
    md2_model *m = load_corpus("sydney.md2");
    size_t tn;
    const md2_anim *t = md2_anims_quake2_player(&tn);
    (void)state;
    if (!m) {
        skip();
        return;
    }
    check_anims(m, e, 16);
    assert_int_equal(md2_anims_validate(t, tn, m, NULL), MD2_OK);
    md2_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sub_animations),
        cmocka_unit_test(test_continuous_numbers_one_clip),
        cmocka_unit_test(test_leading_zeros),
        cmocka_unit_test(test_zero_based_and_hundreds),
        cmocka_unit_test(test_names_without_digits),
        cmocka_unit_test(test_all_named_alike),
        cmocka_unit_test(test_sixteen_byte_names),
        cmocka_unit_test(test_unterminated_hand_made_name),
        cmocka_unit_test(test_long_prefix_ordinals),
        cmocka_unit_test(test_digits_inside_names),
        cmocka_unit_test(test_restart_and_gap),
        cmocka_unit_test(test_number_after_plain_name),
        cmocka_unit_test(test_unsplit_hundreds_and_prefix_change),
        cmocka_unit_test(test_separators),
        cmocka_unit_test(test_garbage_after_nul),
        cmocka_unit_test(test_digit_only_names),
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_idle),
        cmocka_unit_test(test_quake2_table),
        cmocka_unit_test(test_default_loop_by_name),
        cmocka_unit_test(test_quake2_table_follows_the_rule),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_faerie),
        cmocka_unit_test(test_sydney),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
