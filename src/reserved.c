/*
 * Reserved fields: the check that the reserved_ members of the public
 * structs a caller passes in are zero (reserved.h). Reads the structs
 * only; never allocates.
 *
 * SPDX-License-Identifier: MIT
 */
#include "reserved.h"

#include "diag.h"
#include "md2/animation.h"
#include "md2/build.h"
#include "md2/mesh.h"
#include "md2/skin.h"
#include "md2/tags.h"

#include <stdio.h>
#include <string.h>

/* The number of elements of a struct type's reserved_ member. */
#define RESERVED_COUNT(type) (sizeof(((const type *)0)->reserved_) / \
                              sizeof(((const type *)0)->reserved_[0]))

/* The diagnostic's field for each element: static strings. */
#define FIELDS2(s) s ".reserved_[0]", s ".reserved_[1]"
#define FIELDS4(s) FIELDS2(s), s ".reserved_[2]", s ".reserved_[3]"
#define FIELDS6(s) FIELDS4(s), s ".reserved_[4]", s ".reserved_[5]"
#define FIELDS7(s) FIELDS6(s), s ".reserved_[6]"
#define FIELDS8(s) FIELDS7(s), s ".reserved_[7]"

static const char *const options_fields[] = {FIELDS8("md2_options")};
static const char *const limits_fields[] = {FIELDS4("md2_limits")};
static const char *const pcx_input_fields[] = {FIELDS4("md2_pcx_input")};
static const char *const model_fields[] = {FIELDS4("md2_model")};
static const char *const anim_fields[] = {FIELDS2("md2_anim")};
static const char *const mesh_options_fields[] = {FIELDS6("md2_mesh_options")};
static const char *const mesh_fields[] = {FIELDS4("md2_mesh")};
static const char *const layout_fields[] = {FIELDS2("md2_vertex_layout")};
static const char *const tags_fields[] = {FIELDS4("md2_tags")};
static const char *const build_options_fields[] = {FIELDS7("md2_build_options")};
static const char *const build_input_fields[] = {FIELDS8("md2_build_input")};
static const char *const build_anim_fields[] = {FIELDS2("md2_build_anim")};

/* compile-time checks: one field name for every reserved element */
#define SAME_COUNT(type, names)                                              \
    typedef char md2__reserved_##names[RESERVED_COUNT(type) ==              \
                                               sizeof names / sizeof names[0] \
                                           ? 1                               \
                                           : -1]
SAME_COUNT(md2_options, options_fields);
SAME_COUNT(md2_limits, limits_fields);
SAME_COUNT(md2_pcx_input, pcx_input_fields);
SAME_COUNT(md2_model, model_fields);
SAME_COUNT(md2_anim, anim_fields);
SAME_COUNT(md2_mesh_options, mesh_options_fields);
SAME_COUNT(md2_mesh, mesh_fields);
SAME_COUNT(md2_vertex_layout, layout_fields);
SAME_COUNT(md2_tags, tags_fields);
SAME_COUNT(md2_build_options, build_options_fields);
SAME_COUNT(md2_build_input, build_input_fields);
SAME_COUNT(md2_build_anim, build_anim_fields);

/* The first non-zero element of r[0 .. n), or n. */
static size_t first_set_u32(const uint32_t *r, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (r[i] != 0)
            return i;
    return n;
}

static size_t first_set_ptr(const uintptr_t *r, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (r[i] != 0)
            return i;
    return n;
}

/* Reports element i (value v) of a reserved_ member; prefix ("" or
 * "animation 3 ('run'): ") says where the struct is. The value is written
 * out by hand: uintptr_t may be wider than unsigned long, and printf's
 * conversions for wider types differ between C libraries. */
static md2_result refuse(md2_diagnostic *d, const char *const *fields, size_t i,
                         uintptr_t v, const char *prefix)
{
    char digits[3 * sizeof v + 1];
    size_t at = sizeof digits - 1;

    if (!d)
        return MD2_ERR_INVALID_ARGUMENT;
    digits[at] = '\0';
    do {
        digits[--at] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0 && at > 0);
    return md2__fail(d, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE, fields[i], 0, i,
                     "%s%s is %s, not zero: it is reserved for later versions; "
                     "start from a zero-initialised struct",
                     prefix, fields[i], digits + at);
}

/* MD2_OK if r[0 .. n) are all zero, else the refusal of the first that is
 * not (fields and prefix as refuse() takes them). */
static md2_result check_ptrs(const uintptr_t *r, size_t n, md2_diagnostic *d,
                             const char *const *fields, const char *prefix)
{
    size_t i = first_set_ptr(r, n);
    return i < n ? refuse(d, fields, i, r[i], prefix) : MD2_OK;
}

static md2_result check_u32(const uint32_t *r, size_t n, md2_diagnostic *d,
                            const char *const *fields, const char *prefix)
{
    size_t i = first_set_u32(r, n);
    return i < n ? refuse(d, fields, i, r[i], prefix) : MD2_OK;
}

md2_result md2__reserved_options(const md2_options *o)
{
    if (!o)
        return MD2_OK;
    MD2_TRY(check_ptrs(o->reserved_, RESERVED_COUNT(md2_options), o->error, options_fields, ""));
    return check_u32(o->limits.reserved_, RESERVED_COUNT(md2_limits), o->error, limits_fields,
                     "md2_options.limits: ");
}

md2_result md2__reserved_pcx_input(const md2_pcx_input *in, md2_diagnostic *d)
{
    size_t i;

    if (!in)
        return MD2_OK;
    i = first_set_ptr(in->reserved_, RESERVED_COUNT(md2_pcx_input));
    if (i < RESERVED_COUNT(md2_pcx_input))
        return refuse(d, pcx_input_fields, i, in->reserved_[i], "");
    return MD2_OK;
}

md2_result md2__reserved_model(const md2_model *m, md2_diagnostic *d)
{
    return m ? check_ptrs(m->reserved_, RESERVED_COUNT(md2_model), d, model_fields, "") : MD2_OK;
}

md2_result md2__reserved_models(const md2_model *const *models, size_t count,
                                md2_diagnostic *d)
{
    size_t k;

    if (!models)
        return MD2_OK;
    for (k = 0; k < count; k++) {
        const md2_model *m = models[k];
        char prefix[48] = "";
        if (!m)
            return MD2_OK; /* the caller reports the NULL entry, the first fault */
        if (first_set_ptr(m->reserved_, RESERVED_COUNT(md2_model)) == RESERVED_COUNT(md2_model))
            continue;
        if (d)
            (void)snprintf(prefix, sizeof prefix, "linked model %lu: ", (unsigned long)k);
        return check_ptrs(m->reserved_, RESERVED_COUNT(md2_model), d, model_fields, prefix);
    }
    return MD2_OK;
}

md2_result md2__reserved_anims(const md2_anim *anims, size_t count, md2_diagnostic *d)
{
    size_t k;

    if (!anims)
        return MD2_OK;
    for (k = 0; k < count; k++) {
        const md2_anim *a = &anims[k];
        char prefix[64] = "";
        if (first_set_u32(a->reserved_, RESERVED_COUNT(md2_anim)) == RESERVED_COUNT(md2_anim))
            continue;
        if (d) {
            /* as md2_anims_validate() names an animation; a hand-made
             * name may lack its NUL: at most 16 bytes */
            const char *nul = (const char *)memchr(a->name, '\0', MD2_ANIM_NAME_SIZE);
            int len = nul ? (int)(nul - a->name) : MD2_ANIM_NAME_SIZE;
            (void)snprintf(prefix, sizeof prefix, "animation %lu ('%.*s'): ", (unsigned long)k,
                           len, a->name);
        }
        return check_u32(a->reserved_, RESERVED_COUNT(md2_anim), d, anim_fields, prefix);
    }
    return MD2_OK;
}

md2_result md2__reserved_mesh_options(const md2_mesh_options *o)
{
    return o ? check_ptrs(o->reserved_, RESERVED_COUNT(md2_mesh_options), o->error,
                          mesh_options_fields, "")
             : MD2_OK;
}

md2_result md2__reserved_mesh(const md2_mesh *mesh, md2_diagnostic *d)
{
    return mesh ? check_ptrs(mesh->reserved_, RESERVED_COUNT(md2_mesh), d, mesh_fields, "")
                : MD2_OK;
}

md2_result md2__reserved_layout(const md2_vertex_layout *l, md2_diagnostic *d)
{
    return l ? check_ptrs(l->reserved_, RESERVED_COUNT(md2_vertex_layout), d, layout_fields, "")
             : MD2_OK;
}

md2_result md2__reserved_tags(const md2_tags *t, md2_diagnostic *d)
{
    return t ? check_ptrs(t->reserved_, RESERVED_COUNT(md2_tags), d, tags_fields, "") : MD2_OK;
}

md2_result md2__reserved_build_options(const md2_build_options *o)
{
    size_t i;

    if (!o)
        return MD2_OK;
    i = first_set_ptr(o->reserved_, RESERVED_COUNT(md2_build_options));
    if (i < RESERVED_COUNT(md2_build_options))
        return refuse(o->error, build_options_fields, i, o->reserved_[i], "");
    return MD2_OK;
}

md2_result md2__reserved_build_input(const md2_build_input *in, md2_diagnostic *d)
{
    size_t i;

    if (!in)
        return MD2_OK;
    i = first_set_ptr(in->reserved_, RESERVED_COUNT(md2_build_input));
    if (i < RESERVED_COUNT(md2_build_input))
        return refuse(d, build_input_fields, i, in->reserved_[i], "");
    return MD2_OK;
}

md2_result md2__reserved_build_anims(const md2_build_anim *anims, size_t count,
                                     md2_diagnostic *d)
{
    size_t k;

    if (!anims)
        return MD2_OK;
    for (k = 0; k < count; k++) {
        const md2_build_anim *a = &anims[k];
        size_t i = first_set_ptr(a->reserved_, RESERVED_COUNT(md2_build_anim));
        if (i < RESERVED_COUNT(md2_build_anim)) {
            /* the name as md2_build() quotes it: at most 16 bytes of it */
            char prefix[64] = "";
            if (d) {
                int len = 0;
                while (a->name && len < 16 && a->name[len] != '\0')
                    len++;
                (void)snprintf(prefix, sizeof prefix, "animation %lu ('%.*s'): ",
                               (unsigned long)k, len, a->name ? a->name : "");
            }
            return refuse(d, build_anim_fields, i, a->reserved_[i], prefix);
        }
    }
    return MD2_OK;
}
