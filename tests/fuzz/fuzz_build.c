/*
 * The builder's fuzz target (libFuzzer entry point; fuzz_replay.c runs it
 * without libFuzzer): <md2/build.h> on arbitrary input.
 *
 * An input that starts with "IDP2" is an MD2 file: it is parsed leniently
 * and, when it loads, rebuilt with flags and a profile from its last bytes
 * (and with none: the same file must come back byte for byte). Any other
 * input describes an md2_build_input, byte by byte (see read_input): its
 * counts, flags and profile, positions as raw float bits (NaN and
 * infinities included) or as small steps, normals, triangles whose indices
 * may be out of range, uv or texels, skin and frame names, animations.
 *
 * Whatever the input, a call either fails with a diagnostic, nothing
 * allocated (before any allocation, unless the error is a limit found in
 * scratch memory or memory itself), or gives one allocation that a strict
 * parse of its file takes back as it is, every coordinate within half a
 * step (plus rounding) of the input, and that md2_rebuild() keeps byte for
 * byte. One allocation chosen by the input fails, which must give
 * MD2_ERR_OUT_OF_MEMORY and no leak. Any broken promise aborts.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/build.h>
#include <md2/md2.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

/* An allocator that counts blocks and bytes and fails its fail_at-th call
 * (0: never). */
typedef struct falloc {
    size_t calls, fail_at, live, live_bytes;
} falloc;

static void *f_alloc(void *user, size_t size)
{
    falloc *a = (falloc *)user;
    size_t *p;
    a->calls++;
    if (a->fail_at && a->calls == a->fail_at)
        return NULL;
    p = (size_t *)malloc(size + 16);
    if (!p)
        return NULL;
    p[0] = size;
    a->live++;
    a->live_bytes += size;
    return (unsigned char *)p + 16;
}

static void f_free(void *user, void *ptr)
{
    falloc *a = (falloc *)user;
    size_t *p;
    if (!ptr)
        return;
    p = (size_t *)(void *)((unsigned char *)ptr - 16);
    a->live--;
    a->live_bytes -= p[0];
    free(p);
}

static void use_allocator(md2_build_options *o, falloc *a, size_t fail_at)
{
    memset(a, 0, sizeof *a);
    a->fail_at = fail_at;
    o->allocator.alloc = f_alloc;
    o->allocator.free = f_free;
    o->allocator.user = a;
}

static size_t heard;

static void on_warning(void *user, const md2_diagnostic *d)
{
    (void)user;
    CHECK(d->result == MD2_OK && d->warning != 0 && d->message[0] != '\0');
    heard++;
}

/* Bytes of the input, read in turn; zeros past its end. */
typedef struct bytes {
    const uint8_t *p;
    size_t n, at;
} bytes;

static unsigned u8(bytes *b) { return b->at < b->n ? b->p[b->at++] : 0u; }

static unsigned u16(bytes *b)
{
    unsigned lo = u8(b);
    return lo | (u8(b) << 8);
}

static float raw_float(bytes *b)
{
    uint32_t u = (uint32_t)u16(b);
    float f;
    u |= (uint32_t)u16(b) << 16;
    memcpy(&f, &u, sizeof f);
    return f;
}

#define MAX_V 40
#define MAX_F 6
#define MAX_T 60
#define MAX_ST 40

typedef struct input {
    md2_build_input in;
    md2_build_options o;
    float pos[MAX_F][MAX_V][8]; /* up to 8 floats a row: room for strides */
    float nrm[MAX_F][MAX_V][3];
    uint32_t tris[MAX_T][6];
    float uv[MAX_ST][2];
    int16_t texels[MAX_ST][2];
    char names[MAX_F + 3][24];
    const char *skin_names[3];
    const char *frame_names[MAX_F];
    md2_build_anim anims[3];
    int raw;                    /* positions from raw bits */
} input;

static void read_name(bytes *b, char *out, size_t cap)
{
    size_t len = u8(b) % 20, i;
    for (i = 0; i < len && i + 1 < cap; i++)
        out[i] = (char)(33 + u8(b) % 94);
    out[i] = '\0';
}

/* The input's layout: flags, profile, counts, mode; then the arrays. */
static void read_input(bytes *b, input *x)
{
    unsigned mode, nf, nv, nt, nst, ns, i, k, f;
    float step;
    memset(x, 0, sizeof *x);
    x->o.flags = u8(b) & 0x47u; /* md2_build's flags, and sometimes a bad one */
    if (u8(b) == 0xFF)
        x->o.flags |= 0x100u;
    x->o.profile = (md2_profile)(u8(b) % 5); /* 4: not a profile */
    nf = u8(b) % (MAX_F + 1);
    nv = u8(b) % (MAX_V + 1);
    nt = u8(b) % (MAX_T + 1);
    nst = u8(b) % (MAX_ST + 1);
    ns = u8(b) % 4;
    x->in.skin_width = u16(b);
    x->in.skin_height = u16(b);
    mode = u8(b);
    x->raw = (mode & 1) != 0;
    step = (float)(1 + u8(b)) / 16.0f;
    x->in.num_frames = nf;
    x->in.num_vertices = nv;
    x->in.num_triangles = nt;
    x->in.num_texcoords = nst;
    x->in.num_skins = ns > 2 ? 2 : ns;
    x->in.positions = &x->pos[0][0][0];
    if (mode & 2) { /* interleaved rows of 8 floats, frames of MAX_V rows */
        x->in.vertex_stride = 8 * sizeof(float);
        x->in.frame_stride = sizeof x->pos[0];
    } else {
        x->in.vertex_stride = 0;
        x->in.frame_stride = 0;
    }
    for (f = 0; f < nf; f++)
        for (i = 0; i < nv; i++)
            for (k = 0; k < 3; k++) {
                float *dst = (mode & 2) ? &x->pos[f][i][k] : &x->pos[0][0][0] + 3 * (f * nv + i) + k;
                *dst = x->raw ? raw_float(b) : (float)((int)u8(b) - 128) * step;
            }
    if (mode & 4) {
        x->in.normals = &x->nrm[0][0][0];
        for (f = 0; f < nf; f++)
            for (i = 0; i < nv; i++)
                for (k = 0; k < 3; k++)
                    (&x->nrm[0][0][0])[3 * (f * nv + i) + k] =
                        x->raw ? raw_float(b) : (float)((int)u8(b) - 128);
    }
    x->in.triangles = &x->tris[0][0];
    for (i = 0; i < nt; i++)
        for (k = 0; k < 3; k++) {
            x->tris[i][2 * k] = u8(b) % (nv + 1);     /* nv: out of range */
            x->tris[i][2 * k + 1] = u8(b) % (nst + 1);
        }
    if (mode & 8) {
        x->in.texels = &x->texels[0][0];
        for (i = 0; i < nst; i++)
            for (k = 0; k < 2; k++)
                x->texels[i][k] = (int16_t)u16(b);
    } else {
        x->in.uv = &x->uv[0][0];
        for (i = 0; i < nst; i++)
            for (k = 0; k < 2; k++)
                x->uv[i][k] = x->raw ? raw_float(b) : (float)((int)u8(b) - 64) / 64.0f;
    }
    for (i = 0; i < x->in.num_skins; i++) {
        read_name(b, x->names[i], sizeof x->names[i]);
        x->skin_names[i] = x->names[i];
    }
    x->in.skin_names = x->skin_names;
    if ((mode & 0x30) == 0x10) { /* names given */
        for (f = 0; f < nf; f++) {
            read_name(b, x->names[3 + f], sizeof x->names[3 + f]);
            x->frame_names[f] = x->names[3 + f];
        }
        x->in.frame_names = x->frame_names;
    } else if ((mode & 0x30) == 0x20) { /* animations, counts maybe wrong */
        unsigned na = 1 + u8(b) % 3, left = nf;
        for (i = 0; i < na; i++) {
            read_name(b, x->names[i], sizeof x->names[i]);
            x->anims[i].name = x->names[i];
            x->anims[i].count = i + 1 < na ? (left > 1 ? 1 + u8(b) % left : left) : left;
            left -= x->anims[i].count <= left ? (unsigned)x->anims[i].count : left;
            if (u8(b) == 0xEE)
                x->anims[i].count++;
        }
        x->in.anims = x->anims;
        x->in.num_anims = na;
    }
}

/* The model's file, parsed back strictly, must be the model. */
static void check_file(const md2_model *m)
{
    size_t size = md2_write_size(m), i;
    unsigned char *out;
    md2_options po;
    md2_diagnostic d;
    md2_model *back = NULL;
    CHECK(size >= MD2_HEADER_SIZE);
    out = (unsigned char *)malloc(size);
    CHECK(out != NULL);
    CHECK(md2_write(m, out, size, NULL, NULL) == MD2_OK);
    memset(&po, 0, sizeof po);
    po.strict = MD2_STRICT_ALL;
    po.error = &d;
    if (md2_parse(out, size, &po, &back) != MD2_OK) {
        fprintf(stderr, "strict parse: %s\n", d.message);
        CHECK(0);
    }
    CHECK(memcmp(&back->header, &m->header, sizeof m->header) == 0);
    CHECK(back->num_glcmds == m->num_glcmds);
    CHECK(m->num_glcmds == 0 || memcmp(back->glcmds, m->glcmds, m->num_glcmds * 4) == 0);
    for (i = 0; i < m->num_frames; i++)
        CHECK(memcmp(back->frames[i].vertices, m->frames[i].vertices, m->num_vertices * 4) == 0);
    md2_free(back);
    free(out);
}

/* Every coordinate within half a step of the input, plus the rounding of
 * the decode (docs/builder.md). */
static void check_grid(const md2_model *m, const input *x)
{
    float dec[MAX_V][3];
    size_t f, i;
    int k;
    for (f = 0; f < m->num_frames; f++) {
        const md2_frame *fr = &m->frames[f];
        CHECK(md2_decode_frame(m, (uint32_t)f, &dec[0][0], 0, NULL, 0) == MD2_OK);
        for (i = 0; i < m->num_vertices; i++) {
            const float *p = x->in.vertex_stride ? x->pos[f][i]
                                                 : &x->pos[0][0][0] + 3 * (f * m->num_vertices + i);
            for (k = 0; k < 3; k++) {
                double top = fabs((double)fr->translate[k] + 255.0 * fr->scale[k]);
                double mag = fabs((double)fr->translate[k]) > top ? fabs((double)fr->translate[k]) : top;
                double err = fabs((double)dec[i][k] - p[k]);
                CHECK(fr->scale[k] >= 0.0f);
                CHECK(err <= 0.5 * fr->scale[k] + ldexp(mag, -21) + 1e-42);
            }
            CHECK(fr->vertices[i].normal < MD2_NUM_NORMALS);
        }
    }
}

static void check_failure(md2_result r, const md2_diagnostic *d, const md2_model *m,
                          const falloc *a)
{
    CHECK(r != MD2_OK && m == NULL && d->result == r && d->message[0] != '\0');
    CHECK(a->live == 0);
    /* refused before any allocation, but for a limit counted in scratch
     * memory and for memory itself */
    CHECK(a->calls == 0 || r == MD2_ERR_LIMIT_EXCEEDED || r == MD2_ERR_OUT_OF_MEMORY);
}

/* md2_rebuild() of m with flags and a profile: a file that parses
 * strictly (or an error without leaks); with no change asked, the same
 * bytes as m's. */
static void check_rebuild(const md2_model *m, unsigned flags, md2_profile profile,
                          size_t fail_at, int strict_source)
{
    md2_build_options o;
    md2_diagnostic d;
    falloc a;
    md2_model *r = NULL;
    md2_result res;
    memset(&o, 0, sizeof o);
    o.error = &d;
    o.flags = flags;
    o.profile = profile;
    o.on_warning = on_warning;
    use_allocator(&o, &a, fail_at);
    heard = 0;
    res = md2_rebuild(m, &o, &r);
    if (res != MD2_OK) {
        CHECK(r == NULL && d.result == res && a.live == 0 && heard == 0);
        CHECK(fail_at != 0 || res != MD2_ERR_OUT_OF_MEMORY);
        return;
    }
    CHECK(a.live == 1 && a.live_bytes == md2_model_memory(r));
    if (flags == 0) {
        size_t sa = md2_write_size(m), sb = md2_write_size(r);
        unsigned char *x = (unsigned char *)malloc(sa), *y = (unsigned char *)malloc(sb);
        CHECK(x && y && sa == sb);
        CHECK(md2_write(m, x, sa, NULL, NULL) == MD2_OK && md2_write(r, y, sb, NULL, NULL) == MD2_OK);
        CHECK(memcmp(x, y, sa) == 0);
        free(x);
        free(y);
    }
    if (strict_source) {
        check_file(r);
    } else {
        /* the writer repairs the layout; what it keeps byte for byte of a
         * lenient load may still warn */
        size_t size = md2_write_size(r);
        unsigned char *out = (unsigned char *)malloc(size);
        md2_model *back = NULL;
        CHECK(out && md2_write(r, out, size, NULL, NULL) == MD2_OK);
        back = fuzz_reparse(out, size, m->warnings);
        md2_free(back);
        free(out);
    }
    md2_free(r);
    CHECK(a.live == 0);
}

static void fuzz_rebuild(const uint8_t *data, size_t size)
{
    md2_model *m = NULL;
    md2_options po;
    md2_options so;
    md2_model *strict = NULL;
    unsigned flags = size > 4 ? data[size - 1] & 0x7Fu : 0u;
    md2_profile profile = (md2_profile)(size > 5 ? data[size - 2] % 4 : 0);
    int strict_ok;
    memset(&po, 0, sizeof po);
    if (md2_parse(data, size, &po, &m) != MD2_OK)
        return;
    memset(&so, 0, sizeof so);
    so.strict = MD2_STRICT_ALL;
    strict_ok = md2_parse(data, size, &so, &strict) == MD2_OK;
    md2_free(strict);
    if ((flags & MD2_REBUILD_GLCMDS) && (flags & MD2_BUILD_NO_GLCMDS))
        flags &= ~(unsigned)MD2_BUILD_NO_GLCMDS;
    check_rebuild(m, 0, MD2_PROFILE_FORMAT, 0, strict_ok);
    check_rebuild(m, flags, profile, 0, strict_ok);
    check_rebuild(m, flags, profile, size > 6 ? 1 + data[size - 3] % 4 : 1, strict_ok);
    md2_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static input x;
    bytes b;
    md2_diagnostic d;
    falloc a;
    md2_model *m = NULL;
    md2_result r;
    size_t fail_at;

    if (size >= 4 && memcmp(data, "IDP2", 4) == 0) {
        fuzz_rebuild(data, size);
        return 0;
    }
    b.p = data;
    b.n = size;
    b.at = 0;
    read_input(&b, &x);
    fail_at = u8(&b) % 5;
    x.o.error = &d;
    x.o.on_warning = on_warning;
    use_allocator(&x.o, &a, 0);
    heard = 0;
    m = (md2_model *)&x; /* overwritten */
    r = md2_build(&x.in, &x.o, &m);
    if (r != MD2_OK) {
        check_failure(r, &d, m, &a);
        CHECK(heard == 0);
        return 0;
    }
    CHECK(m != NULL && d.result == MD2_OK);
    CHECK(a.live == 1 && a.live_bytes == md2_model_memory(m));
    CHECK(m->num_frames == x.in.num_frames && m->num_vertices == x.in.num_vertices);
    CHECK(m->num_texcoords == x.in.num_texcoords);
    CHECK((x.o.flags & MD2_REBUILD_DROP_DEGENERATE) || m->num_triangles == x.in.num_triangles);
    check_file(m);
    check_grid(m, &x);
    check_rebuild(m, 0, MD2_PROFILE_FORMAT, 0, 1);
    check_rebuild(m, MD2_REBUILD_NORMALS | MD2_REBUILD_REQUANTIZE | MD2_REBUILD_GLCMDS |
                         (x.o.flags & (MD2_BUILD_SHARED_BOX | MD2_REBUILD_DROP_DEGENERATE)),
                  x.o.profile, 0, 1);
    md2_free(m);
    CHECK(a.live == 0);
    if (fail_at != 0) { /* the same build with one allocation failing */
        use_allocator(&x.o, &a, fail_at);
        heard = 0;
        r = md2_build(&x.in, &x.o, &m);
        if (r == MD2_OK) {
            CHECK(a.calls < fail_at);
            md2_free(m);
        } else {
            CHECK(r == MD2_ERR_OUT_OF_MEMORY && m == NULL && a.live == 0 && heard == 0);
        }
    }
    return 0;
}
