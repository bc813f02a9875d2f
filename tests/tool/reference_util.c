/*
 * reference_util.h: what the judges' reference programs share.
 *
 * SPDX-License-Identifier: MIT
 */
#include "reference_util.h"

#include <stdlib.h>
#include <string.h>

void ref_fail(const char *prog, const char *msg, const char *detail)
{
    fprintf(stderr, "%s: %s%s%s\n", prog, msg, detail ? ": " : "", detail ? detail : "");
}

int ref_load(const char *prog, const char *path, const char *anim_name, unsigned long frame,
             ref_model *out)
{
    md2_options opts;
    md2_diagnostic diag;
    const md2_model *m;
    float lo[3], hi[3];
    size_t k;
    int c;
    memset(out, 0, sizeof *out);
    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    if (md2_bundle_load_file(path, &opts, &out->bundle) != MD2_OK) {
        ref_fail(prog, "cannot load the model", diag.message);
        return 0;
    }
    m = out->bundle->model;
    out->anim_end = out->bundle->num_anims;
    if (anim_name) {
        out->first_anim = md2_anim_find(out->bundle->anims, out->bundle->num_anims, anim_name);
        if (out->first_anim == MD2_ANIM_NOT_FOUND) {
            ref_fail(prog, "no such animation", anim_name);
            goto fail;
        }
        out->anim_end = out->first_anim + 1;
        frame += out->bundle->anims[out->first_anim].first; /* counted in the animation */
    }
    if (frame >= m->num_frames) {
        ref_fail(prog, "--frame is out of range", NULL);
        goto fail;
    }
    out->frame = frame;
    for (k = 0; k < m->num_frames; k++) {
        float fl[3], fh[3];
        md2_frame_bounds(m, (uint32_t)k, fl, fh);
        for (c = 0; c < 3; c++) {
            if (k == 0 || fl[c] < lo[c])
                lo[c] = fl[c];
            if (k == 0 || fh[c] > hi[c])
                hi[c] = fh[c];
        }
    }
    for (c = 0; c < 3; c++)
        if ((double)hi[c] - (double)lo[c] > out->size)
            out->size = (double)hi[c] - (double)lo[c];
    return 1;
fail:
    md2_bundle_free(out->bundle);
    memset(out, 0, sizeof *out);
    return 0;
}

void ref_put_number(FILE *f, const char *sep, double v)
{
    char text[48];
    int precision;
    for (precision = 9; precision <= 17; precision++) {
        snprintf(text, sizeof text, "%.*g", precision, v);
        if (strtod(text, NULL) == v)
            break;
    }
    fprintf(f, "%s%s", sep, text);
}

int ref_close(const char *prog, FILE *f, const char *path, int status)
{
    int bad;
    if (!f)
        return status;
    bad = ferror(f);
    if (fclose(f) != 0)
        bad = 1;
    if (bad && status == 0) {
        ref_fail(prog, path, "write error");
        status = 1;
    }
    return status;
}
