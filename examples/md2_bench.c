/*
 * md2_bench - measures libmd2 against memcpy of the same number of bytes,
 * and its memory use against the file and against decompressed frames.
 *
 * Usage: md2_bench [MODEL.md2]     (default: the bundled sample model,
 *                                   MD2_EXAMPLES_DIR/models/crystal.md2)
 *        md2_bench --help
 *
 * It only measures and prints; it asserts nothing about speed. Each
 * measurement is calibrated to take about 0.2 s of CPU time (clock()), so a
 * run takes about 2 seconds. Rows:
 *
 *   md2_parse           parse the whole file from memory and free the
 *                       model, against memcpy of the file's bytes
 *   md2_lerp            blend two keyframes into positions and normals
 *                       (3 + 3 floats a vertex), walking all frame pairs,
 *                       against memcpy of those output bytes
 *   lerp + normalize    the same, then md2_normalize() on the normals
 *   md2_write           serialise the model into a buffer, against memcpy
 *                       of the file's bytes
 *   md2_mesh_build      weld the triangle list into a draw-ready mesh and
 *                       free it, per triangle, against memcpy of the
 *                       triangles' 12 bytes each
 *   md2_mesh_lerp       blend two keyframes into the default interleaved
 *                       layout (position, normal, uv: 32 bytes a welded
 *                       vertex), per welded vertex, against memcpy of
 *                       those output bytes
 *
 * Then it builds a mesh of a synthetic model of 65,000 triangles with no
 * two corners alike (195,000 welded vertices) and prints the time.
 *
 * "ratio" is the library's time divided by memcpy's: how many memcpys of
 * the same bytes one call costs. The memory lines compare
 * md2_model_memory() with the file size and with the alternative of
 * keeping every frame decompressed (num_frames * num_vertices * 6 floats).
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>
#include <md2/mesh.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef MD2_EXAMPLES_DIR
#define MD2_EXAMPLES_DIR "examples"
#endif

#define DEFAULT_MODEL MD2_EXAMPLES_DIR "/models/crystal.md2"

/* CPU seconds each measurement aims at, and the shortest calibration run
 * that is trusted to estimate the speed. */
#define TARGET_SECONDS 0.2
#define CALIBRATE_SECONDS 0.02

/* Results land here so the compiler cannot drop the work. */
static volatile unsigned long sink;

/* memcpy through a volatile pointer: never inlined, never elided. */
static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;

typedef struct bench {
    const unsigned char *file;  /* the file's bytes */
    size_t file_size;
    const md2_model *model;
    unsigned char *out;         /* md2_write / memcpy destination */
    size_t out_size;
    float *positions, *normals; /* lerp output */
    float *copy_src;            /* memcpy source for the lerp baseline */
    size_t lerp_bytes;          /* num_vertices * 6 floats */
    uint32_t frame;             /* next frame pair for lerp */
    const md2_mesh *mesh;       /* the model's mesh */
    float *mesh_out;            /* md2_mesh_lerp output, 8 floats a vertex */
    float *mesh_src;            /* memcpy source of the same size */
    size_t mesh_bytes;
    size_t tri_bytes;           /* 12 bytes a triangle */
} bench;

typedef void (*bench_fn)(bench *b, long reps);

static void run_parse(bench *b, long reps)
{
    long i;
    for (i = 0; i < reps; i++) {
        md2_model *m = NULL;
        if (md2_parse(b->file, b->file_size, NULL, &m) == MD2_OK)
            sink += (unsigned long)m->num_vertices;
        md2_free(m);
    }
}

static void run_copy_file(bench *b, long reps)
{
    long i;
    for (i = 0; i < reps; i++) {
        copy_fn(b->out, b->file, b->file_size);
        sink += b->out[(size_t)i % b->file_size];
    }
}

static void lerp_loop(bench *b, long reps, int unit)
{
    const md2_model *m = b->model;
    long i;
    for (i = 0; i < reps; i++) {
        uint32_t fa = b->frame, fb = (uint32_t)((fa + 1) % m->num_frames);
        float t = (float)(i & 7) * 0.125f + 0.0625f; /* never 0 or 1 */
        if (md2_lerp(m, fa, fb, t, b->positions, 0, b->normals, 0) == MD2_OK &&
            (!unit || md2_normalize(b->normals, m->num_vertices, 0) == MD2_OK))
            sink += (unsigned long)(b->positions[0] > b->normals[0]);
        b->frame = fb;
    }
}

static void run_lerp(bench *b, long reps) { lerp_loop(b, reps, 0); }

static void run_lerp_unit(bench *b, long reps)
{
    lerp_loop(b, reps, 1);
}

static void run_copy_lerp(bench *b, long reps)
{
    long i;
    for (i = 0; i < reps; i++) {
        copy_fn(b->positions, b->copy_src, b->lerp_bytes);
        sink += (unsigned long)(b->positions[0] > 0.5f);
    }
}

static void run_write(bench *b, long reps)
{
    long i;
    for (i = 0; i < reps; i++) {
        size_t written = 0;
        if (md2_write(b->model, b->out, b->out_size, &written, NULL) ==
            MD2_OK)
            sink += b->out[written - 1];
    }
}

static double seconds(clock_t a, clock_t b);

static void run_mesh_build(bench *b, long reps)
{
    long i;
    for (i = 0; i < reps; i++) {
        md2_mesh *mesh = NULL;
        if (md2_mesh_build(b->model, NULL, &mesh) == MD2_OK)
            sink += (unsigned long)mesh->num_vertices;
        md2_mesh_free(mesh);
    }
}

static void run_copy_tris(bench *b, long reps)
{
    long i;
    for (i = 0; i < reps; i++) {
        copy_fn(b->out, b->model->triangles, b->tri_bytes);
        sink += b->out[0];
    }
}

static void run_mesh_lerp(bench *b, long reps)
{
    const md2_model *m = b->model;
    md2_vertex_layout l = md2_layout_default(0);
    long i;
    for (i = 0; i < reps; i++) {
        uint32_t fa = b->frame, fb = (uint32_t)((fa + 1) % m->num_frames);
        float t = (float)(i & 7) * 0.125f + 0.0625f; /* never 0 or 1 */
        if (md2_mesh_lerp(b->mesh, m, fa, fb, t, b->mesh_out, &l) == MD2_OK)
            sink += (unsigned long)(b->mesh_out[0] > b->mesh_out[3]);
        b->frame = fb;
    }
}

static void run_copy_mesh(bench *b, long reps)
{
    long i;
    for (i = 0; i < reps; i++) {
        copy_fn(b->mesh_out, b->mesh_src, b->mesh_bytes);
        sink += (unsigned long)(b->mesh_out[0] > 0.0f);
    }
}

/* Builds a mesh of a synthetic model of n triangles whose 3 n corners all
 * differ; returns the CPU seconds, or a negative number on failure. */
static double time_big_mesh(size_t n, size_t *welded)
{
    md2_model m;
    md2_frame frame;
    md2_vertex verts[3];
    md2_texcoord *st = (md2_texcoord *)malloc(n * sizeof *st);
    md2_triangle *tris = (md2_triangle *)malloc(n * sizeof *tris);
    md2_mesh *mesh = NULL;
    double dt = -1.0;

    if (st && tris && n <= 65536) {
        size_t i;
        clock_t t0;
        int k;
        memset(&m, 0, sizeof m);
        memset(&frame, 0, sizeof frame);
        memset(verts, 0, sizeof verts);
        frame.vertices = verts;
        for (i = 0; i < n; i++) {
            st[i].s = (int16_t)(i % 251);
            st[i].t = (int16_t)(i / 251);
            for (k = 0; k < 3; k++) {
                tris[i].vertex[k] = (uint16_t)k;
                tris[i].texcoord[k] = (uint16_t)i;
            }
        }
        m.skin_width = m.skin_height = 256;
        m.num_vertices = 3;
        m.num_texcoords = n;
        m.texcoords = st;
        m.num_triangles = n;
        m.triangles = tris;
        m.num_frames = 1;
        m.frames = &frame;
        t0 = clock();
        if (md2_mesh_build(&m, NULL, &mesh) == MD2_OK) {
            dt = seconds(t0, clock());
            *welded = mesh->num_vertices;
        }
        md2_mesh_free(mesh);
    }
    free(st);
    free(tris);
    return dt;
}

static double seconds(clock_t a, clock_t b)
{
    return (double)(b - a) / (double)CLOCKS_PER_SEC;
}

/* Seconds one call of fn takes: find a repetition count that runs for
 * CALIBRATE_SECONDS, scale it to TARGET_SECONDS and time that. */
static double measure(bench_fn fn, bench *b)
{
    long reps = 1;
    double dt;
    clock_t t0;

    for (;;) {
        t0 = clock();
        fn(b, reps);
        dt = seconds(t0, clock());
        if (dt >= CALIBRATE_SECONDS || reps > 0x3FFFFFFFL / 4)
            break;
        reps *= dt > 0.0 && dt * 10.0 >= CALIBRATE_SECONDS ? 2 : 4;
    }
    if (dt > 0.0 && dt < TARGET_SECONDS) {
        double want = (double)reps * TARGET_SECONDS / dt;
        reps = want > 0x3FFFFFFFL ? 0x3FFFFFFFL : (long)want;
        t0 = clock();
        fn(b, reps);
        dt = seconds(t0, clock());
    }
    return dt / (double)reps;
}

/* A time in readable units, in a 10-character column. */
static void print_time(double s)
{
    if (s >= 1e-3)
        printf("%8.3f ms", s * 1e3);
    else if (s >= 1e-6)
        printf("%8.3f us", s * 1e6);
    else
        printf("%8.1f ns", s * 1e9);
}

static void row(const char *name, double t_lib, double t_copy, size_t units,
                const char *unit)
{
    printf("%-18s ", name);
    print_time(t_lib);
    printf("  %8.2f ns/%-6s ", t_lib * 1e9 / (double)units, unit);
    print_time(t_copy);
    printf("  %7.1fx\n", t_copy > 0.0 ? t_lib / t_copy : 0.0);
}

/* Reads a whole file with standard C; returns NULL on failure. */
static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    unsigned char *data = NULL;
    size_t cap = 0, len = 0;

    if (!fp)
        return NULL;
    for (;;) {
        size_t got;
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            unsigned char *p = (unsigned char *)realloc(data, ncap);
            if (!p) {
                free(data);
                fclose(fp);
                return NULL;
            }
            data = p;
            cap = ncap;
        }
        got = fread(data + len, 1, cap - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(fp) || len == 0) {
        free(data);
        fclose(fp);
        return NULL;
    }
    fclose(fp);
    *size = len;
    return data;
}

int main(int argc, char **argv)
{
    const char *path = DEFAULT_MODEL;
    md2_diagnostic diag;
    md2_options opts;
    md2_model *m = NULL;
    bench b;
    md2_result r;
    double t_parse, t_copy_file, t_lerp, t_lerp_unit, t_copy_lerp, t_write;
    double t_mesh_build, t_copy_tris, t_mesh_lerp, t_copy_mesh, t_big;
    size_t big_welded = 0;
    md2_mesh *mesh = NULL;
    double expanded, memory;
    size_t memory_bytes;
    unsigned char *data;
    size_t n, i;
    int rc = 1;

    if (argc > 2 || (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
                                   strcmp(argv[1], "-h") == 0))) {
        fprintf(argc > 2 ? stderr : stdout,
                "usage: md2_bench [MODEL.md2]\n"
                "Times md2_parse, md2_lerp and md2_write against memcpy of the\n"
                "same bytes (about 2 s). Default model: %s\n", DEFAULT_MODEL);
        return argc > 2 ? 2 : 0;
    }
    if (argc == 2)
        path = argv[1];

    memset(&b, 0, sizeof b);
    data = read_file(path, &b.file_size);
    if (!data) {
        fprintf(stderr, "md2_bench: cannot read %s\n", path);
        return 1;
    }
    b.file = data;
    memset(&opts, 0, sizeof opts);
    memset(&diag, 0, sizeof diag);
    opts.error = &diag;
    r = md2_parse(b.file, b.file_size, &opts, &m);
    if (r != MD2_OK) {
        fprintf(stderr, "md2_bench: cannot load %s: %s\n  %s\n", path,
                md2_result_string(r), diag.message);
        free(data);
        return 1;
    }
    b.model = m;
    n = m->num_vertices;
    b.lerp_bytes = n * 6 * sizeof(float);
    b.out_size = md2_write_size(m);
    if (b.out_size < b.file_size)
        b.out_size = b.file_size;
    b.out = (unsigned char *)malloc(b.out_size);
    b.positions = (float *)malloc(b.lerp_bytes); /* positions, then normals */
    b.copy_src = (float *)malloc(b.lerp_bytes);
    if (!b.out || !b.positions || !b.copy_src) {
        fprintf(stderr, "md2_bench: out of memory\n");
        goto done;
    }
    b.normals = b.positions + 3 * n;
    for (i = 0; i < 6 * n; i++)
        b.copy_src[i] = (float)i;
    if (md2_mesh_build(m, NULL, &mesh) != MD2_OK) {
        fprintf(stderr, "md2_bench: md2_mesh_build failed\n");
        goto done;
    }
    b.mesh = mesh;
    b.tri_bytes = m->num_triangles * 12;
    b.mesh_bytes = mesh->num_vertices * 8 * sizeof(float);
    b.mesh_out = (float *)calloc(mesh->num_vertices + 1, 8 * sizeof(float));
    b.mesh_src = (float *)calloc(mesh->num_vertices + 1, 8 * sizeof(float));
    if (!b.mesh_out || !b.mesh_src || b.out_size < b.tri_bytes) {
        fprintf(stderr, "md2_bench: out of memory\n");
        goto done;
    }

    printf("md2_bench: %s\n", path);
    printf("  %lu bytes, %lu vertices, %lu triangles, %lu frames; libmd2 %s\n\n",
           (unsigned long)b.file_size, (unsigned long)n,
           (unsigned long)m->num_triangles, (unsigned long)m->num_frames,
           md2_version_string());

    t_parse = measure(run_parse, &b);
    t_copy_file = measure(run_copy_file, &b);
    t_lerp = measure(run_lerp, &b);
    t_lerp_unit = measure(run_lerp_unit, &b);
    t_copy_lerp = measure(run_copy_lerp, &b);
    t_write = measure(run_write, &b);
    t_mesh_build = measure(run_mesh_build, &b);
    t_copy_tris = measure(run_copy_tris, &b);
    t_mesh_lerp = measure(run_mesh_lerp, &b);
    t_copy_mesh = measure(run_copy_mesh, &b);
    t_big = time_big_mesh(65000, &big_welded);

    printf("%-18s %11s  %18s %11s  %8s\n", "operation", "per call",
           "per unit", "memcpy", "ratio");
    row("md2_parse+free", t_parse, t_copy_file, b.file_size, "byte");
    row("md2_lerp", t_lerp, t_copy_lerp, n, "vertex");
    row("lerp + normalize", t_lerp_unit, t_copy_lerp, n, "vertex");
    row("md2_write", t_write, t_copy_file, b.out_size, "byte");
    if (m->num_triangles > 0) {
        row("md2_mesh_build", t_mesh_build, t_copy_tris, m->num_triangles, "tri");
        row("md2_mesh_lerp", t_mesh_lerp, t_copy_mesh, mesh->num_vertices, "welded");
    }
    printf("(memcpy: of the file's %lu bytes for parse and write; of the %lu "
           "output bytes for lerp; of the triangles' %lu bytes for the mesh "
           "build; of the %lu output bytes for md2_mesh_lerp)\n",
           (unsigned long)b.file_size, (unsigned long)b.lerp_bytes,
           (unsigned long)b.tri_bytes, (unsigned long)b.mesh_bytes);
    printf("mesh: %lu model vertices -> %lu welded, %lu bytes\n",
           (unsigned long)n, (unsigned long)mesh->num_vertices,
           (unsigned long)md2_mesh_memory(mesh));
    if (t_big >= 0.0)
        printf("mesh build of a synthetic 65000-triangle model (%lu welded "
               "vertices): %.1f ms\n\n", (unsigned long)big_welded, t_big * 1e3);

    memory_bytes = md2_model_memory(m);
    memory = (double)memory_bytes;
    expanded = (double)m->num_frames * (double)n * 6.0 * sizeof(float);
    printf("memory: model %.0f bytes = %.2fx the file (%lu bytes)\n", memory,
           memory / (double)b.file_size, (unsigned long)b.file_size);
    printf("        all frames as floats (pos + normal): %.0f bytes = %.1fx "
           "the model\n", expanded, expanded / memory);
    rc = 0;
done:
    free(b.mesh_out);
    free(b.mesh_src);
    md2_mesh_free(mesh);
    free(b.out);
    free(b.positions);
    free(b.copy_src);
    free(data);
    md2_free(m);
    return rc;
}
