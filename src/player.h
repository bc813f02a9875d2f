/*
 * Tier 4 of the private headers (see diag.h): what the pose calls of
 * players share (playback.c), for md2_player_pose(), md2_mesh_pose() and
 * the _linked calls of attach.c (not installed).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_PLAYER_H
#define MD2_PLAYER_H

#include "md2/animation.h"
#include "pose.h"

/* Checks the four frames of st against m, then sets up job (as
 * md2__pose_setup() does) for the pose st describes: its current pair, and
 * the outgoing one when it cross-fades (weight < 1). */
md2_result md2__pose_frames(md2__pose_job *job, const md2_model *m,
                            const md2_player_frames *st);

/* Writes the pose st describes on m as md2_player_pose() does, after its
 * checks of the outputs (MD2_ERR_INVALID_ARGUMENT) and of the frames. */
md2_result md2__pose_frames_write(const md2_model *m, const md2_player_frames *st,
                                  float *positions, size_t position_stride, float *normals,
                                  size_t normal_stride);

/* The box of the pose st describes on m, as md2_player_bounds() gives it. */
md2_result md2__frames_bounds(const md2_model *m, const md2_player_frames *st,
                              float min[3], float max[3]);

#endif /* MD2_PLAYER_H */
