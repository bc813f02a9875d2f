/*
 * md2 import: the glTF 2.0 reader (import.h, docs/tool.md "md2 import:
 * glTF"). Reads a .gltf (with its .bin files or data: URIs) or a .glb,
 * evaluates the default scene (node hierarchy, morph targets, skins) at
 * each keyframe time of each animation, and fills an imp_scene with
 * world-space positions in glTF's own axes and units. Nodes scaled to 0
 * are hidden: every keyframe must show meshes of one topology, whose
 * positions it takes (md2 export --max-targets parts: reference_items());
 * md2 export's clips are laid out in their MD2 frame order (order_anims()).
 *
 * The JSON is parsed with cJSON; every index, count and byte range the JSON
 * gives is checked against what it points at before anything is read or
 * allocated, and an error names the JSON path of what is wrong.
 *
 * SPDX-License-Identifier: MIT
 */
#include "import.h"
#include "image.h"
#include "tool.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GL_BYTE 5120
#define GL_UNSIGNED_BYTE 5121
#define GL_SHORT 5122
#define GL_UNSIGNED_SHORT 5123
#define GL_UNSIGNED_INT 5125
#define GL_FLOAT 5126

/* JSON integers we take: up to 2^53, exact in a double */
#define GL_MAX_INT 9007199254740992.0
/* an accessor without a bufferView (zeros and sparse values) has no bytes
 * to bound its count: it may hold this many elements at most */
#define GL_MAX_VIEWLESS 16777216.0
/* keyframes an animation may have */
#define GL_MAX_KEYS 1000000.0

enum { PATH_T, PATH_R, PATH_S, PATH_W };
enum { INTERP_LINEAR, INTERP_STEP, INTERP_CUBIC };

/* A decoded accessor: count elements of comps values, as floats (f) or, for
 * indices and joints, as unsigned integers (u). */
typedef struct gl_data {
    size_t count;
    int comps;
    float *f;
    uint32_t *u;
} gl_data;

typedef struct gl_prim {
    int triangles;       /* a triangle primitive (else skipped) */
    gl_data pos, nrm, uv;
    size_t nsets;        /* JOINTS_n / WEIGHTS_n pairs */
    gl_data *joints, *weights;
    gl_data *tpos, *tnrm; /* one a morph target (count 0: the target has none) */
    uint32_t *tri;       /* 3 a triangle, into pos */
    size_t ntri;
    int material;        /* -1: none */
} gl_prim;

typedef struct gl_mesh {
    int loaded;
    size_t nprims;
    gl_prim *prims;
    size_t ntargets;
    double *weights; /* ntargets defaults (mesh.weights or zeros) */
} gl_mesh;

typedef struct gl_node {
    int parent;
    int has_matrix;
    double matrix[16];
    double t[3], r[4], s[3];
    int mesh, skin;
    const cJSON *children;
    const cJSON *weights; /* node.weights, or NULL */
    int state;            /* hierarchy check */
} gl_node;

typedef struct gl_skin {
    int loaded;
    size_t njoints;
    int *joints;
    double *ibm; /* 16 a joint, column-major */
} gl_skin;

typedef struct gl_channel {
    int node, path, interp;
    size_t width; /* values a key: 3, 4, or the morph target count */
    gl_data in, out;
} gl_channel;

typedef struct gl_anim {
    int index;
    char *name;
    size_t nchannels;
    gl_channel *channels;
    double t0, fps;
    size_t nframes;
    double first; /* extras.first of md2 export's glTF, or -1 */
} gl_anim;

typedef struct gl_buf {
    int loaded;
    unsigned char *owned;
    const unsigned char *data;
    size_t size;
} gl_buf;

/* A JSON array's elements, indexed once: cJSON_GetArrayItem() walks the
 * list from its start, which made a loop over 80,000 nodes quadratic. */
typedef struct gl_index {
    const cJSON *arr;
    const cJSON **item;
    size_t n;
} gl_index;

/* the top-level arrays j_object() reads: buffers ... scenes */
#define GL_TOP_ARRAYS 12

typedef struct gl {
    cJSON *root;
    gl_index tops[GL_TOP_ARRAYS];
    size_t ntops;
    const char *base_dir;
    const imp_options *opt;
    imp_scene *out;
    char *err;
    size_t err_size;
    const unsigned char *bin;
    size_t bin_size;
    int has_bin;
    const cJSON *buffers, *views, *accessors, *nodes_j, *meshes_j, *skins_j, *materials, *textures, *images,
        *animations;
    size_t nbuffers, nviews, naccessors, nnodes, nmeshes, nskins, nmaterials, ntextures, nimages, nanimations;
    gl_buf *bufs;
    gl_node *nodes;
    gl_mesh *meshes;
    gl_skin *skins;
    int *image_map; /* glTF image -> scene image, or -1 */
    double spent;   /* bytes counted against opt->max_bytes (spend()) */
    size_t nitems;
    int *items;     /* nodes with a mesh, in scene order */
    int *order;     /* every node, parents before children */
    size_t norder;
    size_t nanims;
    gl_anim *anims;
} gl;

/* ---- errors and small helpers --------------------------------------------- */

static int fail(gl *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int fail(gl *g, const char *fmt, ...)
{
    if (g->err && g->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(g->err, g->err_size, fmt, ap);
        va_end(ap);
    }
    return 0;
}

/* snprintf for the JSON paths of messages (which a long path may cut) */
static void pathf(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void pathf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

static int oom(gl *g)
{
    return fail(g, "out of memory");
}

/* Counts bytes (what is decoded, copied or made: each use of a shared
 * accessor again) against opt->max_bytes before they are allocated: 0,
 * said, naming what (at the JSON path where), when they would pass it. */
static int spend(gl *g, double bytes, const char *where, const char *what)
{
    if (g->opt && g->opt->max_bytes && bytes > (double)g->opt->max_bytes - g->spent)
        return fail(g, "%s: %s would take the scene past the %lu bytes allowed (%.0f bytes so far)%s%s%s", where,
                    what, (unsigned long)g->opt->max_bytes, g->spent + bytes, IMP_RAISED_BY(g->opt));
    g->spent += bytes;
    return 1;
}

static void *gl_alloc(gl *g, size_t count, size_t size)
{
    void *p;
    if (count == 0)
        count = 1;
    if (count > (size_t)-1 / size) {
        oom(g);
        return NULL;
    }
    p = calloc(count, size);
    if (!p)
        oom(g);
    return p;
}

static char *gl_strdup(gl *g, const char *s)
{
    size_t n = strlen(s);
    char *d = (char *)gl_alloc(g, n + 1, 1);
    if (d)
        memcpy(d, s, n + 1);
    return d;
}

static const cJSON *jget(const cJSON *o, const char *key)
{
    return o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

/* An optional array member: *arr NULL and *n 0 when absent. */
static int j_array(gl *g, const cJSON *o, const char *key, const char *where, const cJSON **arr, size_t *n)
{
    const cJSON *a = jget(o, key);
    *arr = NULL;
    *n = 0;
    if (!a)
        return 1;
    if (!cJSON_IsArray(a))
        return fail(g, "%s%s%s: not an array", where, *where ? "." : "", key);
    *arr = a;
    *n = (size_t)cJSON_GetArraySize(a);
    return 1;
}

static int is_int(const cJSON *v, double lo, double hi)
{
    return cJSON_IsNumber(v) && v->valuedouble >= lo && v->valuedouble <= hi &&
           floor(v->valuedouble) == v->valuedouble;
}

/* An optional index member into something of count elements: *out -1
 * when absent. */
static int j_index(gl *g, const cJSON *o, const char *key, const char *where, size_t count, const char *what,
                   int *out)
{
    const cJSON *v = jget(o, key);
    *out = -1;
    if (!v)
        return 1;
    if (!is_int(v, 0, GL_MAX_INT))
        return fail(g, "%s.%s: not an index (a whole number from 0)", where, key);
    if (v->valuedouble >= (double)count)
        return fail(g, "%s.%s: %s %.0f does not exist (there %s %lu)", where, key, what, v->valuedouble,
                    count == 1 ? "is" : "are", (unsigned long)count);
    *out = (int)v->valuedouble;
    return 1;
}

/* An optional whole number member in [lo, hi] (*out = def when absent). */
static int j_uint(gl *g, const cJSON *o, const char *key, const char *where, double lo, double hi, double def,
                  double *out)
{
    const cJSON *v = jget(o, key);
    *out = def;
    if (!v)
        return 1;
    if (!is_int(v, lo, hi))
        return fail(g, "%s.%s: not a whole number from %.0f to %.0f", where, key, lo, hi);
    *out = v->valuedouble;
    return 1;
}

/* An optional array of exactly n finite numbers. */
static int j_numbers(gl *g, const cJSON *o, const char *key, const char *where, size_t n, double *out)
{
    const cJSON *a = jget(o, key), *v;
    size_t i = 0;
    if (!a)
        return 1;
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) != n)
        return fail(g, "%s.%s: not an array of %lu numbers", where, key, (unsigned long)n);
    for (v = (a) ? (a)->child : NULL; v; v = v->next) {
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
            return fail(g, "%s.%s[%lu]: not a finite number", where, key, (unsigned long)i);
        out[i++] = v->valuedouble;
    }
    return 1;
}

/* arr's elements, indexed once (arr one of the top-level arrays); NULL
 * when out of memory (said). */
static gl_index *j_indexed(gl *g, const cJSON *arr)
{
    size_t k;
    const cJSON *e;
    gl_index *x;
    for (k = 0; k < g->ntops; k++)
        if (g->tops[k].arr == arr)
            return &g->tops[k];
    if (g->ntops == GL_TOP_ARRAYS) { /* not reached: there are fewer top-level arrays */
        fail(g, "too many JSON arrays indexed");
        return NULL;
    }
    x = &g->tops[g->ntops];
    x->n = 0;
    for (e = arr ? arr->child : NULL; e; e = e->next)
        x->n++;
    if (!(x->item = (const cJSON **)gl_alloc(g, x->n ? x->n : 1, sizeof *x->item)))
        return NULL;
    x->n = 0;
    for (e = arr ? arr->child : NULL; e; e = e->next)
        x->item[x->n++] = e;
    x->arr = arr;
    g->ntops++;
    return x;
}

/* The i-th element of a top-level array already indexed (by j_object()
 * or j_indexed()), or NULL. */
static const cJSON *j_item(gl *g, const cJSON *arr, size_t i)
{
    gl_index *x = j_indexed(g, arr);
    return x && i < x->n ? x->item[i] : NULL;
}

/* The i-th element of a top-level array, which must be an object. */
static const cJSON *j_object(gl *g, const cJSON *arr, const char *name, size_t i)
{
    gl_index *x = j_indexed(g, arr);
    const cJSON *o;
    if (!x)
        return NULL; /* out of memory, said */
    o = i < x->n ? x->item[i] : NULL;
    if (!cJSON_IsObject(o)) {
        fail(g, "%s[%lu]: not an object", name, (unsigned long)i);
        return NULL;
    }
    return o;
}

/* ---- URIs, base64, files ------------------------------------------------- */

static int b64_value(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* A data: URI's bytes (base64 only). */
static int data_uri(gl *g, const char *uri, const char *where, unsigned char **bytes, size_t *size)
{
    const char *comma = strchr(uri, ',');
    const char *p;
    size_t len, pad = 0, i, n = 0;
    unsigned acc = 0;
    int bits = 0;
    unsigned char *b;
    if (!comma || comma - uri < 7 || strncmp(comma - 7, ";base64", 7) != 0)
        return fail(g, "%s: a data: URI that is not base64", where);
    p = comma + 1;
    len = strlen(p);
    while (pad < 2 && len > pad && p[len - 1 - pad] == '=')
        pad++;
    if ((len % 4 != 0 && pad) || (len - pad) % 4 == 1)
        return fail(g, "%s: bad base64 (%lu characters)", where, (unsigned long)len);
    b = (unsigned char *)gl_alloc(g, (len - pad) / 4 * 3 + 3, 1);
    if (!b)
        return 0;
    for (i = 0; i < len - pad; i++) {
        int v = b64_value((unsigned char)p[i]);
        if (v < 0) {
            free(b);
            return fail(g, "%s: bad base64 at character %lu of the data", where, (unsigned long)i);
        }
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            b[n++] = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    *bytes = b;
    *size = n;
    return 1;
}

/* base_dir + "/" + the percent-decoded relative URI, which must stay
 * inside base_dir (imp_path_inside()). */
static char *file_uri(gl *g, const char *uri, const char *where)
{
    char *path, why[160];
    int r;
    const char *colon = strchr(uri, ':'), *slash = strchr(uri, '/');
    if (!*uri || uri[0] == '/' || (colon && (!slash || colon < slash) && colon - uri != 1)) {
        fail(g, "%s: \"%s\" is not a relative file path", where, uri);
        return NULL;
    }
    if (!g->base_dir) {
        fail(g, "%s: \"%s\" is an external file, which is not read here", where, uri);
        return NULL;
    }
    r = imp_path_inside(g->base_dir, uri, 1, &path, why, sizeof why);
    if (r == -1) {
        oom(g);
        return NULL;
    }
    if (r == -2) {
        fail(g, "%s: \"%s\" %s", where, uri, why);
        return NULL;
    }
    if (r == 0) {
        fail(g, "%s: \"%s\" %s: a glTF reads files from its own folder only", where, uri, why);
        return NULL;
    }
    return path;
}

/* The bytes of base_dir and its '/' at the start of a file_uri() path. */
static size_t root_prefix(const char *base_dir)
{
    size_t n = strlen(base_dir);
    return n + (n && base_dir[n - 1] != '/' ? 1 : 0);
}

/* The most bytes of a file a glTF reads (the .gltf or .glb, a .bin). */
#define GLTF_MAX_FILE ((size_t)1 << 30)

/* A whole regular file into memory (tool_read_regular(): never a FIFO or a
 * device, bounded, one pass); 0 with the reason in why. */
static int read_file(const char *path, unsigned char **data, size_t *size, char *why,
                     size_t why_size)
{
    return tool_read_regular(path, GLTF_MAX_FILE, data, size, why, why_size);
}

/* ---- buffers, views, accessors --------------------------------------------- */

static int load_buffer(gl *g, int b, const unsigned char **data, size_t *size)
{
    char where[64];
    const cJSON *o, *uri;
    double len;
    gl_buf *buf = &g->bufs[b];
    if (buf->loaded) {
        *data = buf->data;
        *size = buf->size;
        return 1;
    }
    pathf(where, sizeof where, "buffers[%d]", b);
    if (!(o = j_object(g, g->buffers, "buffers", (size_t)b)))
        return 0;
    if (!jget(o, "byteLength"))
        return fail(g, "%s.byteLength: missing", where);
    if (!j_uint(g, o, "byteLength", where, 1, GL_MAX_INT, 0, &len))
        return 0;
    uri = jget(o, "uri");
    if (!uri) {
        if (b != 0 || !g->has_bin)
            return fail(g, "%s: no uri, and %s", where, b ? "only buffer 0 may be a GLB's binary chunk"
                                                          : "no GLB binary chunk");
        buf->data = g->bin;
        buf->size = g->bin_size;
        if (len > (double)g->bin_size)
            return fail(g, "%s.byteLength: %.0f bytes, the GLB binary chunk has %lu", where, len,
                        (unsigned long)g->bin_size);
    } else {
        char w[80];
        size_t got = 0;
        pathf(w, sizeof w, "%s.uri", where);
        if (!cJSON_IsString(uri))
            return fail(g, "%s: not a string", w);
        if (strncmp(uri->valuestring, "data:", 5) == 0) {
            if (!data_uri(g, uri->valuestring, w, &buf->owned, &got))
                return 0;
        } else {
            char why[512];
            char *path = file_uri(g, uri->valuestring, w);
            if (!path)
                return 0;
            if (!read_file(path, &buf->owned, &got, why, sizeof why)) {
                free(path);
                if (tool_is_out_of_memory(why))
                    return oom(g);
                return fail(g, "%s: %s", w, why);
            }
            free(path);
        }
        buf->data = buf->owned;
        buf->size = got;
        if (len > (double)got) {
            return fail(g, "%s.byteLength: %.0f bytes, its %s has %lu", where, len,
                        strncmp(uri->valuestring, "data:", 5) == 0 ? "data: URI" : "file", (unsigned long)got);
        }
    }
    buf->size = (size_t)len;
    buf->loaded = 1;
    *data = buf->data;
    *size = buf->size;
    return 1;
}

/* bufferViews[v]: its bytes and byteStride (0 when not given). */
static int load_view(gl *g, int v, const char *where, const unsigned char **data, size_t *len, size_t *stride)
{
    char w[64];
    const cJSON *o;
    int b;
    double off, length, st;
    const unsigned char *bd = NULL;
    size_t bsize = 0;
    pathf(w, sizeof w, "bufferViews[%d]", v);
    if (!(o = j_object(g, g->views, "bufferViews", (size_t)v)))
        return 0;
    if (!j_index(g, o, "buffer", w, g->nbuffers, "buffer", &b))
        return 0;
    if (b < 0)
        return fail(g, "%s.buffer: missing", w);
    if (!jget(o, "byteLength"))
        return fail(g, "%s.byteLength: missing", w);
    if (!j_uint(g, o, "byteOffset", w, 0, GL_MAX_INT, 0, &off) ||
        !j_uint(g, o, "byteLength", w, 1, GL_MAX_INT, 0, &length) ||
        !j_uint(g, o, "byteStride", w, 4, 252, 0, &st))
        return 0;
    if (!load_buffer(g, b, &bd, &bsize))
        return 0;
    if (off + length > (double)bsize)
        return fail(g, "%s: bytes %.0f to %.0f, buffer %d has %lu (used by %s)", w, off, off + length, b,
                    (unsigned long)bsize, where);
    *data = bd + (size_t)off;
    *len = (size_t)length;
    *stride = (size_t)st;
    return 1;
}

static size_t comp_size(int ctype)
{
    switch (ctype) {
    case GL_BYTE:
    case GL_UNSIGNED_BYTE:
        return 1;
    case GL_SHORT:
    case GL_UNSIGNED_SHORT:
        return 2;
    case GL_UNSIGNED_INT:
    case GL_FLOAT:
        return 4;
    default:
        return 0;
    }
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static double comp_value(const unsigned char *p, int ctype, int normalized)
{
    long v;
    float f;
    uint32_t u;
    switch (ctype) {
    case GL_BYTE:
        v = p[0] < 128 ? (long)p[0] : (long)p[0] - 256;
        return normalized ? (v < -127 ? -1.0 : (double)v / 127.0) : (double)v;
    case GL_UNSIGNED_BYTE:
        return normalized ? p[0] / 255.0 : (double)p[0];
    case GL_SHORT:
        v = (long)(p[0] | p[1] << 8);
        if (v >= 32768)
            v -= 65536;
        return normalized ? (v < -32767 ? -1.0 : (double)v / 32767.0) : (double)v;
    case GL_UNSIGNED_SHORT:
        v = (long)(p[0] | p[1] << 8);
        return normalized ? (double)v / 65535.0 : (double)v;
    case GL_UNSIGNED_INT:
        u = le32(p);
        return normalized ? (double)u / 4294967295.0 : (double)u;
    default:
        u = le32(p);
        memcpy(&f, &u, sizeof f);
        return (double)f;
    }
}

static uint32_t comp_uint(const unsigned char *p, int ctype)
{
    return ctype == GL_UNSIGNED_BYTE ? p[0] : ctype == GL_UNSIGNED_SHORT ? (uint32_t)(p[0] | p[1] << 8) : le32(p);
}

static void data_free(gl_data *d)
{
    free(d->f);
    free(d->u);
    memset(d, 0, sizeof *d);
}

static int type_comps(const char *t, int *rows, int *cols)
{
    static const char *const names[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"};
    static const int r[] = {1, 2, 3, 4, 2, 3, 4}, c[] = {1, 1, 1, 1, 2, 3, 4};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(t, names[i]) == 0) {
            *rows = r[i];
            *cols = c[i];
            return 1;
        }
    }
    return 0;
}

/* Reads one element (rows * cols values, column by column) at p. */
static void read_element(const unsigned char *p, int ctype, int normalized, int rows, int cols, size_t col_stride,
                         size_t csize, float *f, uint32_t *u)
{
    int c, r;
    for (c = 0; c < cols; c++) {
        for (r = 0; r < rows; r++) {
            const unsigned char *q = p + (size_t)c * col_stride + (size_t)r * csize;
            if (u)
                *u++ = comp_uint(q, ctype);
            else
                *f++ = (float)comp_value(q, ctype, normalized);
        }
    }
}

/* What an accessor's JSON says of its elements, checked. */
typedef struct gl_layout {
    int ctype;          /* componentType */
    int rows, cols;     /* of its type: SCALAR 1 x 1 .. MAT4 4 x 4 */
    int normalized;
    int view;           /* bufferView, or -1 */
    size_t csize;       /* bytes a component */
    size_t col_stride;  /* bytes a column (4-byte aligned in a matrix) */
    size_t esize;       /* bytes an element */
    double count, off;  /* count, byteOffset */
} gl_layout;

/* The layout of accessors[a] (its JSON o, its path w), used at where,
 * which needs comps values an element (0: any) and, when integer,
 * unsigned integer components. */
static int accessor_layout(gl *g, int a, const cJSON *o, const char *where, const char *w, int comps,
                           int integer, gl_layout *l)
{
    const cJSON *type, *norm;
    double ct;
    if (!jget(o, "componentType") || !j_uint(g, o, "componentType", w, 0, 65535, 0, &ct) ||
        !comp_size((int)ct))
        return fail(g, "%s: accessor %d has no valid componentType", where, a);
    l->ctype = (int)ct;
    l->csize = comp_size(l->ctype);
    type = jget(o, "type");
    if (!cJSON_IsString(type) || !type_comps(type->valuestring, &l->rows, &l->cols))
        return fail(g, "%s: accessor %d has no valid type", where, a);
    if (comps && l->rows * l->cols != comps)
        return fail(g, "%s: accessor %d is a %s, %s", where, a, type->valuestring,
                    comps == 1 ? "a SCALAR is needed" : comps == 2 ? "a VEC2 is needed"
                    : comps == 3 ? "a VEC3 is needed" : comps == 4 ? "a VEC4 is needed" : "a MAT4 is needed");
    if (integer && l->ctype != GL_UNSIGNED_BYTE && l->ctype != GL_UNSIGNED_SHORT &&
        l->ctype != GL_UNSIGNED_INT)
        return fail(g, "%s: accessor %d has componentType %d, an unsigned integer type is needed", where, a,
                    l->ctype);
    norm = jget(o, "normalized");
    if (norm && !cJSON_IsBool(norm))
        return fail(g, "%s: accessor %d: normalized is not a boolean", where, a);
    l->normalized = cJSON_IsTrue(norm);
    if (!jget(o, "count") || !j_uint(g, o, "count", w, 1, GL_MAX_INT, 0, &l->count))
        return fail(g, "%s: accessor %d has no valid count", where, a);
    if (!j_uint(g, o, "byteOffset", w, 0, GL_MAX_INT, 0, &l->off) ||
        !j_index(g, o, "bufferView", w, g->nviews, "bufferView", &l->view))
        return 0;
    l->col_stride = (size_t)l->rows * l->csize;
    if (l->cols > 1)
        l->col_stride = (l->col_stride + 3) & ~(size_t)3;
    l->esize = l->col_stride * (size_t)l->cols;
    return 1;
}

/* Where accessor a's elements lie: *vdata, one every *stride bytes, in its
 * buffer view, which must hold them all; without a buffer view *vdata is
 * NULL (zeros, or sparse values alone) and the count is bounded. */
static int accessor_bytes(gl *g, int a, const char *where, const gl_layout *l, const unsigned char **vdata,
                          size_t *stride)
{
    size_t vlen = 0;
    *vdata = NULL;
    *stride = 0;
    if (l->view >= 0) {
        double need, st;
        if (!load_view(g, l->view, where, vdata, &vlen, stride))
            return 0;
        if (*stride && *stride < l->esize)
            return fail(g, "%s: accessor %d has %lu-byte elements, its bufferView's byteStride is %lu", where, a,
                        (unsigned long)l->esize, (unsigned long)*stride);
        st = (double)(*stride ? *stride : l->esize);
        need = l->off + (l->count - 1) * st + (double)l->esize;
        if (need > (double)vlen)
            return fail(g, "%s: accessor %d needs %.0f bytes, its bufferView has %lu", where, a, need,
                        (unsigned long)vlen);
        if ((size_t)l->off % l->csize)
            return fail(g, "%s: accessor %d: byteOffset %.0f is not a multiple of its component size %lu", where,
                        a, l->off, (unsigned long)l->csize);
        if (!*stride)
            *stride = l->esize;
    } else if (l->count > GL_MAX_VIEWLESS) {
        return fail(g, "%s: accessor %d has no bufferView and a count of %.0f, more than %.0f", where, a,
                    l->count, GL_MAX_VIEWLESS);
    }
    return 1;
}

/* The sparse values of accessor a (its sparse object, at the path w)
 * written over the elements of d that their indices name. */
static int read_sparse(gl *g, int a, const char *where, const char *w, const cJSON *sparse,
                       const gl_layout *l, gl_data *d)
{
    char sw[96];
    const cJSON *ind, *val;
    double scount, ioff, voff, ict;
    int iview, vview;
    const unsigned char *idata, *valdata;
    size_t ilen, vvlen, ist, vst, isize, i;
    pathf(sw, sizeof sw, "%s.sparse", w);
    if (!cJSON_IsObject(sparse))
        return fail(g, "%s: accessor %d: sparse is not an object", where, a);
    ind = jget(sparse, "indices");
    val = jget(sparse, "values");
    if (!jget(sparse, "count") || !j_uint(g, sparse, "count", sw, 1, l->count, 0, &scount))
        return fail(g, "%s: accessor %d: sparse.count is not a whole number from 1 to %.0f", where, a,
                    l->count);
    if (!cJSON_IsObject(ind) || !cJSON_IsObject(val))
        return fail(g, "%s: accessor %d: sparse needs indices and values", where, a);
    if (!j_index(g, ind, "bufferView", sw, g->nviews, "bufferView", &iview) ||
        !j_index(g, val, "bufferView", sw, g->nviews, "bufferView", &vview) ||
        !j_uint(g, ind, "byteOffset", sw, 0, GL_MAX_INT, 0, &ioff) ||
        !j_uint(g, val, "byteOffset", sw, 0, GL_MAX_INT, 0, &voff) ||
        !j_uint(g, ind, "componentType", sw, 0, 65535, 0, &ict))
        return 0;
    isize = comp_size((int)ict);
    if (iview < 0 || vview < 0)
        return fail(g, "%s: accessor %d: sparse indices and values need a bufferView", where, a);
    if (ict != GL_UNSIGNED_BYTE && ict != GL_UNSIGNED_SHORT && ict != GL_UNSIGNED_INT)
        return fail(g, "%s: accessor %d: sparse.indices.componentType %.0f is not an unsigned integer type",
                    where, a, ict);
    if (!load_view(g, iview, where, &idata, &ilen, &ist) || !load_view(g, vview, where, &valdata, &vvlen, &vst))
        return 0;
    if (ioff + scount * (double)isize > (double)ilen)
        return fail(g, "%s: accessor %d: its %.0f sparse indices need %.0f bytes, their bufferView has %lu",
                    where, a, scount, ioff + scount * (double)isize, (unsigned long)ilen);
    if (voff + scount * (double)l->esize > (double)vvlen)
        return fail(g, "%s: accessor %d: its %.0f sparse values need %.0f bytes, their bufferView has %lu",
                    where, a, scount, voff + scount * (double)l->esize, (unsigned long)vvlen);
    for (i = 0; i < (size_t)scount; i++) {
        uint32_t k = comp_uint(idata + (size_t)ioff + i * isize, (int)ict);
        if (k >= d->count)
            return fail(g, "%s: accessor %d: sparse index %lu is %lu, past its %lu elements", where, a,
                        (unsigned long)i, (unsigned long)k, (unsigned long)d->count);
        read_element(valdata + (size_t)voff + i * l->esize, l->ctype, l->normalized, l->rows, l->cols,
                     l->col_stride, l->csize, d->f ? d->f + (size_t)k * (size_t)d->comps : NULL,
                     d->u ? d->u + (size_t)k * (size_t)d->comps : NULL);
    }
    return 1;
}

/* 1 if every float of d is finite, else 0 after saying which element is not. */
static int finite_values(gl *g, int a, const char *where, const gl_data *d)
{
    size_t total = d->count * (size_t)d->comps, i;
    for (i = 0; i < total; i++) {
        if (!isfinite(d->f[i]))
            return fail(g, "%s: accessor %d element %lu is not a finite number", where, a,
                        (unsigned long)(i / (size_t)d->comps));
    }
    return 1;
}

/* Decodes accessors[a], used at the JSON path where, which needs comps
 * values an element (0: any) and, when integer, unsigned integer
 * components (u) rather than floats (f). */
static int decode_accessor(gl *g, int a, const char *where, int comps, int integer, gl_data *d)
{
    char w[64];
    const cJSON *o, *sparse;
    gl_layout l;
    const unsigned char *vdata;
    size_t stride, n, i;
    memset(d, 0, sizeof *d);
    pathf(w, sizeof w, "accessors[%d]", a);
    if (!(o = j_object(g, g->accessors, "accessors", (size_t)a)) ||
        !accessor_layout(g, a, o, where, w, comps, integer, &l) ||
        !accessor_bytes(g, a, where, &l, &vdata, &stride))
        return 0;
    n = (size_t)l.count;
    if (g->opt && g->opt->max_bytes && (double)n * l.rows * l.cols * 4 > (double)g->opt->max_bytes)
        return fail(g, "%s: accessor %d needs %.0f bytes decoded, more than the %lu allowed%s%s%s", where,
                    a, (double)n * l.rows * l.cols * 4, (unsigned long)g->opt->max_bytes,
                    IMP_RAISED_BY(g->opt));
    {
        char what[48];
        pathf(what, sizeof what, "accessor %d (%.0f bytes decoded)", a, (double)n * l.rows * l.cols * 4);
        if (!spend(g, (double)n * l.rows * l.cols * 4, where, what))
            return 0;
    }
    d->count = n;
    d->comps = l.rows * l.cols;
    if (integer)
        d->u = (uint32_t *)gl_alloc(g, n, (size_t)d->comps * sizeof(uint32_t));
    else
        d->f = (float *)gl_alloc(g, n, (size_t)d->comps * sizeof(float));
    if (!d->u && !d->f)
        return 0;
    /* without a buffer view the elements stay zeros (calloc) but for sparse values */
    for (i = 0; vdata && i < n; i++)
        read_element(vdata + (size_t)l.off + i * stride, l.ctype, l.normalized, l.rows, l.cols, l.col_stride,
                     l.csize, d->f ? d->f + i * (size_t)d->comps : NULL, d->u ? d->u + i * (size_t)d->comps : NULL);
    sparse = jget(o, "sparse");
    if (sparse && !read_sparse(g, a, where, w, sparse, &l, d))
        return 0;
    return !d->f || finite_values(g, a, where, d);
}

/* The same, with nothing left allocated when it fails. */
static int load_accessor(gl *g, int a, const char *where, int comps, int integer, gl_data *d)
{
    if (decode_accessor(g, a, where, comps, integer, d))
        return 1;
    data_free(d);
    return 0;
}

/* An accessor named by o[key] (at the path where.key); absent: d->count 0,
 * an error when required. */
static int load_member(gl *g, const cJSON *o, const char *key, const char *where, int required, int comps,
                       int integer, size_t count, gl_data *d)
{
    char w[160];
    int a;
    memset(d, 0, sizeof *d);
    pathf(w, sizeof w, "%s.%s", where, key);
    if (!j_index(g, o, key, where, g->naccessors, "accessor", &a))
        return 0;
    if (a < 0)
        return required ? fail(g, "%s: missing", w) : 1;
    if (!load_accessor(g, a, w, comps, integer, d))
        return 0;
    if (count && d->count != count) {
        fail(g, "%s: accessor %d has %lu elements, POSITION has %lu", w, a, (unsigned long)d->count,
             (unsigned long)count);
        data_free(d);
        return 0;
    }
    return 1;
}

/* ---- meshes --------------------------------------------------------------- */

static const char *mode_name(int mode)
{
    static const char *const names[] = {"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP"};
    return names[mode];
}

/* The JOINTS_n / WEIGHTS_n pairs of a primitive's attributes (at the
 * path w), n vertices each: p->nsets of them. */
static int load_skin_sets(gl *g, const cJSON *attrs, const char *w, size_t n, gl_prim *p)
{
    size_t i;
    for (;;) {
        char key[32];
        pathf(key, sizeof key, "JOINTS_%lu", (unsigned long)p->nsets);
        if (!jget(attrs, key))
            break;
        p->nsets++;
    }
    if (!p->nsets)
        return 1;
    if (!(p->joints = (gl_data *)gl_alloc(g, p->nsets, sizeof(gl_data))) ||
        !(p->weights = (gl_data *)gl_alloc(g, p->nsets, sizeof(gl_data))))
        return 0;
    for (i = 0; i < p->nsets; i++) {
        char jk[32], wk[32];
        pathf(jk, sizeof jk, "JOINTS_%lu", (unsigned long)i);
        pathf(wk, sizeof wk, "WEIGHTS_%lu", (unsigned long)i);
        if (!load_member(g, attrs, jk, w, 1, 4, 1, n, &p->joints[i]) ||
            !load_member(g, attrs, wk, w, 1, 4, 0, n, &p->weights[i]))
            return 0;
    }
    return 1;
}

/* A primitive's morph targets (their POSITION and NORMAL, n vertices
 * each): as many as the mesh's first triangle primitive has, *ntargets
 * (set here when first). */
static int load_targets(gl *g, const cJSON *po, const char *where, size_t n, gl_prim *p, size_t *ntargets,
                        int first)
{
    const cJSON *targets, *t;
    size_t ntg, i;
    char w[160];
    if (!j_array(g, po, "targets", where, &targets, &ntg))
        return 0;
    if (first)
        *ntargets = ntg;
    else if (ntg != *ntargets)
        return fail(g, "%s.targets: %lu morph targets, the mesh's first triangle primitive has %lu", where,
                    (unsigned long)ntg, (unsigned long)*ntargets);
    if (!ntg)
        return 1;
    if (!(p->tpos = (gl_data *)gl_alloc(g, ntg, sizeof(gl_data))) ||
        !(p->tnrm = (gl_data *)gl_alloc(g, ntg, sizeof(gl_data))))
        return 0;
    for (i = 0, t = targets->child; i < ntg; i++, t = t->next) {
        pathf(w, sizeof w, "%s.targets[%lu]", where, (unsigned long)i);
        if (!cJSON_IsObject(t))
            return fail(g, "%s: not an object", w);
        if (!load_member(g, t, "POSITION", w, 0, 3, 0, n, &p->tpos[i]) ||
            !load_member(g, t, "NORMAL", w, 0, 3, 0, n, &p->tnrm[i]))
            return 0;
    }
    return 1;
}

/* The corners (positions in draw order) of triangle i of a primitive of
 * mode 4 (TRIANGLES), 5 (TRIANGLE_STRIP) or 6 (TRIANGLE_FAN). */
static void triangle_corners(int mode, size_t i, size_t *c)
{
    if (mode == 4) {
        c[0] = 3 * i;
        c[1] = 3 * i + 1;
        c[2] = 3 * i + 2;
    } else if (mode == 5) { /* as three.js's toTrianglesDrawMode orders the corners */
        c[0] = i % 2 ? i + 2 : i;
        c[1] = i + 1;
        c[2] = i % 2 ? i : i + 2;
    } else {
        c[0] = 0;
        c[1] = i + 1;
        c[2] = i + 2;
    }
}

/* A triangle primitive's triangles (p->tri, p->ntri) in mode: the corners
 * its indices give, each checked to name one of its n vertices, or
 * without indices its vertices in order. */
/* The bytes a triangle costs on its way to the file: the reader's copy of
 * its corners (12), the scene's (24, and 4 for its material), the
 * builder's and the file's (about 56): counted for each use, before the
 * corners are copied, so that three primitives sharing one accessor of
 * 16,777,215 indices without a buffer view (705 bytes of JSON) are
 * refused, not written as an 832 MB model. */
#define GL_TRIANGLE_BYTES 96.0

static int spend_triangles(gl *g, const char *where, size_t ntri)
{
    char what[64];
    pathf(what, sizeof what, "its %lu triangles", (unsigned long)ntri);
    return spend(g, (double)ntri * GL_TRIANGLE_BYTES, where, what);
}

static int load_triangles(gl *g, const cJSON *po, const char *where, int mode, size_t n, gl_prim *p)
{
    gl_data idx;
    size_t nidx, i;
    if (!load_member(g, po, "indices", where, 0, 1, 1, 0, &idx))
        return 0;
    nidx = idx.u ? idx.count : n;
    for (i = 0; idx.u && i < nidx; i++) {
        if (idx.u[i] >= n) {
            unsigned long v = (unsigned long)idx.u[i];
            data_free(&idx);
            return fail(g, "%s.indices: index %lu at position %lu is out of range (POSITION has %lu vertices)",
                        where, v, (unsigned long)i, (unsigned long)n);
        }
    }
    if (mode == 4) {
        p->ntri = nidx / 3;
        if (nidx % 3 && !imp_scene_note(g->out, "%s: %lu indices, not a multiple of 3: the last %lu skipped", where,
                                        (unsigned long)nidx, (unsigned long)(nidx % 3))) {
            data_free(&idx);
            return oom(g);
        }
    } else {
        p->ntri = nidx >= 3 ? nidx - 2 : 0;
    }
    if (!spend_triangles(g, where, p->ntri) ||
        !(p->tri = (uint32_t *)gl_alloc(g, p->ntri, 3 * sizeof(uint32_t)))) {
        data_free(&idx);
        return 0;
    }
    for (i = 0; i < p->ntri; i++) {
        size_t c[3];
        int k;
        triangle_corners(mode, i, c);
        for (k = 0; k < 3; k++)
            p->tri[3 * i + (size_t)k] = idx.u ? idx.u[c[k]] : (uint32_t)c[k];
    }
    data_free(&idx);
    return 1;
}

/* Primitive po of a mesh (at the JSON path where) into p: a triangle
 * primitive's attributes, morph targets (ntargets, first: as for
 * load_targets()) and triangles; other modes are skipped with a note. */
static int load_prim(gl *g, const cJSON *po, const char *where, gl_prim *p, size_t *ntargets, int first)
{
    const cJSON *attrs;
    double mode;
    size_t n;
    char w[160];
    if (!cJSON_IsObject(po))
        return fail(g, "%s: not an object", where);
    if (!j_uint(g, po, "mode", where, 0, 6, 4, &mode) ||
        !j_index(g, po, "material", where, g->nmaterials, "material", &p->material))
        return 0;
    if (mode < 4) {
        if (!imp_scene_note(g->out, "%s: %s skipped", where, mode_name((int)mode)))
            return oom(g);
        return 1;
    }
    p->triangles = 1;
    attrs = jget(po, "attributes");
    if (!cJSON_IsObject(attrs))
        return fail(g, "%s.attributes: missing or not an object", where);
    pathf(w, sizeof w, "%s.attributes", where);
    if (!load_member(g, attrs, "POSITION", w, 1, 3, 0, 0, &p->pos))
        return 0;
    n = p->pos.count;
    return load_member(g, attrs, "NORMAL", w, 0, 3, 0, n, &p->nrm) &&
           load_member(g, attrs, "TEXCOORD_0", w, 0, 2, 0, n, &p->uv) &&
           load_skin_sets(g, attrs, w, n, p) && load_targets(g, po, where, n, p, ntargets, first) &&
           load_triangles(g, po, where, (int)mode, n, p);
}

static int load_mesh(gl *g, int m)
{
    gl_mesh *mesh = &g->meshes[m];
    const cJSON *o, *prims, *po;
    size_t i, nw;
    char where[96];
    int first = 1;
    if (mesh->loaded)
        return 1;
    mesh->loaded = 1;
    pathf(where, sizeof where, "meshes[%d]", m);
    if (!(o = j_object(g, g->meshes_j, "meshes", (size_t)m)))
        return 0;
    if (!j_array(g, o, "primitives", where, &prims, &mesh->nprims))
        return 0;
    if (!mesh->nprims)
        return fail(g, "%s.primitives: missing or empty", where);
    if (!(mesh->prims = (gl_prim *)gl_alloc(g, mesh->nprims, sizeof(gl_prim))))
        return 0;
    for (i = 0, po = prims->child; i < mesh->nprims; i++, po = po->next) {
        char w[128];
        pathf(w, sizeof w, "%s.primitives[%lu]", where, (unsigned long)i);
        mesh->prims[i].material = -1;
        if (!load_prim(g, po, w, &mesh->prims[i], &mesh->ntargets, first))
            return 0;
        if (mesh->prims[i].triangles)
            first = 0;
    }
    if (!(mesh->weights = (double *)gl_alloc(g, mesh->ntargets, sizeof(double))))
        return 0;
    if (jget(o, "weights")) {
        const cJSON *a;
        if (!j_array(g, o, "weights", where, &a, &nw))
            return 0;
        if (nw != mesh->ntargets)
            return fail(g, "%s.weights: %lu weights for %lu morph targets", where, (unsigned long)nw,
                        (unsigned long)mesh->ntargets);
        if (!j_numbers(g, o, "weights", where, nw, mesh->weights))
            return 0;
    }
    return 1;
}

static void mesh_free(gl_mesh *mesh)
{
    size_t i, k;
    for (i = 0; mesh->prims && i < mesh->nprims; i++) {
        gl_prim *p = &mesh->prims[i];
        data_free(&p->pos);
        data_free(&p->nrm);
        data_free(&p->uv);
        for (k = 0; k < p->nsets; k++) {
            if (p->joints)
                data_free(&p->joints[k]);
            if (p->weights)
                data_free(&p->weights[k]);
        }
        free(p->joints);
        free(p->weights);
        for (k = 0; k < mesh->ntargets; k++) {
            if (p->tpos)
                data_free(&p->tpos[k]);
            if (p->tnrm)
                data_free(&p->tnrm[k]);
        }
        free(p->tpos);
        free(p->tnrm);
        free(p->tri);
    }
    free(mesh->prims);
    free(mesh->weights);
}

/* ---- nodes and the scene --------------------------------------------------- */

/* The bytes a node costs, about: its own (some 280 on a 64-bit system),
 * its pose (t, r, s and its world matrix, 208) and its places in the walks
 * (order, stack, items); one number everywhere, so that messages are the
 * same on every system. */
#define GL_NODE_BYTES 512.0

/* The nodes within opt->max_nodes and max_bytes, counted before anything
 * is made of them (each node has one parent at most, so the children of
 * all nodes are fewer than the nodes). */
static int count_nodes(gl *g)
{
    if (g->opt && g->opt->max_nodes && g->nnodes > g->opt->max_nodes)
        return fail(g, "nodes: %lu nodes, more than the %lu allowed%s", (unsigned long)g->nnodes,
                    (unsigned long)g->opt->max_nodes, IMP_RAISED_BY_OPT(g->opt, "--max-nodes"));
    return spend(g, (double)g->nnodes * GL_NODE_BYTES, "nodes", "the nodes");
}

static int load_nodes(gl *g)
{
    size_t i;
    if (!count_nodes(g) || !(g->nodes = (gl_node *)gl_alloc(g, g->nnodes, sizeof(gl_node))))
        return 0;
    for (i = 0; i < g->nnodes; i++)
        g->nodes[i].parent = -1;
    for (i = 0; i < g->nnodes; i++) {
        gl_node *n = &g->nodes[i];
        char where[48];
        const cJSON *o, *c;
        size_t nc, k;
        if (!(o = j_object(g, g->nodes_j, "nodes", i)))
            return 0;
        pathf(where, sizeof where, "nodes[%lu]", (unsigned long)i);
        n->r[3] = n->s[0] = n->s[1] = n->s[2] = 1;
        if (jget(o, "matrix")) {
            n->has_matrix = 1;
            if (!j_numbers(g, o, "matrix", where, 16, n->matrix))
                return 0;
        }
        if (!j_numbers(g, o, "translation", where, 3, n->t) || !j_numbers(g, o, "rotation", where, 4, n->r) ||
            !j_numbers(g, o, "scale", where, 3, n->s) ||
            !j_index(g, o, "mesh", where, g->nmeshes, "mesh", &n->mesh) ||
            !j_index(g, o, "skin", where, g->nskins, "skin", &n->skin))
            return 0;
        n->weights = jget(o, "weights");
        if (!j_array(g, o, "children", where, &n->children, &nc))
            return 0;
        for (k = 0, c = nc ? n->children->child : NULL; c; c = c->next, k++) {
            if (!is_int(c, 0, GL_MAX_INT) || c->valuedouble >= (double)g->nnodes)
                return fail(g, "%s.children[%lu]: not the index of a node", where, (unsigned long)k);
            if (g->nodes[(size_t)c->valuedouble].parent >= 0)
                return fail(g, "%s.children: node %.0f already has a parent, node %d", where, c->valuedouble,
                            g->nodes[(size_t)c->valuedouble].parent);
            g->nodes[(size_t)c->valuedouble].parent = (int)i;
        }
    }
    /* every node has one parent at most: a cycle is a loop of parents */
    for (i = 0; i < g->nnodes; i++) {
        int j = (int)i;
        while (j >= 0 && g->nodes[j].state == 0) {
            g->nodes[j].state = 1;
            j = g->nodes[j].parent;
        }
        if (j >= 0 && g->nodes[j].state == 1)
            return fail(g, "nodes[%d].children: node %d is its own ancestor", g->nodes[j].parent, j);
        for (j = (int)i; j >= 0 && g->nodes[j].state == 1; j = g->nodes[j].parent)
            g->nodes[j].state = 2;
    }
    /* parents before children: a depth-first walk from every root */
    if (!(g->order = (int *)gl_alloc(g, g->nnodes, sizeof(int))))
        return 0;
    for (i = 0; i < g->nnodes; i++) {
        size_t k;
        if (g->nodes[i].parent >= 0)
            continue;
        g->order[g->norder++] = (int)i;
        for (k = g->norder - 1; k < g->norder; k++) {
            const cJSON *c;
            for (c = g->nodes[g->order[k]].children ? g->nodes[g->order[k]].children->child : NULL; c; c = c->next)
                g->order[g->norder++] = (int)c->valuedouble;
        }
    }
    return 1;
}

/* The default scene's nodes with a mesh, depth-first in child order. */
static int scene_items(gl *g)
{
    const cJSON *scenes, *sc, *roots, *r;
    size_t nscenes, nroots;
    int s, *stack;
    const cJSON **next; /* each stacked node's next child */
    double sd;
    if (!j_array(g, g->root, "scenes", "", &scenes, &nscenes))
        return 0;
    if (!nscenes)
        return fail(g, "scenes: none, so nothing to import");
    if (!j_uint(g, g->root, "scene", "", 0, GL_MAX_INT, 0, &sd))
        return 0;
    if (sd >= (double)nscenes)
        return fail(g, "scene: scene %.0f does not exist (there are %lu)", sd, (unsigned long)nscenes);
    s = (int)sd;
    if (!(sc = j_object(g, scenes, "scenes", (size_t)s)))
        return 0;
    {
        char where[48];
        size_t k = 0;
        pathf(where, sizeof where, "scenes[%d]", s);
        if (!j_array(g, sc, "nodes", where, &roots, &nroots))
            return 0;
        for (r = (roots) ? (roots)->child : NULL; r; r = r->next) {
            if (!is_int(r, 0, GL_MAX_INT) || r->valuedouble >= (double)g->nnodes)
                return fail(g, "%s.nodes[%lu]: not the index of a node", where, (unsigned long)k);
            if (g->nodes[(size_t)r->valuedouble].parent >= 0)
                return fail(g, "%s.nodes[%lu]: node %.0f is a child of node %d, not a root", where, (unsigned long)k,
                            r->valuedouble, g->nodes[(size_t)r->valuedouble].parent);
            if (g->nodes[(size_t)r->valuedouble].state == 3)
                return fail(g, "%s.nodes[%lu]: node %.0f is listed twice", where, (unsigned long)k, r->valuedouble);
            g->nodes[(size_t)r->valuedouble].state = 3;
            k++;
        }
    }
    stack = (int *)gl_alloc(g, g->nnodes, sizeof(int));
    next = (const cJSON **)gl_alloc(g, g->nnodes, sizeof *next);
    g->items = (int *)gl_alloc(g, g->nnodes, sizeof(int));
    if (!stack || !next || !g->items) {
        free(stack);
        free(next);
        return 0;
    }
    for (r = (roots) ? (roots)->child : NULL; r; r = r->next) {
        size_t top = 1;
        stack[0] = (int)r->valuedouble;
        next[0] = g->nodes[stack[0]].children ? g->nodes[stack[0]].children->child : NULL;
        if (g->nodes[stack[0]].mesh >= 0)
            g->items[g->nitems++] = stack[0];
        while (top) {
            const cJSON *c = next[top - 1];
            if (!c) {
                top--;
                continue;
            }
            next[top - 1] = c->next;
            stack[top] = (int)c->valuedouble;
            next[top] = g->nodes[stack[top]].children ? g->nodes[stack[top]].children->child : NULL;
            if (g->nodes[stack[top]].mesh >= 0)
                g->items[g->nitems++] = stack[top];
            top++;
        }
    }
    free(stack);
    free(next);
    return 1;
}

static int load_skin(gl *g, int s)
{
    gl_skin *sk = &g->skins[s];
    const cJSON *o, *joints, *j;
    char where[48];
    gl_data ibm;
    size_t i = 0;
    int a;
    if (sk->loaded)
        return 1;
    sk->loaded = 1;
    pathf(where, sizeof where, "skins[%d]", s);
    if (!(o = j_object(g, g->skins_j, "skins", (size_t)s)))
        return 0;
    if (!j_array(g, o, "joints", where, &joints, &sk->njoints))
        return 0;
    if (!sk->njoints)
        return fail(g, "%s.joints: missing or empty", where);
    if (!(sk->joints = (int *)gl_alloc(g, sk->njoints, sizeof(int))) ||
        !(sk->ibm = (double *)gl_alloc(g, sk->njoints, 16 * sizeof(double))))
        return 0;
    for (j = (joints) ? (joints)->child : NULL; j; j = j->next) {
        if (!is_int(j, 0, GL_MAX_INT) || j->valuedouble >= (double)g->nnodes)
            return fail(g, "%s.joints[%lu]: not the index of a node", where, (unsigned long)i);
        sk->joints[i++] = (int)j->valuedouble;
    }
    if (!j_index(g, o, "inverseBindMatrices", where, g->naccessors, "accessor", &a))
        return 0;
    for (i = 0; i < sk->njoints; i++) {
        sk->ibm[16 * i] = sk->ibm[16 * i + 5] = sk->ibm[16 * i + 10] = sk->ibm[16 * i + 15] = 1;
    }
    if (a >= 0) {
        char w[80];
        pathf(w, sizeof w, "%s.inverseBindMatrices", where);
        if (!load_accessor(g, a, w, 16, 0, &ibm))
            return 0;
        if (ibm.count < sk->njoints) {
            data_free(&ibm);
            return fail(g, "%s: accessor %d has %lu matrices for %lu joints", w, a, (unsigned long)ibm.count,
                        (unsigned long)sk->njoints);
        }
        for (i = 0; i < 16 * sk->njoints; i++)
            sk->ibm[i] = ibm.f[i];
        data_free(&ibm);
    }
    return 1;
}

/* Morph weights a node starts from: node.weights, else its mesh's. */
static int node_weights(gl *g, int n, double *w)
{
    gl_node *node = &g->nodes[n];
    gl_mesh *m = &g->meshes[node->mesh];
    char where[48];
    if (!node->weights) {
        if (m->ntargets)
            memcpy(w, m->weights, m->ntargets * sizeof *w);
        return 1;
    }
    pathf(where, sizeof where, "nodes[%d]", n);
    if (!cJSON_IsArray(node->weights) || (size_t)cJSON_GetArraySize(node->weights) != m->ntargets)
        return fail(g, "%s.weights: not an array of %lu numbers, one for each morph target of mesh %d", where,
                    (unsigned long)m->ntargets, node->mesh);
    return j_numbers(g, j_item(g, g->nodes_j, (size_t)n), "weights", where, m->ntargets, w);
}

/* ---- animations ------------------------------------------------------------ */

static int load_channel(gl *g, const cJSON *cho, const gl_index *samplers, const char *where, size_t c,
                        gl_channel *ch)
{
    const cJSON *target, *path, *so, *interp;
    char w[128], sw[128];
    int s;
    size_t keys, per_key, i;
    pathf(w, sizeof w, "%s.channels[%lu]", where, (unsigned long)c);
    ch->node = -1;
    if (!cJSON_IsObject(cho))
        return fail(g, "%s: not an object", w);
    if (!j_index(g, cho, "sampler", w, samplers->n, "sampler", &s))
        return 0;
    if (s < 0)
        return fail(g, "%s.sampler: missing", w);
    target = jget(cho, "target");
    if (!cJSON_IsObject(target))
        return fail(g, "%s.target: missing or not an object", w);
    pathf(sw, sizeof sw, "%s.target", w);
    if (!j_index(g, target, "node", sw, g->nnodes, "node", &ch->node))
        return 0;
    path = jget(target, "path");
    if (!cJSON_IsString(path))
        return fail(g, "%s.target.path: missing or not a string", w);
    if (ch->node < 0 || strcmp(path->valuestring, "pointer") == 0) {
        ch->node = -1;
        return imp_scene_note(g->out, "%s: a target other than a node's transform or weights, skipped", w) ? 1
                                                                                                            : oom(g);
    }
    if (strcmp(path->valuestring, "translation") == 0)
        ch->path = PATH_T, ch->width = 3;
    else if (strcmp(path->valuestring, "rotation") == 0)
        ch->path = PATH_R, ch->width = 4;
    else if (strcmp(path->valuestring, "scale") == 0)
        ch->path = PATH_S, ch->width = 3;
    else if (strcmp(path->valuestring, "weights") == 0)
        ch->path = PATH_W, ch->width = 0;
    else
        return fail(g, "%s.target.path: \"%s\" is not a glTF 2.0 path", w, path->valuestring);
    if (ch->path == PATH_W) {
        int m = g->nodes[ch->node].mesh;
        if (m < 0)
            return fail(g, "%s.target: node %d has no mesh, so no morph weights", w, ch->node);
        if (!load_mesh(g, m))
            return 0;
        if (!(ch->width = g->meshes[m].ntargets))
            return fail(g, "%s.target: node %d's mesh %d has no morph targets", w, ch->node, m);
    } else if (g->nodes[ch->node].has_matrix) {
        return fail(g, "%s.target: node %d has a matrix, which an animation cannot drive", w, ch->node);
    }
    pathf(sw, sizeof sw, "%s.samplers[%d]", where, s);
    so = samplers->item[s];
    if (!cJSON_IsObject(so))
        return fail(g, "%s: not an object", sw);
    interp = jget(so, "interpolation");
    ch->interp = INTERP_LINEAR;
    if (interp) {
        if (cJSON_IsString(interp) && strcmp(interp->valuestring, "LINEAR") == 0)
            ch->interp = INTERP_LINEAR;
        else if (cJSON_IsString(interp) && strcmp(interp->valuestring, "STEP") == 0)
            ch->interp = INTERP_STEP;
        else if (cJSON_IsString(interp) && strcmp(interp->valuestring, "CUBICSPLINE") == 0)
            ch->interp = INTERP_CUBIC;
        else
            return fail(g, "%s.interpolation: not LINEAR, STEP or CUBICSPLINE", sw);
    }
    if (!load_member(g, so, "input", sw, 1, 1, 0, 0, &ch->in))
        return 0;
    keys = ch->in.count;
    for (i = 1; i < keys; i++) {
        if (ch->in.f[i] < ch->in.f[i - 1])
            return fail(g, "%s.input: time %g of key %lu comes before key %lu's %g", sw, (double)ch->in.f[i],
                        (unsigned long)i, (unsigned long)(i - 1), (double)ch->in.f[i - 1]);
    }
    if (!load_member(g, so, "output", sw, 1, ch->path == PATH_W ? 1 : (int)ch->width, 0, 0, &ch->out))
        return 0;
    per_key = (ch->interp == INTERP_CUBIC ? 3 : 1) * (ch->path == PATH_W ? ch->width : 1);
    if (ch->out.count != keys * per_key)
        return fail(g, "%s.output: %lu values for %lu keys, %lu are needed", sw, (unsigned long)ch->out.count,
                    (unsigned long)keys, (unsigned long)(keys * per_key));
    return 1;
}

static void anims_free(gl *g)
{
    size_t a, c;
    for (a = 0; g->anims && a < g->nanims; a++) {
        for (c = 0; g->anims[a].channels && c < g->anims[a].nchannels; c++) {
            data_free(&g->anims[a].channels[c].in);
            data_free(&g->anims[a].channels[c].out);
        }
        free(g->anims[a].channels);
        free(g->anims[a].name);
    }
    free(g->anims);
}

static const char *anim_name(const cJSON *ao, char *buf, size_t size, size_t index)
{
    const cJSON *n = jget(ao, "name");
    if (cJSON_IsString(n))
        return n->valuestring;
    pathf(buf, size, "anim%lu", (unsigned long)index);
    return buf;
}

/* The animations kept (all, or those of opt->anims in their order). */
static int pick_anims(gl *g)
{
    size_t want = g->opt && g->opt->num_anims ? g->opt->num_anims : g->nanimations, i, k;
    char buf[32];
    if (!want)
        return 1;
    if (g->nanimations && !j_indexed(g, g->animations)) /* j_item() below then allocates nothing */
        return 0;
    if (!(g->anims = (gl_anim *)gl_alloc(g, want, sizeof(gl_anim))))
        return 0;
    for (i = 0; i < want; i++) {
        int found = -1;
        if (g->opt && g->opt->num_anims) {
            for (k = 0; k < g->nanimations && found < 0; k++) {
                const cJSON *ao = j_item(g, g->animations, k);
                if (strcmp(anim_name(ao, buf, sizeof buf, k), g->opt->anims[i]) == 0)
                    found = (int)k;
            }
            if (found < 0) {
                fail(g, "--anim %s: no animation of that name; there %s: ", g->opt->anims[i],
                     g->nanimations == 1 ? "is" : "are");
                if (!g->err || !g->err_size)
                    return 0;
                if (!g->nanimations)
                    strncat(g->err, "none", g->err_size - strlen(g->err) - 1);
                for (k = 0; k < g->nanimations; k++) {
                    const char *nm = anim_name(j_item(g, g->animations, k), buf, sizeof buf, k);
                    size_t len = strlen(g->err);
                    pathf(g->err + len, g->err_size - len, "%s\"%s\"", k ? ", " : "", nm);
                }
                return 0;
            }
        } else {
            found = (int)i;
        }
        g->anims[i].index = found;
        g->nanims++;
        if (!(g->anims[i].name =
                  gl_strdup(g, anim_name(j_item(g, g->animations, (size_t)found), buf, sizeof buf, (size_t)found))))
            return 0;
    }
    return 1;
}

static int load_anim(gl *g, gl_anim *an)
{
    const cJSON *ao, *channels, *extras, *cho;
    gl_index samplers;
    char where[48];
    size_t c, kept = 0;
    double fps = g->opt && g->opt->fps > 0 && isfinite(g->opt->fps) ? g->opt->fps : 10, t1 = 0, x;
    pathf(where, sizeof where, "animations[%d]", an->index);
    if (!(ao = j_object(g, g->animations, "animations", (size_t)an->index)))
        return 0;
    if (!j_array(g, ao, "channels", where, &channels, &an->nchannels))
        return 0;
    if (!(an->channels = (gl_channel *)gl_alloc(g, an->nchannels, sizeof(gl_channel))))
        return 0;
    if (!j_array(g, ao, "samplers", where, &samplers.arr, &samplers.n))
        return 0;
    /* each channel names its sampler: indexed once, not walked to each time */
    if (!(samplers.item = (const cJSON **)gl_alloc(g, samplers.n ? samplers.n : 1, sizeof *samplers.item)))
        return 0;
    for (c = 0, cho = samplers.arr ? samplers.arr->child : NULL; cho; cho = cho->next)
        samplers.item[c++] = cho;
    an->t0 = 0;
    for (c = 0, cho = channels ? channels->child : NULL; c < an->nchannels; c++, cho = cho->next) {
        gl_channel *ch = &an->channels[c];
        if (!load_channel(g, cho, &samplers, where, c, ch)) {
            free((void *)samplers.item);
            return 0;
        }
        if (ch->node < 0)
            continue;
        if (!kept || ch->in.f[0] < an->t0)
            an->t0 = ch->in.f[0];
        if (!kept || ch->in.f[ch->in.count - 1] > t1)
            t1 = ch->in.f[ch->in.count - 1];
        kept++;
    }
    free((void *)samplers.item);
    if (!kept)
        t1 = an->t0;
    extras = jget(ao, "extras");
    an->first = -1;
    if (cJSON_IsObject(extras)) {
        const cJSON *ef = jget(extras, "fps"), *first = jget(extras, "first"), *last = jget(extras, "last");
        int range = is_int(first, 0, GL_MAX_INT) && is_int(last, 0, GL_MAX_INT) &&
                    last->valuedouble >= first->valuedouble && last->valuedouble - first->valuedouble < GL_MAX_KEYS;
        if (range)
            an->first = first->valuedouble;
        if (range && !(g->opt && g->opt->fps_given) && cJSON_IsNumber(ef) && isfinite(ef->valuedouble) &&
            ef->valuedouble > 0) {
            an->fps = ef->valuedouble;
            an->nframes = (size_t)(last->valuedouble - first->valuedouble) + 1;
            return 1;
        }
    }
    an->fps = fps;
    x = ((double)t1 - an->t0) * fps;
    if (x >= GL_MAX_KEYS)
        return fail(g, "%s: %g seconds at %g keyframes a second is more than %.0f keyframes", where, t1 - an->t0, fps,
                    GL_MAX_KEYS);
    /* a float time's rounding must not lose the last keyframe */
    an->nframes = (size_t)floor(x + 1e-6 * (1 + x)) + 1;
    return 1;
}

/* ---- evaluation ------------------------------------------------------------ */

typedef struct gl_pose {
    double *t, *r, *s; /* 3, 4, 3 a node */
    double *w;         /* weights: node n's at w + woff[n] */
    size_t *woff;
    double *world;     /* 16 a node */
} gl_pose;

/* Spherical linear interpolation from a to b0 along the shorter arc; close
 * rotations (cosine 0.9995 or more) are blended linearly and normalised. */
static void slerp(const double *a, const double *b0, double s, double *out)
{
    double b[4], d = a[0] * b0[0] + a[1] * b0[1] + a[2] * b0[2] + a[3] * b0[3];
    int i;
    if (s <= 0 || s >= 1 || (a[0] == b0[0] && a[1] == b0[1] && a[2] == b0[2] && a[3] == b0[3])) {
        memcpy(out, s >= 1 ? b0 : a, 4 * sizeof *out); /* a key's own value, as it is */
        return;
    }
    for (i = 0; i < 4; i++)
        b[i] = d < 0 ? -b0[i] : b0[i];
    d = fabs(d);
    if (d < 0.9995) {
        double th = acos(d), sn = sin(th);
        double ka = sin((1 - s) * th) / sn, kb = sin(s * th) / sn;
        for (i = 0; i < 4; i++)
            out[i] = ka * a[i] + kb * b[i];
    } else {
        double len;
        for (i = 0; i < 4; i++)
            out[i] = (1 - s) * a[i] + s * b[i];
        len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        if (len > 0)
            for (i = 0; i < 4; i++)
                out[i] /= len;
    }
}

/* The channel's value at time t into out (width values). */
static void sample(const gl_channel *ch, double t, double *out)
{
    const float *in = ch->in.f, *v = ch->out.f;
    size_t n = ch->in.count, w = ch->width, lo = 0, hi = n - 1, k, i;
    size_t stride = ch->interp == INTERP_CUBIC ? 3 * w : w, at = ch->interp == INTERP_CUBIC ? w : 0;
    double s, dt;
    if (t <= in[0] || n == 1) {
        for (k = 0; k < w; k++)
            out[k] = v[at + k];
        return;
    }
    if (t >= in[n - 1]) {
        for (k = 0; k < w; k++)
            out[k] = v[(n - 1) * stride + at + k];
        return;
    }
    while (hi - lo > 1) { /* in[lo] <= t < in[hi] */
        size_t mid = lo + (hi - lo) / 2;
        if (in[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    i = lo;
    dt = (double)in[i + 1] - in[i];
    s = (t - in[i]) / dt;
    if (ch->interp == INTERP_STEP) {
        for (k = 0; k < w; k++)
            out[k] = v[i * stride + k];
    } else if (ch->interp == INTERP_LINEAR) {
        if (ch->path == PATH_R) {
            double a[4], b[4];
            for (k = 0; k < 4; k++) {
                a[k] = v[i * stride + k];
                b[k] = v[(i + 1) * stride + k];
            }
            slerp(a, b, s, out);
        } else {
            for (k = 0; k < w; k++)
                out[k] = v[i * stride + k] * (1 - s) + v[(i + 1) * stride + k] * s;
        }
    } else {
        double s2 = s * s, s3 = s2 * s;
        double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
        for (k = 0; k < w; k++) {
            double p0 = v[i * stride + w + k], m0 = v[i * stride + 2 * w + k];
            double p1 = v[(i + 1) * stride + w + k], m1 = v[(i + 1) * stride + k];
            out[k] = h00 * p0 + h10 * dt * m0 + h01 * p1 + h11 * dt * m1;
        }
        if (ch->path == PATH_R) {
            double len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
            if (len > 0)
                for (k = 0; k < 4; k++)
                    out[k] /= len;
        }
    }
}

static void mat_mul(const double *a, const double *b, double *out)
{
    double r[16];
    int i, j, k;
    for (j = 0; j < 4; j++)
        for (i = 0; i < 4; i++) {
            double s = 0;
            for (k = 0; k < 4; k++)
                s += a[k * 4 + i] * b[j * 4 + k];
            r[j * 4 + i] = s;
        }
    memcpy(out, r, sizeof r);
}

static void mat_trs(const double *t, const double *q, const double *s, double *m)
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    m[0] = (1 - 2 * (y * y + z * z)) * s[0];
    m[1] = (2 * (x * y + z * w)) * s[0];
    m[2] = (2 * (x * z - y * w)) * s[0];
    m[3] = 0;
    m[4] = (2 * (x * y - z * w)) * s[1];
    m[5] = (1 - 2 * (x * x + z * z)) * s[1];
    m[6] = (2 * (y * z + x * w)) * s[1];
    m[7] = 0;
    m[8] = (2 * (x * z + y * w)) * s[2];
    m[9] = (2 * (y * z - x * w)) * s[2];
    m[10] = (1 - 2 * (x * x + y * y)) * s[2];
    m[11] = 0;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m[15] = 1;
}

static double det3(const double *m)
{
    return m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) +
           m[8] * (m[1] * m[6] - m[2] * m[5]);
}

/* The normal matrix (the inverse transpose of m's 3x3, up to scale: its
 * cofactors), 9 values row by row: n' = N n. */
static void normal_matrix(const double *m, double *n)
{
    /* m as rows: a(i,j) = m[j * 4 + i]; cofactor matrix C(i,j) */
#define A(i, j) m[(j) * 4 + (i)]
    n[0] = A(1, 1) * A(2, 2) - A(1, 2) * A(2, 1);
    n[1] = A(1, 2) * A(2, 0) - A(1, 0) * A(2, 2);
    n[2] = A(1, 0) * A(2, 1) - A(1, 1) * A(2, 0);
    n[3] = A(0, 2) * A(2, 1) - A(0, 1) * A(2, 2);
    n[4] = A(0, 0) * A(2, 2) - A(0, 2) * A(2, 0);
    n[5] = A(0, 1) * A(2, 0) - A(0, 0) * A(2, 1);
    n[6] = A(0, 1) * A(1, 2) - A(0, 2) * A(1, 1);
    n[7] = A(0, 2) * A(1, 0) - A(0, 0) * A(1, 2);
    n[8] = A(0, 0) * A(1, 1) - A(0, 1) * A(1, 0);
#undef A
    if (det3(m) < 0) { /* cofactors are det * inverse transpose: keep the direction */
        int i;
        for (i = 0; i < 9; i++)
            n[i] = -n[i];
    }
}

/* The pose at time t of animation an (NULL: the rest pose). */
static int pose_at(gl *g, gl_pose *p, const gl_anim *an, double t)
{
    size_t i, c;
    for (i = 0; i < g->nnodes; i++) {
        memcpy(p->t + 3 * i, g->nodes[i].t, 3 * sizeof(double));
        memcpy(p->r + 4 * i, g->nodes[i].r, 4 * sizeof(double));
        memcpy(p->s + 3 * i, g->nodes[i].s, 3 * sizeof(double));
        if (g->nodes[i].mesh >= 0 && g->meshes[g->nodes[i].mesh].loaded &&
            !node_weights(g, (int)i, p->w + p->woff[i]))
            return 0;
    }
    for (c = 0; an && c < an->nchannels; c++) {
        const gl_channel *ch = &an->channels[c];
        int n = ch->node;
        if (n < 0)
            continue;
        sample(ch, t, ch->path == PATH_T   ? p->t + 3 * n
                      : ch->path == PATH_R ? p->r + 4 * n
                      : ch->path == PATH_S ? p->s + 3 * n
                                           : p->w + p->woff[n]);
    }
    for (i = 0; i < g->norder; i++) {
        int n = g->order[i];
        double local[16];
        if (g->nodes[n].has_matrix)
            memcpy(local, g->nodes[n].matrix, sizeof local);
        else
            mat_trs(p->t + 3 * n, p->r + 4 * n, p->s + 3 * n, local);
        if (g->nodes[n].parent >= 0)
            mat_mul(p->world + 16 * g->nodes[n].parent, local, p->world + 16 * n);
        else
            memcpy(p->world + 16 * n, local, sizeof local);
    }
    return 1;
}

static int is_skinned(const gl *g, int node, const gl_prim *p)
{
    return g->nodes[node].skin >= 0 && p->nsets > 0;
}

/* Positions (and normals) of frame f from pose p: those of the nvis mesh
 * nodes vis shows (shown_items()), which have the reference's topology.
 * Only the morph targets of a weight other than 0 are blended (live: room
 * for a node's targets), in their order: a keyframe of a long morph
 * animation weighs one or two of its targets, not all of them. */
static int write_frame(gl *g, const gl_pose *p, size_t f, double *joints, size_t *live, const int *vis,
                       size_t nvis)
{
    imp_scene *s = g->out;
    size_t it, it2, pi, v, base = 0, k, set, c, nlive;
    for (it = 0; it < nvis; it++) {
        int node = g->items[vis[it]];
        const gl_mesh *m = &g->meshes[g->nodes[node].mesh];
        const double *w = p->w + p->woff[node], *world = p->world + 16 * node;
        double nm[9];
        const gl_skin *sk = g->nodes[node].skin >= 0 ? &g->skins[g->nodes[node].skin] : NULL;
        normal_matrix(world, nm);
        for (k = 0, nlive = 0; k < m->ntargets; k++)
            if (w[k] != 0)
                live[nlive++] = k;
        if (sk) {
            for (k = 0; k < sk->njoints; k++)
                mat_mul(p->world + 16 * sk->joints[k], sk->ibm + 16 * k, joints + 16 * k);
        }
        for (pi = 0; pi < m->nprims; pi++) {
            const gl_prim *pr = &m->prims[pi];
            int skinned = is_skinned(g, node, pr);
            if (!pr->triangles)
                continue;
            for (v = 0; v < pr->pos.count; v++) {
                double pos[3], nrm[3] = {0, 0, 0}, mat[16], out[3], on[3];
                const double *mt = world, *nmat = nm;
                double nmj[9];
                float *dst = s->positions + 3 * (f * s->num_vertices + base + v);
                for (c = 0; c < 3; c++) {
                    pos[c] = pr->pos.f[3 * v + c];
                    if (pr->nrm.f)
                        nrm[c] = pr->nrm.f[3 * v + c];
                }
                for (it2 = 0; it2 < nlive; it2++) {
                    k = live[it2];
                    for (c = 0; c < 3; c++) {
                        if (pr->tpos[k].f)
                            pos[c] += w[k] * pr->tpos[k].f[3 * v + c];
                        if (pr->tnrm[k].f)
                            nrm[c] += w[k] * pr->tnrm[k].f[3 * v + c];
                    }
                }
                if (skinned) {
                    double sum = 0;
                    memset(mat, 0, sizeof mat);
                    for (set = 0; set < pr->nsets; set++)
                        for (c = 0; c < 4; c++)
                            sum += pr->weights[set].f[4 * v + c];
                    for (set = 0; set < pr->nsets; set++) {
                        for (c = 0; c < 4; c++) {
                            /* weights scaled to sum 1, as three.js's normalizeSkinWeights(); none: joint 0 */
                            double wt = sum > 0 ? pr->weights[set].f[4 * v + c] / sum : set == 0 && c == 0 ? 1 : 0;
                            uint32_t j = pr->joints[set].u[4 * v + c];
                            int e;
                            if (wt == 0)
                                continue;
                            for (e = 0; e < 16; e++)
                                mat[e] += wt * joints[16 * (size_t)j + (size_t)e];
                        }
                    }
                    mt = mat;
                    normal_matrix(mat, nmj);
                    nmat = nmj;
                }
                for (c = 0; c < 3; c++) {
                    out[c] = mt[c] * pos[0] + mt[4 + c] * pos[1] + mt[8 + c] * pos[2] + mt[12 + c];
                    on[c] = nmat[3 * c] * nrm[0] + nmat[3 * c + 1] * nrm[1] + nmat[3 * c + 2] * nrm[2];
                }
                for (c = 0; c < 3; c++) {
                    dst[c] = (float)out[c];
                    if (!isfinite(dst[c]))
                        return fail(g, "nodes[%d]: a vertex of mesh %d leaves the range of a float at keyframe %lu",
                                    node, g->nodes[node].mesh, (unsigned long)f);
                }
                if (s->normals) {
                    float *dn = s->normals + 3 * (f * s->num_vertices + base + v);
                    double len = sqrt(on[0] * on[0] + on[1] * on[1] + on[2] * on[2]);
                    for (c = 0; c < 3; c++)
                        dn[c] = len > 0 && isfinite(len) ? (float)(on[c] / len) : 0.0f;
                }
            }
            base += pr->pos.count;
        }
    }
    return 1;
}

/* ---- which mesh nodes a keyframe shows ----------------------------------- */

/* A node is shown unless it (or an ancestor) is scaled to 0: its world
 * matrix then maps everything onto one point. md2 export's --max-targets
 * parts are shown and hidden that way (STEP scale keys of 1 and 0). */
static int node_shown(const gl_pose *p, int node)
{
    const double *w = p->world + 16 * (size_t)node;
    int r, c;
    for (c = 0; c < 3; c++)
        for (r = 0; r < 3; r++)
            if (w[4 * c + r] != 0)
                return 1;
    return 0;
}

/* The items (indices into g->items, in scene order) pose p shows. */
static size_t shown_items(const gl *g, const gl_pose *p, int *vis)
{
    size_t it, n = 0;
    for (it = 0; it < g->nitems; it++)
        if (node_shown(p, g->items[it]))
            vis[n++] = (int)it;
    return n;
}

/* What items a and b (their meshes) differ in for an MD2, which has one
 * set of triangles and texcoords: NULL when nothing does. */
static const char *topology_differs(const gl *g, int a, int b)
{
    const gl_mesh *ma = &g->meshes[g->nodes[g->items[a]].mesh], *mb = &g->meshes[g->nodes[g->items[b]].mesh];
    size_t pi;
    if (ma == mb)
        return NULL;
    if (ma->nprims != mb->nprims)
        return "the number of primitives";
    for (pi = 0; pi < ma->nprims; pi++) {
        const gl_prim *x = &ma->prims[pi], *y = &mb->prims[pi];
        if (x->triangles != y->triangles)
            return "which primitives are triangles";
        if (!x->triangles)
            continue;
        if (x->pos.count != y->pos.count)
            return "the vertex count";
        if (x->ntri != y->ntri || (x->ntri && memcmp(x->tri, y->tri, 3 * x->ntri * sizeof *x->tri) != 0))
            return "the triangles";
        if (!x->uv.f != !y->uv.f || (x->uv.f && memcmp(x->uv.f, y->uv.f, 2 * x->pos.count * sizeof(float)) != 0))
            return "the texcoords";
        if (!x->nrm.f != !y->nrm.f)
            return "having normals";
        if (x->material != y->material)
            return "the material";
    }
    return NULL;
}

/* "animations[2] \"run\" at keyframe 4", or the rest pose (an NULL). */
static void sample_name(char *buf, size_t size, const gl_anim *an, size_t k)
{
    if (!an)
        pathf(buf, size, "the rest pose");
    else
        pathf(buf, size, "animations[%d] \"%.64s\" at keyframe %lu", an->index, an->name ? an->name : "",
              (unsigned long)k);
}

/* The mesh nodes that make the MD2 (ref, nref of them, indices into
 * g->items): those the first keyframe (or, without animations, the rest
 * pose) shows. Every other keyframe must show as many, item by item with
 * the same topology (md2 export's split parts: copies of one mesh, one
 * shown at a time). refdet: each reference node's world determinant
 * there, for the winding. vis: room for g->nitems. */
static int reference_items(gl *g, gl_pose *p, int *vis, int *ref, size_t *nref, double *refdet)
{
    size_t a, k, j, n;
    const gl_anim *a0 = g->nanims ? &g->anims[0] : NULL;
    char here[128], there[128];
    for (a = 0; a < (g->nanims ? g->nanims : 1); a++) {
        const gl_anim *an = g->nanims ? &g->anims[a] : NULL;
        for (k = 0; k < (an ? an->nframes : 1); k++) {
            if (!pose_at(g, p, an, an ? an->t0 + (double)k / an->fps : 0))
                return 0;
            n = shown_items(g, p, vis);
            if (!n) {
                sample_name(here, sizeof here, an, k);
                return fail(g, "%s: every node with a mesh is scaled to 0, so there is nothing to import", here);
            }
            if (a == 0 && k == 0) {
                memcpy(ref, vis, n * sizeof *vis);
                *nref = n;
                for (j = 0; j < n; j++)
                    refdet[j] = det3(p->world + 16 * (size_t)g->items[ref[j]]);
                continue;
            }
            if (n != *nref) {
                sample_name(here, sizeof here, an, k);
                sample_name(there, sizeof there, a0, 0);
                return fail(g, "%s shows %lu nodes with a mesh, %s shows %lu: an MD2 has one set of triangles", here,
                            (unsigned long)n, there, (unsigned long)*nref);
            }
            for (j = 0; j < n; j++) {
                const char *why;
                if (vis[j] == ref[j] || !(why = topology_differs(g, vis[j], ref[j])))
                    continue;
                sample_name(here, sizeof here, an, k);
                sample_name(there, sizeof there, a0, 0);
                return fail(g, "nodes[%d] (shown at %s) and nodes[%d] (shown at %s) differ in %s: an MD2 has one "
                            "set of triangles", g->items[vis[j]], here, g->items[ref[j]], there, why);
            }
        }
    }
    return 1;
}

/* md2 export's clips say which MD2 frames they came from (extras.first):
 * when every clip does and --anim chose no order, their frames are laid
 * out in that order (the MD2's own), else in the clips' order. */
static int by_first(const void *x, const void *y)
{
    const gl_anim *a = (const gl_anim *)x, *b = (const gl_anim *)y;
    if (a->first != b->first)
        return a->first < b->first ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static void order_anims(gl *g)
{
    size_t a;
    if (g->opt && g->opt->num_anims)
        return;
    for (a = 0; a < g->nanims; a++)
        if (g->anims[a].first < 0)
            return;
    if (g->nanims > 1)
        qsort(g->anims, g->nanims, sizeof *g->anims, by_first);
}

/* ---- materials and images ---------------------------------------------------- */

static int load_image(gl *g, int j, int *index)
{
    imp_scene *s = g->out;
    imp_image *im;
    const cJSON *o, *uri;
    char where[48];
    int view;
    if (g->image_map[j] >= 0) {
        *index = g->image_map[j];
        return 1;
    }
    pathf(where, sizeof where, "images[%d]", j);
    if (!(o = j_object(g, g->images, "images", (size_t)j)))
        return 0;
    im = &s->images[s->num_images];
    memset(im, 0, sizeof *im);
    if (!j_index(g, o, "bufferView", where, g->nviews, "bufferView", &view))
        return 0;
    uri = jget(o, "uri");
    if (uri && !cJSON_IsString(uri))
        return fail(g, "%s.uri: not a string", where);
    if (view >= 0) {
        const unsigned char *d;
        size_t len, st;
        if (!load_view(g, view, where, &d, &len, &st))
            return 0;
        if (!(im->bytes = (unsigned char *)gl_alloc(g, len, 1)))
            return 0;
        memcpy(im->bytes, d, len);
        im->size = len;
        s->num_images++;
        if (!(im->label = gl_strdup(g, where)))
            return 0;
    } else if (uri) {
        char w[64];
        pathf(w, sizeof w, "%s.uri", where);
        if (strncmp(uri->valuestring, "data:", 5) == 0) {
            if (!data_uri(g, uri->valuestring, w, &im->bytes, &im->size))
                return 0;
            s->num_images++;
            if (!(im->label = gl_strdup(g, where)))
                return 0;
        } else {
            if (!(im->path = file_uri(g, uri->valuestring, w)))
                return 0;
            s->num_images++;
            /* the file's name as the file system has it (percent-decoded) */
            if (!(im->label = gl_strdup(g, im->path + root_prefix(g->base_dir))))
                return 0;
        }
    } else {
        return fail(g, "%s: neither a uri nor a bufferView", where);
    }
    *index = g->image_map[j] = (int)(s->num_images - 1);
    return 1;
}

static int load_materials(gl *g)
{
    imp_scene *s = g->out;
    size_t i;
    if (!g->nmaterials)
        return 1;
    if (!(s->material_image = (int32_t *)gl_alloc(g, g->nmaterials, sizeof(int32_t))) ||
        !(s->material_names = (char **)gl_alloc(g, g->nmaterials, sizeof(char *))) ||
        !(s->images = (imp_image *)gl_alloc(g, g->nimages, sizeof(imp_image))) ||
        !(g->image_map = (int *)gl_alloc(g, g->nimages, sizeof(int))))
        return 0;
    s->num_materials = g->nmaterials;
    for (i = 0; i < g->nimages; i++)
        g->image_map[i] = -1;
    for (i = 0; i < g->nmaterials; i++) {
        const cJSON *o = j_object(g, g->materials, "materials", i), *name, *pbr, *tex;
        char where[48], buf[96];
        int t, src = -1;
        if (!o)
            return 0;
        s->material_image[i] = -1;
        pathf(where, sizeof where, "materials[%lu]", (unsigned long)i);
        name = jget(o, "name");
        if (!(s->material_names[i] = gl_strdup(g, cJSON_IsString(name) ? name->valuestring : where)))
            return 0;
        pbr = jget(o, "pbrMetallicRoughness");
        tex = jget(pbr, "baseColorTexture");
        if (!tex)
            continue;
        pathf(buf, sizeof buf, "%s.pbrMetallicRoughness", where);
        if (!cJSON_IsObject(tex))
            return fail(g, "%s.baseColorTexture: not an object", buf);
        pathf(buf, sizeof buf, "%s.pbrMetallicRoughness.baseColorTexture", where);
        if (!j_index(g, tex, "index", buf, g->ntextures, "texture", &t))
            return 0;
        if (t < 0)
            return fail(g, "%s.index: missing", buf);
        {
            const cJSON *to = j_object(g, g->textures, "textures", (size_t)t);
            char tw[48];
            pathf(tw, sizeof tw, "textures[%d]", t);
            if (!to || !j_index(g, to, "source", tw, g->nimages, "image", &src))
                return 0;
        }
        if (src < 0) {
            if (!imp_scene_note(s, "textures[%d]: no source image (an extension's only), %s untextured", t,
                                s->material_names[i]))
                return oom(g);
            continue;
        }
        if (!load_image(g, src, &t))
            return 0;
        s->material_image[i] = t;
    }
    return 1;
}

/* ---- the whole file ------------------------------------------------------------ */

static int check_top(gl *g)
{
    const cJSON *asset = jget(g->root, "asset"), *ver, *req, *e;
    size_t i = 0;
    if (!cJSON_IsObject(asset))
        return fail(g, "asset: missing or not an object");
    ver = jget(asset, "version");
    if (!cJSON_IsString(ver))
        return fail(g, "asset.version: missing or not a string");
    if (strncmp(ver->valuestring, "2.", 2) != 0)
        return fail(g, "asset.version: \"%s\", only glTF 2 is read", ver->valuestring);
    req = jget(g->root, "extensionsRequired");
    if (req && !cJSON_IsArray(req))
        return fail(g, "extensionsRequired: not an array");
    for (e = (req) ? (req)->child : NULL; e; e = e->next) {
        if (!cJSON_IsString(e))
            return fail(g, "extensionsRequired[%lu]: not a string", (unsigned long)i);
        if (strcmp(e->valuestring, "KHR_mesh_quantization") != 0)
            return fail(g, "extensionsRequired[%lu]: %s is not supported", (unsigned long)i, e->valuestring);
        i++;
    }
    return j_array(g, g->root, "buffers", "", &g->buffers, &g->nbuffers) &&
           j_array(g, g->root, "bufferViews", "", &g->views, &g->nviews) &&
           j_array(g, g->root, "accessors", "", &g->accessors, &g->naccessors) &&
           j_array(g, g->root, "nodes", "", &g->nodes_j, &g->nnodes) &&
           j_array(g, g->root, "meshes", "", &g->meshes_j, &g->nmeshes) &&
           j_array(g, g->root, "skins", "", &g->skins_j, &g->nskins) &&
           j_array(g, g->root, "materials", "", &g->materials, &g->nmaterials) &&
           j_array(g, g->root, "textures", "", &g->textures, &g->ntextures) &&
           j_array(g, g->root, "images", "", &g->images, &g->nimages) &&
           j_array(g, g->root, "animations", "", &g->animations, &g->nanimations);
}

/* Splits a .glb into its JSON and binary chunks. */
static int glb_chunks(gl *g, const unsigned char *data, size_t size, const unsigned char **json, size_t *json_len)
{
    uint32_t version, length, clen, ctype;
    size_t at;
    if (size < 12)
        return fail(g, "GLB header: %lu bytes, a header has 12", (unsigned long)size);
    version = le32(data + 4);
    length = le32(data + 8);
    if (version != 2)
        return fail(g, "GLB header: version %lu, only 2 is read", (unsigned long)version);
    if (length != size)
        return fail(g, "GLB header: length %lu, the file has %lu bytes%s", (unsigned long)length,
                    (unsigned long)size, length > size ? " (truncated?)" : "");
    if (size < 20)
        return fail(g, "GLB chunk 0: its header runs past the end of the file (%lu bytes)", (unsigned long)size);
    clen = le32(data + 12);
    ctype = le32(data + 16);
    if (ctype != 0x4E4F534Au)
        return fail(g, "GLB chunk 0: type 0x%08lx, the first chunk must be JSON (0x4e4f534a)", (unsigned long)ctype);
    if (clen > size - 20)
        return fail(g, "GLB chunk 0: length %lu at byte 20 runs past the end of the file (%lu bytes)",
                    (unsigned long)clen, (unsigned long)size);
    *json = data + 20;
    *json_len = clen;
    at = 20 + (size_t)clen;
    while (at < size) {
        if (size - at < 8)
            return fail(g, "GLB chunk at byte %lu: its header runs past the end of the file", (unsigned long)at);
        clen = le32(data + at);
        ctype = le32(data + at + 4);
        if (clen > size - at - 8)
            return fail(g, "GLB chunk at byte %lu: length %lu runs past the end of the file (%lu bytes)",
                        (unsigned long)at, (unsigned long)clen, (unsigned long)size);
        if (ctype == 0x004E4942u && !g->has_bin) {
            g->has_bin = 1;
            g->bin = data + at + 8;
            g->bin_size = clen;
        }
        at += 8 + (size_t)clen;
    }
    return 1;
}

/* The JSON of a .glb (its chunks split, the binary one kept) or a .gltf,
 * parsed into g->root, and its top-level members. */
static int parse_json(gl *g, const unsigned char *data, size_t size)
{
    const unsigned char *json = data;
    size_t json_len = size;
    const char *end = NULL;
    if (size >= 4 && memcmp(data, "glTF", 4) == 0 && !glb_chunks(g, data, size, &json, &json_len))
        return 0;
    g->root = cJSON_ParseWithLengthOpts((const char *)json, json_len, &end, 0);
    if (!g->root) {
        if (end && (const unsigned char *)end >= json && (size_t)((const unsigned char *)end - json) <= json_len)
            return fail(g, "not JSON: a syntax error near byte %lu of the JSON", (unsigned long)((const unsigned char *)end - json));
        return fail(g, "not JSON (or out of memory)");
    }
    if (!cJSON_IsObject(g->root))
        return fail(g, "the JSON is not an object");
    return check_top(g);
}

/* 1 if every joint index of mesh node n's primitives names a joint of its skin. */
static int joints_in_skin(gl *g, const gl_node *n)
{
    const gl_mesh *m = &g->meshes[n->mesh];
    const gl_skin *sk = &g->skins[n->skin];
    size_t pi, set, v;
    for (pi = 0; pi < m->nprims; pi++)
        for (set = 0; set < m->prims[pi].nsets; set++)
            for (v = 0; v < 4 * m->prims[pi].joints[set].count; v++)
                if (m->prims[pi].joints[set].u[v] >= sk->njoints)
                    return fail(g, "meshes[%d].primitives[%lu].attributes.JOINTS_%lu: joint %lu of vertex %lu, "
                                "skin %d has %lu joints", n->mesh, (unsigned long)pi, (unsigned long)set,
                                (unsigned long)m->prims[pi].joints[set].u[v], (unsigned long)(v / 4), n->skin,
                                (unsigned long)sk->njoints);
    return 1;
}

/* The meshes and skins of the scene's mesh nodes; *max_joints the most
 * joints a skin has. The scene must hold a triangle. */
/* The count of the accessor o[key] names (JSON only, nothing decoded), or
 * 0 when it names none that has one (loading it says what is wrong). */
static double accessor_count(gl *g, const cJSON *o, const char *key)
{
    const cJSON *v = jget(o, key), *a, *c;
    if (!is_int(v, 0, GL_MAX_INT) || v->valuedouble >= (double)g->naccessors ||
        !(a = j_item(g, g->accessors, (size_t)v->valuedouble)))
        return 0;
    c = jget(a, "count");
    return is_int(c, 0, GL_MAX_INT) ? c->valuedouble : 0;
}

/* The triangles of every use of every mesh of the scene, from the JSON's
 * counts, against opt->max_bytes before any index is decoded: three
 * primitives sharing one accessor of 16,777,215 indices made 2.8 GB of
 * memory before the copies of the first were counted. */
static int count_triangles(gl *g)
{
    size_t it;
    double bytes = 0;
    if (!g->opt || !g->opt->max_bytes || (g->naccessors && !j_indexed(g, g->accessors)) ||
        (g->nmeshes && !j_indexed(g, g->meshes_j)))
        return !g->opt || !g->opt->max_bytes ? 1 : 0;
    for (it = 0; it < g->nitems; it++) {
        int m = g->nodes[g->items[it]].mesh;
        const cJSON *prims = jget(j_item(g, g->meshes_j, (size_t)m), "primitives"), *po;
        size_t pi = 0;
        for (po = cJSON_IsArray(prims) ? prims->child : NULL; po; po = po->next, pi++) {
            const cJSON *mode = jget(po, "mode");
            double md = is_int(mode, 0, 6) ? mode->valuedouble : 4, n, ntri;
            if (md < 4)
                continue;
            n = jget(po, "indices") ? accessor_count(g, po, "indices")
                                    : accessor_count(g, jget(po, "attributes"), "POSITION");
            ntri = md == 4 ? floor(n / 3) : n >= 3 ? n - 2 : 0;
            bytes += ntri * GL_TRIANGLE_BYTES + n * 4.0;
            if (bytes > (double)g->opt->max_bytes - g->spent) {
                char where[96];
                pathf(where, sizeof where, "meshes[%d].primitives[%lu]", m, (unsigned long)pi);
                return fail(g, "%s: the scene's triangles to here (each use of a mesh, each primitive of an "
                            "accessor) would take %.0f bytes, past the %lu allowed%s%s%s", where,
                            bytes + g->spent, (unsigned long)g->opt->max_bytes, IMP_RAISED_BY(g->opt));
            }
        }
    }
    return 1;
}

static int load_items(gl *g, size_t *max_joints)
{
    size_t it, pi;
    int any_tri = 0;
    *max_joints = 0;
    for (it = 0; it < g->nitems; it++) {
        gl_node *n = &g->nodes[g->items[it]];
        gl_mesh *m;
        if (!load_mesh(g, n->mesh))
            return 0;
        m = &g->meshes[n->mesh];
        if (n->skin >= 0) {
            if (!load_skin(g, n->skin))
                return 0;
            if (g->skins[n->skin].njoints > *max_joints)
                *max_joints = g->skins[n->skin].njoints;
            if (!joints_in_skin(g, n))
                return 0;
        }
        for (pi = 0; pi < m->nprims; pi++)
            if (m->prims[pi].triangles && m->prims[pi].ntri)
                any_tri = 1;
    }
    if (!any_tri)
        return fail(g, "scenes: the default scene has no triangles");
    return 1;
}

/* Whether value v (width values) is rest (of a rotation: either sign of
 * the quaternion), within a millionth of its size. */
static int at_rest(const float *v, const double *rest, size_t width, int rotation)
{
    size_t k;
    int same = 1, flipped = rotation;
    for (k = 0; k < width; k++) {
        double tol = 1e-6 * (1 + fabs(rest[k]));
        if (fabs((double)v[k] - rest[k]) > tol)
            same = 0;
        if (fabs((double)v[k] + rest[k]) > tol)
            flipped = 0;
    }
    return same || flipped;
}

/* Whether animation an moves nothing: each of its channels holds its
 * node's rest value (translation, rotation, scale, morph weights) at every
 * key, and a cubic spline's tangents are 0. 0 too when that cannot be
 * told (a node with a matrix; out of memory: then g's error is set), and
 * for md2 export's clips (their extras): a one-keyframe clip on the base
 * pose is still a clip there. */
static int still_anim(gl *g, const gl_anim *an, int *failed)
{
    size_t c, k, i;
    if (an->first >= 0)
        return 0;
    for (c = 0; c < an->nchannels; c++) {
        const gl_channel *ch = &an->channels[c];
        const gl_node *node;
        double rest4[4], *rest = rest4;
        size_t w = ch->width, stride = ch->interp == INTERP_CUBIC ? 3 * w : w;
        int still = 1;
        if (ch->node < 0)
            continue;
        node = &g->nodes[ch->node];
        if (node->has_matrix)
            return 0;
        if (ch->path == PATH_W) {
            if (!(rest = (double *)gl_alloc(g, w, sizeof(double)))) {
                *failed = 1;
                return 0;
            }
            if (!node_weights(g, ch->node, rest)) {
                free(rest);
                *failed = 1;
                return 0;
            }
        } else {
            memcpy(rest4, ch->path == PATH_T ? node->t : ch->path == PATH_R ? node->r : node->s,
                   (ch->path == PATH_R ? 4 : 3) * sizeof(double));
        }
        for (k = 0; k < ch->in.count && still; k++) {
            const float *v = ch->out.f + k * stride;
            if (ch->interp == INTERP_CUBIC) {
                for (i = 0; i < w; i++)
                    if (v[i] != 0 || v[2 * w + i] != 0)
                        still = 0;
                v += w;
            }
            if (!at_rest(v, rest, w, ch->path == PATH_R))
                still = 0;
        }
        if (rest != rest4)
            free(rest);
        if (!still)
            return 0;
    }
    return 1;
}

/* Without --anim, the animations that move nothing are left out when
 * others move something: Blender 3.4 writes an animation for an object
 * keyed where it stands (or lacking a track of the animation's name),
 * which is no clip of the modder's. A note names each. */
static int drop_still(gl *g)
{
    size_t a, kept = 0, nstill = 0;
    int failed = 0;
    unsigned char *still;
    if (g->nanims < 2 || (g->opt && g->opt->num_anims))
        return 1;
    if (!(still = (unsigned char *)gl_alloc(g, g->nanims, 1)))
        return 0;
    for (a = 0; a < g->nanims && !failed; a++)
        nstill += still[a] = (unsigned char)still_anim(g, &g->anims[a], &failed);
    if (failed || nstill == 0 || nstill == g->nanims) {
        free(still);
        return !failed;
    }
    for (a = 0; a < g->nanims; a++) {
        gl_anim *an = &g->anims[a];
        size_t c;
        if (!still[a]) {
            g->anims[kept++] = *an;
            continue;
        }
        if (!imp_scene_note(g->out, "animations[%d] \"%s\" moves nothing (each channel at its node's rest): "
                                    "not a clip, as others move (--anim %s keeps it)",
                            an->index, an->name, an->name)) {
            free(still);
            return oom(g), 0;
        }
        for (c = 0; c < an->nchannels; c++) {
            data_free(&an->channels[c].in);
            data_free(&an->channels[c].out);
        }
        free(an->channels);
        free(an->name);
    }
    g->nanims = kept;
    free(still);
    return 1;
}

/* The animations to sample, in the order their frames are laid out;
 * *frames the keyframes of them all (1, the rest pose, without any). */
static int load_anims(gl *g, size_t *frames)
{
    size_t a;
    *frames = 0;
    if (!pick_anims(g))
        return 0;
    for (a = 0; a < g->nanims; a++)
        if (!load_anim(g, &g->anims[a]))
            return 0;
    if (!drop_still(g))
        return 0;
    for (a = 0; a < g->nanims; a++)
        *frames += g->anims[a].nframes;
    if (!g->nanims)
        *frames = 1;
    order_anims(g);
    return 1;
}

/* The keyframes within opt->max_work: each poses every node and samples
 * every channel (twice: once to find the nodes shown, once for the
 * positions), so a 2.7 KB file of 999,999 keyframes and 400 empty nodes
 * is refused at once instead of taking 15 s. */
static int count_work(gl *g, size_t frames)
{
    size_t a, channels = 0;
    double work;
    for (a = 0; a < g->nanims; a++)
        channels += g->anims[a].nchannels;
    work = (double)frames * ((double)g->nnodes + (double)channels);
    if (g->opt && g->opt->max_work && work > (double)g->opt->max_work)
        return fail(g, "animations: %lu keyframes of %lu nodes and %lu channels are %.0f poses, more than the %lu "
                    "allowed%s", (unsigned long)frames, (unsigned long)g->nnodes, (unsigned long)channels, work,
                    (unsigned long)g->opt->max_work, IMP_RAISED_BY_OPT(g->opt, "--max-work"));
    return 1;
}

/* What sampling the keyframes works with: a pose, the joints' matrices,
 * the mesh nodes that make the model and those a keyframe shows. */
typedef struct gl_frames {
    gl_pose p;
    double *joints; /* 16 for each joint of the largest skin */
    size_t *live;   /* write_frame()'s targets of a weight other than 0: room for all */
    int *vis;       /* the items a keyframe shows (shown_items()) */
    int *ref;       /* the items that make the model (reference_items()), nref of them */
    size_t nref;
    double *refdet; /* their world determinants there */
} gl_frames;

static void frames_free(gl_frames *fr)
{
    free(fr->p.woff);
    free(fr->p.t);
    free(fr->p.r);
    free(fr->p.s);
    free(fr->p.w);
    free(fr->p.world);
    free(fr->joints);
    free(fr->live);
    free(fr->vis);
    free(fr->ref);
    free(fr->refdet);
    memset(fr, 0, sizeof *fr);
}

/* fr's arrays, for the nodes, meshes and skins loaded (frames_free()
 * frees them, also when this fails). */
static int frames_alloc(gl *g, gl_frames *fr, size_t max_joints)
{
    size_t it, nweights = 0;
    memset(fr, 0, sizeof *fr);
    if (!(fr->p.woff = (size_t *)gl_alloc(g, g->nnodes, sizeof(size_t))))
        return 0;
    for (it = 0; it < g->nnodes; it++) {
        fr->p.woff[it] = nweights;
        if (g->nodes[it].mesh >= 0 && g->meshes[g->nodes[it].mesh].loaded)
            nweights += g->meshes[g->nodes[it].mesh].ntargets;
    }
    return (fr->p.t = (double *)gl_alloc(g, g->nnodes, 3 * sizeof(double))) &&
           (fr->p.r = (double *)gl_alloc(g, g->nnodes, 4 * sizeof(double))) &&
           (fr->p.s = (double *)gl_alloc(g, g->nnodes, 3 * sizeof(double))) &&
           (fr->p.w = (double *)gl_alloc(g, nweights, sizeof(double))) &&
           (fr->p.world = (double *)gl_alloc(g, g->nnodes, 16 * sizeof(double))) &&
           (fr->joints = (double *)gl_alloc(g, max_joints, 16 * sizeof(double))) &&
           (fr->live = (size_t *)gl_alloc(g, nweights, sizeof(size_t))) &&
           (fr->vis = (int *)gl_alloc(g, g->nitems, sizeof(int))) &&
           (fr->ref = (int *)gl_alloc(g, g->nitems, sizeof(int))) &&
           (fr->refdet = (double *)gl_alloc(g, g->nitems, sizeof(double)));
}

/* The scene's size: what its triangle primitives hold. */
typedef struct gl_counts {
    size_t frames, vertices, triangles;
    int all_normals; /* every triangle primitive has NORMAL */
    int any_uv;      /* some has TEXCOORD_0 */
} gl_counts;

/* c's vertices, triangles, normals and texcoords: those of the nodes
 * that make the model. */
static int count_scene(gl *g, const gl_frames *fr, gl_counts *c)
{
    size_t it, pi;
    c->vertices = c->triangles = 0;
    c->all_normals = 1;
    c->any_uv = 0;
    for (it = 0; it < fr->nref; it++) {
        int mi = g->nodes[g->items[fr->ref[it]]].mesh;
        const gl_mesh *m = &g->meshes[mi];
        for (pi = 0; pi < m->nprims; pi++) {
            const gl_prim *pr = &m->prims[pi];
            if (!pr->triangles)
                continue;
            if (pr->pos.count > (size_t)UINT32_MAX - c->vertices ||
                pr->ntri > (size_t)UINT32_MAX - c->triangles)
                return fail(g, "meshes[%d]: more than 2^32 vertices or triangles in the scene", mi);
            c->vertices += pr->pos.count;
            c->triangles += pr->ntri;
            if (!pr->nrm.f)
                c->all_normals = 0;
            if (pr->uv.f)
                c->any_uv = 1;
        }
    }
    if (!c->vertices || !c->triangles)
        return fail(g, "scenes: the nodes the default scene shows have no triangles");
    return 1;
}

/* The scene's arrays for c, once its positions are found to fit the
 * budget (opt->max_bytes) and memory. */
static int alloc_scene(gl *g, const gl_counts *c)
{
    imp_scene *s = g->out;
    double need = (double)c->frames * (double)c->vertices * 12.0 * (c->all_normals ? 2 : 1);
    if (!spend(g, (double)c->vertices * 8.0 * c->any_uv, "scenes", "the texture coordinates"))
        return 0;
    if (g->opt && g->opt->max_bytes && need > (double)g->opt->max_bytes - g->spent) {
        char before[64] = "";
        if (need <= (double)g->opt->max_bytes) /* what was counted before makes the difference */
            pathf(before, sizeof before, " besides the %.0f counted before", g->spent);
        return fail(g, "the scene needs %.0f bytes for %lu keyframes of %lu vertices%s, more than the %lu "
                    "allowed%s%s%s", need, (unsigned long)c->frames, (unsigned long)c->vertices, before,
                    (unsigned long)g->opt->max_bytes, IMP_RAISED_BY(g->opt));
    }
    if (need > (double)((size_t)-1 / 2))
        return fail(g, "the scene needs %.0f bytes for %lu keyframes of %lu vertices", need,
                    (unsigned long)c->frames, (unsigned long)c->vertices);
    s->num_frames = c->frames;
    s->num_vertices = c->vertices;
    s->num_triangles = c->triangles;
    if (!(s->positions = (float *)gl_alloc(g, c->frames * c->vertices, 3 * sizeof(float))) ||
        (c->all_normals && !(s->normals = (float *)gl_alloc(g, c->frames * c->vertices, 3 * sizeof(float)))) ||
        !(s->triangles = (uint32_t *)gl_alloc(g, c->triangles, 6 * sizeof(uint32_t))) ||
        (c->any_uv && !(s->uv = (float *)gl_alloc(g, c->vertices, 2 * sizeof(float)))) ||
        (g->nmaterials && !(s->tri_material = (uint32_t *)gl_alloc(g, c->triangles, sizeof(uint32_t)))))
        return 0;
    s->num_texcoords = c->any_uv ? c->vertices : 0;
    return 1;
}

/* Primitive pr's triangles from the scene's triangle *tri on, its
 * vertices from *base on (both moved past it), corners 0, 2, 1 when flip;
 * its texcoords (with any_uv) and material. */
static void add_prim_triangles(imp_scene *s, const gl_prim *pr, int flip, int any_uv, size_t *tri, size_t *base)
{
    size_t t, v;
    for (t = 0; t < pr->ntri; t++, (*tri)++) {
        uint32_t *dst = s->triangles + 6 * *tri;
        uint32_t c0 = (uint32_t)*base + pr->tri[3 * t], c1 = (uint32_t)*base + pr->tri[3 * t + 1],
                 c2 = (uint32_t)*base + pr->tri[3 * t + 2];
        if (flip) {
            uint32_t x = c1;
            c1 = c2;
            c2 = x;
        }
        dst[0] = c0;
        dst[2] = c1;
        dst[4] = c2;
        dst[1] = any_uv ? c0 : 0;
        dst[3] = any_uv ? c1 : 0;
        dst[5] = any_uv ? c2 : 0;
        if (s->tri_material)
            s->tri_material[*tri] = pr->material >= 0 ? (uint32_t)pr->material : IMP_NO_MATERIAL;
    }
    for (v = 0; any_uv && pr->uv.f && v < pr->pos.count; v++) {
        s->uv[2 * (*base + v)] = pr->uv.f[2 * v];
        s->uv[2 * (*base + v) + 1] = pr->uv.f[2 * v + 1];
    }
    *base += pr->pos.count;
}

/* Triangles, texcoords and materials, in scene order, wound as the rest
 * pose has them (or, for a node it hides, the first keyframe). */
static int scene_triangles(gl *g, gl_frames *fr, int any_uv)
{
    size_t it, pi, tri = 0, base = 0;
    if (!pose_at(g, &fr->p, NULL, 0))
        return 0;
    for (it = 0; it < fr->nref; it++) {
        int node = g->items[fr->ref[it]];
        double det = node_shown(&fr->p, node) ? det3(fr->p.world + 16 * node) : fr->refdet[it];
        const gl_mesh *m = &g->meshes[g->nodes[node].mesh];
        for (pi = 0; pi < m->nprims; pi++) {
            const gl_prim *pr = &m->prims[pi];
            if (pr->triangles)
                add_prim_triangles(g->out, pr, !is_skinned(g, node, pr) && det < 0, any_uv, &tri, &base);
        }
    }
    return 1;
}

/* The positions (and normals) of every keyframe, and the scene's
 * animations (their names taken from g's). */
static int scene_keyframes(gl *g, gl_frames *fr)
{
    imp_scene *s = g->out;
    size_t a, f;
    if (!g->nanims)
        return write_frame(g, &fr->p, 0, fr->joints, fr->live, fr->ref, fr->nref);
    if (!(s->anims = (imp_anim *)gl_alloc(g, g->nanims, sizeof(imp_anim))))
        return 0;
    for (a = 0, f = 0; a < g->nanims; a++) {
        gl_anim *an = &g->anims[a];
        size_t k;
        imp_anim *ia = &s->anims[s->num_anims];
        ia->name = an->name;
        an->name = NULL;
        ia->first_frame = f;
        ia->num_frames = an->nframes;
        ia->fps = an->fps;
        s->num_anims++;
        for (k = 0; k < an->nframes; k++, f++) {
            if (!pose_at(g, &fr->p, an, an->t0 + (double)k / an->fps) ||
                !write_frame(g, &fr->p, f, fr->joints, fr->live, fr->vis, shown_items(g, &fr->p, fr->vis)))
                return 0;
        }
    }
    return 1;
}

static int read_all(gl *g, const unsigned char *data, size_t size)
{
    gl_frames fr;
    gl_counts c;
    size_t max_joints;
    int ok;
    memset(&c, 0, sizeof c);
    if (!parse_json(g, data, size))
        return 0;
    if (!(g->bufs = (gl_buf *)gl_alloc(g, g->nbuffers, sizeof(gl_buf))) ||
        !(g->meshes = (gl_mesh *)gl_alloc(g, g->nmeshes, sizeof(gl_mesh))) ||
        !(g->skins = (gl_skin *)gl_alloc(g, g->nskins, sizeof(gl_skin))))
        return 0;
    if (!load_nodes(g) || !scene_items(g) || !count_triangles(g) || !load_items(g, &max_joints) || !load_anims(g, &c.frames) ||
        !count_work(g, c.frames))
        return 0;
    /* the nodes that make the model (all of them, unless some are scaled
     * to 0), the scene's size, its triangles, its keyframes */
    ok = frames_alloc(g, &fr, max_joints) &&
         reference_items(g, &fr.p, fr.vis, fr.ref, &fr.nref, fr.refdet) && count_scene(g, &fr, &c) &&
         alloc_scene(g, &c) && load_materials(g) && scene_triangles(g, &fr, c.any_uv) &&
         scene_keyframes(g, &fr);
    frames_free(&fr);
    return ok;
}

int imp_gltf_read_memory(const unsigned char *data, size_t size, const char *base_dir, const imp_options *opt,
                         imp_scene *out, char *err, size_t err_size)
{
    gl g;
    size_t i;
    int ok;
    memset(&g, 0, sizeof g);
    memset(out, 0, sizeof *out);
    if (err && err_size)
        err[0] = '\0';
    g.base_dir = base_dir;
    g.opt = opt;
    g.out = out;
    g.err = err;
    g.err_size = err_size;
    ok = read_all(&g, data, size);
    for (i = 0; g.bufs && i < g.nbuffers; i++)
        free(g.bufs[i].owned);
    free(g.bufs);
    for (i = 0; g.meshes && i < g.nmeshes; i++)
        mesh_free(&g.meshes[i]);
    free(g.meshes);
    for (i = 0; g.skins && i < g.nskins; i++) {
        free(g.skins[i].joints);
        free(g.skins[i].ibm);
    }
    free(g.skins);
    anims_free(&g);
    free(g.nodes);
    free(g.order);
    free(g.items);
    free(g.image_map);
    for (i = 0; i < g.ntops; i++)
        free((void *)g.tops[i].item);
    cJSON_Delete(g.root);
    if (!ok) {
        if (err && err_size && !err[0])
            pathf(err, err_size, "out of memory");
        imp_scene_free(out);
    }
    return ok;
}

int imp_gltf_read(const char *path, const imp_options *opt, imp_scene *out, char *err, size_t err_size)
{
    unsigned char *data = NULL;
    size_t size = 0, n;
    const char *slash = strrchr(path, '/');
    char *dir;
    int ok;
    memset(out, 0, sizeof *out);
    if (!read_file(path, &data, &size, err ? err : NULL, err ? err_size : 0))
        return 0;
    n = slash ? (size_t)(slash - path) : 1;
    dir = (char *)malloc(n + 2);
    if (!dir) {
        free(data);
        if (err && err_size)
            pathf(err, err_size, "out of memory");
        return 0;
    }
    if (slash)
        memcpy(dir, path, n);
    else
        dir[0] = '.';
    dir[n] = '\0';
    if (slash && n == 0) {
        dir[0] = '/';
        dir[1] = '\0';
    }
    ok = imp_gltf_read_memory(data, size, dir, opt, out, err, err_size);
    free(dir);
    free(data);
    return ok;
}
