/*
 * md2 render: draws one pose of a model, or a contact sheet of an
 * animation's keyframes, to a PNG with a transparent background, through
 * the software rasterizer of raster.c. The manual is docs/tool.md (its
 * "md2 render" section); `md2 render --help` the short form.
 *
 * SPDX-License-Identifier: MIT
 */
#include "commands.h"
#include "tool.h"

#include "raster.h"

#include <md2/mesh.h>
#include <md2/skin.h>
#include <md2/tags.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CMD "render"
#define RENDER_MAX_SIDE 16384   /* pixels a side of the whole picture */
#define RENDER_MAX_GRID 256     /* columns or rows of a sheet */
#define RENDER_MAX_YAW 1000000L /* degrees either way */
#define RENDER_MAX_PITCH 89L    /* degrees either way */
#define RENDER_NO_FRAME ((uint32_t)-1)
#define RENDER_POSE_FLOATS 8    /* a posed vertex: md2_layout_default()'s 32 bytes */
#define RENDER_MAX_ATTACH 16    /* --attach options */

typedef struct render_args {
    const char *model;
    const char *output;
    const char *skin;
    const char *anim;
    long frame;             /* -1: not given */
    long cols, rows;        /* 0: no sheet */
    long width, height;     /* 0: not given */
    double yaw, pitch;
    int wireframe, unlit;
    long max_skin_pixels;   /* --max-skin-pixels */
    long max_overdraw;      /* --max-overdraw */
    const char *attach[RENDER_MAX_ATTACH]; /* --attach TAG=MODEL, as given */
    size_t num_attach;
    const char *normals;    /* --normals smooth, or NULL */
} render_args;

/* The work a render may do by default: RENDER_MAX_OVERDRAW pixels tested
 * (raster_cost()) for each pixel of the picture, or RENDER_MIN_WORK if that
 * is more. A real model tests each pixel a few times. */
#define RENDER_MAX_OVERDRAW 64L
#define RENDER_MIN_WORK 16777216.0

/* A model drawn on a tag of the body (--attach TAG=MODEL). */
typedef struct render_part {
    tool_model model;
    md2_mesh *mesh;
    float *pose;             /* mesh->num_vertices * RENDER_POSE_FLOATS floats */
    raster_vertex *corners;  /* mesh->num_vertices */
    tool_image skin;         /* its own skin; rgba NULL: none */
    size_t tag;              /* the body's tag it hangs on */
} render_part;

/* Everything a render holds; render_job_free() releases it. */
typedef struct render_job {
    tool_model model;
    md2_mesh *mesh;
    float *pose;             /* mesh->num_vertices * RENDER_POSE_FLOATS floats */
    raster_vertex *corners;  /* mesh->num_vertices */
    tool_image skin;         /* rgba NULL: no skin */
    uint32_t *frames;        /* one a cell; RENDER_NO_FRAME: empty */
    size_t cells;
    int cols, cell_width, cell_height;
    tool_image picture;
    float *depth;            /* one cell */
    render_part parts[RENDER_MAX_ATTACH]; /* --attach, in the order given */
    size_t num_parts;
} render_job;

static void synopsis(FILE *f)
{
    fprintf(f,
        "usage: md2 render MODEL -o OUT.png [--frame N] [--anim NAME] [--sheet COLSxROWS]\n"
        "                  [--size WxH] [--skin FILE] [--wireframe] [--unlit]\n"
        "                  [--yaw DEG] [--pitch DEG] [--normals smooth]\n"
        "                  [--attach TAG=MODEL.md2]...\n");
}

static void usage(FILE *f)
{
    synopsis(f);
    fprintf(f,
        "\n"
        "Draws one pose of an MD2 model, or a contact sheet of its keyframes, to a PNG\n"
        "with a transparent background (software rasterizer: depth buffer,\n"
        "perspective-correct nearest-texel skin, Lambert light from the normals).\n"
        "\n"
        "  -o, --output FILE  the PNG to write, its name ending in .png (it appears\n"
        "                     only when complete)\n"
        "  --frame N          keyframe N (default 0); with --anim, counted from the\n"
        "                     animation's first keyframe\n"
        "  --anim NAME        an animation (from .anm/.framegroups side files or the\n"
        "                     frame names); alone: its first keyframe\n"
        "  --sheet COLSxROWS  a contact sheet (each 1 to %d): the keyframes of --anim\n"
        "                     (default: all) spread evenly over the cells, left to\n"
        "                     right, top to bottom; cells past the last stay empty\n"
        "  --size WxH         picture size, or with --sheet the size of one cell\n"
        "                     (default 512x512, with --sheet 256x256); at most %d\n"
        "                     pixels a side for the whole picture\n"
        "  --skin FILE        skin image (PCX, PNG, TGA, BMP, JPEG); default: the\n"
        "                     model's own skin found beside it or under its game\n"
        "                     folder, else plain light grey\n"
        "  --wireframe        only the visible triangle edges, on transparency\n"
        "  --unlit            the skin's colours without light\n"
        "  --normals smooth   light by normals recomputed from the triangles (as md2\n"
        "                     import --normals smooth), for models whose normals are\n"
        "                     all equal (md2 validate warns of them) or wrong\n"
        "  --yaw DEG          turn the camera DEG degrees about the vertical axis\n"
        "                     (default 30: front and left of the model; 0: front)\n"
        "  --pitch DEG        raise the camera DEG degrees (default 15; -89 to 89)\n"
        "  --max-skin-pixels N  the most pixels a skin may have (default 16777216,\n"
        "                     4096 x 4096), checked before it is decoded\n"
        "  --max-overdraw N   the most pixels drawing may test for each pixel of the\n"
        "                     picture (default 64), checked before drawing\n"
        "  --attach TAG=MODEL.md2  draw MODEL on the body's tag TAG (from the .tag\n"
        "                     file beside the body), with the body's keyframe (clamped\n"
        "                     to MODEL's last) and its own skin; repeatable (at most %d)\n"
        "\n"
        "The camera looks at the centre of the model's bounding box (for a sheet, the\n"
        "box of every keyframe drawn, attached models included) and fits the box to\n"
        "the picture. `--` ends the options; each option but --attach is given at most\n"
        "once. Exit status: 0 done, 1 the model, an attached model, a tag, the skin or\n"
        "the output failed, 2 bad usage.\n",
        RENDER_MAX_GRID, RENDER_MAX_SIDE, RENDER_MAX_ATTACH);
}

/* Prints a usage error (fmt has one %s) and returns 0. */
static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "md2 " CMD ": ");
    tool_term_printf(stderr, fmt, arg);
    fputc('\n', stderr);
    synopsis(stderr);
    fprintf(stderr, "`md2 render --help` describes the options.\n");
    return 0;
}

/* The value after option argv[*i], or NULL after printing why. */
static const char *option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        usage_error("%s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

/* limit: a whole number of degrees, printed as one ("-1000000 to 1000000"). */
static int parse_angle(const char *opt, const char *value, long limit, double *out)
{
    if (!tool_parse_double(value, out) || *out < (double)-limit || *out > (double)limit) {
        char fmt[96];
        snprintf(fmt, sizeof fmt, "bad %s '%%s': expected degrees from %ld to %ld", opt, -limit,
                 limit);
        return usage_error(fmt, value);
    }
    return 1;
}

/* The options, by what each sets (-o and --output set the same); all but
 * --wireframe and --unlit take a value. */
enum {
    OPT_NONE, OPT_OUTPUT, OPT_SKIN, OPT_ANIM, OPT_FRAME, OPT_SIZE, OPT_SHEET, OPT_YAW, OPT_PITCH,
    OPT_WIREFRAME, OPT_UNLIT, OPT_MAX_SKIN_PIXELS, OPT_MAX_OVERDRAW, OPT_ATTACH, OPT_NORMALS
};

static int option_of(const char *arg)
{
    static const struct {
        const char *name;
        int option;
    } options[] = {{"-o", OPT_OUTPUT},   {"--output", OPT_OUTPUT},
                   {"--skin", OPT_SKIN},  {"--anim", OPT_ANIM},
                   {"--frame", OPT_FRAME}, {"--size", OPT_SIZE},
                   {"--sheet", OPT_SHEET}, {"--yaw", OPT_YAW},
                   {"--pitch", OPT_PITCH}, {"--wireframe", OPT_WIREFRAME},
                   {"--unlit", OPT_UNLIT}, {"--max-skin-pixels", OPT_MAX_SKIN_PIXELS},
                   {"--max-overdraw", OPT_MAX_OVERDRAW}, {"--attach", OPT_ATTACH},
                   {"--normals", OPT_NORMALS}};
    size_t i;
    for (i = 0; i < sizeof options / sizeof options[0]; i++) {
        if (strcmp(arg, options[i].name) == 0)
            return options[i].option;
    }
    return OPT_NONE;
}

/* Parses the value of option opt (named name); 0 after a usage message. */
static int parse_valued(int opt, const char *name, const char *value, render_args *a)
{
    switch (opt) {
    case OPT_OUTPUT:
        a->output = value;
        return 1;
    case OPT_SKIN:
        a->skin = value;
        return 1;
    case OPT_ANIM:
        a->anim = value;
        return 1;
    case OPT_FRAME:
        if (!tool_parse_long(value, 0, 2147483647L, &a->frame))
            return usage_error("bad --frame '%s': expected a keyframe number (0 or more)",
                               value);
        return 1;
    case OPT_SIZE:
        if (!tool_parse_pair(value, RENDER_MAX_SIDE, &a->width, &a->height))
            return usage_error("bad --size '%s': expected WxH, each 1 to 16384", value);
        return 1;
    case OPT_SHEET:
        if (!tool_parse_pair(value, RENDER_MAX_GRID, &a->cols, &a->rows))
            return usage_error("bad --sheet '%s': expected COLSxROWS, each 1 to 256", value);
        return 1;
    case OPT_YAW:
        return parse_angle(name, value, RENDER_MAX_YAW, &a->yaw);
    case OPT_ATTACH: {
        const char *eq = strchr(value, '=');
        if (!eq || eq == value || eq[1] == '\0')
            return usage_error("bad --attach '%s': expected TAG=MODEL.md2", value);
        if (a->num_attach == RENDER_MAX_ATTACH)
            return usage_error("--attach '%s' is one too many: at most 16", value);
        a->attach[a->num_attach++] = value;
        return 1;
    }
    case OPT_NORMALS:
        if (!tool_normals_kind(value))
            return usage_error("bad --normals '%s': smooth is the one kind", value);
        a->normals = value;
        return 1;
    case OPT_MAX_SKIN_PIXELS:
    case OPT_MAX_OVERDRAW:
        if (!tool_parse_long(value, 1, 2147483647L,
                             opt == OPT_MAX_OVERDRAW ? &a->max_overdraw : &a->max_skin_pixels))
            return usage_error(opt == OPT_MAX_OVERDRAW
                                   ? "bad --max-overdraw '%s': expected a whole number from 1"
                                   : "bad --max-skin-pixels '%s': expected a whole number from 1",
                               value);
        return 1;
    default:
        return parse_angle(name, value, RENDER_MAX_PITCH, &a->pitch);
    }
}

/* 1 if path ends in ".png", in any letter case. */
static int is_png_name(const char *path)
{
    static const char suffix[] = ".png";
    size_t n = strlen(path), i;
    if (n < sizeof suffix - 1)
        return 0;
    path += n - (sizeof suffix - 1);
    for (i = 0; i < sizeof suffix - 1; i++) {
        char c = path[i];
        if ((c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c) != suffix[i])
            return 0;
    }
    return 1;
}

/* Checks what the options say together; 0 after a usage message. */
static int check_args(render_args *a)
{
    if (!a->model)
        return usage_error("%s", "no MODEL given");
    if (!a->output)
        return usage_error("%s", "no output: give -o OUT.png");
    if (!is_png_name(a->output))
        return usage_error("the output must end in .png ('%s' does not)", a->output);
    if (a->cols && a->frame >= 0)
        return usage_error("%s", "--frame and --sheet do not mix: a sheet shows many frames");
    if (!a->width) {
        a->width = a->cols ? 256 : 512;
        a->height = a->width;
    }
    if (a->cols && (a->cols * a->width > RENDER_MAX_SIDE || a->rows * a->height > RENDER_MAX_SIDE)) {
        char msg[160];
        snprintf(msg, sizeof msg, "a %ldx%ld sheet of %ldx%ld cells would be %ldx%ld pixels; at "
                 "most %d a side", a->cols, a->rows, a->width, a->height, a->cols * a->width,
                 a->rows * a->height, RENDER_MAX_SIDE);
        return usage_error("%s", msg);
    }
    return 1;
}

/* 1: parsed; 0: usage error printed (exit 2); -1: help printed (exit 0). */
static int parse_args(int argc, char **argv, render_args *a)
{
    unsigned given = 0; /* the options seen so far, one bit each (1 << OPT_...) */
    int i, options = 1, opt;
    memset(a, 0, sizeof *a);
    a->frame = -1;
    a->yaw = 30.0;
    a->pitch = 15.0;
    a->max_skin_pixels = (long)TOOL_MAX_SKIN_PIXELS;
    a->max_overdraw = RENDER_MAX_OVERDRAW;
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options || arg[0] != '-' || arg[1] == '\0') {
            if (a->model)
                return usage_error("one MODEL only ('%s' is a second)", arg);
            a->model = arg;
        } else if (strcmp(arg, "--") == 0) {
            options = 0;
        } else if (tool_is_help(arg)) {
            usage(stdout);
            return -1;
        } else if ((opt = option_of(arg)) == OPT_NONE) {
            return usage_error("unknown option '%s'", arg);
        } else if ((given & (1u << opt)) && opt != OPT_ATTACH) {
            return usage_error("%s is given twice", arg);
        } else if (opt == OPT_WIREFRAME || opt == OPT_UNLIT) {
            given |= 1u << opt;
            *(opt == OPT_WIREFRAME ? &a->wireframe : &a->unlit) = 1;
        } else {
            const char *value = option_value(argc, argv, &i);
            given |= 1u << opt;
            if (!value || !parse_valued(opt, arg, value, a))
                return 0;
        }
    }
    return check_args(a);
}

/* ------------------------------------------------------------------------ */
/* Frames, skin, mesh                                                        */
/* ------------------------------------------------------------------------ */

/* Cell i of n shows keyframe first + round(i * (count - 1) / (n - 1)),
 * halves rounded up; with count <= n, cell i shows first + i; a sheet of
 * one cell (n == 1) shows first. */
static void spread_frames(uint32_t first, uint32_t last, uint32_t *frames, size_t n)
{
    uint64_t count = (uint64_t)last - first + 1;
    size_t i;
    for (i = 0; i < n; i++) {
        if (count <= n)
            frames[i] = i < count ? first + (uint32_t)i : RENDER_NO_FRAME;
        else if (n == 1)
            frames[i] = first;
        else
            frames[i] = first + (uint32_t)((2 * i * (count - 1) + (n - 1)) / (2 * (uint64_t)(n - 1)));
    }
}

/* The keyframes first..last the options pick from; 0 after an error. */
static int frame_range(const render_args *a, const tool_model *m, uint32_t *first,
                       uint32_t *last)
{
    size_t n = m->model->num_frames, i;
    *first = 0;
    *last = (uint32_t)(n - 1);
    if (!a->anim)
        return 1;
    i = tool_find_anim(CMD, m, a->anim);
    if (i == MD2_ANIM_NOT_FOUND)
        return 0;
    *first = m->anims[i].first;
    *last = m->anims[i].last;
    if (*first > *last || *last >= n) {
        tool_error(CMD, "animation '%s' (keyframes %lu to %lu) lies outside the model's %lu "
                   "keyframe%s", a->anim, (unsigned long)*first, (unsigned long)*last,
                   (unsigned long)n, n == 1 ? "" : "s");
        return 0;
    }
    return 1;
}

static int pick_frames(const render_args *a, render_job *job)
{
    uint32_t first, last;
    if (!frame_range(a, &job->model, &first, &last))
        return 0;
    job->cells = a->cols ? (size_t)a->cols * (size_t)a->rows : 1;
    job->frames = (uint32_t *)raster_alloc_array(job->cells, sizeof *job->frames);
    if (!job->frames) {
        tool_error(CMD, "out of memory");
        return 0;
    }
    if (a->cols) {
        spread_frames(first, last, job->frames, job->cells);
        return 1;
    }
    if (a->frame > (long)(last - first)) {
        unsigned long count = (unsigned long)(last - first) + 1;
        const char *s = count == 1 ? "" : "s";
        if (a->anim)
            tool_error(CMD, "--frame %ld is out of range: animation '%s' has %lu keyframe%s "
                       "(0 to %lu)", a->frame, a->anim, count, s, count - 1);
        else
            tool_error(CMD, "--frame %ld is out of range: the model has %lu keyframe%s (0 to %lu)",
                       a->frame, count, s, count - 1);
        return 0;
    }
    job->frames[0] = first + (uint32_t)(a->frame > 0 ? a->frame : 0);
    return 1;
}

/* Reads the skin file skin of model (limited by --max-skin-pixels) into
 * *out: 1 when read, or when it cannot be read and is not required (a
 * note: the model is drawn light grey); 0 (said) when a required skin
 * fails or memory runs out. */
static int read_skin(const render_args *a, const char *model, const char *skin, int required,
                     tool_image *out)
{
    char err[512];
    errno = 0;
    if (tool_image_read_max(skin, (unsigned long)a->max_skin_pixels, "--max-skin-pixels", out,
                            err, sizeof err))
        return 1;
    tool_error(CMD, "%s", err);
    if (required || tool_is_out_of_memory(err))
        return 0;
    tool_error(CMD, "note: drawing %s light grey instead", model);
    return 1;
}

/* --skin, else the model's own skin, else none. 0 (said) when --skin
 * fails, when the output is the skin, or when memory runs out reading the
 * skin found; a skin found that cannot be read is a note. */
static int load_skin(const render_args *a, render_job *job)
{
    char path[MD2_SKIN_PATH_MAX];
    const char *skin = a->skin;
    if (!skin) {
        if (!tool_find_skin(a->model, job->model.model, path, sizeof path)) {
            tool_error(CMD, "note: no skin file found for %s; drawing it light grey (--skin "
                       "FILE gives one)", a->model);
            return 1;
        }
        skin = path;
    }
    if (tool_same_file(a->output, skin)) {
        tool_error(CMD, "-o %s is the skin %s: choose another -o", a->output, skin);
        return 0;
    }
    return read_skin(a, a->model, skin, a->skin != NULL, &job->skin);
}

/* The mesh of m and its pose buffers; 0 after an error. */
static int build_mesh_of(const md2_model *m, md2_mesh **mesh, float **pose,
                         raster_vertex **corners)
{
    md2_diagnostic diag;
    md2_mesh_options opts;
    size_t n;
    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    if (md2_mesh_build(m, &opts, mesh) != MD2_OK) {
        tool_error(CMD, "%s", diag.message);
        return 0;
    }
    n = (*mesh)->num_vertices;
    *pose = (float *)raster_alloc_array(n, RENDER_POSE_FLOATS * sizeof **pose);
    *corners = (raster_vertex *)raster_alloc_array(n, sizeof **corners);
    if (!*pose || !*corners) {
        tool_error(CMD, "out of memory");
        return 0;
    }
    return 1;
}

static int build_mesh(render_job *job)
{
    return build_mesh_of(job->model.model, &job->mesh, &job->pose, &job->corners);
}

/* Says which tags the body has, after an --attach that named none of them. */
static void unknown_tag(const render_args *a, const md2_tags *tags, const char *spec,
                        const char *name)
{
    char list[512];
    size_t i, used = 0;
    list[0] = '\0';
    for (i = 0; i < tags->num_tags && used + 4 < sizeof list; i++) {
        int n = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                         tags->names[i].name);
        if (n < 0 || (size_t)n >= sizeof list - used) {
            list[used] = '\0';
            break;
        }
        used += (size_t)n;
    }
    tool_error(CMD, "--attach %s: %s has no tag named '%s'; its tag%s: %s%s", spec, a->model,
               name, tags->num_tags == 1 ? "" : "s", list, i < tags->num_tags ? ", ..." : "");
}

/* --attach TAG=MODEL number i: the tag, the model, its mesh and its skin
 * (found beside it, else light grey); 0 after an error. */
static int load_part(const render_args *a, render_job *job, size_t i)
{
    const char *spec = a->attach[i], *eq = strchr(spec, '='), *path = eq + 1;
    const md2_tags *tags = job->model.bundle->tags;
    render_part *part = &job->parts[i];
    char name[MD2_TAG_NAME_SIZE + 1], skin[MD2_SKIN_PATH_MAX];
    md2_diagnostic diag;
    size_t len = (size_t)(eq - spec);
    job->num_parts = i + 1;
    if (!tags) {
        tool_error(CMD, "--attach %s: %s has no tags to attach to (no .tag file beside it)",
                   spec, a->model);
        return 0;
    }
    memcpy(name, spec, len < sizeof name - 1 ? len : sizeof name - 1);
    name[len < sizeof name - 1 ? len : sizeof name - 1] = '\0';
    part->tag = len < sizeof name ? md2_tags_find(tags, name) : MD2_TAG_NOT_FOUND;
    if (part->tag == MD2_TAG_NOT_FOUND) {
        unknown_tag(a, tags, spec, name);
        return 0;
    }
    if (tool_load(path, 0, &part->model, &diag) != MD2_OK) {
        tool_load_error(CMD, path, &diag);
        return 0;
    }
    if (!build_mesh_of(part->model.model, &part->mesh, &part->pose, &part->corners))
        return 0;
    if (!tool_find_skin(path, part->model.model, skin, sizeof skin))
        return 1;
    return read_skin(a, path, skin, 0, &part->skin);
}

static int load_parts(const render_args *a, render_job *job)
{
    size_t i;
    for (i = 0; i < a->num_attach; i++) {
        if (!load_part(a, job, i))
            return 0;
    }
    return 1;
}

/* The picture's and the cells' sizes. */
static int set_picture_size(const render_args *a, render_job *job)
{
    /* at most RENDER_MAX_SIDE (check_args()) */
    job->cols = (int)(a->cols ? a->cols : 1);
    job->cell_width = (int)a->width;
    job->cell_height = (int)a->height;
    job->picture.width = (int)((a->cols ? a->cols : 1) * a->width);
    job->picture.height = (int)((a->rows ? a->rows : 1) * a->height);
    return 1;
}

/* The picture (transparent) and one cell's depth buffer. */
static int alloc_picture(const render_args *a, render_job *job)
{
    size_t w = (size_t)job->picture.width, h = (size_t)job->picture.height, pixels;
    if (raster_size_mul(w, h, &pixels))
        job->picture.rgba = (unsigned char *)raster_calloc_array(pixels, 4);
    if (raster_size_mul((size_t)a->width, (size_t)a->height, &pixels))
        job->depth = (float *)raster_alloc_array(pixels, sizeof *job->depth);
    if (!job->picture.rgba || !job->depth) {
        tool_error(CMD, "out of memory for a %lux%lu picture", (unsigned long)w, (unsigned long)h);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */
/* ------------------------------------------------------------------------ */

static uint32_t part_frame(const render_part *part, uint32_t frame);
static int part_matrix(const render_job *job, const render_part *part, uint32_t frame,
                       float matrix[16]);

/* Grows the box lo..hi (any: it holds something already) by mn..mx placed
 * by matrix (NULL: as it is): the eight corners, transformed. */
static void grow_box(double lo[3], double hi[3], int *any, const float mn[3], const float mx[3],
                     const float *matrix)
{
    int corner, i;
    for (corner = 0; corner < (matrix ? 8 : 1); corner++) {
        double p[3], q[3];
        for (i = 0; i < 3; i++)
            p[i] = (corner & (1 << i)) ? mx[i] : mn[i];
        for (i = 0; i < 3; i++)
            q[i] = matrix ? matrix[i] * p[0] + matrix[4 + i] * p[1] + matrix[8 + i] * p[2] +
                                matrix[12 + i]
                          : p[i];
        for (i = 0; i < 3; i++) {
            double top = matrix ? q[i] : mx[i];
            if (!*any || q[i] < lo[i])
                lo[i] = q[i];
            if (!*any || top > hi[i])
                hi[i] = top;
        }
        *any = 1;
    }
}

/* The box of every keyframe the cells show, and of the attached models
 * placed on their tags there; 0 after an error. */
static int frames_box(const render_job *job, double lo[3], double hi[3])
{
    size_t c, i;
    int any = 0;
    for (c = 0; c < job->cells; c++) {
        float mn[3], mx[3], matrix[16];
        if (job->frames[c] == RENDER_NO_FRAME ||
            md2_frame_bounds(job->model.model, job->frames[c], mn, mx) != MD2_OK)
            continue;
        grow_box(lo, hi, &any, mn, mx, NULL);
        for (i = 0; i < job->num_parts; i++) {
            const render_part *part = &job->parts[i];
            if (!part_matrix(job, part, job->frames[c], matrix))
                return 0;
            if (md2_frame_bounds(part->model.model, part_frame(part, job->frames[c]), mn, mx) ==
                MD2_OK)
                grow_box(lo, hi, &any, mn, mx, matrix);
        }
    }
    if (!any)
        lo[0] = lo[1] = lo[2] = hi[0] = hi[1] = hi[2] = 0.0;
    return 1;
}

/* Poses keyframe `frame` of model m (mesh mesh) into pose and corners,
 * placed by matrix (column-major 4x4, a tag's: md2_attach()) unless it is
 * NULL; 0 after an error. */
static int pose_mesh(const md2_mesh *mesh, const md2_model *m, uint32_t frame, float *pose,
                     raster_vertex *corners, const float *matrix)
{
    md2_vertex_layout layout = md2_layout_default(MD2_LAYOUT_UNIT_NORMALS);
    size_t i;
    int k;
    md2_result r = md2_mesh_lerp(mesh, m, frame, frame, 0.0f, pose, &layout);
    if (r != MD2_OK) {
        tool_error(CMD, "cannot pose keyframe %lu: %s", (unsigned long)frame,
                   md2_result_string(r));
        return 0;
    }
    for (i = 0; i < mesh->num_vertices; i++) {
        const float *p = pose + i * RENDER_POSE_FLOATS;
        raster_vertex *v = &corners[i];
        for (k = 0; k < 3; k++) {
            v->position[k] = p[k];
            v->normal[k] = p[3 + k];
        }
        if (matrix) {
            for (k = 0; k < 3; k++) {
                v->position[k] = matrix[k] * p[0] + matrix[4 + k] * p[1] + matrix[8 + k] * p[2] +
                                 matrix[12 + k];
                v->normal[k] = matrix[k] * p[3] + matrix[4 + k] * p[4] + matrix[8 + k] * p[5];
            }
        }
        v->uv[0] = p[6];
        v->uv[1] = p[7];
    }
    return 1;
}

/* Poses keyframe `frame` into job->corners; 0 after an error. */
static int pose_frame(render_job *job, uint32_t frame)
{
    return pose_mesh(job->mesh, job->model.model, frame, job->pose, job->corners, NULL);
}

/* The keyframe of attached model part when the body shows `frame`: the
 * same, clamped to the part's last (md2_player_pose_linked()'s rule). */
static uint32_t part_frame(const render_part *part, uint32_t frame)
{
    size_t n = part->model.model->num_frames;
    return frame < n ? frame : (uint32_t)(n - 1);
}

/* The transform of part when the body shows keyframe `frame`: the body's
 * tag there (frames past the tag file's last clamped to it, as
 * md2_player_tag() does) put under the body, which stands where it is. */
static int part_matrix(const render_job *job, const render_part *part, uint32_t frame,
                       float matrix[16])
{
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const md2_tags *tags = job->model.bundle->tags;
    uint32_t f = frame < tags->num_frames ? frame : (uint32_t)(tags->num_frames - 1);
    float tag[16];
    md2_result r = md2_tag_lerp(tags, part->tag, f, f, 0.0f, tag);
    if (r == MD2_OK)
        r = md2_attach(identity, tag, matrix);
    if (r != MD2_OK) {
        tool_error(CMD, "cannot place tag '%s' at keyframe %lu: %s", tags->names[part->tag].name,
                   (unsigned long)f, md2_result_string(r));
        return 0;
    }
    return 1;
}

/* Poses every attached model for the body's keyframe `frame`. */
static int pose_parts(render_job *job, uint32_t frame)
{
    size_t i;
    for (i = 0; i < job->num_parts; i++) {
        render_part *part = &job->parts[i];
        float matrix[16];
        if (!part_matrix(job, part, frame, matrix) ||
            !pose_mesh(part->mesh, part->model.model, part_frame(part, frame), part->pose,
                       part->corners, matrix))
            return 0;
    }
    return 1;
}

static void draw_mesh(const md2_mesh *mesh, const raster_vertex *corners,
                      const raster_target *t, const raster_camera *cam, const raster_shading *s)
{
    const uint32_t *idx = mesh->indices;
    size_t i;
    for (i = 0; i + 2 < mesh->num_indices; i += 3) {
        const raster_vertex *v[3];
        v[0] = &corners[idx[i]];
        v[1] = &corners[idx[i + 1]];
        v[2] = &corners[idx[i + 2]];
        raster_draw(t, cam, s, v);
    }
}

/* The shading of a model with skin img (rgba NULL: plain grey). */
static void shading_for(raster_shading *s, raster_texture *tex, const tool_image *img)
{
    tex->rgba = img->rgba;
    tex->width = img->width;
    tex->height = img->height;
    s->skin = img->rgba ? tex : NULL;
}

static int draw_cells(const render_args *a, render_job *job)
{
    raster_camera cam;
    raster_shading shading;
    raster_texture skin;
    raster_target target;
    double lo[3], hi[3];
    size_t c, i, stride = (size_t)job->picture.width * 4;
    if (!frames_box(job, lo, hi))
        return 0;
    raster_camera_fit(&cam, lo, hi, a->yaw, a->pitch, job->cell_width, job->cell_height);
    memset(&shading, 0, sizeof shading);
    shading.lit = !a->unlit;
    shading.wireframe = a->wireframe;
    raster_camera_light(&cam, shading.light);
    target.stride = stride;
    target.depth = job->depth;
    target.width = job->cell_width;
    target.height = job->cell_height;
    for (c = 0; c < job->cells; c++) {
        size_t col = c % (size_t)job->cols, row = c / (size_t)job->cols;
        if (job->frames[c] == RENDER_NO_FRAME)
            continue;
        if (!pose_frame(job, job->frames[c]) || !pose_parts(job, job->frames[c]))
            return 0;
        target.rgba = job->picture.rgba + row * (size_t)job->cell_height * stride +
                      col * (size_t)job->cell_width * 4;
        raster_clear(&target);
        shading_for(&shading, &skin, &job->skin);
        draw_mesh(job->mesh, job->corners, &target, &cam, &shading);
        for (i = 0; i < job->num_parts; i++) {
            shading_for(&shading, &skin, &job->parts[i].skin);
            draw_mesh(job->parts[i].mesh, job->parts[i].corners, &target, &cam, &shading);
        }
    }
    return 1;
}

static int write_png(const char *path, const tool_image *img)
{
    unsigned char *png;
    size_t size;
    char why[256];
    int ok;
    if (!tool_png_encode(img, &png, &size, why, sizeof why)) {
        tool_error(CMD, "cannot convert the %dx%d picture to PNG: %s", img->width, img->height,
                   why);
        return 0;
    }
    ok = tool_write_file(CMD, path, png, size);
    free(png);
    return ok;
}

/* The work of drawing every cell (raster_cost()), checked against the
 * budget before any drawing; 0 after saying so. */
/* The work of drawing mesh (posed in corners) into one cell. */
static double mesh_cost(const render_job *job, const raster_camera *cam, const md2_mesh *mesh,
                        const raster_vertex *corners)
{
    const uint32_t *idx = mesh->indices;
    double work = 0.0;
    size_t i;
    for (i = 0; i + 2 < mesh->num_indices; i += 3) {
        const raster_vertex *v[3];
        v[0] = &corners[idx[i]];
        v[1] = &corners[idx[i + 1]];
        v[2] = &corners[idx[i + 2]];
        work += raster_cost(job->cell_width, job->cell_height, cam, v);
    }
    return work;
}

static int check_work(const render_args *a, render_job *job)
{
    raster_camera cam;
    double lo[3], hi[3], work = 0.0, pixels, limit;
    size_t c, i;
    if (!frames_box(job, lo, hi))
        return 0;
    raster_camera_fit(&cam, lo, hi, a->yaw, a->pitch, job->cell_width, job->cell_height);
    pixels = (double)job->picture.width * job->picture.height;
    limit = (double)a->max_overdraw * pixels;
    if (limit < RENDER_MIN_WORK)
        limit = RENDER_MIN_WORK;
    for (c = 0; c < job->cells; c++) {
        if (job->frames[c] == RENDER_NO_FRAME)
            continue;
        if (!pose_frame(job, job->frames[c]) || !pose_parts(job, job->frames[c]))
            return 0;
        work += mesh_cost(job, &cam, job->mesh, job->corners);
        for (i = 0; i < job->num_parts; i++)
            work += mesh_cost(job, &cam, job->parts[i].mesh, job->parts[i].corners);
    }
    if (work > limit) {
        tool_error(CMD, "drawing would test %.3g pixels, over the limit of %.3g (%ld for each "
                   "of the picture's %.0f pixels); --max-overdraw raises it", work, limit,
                   a->max_overdraw, pixels);
        return 0;
    }
    return 1;
}

static void render_job_free(render_job *job)
{
    size_t i;
    for (i = 0; i < job->num_parts; i++) {
        render_part *part = &job->parts[i];
        tool_image_free(&part->skin);
        free(part->corners);
        free(part->pose);
        md2_mesh_free(part->mesh);
        tool_model_free(&part->model);
    }
    free(job->depth);
    tool_image_free(&job->picture);
    free(job->frames);
    tool_image_free(&job->skin);
    free(job->corners);
    free(job->pose);
    md2_mesh_free(job->mesh);
    tool_model_free(&job->model);
}

/* "md2 render: PATH: MESSAGE", without the path twice when the library's
 * message starts with it. */
static int run(const render_args *a, render_job *job)
{
    md2_diagnostic diag;
    if (tool_load(a->model, 0, &job->model, &diag) != MD2_OK) {
        tool_load_error(CMD, a->model, &diag);
        return 0;
    }
    if (a->normals && !tool_smooth_normals(CMD, a->model, &job->model))
        return 0;
    return pick_frames(a, job) && load_skin(a, job) && build_mesh(job) && load_parts(a, job) &&
           set_picture_size(a, job) && check_work(a, job) && alloc_picture(a, job) &&
           draw_cells(a, job) && write_png(a->output, &job->picture);
}

int tool_render(int argc, char **argv)
{
    render_args args;
    render_job job;
    int parsed = parse_args(argc, argv, &args), ok;
    if (parsed <= 0)
        return parsed < 0 ? TOOL_OK : TOOL_USAGE;
    memset(&job, 0, sizeof job);
    ok = run(&args, &job);
    render_job_free(&job);
    return ok ? TOOL_OK : TOOL_FAILED;
}
