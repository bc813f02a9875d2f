/*
 * md2 info: the report as text for people (see docs/tool.md): one line a
 * topic, labels in one column, lists wrapped under their label. Names from
 * the file go through tool_put_clean(), so odd bytes show as \xNN.
 *
 * SPDX-License-Identifier: MIT
 */
#include "info_report.h"

#include <md2/build.h>
#include "info_util.h"

#include <string.h>

/* Columns of the label column ("  " + label + padding) and of a line. */
#define LABEL_COLUMNS 14
#define LINE_COLUMNS 100

static void label(FILE *f, const char *name)
{
    fprintf(f, "  %-*s", LABEL_COLUMNS - 2, name);
}

static void indent(FILE *f)
{
    fprintf(f, "%*s", LABEL_COLUMNS, "");
}

/* A list of items separated by ", ", wrapped under the label. */
typedef struct list {
    FILE *f;
    size_t column;
    size_t count;
} list;

static void list_start(list *l, FILE *f)
{
    l->f = f;
    l->column = LABEL_COLUMNS;
    l->count = 0;
}

/* Before an item of width columns. */
static void list_next(list *l, size_t width)
{
    if (l->count > 0) {
        if (l->column + 3 + width > LINE_COLUMNS) { /* ", " now, maybe "," after */
            fputs(",\n", l->f);
            indent(l->f);
            l->column = LABEL_COLUMNS;
        } else {
            fputs(", ", l->f);
            l->column += 2;
        }
    }
    l->count++;
    l->column += width;
}

/* The digits that end name (at most 9 of them): their count (0 if none),
 * the number they make, and where they start. */
static size_t trailing_digits(const char *name, size_t *start, unsigned long *number)
{
    size_t len = strlen(name), i = len;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    if (i == len || len - i > 9)
        return 0;
    *start = i;
    *number = 0;
    for (; i < len; i++)
        *number = *number * 10 + (unsigned long)(name[i] - '0');
    return len - *start;
}

/* 1 if frame name b follows a: the same name with its number plus one,
 * zero-padded to as many digits as a has ("run9" -> "run10",
 * "pain09" -> "pain10", "stand01" -> "stand02"). */
static int is_next(const char *a, const char *b)
{
    char expected[MD2_FRAME_NAME_SIZE + 16];
    size_t start = 0;
    unsigned long number = 0;
    size_t digits = trailing_digits(a, &start, &number);
    if (digits == 0)
        return 0;
    memcpy(expected, a, start);
    snprintf(expected + start, sizeof expected - start, "%0*lu", (int)digits, number + 1);
    return strcmp(expected, b) == 0;
}

/* Frame names as runs: "stand01..stand40 (0-39)", a lone "name (7)", and
 * a name repeated in a row as one item, "FRAME 000 x335 (0-334)". */
static void write_frames(FILE *f, const md2_model *m)
{
    list l;
    size_t i = 0, j;
    char range[64];
    label(f, "frames");
    list_start(&l, f);
    while (i < m->num_frames) {
        int same = 0;
        for (j = i; j + 1 < m->num_frames &&
                    strcmp(m->frames[j].name, m->frames[j + 1].name) == 0;)
            j++;
        if (j > i)
            same = 1;
        else
            /* up to the name before a repeated one, which starts its own item */
            for (; j + 1 < m->num_frames && is_next(m->frames[j].name, m->frames[j + 1].name) &&
                   !(j + 2 < m->num_frames &&
                     strcmp(m->frames[j + 1].name, m->frames[j + 2].name) == 0);)
                j++;
        if (same)
            snprintf(range, sizeof range, " x%lu (%lu-%lu)", (unsigned long)(j - i + 1),
                     (unsigned long)i, (unsigned long)j);
        else if (j > i)
            snprintf(range, sizeof range, " (%lu-%lu)", (unsigned long)i, (unsigned long)j);
        else
            snprintf(range, sizeof range, " (%lu)", (unsigned long)i);
        list_next(&l, tool_put_clean(NULL, m->frames[i].name) + strlen(range) +
                          (j > i && !same ? 2 + tool_put_clean(NULL, m->frames[j].name) : 0));
        tool_put_clean(f, m->frames[i].name);
        if (j > i && !same) {
            fputs("..", f);
            tool_put_clean(f, m->frames[j].name);
        }
        fputs(range, f);
        i = j + 1;
    }
    fputc('\n', f);
}

static void write_file(FILE *f, const info_report *r)
{
    const md2_model *m = r->m->model;
    const md2_header *h = &m->header;
    tool_put_clean(f, r->path);
    fputc('\n', f);
    label(f, "file");
    if (r->has_size)
        fprintf(f, "%llu bytes, ", r->file_size);
    fprintf(f, "MD2 version %ld, framesize %ld\n", (long)h->version, (long)h->framesize);
    label(f, "sections");
    fprintf(f, "skins %ld, st %ld, tris %ld, frames %ld, glcmds %ld, end %ld\n",
            (long)h->ofs_skins, (long)h->ofs_st, (long)h->ofs_tris, (long)h->ofs_frames,
            (long)h->ofs_glcmds, (long)h->ofs_end);
    label(f, "skin size");
    fprintf(f, "%ld x %ld\n", (long)m->skin_width, (long)m->skin_height);
}

/* "N thing" or "N things" (what: "thing\0things"). */
static void amount(FILE *f, size_t n, const char *what)
{
    fprintf(f, "%lu %s", (unsigned long)n, n == 1 ? what : what + strlen(what) + 1);
}

/* ", N things", and "(H in the header)" when the header said otherwise. */
static void count(FILE *f, const char *sep, size_t n, const char *what, int32_t header)
{
    fputs(sep, f);
    amount(f, n, what);
    if (header >= 0 && (size_t)header != n)
        fprintf(f, " (%ld in the header)", (long)header);
}

static void write_counts(FILE *f, const info_report *r)
{
    const md2_model *m = r->m->model;
    const md2_header *h = &m->header;
    label(f, "counts");
    count(f, "", m->num_skins, "skin\0skins", h->num_skins);
    count(f, ", ", m->num_vertices, "vertex\0vertices", h->num_xyz);
    count(f, ", ", m->num_texcoords, "texcoord\0texcoords", h->num_st);
    count(f, ", ", m->num_triangles, "triangle\0triangles", h->num_tris);
    count(f, ", ", m->num_frames, "frame\0frames", h->num_frames);
    fputc('\n', f);
    label(f, "glcmds");
    count(f, "", m->num_glcmds, "word\0words", h->num_glcmds);
    count(f, ": ", r->strips, "strip\0strips", -1);
    count(f, ", ", r->fans, "fan\0fans", -1);
    fputc('\n', f);
}

static void write_skins(FILE *f, const info_report *r)
{
    const md2_model *m = r->m->model;
    size_t i;
    label(f, "skins");
    if (m->num_skins == 0)
        fputs("none\n", f);
    for (i = 0; i < m->num_skins; i++) {
        if (i > 0)
            indent(f);
        fprintf(f, "%lu ", (unsigned long)i);
        tool_put_clean(f, m->skins[i].name);
        fputc('\n', f);
    }
    label(f, "skin file");
    if (r->skin_file[0])
        tool_put_clean(f, r->skin_file);
    else
        fputs("none found", f);
    fputc('\n', f);
}

static void write_anims(FILE *f, const info_report *r)
{
    static const char *const from[] = {"the frame names", "the .anm file",
                                       "the .framegroups file"};
    const tool_model *t = r->m;
    size_t i, width = 0;
    int source = (int)t->bundle->anim_source;
    label(f, "animations");
    fprintf(f, "%lu, from %s\n", (unsigned long)t->num_anims,
            source >= 0 && source <= 2 ? from[source] : "?");
    for (i = 0; i < t->num_anims; i++) {
        size_t w = tool_put_clean(NULL, t->anims[i].name);
        width = w > width ? w : width;
    }
    for (i = 0; i < t->num_anims; i++) {
        const md2_anim *a = &t->anims[i];
        char range[32];
        indent(f);
        fprintf(f, "%*s", (int)(width - tool_put_clean(f, a->name)), "");
        snprintf(range, sizeof range, "%lu-%lu", (unsigned long)a->first, (unsigned long)a->last);
        fprintf(f, "  %-9s %4lu frame%s  %g fps  %s\n", range,
                (unsigned long)a->last - a->first + 1, a->last == a->first ? " " : "s", a->fps,
                a->loop ? "loop" : "once");
    }
}

static void write_side(FILE *f, const info_report *r)
{
    const md2_tags *t = r->m->bundle->tags;
    list l;
    size_t i;
    int k, n, any = 0;
    label(f, "side files");
    list_start(&l, f);
    for (k = 0; k < INFO_SIDE_COUNT; k++) {
        if (!r->side[k])
            continue;
        list_next(&l, tool_put_clean(NULL, r->side[k]));
        tool_put_clean(f, r->side[k]);
        any = 1;
    }
    fputs(any ? "\n" : "none\n", f);
    if (!t)
        return;
    label(f, "tags");
    list_start(&l, f);
    n = fprintf(f, "%lu over %lu frame%s: ", (unsigned long)t->num_tags,
                (unsigned long)t->num_frames, t->num_frames == 1 ? "" : "s");
    l.column += n > 0 ? (size_t)n : 0;
    for (i = 0; i < t->num_tags; i++) {
        list_next(&l, tool_put_clean(NULL, t->names[i].name));
        tool_put_clean(f, t->names[i].name);
    }
    fputc('\n', f);
}

static void write_bounds_memory(FILE *f, const info_report *r)
{
    size_t model = md2_model_memory(r->m->model), tags = md2_tags_memory(r->m->bundle->tags);
    label(f, "bounds");
    fprintf(f, "min %g %g %g, max %g %g %g, size %g x %g x %g\n", r->min[0], r->min[1],
            r->min[2], r->max[0], r->max[1], r->max[2], r->max[0] - r->min[0],
            r->max[1] - r->min[1], r->max[2] - r->min[2]);
    label(f, "wobble");
    if (r->has_wobble)
        fprintf(f, "%lu (a vertex a step off while its neighbours hold still, between consecutive frames)\n",
                (unsigned long)r->wobble);
    else
        fputs("none (no frames or vertices)\n", f);
    label(f, "memory");
    fprintf(f, "%lu bytes", (unsigned long)(model + tags));
    if (tags)
        fprintf(f, " (model %lu, tags %lu)", (unsigned long)model, (unsigned long)tags);
    fputc('\n', f);
}

/* Each kind of warning once, with how many there were of that kind. */
static void write_warnings(FILE *f, const info_report *r)
{
    const tool_model *t = r->m;
    info_groups groups;
    size_t i;
    label(f, "warnings");
    if (t->warning_count == 0 && !t->warnings_lost) {
        fputs("none\n", f);
        return;
    }
    fprintf(f, "%lu%s\n", (unsigned long)t->warning_total,
            t->warnings_lost ? " (and more: out of memory to keep them)" : "");
    info_groups_count(&groups, t);
    for (i = 0; i < t->warning_count; i++) {
        size_t n = info_groups_first(&groups, &t->warnings[i]);
        if (n == 0)
            continue;
        indent(f);
        tool_put_clean(f, tool_message(r->path, &t->warnings[i]));
        if (n > 1)
            fprintf(f, " (first of %lu)", (unsigned long)n);
        fputc('\n', f);
    }
}

/* Each engine: "loads it", or each limit it refuses the model for. */
static void write_engines(FILE *f, const info_report *r)
{
    int p;
    size_t i;
    label(f, "engines");
    for (p = r->engines_from; p < r->engines_to; p++) {
        const char *name = md2_profile_string((md2_profile)p);
        int refused = 0;
        if (p != r->engines_from)
            indent(f);
        for (i = 0; i < r->num_refusals; i++) {
            const char *msg = r->refusals[i].message;
            if (r->refusals[i].profile != p)
                continue;
            if (refused++)
                indent(f);
            /* the message starts with the engine's name and ": " */
            if (strncmp(msg, name, strlen(name)) == 0 && msg[strlen(name)] == ':')
                msg += strlen(name) + 2;
            fprintf(f, "%s refuses it: ", name);
            tool_put_clean(f, msg);
            fputc('\n', f);
        }
        if (!refused)
            fprintf(f, "%s loads it\n", name);
    }
}

void info_write_text(FILE *f, const info_report *r)
{
    write_file(f, r);
    write_counts(f, r);
    write_skins(f, r);
    write_frames(f, r->m->model);
    write_anims(f, r);
    write_side(f, r);
    write_bounds_memory(f, r);
    write_engines(f, r);
    write_warnings(f, r);
}
