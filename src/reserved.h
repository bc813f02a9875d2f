/*
 * The check that a caller left the reserved_ members of a public struct
 * zero (not installed).
 *
 * Later 1.x releases give reserved_ members a name and a meaning in place
 * (docs/abi.md), with zero meaning "as before". A struct that reaches the
 * library with a non-zero one was not started from zero, and a later
 * release would read its garbage as a setting, so every public function
 * that reads such a struct refuses it now, with MD2_ERR_INVALID_ARGUMENT,
 * before any other work (docs/errors.md, "Reserved fields").
 *
 * Each check below is a few compares. It returns MD2_OK when its struct
 * pointer is NULL (the caller checks its own NULL arguments, with its own
 * message) or every reserved_ member is zero; otherwise it fills d (if not
 * NULL) with section MD2_SECTION_NONE, field "md2_<struct>.reserved_[i]"
 * (a static string), index i and a message that names the struct, the
 * member and its value, and returns MD2_ERR_INVALID_ARGUMENT.
 *
 * This header needs only <md2/md2.h>: the other public structs are named
 * by their tags, so any source file can include it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_RESERVED_H
#define MD2_RESERVED_H

#include "md2/md2.h"

#include <stddef.h>

struct md2_anim;
struct md2_mesh;
struct md2_mesh_options;
struct md2_vertex_layout;
struct md2_tags;
struct md2_pcx_input;
struct md2_build_input;
struct md2_build_anim;
struct md2_build_options;

/* md2_options.reserved_ and md2_options.limits.reserved_ (md2_limits),
 * reported in o->error. */
md2_result md2__reserved_options(const md2_options *o);

/* md2_pcx_input.reserved_ (<md2/skin.h>: md2_pcx_encode()). */
md2_result md2__reserved_pcx_input(const struct md2_pcx_input *in, md2_diagnostic *d);

/* md2_model.reserved_ (a hand-made model; a loaded one has them zero). */
md2_result md2__reserved_model(const md2_model *m, md2_diagnostic *d);

/* md2_model.reserved_ of models[0 .. count) (linked models; the message
 * says "linked model i"), up to the first NULL entry: the caller reports
 * that one, so the first fault by position is the one reported. */
md2_result md2__reserved_models(const md2_model *const *models, size_t count,
                                md2_diagnostic *d);

/* md2_anim.reserved_ of anims[0 .. count); the message names the
 * animation by number and name. */
md2_result md2__reserved_anims(const struct md2_anim *anims, size_t count,
                               md2_diagnostic *d);

/* md2_mesh_options.reserved_, reported in o->error. */
md2_result md2__reserved_mesh_options(const struct md2_mesh_options *o);

/* md2_mesh.reserved_ (md2_mesh_build() writes them as zero). */
md2_result md2__reserved_mesh(const struct md2_mesh *mesh, md2_diagnostic *d);

/* md2_vertex_layout.reserved_. */
md2_result md2__reserved_layout(const struct md2_vertex_layout *l, md2_diagnostic *d);

/* md2_tags.reserved_ (hand-made tags; parsed ones have them zero). */
md2_result md2__reserved_tags(const struct md2_tags *t, md2_diagnostic *d);

/* md2_build_options.reserved_, reported in o->error (<md2/build.h>). */
md2_result md2__reserved_build_options(const struct md2_build_options *o);

/* md2_build_input.reserved_. */
md2_result md2__reserved_build_input(const struct md2_build_input *in, md2_diagnostic *d);

/* md2_build_anim.reserved_ of anims[0 .. count); the message names the
 * animation by number and name. */
md2_result md2__reserved_build_anims(const struct md2_build_anim *anims, size_t count,
                                     md2_diagnostic *d);

#endif /* MD2_RESERVED_H */
