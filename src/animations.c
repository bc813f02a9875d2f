/*
 * Animations from frame names, the standard Quake II player table, lookup
 * and validation. Reads the model only; never allocates.
 *
 * SPDX-License-Identifier: MIT
 */
#include "md2/animation.h"
#include "diag.h"
#include "reserved.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Frame-name parsing                                                        */
/* ------------------------------------------------------------------------ */

/* More trailing digits than this cannot occur in a 16-byte name; 16
 * decimal digits fit a uint64_t (< 1e16 < 2^64). */
#define NAME_MAX_DIGITS MD2_FRAME_NAME_SIZE

/* A frame name split into prefix and trailing number. */
typedef struct name_parts {
    const char *text;   /* the name's bytes */
    size_t prefix_len;  /* bytes before the trailing digits */
    size_t digits;      /* number of trailing digits (0: no number) */
    uint64_t number;    /* their value */
} name_parts;

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Length of a frame name: up to its first NUL, at most 16 bytes (a loaded
 * model terminates names at [16]; a hand-made one might not). */
static size_t frame_name_length(const char *name)
{
    size_t n = 0;
    while (n < MD2_FRAME_NAME_SIZE && name[n] != '\0')
        n++;
    return n;
}

static void split_name(const char *name, name_parts *out)
{
    size_t len = frame_name_length(name);
    size_t i = len;
    size_t k;

    while (i > 0 && is_digit(name[i - 1]))
        i--;
    out->text = name;
    out->prefix_len = i;
    out->digits = len - i;
    out->number = 0;
    for (k = i; k < len; k++)
        out->number = out->number * 10u + (uint64_t)(name[k] - '0');
}

static int same_prefix(const name_parts *a, const name_parts *b)
{
    return a->prefix_len == b->prefix_len &&
           memcmp(a->text, b->text, a->prefix_len) == 0;
}

/* Does frame b (same prefix as a) continue the animation of frame a? Names
 * without digits continue each other; numbered names continue when the
 * number repeats or goes up by one (with or without leading zeros). */
static int continues(const name_parts *a, const name_parts *b)
{
    if (a->digits == 0 || b->digits == 0)
        return a->digits == 0 && b->digits == 0;
    return b->number == a->number || b->number == a->number + 1u;
}

/* The leading digit of a numbered name (number / 10^(digits - 1)). */
static unsigned leading_digit(const name_parts *p)
{
    return (unsigned)(unsigned char)p->text[p->prefix_len] - (unsigned)'0';
}

/* ------------------------------------------------------------------------ */
/* Grouping                                                                  */
/* ------------------------------------------------------------------------ */

/* End (exclusive) of the run of frames from 'start' that share its prefix. */
static size_t prefix_run_end(const md2_model *m, size_t start)
{
    name_parts a, b;
    size_t i;

    split_name(m->frames[start].name, &a);
    for (i = start + 1; i < m->num_frames; i++) {
        split_name(m->frames[i].name, &b);
        if (!same_prefix(&a, &b))
            break;
    }
    return i;
}

/* End (exclusive) of the animation starting at 'start' within [start, end). */
static size_t clip_end(const md2_model *m, size_t start, size_t end)
{
    name_parts prev, cur;
    size_t i;

    split_name(m->frames[start].name, &prev);
    for (i = start + 1; i < end; i++) {
        split_name(m->frames[i].name, &cur);
        if (!continues(&prev, &cur))
            break;
        prev = cur;
    }
    return i;
}

/* Within one prefix run [start, end) split into several animations: does
 * every part keep one leading digit over numbers of at least two digits,
 * each part a different one (pain101-104, pain201-204, pain301-304)? Then
 * the parts are sub-animations named by that digit. */
static int sub_animations(const md2_model *m, size_t start, size_t end)
{
    unsigned seen = 0; /* bit d: leading digit d used by an earlier part */
    size_t s = start;

    while (s < end) {
        size_t e = clip_end(m, s, end);
        name_parts p;
        unsigned lead;
        size_t i;

        split_name(m->frames[s].name, &p);
        if (p.digits < 2)
            return 0;
        lead = leading_digit(&p);
        for (i = s + 1; i < e; i++) {
            name_parts q;
            split_name(m->frames[i].name, &q);
            if (q.digits != p.digits || leading_digit(&q) != lead)
                return 0;
        }
        if (seen & (1u << lead))
            return 0;
        seen |= 1u << lead;
        s = e;
    }
    return 1;
}

static int is_separator(char c)
{
    return c == '_' || c == '-' || c == '.' || c == ' ';
}

/* Writes prefix (without trailing separators, unless that leaves nothing)
 * followed by the decimal suffix (if has_suffix) into name, shortening the
 * prefix so that everything fits MD2_ANIM_NAME_SIZE bytes. */
static void make_name(char name[MD2_ANIM_NAME_SIZE + 1], const char *prefix,
                      size_t prefix_len, int has_suffix, size_t suffix)
{
    char digits[24] = {0};
    size_t nd = 0, keep = prefix_len, i;

    while (keep > 0 && is_separator(prefix[keep - 1]))
        keep--;
    if (keep == 0)
        keep = prefix_len;
    if (has_suffix) {
        do {
            digits[nd++] = (char)('0' + (int)(suffix % 10u));
            suffix /= 10u;
        } while (suffix != 0 && nd < sizeof digits);
    }
    if (nd > MD2_ANIM_NAME_SIZE)
        nd = MD2_ANIM_NAME_SIZE; /* keeps the lowest digits */
    if (keep + nd > MD2_ANIM_NAME_SIZE)
        keep = MD2_ANIM_NAME_SIZE - nd;
    memcpy(name, prefix, keep);
    for (i = 0; i < nd; i++)
        name[keep + i] = digits[nd - 1 - i];
    name[keep + nd] = '\0';
}

size_t md2_anims_from_names(const md2_model *m, md2_anim *out, size_t capacity)
{
    size_t total = 0;
    size_t run;

    if (!m || !m->frames || m->num_frames == 0)
        return 0;
    if (md2__reserved_model(m, NULL) != MD2_OK)
        return 0;
    if (!out)
        capacity = 0;

    run = 0;
    while (run < m->num_frames) {
        size_t run_end = prefix_run_end(m, run);
        size_t first_end = clip_end(m, run, run_end);
        int split = first_end < run_end;
        int by_digit = split && sub_animations(m, run, run_end);
        size_t ordinal = 0;
        size_t s = run;

        while (s < run_end) {
            size_t e = clip_end(m, s, run_end);
            ordinal++;
            if (total < capacity) {
                md2_anim *a = &out[total];
                name_parts p;
                split_name(m->frames[s].name, &p);
                memset(a, 0, sizeof *a);
                if (by_digit)
                    make_name(a->name, p.text, p.prefix_len, 1, leading_digit(&p));
                else
                    make_name(a->name, p.text, p.prefix_len, split, ordinal);
                a->first = (uint32_t)s;
                a->last = (uint32_t)(e - 1);
                a->fps = MD2_ANIM_DEFAULT_FPS;
                a->loop = md2_anim_loops(a->name);
            }
            total++;
            s = e;
        }
        run = run_end;
    }
    /* the number written: a count that is always safe to use with out */
    return (out && total > capacity) ? capacity : total;
}

/* ------------------------------------------------------------------------ */
/* The standard Quake II player table                                        */
/* ------------------------------------------------------------------------ */

static const md2_anim quake2_player[MD2_QUAKE2_PLAYER_ANIMS] = {
    {"stand", 0, 39, 9.0f, 1, {0, 0}},
    {"run", 40, 45, 10.0f, 1, {0, 0}},
    {"attack", 46, 53, 10.0f, 1, {0, 0}},
    {"pain1", 54, 57, 7.0f, 0, {0, 0}},
    {"pain2", 58, 61, 7.0f, 0, {0, 0}},
    {"pain3", 62, 65, 7.0f, 0, {0, 0}},
    {"jump", 66, 71, 7.0f, 0, {0, 0}},
    {"flip", 72, 83, 7.0f, 0, {0, 0}},
    {"salute", 84, 94, 7.0f, 0, {0, 0}},
    {"taunt", 95, 111, 10.0f, 0, {0, 0}},
    {"wave", 112, 122, 7.0f, 0, {0, 0}},
    {"point", 123, 134, 6.0f, 0, {0, 0}},
    {"crstand", 135, 153, 10.0f, 1, {0, 0}},
    {"crwalk", 154, 159, 7.0f, 1, {0, 0}},
    {"crattack", 160, 168, 10.0f, 1, {0, 0}},
    {"crpain", 169, 172, 7.0f, 0, {0, 0}},
    {"crdeath", 173, 177, 5.0f, 0, {0, 0}},
    {"death1", 178, 183, 7.0f, 0, {0, 0}},
    {"death2", 184, 189, 7.0f, 0, {0, 0}},
    {"death3", 190, 197, 7.0f, 0, {0, 0}},
};

const md2_anim *md2_anims_quake2_player(size_t *count)
{
    if (count)
        *count = MD2_QUAKE2_PLAYER_ANIMS;
    return quake2_player;
}

/* ------------------------------------------------------------------------ */
/* Lookup, default play mode and validation                                  */
/* ------------------------------------------------------------------------ */

/* Length of an animation name, at most MD2_ANIM_NAME_SIZE bytes. */
static size_t strnlen_16(const char *name)
{
    size_t n = 0;
    while (n < MD2_ANIM_NAME_SIZE && name[n] != '\0')
        n++;
    return n;
}

static char lower_ascii(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* 1 if name[0..len) equals word (lower case) ignoring ASCII case. */
static int word_is(const char *name, size_t len, const char *word)
{
    size_t i;
    if (strlen(word) != len)
        return 0;
    for (i = 0; i < len; i++)
        if (lower_ascii(name[i]) != word[i])
            return 0;
    return 1;
}

int md2_anim_loops(const char *name)
{
    /* what Quake II plays once; everything else loops */
    static const char *const once[] = {"death", "dead", "die", "pain", "jump",
                                       "flip", "salute", "taunt", "wave", "point"};
    size_t len, i;

    if (!name)
        return 1;
    len = strnlen_16(name);
    if (len > 2 && lower_ascii(name[0]) == 'c' && lower_ascii(name[1]) == 'r') {
        name += 2; /* crouching variants play as the standing ones */
        len -= 2;
    }
    for (i = 0; i < len; i++)
        if (is_digit(name[i]) || is_separator(name[i]))
            break;
    len = i;
    for (i = 0; i < sizeof once / sizeof once[0]; i++)
        if (word_is(name, len, once[i]))
            return 0;
    return 1;
}

size_t md2_anim_find(const md2_anim *anims, size_t count, const char *name)
{
    size_t i, len;

    if (!anims || !name)
        return MD2_ANIM_NOT_FOUND;
    if (md2__reserved_anims(anims, count, NULL) != MD2_OK)
        return MD2_ANIM_NOT_FOUND;
    len = strlen(name);
    if (len > MD2_ANIM_NAME_SIZE)
        return MD2_ANIM_NOT_FOUND;
    for (i = 0; i < count; i++) {
        /* compares at most 17 bytes: an unterminated name cannot overrun */
        if (memcmp(anims[i].name, name, len) == 0 && anims[i].name[len] == '\0')
            return i;
    }
    return MD2_ANIM_NOT_FOUND;
}

size_t md2_anim_idle(const md2_anim *anims, size_t count)
{
    static const char *const idle[] = {"stand", "idle"};
    size_t i, w;

    if (!anims || count == 0 || md2__reserved_anims(anims, count, NULL) != MD2_OK)
        return MD2_ANIM_NOT_FOUND;
    for (w = 0; w < sizeof idle / sizeof idle[0]; w++)
        for (i = 0; i < count; i++) {
            /* the word, or the word and a number (UFO:AI's stand0, stand1) */
            size_t len = strnlen_16(anims[i].name);
            while (len > 0 && anims[i].name[len - 1] >= '0' && anims[i].name[len - 1] <= '9')
                len--;
            if (word_is(anims[i].name, len, idle[w]))
                return i;
        }
    for (i = 0; i < count; i++)
        if (anims[i].loop)
            return i;
    return 0;
}

md2_result md2_anims_validate(const md2_anim *anims, size_t count,
                              const md2_model *m, md2_diagnostic *error)
{
    size_t i;

    md2__diag_clear(error);
    if (!m || (!anims && count > 0))
        return md2__fail(error, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "", 0, 0,
                         "md2_anims_validate: %s is NULL", m ? "anims" : "m");
    MD2_TRY(md2__reserved_anims(anims, count, error));
    MD2_TRY(md2__reserved_model(m, error));
    for (i = 0; i < count; i++) {
        const md2_anim *a = &anims[i];
        /* names may lack a NUL in a hand-made entry: quote at most 16 bytes */
        int nlen = (int)strnlen_16(a->name);
        if (a->first > a->last)
            return md2__fail(error, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "last", 0, i,
                             "animation %lu ('%.*s'): last frame %lu is before first frame %lu",
                             (unsigned long)i, nlen, a->name, (unsigned long)a->last,
                             (unsigned long)a->first);
        if (!(a->fps >= 0.0f) || !isfinite(a->fps))
            return md2__fail(error, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "fps", 0, i,
                             "animation %lu ('%.*s'): fps %g is not a finite number >= 0",
                             (unsigned long)i, nlen, a->name, (double)a->fps);
        if ((size_t)a->last >= m->num_frames)
            return md2__fail(error, MD2_ERR_FRAME_RANGE, MD2_SECTION_NONE, "last", 0, i,
                             "animation %lu ('%.*s'): frames %lu-%lu reach past the model's last frame (%lu frames)",
                             (unsigned long)i, nlen, a->name, (unsigned long)a->first,
                             (unsigned long)a->last, (unsigned long)m->num_frames);
    }
    return MD2_OK;
}
