/*
 * export_reference: what libmd2 itself shows, for the glTF judges of the
 * md2 export tests (tests/tool/gltf/three_compare.mjs). Built with the tests
 * only; not part of the md2 command.
 *
 *   export_reference MODEL -o REF.json [--anim NAME] [--frame N] [--max-samples K]
 *                    [--keyframes] [--all-keyframes]
 *
 * Loads MODEL with its side files (md2_bundle_load_file(), as md2 export
 * does), welds the same mesh (md2_mesh_build()) and writes, as JSON, the
 * positions and unit normals of every welded vertex (in MD2's axes) for:
 *  - "frame": keyframe N (--frame, default 0; with --anim, counted in the
 *    animation, as md2 export counts), what the exported mesh shows
 *    when no animation plays;
 *  - "anims": every animation (or the one of --anim), played by an
 *    md2_player from its start (MD2_PLAY_LOOP for looping animations,
 *    MD2_PLAY_ONCE for the others, at the animation's rate) and advanced
 *    to each of a set of times: keyframes, between keyframes, the wrap of
 *    a loop back to its first frame and past the end.
 * plus "size", the largest side of the model's box over all keyframes, for
 * relative errors, "uv", the texture coordinates of every welded vertex
 * as md2_mesh gives them (u = s / skinwidth, v = t / skinheight), and
 * "frameNames", the keyframes' names in the file's order, "step", the
 * smallest per-axis scale of any keyframe (the grid the file's bytes lie
 * on; md2 export's default --keyframe-error is half of it). --max-samples K keeps the first K times of each
 * animation (for models too large for many poses). --keyframes samples
 * each animation at its keyframes only (0, 1, ..., n keyframes after its
 * first: the wrap of a loop too), where libmd2's positions are the decoded
 * keyframes themselves: far from the origin, libmd2's float blend between
 * two keyframes is itself off the exact blend by more than the judges'
 * tolerance. --all-keyframes (for the Blender judge, which reads the
 * keyframes as shape keys) adds "keyframes": the positions of every
 * keyframe of the model, in its order, and writes no samples.
 *
 * SPDX-License-Identifier: MIT
 */
#include "reference_util.h"
#include "tool.h"

#include <md2/md2.h>
#include <md2/animation.h>
#include <md2/mesh.h>
#include <md2/tags.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE "usage: export_reference MODEL -o REF.json [--anim NAME] [--frame N] [--max-samples K] " \
              "[--keyframes] [--all-keyframes]"

static void fail(const char *msg, const char *detail)
{
    ref_fail("export_reference", msg, detail);
}

static void put_float(FILE *f, const char *sep, float v)
{
    ref_put_number(f, sep, (double)v);
}

/* "positions":[...],"normals":[...] of a pose written with the default
 * layout (8 floats a vertex). */
static void put_pose(FILE *f, const float *v, size_t n)
{
    size_t i;
    int c;
    fputs("\"positions\":[", f);
    for (i = 0; i < n; i++)
        for (c = 0; c < 3; c++)
            put_float(f, i || c ? "," : "", v[8 * i + (size_t)c]);
    fputs("],\"normals\":[", f);
    for (i = 0; i < n; i++)
        for (c = 0; c < 3; c++)
            put_float(f, i || c ? "," : "", v[8 * i + 3 + (size_t)c]);
    fputs("]", f);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The sample times of one animation, in keyframes after its first (times
 * are these / fps): keyframes, between keyframes, the last frame, the
 * wrap of a loop, past the end, and a spread over two cycles. */
static size_t sample_positions(size_t n, double *u)
{
    const double fixed[] = {0.0, 0.5, 1.0, 1.37, 0.25};
    size_t count = 0, i, j;
    double dn = (double)n;
    for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        u[count++] = fixed[i];
    u[count++] = dn - 1.0;
    u[count++] = dn - 0.5;
    u[count++] = dn - 0.01;
    u[count++] = dn;
    u[count++] = dn + 0.25;
    u[count++] = dn + 1.5;
    u[count++] = 2.0 * dn - 0.7;
    u[count++] = 2.5 * dn + 0.3;
    for (i = 0; i < 12; i++)
        u[count++] = (double)i * dn / 6.0 + 0.123;
    qsort(u, count, sizeof *u, cmp_double);
    for (i = 0, j = 0; i < count; i++) {
        if (u[i] >= 0.0 && (j == 0 || u[i] > u[j - 1]))
            u[j++] = u[i];
    }
    return j;
}

/* The keyframes 0..n after an animation's first, as sample_positions()
 * gives them (at most 31). */
static size_t keyframe_positions(size_t n, double *u)
{
    size_t count;
    for (count = 0; count <= n && count < 31; count++)
        u[count] = (double)count;
    return count;
}

int main(int argc, char **argv)
{
    const char *model_path = NULL, *out_path = NULL, *anim_name = NULL;
    unsigned long frame = 0, max_samples = 0;
    int keyframes_only = 0, all_keyframes = 0;
    ref_model ref;
    md2_bundle *bundle;
    md2_mesh *mesh = NULL;
    const md2_model *m;
    md2_vertex_layout layout = md2_layout_default(MD2_LAYOUT_UNIT_NORMALS);
    float *pose = NULL;
    double step = 0.0;
    int c;
    FILE *f = NULL;
    size_t a, first_anim, anim_count, k;
    int i, status = 1;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out_path = argv[++i];
        else if (strcmp(argv[i], "--anim") == 0 && i + 1 < argc)
            anim_name = argv[++i];
        else if (strcmp(argv[i], "--frame") == 0 && i + 1 < argc)
            frame = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--max-samples") == 0 && i + 1 < argc)
            max_samples = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--keyframes") == 0)
            keyframes_only = 1;
        else if (strcmp(argv[i], "--all-keyframes") == 0)
            all_keyframes = 1;
        else if (!model_path && argv[i][0] != '-')
            model_path = argv[i];
        else {
            fail(USAGE, NULL);
            return 2;
        }
    }
    if (!model_path || !out_path) {
        fail(USAGE, NULL);
        return 2;
    }
    if (!ref_load("export_reference", model_path, anim_name, frame, &ref))
        return 1;
    bundle = ref.bundle;
    m = bundle->model;
    first_anim = ref.first_anim;
    anim_count = ref.anim_end;
    frame = ref.frame;
    if (md2_mesh_build(m, NULL, &mesh) != MD2_OK || mesh->num_vertices == 0) {
        fail("cannot build a mesh", NULL);
        goto done;
    }
    pose = (float *)malloc(mesh->num_vertices * layout.stride);
    if (!pose) {
        fail("out of memory", NULL);
        goto done;
    }
    /* the smallest quantisation step of any keyframe (0 ignored) */
    for (k = 0; k < m->num_frames; k++) {
        for (c = 0; c < 3; c++) {
            double sc = fabs((double)m->frames[k].scale[c]);
            if (sc > 0.0 && (step == 0.0 || sc < step))
                step = sc;
        }
    }
    f = fopen(out_path, "w");
    if (!f) {
        fail(out_path, strerror(errno));
        goto done;
    }
    fprintf(f, "{\"model\":");
    tool_json_string(f, model_path);
    fprintf(f, ",\"vertices\":%lu,\"frames\":%lu,\"size\":%.9g,\"step\":%.9g,"
            "\"frame\":{\"index\":%lu,", (unsigned long)mesh->num_vertices,
            (unsigned long)m->num_frames, ref.size, step, frame);
    md2_mesh_lerp(mesh, m, (uint32_t)frame, (uint32_t)frame, 0.0f, pose, &layout);
    put_pose(f, pose, mesh->num_vertices);
    fputs("},\"uv\":[", f);
    for (k = 0; k < 2 * mesh->num_vertices; k++)
        put_float(f, k ? "," : "", mesh->uv[k]);
    fputs("],\"frameNames\":[", f);
    for (k = 0; k < m->num_frames; k++) {
        if (k)
            fputc(',', f);
        tool_json_string(f, m->frames[k].name);
    }
    fputs("],\"anims\":[", f);
    for (a = first_anim; a < anim_count; a++) {
        const md2_anim *an = &bundle->anims[a];
        size_t n = (size_t)an->last - an->first + 1, count, s;
        double u[32];
        count = keyframes_only ? keyframe_positions(n, u) : sample_positions(n, u);
        if (max_samples > 0 && count > max_samples)
            count = max_samples;
        if (all_keyframes)
            count = 0;
        fprintf(f, "%s{\"name\":", a > first_anim ? "," : "");
        tool_json_string(f, an->name);
        fprintf(f, ",\"first\":%lu,\"last\":%lu,\"fps\":%.9g,\"loop\":%s,\"samples\":[",
                (unsigned long)an->first, (unsigned long)an->last, (double)an->fps,
                an->loop ? "true" : "false");
        for (s = 0; s < count; s++) {
            md2_player p;
            double t = an->fps > 0.0f ? u[s] / (double)an->fps : u[s];
            md2_player_init(&p);
            if (md2_player_play(&p, an, an->loop ? MD2_PLAY_LOOP : MD2_PLAY_ONCE,
                                MD2_RATE_ANIM) != MD2_OK) {
                fail("cannot play an animation", an->name);
                goto done;
            }
            md2_player_advance(&p, t);
            if (md2_mesh_pose(mesh, m, &p, pose, &layout) != MD2_OK) {
                fail("cannot pose an animation", an->name);
                goto done;
            }
            fprintf(f, "%s{\"time\":%.17g,", s ? "," : "", t);
            put_pose(f, pose, mesh->num_vertices);
            fputs("}", f);
        }
        fputs("]}", f);
    }
    fputs("]", f);
    if (all_keyframes) {
        fputs(",\"keyframes\":[", f);
        for (k = 0; k < m->num_frames; k++) {
            size_t v;
            md2_mesh_lerp(mesh, m, (uint32_t)k, (uint32_t)k, 0.0f, pose, &layout);
            fputs(k ? ",[" : "[", f);
            for (v = 0; v < mesh->num_vertices; v++)
                for (c = 0; c < 3; c++)
                    put_float(f, v || c ? "," : "", pose[8 * v + (size_t)c]);
            fputs("]", f);
        }
        fputs("]", f);
    }
    fputs("}\n", f);
    status = 0;
done:
    status = ref_close("export_reference", f, out_path, status);
    free(pose);
    md2_mesh_free(mesh);
    md2_bundle_free(bundle);
    return status;
}
