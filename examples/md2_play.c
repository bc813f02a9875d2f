/*
 * md2_play: plays each animation of an MD2 model and prints its frames and
 * timing, or writes one OBJ file per step.
 *
 *   md2_play [options] model.md2
 *     -v                  print the keyframes shown at every step
 *     --anm FILE          take the animations from a UFO:AI .anm file
 *     --framegroups FILE  take them from a DarkPlaces .framegroups file
 *     --quake2            use the standard Quake II player table
 *     --bundle            load the model with the side files beside it in
 *                         one call (md2_bundle_load_file()): animations from
 *                         model.anm, else model.framegroups, else the frame
 *                         names, and tags from model.tag
 *     --tags FILE         a UFO:AI .tag file for the model
 *     --attach NAME       print, at every step, the matrix of tag NAME in the
 *                         pose shown (md2_player_tag(); with -v all of it)
 *     --weapon FILE       a model held at that tag (md2_attach()): print
 *                         where its tip (the vertex farthest from its origin)
 *                         is at every step
 *     --linked FILE       a model driven with the same frames (a Quake II
 *                         weapon): posed with md2_player_pose_linked(), its
 *                         box printed after each animation
 *     --step SECONDS      time step (default 0.1)
 *     --rate FPS          play every animation at this rate
 *     --obj DIR           write DIR/<animation>_<step>.obj for every step
 *
 * Without --anm, --framegroups, --quake2 or --bundle the animations come
 * from the frame names. Each animation plays once through: a looping one
 * for one cycle (until MD2_EVENT_LOOPED), a once-animation until
 * MD2_EVENT_FINISHED. Example, the bundled crystal with its tag file and
 * its blade in the hand:
 *
 *   md2_play --bundle --attach tag_rweapon --weapon examples/models/blade.md2 \
 *            examples/models/crystal.md2
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/animation.h>
#include <md2/tags.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ANIMS 1024

typedef struct options {
    const char *model;
    const char *anm;
    const char *framegroups;
    const char *obj_dir;
    const char *tags;
    const char *attach;
    const char *weapon;
    const char *linked;
    int quake2;
    int bundle;
    int verbose;
    double step;
    float rate;
} options;

/* What the attachment options loaded. */
typedef struct attachment {
    const md2_tags *tags;  /* the model's tags (NULL: none) */
    size_t tag;            /* the tag printed, or MD2_TAG_NOT_FOUND */
    float tip[3];          /* the weapon's tip, in the weapon's coordinates */
    int has_weapon;
    const md2_model *linked;
    float *linked_pos;     /* the linked model's pose */
} attachment;

static int usage(void)
{
    fprintf(stderr,
            "usage: md2_play [-v] [--anm FILE | --framegroups FILE | --quake2 | --bundle]\n"
            "                [--tags FILE] [--attach TAG [--weapon FILE]] [--linked FILE]\n"
            "                [--step SECONDS] [--rate FPS] [--obj DIR] model.md2\n");
    return 2;
}

static int parse_args(int argc, char **argv, options *o)
{
    int i;
    memset(o, 0, sizeof *o);
    o->step = 0.1;
    o->rate = MD2_RATE_ANIM;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (strcmp(a, "-v") == 0) {
            o->verbose = 1;
        } else if (strcmp(a, "--quake2") == 0) {
            o->quake2 = 1;
        } else if (strcmp(a, "--anm") == 0 && has_value) {
            o->anm = argv[++i];
        } else if (strcmp(a, "--framegroups") == 0 && has_value) {
            o->framegroups = argv[++i];
        } else if (strcmp(a, "--bundle") == 0) {
            o->bundle = 1;
        } else if (strcmp(a, "--tags") == 0 && has_value) {
            o->tags = argv[++i];
        } else if (strcmp(a, "--attach") == 0 && has_value) {
            o->attach = argv[++i];
        } else if (strcmp(a, "--weapon") == 0 && has_value) {
            o->weapon = argv[++i];
        } else if (strcmp(a, "--linked") == 0 && has_value) {
            o->linked = argv[++i];
        } else if (strcmp(a, "--obj") == 0 && has_value) {
            o->obj_dir = argv[++i];
        } else if (strcmp(a, "--step") == 0 && has_value) {
            o->step = atof(argv[++i]);
        } else if (strcmp(a, "--rate") == 0 && has_value) {
            o->rate = (float)atof(argv[++i]);
        } else if (a[0] == '-' || o->model) {
            return 0;
        } else {
            o->model = a;
        }
    }
    if (!o->model || !(o->step > 0.0) ||
        (o->anm != NULL) + (o->framegroups != NULL) + o->quake2 + o->bundle > 1 ||
        (o->weapon && !o->attach))
        return 0;
    return 1;
}

/* Reads a whole text file into a malloc'd buffer. */
static char *read_text(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long len;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0) {
        buf = (char *)malloc((size_t)len + 1);
        if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
            free(buf);
            buf = NULL;
        }
        if (buf)
            *size = (size_t)len;
    }
    fclose(f);
    return buf;
}

/* Prints a side-file warning (such as a rate of 0) with the file's name;
 * user points to the path. */
static void print_warning(void *user, const md2_diagnostic *d)
{
    fprintf(stderr, "%s: warning: %s\n", *(const char *const *)user,
            d->message);
}

/* Prints a warning of md2_bundle_load_file(), whose message names its
 * file. */
static void print_file_warning(void *user, const md2_diagnostic *d)
{
    (void)user;
    fprintf(stderr, "warning: %s\n", d->message);
}

/* Gets the animations the options ask for; returns the count or -1. */
static long get_anims(const options *o, const md2_model *m, md2_anim *anims,
                      const char **source)
{
    size_t n = 0;
    md2_diagnostic diag;

    memset(&diag, 0, sizeof diag);
    if (o->quake2) {
        const md2_anim *t = md2_anims_quake2_player(&n);
        md2_result r = md2_anims_validate(t, n, m, &diag);
        if (r != MD2_OK) {
            fprintf(stderr, "the Quake II table does not fit this model: %s\n",
                    diag.message);
            return -1;
        }
        memcpy(anims, t, n * sizeof *t);
        *source = "the standard Quake II table";
    } else if (o->anm || o->framegroups) {
        const char *path = o->anm ? o->anm : o->framegroups;
        size_t size = 0;
        char *text = read_text(path, &size);
        md2_options opts;
        md2_result r;
        if (!text) {
            fprintf(stderr, "%s: cannot read\n", path);
            return -1;
        }
        memset(&opts, 0, sizeof opts);
        opts.error = &diag;
        opts.on_warning = print_warning;
        opts.warning_user = &path;
        if (o->anm)
            r = md2_parse_anm(text, size, m, &opts, anims, MAX_ANIMS, &n);
        else
            r = md2_parse_framegroups(text, size, m, &opts, anims, MAX_ANIMS, &n);
        free(text);
        if (r == MD2_ERR_BUFFER_TOO_SMALL) {
            fprintf(stderr, "%s: %lu animations; playing the first %d\n", path,
                    (unsigned long)n, MAX_ANIMS);
            n = MAX_ANIMS;
        } else if (r != MD2_OK) {
            fprintf(stderr, "%s: %s\n", path, diag.message);
            return -1;
        }
        *source = path;
    } else {
        n = md2_anims_from_names(m, anims, MAX_ANIMS); /* at most MAX_ANIMS */
        *source = "frame names";
    }
    return (long)n;
}

/* Writes one pose as an OBJ file: positions, texcoords (v flipped: OBJ's v
 * grows upward) and the triangle list. */
static int write_obj(const char *path, const md2_model *m, const float *pos)
{
    FILE *f = fopen(path, "w");
    size_t i;

    if (!f)
        return 0;
    fprintf(f, "# libmd2 md2_play\n");
    for (i = 0; i < m->num_vertices; i++)
        fprintf(f, "v %.6f %.6f %.6f\n", pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
    for (i = 0; i < m->num_texcoords; i++) {
        float u, v;
        md2_texcoord_uv(m, m->texcoords[i], &u, &v);
        fprintf(f, "vt %.6f %.6f\n", u, 1.0f - v);
    }
    for (i = 0; i < m->num_triangles; i++) {
        const md2_triangle *t = &m->triangles[i];
        if (m->num_texcoords > 0)
            fprintf(f, "f %u/%u %u/%u %u/%u\n", t->vertex[0] + 1u, t->texcoord[0] + 1u,
                    t->vertex[1] + 1u, t->texcoord[1] + 1u, t->vertex[2] + 1u,
                    t->texcoord[2] + 1u);
        else
            fprintf(f, "f %u %u %u\n", t->vertex[0] + 1u, t->vertex[1] + 1u,
                    t->vertex[2] + 1u);
    }
    return fclose(f) == 0;
}

/* A file-name-safe copy of an animation name. */
static void safe_name(char *out, size_t cap, const char *name, size_t index)
{
    size_t i;
    if (name[0] == '\0') {
        snprintf(out, cap, "anim%lu", (unsigned long)index);
        return;
    }
    for (i = 0; name[i] && i + 1 < cap; i++) {
        char c = name[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '-' || c == '_';
        out[i] = ok ? c : '_';
    }
    out[i] = '\0';
}

/* Prints the attachment at this step: the tag's matrix (its origin and
 * forward axis; with -v all four columns) and the weapon's tip. */
static int print_attachment(const options *o, const attachment *at, const md2_player *p)
{
    float tag[16];
    md2_result r;
    int c;

    if (!at->tags || at->tag == MD2_TAG_NOT_FOUND)
        return 1;
    if ((r = md2_player_tag(p, at->tags, at->tag, tag)) != MD2_OK) {
        printf("  error: %s\n", md2_result_string(r));
        return 0;
    }
    printf("      %s origin (%.2f %.2f %.2f) forward (%.3f %.3f %.3f)", o->attach,
           (double)tag[12], (double)tag[13], (double)tag[14], (double)tag[0],
           (double)tag[1], (double)tag[2]);
    if (at->has_weapon) {
        float id[16], child[16];
        /* the model stands at the origin: its own transform is the identity */
        for (c = 0; c < 16; c++)
            id[c] = (c % 5 == 0) ? 1.0f : 0.0f;
        md2_attach(id, tag, child);
        printf("  weapon tip (%.2f %.2f %.2f)",
               (double)(child[0] * at->tip[0] + child[4] * at->tip[1] +
                        child[8] * at->tip[2] + child[12]),
               (double)(child[1] * at->tip[0] + child[5] * at->tip[1] +
                        child[9] * at->tip[2] + child[13]),
               (double)(child[2] * at->tip[0] + child[6] * at->tip[1] +
                        child[10] * at->tip[2] + child[14]));
    }
    printf("\n");
    if (o->verbose)
        for (c = 0; c < 4; c++)
            printf("        [%8.3f %8.3f %8.3f %8.3f]\n", (double)tag[c], (double)tag[4 + c],
                   (double)tag[8 + c], (double)tag[12 + c]);
    return 1;
}

/* Plays one animation through; returns 0 on an error. */
static int play_one(const options *o, const md2_model *m, const md2_anim *a,
                    size_t index, float *pos, const attachment *at)
{
    md2_player p;
    md2_player_frames st;
    md2_result r;
    double time = 0.0;
    unsigned events = 0;
    long steps = 0, max_steps;
    float mn[3], mx[3];
    char base[64];
    float rate;

    md2_player_init(&p);
    r = md2_player_play(&p, a, MD2_PLAY_DEFAULT, o->rate);
    if (r != MD2_OK) {
        printf("  cannot play: %s\n", md2_result_string(r));
        return 1; /* not fatal: e.g. an fps of 0 in a side file */
    }
    rate = o->rate >= 0.0f ? o->rate : a->fps;
    if (!(rate > 0.0f)) {
        printf("  rate 0: holds frame %u\n", (unsigned)a->first);
        return 1;
    }
    safe_name(base, sizeof base, a->name, index);
    /* enough steps for one cycle, with a margin */
    max_steps = (long)((double)(a->last - a->first + 2u) / rate / o->step) + 2;

    for (;;) {
        md2_player_state(&p, &st);
        if ((r = md2_player_pose(&p, m, pos, 0, NULL, 0)) != MD2_OK ||
            (r = md2_player_bounds(&p, m, mn, mx)) != MD2_OK) {
            printf("  error: %s\n", md2_result_string(r));
            return 0;
        }
        if (o->verbose)
            printf("    %8.3f s  frames %3u -> %3u  t %.3f%s%s\n", time,
                   (unsigned)st.frame_a, (unsigned)st.frame_b, (double)st.t,
                   (events & MD2_EVENT_LOOPED) ? "  (looped)" : "",
                   (events & MD2_EVENT_FINISHED) ? "  (finished)" : "");
        if (!print_attachment(o, at, &p))
            return 0;
        if (at->linked &&
            (r = md2_player_pose_linked(&p, at->linked, at->linked_pos, 0, NULL, 0)) != MD2_OK) {
            printf("  error: %s\n", md2_result_string(r));
            return 0;
        }
        if (o->obj_dir) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s_%03ld.obj", o->obj_dir, base, steps);
            if (!write_obj(path, m, pos)) {
                fprintf(stderr, "%s: cannot write\n", path);
                return 0;
            }
        }
        if (events & (MD2_EVENT_LOOPED | MD2_EVENT_FINISHED) || steps >= max_steps)
            break;
        events = md2_player_advance(&p, o->step);
        time += o->step;
        steps++;
    }
    printf("  %s after %.3f s (%ld steps); last box (%.1f %.1f %.1f)-(%.1f %.1f %.1f)\n",
           (events & MD2_EVENT_LOOPED) ? "looped" :
           (events & MD2_EVENT_FINISHED) ? "finished" : "stopped",
           time, steps, (double)mn[0], (double)mn[1], (double)mn[2], (double)mx[0],
           (double)mx[1], (double)mx[2]);
    if (at->linked) {
        if ((r = md2_player_bounds_linked(&p, at->linked, mn, mx)) != MD2_OK) {
            printf("  error: %s\n", md2_result_string(r));
            return 0;
        }
        printf("  linked model's box (%.1f %.1f %.1f)-(%.1f %.1f %.1f)\n", (double)mn[0],
               (double)mn[1], (double)mn[2], (double)mx[0], (double)mx[1], (double)mx[2]);
    }
    return 1;
}

/* Reads and parses a tag file; NULL on an error (printed). */
static md2_tags *load_tags(const char *path, const md2_model *m)
{
    md2_diagnostic diag;
    md2_options opts;
    md2_tags *tags = NULL;
    size_t size = 0;
    char *data = read_text(path, &size);

    if (!data) {
        fprintf(stderr, "%s: cannot read\n", path);
        return NULL;
    }
    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    opts.on_warning = print_warning;
    opts.warning_user = &path;
    if (md2_tags_parse(data, size, &opts, &tags) != MD2_OK)
        fprintf(stderr, "%s: %s\n", path, diag.message);
    else if (md2_tags_check(tags, m, &opts) != MD2_OK) /* a warning, unless strict */
        fprintf(stderr, "%s: %s\n", path, diag.message);
    free(data);
    return tags;
}

/* The tip of a weapon: its frame-0 vertex farthest from its origin. */
static int weapon_tip(const char *path, float tip[3])
{
    md2_diagnostic diag;
    md2_options opts;
    md2_model *w = NULL;
    float *pos;
    double best = -1.0;
    size_t i;

    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    if (md2_load_file(path, &opts, &w) != MD2_OK) {
        fprintf(stderr, "%s: %s\n", path, diag.message);
        return 0;
    }
    pos = (float *)malloc(w->num_vertices * 3 * sizeof *pos);
    if (!pos || md2_decode_frame(w, 0, pos, 0, NULL, 0) != MD2_OK) {
        free(pos);
        md2_free(w);
        return 0;
    }
    for (i = 0; i < w->num_vertices; i++) {
        const float *v = pos + 3 * i;
        double d = (double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2];
        if (d > best) {
            best = d;
            memcpy(tip, v, 3 * sizeof *tip);
        }
    }
    printf("weapon %s: %lu vertices, tip at (%.2f %.2f %.2f)\n", path,
           (unsigned long)w->num_vertices, (double)tip[0], (double)tip[1], (double)tip[2]);
    free(pos);
    md2_free(w);
    return 1;
}

static const char *source_name(md2_anim_source source)
{
    switch (source) {
    case MD2_ANIMS_FROM_ANM: return "the model's .anm file";
    case MD2_ANIMS_FROM_FRAMEGROUPS: return "the model's .framegroups file";
    default: break;
    }
    return "frame names";
}

int main(int argc, char **argv)
{
    options o;
    md2_model *m = NULL;
    md2_bundle *bundle = NULL;
    md2_tags *own_tags = NULL;
    md2_model *linked = NULL;
    const md2_model *model;
    md2_diagnostic diag;
    md2_options opts;
    static md2_anim anims[MAX_ANIMS];
    const char *source = "";
    attachment at;
    float *pos = NULL;
    long n, i;
    int ok = 1;
    md2_result r;

    if (!parse_args(argc, argv, &o))
        return usage();
    memset(&opts, 0, sizeof opts);
    memset(&at, 0, sizeof at);
    at.tag = MD2_TAG_NOT_FOUND;
    opts.error = &diag;
    if (o.bundle) {
        /* one call: the model, and whatever side files are beside it */
        opts.on_warning = print_file_warning;
        r = md2_bundle_load_file(o.model, &opts, &bundle);
        if (r != MD2_OK) {
            fprintf(stderr, "%s\n", diag.message);
            return 1;
        }
        model = bundle->model;
        n = (long)(bundle->num_anims < MAX_ANIMS ? bundle->num_anims : MAX_ANIMS);
        for (i = 0; i < n; i++)
            anims[i] = bundle->anims[i];
        source = source_name(bundle->anim_source);
        at.tags = bundle->tags;
        printf("%s: side files found: %s%s%s%s\n", o.model,
               bundle->files ? "" : "none",
               (bundle->files & MD2_BUNDLE_ANM) ? ".anm " : "",
               (bundle->files & MD2_BUNDLE_FRAMEGROUPS) ? ".framegroups " : "",
               (bundle->files & MD2_BUNDLE_TAG) ? ".tag" : "");
    } else {
        r = md2_load_file(o.model, &opts, &m);
        if (r != MD2_OK) {
            fprintf(stderr, "%s: %s\n", o.model, diag.message);
            return 1;
        }
        model = m;
        n = get_anims(&o, m, anims, &source);
    }
    if (n >= 0 && o.tags) {
        own_tags = load_tags(o.tags, model);
        at.tags = own_tags;
        if (!own_tags)
            n = -1;
    }
    if (n >= 0 && o.attach) {
        at.tag = md2_tags_find(at.tags, o.attach);
        if (at.tag == MD2_TAG_NOT_FOUND) {
            fprintf(stderr, "%s: no tag named '%s'%s\n", o.model, o.attach,
                    at.tags ? "" : " (no tag file: use --tags or --bundle)");
            n = -1;
        }
    }
    if (n >= 0 && o.weapon && !weapon_tip(o.weapon, at.tip))
        n = -1;
    at.has_weapon = o.weapon != NULL;
    if (n >= 0 && o.linked) {
        /* a model driven with the same frames: a different frame count is
         * a warning (frames past its last are clamped), not an error */
        md2_options lo = opts;
        lo.on_warning = print_warning;
        lo.warning_user = &o.linked;
        if (md2_load_file(o.linked, &lo, &linked) != MD2_OK) {
            fprintf(stderr, "%s: %s\n", o.linked, diag.message);
            n = -1;
        } else {
            const md2_model *list[1];
            list[0] = linked;
            (void)md2_linked_check(model, list, 1, &lo);
            at.linked = linked;
            at.linked_pos = (float *)malloc(linked->num_vertices * 3 * sizeof(float));
            if (!at.linked_pos)
                n = -1;
        }
    }
    if (n >= 0)
        pos = (float *)malloc(model->num_vertices * 3 * sizeof(float));
    if (n < 0 || !pos) {
        free(pos);
        free(at.linked_pos);
        md2_free(linked);
        md2_tags_free(own_tags);
        md2_bundle_free(bundle);
        md2_free(m);
        return 1;
    }
    printf("%s: %lu frames, %lu vertices, %ld animations from %s\n", o.model,
           (unsigned long)model->num_frames, (unsigned long)model->num_vertices, n, source);
    if (at.tags)
        printf("%s: %lu tags over %lu frames\n", o.model, (unsigned long)at.tags->num_tags,
               (unsigned long)at.tags->num_frames);
    for (i = 0; i < n && ok; i++) {
        const md2_anim *a = &anims[i];
        unsigned frames = (unsigned)(a->last - a->first + 1u);
        float rate = o.rate >= 0.0f ? o.rate : a->fps;
        double cycle = rate > 0.0f ? (a->loop ? frames : frames - 1u) / (double)rate : 0.0;
        printf("%3ld %-16s frames %3u-%3u (%3u) at %5.1f fps, %s, %.3f s\n", i,
               a->name, (unsigned)a->first, (unsigned)a->last, frames, (double)rate,
               a->loop ? "loops" : "once ", cycle);
        ok = play_one(&o, model, a, (size_t)i, pos, &at);
    }
    free(pos);
    free(at.linked_pos);
    md2_free(linked);
    md2_tags_free(own_tags);
    md2_bundle_free(bundle);
    md2_free(m);
    return ok ? 0 : 1;
}
