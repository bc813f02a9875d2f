/*
 * Prints one FNV-1a hash per model of everything libmd2 decodes from it:
 * every keyframe's positions and normals, the midpoint of each pair of
 * consecutive frames with unit normals, every frame's bounds, and the bytes
 * the writer produces. For a tag file (a name ending in ".tag"): the
 * matrices of every tag between every pair of frames at three values of t
 * (half turns included, where the blend needs its fallbacks), the matrices
 * through a player during a cross-fade, attached with md2_attach(), and the
 * bytes the writer produces. For a model, a second line hashes what the
 * builder makes of it (<md2/build.h>): its frames decoded to floats, and
 * scaled, built with a box per frame and with a shared one (smooth
 * normals, GL commands), and md2_rebuild() with every change asked for.
 * A third line hashes what md2_simplify() makes of it: the files of its
 * levels at 50, 25 and 12 % and at an error target, with the collapses
 * counted and the errors it reports (their float bits). A fourth gives the
 * warnings of the normal-index checks (each host has its own scan: SSE2,
 * AVX2, NEON or plain C) on copies of the model whose normal indices are
 * all equal, or all but the last vertex of the last frame or one of frame
 * 0, or bad in some frames or all: the flags of the parse that checks them
 * in the copy (nothing listening) and of the one that checks them before
 * it allocates (a listener), and how many warnings the listener heard.
 * CI runs it natively, on big-endian s390x and
 * as a 32-bit build: the lines must be identical. Missing files are
 * reported as "absent" (the shared corpus is not in every checkout).
 *
 *   md2_digest MODEL.md2|TAGS.tag...
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/build.h>
#include <md2/md2.h>
#include <md2/mesh.h>
#include <md2/simplify.h>
#include <md2/tags.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t fnv(uint64_t h, uint32_t v)
{
    int i;
    for (i = 0; i < 4; i++) { /* in a fixed byte order on every host */
        h ^= (v >> (8 * i)) & 0xFFu;
        h *= 1099511628211ull;
    }
    return h;
}

static uint64_t fnv_floats(uint64_t h, const float *f, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &f[i], 4);
        h = fnv(h, u);
    }
    return h;
}

/* The poses that go through the pose jobs with every option: a player
 * cross-fading between two halves of the frames, seen at several moments
 * (md2_player_pose, md2_player_pose_linked), and the welded mesh in the
 * default layout with no flags and with all of them (md2_mesh_lerp,
 * md2_mesh_pose). Returns h with them hashed in, or h unchanged if an
 * allocation fails (the line then says so). */
static uint64_t digest_poses(const md2_model *m, uint64_t h, float *pos, float *nrm, int *ok)
{
    md2_player p;
    md2_anim a, b;
    md2_mesh *mesh = NULL;
    float *vbuf;
    uint32_t half = (uint32_t)(m->num_frames / 2);
    unsigned step, flags;

    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.last = half > 0 ? half - 1 : 0;
    a.fps = 10.0f;
    b.first = half;
    b.last = (uint32_t)m->num_frames - 1;
    b.fps = 7.0f;
    md2_player_init(&p);
    md2_player_play(&p, &a, MD2_PLAY_LOOP, MD2_RATE_ANIM);
    md2_player_advance(&p, 0.137);
    md2_player_crossfade(&p, &b, MD2_PLAY_LOOP, MD2_RATE_ANIM, 0.5f);
    if (md2_mesh_build(m, NULL, &mesh) != MD2_OK) {
        *ok = 0;
        return h;
    }
    vbuf = (float *)malloc((mesh->num_vertices + 1) * 8 * sizeof(float));
    if (!vbuf) {
        md2_mesh_free(mesh);
        *ok = 0;
        return h;
    }
    for (step = 0; step < 6; step++) {
        md2_player_pose(&p, m, pos, 0, nrm, 0);
        md2_normalize(nrm, m->num_vertices, 0);
        h = fnv_floats(h, pos, m->num_vertices * 3);
        h = fnv_floats(h, nrm, m->num_vertices * 3);
        md2_player_pose_linked(&p, m, pos, 0, nrm, 0);
        h = fnv_floats(h, pos, m->num_vertices * 3);
        h = fnv_floats(h, nrm, m->num_vertices * 3);
        for (flags = 0; flags < 8; flags += 7) {
            md2_vertex_layout l = md2_layout_default(flags);
            md2_mesh_pose(mesh, m, &p, vbuf, &l);
            h = fnv_floats(h, vbuf, mesh->num_vertices * 8);
            md2_mesh_lerp(mesh, m, step % (uint32_t)m->num_frames, half, 0.3f, vbuf, &l);
            h = fnv_floats(h, vbuf, mesh->num_vertices * 8);
        }
        md2_player_advance(&p, 0.09);
    }
    free(vbuf);
    md2_mesh_free(mesh);
    return h;
}

/* f rounded to float in memory (x87 keeps wider values in registers). */
static float in_memory(float f)
{
    volatile float v = f;
    return v;
}

/* Hashes the file of a built model into h (0 when the build failed). */
static uint64_t fnv_built(uint64_t h, md2_result r, md2_model *b)
{
    size_t size;
    unsigned char *out;
    if (r != MD2_OK)
        return fnv(h, 0);
    size = md2_write_size(b);
    out = (unsigned char *)malloc(size ? size : 1);
    if (out && md2_write(b, out, size, NULL, NULL) == MD2_OK) {
        size_t i;
        for (i = 0; i < size; i++)
            h = fnv(h, out[i]);
    }
    free(out);
    md2_free(b);
    return h;
}

/* md2_simplify() on model src (every 20th frame): four levels from one run
 * (three ratios and an error target of 1 model unit), each level's file bytes, collapse count
 * and reported errors (rounded to float: they are floats in the library)
 * hashed. */
static void digest_simplify(const char *name, const md2_model *src)
{
    uint64_t h = 14695981039346656037ull;
    md2_simplify_target t[4];
    md2_lod lod[4];
    md2_result r;
    size_t i;
    md2_frame frames[10];
    md2_model few = *src;
    const md2_model *m = &few;

    /* every 20th frame, at most 10 (the measures are slow under qemu) */
    memset(&few.header, 0, sizeof few.header);
    memset(&few.allocator, 0, sizeof few.allocator);
    few.warnings = 0;
    few.num_frames = 0;
    for (i = 0; i < src->num_frames && few.num_frames < 10; i += 20)
        frames[few.num_frames++] = src->frames[i];
    few.frames = frames;

    memset(t, 0, sizeof t);
    t[0].kind = t[1].kind = t[2].kind = MD2_SIMPLIFY_RATIO;
    t[0].value = 0.5;
    t[1].value = 0.25;
    t[2].value = 0.125;
    t[3].kind = MD2_SIMPLIFY_ERROR;
    t[3].value = 1.0;
    r = md2_simplify(m, t, 4, NULL, lod);
    h = fnv(h, (uint32_t)r);
    for (i = 0; r == MD2_OK && i < 4; i++) {
        float e[3];
        e[0] = (float)lod[i].max_error;
        e[1] = (float)lod[i].mean_error;
        e[2] = (float)lod[i].relative_error;
        h = fnv(h, (uint32_t)lod[i].num_collapses);
        h = fnv_floats(h, e, 3);
        h = fnv_built(h, MD2_OK, lod[i].model);
        lod[i].model = NULL; /* fnv_built() freed it */
        md2_lod_free(&lod[i]);
    }
    printf("%s simplified: digest %08lx%08lx\n", name, (unsigned long)(h >> 32),
           (unsigned long)(h & 0xFFFFFFFFu));
}

/* The builder on model m: its decoded frames as they are and scaled by
 * 0.7578125 and moved by 0.3125 (off the file's grid; constants that are
 * exact in float, because where floats are evaluated as double a float
 * constant may be too), a box per frame and a shared box; and
 * md2_rebuild() with a new grid, normals and GL commands. */
static void digest_build(const char *name, const md2_model *m)
{
    uint64_t h = 14695981039346656037ull;
    size_t n = m->num_vertices, i;
    float *pos = (float *)malloc(m->num_frames * n * 3 * sizeof(float));
    float *uv = (float *)malloc((m->num_texcoords + 1) * 2 * sizeof(float));
    uint32_t *tris = (uint32_t *)malloc((m->num_triangles + 1) * 6 * sizeof(uint32_t));
    md2_build_input in;
    md2_build_options o;
    md2_model *b = NULL;
    md2_result r;
    uint32_t f;
    int pass, k;

    if (!pos || !uv || !tris) {
        free(pos);
        free(uv);
        free(tris);
        return;
    }
    for (f = 0; f < m->num_frames; f++)
        md2_decode_frame(m, f, pos + f * n * 3, 0, NULL, 0);
    for (i = 0; i < m->num_texcoords; i++)
        md2_texcoord_uv(m, m->texcoords[i], &uv[2 * i], &uv[2 * i + 1]);
    for (i = 0; i < m->num_triangles; i++)
        for (k = 0; k < 3; k++) {
            tris[6 * i + 2 * (size_t)k] = m->triangles[i].vertex[k];
            tris[6 * i + 2 * (size_t)k + 1] = m->triangles[i].texcoord[k];
        }
    memset(&in, 0, sizeof in);
    in.num_frames = m->num_frames;
    in.num_vertices = n;
    in.positions = pos;
    in.num_triangles = m->num_triangles;
    in.triangles = tris;
    in.num_texcoords = m->num_texcoords;
    in.uv = uv;
    in.skin_width = m->skin_width > 0 ? (uint32_t)m->skin_width : 1u;
    in.skin_height = m->skin_height > 0 ? (uint32_t)m->skin_height : 1u;
    memset(&o, 0, sizeof o);
    for (pass = 0; pass < 4; pass++) {
        if (pass == 2)
            for (i = 0; i < m->num_frames * n * 3; i++)
                pos[i] = in_memory(in_memory(pos[i] * 0.7578125f) + 0.3125f);
        o.flags = (pass & 1) ? MD2_BUILD_SHARED_BOX : 0u;
        r = md2_build(&in, &o, &b);
        h = fnv_built(h, r, b);
    }
    o.flags = MD2_REBUILD_NORMALS | MD2_REBUILD_REQUANTIZE | MD2_REBUILD_GLCMDS;
    r = md2_rebuild(m, &o, &b);
    h = fnv_built(h, r, b);
    o.flags |= MD2_BUILD_SHARED_BOX;
    r = md2_rebuild(m, &o, &b);
    h = fnv_built(h, r, b);
    printf("%s built: digest %08lx%08lx\n", name, (unsigned long)(h >> 32),
           (unsigned long)(h & 0xFFFFFFFFu));
    free(pos);
    free(uv);
    free(tris);
}

static int digest(const char *path)
{
    md2_model *m = NULL;
    md2_diagnostic d;
    md2_options o;
    uint64_t h = 14695981039346656037ull;
    float *pos, *nrm, mn[3], mx[3];
    unsigned char *out;
    size_t size, i;
    uint32_t f;
    int ok = 1;
    FILE *probe = fopen(path, "rb");

    if (!probe) {
        printf("%s: absent\n", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
        return 0;
    }
    fclose(probe);
    memset(&o, 0, sizeof o);
    o.error = &d;
    if (md2_load_file(path, &o, &m) != MD2_OK) {
        printf("%s: %s\n", path, d.message);
        return 1;
    }
    pos = (float *)malloc(m->num_vertices * 3 * sizeof(float));
    nrm = (float *)malloc(m->num_vertices * 3 * sizeof(float));
    size = md2_write_size(m);
    out = (unsigned char *)malloc(size);
    if (!pos || !nrm || !out) {
        free(pos);
        free(nrm);
        free(out);
        md2_free(m);
        return 1;
    }
    for (f = 0; f < m->num_frames; f++) {
        md2_decode_frame(m, f, pos, 0, nrm, 0);
        h = fnv_floats(h, pos, m->num_vertices * 3);
        h = fnv_floats(h, nrm, m->num_vertices * 3);
        md2_lerp(m, f, (f + 1) % (uint32_t)m->num_frames, 0.5f, pos, 0, nrm, 0);
        md2_normalize(nrm, m->num_vertices, 0);
        h = fnv_floats(h, pos, m->num_vertices * 3);
        h = fnv_floats(h, nrm, m->num_vertices * 3);
        md2_frame_bounds(m, f, mn, mx);
        h = fnv_floats(h, mn, 3);
        h = fnv_floats(h, mx, 3);
    }
    md2_write(m, out, size, NULL, NULL);
    for (i = 0; i < size; i++)
        h = fnv(h, out[i]);
    h = digest_poses(m, h, pos, nrm, &ok);
    printf("%s: %lu frames, %lu vertices, digest %08lx%08lx%s\n", strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
           (unsigned long)m->num_frames, (unsigned long)m->num_vertices,
           (unsigned long)(h >> 32), (unsigned long)(h & 0xFFFFFFFFu),
           ok ? "" : " (out of memory: poses not hashed)");
    digest_build(strrchr(path, '/') ? strrchr(path, '/') + 1 : path, m);
    digest_simplify(strrchr(path, '/') ? strrchr(path, '/') + 1 : path, m);
    free(pos);
    free(nrm);
    free(out);
    md2_free(m);
    return 0;
}

static const char *file_name(const char *path)
{
    return strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
}

/* Reads a whole file into a malloc'd buffer; NULL if it cannot. */
static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f)
        return NULL;
    do {
        if (n == cap) {
            unsigned char *nb = (unsigned char *)realloc(buf, cap ? cap * 2 : 4096);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap = cap ? cap * 2 : 4096;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *size = n;
    return buf;
}

static int digest_tags(const char *path)
{
    static const float ts[3] = {0.3f, 0.5f, 0.73f};
    md2_tags *t = NULL;
    md2_diagnostic d;
    md2_options o;
    md2_player p;
    md2_anim a1, a2;
    uint64_t h = 14695981039346656037ull;
    float m[16], world[16], child[16];
    unsigned char *data, *out;
    size_t size = 0, k, i;
    uint32_t fa, fb;
    int step;

    data = read_all(path, &size);
    if (!data) {
        printf("%s: absent\n", file_name(path));
        return 0;
    }
    memset(&o, 0, sizeof o);
    o.error = &d;
    if (md2_tags_parse(data, size, &o, &t) != MD2_OK) {
        printf("%s: %s\n", path, d.message);
        free(data);
        return 1;
    }
    free(data);
    for (i = 0; i < 16; i++)
        world[i] = (i % 5 == 0) ? 1.0f : 0.0f;
    world[1] = 0.6f; /* a shear, so every product matters */
    world[12] = 12.5f;
    for (k = 0; k < t->num_tags; k++) {
        for (fa = 0; fa < t->num_frames; fa++) {
            for (fb = 0; fb < t->num_frames; fb++) {
                for (i = 0; i < 3; i++) {
                    md2_tag_lerp(t, k, fa, fb, ts[i], m);
                    h = fnv_floats(h, m, 16);
                    md2_attach(world, m, child);
                    h = fnv_floats(h, child, 16);
                }
            }
        }
        /* through a player: the first half of the frames, cross-faded into
         * the second half */
        memset(&a1, 0, sizeof a1);
        memset(&a2, 0, sizeof a2);
        a1.last = (uint32_t)(t->num_frames - 1) / 2;
        a1.fps = 10.0f;
        a2.first = a1.last;
        a2.last = (uint32_t)t->num_frames - 1;
        a2.fps = 7.0f;
        md2_player_init(&p);
        md2_player_play(&p, &a1, MD2_PLAY_LOOP, MD2_RATE_ANIM);
        for (step = 0; step < 60; step++) {
            md2_player_tag(&p, t, k, m);
            h = fnv_floats(h, m, 16);
            if (step == 20)
                md2_player_crossfade(&p, &a2, MD2_PLAY_PINGPONG, MD2_RATE_ANIM, 1.0f);
            md2_player_advance(&p, 1.0 / 30.0);
        }
    }
    size = md2_tags_write_size(t);
    out = (unsigned char *)malloc(size ? size : 1);
    if (!out) {
        md2_tags_free(t);
        return 1;
    }
    md2_tags_write(t, out, size, NULL, NULL);
    for (i = 0; i < size; i++)
        h = fnv(h, out[i]);
    printf("%s: %lu tags, %lu frames, digest %08lx%08lx\n", file_name(path),
           (unsigned long)t->num_tags, (unsigned long)t->num_frames,
           (unsigned long)(h >> 32), (unsigned long)(h & 0xFFFFFFFFu));
    free(out);
    md2_tags_free(t);
    return 0;
}

static void count_warning(void *user, const md2_diagnostic *w)
{
    (void)w;
    ++*(unsigned *)user;
}

/* The fourth line (see the top): variant k of the model's bytes at data,
 * which the parse that gave m accepted, changed in out. */
static void normals_variant(unsigned char *out, const unsigned char *data, size_t size,
                            const md2_model *m, int k)
{
    const size_t ofs = (size_t)m->header.ofs_frames, fs = (size_t)m->header.framesize;
    const size_t n = m->num_vertices, nf = m->num_frames;
    const unsigned char first = data[ofs + 40 + 3];
    size_t f, i;
    memcpy(out, data, size);
    if (k == 0)
        return; /* as it is */
    for (f = 0; f < nf; f++)
        for (i = 0; i < n; i++)
            out[ofs + f * fs + 40 + 4 * i + 3] = k == 5 ? 200 : first;
    if (k == 2) /* the last vertex of the last frame differs */
        out[ofs + (nf - 1) * fs + 40 + 4 * (n - 1) + 3] = (unsigned char)((first + 1u) % 162u);
    else if (k == 3) /* vertex n / 2 of frame 0 differs */
        out[ofs + 40 + 4 * (n / 2) + 3] = (unsigned char)((first + 7u) % 162u);
    else if (k == 4) /* every 7th frame has a bad index at a vertex of its own */
        for (f = 0; f < nf; f += 7)
            out[ofs + f * fs + 40 + 4 * ((f * 13) % n) + 3] = (unsigned char)(162u + f % 94u);
}

static void digest_normal_checks(const char *name, const unsigned char *data, size_t size)
{
    md2_model *m = NULL;
    unsigned char *out = (unsigned char *)malloc(size);
    int k;
    if (!out || md2_parse(data, size, NULL, &m) != MD2_OK) {
        printf("%s normal checks: cannot run\n", name);
        free(out);
        md2_free(m);
        return;
    }
    printf("%s normal checks:", name);
    for (k = 0; k < 6; k++) {
        md2_model *quiet = NULL, *heard = NULL;
        md2_options o;
        unsigned count = 0;
        normals_variant(out, data, size, m, k);
        memset(&o, 0, sizeof o);
        o.on_warning = count_warning;
        o.warning_user = &count;
        if (md2_parse(out, size, NULL, &quiet) == MD2_OK &&
            md2_parse(out, size, &o, &heard) == MD2_OK)
            printf(" %lx/%lx/%u", (unsigned long)quiet->warnings, (unsigned long)heard->warnings,
                   count);
        else
            printf(" refused");
        md2_free(quiet);
        md2_free(heard);
    }
    printf("\n");
    free(out);
    md2_free(m);
}

int main(int argc, char **argv)
{
    int i, bad = 0;
    for (i = 1; i < argc; i++) {
        size_t n = strlen(argv[i]);
        if (n > 4 && strcmp(argv[i] + n - 4, ".tag") == 0)
            bad |= digest_tags(argv[i]);
        else
            bad |= digest(argv[i]);
        if (n > 4 && strcmp(argv[i] + n - 4, ".md2") == 0) {
            size_t size = 0;
            unsigned char *data = read_all(argv[i], &size);
            if (data)
                digest_normal_checks(file_name(argv[i]), data, size);
            free(data);
        }
    }
    return bad;
}
