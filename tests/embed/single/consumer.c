/*
 * A program that uses libmd2 through single_include/md2_single.h alone: its
 * include path holds that file and nothing else of libmd2, impl.c compiles
 * the implementation, and this file (compiled as C99, and as C++ by
 * consumer.cpp) calls the library through the declarations: load a file,
 * write it back byte for byte, play an animation, weld and pose a mesh,
 * decode a skin, and build a model.
 *
 * SPDX-License-Identifier: MIT
 */
#include "md2_single.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MD2_EXAMPLES_DIR
#error "MD2_EXAMPLES_DIR must name the examples folder"
#endif

static unsigned char *read_whole(const char *name, size_t *size)
{
    char path[1024];
    FILE *f;
    long n;
    unsigned char *bytes;

    snprintf(path, sizeof path, "%s/models/%s", MD2_EXAMPLES_DIR, name);
    f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    assert_true(n > 0);
    assert_int_equal(fseek(f, 0, SEEK_SET), 0);
    bytes = (unsigned char *)malloc((size_t)n);
    assert_non_null(bytes);
    assert_int_equal(fread(bytes, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return bytes;
}

static md2_model *load_crystal(void)
{
    char path[1024];
    md2_options opts;
    md2_diagnostic diag;
    md2_model *model = NULL;

    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    snprintf(path, sizeof path, "%s/models/crystal.md2", MD2_EXAMPLES_DIR);
    assert_int_equal(md2_load_file(path, &opts, &model), MD2_OK);
    assert_non_null(model);
    return model;
}

/* A file loads, its parse from memory agrees, and it writes back as the same bytes. */
static void test_load_and_write_back(void **state)
{
    size_t size = 0, written = 0;
    unsigned char *file = read_whole("crystal.md2", &size);
    md2_model *model = load_crystal();
    md2_model *parsed = NULL;
    unsigned char *out;

    (void)state;
    assert_int_equal(model->num_vertices, 14);
    assert_int_equal(model->num_triangles, 24);
    assert_int_equal(model->num_frames, 18);
    assert_int_equal(md2_parse(file, size, NULL, &parsed), MD2_OK);
    assert_int_equal(parsed->num_frames, model->num_frames);
    assert_int_equal(md2_write_size(model), size);
    out = (unsigned char *)malloc(size);
    assert_non_null(out);
    assert_int_equal(md2_write(model, out, size, &written, NULL), MD2_OK);
    assert_int_equal(written, size);
    assert_memory_equal(out, file, size);
    free(out);
    md2_free(parsed);
    md2_free(model);
    free(file);
}

/* A refused file says why: the diagnostic machinery is in the one file too. */
static void test_refusal(void **state)
{
    static const unsigned char not_md2[4] = {'I', 'D', 'P', '2'};
    md2_options opts;
    md2_diagnostic diag;
    md2_model *model = NULL;

    (void)state;
    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    assert_int_equal(md2_parse(not_md2, sizeof not_md2, &opts, &model), MD2_ERR_TRUNCATED_HEADER);
    assert_null(model);
    assert_int_equal(diag.section, MD2_SECTION_HEADER);
    assert_true(strlen(diag.message) > 0);
    assert_string_equal(md2_result_string(MD2_OK), md2_result_string(MD2_OK));
    assert_true(strstr(md2_version_string(), "1.") == md2_version_string());
}

/* The frame names' animations play, and md2_lerp at t = 0 and 1 gives the keyframes. */
static void test_animate(void **state)
{
    md2_model *model = load_crystal();
    md2_anim anims[16];
    size_t count = md2_anims_from_names(model, anims, 16);
    md2_player player;
    size_t n = model->num_vertices * 3, i;
    float *a = (float *)malloc(n * sizeof *a);
    float *b = (float *)malloc(n * sizeof *b);
    float *mid = (float *)malloc(n * sizeof *mid);

    (void)state;
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(mid);
    assert_int_equal(count, 3);
    assert_true(md2_anim_find(anims, count, "spin") < count);
    assert_int_equal(md2_decode_frame(model, 0, a, 0, NULL, 0), MD2_OK);
    assert_int_equal(md2_decode_frame(model, 1, b, 0, NULL, 0), MD2_OK);
    assert_int_equal(md2_lerp(model, 0, 1, 0.0f, mid, 0, NULL, 0), MD2_OK);
    assert_memory_equal(mid, a, n * sizeof *a);
    assert_int_equal(md2_lerp(model, 0, 1, 1.0f, mid, 0, NULL, 0), MD2_OK);
    assert_memory_equal(mid, b, n * sizeof *b);
    assert_int_equal(md2_lerp(model, 0, 1, 0.5f, mid, 0, NULL, 0), MD2_OK);
    for (i = 0; i < n; i++) {
        float lo = a[i] < b[i] ? a[i] : b[i], hi = a[i] < b[i] ? b[i] : a[i];
        assert_true(mid[i] >= lo && mid[i] <= hi);
    }
    md2_player_init(&player);
    assert_int_equal(md2_player_play_named(&player, anims, count, "spin", MD2_PLAY_LOOP,
                                           MD2_RATE_ANIM),
                     MD2_OK);
    md2_player_advance(&player, 0.05);
    assert_int_equal(md2_player_pose(&player, model, mid, 0, NULL, 0), MD2_OK);
    free(mid);
    free(b);
    free(a);
    md2_free(model);
}

/* A welded mesh poses into the default layout, with unit normals. */
static void test_mesh(void **state)
{
    md2_model *model = load_crystal();
    md2_mesh *mesh = NULL;
    md2_vertex_layout layout = md2_layout_default(MD2_LAYOUT_UNIT_NORMALS);
    float *vertices;
    size_t i;

    (void)state;
    assert_int_equal(md2_mesh_build(model, NULL, &mesh), MD2_OK);
    assert_int_equal(mesh->num_indices, model->num_triangles * 3);
    assert_int_equal(layout.stride, 32);
    vertices = (float *)malloc(mesh->num_vertices * layout.stride);
    assert_non_null(vertices);
    assert_int_equal(md2_mesh_lerp(mesh, model, 2, 3, 0.5f, vertices, &layout), MD2_OK);
    for (i = 0; i < mesh->num_vertices; i++) {
        const float *normal = vertices + i * 8 + 3;
        double length = sqrt((double)normal[0] * normal[0] + (double)normal[1] * normal[1] +
                             (double)normal[2] * normal[2]);
        assert_true(fabs(length - 1.0) < 1e-5);
    }
    free(vertices);
    md2_mesh_free(mesh);
    md2_free(model);
}

/* The bundled skin decodes, and the decoder's image encodes back to PCX that decodes the same. */
static void test_skin(void **state)
{
    size_t size = 0, capacity, written = 0;
    unsigned char *file = read_whole("skin.pcx", &size);
    md2_image *image = NULL, *again = NULL;
    md2_pcx_input in;
    unsigned char *pcx;

    (void)state;
    assert_int_equal(md2_pcx_decode(file, size, NULL, &image), MD2_OK);
    assert_true(image->width > 0 && image->height > 0);
    memset(&in, 0, sizeof in);
    in.width = image->width;
    in.height = image->height;
    in.rgba = image->rgba;
    capacity = md2_pcx_encode_size(&in);
    assert_true(capacity > 0);
    pcx = (unsigned char *)malloc(capacity);
    assert_non_null(pcx);
    assert_int_equal(md2_pcx_encode(&in, pcx, capacity, &written, NULL), MD2_OK);
    assert_int_equal(md2_pcx_decode(pcx, written, NULL, &again), MD2_OK);
    assert_int_equal(again->width, image->width);
    assert_memory_equal(again->rgba, image->rgba, (size_t)image->width * image->height * 4);
    md2_image_free(again);
    md2_image_free(image);
    free(pcx);
    free(file);
}

/* md2_rebuild makes a model with the same frames, which writes and loads strictly. */
static void test_rebuild(void **state)
{
    md2_model *model = load_crystal();
    md2_model *rebuilt = NULL;
    md2_options strict;

    (void)state;
    assert_int_equal(md2_rebuild(model, NULL, &rebuilt), MD2_OK);
    assert_int_equal(rebuilt->num_frames, model->num_frames);
    memset(&strict, 0, sizeof strict);
    strict.strict = 1;
    {
        size_t size = md2_write_size(rebuilt);
        unsigned char *bytes = (unsigned char *)malloc(size);
        md2_model *again = NULL;
        assert_non_null(bytes);
        assert_int_equal(md2_write(rebuilt, bytes, size, NULL, NULL), MD2_OK);
        assert_int_equal(md2_parse(bytes, size, &strict, &again), MD2_OK);
        md2_free(again);
        free(bytes);
    }
    md2_free(rebuilt);
    md2_free(model);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_and_write_back),
        cmocka_unit_test(test_refusal),
        cmocka_unit_test(test_animate),
        cmocka_unit_test(test_mesh),
        cmocka_unit_test(test_skin),
        cmocka_unit_test(test_rebuild),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
