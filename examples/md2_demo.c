/*
 * md2_demo - loads an MD2 model, prints what is in it and exports one
 * interpolated pose as a Wavefront OBJ file.
 *
 * Usage: md2_demo [MODEL.md2 [OUT.obj [FRAME_A FRAME_B T]]]
 *        md2_demo --help
 *
 *   MODEL.md2  the model to load (default: the bundled sample model,
 *              examples/models/crystal.md2, found through the absolute path
 *              MD2_EXAMPLES_DIR given at build time, so the demo runs from
 *              any directory)
 *   OUT.obj    where to write the pose (default: demo.obj in the current
 *              directory)
 *   FRAME_A FRAME_B T
 *              the pose: keyframes A and B blended at T in [0, 1]
 *              (default: frames 0 and 1 at 0.5; 0 and 0 for a model with
 *              one frame)
 *
 * Exit status: 0 on success, 1 if the model cannot be loaded or the OBJ
 * cannot be written, 2 for bad arguments.
 *
 * Loading is lenient (the library's default): quirks of real files are
 * repaired and listed under "warnings". An error prints the library's
 * diagnostic, which names the section, the field and the byte offset.
 *
 * The OBJ file holds, in MD2 order and in the model's own coordinates
 * (Quake's: X forward, Y left, Z up; choose "Z up" when importing):
 *   v  x y z   one per vertex, from md2_lerp()
 *   vt u v     one per texcoord, from md2_texcoord_uv(), with v flipped to
 *              1 - v: MD2 rows grow downward, OBJ's v grows upward
 *   vn x y z   one per vertex: the blended normal, renormalised
 *              (md2_normalize())
 *   f a/b/c    one per triangle, 1-based vertex/texcoord/normal indices.
 * MD2 triangles are clockwise seen from outside (Quake II culls the other
 * side); OBJ front faces are counter-clockwise. Each face therefore lists
 * the triangle's corners in the order 0, 2, 1.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MD2_EXAMPLES_DIR
#define MD2_EXAMPLES_DIR "examples"
#endif

#define DEFAULT_MODEL MD2_EXAMPLES_DIR "/models/crystal.md2"
#define DEFAULT_OBJ "demo.obj"
#define NUM_WARNING_FLAGS 10

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: md2_demo [MODEL.md2 [OUT.obj [FRAME_A FRAME_B T]]]\n"
            "Prints a summary of an MD2 model and writes keyframes FRAME_A and\n"
            "FRAME_B blended at T (0..1) as a Wavefront OBJ file.\n"
            "Defaults: MODEL.md2 = %s\n"
            "          OUT.obj = %s, frames 0 and 1, T = 0.5\n",
            DEFAULT_MODEL, DEFAULT_OBJ);
}

/* Warnings met while loading: how often each flag was raised and the first
 * diagnostic message for it (which gives the byte offset). */
typedef struct warning_log {
    unsigned long count[NUM_WARNING_FLAGS];
    char first[NUM_WARNING_FLAGS][sizeof(((md2_diagnostic *)0)->message)];
} warning_log;

static void on_warning(void *user, const md2_diagnostic *d)
{
    warning_log *log = (warning_log *)user;
    int bit;

    for (bit = 0; bit < NUM_WARNING_FLAGS; bit++) {
        if (d->warning == (1u << bit)) {
            if (log->count[bit]++ == 0)
                memcpy(log->first[bit], d->message, sizeof log->first[bit]);
            return;
        }
    }
}

/* Length of a frame name without its trailing digits. */
static size_t prefix_length(const char *name)
{
    size_t n = strlen(name);
    while (n > 0 && name[n - 1] >= '0' && name[n - 1] <= '9')
        n--;
    return n;
}

/* The number at the end of a frame name, or -1 if there is none. */
static long name_number(const char *name)
{
    size_t p = prefix_length(name), n = strlen(name);
    long v = 0;

    if (p == n || n - p > 9)
        return -1;
    for (; p < n; p++)
        v = v * 10 + (name[p] - '0');
    return v;
}

/* Does frame i continue the run of frame i - 1? Same name prefix and the
 * next number (so pain104 -> pain201 starts a new run). This is only for
 * display; it is not an animation API. */
static int continues_run(const md2_model *m, size_t i)
{
    const char *a = m->frames[i - 1].name, *b = m->frames[i].name;
    size_t pa = prefix_length(a), pb = prefix_length(b);
    long na = name_number(a), nb = name_number(b);

    return pa == pb && memcmp(a, b, pa) == 0 && na >= 0 && nb == na + 1;
}

static void print_frames(const md2_model *m)
{
    size_t start, end, runs = 0;

    for (start = 0; start < m->num_frames; start = end) {
        end = start + 1;
        while (end < m->num_frames && continues_run(m, end))
            end++;
        runs++;
    }
    printf("frame runs: %lu (frame names grouped by prefix and number)\n",
           (unsigned long)runs);
    for (start = 0; start < m->num_frames; start = end) {
        char names[2 * MD2_FRAME_NAME_SIZE + 8];
        end = start + 1;
        while (end < m->num_frames && continues_run(m, end))
            end++;
        if (end - start == 1)
            snprintf(names, sizeof names, "%s", m->frames[start].name);
        else
            snprintf(names, sizeof names, "%s..%s", m->frames[start].name,
                     m->frames[end - 1].name);
        printf("  %-24s frames %3lu-%-3lu (%lu)\n", names,
               (unsigned long)start, (unsigned long)(end - 1),
               (unsigned long)(end - start));
    }
}

static void print_summary(const char *path, const md2_model *m,
                          const warning_log *log)
{
    md2_glcmd_iter it;
    md2_glcmd cmd;
    unsigned long strips = 0, fans = 0;
    size_t i;
    int bit;

    md2_glcmd_begin(&it, m);
    while (md2_glcmd_next(&it, &cmd)) {
        if (cmd.is_fan)
            fans++;
        else
            strips++;
    }

    printf("file:       %s\n", path);
    printf("skin size:  %ld x %ld pixels\n", (long)m->skin_width,
           (long)m->skin_height);
    printf("vertices:   %lu per frame\n", (unsigned long)m->num_vertices);
    printf("texcoords:  %lu\n", (unsigned long)m->num_texcoords);
    printf("triangles:  %lu\n", (unsigned long)m->num_triangles);
    printf("frames:     %lu\n", (unsigned long)m->num_frames);
    printf("GL cmds:    %lu words: %lu strip%s, %lu fan%s\n",
           (unsigned long)m->num_glcmds, strips, strips == 1 ? "" : "s", fans,
           fans == 1 ? "" : "s");
    printf("memory:     %lu bytes (one allocation, frames kept compressed)\n",
           (unsigned long)md2_model_memory(m));
    printf("skins:      %lu\n", (unsigned long)m->num_skins);
    for (i = 0; i < m->num_skins; i++)
        printf("  %lu: %s\n", (unsigned long)i, m->skins[i].name);
    print_frames(m);
    if (m->warnings == 0) {
        printf("warnings:   none\n");
        return;
    }
    printf("warnings:   0x%03lx (repaired while loading)\n",
           (unsigned long)m->warnings);
    for (bit = 0; bit < NUM_WARNING_FLAGS; bit++) {
        uint32_t flag = 1u << bit;
        if (!(m->warnings & flag))
            continue;
        printf("  - %s: %lu time%s\n", md2_warning_string(flag),
               log->count[bit], log->count[bit] == 1 ? "" : "s");
        if (log->count[bit] > 0)
            printf("    first: %s\n", log->first[bit]);
    }
}

static int parse_frame(const char *s, unsigned long *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return 0;
    *out = strtoul(s, &end, 10);
    return errno == 0 && *end == '\0' && *out <= 0xFFFFFFFFul;
}

static int parse_t(const char *s, float *out)
{
    char *end;
    double v;
    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v >= 0.0 && v <= 1.0))
        return 0;
    *out = (float)v;
    return 1;
}

/* Writes the pose as OBJ; returns 0 on success. */
static int write_obj(const char *path, const char *model_path,
                     const md2_model *m, uint32_t fa, uint32_t fb, float t)
{
    size_t n = m->num_vertices, i;
    float *pos = (float *)malloc(n * 3 * sizeof(float));
    float *nrm = (float *)malloc(n * 3 * sizeof(float));
    md2_result r;
    FILE *fp;
    int failed;

    if (!pos || !nrm) {
        free(pos);
        free(nrm);
        fprintf(stderr, "md2_demo: out of memory\n");
        return 1;
    }
    r = md2_lerp(m, fa, fb, t, pos, 0, nrm, 0);
    if (r == MD2_OK)
        r = md2_normalize(nrm, m->num_vertices, 0);
    if (r != MD2_OK) {
        fprintf(stderr, "md2_demo: cannot blend frames %lu and %lu: %s\n",
                (unsigned long)fa, (unsigned long)fb, md2_result_string(r));
        free(pos);
        free(nrm);
        return 1;
    }
    fp = fopen(path, "w");
    if (!fp) {
        fprintf(stderr, "md2_demo: cannot create %s\n", path);
        free(pos);
        free(nrm);
        return 1;
    }
    fprintf(fp, "# %s: frames %lu (%s) and %lu (%s) at t = %g\n", model_path,
            (unsigned long)fa, m->frames[fa].name, (unsigned long)fb,
            m->frames[fb].name, (double)t);
    fprintf(fp, "# written by libmd2 %s md2_demo; Quake coordinates (Z up)\n",
            md2_version_string());
    fprintf(fp, "# faces list MD2 corners 0, 2, 1: MD2 is clockwise, OBJ "
                "counter-clockwise\n");
    for (i = 0; i < n; i++)
        fprintf(fp, "v %.6g %.6g %.6g\n", (double)pos[3 * i],
                (double)pos[3 * i + 1], (double)pos[3 * i + 2]);
    for (i = 0; i < m->num_texcoords; i++) {
        float u, v;
        md2_texcoord_uv(m, m->texcoords[i], &u, &v);
        fprintf(fp, "vt %.6g %.6g\n", (double)u, (double)(1.0f - v));
    }
    for (i = 0; i < n; i++)
        fprintf(fp, "vn %.6g %.6g %.6g\n", (double)nrm[3 * i],
                (double)nrm[3 * i + 1], (double)nrm[3 * i + 2]);
    for (i = 0; i < m->num_triangles; i++) {
        static const int order[3] = {0, 2, 1};
        const md2_triangle *tri = &m->triangles[i];
        int k;
        fputc('f', fp);
        for (k = 0; k < 3; k++) {
            unsigned long v = (unsigned long)tri->vertex[order[k]] + 1;
            unsigned long st = (unsigned long)tri->texcoord[order[k]] + 1;
            fprintf(fp, " %lu/%lu/%lu", v, st, v);
        }
        fputc('\n', fp);
    }
    failed = ferror(fp);
    if (fclose(fp) != 0)
        failed = 1;
    free(pos);
    free(nrm);
    if (failed) {
        fprintf(stderr, "md2_demo: error writing %s\n", path);
        return 1;
    }
    printf("wrote %s: frames %lu -> %lu at t = %g: %lu v, %lu vt, %lu vn, %lu f\n",
           path, (unsigned long)fa, (unsigned long)fb, (double)t,
           (unsigned long)n, (unsigned long)m->num_texcoords, (unsigned long)n,
           (unsigned long)m->num_triangles);
    return 0;
}

int main(int argc, char **argv)
{
    const char *model_path = DEFAULT_MODEL, *obj_path = DEFAULT_OBJ;
    static warning_log log;
    unsigned long fa = 0, fb = 1;
    int frames_given = 0, rc;
    float t = 0.5f;
    md2_diagnostic diag;
    md2_options opts;
    md2_model *m = NULL;
    md2_result r;

    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 4 || argc > 6) {
        usage(stderr);
        return 2;
    }
    if (argc > 1)
        model_path = argv[1];
    if (argc > 2)
        obj_path = argv[2];
    if (argc == 6) {
        if (!parse_frame(argv[3], &fa) || !parse_frame(argv[4], &fb)) {
            fprintf(stderr, "md2_demo: frame numbers must be whole numbers >= 0\n");
            return 2;
        }
        if (!parse_t(argv[5], &t)) {
            fprintf(stderr, "md2_demo: T must be a number from 0 to 1\n");
            return 2;
        }
        frames_given = 1;
    }

    memset(&opts, 0, sizeof opts);
    memset(&diag, 0, sizeof diag);
    opts.error = &diag;
    opts.on_warning = on_warning;
    opts.warning_user = &log;
    r = md2_load_file(model_path, &opts, &m);
    if (r != MD2_OK) {
        fprintf(stderr, "md2_demo: cannot load %s: %s\n", model_path,
                md2_result_string(r));
        if (diag.message[0] != '\0')
            fprintf(stderr, "  %s\n", diag.message);
        return 1;
    }

    print_summary(model_path, m, &log);

    if (!frames_given && m->num_frames < 2)
        fb = 0;
    if (fa >= m->num_frames || fb >= m->num_frames) {
        fprintf(stderr, "md2_demo: the model has frames 0 to %lu\n",
                (unsigned long)m->num_frames - 1);
        md2_free(m);
        return 2;
    }
    rc = write_obj(obj_path, model_path, m, (uint32_t)fa, (uint32_t)fb, t);
    md2_free(m);
    return rc;
}
