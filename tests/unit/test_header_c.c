/*
 * The public headers compile as strict C99 (-std=c99 -Wall -Wextra
 * -Wpedantic -Werror), together and each alone (header_alone.c), and
 * their declarations link against the library.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>
#include <md2/animation.h>
#include <md2/mesh.h>
#include <md2/skin.h>
#include <md2/tags.h>
#include <md2/bundle.h>
#include <md2/build.h>
#include <md2/simplify.h>
#include <md2/md2.h> /* include guards: twice is fine */
#include <md2/animation.h>
#include <md2/mesh.h>
#include <md2/skin.h>
#include <md2/tags.h>
#include <md2/bundle.h>
#include <md2/build.h>
#include <md2/simplify.h>

#include <stdio.h>
#include <string.h>

/* tests/header_alone.c, compiled once for each header alone */
int md2_header_alone_md2(void);
int md2_header_alone_animation(void);
int md2_header_alone_mesh(void);
int md2_header_alone_skin(void);
int md2_header_alone_tags(void);
int md2_header_alone_bundle(void);
int md2_header_alone_build(void);
int md2_header_alone_simplify(void);

int main(void)
{
    static const unsigned char not_md2[4] = {'I', 'D', 'P', '2'};
    md2_options opts;
    md2_diagnostic diag;
    md2_model *model = NULL;
    md2_result r;

    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    r = md2_parse(not_md2, sizeof not_md2, &opts, &model);
    if (r != MD2_ERR_TRUNCATED_HEADER || model != NULL || diag.section != MD2_SECTION_HEADER) {
        fprintf(stderr, "C99: unexpected result %s\n", md2_result_string(r));
        return 1;
    }
    if (md2_build(NULL, NULL, &model) != MD2_ERR_INVALID_ARGUMENT || model != NULL ||
        md2_normal_nearest(0.0f, 0.0f, 1.0f) != 5u) {
        fprintf(stderr, "C99: the builder's declarations do not link as documented\n");
        return 1;
    }
    if (md2_anim_find(NULL, 0, "run") != MD2_ANIM_NOT_FOUND) {
        fprintf(stderr, "C99: md2_anim_find on nothing found something\n");
        return 1;
    }
    if (md2_tags_find(NULL, "tag_rweapon") != MD2_TAG_NOT_FOUND) {
        fprintf(stderr, "C99: md2_tags_find on nothing found something\n");
        return 1;
    }
    if (sizeof(md2_vertex) != 4) {
        fprintf(stderr, "C99: md2_vertex is not 4 bytes\n");
        return 1;
    }
    if (!md2_header_alone_md2() || !md2_header_alone_animation() || !md2_header_alone_mesh() ||
        !md2_header_alone_skin() || !md2_header_alone_tags() || !md2_header_alone_bundle() ||
        !md2_header_alone_build() || !md2_header_alone_simplify()) {
        fprintf(stderr, "C99: a header alone does not declare what it should\n");
        return 1;
    }
    printf("C99 header test: libmd2 %s, %s\n", md2_version_string(), diag.message);
    return 0;
}
