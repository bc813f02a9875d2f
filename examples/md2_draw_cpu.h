/*
 * md2_draw_cpu: the shortest way from an MD2 model to pixels with the CPU
 * path of <md2/mesh.h>, in OpenGL 3.3 core. README.md shows the code of
 * md2_draw_cpu.c verbatim (section "Draw it"; tests/docs/readme_sync.cmake keeps
 * the two equal), and `md2_view --cpu` draws with it.
 *
 * The vertex buffer holds md2_layout_default(): attribute 0 the position
 * (3 floats), 1 the normal (3 floats, unit length), 2 the texcoord
 * (2 floats), 32 bytes a vertex. Triangles are counter-clockwise (OpenGL's
 * default front faces). The texture is the skin as it is, row 0 first.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_DRAW_CPU_H
#define MD2_DRAW_CPU_H

#include <md2/mesh.h>
#include <md2/skin.h>

#include <epoxy/gl.h>

/* Once per model, with an OpenGL 3.3 context current: builds the mesh
 * (md2_mesh_free() it), a vertex array *vao, a vertex buffer of one pose
 * *vertex_buffer, the index buffer *index_buffer and the texture *texture
 * of skin (with mipmaps). Returns NULL, and makes no OpenGL object, when
 * the mesh cannot be built. Leaves the vertex array and texture bound. */
md2_mesh *draw_cpu_upload(const md2_model *model, const md2_image *skin, GLuint *vao,
                          GLuint *vertex_buffer, GLuint *index_buffer, GLuint *texture);

/* Every frame: writes the pose player shows into vertex_buffer and draws
 * the mesh's triangles with the program, texture and matrices bound by
 * the caller. */
void draw_cpu_frame(const md2_mesh *mesh, const md2_model *model, const md2_player *player,
                    GLuint vao, GLuint vertex_buffer);

#endif /* MD2_DRAW_CPU_H */
