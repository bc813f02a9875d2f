/*
 * md2_view: an OpenGL 3.3 core viewer for MD2 models (GLFW, libepoxy,
 * stb_image), and an offscreen screenshot tool.
 *
 *   md2_view [options] MODEL.md2
 *   md2_view -h | --help     the usage, on stdout
 *
 * The model is loaded with its side files (md2_bundle_load_file()): the
 * animations of MODEL.anm or MODEL.framegroups beside it (else its frame
 * names), and the tags of MODEL.tag.
 *
 *   --skin FILE        show this skin first (PCX through libmd2's
 *                      md2_pcx_decode(), PNG/TGA/BMP/JPEG through stb_image)
 *   --game DIR         game root for the skin paths the model names (default:
 *                      found from the model's path, see md2_skin_find())
 *   --anim NAME        start with this animation, from the side files or
 *                      the frame names (default: the idle one, as `md2
 *                      export` orders them: md2_anim_idle(), "stand",
 *                      else "idle", else the first that loops)
 *   --size WxH         window or screenshot size (default 960x720 / 640x480)
 *   --unlit            texture colours only, nearest-neighbour filtering
 *   --ortho            orthographic projection instead of perspective
 *   --yaw DEG          camera turned DEG degrees about Z (default 0)
 *   --pitch DEG        camera raised DEG degrees (default 0): yaw 0 and
 *                      pitch 0 look at the model's front, from +X
 *   --zoom F           magnify F times (default 1: the box of the keyframes
 *                      of the animation shown, seen from the first view,
 *                      fills the picture, its corners within 1 / 1.08 of
 *                      the side that limits them: view_fit())
 *   --bg RRGGBB        background colour in hex (default 303846)
 *   --wireframe        start in wireframe
 *   --lod R1,R2,...    levels of detail at these ratios of the triangles
 *                      (md2_simplify(), one run), switched with the D key
 *                      (level 0: the model itself; at most 8 levels)
 *   --level K          start with level K (0: the model)
 *   --cpu              draw with the CPU path (md2_draw_cpu.c, the code of
 *                      README.md's "Draw it"): the pose written into a
 *                      vertex buffer every frame
 *   --attach TAG=MODEL.md2  draw MODEL on the body's tag TAG (MODEL.tag's),
 *                      animated with the body: the player's keyframes and
 *                      blend, cross-fades included, clamped to MODEL's last
 *                      keyframe (md2_player_pose_linked()'s rule), placed
 *                      by md2_player_tag() and md2_attach(), in MODEL's own
 *                      skin found beside it (else the checkerboard);
 *                      repeatable (at most 8). Errors (exit 1): the body
 *                      has no tags, no tag of that name (the message lists
 *                      the tags there are), MODEL cannot be read
 *   --screenshot FILE  render one picture offscreen and exit: PNG if FILE
 *                      ends in .png, else binary PPM; prints
 *                      "projected-bbox x0 y0 x1 y1" and "triangles N" (of
 *                      the level drawn)
 *   --frame N          screenshot: keyframe N (default: the animation's
 *                      first, framed over the whole animation; with N,
 *                      framed over the keyframes drawn)
 *   --t T              screenshot: blended towards keyframe N + 1 by T in
 *                      [0, 1] (default 0); the last keyframe blends with
 *                      itself
 *   --from M           screenshot: a moment of a cross-fade from keyframe M
 *                      (blended towards M + 1 by --from-t T, default 0) to
 *                      the pose above, the pose above weighing --weight W
 *                      (default 0.5); prints "fade from ..."; screenshots
 *                      also print "anim NAME FIRST LAST" (the animation
 *                      --anim chose) and, for each --attach, "attach-origin
 *                      X Y" (where the tag's origin, the attached model's
 *                      origin, projects, in pixels) and "attach-vertex-bbox
 *                      x0 y0 x1 y1" (its projected vertices)
 *
 * Keys: Right or N / Left or P next / previous animation (cross-faded
 * over 0.2 s), S next skin, W wireframe, L lighting, O orthographic, D next
 * level of detail (--lod; the title shows its triangles), Space pause,
 * Escape quit. Drag with the left mouse button to orbit, use the
 * wheel to zoom.
 *
 * How it draws by default (the GPU path): md2_mesh_build() welds the model
 * into one index space (counter-clockwise triangles: OpenGL's default front
 * faces; back faces are culled). md2_mesh_morph_data() gives every keyframe
 * in the file's 4 bytes a vertex (x, y, z, normal index); it is uploaded
 * once into one vertex buffer, and each draw points two integer vertex
 * attributes at keyframe A's and keyframe B's part of it. The vertex shader
 * decodes both with the frames' scale and translate
 * (md2_frame_transforms(), set as uniforms per draw), blends them by t, and
 * looks the normals up in the 162-entry table (md2_normal(0), a uniform
 * array). Lighting is one directional light (Lambert) plus ambient. An
 * md2_player drives the animation: md2_player_state() gives frame_a,
 * frame_b and t. Switching animation cross-fades (md2_player_crossfade()):
 * while a fade runs, the GPU path draws with a second vertex shader
 * (fade_vertex_shader_src) that decodes four keyframes, the current pose's
 * two and the outgoing pose's two (from_a, from_b, from_t), and blends the
 * two poses by the weight as md2_player_pose() does; attached models are
 * drawn with it always, on both paths. Every animation loops here,
 * once-animations too.
 *
 * With --cpu: draw_cpu_upload() (md2_draw_cpu.c) builds its own mesh, an
 * empty vertex buffer of one pose (32 bytes a vertex, md2_layout_default())
 * and the first skin's texture; every frame draw_cpu_frame() maps that
 * buffer, writes the player's pose into it with md2_mesh_pose() (unit
 * normals) and draws it, through a vertex shader that only transforms.
 * The fragment shader, the lighting, --unlit and the camera are the GPU
 * path's. md2_mesh_pose() blends cross-fades too. In screenshot mode the
 * player shows keyframe --frame blended towards the next by --t (a held
 * once-animation of the two frames, seeked to t; with --from, in a held
 * cross-fade advanced to --weight), so both paths draw the same pose.
 *
 * Skins: the --skin file, then each skin the model names, found with
 * md2_skin_find() (beside the model, or under the game root); a
 * checkerboard when there is none. Without --skin, each skin the model
 * names that is not found is said; with it, the file given is loaded and
 * shown first and nothing is said of the model's own. The projected
 * bounding box printed in
 * screenshot mode is that of the 8 corners of the drawn pose's bounding box
 * (computed on the CPU with md2_mesh_lerp()) through the same matrices, in
 * image pixels (y down, inclusive): with --ortho, --yaw 0 and --pitch 0 it
 * is the bounding box of the model's pixels, which the md2_view_* CTest
 * tests check.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/animation.h>
#include <md2/md2.h>
#include <md2/mesh.h>
#include <md2/simplify.h>
#include <md2/skin.h>
#include <md2/tags.h>

#include "md2_draw_cpu.h"
#include "image.h" /* tool/image: the md2 command's skin loader */

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#ifdef MD2_VIEW_HAVE_STB_WRITE
#include <stb/stb_image_write.h>
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VIEW_PI 3.14159265358979323846
#define FOVY_DEGREES 40.0
#define MAX_SKINS 64
#define MAX_LEVELS 8 /* levels of detail, the model's own included */
#define MAX_SIZE 8192
#define CROSSFADE_SECONDS 0.2f /* animation switches from the keys */
#define FIT_MARGIN 1.08 /* the framed box spans 1 / 1.08 of the picture */
#define MAX_ATTACH 8 /* --attach options */

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct options {
    const char *model;
    const char *skin;
    const char *game;
    const char *anim;
    const char *screenshot;
    int width, height;   /* 0: the mode's default */
    unsigned long frame;
    int frame_given;     /* --frame was given (else: the animation's first) */
    float t;
    long from;           /* --from: the outgoing keyframe of a cross-fade; -1: none */
    float from_t, weight; /* --from-t, --weight */
    const char *attach[MAX_ATTACH]; /* --attach TAG=MODEL, as given */
    size_t num_attach;
    int unlit, ortho, wireframe;
    int cpu;             /* --cpu: draw with md2_draw_cpu.c */
    double lod[MAX_LEVELS]; /* --lod ratios */
    size_t num_lod;
    unsigned long level; /* --level */
    double yaw, pitch;   /* degrees */
    double zoom;
    unsigned char bg[3];
} options;

/* The usage, to f: stdout for -h and --help (exit 0), else stderr (2). */
static int usage(FILE *f)
{
    fprintf(f,
            "usage: md2_view [--skin FILE] [--game DIR] [--anim NAME] [--size WxH]\n"
            "                [--unlit] [--ortho] [--yaw DEG] [--pitch DEG] [--zoom F] [--bg RRGGBB]\n"
            "                [--wireframe] [--cpu] [--lod R1,R2,... [--level K]]\n"
            "                [--attach TAG=MODEL.md2]...\n"
            "                [--screenshot FILE [--frame N] [--t T] [--from N [--from-t T]\n"
            "                 [--weight W]]] MODEL.md2\n"
            "       md2_view -h | --help\n"
            "The model's side files (.anm, .framegroups, .tag beside it) are loaded with it.\n"
            "keys: Right/N, Left/P animation (cross-faded); S skin; W wireframe;\n"
            "      L lighting; O orthographic; D level of detail (--lod); Space pause;\n"
            "      Escape quit; drag to orbit, wheel to zoom\n");
    return f == stdout ? 0 : 2;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !(v == v) || v > 1e30 || v < -1e30)
        return 0;
    *out = v;
    return 1;
}

static int parse_size(const char *s, int *w, int *h)
{
    char *end;
    long a, b;
    a = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X'))
        return 0;
    s = end + 1;
    b = strtol(s, &end, 10);
    if (end == s || *end != '\0' || a < 1 || b < 1 || a > MAX_SIZE || b > MAX_SIZE)
        return 0;
    *w = (int)a;
    *h = (int)b;
    return 1;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int parse_colour(const char *s, unsigned char rgb[3])
{
    int i;
    if (s[0] == '#')
        s++;
    if (strlen(s) != 6)
        return 0;
    for (i = 0; i < 3; i++) {
        int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return 0;
        rgb[i] = (unsigned char)(hi * 16 + lo);
    }
    return 1;
}

/* 1: parsed; 0: bad arguments (said); -1: -h or --help. */
static int parse_args(int argc, char **argv, options *o)
{
    int i;
    memset(o, 0, sizeof *o);
    o->from = -1;
    o->weight = 0.5f;
    o->zoom = 1.0;
    o->bg[0] = 0x30;
    o->bg[1] = 0x38;
    o->bg[2] = 0x46;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            return -1;
        } else if (strcmp(a, "--unlit") == 0) {
            o->unlit = 1;
        } else if (strcmp(a, "--ortho") == 0) {
            o->ortho = 1;
        } else if (strcmp(a, "--wireframe") == 0) {
            o->wireframe = 1;
        } else if (strcmp(a, "--cpu") == 0) {
            o->cpu = 1;
        } else if (a[0] == '-' && a[1] == '-' && !v) {
            fprintf(stderr, "md2_view: %s needs a value\n", a);
            return 0;
        } else if (strcmp(a, "--skin") == 0) {
            o->skin = argv[++i];
        } else if (strcmp(a, "--game") == 0) {
            o->game = argv[++i];
        } else if (strcmp(a, "--anim") == 0) {
            o->anim = argv[++i];
        } else if (strcmp(a, "--screenshot") == 0) {
            o->screenshot = argv[++i];
        } else if (strcmp(a, "--size") == 0) {
            if (!parse_size(argv[++i], &o->width, &o->height)) {
                fprintf(stderr, "md2_view: --size wants WxH, 1 to %d each, not \"%s\"\n",
                        MAX_SIZE, argv[i]);
                return 0;
            }
        } else if (strcmp(a, "--frame") == 0) {
            if (!parse_double(argv[++i], &d) || d < 0 || d > 4294967295.0 || d != floor(d)) {
                fprintf(stderr, "md2_view: --frame wants a keyframe number, not \"%s\"\n", argv[i]);
                return 0;
            }
            o->frame = (unsigned long)d;
            o->frame_given = 1;
        } else if (strcmp(a, "--t") == 0 || strcmp(a, "--from-t") == 0 ||
                   strcmp(a, "--weight") == 0) {
            if (!parse_double(argv[++i], &d) || d < 0 || d > 1) {
                fprintf(stderr, "md2_view: %s wants a number in [0, 1], not \"%s\"\n", a,
                        argv[i]);
                return 0;
            }
            *(a[2] == 't' ? &o->t : a[2] == 'w' ? &o->weight : &o->from_t) = (float)d;
        } else if (strcmp(a, "--from") == 0) {
            if (!parse_double(argv[++i], &d) || d < 0 || d > 2147483647.0 || d != floor(d)) {
                fprintf(stderr, "md2_view: --from wants a keyframe number, not \"%s\"\n", argv[i]);
                return 0;
            }
            o->from = (long)d;
        } else if (strcmp(a, "--attach") == 0) {
            const char *eq = strchr(argv[++i], '=');
            if (!eq || eq == argv[i] || eq[1] == '\0' || o->num_attach == MAX_ATTACH) {
                fprintf(stderr, "md2_view: --attach wants TAG=MODEL.md2, at most %d times, not "
                        "\"%s\"\n", MAX_ATTACH, argv[i]);
                return 0;
            }
            o->attach[o->num_attach++] = argv[i];
        } else if (strcmp(a, "--yaw") == 0 || strcmp(a, "--pitch") == 0) {
            if (!parse_double(argv[++i], &d)) {
                fprintf(stderr, "md2_view: %s wants degrees, not \"%s\"\n", a, argv[i]);
                return 0;
            }
            if (a[2] == 'y')
                o->yaw = d;
            else
                o->pitch = d;
        } else if (strcmp(a, "--zoom") == 0) {
            if (!parse_double(argv[++i], &o->zoom) || !(o->zoom >= 0.05 && o->zoom <= 20.0)) {
                fprintf(stderr, "md2_view: --zoom wants a factor from 0.05 to 20, not \"%s\"\n",
                        argv[i]);
                return 0;
            }
        } else if (strcmp(a, "--lod") == 0) {
            const char *p = argv[++i];
            o->num_lod = 0;
            while (*p) {
                char *end;
                d = strtod(p, &end);
                if (end == p || !(d >= 0.0 && d <= 1.0) || o->num_lod == MAX_LEVELS - 1 ||
                    (*end != ',' && *end != '\0') || (*end == ',' && end[1] == '\0')) {
                    fprintf(stderr, "md2_view: --lod wants at most %d ratios from 0 to 1, as 0.5,0.25, not \"%s\"\n",
                            MAX_LEVELS - 1, argv[i]);
                    return 0;
                }
                o->lod[o->num_lod++] = d;
                p = *end == ',' ? end + 1 : end;
            }
        } else if (strcmp(a, "--level") == 0) {
            if (!parse_double(argv[++i], &d) || d < 0 || d >= MAX_LEVELS || d != floor(d)) {
                fprintf(stderr, "md2_view: --level wants a level number, not \"%s\"\n", argv[i]);
                return 0;
            }
            o->level = (unsigned long)d;
        } else if (strcmp(a, "--bg") == 0) {
            if (!parse_colour(argv[++i], o->bg)) {
                fprintf(stderr, "md2_view: --bg wants RRGGBB in hex, not \"%s\"\n", argv[i]);
                return 0;
            }
        } else if (a[0] == '-' || o->model) {
            fprintf(stderr, "md2_view: unexpected argument \"%s\"\n", a);
            return 0;
        } else {
            o->model = a;
        }
    }
    if (!o->model)
        return 0;
    if (o->level > o->num_lod) {
        fprintf(stderr, "md2_view: --level %lu: there are %lu levels (0 to %lu; --lod makes them)\n",
                o->level, (unsigned long)o->num_lod + 1, (unsigned long)o->num_lod);
        return 0;
    }
    if (o->pitch > 89.0)
        o->pitch = 89.0;
    if (o->pitch < -89.0)
        o->pitch = -89.0;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Matrices: column-major 4x4, as OpenGL takes them                          */
/* ------------------------------------------------------------------------ */

static void mat_identity(float m[16])
{
    int i;
    for (i = 0; i < 16; i++)
        m[i] = (i % 5 == 0) ? 1.0f : 0.0f;
}

/* out = a * b (out may not alias a or b) */
static void mat_mul(float out[16], const float a[16], const float b[16])
{
    int c, r, k;
    for (c = 0; c < 4; c++)
        for (r = 0; r < 4; r++) {
            float s = 0.0f;
            for (k = 0; k < 4; k++)
                s += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = s;
        }
}

static void mat_perspective(float m[16], double fovy, double aspect, double n, double f)
{
    double k = 1.0 / tan(fovy / 2.0);
    memset(m, 0, 16 * sizeof *m);
    m[0] = (float)(k / aspect);
    m[5] = (float)k;
    m[10] = (float)((f + n) / (n - f));
    m[11] = -1.0f;
    m[14] = (float)(2.0 * f * n / (n - f));
}

static void mat_ortho(float m[16], double half_w, double half_h, double n, double f)
{
    mat_identity(m);
    m[0] = (float)(1.0 / half_w);
    m[5] = (float)(1.0 / half_h);
    m[10] = (float)(-2.0 / (f - n));
    m[14] = (float)(-(f + n) / (f - n));
}

static void mat_look_at(float m[16], const double eye[3], const double at[3],
                        const double up[3])
{
    double f[3], s[3], u[3], len;
    int i;
    for (i = 0; i < 3; i++)
        f[i] = at[i] - eye[i];
    len = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (i = 0; i < 3; i++)
        f[i] /= len;
    s[0] = f[1] * up[2] - f[2] * up[1];
    s[1] = f[2] * up[0] - f[0] * up[2];
    s[2] = f[0] * up[1] - f[1] * up[0];
    len = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    for (i = 0; i < 3; i++)
        s[i] /= len;
    u[0] = s[1] * f[2] - s[2] * f[1];
    u[1] = s[2] * f[0] - s[0] * f[2];
    u[2] = s[0] * f[1] - s[1] * f[0];
    mat_identity(m);
    for (i = 0; i < 3; i++) {
        m[i * 4 + 0] = (float)s[i];
        m[i * 4 + 1] = (float)u[i];
        m[i * 4 + 2] = (float)-f[i];
    }
    m[12] = (float)-(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
    m[13] = (float)-(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
    m[14] = (float)(f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2]);
}

/* ------------------------------------------------------------------------ */
/* Shaders                                                                   */
/* ------------------------------------------------------------------------ */

/* Two keyframes in the file's encoding (x, y, z, normal index: unsigned
 * bytes read as integers), decoded with each frame's scale and translate
 * and blended by t; the normal is the blend of the two table normals. */
static const char *const vertex_shader_src =
    "#version 330 core\n"
    "layout(location = 0) in uvec4 a_vertex_a;\n"
    "layout(location = 1) in uvec4 a_vertex_b;\n"
    "layout(location = 2) in vec2 a_uv;\n"
    "uniform mat4 u_mvp;\n"
    "uniform vec3 u_scale_a, u_translate_a, u_scale_b, u_translate_b;\n"
    "uniform float u_t;\n"
    "uniform vec3 u_normals[162];\n"
    "out vec3 v_normal;\n"
    "out vec2 v_uv;\n"
    "void main() {\n"
    "    vec3 pa = u_scale_a * vec3(a_vertex_a.xyz) + u_translate_a;\n"
    "    vec3 pb = u_scale_b * vec3(a_vertex_b.xyz) + u_translate_b;\n"
    "    vec3 n = mix(u_normals[min(a_vertex_a.w, 161u)],\n"
    "                 u_normals[min(a_vertex_b.w, 161u)], u_t);\n"
    "    float len = length(n);\n"
    "    v_normal = len > 1e-6 ? n / len : vec3(0.0, 0.0, 1.0);\n"
    "    v_uv = a_uv;\n"
    "    gl_Position = u_mvp * vec4(mix(pa, pb, u_t), 1.0);\n"
    "}\n";

/* A cross-fade on the GPU: the current pose (keyframes A and B at u_t, as
 * above) and the outgoing one (keyframes C and D at u_from_t), blended by
 * u_weight, the current pose's weight, as md2_player_pose() blends them:
 * (1 - weight) * outgoing + weight * current, positions and normals. The
 * GPU path draws with it while a cross-fade runs, and draws attached
 * models (--attach) with it always (weight 1 outside a fade). u_scale[k]
 * and u_translate[k] are keyframe k's of A, B, C, D. */
static const char *const fade_vertex_shader_src =
    "#version 330 core\n"
    "layout(location = 0) in uvec4 a_vertex_a;\n"
    "layout(location = 1) in uvec4 a_vertex_b;\n"
    "layout(location = 2) in vec2 a_uv;\n"
    "layout(location = 3) in uvec4 a_vertex_c;\n"
    "layout(location = 4) in uvec4 a_vertex_d;\n"
    "uniform mat4 u_mvp;\n"
    "uniform vec3 u_scale[4], u_translate[4];\n"
    "uniform float u_t, u_from_t, u_weight;\n"
    "uniform vec3 u_normals[162];\n"
    "out vec3 v_normal;\n"
    "out vec2 v_uv;\n"
    "vec3 decode(uvec4 v, int k) { return u_scale[k] * vec3(v.xyz) + u_translate[k]; }\n"
    "vec3 normal_of(uvec4 v) { return u_normals[min(v.w, 161u)]; }\n"
    "void main() {\n"
    "    vec3 now = mix(decode(a_vertex_a, 0), decode(a_vertex_b, 1), u_t);\n"
    "    vec3 before = mix(decode(a_vertex_c, 2), decode(a_vertex_d, 3), u_from_t);\n"
    "    vec3 n = mix(mix(normal_of(a_vertex_c), normal_of(a_vertex_d), u_from_t),\n"
    "                 mix(normal_of(a_vertex_a), normal_of(a_vertex_b), u_t), u_weight);\n"
    "    float len = length(n);\n"
    "    v_normal = len > 1e-6 ? n / len : vec3(0.0, 0.0, 1.0);\n"
    "    v_uv = a_uv;\n"
    "    gl_Position = u_mvp * vec4(mix(before, now, u_weight), 1.0);\n"
    "}\n";

/* --cpu: the pose is in the vertex buffer already (md2_draw_cpu.c writes
 * md2_layout_default(): position, unit normal, uv as floats), so this one
 * only transforms; the outputs are the GPU path's. */
static const char *const cpu_vertex_shader_src =
    "#version 330 core\n"
    "layout(location = 0) in vec3 a_position;\n"
    "layout(location = 1) in vec3 a_normal;\n"
    "layout(location = 2) in vec2 a_uv;\n"
    "uniform mat4 u_mvp;\n"
    "out vec3 v_normal;\n"
    "out vec2 v_uv;\n"
    "void main() {\n"
    "    float len = length(a_normal);\n"
    "    v_normal = len > 1e-6 ? a_normal / len : vec3(0.0, 0.0, 1.0);\n"
    "    v_uv = a_uv;\n"
    "    gl_Position = u_mvp * vec4(a_position, 1.0);\n"
    "}\n";

/* Texture times (ambient + Lambert), or the texel alone when unlit. */
static const char *const fragment_shader_src =
    "#version 330 core\n"
    "in vec3 v_normal;\n"
    "in vec2 v_uv;\n"
    "uniform sampler2D u_skin;\n"
    "uniform int u_lit;\n"
    "uniform vec3 u_light_dir;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    vec3 c = texture(u_skin, v_uv).rgb;\n"
    "    if (u_lit != 0) {\n"
    "        float d = max(dot(normalize(v_normal), u_light_dir), 0.0);\n"
    "        c *= 0.35 + 0.75 * d;\n"
    "    }\n"
    "    o_color = vec4(c, 1.0);\n"
    "}\n";

static GLuint compile_shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    GLint ok = 0;
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(s, (GLsizei)sizeof log, NULL, log);
        fprintf(stderr, "md2_view: %s shader: %s\n",
                type == GL_VERTEX_SHADER ? "vertex" : "fragment", log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

/* The program of vertex shader vertex_src and the fragment shader. */
static GLuint build_program(const char *vertex_src)
{
    GLuint vs = compile_shader(GL_VERTEX_SHADER, vertex_src);
    GLuint fs = compile_shader(GL_FRAGMENT_SHADER, fragment_shader_src);
    GLuint p;
    GLint ok = 0;
    if (!vs || !fs) {
        if (vs)
            glDeleteShader(vs);
        if (fs)
            glDeleteShader(fs);
        return 0;
    }
    p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glDeleteShader(vs);
    glDeleteShader(fs);
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetProgramInfoLog(p, (GLsizei)sizeof log, NULL, log);
        fprintf(stderr, "md2_view: shader program: %s\n", log);
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

/* ------------------------------------------------------------------------ */
/* The viewer                                                                */
/* ------------------------------------------------------------------------ */

/* The fade program (fade_vertex_shader_src) and its uniforms. */
typedef struct fade_program {
    GLuint id;
    GLint u_mvp, u_scale, u_translate, u_t, u_from_t, u_weight, u_normals, u_skin, u_lit,
        u_light_dir;
} fade_program;

/* The buffers of one model's keyframes for the GPU (upload_morph()). */
typedef struct morph_buffers {
    GLuint vao, morph_vbo, uv_vbo, ebo;
    GLsizei num_indices;
    size_t frame_bytes;         /* bytes of one keyframe in the morph buffer */
} morph_buffers;

/* A model drawn on a tag of the body (--attach TAG=MODEL). */
typedef struct attachment {
    md2_bundle *bundle;
    md2_mesh *mesh;
    float *transforms;          /* md2_frame_transforms() */
    size_t tag;                 /* in the body's tags */
    morph_buffers gl;
    GLuint texture;
} attachment;

typedef struct viewer {
    options opt;
    GLFWwindow *window;

    /* model and animation: model is the level shown, source the file's
     * (bundle->model: loaded with its side files) */
    md2_bundle *bundle;
    const md2_model *model;
    const md2_model *source;
    md2_lod lods[MAX_LEVELS - 1];  /* levels 1 .. num_levels - 1 (--lod) */
    size_t num_levels, level;
    md2_mesh *mesh;
    md2_mesh *cpu_mesh;         /* --cpu: the one draw_cpu_upload() built */
    md2_anim *anims;
    size_t num_anims;
    size_t anim;
    md2_player player;
    float *transforms;          /* md2_frame_transforms(): 6 floats a frame */
    const char *model_name;     /* file name of the model, for the title */

    /* skins: paths of the candidates, the one shown (num_skins: checkerboard) */
    char *skin_paths[MAX_SKINS];
    size_t num_skins;
    size_t skin;

    /* GL objects (vertex_vbo: --cpu's pose; morph_vbo, uv_vbo: the GPU path's) */
    GLuint program, vao, vertex_vbo, morph_vbo, uv_vbo, ebo, texture;
    GLint u_mvp, u_scale_a, u_translate_a, u_scale_b, u_translate_b, u_t,
        u_normals, u_skin, u_lit, u_light_dir;
    GLsizei num_indices;
    size_t frame_bytes;         /* bytes of one keyframe in the morph buffer */
    fade_program fade;          /* GPU cross-fades and attached models */
    attachment attached[MAX_ATTACH];
    size_t num_attached;

    /* camera: orbit about center, yaw about Z, pitch up; at zoom 1 the
     * box lo..hi (frame_camera()) fills the picture as seen from fit_yaw,
     * fit_pitch (view_fit()) */
    double center[3];
    double radius;
    double lo[3], hi[3];
    double yaw, pitch;          /* radians */
    double fit_yaw, fit_pitch;  /* the direction the box was fitted from */
    double zoom;
    int lit, ortho, wireframe, paused;
    int dragging;
    double drag_x, drag_y;
    char title[512];
} viewer;

/* The file name part of a path. */
static const char *base_name(const char *path)
{
    const char *p = path, *s;
    for (s = path; *s; s++)
        if (*s == '/' || *s == '\\')
            p = s + 1;
    return p;
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = (char *)malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

static int accept_existing(void *user, const char *path)
{
    (void)user;
    return tool_file_exists(path);
}

/* Adds a skin candidate path unless it is there already. */
static void add_skin_path(viewer *v, const char *path)
{
    size_t i;
    for (i = 0; i < v->num_skins; i++)
        if (strcmp(v->skin_paths[i], path) == 0)
            return;
    if (v->num_skins < MAX_SKINS) {
        char *c = copy_string(path);
        if (c)
            v->skin_paths[v->num_skins++] = c;
    }
}

/* The --skin file, then every skin of the model that md2_skin_find()
 * finds on disk. A skin of the model that is not found is said only
 * without --skin (with it, the skin given is what is shown first). */
static void find_skins(viewer *v)
{
    size_t i;
    if (v->opt.skin)
        add_skin_path(v, v->opt.skin);
    for (i = 0; i < v->model->num_skins; i++) {
        char found[MD2_SKIN_PATH_MAX];
        const char *name = v->model->skins[i].name;
        md2_result r = md2_skin_find(v->opt.model, name, v->opt.game, accept_existing,
                                     NULL, found, sizeof found);
        if (r == MD2_OK)
            add_skin_path(v, found);
        else if (!v->opt.skin)
            fprintf(stderr, "md2_view: skin %zu \"%s\": %s\n", i, name,
                    r == MD2_ERR_NOT_FOUND ? "no file found" : md2_result_string(r));
    }
    if (v->model->num_skins == 0) { /* no skin named: the model's own name */
        char found[MD2_SKIN_PATH_MAX];
        if (md2_skin_find(v->opt.model, NULL, NULL, accept_existing, NULL, found,
                          sizeof found) == MD2_OK)
            add_skin_path(v, found);
    }
}

static void upload_texture(GLuint texture, int w, int h, const unsigned char *rgba)
{
    glBindTexture(GL_TEXTURE_2D, texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    /* row 0 of the image (its top) goes first: v = 0, as the mesh's uv */
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
}

/* A grey checkerboard of 8 x 8 squares, 8 pixels each: 64 x 64 RGBA. */
static const unsigned char *checkerboard(void)
{
    static unsigned char rgba[64 * 64 * 4];
    int x, y;
    for (y = 0; y < 64; y++)
        for (x = 0; x < 64; x++) {
            unsigned char c = ((x / 8 + y / 8) % 2) ? 200 : 110;
            unsigned char *p = rgba + 4 * (y * 64 + x);
            p[0] = p[1] = p[2] = c;
            p[3] = 255;
        }
    return rgba;
}

/* Reads skin candidate index into *img (tool_image_free() it) and returns
 * 1; returns 0, having said why, when there is none (index num_skins) or
 * it cannot be read: the checkerboard is shown instead. */
static int read_skin(const viewer *v, size_t index, tool_image *img)
{
    char err[512];
    if (index >= v->num_skins) {
        if (v->num_skins == 0)
            fprintf(stderr, "md2_view: no skin found; showing a checkerboard\n");
        return 0;
    }
    if (!tool_image_read(v->skin_paths[index], img, err, sizeof err)) {
        fprintf(stderr, "md2_view: %s; showing a checkerboard\n", err);
        return 0;
    }
    fprintf(stderr, "md2_view: skin %s (%dx%d)\n", v->skin_paths[index], img->width,
            img->height);
    return 1;
}

/* Shows skin candidate index (num_skins or a failure: the checkerboard). */
static void load_skin(viewer *v, size_t index)
{
    tool_image img;
    v->skin = index;
    if (read_skin(v, index, &img)) {
        upload_texture(v->texture, img.width, img.height, img.rgba);
        tool_image_free(&img);
    } else {
        upload_texture(v->texture, 64, 64, checkerboard());
    }
}

/* Says which tags the body has, after an --attach that named none of them. */
static void unknown_tag(const viewer *v, const char *spec, const char *name)
{
    const md2_tags *tags = v->bundle->tags;
    size_t i;
    fprintf(stderr, "md2_view: --attach %s: %s has no tag named \"%s\"; its tag%s:", spec,
            v->opt.model, name, tags->num_tags == 1 ? "" : "s");
    for (i = 0; i < tags->num_tags; i++)
        fprintf(stderr, "%s %s", i ? "," : "", tags->names[i].name);
    fputc('\n', stderr);
}

/* Loads the models of --attach (with their side files), their meshes and
 * keyframe transforms, and finds their tags; 0 after saying why. */
static int load_attached(viewer *v)
{
    size_t i;
    for (i = 0; i < v->opt.num_attach; i++) {
        const char *spec = v->opt.attach[i], *eq = strchr(spec, '=');
        attachment *at = &v->attached[i];
        char name[MD2_TAG_NAME_SIZE + 1];
        size_t len = (size_t)(eq - spec);
        md2_options opts;
        md2_diagnostic diag;
        md2_mesh_options mopts;
        v->num_attached = i + 1;
        if (!v->bundle->tags) {
            fprintf(stderr, "md2_view: --attach %s: %s has no tags to attach to (no .tag file "
                    "beside it)\n", spec, v->opt.model);
            return 0;
        }
        memcpy(name, spec, len < sizeof name ? len : sizeof name - 1);
        name[len < sizeof name ? len : sizeof name - 1] = '\0';
        at->tag = len < sizeof name ? md2_tags_find(v->bundle->tags, name) : MD2_TAG_NOT_FOUND;
        if (at->tag == MD2_TAG_NOT_FOUND) {
            unknown_tag(v, spec, name);
            return 0;
        }
        memset(&opts, 0, sizeof opts);
        opts.error = &diag;
        if (md2_bundle_load_file(eq + 1, &opts, &at->bundle) != MD2_OK) {
            fprintf(stderr, "md2_view: --attach %s: %s\n", spec, diag.message);
            return 0;
        }
        memset(&mopts, 0, sizeof mopts);
        mopts.flags = MD2_MESH_COUNTER_CLOCKWISE;
        mopts.error = &diag;
        if (md2_mesh_build(at->bundle->model, &mopts, &at->mesh) != MD2_OK) {
            fprintf(stderr, "md2_view: --attach %s: cannot build the mesh: %s\n", spec,
                    diag.message);
            return 0;
        }
        at->transforms = (float *)malloc(at->bundle->model->num_frames * 6 *
                                         sizeof *at->transforms);
        if (!at->transforms) {
            fprintf(stderr, "md2_view: out of memory\n");
            return 0;
        }
        md2_frame_transforms(at->bundle->model, at->transforms);
    }
    return 1;
}

/* Loads the model, its animations and its mesh. */
static int select_level(viewer *v, size_t k);
static void release_gl(viewer *v);

static int load_model(viewer *v)
{
    md2_options opts;
    md2_diagnostic diag;
    size_t count;
    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    if (md2_bundle_load_file(v->opt.model, &opts, &v->bundle) != MD2_OK) {
        fprintf(stderr, "md2_view: %s\n", diag.message);
        return 0;
    }
    v->model = v->bundle->model;
    v->model_name = base_name(v->opt.model);
    /* every level has the model's frames and transforms */
    v->transforms = (float *)malloc(v->model->num_frames * 6 * sizeof *v->transforms);
    if (!v->transforms) {
        fprintf(stderr, "md2_view: out of memory\n");
        return 0;
    }
    md2_frame_transforms(v->model, v->transforms);

    /* the animations of the .anm or .framegroups file, else the frame names */
    count = v->bundle->num_anims;
    v->anims = (md2_anim *)calloc(count ? count : 1, sizeof *v->anims);
    if (!v->anims) {
        fprintf(stderr, "md2_view: out of memory\n");
        return 0;
    }
    if (count)
        memcpy(v->anims, v->bundle->anims, count * sizeof *v->anims);
    v->num_anims = count;
    if (v->num_anims == 0) {
        /* cannot happen for a loaded model (it has frames); be safe anyway */
        strcpy(v->anims[0].name, "all");
        v->anims[0].first = 0;
        v->anims[0].last = (uint32_t)(v->model->num_frames - 1);
        v->anims[0].fps = MD2_ANIM_DEFAULT_FPS;
        v->num_anims = 1;
    }

    v->source = v->model;
    v->num_levels = 1;
    if (v->opt.num_lod > 0) {
        md2_simplify_target t[MAX_LEVELS - 1];
        md2_simplify_options so;
        size_t i;
        memset(t, 0, sizeof t);
        for (i = 0; i < v->opt.num_lod; i++) {
            t[i].kind = MD2_SIMPLIFY_RATIO;
            t[i].value = v->opt.lod[i];
        }
        memset(&so, 0, sizeof so);
        so.flags = MD2_SIMPLIFY_NO_ERROR;
        so.error = &diag;
        if (md2_simplify(v->source, t, v->opt.num_lod, &so, v->lods) != MD2_OK) {
            fprintf(stderr, "md2_view: --lod: %s\n", diag.message);
            return 0;
        }
        v->num_levels = 1 + v->opt.num_lod;
    }
    return load_attached(v) && select_level(v, v->opt.level);
}

/* Shows level k (0: the model as loaded): its mesh, for the GPU path. */
static int select_level(viewer *v, size_t k)
{
    md2_diagnostic diag;
    md2_mesh_options mopts;
    md2_mesh_free(v->mesh);
    v->mesh = NULL;
    v->level = k;
    v->model = k == 0 ? v->source : v->lods[k - 1].model;
    memset(&mopts, 0, sizeof mopts);
    mopts.flags = MD2_MESH_COUNTER_CLOCKWISE;
    mopts.error = &diag;
    if (md2_mesh_build(v->model, &mopts, &v->mesh) != MD2_OK) {
        fprintf(stderr, "md2_view: cannot build the mesh: %s\n", diag.message);
        return 0;
    }
    if (v->mesh->num_indices == 0) {
        fprintf(stderr, "md2_view: %s has no triangles to draw\n", v->opt.model);
        return 0;
    }
    if (v->mesh->num_indices > 0x7fffffffu) {
        fprintf(stderr, "md2_view: %s has too many triangles\n", v->opt.model);
        return 0;
    }
    v->num_indices = (GLsizei)v->mesh->num_indices;
    return 1;
}

/* Uploads the morph data of every keyframe of m (mesh mesh), its
 * texcoords and its indices into new buffers and a vertex array that
 * points attribute 2 at the texcoords (attributes 0, 1, 3 and 4, the
 * keyframes, are pointed per draw: point_keyframes()). */
static int upload_morph(const md2_mesh *mesh, const md2_model *m, morph_buffers *g)
{
    size_t size = md2_mesh_morph_size(mesh, m);
    void *morph;
    md2_result r;
    int k;
    if (size == 0 || size > (size_t)0x7fffffff || mesh->num_indices > 0x7fffffffu) {
        fprintf(stderr, "md2_view: the model's keyframes do not fit one vertex buffer\n");
        return 0;
    }
    morph = malloc(size);
    if (!morph) {
        fprintf(stderr, "md2_view: out of memory\n");
        return 0;
    }
    r = md2_mesh_morph_data(mesh, m, morph, size);
    if (r != MD2_OK) {
        fprintf(stderr, "md2_view: md2_mesh_morph_data: %s\n", md2_result_string(r));
        free(morph);
        return 0;
    }
    g->frame_bytes = mesh->num_vertices * 4;
    g->num_indices = (GLsizei)mesh->num_indices;

    glGenVertexArrays(1, &g->vao);
    glBindVertexArray(g->vao);

    glGenBuffers(1, &g->morph_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, g->morph_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)size, morph, GL_STATIC_DRAW);
    free(morph);
    for (k = 0; k < 5; k++) {
        if (k != 2)
            glEnableVertexAttribArray((GLuint)k);
    }

    glGenBuffers(1, &g->uv_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, g->uv_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(mesh->num_vertices * 2 * sizeof(float)),
                 mesh->uv, GL_STATIC_DRAW);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(2);

    glGenBuffers(1, &g->ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(mesh->num_indices * sizeof(uint32_t)),
                 mesh->indices, GL_STATIC_DRAW);
    return 1;
}

static void release_morph(morph_buffers *g)
{
    if (g->ebo)
        glDeleteBuffers(1, &g->ebo);
    if (g->uv_vbo)
        glDeleteBuffers(1, &g->uv_vbo);
    if (g->morph_vbo)
        glDeleteBuffers(1, &g->morph_vbo);
    if (g->vao)
        glDeleteVertexArrays(1, &g->vao);
    memset(g, 0, sizeof *g);
}

/* Points attributes 0, 1, 3, 4 at keyframes frames[0..3] (A, B, C, D) of
 * the morph buffer of g, bound with its vertex array. */
static void point_keyframes(const morph_buffers *g, const uint32_t frames[4])
{
    static const GLuint location[4] = {0, 1, 3, 4};
    int k;
    glBindVertexArray(g->vao);
    glBindBuffer(GL_ARRAY_BUFFER, g->morph_vbo);
    for (k = 0; k < 4; k++)
        glVertexAttribIPointer(location[k], 4, GL_UNSIGNED_BYTE, 4,
                               (const void *)(uintptr_t)(frames[k] * g->frame_bytes));
}

/* The GPU path: uploads everything the GPU needs, once: the morph data
 * of every keyframe, the texcoords, the indices, the normal table, and the
 * first skin. */
static int upload_gpu(viewer *v)
{
    morph_buffers g;
    memset(&g, 0, sizeof g);
    v->program = build_program(vertex_shader_src);
    if (!v->program)
        return 0;
    v->u_scale_a = glGetUniformLocation(v->program, "u_scale_a");
    v->u_translate_a = glGetUniformLocation(v->program, "u_translate_a");
    v->u_scale_b = glGetUniformLocation(v->program, "u_scale_b");
    v->u_translate_b = glGetUniformLocation(v->program, "u_translate_b");
    v->u_t = glGetUniformLocation(v->program, "u_t");
    v->u_normals = glGetUniformLocation(v->program, "u_normals");
    if (!upload_morph(v->mesh, v->model, &g))
        return 0;
    v->vao = g.vao;
    v->morph_vbo = g.morph_vbo;
    v->uv_vbo = g.uv_vbo;
    v->ebo = g.ebo;
    v->frame_bytes = g.frame_bytes;

    glUseProgram(v->program);
    glUniform3fv(v->u_normals, MD2_NUM_NORMALS, md2_normal(0));

    glGenTextures(1, &v->texture);
    glActiveTexture(GL_TEXTURE0);
    load_skin(v, 0);
    return 1;
}

/* The CPU path (--cpu): the mesh, its buffers and the first skin's
 * texture through draw_cpu_upload(), the code README.md shows. */
static int upload_cpu(viewer *v)
{
    tool_image img;
    md2_image skin;
    int have = read_skin(v, 0, &img);

    v->skin = 0;
    v->program = build_program(cpu_vertex_shader_src);
    if (v->program) {
        /* draw_cpu_upload() takes the md2_image that md2_pcx_decode()
         * makes; md2_view also reads BMP, PNG, ... skins, so this one only
         * borrows the pixels that tool_image_read() read (for a PCX skin,
         * through md2_pcx_decode()) and is never md2_image_free()d */
        memset(&skin, 0, sizeof skin);
        skin.width = have ? (uint32_t)img.width : 64;
        skin.height = have ? (uint32_t)img.height : 64;
        skin.rgba = have ? img.rgba : checkerboard();
        glActiveTexture(GL_TEXTURE0);
        v->cpu_mesh = draw_cpu_upload(v->model, &skin, &v->vao, &v->vertex_vbo, &v->ebo,
                                      &v->texture);
        if (!v->cpu_mesh)
            fprintf(stderr, "md2_view: draw_cpu_upload: cannot build the mesh\n");
    }
    if (have)
        tool_image_free(&img);
    return v->program && v->cpu_mesh;
}

/* The light: from the front (+X), above and to the model's right. */
static void set_light(GLint location)
{
    const float l[3] = {0.75f, -0.35f, 0.56f};
    float n = sqrtf(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    glUniform3f(location, l[0] / n, l[1] / n, l[2] / n);
}

/* The fade program, for the GPU path's cross-fades and attached models. */
static int build_fade_program(viewer *v)
{
    fade_program *f = &v->fade;
    f->id = build_program(fade_vertex_shader_src);
    if (!f->id)
        return 0;
    f->u_mvp = glGetUniformLocation(f->id, "u_mvp");
    f->u_scale = glGetUniformLocation(f->id, "u_scale");
    f->u_translate = glGetUniformLocation(f->id, "u_translate");
    f->u_t = glGetUniformLocation(f->id, "u_t");
    f->u_from_t = glGetUniformLocation(f->id, "u_from_t");
    f->u_weight = glGetUniformLocation(f->id, "u_weight");
    f->u_normals = glGetUniformLocation(f->id, "u_normals");
    f->u_skin = glGetUniformLocation(f->id, "u_skin");
    f->u_lit = glGetUniformLocation(f->id, "u_lit");
    f->u_light_dir = glGetUniformLocation(f->id, "u_light_dir");
    glUseProgram(f->id);
    glUniform3fv(f->u_normals, MD2_NUM_NORMALS, md2_normal(0));
    glUniform1i(f->u_skin, 0);
    set_light(f->u_light_dir);
    return 1;
}

/* The GPU buffers and the skin texture of each attached model (its own
 * skin found beside it, else the checkerboard). */
static int upload_attached(viewer *v)
{
    size_t i, k;
    for (i = 0; i < v->num_attached; i++) {
        attachment *at = &v->attached[i];
        const md2_model *m = at->bundle->model;
        const char *path = strchr(v->opt.attach[i], '=') + 1;
        tool_image img;
        char found[MD2_SKIN_PATH_MAX], err[512];
        int have = 0;
        if (!upload_morph(at->mesh, m, &at->gl))
            return 0;
        glGenTextures(1, &at->texture);
        for (k = 0; k < m->num_skins && !have; k++) {
            if (md2_skin_find(path, m->skins[k].name, v->opt.game, accept_existing, NULL, found,
                              sizeof found) == MD2_OK) {
                have = tool_image_read(found, &img, err, sizeof err);
                if (!have)
                    fprintf(stderr, "md2_view: --attach %s: %s\n", v->opt.attach[i], err);
            }
        }
        if (have) {
            upload_texture(at->texture, img.width, img.height, img.rgba);
            tool_image_free(&img);
        } else {
            upload_texture(at->texture, 64, 64, checkerboard());
        }
    }
    return 1;
}

/* The program of the chosen path, its buffers and texture, and the
 * uniforms both paths share. */
static int upload_model(viewer *v)
{
    if (!(v->opt.cpu ? upload_cpu(v) : upload_gpu(v)))
        return 0;
    if ((!v->opt.cpu || v->num_attached) && (!build_fade_program(v) || !upload_attached(v)))
        return 0;
    v->u_mvp = glGetUniformLocation(v->program, "u_mvp");
    v->u_skin = glGetUniformLocation(v->program, "u_skin");
    v->u_lit = glGetUniformLocation(v->program, "u_lit");
    v->u_light_dir = glGetUniformLocation(v->program, "u_light_dir");
    glUseProgram(v->program);
    glUniform1i(v->u_skin, 0);
    set_light(v->u_light_dir);
    return 1;
}

/* Grows lo..hi by the box mn..mx, its corners placed by matrix (NULL: as
 * it is). */
static void grow_box(float lo[3], float hi[3], const float mn[3], const float mx[3],
                     const float *matrix)
{
    int corner, i;
    for (corner = 0; corner < 8; corner++) {
        float p[3], q[3];
        for (i = 0; i < 3; i++)
            p[i] = (corner & (1 << i)) ? mx[i] : mn[i];
        for (i = 0; i < 3; i++)
            q[i] = matrix ? matrix[i] * p[0] + matrix[4 + i] * p[1] + matrix[8 + i] * p[2] +
                                matrix[12 + i]
                          : p[i];
        for (i = 0; i < 3; i++) {
            if (q[i] < lo[i])
                lo[i] = q[i];
            if (q[i] > hi[i])
                hi[i] = q[i];
        }
    }
}

/* Grows lo..hi by each attached model's box at the body's keyframe f: its
 * keyframe (clamped) placed on the tag's keyframe (clamped). */
static void grow_by_attached(const viewer *v, uint32_t f, float lo[3], float hi[3])
{
    size_t i;
    for (i = 0; i < v->num_attached; i++) {
        const attachment *at = &v->attached[i];
        const md2_tags *tags = v->bundle->tags;
        const md2_model *m = at->bundle->model;
        uint32_t tf = f < tags->num_frames ? f : (uint32_t)(tags->num_frames - 1);
        uint32_t mf = f < m->num_frames ? f : (uint32_t)(m->num_frames - 1);
        float tag[16], mn[3], mx[3];
        if (md2_tag_lerp(tags, at->tag, tf, tf, 0.0f, tag) == MD2_OK &&
            md2_frame_bounds(m, mf, mn, mx) == MD2_OK)
            grow_box(lo, hi, mn, mx, tag);
    }
}

/* Camera target and size from the box of keyframes first..last, the
 * attached models on their tags included, fitted as seen from the camera's
 * direction now (view_fit()). */
static void frame_camera(viewer *v, uint32_t first, uint32_t last)
{
    float lo[3], hi[3], mn[3], mx[3];
    uint32_t f;
    int i;
    double r2 = 0.0;
    md2_frame_bounds(v->model, first, lo, hi);
    grow_by_attached(v, first, lo, hi);
    for (f = first + 1; f <= last && f > first; f++) {
        if (md2_frame_bounds(v->model, f, mn, mx) != MD2_OK)
            break;
        grow_box(lo, hi, mn, mx, NULL);
        grow_by_attached(v, f, lo, hi);
    }
    for (i = 0; i < 3; i++) {
        double e = ((double)hi[i] - lo[i]) / 2.0;
        v->center[i] = ((double)hi[i] + lo[i]) / 2.0;
        v->lo[i] = lo[i];
        v->hi[i] = hi[i];
        r2 += e * e;
    }
    v->radius = sqrt(r2);
    if (!(v->radius > 1e-3))
        v->radius = 1.0;
    v->fit_yaw = v->yaw;
    v->fit_pitch = v->pitch;
}

/* The eye's distance (*dist0, perspective) and the half height of the view
 * (*half0, orthographic) at which the box lo..hi, seen from fit_yaw and
 * fit_pitch, fills a picture of aspect w / h: its 8 corners project inside
 * the picture with FIT_MARGIN to spare on the side that limits them. The
 * eye stays 1.05 radii away at least, outside the box from any side. */
static void view_fit(const viewer *v, double aspect, double *dist0, double *half0)
{
    double cp = cos(v->fit_pitch);
    double dir[3], side[3], up[3], len;
    double ty = tan(FOVY_DEGREES * VIEW_PI / 360.0), tx = ty * aspect;
    double d = 1.05 * v->radius, half = 0.0;
    int k, i;
    dir[0] = cp * cos(v->fit_yaw); /* from the centre to the eye */
    dir[1] = cp * sin(v->fit_yaw);
    dir[2] = sin(v->fit_pitch);
    side[0] = dir[1]; /* -dir x (0, 0, 1): the picture's right */
    side[1] = -dir[0];
    side[2] = 0.0;
    len = sqrt(side[0] * side[0] + side[1] * side[1]);
    if (len < 1e-9) { /* straight down or up: any right will do */
        side[0] = 0.0;
        side[1] = 1.0;
        len = 1.0;
    }
    side[0] /= len;
    side[1] /= len;
    up[0] = -dir[2] * side[1]; /* side x -dir: the picture's up */
    up[1] = dir[2] * side[0];
    up[2] = dir[0] * side[1] - dir[1] * side[0];
    for (k = 0; k < 8; k++) {
        double p[3], x = 0.0, y = 0.0, z = 0.0, need;
        p[0] = ((k & 1) ? v->hi[0] : v->lo[0]) - v->center[0];
        p[1] = ((k & 2) ? v->hi[1] : v->lo[1]) - v->center[1];
        p[2] = ((k & 4) ? v->hi[2] : v->lo[2]) - v->center[2];
        for (i = 0; i < 3; i++) {
            x += p[i] * side[i];
            y += p[i] * up[i];
            z += p[i] * dir[i];
        }
        x = fabs(x) * FIT_MARGIN;
        y = fabs(y) * FIT_MARGIN;
        need = z + (x / tx > y / ty ? x / tx : y / ty);
        if (need > d)
            d = need;
        if (y > half)
            half = y;
        if (x / aspect > half)
            half = x / aspect;
    }
    *dist0 = d;
    *half0 = half > 1e-6 ? half : v->radius;
}

/* The model-view-projection matrix for a picture of w x h pixels. */
static void camera_mvp(const viewer *v, int w, int h, float mvp[16])
{
    double aspect = (double)w / (double)h;
    double cp = cos(v->pitch), dist0, half0, eye_dist;
    double eye[3], up[3] = {0.0, 0.0, 1.0};
    double n, f;
    float view[16], proj[16];
    view_fit(v, aspect, &dist0, &half0);
    eye_dist = v->ortho ? dist0 : dist0 / v->zoom;
    eye[0] = v->center[0] + eye_dist * cp * cos(v->yaw);
    eye[1] = v->center[1] + eye_dist * cp * sin(v->yaw);
    eye[2] = v->center[2] + eye_dist * sin(v->pitch);
    mat_look_at(view, eye, v->center, up);
    n = eye_dist - 1.5 * v->radius;
    if (n < eye_dist * 0.01)
        n = eye_dist * 0.01;
    f = eye_dist + 1.5 * v->radius;
    if (v->ortho) /* the same fit, and zoomed by the same factor */
        mat_ortho(proj, half0 / v->zoom * aspect, half0 / v->zoom, n, f);
    else
        mat_perspective(proj, FOVY_DEGREES * VIEW_PI / 180.0, aspect, n, f);
    mat_mul(mvp, proj, view);
}

/* The fade program's uniforms for keyframes A, B, C, D of frames (their
 * transforms in transforms) and the blend of st, and one draw of g. */
static void draw_fade(const viewer *v, const morph_buffers *g, const float *transforms,
                      const uint32_t frames[4], const md2_player_frames *st,
                      const float mvp[16])
{
    const fade_program *f = &v->fade;
    float scale[12], translate[12];
    int k, c;
    for (k = 0; k < 4; k++)
        for (c = 0; c < 3; c++) {
            scale[3 * k + c] = transforms[6 * (size_t)frames[k] + (size_t)c];
            translate[3 * k + c] = transforms[6 * (size_t)frames[k] + 3 + (size_t)c];
        }
    glUseProgram(f->id);
    glUniformMatrix4fv(f->u_mvp, 1, GL_FALSE, mvp);
    glUniform1i(f->u_lit, v->lit);
    glUniform3fv(f->u_scale, 4, scale);
    glUniform3fv(f->u_translate, 4, translate);
    glUniform1f(f->u_t, st->t);
    glUniform1f(f->u_from_t, st->from_t);
    glUniform1f(f->u_weight, st->weight);
    point_keyframes(g, frames);
    glDrawElements(GL_TRIANGLES, g->num_indices, GL_UNSIGNED_INT, NULL);
}

/* The blend an attached model of n keyframes shows when the body shows
 * st: every frame clamped to its last (md2_player_pose_linked()), and a
 * fade between one pose and itself shown as that pose. */
static void linked_frames(const md2_player_frames *st, size_t n, md2_player_frames *out,
                          uint32_t frames[4])
{
    uint32_t last = (uint32_t)(n - 1);
    *out = *st;
    frames[0] = st->frame_a < last ? st->frame_a : last;
    frames[1] = st->frame_b < last ? st->frame_b : last;
    frames[2] = st->from_a < last ? st->from_a : last;
    frames[3] = st->from_b < last ? st->from_b : last;
    if (out->weight >= 1.0f || (frames[0] == frames[2] && frames[1] == frames[3] &&
                                (frames[0] == frames[1] || st->t == st->from_t))) {
        out->weight = 1.0f;
        frames[2] = frames[0];
        frames[3] = frames[1];
    }
}

/* The model-to-world transform of attached model at for the pose the
 * player shows (md2_player_tag(), md2_attach()); 0 if it has none. */
static int attached_matrix(const viewer *v, const attachment *at, float matrix[16])
{
    float identity[16], tag[16];
    mat_identity(identity);
    return md2_player_tag(&v->player, v->bundle->tags, at->tag, tag) == MD2_OK &&
           md2_attach(identity, tag, matrix) == MD2_OK;
}

/* Draws the pose st with the given matrix into the bound framebuffer
 * (viewport already set), and the attached models on their tags. The CPU
 * path draws the pose v->player shows instead (cross-fades included),
 * which the callers make st. */
static void draw_pose(const viewer *v, const float mvp[16], const md2_player_frames *st)
{
    GLint min_filter = v->lit ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST;
    GLint mag_filter = v->lit ? GL_LINEAR : GL_NEAREST;
    size_t i;

    glClearColor(v->opt.bg[0] / 255.0f, v->opt.bg[1] / 255.0f, v->opt.bg[2] / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW); /* the mesh was built with MD2_MESH_COUNTER_CLOCKWISE */
    glPolygonMode(GL_FRONT_AND_BACK, v->wireframe ? GL_LINE : GL_FILL);

    glUseProgram(v->program);
    glUniformMatrix4fv(v->u_mvp, 1, GL_FALSE, mvp);
    glUniform1i(v->u_lit, v->lit);

    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, v->texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, min_filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, mag_filter);

    if (v->opt.cpu) {
        /* the player's pose into the vertex buffer, and one draw */
        draw_cpu_frame(v->cpu_mesh, v->model, &v->player, v->vao, v->vertex_vbo);
    } else {
        morph_buffers g;
        uint32_t frames[4];
        g.vao = v->vao;
        g.morph_vbo = v->morph_vbo;
        g.frame_bytes = v->frame_bytes;
        g.num_indices = v->num_indices;
        frames[0] = st->frame_a;
        frames[1] = st->frame_b;
        frames[2] = st->weight < 1.0f ? st->from_a : st->frame_a;
        frames[3] = st->weight < 1.0f ? st->from_b : st->frame_b;
        if (st->weight < 1.0f) {
            /* a cross-fade: four keyframes */
            draw_fade(v, &g, v->transforms, frames, st, mvp);
        } else {
            const float *ta = v->transforms + 6 * (size_t)st->frame_a;
            const float *tb = v->transforms + 6 * (size_t)st->frame_b;
            glUniform3fv(v->u_scale_a, 1, ta);
            glUniform3fv(v->u_translate_a, 1, ta + 3);
            glUniform3fv(v->u_scale_b, 1, tb);
            glUniform3fv(v->u_translate_b, 1, tb + 3);
            glUniform1f(v->u_t, st->t);
            /* point the keyframe attributes at their parts of the morph buffer */
            point_keyframes(&g, frames);
            glDrawElements(GL_TRIANGLES, v->num_indices, GL_UNSIGNED_INT, NULL);
        }
    }
    for (i = 0; i < v->num_attached; i++) {
        const attachment *at = &v->attached[i];
        md2_player_frames linked;
        uint32_t frames[4];
        float place[16], child_mvp[16];
        if (!attached_matrix(v, at, place))
            continue;
        mat_mul(child_mvp, mvp, place);
        linked_frames(st, at->bundle->model->num_frames, &linked, frames);
        glBindTexture(GL_TEXTURE_2D, at->texture);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, min_filter);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, mag_filter);
        draw_fade(v, &at->gl, at->transforms, frames, &linked, child_mvp);
    }
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
}

/* ------------------------------------------------------------------------ */
/* Screenshot mode                                                           */
/* ------------------------------------------------------------------------ */

/* Writes rgb (w * h * 3 bytes, top row first) as PNG when path ends in
 * .png (and stb_image_write is there), else as binary PPM. */
static int write_picture(const char *path, int w, int h, const unsigned char *rgb)
{
    size_t n = strlen(path);
    FILE *f;
    int ok;
    if (n >= 4 && (strcmp(path + n - 4, ".png") == 0 || strcmp(path + n - 4, ".PNG") == 0)) {
#ifdef MD2_VIEW_HAVE_STB_WRITE
        if (!stbi_write_png(path, w, h, 3, rgb, w * 3)) {
            fprintf(stderr, "md2_view: cannot write %s\n", path);
            return 0;
        }
        return 1;
#else
        fprintf(stderr, "md2_view: built without stb_image_write: writing %s as PPM\n", path);
#endif
    }
    f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "md2_view: cannot create %s\n", path);
        return 0;
    }
    fprintf(f, "P6\n%d %d\n255\n", w, h);
    ok = fwrite(rgb, 3, (size_t)w * (size_t)h, f) == (size_t)w * (size_t)h;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        fprintf(stderr, "md2_view: cannot write %s\n", path);
    return ok;
}

/* Prints where point p (3 floats) projects with mvp, in image pixels
 * (y down; pixel (i, j) covers [i, i + 1) x [j, j + 1)). */
static void print_projected_point(const char *label, const float mvp[16], const float p[3],
                                  int w, int h)
{
    double c[4];
    int r;
    for (r = 0; r < 4; r++)
        c[r] = (double)mvp[r] * p[0] + (double)mvp[4 + r] * p[1] + (double)mvp[8 + r] * p[2] +
               mvp[12 + r];
    printf("%s %.2f %.2f\n", label, (c[0] / c[3] * 0.5 + 0.5) * w, (0.5 - c[1] / c[3] * 0.5) * h);
}

/* A pixel coordinate as a long, kept to +-1e6 (NaN: 0). */
static long pixel_index(double x)
{
    if (!(x == x))
        return 0;
    if (x > 1e6)
        return 1000000L;
    if (x < -1e6)
        return -1000000L;
    return (long)x;
}

/* Prints the pixel box (x0 y0 x1 y1, inclusive, y down) that covers the
 * projections of points[0..count) (3 floats each). */
static void print_projected_box(const char *label, const float mvp[16], const float *points,
                                size_t count, int w, int h)
{
    double lo_x = 1e300, lo_y = 1e300, hi_x = -1e300, hi_y = -1e300;
    size_t i;
    for (i = 0; i < count; i++) {
        const float *p = points + 3 * i;
        double c[4];
        int r;
        for (r = 0; r < 4; r++)
            c[r] = (double)mvp[r] * p[0] + (double)mvp[4 + r] * p[1] +
                   (double)mvp[8 + r] * p[2] + mvp[12 + r];
        {
            double x = (c[0] / c[3] * 0.5 + 0.5) * w;
            double y = (0.5 - c[1] / c[3] * 0.5) * h;
            if (x < lo_x)
                lo_x = x;
            if (x > hi_x)
                hi_x = x;
            if (y < lo_y)
                lo_y = y;
            if (y > hi_y)
                hi_y = y;
        }
    }
    /* the pixels whose centres (i + 0.5) lie inside */
    printf("%s %ld %ld %ld %ld\n", label, pixel_index(ceil(lo_x - 0.5)),
           pixel_index(ceil(lo_y - 0.5)), pixel_index(floor(hi_x - 0.5)),
           pixel_index(floor(hi_y - 0.5)));
}

/* A once-animation of keyframes a..b, held (rate 0). */
static md2_anim held_anim(const char *name, uint32_t a, uint32_t b)
{
    md2_anim anim;
    memset(&anim, 0, sizeof anim);
    strcpy(anim.name, name);
    anim.first = a;
    anim.last = b;
    return anim;
}

/* Screenshot: makes the player show keyframe a blended towards b by t (a
 * once-animation of a..b held at rate 0, seeked to t), with --from: in a
 * cross-fade from keyframe from blended towards from + 1 by --from-t, at
 * weight --weight (the fade, 1 second long, advanced by that many seconds
 * with both animations held); and checks that it does. */
static int player_show(viewer *v, uint32_t a, uint32_t b, float t, md2_player_frames *st)
{
    md2_anim anim = held_anim("screenshot", a, b), from;
    int same, fade = v->opt.from >= 0;
    md2_result r;
    md2_player_init(&v->player);
    if (fade) {
        uint32_t fa = (uint32_t)v->opt.from;
        from = held_anim("from", fa, fa + 1 < v->model->num_frames ? fa + 1 : fa);
        r = md2_player_play(&v->player, &from, MD2_PLAY_ONCE, 0.0f);
        if (r == MD2_OK)
            r = md2_player_seek(&v->player, (double)v->opt.from_t);
        if (r == MD2_OK)
            r = md2_player_crossfade(&v->player, &anim, MD2_PLAY_ONCE, 0.0f, 1.0f);
        if (r == MD2_OK)
            r = md2_player_seek(&v->player, (double)t);
        if (r == MD2_OK)
            md2_player_advance(&v->player, (double)v->opt.weight);
    } else {
        r = md2_player_play(&v->player, &anim, MD2_PLAY_ONCE, 0.0f);
        if (r == MD2_OK)
            r = md2_player_seek(&v->player, (double)t);
    }
    if (r != MD2_OK) {
        fprintf(stderr, "md2_view: the player cannot show keyframe %lu: %s\n", (unsigned long)a,
                md2_result_string(r));
        return 0;
    }
    md2_player_state(&v->player, st);
    /* the same pose: the same frames and t, or the same keyframe (a at t 0
     * or when a == b, b at t 1) */
    same = (st->frame_a == a && st->frame_b == b && st->t == t) ||
           (st->t == 0.0f && (t == 0.0f || a == b) && st->frame_a == a) ||
           (st->t == 0.0f && t == 1.0f && st->frame_a == b);
    same = same && (fade ? fabsf(st->weight - v->opt.weight) < 1e-6f || v->opt.weight >= 1.0f
                         : st->weight == 1.0f);
    if (!same) {
        fprintf(stderr, "md2_view: the player shows keyframes %lu %lu at %g (weight %g), not "
                "%lu %lu at %g\n", (unsigned long)st->frame_a, (unsigned long)st->frame_b,
                (double)st->t, (double)st->weight, (unsigned long)a, (unsigned long)b, (double)t);
        return 0;
    }
    return 1;
}

/* Prints, for each attached model, the pixel its tag's origin (the
 * attached model's origin: a weapon's grip) projects to with mvp, and the
 * box of its projected vertices in the pose md2_player_pose_linked()
 * gives. */
static int print_attached(const viewer *v, const float mvp[16], const md2_player_frames *st,
                          int w, int h)
{
    size_t i;
    for (i = 0; i < v->num_attached; i++) {
        const attachment *at = &v->attached[i];
        const md2_model *m = at->bundle->model;
        md2_player_frames linked;
        uint32_t frames[4];
        float place[16], child_mvp[16], origin[3] = {0.0f, 0.0f, 0.0f}, *pos;
        size_t n = m->num_vertices;
        if (!attached_matrix(v, at, place))
            return 0;
        mat_mul(child_mvp, mvp, place);
        linked_frames(st, m->num_frames, &linked, frames);
        pos = (float *)malloc(n * 3 * sizeof *pos);
        if (!pos) {
            fprintf(stderr, "md2_view: out of memory\n");
            return 0;
        }
        /* the pose the library gives a linked model (not the shader's
         * code): the GPU's picture is checked against it */
        if (md2_player_pose_linked(&v->player, m, pos, 0, NULL, 0) != MD2_OK) {
            fprintf(stderr, "md2_view: md2_player_pose_linked failed\n");
            free(pos);
            return 0;
        }
        printf("attach %lu %s keyframes %lu %lu\n", (unsigned long)i, v->opt.attach[i],
               (unsigned long)frames[0], (unsigned long)frames[1]);
        print_projected_point("attach-origin", child_mvp, origin, w, h);
        print_projected_box("attach-vertex-bbox", child_mvp, pos, n, w, h);
        free(pos);
    }
    return 1;
}

/* The first..last range of the keyframes st shows. */
static void shown_range(const md2_player_frames *st, uint32_t *first, uint32_t *last)
{
    uint32_t f[4];
    int k;
    f[0] = st->frame_a;
    f[1] = st->frame_b;
    f[2] = st->weight < 1.0f ? st->from_a : st->frame_a;
    f[3] = st->weight < 1.0f ? st->from_b : st->frame_b;
    *first = *last = f[0];
    for (k = 1; k < 4; k++) {
        if (f[k] < *first)
            *first = f[k];
        if (f[k] > *last)
            *last = f[k];
    }
}

static int screenshot(viewer *v, uint32_t a, uint32_t b, float t)
{
    int w = v->opt.width ? v->opt.width : 640, h = v->opt.height ? v->opt.height : 480;
    GLuint fbo = 0, color = 0, depth = 0;
    GLint max_rb = 0;
    float mvp[16];
    unsigned char *pixels, *rgb;
    float *pose, corners[8 * 3], lo[3], hi[3];
    md2_vertex_layout layout;
    md2_player_frames st;
    uint32_t first, last;
    size_t i;
    int y, ok;
    GLenum err;

    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_rb);
    if (w > max_rb || h > max_rb) {
        fprintf(stderr, "md2_view: %dx%d is larger than this OpenGL allows (%d)\n", w, h,
                (int)max_rb);
        return 0;
    }
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &color);
    glBindRenderbuffer(GL_RENDERBUFFER, color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    glGenRenderbuffers(1, &depth);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "md2_view: the offscreen framebuffer is not complete\n");
        return 0;
    }

    if (!player_show(v, a, b, t, &st))
        return 0;
    shown_range(&st, &first, &last);
    if (!v->opt.frame_given) { /* framed as the animation plays it */
        if (v->anims[v->anim].first < first)
            first = v->anims[v->anim].first;
        if (v->anims[v->anim].last > last)
            last = v->anims[v->anim].last;
    }
    frame_camera(v, first, last);
    camera_mvp(v, w, h, mvp);
    glViewport(0, 0, w, h);
    glDisable(GL_DITHER);
    glDisable(GL_MULTISAMPLE);
    draw_pose(v, mvp, &st);
    glFinish();

    pixels = (unsigned char *)malloc((size_t)w * (size_t)h * 3 * 2);
    if (!pixels) {
        fprintf(stderr, "md2_view: out of memory\n");
        return 0;
    }
    rgb = pixels + (size_t)w * (size_t)h * 3;
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, pixels);
    err = glGetError();
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "md2_view: OpenGL error 0x%x\n", (unsigned)err);
        free(pixels);
        return 0;
    }
    /* OpenGL's row 0 is the bottom one; images start at the top */
    for (y = 0; y < h; y++)
        memcpy(rgb + (size_t)y * w * 3, pixels + (size_t)(h - 1 - y) * w * 3, (size_t)w * 3);
    ok = write_picture(v->opt.screenshot, w, h, rgb);
    free(pixels);
    glDeleteRenderbuffers(1, &color);
    glDeleteRenderbuffers(1, &depth);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    if (!ok)
        return 0;

    /* The drawn pose on the CPU: its box, projected with the same matrix. */
    pose = (float *)malloc(v->mesh->num_vertices * 3 * sizeof *pose);
    if (!pose) {
        fprintf(stderr, "md2_view: out of memory\n");
        return 0;
    }
    memset(&layout, 0, sizeof layout);
    layout.stride = 3 * sizeof(float);
    layout.position_offset = 0;
    layout.normal_offset = MD2_ATTRIBUTE_NONE;
    layout.uv_offset = MD2_ATTRIBUTE_NONE;
    if (md2_mesh_pose(v->mesh, v->model, &v->player, pose, &layout) != MD2_OK) {
        fprintf(stderr, "md2_view: md2_mesh_pose failed\n");
        free(pose);
        return 0;
    }
    for (i = 0; i < 3; i++)
        lo[i] = hi[i] = pose[i];
    for (i = 1; i < v->mesh->num_vertices; i++) {
        int k;
        for (k = 0; k < 3; k++) {
            float c = pose[3 * i + (size_t)k];
            if (c < lo[k])
                lo[k] = c;
            if (c > hi[k])
                hi[k] = c;
        }
    }
    for (i = 0; i < 8; i++) {
        corners[3 * i + 0] = (i & 1) ? hi[0] : lo[0];
        corners[3 * i + 1] = (i & 2) ? hi[1] : lo[1];
        corners[3 * i + 2] = (i & 4) ? hi[2] : lo[2];
    }
    printf("screenshot %s %dx%d frames %lu %lu t %g\n", v->opt.screenshot, w, h,
           (unsigned long)a, (unsigned long)b, (double)t);
    if (st.weight < 1.0f)
        printf("fade from %lu %lu t %g weight %g\n", (unsigned long)st.from_a,
               (unsigned long)st.from_b, (double)st.from_t, (double)st.weight);
    printf("anim %s %lu %lu\n", v->anims[v->anim].name, (unsigned long)v->anims[v->anim].first,
           (unsigned long)v->anims[v->anim].last);
    printf("pose-bounds %g %g %g %g %g %g\n", (double)lo[0], (double)lo[1], (double)lo[2],
           (double)hi[0], (double)hi[1], (double)hi[2]);
    print_projected_box("projected-bbox", mvp, corners, 8, w, h);
    printf("triangles %lu\n", (unsigned long)v->model->num_triangles);
    print_projected_box("projected-vertex-bbox", mvp, pose, v->mesh->num_vertices, w, h);
    free(pose);
    return print_attached(v, mvp, &st, w, h);
}

/* ------------------------------------------------------------------------ */
/* Interactive mode                                                          */
/* ------------------------------------------------------------------------ */

/* Plays animation index from its start, framed (frame_camera()) over its
 * keyframes. fade: cross-fade to it from what plays (both paths draw
 * cross-fades). */
static void play_anim(viewer *v, size_t index, int fade)
{
    md2_result r;
    v->anim = index;
    if (fade)
        r = md2_player_crossfade(&v->player, &v->anims[index], MD2_PLAY_LOOP, MD2_RATE_ANIM,
                                 CROSSFADE_SECONDS);
    else
        r = md2_player_play(&v->player, &v->anims[index], MD2_PLAY_LOOP, MD2_RATE_ANIM);
    if (r != MD2_OK)
        fprintf(stderr, "md2_view: cannot play %s: %s\n", v->anims[index].name,
                md2_result_string(r));
    frame_camera(v, v->anims[index].first, v->anims[index].last);
}

static void on_key(GLFWwindow *window, int key, int scancode, int action, int mods)
{
    viewer *v = (viewer *)glfwGetWindowUserPointer(window);
    (void)scancode;
    (void)mods;
    if (action != GLFW_PRESS && action != GLFW_REPEAT)
        return;
    switch (key) {
    case GLFW_KEY_ESCAPE:
        glfwSetWindowShouldClose(window, GLFW_TRUE);
        break;
    case GLFW_KEY_RIGHT:
    case GLFW_KEY_N:
        play_anim(v, (v->anim + 1) % v->num_anims, 1);
        break;
    case GLFW_KEY_LEFT:
    case GLFW_KEY_P:
        play_anim(v, (v->anim + v->num_anims - 1) % v->num_anims, 1);
        break;
    case GLFW_KEY_S:
        if (action == GLFW_PRESS && v->num_skins > 1)
            load_skin(v, (v->skin + 1) % v->num_skins);
        break;
    case GLFW_KEY_W:
        if (action == GLFW_PRESS)
            v->wireframe = !v->wireframe;
        break;
    case GLFW_KEY_L:
        if (action == GLFW_PRESS)
            v->lit = !v->lit;
        break;
    case GLFW_KEY_O:
        if (action == GLFW_PRESS)
            v->ortho = !v->ortho;
        break;
    case GLFW_KEY_D:
        if (action == GLFW_PRESS && v->num_levels > 1) {
            size_t skin = v->skin;
            release_gl(v);
            if (!select_level(v, (v->level + 1) % v->num_levels) || !upload_model(v))
                glfwSetWindowShouldClose(window, GLFW_TRUE);
            else if (skin != v->skin && !v->opt.cpu)
                load_skin(v, skin);
        }
        break;
    case GLFW_KEY_SPACE:
        if (action == GLFW_PRESS)
            v->paused = !v->paused;
        break;
    default:
        break;
    }
}

static void on_button(GLFWwindow *window, int button, int action, int mods)
{
    viewer *v = (viewer *)glfwGetWindowUserPointer(window);
    (void)mods;
    if (button != GLFW_MOUSE_BUTTON_LEFT)
        return;
    v->dragging = action == GLFW_PRESS;
    if (v->dragging)
        glfwGetCursorPos(window, &v->drag_x, &v->drag_y);
}

static void on_cursor(GLFWwindow *window, double x, double y)
{
    viewer *v = (viewer *)glfwGetWindowUserPointer(window);
    double limit = 89.0 * VIEW_PI / 180.0;
    if (!v->dragging)
        return;
    v->yaw -= (x - v->drag_x) * 0.01;
    v->pitch += (y - v->drag_y) * 0.01;
    if (v->pitch > limit)
        v->pitch = limit;
    if (v->pitch < -limit)
        v->pitch = -limit;
    v->drag_x = x;
    v->drag_y = y;
}

static void on_scroll(GLFWwindow *window, double dx, double dy)
{
    viewer *v = (viewer *)glfwGetWindowUserPointer(window);
    (void)dx;
    v->zoom /= pow(0.9, dy);
    if (v->zoom > 20.0)
        v->zoom = 20.0;
    if (v->zoom < 0.05)
        v->zoom = 0.05;
}

static void update_title(viewer *v, const md2_player_frames *st)
{
    char title[sizeof v->title];
    const char *skin = v->skin < v->num_skins ? base_name(v->skin_paths[v->skin]) : "checkerboard";
    snprintf(title, sizeof title,
             "md2_view - %s - %s (%zu/%zu)%s - frame %lu %s%s - skin %s%s - level %zu/%zu: %zu triangles",
             v->model_name, v->anims[v->anim].name, v->anim + 1, v->num_anims,
             st->weight < 1.0f ? " fading in" : "", (unsigned long)st->frame_a,
             v->model->frames[st->frame_a].name, v->paused ? " - paused" : "", skin,
             v->opt.cpu ? " - CPU path" : "", v->level, v->num_levels - 1,
             v->model->num_triangles);
    if (strcmp(title, v->title) != 0) {
        memcpy(v->title, title, sizeof title);
        glfwSetWindowTitle(v->window, title);
    }
}

static void run_interactive(viewer *v)
{
    double last = glfwGetTime();
    int w, h;
    glfwGetFramebufferSize(v->window, &w, &h);
    glfwSetKeyCallback(v->window, on_key);
    glfwSetMouseButtonCallback(v->window, on_button);
    glfwSetCursorPosCallback(v->window, on_cursor);
    glfwSetScrollCallback(v->window, on_scroll);
    glfwSwapInterval(1);
    while (!glfwWindowShouldClose(v->window)) {
        double now = glfwGetTime();
        md2_player_frames st;
        if (!v->paused)
            md2_player_advance(&v->player, now - last);
        last = now;
        md2_player_state(&v->player, &st);
        glfwGetFramebufferSize(v->window, &w, &h);
        if (w > 0 && h > 0) {
            float mvp[16];
            glViewport(0, 0, w, h);
            camera_mvp(v, w, h, mvp);
            draw_pose(v, mvp, &st);
        }
        update_title(v, &st);
        glfwSwapBuffers(v->window);
        glfwPollEvents();
    }
}

/* ------------------------------------------------------------------------ */
/* Main                                                                      */
/* ------------------------------------------------------------------------ */

static void on_glfw_error(int code, const char *message)
{
    fprintf(stderr, "md2_view: GLFW error 0x%x: %s\n", (unsigned)code, message);
}

/* Deletes the GL objects of the model shown (and --cpu's mesh). */
static void release_gl(viewer *v)
{
    size_t i;
    if (v->texture)
        glDeleteTextures(1, &v->texture);
    if (v->ebo)
        glDeleteBuffers(1, &v->ebo);
    if (v->uv_vbo)
        glDeleteBuffers(1, &v->uv_vbo);
    if (v->vertex_vbo)
        glDeleteBuffers(1, &v->vertex_vbo);
    if (v->morph_vbo)
        glDeleteBuffers(1, &v->morph_vbo);
    if (v->vao)
        glDeleteVertexArrays(1, &v->vao);
    if (v->program)
        glDeleteProgram(v->program);
    v->texture = v->ebo = v->uv_vbo = v->vertex_vbo = v->morph_vbo = v->vao = v->program = 0;
    if (v->fade.id)
        glDeleteProgram(v->fade.id);
    v->fade.id = 0;
    for (i = 0; i < v->num_attached; i++) {
        release_morph(&v->attached[i].gl);
        if (v->attached[i].texture)
            glDeleteTextures(1, &v->attached[i].texture);
        v->attached[i].texture = 0;
    }
    md2_mesh_free(v->cpu_mesh);
    v->cpu_mesh = NULL;
}

static void release(viewer *v)
{
    size_t i;
    if (v->window) {
        release_gl(v);
        glfwDestroyWindow(v->window);
    }
    glfwTerminate();
    for (i = 0; i < v->num_skins; i++)
        free(v->skin_paths[i]);
    free(v->transforms);
    free(v->anims);
    md2_mesh_free(v->cpu_mesh);
    md2_mesh_free(v->mesh);
    for (i = 0; i + 1 < v->num_levels; i++)
        md2_lod_free(&v->lods[i]);
    for (i = 0; i < v->num_attached; i++) {
        free(v->attached[i].transforms);
        md2_mesh_free(v->attached[i].mesh);
        md2_bundle_free(v->attached[i].bundle);
    }
    md2_bundle_free(v->bundle);
}

int main(int argc, char **argv)
{
    static viewer view;
    viewer *v = &view;
    uint32_t frame_a = 0, frame_b = 0;
    int ok = 0, w, h;

    ok = parse_args(argc, argv, &v->opt);
    if (ok <= 0)
        return usage(ok < 0 ? stdout : stderr);
    ok = 0;
    v->lit = !v->opt.unlit;
    v->ortho = v->opt.ortho;
    v->wireframe = v->opt.wireframe;
    v->yaw = v->opt.yaw * VIEW_PI / 180.0;
    v->zoom = v->opt.zoom;
    v->pitch = v->opt.pitch * VIEW_PI / 180.0;

    if (!load_model(v)) {
        release(v);
        return 1;
    }
    md2_player_init(&v->player);
    v->anim = md2_anim_idle(v->anims, v->num_anims);
    if (v->anim == MD2_ANIM_NOT_FOUND)
        v->anim = 0;
    if (v->opt.anim) {
        size_t i = md2_anim_find(v->anims, v->num_anims, v->opt.anim);
        if (i == MD2_ANIM_NOT_FOUND)
            fprintf(stderr, "md2_view: no animation named \"%s\"; starting with \"%s\"\n",
                    v->opt.anim, v->anims[v->anim].name);
        else
            v->anim = i;
    }
    if (v->opt.screenshot) {
        if (!v->opt.frame_given)
            v->opt.frame = v->anims[v->anim].first;
        if (v->opt.frame >= v->model->num_frames) {
            fprintf(stderr, "md2_view: --frame %lu: %s has %zu keyframes (0 to %zu)\n",
                    v->opt.frame, v->opt.model, v->model->num_frames,
                    v->model->num_frames - 1);
            release(v);
            return 2;
        }
        frame_a = (uint32_t)v->opt.frame;
        frame_b = frame_a + 1 < v->model->num_frames ? frame_a + 1 : frame_a;
    }
    find_skins(v);

    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        fprintf(stderr, "md2_view: cannot initialise GLFW (is there a display? try xvfb-run)\n");
        release(v);
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    if (v->opt.screenshot) {
        glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
        w = h = 64;
    } else {
        glfwWindowHint(GLFW_SAMPLES, 4);
        w = v->opt.width ? v->opt.width : 960;
        h = v->opt.height ? v->opt.height : 720;
    }
    v->window = glfwCreateWindow(w, h, "md2_view", NULL, NULL);
    if (!v->window) {
        fprintf(stderr, "md2_view: cannot create an OpenGL 3.3 core window\n");
        release(v);
        return 1;
    }
    glfwMakeContextCurrent(v->window);
    glfwSetWindowUserPointer(v->window, v);
    fprintf(stderr, "md2_view: OpenGL %s on %s\n", (const char *)glGetString(GL_VERSION),
            (const char *)glGetString(GL_RENDERER));

    if (upload_model(v)) {
        if (v->opt.screenshot) {
            ok = screenshot(v, frame_a, frame_b, v->opt.t);
        } else {
            play_anim(v, v->anim, 0);
            run_interactive(v);
            ok = 1;
        }
    }
    release(v);
    return ok ? 0 : 1;
}
