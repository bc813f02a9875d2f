/*
 * GL command strips and fans for a triangle list (strips.h): a greedy
 * stripifier over the corners' values.
 *
 * Corners. A corner is a (vertex, s, t) value; corners are welded by value
 * with a hash table, so two triangles meet across an edge when its two
 * corners have the same vertex and the same texcoord values, whatever
 * their texcoord indices. A triangle's slots 3t + k are its directed edges
 * corner k -> corner k + 1 in MD2's winding; slots with the same directed
 * edge form a group, and two triangles are neighbours when one has an edge
 * x -> y and the other y -> x (the mesh is consistently wound there).
 *
 * Chains. Each group keeps a doubly linked chain of the slots of triangles
 * that are free: not in a command, nor in the candidate being built. A
 * candidate unlinks its triangles as it grows and links them back, in the
 * reverse order, when it is dropped (dancing links), so the next triangle
 * across an edge is always the head of one chain: O(1) a step, also in
 * non-manifold meshes where many triangles share one edge.
 *
 * Greedy. The next command starts from a free triangle with the fewest
 * free neighbouring edges (a bucket queue of degrees 0 to 3, most recently
 * lowered first, so the commands follow the boundary of what is covered).
 * Its candidates are the strip through it in each of its 3 rotations
 * (grown forwards and backwards) and the fan around each of its 3
 * corners (grown both ways): together every longest strip and fan through
 * it. Each is scored by its triangles minus ISOLATION_WEIGHT for each
 * neighbouring triangle it would leave with no free neighbour (such a
 * triangle costs a command of its own), among the candidates at least half
 * as long as the longest (which bounds the work by a constant times the
 * triangles covered, so the whole build is O(n)); the first best wins.
 * Everything is integer work in a fixed order: the same words on every
 * host.
 *
 * Winding. OpenGL draws a strip's triangle k from its vertices (k, k+1,
 * k+2) for even k and (k+1, k, k+2) for odd k, and a fan's triangle k from
 * (0, k+1, k+2); Quake II sends the commands as they are, so each command
 * draws its triangles with the winding of the triangle list. Growing a
 * strip backwards by an odd number of triangles shifts every triangle's
 * parity and would flip them: such a strip is written reversed (a strip of
 * an odd number of triangles read backwards flips every triangle back),
 * after dropping one triangle at an end when the count is even.
 *
 * Degenerate triangles. A triangle with two corners on one vertex but
 * different texcoord values is an ordinary triangle here. One with two
 * equal corners (same vertex and same texcoord values) has an edge from a
 * corner to itself and could neighbour itself; it is kept out of the
 * chains and written as a strip of its own, after the others. Every
 * triangle of the list is drawn exactly once either way, as Quake II drew
 * them (zero area draws nothing).
 *
 * Memory: one scratch allocation of 160 to 190 bytes a triangle, then the
 * words themselves (3 words a triangle and 7 more a command).
 *
 * SPDX-License-Identifier: MIT
 */
#include "strips.h"
#include "reader.h"
#include "round.h"

#include <string.h>

#define NIL 0xFFFFFFFFu

/* Most triangles the builder takes: 3 slots a triangle and a hash table of
 * twice as many entries, rounded up to a power of two, stay below 2^32,
 * and a command's vertex count fits its int32 word. */
#define MAX_TRIANGLES (1u << 28)

/* Score of a candidate: its triangles minus this many for each triangle it
 * would isolate. Measured on the corpus (commands for faerie / sydney): 0
 * gives 139 / 129, 1 and 2 give 138 / 126, 3 gives 137 / 126, 4 to 6 give
 * 137 / 125. */
#define ISOLATION_WEIGHT 3

/* Neighbours looked at across one edge when counting isolated triangles:
 * an edge shared by more triangles (a non-manifold mesh) is not worth a
 * longer look, and the cap bounds the work. */
#define NEIGHBOUR_CAP 4

/* deg[] of a triangle that is no longer in the bucket queue. */
#define DEG_USED 4u
#define DEG_LONELY 5u

typedef struct strips {
    const md2_triangle *tris;
    const md2_texcoord *st;
    uint32_t n;          /* triangles */
    uint32_t *corner;    /* [3n] corner id of each slot */
    uint32_t *rep;       /* [3n] first slot of each corner id */
    uint32_t *grp;       /* [3n] group of each slot (NIL: a lonely triangle's) */
    uint32_t *gopp;      /* [3n] group of each group's reversed edge, or NIL */
    uint32_t *grep;      /* [3n] a slot of each group */
    uint32_t *head;      /* [3n] first slot of each group's chain, or NIL */
    uint32_t *next;      /* [3n] chain links */
    uint32_t *prev;
    uint32_t *bnext;     /* [n] bucket links */
    uint32_t *bprev;
    uint32_t bhead[4];   /* first triangle of each degree */
    uint8_t *deg;        /* [n] free neighbouring edges, or DEG_USED, DEG_LONELY */
    /* the candidate: forward from its start triangle (ft[0]), backward */
    uint32_t *fv, *ft;   /* [n + 2], [n] */
    uint32_t *bv, *bt;   /* [n], [n] */
    uint32_t nf, nb;     /* triangles forward (with the start), backward */
    uint32_t center;     /* a fan's first vertex */
    int fan, reversed;
    /* the commands: count words and their vertices' corner ids */
    int32_t *out_n;      /* [n] */
    uint32_t *out_v;     /* [3n] */
    uint32_t ncmd, nvert;
    uint32_t *table;     /* [size] hash table of corner or group ids */
    unsigned table_bits;
} strips;

/* Slots of one triangle: the next and the previous edge. */
static uint32_t nx(uint32_t s) { return s % 3u == 2u ? s - 2u : s + 1u; }
static uint32_t pv(uint32_t s) { return s % 3u == 0u ? s + 2u : s - 1u; }

static uint64_t corner_key(const strips *c, uint32_t slot)
{
    const md2_triangle *t = &c->tris[slot / 3u];
    md2_texcoord st = c->st[t->texcoord[slot % 3u]];
    return ((uint64_t)t->vertex[slot % 3u] << 32) | ((uint64_t)(uint16_t)st.s << 16) |
           (uint64_t)(uint16_t)st.t;
}

static uint64_t edge_key(const strips *c, uint32_t slot)
{
    return ((uint64_t)c->corner[slot] << 32) | c->corner[nx(slot)];
}

static size_t hash_slot(uint64_t key, unsigned bits)
{
    /* Fibonacci hashing: the top bits of key times 2^64 / phi */
    return (size_t)((key * 0x9E3779B97F4A7C15u) >> (64 - bits));
}

/* ------------------------------------------------------------------------ */
/* Setting up: corners, groups, chains, buckets                             */
/* ------------------------------------------------------------------------ */

static void weld_corners(strips *c)
{
    size_t mask = ((size_t)1 << c->table_bits) - 1u;
    uint32_t s, count = 0;

    memset(c->table, 0xFF, sizeof(uint32_t) << c->table_bits);
    for (s = 0; s < 3u * c->n; s++) {
        uint64_t key = corner_key(c, s);
        size_t i = hash_slot(key, c->table_bits);
        while (c->table[i] != NIL && corner_key(c, c->rep[c->table[i]]) != key)
            i = (i + 1u) & mask;
        if (c->table[i] == NIL) {
            c->rep[count] = s;
            c->table[i] = count++;
        }
        c->corner[s] = c->table[i];
    }
}

static int lonely(const strips *c, uint32_t t)
{
    const uint32_t *k = &c->corner[3u * t];
    return k[0] == k[1] || k[1] == k[2] || k[2] == k[0];
}

/* The group of the directed edge key, or NIL; *at is where it would go. */
static uint32_t find_group(const strips *c, uint64_t key, size_t *at)
{
    size_t mask = ((size_t)1 << c->table_bits) - 1u;
    size_t i = hash_slot(key, c->table_bits);
    while (c->table[i] != NIL && edge_key(c, c->grep[c->table[i]]) != key)
        i = (i + 1u) & mask;
    *at = i;
    return c->table[i];
}

static void make_groups(strips *c)
{
    uint32_t s, g, groups = 0;
    size_t at;

    memset(c->table, 0xFF, sizeof(uint32_t) << c->table_bits);
    /* descending, pushing at the front: chains in ascending slot order */
    for (s = 3u * c->n; s-- > 0;) {
        if (lonely(c, s / 3u)) {
            c->grp[s] = NIL;
            continue;
        }
        g = find_group(c, edge_key(c, s), &at);
        if (g == NIL) {
            g = groups++;
            c->table[at] = g;
            c->grep[g] = s;
            c->head[g] = NIL;
        }
        c->grp[s] = g;
        c->prev[s] = NIL;
        c->next[s] = c->head[g];
        if (c->head[g] != NIL)
            c->prev[c->head[g]] = s;
        c->head[g] = s;
    }
    for (g = 0; g < groups; g++) {
        uint32_t r = c->grep[g];
        uint64_t reversed = ((uint64_t)c->corner[nx(r)] << 32) | c->corner[r];
        c->gopp[g] = find_group(c, reversed, &at);
    }
}

static void bucket_push(strips *c, uint32_t t)
{
    uint32_t d = c->deg[t];
    c->bprev[t] = NIL;
    c->bnext[t] = c->bhead[d];
    if (c->bhead[d] != NIL)
        c->bprev[c->bhead[d]] = t;
    c->bhead[d] = t;
}

static void bucket_remove(strips *c, uint32_t t)
{
    if (c->bprev[t] != NIL)
        c->bnext[c->bprev[t]] = c->bnext[t];
    else
        c->bhead[c->deg[t]] = c->bnext[t];
    if (c->bnext[t] != NIL)
        c->bprev[c->bnext[t]] = c->bprev[t];
}

static void make_buckets(strips *c)
{
    uint32_t t, k;

    for (k = 0; k < 4; k++)
        c->bhead[k] = NIL;
    for (t = 0; t < c->n; t++) {
        uint32_t d = 0;
        if (c->grp[3u * t] == NIL) {
            c->deg[t] = DEG_LONELY;
            continue;
        }
        for (k = 0; k < 3; k++)
            d += c->gopp[c->grp[3u * t + k]] != NIL; /* every chain starts full */
        c->deg[t] = (uint8_t)d;
        bucket_push(c, t);
    }
}

/* ------------------------------------------------------------------------ */
/* Chains                                                                    */
/* ------------------------------------------------------------------------ */

/* Takes triangle t out of its chains. If emptied is not NULL, emptied[k]
 * is the group of its slot k if that chain is now empty, else NIL. */
static void unlink_triangle(strips *c, uint32_t t, uint32_t emptied[3])
{
    uint32_t k;
    for (k = 0; k < 3; k++) {
        uint32_t s = 3u * t + k, g = c->grp[s];
        if (c->prev[s] != NIL)
            c->next[c->prev[s]] = c->next[s];
        else
            c->head[g] = c->next[s];
        if (c->next[s] != NIL)
            c->prev[c->next[s]] = c->prev[s];
        if (emptied)
            emptied[k] = c->head[g] == NIL ? g : NIL;
    }
}

/* Puts triangle t back, undoing its unlink_triangle() (the last one made). */
static void relink_triangle(strips *c, uint32_t t)
{
    uint32_t k;
    for (k = 3; k-- > 0;) {
        uint32_t s = 3u * t + k;
        if (c->prev[s] != NIL)
            c->next[c->prev[s]] = s;
        else
            c->head[c->grp[s]] = s;
        if (c->next[s] != NIL)
            c->prev[c->next[s]] = s;
    }
}

/* The free slot with the reversed edge of slot s (the free triangle across
 * it, and its edge there), or NIL. */
static uint32_t across(const strips *c, uint32_t s)
{
    uint32_t g = c->gopp[c->grp[s]];
    return g == NIL ? NIL : c->head[g];
}

/* ------------------------------------------------------------------------ */
/* Candidates                                                                */
/* ------------------------------------------------------------------------ */

/* Builds the strip (fan = 0) or fan through triangle t in rotation r into
 * the candidate, leaving the chains as they were. */
static void build(strips *c, uint32_t t, uint32_t r, int fan)
{
    uint32_t s0 = 3u * t + r, exit, s, raw_f, raw_b, i;

    c->fan = fan;
    c->reversed = 0;
    c->ft[0] = t;
    c->nf = 1;
    c->nb = 0;
    unlink_triangle(c, t, NULL);
    if (fan) {
        /* (center, u1, u2), then (center, u2, u3) across u2 -> center ... */
        c->center = c->corner[s0];
        c->fv[0] = c->corner[nx(s0)];
        c->fv[1] = c->corner[pv(s0)];
        for (exit = pv(s0); (s = across(c, exit)) != NIL; exit = pv(s)) {
            unlink_triangle(c, s / 3u, NULL);
            c->ft[c->nf++] = s / 3u;
            c->fv[c->nf] = c->corner[pv(s)];
        }
        /* ... and (center, u0, u1) across center -> u1, backwards */
        for (exit = s0; (s = across(c, exit)) != NIL; exit = nx(s)) {
            unlink_triangle(c, s / 3u, NULL);
            c->bt[c->nb] = s / 3u;
            c->bv[c->nb++] = c->corner[pv(s)];
        }
    } else {
        /* (v0, v1, v2); triangle k + 1 is across the edge of triangle k
         * between v[k+1] and v[k+2]: its next edge for even k, its previous
         * one for odd k */
        c->fv[0] = c->corner[s0];
        c->fv[1] = c->corner[nx(s0)];
        c->fv[2] = c->corner[pv(s0)];
        for (exit = nx(s0); (s = across(c, exit)) != NIL;
             exit = c->nf % 2u == 0u ? pv(s) : nx(s)) {
            unlink_triangle(c, s / 3u, NULL);
            c->ft[c->nf++] = s / 3u;
            c->fv[c->nf + 1] = c->corner[pv(s)];
        }
        /* backwards: triangle -1 across v0 -> v1, then alternating */
        for (exit = s0; (s = across(c, exit)) != NIL;
             exit = c->nb % 2u == 1u ? nx(s) : pv(s)) {
            unlink_triangle(c, s / 3u, NULL);
            c->bt[c->nb] = s / 3u;
            c->bv[c->nb++] = c->corner[pv(s)];
        }
    }
    raw_f = c->nf;
    raw_b = c->nb;
    for (i = raw_b; i-- > 0;)
        relink_triangle(c, c->bt[i]);
    for (i = raw_f; i-- > 0;)
        relink_triangle(c, c->ft[i]);
    if (!fan && c->nb % 2u == 1u) {
        /* odd backwards: the start's parity is wrong; reversed, a strip of
         * an odd number of triangles is right again */
        if (c->nf % 2u == 0u) {
            c->reversed = 1;
        } else if (c->nf > 1) {
            c->nf--;
            c->reversed = 1;
        } else {
            c->nb--;
        }
    }
}

/* Unlinks the candidate's triangles (undone by give_back()). */
static void take(strips *c)
{
    uint32_t i;
    for (i = 0; i < c->nf; i++)
        unlink_triangle(c, c->ft[i], NULL);
    for (i = 0; i < c->nb; i++)
        unlink_triangle(c, c->bt[i], NULL);
}

static void give_back(strips *c)
{
    uint32_t i;
    for (i = c->nb; i-- > 0;)
        relink_triangle(c, c->bt[i]);
    for (i = c->nf; i-- > 0;)
        relink_triangle(c, c->ft[i]);
}

/* 1 if free triangle u has a free neighbour (the candidate taken). */
static int alive(const strips *c, uint32_t u)
{
    uint32_t k;
    for (k = 0; k < 3; k++)
        if (across(c, 3u * u + k) != NIL)
            return 1;
    return 0;
}

static uint64_t isolated_next_to(const strips *c, uint32_t t)
{
    uint64_t count = 0;
    uint32_t k;
    for (k = 0; k < 3; k++) {
        uint32_t s = across(c, 3u * t + k), seen = 0;
        for (; s != NIL && seen < NEIGHBOUR_CAP; s = c->next[s], seen++)
            count += !alive(c, s / 3u);
    }
    return count;
}

/* The candidate's score: its triangles minus the isolation penalty. */
static int64_t score(strips *c)
{
    uint64_t isolated = 0;
    uint32_t i;
    take(c);
    for (i = 0; i < c->nf; i++)
        isolated += isolated_next_to(c, c->ft[i]);
    for (i = 0; i < c->nb; i++)
        isolated += isolated_next_to(c, c->bt[i]);
    give_back(c);
    return (int64_t)(c->nf + c->nb) - (int64_t)isolated * ISOLATION_WEIGHT;
}

/* ------------------------------------------------------------------------ */
/* Commands                                                                  */
/* ------------------------------------------------------------------------ */

static void emit(strips *c, uint32_t v) { c->out_v[c->nvert++] = v; }

/* Appends the candidate as a command. */
static void emit_candidate(strips *c)
{
    uint32_t count = c->nf + c->nb + 2u, i;

    c->out_n[c->ncmd++] = c->fan && count > 3u ? -(int32_t)count : (int32_t)count;
    if (c->fan) {
        emit(c, c->center);
        for (i = c->nb; i-- > 0;)
            emit(c, c->bv[i]);
        for (i = 0; i <= c->nf; i++)
            emit(c, c->fv[i]);
    } else if (!c->reversed) {
        for (i = c->nb; i-- > 0;)
            emit(c, c->bv[i]);
        for (i = 0; i < c->nf + 2u; i++)
            emit(c, c->fv[i]);
    } else {
        for (i = c->nf + 2u; i-- > 0;)
            emit(c, c->fv[i]);
        for (i = 0; i < c->nb; i++)
            emit(c, c->bv[i]);
    }
}

/* A free neighbour of an edge of t's: its degree falls by one. */
static void lower(strips *c, uint32_t u)
{
    if (c->deg[u] >= DEG_USED)
        return; /* in the command being committed */
    bucket_remove(c, u);
    c->deg[u]--;
    bucket_push(c, u);
}

/* Takes the candidate's triangles for good. */
static void commit(strips *c)
{
    uint32_t i, pass, k;

    for (pass = 0; pass < 2; pass++) {
        uint32_t count = pass ? c->nb : c->nf;
        const uint32_t *list = pass ? c->bt : c->ft;
        for (i = 0; i < count; i++) {
            bucket_remove(c, list[i]);
            c->deg[list[i]] = DEG_USED;
        }
    }
    for (pass = 0; pass < 2; pass++) {
        uint32_t count = pass ? c->nb : c->nf;
        const uint32_t *list = pass ? c->bt : c->ft;
        for (i = 0; i < count; i++) {
            uint32_t emptied[3];
            unlink_triangle(c, list[i], emptied);
            for (k = 0; k < 3; k++) {
                /* each chain empties once: its reversed edge's triangles
                 * lose that neighbouring edge */
                uint32_t g = emptied[k] == NIL ? NIL : c->gopp[emptied[k]];
                uint32_t s = g == NIL ? NIL : c->head[g];
                for (; s != NIL; s = c->next[s])
                    lower(c, s / 3u);
            }
        }
    }
}

static uint32_t next_start(const strips *c)
{
    uint32_t d;
    for (d = 0; d < 4; d++)
        if (c->bhead[d] != NIL)
            return c->bhead[d];
    return NIL;
}

static void stripify(strips *c)
{
    uint32_t t, i;

    while ((t = next_start(c)) != NIL) {
        uint32_t len[6], longest = 0, best = 6;
        int64_t sc[6];
        for (i = 0; i < 6; i++) {
            build(c, t, i / 2u, (int)(i % 2u));
            len[i] = c->nf + c->nb;
            sc[i] = score(c);
            if (len[i] > longest)
                longest = len[i];
        }
        for (i = 0; i < 6; i++)
            if (2u * len[i] >= longest && (best == 6 || sc[i] > sc[best]))
                best = i;
        build(c, t, best / 2u, (int)(best % 2u));
        commit(c);
        emit_candidate(c);
    }
    for (t = 0; t < c->n; t++) {
        if (c->deg[t] != DEG_LONELY)
            continue;
        c->out_n[c->ncmd++] = 3;
        for (i = 0; i < 3; i++)
            emit(c, c->corner[3u * t + i]);
    }
}

/* ------------------------------------------------------------------------ */
/* The entry point                                                           */
/* ------------------------------------------------------------------------ */

static int32_t float_word(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return md2_u32_to_s32(u);
}

static void write_words(const strips *c, uint32_t skin_width, uint32_t skin_height,
                        int32_t *w)
{
    float fw = (float)skin_width, fh = (float)skin_height;
    uint32_t cmd, i, v = 0;
    size_t at = 0;

    for (cmd = 0; cmd < c->ncmd; cmd++) {
        uint32_t count = (uint32_t)(c->out_n[cmd] < 0 ? -c->out_n[cmd] : c->out_n[cmd]);
        w[at++] = c->out_n[cmd];
        for (i = 0; i < count; i++, v++) {
            uint32_t slot = c->rep[c->out_v[v]];
            const md2_triangle *t = &c->tris[slot / 3u];
            md2_texcoord st = c->st[t->texcoord[slot % 3u]];
            w[at++] = float_word(md2__div((float)st.s, fw));
            w[at++] = float_word(md2__div((float)st.t, fh));
            w[at++] = (int32_t)t->vertex[slot % 3u];
        }
    }
    w[at] = 0;
}

/* Points the scratch arrays into one block of uint32 words; returns the
 * words it needs (0 if that does not fit in size_t bytes). */
static size_t layout(strips *c, uint32_t *base)
{
    uint64_t n = c->n, slots = 3u * n, at = 0, bytes;
    uint32_t **parts3[] = {&c->corner, &c->rep, &c->grp, &c->gopp, &c->grep,
                           &c->head, &c->next, &c->prev, &c->out_v};
    uint32_t **parts1[] = {&c->bnext, &c->bprev, &c->ft, &c->bv, &c->bt};
    size_t i;

    for (i = 0; i < sizeof parts3 / sizeof parts3[0]; i++, at += slots)
        *parts3[i] = base ? base + at : NULL;
    for (i = 0; i < sizeof parts1 / sizeof parts1[0]; i++, at += n)
        *parts1[i] = base ? base + at : NULL;
    c->fv = base ? base + at : NULL;
    at += n + 2u;
    c->out_n = base ? (int32_t *)(void *)(base + at) : NULL;
    at += n;
    c->table = base ? base + at : NULL;
    at += (uint64_t)1 << c->table_bits;
    c->deg = base ? (uint8_t *)(void *)(base + at) : NULL;
    at += (n + 3u) / 4u;
    bytes = at * sizeof(uint32_t);
    return bytes > SIZE_MAX ? 0 : (size_t)at;
}

md2_result md2__strips_build(const md2_triangle *triangles, size_t num_triangles,
                             const md2_texcoord *st, size_t num_texcoords,
                             size_t num_vertices, uint32_t skin_width, uint32_t skin_height,
                             md2_allocator a, int32_t **words, size_t *num_words)
{
    strips c;
    uint32_t *scratch;
    size_t scratch_words, total, i, k;

    if (words)
        *words = NULL;
    if (num_words)
        *num_words = 0;
    if (!words || !num_words || !a.alloc || !a.free || (num_triangles && (!triangles || !st)))
        return MD2_ERR_INVALID_ARGUMENT;
    if (num_triangles > MAX_TRIANGLES)
        return MD2_ERR_OUT_OF_MEMORY;
    memset(&c, 0, sizeof c);
    c.tris = triangles;
    c.st = st;
    c.n = (uint32_t)num_triangles;
    c.table_bits = 1;
    while (((uint64_t)1 << c.table_bits) < 6u * (uint64_t)c.n)
        c.table_bits++;
    scratch_words = layout(&c, NULL);
    if (scratch_words == 0)
        return MD2_ERR_OUT_OF_MEMORY; /* more than size_t bytes (32-bit hosts) */
    for (i = 0; i < num_triangles; i++)
        for (k = 0; k < 3; k++)
            if (triangles[i].vertex[k] >= num_vertices ||
                triangles[i].texcoord[k] >= num_texcoords)
                return MD2_ERR_INVALID_ARGUMENT;
    if (skin_width == 0)
        skin_width = 1; /* not allowed; keeps every texcoord finite */
    if (skin_height == 0)
        skin_height = 1;

    scratch = (uint32_t *)a.alloc(a.user, scratch_words * sizeof(uint32_t));
    if (!scratch)
        return MD2_ERR_OUT_OF_MEMORY;
    layout(&c, scratch);

    weld_corners(&c);
    make_groups(&c);
    make_buckets(&c);
    stripify(&c);

    /* a count word and 3 words a vertex for each command, then the 0: at
     * most 10 words a triangle + 1, fewer than the scratch block holds, so
     * the size fits in size_t */
    total = (size_t)c.ncmd + 3u * (size_t)c.nvert + 1u;
    *words = (int32_t *)a.alloc(a.user, total * sizeof(int32_t));
    if (!*words) {
        a.free(a.user, scratch);
        return MD2_ERR_OUT_OF_MEMORY;
    }
    write_words(&c, skin_width, skin_height, *words);
    a.free(a.user, scratch);
    *num_words = total;
    return MD2_OK;
}
