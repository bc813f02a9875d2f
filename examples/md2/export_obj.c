/*
 * md2 export: Wavefront OBJ with its material file (.mtl) and the skin as
 * PNG beside them.
 *
 * One keyframe (--frame N, else 0) goes to OUT.obj; with --anim NAME each
 * keyframe of the animation goes to OUT_000.obj, OUT_001.obj, ... in
 * order. They share OUT.mtl (material "skin") and, when there is a skin,
 * OUT.png, which the material's map_Kd names. Each file holds the model's
 * own vertices (v, vn: the keyframe's position and table normal) and
 * texcoords (vt: u, 1 - v, OBJ's v growing upward), and its triangles as
 * faces listed counter-clockwise (MD2 corners 0, 2, 1). Axes: MD2's
 * (X forward, Y left, Z up); with --y-up (x, y, z) = MD2 (y, z, x), as the
 * glTF export writes them.
 *
 * The files appear together or not at all: each is written through
 * tool_out (a temporary file renamed into place), and if one fails, the
 * ones already in place are removed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "export_internal.h"

#include <stdlib.h>
#include <string.h>

#define MATERIAL_NAME "skin"

/* s with every byte outside printable ASCII written as '?'. */
static void put_clean(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        fputc(c >= 0x20 && c < 0x7F ? c : '?', f);
    }
}

/* The files already in place, removed again if a later one fails. */
typedef struct written {
    char **paths;
    size_t count;
} written;

static int keep_path(written *w, const char *path)
{
    size_t n = strlen(path) + 1;
    char **p = (char **)realloc(w->paths, (w->count + 1) * sizeof *p);
    if (!p)
        return 0;
    w->paths = p;
    w->paths[w->count] = (char *)malloc(n);
    if (!w->paths[w->count])
        return 0;
    memcpy(w->paths[w->count++], path, n);
    return 1;
}

static void written_free(written *w, int remove_files)
{
    size_t i;
    for (i = 0; i < w->count; i++) {
        if (remove_files)
            remove(w->paths[i]);
        free(w->paths[i]);
    }
    free(w->paths);
    memset(w, 0, sizeof *w);
}

/* Commits out (renames it to path) and records path: 1; 0 if the commit
 * failed (it said why); -1 when out of memory (the file is removed again). */
static int finish(tool_out *out, const char *path, written *w)
{
    if (!tool_out_commit(out, EXPORT_CMD))
        return 0;
    if (!keep_path(w, path)) {
        remove(path);
        return -1;
    }
    return 1;
}

static int write_mtl(const export_job *job, const char *path, const char *png_path, written *w)
{
    tool_out out;
    FILE *f;
    if (!tool_out_open(&out, EXPORT_CMD, path))
        return 0;
    f = out.file;
    fprintf(f, "# material of the OBJ files written by md2 export (libmd2 %s) from ",
            md2_version_string());
    put_clean(f, job->model_path);
    fputc('\n', f);
    if (png_path) {
        fputs("# map_Kd: the skin ", f);
        put_clean(f, job->skin_path);
        fputs(" as PNG\n", f);
    } else {
        fputs("# no skin was found or given (--skin FILE): no map_Kd, a plain white material\n", f);
    }
    fprintf(f, "newmtl %s\nKa 1 1 1\nKd 1 1 1\nKs 0 0 0\nd 1\nillum 1\n", MATERIAL_NAME);
    if (png_path) {
        fputs("map_Kd ", f);
        put_clean(f, export_base_name(png_path));
        fputc('\n', f);
    }
    return finish(&out, path, w);
}

/* One keyframe as OBJ. pos and nrm hold num_vertices * 3 floats. */
static int write_frame(const export_job *job, const char *path, const char *mtl_path,
                       uint32_t frame, size_t index, float *pos, float *nrm, written *w)
{
    const md2_model *m = job->tm->model;
    static const int order[3] = {0, 2, 1};
    size_t i;
    tool_out out;
    FILE *f;
    md2_result r = md2_decode_frame(m, frame, pos, 0, nrm, 0);
    if (r != MD2_OK) {
        tool_error(EXPORT_CMD, "cannot decode keyframe %lu: %s", (unsigned long)frame,
                   md2_result_string(r));
        return 0;
    }
    if (!tool_out_open(&out, EXPORT_CMD, path))
        return 0;
    f = out.file;
    fprintf(f, "# md2 export (libmd2 %s) of ", md2_version_string());
    put_clean(f, job->model_path);
    fprintf(f, ": keyframe %lu (", (unsigned long)frame);
    put_clean(f, m->frames[frame].name);
    fputc(')', f);
    if (job->anim_given) {
        fputs(", animation ", f);
        put_clean(f, job->anims[0].name);
        fprintf(f, " frame %lu of %lu", (unsigned long)index,
                (unsigned long)(job->anims[0].last - job->anims[0].first + 1));
    }
    fputc('\n', f);
    if (job->y_up)
        fputs("# axes: Y up, facing +Z: (x, y, z) = MD2 (y, z, x)\n", f);
    else
        fputs("# axes: MD2's, X forward, Y left, Z up\n", f);
    fputs("# faces counter-clockwise: MD2 corners 0, 2, 1\n", f);
    fputs("mtllib ", f);
    put_clean(f, export_base_name(mtl_path));
    fputc('\n', f);
    for (i = 0; i < m->num_vertices; i++) {
        const float *p = pos + 3 * i;
        if (job->y_up)
            fprintf(f, "v %.9g %.9g %.9g\n", (double)p[1], (double)p[2], (double)p[0]);
        else
            fprintf(f, "v %.9g %.9g %.9g\n", (double)p[0], (double)p[1], (double)p[2]);
    }
    for (i = 0; i < m->num_texcoords; i++) {
        float u, v;
        md2_texcoord_uv(m, m->texcoords[i], &u, &v);
        fprintf(f, "vt %.9g %.9g\n", (double)u, (double)(1.0f - v));
    }
    for (i = 0; i < m->num_vertices; i++) {
        const float *n = nrm + 3 * i;
        if (job->y_up)
            fprintf(f, "vn %.6g %.6g %.6g\n", (double)n[1], (double)n[2], (double)n[0]);
        else
            fprintf(f, "vn %.6g %.6g %.6g\n", (double)n[0], (double)n[1], (double)n[2]);
    }
    fprintf(f, "usemtl %s\n", MATERIAL_NAME);
    for (i = 0; i < m->num_triangles; i++) {
        const md2_triangle *t = &m->triangles[i];
        int k;
        fputc('f', f);
        for (k = 0; k < 3; k++) {
            unsigned long v = (unsigned long)t->vertex[order[k]] + 1;
            unsigned long st = (unsigned long)t->texcoord[order[k]] + 1;
            fprintf(f, " %lu/%lu/%lu", v, st, v);
        }
        fputc('\n', f);
    }
    return finish(&out, path, w);
}

/* stem + "_" + index (at least 3 digits, as many as count - 1 needs) + ".obj" */
static char *frame_path(const char *stem, size_t index, size_t count)
{
    size_t digits = 3, n = count > 0 ? count - 1 : 0, stem_len = strlen(stem), len, pad;
    char num[24];
    char *p;
    while (n >= 1000) {
        n /= 10;
        digits++;
    }
    snprintf(num, sizeof num, "%lu", (unsigned long)index);
    len = strlen(num);
    pad = digits > len ? digits - len : 0;
    p = (char *)malloc(stem_len + 1 + pad + len + sizeof ".obj");
    if (p) {
        memcpy(p, stem, stem_len);
        p[stem_len] = '_';
        memset(p + stem_len + 1, '0', pad);
        memcpy(p + stem_len + 1 + pad, num, len);
        memcpy(p + stem_len + 1 + pad + len, ".obj", sizeof ".obj");
    }
    return p;
}

int export_obj(const export_job *job)
{
    const md2_model *m = job->tm->model;
    char *stem = export_with_extension(job->out_path, "");
    char *mtl_path = export_with_extension(job->out_path, ".mtl");
    char *png_path = job->png ? export_with_extension(job->out_path, ".png") : NULL;
    float *pos = (float *)malloc(m->num_vertices * 3 * sizeof *pos);
    float *nrm = (float *)malloc(m->num_vertices * 3 * sizeof *nrm);
    written w;
    int ok = 0, step = 1;
    size_t count = job->anim_given ? (size_t)job->anims[0].last - job->anims[0].first + 1 : 1;
    size_t i;

    memset(&w, 0, sizeof w);
    if (!stem || !mtl_path || (job->png && !png_path) || !pos || !nrm) {
        tool_error(EXPORT_CMD, "out of memory");
        goto done;
    }
    if (png_path && job->skin_path && strcmp(png_path, job->skin_path) == 0) {
        tool_error(EXPORT_CMD, "%s would replace the skin %s with its PNG copy: choose another "
                   "-o", job->out_path, job->skin_path);
        goto done;
    }
    if (png_path) {
        tool_out out;
        if (!tool_out_open(&out, EXPORT_CMD, png_path)) {
            step = 0;
            goto done;
        }
        if (fwrite(job->png, 1, job->png_size, out.file) != job->png_size && !ferror(out.file)) {
            tool_error(EXPORT_CMD, "cannot write %s: short write", png_path);
            tool_out_abort(&out);
            step = 0;
            goto done;
        }
        step = finish(&out, png_path, &w);
        if (step != 1)
            goto done;
    }
    step = write_mtl(job, mtl_path, png_path, &w);
    for (i = 0; step == 1 && i < count; i++) {
        uint32_t frame = job->anim_given ? job->anims[0].first + (uint32_t)i : job->frame;
        char *path = job->anim_given ? frame_path(stem, i, count) : NULL;
        if (job->anim_given && !path) {
            step = -1;
            break;
        }
        step = write_frame(job, path ? path : job->out_path, mtl_path, frame, i, pos, nrm, &w);
        free(path);
    }
    if (step == 1) {
        ok = 1;
        if (job->anim_given) {
            char *first = frame_path(stem, 0, count), *last = frame_path(stem, count - 1, count);
            printf("wrote %s", first ? first : stem);
            if (count > 1)
                printf(" .. %s", last ? last : stem);
            printf(" (%lu keyframe%s of animation ", (unsigned long)count, count > 1 ? "s" : "");
            put_clean(stdout, job->anims[0].name);
            printf(") with %s", mtl_path);
            free(first);
            free(last);
        } else {
            printf("wrote %s (keyframe %lu) with %s", job->out_path, (unsigned long)job->frame,
                   mtl_path);
        }
        printf(": %lu v, %lu vt, %lu vn, %lu f%s; ", (unsigned long)m->num_vertices,
               (unsigned long)m->num_texcoords, (unsigned long)m->num_vertices,
               (unsigned long)m->num_triangles, count > 1 ? " each" : "");
        if (png_path)
            printf("skin %s as %s\n", job->skin_path, png_path);
        else
            printf("no skin\n");
    }
done:
    if (step == -1)
        tool_error(EXPORT_CMD, "out of memory");
    written_free(&w, !ok);
    free(stem);
    free(mtl_path);
    free(png_path);
    free(pos);
    free(nrm);
    return ok ? TOOL_OK : TOOL_FAILED;
}
