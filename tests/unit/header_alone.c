/*
 * Each public header compiles alone, included first and twice, as strict
 * C99 and (copied to header_alone.cpp) as C++11: tests/CMakeLists.txt
 * compiles this file once for each header, with MD2_ALONE_<NAME> defined,
 * into test_header_c and test_header_cpp, whose main() calls the function
 * each copy defines, md2_header_alone_<name>().
 *
 * The function calls what a program that includes only that header may
 * call, as documented, with arguments each call refuses: the declarations
 * that moved between headers are still reached from the headers that held
 * them in libmd2 1.0 (<md2/tags.h>: the bundle loader, now
 * <md2/bundle.h>, and the linked-model calls, now <md2/animation.h>;
 * <md2/build.h>: md2_normal_nearest(), and <md2/mesh.h>:
 * md2_frame_transforms(), now both <md2/md2.h>). Returns 1 when every call
 * answers as documented.
 *
 * SPDX-License-Identifier: MIT
 */
#if defined(MD2_ALONE_MD2)
#include <md2/md2.h>
#include <md2/md2.h>
#define MD2_ALONE_FN md2_header_alone_md2
#elif defined(MD2_ALONE_ANIMATION)
#include <md2/animation.h>
#include <md2/animation.h>
#define MD2_ALONE_FN md2_header_alone_animation
#elif defined(MD2_ALONE_MESH)
#include <md2/mesh.h>
#include <md2/mesh.h>
#define MD2_ALONE_FN md2_header_alone_mesh
#elif defined(MD2_ALONE_SKIN)
#include <md2/skin.h>
#include <md2/skin.h>
#define MD2_ALONE_FN md2_header_alone_skin
#elif defined(MD2_ALONE_TAGS)
#include <md2/tags.h>
#include <md2/tags.h>
#define MD2_ALONE_FN md2_header_alone_tags
#elif defined(MD2_ALONE_BUNDLE)
#include <md2/bundle.h>
#include <md2/bundle.h>
#define MD2_ALONE_FN md2_header_alone_bundle
#elif defined(MD2_ALONE_BUILD)
#include <md2/build.h>
#include <md2/build.h>
#define MD2_ALONE_FN md2_header_alone_build
#elif defined(MD2_ALONE_SIMPLIFY)
#include <md2/simplify.h>
#include <md2/simplify.h>
#define MD2_ALONE_FN md2_header_alone_simplify
#else
#error "define MD2_ALONE_<HEADER> (tests/CMakeLists.txt)"
#endif

int MD2_ALONE_FN(void);

int MD2_ALONE_FN(void)
{
    /* every header includes <md2/md2.h> */
    int ok = md2_normal(0) != NULL &&
             md2_frame_transforms(NULL, NULL) == MD2_ERR_INVALID_ARGUMENT &&
             md2_normal_nearest(0.0f, 0.0f, 1.0f) == 5u; /* table normal 5 is (0, 0, 1) */
#if defined(MD2_ALONE_ANIMATION) || defined(MD2_ALONE_MESH) || defined(MD2_ALONE_TAGS) || \
    defined(MD2_ALONE_BUNDLE)
    {
        md2_player p;
        float xyz[3], lo[3], hi[3];
        md2_player_init(&p);
        ok = ok &&
             md2_player_pose_linked(&p, NULL, xyz, 0, NULL, 0) == MD2_ERR_INVALID_ARGUMENT &&
             md2_player_bounds_linked(&p, NULL, lo, hi) == MD2_ERR_INVALID_ARGUMENT &&
             md2_linked_check(NULL, NULL, 0, NULL) == MD2_ERR_INVALID_ARGUMENT;
    }
#endif
#if defined(MD2_ALONE_TAGS) || defined(MD2_ALONE_BUNDLE)
    {
        md2_bundle *b = NULL;
        ok = ok && md2_bundle_load_file(NULL, NULL, &b) == MD2_ERR_INVALID_ARGUMENT &&
             b == NULL && MD2_BUNDLE_TAG == 4u;
        md2_bundle_free(NULL);
    }
#endif
#if defined(MD2_ALONE_TAGS)
    ok = ok && md2_tags_find(NULL, "tag_head") == MD2_TAG_NOT_FOUND;
#endif
    return ok;
}
