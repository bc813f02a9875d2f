/*
 * md2_validate_testfile: makes the broken files of the md2 info and md2
 * validate tests (CMake cannot write a NUL byte). Test-only.
 *
 *   md2_validate_testfile SRC DST [cut N] [set OFFSET HEX]... [every STEP COUNT]
 *
 * Copies SRC to DST, keeping its first N bytes (cut), and writes the bytes
 * given in hex ("ff00") at OFFSET (set). "every STEP COUNT" after a set
 * repeats that set COUNT times in all, STEP bytes apart.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buffer {
    unsigned char *data;
    size_t size;
} buffer;

static int fail(const char *what, const char *arg)
{
    fprintf(stderr, "md2_validate_testfile: %s%s\n", what, arg);
    return 1;
}

static int read_all(const char *path, buffer *b)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 4096, n;
    b->size = 0;
    b->data = (unsigned char *)malloc(cap);
    if (!f || !b->data) {
        if (f)
            fclose(f);
        return 0;
    }
    while ((n = fread(b->data + b->size, 1, cap - b->size, f)) > 0) {
        unsigned char *p;
        b->size += n;
        if (b->size < cap)
            continue;
        p = (unsigned char *)realloc(b->data, cap *= 2);
        if (!p)
            break;
        b->data = p;
    }
    n = (size_t)ferror(f);
    fclose(f);
    return n == 0 && b->size < cap;
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end)
        return 0;
    *out = (size_t)v;
    return 1;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Writes the bytes of hex at offset (growing nothing: they must fit). */
static int set_bytes(buffer *b, size_t offset, const char *hex)
{
    size_t n = strlen(hex) / 2, i;
    if (strlen(hex) % 2 || offset > b->size || n > b->size - offset)
        return 0;
    for (i = 0; i < n; i++) {
        int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return 0;
        b->data[offset + i] = (unsigned char)(hi * 16 + lo);
    }
    return 1;
}

/* Applies the operations in argv[3..]. */
static int edit(buffer *b, int argc, char **argv)
{
    size_t offset = 0, step, count, n, k;
    const char *hex = NULL;
    int i;
    for (i = 3; i < argc; i++) {
        if (strcmp(argv[i], "cut") == 0 && i + 1 < argc && parse_size(argv[i + 1], &n)) {
            if (n < b->size)
                b->size = n;
            i++;
        } else if (strcmp(argv[i], "set") == 0 && i + 2 < argc &&
                   parse_size(argv[i + 1], &offset) && set_bytes(b, offset, argv[i + 2])) {
            hex = argv[i + 2];
            i += 2;
        } else if (strcmp(argv[i], "every") == 0 && hex && i + 2 < argc &&
                   parse_size(argv[i + 1], &step) && parse_size(argv[i + 2], &count)) {
            for (k = 1; k < count; k++)
                if (!set_bytes(b, offset + k * step, hex))
                    return fail("set past the end: ", argv[i]);
            i += 2;
        } else {
            return fail("bad operation: ", argv[i]);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    buffer b;
    FILE *out;
    int status;
    if (argc < 3)
        return fail("usage: md2_validate_testfile SRC DST [cut N] [set OFFSET HEX]... "
                    "[every STEP COUNT]", "");
    if (!read_all(argv[1], &b)) {
        free(b.data);
        return fail("cannot read ", argv[1]);
    }
    status = edit(&b, argc, argv);
    if (status == 0 && (out = fopen(argv[2], "wb")) == NULL)
        status = fail("cannot write ", argv[2]);
    else if (status == 0) {
        int short_write = fwrite(b.data, 1, b.size, out) != b.size;
        if (fclose(out) != 0 || short_write)
            status = fail("cannot write ", argv[2]);
    }
    free(b.data);
    return status;
}
