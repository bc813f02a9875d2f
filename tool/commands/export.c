/*
 * md2 export MODEL -o OUT.{obj,gltf,glb} [--anim NAME] [--frame N]
 *                  [--y-up] [--skin FILE]
 *
 * The command line, the skin and the checks every format shares; the
 * writers are export_obj.c and export_gltf.c. docs/tool.md, "md2 export",
 * is the manual.
 *
 * SPDX-License-Identifier: MIT
 */
#include "commands.h"
#include "attach_opt.h"
#include "export_internal.h"
#include "export_folder.h"
#include "platform.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { FORMAT_NONE, FORMAT_OBJ, FORMAT_GLTF, FORMAT_GLB };

/* The warnings shown before "... and N more". */
#define EXPORT_SHOWN_WARNINGS 20

static void synopsis(FILE *f)
{
    fputs("usage: md2 export MODEL -o OUT.{obj,gltf,glb} [--anim NAME] [--frame N]\n"
          "                  [--z-up] [--normals smooth] [--skin FILE] [--max-output BYTES]\n"
          "                  [--max-skin-pixels N] [--compact] [--keyframe-error E]\n"
          "                  [--max-targets N] [--profile bevy] [--attach TAG=MODEL.md2]...\n",
          f);
}

static void usage(FILE *f)
{
    synopsis(f);
    fputs("\n"
          "Writes a model as Wavefront OBJ or glTF 2.0 (the format follows OUT's extension).\n"
          "\n"
          "  -o, --output OUT\n"
          "                 .obj: one keyframe, with OUT.mtl and the skin as OUT.png;\n"
          "                 .gltf: one file (its buffer as a data: URI); .glb: binary glTF.\n"
          "                 glTF holds the welded mesh (float positions and normals, the\n"
          "                 first keyframe of the default animation, in model units), a\n"
          "                 morph target per kept keyframe and an animation per named\n"
          "                 animation, the idle one (stand, idle, else the first that\n"
          "                 loops) first.\n"
          "  --compact      glTF: quantised positions and normals, several times smaller\n"
          "                 (needs KHR_mesh_quantization; node scale = the step).\n"
          "  --keyframe-error E\n"
          "                 glTF: drop the keyframes of an animation that blending their\n"
          "                 kept neighbours gives within E (the largest vertex distance,\n"
          "                 in model units; default: half the model's smallest\n"
          "                 quantisation step; 0 keeps every keyframe).\n"
          "  --max-targets N\n"
          "                 glTF: at most N (2 or more) morph targets a mesh: long\n"
          "                 animations are split over several meshes whose visibility\n"
          "                 each clip switches (default: no limit).\n"
          "  --profile bevy glTF: --max-targets 256 (Bevy's MAX_MORPH_WEIGHTS).\n"
          "  --anim NAME    OBJ: one file per keyframe of the animation (OUT_000.obj, ...);\n"
          "                 glTF: only this animation.\n"
          "  --frame N      the keyframe an OBJ holds, or a glTF mesh shows when no animation\n"
          "                 plays (default 0); with --anim, counted in the animation.\n"
          "  --z-up         OBJ: MD2's own axes, Z up, X forward (default: (x, y, z) =\n"
          "                 MD2 (y, z, x), Y up and facing +Z, as glTF is and as Blender\n"
          "                 reads OBJ; --y-up says so). glTF is always Y up.\n"
          "  --normals smooth\n"
          "                 recompute the normals from the triangles (area-weighted, as\n"
          "                 md2 import --normals smooth does), for models whose normals\n"
          "                 are all equal (md2 validate warns of them) or wrong.\n"
          "  --skin FILE    the skin (PCX, PNG, TGA, BMP, JPEG), converted to PNG; default:\n"
          "                 the model's skin found as a game would, else (none found, or it\n"
          "                 cannot be read) no texture, with a note.\n"
          "  --max-output BYTES\n"
          "                 the most bytes the export may write (default 268435456,\n"
          "                 256 MiB), checked before the work where it can be\n"
          "  --max-skin-pixels N\n"
          "                 the most pixels a skin may have (default 16777216, 4096 x\n"
          "                 4096), checked before it is decoded\n"
          "  --attach TAG=MODEL.md2\n"
          "                 hangs MODEL on the model's tag TAG (its .tag file), posed with its\n"
          "                 frames: glTF: a node under the tag's node, with its own mesh and\n"
          "                 skin, animated with the model; OBJ: one more object. Repeatable.\n"
          "  -h, --help     this text; -- ends the options (a MODEL named -x.md2)\n"
          "\n"
          "Folders: md2 export DIR|MODEL... -o OUTDIR/ [--format glb|gltf|obj] [--jobs N]\n"
          "exports every .md2 below each DIR (any case) to OUTDIR/ + its path below DIR\n"
          "(a MODEL: its name) with the format's extension, making folders as needed,\n"
          "each model with the options above; models already inside OUTDIR are skipped.\n"
          "  --format F     glb (default), gltf or obj\n"
          "  --jobs N       export N models at a time (default: one per online CPU)\n"
          "A failure is listed (\"PATH: failed: REASON\") and the others go on; then\n"
          "\"N models: N exported, N failed\". On a terminal, a progress bar on stderr\n"
          "for 100 models or more. Exit status 1 when any failed.\n"
          "\n"
          "Animations come from MODEL.anm or MODEL.framegroups beside the model, else from\n"
          "the frame names. Nothing is written when anything fails, and files of the same\n"
          "names stay as they were. docs/tool.md has more.\n"
          "\n"
          "Exit status: 0 done, 1 the model or --skin could not be read or an output could\n"
          "not be written (the reason on stderr, nothing written), 2 bad command line.\n",
          f);
}

/* The format OUT's extension asks for (any letter case). */
static int format_of(const char *path)
{
    const char *base = tool_base_name(path);
    const char *dot = strrchr(base, '.');
    char ext[8];
    size_t i, n;
    if (!dot || dot == base)
        return FORMAT_NONE;
    n = strlen(dot + 1);
    if (n == 0 || n >= sizeof ext)
        return FORMAT_NONE;
    for (i = 0; i <= n; i++) {
        char c = dot[1 + i];
        ext[i] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    if (strcmp(ext, "obj") == 0)
        return FORMAT_OBJ;
    if (strcmp(ext, "gltf") == 0)
        return FORMAT_GLTF;
    if (strcmp(ext, "glb") == 0)
        return FORMAT_GLB;
    return FORMAT_NONE;
}

/* A bad command line: the message (fmt has one %s), then the synopsis. */
static int usage_error(const char *fmt, const char *arg)
{
    FILE *err = tool_stderr();
    fputs("md2 " EXPORT_CMD ": ", err);
    tool_term_printf(err, fmt, arg);
    fputc('\n', err);
    synopsis(err);
    fputs("`md2 export --help` describes the options.\n", err);
    return TOOL_USAGE;
}

/* The note for a model whose skin is not found: which skin names it has. */
static void note_no_skin(const export_job *job)
{
    const md2_model *m = job->tm->model;
    FILE *err = tool_stderr();
    size_t i, shown = m->num_skins > 4 ? 3 : m->num_skins;
    if (m->num_skins == 0) {
        tool_error(EXPORT_CMD, "note: %s names no skin; no texture (--skin FILE gives one)",
                   job->model_path);
        return;
    }
    tool_term_printf(err, "md2 " EXPORT_CMD ": note: no skin file found for %s (it names ",
                     job->model_path);
    for (i = 0; i < shown; i++) {
        if (i > 0)
            fputs(", ", err);
        tool_put_clean(err, m->skins[i].name);
    }
    if (shown < m->num_skins)
        fprintf(err, " and %lu more", (unsigned long)(m->num_skins - shown));
    fputs("); no texture (--skin FILE gives one)\n", err);
}

/* The note for a skin that was found but cannot be read: err, the
 * loader's sentence, with the skin's path in it written as "it". */
static void note_unreadable_skin(const char *path, const char *err)
{
    FILE *err_out = tool_stderr();
    size_t n = strlen(path);
    const char *at = n > 0 ? strstr(err, path) : NULL;
    tool_term_printf(err_out, "md2 " EXPORT_CMD ": note: %s cannot be read (", path);
    if (at == err && strncmp(err + n, ": ", 2) == 0)
        tool_put_clean(err_out, err + n + 2);
    else if (at)
        tool_term_printf(err_out, "%.*sit%s", (int)(at - err), err, at + n);
    else
        tool_put_clean(err_out, err);
    fputs("); no texture (--skin FILE gives one)\n", err_out);
}

/* The skin: --skin FILE, else the model's own skin found as a game would.
 * Without one (none found, or the one found cannot be read) there is no
 * texture, and a note says why. Converted to PNG into job. 0 on failure
 * (said): a --skin that cannot be read, or out of memory. */
static int load_skin(export_job *job, const char *skin_arg, unsigned long max_pixels,
                     char *found, size_t found_size, unsigned char **png)
{
    tool_image img;
    char err[512];
    size_t size = 0;
    const char *path = skin_arg;
    *png = NULL;
    if (!path) {
        if (!tool_find_skin(job->model_path, job->tm->model, found, found_size)) {
            note_no_skin(job);
            return 1;
        }
        path = found;
    }
    errno = 0;
    if (!tool_image_read_max(path, max_pixels, "--max-skin-pixels", &img, err, sizeof err)) {
        /* running out of memory is an error, whichever skin it is */
        if (skin_arg || tool_is_out_of_memory(err)) {
            tool_error(EXPORT_CMD, "%s", err);
            return 0;
        }
        note_unreadable_skin(path, err);
        return 1;
    }
    if (!tool_png_encode(&img, png, &size, err, sizeof err)) {
        tool_error(EXPORT_CMD, "cannot convert %s to PNG: %s", path, err);
        tool_image_free(&img);
        return 0;
    }
    job->skin_path = path;
    job->png = *png;
    job->png_size = size;
    job->skin_width = img.width;
    job->skin_height = img.height;
    tool_image_free(&img);
    return 1;
}

/* --frame N: keyframe N of the model, or with --anim of the animation
 * (job->anims[0]); sets job->frame to its index in the model. */
static int pick_frame(export_job *job, long frame, const char *anim_name, const char *model_path)
{
    const md2_model *m = job->tm->model;
    unsigned long first = anim_name ? job->anims[0].first : 0;
    unsigned long count = anim_name ? (unsigned long)job->anims[0].last - first + 1
                                    : (unsigned long)m->num_frames;
    if ((unsigned long)frame >= count) {
        if (anim_name)
            tool_error(EXPORT_CMD, "--frame %ld is out of range: animation '%s' has %lu "
                       "keyframe%s (0 to %lu)", frame, anim_name, count, count == 1 ? "" : "s",
                       count - 1);
        else
            tool_error(EXPORT_CMD, "--frame %ld is out of range: %s has %lu keyframe%s (0 to %lu)",
                       frame, model_path, count, count == 1 ? "" : "s", count - 1);
        return 0;
    }
    job->frame = (uint32_t)(first + (unsigned long)frame);
    return 1;
}

/* The format --format names, or FORMAT_NONE. */
static int format_named(const char *name)
{
    if (strcmp(name, "obj") == 0)
        return FORMAT_OBJ;
    if (strcmp(name, "gltf") == 0)
        return FORMAT_GLTF;
    if (strcmp(name, "glb") == 0)
        return FORMAT_GLB;
    return FORMAT_NONE;
}

/* 1 if path ends in '/' (or on Windows '\\'). */
static int ends_in_slash(const char *path)
{
    size_t n = strlen(path);
    return n > 0 && tool_sys_is_separator(path[n - 1]);
}

/* 1 if the command line asks for the export of a folder: -o OUTDIR/, or
 * an -o without the extension of a format that is a folder, or with a
 * folder or several models to export. */
static int folder_export(int argc, char **argv, const unsigned char *roles, int inputs,
                         const char *out_path)
{
    int i;
    if (ends_in_slash(out_path))
        return 1;
    if (format_of(out_path) != FORMAT_NONE)
        return 0;
    if (inputs > 1 || export_is_folder(out_path))
        return 1;
    for (i = 1; i < argc; i++)
        if (roles[i] == EXPORT_WORD_INPUT && export_is_folder(argv[i]))
            return 1;
    return 0;
}

static int export_model(int argc, char **argv);

/* The command line of md2 export: the words as given (NULL: not given),
 * then the values read from them. */
typedef struct export_args {
    const char *model_path, *second_input; /* the first MODEL or DIR, and the second */
    int inputs;                            /* how many MODELs and DIRs */
    const char *out_path, *format_arg, *jobs_arg;
    const char *anim_name, *frame_arg, *skin_arg, *normals_arg;
    const char *max_output_arg, *max_pixels_arg;
    const char *error_arg, *targets_arg, *profile_arg;
    int y_up;                              /* --y-up (the default) or --z-up */
    int compact;                           /* --compact */
    tool_attach_list attach;               /* the --attach options */
    /* read by check_values() */
    long frame, max_output, max_pixels, max_targets, jobs;
    double keyframe_error;
} export_args;

/* What is exported when the command line does not say. */
static void default_args(export_args *args)
{
    memset(args, 0, sizeof *args);
    args->y_up = 1;
    args->max_output = (long)EXPORT_MAX_OUTPUT;
    args->max_pixels = (long)TOOL_MAX_SKIN_PIXELS;
    args->keyframe_error = -1.0;
}

/* Where the option a keeps its value in args, when it is an option that
 * takes one (but --attach); else NULL. */
static const char **value_of_option(export_args *args, const char *a)
{
    if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)
        return &args->out_path;
    if (strcmp(a, "--format") == 0)
        return &args->format_arg;
    if (strcmp(a, "--jobs") == 0)
        return &args->jobs_arg;
    if (strcmp(a, "--anim") == 0)
        return &args->anim_name;
    if (strcmp(a, "--frame") == 0)
        return &args->frame_arg;
    if (strcmp(a, "--skin") == 0)
        return &args->skin_arg;
    if (strcmp(a, "--max-output") == 0)
        return &args->max_output_arg;
    if (strcmp(a, "--max-skin-pixels") == 0)
        return &args->max_pixels_arg;
    if (strcmp(a, "--normals") == 0)
        return &args->normals_arg;
    if (strcmp(a, "--keyframe-error") == 0)
        return &args->error_arg;
    if (strcmp(a, "--max-targets") == 0)
        return &args->targets_arg;
    if (strcmp(a, "--profile") == 0)
        return &args->profile_arg;
    return NULL;
}

/* Returned by the steps of export_main() that let it go on. */
#define EXPORT_GO_ON (-1)

/* The words of argv into args, and roles[i] (for export_folder()) what
 * argv[i] is. EXPORT_GO_ON; TOOL_OK after the help; TOOL_USAGE after
 * saying what is wrong: an unknown option, one given twice or without
 * its value, a bad --attach, or (one_model) a second model. */
static int read_words(int argc, char **argv, int one_model, unsigned char *roles,
                      export_args *args)
{
    int i, options = 1;
    char why[256];
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **value;
        if (!options || a[0] != '-' || a[1] == '\0') {
            if (args->model_path && one_model)
                return usage_error("one model at a time ('%s' is a second one)", a);
            if (!args->model_path)
                args->model_path = a;
            else if (!args->second_input)
                args->second_input = a;
            roles[i] = EXPORT_WORD_INPUT;
            args->inputs++;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            roles[i] = EXPORT_WORD_FOLDER;
            options = 0;
            continue;
        }
        if (tool_is_help(a)) {
            usage(stdout);
            return TOOL_OK;
        }
        value = value_of_option(args, a);
        if (value) {
            if (*value)
                return usage_error("%s is given twice", a);
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            if (value == &args->out_path || value == &args->format_arg ||
                value == &args->jobs_arg)
                roles[i] = roles[i + 1] = EXPORT_WORD_FOLDER;
            *value = argv[++i];
        } else if (strcmp(a, "--attach") == 0) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            if (!tool_attach_add(&args->attach, argv[++i], why, sizeof why))
                return usage_error("%s", why);
        } else if (strcmp(a, "--y-up") == 0 || strcmp(a, "--z-up") == 0) {
            args->y_up = a[2] == 'y';
        } else if (strcmp(a, "--compact") == 0) {
            args->compact = 1;
        } else {
            return usage_error("unknown option '%s'", a);
        }
    }
    return EXPORT_GO_ON;
}

/* The values of args's words, checked: EXPORT_GO_ON, or TOOL_USAGE after
 * saying what is missing or wrong (the first of them). */
static int check_values(int argc, char **argv, const unsigned char *roles, export_args *a)
{
    if (!a->model_path)
        return usage_error("%s", "no MODEL given");
    if (a->second_input &&
        (!a->out_path || !folder_export(argc, argv, roles, a->inputs, a->out_path)))
        return usage_error("one model at a time ('%s' is a second one; -o OUTDIR/ exports "
                           "several)", a->second_input);
    if (!a->out_path)
        return usage_error("%s", "no output given (-o OUT.obj, OUT.gltf or OUT.glb, or "
                           "-o OUTDIR/ for folders)");
    if (a->format_arg && format_named(a->format_arg) == FORMAT_NONE)
        return usage_error("--format needs glb, gltf or obj, not '%s'", a->format_arg);
    if (a->jobs_arg && !tool_parse_long(a->jobs_arg, 1, EXPORT_MAX_JOBS, &a->jobs))
        return usage_error("--jobs needs a number of threads (1 to " EXPORT_MAX_JOBS_TEXT
                           "), not '%s'", a->jobs_arg);
    if (a->frame_arg && !tool_parse_long(a->frame_arg, 0, LONG_MAX, &a->frame))
        return usage_error("--frame needs a keyframe number (0, 1, ...), not '%s'", a->frame_arg);
    if (a->max_output_arg && !tool_parse_long(a->max_output_arg, 1, LONG_MAX, &a->max_output))
        return usage_error("--max-output needs a number of bytes (1 or more), not '%s'",
                           a->max_output_arg);
    if (a->normals_arg && !tool_normals_kind(a->normals_arg))
        return usage_error("bad --normals '%s': smooth is the one kind", a->normals_arg);
    if (a->max_pixels_arg && !tool_parse_long(a->max_pixels_arg, 1, 2147483647L, &a->max_pixels))
        return usage_error("--max-skin-pixels needs a number of pixels (1 or more), not '%s'",
                           a->max_pixels_arg);
    if (a->error_arg &&
        (!tool_parse_double(a->error_arg, &a->keyframe_error) || !(a->keyframe_error >= 0.0)))
        return usage_error("--keyframe-error needs a distance in model units (0 or more), not '%s'",
                           a->error_arg);
    if (a->targets_arg && !tool_parse_long(a->targets_arg, 2, 1000000000L, &a->max_targets))
        return usage_error("--max-targets needs a number of morph targets (2 or more), not '%s'",
                           a->targets_arg);
    if (a->profile_arg) {
        /* the engines whose morph target caps their documentation states */
        if (strcmp(a->profile_arg, "bevy") != 0)
            return usage_error("unknown --profile '%s' (there is: bevy)", a->profile_arg);
        if (!a->targets_arg)
            a->max_targets = 256; /* bevy_mesh 0.19: MAX_MORPH_WEIGHTS */
    }
    return EXPORT_GO_ON;
}

/* The export of the folders and models of the command line to -o OUTDIR/. */
static int export_folders(int argc, char **argv, const unsigned char *roles,
                          const export_args *a)
{
    int format = a->format_arg ? format_named(a->format_arg) : FORMAT_GLB;
    if (export_exists_not_folder(a->out_path))
        return usage_error("-o %s is a file: the export of a folder or of several models "
                           "needs -o OUTDIR/", a->out_path);
    return export_folder(argc, argv, roles, a->out_path,
                         format == FORMAT_OBJ ? ".obj" : format == FORMAT_GLTF ? ".gltf" : ".glb",
                         a->jobs, export_model);
}

/* The format of the export of one model: that of -o OUT's extension, which
 * --format must not contradict. FORMAT_NONE after a usage error. */
static int one_model_format(const export_args *a)
{
    int format;
    if (a->jobs_arg) {
        usage_error("--jobs %s: one model is exported by one thread (--jobs is for "
                    "folders)", a->jobs_arg);
        return FORMAT_NONE;
    }
    format = format_of(a->out_path);
    if (format == FORMAT_NONE) {
        usage_error("cannot tell the format of '%s': the output must end in .obj, "
                    ".gltf or .glb", a->out_path);
        return FORMAT_NONE;
    }
    if (a->format_arg && format_named(a->format_arg) != format) {
        usage_error("--format disagrees with the output's extension ('%s')", a->out_path);
        return FORMAT_NONE;
    }
    return format;
}

/* The loader's warnings about tm, the first EXPORT_SHOWN_WARNINGS of them
 * (but those of equal normals, which --normals smooth mends), then how
 * many more there were. */
static void show_warnings(const tool_model *tm, int smooth_normals)
{
    size_t w;
    for (w = 0; w < tm->warning_count && w < EXPORT_SHOWN_WARNINGS; w++) {
        if (!(smooth_normals && tm->warnings[w].warning == MD2_WARN_SAME_NORMALS))
            tool_error(EXPORT_CMD, "warning: %s", tm->warnings[w].message);
    }
    if (tm->warning_total > w)
        tool_error(EXPORT_CMD, "warning: ... and %lu more (md2 info lists them by kind)",
                   (unsigned long)(tm->warning_total - w));
    else if (tm->warnings_lost)
        tool_error(EXPORT_CMD, "warning: more warnings were lost (out of memory)");
}

/* The model tm (loaded from a->model_path) written as format: the job of
 * the command line (its animation and keyframe, the models attached, the
 * skin) handed to the writer. */
static int export_loaded(const export_args *a, int format, const tool_model *tm)
{
    export_job job;
    tool_attached attached[TOOL_MAX_ATTACH];
    size_t num_attached = 0;
    char found[4096];
    unsigned char *png = NULL;
    int status = TOOL_FAILED;

    memset(&job, 0, sizeof job);
    job.model_path = a->model_path;
    job.out_path = a->out_path;
    job.tm = tm;
    job.y_up = a->y_up;
    job.max_output = (double)a->max_output;
    job.compact = a->compact;
    job.keyframe_error = a->keyframe_error;
    job.max_targets = (unsigned long)a->max_targets;
    job.anims = tm->anims;
    job.num_anims = tm->num_anims;
    if (a->anim_name) {
        size_t i = tool_find_anim(EXPORT_CMD, tm, a->anim_name);
        if (i == MD2_ANIM_NOT_FOUND)
            goto done;
        job.anims = &tm->anims[i];
        job.num_anims = 1;
        /* OBJ: every keyframe of the animation, one file each, unless
         * --frame picks one of them */
        job.anim_given = format != FORMAT_OBJ || !a->frame_arg;
    }
    if (!pick_frame(&job, a->frame, a->anim_name, a->model_path))
        goto done;
    if (!tool_attach_load(EXPORT_CMD, a->model_path, tm, &a->attach, attached))
        goto done;
    num_attached = a->attach.count;
    job.attached = attached;
    job.num_attached = num_attached;
    if (format != FORMAT_OBJ && tm->model->num_triangles == 0) {
        tool_error(EXPORT_CMD, "%s has no triangles: there is no mesh to write as glTF",
                   a->model_path);
        goto done;
    }
    if (!load_skin(&job, a->skin_arg, (unsigned long)a->max_pixels, found, sizeof found, &png))
        goto done;
    status = format == FORMAT_OBJ ? export_obj(&job) : export_gltf(&job, format == FORMAT_GLB);
done:
    free(png);
    tool_attach_free(attached, num_attached);
    return status;
}

/* The export of the one model of the command line, as format. */
static int export_one(const export_args *a, int format)
{
    tool_model tm;
    md2_diagnostic diag;
    int status;
    if (tool_load(a->model_path, 0, &tm, &diag) != MD2_OK) {
        tool_load_error(EXPORT_CMD, a->model_path, &diag);
        return TOOL_FAILED;
    }
    show_warnings(&tm, a->normals_arg != NULL);
    if (a->normals_arg && !tool_smooth_normals(EXPORT_CMD, a->model_path, &tm)) {
        tool_model_free(&tm);
        return TOOL_FAILED;
    }
    status = export_loaded(a, format, &tm);
    tool_model_free(&tm);
    return status;
}

/* The export the command line asks for: of one model (one_model: a model
 * of a folder export, whose words export_folder() made), else of a folder
 * when the command line names one, several models or -o OUTDIR/. roles
 * (argc bytes, zeroed) is filled for export_folder(). */
static int export_main(int argc, char **argv, int one_model, unsigned char *roles)
{
    export_args args;
    int status, format;
    default_args(&args);
    status = read_words(argc, argv, one_model, roles, &args);
    if (status == EXPORT_GO_ON)
        status = check_values(argc, argv, roles, &args);
    if (status != EXPORT_GO_ON)
        return status;
    if (!one_model && folder_export(argc, argv, roles, args.inputs, args.out_path))
        return export_folders(argc, argv, roles, &args);
    format = one_model_format(&args);
    if (format == FORMAT_NONE)
        return TOOL_USAGE;
    return export_one(&args, format);
}

/* export_main() with its roles. */
static int run_export(int argc, char **argv, int one_model)
{
    unsigned char *roles = (unsigned char *)calloc((size_t)argc + 1, 1);
    int status;
    if (!roles) {
        tool_error(EXPORT_CMD, "out of memory");
        return TOOL_FAILED;
    }
    status = export_main(argc, argv, one_model, roles);
    free(roles);
    return status;
}

int tool_export(int argc, char **argv)
{
    return run_export(argc, argv, 0);
}

/* md2 export of one model (a folder export's worker: never of a folder). */
static int export_model(int argc, char **argv)
{
    return run_export(argc, argv, 1);
}
