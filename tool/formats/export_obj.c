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
 * The files appear together or not at all (tool_outset): each is written
 * under a temporary name and renamed into place, an old file of the same
 * name kept aside until the last is in place; if one fails, the new ones
 * are removed and the old ones put back.
 *
 * SPDX-License-Identifier: MIT
 */
#include "export_tags.h"

#include <stdlib.h>
#include <string.h>

#define MATERIAL_NAME "skin"

static int write_mtl(const export_job *job, const char *path, const char *png_path,
                     const char *stem, tool_outset *set)
{
    tool_out out;
    FILE *f;
    if (!export_not_skin(job, path) || !tool_out_open(&out, EXPORT_CMD, path))
        return 0;
    f = out.file;
    fprintf(f, "# material of the OBJ files written by md2 export (libmd2 %s) from ",
            md2_version_string());
    tool_put_clean(f, job->model_path);
    fputc('\n', f);
    if (png_path) {
        fputs("# map_Kd: the skin ", f);
        tool_put_clean(f, job->skin_path);
        fputs(" as PNG\n", f);
    } else {
        fputs("# no skin (none given, found or readable; --skin FILE gives one): no map_Kd, "
              "a plain white material\n", f);
    }
    fprintf(f, "newmtl %s\nKa 1 1 1\nKd 1 1 1\nKs 0 0 0\nd 1\nillum 1\n", MATERIAL_NAME);
    if (png_path) {
        fputs("map_Kd ", f);
        tool_put_clean(f, tool_base_name(png_path));
        fputc('\n', f);
    }
    if (!export_tags_obj_mtl(job, stem, f, set)) {
        tool_out_abort(&out);
        return 0;
    }
    return tool_outset_place(set, &out);
}

/* One keyframe as OBJ. pos and nrm hold num_vertices * 3 floats. */
static int write_frame(const export_job *job, const char *path, const char *mtl_path,
                       uint32_t frame, size_t index, float *pos, float *nrm, tool_outset *set)
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
    if (!export_not_skin(job, path) || !tool_out_open(&out, EXPORT_CMD, path))
        return 0;
    f = out.file;
    fprintf(f, "# md2 export (libmd2 %s) of ", md2_version_string());
    tool_put_clean(f, job->model_path);
    fprintf(f, ": keyframe %lu (", (unsigned long)frame);
    tool_put_clean(f, m->frames[frame].name);
    fputc(')', f);
    if (job->anim_given) {
        fputs(", animation ", f);
        tool_put_clean(f, job->anims[0].name);
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
    tool_put_clean(f, tool_base_name(mtl_path));
    fputc('\n', f);
    if (job->num_attached > 0) {
        fputs("o ", f);
        tool_put_clean(f, tool_base_name(job->model_path));
        fputc('\n', f);
    }
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
    if (!export_tags_obj_write(job, f, frame)) {
        tool_out_abort(&out);
        return 0;
    }
    return tool_outset_place(set, &out);
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
    char *stem = tool_with_extension(job->out_path, "");
    char *mtl_path = tool_with_extension(job->out_path, ".mtl");
    char *png_path = job->png ? tool_with_extension(job->out_path, ".png") : NULL;
    float *pos = (float *)malloc(m->num_vertices * 3 * sizeof *pos);
    float *nrm = (float *)malloc(m->num_vertices * 3 * sizeof *nrm);
    tool_outset set;
    int ok = 0;
    FILE *out;
    size_t count = job->anim_given ? (size_t)job->anims[0].last - job->anims[0].first + 1 : 1;
    size_t i;

    memset(&set, 0, sizeof set);
    if (!stem || !mtl_path || (job->png && !png_path) || !pos || !nrm) {
        tool_error(EXPORT_CMD, "out of memory");
        goto done;
    }
    /* the least the files hold: "v 0 0 0", "vn 0 0 1", "vt 0 1" lines a
     * vertex and texcoord, "f 1/1/1 2/2/2 3/3/3" a triangle, each file */
    if (!export_within_budget(job, (double)count * (17.0 * (double)m->num_vertices +
                                                    7.0 * (double)m->num_texcoords +
                                                    20.0 * (double)m->num_triangles) +
                                       (double)job->png_size, 0))
        goto done;
    if (png_path && (!export_not_skin(job, png_path) ||
                     !tool_outset_write(&set, png_path, job->png, job->png_size)))
        goto done;
    if (!write_mtl(job, mtl_path, png_path, stem, &set))
        goto done;
    for (i = 0; i < count; i++) {
        uint32_t frame = job->anim_given ? job->anims[0].first + (uint32_t)i : job->frame;
        char *path = job->anim_given ? frame_path(stem, i, count) : NULL;
        int written;
        if (job->anim_given && !path) {
            tool_error(EXPORT_CMD, "out of memory");
            goto done;
        }
        written = write_frame(job, path ? path : job->out_path, mtl_path, frame, i, pos, nrm, &set);
        free(path);
        if (!written || !export_within_budget(job, set.bytes, 0))
            goto done;
    }
    ok = 1;
    out = tool_stdout();
    if (job->anim_given) {
        char *first = frame_path(stem, 0, count), *last = frame_path(stem, count - 1, count);
        tool_term_printf(out, "wrote %s", first ? first : stem);
        if (count > 1)
            tool_term_printf(out, " .. %s (the %lu keyframes of animation ", last ? last : stem,
                   (unsigned long)count);
        else
            fprintf(out, " (the one keyframe of animation ");
        tool_put_clean(out, job->anims[0].name);
        fputc(')', out);
        free(first);
        free(last);
    } else {
        tool_term_printf(out, "wrote %s (keyframe %lu)", job->out_path, (unsigned long)job->frame);
    }
    if (png_path)
        tool_term_printf(out, ", %s and %s", mtl_path, png_path);
    else
        tool_term_printf(out, " and %s", mtl_path);
    fprintf(out, ": %lu vert%s, %lu texture coordinate%s, %lu triangle%s%s, ",
           (unsigned long)m->num_vertices, m->num_vertices == 1 ? "ex" : "ices",
           (unsigned long)m->num_texcoords, m->num_texcoords == 1 ? "" : "s",
           (unsigned long)m->num_triangles, m->num_triangles == 1 ? "" : "s",
           count > 1 ? " each" : "");
    if (png_path)
        tool_term_printf(out, "skin %s (%dx%d)", job->skin_path, job->skin_width,
                         job->skin_height);
    else
        fprintf(out, "no skin");
    fputc('\n', out);
    export_tags_obj_report(job, out);
done:
    tool_outset_finish(&set, ok);
    free(stem);
    free(mtl_path);
    free(png_path);
    free(pos);
    free(nrm);
    return ok ? TOOL_OK : TOOL_FAILED;
}
