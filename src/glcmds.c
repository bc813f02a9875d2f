/*
 * GL command lists: validation (shared by the parser and the writer) and
 * iteration over strips and fans.
 *
 * A list is a sequence of commands, each a count word n (n > 0: a strip of
 * n vertices, n < 0: a fan of -n vertices) followed by 3 words a vertex
 * (float s, float t, int32 vertex index), ended by a 0 word.
 *
 * SPDX-License-Identifier: MIT
 */
#include "format.h"
#include "reserved.h"
#include "reader.h"

#include <math.h>
#include <string.h>

static int32_t word_at(const uint8_t *bytes, const int32_t *words, size_t i)
{
    if (bytes)
        return md2_u32_to_s32(md2_le32(bytes + 4 * i));
    return words[i];
}

void md2__glcmds_scan(const uint8_t *bytes, const int32_t *words, size_t n,
                      size_t num_vertices, md2_glscan *out)
{
    size_t i = 0;

    memset(out, 0, sizeof *out);
    while (i < n) {
        int32_t w = word_at(bytes, words, i);
        /* int64 so that -INT32_MIN does not overflow */
        int64_t count = w < 0 ? -(int64_t)w : (int64_t)w;
        size_t k;

        if (w == 0) {
            out->valid_words = i;
            out->terminated = 1;
            return;
        }
        if ((uint64_t)count > (uint64_t)(n - i - 1) / 3u) {
            out->valid_words = i;
            out->bad = 1;
            out->bad_word = i;
            out->problem = "the vertex count runs past the end of the list";
            return;
        }
        for (k = 0; k < (size_t)count; k++) {
            size_t at = i + 1 + 3 * k + 2;
            int32_t v = word_at(bytes, words, at);
            float s = md2_u32_to_f32((uint32_t)word_at(bytes, words, at - 2));
            float t = md2_u32_to_f32((uint32_t)word_at(bytes, words, at - 1));
            if (!isfinite(s) || !isfinite(t)) {
                out->valid_words = i;
                out->bad = 1;
                out->bad_word = isfinite(s) ? at - 1 : at - 2;
                out->problem = "a texcoord is not a finite number";
                return;
            }
            if (v < 0 || (uint64_t)v >= (uint64_t)num_vertices) {
                out->valid_words = i;
                out->bad = 1;
                out->bad_word = at;
                out->problem = "a vertex index is negative or not below num_xyz";
                return;
            }
        }
        i += 1 + 3 * (size_t)count;
    }
    out->valid_words = i;
}

/* What md2_glcmd_iter holds. The public type is opaque storage; the state
 * is copied in and out with memcpy, which is valid whatever the storage's
 * declared type. */
typedef struct glcmd_state {
    const md2_model *model;
    size_t pos;
} glcmd_state;

/* compile-time check: the state fits the public storage */
typedef char md2__glcmd_state_fits[sizeof(glcmd_state) <= sizeof(md2_glcmd_iter) ? 1 : -1];

void md2_glcmd_begin(md2_glcmd_iter *it, const md2_model *model)
{
    glcmd_state st;
    if (!it)
        return;
    memset(it, 0, sizeof *it);
    st.model = model;
    if (md2__reserved_model(model, NULL) != MD2_OK)
        st.model = NULL; /* an empty list, as for NULL */
    st.pos = 0;
    memcpy(it, &st, sizeof st);
}

int md2_glcmd_next(md2_glcmd_iter *it, md2_glcmd *cmd)
{
    glcmd_state st;
    const md2_model *m;
    int32_t w;
    size_t count;

    if (!it || !cmd)
        return 0;
    memcpy(&st, it, sizeof st);
    m = st.model;
    if (!m || !m->glcmds || st.pos >= m->num_glcmds)
        return 0;
    w = m->glcmds[st.pos];
    if (w == 0)
        return 0;
    count = w < 0 ? (size_t)(-(int64_t)w) : (size_t)w;
    /* A loaded model is validated; a hand-made one may not be: stay inside. */
    if (count > (m->num_glcmds - st.pos - 1) / 3u) {
        st.pos = m->num_glcmds;
        memcpy(it, &st, sizeof st);
        return 0;
    }
    cmd->is_fan = w < 0;
    cmd->num_vertices = count;
    cmd->words_ = m->glcmds + st.pos + 1;
    st.pos += 1 + 3 * count;
    memcpy(it, &st, sizeof st);
    return 1;
}

md2_glcmd_vertex md2_glcmd_get(const md2_glcmd *cmd, size_t i)
{
    md2_glcmd_vertex v;
    if (!cmd || !cmd->words_ || i >= cmd->num_vertices) {
        v.s = 0.0f;
        v.t = 0.0f;
        v.vertex = 0;
        return v;
    }
    v.s = md2_u32_to_f32((uint32_t)cmd->words_[3 * i]);
    v.t = md2_u32_to_f32((uint32_t)cmd->words_[3 * i + 1]);
    v.vertex = (uint32_t)cmd->words_[3 * i + 2];
    return v;
}
