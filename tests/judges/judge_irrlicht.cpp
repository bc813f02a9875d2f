/*
 * Irrlicht as a judge: loads FILE with the scene manager of a NULL-driver
 * device (no window) as an IAnimatedMesh, and compares every frame it
 * shows with libmd2's decoding.
 *
 *   md2_judge_irrlicht [--optional] [--report OUT.json] [--reader-file OTHER] FILE.md2
 *
 * What Irrlicht 1.8 (Debian 12's libirrlicht-dev 1.8.5,
 * source/Irrlicht/CMD2MeshFileLoader.cpp and CAnimatedMeshMD2.cpp) does
 * with an MD2 file, from its source and checked here:
 *  - it picks its MD2 loader by the file name's extension (.md2);
 *  - it reads each frame (header framesize bytes) into a stack buffer of
 *    2048 * 4 + 128 bytes: a file with larger frames (more than 2048
 *    vertices) would overflow it, so the judge fails such a file without
 *    loading it;
 *  - it keeps one vertex per triangle corner in file order, indexed
 *    3i + k in order (16-bit indices);
 *  - it swaps MD2's y and z: Irrlicht (x, y, z) = MD2 (x, z, y) (Irrlicht
 *    is y up and left-handed), for normals too;
 *  - it numbers frames in quarters (MD2_FRAME_SHIFT 2): getFrameCount() is
 *    4 times the keyframes, and getMesh(4k + j) (with the default loop,
 *    the whole model) is keyframe k blended j/4 toward keyframe k + 1, the
 *    last keyframe blended with itself. Each blend is
 *    scale * v + translate in float for both keyframes, mixed in double;
 *    normals are mixed the same way, not renormalised;
 *  - its uv are ((s + 0.5) / skinwidth, (t + 0.5) / skinheight): texel
 *    centres, v down.
 *
 * SPDX-License-Identifier: MIT
 */
#include "judge.h"

#include <irrlicht.h>

#include <cstdio>
#include <cstring>
#include <vector>

using namespace irr;

namespace {

const judge_axes irrlicht_axes = {
    {0, 2, 1}, {1, 1, 1}, "Irrlicht (x, y, z) = MD2 (x, z, y): MD2's z up becomes Irrlicht's y up"};

// CMD2MeshFileLoader reads each frame into u8 buffer[MD2_MAX_VERTS * 4 + 128]
const long irrlicht_frame_buffer = 2048 * 4 + 128;

// Irrlicht's frames per keyframe: 1 << MD2_FRAME_SHIFT
const u32 quarters = 4;

bool has_md2_extension(const char *path)
{
    size_t n = std::strlen(path);
    if (n < 4)
        return false;
    const char *e = path + n - 4;
    return e[0] == '.' && (e[1] == 'm' || e[1] == 'M') && (e[2] == 'd' || e[2] == 'D') &&
           e[3] == '2';
}

void judge_frame(judge *j, scene::IAnimatedMesh *mesh, u32 frame, std::vector<float> &pos,
                 std::vector<float> &nrm, std::vector<float> &uv)
{
    const md2_model *m = judge_model(j);
    size_t corners = m->num_triangles * 3;
    char label[64];
    std::snprintf(label, sizeof label, "Irrlicht frame %u", frame);

    scene::IMesh *im = mesh->getMesh(static_cast<s32>(frame));
    if (!im || !judge_count(j, label, "mesh buffers of each frame", im->getMeshBufferCount(), 1))
        return;
    scene::IMeshBuffer *b = im->getMeshBuffer(0);
    if (b->getVertexType() != video::EVT_STANDARD) {
        judge_fail(j, "%s: vertices of type %d, not S3DVertex", label,
                   static_cast<int>(b->getVertexType()));
        return;
    }
    if (!judge_count(j, label, "vertices of each frame (one per triangle corner)",
                     b->getVertexCount(), corners) ||
        !judge_count(j, label, "indices of each frame", b->getIndexCount(), corners))
        return;
    if (frame == 0) {
        // indices 0, 1, 2, ...: each triangle its corners in file order
        if (b->getIndexType() != video::EIT_16BIT) {
            judge_fail(j, "%s: indices are not 16-bit", label);
        } else {
            const u16 *idx = b->getIndices();
            for (size_t c = 0; c < corners; c++) {
                if (idx[c] != static_cast<u16>(c)) {
                    judge_fail(j, "%s: index %zu is %u, not %zu (corner %zu of triangle %zu)",
                               label, c, static_cast<unsigned>(idx[c]), c, c % 3, c / 3);
                    break;
                }
            }
        }
    }
    const video::S3DVertex *v = static_cast<const video::S3DVertex *>(b->getVertices());
    for (size_t c = 0; c < corners; c++) {
        pos[3 * c] = v[c].Pos.X;
        pos[3 * c + 1] = v[c].Pos.Y;
        pos[3 * c + 2] = v[c].Pos.Z;
        nrm[3 * c] = v[c].Normal.X;
        nrm[3 * c + 1] = v[c].Normal.Y;
        nrm[3 * c + 2] = v[c].Normal.Z;
        uv[2 * c] = v[c].TCoords.X;
        uv[2 * c + 1] = v[c].TCoords.Y;
    }
    // getMesh(4k + j): keyframe k blended j/4 toward k + 1 (the last with itself)
    u32 k = frame / quarters;
    u32 next = k + 1 < m->num_frames ? k + 1 : k;
    float t = static_cast<float>(frame % quarters) / static_cast<float>(quarters);
    judge_positions(j, label, k, next, t, pos.data(), 0, &irrlicht_axes);
    judge_normals(j, label, k, next, t, nrm.data(), 0, &irrlicht_axes);
    if (frame == 0)
        judge_uvs(j, m->num_texcoords ? uv.data() : nullptr, 0, JUDGE_UV_HALF_TEXEL);
}

} // namespace

int main(int argc, char **argv)
{
    judge_args args;
    int status;
    if (judge_parse_args(argc, argv, &args) != 0)
        return 2;
    judge *j = judge_open("Irrlicht", &args, &status);
    if (!j)
        return status;
    const md2_model *m = judge_model(j);
    judge_note(j, "%s; frames numbered in quarters: getMesh(4k + j) is keyframe k blended "
                  "j/4 toward k + 1",
               irrlicht_axes.what);

    if (!has_md2_extension(judge_reader_path(j))) {
        judge_fail(j, "Irrlicht picks its MD2 loader by the .md2 extension, which this file "
                      "name lacks");
        return judge_close(j);
    }
    if (m->header.framesize > irrlicht_frame_buffer) {
        judge_fail(j, "frames of %ld bytes (%zu vertices): Irrlicht 1.8 reads each into a "
                      "buffer of %ld bytes (2048 vertices) and would overflow it; not loaded",
                   static_cast<long>(m->header.framesize), m->num_vertices,
                   irrlicht_frame_buffer);
        return judge_close(j);
    }

    SIrrlichtCreationParameters params;
    params.DriverType = video::EDT_NULL;
    params.LoggingLevel = ELL_WARNING;
    IrrlichtDevice *device = createDeviceEx(params);
    if (!device) {
        judge_fail(j, "createDeviceEx with the NULL driver fails");
        return judge_close(j);
    }
    judge_set_version(j, device->getVersion());
    scene::IAnimatedMesh *mesh = device->getSceneManager()->getMesh(judge_reader_path(j));
    if (!mesh) {
        judge_fail(j, "the reader refuses the file: ISceneManager::getMesh returns NULL "
                      "(see Irrlicht's log above)");
    } else {
        if (mesh->getMeshType() != scene::EAMT_MD2)
            judge_fail(j, "mesh type %d, not EAMT_MD2", static_cast<int>(mesh->getMeshType()));
        u32 frames = mesh->getFrameCount();
        if (judge_count(j, NULL, "frames (getFrameCount(): 4 a keyframe)", frames,
                        m->num_frames * quarters)) {
            size_t corners = m->num_triangles * 3;
            std::vector<float> pos(corners * 3 + 1), nrm(corners * 3 + 1), uv(corners * 2 + 1);
            for (u32 f = 0; f < frames; f++)
                judge_frame(j, mesh, f, pos, nrm, uv);
        }
        scene::IAnimatedMeshMD2 *md2 = static_cast<scene::IAnimatedMeshMD2 *>(mesh);
        judge_note(j, "animations from the frame names: %d", md2->getAnimationCount());
    }
    device->drop();
    return judge_close(j);
}
