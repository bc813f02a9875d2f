/*
 * export_make_model: writes the odd models the md2 export tests need
 * (export.cases), through md2_write() from a model filled in by hand.
 * Built with the tests only; not part of the md2 command.
 *
 *   export_make_model long OUT.md2   1001 keyframes "long0000".."long1000"
 *                                    (one animation of 1001 frames) of a
 *                                    tetrahedron that turns about Z
 *   export_make_model flat OUT.md2   4 vertices, 2 keyframes, no triangle,
 *                                    no skin name
 *   export_make_model big OUT.md2    21,846 triangles whose 65,538 corners
 *                                    are all distinct (vertex, texcoord)
 *                                    pairs: more welded vertices than
 *                                    16-bit indices reach; 2 keyframes
 *   export_make_model far OUT.md2    the tetrahedron of long, 24 keyframes
 *                                    "far0000".."far0023" (one animation),
 *                                    scaled by 0.01 and moved 1000 units
 *                                    from the origin on every axis: a model
 *                                    of 2 units that barely moves far away
 *   export_make_model farther OUT.md2  far, 100,000 units from the origin
 *                                    ("farther0000".."farther0023")
 *   export_make_model esc OUT.md2    the tetrahedron of long, 2 keyframes
 *                                    named ESC "[2Jx00" and ESC "[2Jx01":
 *                                    an animation name with a control byte
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int write_model(const md2_model *m, const char *path)
{
    size_t size = md2_write_size(m), written = 0;
    unsigned char *data = (unsigned char *)malloc(size ? size : 1);
    md2_diagnostic diag;
    FILE *f;
    int ok;
    if (!data) {
        fprintf(stderr, "export_make_model: out of memory\n");
        return 0;
    }
    if (md2_write(m, data, size, &written, &diag) != MD2_OK) {
        fprintf(stderr, "export_make_model: %s\n", diag.message);
        free(data);
        return 0;
    }
    f = fopen(path, "wb");
    ok = f && fwrite(data, 1, written, f) == written;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "export_make_model: cannot write %s\n", path);
    free(data);
    return ok;
}

int main(int argc, char **argv)
{
    md2_model m;
    md2_frame *frames = NULL;
    md2_vertex *verts = NULL;
    md2_texcoord *st = NULL;
    md2_triangle *tris = NULL;
    md2_skin skin;
    size_t nf, nv, nt = 0, nst = 1, f, i;
    float scale = 1.0f, offset = 0.0f;
    const char *prefix;
    int digits = 4, ok = 0;

    if (argc != 3 || (strcmp(argv[1], "long") && strcmp(argv[1], "flat") && strcmp(argv[1], "big") &&
                      strcmp(argv[1], "far") && strcmp(argv[1], "farther") &&
                      strcmp(argv[1], "esc"))) {
        fprintf(stderr, "usage: export_make_model long|flat|big|far|farther|esc OUT.md2\n");
        return 2;
    }
    memset(&m, 0, sizeof m);
    memset(&skin, 0, sizeof skin);
    prefix = argv[1];
    if (strcmp(argv[1], "long") == 0 || strcmp(argv[1], "far") == 0 ||
        strcmp(argv[1], "farther") == 0 || strcmp(argv[1], "esc") == 0) {
        nf = 1001;
        nv = 4;
        nt = 4;
        nst = 3;
        if (strcmp(argv[1], "far") == 0 || strcmp(argv[1], "farther") == 0) {
            nf = 24;
            scale = 0.01f;
            offset = strcmp(argv[1], "far") == 0 ? 1000.0f : 100000.0f;
        } else if (strcmp(argv[1], "esc") == 0) {
            nf = 2;
            prefix = "\033[2Jx";
            digits = 2;
        }
    } else if (strcmp(argv[1], "flat") == 0) {
        nf = 2;
        nv = 4;
    } else {
        nf = 2;
        nt = 21846;
        nv = 65536;
        nst = 65536;
    }
    frames = (md2_frame *)calloc(nf, sizeof *frames);
    verts = (md2_vertex *)calloc(nf * nv, sizeof *verts);
    st = (md2_texcoord *)calloc(nst, sizeof *st);
    tris = (md2_triangle *)calloc(nt ? nt : 1, sizeof *tris);
    if (!frames || !verts || !st || !tris) {
        fprintf(stderr, "export_make_model: out of memory\n");
        goto done;
    }
    for (i = 0; i < nst; i++) {
        st[i].s = (int16_t)(i % 256);
        st[i].t = (int16_t)(i / 256);
    }
    for (i = 0; i < nt; i++) {
        int k;
        for (k = 0; k < 3; k++) {
            size_t corner = 3 * i + (size_t)k;
            if (nt == 4) { /* the tetrahedron's faces */
                static const uint16_t faces[4][3] = {{0, 2, 1}, {0, 3, 2}, {0, 1, 3}, {1, 2, 3}};
                tris[i].vertex[k] = faces[i][k];
                tris[i].texcoord[k] = (uint16_t)k;
            } else { /* every corner its own (vertex, texcoord) pair */
                tris[i].vertex[k] = (uint16_t)(corner % 65536);
                tris[i].texcoord[k] = (uint16_t)((corner / 65536) * 7 + corner % 65536) % 65536;
            }
        }
    }
    for (f = 0; f < nf; f++) {
        double turn = 6.283185307179586 * (double)f / (double)nf;
        frames[f].scale[0] = frames[f].scale[1] = frames[f].scale[2] = scale;
        frames[f].translate[0] = frames[f].translate[1] = offset - 128.0f * scale;
        frames[f].translate[2] = offset;
        snprintf(frames[f].name, sizeof frames[f].name, "%s%0*u", prefix, digits,
                 (unsigned)(f % 10000));
        frames[f].vertices = verts + f * nv;
        for (i = 0; i < nv; i++) {
            md2_vertex *v = &verts[f * nv + i];
            if (nv == 4) { /* a tetrahedron standing on Z, turned about it */
                static const double corners[4][3] = {
                    {0.0, 0.0, 200.0}, {100.0, 0.0, 0.0}, {-50.0, 86.6, 0.0}, {-50.0, -86.6, 0.0}};
                double x = corners[i][0] * cos(turn) - corners[i][1] * sin(turn);
                double y = corners[i][0] * sin(turn) + corners[i][1] * cos(turn);
                v->v[0] = (uint8_t)floor(x + 128.5); /* 28..228 */
                v->v[1] = (uint8_t)floor(y + 128.5);
                v->v[2] = (uint8_t)corners[i][2];
                v->normal = (uint8_t)(i * 40 + f % 3);
            } else {
                v->v[0] = (uint8_t)(i % 256);
                v->v[1] = (uint8_t)((i / 256) % 256);
                v->v[2] = (uint8_t)((i * 7 + f * 13) % 256);
                v->normal = (uint8_t)((i + f) % 162);
            }
        }
    }
    strcpy(skin.name, "none.pcx");
    m.skin_width = 256;
    m.skin_height = 256;
    m.num_skins = nt ? 1 : 0; /* the others name a skin that is not there */
    m.skins = nt ? &skin : NULL;
    m.num_vertices = nv;
    m.num_texcoords = nst;
    m.num_triangles = nt;
    m.num_frames = nf;
    m.frames = frames;
    m.texcoords = st;
    m.triangles = tris;
    ok = write_model(&m, argv[2]);
done:
    free(frames);
    free(verts);
    free(st);
    free(tris);
    return ok ? 0 : 1;
}
