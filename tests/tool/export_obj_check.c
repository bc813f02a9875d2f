/*
 * export_obj_check: compares OBJ files written by md2 export with what
 * libmd2 decodes, for the OBJ cases of tests/tool/export.cases. Built with
 * the tests only; not part of the md2 command.
 *
 *   export_obj_check MODEL [--anim NAME] [--frame N] [--y-up | --z-up]
 *                    [--counts V VT VN F] [--mtl NAME] [--map PNG|none]
 *                    [--header RE] [--first-face RE] [--y-up-of OBJ] FILE...
 *
 * Loads MODEL with its side files (md2_bundle_load_file(), as md2 export
 * does), works out from the export's own options which keyframes the files
 * hold (--frame N of the model, or of --anim's animation; --anim alone:
 * every keyframe of the animation, one file each, in order) and checks
 * every line of each file (docs/tool.md, "OBJ"):
 *  - the first line names the keyframe ("keyframe K (NAME)");
 *  - one "v" a model vertex: md2_decode_frame()'s position (x, y, z) as
 *    (y, z, x), Y up as md2 export writes by default (--y-up says so too),
 *    or as (x, y, z) with --z-up, within 1e-7 of its size (at least 1e-7): the
 *    text's nine digits;
 *  - one "vn" a model vertex: its table normal md2_normal(index), the same
 *    axes, within 1e-6 (six digits);
 *  - one "vt" a texture coordinate: s / skinwidth and 1 - t / skinheight,
 *    from the file's integers, within 1e-6;
 *  - one "f" a triangle: v/vt/vn of its corners 0, 2, 1, counted from 1.
 * The file's layout, as the case states it:
 *  - --counts: each file has V v lines, VT vt, VN vn and F f lines;
 *  - --mtl: each file's "mtllib" line names NAME, and NAME (beside the
 *    first file) names PNG in its map_Kd line, or has none for "none";
 *  - --header, --first-face: each file's first line, and its first f line,
 *    match the POSIX extended regular expression RE;
 *  - --y-up-of: every v and vn line of the first file is OBJ's (an export
 *    of the same keyframe with --z-up) with (x, y, z) written as
 *    (y, z, x), character for character.
 * Exit 0 if every file holds what libmd2 has, 1 otherwise, 2 for a bad
 * command line.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>
#include <md2/animation.h>
#include <md2/tags.h>

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE                                                                              \
    "usage: export_obj_check MODEL [--anim NAME] [--frame N] [--y-up|--z-up] [--counts V VT VN F]" \
    " [--mtl NAME] [--map PNG|none] [--header RE] [--first-face RE] [--y-up-of OBJ] FILE..."

/* The largest differences seen, over every file. */
typedef struct worst {
    double v, vt, vn;
} worst;

/* Reads up to n numbers after the line's keyword; the count read, or -1
 * if anything else follows. */
static int numbers(const char *s, double *out, int n)
{
    int k = 0;
    char *end;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || *s == '\n' || *s == '\r')
            return k;
        if (k == n)
            return -1;
        out[k] = strtod(s, &end);
        if (end == s)
            return -1;
        k++;
        s = end;
    }
}

static int report(const char *file, unsigned long line, const char *what)
{
    fprintf(stderr, "export_obj_check: %s:%lu: %s\n", file, line, what);
    return 0;
}

/* Checks one file, keyframe frame of m; 1 if it matches. */
static int check_file(const md2_model *m, uint32_t frame, int y_up, const char *file,
                      float *pos, worst *w)
{
    static const int order[3] = {0, 2, 1};
    const int axis[3] = {y_up ? 1 : 0, y_up ? 2 : 1, y_up ? 0 : 2};
    char line[1024], msg[512];
    unsigned long no = 0, nv = 0, nvt = 0, nvn = 0, nf = 0;
    int ok = 1, c;
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "export_obj_check: cannot open %s\n", file);
        return 0;
    }
    if (md2_decode_frame(m, frame, pos, 0, NULL, 0) != MD2_OK) {
        fprintf(stderr, "export_obj_check: cannot decode keyframe %lu\n", (unsigned long)frame);
        fclose(f);
        return 0;
    }
    while (ok && fgets(line, sizeof line, f)) {
        double x[4];
        no++;
        if (!strchr(line, '\n') && !feof(f)) {
            ok = report(file, no, "line too long");
        } else if (no == 1) {
            char want[128], *q;
            snprintf(want, sizeof want, "keyframe %lu (%s)", (unsigned long)frame,
                     m->frames[frame].name);
            for (q = want; *q; q++) { /* the export writes other bytes as '?' */
                if ((unsigned char)*q < 0x20 || (unsigned char)*q >= 0x7F)
                    *q = '?';
            }
            if (line[0] != '#' || !strstr(line, want)) {
                snprintf(msg, sizeof msg, "the first line does not name '%s'", want);
                ok = report(file, no, msg);
            }
        } else if (line[0] == '#' || line[0] == '\n' || strncmp(line, "mtllib ", 7) == 0 ||
                   strncmp(line, "usemtl ", 7) == 0) {
            continue;
        } else if (strncmp(line, "v ", 2) == 0) {
            if (nv >= m->num_vertices || numbers(line + 2, x, 4) != 3) {
                ok = report(file, no, "a v line too many, or not of 3 numbers");
                break;
            }
            for (c = 0; c < 3; c++) {
                double want = pos[3 * nv + (unsigned long)axis[c]], d = fabs(x[c] - want);
                double scale = fabs(want) > 1.0 ? fabs(want) : 1.0;
                if (d / scale > w->v)
                    w->v = d / scale;
                if (!(d <= 1e-7 * scale)) {
                    snprintf(msg, sizeof msg, "v %lu: %.9g %.9g %.9g, libmd2 has %.9g %.9g %.9g",
                             nv + 1, x[0], x[1], x[2], (double)pos[3 * nv + (unsigned long)axis[0]],
                             (double)pos[3 * nv + (unsigned long)axis[1]],
                             (double)pos[3 * nv + (unsigned long)axis[2]]);
                    ok = report(file, no, msg);
                    break;
                }
            }
            nv++;
        } else if (strncmp(line, "vn ", 3) == 0) {
            const float *n;
            if (nvn >= m->num_vertices || numbers(line + 3, x, 4) != 3) {
                ok = report(file, no, "a vn line too many, or not of 3 numbers");
                break;
            }
            n = md2_normal(m->frames[frame].vertices[nvn].normal);
            for (c = 0; c < 3; c++) {
                double d = fabs(x[c] - (double)n[axis[c]]);
                if (d > w->vn)
                    w->vn = d;
                if (!(d <= 1e-6)) {
                    snprintf(msg, sizeof msg, "vn %lu: %.9g %.9g %.9g, libmd2's table normal "
                             "%u is %.9g %.9g %.9g", nvn + 1, x[0], x[1], x[2],
                             (unsigned)m->frames[frame].vertices[nvn].normal,
                             (double)n[axis[0]], (double)n[axis[1]], (double)n[axis[2]]);
                    ok = report(file, no, msg);
                    break;
                }
            }
            nvn++;
        } else if (strncmp(line, "vt ", 3) == 0) {
            double u = 0.0, v = 1.0, du, dv;
            if (nvt >= m->num_texcoords || numbers(line + 3, x, 4) != 2) {
                ok = report(file, no, "a vt line too many, or not of 2 numbers");
                break;
            }
            if (m->skin_width > 0)
                u = (double)m->texcoords[nvt].s / (double)m->skin_width;
            if (m->skin_height > 0)
                v = 1.0 - (double)m->texcoords[nvt].t / (double)m->skin_height;
            du = fabs(x[0] - u);
            dv = fabs(x[1] - v);
            if (du > w->vt)
                w->vt = du;
            if (dv > w->vt)
                w->vt = dv;
            if (!(du <= 1e-6) || !(dv <= 1e-6)) {
                snprintf(msg, sizeof msg, "vt %lu: %.9g %.9g, expected %.9g %.9g (s %d, t %d, "
                         "skin %lu x %lu)", nvt + 1, x[0], x[1], u, v,
                         (int)m->texcoords[nvt].s, (int)m->texcoords[nvt].t,
                         (unsigned long)m->skin_width, (unsigned long)m->skin_height);
                ok = report(file, no, msg);
                break;
            }
            nvt++;
        } else if (strncmp(line, "f ", 2) == 0) {
            char want[160];
            size_t len = 1;
            const md2_triangle *t;
            if (nf >= m->num_triangles) {
                ok = report(file, no, "an f line too many");
                break;
            }
            t = &m->triangles[nf];
            want[0] = 'f';
            for (c = 0; c < 3; c++) {
                unsigned long vi = (unsigned long)t->vertex[order[c]] + 1;
                unsigned long ti = (unsigned long)t->texcoord[order[c]] + 1;
                len += (size_t)snprintf(want + len, sizeof want - len, " %lu/%lu/%lu", vi, ti, vi);
            }
            line[strcspn(line, "\r\n")] = '\0';
            if (strcmp(line, want) != 0) {
                snprintf(msg, sizeof msg, "face %lu is '%.200s', expected '%s' (corners 0, 2, 1)",
                         nf + 1, line, want);
                ok = report(file, no, msg);
                break;
            }
            nf++;
        } else {
            line[strcspn(line, "\r\n")] = '\0';
            snprintf(msg, sizeof msg, "unexpected line '%.200s'", line);
            ok = report(file, no, msg);
        }
    }
    if (ok && ferror(f))
        ok = report(file, no, "read error");
    fclose(f);
    if (ok && (nv != m->num_vertices || nvn != m->num_vertices || nvt != m->num_texcoords ||
               nf != m->num_triangles)) {
        snprintf(msg, sizeof msg, "%lu v, %lu vt, %lu vn, %lu f; the model has %lu vertices, "
                 "%lu texcoords, %lu triangles", nv, nvt, nvn, nf, (unsigned long)m->num_vertices,
                 (unsigned long)m->num_texcoords, (unsigned long)m->num_triangles);
        ok = report(file, no, msg);
    }
    return ok;
}

/* What the case states of the files' layout (--counts, --mtl, ...). */
typedef struct layout {
    long counts[4]; /* v, vt, vn, f; -1: not checked */
    const char *mtl, *map, *header, *first_face, *y_up_of;
} layout;

static int matches(const char *re, const char *text)
{
    regex_t r;
    int ok;
    if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB) != 0) {
        fprintf(stderr, "export_obj_check: bad regular expression %s\n", re);
        return 0;
    }
    ok = regexec(&r, text, 0, NULL, 0) == 0;
    regfree(&r);
    return ok;
}

/* The lines of file that start with "v " or "vn " (into *lines, malloc'd,
 * one string with a NUL after each), their count. */
static long vertex_lines(const char *file, char **lines, size_t *size)
{
    char line[1024];
    long n = 0;
    size_t cap = 0;
    FILE *f = fopen(file, "r");
    *lines = NULL;
    *size = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        size_t len;
        if (strncmp(line, "v ", 2) != 0 && strncmp(line, "vn ", 3) != 0)
            continue;
        line[strcspn(line, "\r\n")] = '\0';
        len = strlen(line) + 1;
        if (*size + len > cap) {
            char *p;
            cap = (cap + len) * 2;
            p = (char *)realloc(*lines, cap);
            if (!p)
                break;
            *lines = p;
        }
        memcpy(*lines + *size, line, len);
        *size += len;
        n++;
    }
    fclose(f);
    return n;
}

/* --y-up-of: file's v and vn lines are want's as (y, z, x). */
static int check_y_up(const char *file, const char *of)
{
    char *got, *want, *g, *w;
    size_t gs, ws;
    long n = vertex_lines(file, &got, &gs), m = vertex_lines(of, &want, &ws), i;
    int ok = n == m && n > 0;
    if (!ok)
        fprintf(stderr, "export_obj_check: %s has %ld v/vn lines, %s %ld\n", file, n, of, m);
    for (i = 0, g = got, w = want; ok && i < n; i++, g += strlen(g) + 1, w += strlen(w) + 1) {
        char kind[4], x[64], y[64], z[64], expect[256];
        if (sscanf(w, "%3s %63s %63s %63s", kind, x, y, z) != 4) {
            fprintf(stderr, "export_obj_check: %s: bad line '%s'\n", of, w);
            ok = 0;
            break;
        }
        snprintf(expect, sizeof expect, "%s %s %s %s", kind, y, z, x);
        if (strcmp(g, expect) != 0) {
            fprintf(stderr, "export_obj_check: %s: '%s', expected '%s' (from '%s')\n", file, g,
                    expect, w);
            ok = 0;
        }
    }
    if (ok)
        printf("%s: every v and vn is %s's rotated to Y up (%ld lines)\n", file, of, n);
    free(got);
    free(want);
    return ok;
}

/* The layout of one file; 1 if it is as stated. */
static int check_layout(const layout *l, const char *file)
{
    static const char *const kinds[4] = {"v ", "vt ", "vn ", "f "};
    char line[1024], mtllib[1024] = "";
    long have[4] = {0, 0, 0, 0};
    int k, ok = 1, first = 1, seen_face = 0;
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "export_obj_check: cannot open %s\n", file);
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (first && l->header && !matches(l->header, line)) {
            fprintf(stderr, "export_obj_check: %s: the first line '%s' does not match %s\n", file,
                    line, l->header);
            ok = 0;
        }
        first = 0;
        for (k = 0; k < 4; k++)
            have[k] += strncmp(line, kinds[k], strlen(kinds[k])) == 0;
        if (strncmp(line, "mtllib ", 7) == 0)
            snprintf(mtllib, sizeof mtllib, "%s", line + 7);
        if (strncmp(line, "f ", 2) == 0 && !seen_face++ && l->first_face &&
            !matches(l->first_face, line)) {
            fprintf(stderr, "export_obj_check: %s: the first face '%s' does not match %s\n",
                    file, line, l->first_face);
            ok = 0;
        }
    }
    fclose(f);
    if (l->counts[0] >= 0 && (have[0] != l->counts[0] || have[1] != l->counts[1] ||
                              have[2] != l->counts[2] || have[3] != l->counts[3])) {
        fprintf(stderr, "export_obj_check: %s: %ld v, %ld vt, %ld vn, %ld f; expected %ld, %ld, "
                "%ld, %ld\n", file, have[0], have[1], have[2], have[3], l->counts[0],
                l->counts[1], l->counts[2], l->counts[3]);
        ok = 0;
    }
    if (l->mtl && strcmp(mtllib, l->mtl) != 0) {
        fprintf(stderr, "export_obj_check: %s: mtllib '%s', expected '%s'\n", file, mtllib,
                l->mtl);
        ok = 0;
    }
    return ok;
}

/* --map: the material file beside the first file names the PNG (or none). */
static int check_map(const layout *l, const char *first_file)
{
    char path[4096], line[1024], map[1024] = "none";
    const char *slash = strrchr(first_file, '/');
    FILE *f;
    snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - first_file + 1) : 0, first_file,
             l->mtl);
    f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "export_obj_check: cannot open %s\n", path);
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "map_Kd ", 7) == 0)
            snprintf(map, sizeof map, "%s", line + 7);
    }
    fclose(f);
    if (strcmp(map, l->map) != 0) {
        fprintf(stderr, "export_obj_check: %s: map_Kd '%s', expected '%s'\n", path, map, l->map);
        return 0;
    }
    printf("%s: map_Kd %s\n", l->mtl, map);
    return 1;
}

int main(int argc, char **argv)
{
    const char *model_path = NULL, *anim_name = NULL;
    unsigned long frame = 0;
    int i, y_up = 1, frame_given = 0, status = 1, first_file = 0, nfiles;
    md2_options opts;
    md2_diagnostic diag;
    md2_bundle *bundle = NULL;
    const md2_model *m;
    unsigned long first, count, k;
    float *pos = NULL;
    worst w = {0.0, 0.0, 0.0};
    layout l = {{-1, -1, -1, -1}, NULL, NULL, NULL, NULL, NULL};

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--anim") == 0 && i + 1 < argc) {
            anim_name = argv[++i];
        } else if (strcmp(argv[i], "--frame") == 0 && i + 1 < argc) {
            frame = strtoul(argv[++i], NULL, 10);
            frame_given = 1;
        } else if (strcmp(argv[i], "--y-up") == 0 || strcmp(argv[i], "--z-up") == 0) {
            y_up = argv[i][2] == 'y';
        } else if (strcmp(argv[i], "--counts") == 0 && i + 4 < argc) {
            int n;
            for (n = 0; n < 4; n++)
                l.counts[n] = strtol(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--mtl") == 0 && i + 1 < argc) {
            l.mtl = argv[++i];
        } else if (strcmp(argv[i], "--map") == 0 && i + 1 < argc) {
            l.map = argv[++i];
        } else if (strcmp(argv[i], "--header") == 0 && i + 1 < argc) {
            l.header = argv[++i];
        } else if (strcmp(argv[i], "--first-face") == 0 && i + 1 < argc) {
            l.first_face = argv[++i];
        } else if (strcmp(argv[i], "--y-up-of") == 0 && i + 1 < argc) {
            l.y_up_of = argv[++i];
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "export_obj_check: unknown option %s\n%s\n", argv[i], USAGE);
            return 2;
        } else if (!model_path) {
            model_path = argv[i];
        } else {
            first_file = i;
            break;
        }
    }
    if (!model_path || first_file == 0 || (l.map && !l.mtl)) {
        fprintf(stderr, "%s\n", USAGE);
        return 2;
    }
    nfiles = argc - first_file;
    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    if (md2_bundle_load_file(model_path, &opts, &bundle) != MD2_OK) {
        fprintf(stderr, "export_obj_check: cannot load %s: %s\n", model_path, diag.message);
        return 1;
    }
    m = bundle->model;
    first = frame;
    count = 1;
    if (anim_name) {
        size_t a = md2_anim_find(bundle->anims, bundle->num_anims, anim_name);
        if (a == MD2_ANIM_NOT_FOUND) {
            fprintf(stderr, "export_obj_check: no animation named %s\n", anim_name);
            goto done;
        }
        first = bundle->anims[a].first + (frame_given ? frame : 0);
        count = frame_given ? 1 : (unsigned long)bundle->anims[a].last - bundle->anims[a].first + 1;
    }
    if (first + count > m->num_frames || first + count < first) {
        fprintf(stderr, "export_obj_check: keyframes %lu to %lu are out of range\n", first,
                first + count - 1);
        goto done;
    }
    if ((unsigned long)nfiles != count) {
        fprintf(stderr, "export_obj_check: %d files for %lu keyframes\n", nfiles, count);
        goto done;
    }
    pos = (float *)malloc((m->num_vertices ? m->num_vertices : 1) * 3 * sizeof *pos);
    if (!pos) {
        fprintf(stderr, "export_obj_check: out of memory\n");
        goto done;
    }
    status = 0;
    for (k = 0; k < count; k++) {
        if (!check_file(m, (uint32_t)(first + k), y_up, argv[first_file + (int)k], pos, &w))
            status = 1;
        if (!check_layout(&l, argv[first_file + (int)k]))
            status = 1;
    }
    if (l.map && !check_map(&l, argv[first_file]))
        status = 1;
    if (l.y_up_of && !check_y_up(argv[first_file], l.y_up_of))
        status = 1;
    printf("%d OBJ file%s (keyframes %lu to %lu%s): %s; largest differences: v %.3g "
           "(relative), vt %.3g, vn %.3g\n", nfiles, nfiles == 1 ? "" : "s", first,
           first + count - 1, y_up ? ", Y up" : "",
           status ? "FAILED" : "every v, vt, vn and f line as libmd2 has it", w.v, w.vt, w.vn);
done:
    free(pos);
    md2_bundle_free(bundle);
    return status;
}
