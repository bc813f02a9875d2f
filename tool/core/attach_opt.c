/*
 * md2: --attach TAG=MODEL.md2 (attach_opt.h): the option's value, and the
 * models it names loaded and checked against the body they hang on.
 *
 * SPDX-License-Identifier: MIT
 */
#include "attach_opt.h"

#include <stdlib.h>
#include <string.h>

int tool_attach_add(tool_attach_list *list, const char *value, char *why, size_t why_size)
{
    const char *eq = strchr(value, '=');
    size_t n, i;
    if (!eq || eq == value || eq[1] == '\0') {
        snprintf(why, why_size, "--attach needs TAG=MODEL.md2 (a tag of the model, '=', the "
                 "model to hang on it), not '%s'", value);
        return 0;
    }
    n = (size_t)(eq - value);
    if (n > MD2_TAG_NAME_SIZE) {
        snprintf(why, why_size, "--attach %s: a tag name has at most %d bytes", value,
                 MD2_TAG_NAME_SIZE);
        return 0;
    }
    if (list->count >= TOOL_MAX_ATTACH) {
        snprintf(why, why_size, "--attach is given more than %d times", TOOL_MAX_ATTACH);
        return 0;
    }
    for (i = 0; i < list->count; i++) {
        if (strlen(list->tag[i]) == n && memcmp(list->tag[i], value, n) == 0) {
            snprintf(why, why_size, "--attach %.*s=... is given twice (one model a tag)", (int)n,
                     value);
            return 0;
        }
    }
    memcpy(list->tag[list->count], value, n);
    list->tag[list->count][n] = '\0';
    list->path[list->count] = eq + 1;
    list->count++;
    return 1;
}

/* "md2 CMD: the model has no tag NAME; its tags: a b c" */
static void unknown_tag(const char *cmd, const char *body_path, const md2_tags *tags,
                        const char *name)
{
    size_t k;
    tool_error(cmd, "--attach %s=...: %s has no tag named '%s'; its tags:", name, body_path,
               name);
    for (k = 0; k < tags->num_tags; k++) {
        fputs(k ? ", " : "    ", stderr);
        tool_put_clean(stderr, tags->names[k].name);
    }
    fputc('\n', stderr);
}

/* The first warnings of a's loading, as the commands show the model's. */
static void show_warnings(const char *cmd, const tool_attached *a)
{
    size_t w, shown = a->model.warning_count;
    if (shown > 5)
        shown = 5;
    for (w = 0; w < shown; w++)
        tool_error(cmd, "warning: --attach %s=%s: %s", a->tag, a->path,
                   tool_message(a->path, &a->model.warnings[w]));
    if (a->model.warning_total > shown)
        tool_error(cmd, "warning: --attach %s=%s: ... and %lu more (md2 info lists them)", a->tag,
                   a->path, (unsigned long)(a->model.warning_total - shown));
}

/* a's skin path, when it has one: 1, or 0 when out of memory (said). */
static int find_skin(const char *cmd, tool_attached *a)
{
    char found[4096];
    size_t n;
    if (!tool_find_skin(a->path, a->model.model, found, sizeof found))
        return 1;
    n = strlen(found) + 1;
    a->skin_path = (char *)malloc(n);
    if (!a->skin_path) {
        tool_error(cmd, "out of memory");
        return 0;
    }
    memcpy(a->skin_path, found, n);
    return 1;
}

/* 1 if a (loaded) can follow body's frames, else 0 after saying why. */
static int can_follow(const char *cmd, const tool_model *body, const char *body_path,
                      tool_attached *a)
{
    md2_options opts;
    md2_diagnostic diag;
    const md2_model *linked = a->model.model;
    a->is_static = linked->num_frames == 1;
    if (a->is_static)
        return 1;
    memset(&opts, 0, sizeof opts);
    opts.strict = MD2_WARN_FRAME_COUNT;
    opts.error = &diag;
    if (md2_linked_check(body->model, &linked, 1, &opts) == MD2_OK)
        return 1;
    tool_error(cmd, "--attach %s=%s: its %lu keyframes cannot follow the %lu of %s (an attached "
               "model has one keyframe, or as many as the model it hangs on)", a->tag, a->path,
               (unsigned long)linked->num_frames, (unsigned long)body->model->num_frames,
               body_path);
    return 0;
}

int tool_attach_load(const char *cmd, const char *body_path, const tool_model *body,
                     const tool_attach_list *list, tool_attached *out)
{
    const md2_tags *tags = body->bundle->tags;
    md2_diagnostic diag;
    size_t i;
    memset(out, 0, list->count * sizeof *out);
    for (i = 0; i < list->count; i++) {
        tool_attached *a = &out[i];
        a->path = list->path[i];
        a->tag = list->tag[i];
        if (!tags) {
            tool_error(cmd, "--attach %s=%s: %s has no tags (no .tag file beside it)",
                       a->tag, a->path, body_path);
            goto fail;
        }
        a->tag_index = md2_tags_find(tags, a->tag);
        if (a->tag_index == MD2_TAG_NOT_FOUND) {
            unknown_tag(cmd, body_path, tags, a->tag);
            goto fail;
        }
        if (tool_load(a->path, 0, &a->model, &diag) != MD2_OK) {
            tool_error(cmd, "--attach %s=%s: %s", a->tag, a->path, tool_message(a->path, &diag));
            goto fail;
        }
        show_warnings(cmd, a);
        if (a->model.model->num_triangles == 0) {
            tool_error(cmd, "--attach %s=%s: the model has no triangles: nothing to show", a->tag,
                       a->path);
            goto fail;
        }
        if (!can_follow(cmd, body, body_path, a) || !find_skin(cmd, a))
            goto fail;
    }
    return 1;
fail:
    tool_attach_free(out, list->count);
    return 0;
}

void tool_attach_free(tool_attached *a, size_t count)
{
    size_t i;
    for (i = 0; i < count; i++) {
        tool_model_free(&a[i].model);
        free(a[i].skin_path);
        a[i].skin_path = NULL;
    }
}
