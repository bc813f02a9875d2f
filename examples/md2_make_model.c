/*
 * md2_make_model - builds libmd2's own sample model, "crystal", in memory
 * and writes it as an MD2 file. It shows how to fill an md2_model by hand
 * for md2_write_stream(), and it is how examples/models/crystal.md2 is made.
 *
 * Usage: md2_make_model OUT.md2
 *        md2_make_model --help
 *
 *   OUT.md2  where to write the model (it is overwritten). There is no
 *            default: without an argument the program prints its usage to
 *            stderr and exits with status 2, so it never writes into the
 *            current directory unasked. To remake the bundled model:
 *            md2_make_model examples/models/crystal.md2
 *
 * Exit status: 0 on success, 1 if the model cannot be built, written or
 * read back, 2 for bad arguments.
 *
 * The model: a hexagonal crystal standing on the Z axis (Quake II models are
 * Z-up: X forward, Y left), 14 vertices (a top apex, an upper ring of 6, a
 * lower ring of 6, a bottom apex) and 24 triangles, with three animations
 * that frame-name grouping finds:
 *
 *   spin01..spin08     a full turn about Z in 45 degree steps, with a bob
 *   bounce01..bounce06 a hop, squashed on landing
 *   pulse01..pulse04   the rings swell and shrink
 *
 * Every keyframe is quantised as MD2 exporters do: per axis, translate is
 * the frame's minimum and scale its extent / 255, so each vertex becomes one
 * byte per axis. Each vertex normal is the index of the closest of the 162
 * table normals (read through md2_normal()) to the sum of the outward
 * normals of the flat faces around it.
 *
 * Winding: Quake II draws triangles that are clockwise seen from outside
 * (it culls GL_FRONT with counter-clockwise front faces), so in every
 * triangle (a, b, c) here, cross(b - a, c - a) points into the model.
 *
 * The skin is 128 x 64 pixels: the six sides are unrolled over x 0..96,
 * the top cap is a hexagon centred on (112, 16) and the bottom one on
 * (112, 48). GL command texcoords point at pixel centres ((s + 0.5) / width),
 * as Quake II's own tools wrote them. No skin image is made: the file only
 * names its skins, as every MD2 file does.
 *
 * The output is deterministic: no clock, no random numbers, and no libm
 * (sines come from a table of multiples of 15 degrees), so every run on
 * every IEEE 754 host writes the same bytes.
 *
 * After writing, the file is loaded back with md2_load_file() in fully
 * strict mode; the program fails unless that succeeds with no warnings, the
 * same counts and the same bytes when written again.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>

#include <stdio.h>
#include <string.h>

#define NUM_VERTS 14
#define NUM_ST 28
#define NUM_TRIS 24
#define NUM_FRAMES 18
#define SKIN_W 128
#define SKIN_H 64
/* two fans of 8 vertices, one strip of 14, and the 0 that ends the list */
#define NUM_GLCMDS ((1 + 8 * 3) * 2 + (1 + 14 * 3) + 1)

/* Vertex numbers: 0 top apex, 1..6 upper ring, 7..12 lower ring, 13 bottom. */
#define V_TOP 0
#define V_UPPER(k) (1 + ((k) % 6))
#define V_LOWER(k) (7 + ((k) % 6))
#define V_BOTTOM 13

/* Texcoord numbers: 0..6 upper edge of the sides (k = 6 is the seam again),
 * 7..13 lower edge, 14 top cap centre, 15..20 top cap corners, 21 bottom cap
 * centre, 22..27 bottom cap corners. */
#define T_UPPER(k) (k)
#define T_LOWER(k) (7 + (k))
#define T_TOP 14
#define T_TOPCAP(k) (15 + ((k) % 6))
#define T_BOTTOM 21
#define T_BOTCAP(k) (22 + ((k) % 6))

/* sin(k * 15 degrees) for k = 0..6 */
static const double sin15_table[7] = {
    0.0,
    0.25881904510252076,
    0.5,
    0.70710678118654752,
    0.86602540378443865,
    0.96592582628906829,
    1.0,
};

/* sin(k * 15 degrees) for any integer k */
static double sin15(int k)
{
    k %= 24;
    if (k < 0)
        k += 24;
    if (k <= 6)
        return sin15_table[k];
    if (k <= 12)
        return sin15_table[12 - k];
    if (k <= 18)
        return -sin15_table[k - 12];
    return -sin15_table[24 - k];
}

static double cos15(int k) { return sin15(k + 6); }

/* One corner of a GL command: a vertex and a texcoord. */
typedef struct corner {
    int vertex, st;
} corner;

/* The whole model with its storage; the md2_model points into it. */
typedef struct crystal {
    md2_skin skins[2];
    md2_texcoord texcoords[NUM_ST];
    md2_triangle triangles[NUM_TRIS];
    md2_frame frames[NUM_FRAMES];
    md2_vertex vertices[NUM_FRAMES][NUM_VERTS];
    int32_t glcmds[NUM_GLCMDS];
    md2_model model;
} crystal;

/* The rest pose, centred on the origin in x and y. */
static void base_shape(double p[NUM_VERTS][3])
{
    const double radius = 10.0, z_upper = 10.0, z_lower = -8.0;
    int k;

    p[V_TOP][0] = 0.0;
    p[V_TOP][1] = 0.0;
    p[V_TOP][2] = 28.0;
    for (k = 0; k < 6; k++) {
        /* angle 60 * k degrees, counter-clockwise seen from above */
        p[V_UPPER(k)][0] = radius * cos15(4 * k);
        p[V_UPPER(k)][1] = radius * sin15(4 * k);
        p[V_UPPER(k)][2] = z_upper;
        p[V_LOWER(k)][0] = radius * cos15(4 * k);
        p[V_LOWER(k)][1] = radius * sin15(4 * k);
        p[V_LOWER(k)][2] = z_lower;
    }
    p[V_BOTTOM][0] = 0.0;
    p[V_BOTTOM][1] = 0.0;
    p[V_BOTTOM][2] = -20.0;
}

/* Pose of frame f: fills p with the vertex positions and name with the
 * frame name. */
static void pose(int f, double p[NUM_VERTS][3], char *name, size_t name_size)
{
    int i;

    base_shape(p);
    if (f < 8) {
        /* spin: turn 45 degrees a frame about Z, bob up and down */
        int a = 3 * f;
        double c = cos15(a), s = sin15(a), bob = 2.0 * sin15(6 * f);
        for (i = 0; i < NUM_VERTS; i++) {
            double x = p[i][0], y = p[i][1];
            p[i][0] = x * c - y * s;
            p[i][1] = x * s + y * c;
            p[i][2] += bob;
        }
        snprintf(name, name_size, "spin%02d", f + 1);
    } else if (f < 14) {
        /* bounce: a hop of 12 units; squashed when it touches the ground
         * (the bottom apex, z = -20), stretched just before and after */
        static const double squash_z[6] = {0.75, 1.1, 1.0, 1.0, 1.0, 1.1};
        static const double squash_xy[6] = {1.15, 0.95, 1.0, 1.0, 1.0, 0.95};
        int b = f - 8;
        double height = 12.0 * sin15(2 * b);
        for (i = 0; i < NUM_VERTS; i++) {
            p[i][0] *= squash_xy[b];
            p[i][1] *= squash_xy[b];
            p[i][2] = -20.0 + (p[i][2] + 20.0) * squash_z[b] + height;
        }
        snprintf(name, name_size, "bounce%02d", b + 1);
    } else {
        /* pulse: the rings swell by up to 20 % while the apexes draw in */
        int q = f - 14;
        double swell = 1.0 + 0.2 * sin15(6 * q);
        for (i = 0; i < NUM_VERTS; i++) {
            if (i == V_TOP || i == V_BOTTOM) {
                p[i][2] *= 2.0 - swell;
            } else {
                p[i][0] *= swell;
                p[i][1] *= swell;
            }
        }
        snprintf(name, name_size, "pulse%02d", q + 1);
    }
}

/* The GL commands as corners: top fan, side strip, bottom fan. The corner
 * order makes every triangle clockwise seen from outside (see the top of
 * the file); the triangle list is made from these same commands. */
static size_t command_corners(int cmd, corner *out)
{
    size_t n = 0;
    int k;

    switch (cmd) {
    case 0: /* top cap: apex, then the upper ring clockwise seen from above */
        out[n].vertex = V_TOP;
        out[n++].st = T_TOP;
        for (k = 6; k >= 0; k--) {
            out[n].vertex = V_UPPER(k);
            out[n++].st = T_TOPCAP(k);
        }
        break;
    case 1: /* sides: lower, upper, lower, upper ... once round, seam twice */
        for (k = 0; k <= 6; k++) {
            out[n].vertex = V_LOWER(k);
            out[n++].st = T_LOWER(k);
            out[n].vertex = V_UPPER(k);
            out[n++].st = T_UPPER(k);
        }
        break;
    default: /* bottom cap: apex, then the lower ring counter-clockwise */
        out[n].vertex = V_BOTTOM;
        out[n++].st = T_BOTTOM;
        for (k = 0; k <= 6; k++) {
            out[n].vertex = V_LOWER(k);
            out[n++].st = T_BOTCAP(k);
        }
        break;
    }
    return n;
}

static int32_t float_word(float f)
{
    int32_t w;
    memcpy(&w, &f, sizeof w);
    return w;
}

static void set_triangle(md2_triangle *t, const corner *a, const corner *b,
                         const corner *c)
{
    t->vertex[0] = (uint16_t)a->vertex;
    t->vertex[1] = (uint16_t)b->vertex;
    t->vertex[2] = (uint16_t)c->vertex;
    t->texcoord[0] = (uint16_t)a->st;
    t->texcoord[1] = (uint16_t)b->st;
    t->texcoord[2] = (uint16_t)c->st;
}

/* Builds the texcoords, the GL command words and the triangle list. */
static void build_topology(crystal *c)
{
    static const int cap_dx[6] = {14, 7, -7, -14, -7, 7};
    static const int cap_dy[6] = {0, 12, 12, 0, -12, -12};
    size_t words = 0, tris = 0;
    int k, cmd;

    for (k = 0; k <= 6; k++) {
        c->texcoords[T_UPPER(k)].s = (int16_t)(16 * k);
        c->texcoords[T_UPPER(k)].t = 2;
        c->texcoords[T_LOWER(k)].s = (int16_t)(16 * k);
        c->texcoords[T_LOWER(k)].t = 61;
    }
    c->texcoords[T_TOP].s = 112;
    c->texcoords[T_TOP].t = 16;
    c->texcoords[T_BOTTOM].s = 112;
    c->texcoords[T_BOTTOM].t = 48;
    for (k = 0; k < 6; k++) {
        c->texcoords[T_TOPCAP(k)].s = (int16_t)(112 + cap_dx[k]);
        c->texcoords[T_TOPCAP(k)].t = (int16_t)(16 + cap_dy[k]);
        c->texcoords[T_BOTCAP(k)].s = (int16_t)(112 + cap_dx[k]);
        c->texcoords[T_BOTCAP(k)].t = (int16_t)(48 - cap_dy[k]);
    }

    for (cmd = 0; cmd < 3; cmd++) {
        corner cs[16];
        size_t n = command_corners(cmd, cs), i;
        int is_fan = cmd != 1;

        c->glcmds[words++] = is_fan ? -(int32_t)n : (int32_t)n;
        for (i = 0; i < n; i++) {
            const md2_texcoord *st = &c->texcoords[cs[i].st];
            c->glcmds[words++] = float_word(((float)st->s + 0.5f) / (float)SKIN_W);
            c->glcmds[words++] = float_word(((float)st->t + 0.5f) / (float)SKIN_H);
            c->glcmds[words++] = cs[i].vertex;
        }
        /* the triangles the command draws, with the orientation GL gives
         * them: a fan pivots on its first corner; a strip swaps the first
         * two corners of every second triangle */
        for (i = 0; i + 2 < n; i++) {
            if (is_fan)
                set_triangle(&c->triangles[tris++], &cs[0], &cs[i + 1], &cs[i + 2]);
            else if (i % 2 == 0)
                set_triangle(&c->triangles[tris++], &cs[i], &cs[i + 1], &cs[i + 2]);
            else
                set_triangle(&c->triangles[tris++], &cs[i + 1], &cs[i], &cs[i + 2]);
        }
    }
    c->glcmds[words++] = 0;
}

static void sub3(double *out, const double *a, const double *b)
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

static void cross3(double *out, const double *a, const double *b)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The outward normal of triangle t (length: twice its area). With Quake's
 * clockwise winding that is cross(c - a, b - a). */
static void face_normal(const md2_triangle *t, double p[NUM_VERTS][3], double *n)
{
    double e1[3], e2[3];
    sub3(e1, p[t->vertex[2]], p[t->vertex[0]]);
    sub3(e2, p[t->vertex[1]], p[t->vertex[0]]);
    cross3(n, e1, e2);
}

/* Whether a and b point the same way (parallel, not opposite). */
static int same_direction(const double *a, const double *b)
{
    double x[3];
    cross3(x, a, b);
    return dot3(a, b) > 0.0 &&
           dot3(x, x) <= 1e-12 * dot3(a, a) * dot3(b, b);
}

/* Index of the table normal closest to direction n (largest dot product;
 * n need not have unit length). */
static uint8_t closest_normal(const double *n)
{
    unsigned i, best = 0;
    double best_dot = -1e300;

    for (i = 0; i < MD2_NUM_NORMALS; i++) {
        const float *tn = md2_normal(i);
        double t[3], d;
        t[0] = (double)tn[0];
        t[1] = (double)tn[1];
        t[2] = (double)tn[2];
        d = dot3(n, t);
        if (d > best_dot) {
            best_dot = d;
            best = i;
        }
    }
    return (uint8_t)best;
}

/* Quantises frame f: per axis translate = minimum, scale = extent / 255. */
static void build_frame(crystal *c, int f)
{
    md2_frame *fr = &c->frames[f];
    md2_vertex *out = c->vertices[f];
    double p[NUM_VERTS][3], normals[NUM_VERTS][3];
    char name[32];
    int i, k;

    memset(name, 0, sizeof name);
    pose(f, p, name, sizeof name);
    memset(fr, 0, sizeof *fr);
    memcpy(fr->name, name, strlen(name)); /* at most 8 chars: NUL-padded */

    for (k = 0; k < 3; k++) {
        double lo = p[0][k], hi = p[0][k];
        float scale, translate;
        for (i = 1; i < NUM_VERTS; i++) {
            if (p[i][k] < lo)
                lo = p[i][k];
            if (p[i][k] > hi)
                hi = p[i][k];
        }
        scale = (float)((hi - lo) / 255.0);
        translate = (float)lo;
        fr->scale[k] = scale;
        fr->translate[k] = translate;
        for (i = 0; i < NUM_VERTS; i++) {
            /* quantise against the stored float values, rounding to nearest */
            double q = scale > 0.0f ? (p[i][k] - (double)translate) / (double)scale : 0.0;
            long v = q <= 0.0 ? 0 : (long)(q + 0.5);
            out[i].v[k] = (uint8_t)(v > 255 ? 255 : v);
        }
    }

    /* A vertex normal is the sum of the normals of the flat faces around
     * the vertex. A side face is a quad split into two triangles; a vertex
     * may touch one or both of them, so each plane counts once, whatever
     * number of its triangles meet at the vertex (else the split diagonal
     * would tilt the normal). */
    for (i = 0; i < NUM_VERTS; i++) {
        double planes[NUM_TRIS][3];
        int num_planes = 0, t, j;

        normals[i][0] = normals[i][1] = normals[i][2] = 0.0;
        for (t = 0; t < NUM_TRIS; t++) {
            const md2_triangle *tri = &c->triangles[t];
            double n[3];
            int seen = 0;
            if (tri->vertex[0] != i && tri->vertex[1] != i && tri->vertex[2] != i)
                continue;
            face_normal(tri, p, n);
            for (j = 0; j < num_planes && !seen; j++)
                seen = same_direction(n, planes[j]);
            if (seen)
                continue;
            memcpy(planes[num_planes++], n, sizeof n);
            for (k = 0; k < 3; k++)
                normals[i][k] += n[k];
        }
        out[i].normal = closest_normal(normals[i]);
    }
    fr->vertices = out;
}

static void build(crystal *c)
{
    int f;

    memset(c, 0, sizeof *c);
    /* names are written as their 64 stored bytes: keep the rest zero */
    strcpy(c->skins[0].name, "models/crystal/skin.pcx");
    strcpy(c->skins[1].name, "models/crystal/skin_dark.pcx");
    build_topology(c);
    for (f = 0; f < NUM_FRAMES; f++)
        build_frame(c, f);

    c->model.skin_width = SKIN_W;
    c->model.skin_height = SKIN_H;
    c->model.num_skins = 2;
    c->model.num_vertices = NUM_VERTS;
    c->model.num_texcoords = NUM_ST;
    c->model.num_triangles = NUM_TRIS;
    c->model.num_frames = NUM_FRAMES;
    c->model.num_glcmds = NUM_GLCMDS;
    c->model.skins = c->skins;
    c->model.texcoords = c->texcoords;
    c->model.triangles = c->triangles;
    c->model.frames = c->frames;
    c->model.glcmds = c->glcmds;
}

/* Self-checks on the model as decoded by the library: every triangle faces
 * outward (clockwise seen from outside) in every frame, every vertex
 * normal points outward, and quantisation moved no vertex by more than
 * half a step per axis. Returns the number of problems found. */
static int check_model(const crystal *c)
{
    float dec[NUM_VERTS][3], nrm[NUM_VERTS][3];
    int f, i, k, problems = 0;

    for (f = 0; f < NUM_FRAMES; f++) {
        double p[NUM_VERTS][3], d[NUM_VERTS][3], centre[3] = {0.0, 0.0, 0.0};
        char name[32];
        md2_result r = md2_decode_frame(&c->model, (uint32_t)f, &dec[0][0], 0,
                                        &nrm[0][0], 0);
        if (r != MD2_OK) {
            fprintf(stderr, "md2_make_model: decoding frame %d: %s\n", f,
                    md2_result_string(r));
            return problems + 1;
        }
        pose(f, p, name, sizeof name);
        for (i = 0; i < NUM_VERTS; i++) {
            for (k = 0; k < 3; k++) {
                double err = (double)dec[i][k] - p[i][k];
                double half = 0.5 * (double)c->frames[f].scale[k] + 1e-4;
                if (err > half || err < -half) {
                    fprintf(stderr, "md2_make_model: frame %d vertex %d axis %d "
                            "quantised %g away\n", f, i, k, err);
                    problems++;
                }
                d[i][k] = (double)dec[i][k];
                centre[k] += d[i][k] / NUM_VERTS;
            }
        }
        for (i = 0; i < NUM_TRIS; i++) {
            const md2_triangle *t = &c->triangles[i];
            double n[3], mid[3];
            face_normal(t, d, n);
            for (k = 0; k < 3; k++)
                mid[k] = (d[t->vertex[0]][k] + d[t->vertex[1]][k] +
                          d[t->vertex[2]][k]) / 3.0 - centre[k];
            if (!(dot3(n, mid) > 0.0)) {
                fprintf(stderr, "md2_make_model: frame %d triangle %d faces "
                        "inward\n", f, i);
                problems++;
            }
        }
        for (i = 0; i < NUM_VERTS; i++) {
            double n[3], out[3];
            for (k = 0; k < 3; k++) {
                n[k] = (double)nrm[i][k];
                out[k] = d[i][k] - centre[k];
            }
            if (!(dot3(n, out) > 0.0)) {
                fprintf(stderr, "md2_make_model: frame %d vertex %d normal "
                        "points inward\n", f, i);
                problems++;
            }
        }
    }
    return problems;
}

static int write_file(void *user, const void *data, size_t size)
{
    return fwrite(data, 1, size, (FILE *)user) == size ? 0 : 1;
}

/* Reloads path strictly and compares it with the model that was written. */
static int verify(const char *path, const md2_model *want, size_t size)
{
    static unsigned char a[8192], b[8192];
    md2_diagnostic diag;
    md2_options opts;
    md2_model *m = NULL;
    md2_result r;
    size_t na = 0, nb = 0;
    int ok;

    memset(&opts, 0, sizeof opts);
    memset(&diag, 0, sizeof diag);
    opts.strict = MD2_STRICT_ALL;
    opts.error = &diag;
    r = md2_load_file(path, &opts, &m);
    if (r != MD2_OK) {
        fprintf(stderr, "md2_make_model: strict reload of %s failed: %s\n  %s\n",
                path, md2_result_string(r), diag.message);
        return 0;
    }
    ok = m->warnings == 0 && m->num_skins == want->num_skins &&
         m->num_vertices == want->num_vertices &&
         m->num_texcoords == want->num_texcoords &&
         m->num_triangles == want->num_triangles &&
         m->num_frames == want->num_frames && m->num_glcmds == want->num_glcmds &&
         m->skin_width == want->skin_width && m->skin_height == want->skin_height &&
         m->header.ofs_end >= 0 && (size_t)m->header.ofs_end == size;
    if (!ok)
        fprintf(stderr, "md2_make_model: %s reloads with other counts or "
                "warnings (0x%lx)\n", path, (unsigned long)m->warnings);
    /* written again, the loaded model must give the very same bytes */
    if (ok && (md2_write(m, a, sizeof a, &na, &diag) != MD2_OK ||
               md2_write(want, b, sizeof b, &nb, &diag) != MD2_OK)) {
        fprintf(stderr, "md2_make_model: writing %s again failed: %s\n  %s\n",
                path, md2_result_string(diag.result), diag.message);
        ok = 0;
    } else if (ok && (na != nb || memcmp(a, b, na) != 0)) {
        fprintf(stderr, "md2_make_model: %s does not round-trip byte for byte\n",
                path);
        ok = 0;
    }
    md2_free(m);
    return ok;
}

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: md2_make_model OUT.md2\n"
            "Writes libmd2's sample model \"crystal\" to OUT.md2 and checks that it\n"
            "loads back strictly. (examples/models/crystal.md2 is made this way.)\n");
}

int main(int argc, char **argv)
{
    static crystal c;
    const char *path;
    md2_diagnostic diag;
    size_t size;
    md2_result r;
    int existed;
    FILE *fp;

    if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
                      strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc != 2 || argv[1][0] == '\0') {
        usage(stderr);
        return 2;
    }
    path = argv[1];

    build(&c);
    if (check_model(&c) != 0)
        return 1;
    size = md2_write_size(&c.model);
    if (size == 0) {
        fprintf(stderr, "md2_make_model: the model is not valid for md2_write\n");
        return 1;
    }

    /* on a failed write, remove the file only if this run created it (never
     * whatever was there: a device, a file the user keeps) */
    fp = fopen(path, "rb");
    existed = fp != NULL;
    if (fp)
        fclose(fp);
    fp = fopen(path, "wb");
    if (!fp) {
        fprintf(stderr, "md2_make_model: cannot create %s\n", path);
        return 1;
    }
    memset(&diag, 0, sizeof diag);
    r = md2_write_stream(&c.model, write_file, fp, &diag);
    if (r == MD2_OK && ferror(fp)) {
        r = MD2_ERR_IO;
        diag.message[0] = '\0';
    }
    if (fclose(fp) != 0 && r == MD2_OK) {
        r = MD2_ERR_IO;
        diag.message[0] = '\0';
    }
    if (r != MD2_OK) {
        fprintf(stderr, "md2_make_model: writing %s: %s\n", path,
                md2_result_string(r));
        if (diag.message[0] != '\0')
            fprintf(stderr, "  %s\n", diag.message);
        if (!existed)
            remove(path);
        else
            fprintf(stderr, "md2_make_model: %s may be incomplete\n", path);
        return 1;
    }
    if (!verify(path, &c.model, size))
        return 1;

    printf("%s: %lu bytes, %d vertices, %d texcoords, %d triangles, %d frames "
           "(spin01..spin08, bounce01..bounce06, pulse01..pulse04), "
           "%d GL command words, %d skins; strict reload OK\n",
           path, (unsigned long)size, NUM_VERTS, NUM_ST, NUM_TRIS, NUM_FRAMES,
           NUM_GLCMDS, 2);
    return 0;
}
