/*
 * Attachments through a player: the tag matrix of the pose a player shows
 * (cross-fades included), and linked models posed with a player's frames
 * clamped to their own. Reads the player, the tags and the models only;
 * never allocates.
 *
 * SPDX-License-Identifier: MIT
 */
#include "attach.h"
#include "reserved.h"

#include <string.h>

/* A frame number clamped to a count of frames (count >= 1). */
static uint32_t clamp_frame(uint32_t frame, size_t count)
{
    return (size_t)frame < count ? frame : (uint32_t)(count - 1u);
}

/* A pair of keyframes at t in its one form per pose: a keyframe as
 * (frame, frame, 0). */
static void canonical(uint32_t *a, uint32_t *b, float *t)
{
    if (*a == *b || *t == 0.0f) {
        *b = *a;
        *t = 0.0f;
    } else if (*t == 1.0f) {
        *a = *b;
        *t = 0.0f;
    }
}

/* The player's state with every frame number clamped to count frames. A
 * cross-fade whose two poses are then the same pose (a one-frame model,
 * both animations past the model's frames) is no fade: that pose is
 * shown exactly, not blended with itself (which can move it by a rounding
 * step). Keyframe pairs keep their meaning (md2_lerp() of (a, b, 0) is
 * keyframe a, of (a, b, 1) keyframe b). */
static void clamped_state(const md2_player *p, size_t count, md2_player_frames *st)
{
    md2_player_state(p, st);
    st->frame_a = clamp_frame(st->frame_a, count);
    st->frame_b = clamp_frame(st->frame_b, count);
    st->from_a = clamp_frame(st->from_a, count);
    st->from_b = clamp_frame(st->from_b, count);
    if (st->weight >= 1.0f)
        return;
    canonical(&st->frame_a, &st->frame_b, &st->t);
    canonical(&st->from_a, &st->from_b, &st->from_t);
    if (st->frame_a == st->from_a && st->frame_b == st->from_b && st->t == st->from_t)
        st->weight = 1.0f;
}

/* ------------------------------------------------------------------------ */
/* Tags                                                                      */
/* ------------------------------------------------------------------------ */

md2_result md2_player_tag(const md2_player *p, const md2_tags *tags, size_t tag,
                          float matrix[16])
{
    md2_player_frames st;
    float cur[MD2_TAG_FRAME_FLOATS], out[MD2_TAG_FRAME_FLOATS], o[MD2_TAG_FRAME_FLOATS];

    if (!p || !tags || !tags->frames || !tags->names || tags->num_frames == 0 || !matrix)
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_tags(tags, NULL));
    if (tag >= tags->num_tags)
        return MD2_ERR_NOT_FOUND;
    clamped_state(p, tags->num_frames, &st);
    md2__tag_orient(tags, tag, st.frame_a, st.frame_b, st.t, cur);
    if (st.weight >= 1.0f) {
        md2__orient_matrix(cur, matrix);
        return MD2_OK;
    }
    /* the outgoing pose's tag, blended into the current one's as the
     * vertices are (weight 0: the outgoing one exactly) */
    md2__tag_orient(tags, tag, st.from_a, st.from_b, st.from_t, out);
    md2__orient_blend(out, cur, st.weight, o);
    md2__orient_matrix(o, matrix);
    return MD2_OK;
}

/* ------------------------------------------------------------------------ */
/* Linked models                                                             */
/* ------------------------------------------------------------------------ */

md2_result md2_linked_check(const md2_model *driver, const md2_model *const *linked,
                            size_t count, const md2_options *opts)
{
    md2_diagnostic *err = opts ? opts->error : NULL;
    size_t i;

    md2__diag_clear(err);
    if (!driver || (!linked && count > 0))
        return md2__fail(err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE,
                         driver ? "linked" : "driver", 0, 0, "md2_linked_check: %s is NULL",
                         driver ? "linked" : "driver");
    /* the first fault in parameter order: the driver, then each linked
     * model in turn (NULL or with reserved_ set), then the options */
    MD2_TRY(md2__reserved_model(driver, err));
    MD2_TRY(md2__reserved_models(linked, count, err)); /* stops at a NULL entry */
    for (i = 0; i < count; i++)
        if (!linked[i])
            return md2__fail(err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, "linked", 0, i,
                             "md2_linked_check: linked[%lu] is NULL", (unsigned long)i);
    MD2_TRY(md2__reserved_options(opts));
    for (i = 0; i < count; i++) {
        const md2_model *m = linked[i];
        if (m->num_frames != driver->num_frames)
            MD2_TRY(md2__frame_count_quirk(
                opts, MD2_SECTION_FRAMES, "num_frames", 0, i,
                "linked model %lu has %lu frame%s, the driving model %lu%s", (unsigned long)i,
                (unsigned long)m->num_frames, m->num_frames == 1 ? "" : "s",
                (unsigned long)driver->num_frames,
                m->num_frames < driver->num_frames
                    ? "; frames past its last are clamped to its last"
                    : "; its frames past the driving model's are never shown"));
    }
    return MD2_OK;
}

md2_result md2_player_pose_linked(const md2_player *p, const md2_model *m,
                                  float *positions, size_t position_stride,
                                  float *normals, size_t normal_stride)
{
    md2_player_frames st;

    if (!p || !m || m->num_frames == 0)
        return MD2_ERR_INVALID_ARGUMENT;
    /* exactly what md2_player_pose() does with the clamped frames */
    clamped_state(p, m->num_frames, &st);
    return md2__pose_frames_write(m, &st, positions, position_stride, normals, normal_stride);
}

md2_result md2_player_bounds_linked(const md2_player *p, const md2_model *m,
                                    float min[3], float max[3])
{
    md2_player_frames st;

    if (!p || !m || !min || !max || !m->frames || m->num_frames == 0)
        return MD2_ERR_INVALID_ARGUMENT;
    MD2_TRY(md2__reserved_model(m, NULL));
    clamped_state(p, m->num_frames, &st);
    return md2__frames_bounds(m, &st, min, max);
}

/* ------------------------------------------------------------------------ */
/* Matrices                                                                  */
/* ------------------------------------------------------------------------ */

md2_result md2_attach(const float parent[16], const float tag[16], float child[16])
{
    float m[16];
    int row, col, k;

    if (!parent || !tag || !child)
        return MD2_ERR_INVALID_ARGUMENT;
    for (col = 0; col < 4; col++) {
        for (row = 0; row < 4; row++) {
            float sum = md2__mul(parent[row], tag[4 * col]);
            for (k = 1; k < 4; k++)
                sum = md2__add(sum, md2__mul(parent[4 * k + row], tag[4 * col + k]));
            m[4 * col + row] = sum;
        }
    }
    memcpy(child, m, sizeof m);
    return MD2_OK;
}
