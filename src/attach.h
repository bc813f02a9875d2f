/*
 * Tier 6 of the private headers (see diag.h): declarations shared by the
 * attachment sources (tags.c, attach.c, bundle.c); not installed.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_ATTACH_H
#define MD2_ATTACH_H

#include "md2/tags.h"
#include "player.h"

/* An orientation as a tag file stores it: forward[3], right[3], up[3],
 * origin[3] (MD2_TAG_FRAME_FLOATS floats). */

/* The orientation of tag `tag` between frames fa and fb (both below
 * tags->num_frames, tag below num_tags) at t in [0,1]: a copy of the
 * stored floats at a keyframe (t = 0, t = 1, fa == fb), else the blend
 * of md2__orient_blend(). */
void md2__tag_orient(const md2_tags *tags, size_t tag, uint32_t fa, uint32_t fb,
                     float t, float out[MD2_TAG_FRAME_FLOATS]);

/* Blends orientations a and b at t in [0,1]: a copy of a at t = 0 (or
 * when a == b), of b at t = 1; else unit axes blended, made orthonormal
 * (docs/animation.md) and the origins blended as md2_lerp() blends. out
 * may not overlap a or b. */
void md2__orient_blend(const float a[MD2_TAG_FRAME_FLOATS],
                       const float b[MD2_TAG_FRAME_FLOATS], float t,
                       float out[MD2_TAG_FRAME_FLOATS]);

/* The column-major 4x4 matrix of an orientation. */
void md2__orient_matrix(const float o[MD2_TAG_FRAME_FLOATS], float m[16]);

/* Reports a quirk of frame counts (MD2_WARN_FRAME_COUNT) to
 * opts->on_warning, or fails with its strict error in opts->error.
 * Returns MD2_OK or the error. */
md2_result md2__frame_count_quirk(const md2_options *opts, md2_section section,
                                  const char *field, size_t offset, size_t index,
                                  const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

#endif /* MD2_ATTACH_H */
