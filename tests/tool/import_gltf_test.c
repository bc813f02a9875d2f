/*
 * import_gltf_test: md2 import's glTF reader (imp_gltf_read, import.h) on
 * hostile input, each error naming the JSON path of what is wrong; the
 * computations three.js does not judge (a second set of joints, weights
 * that sum to 0, skinned normals, the keyframe count's rounding, the
 * budget); and every allocation failing in turn, with nothing leaked.
 *
 * The allocation checks link with -Wl,--wrap=malloc,calloc,realloc,free
 * (GNU ld, Linux: MD2_TEST_WRAP_ALLOC), which routes the reader's
 * allocations through counters here; cJSON's go there too (cJSON_InitHooks).
 * Elsewhere those tests are skipped.
 *
 *   import_gltf_test [SEED...]   SEEDs: files for the allocation sweep
 *                                (default: the fuzz corpus, tests/fuzz/gltf_corpus)
 *
 * SPDX-License-Identifier: MIT
 */
#include "import.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* ---- the allocator: counts, fails on request, tracks what is live -------- */

#ifdef MD2_TEST_WRAP_ALLOC
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *ptr, size_t size);
void __real_free(void *ptr);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *ptr, size_t size);
void __wrap_free(void *ptr);

static long alloc_calls, alloc_fail_at, alloc_live;
static size_t alloc_largest;

static int alloc_refused(size_t size)
{
    alloc_calls++;
    if (size > alloc_largest)
        alloc_largest = size;
    return alloc_fail_at > 0 && alloc_calls == alloc_fail_at;
}

void *__wrap_malloc(size_t size)
{
    void *p = alloc_refused(size) ? NULL : __real_malloc(size);
    if (p)
        alloc_live++;
    return p;
}

void *__wrap_calloc(size_t count, size_t size)
{
    void *p = alloc_refused(size && count > (size_t)-1 / size ? (size_t)-1 : count * size) ? NULL
                                                                                          : __real_calloc(count, size);
    if (p)
        alloc_live++;
    return p;
}

void *__wrap_realloc(void *ptr, size_t size)
{
    void *p = alloc_refused(size) ? NULL : __real_realloc(ptr, size);
    if (p && !ptr)
        alloc_live++;
    return p;
}

void __wrap_free(void *ptr)
{
    if (ptr)
        alloc_live--;
    __real_free(ptr);
}

static void alloc_reset(long fail_at)
{
    alloc_calls = 0;
    alloc_fail_at = fail_at;
    alloc_largest = 0;
}
#endif

/* ---- the glTF every hostile case edits ------------------------------------ */

/* The binary buffer: a triangle's positions (0), its indices (36), keys
 * at 0 and 0.7 s (44) and two translations (52), an identity matrix (76),
 * JOINTS_0 bytes all 0 (140), WEIGHTS_0 (0.5, 0, 0, 0) (152), JOINTS_1
 * (1, 0, 0, 0) (200), WEIGHTS_1 (0.5, 0, 0, 0) (212), 16 zero bytes (260),
 * normals (1, 0, 0) (276); 312 bytes. */
#define BUF_SIZE 312
static void put_f32(unsigned char *b, size_t at, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    b[at] = (unsigned char)u;
    b[at + 1] = (unsigned char)(u >> 8);
    b[at + 2] = (unsigned char)(u >> 16);
    b[at + 3] = (unsigned char)(u >> 24);
}

static void make_buffer(unsigned char *b, int bad_float_at)
{
    size_t i;
    memset(b, 0, BUF_SIZE);
    put_f32(b, 12, 1); /* (1, 0, 0) */
    put_f32(b, 28, 1); /* (0, 1, 0) */
    b[38] = 1;
    b[40] = 2;
    put_f32(b, 48, 0.7f);
    put_f32(b, 64, 1); /* translation (1, 0, 0) */
    for (i = 0; i < 4; i++)
        put_f32(b, 76 + 20 * i, 1);
    for (i = 0; i < 3; i++) {
        put_f32(b, 152 + 16 * i, 0.5f);
        b[200 + 4 * i] = 1;
        put_f32(b, 212 + 16 * i, 0.5f);
        put_f32(b, 276 + 12 * i, 1);
    }
    if (bad_float_at >= 0)
        put_f32(b, (size_t)bad_float_at, (float)INFINITY);
}

static char *base64(const unsigned char *b, size_t n)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *s = (char *)malloc(4 * ((n + 2) / 3) + 1), *o = s;
    size_t i;
    assert_non_null(s);
    for (i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)b[i] << 16 | (i + 1 < n ? (uint32_t)b[i + 1] << 8 : 0) | (i + 2 < n ? b[i + 2] : 0);
        *o++ = digits[v >> 18];
        *o++ = digits[(v >> 12) & 63];
        *o++ = i + 1 < n ? digits[(v >> 6) & 63] : '=';
        *o++ = i + 2 < n ? digits[v & 63] : '=';
    }
    *o = '\0';
    return s;
}

static const char BASE[] =
    "{\"asset\":{\"version\":\"2.0\"},"
    "\"buffers\":[{\"byteLength\":312,\"uri\":\"@B@\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,\"byteLength\":6},"
    "{\"buffer\":0,\"byteOffset\":44,\"byteLength\":32},{\"buffer\":0,\"byteOffset\":76,\"byteLength\":64},"
    "{\"buffer\":0,\"byteOffset\":140,\"byteLength\":172}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
    "{\"bufferView\":1,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},"
    "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
    "{\"bufferView\":2,\"byteOffset\":8,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
    "{\"bufferView\":3,\"componentType\":5126,\"count\":1,\"type\":\"MAT4\"},"
    "{\"bufferView\":4,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
    "{\"bufferView\":4,\"byteOffset\":12,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
    "{\"bufferView\":4,\"byteOffset\":60,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
    "{\"bufferView\":4,\"byteOffset\":72,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
    "{\"bufferView\":4,\"byteOffset\":136,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}],"
    "\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]}";

/* BASE with each (from, to) pair replaced (the first occurrence), the
 * buffer as a data: URI (@B@); bad_float_at >= 0 puts an infinity there. */
static char *edit(int bad_float_at, const char *const *pairs, size_t n)
{
    unsigned char buf[BUF_SIZE];
    char *b64, *text, *uri;
    size_t i;
    make_buffer(buf, bad_float_at);
    b64 = base64(buf, sizeof buf);
    uri = (char *)malloc(strlen(b64) + 64);
    assert_non_null(uri);
    sprintf(uri, "data:application/octet-stream;base64,%s", b64);
    free(b64);
    text = (char *)malloc(strlen(BASE) + 1);
    assert_non_null(text);
    strcpy(text, BASE);
    for (i = 0; i < 2 * n; i += 2) {
        char *at = strstr(text, pairs[i]), *grown;
        size_t lf = strlen(pairs[i]), lt = strlen(pairs[i + 1]);
        if (!at) {
            fail_msg("edit: \"%s\" is not in the glTF", pairs[i]);
            break;
        }
        grown = (char *)malloc(strlen(text) - lf + lt + 1);
        assert_non_null(grown);
        memcpy(grown, text, (size_t)(at - text));
        memcpy(grown + (at - text), pairs[i + 1], lt);
        strcpy(grown + (at - text) + lt, at + lf);
        free(text);
        text = grown;
    }
    {
        char *at = strstr(text, "@B@"), *grown;
        if (at) {
            grown = (char *)malloc(strlen(text) + strlen(uri) + 1);
            assert_non_null(grown);
            memcpy(grown, text, (size_t)(at - text));
            strcpy(grown + (at - text), uri);
            strcat(grown, at + 3);
            free(text);
            text = grown;
        }
    }
    free(uri);
    return text;
}

static imp_options defaults(void)
{
    imp_options o;
    memset(&o, 0, sizeof o);
    o.fps = 10;
    return o;
}

static int read_text(const char *text, const imp_options *opt, imp_scene *s, char *err, size_t err_size)
{
    return imp_gltf_read_memory((const unsigned char *)text, strlen(text), NULL, opt, s, err, err_size);
}

/* The edited glTF must fail with exactly this message. */
static void expect_error(int bad_float_at, const char *const *pairs, size_t n, const imp_options *opt,
                         const char *message)
{
    char *text = edit(bad_float_at, pairs, n);
    imp_scene s;
    char err[512];
    imp_options o = defaults();
    int ok;
#ifdef MD2_TEST_WRAP_ALLOC
    long live = alloc_live;
#endif
    ok = read_text(text, opt ? opt : &o, &s, err, sizeof err);
#ifdef MD2_TEST_WRAP_ALLOC
    if (!ok && alloc_live != live)
        fail_msg("\"%s\": %ld blocks left allocated", message, alloc_live - live);
#endif
    free(text);
    if (ok) {
        imp_scene_free(&s);
        fail_msg("read, but the error \"%s\" was expected", message);
    }
    if (strcmp(err, message) != 0)
        fail_msg("error \"%s\", expected \"%s\"", err, message);
    assert_int_equal(s.num_vertices, 0);
    assert_null(s.positions);
}

#define PAIRS(...) ((const char *const[]){__VA_ARGS__})
#define BAD(msg, ...) expect_error(-1, PAIRS(__VA_ARGS__), sizeof PAIRS(__VA_ARGS__) / sizeof(char *) / 2, NULL, msg)

/* BASE's last accessor, and the edit that appends accessor 10 after it */
#define LAST_ACCESSOR "{\"bufferView\":4,\"byteOffset\":136,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}"
#define ACCESSOR_10(json) LAST_ACCESSOR, LAST_ACCESSOR "," json

/* the edit that gives BASE one animation */
#define ANIM(channels, samplers)                                                                             \
    "\"scenes\":[{\"nodes\":[0]}]", "\"scenes\":[{\"nodes\":[0]}],\"animations\":[{\"channels\":[" channels \
                                    "],\"samplers\":[" samplers "]}]"

/* ---- hostile input ------------------------------------------------------------ */

static void test_base_reads(void **state)
{
    char *text = edit(-1, NULL, 0);
    imp_scene s;
    char err[256];
    imp_options o = defaults();
    (void)state;
    assert_true(read_text(text, &o, &s, err, sizeof err));
    free(text);
    assert_int_equal(s.num_frames, 1);
    assert_int_equal(s.num_anims, 0);
    assert_int_equal(s.num_vertices, 3);
    assert_int_equal(s.num_triangles, 1);
    assert_null(s.normals);
    assert_null(s.uv);
    assert_int_equal(s.num_texcoords, 0);
    assert_null(s.tri_material);
    assert_true(s.positions[3] == 1.0f && s.positions[7] == 1.0f);
    assert_int_equal(s.triangles[0], 0);
    assert_int_equal(s.triangles[2], 1);
    assert_int_equal(s.triangles[4], 2);
    imp_scene_free(&s);
}

static void test_not_json(void **state)
{
    (void)state;
    BAD("not JSON: a syntax error near byte 11 of the JSON", "{\"asset\":{\"version\":\"2.0\"},", "{\"asset\":{]");
    BAD("the JSON is not an object", BASE, "[1, 2]");
}

static void test_wrong_types(void **state)
{
    (void)state;
    BAD("meshes: not an array", "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}]",
        "\"meshes\":{}");
    BAD("meshes[0].primitives[0].attributes.POSITION: accessor 0 has no valid count",
        "\"count\":3,\"type\":\"VEC3\"}", "\"count\":\"3\",\"type\":\"VEC3\"}");
    BAD("nodes[0].mesh: not an index (a whole number from 0)", "\"nodes\":[{\"mesh\":0}]", "\"nodes\":[{\"mesh\":\"0\"}]");
    BAD("meshes[0].primitives[0].attributes.POSITION: accessor 0 has no valid type", "\"VEC3\"", "\"VEC5\"");
    BAD("meshes[0].primitives[0].attributes.POSITION: accessor 2 is a SCALAR, a VEC3 is needed",
        "\"attributes\":{\"POSITION\":0}", "\"attributes\":{\"POSITION\":2}");
    BAD("meshes[0].primitives[0].indices: accessor 2 has componentType 5126, an unsigned integer type is needed",
        "\"indices\":1", "\"indices\":2");
    BAD("asset.version: \"1.0\", only glTF 2 is read", "\"2.0\"", "\"1.0\"");
    BAD("nodes[0].matrix: not an array of 16 numbers", "{\"mesh\":0}", "{\"mesh\":0,\"matrix\":[1,0,0]}");
    BAD("meshes[0].primitives[0].attributes: missing or not an object", "\"attributes\":{\"POSITION\":0}",
        "\"attributes\":[0]");
    BAD("meshes[0].primitives[0].attributes.POSITION: missing", "\"attributes\":{\"POSITION\":0}",
        "\"attributes\":{\"NORMAL\":0}");
    BAD("nodes[0].mesh: mesh 3 does not exist (there is 1)", "\"nodes\":[{\"mesh\":0}]", "\"nodes\":[{\"mesh\":3}]");
    BAD("scene: scene 5 does not exist (there are 1)", "\"scenes\":[", "\"scene\":5,\"scenes\":[");
    BAD("scenes: none, so nothing to import", "\"scenes\":[{\"nodes\":[0]}]", "\"scenes\":[]");
    BAD("scenes: the default scene has no triangles", "\"scenes\":[{\"nodes\":[0]}]", "\"scenes\":[{\"nodes\":[]}]");
}

static void test_bytes_out_of_range(void **state)
{
    (void)state;
    BAD("meshes[0].primitives[0].attributes.POSITION: accessor 0 needs 48 bytes, its bufferView has 36",
        "\"count\":3,\"type\":\"VEC3\"}", "\"count\":4,\"type\":\"VEC3\"}");
    BAD("bufferViews[0]: bytes 0 to 400, buffer 0 has 312 (used by meshes[0].primitives[0].attributes.POSITION)",
        "{\"buffer\":0,\"byteLength\":36}", "{\"buffer\":0,\"byteLength\":400}");
    BAD("buffers[0].byteLength: 400 bytes, its data: URI has 312", "\"byteLength\":312", "\"byteLength\":400");
    BAD("meshes[0].primitives[0].attributes.POSITION: accessor 0 has 12-byte elements, its bufferView's byteStride is 8",
        "{\"buffer\":0,\"byteLength\":36}", "{\"buffer\":0,\"byteLength\":36,\"byteStride\":8}");
    BAD("meshes[0].primitives[0].indices: index 2 at position 2 is out of range (POSITION has 2 vertices)",
        "\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"", "\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"");
    BAD("meshes[0].primitives[0].attributes.POSITION: accessor 0: sparse index 0 is 16256, past its 3 elements",
        "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}",
        "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
        "\"indices\":{\"bufferView\":0,\"byteOffset\":14,\"componentType\":5123},\"values\":{\"bufferView\":0}}}");
    BAD("meshes[0].primitives[0].attributes.POSITION: accessor 0: its 2 sparse values need 24 bytes, their bufferView "
        "has 6",
        "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}",
        "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":2,"
        "\"indices\":{\"bufferView\":1,\"componentType\":5123},\"values\":{\"bufferView\":1}}}");
}

/* Counts far beyond the bytes there are fail before anything of that size
 * is allocated. */
static void test_absurd_counts(void **state)
{
    (void)state;
#ifdef MD2_TEST_WRAP_ALLOC
    alloc_reset(0);
#endif
    BAD("meshes[0].primitives[0].attributes.POSITION: accessor 0 needs 25769803776 bytes, its bufferView has 36",
        "\"count\":3,\"type\":\"VEC3\"}", "\"count\":2147483648,\"type\":\"VEC3\"}");
    BAD("meshes[0].primitives[0].attributes.POSITION: accessor 0 has no bufferView and a count of 2147483648, more "
        "than 16777216",
        "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}",
        "{\"componentType\":5126,\"count\":2147483648,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
        "\"indices\":{\"bufferView\":1,\"componentType\":5123},\"values\":{\"bufferView\":0}}}");
    BAD("meshes[0].primitives[0].attributes.POSITION: accessor 0: sparse.count is not a whole number from 1 to 3",
        "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}",
        "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":4000000000,"
        "\"indices\":{\"bufferView\":1,\"componentType\":5123},\"values\":{\"bufferView\":0}}}");
    {
        static const char *const anim[] = {ANIM("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}",
                                                "{\"input\":2,\"output\":3}")};
        imp_options o = defaults();
        o.fps = 1e9;
        expect_error(-1, anim, 1, &o, "animations[0]: 0.7 seconds at 1e+09 keyframes a second is more than 1000000 keyframes");
    }
#ifdef MD2_TEST_WRAP_ALLOC
    assert_true(alloc_largest < 65536);
#endif
}

static void test_hierarchy(void **state)
{
    (void)state;
    BAD("nodes[1].children: node 0 is its own ancestor", "\"nodes\":[{\"mesh\":0}]",
        "\"nodes\":[{\"mesh\":0,\"children\":[1]},{\"children\":[0]}]");
    BAD("nodes[0].children: node 0 is its own ancestor", "\"nodes\":[{\"mesh\":0}]",
        "\"nodes\":[{\"mesh\":0,\"children\":[0]}]");
    BAD("nodes[1].children: node 2 already has a parent, node 0", "\"nodes\":[{\"mesh\":0}]",
        "\"nodes\":[{\"children\":[2]},{\"children\":[2]},{\"mesh\":0}]");
    BAD("nodes[0].children[0]: not the index of a node", "\"nodes\":[{\"mesh\":0}]",
        "\"nodes\":[{\"mesh\":0,\"children\":[9]}]");
    BAD("scenes[0].nodes[0]: node 1 is a child of node 0, not a root", "\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]",
        "\"nodes\":[{\"children\":[1]},{\"mesh\":0}],\"scenes\":[{\"nodes\":[1]}]");
    BAD("scenes[0].nodes[1]: node 0 is listed twice", "\"scenes\":[{\"nodes\":[0]}]", "\"scenes\":[{\"nodes\":[0,0]}]");
}

static void test_not_finite(void **state)
{
    static const char *const anim[] = {
        "\"scenes\":[{\"nodes\":[0]}]",
        "\"scenes\":[{\"nodes\":[0]}],\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,"
        "\"path\":\"translation\"}}],\"samplers\":[{\"input\":2,\"output\":3}]}]"};
    (void)state;
    expect_error(16, NULL, 0, NULL,
                 "meshes[0].primitives[0].attributes.POSITION: accessor 0 element 1 is not a finite number");
    expect_error(64, anim, 1, NULL, "animations[0].samplers[0].output: accessor 3 element 1 is not a finite number");
    expect_error(48, anim, 1, NULL, "animations[0].samplers[0].input: accessor 2 element 1 is not a finite number");
    {
        static const char *const skin[] = {"{\"mesh\":0}", "{\"mesh\":0,\"skin\":0}", "\"scenes\"",
                                           "\"skins\":[{\"joints\":[0],\"inverseBindMatrices\":4}],\"scenes\""};
        expect_error(80, skin, 2, NULL, "skins[0].inverseBindMatrices: accessor 4 element 0 is not a finite number");
    }
    BAD("nodes[0].matrix[0]: not a finite number", "{\"mesh\":0}",
        "{\"mesh\":0,\"matrix\":[1e999,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}");
    BAD("nodes[0].translation[1]: not a finite number", "{\"mesh\":0}", "{\"mesh\":0,\"translation\":[0,-1e400,0]}");
    BAD("nodes[0]: a vertex of mesh 0 leaves the range of a float at keyframe 0", "{\"mesh\":0}",
        "{\"mesh\":0,\"scale\":[1e300,1,1]}");
}

static void test_buffers(void **state)
{
    unsigned char data[] = "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":12,\"uri\":\"no%20such.bin\"}],"
                           "\"bufferViews\":[{\"buffer\":0,\"byteLength\":12}],\"accessors\":[{\"bufferView\":0,"
                           "\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],\"meshes\":[{\"primitives\":"
                           "[{\"attributes\":{\"POSITION\":0}}]}],\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]}";
    imp_scene s;
    char err[256];
    imp_options o = defaults();
    (void)state;
    assert_false(imp_gltf_read_memory(data, sizeof data - 1, ".", &o, &s, err, sizeof err));
    assert_string_equal(err, "buffers[0].uri: cannot open ./no such.bin: no such file or directory");
    assert_false(imp_gltf_read_memory(data, sizeof data - 1, NULL, &o, &s, err, sizeof err));
    assert_string_equal(err, "buffers[0].uri: \"no%20such.bin\" is an external file, which is not read here");
    BAD("buffers[0].uri: bad base64 at character 3 of the data", "\"@B@\"",
        "\"data:application/octet-stream;base64,AAA*\"");
    BAD("buffers[0].uri: a data: URI that is not base64", "\"@B@\"", "\"data:text/plain,hello\"");
    BAD("buffers[0].uri: bad base64 (5 characters)", "\"@B@\"", "\"data:;base64,AAAAA\"");
    BAD("buffers[0].uri: \"http://example.com/a.bin\" is not a relative file path", "\"@B@\"",
        "\"http://example.com/a.bin\"");
    BAD("buffers[0]: no uri, and no GLB binary chunk", "\"byteLength\":312,\"uri\":\"@B@\"", "\"byteLength\":312");
}

/* A .glb of BASE's JSON (the buffer in the binary chunk), then edited. */
static unsigned char *glb(size_t *size)
{
    static const char *const no_uri[] = {",\"uri\":\"@B@\"", ""};
    char *json = edit(-1, no_uri, 1);
    size_t jl = (strlen(json) + 3) & ~(size_t)3, total = 12 + 8 + jl + 8 + BUF_SIZE, i;
    unsigned char *g = (unsigned char *)calloc(total, 1);
    assert_non_null(g);
    memcpy(g, "glTF", 4);
    g[4] = 2;
    for (i = 0; i < 4; i++) {
        g[8 + i] = (unsigned char)(total >> (8 * i));
        g[12 + i] = (unsigned char)(jl >> (8 * i));
        g[20 + jl + i] = (unsigned char)(BUF_SIZE >> (8 * i));
    }
    memcpy(g + 16, "JSON", 4);
    memset(g + 20, ' ', jl);
    memcpy(g + 20, json, strlen(json));
    memcpy(g + 24 + jl, "BIN", 4);
    make_buffer(g + 28 + jl, -1);
    free(json);
    *size = total;
    return g;
}

static void expect_glb(const unsigned char *g, size_t size, const char *message)
{
    imp_scene s;
    char err[256];
    imp_options o = defaults();
    assert_false(imp_gltf_read_memory(g, size, NULL, &o, &s, err, sizeof err));
    assert_string_equal(err, message);
}

static void put32(unsigned char *p, size_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static void test_glb(void **state)
{
    size_t size, jl;
    unsigned char *g = glb(&size);
    imp_scene s;
    char err[256], msg[256];
    imp_options o = defaults();
    (void)state;
    assert_true(imp_gltf_read_memory(g, size, NULL, &o, &s, err, sizeof err));
    assert_int_equal(s.num_vertices, 3);
    imp_scene_free(&s);
    jl = (size_t)g[12] | (size_t)g[13] << 8;
    sprintf(msg, "GLB header: length %lu, the file has %lu bytes (truncated?)", (unsigned long)size,
            (unsigned long)(size - 1));
    expect_glb(g, size - 1, msg);
    {
        /* a chunk of another type after the binary one: skipped */
        unsigned char *h = (unsigned char *)calloc(size + 12, 1);
        assert_non_null(h);
        memcpy(h, g, size);
        put32(h + 8, size + 12);
        put32(h + size, 4);
        memcpy(h + size + 4, "XTRA", 4);
        assert_true(imp_gltf_read_memory(h, size + 12, NULL, &o, &s, err, sizeof err));
        assert_int_equal(s.num_vertices, 3);
        imp_scene_free(&s);
        free(h);
    }
    expect_glb(g, 10, "GLB header: 10 bytes, a header has 12");
    g[4] = 1;
    expect_glb(g, size, "GLB header: version 1, only 2 is read");
    g[4] = 2;
    g[16] = 'X';
    expect_glb(g, size, "GLB chunk 0: type 0x4e4f5358, the first chunk must be JSON (0x4e4f534a)");
    g[16] = 'J';
    put32(g + 20 + jl, BUF_SIZE + 200); /* the binary chunk's length */
    sprintf(msg, "GLB chunk at byte %lu: length %lu runs past the end of the file (%lu bytes)",
            (unsigned long)(20 + jl), (unsigned long)(BUF_SIZE + 200), (unsigned long)size);
    expect_glb(g, size, msg);
    put32(g + 20 + jl, BUF_SIZE - 40); /* a binary chunk shorter than the buffer */
    put32(g + 8, size - 40);
    expect_glb(g, size - 40, "buffers[0].byteLength: 312 bytes, the GLB binary chunk has 272");
    put32(g + 8, size);
    put32(g + 20 + jl, BUF_SIZE);
    put32(g + 12, jl + 0x10000000u); /* the JSON chunk's length */
    sprintf(msg, "GLB chunk 0: length %lu at byte 20 runs past the end of the file (%lu bytes)",
            (unsigned long)(jl + 0x10000000u), (unsigned long)size);
    expect_glb(g, size, msg);
    free(g);
}

static void test_extensions(void **state)
{
    imp_scene s;
    char err[256];
    imp_options o = defaults();
    static const char *const quant[] = {"\"asset\":", "\"extensionsRequired\":[\"KHR_mesh_quantization\"],\"asset\":"};
    char *text = edit(-1, quant, 1);
    (void)state;
    assert_true(read_text(text, &o, &s, err, sizeof err));
    imp_scene_free(&s);
    free(text);
    BAD("extensionsRequired[1]: KHR_draco_mesh_compression is not supported", "\"asset\":",
        "\"extensionsRequired\":[\"KHR_mesh_quantization\",\"KHR_draco_mesh_compression\"],\"asset\":");
    BAD("extensionsRequired[0]: not a string", "\"asset\":", "\"extensionsRequired\":[7],\"asset\":");
}

static void test_animation_errors(void **state)
{
    imp_options o = defaults();
    static const char *const names[] = {
        ANIM("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}", "{\"input\":2,\"output\":3}"),
        "\"animations\":[{", "\"animations\":[{\"name\":\"walk\",\"channels\":[]},{"};
    static const char *const wanted[] = {"walk", "run"};
    (void)state;
    BAD("animations[0].channels[0].target.path: \"size\" is not a glTF 2.0 path",
        ANIM("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"size\"}}", "{\"input\":2,\"output\":3}"));
    BAD("animations[0].samplers[0].output: 2 values for 2 keys, 6 are needed",
        ANIM("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}",
             "{\"input\":2,\"output\":3,\"interpolation\":\"CUBICSPLINE\"}"));
    BAD("animations[0].samplers[0].interpolation: not LINEAR, STEP or CUBICSPLINE",
        ANIM("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}",
             "{\"input\":2,\"output\":3,\"interpolation\":\"SMOOTH\"}"));
    BAD("animations[0].channels[0].sampler: sampler 4 does not exist (there is 1)",
        ANIM("{\"sampler\":4,\"target\":{\"node\":0,\"path\":\"translation\"}}", "{\"input\":2,\"output\":3}"));
    BAD("animations[0].channels[0].target: node 0's mesh 0 has no morph targets",
        ANIM("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}", "{\"input\":2,\"output\":3}"));
    BAD("animations[0].channels[0].target: node 0 has a matrix, which an animation cannot drive",
        ANIM("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}", "{\"input\":2,\"output\":3}"),
        "{\"mesh\":0}", "{\"mesh\":0,\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}");
    BAD("animations[0].samplers[0].input: time 0 of key 1 comes before key 0's 0.7",
        ANIM("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}", "{\"input\":10,\"output\":3}"),
        ACCESSOR_10("{\"bufferView\":2,\"byteOffset\":4,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"}"));
    o.anims = wanted;
    o.num_anims = 2;
    expect_error(-1, names, 2, &o, "--anim run: no animation of that name; there are: \"walk\", \"anim1\"");
}

static void test_mesh_errors(void **state)
{
    (void)state;
    BAD("meshes[0].weights: 2 weights for 0 morph targets", "\"indices\":1}]", "\"indices\":1}],\"weights\":[0,1]");
    BAD("meshes[0].primitives[1].targets: 1 morph targets, the mesh's first triangle primitive has 0",
        "\"indices\":1}]", "\"indices\":1},{\"attributes\":{\"POSITION\":0},\"targets\":[{\"POSITION\":0}]}]");
    BAD("nodes[0].weights: not an array of 0 numbers, one for each morph target of mesh 0", "{\"mesh\":0}",
        "{\"mesh\":0,\"weights\":[1]}");
    BAD("meshes[0].primitives[0].attributes.NORMAL: accessor 9 has 3 elements, POSITION has 2",
        "\"attributes\":{\"POSITION\":0}", "\"attributes\":{\"POSITION\":0,\"NORMAL\":9}",
        "\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"", "\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"",
        "\"indices\":1", "\"mode\":4");
    BAD("meshes[0].primitives[0].attributes.JOINTS_0: joint 1 of vertex 0, skin 0 has 1 joints",
        "\"attributes\":{\"POSITION\":0}", "\"attributes\":{\"POSITION\":0,\"JOINTS_0\":7,\"WEIGHTS_0\":8}",
        "{\"mesh\":0}", "{\"mesh\":0,\"skin\":0}", "\"scenes\"", "\"skins\":[{\"joints\":[0]}],\"scenes\"");
    BAD("meshes[0].primitives[0].attributes.WEIGHTS_0: missing", "\"attributes\":{\"POSITION\":0}",
        "\"attributes\":{\"POSITION\":0,\"JOINTS_0\":5}");
    BAD("materials[0].pbrMetallicRoughness.baseColorTexture.index: texture 0 does not exist (there are 0)", "\"scenes\"",
        "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],\"scenes\"");
    BAD("images[0]: neither a uri nor a bufferView", "\"scenes\"",
        "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],\"textures\":[{\"source\":0}],"
        "\"images\":[{}],\"scenes\"");
}

/* ---- what three.js does not judge ------------------------------------------------ */

static void read_ok(const char *const *pairs, size_t n, const imp_options *opt, imp_scene *s)
{
    char err[512];
    char *text = edit(-1, pairs, n);
    imp_options o = defaults();
    int ok = read_text(text, opt ? opt : &o, s, err, sizeof err);
    free(text);
    if (!ok)
        fail_msg("not read: %s", err);
}

/* Two sets of joints (JOINTS_1, WEIGHTS_1): vertex = 0.5 joint 0 (at
 * rest) + 0.5 joint 1 (moved up by 2): up by 1. Normals follow a skinned
 * joint's rotation. */
static void test_second_joint_set(void **state)
{
    static const char *const p[] = {
        "\"attributes\":{\"POSITION\":0}",
        "\"attributes\":{\"POSITION\":0,\"NORMAL\":9,\"JOINTS_0\":5,\"WEIGHTS_0\":6,\"JOINTS_1\":7,\"WEIGHTS_1\":8}",
        "\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]",
        "\"nodes\":[{\"mesh\":0,\"skin\":0,\"translation\":[9,9,9]},{\"children\":[2]},{\"translation\":[0,2,0],"
        "\"rotation\":[0,0,0.7071067811865476,0.7071067811865476]}],\"skins\":[{\"joints\":[1,2]}],"
        "\"scenes\":[{\"nodes\":[0,1]}]"};
    imp_scene s;
    size_t v;
    (void)state;
    read_ok(p, 2, NULL, &s);
    for (v = 0; v < 3; v++) {
        /* 0.5 p + 0.5 (R p + (0, 2, 0)), R a quarter turn about z */
        const float *q = s.positions + 3 * v;
        float px = v == 1 ? 1.0f : 0.0f, py = v == 2 ? 1.0f : 0.0f;
        assert_true(fabsf(q[0] - 0.5f * (px - py)) < 1e-6f);
        assert_true(fabsf(q[1] - 0.5f * (py + px + 2)) < 1e-6f);
        assert_true(fabsf(q[2]) < 1e-6f);
        /* the normal (1, 0, 0) under 0.5 I + 0.5 R: (1, 1, 0) normalised */
        assert_non_null(s.normals);
        assert_true(fabsf(s.normals[3 * v] - 0.70710678f) < 1e-6f);
        assert_true(fabsf(s.normals[3 * v + 1] - 0.70710678f) < 1e-6f);
    }
    imp_scene_free(&s);
}

/* A vertex whose weights are all 0 follows the first joint of its JOINTS_0
 * (as three.js's normalizeSkinWeights() has it); inverse bind matrices
 * absent: identities. WEIGHTS_0 here: zeros (a sparse accessor without a
 * view whose one value is 0); JOINTS_0 (1, 0, 0, 0): skin joint 1, node 2,
 * moved by (3, 0, 0). */
static void test_zero_weights(void **state)
{
    static const char *const p[] = {
        "\"attributes\":{\"POSITION\":0}", "\"attributes\":{\"POSITION\":0,\"JOINTS_0\":7,\"WEIGHTS_0\":10}",
        "\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]",
        "\"nodes\":[{\"mesh\":0,\"skin\":0},{\"translation\":[0,0,5]},{\"translation\":[3,0,0]}],"
        "\"skins\":[{\"joints\":[1,2]}],\"scenes\":[{\"nodes\":[0,1,2]}]",
        ACCESSOR_10("{\"componentType\":5126,\"count\":3,\"type\":\"VEC4\",\"sparse\":{\"count\":1,\"indices\":{"
                    "\"bufferView\":4,\"componentType\":5121},\"values\":{\"bufferView\":4,\"byteOffset\":120}}}")};
    imp_scene s;
    (void)state;
    read_ok(p, 3, NULL, &s);
    assert_true(fabsf(s.positions[0] - 3.0f) < 1e-6f);
    assert_true(fabsf(s.positions[3] - 4.0f) < 1e-6f);
    assert_true(fabsf(s.positions[6] - 3.0f) < 1e-6f && fabsf(s.positions[7] - 1.0f) < 1e-6f);
    assert_true(fabsf(s.positions[2]) < 1e-6f);
    imp_scene_free(&s);
}

/* 0.7 s at 10 fps: the float 0.7 is 0.69999999, times 10 is 6.9999999,
 * which must give 7 steps (8 keyframes), the last at the last key. */
static void test_keyframe_rounding(void **state)
{
    static const char *const p[] = {
        ANIM("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}", "{\"input\":2,\"output\":3}")};
    imp_scene s;
    imp_options o = defaults();
    (void)state;
    read_ok(p, 1, &o, &s);
    assert_int_equal(s.num_frames, 8);
    assert_int_equal(s.num_anims, 1);
    assert_string_equal(s.anims[0].name, "anim0");
    assert_int_equal(s.anims[0].num_frames, 8);
    assert_true(s.anims[0].fps == 10);
    assert_true(fabsf(s.positions[3 * 3 * 7] - 1.0f) < 1e-6f);        /* last: at (1, 0, 0) */
    assert_true(fabsf(s.positions[3 * 3 * 1] - 1.0f / 7.0f) < 1e-6f); /* 0.1 s of 0.7 */
    imp_scene_free(&s);
    o.fps = 20; /* 13.9999998: 15 keyframes */
    read_ok(p, 1, &o, &s);
    assert_int_equal(s.num_frames, 15);
    imp_scene_free(&s);
}

/* The budget: refused up front, with the numbers. */
static void test_budget(void **state)
{
    imp_options o = defaults();
    static const char *const p[] = {
        ANIM("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}", "{\"input\":2,\"output\":3}")};
    imp_scene s;
    (void)state;
    /* every cost counts: the nodes (512 bytes each) first, the accessors
     * decoded and the triangles (96 bytes each) as they come, then the
     * positions (688 bytes counted before them here) */
    o.max_bytes = 100;
    expect_error(-1, p, 1, &o, "nodes: the nodes would take the scene past the 100 bytes allowed (512 bytes so far)");
    o.max_bytes = 664;
    expect_error(-1, p, 1, &o, "animations[0].samplers[0].output: accessor 3 (24 bytes decoded) would take the scene "
                               "past the 664 bytes allowed (688 bytes so far)");
    o.max_bytes = 900;
    expect_error(-1, p, 1, &o, "the scene needs 288 bytes for 8 keyframes of 3 vertices besides the 688 counted before, "
                               "more than the 900 allowed");
    o.max_bytes = 976;
    read_ok(p, 1, &o, &s);
    imp_scene_free(&s);
    /* the poses: 8 keyframes of one node and one channel */
    o.max_work = 15;
    expect_error(-1, p, 1, &o, "animations: 8 keyframes of 1 nodes and 1 channels are 16 poses, more than the 15 allowed");
    o.max_work = 16;
    read_ok(p, 1, &o, &s);
    imp_scene_free(&s);
    o.max_nodes = 1;
    read_ok(p, 1, &o, &s);
    imp_scene_free(&s);
    {
        /* with normals, twice that */
        static const char *const q[] = {
            ANIM("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}", "{\"input\":2,\"output\":3}"),
            "\"attributes\":{\"POSITION\":0}", "\"attributes\":{\"POSITION\":0,\"NORMAL\":9}"};
        expect_error(-1, q, 2, &o, "the scene needs 576 bytes for 8 keyframes of 3 vertices besides the 724 counted "
                                   "before, more than the 976 allowed");
    }
}

/* Normals only when every primitive has NORMAL. */
static void test_normals_all_or_none(void **state)
{
    static const char *const p[] = {"\"indices\":1}]", "\"indices\":1},{\"attributes\":{\"POSITION\":0,\"NORMAL\":9}}]"};
    static const char *const q[] = {"\"attributes\":{\"POSITION\":0}", "\"attributes\":{\"POSITION\":0,\"NORMAL\":9}"};
    imp_scene s;
    (void)state;
    read_ok(p, 1, NULL, &s);
    assert_int_equal(s.num_vertices, 6);
    assert_null(s.normals);
    imp_scene_free(&s);
    read_ok(q, 1, NULL, &s);
    assert_non_null(s.normals);
    assert_true(s.normals[0] == 1.0f);
    imp_scene_free(&s);
}

/* Indices not a multiple of 3: the rest dropped, with a note. A primitive
 * without TEXCOORD_0 beside one with: (0, 0). A skinned node whose
 * primitive has no JOINTS_0: an ordinary mesh, its node transform
 * applied. */
static void test_odd_cases(void **state)
{
    static const char *const p[] = {
        "\"indices\":1}]",
        "\"indices\":1},{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":10},\"mode\":4,\"indices\":11}]",
        "{\"mesh\":0}", "{\"mesh\":0,\"skin\":0,\"translation\":[0,0,2]}",
        "\"scenes\"", "\"skins\":[{\"joints\":[0]}],\"scenes\"",
        ACCESSOR_10("{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC2\"},"
                    "{\"bufferView\":1,\"componentType\":5121,\"count\":4,\"type\":\"SCALAR\"}")};
    imp_scene s;
    (void)state;
    read_ok(p, 4, NULL, &s);
    assert_int_equal(s.num_vertices, 6);
    assert_int_equal(s.num_triangles, 2);
    assert_int_equal(s.num_notes, 1);
    assert_string_equal(s.notes[0], "meshes[0].primitives[1]: 4 indices, not a multiple of 3: the last 1 skipped");
    assert_int_equal(s.num_texcoords, 6);
    assert_true(s.uv[0] == 0 && s.uv[1] == 0 && s.uv[4] == 0 && s.uv[5] == 0); /* primitive 0 has none */
    /* primitive 1's: the positions' floats two at a time: (0, 0), (0, 1), (0, 0) */
    assert_true(s.uv[6] == 0 && s.uv[7] == 0 && s.uv[8] == 0 && s.uv[9] == 1 && s.uv[10] == 0 && s.uv[11] == 0);
    assert_true(s.positions[2] == 2 && s.positions[11] == 2);                 /* translated: not skinned */
    /* primitive 1's 8-bit indices: the bytes of 16-bit 0, 1: 0 0 1 (then 0, dropped), after vertex 2 */
    assert_int_equal(s.triangles[6], 3);
    assert_int_equal(s.triangles[8], 3);
    assert_int_equal(s.triangles[10], 4);
    imp_scene_free(&s);
}

/* A channel that drives no node (KHR_animation_pointer's, or one without
 * a node): skipped, with a note; its animation, with nothing left, is one
 * keyframe of the rest pose. A texture without a source (an extension's
 * image only): untextured, with a note. A material without a name is
 * named by its path. */
static void test_skipped(void **state)
{
    static const char *const p[] = {
        ANIM("{\"sampler\":0,\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":"
             "{\"pointer\":\"/nodes/0/translation\"}}}}",
             "{\"input\":2,\"output\":3}"),
        "\"indices\":1}]", "\"indices\":1,\"material\":1}]",
        "\"nodes\"",
        ("\"materials\":[{\"name\":\"named\"},{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],"
         "\"textures\":[{\"extensions\":{\"EXT_texture_webp\":{\"source\":0}}}],\"images\":[{\"uri\":\"x.webp\"}],"
         "\"nodes\"")};
    imp_scene s;
    (void)state;
    read_ok(p, 3, NULL, &s);
    assert_int_equal(s.num_anims, 1);
    assert_int_equal(s.num_frames, 1);
    assert_int_equal(s.anims[0].num_frames, 1);
    assert_int_equal(s.num_notes, 2);
    assert_string_equal(s.notes[0],
                        "animations[0].channels[0]: a target other than a node's transform or weights, skipped");
    assert_string_equal(s.notes[1],
                        "textures[0]: no source image (an extension's only), materials[1] untextured");
    assert_int_equal(s.num_materials, 2);
    assert_string_equal(s.material_names[0], "named");
    assert_string_equal(s.material_names[1], "materials[1]");
    assert_int_equal(s.material_image[1], -1);
    assert_int_equal(s.num_images, 0);
    assert_int_equal(s.tri_material[0], 1);
    imp_scene_free(&s);
}

/* ---- every allocation failing in turn ------------------------------------------------ */

static const char *const *seeds;
static size_t num_seeds;

#ifdef MD2_TEST_WRAP_ALLOC
static void *hook_malloc(size_t size)
{
    return __wrap_malloc(size);
}

static void hook_free(void *p)
{
    __wrap_free(p);
}
#endif

static void test_each_alloc_fails(void **state)
{
#ifdef MD2_TEST_WRAP_ALLOC
    size_t k;
    (void)state;
    for (k = 0; k < num_seeds; k++) {
        imp_scene s;
        char err[512];
        imp_options o = defaults();
        long total, n, live;
        alloc_reset(0);
        live = alloc_live;
        if (!imp_gltf_read(seeds[k], &o, &s, err, sizeof err))
            fail_msg("%s: %s", seeds[k], err);
        imp_scene_free(&s);
        total = alloc_calls;
        assert_int_equal(alloc_live, live);
        for (n = 1; n <= total; n++) {
            alloc_reset(n);
            err[0] = '\0';
            if (imp_gltf_read(seeds[k], &o, &s, err, sizeof err)) {
                imp_scene_free(&s);
                fail_msg("%s: allocation %ld of %ld failing: read anyway", seeds[k], n, total);
            }
            if (!err[0])
                fail_msg("%s: allocation %ld of %ld failing: no message", seeds[k], n, total);
            if (alloc_live != live)
                fail_msg("%s: allocation %ld of %ld failing: %ld blocks left", seeds[k], n, total, alloc_live - live);
            assert_null(s.positions);
        }
        alloc_reset(0);
        printf("%s: each of its %ld allocations failed in turn, cleanly\n", seeds[k], total);
    }
#else
    (void)state;
    skip();
#endif
}

int main(int argc, char **argv)
{
    static const char *const corpus[] = {MD2_GLTF_CORPUS "/skin.glb", MD2_GLTF_CORPUS "/morph_embedded.gltf",
                                         MD2_GLTF_CORPUS "/hierarchy.glb", MD2_GLTF_CORPUS "/samplers.glb",
                                         MD2_GLTF_CORPUS "/accessors.glb", MD2_GLTF_CORPUS "/exported.glb"};
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_reads),        cmocka_unit_test(test_not_json),
        cmocka_unit_test(test_wrong_types),       cmocka_unit_test(test_bytes_out_of_range),
        cmocka_unit_test(test_absurd_counts),     cmocka_unit_test(test_hierarchy),
        cmocka_unit_test(test_not_finite),        cmocka_unit_test(test_buffers),
        cmocka_unit_test(test_glb),               cmocka_unit_test(test_extensions),
        cmocka_unit_test(test_animation_errors),  cmocka_unit_test(test_mesh_errors),
        cmocka_unit_test(test_second_joint_set),  cmocka_unit_test(test_zero_weights),
        cmocka_unit_test(test_keyframe_rounding), cmocka_unit_test(test_budget),
        cmocka_unit_test(test_normals_all_or_none), cmocka_unit_test(test_odd_cases),
        cmocka_unit_test(test_skipped),           cmocka_unit_test(test_each_alloc_fails),
    };
#ifdef MD2_TEST_WRAP_ALLOC
    cJSON_Hooks hooks;
    hooks.malloc_fn = hook_malloc;
    hooks.free_fn = hook_free;
    cJSON_InitHooks(&hooks);
#endif
    if (argc > 1) {
        seeds = (const char *const *)(argv + 1);
        num_seeds = (size_t)argc - 1;
    } else {
        seeds = corpus;
        num_seeds = sizeof corpus / sizeof corpus[0];
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
