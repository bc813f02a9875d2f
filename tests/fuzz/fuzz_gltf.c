/*
 * A libFuzzer target for md2 import's glTF reader (tool/formats/import_gltf.c):
 * the input is a .glb or a .gltf's JSON, read from memory with external
 * files refused (imp_gltf_read_memory with no folder) and a budget of
 * 64 MiB for the scene.
 *
 * A refused input must have said why and left the scene empty; an
 * accepted one must hold together: at least one keyframe and vertex,
 * finite positions (and unit or zero normals), every triangle's corners
 * and texture coordinates in range, materials and images in range, the
 * animations' frames lying one after another within the keyframes, at a
 * positive rate. The same function runs without libFuzzer in
 * fuzz_replay.c (CTest replays the seeds, tests/fuzz/gltf_corpus, and the
 * past crashers, tests/fuzz/crashers_gltf).
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
    size_t i, n = s->num_frames * s->num_vertices * 3, at = 0;
    CHECK(s->num_frames >= 1 && s->num_vertices >= 1 && s->num_triangles >= 1);
    CHECK(s->positions && s->triangles);
    for (i = 0; i < n; i++) {
        CHECK(isfinite(s->positions[i]));
        if (s->normals)
            CHECK(isfinite(s->normals[i]) && fabsf(s->normals[i]) <= 1.0001f);
    }
    CHECK((s->num_texcoords == 0) == (s->uv == NULL));
    for (i = 0; i < 2 * s->num_texcoords; i++)
        CHECK(isfinite(s->uv[i]));
    for (i = 0; i < s->num_triangles; i++) {
        int c;
        for (c = 0; c < 3; c++) {
            CHECK(s->triangles[6 * i + 2 * c] < s->num_vertices);
            CHECK(s->num_texcoords ? s->triangles[6 * i + 2 * c + 1] < s->num_texcoords
                                   : s->triangles[6 * i + 2 * c + 1] == 0);
        }
        if (s->tri_material)
            CHECK(s->tri_material[i] == IMP_NO_MATERIAL || s->tri_material[i] < s->num_materials);
    }
    CHECK(!s->tri_material || s->num_materials);
    for (i = 0; i < s->num_materials; i++) {
        CHECK(s->material_names[i] != NULL);
        CHECK(s->material_image[i] == -1 || (s->material_image[i] >= 0 && (size_t)s->material_image[i] < s->num_images));
    }
    for (i = 0; i < s->num_images; i++) {
        CHECK(s->images[i].label != NULL);
        CHECK(s->images[i].path == NULL); /* no folder: no files */
        CHECK(s->images[i].bytes != NULL || s->images[i].size == 0);
    }
    for (i = 0; i < s->num_anims; i++) {
        CHECK(s->anims[i].name && s->anims[i].first_frame == at && s->anims[i].num_frames >= 1);
        CHECK(s->anims[i].fps > 0);
        at += s->anims[i].num_frames;
    }
    CHECK(s->num_anims ? at == s->num_frames : s->num_frames == 1);
    for (i = 0; i < s->num_notes; i++)
        CHECK(s->notes[i] != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    imp_options opt;
    imp_scene s;
    char err[512];
    memset(&opt, 0, sizeof opt);
    opt.fps = 10;
    opt.max_bytes = (size_t)64 << 20;
    opt.max_nodes = 16384;     /* md2 import's defaults: no input may take minutes */
    opt.max_work = 10000000;
    if (imp_gltf_read_memory(data, size, NULL, &opt, &s, err, sizeof err)) {
        check_scene(&s);
        imp_scene_free(&s);
    } else {
        CHECK(err[0] != '\0');
        CHECK(s.positions == NULL && s.num_vertices == 0 && s.num_notes == 0);
    }
    return 0;
}
