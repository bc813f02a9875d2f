/*
 * Assimp as a judge: imports FILE with aiImportFileExWithProperties(), once
 * for each keyframe, and compares every import with libmd2's decoding.
 *
 *   md2_judge_assimp [--optional] [--report OUT.json] [--accept-known-refusal]
 *                    [--reader-file OTHER] FILE.md2
 *
 * What Assimp 5.2 (Debian 12's libassimp-dev 5.2.5,
 * code/AssetLib/MD2/MD2Loader.cpp) does with an MD2 file, from its source
 * and checked here on every import:
 *  - one keyframe per import, AI_CONFIG_IMPORT_MD2_KEYFRAME (default
 *    AI_CONFIG_IMPORT_GLOBAL_KEYFRAME, default 0); a keyframe past the
 *    last is refused ("The requested frame (N) does not exist"): that
 *    refusal is how the judge counts Assimp's frames. No animations, no
 *    anim meshes, no morph targets;
 *  - one mesh, one vertex per triangle corner in file order (vertex 3i + k
 *    is corner k of triangle i), each face those three in reverse order
 *    (Assimp's faces run counter-clockwise, MD2's clockwise);
 *  - positions scale * v + translate in float, in MD2's own axes; the root
 *    node turns the scene 90 degrees about x to Assimp's y up: world
 *    (x, y, z) = MD2 (x, z, -y). The judge applies the node transforms and
 *    compares world positions;
 *  - normals from the same table, in MD2's axes, under the same transform;
 *    uv (s / skinwidth, 1 - t / skinheight) in channel 0;
 *  - the header check refuses a file whenever a section's end is not
 *    strictly before the end of the file ("Some offsets are outside the
 *    file"), so a file whose frames come last (no GL commands, as
 *    examples/models/blade.md2) is refused although it is valid. With
 *    --accept-known-refusal, that refusal, when the file is such a file and
 *    Assimp says exactly that, is noted instead of failed, and the frames
 *    are judged from the same bytes with four zero bytes after them
 *    (aiImportFileFromMemoryWithProperties; ofs_end unchanged).
 *
 * SPDX-License-Identifier: MIT
 */
#include "judge.h"

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/scene.h>
#include <assimp/version.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const judge_axes assimp_axes = {
    {0, 2, 1}, {1, 1, -1},
    "Assimp world (x, y, z) = MD2 (x, z, -y): vertices in MD2's axes, the root node turned "
    "90 degrees about x"};

/* Does Assimp 5.2's header check refuse this file? It refuses when a
 * section (skins, texcoords, triangles, frames) does not end strictly
 * before the end of the file. */
static int predicted_refusal(const md2_header *h, size_t file_size, const char **section)
{
    static const char *const names[4] = {"skins", "texcoords", "triangles", "frames"};
    /* Assimp's frame size: 40 bytes of scale, translate and name, 4 a vertex */
    double ends[4];
    int i;
    ends[0] = (double)h->ofs_skins + (double)h->num_skins * 64;
    ends[1] = (double)h->ofs_st + (double)h->num_st * 4;
    ends[2] = (double)h->ofs_tris + (double)h->num_tris * 12;
    ends[3] = (double)h->ofs_frames + (double)h->num_frames * (40 + 4 * (double)h->num_xyz);
    for (i = 0; i < 4; i++) {
        if (ends[i] >= (double)file_size) {
            *section = names[i];
            return 1;
        }
    }
    return 0;
}

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    long n;
    unsigned char *bytes;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    *size = (size_t)n;
    bytes = calloc(*size + 4, 1); /* 4 zero bytes after the file, for the fallback */
    if (bytes && fread(bytes, 1, *size, f) != *size) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    return bytes;
}

/* Imports keyframe k, from the file or (padded) from memory. */
static const struct aiScene *import(const char *path, const unsigned char *bytes, size_t size,
                                    int from_memory, unsigned k)
{
    struct aiPropertyStore *props = aiCreatePropertyStore();
    const struct aiScene *s;
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_MD2_KEYFRAME, (int)k);
    if (from_memory)
        s = aiImportFileFromMemoryWithProperties((const char *)bytes, (unsigned)size, 0, "md2",
                                                 props);
    else
        s = aiImportFileExWithProperties(path, 0, NULL, props);
    aiReleasePropertyStore(props);
    return s;
}

/* The node holding mesh 0, and its transform to the world (root * ... *
 * node), or NULL. */
static const struct aiNode *find_mesh_node(const struct aiNode *node, struct aiMatrix4x4 *world)
{
    unsigned i;
    for (i = 0; i < node->mNumMeshes; i++) {
        if (node->mMeshes[i] == 0) {
            const struct aiNode *chain[64], *n;
            int depth = 0, d;
            for (n = node; n && depth < 64; n = n->mParent)
                chain[depth++] = n;
            aiIdentityMatrix4(world);
            for (d = depth - 1; d >= 0; d--)
                aiMultiplyMatrix4(world, &chain[d]->mTransformation); /* world *= node */
            return node;
        }
    }
    for (i = 0; i < node->mNumChildren; i++) {
        const struct aiNode *found = find_mesh_node(node->mChildren[i], world);
        if (found)
            return found;
    }
    return NULL;
}

static void transform(const struct aiMatrix4x4 *m, const struct aiVector3D *v, int direction,
                      float *out)
{
    double x = v->x, y = v->y, z = v->z, w = direction ? 0 : 1;
    out[0] = (float)(m->a1 * x + m->a2 * y + m->a3 * z + m->a4 * w);
    out[1] = (float)(m->b1 * x + m->b2 * y + m->b3 * z + m->b4 * w);
    out[2] = (float)(m->c1 * x + m->c2 * y + m->c3 * z + m->c4 * w);
}

/* Judges one import of keyframe k. */
static void judge_scene(judge *j, const struct aiScene *s, unsigned k, float *world,
                        float *world_normals, float *uv)
{
    const md2_model *m = judge_model(j);
    const struct aiMesh *mesh;
    const struct aiNode *node;
    struct aiMatrix4x4 to_world;
    size_t corners = m->num_triangles * 3, c;
    char label[64];
    unsigned i;

    snprintf(label, sizeof label, "import of keyframe %u", k);
    if (!judge_count(j, label, "meshes of each import", s->mNumMeshes, 1))
        return;
    mesh = s->mMeshes[0];
    if (!judge_count(j, label, "vertices of each import (one per triangle corner)",
                     mesh->mNumVertices, corners) ||
        !judge_count(j, label, "faces of each import", mesh->mNumFaces, m->num_triangles))
        return;
    node = s->mRootNode ? find_mesh_node(s->mRootNode, &to_world) : NULL;
    if (!node) {
        judge_fail(j, "%s: no node holds the mesh", label);
        return;
    }
    /* each face is its triangle's corners in reverse order (3i+2, 3i+1, 3i),
     * starting anywhere */
    for (i = 0; i < mesh->mNumFaces; i++) {
        const struct aiFace *face = &mesh->mFaces[i];
        unsigned r = 0;
        while (face->mNumIndices == 3 && r < 3 && face->mIndices[r] != 3 * i + 2)
            r++;
        if (face->mNumIndices != 3 || r == 3 || face->mIndices[(r + 1) % 3] != 3 * i + 1 ||
            face->mIndices[(r + 2) % 3] != 3 * i) {
            judge_fail(j, "%s: face %u is not triangle %u's corners in reverse order "
                          "(vertices %u, %u, %u)",
                       label, i, i, 3 * i + 2, 3 * i + 1, 3 * i);
            break;
        }
    }
    for (c = 0; c < corners; c++) {
        transform(&to_world, &mesh->mVertices[c], 0, world + 3 * c);
        if (mesh->mNormals)
            transform(&to_world, &mesh->mNormals[c], 1, world_normals + 3 * c);
        if (mesh->mTextureCoords[0]) {
            uv[2 * c] = (float)mesh->mTextureCoords[0][c].x;
            uv[2 * c + 1] = (float)mesh->mTextureCoords[0][c].y;
        }
    }
    judge_positions(j, label, k, k, 0.0f, world, 0, &assimp_axes);
    if (mesh->mNormals)
        judge_normals(j, label, k, k, 0.0f, world_normals, 0, &assimp_axes);
    else
        judge_fail(j, "%s: no normals", label);
    if (k == 0)
        judge_uvs(j, mesh->mTextureCoords[0] ? uv : NULL, 0, JUDGE_UV_FLIP_V);
    if (s->mNumAnimations != 0 || mesh->mNumAnimMeshes != 0)
        judge_note(j, "%s: %u animations and %u anim meshes, not judged", label,
                   s->mNumAnimations, mesh->mNumAnimMeshes);
}

int main(int argc, char **argv)
{
    judge_args args;
    judge *j;
    const md2_model *m;
    int status, from_memory = 0;
    unsigned char *bytes = NULL;
    size_t size = 0, corners;
    float *world = NULL, *world_normals = NULL, *uv = NULL;
    const struct aiScene *s;
    char version[64];
    unsigned k;

    if (judge_parse_args(argc, argv, &args) != 0)
        return 2;
    j = judge_open("Assimp", &args, &status);
    if (!j)
        return status;
    m = judge_model(j);
    snprintf(version, sizeof version, "%u.%u.%u", aiGetVersionMajor(), aiGetVersionMinor(),
             aiGetVersionPatch());
    judge_set_version(j, version);
    bytes = read_file(judge_reader_path(j), &size);
    corners = m->num_triangles * 3;
    world = malloc((corners ? corners : 1) * 3 * sizeof *world);
    world_normals = malloc((corners ? corners : 1) * 3 * sizeof *world_normals);
    uv = malloc((corners ? corners : 1) * 2 * sizeof *uv);
    if (!bytes || !world || !world_normals || !uv) {
        judge_fail(j, "cannot read the file or no memory");
        goto done;
    }
    judge_note(j, "%s; one import per keyframe (AI_CONFIG_IMPORT_MD2_KEYFRAME)",
               assimp_axes.what);

    /* keyframes 0, 1, ... until Assimp refuses one: it should import every
     * keyframe of the file and refuse the one after the last */
    for (k = 0; k <= m->num_frames; k++) {
        s = import(judge_reader_path(j), bytes, from_memory ? size + 4 : size, from_memory, k);
        if (!s && k == 0) {
            const char *why = aiGetErrorString();
            const char *section = NULL;
            if (args.accept_known_refusal && predicted_refusal(&m->header, size, &section) &&
                strstr(why, "Some offsets are outside the file")) {
                judge_note(j, "refuses the file as predicted: its %s section ends at the end "
                              "of the file, and Assimp 5.2 wants every section to end before "
                              "it (\"%s\"); judged from the same bytes followed by 4 zero "
                              "bytes",
                           section, why);
                from_memory = 1;
                s = import(judge_reader_path(j), bytes, size + 4, 1, 0);
            }
        }
        if (!s) {
            if (k < m->num_frames)
                judge_fail(j, "refuses to import keyframe %u of %zu: %s", k, m->num_frames,
                           aiGetErrorString());
            else
                judge_note(j, "keyframe %u (one past the last) refused: %s", k,
                           aiGetErrorString());
            break;
        }
        if (k < m->num_frames)
            judge_scene(j, s, k, world, world_normals, uv);
        aiReleaseImport(s);
    }
    /* k: the first keyframe refused (num_frames + 1 when none was) */
    judge_count(j, NULL, "frames (keyframes imported before the first refusal)", k,
                m->num_frames);
done:
    free(bytes);
    free(world);
    free(world_normals);
    free(uv);
    return judge_close(j);
}
