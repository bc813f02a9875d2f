/*
 * md2 import SOURCE... -o OUT.md2 [options]
 *
 * The command line, the sources (glTF and OBJ through their readers,
 * import.h; an MD2 through md2_rebuild(), the repair path), the builder,
 * the outputs (the model, its skin, a .anm file, all put in place together
 * or none) and the summary. import_make.c turns a reader's scene into the
 * builder's input. docs/tool.md, "md2 import", is the manual.
 *
 * SPDX-License-Identifier: MIT
 */
#include "commands.h"
#include "import_cmd.h" /* commands/; with import.h (formats/) and tool.h (core/) */
#include "bytes.h"      /* core/ */
#include "outfiles.h"   /* core/ */
#include "platform.h"   /* platform/ */

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SRC_NONE, SRC_GLTF, SRC_OBJ, SRC_MD2 };

/* The first number a pattern's files are looked for from, and the last. */
#define PATTERN_FIRST_MAX 9999
/* The most bytes the source's scene may take by default (--max-scene). */
#define IMPORT_MAX_SCENE ((size_t)1 << 30)
/* glTF's nodes (--max-nodes) and poses (--max-work) by default: a node
 * costs about 600 bytes with its JSON, so 16384 of them fit the 16 MiB
 * that every command may take; a pose about 35 ns (0.35 s for 10^7). */
#define IMPORT_MAX_NODES 16384L
#define IMPORT_MAX_WORK 10000000L

typedef struct import_args {
    const char **sources;
    size_t num_sources;
    const char *out;
    const char *up, *scale, *height, *anim_name, *fps, *skin_name, *skin_size, *profile;
    const char *normals, *palette, *max_scene, *game, *quantize;
    const char *max_nodes, *max_work; /* glTF's budgets (import_budgets()) */
    const char **anims;
    size_t num_anims;
    int zero_pad, json, glcmds, shared_box, drop_invalid, anm, pcx, skin_png;
} import_args;

/* What the summary reports. */
typedef struct import_report {
    const char *source;
    const char *out;
    size_t out_size;
    char *skin_file;     /* the skin written, or NULL */
    const char *skin_name; /* the name in the model, or NULL */
    char *anm_file;      /* the .anm written, or NULL */
    tool_buf skin_png;   /* --skin-png: the true-colour skin, written to skin_png_file */
    char *skin_png_file;
    char *palette;       /* the skin's palette, for the summary (malloc'd), or NULL */
    const char *palette_kind; /* "game", "own" (an 8-bit skin's own), "none" (PNG), or NULL */
    int skin_w, skin_h;
    double max_error, max_half_steps;
    double held_move;    /* largest decoded movement of a vertex the source holds still */
    size_t held;         /* such vertices, summed over consecutive frame pairs */
    md2_anim *anims;     /* the animations made (input_anims()) or the MD2 source's */
    double *fps;         /* their rates, num_anims of them */
    size_t num_anims;
    md2_diagnostic *warnings;
    size_t num_warnings, cap_warnings;
    int warnings_lost;
    const char *own_warning; /* the command's own (a texture left out), first of the warnings; or NULL */
    char **notes;
    size_t num_notes;
} import_report;

static void synopsis(FILE *f)
{
    fputs("usage: md2 import SOURCE... -o OUT.md2 [--scale S | --height H] [--up y|z]\n"
          "                  [--anim NAME]... [--anim-name NAME] [--fps F] [--zero-pad]\n"
          "                  [--skin-name NAME] [--skin-size WxH] [--pcx [--palette FILE]]\n"
          "                  [--game DIR [--skin-png]]\n"
          "                  [--anm] [--profile P] [--max-scene BYTES]\n"
          "                  [--normals smooth] [--max-nodes N] [--max-work N]\n"
          "                  [--quantize per-frame|shared|stable] [--json]\n"
          "       md2 import OLD.md2 -o NEW.md2 [--normals smooth] [--glcmds] [--shared-box]\n"
          "                  [--quantize per-frame|shared|stable] [--drop-invalid] [--profile P]\n"
          "                  [--json]\n",
          f);
}

static void usage(FILE *f)
{
    synopsis(f);
    fputs("\n"
          "Makes an MD2 model from glTF 2.0 (.gltf, .glb), Wavefront OBJ (.obj: one file a\n"
          "frame, or a pattern such as walk_%04d.obj) or an MD2 (rebuilt, to repair it).\n"
          "\n"
          "  -o, --output OUT.md2  the model to write; its skin goes beside it as OUT.png\n"
          "  --scale S        multiply every coordinate by S (default 1)\n"
          "  --height H       scale so that the first frame is H units tall (56: a player)\n"
          "  --up y|z         OBJ: the axis that is up in the file (default y, as Blender\n"
          "                   writes OBJ; z keeps the coordinates as MD2 has them)\n"
          "  --anim NAME      glTF: only this animation (repeatable, in this order)\n"
          "  --anim-name NAME OBJ: the animation's name (default: from the file name)\n"
          "  --fps F          keyframes a second (default 10): glTF sampling, OBJ, .anm\n"
          "  --zero-pad       frame numbers zero-padded (walk01 .. walk12)\n"
          "  --skin-name NAME the skin's name in the model, ending .pcx or .png; the file\n"
          "                   is written beside OUT under its file name (under --game's\n"
          "                   folder: at NAME); default OUT.png (.pcx)\n"
          "  --skin-size WxH  the skin's size: a texture is resized to it (a model\n"
          "                   without texture: 256x256 by default)\n"
          "  --pcx            write the skin as 8-bit PCX (OUT.pcx), its palette chosen\n"
          "                   from the image (median cut past 256 colours)\n"
          "  --palette FILE   with --pcx: a PCX's palette, or an image's first 256 pixels\n"
          "  --game DIR       a Quake II game folder (baseq2, a mod's): the skin as PCX in\n"
          "                   its palette (pics/colormap.pcx, from its PAKs or files);\n"
          "                   with -o under DIR, named and written at its game path\n"
          "  --skin-png       with --game: also the skin as true-colour PNG beside it\n"
          "  --anm            also write OUT.anm (UFO:AI) with the animations and rates\n"
          "  --profile P      keep the limits of quake2, yquake2, ufoai or q2pro (an error)\n"
          "  --max-scene BYTES  the most memory the source's frames may take (default\n"
          "                   1073741824: 1 GiB), checked before they are made\n"
          "  --max-nodes N    glTF: the most nodes (default 16384)\n"
          "  --max-work N     glTF: the most poses, keyframes x (nodes + channels)\n"
          "                   (default 10000000)\n"
          "  --quantize Q     the frames' grids: stable (default; still parts stay still,\n"
          "                   docs/builder.md), per-frame (a box a frame) or shared (one box);\n"
          "                   an MD2 source is requantised from its decoded frames (stable:\n"
          "                   its wobble repaired)\n"
          "  --json           the summary as JSON on stdout\n"
          "  --normals smooth normals from the geometry, not the source's (glTF, OBJ);\n"
          "                   an MD2 source: new ones from its decoded positions\n"
          "  MD2 sources: --glcmds (new GL commands),\n"
          "  --shared-box (one grid for all frames), --drop-invalid (drop triangles with\n"
          "  two corners on one vertex); without them the frames stay byte for byte.\n"
          "  -h, --help       this text; -- ends the options\n"
          "\n"
          "Nothing is written when anything fails, and files of the same names stay as\n"
          "they were. docs/tool.md has more.\n"
          "\n"
          "Exit status: 0 done, 1 a source could not be read or the model not made or\n"
          "written (the reason on stderr, nothing written), 2 bad command line.\n",
          f);
}

static int usage_error(const char *fmt, const char *arg)
{
    fputs("md2 " IMPORT_CMD ": ", stderr);
    tool_term_printf(stderr, fmt, arg); /* arg is the command line's: cleaned */
    fputc('\n', stderr);
    synopsis(stderr);
    fputs("`md2 import --help` describes the options.\n", stderr);
    return TOOL_USAGE;
}

static int ends_with(const char *s, const char *ext)
{
    size_t n = strlen(s), e = strlen(ext), i;
    if (n <= e)
        return 0;
    for (i = 0; i < e; i++) {
        char a = s[n - e + i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (a != ext[i])
            return 0;
    }
    return 1;
}

static int source_kind(const char *path)
{
    if (ends_with(path, ".gltf") || ends_with(path, ".glb"))
        return SRC_GLTF;
    if (ends_with(path, ".obj"))
        return SRC_OBJ;
    if (ends_with(path, ".md2"))
        return SRC_MD2;
    return SRC_NONE;
}

/* ---- OBJ patterns: walk_%04d.obj ----------------------------------------- */

/* A pattern's parts: prefix, %[0][width]d, suffix ("%%" is a '%'). 0 if
 * it has not exactly one such conversion. */
typedef struct obj_pattern {
    char *prefix, *suffix;
    int zero;
    int width;
} obj_pattern;

static char *unescape_percent(const char *s, size_t n)
{
    char *d = (char *)malloc(n + 1);
    size_t i, j = 0;
    if (!d)
        return NULL;
    for (i = 0; i < n; i++) {
        d[j++] = s[i];
        if (s[i] == '%')
            i++; /* "%%" */
    }
    d[j] = '\0';
    return d;
}

/* 1 parsed, 0 not a pattern of one number (said as a usage error by the
 * caller), -1 out of memory. */
static int parse_pattern(const char *p, obj_pattern *out)
{
    const char *conv = NULL, *after = NULL, *q;
    memset(out, 0, sizeof *out);
    for (q = p; *q; q++) {
        const char *r;
        int width = 0, zero = 0;
        if (*q != '%')
            continue;
        if (q[1] == '%') {
            q++;
            continue;
        }
        if (conv)
            return 0;
        r = q + 1;
        if (*r == '0') {
            zero = 1;
            r++;
        }
        while (*r >= '0' && *r <= '9' && width < 100)
            width = width * 10 + (*r++ - '0');
        if (*r != 'd' || width >= 100)
            return 0;
        conv = q;
        after = r + 1;
        out->zero = zero;
        out->width = width;
        q = r;
    }
    if (!conv)
        return 0;
    out->prefix = unescape_percent(p, (size_t)(conv - p));
    out->suffix = unescape_percent(after, strlen(after));
    if (!out->prefix || !out->suffix) {
        free(out->prefix);
        free(out->suffix);
        return -1;
    }
    return 1;
}

static char *pattern_path(const obj_pattern *pt, unsigned long n)
{
    size_t len = strlen(pt->prefix) + strlen(pt->suffix) + 128;
    char *p = (char *)malloc(len);
    if (p)
        snprintf(p, len, pt->zero ? "%s%0*lu%s" : "%s%*lu%s", pt->prefix, pt->width, n,
                 pt->suffix);
    return p;
}

/* 1 if the file at path can be opened, 0 if it is not there (or a
 * folder on its path is not), -1 after saying why it cannot be told (out
 * of memory, no permission...). */
static int file_there(const char *path)
{
    char why[128];
    int missing, fd = tool_open_input(path, 0, &missing, why, sizeof why);
    if (fd >= 0) {
        tool_sys_close(fd);
        return 1;
    }
    if (missing || strcmp(why, tool_errno_text(ENOTDIR)) == 0)
        return 0;
    tool_error(IMPORT_CMD, "cannot open %s: %s", path, why);
    return -1;
}

static int has_pattern(const char *s)
{
    for (; *s; s++) {
        if (*s == '%') {
            if (s[1] != '%')
                return 1;
            s++;
        }
    }
    return 0;
}

/* The files of a pattern: from the first number from 0 to PATTERN_FIRST_MAX
 * whose file exists, up while they exist. 0 after saying why. */
static int expand_pattern(const char *pattern, char ***files, size_t *count)
{
    obj_pattern pt;
    unsigned long n, first = 0;
    char **v = NULL;
    size_t c = 0, cap = 0;
    int found = 0, r = parse_pattern(pattern, &pt);
    *files = NULL;
    *count = 0;
    if (r < 0) {
        tool_error(IMPORT_CMD, "out of memory");
        return 0;
    }
    for (n = 0; n <= PATTERN_FIRST_MAX && !found; n++) {
        char *p = pattern_path(&pt, n);
        if (!p)
            goto oom;
        found = file_there(p);
        first = n;
        free(p);
        if (found < 0)
            goto fail;
    }
    if (!found) {
        tool_error(IMPORT_CMD, "%s: no file for the numbers 0 to %d", pattern, PATTERN_FIRST_MAX);
        free(pt.prefix);
        free(pt.suffix);
        return 0;
    }
    for (n = first;; n++) {
        char *p = pattern_path(&pt, n);
        if (!p)
            goto oom;
        r = file_there(p);
        if (r <= 0) {
            free(p);
            if (r < 0)
                goto fail;
            break;
        }
        if (c == cap) {
            char **g = (char **)realloc(v, (cap ? 2 * cap : 16) * sizeof *v);
            if (!g) {
                free(p);
                goto oom;
            }
            v = g;
            cap = cap ? 2 * cap : 16;
        }
        v[c++] = p;
    }
    free(pt.prefix);
    free(pt.suffix);
    *files = v;
    *count = c;
    return 1;
oom:
    tool_error(IMPORT_CMD, "out of memory");
fail:
    while (c > 0)
        free(v[--c]);
    free(v);
    free(pt.prefix);
    free(pt.suffix);
    return 0;
}

/* ---- the summary ------------------------------------------------------------ */

static void collect_warning(void *user, const md2_diagnostic *w)
{
    import_report *r = (import_report *)user;
    if (r->num_warnings == r->cap_warnings) {
        size_t cap = r->cap_warnings ? 2 * r->cap_warnings : 8;
        md2_diagnostic *p = (md2_diagnostic *)realloc(r->warnings, cap * sizeof *p);
        if (!p) {
            r->warnings_lost = 1;
            return;
        }
        r->warnings = p;
        r->cap_warnings = cap;
    }
    r->warnings[r->num_warnings++] = *w;
}

static const char *profile_of(const md2_diagnostic *w)
{
    return md2_profile_string((md2_profile)w->index);
}

static void print_text(const import_report *r, const md2_model *m)
{
    size_t i, profiles = 0, width = 0;
    FILE *f = stderr;
    fputs("md2 import: wrote ", f);
    tool_put_clean(f, r->out);
    fprintf(f, " (%lu bytes)", (unsigned long)r->out_size);
    if (r->skin_file) {
        fputs(", ", f);
        tool_put_clean(f, r->skin_file);
        fprintf(f, " (%dx%d)", r->skin_w, r->skin_h);
    }
    if (r->skin_png_file) {
        fputs(", ", f);
        tool_put_clean(f, r->skin_png_file);
    }
    if (r->anm_file) {
        fputs(", ", f);
        tool_put_clean(f, r->anm_file);
    }
    fputc('\n', f);
    fprintf(f, "  counts      %lu vert%s, %lu texcoord%s, %lu triangle%s, %lu frame%s, %lu skin%s\n",
            (unsigned long)m->num_vertices, m->num_vertices == 1 ? "ex" : "ices",
            (unsigned long)m->num_texcoords, m->num_texcoords == 1 ? "" : "s",
            (unsigned long)m->num_triangles, m->num_triangles == 1 ? "" : "s",
            (unsigned long)m->num_frames, m->num_frames == 1 ? "" : "s",
            (unsigned long)m->num_skins, m->num_skins == 1 ? "" : "s");
    if (r->skin_name) {
        fputs("  skin name   ", f);
        tool_put_clean(f, r->skin_name);
        fputc('\n', f);
    }
    if (r->palette) {
        fputs("  palette     ", f);
        tool_put_clean(f, r->palette);
        fputc('\n', f);
    }
    for (i = 0; i < r->num_anims; i++)
        if (tool_put_clean(NULL, r->anims[i].name) > width)
            width = tool_put_clean(NULL, r->anims[i].name);
    fprintf(f, "  animations  %lu\n", (unsigned long)r->num_anims);
    for (i = 0; i < r->num_anims; i++) {
        const md2_anim *a = &r->anims[i];
        char range[48];
        fputs("              ", f);
        fprintf(f, "%*s", (int)(width - tool_put_clean(f, a->name)), "");
        snprintf(range, sizeof range, "%lu-%lu", (unsigned long)a->first, (unsigned long)a->last);
        fprintf(f, "  %-11s %4lu keyframe%s  %g fps\n", range,
                (unsigned long)(a->last - a->first + 1), a->last == a->first ? " " : "s",
                r->fps[i]);
    }
    fprintf(f, "  quantised   within %.3g units of the input (%.3g half-steps)\n", r->max_error,
            r->max_half_steps);
    fprintf(f, "  held still  %lu vert%s between keyframes in the input, moving up to %.3g units\n",
            (unsigned long)r->held, r->held == 1 ? "ex" : "ices", r->held_move);
    fprintf(f, "  glcmds      %lu words, %.2f a triangle\n", (unsigned long)m->num_glcmds,
            m->num_triangles ? (double)m->num_glcmds / (double)m->num_triangles : 0.0);
    for (i = 0; i < r->num_warnings; i++) {
        const md2_diagnostic *w = &r->warnings[i];
        if (w->warning != MD2_WARN_PROFILE_LIMIT)
            continue;
        fprintf(f, "  %s", profiles++ ? "            " : "exceeds     ");
        tool_put_clean(f, w->message);
        fputc('\n', f);
    }
    if (profiles == 0)
        fputs("  exceeds     no engine's limits (Quake II, yquake2, UFO:AI, Q2PRO)\n", f);
}

static void json_float(FILE *f, double v)
{
    if (fabs(v) < 1e15 && v == (double)(long)v) /* the test first: no cast of a NaN or a huge value */
        fprintf(f, "%ld", (long)v);
    else
        fprintf(f, "%.9g", v);
}

static void print_json(const import_report *r, const md2_model *m)
{
    size_t i, n = 0;
    FILE *f = stdout;
    fputs("{\n  \"md2_import_version\": 1,\n  \"source\": ", f);
    tool_json_string(f, r->source);
    fputs(",\n  \"output\": ", f);
    tool_json_string(f, r->out);
    fprintf(f, ",\n  \"output_size\": %lu,\n  \"skin_file\": ", (unsigned long)r->out_size);
    if (r->skin_file)
        tool_json_string(f, r->skin_file);
    else
        fputs("null", f);
    fputs(",\n  \"skin_name\": ", f);
    if (r->skin_name)
        tool_json_string(f, r->skin_name);
    else
        fputs("null", f);
    fputs(",\n  \"skin_palette\": ", f);
    if (r->palette_kind)
        tool_json_string(f, r->palette_kind);
    else
        fputs("null", f);
    fputs(",\n  \"skin_png_file\": ", f);
    if (r->skin_png_file)
        tool_json_string(f, r->skin_png_file);
    else
        fputs("null", f);
    fputs(",\n  \"anm_file\": ", f);
    if (r->anm_file)
        tool_json_string(f, r->anm_file);
    else
        fputs("null", f);
    fprintf(f, ",\n  \"skin_width\": %ld,\n  \"skin_height\": %ld", (long)m->skin_width,
            (long)m->skin_height);
    fprintf(f, ",\n  \"counts\": {\"vertices\": %lu, \"texcoords\": %lu, \"triangles\": %lu, "
               "\"frames\": %lu, \"skins\": %lu, \"glcmds\": %lu}",
            (unsigned long)m->num_vertices, (unsigned long)m->num_texcoords,
            (unsigned long)m->num_triangles, (unsigned long)m->num_frames,
            (unsigned long)m->num_skins, (unsigned long)m->num_glcmds);
    fputs(",\n  \"glcmds_per_triangle\": ", f);
    json_float(f, m->num_triangles ? (double)m->num_glcmds / (double)m->num_triangles : 0.0);
    fputs(",\n  \"animations\": [", f);
    for (i = 0; i < r->num_anims; i++) {
        fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        tool_json_string(f, r->anims[i].name);
        fprintf(f, ", \"first\": %lu, \"last\": %lu, \"frames\": %lu, \"fps\": ",
                (unsigned long)r->anims[i].first, (unsigned long)r->anims[i].last,
                (unsigned long)(r->anims[i].last - r->anims[i].first + 1));
        json_float(f, r->fps[i]);
        fputc('}', f);
    }
    fputs(r->num_anims ? "\n  ],\n  \"max_error\": " : "],\n  \"max_error\": ", f);
    json_float(f, r->max_error);
    fputs(",\n  \"max_half_steps\": ", f);
    json_float(f, r->max_half_steps);
    fprintf(f, ",\n  \"held_vertices\": %lu,\n  \"held_max_move\": ", (unsigned long)r->held);
    json_float(f, r->held_move);
    fputs(",\n  \"profiles_exceeded\": [", f);
    for (i = 0; i < r->num_warnings; i++) {
        const md2_diagnostic *w = &r->warnings[i];
        if (w->warning != MD2_WARN_PROFILE_LIMIT)
            continue;
        fputs(n++ ? ",\n    {\"profile\": " : "\n    {\"profile\": ", f);
        tool_json_string(f, profile_of(w));
        fputs(", \"field\": ", f);
        tool_json_string(f, w->field);
        fputs(", \"message\": ", f);
        tool_json_string(f, w->message);
        fputc('}', f);
    }
    fputs(n ? "\n  ],\n  \"warnings\": [" : "],\n  \"warnings\": [", f);
    n = 0;
    if (r->own_warning) {
        fputs("\n    ", f);
        tool_json_string(f, r->own_warning);
        n++;
    }
    for (i = 0; i < r->num_warnings; i++) {
        if (r->warnings[i].warning == MD2_WARN_PROFILE_LIMIT)
            continue;
        fputs(n++ ? ",\n    " : "\n    ", f);
        tool_json_string(f, r->warnings[i].message);
    }
    fputs(n ? "\n  ],\n  \"notes\": [" : "],\n  \"notes\": [", f);
    for (i = 0; i < r->num_notes; i++) {
        fputs(i ? ",\n    " : "\n    ", f);
        tool_json_string(f, r->notes[i]);
    }
    fputs(r->num_notes ? "\n  ]\n}\n" : "]\n}\n", f);
}

/* Notes and the builder's warnings (other than profiles) on stderr. */
static void print_notes(const import_report *r)
{
    size_t i;
    for (i = 0; i < r->num_notes; i++) {
        fputs("md2 import: note: ", stderr);
        tool_put_clean(stderr, r->notes[i]);
        fputc('\n', stderr);
    }
    if (r->own_warning) {
        fputs("md2 import: warning: ", stderr);
        tool_put_clean(stderr, r->own_warning);
        fputc('\n', stderr);
    }
    for (i = 0; i < r->num_warnings; i++) {
        if (r->warnings[i].warning == MD2_WARN_PROFILE_LIMIT)
            continue;
        fputs("md2 import: warning: ", stderr);
        tool_put_clean(stderr, r->warnings[i].message);
        fputc('\n', stderr);
    }
    if (r->warnings_lost)
        fputs("md2 import: warning: more warnings were lost (out of memory)\n", stderr);
}

/* ---- outputs ------------------------------------------------------------------ */

/* Decimal digits of n. */
static size_t decimal_digits(size_t n)
{
    size_t d = 1;
    for (; n >= 10; n /= 10)
        d++;
    return d;
}

/* The animations the model was built with (mi->in.anims, the scene's)
 * and their rates, as the summary and the .anm file give them: frames
 * laid end to end, each name as its frames carry it (the builder cuts it
 * to fit 16 bytes with the number of its last frame: <md2/build.h>). Not
 * what md2_anims_from_names() makes of the frame names, which may split
 * or merge them ("attack2": attack21 .. attack29, attack210). */
static int input_anims(const imp_input *mi, import_report *r)
{
    size_t i, first = 0, n = mi->in.num_anims;
    r->anims = (md2_anim *)calloc(n + 1, sizeof *r->anims);
    r->fps = (double *)calloc(n + 1, sizeof *r->fps);
    if (!r->anims || !r->fps) {
        tool_error(IMPORT_CMD, "out of memory");
        return 0;
    }
    for (i = 0; i < n; i++) {
        const md2_build_anim *b = &mi->in.anims[i];
        md2_anim *an = &r->anims[i];
        size_t digits = decimal_digits(b->count), len = strlen(b->name);
        size_t room = digits < MD2_FRAME_NAME_SIZE ? MD2_FRAME_NAME_SIZE - 1 - digits : 0;
        memcpy(an->name, b->name, len < room ? len : room);
        an->first = (uint32_t)first;
        an->last = (uint32_t)(first + b->count - 1);
        an->fps = (float)mi->anim_fps[i];
        an->loop = md2_anim_loops(an->name);
        r->fps[i] = mi->anim_fps[i];
        first += b->count;
    }
    r->num_anims = n;
    return 1;
}

/* The .anm text of r's animations with r's rates, a comment line and then
 * what md2_write_anm() writes. 0 after saying why (an entry that an .anm
 * line cannot hold, or no memory). */
static int anm_text(const import_report *r, tool_buf *b)
{
    /* r->anims[i].fps is r->fps[i] as a float, on both paths (input_anims,
     * and the MD2 repair's side file or names) */
    md2_diagnostic d;
    size_t size = 0;

    if (md2_write_anm(r->anims, r->num_anims, NULL, NULL, 0, &size, &d) != MD2_OK) {
        fputs("md2 import: --anm: ", stderr);
        tool_put_clean(stderr, d.message);
        fputc('\n', stderr);
        return 0;
    }
    tool_buf_printf(b, "// written by md2 import (libmd2 %s): name first last fps\n",
                    md2_version_string());
    if (tool_buf_reserve(b, size)) {
        /* cannot fail: the same entries, and room for size bytes */
        (void)md2_write_anm(r->anims, r->num_anims, NULL, (char *)b->data + b->size, size,
                            &size, NULL);
        b->size += size;
    }
    if (b->failed) {
        tool_error(IMPORT_CMD, "out of memory");
        return 0;
    }
    return 1;
}

/* Writes the model (and the skin's PNG, the .anm text) together. */
static int write_outputs(const char *out, const md2_model *m, const unsigned char *png,
                         size_t png_size, const char *png_path, const tool_buf *extra,
                         const char *extra_path, const tool_buf *anm, const char *anm_path,
                         size_t *out_size)
{
    tool_outset set;
    size_t size = md2_write_size(m);
    unsigned char *bytes;
    md2_result res;
    int ok;
    *out_size = size;
    if (size == 0) {
        tool_error(IMPORT_CMD, "the model cannot be written");
        return 0;
    }
    bytes = (unsigned char *)malloc(size);
    if (!bytes) {
        tool_error(IMPORT_CMD, "out of memory");
        return 0;
    }
    res = md2_write(m, bytes, size, NULL, NULL);
    if (res != MD2_OK) {
        tool_error(IMPORT_CMD, "cannot write the model: %s", md2_result_string(res));
        free(bytes);
        return 0;
    }
    memset(&set, 0, sizeof set);
    set.cmd = IMPORT_CMD;
    ok = (!png_path || tool_outset_write(&set, png_path, png, png_size)) &&
         (!extra_path || tool_outset_write(&set, extra_path, extra->data, extra->size)) &&
         (!anm_path || tool_outset_write(&set, anm_path, anm->data, anm->size)) &&
         tool_outset_write(&set, out, bytes, size);
    tool_outset_finish(&set, ok);
    free(bytes);
    return ok;
}

/* The largest distance on one axis between m's decoded positions and the
 * input (num_frames * num_vertices * 3 floats), in units and in
 * half-steps (the frame's scale on that axis over 2). */
static int quant_error(const md2_model *m, const float *input, import_report *r)
{
    size_t n = m->num_vertices;
    /* cppcheck-suppress variableScope ; the decoded frames, read after the loop that fills them */
    float *two = (float *)malloc(2 * n * 3 * sizeof *two), *pos;
    uint32_t f;
    size_t i;
    if (!two) {
        tool_error(IMPORT_CMD, "out of memory");
        return 0;
    }
    for (f = 0; f < m->num_frames; f++) {
        const float *prev = two + 3 * n * ((f + 1) & 1);
        pos = two + 3 * n * (f & 1);
        if (md2_decode_frame(m, f, pos, 0, NULL, 0) != MD2_OK)
            continue;
        /* vertices the input holds still from the frame before: how far they move */
        for (i = 0; f > 0 && i < n; i++) {
            const float *a = input + 3 * n * (f - 1) + 3 * i, *b = a + 3 * n;
            int k;
            if (memcmp(a, b, 3 * sizeof *a) != 0)
                continue;
            r->held++;
            for (k = 0; k < 3; k++)
                if (fabs((double)pos[3 * i + k] - (double)prev[3 * i + k]) > r->held_move)
                    r->held_move = fabs((double)pos[3 * i + k] - (double)prev[3 * i + k]);
        }
        for (i = 0; i < 3 * m->num_vertices; i++) {
            double d = fabs((double)pos[i] - (double)input[3 * m->num_vertices * f + i]);
            double half = (double)m->frames[f].scale[i % 3] / 2;
            if (d > r->max_error)
                r->max_error = d;
            if (half > 0 && d / half > r->max_half_steps)
                r->max_half_steps = d / half;
        }
    }
    free(two);
    return 1;
}

/* ---- the two paths ----------------------------------------------------------- */

static int parse_profile(const char *s, md2_profile *p)
{
    int v = MD2_PROFILE_FORMAT;
    if (s && !tool_parse_profile(s, &v))
        return 0;
    *p = (md2_profile)v;
    return 1;
}

/* --quantize (NULL: the default) */
static int parse_quantize(const char *s, md2_quantize *q)
{
    if (!s)
        *q = MD2_QUANTIZE_DEFAULT;
    else if (strcmp(s, "per-frame") == 0)
        *q = MD2_QUANTIZE_PER_FRAME;
    else if (strcmp(s, "shared") == 0)
        *q = MD2_QUANTIZE_SHARED;
    else if (strcmp(s, "stable") == 0)
        *q = MD2_QUANTIZE_STABLE;
    else
        return 0;
    return 1;
}

/* The builder's options (both paths): flags, --quantize, the profile, its
 * error in diag and its warnings into r. */
static void build_options(const import_args *a, unsigned flags, md2_profile profile,
                          md2_diagnostic *diag, import_report *r, md2_build_options *bo)
{
    memset(bo, 0, sizeof *bo);
    (void)parse_quantize(a->quantize, &bo->quantize); /* checked */
    bo->flags = flags;
    bo->profile = profile;
    bo->error = diag;
    bo->on_warning = collect_warning;
    bo->warning_user = r;
}

/* 0 after saying so when the folder that file goes in is not there (what
 * names the file in the message: "-o", "the skin"). A file with no folder
 * goes in the current one. */
static int folder_exists(const char *file, const char *what)
{
    size_t n = (size_t)(tool_base_name(file) - file);
    tool_sys_stat st;
    char *dir;
    int ok;
    if (n == 0)
        return 1;
    dir = (char *)malloc(n + 1);
    if (!dir) {
        tool_error(IMPORT_CMD, "out of memory");
        return 0;
    }
    memcpy(dir, file, n);
    dir[n] = '\0';
    ok = tool_sys_stat_path(dir, 1, &st) == 0 && st.kind == TOOL_SYS_DIRECTORY;
    if (!ok)
        tool_error(IMPORT_CMD, "cannot write %s (%s): its folder %s is not there; make it first",
                   file, what, dir);
    free(dir);
    return ok;
}

/* The outputs beside OUT, the report's paths. */
static int side_paths(const import_args *a, imp_skin_plan *plan, import_report *r)
{
    if (plan && plan->file) { /* the plan's paths, now the report's (an MD2 source: none) */
        r->skin_file = plan->file;
        r->skin_png_file = plan->png_file;
        plan->file = NULL;
        plan->png_file = NULL;
    }
    if (a->anm) {
        r->anm_file = tool_with_extension(a->out, ".anm");
        if (!r->anm_file)
            goto oom;
    }
    return 1;
oom:
    tool_error(IMPORT_CMD, "out of memory");
    return 0;
}

/* 0 after saying so when an output would be written over a texture file
 * the source uses (-o model.md2 with a texture model.png). */
static int not_a_texture(const imp_scene *s, const import_report *r)
{
    const char *outs[3];
    size_t i, k;
    outs[0] = r->skin_file;
    outs[1] = r->skin_png_file;
    outs[2] = r->anm_file;
    for (i = 0; i < s->num_images; i++) {
        const char *tex = s->images[i].path;
        if (!tex)
            continue;
        for (k = 0; k < 3; k++) {
            if (!outs[k] || !tool_same_file(outs[k], tex))
                continue;
            fputs("md2 import: ", stderr);
            tool_put_clean(stderr, outs[k]);
            fputs(" would be written over the texture ", stderr);
            tool_put_clean(stderr, tex);
            fputs(": choose another -o\n", stderr);
            return 0;
        }
    }
    return 1;
}

static void report_free(import_report *r)
{
    free(r->skin_file);
    free(r->skin_png_file);
    free(r->palette);
    tool_buf_free(&r->skin_png);
    free(r->anm_file);
    free(r->anims);
    free(r->fps);
    free(r->warnings);
}

/* The end both paths share, r's animations found: .anm, files, summary. */
static int finish(const import_args *a, const md2_model *m, const unsigned char *png,
                  size_t png_size, import_report *r)
{
    tool_buf anm;
    int ok;
    memset(&anm, 0, sizeof anm);
    if (a->anm && !anm_text(r, &anm)) {
        tool_buf_free(&anm);
        return 0;
    }
    ok = write_outputs(a->out, m, png, png_size, png ? r->skin_file : NULL, &r->skin_png,
                       r->skin_png_file, &anm, a->anm ? r->anm_file : NULL, &r->out_size);
    tool_buf_free(&anm);
    if (!ok)
        return 0;
    print_notes(r);
    if (a->json) {
        print_json(r, m);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            tool_error(IMPORT_CMD, "cannot write the summary: %s (%s is written)",
                       tool_sys_strerror(errno), a->out);
            return 0;
        }
    } else {
        print_text(r, m);
    }
    return 1;
}

static int import_md2(const import_args *a, md2_profile profile)
{
    tool_model tm;
    md2_diagnostic diag;
    md2_build_options bo;
    md2_model *m = NULL;
    import_report r;
    float *before = NULL;
    size_t i;
    int ok = 0;
    md2_result res = tool_load(a->sources[0], 0, &tm, &diag);
    memset(&r, 0, sizeof r);
    if (res != MD2_OK) {
        tool_load_error(IMPORT_CMD, a->sources[0], &diag);
        return TOOL_FAILED;
    }
    for (i = 0; i < tm.warning_count; i++) {
        fputs("md2 import: warning: ", stderr);
        tool_put_clean(stderr, tm.warnings[i].message);
        fputc('\n', stderr);
    }
    r.source = a->sources[0];
    r.out = a->out;
    build_options(a, (a->normals ? MD2_REBUILD_NORMALS : 0u) | (a->glcmds ? MD2_REBUILD_GLCMDS : 0u) |
                      (a->shared_box ? MD2_BUILD_SHARED_BOX : 0u) |
                      (a->drop_invalid ? MD2_REBUILD_DROP_DEGENERATE : 0u),
                  profile, &diag, &r, &bo);
    res = md2_rebuild(tm.model, &bo, &m);
    if (res != MD2_OK) {
        imp_error("%s: cannot rebuild it: %s", a->sources[0], diag.message);
        goto done;
    }
    /* the input: the old model's decoded positions */
    {
        size_t per_frame = (size_t)tm.model->num_vertices * 3;
        if ((size_t)tm.model->num_frames > ((size_t)-1 - 1) / sizeof *before / (per_frame ? per_frame : 1)) {
            tool_error(IMPORT_CMD, "out of memory (%lu frames of %lu vertices)",
                       (unsigned long)tm.model->num_frames, (unsigned long)tm.model->num_vertices);
            goto done;
        }
        before = (float *)malloc((size_t)tm.model->num_frames * per_frame * sizeof *before + 1);
        if (!before) {
            tool_error(IMPORT_CMD, "out of memory");
            goto done;
        }
        for (i = 0; i < tm.model->num_frames; i++) {
            if (md2_decode_frame(tm.model, (uint32_t)i, before + per_frame * i, 0, NULL, 0) != MD2_OK) {
                tool_error(IMPORT_CMD, "cannot decode frame %lu of the source", (unsigned long)i);
                goto done;
            }
        }
    }
    if (!quant_error(m, before, &r) || !side_paths(a, NULL, &r))
        goto done;
    /* the model's animations (its side file's, else from its names), with their rates */
    r.anims = (md2_anim *)calloc(tm.num_anims + 1, sizeof *r.anims);
    r.fps = (double *)calloc(tm.num_anims + 1, sizeof *r.fps);
    if (!r.anims || !r.fps) {
        tool_error(IMPORT_CMD, "out of memory");
        goto done;
    }
    for (i = 0; i < tm.num_anims; i++) {
        r.anims[i] = tm.anims[i];
        r.fps[i] = tm.anims[i].fps;
    }
    r.num_anims = tm.num_anims;
    ok = finish(a, m, NULL, 0, &r);
done:
    free(before);
    md2_free(m);
    report_free(&r);
    tool_model_free(&tm);
    return ok ? TOOL_OK : TOOL_FAILED;
}

/* glTF's budgets of nodes and poses into io: the options' values (checked
 * in check_budgets()), else the defaults. */
static void import_budgets(const import_args *a, imp_options *io)
{
    long v = IMPORT_MAX_NODES;
    if (a->max_nodes)
        tool_parse_long(a->max_nodes, 1, LONG_MAX, &v);
    io->max_nodes = (size_t)v;
    v = IMPORT_MAX_WORK;
    if (a->max_work)
        tool_parse_long(a->max_work, 1, LONG_MAX, &v);
    io->max_work = (size_t)v;
}

/* The sources' scene: glTF, or OBJ files (a pattern expanded). */
static int read_scene(const import_args *a, int kind, imp_scene *s)
{
    imp_options io;
    char err[1024];
    char **files = NULL;
    size_t num_files = 0, i;
    double fps = 10;
    int ok;
    memset(&io, 0, sizeof io);
    if (a->fps)
        tool_parse_double(a->fps, &fps);
    io.fps = fps;
    io.fps_given = a->fps != NULL;
    io.anims = a->anims;
    io.num_anims = a->num_anims;
    io.anim_name = a->anim_name;
    io.max_bytes = IMPORT_MAX_SCENE;
    if (a->max_scene) {
        long v = 0;
        tool_parse_long(a->max_scene, 1, LONG_MAX, &v); /* checked in tool_import() */
        io.max_bytes = (size_t)v;
    }
    io.max_bytes_option = "--max-scene";
    import_budgets(a, &io);
    err[0] = '\0';
    if (kind == SRC_GLTF) {
        ok = imp_gltf_read(a->sources[0], &io, s, err, sizeof err);
    } else if (a->num_sources == 1 && has_pattern(a->sources[0])) {
        if (!expand_pattern(a->sources[0], &files, &num_files))
            return 0;
        ok = imp_obj_read((const char *const *)files, num_files, &io, s, err, sizeof err);
        for (i = 0; i < num_files; i++)
            free(files[i]);
        free(files);
    } else {
        ok = imp_obj_read(a->sources, a->num_sources, &io, s, err, sizeof err);
    }
    if (!ok) {
        size_t n = strlen(a->sources[0]);
        fputs("md2 import: ", stderr);
        /* the glTF reader names the JSON path; the file goes before it */
        if (kind == SRC_GLTF && !(strncmp(err, a->sources[0], n) == 0 && err[n] == ':')) {
            tool_put_clean(stderr, a->sources[0]);
            fputs(": ", stderr);
        }
        tool_put_clean(stderr, err);
        fputc('\n', stderr);
    }
    return ok;
}

/* How to make the model: the command line's options (checked by
 * check_scene_options()). */
static void make_options(const import_args *a, int kind, imp_make_options *mo)
{
    long w = 0, h = 0;
    memset(mo, 0, sizeof *mo);
    mo->up_z = kind == SRC_OBJ && a->up && strcmp(a->up, "z") == 0;
    mo->scale = 1;
    if (a->scale)
        tool_parse_double(a->scale, &mo->scale);
    if (a->height)
        tool_parse_double(a->height, &mo->height);
    if (a->skin_size)
        tool_parse_pair(a->skin_size, 32768, &w, &h);
    mo->skin_width = w;
    mo->skin_height = h;
    mo->smooth_normals = a->normals != NULL;
}

/* What the summary says of the skin's palette (r->palette, r->palette_kind):
 * the game's, or how to get there. 0 when out of memory (said). */
static int skin_palette(const import_args *a, const imp_skin_plan *plan, import_report *r)
{
    tool_buf b;
    memset(&b, 0, sizeof b);
    if (plan->have_palette) {
        r->palette_kind = "game";
        tool_buf_printf(&b, "the game's, from %s", plan->palette_source);
        if (!plan->game_path)
            tool_buf_printf(&b, "; %s does not lie under %s, so the skin's name is no game path "
                                "(-o %s/models/.../tris.md2 gives one)", a->out, a->game, a->game);
    } else {
        r->palette_kind = plan->pcx ? "own" : "none";
        tool_buf_printf(&b, "%s, not yet the game's: --game DIR (baseq2, a mod) writes the skin as "
                            "8-bit PCX in the game's (pics/colormap.pcx)",
                        plan->pcx ? "the skin's own" : "none (true colour)");
    }
    tool_buf_u8(&b, 0);
    if (b.failed) {
        tool_buf_free(&b);
        tool_error(IMPORT_CMD, "out of memory");
        return 0;
    }
    r->palette = (char *)b.data;
    return 1;
}

/* The skin's file: mi's skin as PNG, or as PCX with --pcx (*png, *png_size,
 * malloc'd); without texture nothing, and a note in s. 0 after saying why. */
static int skin_file(const import_args *a, const imp_input *mi, const imp_skin_plan *plan,
                     imp_scene *s, import_report *r, unsigned char **png, size_t *png_size)
{
    char why[256];
    if (mi->skin_images > 0 && plan->png_file) {
        unsigned char *b;
        size_t n;
        if (!tool_png_encode(&mi->skin, &b, &n, why, sizeof why)) {
            tool_error(IMPORT_CMD, "cannot convert the skin to PNG: %s", why);
            return 0;
        }
        tool_buf_bytes(&r->skin_png, b, n);
        free(b);
        if (r->skin_png.failed) {
            tool_error(IMPORT_CMD, "out of memory");
            return 0;
        }
    }
    if (mi->skin_images > 0 && !skin_palette(a, plan, r))
        return 0;
    if (mi->skin_images > 0 && plan->pcx)
        return imp_skin_pcx(&mi->skin, a->palette, plan->have_palette ? plan->palette : NULL, png,
                            png_size);
    if (mi->skin_images > 0) {
        if (!tool_png_encode(&mi->skin, png, png_size, why, sizeof why)) {
            tool_error(IMPORT_CMD, "cannot convert the skin to PNG: %s", why);
            return 0;
        }
        return 1;
    }
    if (!imp_scene_note(s, "%s has no texture: no skin written, texcoords on a %lux%lu "
                           "skin (--skin-size WxH)", a->sources[0],
                        (unsigned long)mi->in.skin_width, (unsigned long)mi->in.skin_height)) {
        tool_error(IMPORT_CMD, "out of memory");
        return 0;
    }
    return 1;
}

/* After a profile's limit refused the model (d): the fix import can make,
 * on stderr. The limit is the number the message names ("... limit of N
 * (SOURCE)", md2_build()'s form). */
static void suggest_fix(const import_args *a, int kind, const md2_diagnostic *d,
                        const imp_input *mi)
{
    const char *at = strstr(d->message, " limit of ");
    unsigned long limit = 0;
    double fps = 10;
    if (d->warning != 0 || !at || sscanf(at, " limit of %lu", &limit) != 1 || limit == 0)
        return;
    if (a->fps)
        tool_parse_double(a->fps, &fps);
    if (strcmp(d->field, "num_frames") == 0 && kind == SRC_GLTF) {
        /* keyframes go with the rate: a lower one, rounded down to 0.1 */
        double lower = floor(fps * (double)limit / (double)mi->in.num_frames * 10) / 10;
        if (lower > 0)
            fprintf(stderr, "md2 import: hint: %lu keyframes at %g fps; --fps %g (or lower) samples "
                            "about %lu or fewer\n", (unsigned long)mi->in.num_frames, fps, lower,
                    limit);
    } else if (strcmp(d->field, "num_frames") == 0 || strcmp(d->field, "ofs_end") == 0) {
        fputs("md2 import: hint: fewer frames (fewer OBJ files, --anim for some glTF animations, "
              "or a lower --fps) or fewer vertices (md2 simplify) make a smaller model\n", stderr);
    } else if (strcmp(d->field, "skin_height") == 0 || strcmp(d->field, "skin_width") == 0) {
        double w = mi->in.skin_width, h = mi->in.skin_height, k;
        k = strcmp(d->field, "skin_height") == 0 ? (double)limit / h : (double)limit / w;
        fprintf(stderr, "md2 import: hint: --skin-size %ldx%ld resizes the %lux%lu skin within "
                        "the limit\n", (long)(w * k) > 0 ? (long)(w * k) : 1L,
                (long)(h * k) > 0 ? (long)(h * k) : 1L, (unsigned long)mi->in.skin_width,
                (unsigned long)mi->in.skin_height);
    } else if (strcmp(d->field, "num_vertices") == 0 || strcmp(d->field, "num_triangles") == 0 ||
               strcmp(d->field, "welded_vertices") == 0) {
        fputs("md2 import: hint: md2 simplify (docs/simplify.md) makes a model of fewer vertices "
              "and triangles; import it without --profile first\n", stderr);
    }
}

/* md2_build() of mi, the skin name its file's (or --skin-name). 0 after
 * saying why. */
static int build_model(const import_args *a, int kind, md2_profile profile, imp_input *mi,
                       import_report *r, md2_model **m)
{
    md2_build_options bo;
    md2_diagnostic diag;
    md2_result res;
    const char *skin_names[1];
    if (r->skin_name) {
        skin_names[0] = r->skin_name;
        mi->in.num_skins = 1;
        mi->in.skin_names = skin_names;
    }
    build_options(a, (a->zero_pad ? MD2_BUILD_ZERO_PAD : 0u) | (a->shared_box ? MD2_BUILD_SHARED_BOX : 0u) |
                      (a->drop_invalid ? MD2_REBUILD_DROP_DEGENERATE : 0u),
                  profile, &diag, r, &bo);
    res = md2_build(&mi->in, &bo, m);
    mi->in.num_skins = 0; /* skin_names is this function's */
    mi->in.skin_names = NULL;
    if (res != MD2_OK) {
        fputs("md2 import: ", stderr);
        tool_put_clean(stderr, a->sources[0]);
        fputs(": cannot make the model: ", stderr);
        tool_put_clean(stderr, diag.message);
        fputc('\n', stderr);
        if (res == MD2_ERR_LIMIT_EXCEEDED && profile != MD2_PROFILE_FORMAT)
            suggest_fix(a, kind, &diag, mi);
        return 0;
    }
    return 1;
}

/* The length of frame name's stem: without its trailing digits (the name
 * is at most MD2_FRAME_NAME_SIZE bytes, maybe unterminated). */
static size_t name_stem(const char *name)
{
    size_t len = 0;
    while (len < MD2_FRAME_NAME_SIZE && name[len])
        len++;
    while (len > 0 && name[len - 1] >= '0' && name[len - 1] <= '9')
        len--;
    return len;
}

/* 0 after saying why when the frame names of m would not give the
 * source's animations (mi's) back: to md2_anims_from_names() (the
 * builder's MD2_WARN_ANIM_NAMES: merged, split or renamed), or to three.js's
 * MD2Loader, which makes one clip of all the frames whose names are the
 * same without their trailing digits, wherever they lie. Never a model
 * whose clips read back otherwise than the modder made them: the message
 * says which to rename. */
static int anims_come_back(const char *source, const imp_input *mi, const import_report *r,
                           const md2_model *m)
{
    size_t i, k, first = 0, *at;
    for (i = 0; i < r->num_warnings; i++) {
        if (r->warnings[i].warning == MD2_WARN_ANIM_NAMES) {
            imp_error("%s: the frame names would not give the animations back: %s (rename it in "
                      "the source: each animation a name of its own that does not end in '_', "
                      "'-', '.' or a space)", source, r->warnings[i].message);
            return 0;
        }
    }
    at = (size_t *)malloc((mi->in.num_anims + 1) * sizeof *at);
    if (!at) {
        tool_error(IMPORT_CMD, "out of memory");
        return 0;
    }
    for (k = 0; k < mi->in.num_anims; first += mi->in.anims[k].count, k++) {
        const char *name = m->frames[first].name;
        size_t len = name_stem(name);
        at[k] = first;
        for (i = 0; i < k; i++) {
            if (name_stem(m->frames[at[i]].name) == len && memcmp(name, m->frames[at[i]].name, len) == 0) {
                imp_error("%s: animations %lu ('%s') and %lu ('%s') would be one clip to three.js's "
                          "MD2Loader, which groups the frames by their names without the trailing "
                          "digits ('%.*s'): rename one in the source (say '%s2')",
                          source, (unsigned long)i, mi->in.anims[i].name, (unsigned long)k,
                          mi->in.anims[k].name, (int)len, name, mi->in.anims[k].name);
                free(at);
                return 0;
            }
        }
    }
    free(at);
    return 1;
}

/* glTF and OBJ sources: the scene, the builder's input made from it, the
 * skin's file, the model, the outputs. */
static int import_scene(const import_args *a, int kind, md2_profile profile)
{
    imp_scene s;
    imp_input mi;
    imp_make_options mo;
    md2_model *m = NULL;
    import_report r;
    imp_skin_plan plan;
    unsigned char *png = NULL;
    size_t png_size = 0;
    int ok = 0;

    memset(&plan, 0, sizeof plan);
    memset(&s, 0, sizeof s);
    memset(&mi, 0, sizeof mi);
    memset(&r, 0, sizeof r);
    r.source = a->sources[0];
    r.out = a->out;
    make_options(a, kind, &mo);
    if (!read_scene(a, kind, &s))
        return TOOL_FAILED;
    r.notes = s.notes;
    r.num_notes = s.num_notes;
    if (!imp_make(a->sources[0], &s, &mo, &mi))
        goto done;
    if (mi.texture_warning[0])
        r.own_warning = mi.texture_warning;
    if (mi.skin_images > 0 &&
        !imp_skin_plan_make(a->out, a->skin_name, a->game, a->pcx, a->skin_png, &plan))
        goto done;
    if (mi.skin_images > 0 && (!folder_exists(plan.file, "the skin") ||
                               (plan.png_file && !folder_exists(plan.png_file, "the skin's PNG"))))
        goto done;
    r.skin_name = mi.skin_images > 0 ? plan.name : a->skin_name;
    if (!skin_file(a, &mi, &plan, &s, &r, &png, &png_size))
        goto done;
    r.notes = s.notes; /* with skin_file()'s notes */
    r.num_notes = s.num_notes;
    if (!side_paths(a, &plan, &r) || !not_a_texture(&s, &r))
        goto done;
    r.skin_w = (int)mi.in.skin_width;
    r.skin_h = (int)mi.in.skin_height;
    if (mi.in.num_vertices > MD2_MAX_INDEXABLE) {
        /* the builder would say the file cannot index them; the engines' limit comes far sooner */
        imp_error("%s: %lu vertices (positions, welded), more than the engines load: Quake II "
                  "and yquake2 at most %lu (MAX_VERTS, qfiles.h), UFO:AI 8191; "
                  "an MD2 file cannot even hold more than %lu, its triangles' vertex indices "
                  "being 16 bits. Decimate the model (Blender's Decimate modifier)",
                  a->sources[0], (unsigned long)mi.in.num_vertices,
                  (unsigned long)md2_limits_quake2().max_vertices, (unsigned long)MD2_MAX_INDEXABLE);
        goto done;
    }
    if (!build_model(a, kind, profile, &mi, &r, &m) || !anims_come_back(a->sources[0], &mi, &r, m) ||
        !quant_error(m, mi.positions, &r) || !input_anims(&mi, &r))
        goto done;
    ok = finish(a, m, png, png_size, &r);
done:
    md2_free(m);
    free(png);
    report_free(&r);
    imp_skin_plan_free(&plan);
    imp_input_free(&mi);
    imp_scene_free(&s);
    return ok ? TOOL_OK : TOOL_FAILED;
}

/* ---- the command line ------------------------------------------------------------ */

/* The field of a that the option arg (which takes a value) fills, or NULL. */
static const char **value_option(import_args *a, const char *arg)
{
    if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0)
        return &a->out;
    if (strcmp(arg, "--up") == 0)
        return &a->up;
    if (strcmp(arg, "--scale") == 0)
        return &a->scale;
    if (strcmp(arg, "--height") == 0)
        return &a->height;
    if (strcmp(arg, "--anim-name") == 0)
        return &a->anim_name;
    if (strcmp(arg, "--fps") == 0)
        return &a->fps;
    if (strcmp(arg, "--max-scene") == 0)
        return &a->max_scene;
    if (strcmp(arg, "--max-nodes") == 0)
        return &a->max_nodes;
    if (strcmp(arg, "--max-work") == 0)
        return &a->max_work;
    if (strcmp(arg, "--skin-name") == 0)
        return &a->skin_name;
    if (strcmp(arg, "--skin-size") == 0)
        return &a->skin_size;
    if (strcmp(arg, "--profile") == 0)
        return &a->profile;
    if (strcmp(arg, "--normals") == 0)
        return &a->normals;
    if (strcmp(arg, "--palette") == 0)
        return &a->palette;
    if (strcmp(arg, "--game") == 0)
        return &a->game;
    if (strcmp(arg, "--quantize") == 0)
        return &a->quantize;
    return NULL;
}

/* The flag of a that the option arg (which takes no value) sets, or NULL. */
static int *flag_option(import_args *a, const char *arg)
{
    if (strcmp(arg, "--zero-pad") == 0)
        return &a->zero_pad;
    if (strcmp(arg, "--json") == 0)
        return &a->json;
    if (strcmp(arg, "--glcmds") == 0)
        return &a->glcmds;
    if (strcmp(arg, "--shared-box") == 0)
        return &a->shared_box;
    if (strcmp(arg, "--drop-invalid") == 0)
        return &a->drop_invalid;
    if (strcmp(arg, "--anm") == 0)
        return &a->anm;
    if (strcmp(arg, "--pcx") == 0)
        return &a->pcx;
    if (strcmp(arg, "--skin-png") == 0)
        return &a->skin_png;
    return NULL;
}

/* The arguments into a (its sources and anims arrays hold argc entries).
 * 1 to go on; else 0 and *status: TOOL_OK after the help, TOOL_USAGE
 * after a usage error. */
static int parse_args(int argc, char **argv, import_args *a, int *status)
{
    int i, options = 1;
    *status = TOOL_USAGE;
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char **value;
        int *flag;
        if (!options || arg[0] != '-' || arg[1] == '\0') {
            a->sources[a->num_sources++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options = 0;
            continue;
        }
        if (tool_is_help(arg)) {
            usage(stdout);
            *status = TOOL_OK;
            return 0;
        }
        value = value_option(a, arg);
        flag = value ? NULL : flag_option(a, arg);
        if (!value && !flag && strcmp(arg, "--anim") != 0) {
            usage_error("unknown option '%s'", arg);
            return 0;
        }
        if (flag) {
            if (*flag) {
                usage_error("%s is given twice", arg);
                return 0;
            }
            *flag = 1;
            continue;
        }
        if (value && *value) {
            usage_error("%s is given twice", arg);
            return 0;
        }
        if (i + 1 >= argc) {
            usage_error("%s needs a value", arg);
            return 0;
        }
        if (value)
            *value = argv[++i];
        else
            a->anims[a->num_anims++] = argv[++i]; /* --anim, repeatable */
    }
    return 1;
}

/* The sources and the output: *kind the sources' (SRC_*). 0 after a usage
 * error. */
static int check_files(const import_args *a, int *kind)
{
    size_t k;
    if (a->num_sources == 0)
        return !usage_error("%s", "no SOURCE given");
    if (!a->out)
        return !usage_error("%s", "no output given (-o OUT.md2)");
    if (!ends_with(a->out, ".md2"))
        return !usage_error("the output must end in .md2 ('%s' does not)", a->out);
    *kind = SRC_NONE;
    for (k = 0; k < a->num_sources; k++) {
        int sk = source_kind(a->sources[k]);
        if (sk == SRC_NONE)
            return !usage_error("cannot tell what '%s' is: a source ends in .gltf, .glb, .obj or .md2",
                                a->sources[k]);
        if (k > 0 && sk != *kind)
            return !usage_error("'%s' is not of the first source's kind: one kind of source at a time",
                                a->sources[k]);
        *kind = sk;
    }
    if (*kind != SRC_OBJ && a->num_sources > 1)
        return !usage_error("one glTF or MD2 source at a time ('%s' is a second one)", a->sources[1]);
    if (*kind == SRC_OBJ && a->num_sources > 1 && has_pattern(a->sources[0]))
        return !usage_error("a pattern ('%s') stands alone: no more OBJ files beside it", a->sources[0]);
    if (*kind == SRC_OBJ && a->num_sources == 1 && has_pattern(a->sources[0])) {
        obj_pattern pt;
        int r = parse_pattern(a->sources[0], &pt);
        if (r == 0)
            return !usage_error("bad pattern '%s': one %%d, %%Nd or %%0Nd (%%%% for a %%)", a->sources[0]);
        if (r > 0) {
            free(pt.prefix);
            free(pt.suffix);
        }
    }
    for (k = 0; k < a->num_sources; k++)
        if (tool_same_file(a->out, a->sources[k]))
            return !usage_error("-o %s is a source: choose another -o", a->out);
    return 1;
}

/* An MD2 source's options: the repairs, none of a new model's. 0 after a
 * usage error. */
static int check_md2_options(const import_args *a)
{
    const char *bad = a->up ? "--up" : a->scale ? "--scale" : a->height ? "--height"
                    : a->anim_name ? "--anim-name" : a->fps ? "--fps" : a->skin_name ? "--skin-name"
                    : a->skin_size ? "--skin-size" : a->num_anims ? "--anim"
                    : a->zero_pad ? "--zero-pad" : a->pcx ? "--pcx"
                    : a->palette ? "--palette" : a->max_scene ? "--max-scene"
                    : a->max_nodes ? "--max-nodes" : a->max_work ? "--max-work"
                    : a->game ? "--game" : a->skin_png ? "--skin-png" : NULL;
    if (bad)
        return !usage_error("%s does not apply to an MD2 source (it is rebuilt as it is)", bad);
    if (a->normals && strcmp(a->normals, "smooth") != 0)
        return !usage_error("bad --normals '%s': smooth is the one kind", a->normals);
    return 1;
}

/* --max-nodes and --max-work: glTF's, whole numbers from 1. 0 after a
 * usage error. */
static int check_budgets(const import_args *a, int kind)
{
    long v;
    if (kind != SRC_GLTF && (a->max_nodes || a->max_work))
        return !usage_error("%s applies to glTF sources only", a->max_nodes ? "--max-nodes" : "--max-work");
    if (a->max_nodes && !tool_parse_long(a->max_nodes, 1, LONG_MAX, &v))
        return !usage_error("bad --max-nodes '%s': a whole number, at least 1", a->max_nodes);
    if (a->max_work && !tool_parse_long(a->max_work, 1, LONG_MAX, &v))
        return !usage_error("bad --max-work '%s': a whole number, at least 1", a->max_work);
    return 1;
}

/* The options of a new model from a glTF or OBJ source (kind), and their
 * values. 0 after a usage error. */
static int check_scene_options(const import_args *a, int kind)
{
    double d;
    long w, h, max_scene;
    if (a->glcmds)
        return !usage_error("%s", "--glcmds applies to MD2 sources only (a new model always gets "
                                  "GL commands)");
    if (a->normals && strcmp(a->normals, "smooth") != 0)
        return !usage_error("bad --normals '%s': smooth is the one kind", a->normals);
    if (kind == SRC_GLTF && (a->up || a->anim_name))
        return !usage_error("%s applies to OBJ sources only", a->up ? "--up" : "--anim-name");
    if (!check_budgets(a, kind))
        return 0;
    if (kind == SRC_OBJ && a->num_anims)
        return !usage_error("%s", "--anim applies to glTF sources (an OBJ sequence is one animation: "
                                  "--anim-name names it)");
    if (a->up && strcmp(a->up, "y") != 0 && strcmp(a->up, "z") != 0)
        return !usage_error("bad --up '%s': y or z", a->up);
    if (a->palette && !a->pcx)
        return !usage_error("%s", "--palette needs --pcx (a PNG skin keeps its colours)");
    if (a->scale && a->height)
        return !usage_error("%s", "--scale and --height: one or the other");
    if (a->scale && (!tool_parse_double(a->scale, &d) || !(d > 0) || d > 1e30))
        return !usage_error("bad --scale '%s': a number above 0", a->scale);
    if (a->height && (!tool_parse_double(a->height, &d) || !(d > 0) || d > 1e30))
        return !usage_error("bad --height '%s': a number above 0", a->height);
    if (a->max_scene && !tool_parse_long(a->max_scene, 1, LONG_MAX, &max_scene))
        return !usage_error("bad --max-scene '%s': a whole number of bytes, at least 1", a->max_scene);
    if (a->fps && (!tool_parse_double(a->fps, &d) || !(d > 0) || d > 1000))
        return !usage_error("bad --fps '%s': a number above 0, at most 1000", a->fps);
    if (a->skin_size && !tool_parse_pair(a->skin_size, 32768, &w, &h))
        return !usage_error("bad --skin-size '%s': WxH, each 1 to 32768", a->skin_size);
    if (a->skin_name && strlen(a->skin_name) >= MD2_SKIN_NAME_SIZE)
        return !usage_error("--skin-name '%s' is too long: under 64 bytes", a->skin_name);
    if (a->skin_name && imp_skin_name_kind(a->skin_name) < 0)
        return !usage_error("--skin-name '%s' must end in .pcx or .png: the skin is written as that "
                            "file", a->skin_name);
    if (a->skin_name && imp_skin_name_kind(a->skin_name) == 0 && (a->pcx || a->game))
        return !usage_error("--skin-name '%s' names a PNG, but --pcx or --game writes a PCX",
                            a->skin_name);
    if (a->game && a->palette)
        return !usage_error("%s", "--game and --palette: the game's palette or that one");
    if (a->skin_png && !a->game)
        return !usage_error("%s", "--skin-png goes with --game (without it the skin is a PNG already)");
    return 1;
}

int tool_import(int argc, char **argv)
{
    import_args a;
    int kind = SRC_NONE, status;
    md2_profile profile;

    memset(&a, 0, sizeof a);
    a.sources = (const char **)calloc((size_t)argc + 1, sizeof *a.sources);
    a.anims = (const char **)calloc((size_t)argc + 1, sizeof *a.anims);
    if (!a.sources || !a.anims) {
        free(a.sources);
        free(a.anims);
        tool_error(IMPORT_CMD, "out of memory");
        return TOOL_FAILED;
    }
    if (parse_args(argc, argv, &a, &status) && check_files(&a, &kind)) {
        md2_quantize q;
        if (!parse_profile(a.profile, &profile))
            usage_error("bad --profile '%s': " TOOL_PROFILE_NAMES, a.profile);
        else if (!parse_quantize(a.quantize, &q))
            usage_error("bad --quantize '%s': per-frame, shared or stable", a.quantize);
        else if (a.shared_box && q != MD2_QUANTIZE_DEFAULT && q != MD2_QUANTIZE_SHARED)
            usage_error("--shared-box and --quantize %s: one or the other", a.quantize);
        else if (!(kind == SRC_MD2 ? check_md2_options(&a) : check_scene_options(&a, kind)))
            ; /* status: TOOL_USAGE, said */
        else if (!folder_exists(a.out, "-o")) /* before any work: not the skin's failure later */
            status = TOOL_FAILED;
        else
            status = kind == SRC_MD2 ? import_md2(&a, profile) : import_scene(&a, kind, profile);
    }
    free(a.sources);
    free(a.anims);
    return status;
}
