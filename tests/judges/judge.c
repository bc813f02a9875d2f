/*
 * The judges' comparison of what a reader loaded with libmd2's decoding
 * (judge.h says what is compared and within what tolerance).
 *
 * SPDX-License-Identifier: MIT
 */
#include "judge.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* failures printed (all are counted; the report keeps the first 100) */
#define JUDGE_PRINTED 20
#define JUDGE_KEPT 100

typedef struct judge_strings {
    char **items;
    size_t count;
} judge_strings;

typedef struct judge_counted {
    char what[160];
    size_t got, want;
} judge_counted;

/* the largest difference of one kind of value, and where it was */
typedef struct judge_worst {
    size_t compared;
    double diff;  /* largest |reader - libmd2| */
    double ratio; /* largest |reader - libmd2| / tolerance */
    char where[320];
} judge_worst;

struct judge {
    const char *reader;
    char version[96];
    judge_args args;
    md2_model *model;
    float *keys, *key_normals;   /* every keyframe: num_frames * num_vertices * 3 */
    float *blend, *blend_normals; /* one md2_lerp() pose */
    size_t poses, checks, failures;
    int out_of_memory;
    judge_worst position, normal, uv;
    judge_strings notes, kept;
    judge_counted *counts;
    size_t num_counts;
};

static const char axis_name[3] = {'x', 'y', 'z'};

static char *vformat(const char *fmt, va_list ap)
{
    va_list aq;
    int n;
    char *s;
    va_copy(aq, ap);
    n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0)
        return NULL;
    s = malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

static void keep(judge *j, judge_strings *list, char *s)
{
    char **grown;
    if (!s) {
        j->out_of_memory = 1;
        return;
    }
    grown = realloc(list->items, (list->count + 1) * sizeof *grown);
    if (!grown) {
        free(s);
        j->out_of_memory = 1;
        return;
    }
    list->items = grown;
    list->items[list->count++] = s;
}

static void strings_free(judge_strings *list)
{
    size_t i;
    for (i = 0; i < list->count; i++)
        free(list->items[i]);
    free(list->items);
    list->items = NULL;
    list->count = 0;
}

/* A failure: "FILE: READER: what", printed (the first ones) and kept. */
static void vfail(judge *j, const char *fmt, va_list ap)
{
    char *what = vformat(fmt, ap);
    char *line = NULL;
    j->failures++;
    if (what) {
        size_t n = strlen(j->args.file) + strlen(j->reader) + strlen(what) + 8;
        line = malloc(n);
        if (line)
            snprintf(line, n, "%s: %s: %s", j->args.file, j->reader, what);
        free(what);
    }
    if (j->failures <= JUDGE_PRINTED)
        fprintf(stderr, "FAIL %s\n", line ? line : "(no memory for the message)");
    else if (j->failures == JUDGE_PRINTED + 1)
        fprintf(stderr, "FAIL ... (more failures are counted, not printed)\n");
    if (j->failures <= JUDGE_KEPT)
        keep(j, &j->kept, line);
    else
        free(line);
}

void judge_fail(judge *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(j, fmt, ap);
    va_end(ap);
}

void judge_note(judge *j, const char *fmt, ...)
{
    va_list ap;
    char *s;
    va_start(ap, fmt);
    s = vformat(fmt, ap);
    va_end(ap);
    if (s)
        printf("%s: %s: %s\n", j->args.file, j->reader, s);
    keep(j, &j->notes, s);
}

int judge_parse_args(int argc, char **argv, judge_args *a)
{
    int i;
    memset(a, 0, sizeof *a);
    for (i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--optional") == 0)
            a->optional = 1;
        else if (strcmp(s, "--accept-known-refusal") == 0)
            a->accept_known_refusal = 1;
        else if (strcmp(s, "--report") == 0 && i + 1 < argc)
            a->report = argv[++i];
        else if (strcmp(s, "--dump") == 0 && i + 1 < argc)
            a->dump = argv[++i];
        else if (strcmp(s, "--reader-file") == 0 && i + 1 < argc)
            a->reader_file = argv[++i];
        else if (s[0] == '-' || a->file)
            break;
        else
            a->file = s;
    }
    if (i < argc || !a->file) {
        fprintf(stderr, "%s: %s\nusage: %s [--optional] [--report OUT.json] [--dump DUMP] "
                        "[--accept-known-refusal] [--reader-file OTHER] FILE.md2\n",
                argc > 0 ? argv[0] : "judge",
                i < argc ? "unexpected argument" : "no file given", argc > 0 ? argv[0] : "judge");
        return 2;
    }
    return 0;
}

static void *alloc_floats(size_t n)
{
    if (n == 0)
        n = 1;
    if (n > SIZE_MAX / sizeof(float))
        return NULL;
    return malloc(n * sizeof(float));
}

judge *judge_open(const char *reader, const judge_args *a, int *status)
{
    md2_options opts;
    md2_diagnostic diag;
    judge *j;
    FILE *f;
    size_t v, frames, i;

    f = fopen(a->file, "rb");
    if (!f) {
        int absent = errno == ENOENT;
        if (absent && a->optional) {
            printf("%s: %s: skipped: the file is absent (it is optional: a corpus model)\n",
                   a->file, reader);
            *status = JUDGE_SKIP;
        } else {
            fprintf(stderr, "FAIL %s: %s: cannot open the file: %s\n", a->file, reader,
                    strerror(errno));
            *status = 1;
        }
        return NULL;
    }
    fclose(f);

    j = calloc(1, sizeof *j);
    if (!j) {
        *status = 1;
        return NULL;
    }
    j->reader = reader;
    j->args = *a;
    if (!j->args.reader_file)
        j->args.reader_file = a->file;
    snprintf(j->version, sizeof j->version, "unknown");
    memset(&opts, 0, sizeof opts);
    memset(&diag, 0, sizeof diag);
    opts.error = &diag;
    if (md2_load_file(a->file, &opts, &j->model) != MD2_OK) {
        fprintf(stderr, "FAIL %s: %s: libmd2 does not load the file, so there is nothing to "
                        "judge it against: %s\n", a->file, reader, diag.message);
        free(j);
        *status = 1;
        return NULL;
    }
    v = j->model->num_vertices;
    frames = j->model->num_frames;
    if (v > SIZE_MAX / 3 / (frames ? frames : 1)) {
        j->keys = NULL;
    } else {
        j->keys = alloc_floats(frames * v * 3);
        j->key_normals = alloc_floats(frames * v * 3);
    }
    j->blend = alloc_floats(v * 3);
    j->blend_normals = alloc_floats(v * 3);
    if (!j->keys || !j->key_normals || !j->blend || !j->blend_normals) {
        fprintf(stderr, "FAIL %s: %s: no memory for libmd2's %zu frames of %zu vertices\n",
                a->file, reader, frames, v);
        *status = 1;
        judge_close(j);
        return NULL;
    }
    for (i = 0; i < frames; i++) {
        md2_result r = md2_decode_frame(j->model, (uint32_t)i, j->keys + i * v * 3, 0,
                                        j->key_normals + i * v * 3, 0);
        if (r != MD2_OK) {
            fprintf(stderr, "FAIL %s: %s: libmd2 does not decode frame %zu: %s\n", a->file,
                    reader, i, md2_result_string(r));
            *status = 1;
            judge_close(j);
            return NULL;
        }
    }
    /* Every reader here keeps the file's triangles as they are; libmd2 in
     * its default (lenient) mode drops bad ones, and then corners cannot be
     * matched. */
    if (j->model->header.num_tris >= 0 &&
        j->model->num_triangles != (size_t)j->model->header.num_tris) {
        judge_fail(j, "libmd2 kept %zu of the file's %d triangles (it drops bad ones); the "
                      "readers keep them all, so their corners cannot be matched",
                   j->model->num_triangles, (int)j->model->header.num_tris);
    }
    if (strcmp(j->args.reader_file, a->file) != 0)
        judge_note(j, "the reader loads %s (a self-test: it differs from the file)",
                   j->args.reader_file);
    if (j->model->warnings) {
        uint32_t bit;
        for (bit = 1; bit; bit <<= 1) {
            if (j->model->warnings & bit)
                judge_note(j, "libmd2 warns: %s", md2_warning_string(bit));
        }
    }
    return j;
}

const char *judge_path(const judge *j)
{
    return j->args.file;
}

const char *judge_reader_path(const judge *j)
{
    return j->args.reader_file;
}

const md2_model *judge_model(const judge *j)
{
    return j->model;
}

void judge_set_version(judge *j, const char *version)
{
    snprintf(j->version, sizeof j->version, "%s", version);
}

int judge_count(judge *j, const char *where, const char *what, size_t got, size_t want)
{
    size_t i;
    for (i = 0; i < j->num_counts; i++) {
        if (strcmp(j->counts[i].what, what) == 0 && j->counts[i].got == got &&
            j->counts[i].want == want)
            break;
    }
    if (i == j->num_counts) {
        judge_counted *grown = realloc(j->counts, (j->num_counts + 1) * sizeof *grown);
        if (grown) {
            j->counts = grown;
            snprintf(grown[j->num_counts].what, sizeof grown[j->num_counts].what, "%s", what);
            grown[j->num_counts].got = got;
            grown[j->num_counts].want = want;
            j->num_counts++;
        } else {
            j->out_of_memory = 1;
        }
    }
    j->checks++;
    if (got != want) {
        judge_fail(j, "%s%s%s: %s has %zu, libmd2 %zu", where ? where : "", where ? ": " : "",
                   what, j->reader, got, want);
        return 0;
    }
    return 1;
}

/* "frame 12 'run3'" or "frames 12 'run3' and 13 'run4' blended at 0.25" */
static void pose_name(const judge *j, uint32_t a, uint32_t b, float t, char *out, size_t size)
{
    const md2_frame *f = j->model->frames;
    if (t == 0.0f)
        snprintf(out, size, "libmd2 frame %u '%s'", (unsigned)a, f[a].name);
    else
        snprintf(out, size, "libmd2 frames %u '%s' and %u '%s' blended at %g", (unsigned)a,
                 f[a].name, (unsigned)b, f[b].name, (double)t);
}

/* libmd2's pose: a keyframe as decoded, or a blend. NULL when the frames
 * are out of range (reported) or md2_lerp() fails. */
static const float *pose(judge *j, uint32_t a, uint32_t b, float t, int normals)
{
    size_t v = j->model->num_vertices;
    if (a >= j->model->num_frames || b >= j->model->num_frames) {
        judge_fail(j, "frames %u and %u asked for, the file has %zu", (unsigned)a, (unsigned)b,
                   j->model->num_frames);
        return NULL;
    }
    if (t == 0.0f)
        return (normals ? j->key_normals : j->keys) + (size_t)a * v * 3;
    if (md2_lerp(j->model, a, b, t, j->blend, 0, j->blend_normals, 0) != MD2_OK) {
        judge_fail(j, "md2_lerp(%u, %u, %g) fails", (unsigned)a, (unsigned)b, (double)t);
        return NULL;
    }
    return normals ? j->blend_normals : j->blend;
}

/* Half a step of MD2 axis m in keyframe f, and its float rounding. */
static void axis_tolerance(const md2_frame *f, int m, double *half, double *rounding)
{
    double s = fabs((double)f->scale[m]), tr = fabs((double)f->translate[m]);
    *half = s / 2;
    *rounding = 4 * (double)FLT_EPSILON * (255 * s + tr);
}

static void worst_update(judge_worst *w, double diff, double tol, const char *where_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void worst_update(judge_worst *w, double diff, double tol, const char *where_fmt, ...)
{
    double ratio = tol > 0 ? diff / tol : (diff > 0 ? HUGE_VAL : 0);
    w->compared++;
    if (isnan(diff))
        diff = ratio = HUGE_VAL;
    if (diff > w->diff || (w->compared == 1)) {
        va_list ap;
        if (diff > w->diff)
            w->diff = diff;
        va_start(ap, where_fmt);
        vsnprintf(w->where, sizeof w->where, where_fmt, ap);
        va_end(ap);
    }
    if (ratio > w->ratio)
        w->ratio = ratio;
}

static void compare_vectors(judge *j, const char *label, uint32_t a, uint32_t b, float t,
                            const float *got, size_t stride, const judge_axes *axes,
                            int normals)
{
    const md2_model *m = j->model;
    const float *want = pose(j, a, b, t, normals);
    const char *kind = normals ? "normal" : "position";
    char name[128];
    size_t c, corners = m->num_triangles * 3;
    int r;

    j->poses += !normals;
    if (!want)
        return;
    pose_name(j, a, b, t, name, sizeof name);
    if (stride == 0)
        stride = 3 * sizeof(float);
    for (c = 0; c < corners; c++) {
        const float *p = (const float *)(const void *)((const char *)got + c * stride);
        size_t tri = c / 3;
        int k = (int)(c % 3);
        unsigned vert = m->triangles[tri].vertex[k];
        for (r = 0; r < 3; r++) {
            int md = axes->md2_axis[r];
            double w = axes->sign[r] * (double)want[3 * (size_t)vert + (size_t)md];
            double g = (double)p[r];
            double diff = fabs(g - w), tol, half = 0, rounding = 0;
            if (normals) {
                tol = 1e-6 * (fabs(w) > 1 ? fabs(w) : 1);
            } else {
                double ha, ra, hb, rb;
                axis_tolerance(&m->frames[a], md, &ha, &ra);
                axis_tolerance(&m->frames[b], md, &hb, &rb);
                half = (1 - (double)t) * ha + (double)t * hb;
                rounding = (1 - (double)t) * ra + (double)t * rb;
                tol = half + rounding;
            }
            j->checks++;
            worst_update(normals ? &j->normal : &j->position, diff, tol,
                         "%s (%s), corner %zu, %s %c", label, name, c, j->reader, axis_name[r]);
            if (diff <= tol)
                continue;
            if (normals)
                judge_fail(j, "%s (%s): corner %zu (triangle %zu corner %d, MD2 vertex %u): "
                              "%s %s %c = %.9g, libmd2's MD2 %s%c = %.9g: off by %.3g, more "
                              "than %.3g",
                           label, name, c, tri, k, vert, j->reader, kind, axis_name[r], g,
                           axes->sign[r] < 0 ? "-" : "", axis_name[md], w, diff, tol);
            else
                judge_fail(j, "%s (%s): corner %zu (triangle %zu corner %d, MD2 vertex %u): "
                              "%s %s %c = %.9g, libmd2's MD2 %s%c = %.9g: off by %.3g, more "
                              "than the tolerance %.3g (half a step %.3g + float rounding %.3g)",
                           label, name, c, tri, k, vert, j->reader, kind, axis_name[r], g,
                           axes->sign[r] < 0 ? "-" : "", axis_name[md], w, diff, tol, half,
                           rounding);
        }
    }
}

void judge_positions(judge *j, const char *label, uint32_t frame_a, uint32_t frame_b, float t,
                     const float *p, size_t stride, const judge_axes *axes)
{
    compare_vectors(j, label, frame_a, frame_b, t, p, stride, axes, 0);
}

void judge_normals(judge *j, const char *label, uint32_t frame_a, uint32_t frame_b, float t,
                   const float *n, size_t stride, const judge_axes *axes)
{
    compare_vectors(j, label, frame_a, frame_b, t, n, stride, axes, 1);
}

void judge_uvs(judge *j, const float *uv, size_t stride, judge_uv convention)
{
    const md2_model *m = j->model;
    size_t c, corners = m->num_triangles * 3;
    double w = m->skin_width, h = m->skin_height;

    if (!uv) {
        if (m->num_texcoords > 0 && corners > 0)
            judge_fail(j, "no texture coordinates, the file has %zu texcoords",
                       m->num_texcoords);
        return;
    }
    if (w <= 0 || h <= 0) {
        judge_note(j, "texture coordinates not compared: the skin is %gx%g", w, h);
        return;
    }
    if (stride == 0)
        stride = 2 * sizeof(float);
    for (c = 0; c < corners; c++) {
        const float *p = (const float *)(const void *)((const char *)uv + c * stride);
        size_t tri = c / 3;
        int k = (int)(c % 3), r;
        unsigned ti = m->triangles[tri].texcoord[k];
        md2_texcoord st = m->texcoords[ti];
        float u, v;
        double want[2];
        md2_texcoord_uv(m, st, &u, &v);
        if (convention == JUDGE_UV_FLIP_V) {
            want[0] = u;
            want[1] = 1 - (double)v;
        } else {
            want[0] = u + 0.5 / w;
            want[1] = v + 0.5 / h;
        }
        for (r = 0; r < 2; r++) {
            double g = p[r], diff = fabs(g - want[r]);
            double tol = 1e-6 * (fabs(want[r]) > 1 ? fabs(want[r]) : 1);
            j->checks++;
            worst_update(&j->uv, diff, tol, "corner %zu, %c", c, r ? 'v' : 'u');
            if (!(diff <= tol))
                judge_fail(j, "texture coordinate of corner %zu (triangle %zu corner %d, "
                              "texcoord %u = (%d, %d) in a %gx%g skin): %s %c = %.9g, "
                              "expected %.9g from libmd2's (%.9g, %.9g): off by %.3g, more "
                              "than %.3g",
                           c, tri, k, ti, st.s, st.t, w, h, j->reader, r ? 'v' : 'u', g,
                           want[r], (double)u, (double)v, diff, tol);
        }
    }
}

/* ---- the report ------------------------------------------------------- */

static void json_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    for (; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f)
            fprintf(f, "\\u%04x", *p); /* names are bytes: shown as Latin-1 */
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void json_number(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.9g", x);
    else
        fputs("null", f);
}

static void json_worst(FILE *f, const char *key, const judge_worst *w, const char *tolerance)
{
    fprintf(f, "  \"%s\": {\"compared\": %zu, \"largest_difference\": ", key, w->compared);
    json_number(f, w->diff);
    fputs(", \"largest_fraction_of_tolerance\": ", f);
    json_number(f, w->ratio);
    fputs(", \"where\": ", f);
    json_string(f, w->where);
    fputs(", \"tolerance\": ", f);
    json_string(f, tolerance);
    fputs("},\n", f);
}

static void json_strings(FILE *f, const judge_strings *list)
{
    size_t i;
    fputc('[', f);
    for (i = 0; i < list->count; i++) {
        fputs(i ? ",\n    " : "\n    ", f);
        json_string(f, list->items[i]);
    }
    fputs(list->count ? "\n  ]" : "]", f);
}

static int write_report(const judge *j, int passed)
{
    const md2_model *m = j->model;
    FILE *f = fopen(j->args.report, "w");
    size_t i;
    if (!f) {
        fprintf(stderr, "FAIL %s: %s: cannot write the report %s: %s\n", j->args.file,
                j->reader, j->args.report, strerror(errno));
        return 0;
    }
    fputs("{\n  \"file\": ", f);
    json_string(f, j->args.file);
    fputs(",\n  \"reader\": ", f);
    json_string(f, j->reader);
    fputs(",\n  \"reader_version\": ", f);
    json_string(f, j->version);
    fputs(",\n  \"libmd2_version\": ", f);
    json_string(f, md2_version_string());
    fprintf(f, ",\n  \"libmd2\": {\"vertices\": %zu, \"triangles\": %zu, \"corners\": %zu, "
               "\"texcoords\": %zu, \"frames\": %zu, \"warnings\": %u},\n",
            m->num_vertices, m->num_triangles, m->num_triangles * 3, m->num_texcoords,
            m->num_frames, (unsigned)m->warnings);
    fprintf(f, "  \"passed\": %s,\n  \"checks\": %zu,\n  \"failures\": %zu,\n"
               "  \"poses\": %zu,\n",
            passed ? "true" : "false", j->checks, j->failures, j->poses);
    fputs("  \"counts\": [", f);
    for (i = 0; i < j->num_counts; i++) {
        fputs(i ? ",\n    {\"what\": " : "\n    {\"what\": ", f);
        json_string(f, j->counts[i].what);
        fprintf(f, ", \"reader\": %zu, \"libmd2\": %zu}", j->counts[i].got, j->counts[i].want);
    }
    fputs(j->num_counts ? "\n  ],\n" : "],\n", f);
    json_worst(f, "positions", &j->position,
               "per MD2 axis: half a step (|scale| / 2) + 4 FLT_EPSILON (255 |scale| + "
               "|translate|); blends: the same blend of both frames' tolerances");
    json_worst(f, "normals", &j->normal, "1e-6 (times the value when larger than 1)");
    json_worst(f, "texture_coordinates", &j->uv, "1e-6 (times the value when larger than 1)");
    fputs("  \"notes\": ", f);
    json_strings(f, &j->notes);
    fputs(",\n  \"failure_messages\": ", f);
    json_strings(f, &j->kept);
    fputs("\n}\n", f);
    if (fclose(f) != 0) {
        fprintf(stderr, "FAIL %s: %s: cannot write the report %s\n", j->args.file, j->reader,
                j->args.report);
        return 0;
    }
    return 1;
}

int judge_close(judge *j)
{
    int status = 1;
    if (!j)
        return 1;
    if (j->model) {
        int passed = j->failures == 0 && !j->out_of_memory;
        if (j->out_of_memory)
            fprintf(stderr, "FAIL %s: %s: out of memory while judging\n", j->args.file,
                    j->reader);
        if (passed && j->checks == 0) {
            fprintf(stderr, "FAIL %s: %s: nothing was compared\n", j->args.file, j->reader);
            passed = 0;
        }
        if (j->args.report && !write_report(j, passed))
            passed = 0;
        if (passed)
            printf("%s: %s %s agrees with libmd2: %zu checks over %zu poses; largest position "
                   "difference %.3g (%.3g of its tolerance), normal %.3g, uv %.3g\n",
                   j->args.file, j->reader, j->version, j->checks, j->poses, j->position.diff,
                   j->position.ratio, j->normal.diff, j->uv.diff);
        else
            fprintf(stderr, "%s: %s %s disagrees with libmd2: %zu failures (%zu checks)%s%s\n",
                    j->args.file, j->reader, j->version, j->failures, j->checks,
                    j->args.report ? "; report: " : "",
                    j->args.report ? j->args.report : "");
        status = passed ? 0 : 1;
    }
    strings_free(&j->notes);
    strings_free(&j->kept);
    free(j->counts);
    free(j->keys);
    free(j->key_normals);
    free(j->blend);
    free(j->blend_normals);
    md2_free(j->model);
    free(j);
    return status;
}
