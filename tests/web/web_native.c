/*
 * The native side of the WebAssembly tests (tests/web):
 *
 *   web_native digest MODEL.md2...   one line a model, "NAME HASH API WARNINGS",
 *                                    the FNV-1a hashes of what
 *                                    tests/web/digest.mjs hashes through
 *                                    libmd2.wasm (below, and digest_api()),
 *                                    and the model's md2_warning flags in hex;
 *                                    "NAME absent" for a missing file
 *   web_native generate DIR          writes DIR/gen00.md2 .. gen39.md2
 *                                    (generated models, below) and
 *                                    DIR/big.md2, md2_bench's generated
 *                                    1480-vertex, 1007-frame model
 *
 * The hash runs over, for each keyframe f in order: its positions and its
 * table normals (md2_decode_frame()), the positions halfway to keyframe
 * f + 1 (the last frame: to keyframe 0) with md2_lerp(), and its bounds
 * (md2_frame_bounds()); each float's bits as a little-endian uint32, four
 * bytes at a time, into a 64-bit FNV-1a.
 *
 * The generated models vary what the decoder meets: from 1 to 400
 * vertices and 1 to 60 frames, scales from 1e-4 to 1e4 of either sign,
 * translates up to 1e5, every vertex byte, normal indices up to 255 (162
 * and more decode as the fallback), and some triangles. In one model in
 * eight every normal index is the same (MD2_WARN_SAME_NORMALS), in one all
 * but the last vertex's of the last frame, and in one all are the same bad
 * index, so that the warnings of the scalar scan libmd2.wasm has are
 * compared with the native one's.
 *
 * SPDX-License-Identifier: MIT
 */
#include "md2_bench_model.h"

#include <md2/md2.h>
#include <md2/mesh.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUM_GENERATED 40

static uint64_t fnv_floats(uint64_t h, const float *f, size_t n)
{
    size_t i;
    int k;
    for (i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &f[i], 4);
        for (k = 0; k < 4; k++) {
            h ^= (u >> (8 * k)) & 0xFFu;
            h *= 1099511628211ull;
        }
    }
    return h;
}

static uint64_t fnv_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

static uint64_t fnv_words(uint64_t h, const uint32_t *w, size_t n)
{
    size_t i;
    int k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 4; k++) {
            h ^= (w[i] >> (8 * k)) & 0xFFu;
            h *= 1099511628211ull;
        }
    return h;
}

/* A player cross-fading from the first half of m's frames (10 fps) to the
 * second (7 fps), 0.137 s into the first and 0.21 s into a fade of 0.5 s:
 * its pose into pos. */
static int crossfade_pose(const md2_model *m, float *pos)
{
    md2_player p;
    md2_anim a, b;
    uint32_t half = (uint32_t)(m->num_frames / 2);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.last = half > 0 ? half - 1 : 0;
    a.fps = 10.0f;
    a.loop = 1;
    b.first = half;
    b.last = (uint32_t)m->num_frames - 1;
    b.fps = 7.0f;
    b.loop = 1;
    md2_player_init(&p);
    if (md2_player_play(&p, &a, MD2_PLAY_LOOP, MD2_RATE_ANIM) != MD2_OK)
        return 0;
    md2_player_advance(&p, 0.137);
    if (md2_player_crossfade(&p, &b, MD2_PLAY_LOOP, MD2_RATE_ANIM, 0.5f) != MD2_OK)
        return 0;
    md2_player_advance(&p, 0.21);
    return md2_player_pose(&p, m, pos, 0, NULL, 0) == MD2_OK;
}

/* The second hash: what the rest of the module gives, as digest.mjs asks
 * for it: the animations from the frame names (first, last, fps), a player
 * of the first one looping, advanced 0.137 s, then 1.3 s more, then seeked
 * to 2.5 keyframes, and a cross-fade (crossfade_pose()) (its pose each
 * time), the welded mesh built counter-clockwise (indices, source
 * vertices, uv), its morph data and frame transforms, and the back-to-front
 * order seen from (100, 50, 25) in the pose halfway from keyframe 0 to the
 * last, and md2_mesh_lerp() 0.3 of the way from keyframe 0 to the last in
 * md2_layout_default() with each combination of the MD2_LAYOUT_* flags. 0
 * when something fails. */
static uint64_t digest_api(const md2_model *m, float *pos)
{
    uint64_t h = 14695981039346656037ull;
    md2_anim *anims = (md2_anim *)calloc(m->num_frames, sizeof *anims);
    size_t count, i;
    md2_mesh_options mo;
    md2_mesh *mesh = NULL;
    md2_player p;
    md2_vertex_layout layout = md2_layout_default(0);
    unsigned char *morph = NULL;
    float *tr = (float *)malloc(m->num_frames * 6 * sizeof *tr), *verts = NULL;
    uint32_t *order = NULL;
    void *scratch = NULL;
    const float eye[3] = {100.0f, 50.0f, 25.0f};
    int ok = anims && tr;

    count = ok ? md2_anims_from_names(m, anims, m->num_frames) : 0;
    for (i = 0; i < count; i++) {
        uint32_t w[3];
        w[0] = anims[i].first;
        w[1] = anims[i].last;
        memcpy(&w[2], &anims[i].fps, 4);
        h = fnv_words(h, w, 3);
    }
    md2_player_init(&p);
    if (ok && count > 0)
        ok = md2_player_play(&p, &anims[0], MD2_PLAY_LOOP, MD2_RATE_ANIM) == MD2_OK;
    md2_player_advance(&p, 0.137);
    ok = ok && md2_player_pose(&p, m, pos, 0, NULL, 0) == MD2_OK;
    h = fnv_floats(h, pos, m->num_vertices * 3);
    md2_player_advance(&p, 1.3);
    ok = ok && md2_player_pose(&p, m, pos, 0, NULL, 0) == MD2_OK;
    h = fnv_floats(h, pos, m->num_vertices * 3);
    ok = ok && md2_player_seek(&p, 2.5) == MD2_OK;
    ok = ok && md2_player_pose(&p, m, pos, 0, NULL, 0) == MD2_OK;
    h = fnv_floats(h, pos, m->num_vertices * 3);
    ok = ok && crossfade_pose(m, pos);
    h = fnv_floats(h, pos, m->num_vertices * 3);
    memset(&mo, 0, sizeof mo);
    mo.flags = MD2_MESH_COUNTER_CLOCKWISE;
    ok = ok && md2_mesh_build(m, &mo, &mesh) == MD2_OK;
    if (ok) {
        size_t size = md2_mesh_morph_size(mesh, m);
        unsigned flags;
        h = fnv_words(h, mesh->indices, mesh->num_indices);
        h = fnv_words(h, mesh->source_vertex, mesh->num_vertices);
        h = fnv_floats(h, mesh->uv, mesh->num_vertices * 2);
        morph = (unsigned char *)malloc(size ? size : 1);
        ok = morph && md2_mesh_morph_data(mesh, m, morph, size) == MD2_OK &&
             md2_frame_transforms(m, tr) == MD2_OK;
        if (ok) {
            h = fnv_bytes(h, morph, size);
            h = fnv_floats(h, tr, m->num_frames * 6);
        }
        verts = (float *)malloc((mesh->num_vertices ? mesh->num_vertices : 1) * layout.stride);
        order = (uint32_t *)malloc((mesh->num_indices ? mesh->num_indices : 1) * 4);
        scratch = malloc(md2_mesh_sort_scratch_size(mesh) + 1);
        ok = ok && verts && order && scratch &&
             md2_mesh_lerp(mesh, m, 0, (uint32_t)m->num_frames - 1, 0.5f, verts, &layout) == MD2_OK &&
             md2_mesh_sort_back_to_front(mesh, verts, &layout, eye, order, scratch,
                                         md2_mesh_sort_scratch_size(mesh)) == MD2_OK;
        if (ok)
            h = fnv_words(h, order, mesh->num_indices);
        for (flags = 0; ok && flags < 8; flags++) {
            layout = md2_layout_default(flags);
            ok = md2_mesh_lerp(mesh, m, 0, (uint32_t)m->num_frames - 1, 0.3f, verts, &layout) == MD2_OK;
            h = fnv_floats(h, verts, mesh->num_vertices * 8);
        }
    }
    free(anims);
    free(tr);
    free(morph);
    free(verts);
    free(order);
    free(scratch);
    md2_mesh_free(mesh);
    return ok ? h : 0;
}

static int digest(const char *path)
{
    md2_options opts;
    md2_diagnostic diag;
    md2_model *m = NULL;
    float *pos, *nrm;
    float box[6];
    uint64_t h = 14695981039346656037ull;
    const char *name = strrchr(path, '/');
    size_t f, n;
    int ok = 1;
    FILE *fp = fopen(path, "rb");

    name = name ? name + 1 : path;
    if (!fp) {
        printf("%s absent\n", name);
        return 0;
    }
    fclose(fp);
    memset(&opts, 0, sizeof opts);
    opts.error = &diag;
    if (md2_load_file(path, &opts, &m) != MD2_OK) {
        fprintf(stderr, "web_native: %s: %s\n", path, diag.message);
        return 1;
    }
    n = m->num_vertices * 3;
    pos = (float *)malloc(n * sizeof *pos);
    nrm = (float *)malloc(n * sizeof *nrm);
    for (f = 0; ok && pos && nrm && f < m->num_frames; f++) {
        uint32_t next = (uint32_t)((f + 1) % m->num_frames);
        ok = md2_decode_frame(m, (uint32_t)f, pos, 0, nrm, 0) == MD2_OK;
        h = fnv_floats(h, pos, n);
        h = fnv_floats(h, nrm, n);
        ok = ok && md2_lerp(m, (uint32_t)f, next, 0.5f, pos, 0, NULL, 0) == MD2_OK;
        h = fnv_floats(h, pos, n);
        ok = ok && md2_frame_bounds(m, (uint32_t)f, box, box + 3) == MD2_OK;
        h = fnv_floats(h, box, 6);
    }
    if (!pos || !nrm || !ok) {
        fprintf(stderr, "web_native: %s: %s\n", path, ok ? "out of memory" : "a decode failed");
        ok = 0;
    } else {
        printf("%s %016llx %016llx %lx\n", name, (unsigned long long)h,
               (unsigned long long)digest_api(m, pos), (unsigned long)m->warnings);
    }
    free(pos);
    free(nrm);
    md2_free(m);
    return ok ? 0 : 1;
}

static uint32_t pick(uint32_t *seed, uint32_t below)
{
    return md2_bench_lcg(seed) % below;
}

/* A float in [-1, 1) times 10^e for e from lo to hi. */
static float spread(uint32_t *seed, int lo, int hi)
{
    float v = (float)pick(seed, 2000000u) / 1000000.0f - 1.0f;
    int e = lo + (int)pick(seed, (uint32_t)(hi - lo + 1));
    while (e > 0) {
        v *= 10.0f;
        e--;
    }
    while (e < 0) {
        v /= 10.0f;
        e++;
    }
    return v;
}

static int write_file(const char *path, const void *data, size_t size)
{
    FILE *fp = fopen(path, "wb");
    int ok = fp && fwrite(data, 1, size, fp) == size;
    if (fp && fclose(fp) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "web_native: cannot write %s\n", path);
    return ok;
}

static int generate_one(const char *dir, int k)
{
    uint32_t seed = 1000u + (uint32_t)k * 7919u;
    size_t nv = 1 + pick(&seed, k < 20 ? 40u : 400u);
    size_t nf = 1 + pick(&seed, 60u);
    size_t nst = 1 + pick(&seed, 64u);
    size_t ntri = pick(&seed, 100u);
    md2_frame *frames = (md2_frame *)calloc(nf, sizeof *frames);
    md2_vertex *verts = (md2_vertex *)malloc(nf * nv * sizeof *verts);
    md2_texcoord *st = (md2_texcoord *)malloc(nst * sizeof *st);
    md2_triangle *tris = (md2_triangle *)malloc((ntri ? ntri : 1) * sizeof *tris);
    unsigned char *data = NULL;
    size_t f, i, size = 0;
    int a, ok = 0;
    char path[4096];

    if (!frames || !verts || !st || !tris)
        goto done;
    for (i = 0; i < nst; i++) {
        st[i].s = (int16_t)pick(&seed, 256u);
        st[i].t = (int16_t)pick(&seed, 256u);
    }
    for (i = 0; i < ntri; i++)
        for (a = 0; a < 3; a++) {
            tris[i].vertex[a] = (uint16_t)pick(&seed, (uint32_t)nv);
            tris[i].texcoord[a] = (uint16_t)pick(&seed, (uint32_t)nst);
        }
    for (f = 0; f < nf; f++) {
        for (a = 0; a < 3; a++) {
            frames[f].scale[a] = spread(&seed, -4, 4);
            frames[f].translate[a] = spread(&seed, -2, 5);
        }
        snprintf(frames[f].name, sizeof frames[f].name, "gen%02d_%03u", k, (unsigned)f);
        for (i = 0; i < nv; i++) {
            md2_vertex *v = &verts[f * nv + i];
            for (a = 0; a < 3; a++)
                v->v[a] = (uint8_t)pick(&seed, 256u);
            v->normal = (uint8_t)pick(&seed, k % 4 == 3 ? 256u : 162u);
        }
        frames[f].vertices = &verts[f * nv];
    }
    if (k % 8 == 1 || k % 8 == 5 || k % 8 == 7) { /* one normal index for all (see the top) */
        uint8_t same = (uint8_t)(k % 8 == 7 ? 200 + k : 3 * k);
        for (i = 0; i < nf * nv; i++)
            verts[i].normal = same;
        if (k % 8 == 5)
            verts[nf * nv - 1].normal = (uint8_t)(same + 1);
    }
    data = md2_bench_write(frames, nf, nv, st, nst, tris, ntri, &size);
    if (data) {
        snprintf(path, sizeof path, "%s/gen%02d.md2", dir, k);
        ok = write_file(path, data, size);
    } else {
        fprintf(stderr, "web_native: generated model %d was not written\n", k);
    }
done:
    free(data);
    free(frames);
    free(verts);
    free(st);
    free(tris);
    return ok;
}

static int generate(const char *dir)
{
    char path[4096];
    size_t size = 0;
    unsigned char *big = md2_bench_big_model(&size);
    int k, ok = big != NULL;

    for (k = 0; ok && k < NUM_GENERATED; k++)
        ok = generate_one(dir, k);
    snprintf(path, sizeof path, "%s/big.md2", dir);
    ok = ok && write_file(path, big, size);
    free(big);
    if (ok)
        printf("web_native: %d generated models and big.md2 (%zu bytes) in %s\n", NUM_GENERATED,
               size, dir);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "digest") == 0) {
        int i, status = 0;
        for (i = 2; i < argc; i++)
            status |= digest(argv[i]);
        return status;
    }
    if (argc == 3 && strcmp(argv[1], "generate") == 0)
        return generate(argv[2]);
    fprintf(stderr, "usage: web_native digest MODEL.md2... | web_native generate DIR\n");
    return 2;
}
