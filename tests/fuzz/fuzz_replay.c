/*
 * Runs the fuzz target over files and folders without libFuzzer, so that
 * CTest replays the seed corpus and every past crasher on each build.
 *
 *   fuzz_replay PATH...   (a PATH may be a file or a folder of files)
 *
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L
/* 64-bit inode numbers and offsets for 32-bit builds too: without it,
 * readdir() of a 32-bit program fails (EOVERFLOW) on file systems whose
 * inode numbers do not fit in 32 bits, as under qemu-i386. */
#define _FILE_OFFSET_BITS 64
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t size = 0, cap = 0, n;
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    do {
        if (size == cap) {
            uint8_t *nb;
            cap = cap ? cap * 2 : 4096;
            nb = (uint8_t *)realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return 1;
            }
            buf = nb;
        }
        n = fread(buf + size, 1, cap - size, f);
        size += n;
    } while (n > 0);
    fclose(f);
    /* an exact-size copy, so ASan catches a read one past the input */
    {
        uint8_t *exact = (uint8_t *)malloc(size ? size : 1);
        if (!exact) {
            free(buf);
            return 1;
        }
        if (size)
            memcpy(exact, buf, size);
        free(buf);
        LLVMFuzzerTestOneInput(exact, size);
        free(exact);
    }
    return 0;
}

static int run_path(const char *path, size_t *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "no such file or folder: %s\n", path);
        return 1;
    }
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        int bad = 0;
        if (!d) {
            fprintf(stderr, "cannot open the folder %s: %s\n", path, strerror(errno));
            return 1;
        }
        while (errno = 0, (e = readdir(d)) != NULL) {
            char child[4096];
            if (e->d_name[0] == '.')
                continue;
            snprintf(child, sizeof child, "%s/%s", path, e->d_name);
            bad |= run_path(child, count);
        }
        if (errno != 0) {
            fprintf(stderr, "cannot list the folder %s: %s\n", path, strerror(errno));
            bad = 1;
        }
        closedir(d);
        return bad;
    }
    (*count)++;
    return run_file(path);
}

int main(int argc, char **argv)
{
    size_t count = 0;
    int i, bad = 0;
    for (i = 1; i < argc; i++)
        bad |= run_path(argv[i], &count);
    printf("fuzz replay: %lu inputs run, %s\n", (unsigned long)count, bad ? "errors" : "no failures");
    return bad || count == 0;
}
