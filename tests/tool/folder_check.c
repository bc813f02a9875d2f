/*
 * folder_check: what `md2 export TREE -o OUTDIR/` did with a tree of
 * models, for the md2 command's test tables (folders.cases). Test-only.
 *
 *   folder_check TREE OUTDIR STDOUT EXT BROKEN
 *
 * Every file below TREE whose name ends in .md2 (any case) is a model. A
 * model with a folder named BROKEN on its way from TREE is broken: STDOUT
 * (what md2 printed) must list it, as a line "TREE/PATH: failed: REASON",
 * and OUTDIR must hold no output for it. Every other model must have its
 * output OUTDIR/PATH with the extension EXT (".glb", ".gltf", ".obj"), not
 * empty, and for .glb a GLB header (magic "glTF", version 2, the length
 * of the file). OUTDIR must hold nothing else but folders and, for .obj,
 * each output's .mtl and .png. Prints the counts; exit 0 when all holds,
 * 1 otherwise, 2 for a bad command line.
 *
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct check {
    const char *tree, *out, *ext, *broken;
    char *printed;
    unsigned long good, broken_listed, outputs, problems;
} check;

static char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    size_t n = 0, cap = 0;
    if (!f)
        return NULL;
    for (;;) {
        size_t got;
        if (n + 4096 + 1 > cap) {
            char *p = (char *)realloc(data, cap = 2 * cap + 8192);
            if (!p) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = p;
        }
        got = fread(data + n, 1, 4096, f);
        n += got;
        if (got < 4096)
            break;
    }
    fclose(f);
    data[n] = '\0';
    *size = n;
    return data;
}

static int has_suffix_nocase(const char *name, const char *suffix)
{
    size_t n = strlen(name), s = strlen(suffix), i;
    if (n < s)
        return 0;
    for (i = 0; i < s; i++) {
        char c = name[n - s + i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != suffix[i])
            return 0;
    }
    return 1;
}

static char *join(const char *a, const char *b)
{
    size_t x = strlen(a), y = strlen(b);
    char *p = (char *)malloc(x + y + 2);
    if (!p) {
        fputs("folder_check: out of memory\n", stderr);
        exit(1);
    }
    memcpy(p, a, x);
    p[x] = '/';
    memcpy(p + x + 1, b, y + 1);
    return p;
}

static char *dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = (char *)malloc(n);
    if (!p) {
        fputs("folder_check: out of memory\n", stderr);
        exit(1);
    }
    return (char *)memcpy(p, s, n);
}

/* rel with its extension (after the last '.' of its name) replaced by ext. */
static char *with_ext(const char *rel, const char *ext)
{
    const char *slash = strrchr(rel, '/'), *dot = strrchr(slash ? slash + 1 : rel, '.');
    size_t n = dot ? (size_t)(dot - rel) : strlen(rel);
    char *p = (char *)malloc(n + strlen(ext) + 1);
    if (!p) {
        fputs("folder_check: out of memory\n", stderr);
        exit(1);
    }
    memcpy(p, rel, n);
    strcpy(p + n, ext);
    return p;
}

static void problem(check *c, const char *what, const char *path)
{
    if (c->problems < 20)
        fprintf(stderr, "folder_check: %s: %s\n", path, what);
    c->problems++;
}

/* 1 if the output at path is there and looks right. */
static int output_ok(check *c, const char *path)
{
    size_t size = 0;
    char *data = read_all(path, &size);
    int ok = data && size > 0;
    if (ok && strcmp(c->ext, ".glb") == 0) {
        const unsigned char *p = (const unsigned char *)data;
        unsigned long length = size >= 12 ? (unsigned long)p[8] | (unsigned long)p[9] << 8 |
                                                 (unsigned long)p[10] << 16 |
                                                 (unsigned long)p[11] << 24
                                           : 0;
        ok = size >= 12 && memcmp(p, "glTF", 4) == 0 && p[4] == 2 && p[5] == 0 && p[6] == 0 &&
             p[7] == 0 && length == (unsigned long)size;
    }
    free(data);
    return ok;
}

/* 1 if md2 printed "TREE/rel: failed: " at the start of a line. */
static int listed(const check *c, const char *rel)
{
    char *path = join(c->tree, rel), *line;
    size_t n = strlen(path);
    const char *at = c->printed;
    int found = 0;
    line = (char *)realloc(path, n + 11);
    if (!line) {
        free(path);
        return 0;
    }
    memcpy(line + n, ": failed: ", 11);
    while (!found && (at = strstr(at, line)) != NULL) {
        found = at == c->printed || at[-1] == '\n' || at[-1] == '\r';
        at++;
    }
    free(line);
    return found;
}

static void walk_models(check *c, const char *rel, int broken)
{
    char *dir = rel[0] ? join(c->tree, rel) : dup(c->tree);
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d) {
        problem(c, "cannot read the folder", dir);
        free(dir);
        return;
    }
    while ((e = readdir(d)) != NULL) {
        char *path, *sub;
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        path = join(dir, e->d_name);
        sub = rel[0] ? join(rel, e->d_name) : dup(e->d_name);
        if (stat(path, &st) != 0) {
            problem(c, "cannot look at it", path);
        } else if (S_ISDIR(st.st_mode)) {
            walk_models(c, sub, broken || strcmp(e->d_name, c->broken) == 0);
        } else if (S_ISREG(st.st_mode) && has_suffix_nocase(e->d_name, ".md2")) {
            char *out_rel = with_ext(sub, c->ext), *out = join(c->out, out_rel);
            struct stat ost;
            if (broken) {
                if (!listed(c, sub))
                    problem(c, "a broken model not listed as failed", path);
                else
                    c->broken_listed++;
                if (stat(out, &ost) == 0)
                    problem(c, "an output for a broken model", out);
            } else if (!output_ok(c, out)) {
                problem(c, "missing, empty or not a GLB", out);
            } else {
                c->good++;
            }
            free(out_rel);
            free(out);
        }
        free(path);
        free(sub);
    }
    closedir(d);
    free(dir);
}

/* Counts the files below OUTDIR: each must be an output (or, for .obj,
 * its .mtl or .png). */
static void walk_outputs(check *c, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d) {
        problem(c, "cannot read the folder", dir);
        return;
    }
    while ((e = readdir(d)) != NULL) {
        char *path;
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        path = join(dir, e->d_name);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            walk_outputs(c, path);
        else if (has_suffix_nocase(e->d_name, c->ext))
            c->outputs++;
        else if (!(strcmp(c->ext, ".obj") == 0 && (has_suffix_nocase(e->d_name, ".mtl") ||
                                                  has_suffix_nocase(e->d_name, ".png"))))
            problem(c, "a file that is no output", path);
        free(path);
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    check c;
    size_t size;
    if (argc != 6) {
        fputs("usage: folder_check TREE OUTDIR STDOUT EXT BROKEN\n", stderr);
        return 2;
    }
    memset(&c, 0, sizeof c);
    c.tree = argv[1];
    c.out = argv[2];
    c.ext = argv[4];
    c.broken = argv[5];
    c.printed = read_all(argv[3], &size);
    if (!c.printed) {
        fprintf(stderr, "folder_check: cannot read %s\n", argv[3]);
        return 1;
    }
    walk_models(&c, "", 0);
    walk_outputs(&c, c.out);
    if (c.outputs != c.good)
        fprintf(stderr, "folder_check: %s holds %lu outputs, for %lu good models\n", c.out,
                c.outputs, c.good), c.problems++;
    printf("%lu good models exported, %lu broken ones listed, %lu problems\n", c.good,
           c.broken_listed, c.problems);
    free(c.printed);
    return c.problems ? 1 : 0;
}
