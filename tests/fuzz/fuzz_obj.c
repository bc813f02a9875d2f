/*
 * A libFuzzer target for md2 import's OBJ reader (tool/formats/import_obj.c,
 * through imp_obj_read_memory()): the input is one OBJ file.
 *
 * Read with a budget of 64 MiB, without a folder (mtllib lines become
 * notes). A refused input must leave the scene empty and say why in one
 * line; an accepted one must be a scene import.c can trust: one frame,
 * one scene vertex a corner, every index in range, finite positions,
 * normals and texcoords, one animation of one frame at 10 fps, material
 * indices in range, each material's image in range. The input is read a
 * second time with the same result (the reader keeps no state). Any
 * mismatch aborts; the same function runs without libFuzzer in
 * fuzz_replay.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static void check_scene(const imp_scene *s)
{
    size_t i, n;
    CHECK(s->num_frames == 1);
    CHECK(s->num_triangles > 0);
    CHECK(s->num_vertices == 3 * s->num_triangles);
    CHECK(s->positions && s->triangles);
    n = 3 * s->num_vertices;
    for (i = 0; i < n; i++) {
        CHECK(isfinite(s->positions[i]));
        if (s->normals)
            CHECK(isfinite(s->normals[i]));
    }
    CHECK((s->num_texcoords == 0) == (s->uv == NULL));
    for (i = 0; i < 2 * s->num_texcoords; i++)
        CHECK(isfinite(s->uv[i]));
    for (i = 0; i < 3 * s->num_triangles; i++) {
        CHECK(s->triangles[2 * i] < s->num_vertices);
        CHECK(s->num_texcoords == 0 ? s->triangles[2 * i + 1] == 0
                                    : s->triangles[2 * i + 1] < s->num_texcoords);
    }
    if (s->tri_material) {
        for (i = 0; i < s->num_triangles; i++)
            CHECK(s->tri_material[i] == IMP_NO_MATERIAL || s->tri_material[i] < s->num_materials);
    }
    for (i = 0; i < s->num_materials; i++) {
        CHECK(s->material_names[i] != NULL);
        CHECK(s->material_image[i] < 0 || (size_t)s->material_image[i] < s->num_images);
    }
    CHECK(s->num_anims == 1 && s->anims[0].first_frame == 0 && s->anims[0].num_frames == 1);
    CHECK(s->anims[0].fps == 10.0 && s->anims[0].name && s->anims[0].name[0]);
    for (i = 0; i < s->num_notes; i++)
        CHECK(s->notes[i] != NULL && strchr(s->notes[i], '\n') == NULL);
}

static int is_empty(const imp_scene *s)
{
    static const imp_scene zero;
    return memcmp(s, &zero, sizeof zero) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    imp_options opt;
    imp_scene a, b;
    char err[512], err2[512];
    int ok, ok2;
    memset(&opt, 0, sizeof opt);
    opt.fps = 10;
    opt.max_bytes = (size_t)64 << 20;
    err[0] = err2[0] = '\0';
    ok = imp_obj_read_memory(data, size, "fuzz.obj", NULL, &opt, &a, err, sizeof err);
    if (!ok) {
        CHECK(is_empty(&a));
        CHECK(err[0] != '\0' && strchr(err, '\n') == NULL);
    } else {
        check_scene(&a);
    }
    ok2 = imp_obj_read_memory(data, size, "fuzz.obj", NULL, &opt, &b, err2, sizeof err2);
    CHECK(ok == ok2);
    if (ok) {
        CHECK(a.num_vertices == b.num_vertices && a.num_texcoords == b.num_texcoords);
        CHECK(memcmp(a.positions, b.positions, 3 * a.num_vertices * sizeof(float)) == 0);
        CHECK(memcmp(a.triangles, b.triangles, 6 * a.num_triangles * sizeof(uint32_t)) == 0);
    } else {
        CHECK(strcmp(err, err2) == 0);
    }
    imp_scene_free(&a);
    imp_scene_free(&b);
    return 0;
}
