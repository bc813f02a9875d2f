/*
 * term_check [--all-bytes] FILE...: checks that what md2 printed (its
 * stdout and stderr, saved to FILEs) is safe on a terminal: every byte is
 * printable ASCII (0x20 to 0x7E), a newline, or part of a valid UTF-8
 * character (shortest form, no surrogate, at most U+10FFFF) that is neither
 * a C1 control (U+0080 to U+009F), nor the line or paragraph separator
 * (U+2028, U+2029), nor a bidirectional control (U+061C, U+200E, U+200F,
 * U+202A to U+202E, U+2066 to U+2069). With --all-bytes, the FILEs together
 * must also show every byte value that is not printable ASCII (0x01 to 0x1F,
 * and 0x7F to 0xFF) written as \xNN, as docs/tool.md says
 * md2 writes them. Written from the manual, not from the command's code.
 * Exit status 0 if all holds, 1 (saying where) if not, 2 for a bad call.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of the valid UTF-8 character at s (n bytes left), and its code
 * point in *cp; 0 if there is none. */
static size_t utf8_char(const unsigned char *s, size_t n, unsigned long *cp)
{
    size_t len, i;
    unsigned long v, min;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    if (s[0] >= 0xC0 && s[0] < 0xE0) {
        len = 2;
        v = s[0] & 0x1Fu;
        min = 0x80;
    } else if (s[0] >= 0xE0 && s[0] < 0xF0) {
        len = 3;
        v = s[0] & 0x0Fu;
        min = 0x800;
    } else if (s[0] >= 0xF0 && s[0] < 0xF8) {
        len = 4;
        v = s[0] & 0x07u;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xC0u) != 0x80u)
            return 0;
        v = (v << 6) | (s[i] & 0x3Fu);
    }
    if (v < min || v > 0x10FFFFul || (v >= 0xD800ul && v <= 0xDFFFul))
        return 0;
    *cp = v;
    return len;
}

static int acts_on_terminal(unsigned long cp)
{
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0x061C ||
           cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f)
        return NULL;
    do {
        if (n == cap) {
            unsigned char *p;
            cap = cap ? cap * 2 : 65536;
            p = (unsigned char *)realloc(buf, cap);
            if (!p) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *size = n;
    return buf ? buf : (unsigned char *)calloc(1, 1);
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int main(int argc, char **argv)
{
    static int seen[256];
    int all = 0, i, bad = 0;
    for (i = 1; i < argc; i++) {
        unsigned char *d;
        size_t n, at = 0, line = 1;
        if (strcmp(argv[i], "--all-bytes") == 0) {
            all = 1;
            continue;
        }
        d = slurp(argv[i], &n);
        if (!d) {
            fprintf(stderr, "term_check: cannot read %s\n", argv[i]);
            return 2;
        }
        while (at < n) {
            unsigned long cp = 0;
            size_t len = utf8_char(d + at, n - at, &cp);
            if (len == 0 || (cp < 0x20 && cp != '\n') || cp == 0x7F || acts_on_terminal(cp)) {
                fprintf(stderr, "term_check: %s, line %lu, byte %lu: 0x%02X%s reaches the "
                                "terminal raw\n", argv[i], (unsigned long)line,
                        (unsigned long)at, d[at], len > 1 ? " (a control character)" : "");
                bad = 1;
                break;
            }
            if (cp == '\n')
                line++;
            if (cp == '\\' && at + 3 < n && d[at + 1] == 'x' && hexval(d[at + 2]) >= 0 &&
                hexval(d[at + 3]) >= 0)
                seen[hexval(d[at + 2]) * 16 + hexval(d[at + 3])] = 1;
            at += len;
        }
        free(d);
    }
    if (all) {
        int b;
        for (b = 1; b < 256; b++) {
            if ((b >= 0x20 && b < 0x7F) || seen[b])
                continue;
            fprintf(stderr, "term_check: byte 0x%02X is never shown as \\x%02X\n", b, b);
            bad = 1;
        }
    }
    if (!bad)
        printf("term_check: every byte is safe on a terminal%s\n",
               all ? ", and every byte value that is not printable ASCII is shown as \\xNN" : "");
    return bad;
}
