/*
 * md2 info: what it reports about a loaded model (see info_report.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "info_report.h"
#include "info_util.h"
#include "platform.h"

#include <md2/build.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const side_names[INFO_SIDE_COUNT] = {"anm", "framegroups", "tag"};
static const uint32_t side_flags[INFO_SIDE_COUNT] = {MD2_BUNDLE_ANM, MD2_BUNDLE_FRAMEGROUPS,
                                                     MD2_BUNDLE_TAG};

const char *info_side_name(int k)
{
    return k >= 0 && k < INFO_SIDE_COUNT ? side_names[k] : "?";
}

const char *info_anim_source(md2_anim_source s)
{
    switch (s) {
    case MD2_ANIMS_FROM_ANM:
        return "anm";
    case MD2_ANIMS_FROM_FRAMEGROUPS:
        return "framegroups";
    default:
        return "names";
    }
}

/* The box of every frame (frames always have vertices in a loaded model). */
static void model_bounds(const md2_model *model, float min[3], float max[3])
{
    size_t f;
    int a;
    for (f = 0; f < model->num_frames; f++) {
        float lo[3], hi[3];
        if (md2_frame_bounds(model, (uint32_t)f, lo, hi) != MD2_OK)
            continue;
        for (a = 0; a < 3; a++) {
            if (f == 0 || lo[a] < min[a])
                min[a] = lo[a];
            if (f == 0 || hi[a] > max[a])
                max[a] = hi[a];
        }
    }
}

static void count_glcmds(const md2_model *model, size_t *strips, size_t *fans)
{
    md2_glcmd_iter it;
    md2_glcmd cmd;
    *strips = 0;
    *fans = 0;
    md2_glcmd_begin(&it, model);
    while (md2_glcmd_next(&it, &cmd)) {
        if (cmd.is_fan)
            (*fans)++;
        else
            (*strips)++;
    }
}

int info_report_make(info_report *r, const char *path, const tool_model *m)
{
    tool_sys_stat st;
    int k;
    memset(r, 0, sizeof *r);
    r->path = path;
    r->m = m;
    if (tool_sys_stat_path(path, 1, &st) == 0 && st.kind == TOOL_SYS_REGULAR) {
        r->has_size = 1;
        r->file_size = st.size;
    }
    model_bounds(m->model, r->min, r->max);
    count_glcmds(m->model, &r->strips, &r->fans);
    switch (md2_wobble_score(m->model, NULL, &r->wobble)) {
    case MD2_OK:
        r->has_wobble = 1;
        break;
    case MD2_ERR_OUT_OF_MEMORY:
        tool_error("info", "out of memory");
        return 0;
    default: /* a model without frames or vertices: no score */
        break;
    }
    if (!tool_find_skin(path, m->model, r->skin_file, sizeof r->skin_file))
        r->skin_file[0] = '\0';
    for (k = 0; k < INFO_SIDE_COUNT; k++) {
        if (!(m->bundle->files & side_flags[k]))
            continue;
        r->side[k] = info_side_path(path, side_names[k]);
        if (!r->side[k]) {
            tool_error("info", "out of memory");
            return 0;
        }
    }
    return 1;
}

/* Keeps one refusal (on_limit of md2_profile_check()); a failure to keep
 * it marks r->cap_refusals SIZE_MAX. */
static void keep_refusal(void *user, const md2_diagnostic *d)
{
    info_report *r = (info_report *)user;
    info_refusal *x;
    if (r->cap_refusals == SIZE_MAX)
        return;
    if (r->num_refusals == r->cap_refusals) {
        size_t cap = r->cap_refusals ? 2 * r->cap_refusals : 8;
        x = (info_refusal *)realloc(r->refusals, cap * sizeof *x);
        if (!x) {
            r->cap_refusals = SIZE_MAX;
            return;
        }
        r->refusals = x;
        r->cap_refusals = cap;
    }
    x = &r->refusals[r->num_refusals];
    x->profile = (int)d->index;
    x->field = d->field;
    x->message = (char *)malloc(strlen(d->message) + 1);
    if (!x->message) {
        r->cap_refusals = SIZE_MAX;
        return;
    }
    strcpy(x->message, d->message);
    r->num_refusals++;
}

int info_report_engines(info_report *r, int only)
{
    int p;
    r->engines_from = only == MD2_PROFILE_FORMAT ? 1 : only;
    r->engines_to = only == MD2_PROFILE_FORMAT ? MD2_PROFILE_COUNT_ : only + 1;
    for (p = r->engines_from; p < r->engines_to; p++) {
        if (md2_profile_check(r->m->model, (md2_profile)p, keep_refusal, r, NULL) != MD2_OK ||
            r->cap_refusals == SIZE_MAX) {
            tool_error("info", "out of memory");
            return 0;
        }
    }
    return 1;
}

void info_report_free(info_report *r)
{
    int k;
    size_t i;
    for (i = 0; i < r->num_refusals; i++)
        free(r->refusals[i].message);
    free(r->refusals);
    for (k = 0; k < INFO_SIDE_COUNT; k++)
        free(r->side[k]);
    memset(r, 0, sizeof *r);
}
