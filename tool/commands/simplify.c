/*
 * md2 simplify: levels of detail of a model (md2_simplify(), one sequence
 * of collapses for every keyframe). The manual is docs/tool.md (its "md2
 * simplify" section); `md2 simplify --help` the short form.
 *
 * SPDX-License-Identifier: MIT
 */
#include "commands.h"
#include "tool.h"

#include <md2/simplify.h>

#include <stdlib.h>
#include <string.h>

#define CMD "simplify"
#define SIMPLIFY_MAX_LEVELS 16

static void synopsis(FILE *f)
{
    fprintf(f, "usage: md2 simplify MODEL -o OUT.md2 (--ratio R | --triangles N | --error E)\n"
               "                    [--levels R1,R2,...]\n");
}

static void help(void)
{
    synopsis(stdout);
    printf("\nWrites OUT.md2 with fewer triangles, the same collapses in every frame:\n"
           "  --ratio R      at most R times the model's triangles (0 to 1)\n"
           "  --triangles N  at most N triangles\n"
           "  --error E      as few triangles as keep every vertex of the model within E\n"
           "                 model units of the simplified surface, in every frame\n"
           "  --levels R,..  also OUT_lod1.md2, OUT_lod2.md2, ... at these ratios, from the\n"
           "                 same run (at most %d)\n"
           "Each written file gets a line: its triangles and vertices, and its largest and\n"
           "mean error over every frame.\n",
           SIMPLIFY_MAX_LEVELS);
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "md2 " CMD ": ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    synopsis(stderr);
    return TOOL_USAGE;
}

/* "OUT_lodN.md2" for OUT.md2 (the extension kept where there is one). */
static char *level_path(const char *out, size_t n)
{
    const char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - out) : strlen(out);
    char *p = (char *)malloc(strlen(out) + 32);
    if (p)
        sprintf(p, "%.*s_lod%lu%s", (int)stem, out, (unsigned long)n, out + stem);
    return p;
}

/* The file of a level, written to a temporary file beside path (opened
 * in out); the caller commits it once every level is written. */
static int write_level(tool_out *out, const char *path, const md2_lod *lod)
{
    size_t size = md2_write_size(lod->model), written = 0;
    unsigned char *bytes = (unsigned char *)malloc(size ? size : 1);
    md2_diagnostic d;
    int ok;
    if (!bytes) {
        tool_error(CMD, "%s: out of memory", path);
        return 0;
    }
    if (md2_write(lod->model, bytes, size, &written, &d) != MD2_OK) {
        tool_error(CMD, "%s: %s", path, d.message);
        free(bytes);
        return 0;
    }
    ok = tool_out_open(out, CMD, path) && tool_out_write(out, CMD, bytes, written);
    free(bytes);
    return ok;
}

static void report(const char *path, const md2_model *src, const md2_lod *lod)
{
    printf("%s: %lu of %lu triangles, %lu of %lu vertices; error over %lu frames: largest %.4g (%.3g%% of the model's size), mean %.4g\n",
           path, (unsigned long)lod->model->num_triangles, (unsigned long)src->num_triangles,
           (unsigned long)lod->model->num_vertices, (unsigned long)src->num_vertices,
           (unsigned long)src->num_frames, lod->max_error, 100.0 * lod->relative_error,
           lod->mean_error);
}

/* The command line: the model, the output and the targets, targets[0]
 * from --ratio, --triangles or --error, the others from --levels. */
typedef struct simplify_args {
    const char *model, *output, *levels_arg;
    md2_simplify_target targets[SIMPLIFY_MAX_LEVELS + 1];
    size_t count;    /* targets given */
    int have_target; /* targets[0] is set */
} simplify_args;

/* Returned by the steps of tool_simplify() that let it go on. */
#define SIMPLIFY_GO_ON (-1)

/* The value of --ratio, --triangles or --error (option) as targets[0]:
 * SIMPLIFY_GO_ON, or TOOL_USAGE after saying what is wrong with it. */
static int read_target(simplify_args *s, const char *option, const char *value)
{
    double v;
    if (s->have_target)
        return usage_error("give one of --ratio, --triangles and --error (%s is another)", option);
    s->have_target = 1;
    if (strcmp(option, "--triangles") == 0) {
        long n;
        if (!tool_parse_long(value, 0, 2147483647L, &n))
            return usage_error("--triangles '%s' is not a whole number of at least 0", value);
        s->targets[0].kind = MD2_SIMPLIFY_TRIANGLES;
        s->targets[0].value = (double)n;
    } else if (!tool_parse_double(value, &v) || !(v >= 0.0) || (v > 0.0 && v < 1e-300) ||
               (strcmp(option, "--ratio") == 0 && v > 1.0) || v > 1e30) {
        /* the limits as they are: strtod() refuses what a double cannot
         * hold (1e-320 is below its normal range), and 1e30 is the
         * coordinates' own limit (MD2_MAX_COORD) */
        return usage_error(strcmp(option, "--ratio") == 0
                               ? "--ratio '%s' is not a number from 0 to 1 (0, or from 1e-300 to 1)"
                               : "--error '%s' is not a number from 0 to 1e30 (0, or from 1e-300 to 1e30)",
                           value);
    } else {
        s->targets[0].kind = strcmp(option, "--ratio") == 0 ? MD2_SIMPLIFY_RATIO : MD2_SIMPLIFY_ERROR;
        s->targets[0].value = v;
    }
    return SIMPLIFY_GO_ON;
}

/* The words of argv into s: SIMPLIFY_GO_ON; TOOL_OK after the help;
 * TOOL_USAGE after saying what is wrong. */
static int read_words(int argc, char **argv, simplify_args *s)
{
    size_t i;
    for (i = 1; i < (size_t)argc; i++) {
        const char *a = argv[i];
        if (tool_is_help(a)) {
            help();
            return TOOL_OK;
        }
        if (strcmp(a, "-o") == 0 || strcmp(a, "--ratio") == 0 || strcmp(a, "--triangles") == 0 ||
            strcmp(a, "--error") == 0 || strcmp(a, "--levels") == 0) {
            int status = SIMPLIFY_GO_ON;
            if (i + 1 >= (size_t)argc)
                return usage_error("%s needs a value", a);
            i++;
            if (strcmp(a, "-o") == 0)
                s->output = argv[i];
            else if (strcmp(a, "--levels") == 0)
                s->levels_arg = argv[i];
            else
                status = read_target(s, a, argv[i]);
            if (status != SIMPLIFY_GO_ON)
                return status;
            continue;
        }
        if (a[0] == '-' && a[1] != '\0')
            return usage_error("unknown option '%s'", a);
        if (s->model)
            return usage_error("one model at a time ('%s' is a second)", a);
        s->model = a;
    }
    return SIMPLIFY_GO_ON;
}

/* --levels R1,R2,...: targets[1..] (s->count of them in all with
 * targets[0]). SIMPLIFY_GO_ON, or TOOL_USAGE after saying what is wrong. */
static int read_levels(simplify_args *s)
{
    const char *p = s->levels_arg;
    while (*p) {
        char word[64];
        size_t n = strcspn(p, ",");
        double v;
        if (n == 0 || n >= sizeof word)
            return usage_error("--levels '%s' is not a list of ratios (R1,R2,...)", s->levels_arg);
        memcpy(word, p, n);
        word[n] = '\0';
        if (!tool_parse_double(word, &v) || !(v >= 0.0) || (v > 0.0 && v < 1e-300) || v > 1.0)
            return usage_error("--levels: '%s' is not a ratio from 0 to 1 (0, or from 1e-300 to 1)", word);
        if (s->count > SIMPLIFY_MAX_LEVELS)
            return usage_error("--levels '%s': more than 16 levels", s->levels_arg);
        s->targets[s->count].kind = MD2_SIMPLIFY_RATIO;
        s->targets[s->count].value = v;
        s->count++;
        p += n;
        if (*p == ',' && *++p == '\0')
            return usage_error("--levels '%s' ends in a comma", s->levels_arg);
    }
    return SIMPLIFY_GO_ON;
}

/* The command line read and checked: SIMPLIFY_GO_ON, else the exit
 * status (the help, or a usage error said). */
static int read_args(int argc, char **argv, simplify_args *s)
{
    int status;
    memset(s, 0, sizeof *s);
    status = read_words(argc, argv, s);
    if (status != SIMPLIFY_GO_ON)
        return status;
    if (!s->model)
        return usage_error("%s", "no model given");
    if (!s->output)
        return usage_error("%s", "no output given (-o OUT.md2)");
    if (!s->have_target)
        return usage_error("%s", "no target given (--ratio, --triangles or --error)");
    /* as md2 import refuses it: the model would be gone if anything failed */
    if (tool_same_file(s->output, s->model))
        return usage_error("-o %s is the model: choose another -o", s->output);
    s->count = 1;
    return s->levels_arg ? read_levels(s) : SIMPLIFY_GO_ON;
}

/* The count levels of src as output, OUT_lod1.md2, ...: every file
 * written to its temporary file first, then all renamed, so that a
 * failure leaves none of them; a line for each. */
static int write_levels(const char *output, const md2_model *src, const md2_lod *lods,
                        size_t count)
{
    tool_out outs[SIMPLIFY_MAX_LEVELS + 1];
    char *paths[SIMPLIFY_MAX_LEVELS + 1];
    size_t i;
    int status = TOOL_OK;
    memset(outs, 0, sizeof outs);
    memset(paths, 0, sizeof paths);
    for (i = 0; i < count && status == TOOL_OK; i++) {
        paths[i] = i == 0 ? NULL : level_path(output, i);
        if (i > 0 && !paths[i]) {
            tool_error(CMD, "out of memory");
            status = TOOL_FAILED;
        } else if (!write_level(&outs[i], i == 0 ? output : paths[i], &lods[i])) {
            status = TOOL_FAILED;
        }
    }
    for (i = 0; i < count; i++) {
        if (status == TOOL_OK && !tool_out_commit(&outs[i], CMD))
            status = TOOL_FAILED;
        else if (status == TOOL_OK)
            report(i == 0 ? output : paths[i], src, &lods[i]);
        tool_out_abort(&outs[i]);
        free(paths[i]);
    }
    return status;
}

int tool_simplify(int argc, char **argv)
{
    simplify_args s;
    md2_lod lods[SIMPLIFY_MAX_LEVELS + 1];
    size_t i;
    int status;
    tool_model tm;
    md2_diagnostic d;
    md2_simplify_options o;

    status = read_args(argc, argv, &s);
    if (status != SIMPLIFY_GO_ON)
        return status;
    if (tool_load(s.model, 0, &tm, &d) != MD2_OK) {
        tool_load_error(CMD, s.model, &d);
        return TOOL_FAILED;
    }
    memset(&o, 0, sizeof o);
    o.error = &d;
    if (md2_simplify(tm.model, s.targets, s.count, &o, lods) != MD2_OK) {
        tool_error(CMD, "%s: %s", s.model, d.message);
        tool_model_free(&tm);
        return TOOL_FAILED;
    }
    status = write_levels(s.output, tm.model, lods, s.count);
    for (i = 0; i < s.count; i++)
        md2_lod_free(&lods[i]);
    tool_model_free(&tm);
    return status;
}
