/*
 * Prints one FNV-1a hash per model of everything libmd2 decodes from it:
 * every keyframe's positions and normals, the midpoint of each pair of
 * consecutive frames with unit normals, every frame's bounds, and the bytes
 * the writer produces. CI runs it natively, on big-endian s390x and as a
 * 32-bit build: the lines must be identical. Missing files are reported as
 * "absent" (the shared corpus is not in every checkout).
 *
 *   md2_digest MODEL.md2...
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>

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
    printf("%s: %lu frames, %lu vertices, digest %08lx%08lx\n", strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
           (unsigned long)m->num_frames, (unsigned long)m->num_vertices,
           (unsigned long)(h >> 32), (unsigned long)(h & 0xFFFFFFFFu));
    free(pos);
    free(nrm);
    free(out);
    md2_free(m);
    return 0;
}

int main(int argc, char **argv)
{
    int i, bad = 0;
    for (i = 1; i < argc; i++)
        bad |= digest(argv[i]);
    return bad;
}
