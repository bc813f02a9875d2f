/*
 * md2 info --json: the report as one JSON object (every key is described
 * in docs/tool.md). Names from the file are raw bytes: every byte that is
 * not printable ASCII is written as \u00XX, so the output is always valid
 * JSON (pure ASCII) and each string's code points are its bytes.
 *
 * SPDX-License-Identifier: MIT
 */
#include "info_report.h"

#include <md2/build.h>

#include <math.h>
#include <string.h>

#define JW_MAX_DEPTH 8

/* A JSON writer: indented, with containers opened "flat" on one line. */
typedef struct jw {
    FILE *f;
    int depth;
    int first[JW_MAX_DEPTH]; /* nothing written yet in the container at that depth */
    int flat[JW_MAX_DEPTH];  /* the container at that depth is on one line */
} jw;

/* Starts a value: the comma and layout after the previous one, the key. */
static void jw_item(jw *w, const char *key)
{
    int d = w->depth;
    if (d > 0) {
        if (!w->first[d])
            fputc(',', w->f);
        if (!w->flat[d])
            fprintf(w->f, "\n%*s", 2 * d, "");
        else if (!w->first[d])
            fputc(' ', w->f);
        w->first[d] = 0;
    }
    if (key) {
        tool_json_string(w->f, key);
        fputs(": ", w->f);
    }
}

static void jw_open(jw *w, const char *key, char bracket, int flat)
{
    jw_item(w, key);
    fputc(bracket, w->f);
    w->depth++; /* the report nests 4 deep, below JW_MAX_DEPTH */
    w->first[w->depth] = 1;
    w->flat[w->depth] = flat || w->flat[w->depth - 1];
}

static void jw_close(jw *w, char bracket)
{
    int d = w->depth;
    if (!w->flat[d] && !w->first[d])
        fprintf(w->f, "\n%*s", 2 * (d - 1), "");
    fputc(bracket, w->f);
    w->depth--;
}

static void jw_str(jw *w, const char *key, const char *value)
{
    jw_item(w, key);
    if (value)
        tool_json_string(w->f, value);
    else
        fputs("null", w->f);
}

static void jw_uint(jw *w, const char *key, unsigned long long value)
{
    jw_item(w, key);
    fprintf(w->f, "%llu", value);
}

static void jw_int(jw *w, const char *key, long value)
{
    jw_item(w, key);
    fprintf(w->f, "%ld", value);
}

static void jw_bool(jw *w, const char *key, int value)
{
    jw_item(w, key);
    fputs(value ? "true" : "false", w->f);
}

/* A float with enough digits to read back the same float; null if it is
 * not finite (never in a loaded model). */
static void jw_float(jw *w, const char *key, double value)
{
    jw_item(w, key);
    if (isfinite(value))
        fprintf(w->f, "%.9g", value);
    else
        fputs("null", w->f);
}

static void jw_vec3(jw *w, const char *key, const float v[3])
{
    int a;
    jw_open(w, key, '[', 1);
    for (a = 0; a < 3; a++)
        jw_float(w, NULL, v[a]);
    jw_close(w, ']');
}

static void write_header(jw *w, const md2_header *h)
{
    jw_open(w, "header", '{', 0);
    jw_int(w, "ident", (long)h->ident);
    jw_int(w, "version", (long)h->version);
    jw_int(w, "skinwidth", (long)h->skinwidth);
    jw_int(w, "skinheight", (long)h->skinheight);
    jw_int(w, "framesize", (long)h->framesize);
    jw_int(w, "num_skins", (long)h->num_skins);
    jw_int(w, "num_xyz", (long)h->num_xyz);
    jw_int(w, "num_st", (long)h->num_st);
    jw_int(w, "num_tris", (long)h->num_tris);
    jw_int(w, "num_glcmds", (long)h->num_glcmds);
    jw_int(w, "num_frames", (long)h->num_frames);
    jw_int(w, "ofs_skins", (long)h->ofs_skins);
    jw_int(w, "ofs_st", (long)h->ofs_st);
    jw_int(w, "ofs_tris", (long)h->ofs_tris);
    jw_int(w, "ofs_frames", (long)h->ofs_frames);
    jw_int(w, "ofs_glcmds", (long)h->ofs_glcmds);
    jw_int(w, "ofs_end", (long)h->ofs_end);
    jw_close(w, '}');
}

static void write_counts(jw *w, const info_report *r)
{
    const md2_model *m = r->m->model;
    jw_int(w, "skin_width", (long)m->skin_width);
    jw_int(w, "skin_height", (long)m->skin_height);
    jw_open(w, "counts", '{', 0);
    jw_uint(w, "skins", m->num_skins);
    jw_uint(w, "vertices", m->num_vertices);
    jw_uint(w, "texcoords", m->num_texcoords);
    jw_uint(w, "triangles", m->num_triangles);
    jw_uint(w, "frames", m->num_frames);
    jw_uint(w, "glcmds", m->num_glcmds);
    jw_uint(w, "strips", r->strips);
    jw_uint(w, "fans", r->fans);
    jw_close(w, '}');
}

static void write_skins(jw *w, const info_report *r)
{
    const md2_model *m = r->m->model;
    size_t i;
    jw_open(w, "skins", '[', 0);
    for (i = 0; i < m->num_skins; i++)
        jw_str(w, NULL, m->skins[i].name);
    jw_close(w, ']');
    jw_str(w, "skin_file", r->skin_file[0] ? r->skin_file : NULL);
}

static void write_frames(jw *w, const md2_model *m)
{
    size_t i;
    jw_open(w, "frames", '[', 0);
    for (i = 0; i < m->num_frames; i++) {
        const md2_frame *fr = &m->frames[i];
        float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        md2_frame_bounds(m, (uint32_t)i, lo, hi);
        jw_open(w, NULL, '{', 1);
        jw_uint(w, "index", i);
        jw_str(w, "name", fr->name);
        jw_vec3(w, "scale", fr->scale);
        jw_vec3(w, "translate", fr->translate);
        jw_vec3(w, "min", lo);
        jw_vec3(w, "max", hi);
        jw_close(w, '}');
    }
    jw_close(w, ']');
}

static void write_anims(jw *w, const info_report *r)
{
    size_t i;
    jw_str(w, "anim_source", info_anim_source(r->m->bundle->anim_source));
    jw_open(w, "animations", '[', 0);
    for (i = 0; i < r->m->num_anims; i++) {
        const md2_anim *a = &r->m->anims[i];
        jw_open(w, NULL, '{', 1);
        jw_str(w, "name", a->name);
        jw_uint(w, "first", a->first);
        jw_uint(w, "last", a->last);
        jw_uint(w, "frames", (unsigned long long)a->last - a->first + 1);
        jw_float(w, "fps", a->fps);
        jw_bool(w, "loop", a->loop);
        jw_close(w, '}');
    }
    jw_close(w, ']');
}

static void write_side_files(jw *w, const info_report *r)
{
    const md2_tags *t = r->m->bundle->tags;
    int k;
    size_t i;
    jw_open(w, "side_files", '{', 0);
    for (k = 0; k < INFO_SIDE_COUNT; k++)
        jw_str(w, info_side_name(k), r->side[k]);
    jw_close(w, '}');
    if (!t) {
        jw_str(w, "tags", NULL);
        return;
    }
    jw_open(w, "tags", '{', 0);
    jw_uint(w, "num_tags", t->num_tags);
    jw_uint(w, "num_frames", t->num_frames);
    jw_open(w, "names", '[', 1);
    for (i = 0; i < t->num_tags; i++)
        jw_str(w, NULL, t->names[i].name);
    jw_close(w, ']');
    jw_close(w, '}');
}

static void write_bounds_memory(jw *w, const info_report *r)
{
    float size[3];
    size_t model = md2_model_memory(r->m->model), tags = md2_tags_memory(r->m->bundle->tags);
    int a;
    for (a = 0; a < 3; a++)
        size[a] = r->max[a] - r->min[a];
    jw_open(w, "bounds", '{', 0);
    jw_vec3(w, "min", r->min);
    jw_vec3(w, "max", r->max);
    jw_vec3(w, "size", size);
    jw_close(w, '}');
    if (r->has_wobble)
        jw_uint(w, "wobble", r->wobble);
    else
        jw_str(w, "wobble", NULL);
    jw_open(w, "memory", '{', 0);
    jw_uint(w, "model", model);
    jw_uint(w, "tags", tags);
    jw_uint(w, "total", (unsigned long long)model + tags);
    jw_close(w, '}');
}

static void write_warning(jw *w, const md2_diagnostic *d)
{
    jw_open(w, NULL, '{', 1);
    jw_uint(w, "result", (unsigned long long)d->result);
    jw_uint(w, "warning", d->warning);
    jw_str(w, "warning_text", md2_warning_string(d->warning));
    jw_str(w, "section", md2_section_string(d->section));
    jw_str(w, "field", d->field ? d->field : "");
    jw_uint(w, "offset", d->offset);
    jw_uint(w, "index", d->index);
    jw_uint(w, "line", d->line);
    jw_uint(w, "column", d->column);
    jw_str(w, "message", d->message);
    jw_close(w, '}');
}

static void write_warnings(jw *w, const tool_model *m)
{
    size_t i;
    jw_uint(w, "warning_flags", m->bundle->warnings);
    jw_bool(w, "warnings_lost", m->warnings_lost);
    jw_uint(w, "warnings_total", m->warning_total);
    jw_open(w, "warnings", '[', 0);
    for (i = 0; i < m->warning_count; i++)
        write_warning(w, &m->warnings[i]);
    jw_close(w, ']');
}

/* "engines": each profile checked, whether it loads the model, and the
 * limits it refuses it for. */
static void write_engines(jw *w, const info_report *r)
{
    int p;
    size_t i;
    jw_open(w, "engines", '[', 0);
    for (p = r->engines_from; p < r->engines_to; p++) {
        int refused = 0;
        for (i = 0; i < r->num_refusals; i++)
            refused += r->refusals[i].profile == p;
        jw_open(w, NULL, '{', 1);
        jw_str(w, "profile", tool_profile_name(p));
        jw_str(w, "engine", md2_profile_string((md2_profile)p));
        jw_bool(w, "loads", !refused);
        jw_open(w, "refusals", '[', 1);
        for (i = 0; i < r->num_refusals; i++) {
            if (r->refusals[i].profile != p)
                continue;
            jw_open(w, NULL, '{', 1);
            jw_str(w, "field", r->refusals[i].field);
            jw_str(w, "message", r->refusals[i].message);
            jw_close(w, '}');
        }
        jw_close(w, ']');
        jw_close(w, '}');
    }
    jw_close(w, ']');
}

void info_write_json(FILE *f, const info_report *r)
{
    jw w;
    memset(&w, 0, sizeof w);
    w.f = f;
    jw_open(&w, NULL, '{', 0);
    jw_uint(&w, "md2_info_version", INFO_JSON_VERSION);
    jw_str(&w, "path", r->path);
    if (r->has_size)
        jw_uint(&w, "file_size", r->file_size);
    else
        jw_str(&w, "file_size", NULL);
    write_header(&w, &r->m->model->header);
    write_counts(&w, r);
    write_skins(&w, r);
    write_frames(&w, r->m->model);
    write_anims(&w, r);
    write_side_files(&w, r);
    write_bounds_memory(&w, r);
    write_engines(&w, r);
    write_warnings(&w, r->m);
    jw_close(&w, '}');
    fputc('\n', f);
}
