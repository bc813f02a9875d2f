/*
 * export_tags_reference: what libmd2 shows of a model's tags and of the
 * models hung on them, for the glTF judge of md2 export's tags
 * (tests/tool/gltf/three_tags.mjs). Built with the tests only.
 *
 *   export_tags_reference MODEL -o REF.json [--anim NAME] [--frame N] [--attach TAG=MODEL]...
 *   export_tags_reference MODEL --check-obj FILE.obj [--z-up] [--frame N] [--attach TAG=MODEL]...
 *
 * Loads MODEL with its side files (md2_bundle_load_file(), as md2 export
 * does) and each attached model, and writes as JSON, in MD2's axes:
 *  - "tags": the tag names; "model": MODEL's file name without folders
 *    and extension (its glTF node's name); "size": the largest side of
 *    MODEL's box over all keyframes;
 *  - "attached": for each --attach, its tag, name and welded vertex count
 *    (md2_mesh_build(), as the export welds it);
 *  - "rest": keyframe N (default 0), what the export shows when nothing
 *    plays: each tag's matrix (md2_tag_lerp() of that keyframe, clamped to
 *    the tag file's frames) and each attached model's welded vertices
 *    placed by md2_attach() (its keyframe: 0 for a model of one, else N);
 *  - "anims": every animation (or the one of --anim, which --frame then
 *    counts in, as md2 export counts), played by an md2_player from its start
 *    (MD2_PLAY_LOOP for looping ones, MD2_PLAY_ONCE for the others) to
 *    each of its keyframes (k / fps for k = 0 .. n, the wrap of a loop
 *    included; at most 31): md2_player_tag() of each tag, and each
 *    attached model posed by md2_player_pose_linked() and placed by
 *    md2_attach() at that tag matrix.
 * --check-obj checks an OBJ export instead: the objects after the first
 * (the model's) are the attached models in order, their vertices ("v",
 * (x, y, z) = MD2 (y, z, x), MD2's own with --z-up) at keyframe N placed by
 * md2_attach() at md2_tag_lerp() of the tag, each coordinate within 1e-6
 * of the model's size. Exit 0 if they are, 1 if not (said), 2 for a bad
 * command line.
 *
 * SPDX-License-Identifier: MIT
 */
#include "reference_util.h"

#include <md2/mesh.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE "usage: export_tags_reference MODEL {-o REF.json | --check-obj FILE.obj [--z-up]} " \
              "[--anim NAME] [--frame N] [--attach TAG=MODEL]..."
#define MAX_ATTACH 8

typedef struct attached {
    char tag[MD2_TAG_NAME_SIZE + 1];
    const char *path;
    size_t tag_index;
    md2_bundle *bundle;
    md2_mesh *mesh;
    float *pos; /* one pose, its model's vertices */
} attached;

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

static void fail(const char *msg, const char *detail)
{
    ref_fail("export_tags_reference", msg, detail);
}

static void put_name(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c >= 0x7F)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* The file name of path without folders and extension. */
static void put_stem(FILE *f, const char *path)
{
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    const char *dot = strrchr(name, '.');
    size_t n = dot && dot != name ? (size_t)(dot - name) : strlen(name);
    char buf[512];
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, name, n);
    buf[n] = '\0';
    put_name(f, buf);
}

static void put_matrix(FILE *f, const char *sep, const float *m)
{
    int i;
    fprintf(f, "%s[", sep);
    for (i = 0; i < 16; i++)
        ref_put_number(f, i ? "," : "", (double)m[i]);
    fputc(']', f);
}

/* Vertex v of a's pose (a->pos) placed by child, coordinate r. */
static double placed(const float *child, const float *v, int r)
{
    return (double)child[r] * v[0] + (double)child[4 + r] * v[1] + (double)child[8 + r] * v[2] +
           (double)child[12 + r];
}

/* a's pose (a->pos) at tag matrix tag: its welded vertices in the parent's
 * coordinates, as md2_attach() places them. */
static void put_placed(FILE *f, const char *sep, const attached *a, const float *tag)
{
    float child[16];
    size_t i;
    int r;
    md2_attach(identity, tag, child);
    fprintf(f, "%s[", sep);
    for (i = 0; i < a->mesh->num_vertices; i++)
        for (r = 0; r < 3; r++)
            ref_put_number(f, i || r ? "," : "",
                       placed(child, a->pos + 3 * (size_t)a->mesh->source_vertex[i], r));
    fputc(']', f);
}

/* --check-obj: 0 if the attached objects of the OBJ file at path hold the
 * vertices md2_attach() places (see the top), else 1. */
static int check_obj(const char *path, const md2_tags *tags, attached *at, size_t num_at,
                     uint32_t frame, int y_up, double size)
{
    FILE *f = fopen(path, "r");
    char line[512];
    long object = -1; /* 0: the model's object; i + 1: attached model i's */
    size_t vertex = 0, bad = 0;
    double worst = 0.0;
    float child[16], m[16];
    uint32_t tf = frame < tags->num_frames ? frame : (uint32_t)tags->num_frames - 1;
    if (!f) {
        fail(path, strerror(errno));
        return 1;
    }
    while (fgets(line, sizeof line, f)) {
        double p[3];
        int c;
        if (strncmp(line, "o ", 2) == 0) {
            if (object >= 1 && (size_t)object <= num_at &&
                vertex != at[object - 1].bundle->model->num_vertices)
                bad++;
            object++;
            vertex = 0;
            if (object >= 1 && (size_t)object <= num_at) {
                attached *a = &at[object - 1];
                const md2_model *am = a->bundle->model;
                md2_tag_lerp(tags, a->tag_index, tf, tf, 0.0f, m);
                md2_attach(identity, m, child);
                md2_decode_frame(am, am->num_frames == 1 ? 0 : frame, a->pos, 0, NULL, 0);
            }
            continue;
        }
        if (object < 1 || (size_t)object > num_at || strncmp(line, "v ", 2) != 0)
            continue;
        if (sscanf(line + 2, "%lf %lf %lf", &p[0], &p[1], &p[2]) != 3 ||
            vertex >= at[object - 1].bundle->model->num_vertices) {
            bad++;
            continue;
        }
        for (c = 0; c < 3; c++) {
            static const int up[3] = {1, 2, 0};
            double want = placed(child, at[object - 1].pos + 3 * vertex, y_up ? up[c] : c);
            double d = p[c] > want ? p[c] - want : want - p[c];
            if (d > worst)
                worst = d;
        }
        vertex++;
    }
    fclose(f);
    if (object >= 1 && (size_t)object <= num_at &&
        vertex != at[object - 1].bundle->model->num_vertices)
        bad++;
    if (object != (long)num_at || bad || worst > 1e-6 * size) {
        fprintf(stderr, "export_tags_reference: %s: %ld attached objects (expected %lu), %lu "
                "wrong vertex counts or lines, largest error %.3g (%.3g of the size, at most "
                "1e-6)\n", path, object < 0 ? 0 : object, (unsigned long)num_at,
                (unsigned long)bad, worst, worst / size);
        return 1;
    }
    printf("%s: %lu attached objects placed by md2_attach, largest error %.3g of the size\n", path,
           (unsigned long)num_at, worst / size);
    return 0;
}

int main(int argc, char **argv)
{
    const char *model_path = NULL, *out_path = NULL, *obj_path = NULL, *anim_name = NULL;
    int y_up = 1;
    unsigned long frame = 0;
    attached at[MAX_ATTACH];
    size_t num_at = 0, a, k, i;
    md2_options opts;
    ref_model ref;
    md2_bundle *body;
    const md2_tags *tags;
    md2_mesh_options mo;
    float m[16];
    FILE *f = NULL;
    int status = 1, c;

    memset(at, 0, sizeof at);
    for (c = 1; c < argc; c++) {
        if (strcmp(argv[c], "-o") == 0 && c + 1 < argc) {
            out_path = argv[++c];
        } else if (strcmp(argv[c], "--check-obj") == 0 && c + 1 < argc) {
            obj_path = argv[++c];
        } else if (strcmp(argv[c], "--anim") == 0 && c + 1 < argc) {
            anim_name = argv[++c];
        } else if (strcmp(argv[c], "--z-up") == 0) {
            y_up = 0; /* md2 export --z-up: MD2's axes; else Y up, as md2 export */
        } else if (strcmp(argv[c], "--frame") == 0 && c + 1 < argc) {
            frame = strtoul(argv[++c], NULL, 10);
        } else if (strcmp(argv[c], "--attach") == 0 && c + 1 < argc && num_at < MAX_ATTACH) {
            const char *v = argv[++c], *eq = strchr(v, '=');
            if (!eq || (size_t)(eq - v) > MD2_TAG_NAME_SIZE) {
                fail(USAGE, NULL);
                return 2;
            }
            memcpy(at[num_at].tag, v, (size_t)(eq - v));
            at[num_at].path = eq + 1;
            num_at++;
        } else if (!model_path && argv[c][0] != '-') {
            model_path = argv[c];
        } else {
            fail(USAGE, NULL);
            return 2;
        }
    }
    if (!model_path || !out_path == !obj_path) {
        fail(USAGE, NULL);
        return 2;
    }
    if (!ref_load("export_tags_reference", model_path, anim_name, frame, &ref))
        return 1;
    body = ref.bundle;
    tags = body->tags;
    frame = ref.frame;
    memset(&opts, 0, sizeof opts);
    if (!tags) {
        fail("the model has no tags", NULL);
        goto done;
    }
    memset(&mo, 0, sizeof mo);
    mo.flags = MD2_MESH_COUNTER_CLOCKWISE;
    for (a = 0; a < num_at; a++) {
        at[a].tag_index = md2_tags_find(tags, at[a].tag);
        if (at[a].tag_index == MD2_TAG_NOT_FOUND) {
            fail("no such tag", at[a].tag);
            goto done;
        }
        if (md2_bundle_load_file(at[a].path, &opts, &at[a].bundle) != MD2_OK ||
            md2_mesh_build(at[a].bundle->model, &mo, &at[a].mesh) != MD2_OK) {
            fail("cannot load an attached model", at[a].path);
            goto done;
        }
        at[a].pos = (float *)malloc(at[a].bundle->model->num_vertices * 3 * sizeof(float));
        if (!at[a].pos) {
            fail("out of memory", NULL);
            goto done;
        }
    }
    if (obj_path) {
        status = check_obj(obj_path, tags, at, num_at, (uint32_t)frame, y_up, ref.size);
        goto done;
    }

    f = fopen(out_path, "w");
    if (!f) {
        fail(out_path, strerror(errno));
        goto done;
    }
    fputs("{\"model\":", f);
    put_stem(f, model_path);
    ref_put_number(f, ",\"size\":", ref.size);
    fputs(",\"tags\":[", f);
    for (k = 0; k < tags->num_tags; k++) {
        if (k)
            fputc(',', f);
        put_name(f, tags->names[k].name);
    }
    fputs("],\"attached\":[", f);
    for (a = 0; a < num_at; a++) {
        fprintf(f, "%s{\"tag\":", a ? "," : "");
        put_name(f, at[a].tag);
        fputs(",\"name\":", f);
        put_stem(f, at[a].path);
        fprintf(f, ",\"vertices\":%lu}", (unsigned long)at[a].mesh->num_vertices);
    }
    fprintf(f, "],\"rest\":{\"frame\":%lu,\"tags\":[", frame);
    {
        uint32_t tf = frame < tags->num_frames ? (uint32_t)frame : (uint32_t)tags->num_frames - 1;
        for (k = 0; k < tags->num_tags; k++) {
            md2_tag_lerp(tags, k, tf, tf, 0.0f, m);
            put_matrix(f, k ? "," : "", m);
        }
        fputs("],\"attached\":[", f);
        for (a = 0; a < num_at; a++) {
            const md2_model *am = at[a].bundle->model;
            uint32_t af = am->num_frames == 1 ? 0 : (uint32_t)frame;
            md2_tag_lerp(tags, at[a].tag_index, tf, tf, 0.0f, m);
            md2_decode_frame(am, af, at[a].pos, 0, NULL, 0);
            put_placed(f, a ? "," : "", &at[a], m);
        }
    }
    fputs("]},\"anims\":[", f);
    for (i = ref.first_anim; i < ref.anim_end; i++) {
        const md2_anim *an = &body->anims[i];
        size_t n = (size_t)an->last - an->first + 1, s;
        fprintf(f, "%s{\"name\":", i > ref.first_anim ? "," : "");
        put_name(f, an->name);
        fprintf(f, ",\"loop\":%s,\"samples\":[", an->loop ? "true" : "false");
        for (s = 0; s <= n && s < 31; s++) {
            md2_player p;
            double t = an->fps > 0.0f ? (double)s / (double)an->fps : (double)s;
            md2_player_init(&p);
            if (md2_player_play(&p, an, an->loop ? MD2_PLAY_LOOP : MD2_PLAY_ONCE,
                                MD2_RATE_ANIM) != MD2_OK) {
                fail("cannot play an animation", an->name);
                goto done;
            }
            md2_player_advance(&p, t);
            fprintf(f, "%s{\"time\":%.17g,\"tags\":[", s ? "," : "", t);
            for (k = 0; k < tags->num_tags; k++) {
                md2_player_tag(&p, tags, k, m);
                put_matrix(f, k ? "," : "", m);
            }
            fputs("],\"attached\":[", f);
            for (a = 0; a < num_at; a++) {
                md2_player_tag(&p, tags, at[a].tag_index, m);
                if (md2_player_pose_linked(&p, at[a].bundle->model, at[a].pos, 0, NULL, 0) !=
                    MD2_OK) {
                    fail("cannot pose an attached model", at[a].path);
                    goto done;
                }
                put_placed(f, a ? "," : "", &at[a], m);
            }
            fputs("]}", f);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
    status = 0;
done:
    status = ref_close("export_tags_reference", f, out_path, status);
    for (a = 0; a < num_at; a++) {
        free(at[a].pos);
        md2_mesh_free(at[a].mesh);
        md2_bundle_free(at[a].bundle);
    }
    md2_bundle_free(body);
    return status;
}
