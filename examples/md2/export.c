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
#include "attach_opt.h"
#include "export_internal.h"


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
          "                  [--y-up] [--skin FILE] [--max-output BYTES]\n"
          "                  [--attach TAG=MODEL.md2]... [--max-skin-pixels N]\n",
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
          "                 glTF holds the welded mesh, a morph target per keyframe and an\n"
          "                 animation per named animation (KHR_mesh_quantization).\n"
          "  --anim NAME    OBJ: one file per keyframe of the animation (OUT_000.obj, ...);\n"
          "                 glTF: only this animation.\n"
          "  --frame N      the keyframe an OBJ holds, or a glTF mesh shows when no animation\n"
          "                 plays (default 0); with --anim, counted in the animation.\n"
          "  --y-up         OBJ: write (x, y, z) = MD2 (y, z, x), Y up and facing +Z, as the\n"
          "                 glTF export always does (default: MD2's axes, Z up, X forward).\n"
          "                 glTF is always Y up: no effect there.\n"
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
    const char *base = export_base_name(path);
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
    fputs("md2 " EXPORT_CMD ": ", stderr);
    tool_term_printf(stderr, fmt, arg);
    fputc('\n', stderr);
    synopsis(stderr);
    fputs("`md2 export --help` describes the options.\n", stderr);
    return TOOL_USAGE;
}

/* The note for a model whose skin is not found: which skin names it has. */
static void note_no_skin(const export_job *job)
{
    const md2_model *m = job->tm->model;
    size_t i, shown = m->num_skins > 4 ? 3 : m->num_skins;
    if (m->num_skins == 0) {
        tool_error(EXPORT_CMD, "note: %s names no skin; no texture (--skin FILE gives one)",
                   job->model_path);
        return;
    }
    tool_term_printf(stderr, "md2 " EXPORT_CMD ": note: no skin file found for %s (it names ",
                     job->model_path);
    for (i = 0; i < shown; i++) {
        if (i > 0)
            fputs(", ", stderr);
        tool_put_clean(stderr, m->skins[i].name);
    }
    if (shown < m->num_skins)
        fprintf(stderr, " and %lu more", (unsigned long)(m->num_skins - shown));
    fputs("); no texture (--skin FILE gives one)\n", stderr);
}

/* The note for a skin that was found but cannot be read: err, the
 * loader's sentence, with the skin's path in it written as "it". */
static void note_unreadable_skin(const char *path, const char *err)
{
    size_t n = strlen(path);
    const char *at = n > 0 ? strstr(err, path) : NULL;
    tool_term_printf(stderr, "md2 " EXPORT_CMD ": note: %s cannot be read (", path);
    if (at == err && strncmp(err + n, ": ", 2) == 0)
        tool_put_clean(stderr, err + n + 2);
    else if (at)
        tool_term_printf(stderr, "%.*sit%s", (int)(at - err), err, at + n);
    else
        tool_put_clean(stderr, err);
    fputs("); no texture (--skin FILE gives one)\n", stderr);
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

/* bytes as a person reads them: "268 MiB", "1.7 GiB". */
static void size_text(double bytes, char *out, size_t size)
{
    if (bytes >= 1073741824.0)
        snprintf(out, size, "%.3g GiB", bytes / 1073741824.0);
    else if (bytes >= 1048576.0)
        snprintf(out, size, "%.4g MiB", bytes / 1048576.0);
    else
        snprintf(out, size, "%.0f bytes", bytes);
}

int export_within_budget(const export_job *job, double bytes, int exact)
{
    char would[32], limit[32];
    if (bytes <= job->max_output)
        return 1;
    size_text(bytes, would, sizeof would);
    size_text(job->max_output, limit, sizeof limit);
    tool_error(EXPORT_CMD, "the export would be %s%s, over the %s limit; --max-output raises it",
               exact ? "" : "at least ", would, limit);
    return 0;
}

int tool_export(int argc, char **argv)
{
    const char *model_path = NULL, *out_path = NULL, *anim_name = NULL, *skin_arg = NULL;
    const char *frame_arg = NULL, *max_output_arg = NULL, *max_pixels_arg = NULL;
    long max_output = (long)EXPORT_MAX_OUTPUT, max_pixels = (long)TOOL_MAX_SKIN_PIXELS;
    int y_up = 0, format, i, status, options = 1;
    long frame = 0;
    tool_model tm;
    md2_diagnostic diag;
    md2_result r;
    export_job job;
    char found[4096];
    unsigned char *png = NULL;
    size_t w;
    tool_attach_list attach;
    tool_attached attached[TOOL_MAX_ATTACH];
    size_t num_attached = 0;
    char why[256];

    memset(&attach, 0, sizeof attach);

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **value = NULL;
        if (!options || a[0] != '-' || a[1] == '\0') {
            if (model_path)
                return usage_error("one model at a time ('%s' is a second one)", a);
            model_path = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            options = 0;
            continue;
        }
        if (tool_is_help(a)) {
            usage(stdout);
            return TOOL_OK;
        }
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)
            value = &out_path;
        else if (strcmp(a, "--anim") == 0)
            value = &anim_name;
        else if (strcmp(a, "--frame") == 0)
            value = &frame_arg;
        else if (strcmp(a, "--skin") == 0)
            value = &skin_arg;
        else if (strcmp(a, "--max-output") == 0)
            value = &max_output_arg;
        else if (strcmp(a, "--max-skin-pixels") == 0)
            value = &max_pixels_arg;
        else if (strcmp(a, "--attach") == 0) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            if (!tool_attach_add(&attach, argv[++i], why, sizeof why))
                return usage_error("%s", why);
            continue;
        } else if (strcmp(a, "--y-up") == 0) {
            y_up = 1;
            continue;
        } else {
            return usage_error("unknown option '%s'", a);
        }
        if (*value)
            return usage_error("%s is given twice", a);
        if (i + 1 >= argc)
            return usage_error("%s needs a value", a);
        *value = argv[++i];
    }
    if (!model_path)
        return usage_error("%s", "no MODEL given");
    if (!out_path)
        return usage_error("%s", "no output given (-o OUT.obj, OUT.gltf or OUT.glb)");
    format = format_of(out_path);
    if (format == FORMAT_NONE)
        return usage_error("cannot tell the format of '%s': the output must end in .obj, "
                           ".gltf or .glb", out_path);
    if (frame_arg && !tool_parse_long(frame_arg, 0, LONG_MAX, &frame))
        return usage_error("--frame needs a keyframe number (0, 1, ...), not '%s'", frame_arg);
    if (max_output_arg && !tool_parse_long(max_output_arg, 1, LONG_MAX, &max_output))
        return usage_error("--max-output needs a number of bytes (1 or more), not '%s'",
                           max_output_arg);
    if (max_pixels_arg && !tool_parse_long(max_pixels_arg, 1, 2147483647L, &max_pixels))
        return usage_error("--max-skin-pixels needs a number of pixels (1 or more), not '%s'",
                           max_pixels_arg);
    r = tool_load(model_path, 0, &tm, &diag);
    if (r != MD2_OK) {
        tool_load_error(EXPORT_CMD, model_path, &diag);
        return TOOL_FAILED;
    }
    for (w = 0; w < tm.warning_count && w < EXPORT_SHOWN_WARNINGS; w++)
        tool_error(EXPORT_CMD, "warning: %s", tm.warnings[w].message);
    if (tm.warning_total > w)
        tool_error(EXPORT_CMD, "warning: ... and %lu more (md2 info lists them by kind)",
                   (unsigned long)(tm.warning_total - w));
    else if (tm.warnings_lost)
        tool_error(EXPORT_CMD, "warning: more warnings were lost (out of memory)");

    memset(&job, 0, sizeof job);
    job.model_path = model_path;
    job.out_path = out_path;
    job.tm = &tm;
    job.y_up = y_up;
    job.max_output = (double)max_output;
    job.anims = tm.anims;
    job.num_anims = tm.num_anims;
    status = TOOL_FAILED;
    if (anim_name) {
        size_t a = tool_find_anim(EXPORT_CMD, &tm, anim_name);
        if (a == MD2_ANIM_NOT_FOUND)
            goto done;
        job.anims = &tm.anims[a];
        job.num_anims = 1;
        /* OBJ: every keyframe of the animation, one file each, unless
         * --frame picks one of them */
        job.anim_given = format != FORMAT_OBJ || !frame_arg;
    }
    if (!pick_frame(&job, frame, anim_name, model_path))
        goto done;
    if (!tool_attach_load(EXPORT_CMD, model_path, &tm, &attach, attached))
        goto done;
    num_attached = attach.count;
    job.attached = attached;
    job.num_attached = num_attached;
    if (format != FORMAT_OBJ && tm.model->num_triangles == 0) {
        tool_error(EXPORT_CMD, "%s has no triangles: there is no mesh to write as glTF",
                   model_path);
        goto done;
    }
    if (!load_skin(&job, skin_arg, (unsigned long)max_pixels, found, sizeof found, &png))
        goto done;
    status = format == FORMAT_OBJ ? export_obj(&job) : export_gltf(&job, format == FORMAT_GLB);
done:
    free(png);
    tool_attach_free(attached, num_attached);
    tool_model_free(&tm);
    return status;
}
