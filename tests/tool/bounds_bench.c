/*
 * bounds_bench MD2 [--no-rss] [--mutants N] FILE...: the resource bounds
 * of docs/tool.md ("Budgets"), measured over hostile input. Each FILE (an
 * MD2 model; a .png beside it named skin.png is its skin) and N mutants of
 * each (bytes set to random values at random places, a deterministic
 * sequence: the same run every time), in a folder of their own, go through
 * every command of the md2 program at MD2:
 *
 *   info, info --json, validate --strict, export -o OUT.glb,
 *   export -o OUT.obj, render -o OUT.png --size 64x64, import -o OUT.md2
 *
 * A FILE named .gltf, .glb or .obj (a source of md2 import, with no side
 * files: data: URIs, GLB chunks) goes through import -o OUT.md2 alone, an
 * OBJ also as a sequence of three frames (the file three times). The skin
 * an import writes counts as written with its pixels, as a skin read does.
 *
 * For each run it measures the peak resident memory and the CPU time of
 * md2 (wait4()) and the bytes read (the model, its skin: a skin counts its
 * file and its pixels at 4 bytes, up to the 4096 x 4096 that md2 decodes)
 * and written (stdout,
 * stderr, the files made; a render also its picture, 64 x 64 x 4 bytes).
 * It prints, per command, the worst ratio of peak RSS to the documented
 * bound (16 MiB + 16 x the bytes read and written) and of CPU time to its
 * bound (20 ms + 1 microsecond x the bytes read and written), and fails when a
 * run passed the memory bound (unless --no-rss: the sanitizers' shadow
 * memory) or was killed by a signal. CPU time is reported, never judged.
 * POSIX. Exit status 0, 1 (a bound broken), 2 (a bad call).
 *
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BASE_BYTES (16.0 * 1024.0 * 1024.0)
#define PER_BYTE 16.0
#define START_SECONDS 0.02
#define SECONDS_PER_BYTE 1e-6

enum { CMD_INFO, CMD_JSON, CMD_VALIDATE, CMD_GLB, CMD_OBJ, CMD_RENDER, CMD_IMPORT, CMD_SEQUENCE,
       CMD_COUNT };
static const char *const names[CMD_COUNT] = {"info", "info --json", "validate --strict",
                                             "export .glb", "export .obj", "render 64x64",
                                             "import", "import OBJ x3"};

typedef struct worst {
    double rss_ratio, cpu_ratio;
    char rss_input[256], cpu_input[256];
    unsigned long runs;
} worst;

static worst worsts[CMD_COUNT];
static int failed;

static double file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (double)st.st_size : 0.0;
}

/* The pixels of a PNG from its header (IHDR), at 4 bytes each, up to the
 * 4096 x 4096 that md2 decodes at most. */
static double png_pixel_bytes(const char *path)
{
    unsigned char h[24];
    FILE *f = fopen(path, "rb");
    double w, hh;
    size_t n = f ? fread(h, 1, sizeof h, f) : 0;
    if (f)
        fclose(f);
    if (n < 24 || memcmp(h + 12, "IHDR", 4) != 0)
        return 0.0;
    w = (double)((unsigned long)h[16] << 24 | (unsigned long)h[17] << 16 |
                 (unsigned long)h[18] << 8 | h[19]);
    hh = (double)((unsigned long)h[20] << 24 | (unsigned long)h[21] << 16 |
                  (unsigned long)h[22] << 8 | h[23]);
    return (w * hh < 16777216.0 ? w * hh : 16777216.0) * 4.0;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *d;
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        if (f)
            fclose(f);
        return NULL;
    }
    d = (unsigned char *)malloc((size_t)n + 1);
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
        free(d);
        d = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return d;
}

static int write_all(const char *path, const unsigned char *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(d, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = 0;
    return ok;
}

/* Runs md2 with args in dir, stdout and stderr to files there; adds what
 * it measured to the command's worst. */
static void run(const char *md2, int cmd, const char *dir, const char *model, const char *label,
                double in, int check_rss)
{
    static const char *const outs[CMD_COUNT] = {NULL, NULL, NULL, "o.glb", "o.obj", "o.png", "o.md2",
                                                "o.md2"};
    const char *argv[16];
    int n = 0;
    pid_t pid;
    int status;
    struct rusage ru;
    char path[4096];
    double out = 0.0, cpu, bound, ratio;
    const char *made[] = {"stdout", "stderr", "o.glb", "o.obj", "o.mtl", "o.png", "o.md2"};
    size_t i;

    argv[n++] = md2;
    switch (cmd) {
    case CMD_INFO: argv[n++] = "info"; argv[n++] = model; break;
    case CMD_JSON: argv[n++] = "info"; argv[n++] = "--json"; argv[n++] = model; break;
    case CMD_VALIDATE: argv[n++] = "validate"; argv[n++] = "--strict"; argv[n++] = model; break;
    case CMD_GLB:
    case CMD_OBJ: argv[n++] = "export"; argv[n++] = model; argv[n++] = "-o"; argv[n++] = outs[cmd];
        break;
    case CMD_IMPORT: argv[n++] = "import"; argv[n++] = model; argv[n++] = "-o"; argv[n++] = outs[cmd];
        break;
    case CMD_SEQUENCE: argv[n++] = "import"; argv[n++] = model; argv[n++] = model; argv[n++] = model;
        argv[n++] = "-o"; argv[n++] = outs[cmd];
        break;
    default:
        argv[n++] = "render"; argv[n++] = model; argv[n++] = "-o"; argv[n++] = outs[cmd];
        argv[n++] = "--size"; argv[n++] = "64x64";
        break;
    }
    argv[n] = NULL;
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        int fd;
        if (chdir(dir) != 0)
            _exit(126);
        fd = open("stdout", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0)
            _exit(126);
        close(fd);
        fd = open("stderr", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 2) < 0)
            _exit(126);
        close(fd);
        execv(md2, (char *const *)(void *)argv);
        _exit(127);
    }
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid) {
        fprintf(stderr, "bounds_bench: cannot run %s\n", md2);
        failed = 1;
        return;
    }
    for (i = 0; i < sizeof made / sizeof made[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, made[i]);
        out += file_size(path);
        if ((cmd == CMD_IMPORT || cmd == CMD_SEQUENCE) && strcmp(made[i], "o.png") == 0)
            out += png_pixel_bytes(path); /* the skin it made, as a skin read counts */
        remove(path);
    }
    if (cmd == CMD_RENDER)
        out += 64.0 * 64.0 * 4.0;
    cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
          ru.ru_stime.tv_usec / 1e6;
    bound = BASE_BYTES + PER_BYTE * (in + out);
    ratio = (double)ru.ru_maxrss * 1024.0 / bound;
    worsts[cmd].runs++;
    if (ratio > worsts[cmd].rss_ratio) {
        worsts[cmd].rss_ratio = ratio;
        snprintf(worsts[cmd].rss_input, sizeof worsts[cmd].rss_input, "%.180s (%ld KiB, %.0f bytes "
                 "in, %.0f out)", label, (long)ru.ru_maxrss, in, out);
    }
    /* against the time bound: 20 ms + 1 microsecond a byte */
    if (cpu / (START_SECONDS + SECONDS_PER_BYTE * (in + out)) > worsts[cmd].cpu_ratio) {
        worsts[cmd].cpu_ratio = cpu / (START_SECONDS + SECONDS_PER_BYTE * (in + out));
        snprintf(worsts[cmd].cpu_input, sizeof worsts[cmd].cpu_input, "%.180s (%.3f s, %.0f bytes)",
                 label, cpu, in + out);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
        fprintf(stderr, "bounds_bench: md2 %s %s: %s %d\n", names[cmd], label,
                WIFEXITED(status) ? "exit status" : "signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        failed = 1;
    }
    if (check_rss && ratio > 1.0) {
        fprintf(stderr, "bounds_bench: md2 %s %s: peak RSS %ld KiB, over the bound of %.0f KiB\n",
                names[cmd], label, (long)ru.ru_maxrss, bound / 1024.0);
        failed = 1;
    }
}

/* The kind of input path is, by its extension: 0 an MD2 model, else a
 * source of md2 import (1 glTF or GLB, 2 OBJ). */
static int source_kind(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (dot && (strcmp(dot, ".gltf") == 0 || strcmp(dot, ".glb") == 0))
        return 1;
    return dot && strcmp(dot, ".obj") == 0 ? 2 : 0;
}

/* Every command on the model at path (a copy in dir, its skin beside it);
 * md2 import alone on a source of another kind (and an OBJ's sequence). */
static void run_all(const char *md2, const char *dir, const char *name, const char *label,
                    const char *skin, int check_rss)
{
    char model[4096];
    double in, skin_bytes = 0.0;
    int c, kind = source_kind(name);
    snprintf(model, sizeof model, "%s/%s", dir, name);
    in = file_size(model);
    if (skin) /* its file, and its pixels up to the skin budget */
        skin_bytes = file_size(skin) + png_pixel_bytes(skin);
    for (c = 0; c < CMD_COUNT; c++)
        if ((kind == 0 && c != CMD_SEQUENCE) || (kind != 0 && c == CMD_IMPORT) ||
            (kind == 2 && c == CMD_SEQUENCE))
            run(md2, c, dir, name, label, (c == CMD_SEQUENCE ? 3.0 : 1.0) * in + skin_bytes, check_rss);
}

int main(int argc, char **argv)
{
    const char *md2;
    int i, c, check_rss = 1;
    long mutants = 20;
    char dir[] = "bounds_bench.XXXXXX";
    if (argc < 3) {
        fprintf(stderr, "usage: bounds_bench MD2 [--no-rss] [--mutants N] FILE...\n");
        return 2;
    }
    md2 = argv[1];
    if (!mkdtemp(dir)) {
        perror("bounds_bench: mkdtemp");
        return 2;
    }
    for (i = 2; i < argc; i++) {
        unsigned char *d, *mutant;
        size_t size, k;
        long m;
        char path[4096], skin[4096], copy[4096], label[300];
        const char *slash;
        if (strcmp(argv[i], "--no-rss") == 0) {
            check_rss = 0;
            continue;
        }
        if (strcmp(argv[i], "--mutants") == 0 && i + 1 < argc) {
            mutants = strtol(argv[++i], NULL, 10);
            continue;
        }
        d = read_all(argv[i], &size);
        if (!d) {
            fprintf(stderr, "bounds_bench: cannot read %s\n", argv[i]);
            failed = 1;
            continue;
        }
        slash = strrchr(argv[i], '/');
        snprintf(skin, sizeof skin, "%.*sskin.png", slash ? (int)(slash - argv[i] + 1) : 0,
                 argv[i]);
        snprintf(copy, sizeof copy, "%s/skin.png", dir);
        remove(copy);
        if (file_size(skin) > 0.0 && symlink(skin, copy) != 0)
            skin[0] = '\0';
        mutant = (unsigned char *)malloc(size + 1);
        for (m = 0; m <= mutants && mutant; m++) {
            static const char *const ext[3] = {"md2", "gltf", "obj"};
            const char *dot = strrchr(argv[i], '.');
            snprintf(path, sizeof path, "%s/m.%s", dir, dot && strcmp(dot, ".glb") == 0 ? "glb"
                                                                : ext[source_kind(argv[i])]);
            memcpy(mutant, d, size);
            if (m > 0) /* a few bytes set to random values */
                for (k = 0; k < 1 + next_random() % 8 && size > 0; k++)
                    mutant[next_random() % size] = (unsigned char)next_random();
            if (!write_all(path, mutant, size)) {
                fprintf(stderr, "bounds_bench: cannot write %s\n", path);
                failed = 1;
                break;
            }
            snprintf(label, sizeof label, "%s, mutant %ld", slash ? slash + 1 : argv[i], m);
            run_all(md2, dir, strrchr(path, '/') + 1, label, file_size(copy) > 0.0 ? skin : NULL, check_rss);
        }
        remove(path);
        remove(copy);
        free(mutant);
        free(d);
    }
    rmdir(dir);
    printf("bounds_bench: the worst of each command, as a fraction of the bounds (memory: 16 MiB "
           "+ 16 x (bytes read + written); CPU time: 20 ms + 1 us x (bytes read + written))\n");
    for (c = 0; c < CMD_COUNT; c++)
        printf("  %-18s %5lu runs  peak RSS %.3f of its bound: %s\n"
               "  %-18s             CPU time %.3f of its bound: %s\n",
               names[c], worsts[c].runs, worsts[c].rss_ratio, worsts[c].rss_input, "",
               worsts[c].cpu_ratio, worsts[c].cpu_input);
    return failed;
}
