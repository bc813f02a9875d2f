/*
 * md2_draw_cpu: an MD2 model drawn with the CPU path of <md2/mesh.h>
 * (md2_draw_cpu.h says what each function does). The code between the
 * README markers is shown verbatim in README.md, section "Draw it", and
 * tests/docs/readme_sync.cmake fails when the two differ: change both together.
 *
 * SPDX-License-Identifier: MIT
 */
#include "md2_draw_cpu.h"

/* README: draw begin */
#include <md2/mesh.h>
#include <md2/skin.h>
#include <epoxy/gl.h> /* or another loader of OpenGL 3.3 core */

/* Once per model: the mesh, its vertex and index buffers, the skin's texture. */
md2_mesh *draw_cpu_upload(const md2_model *model, const md2_image *skin, GLuint *vao,
                          GLuint *vertex_buffer, GLuint *index_buffer, GLuint *texture)
{
    md2_mesh_options opts = {.flags = MD2_MESH_COUNTER_CLOCKWISE}; /* OpenGL's front faces */
    md2_vertex_layout layout = md2_layout_default(0);
    md2_mesh *mesh;
    if (md2_mesh_build(model, &opts, &mesh) != MD2_OK)
        return NULL;
    glGenVertexArrays(1, vao);
    glBindVertexArray(*vao);
    glGenBuffers(1, vertex_buffer); /* one pose, rewritten every frame */
    glBindBuffer(GL_ARRAY_BUFFER, *vertex_buffer);
    glBufferData(GL_ARRAY_BUFFER, mesh->num_vertices * layout.stride, NULL, GL_STREAM_DRAW);
    glGenBuffers(1, index_buffer);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, *index_buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, mesh->num_indices * 4, mesh->indices, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 32, (void *)0);  /* position */
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 32, (void *)12); /* normal */
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 32, (void *)24); /* uv */
    for (GLuint i = 0; i < 3; i++)
        glEnableVertexAttribArray(i);
    glGenTextures(1, texture);
    glBindTexture(GL_TEXTURE_2D, *texture); /* row 0 is the top, as the uv want it */
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, skin->width, skin->height, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, skin->rgba);
    glGenerateMipmap(GL_TEXTURE_2D);
    return mesh;
}

/* Every frame: the player's pose, cross-fades included, into the buffer; one draw. */
void draw_cpu_frame(const md2_mesh *mesh, const md2_model *model, const md2_player *player,
                    GLuint vao, GLuint vertex_buffer)
{
    md2_vertex_layout layout = md2_layout_default(MD2_LAYOUT_UNIT_NORMALS);
    glBindBuffer(GL_ARRAY_BUFFER, vertex_buffer);
    void *vertices = glMapBufferRange(GL_ARRAY_BUFFER, 0, mesh->num_vertices * layout.stride,
                                      GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    if (vertices) {
        md2_mesh_pose(mesh, model, player, vertices, &layout);
        glUnmapBuffer(GL_ARRAY_BUFFER);
    }
    glBindVertexArray(vao);
    glDrawElements(GL_TRIANGLES, (GLsizei)mesh->num_indices, GL_UNSIGNED_INT, NULL);
}
/* README: draw end */
