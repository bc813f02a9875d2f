/*
 * The code of README.md's "The one obvious way": load, pose, draw, export
 * and free, one after the other in one main(). Each region between a
 * "README: NAME begin" and a "README: NAME end" line is one of that
 * section's C blocks, verbatim once the region's indentation is taken off,
 * in the order README shows them; tests/docs/readme_sync.cmake fails when the two
 * differ, so change both together. The lines outside the regions check, on
 * examples/models/crystal.md2, that each block does what README says.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/mesh.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "readme_example: %s\n", what);
        exit(1);
    }
}

/* The whole file at path, into *size bytes (the caller frees it). */
static unsigned char *read_whole(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    long end;
    check(f != NULL, "cannot open the model to compare");
    if (fseek(f, 0, SEEK_END) == 0 && (end = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
        *size = (size_t)end;
        data = malloc(*size);
        if (data && fread(data, 1, *size, f) != *size) {
            free(data);
            data = NULL;
        }
    }
    fclose(f);
    check(data != NULL, "cannot read the model to compare");
    return data;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: readme_example MODEL.md2 (a model with a \"spin\" animation)\n");
        return 2;
    }
    const char *path = argv[1];
    double dt = 0.25; /* a game frame of a quarter of a second */

    /* README: load begin */
    md2_options opts = {0}; /* zero means defaults: malloc, lenient */
    md2_diagnostic diag;    /* filled in when a call fails: what is wrong, and where */
    md2_model *model;
    opts.error = &diag;
    if (md2_load_file(path, &opts, &model) != MD2_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }
    printf("%zu vertices, %zu triangles, %zu frames\n", model->num_vertices,
           model->num_triangles, model->num_frames);
    /* README: load end */

    /* README: lerp begin */
    float *positions = malloc(model->num_vertices * 3 * sizeof *positions); /* x, y, z a vertex */
    if (!positions || md2_lerp(model, 0, 1, 0.25f, positions, 0, NULL, 0) != MD2_OK)
        return 1;
    /* README: lerp end */

    /* a quarter of the way from keyframe 0 to keyframe 1, vertex by vertex */
    for (size_t i = 0; i < model->num_vertices; i++) {
        const md2_frame *a = &model->frames[0], *b = &model->frames[1];
        for (size_t k = 0; k < 3; k++) {
            float pa = a->scale[k] * a->vertices[i].v[k] + a->translate[k];
            float pb = b->scale[k] * b->vertices[i].v[k] + b->translate[k];
            check(fabsf(positions[3 * i + k] - (0.75f * pa + 0.25f * pb)) < 1e-4f,
                  "md2_lerp did not give the pose a quarter of the way from keyframe 0 to 1");
        }
    }

    /* README: player begin */
    md2_anim anims[64];
    size_t count = md2_anims_from_names(model, anims, 64); /* spin01..spin08 make "spin" */
    md2_player player; /* one per character: the model stays shared and read-only */
    md2_player_init(&player);
    if (md2_player_play_named(&player, anims, count, "spin", MD2_PLAY_LOOP,
                              MD2_RATE_ANIM) != MD2_OK)
        return 1;
    md2_player_advance(&player, dt); /* every game frame, dt seconds later */
    md2_player_pose(&player, model, positions, 0, NULL, 0);
    /* README: player end */

    /* "spin" is keyframes 0 to 7 at 10 a second: after 0.25 s, halfway
     * from keyframe 2 to 3, which is what md2_lerp() gives there */
    md2_player_frames shown;
    md2_player_state(&player, &shown);
    check(shown.frame_a == 2 && shown.frame_b == 3 && shown.t == 0.5f && shown.weight == 1.0f,
          "the player does not show spin halfway from keyframe 2 to 3 after 0.25 s");
    float *expected = malloc(model->num_vertices * 3 * sizeof *expected);
    check(expected != NULL, "out of memory");
    check(md2_lerp(model, 2, 3, 0.5f, expected, 0, NULL, 0) == MD2_OK &&
              memcmp(expected, positions, model->num_vertices * 3 * sizeof *positions) == 0,
          "md2_player_pose() did not write md2_lerp()'s pose halfway from keyframe 2 to 3");

    /* README: draw begin */
    md2_mesh_options mesh_opts = {.flags = MD2_MESH_COUNTER_CLOCKWISE}; /* OpenGL's front faces */
    md2_mesh *mesh; /* once per model: welded vertices, and indices to draw them by */
    if (md2_mesh_build(model, &mesh_opts, &mesh) != MD2_OK)
        return 1;
    md2_vertex_layout layout = md2_layout_default(MD2_LAYOUT_UNIT_NORMALS);
    void *vertices = malloc(mesh->num_vertices * layout.stride); /* or a mapped GPU buffer */
    /* every frame: position, unit normal and uv at bytes 0, 12 and 24 of 32 a vertex */
    if (!vertices || md2_mesh_pose(mesh, model, &player, vertices, &layout) != MD2_OK)
        return 1;
    /* README: draw end */

    /* the layout README names, and every welded vertex at its model
     * vertex's pose, with a unit normal and its own uv */
    check(layout.stride == 32 && layout.position_offset == 0 && layout.normal_offset == 12 &&
              layout.uv_offset == 24,
          "md2_layout_default() is not position, normal and uv at bytes 0, 12 and 24 of 32");
    check(mesh->num_indices == 3 * model->num_triangles, "the mesh lost triangles");
    for (size_t i = 0; i < mesh->num_vertices; i++) {
        float v[8];
        memcpy(v, (const unsigned char *)vertices + i * layout.stride, sizeof v);
        check(memcmp(v, positions + 3 * mesh->source_vertex[i], 3 * sizeof *v) == 0,
              "a welded vertex is not at its model vertex's pose");
        check(fabsf(v[3] * v[3] + v[4] * v[4] + v[5] * v[5] - 1.0f) < 1e-5f,
              "a welded vertex's normal is not of unit length");
        check(v[6] == mesh->uv[2 * i] && v[7] == mesh->uv[2 * i + 1],
              "a welded vertex does not have its uv");
    }

    /* README: write begin */
    size_t size = md2_write_size(model); /* the exact size of the file */
    void *bytes = malloc(size);
    if (!bytes || md2_write(model, bytes, size, NULL, &diag) != MD2_OK)
        return 1;
    /* README: write end */

    /* the bundled model is canonical, so it comes back byte for byte */
    size_t file_size;
    unsigned char *file = read_whole(path, &file_size);
    check(file_size == size && memcmp(file, bytes, size) == 0,
          "md2_write() did not give back the bytes of the file");
    free(file);
    free(expected);

    /* README: free begin */
    free(bytes);
    free(vertices);
    md2_mesh_free(mesh);
    free(positions);
    md2_free(model);
    /* README: free end */

    printf("load, lerp, player, draw, write and free do what README.md says\n");
    return 0;
}
