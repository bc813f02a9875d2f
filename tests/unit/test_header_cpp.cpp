// The public headers compile as C++ (-Wall -Wextra -Wpedantic -Werror),
// together and each alone (header_alone.c as C++), and their declarations
// link from C++ (extern "C").
//
// SPDX-License-Identifier: MIT
#include <md2/md2.h>
#include <md2/animation.h>
#include <md2/mesh.h>
#include <md2/skin.h>
#include <md2/tags.h>
#include <md2/bundle.h>
#include <md2/build.h>
#include <md2/simplify.h>

#include <cstdio>
#include <cstring>

// tests/header_alone.c as C++, compiled once for each header alone
int md2_header_alone_md2();
int md2_header_alone_animation();
int md2_header_alone_mesh();
int md2_header_alone_skin();
int md2_header_alone_tags();
int md2_header_alone_bundle();
int md2_header_alone_build();
int md2_header_alone_simplify();

int main()
{
    static const unsigned char not_md2[4] = {'I', 'D', 'P', '2'};
    md2_options opts;
    md2_diagnostic diag;
    md2_model *model = nullptr;

    std::memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    md2_result r = md2_parse(not_md2, sizeof not_md2, &opts, &model);
    if (r != MD2_ERR_TRUNCATED_HEADER || model != nullptr) {
        std::fprintf(stderr, "C++: unexpected result %s\n", md2_result_string(r));
        return 1;
    }
    if (md2_build(nullptr, nullptr, &model) != MD2_ERR_INVALID_ARGUMENT ||
        std::strcmp(md2_profile_string(MD2_PROFILE_QUAKE2), "") == 0) {
        std::fprintf(stderr, "C++: the builder's declarations do not link\n");
        return 1;
    }
    std::size_t n = 0;
    const md2_anim *table = md2_anims_quake2_player(&n);
    if (n != 20 || table == nullptr || md2_anim_find(table, n, "run") != 1) {
        std::fprintf(stderr, "C++: unexpected animation table\n");
        return 1;
    }
    float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, out[16];
    if (md2_attach(id, id, out) != MD2_OK || out[15] != 1.0f ||
        md2_tags_find(nullptr, "tag_head") != MD2_TAG_NOT_FOUND) {
        std::fprintf(stderr, "C++: unexpected attachment results\n");
        return 1;
    }
    md2_limits q = md2_limits_quake2();
    if (q.max_triangles != 4096 || md2_normal(0) == nullptr) {
        std::fprintf(stderr, "C++: unexpected limits or normal table\n");
        return 1;
    }
    md2_vertex_layout layout = md2_layout_default(MD2_LAYOUT_Y_UP);
    md2_mesh *mesh = nullptr;
    if (layout.stride != 32 || md2_mesh_build(nullptr, nullptr, &mesh) != MD2_ERR_INVALID_ARGUMENT ||
        mesh != nullptr) {
        std::fprintf(stderr, "C++: unexpected mesh API result\n");
        return 1;
    }
    md2_image *image = nullptr;
    if (md2_pcx_decode(not_md2, sizeof not_md2, nullptr, &image) != MD2_ERR_TRUNCATED_HEADER ||
        image != nullptr) {
        std::fprintf(stderr, "C++: unexpected skin API result\n");
        return 1;
    }
    if (!md2_header_alone_md2() || !md2_header_alone_animation() || !md2_header_alone_mesh() ||
        !md2_header_alone_skin() || !md2_header_alone_tags() || !md2_header_alone_bundle() ||
        !md2_header_alone_build() || !md2_header_alone_simplify()) {
        std::fprintf(stderr, "C++: a header alone does not declare what it should\n");
        return 1;
    }
    std::printf("C++ header test: libmd2 %s\n", md2_version_string());
    return 0;
}
