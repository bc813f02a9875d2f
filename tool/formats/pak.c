/*
 * PAK archives and game folders, bounded (pak.h).
 *
 * What the engines do, read for this file (docs/tool.md has the list):
 * id's FS_LoadPackFile (qcommon/files.c) checks the magic and dirlen / 64
 * against MAX_FILES_IN_PACK (4096), and trusts the rest; Q2PRO's
 * load_pak_file (src/common/files.c) refuses a dirlen that is not a
 * multiple of 64, no entries, more than MAX_FILES_IN_PACK, a dirofs or an
 * entry's end past INT32_MAX; yquake2's FS_LoadPAK refuses a negative
 * dirofs or dirlen and no entries. None checks that entries stay apart or
 * inside the file. This reader refuses all of these, and an entry over the
 * header, the directory or another entry as well: no tool that writes PAKs
 * makes one, and they are the shapes of an archive made to mislead.
 *
 * SPDX-License-Identifier: MIT
 */
#include "pak.h"

#include "image.h"    /* image/: tool_errno_text() */
#include "platform.h" /* platform/ */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER 12u
#define ENTRY 64u
#define NAME 56u
#define CHUNK 64u /* entries read at once (4 KiB) */

static void say(char *why, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void say(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    if (!why || n == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
}

static uint32_t u32le(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* 1 if the NUL-terminated name equals path, ASCII case ignored. */
static int same_name(const unsigned char *name, const char *path)
{
    size_t i;
    for (i = 0; i < NAME; i++) {
        if (lower(name[i]) != lower((unsigned char)path[i]))
            return 0;
        if (name[i] == 0)
            return 1;
    }
    return 0;
}

typedef struct span {
    uint32_t pos, len, index;
} span;

static int by_pos(const void *a, const void *b)
{
    const span *x = (const span *)a, *y = (const span *)b;
    if (x->pos != y->pos)
        return x->pos < y->pos ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The header: dirofs, dirlen checked against the archive. */
static int read_header(const tool_pak *p, uint32_t *dirofs, uint32_t *count, char *why, size_t n)
{
    unsigned char h[HEADER];
    uint32_t ofs, len;
    if (p->size < HEADER) {
        say(why, n, "%s: %llu bytes, shorter than a PAK's 12-byte header", p->name,
            (unsigned long long)p->size);
        return 0;
    }
    if (!p->read(p->user, 0, h, HEADER, why, n))
        return 0;
    if (memcmp(h, "PACK", 4) != 0) {
        say(why, n, "%s: not a PAK (byte 0 is not \"PACK\")", p->name);
        return 0;
    }
    ofs = u32le(h + 4);
    len = u32le(h + 8);
    if (ofs > 0x7fffffffu || len > 0x7fffffffu) {
        uint32_t bad = ofs > 0x7fffffffu ? ofs : len;
        say(why, n, "%s: the directory's %s is negative (%lld, byte %d)", p->name,
            ofs > 0x7fffffffu ? "offset" : "length", (long long)bad - 4294967296LL,
            ofs > 0x7fffffffu ? 4 : 8);
        return 0;
    }
    if (len == 0 || len % ENTRY != 0) {
        say(why, n, "%s: the directory's length %lu (byte 8) is %s", p->name, (unsigned long)len,
            len == 0 ? "0: no entries" : "not a multiple of the 64-byte entry");
        return 0;
    }
    if (len / ENTRY > TOOL_PAK_MAX_ENTRIES) {
        say(why, n, "%s: %lu entries (byte 8), more than the %lu a PAK may hold (Q2PRO's MAX_FILES_IN_PACK)",
            p->name, (unsigned long)(len / ENTRY), (unsigned long)TOOL_PAK_MAX_ENTRIES);
        return 0;
    }
    if (ofs < HEADER) {
        say(why, n, "%s: the directory's offset %lu (byte 4) lies inside the 12-byte header", p->name,
            (unsigned long)ofs);
        return 0;
    }
    if ((uint64_t)ofs + len > p->size) {
        say(why, n, "%s: the directory, bytes %lu to %llu (bytes 4 and 8), lies past the end of the %llu-byte file",
            p->name, (unsigned long)ofs, (unsigned long long)ofs + len,
            (unsigned long long)p->size);
        return 0;
    }
    *dirofs = ofs;
    *count = len / ENTRY;
    return 1;
}

/* One entry's checks (not overlap): 1, or 0 with why. */
static int check_entry(const tool_pak *p, const unsigned char *d, uint32_t i, uint32_t dirofs,
                       uint32_t count, span *s, char *why, size_t n)
{
    uint64_t at = (uint64_t)dirofs + (uint64_t)i * ENTRY;
    uint32_t pos = u32le(d + NAME), len = u32le(d + NAME + 4);
    uint64_t dir_end = (uint64_t)dirofs + (uint64_t)count * ENTRY;
    if (!memchr(d, 0, NAME)) {
        say(why, n, "%s: entry %lu (byte %llu): its name has no NUL in its 56 bytes", p->name,
            (unsigned long)i, (unsigned long long)at);
        return 0;
    }
    if (pos > 0x7fffffffu || len > 0x7fffffffu) {
        say(why, n, "%s: entry %lu (byte %llu): its %s (byte %llu) is negative (%lld)", p->name,
            (unsigned long)i, (unsigned long long)at, pos > 0x7fffffffu ? "offset" : "length",
            (unsigned long long)at + (pos > 0x7fffffffu ? NAME : NAME + 4),
            (long long)(pos > 0x7fffffffu ? pos : len) - 4294967296LL);
        return 0;
    }
    if ((uint64_t)pos + len > p->size) {
        say(why, n, "%s: entry %lu (byte %llu): bytes %lu to %llu lie past the end of the %llu-byte file",
            p->name, (unsigned long)i, (unsigned long long)at, (unsigned long)pos,
            (unsigned long long)pos + len, (unsigned long long)p->size);
        return 0;
    }
    if (len > 0 && (pos < HEADER || ((uint64_t)pos < dir_end && (uint64_t)pos + len > dirofs))) {
        say(why, n, "%s: entry %lu (byte %llu): bytes %lu to %llu overlap the %s", p->name,
            (unsigned long)i, (unsigned long long)at, (unsigned long)pos,
            (unsigned long long)pos + len, pos < HEADER ? "header" : "directory");
        return 0;
    }
    s->pos = pos;
    s->len = len;
    s->index = i;
    return 1;
}

int tool_pak_find(const tool_pak *p, const char *path, tool_pak_entry *e, char *why, size_t n)
{
    unsigned char chunk[CHUNK * ENTRY];
    uint32_t dirofs, count, i, k, spans = 0;
    span *all;
    int found = 0;

    if (!read_header(p, &dirofs, &count, why, n))
        return -1;
    all = (span *)malloc((size_t)count * sizeof *all);
    if (!all) {
        say(why, n, "%s: out of memory for %lu entries", p->name, (unsigned long)count);
        return -1;
    }
    for (i = 0; i < count; i += CHUNK) {
        uint32_t m = count - i; /* at least 1 */
        if (m > CHUNK)
            m = CHUNK;
        if (!p->read(p->user, (uint64_t)dirofs + (uint64_t)i * ENTRY, chunk, (size_t)m * ENTRY, why, n)) {
            free(all);
            return -1;
        }
        for (k = 0; k < m; k++) {
            const unsigned char *d = chunk + (size_t)k * ENTRY;
            span s;
            if (!check_entry(p, d, i + k, dirofs, count, &s, why, n)) {
                free(all);
                return -1;
            }
            if (s.len > 0)
                all[spans++] = s;
            if (!found && path && same_name(d, path)) {
                found = 1;
                e->index = s.index;
                e->pos = s.pos;
                e->len = s.len;
            }
        }
    }
    qsort(all, spans, sizeof *all, by_pos);
    for (i = 1; i < spans; i++) {
        if ((uint64_t)all[i - 1].pos + all[i - 1].len > all[i].pos) {
            say(why, n, "%s: entry %lu (byte %llu) and entry %lu (byte %llu) overlap: bytes %lu to %llu and %lu to %llu",
                p->name, (unsigned long)all[i - 1].index,
                (unsigned long long)dirofs + (uint64_t)all[i - 1].index * ENTRY,
                (unsigned long)all[i].index, (unsigned long long)dirofs + (uint64_t)all[i].index * ENTRY,
                (unsigned long)all[i - 1].pos, (unsigned long long)all[i - 1].pos + all[i - 1].len,
                (unsigned long)all[i].pos, (unsigned long long)all[i].pos + all[i].len);
            free(all);
            return -1;
        }
    }
    free(all);
    return found;
}

/* ------------------------------------------------------------------------ */
/* Game folders                                                              */
/* ------------------------------------------------------------------------ */

/* Reads exactly n bytes at offset of fd. */
static int read_fd(int fd, uint64_t offset, void *dst, size_t n)
{
    unsigned char *b = (unsigned char *)dst;
    if (tool_sys_seek(fd, offset) != 0)
        return 0;
    while (n > 0) {
        long got = tool_sys_read(fd, b, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return 0;
        b += got;
        n -= (size_t)got;
    }
    return 1;
}

typedef struct fd_pak {
    int fd;
    const char *name;
} fd_pak;

static int read_pak_fd(void *user, uint64_t offset, void *dst, size_t n, char *why, size_t why_size)
{
    const fd_pak *f = (const fd_pak *)user;
    if (read_fd(f->fd, offset, dst, n))
        return 1;
    say(why, why_size, "%s: reading %lu bytes at byte %llu failed", f->name, (unsigned long)n,
        (unsigned long long)offset);
    return 0;
}

char *tool_game_join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *s = (char *)malloc(a + b + 2);
    if (!s)
        return NULL;
    memcpy(s, dir, a);
    s[a] = '/';
    memcpy(s + a + 1, name, b + 1);
    return s;
}

/* Opens path as a regular file: its descriptor and size, or -1 (why
 * set when it is there but not readable or not a regular file; errno
 * ENOENT and why empty when it is not there). */
static int open_regular(const char *path, uint64_t *size, char *why, size_t n)
{
    tool_sys_stat st;
    int fd;
    if (why && n)
        why[0] = '\0';
    if (tool_sys_stat_path(path, 1, &st) != 0) {
        if (errno != ENOENT && errno != ENOTDIR)
            say(why, n, "%s: %s", path, tool_errno_text(errno));
        return -1;
    }
    if (st.kind != TOOL_SYS_REGULAR) {
        say(why, n, "%s: not a regular file (a folder, FIFO or device is not read)", path);
        return -1;
    }
    fd = tool_sys_open_read(path);
    if (fd < 0) {
        say(why, n, "%s: %s", path, tool_errno_text(errno));
        return -1;
    }
    /* the file opened is the one checked: a swap in between is refused */
    if (tool_sys_stat_fd(fd, &st) != 0 || st.kind != TOOL_SYS_REGULAR) {
        say(why, n, "%s: not a regular file once opened", path);
        tool_sys_close(fd);
        return -1;
    }
    *size = st.size;
    return fd;
}

/* The number N of "pak<N>.pak" (any case, N at most 9 digits), or -1. */
static long pak_number(const char *name)
{
    size_t len = strlen(name), i;
    long v = 0;
    if (len < 8 || len > 16 || lower(name[0]) != 'p' || lower(name[1]) != 'a' ||
        lower(name[2]) != 'k')
        return -1;
    for (i = 3; i < len - 4; i++) {
        if (name[i] < '0' || name[i] > '9')
            return -1;
        v = v * 10 + (name[i] - '0');
    }
    return v;
}

static int is_pak(const char *name)
{
    size_t len = strlen(name);
    return len > 4 && name[len - 4] == '.' && lower(name[len - 3]) == 'p' &&
           lower(name[len - 2]) == 'a' && lower(name[len - 1]) == 'k';
}

/* 1 if dir/name is a folder (followed through links). */
static int is_folder(const char *dir, const char *name)
{
    tool_sys_stat st;
    char *full = tool_game_join(dir, name);
    int r = full && tool_sys_stat_path(full, 1, &st) == 0 && st.kind == TOOL_SYS_DIRECTORY;
    free(full);
    return r;
}

/* Search order: other PAKs (later names first), then numbered ones
 * (higher first). */
static int search_order(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    long nx = pak_number(x), ny = pak_number(y);
    if ((nx < 0) != (ny < 0))
        return nx < 0 ? -1 : 1;
    if (nx >= 0 && nx != ny)
        return nx > ny ? -1 : 1;
    return -strcmp(x, y);
}

/* Looks path up in the PAK at pak_path: 1 (f filled), 0, -1. */
static int find_in_pak(const char *pak_path, const char *path, tool_game_file *f, char *why, size_t n)
{
    fd_pak fp;
    tool_pak p;
    tool_pak_entry e;
    uint64_t size;
    int r;
    fp.fd = open_regular(pak_path, &size, why, n);
    if (fp.fd < 0)
        return why && why[0] ? -1 : 0;
    fp.name = pak_path;
    p.name = pak_path;
    p.size = size;
    p.read = read_pak_fd;
    p.user = &fp;
    r = tool_pak_find(&p, path, &e, why, n);
    if (r != 1) {
        tool_sys_close(fp.fd);
        return r;
    }
    f->where = (char *)malloc(strlen(pak_path) + 32);
    if (!f->where) {
        say(why, n, "%s: out of memory", pak_path);
        tool_sys_close(fp.fd);
        return -1;
    }
    sprintf(f->where, "%s, entry %lu", pak_path, (unsigned long)e.index);
    f->fd = fp.fd;
    f->base = e.pos;
    f->size = e.len;
    return 1;
}

int tool_game_find(const char *dir, const char *path, tool_game_file *f, char *why, size_t n)
{
    char **names = NULL;
    size_t count = 0, i, paks = 0;
    char *full;
    int r = 0;

    memset(f, 0, sizeof *f);
    f->fd = -1;
    if (!tool_sys_list_dir(dir, &names, &count)) {
        say(why, n, "%s: %s", dir, tool_errno_text(errno));
        return -1;
    }
    for (i = 0; i < count; i++) /* the PAKs to the front (a folder named x.pak is none) */
        if (is_pak(names[i]) && !is_folder(dir, names[i])) {
            char *t = names[paks];
            names[paks++] = names[i];
            names[i] = t;
        }
    if (paks > 1)
        qsort(names, paks, sizeof *names, search_order);
    for (i = 0; i < paks && r == 0; i++) {
        full = tool_game_join(dir, names[i]);
        if (!full) {
            say(why, n, "%s: out of memory", dir);
            r = -1;
            break;
        }
        r = find_in_pak(full, path, f, why, n);
        free(full);
    }
    tool_sys_free_names(names, count);
    if (r != 0)
        return r;
    full = tool_game_join(dir, path);
    if (!full) {
        say(why, n, "%s: out of memory", dir);
        return -1;
    }
    f->fd = open_regular(full, &f->size, why, n);
    if (f->fd < 0) {
        free(full);
        return why && why[0] ? -1 : 0;
    }
    f->where = full;
    return 1;
}

int tool_game_read(const tool_game_file *f, uint64_t offset, void *dst, size_t n, char *why,
                   size_t why_size)
{
    if (offset > f->size || n > f->size - offset) {
        say(why, why_size, "%s: bytes %llu to %llu lie past its %llu bytes", f->where,
            (unsigned long long)offset, (unsigned long long)offset + n, (unsigned long long)f->size);
        return 0;
    }
    if (read_fd(f->fd, f->base + offset, dst, n))
        return 1;
    say(why, why_size, "%s: reading %lu bytes at byte %llu failed", f->where, (unsigned long)n,
        (unsigned long long)offset);
    return 0;
}

void tool_game_close(tool_game_file *f)
{
    if (f->fd >= 0)
        tool_sys_close(f->fd);
    free(f->where);
    f->fd = -1;
    f->where = NULL;
}

int tool_game_palette(const char *dir, uint8_t palette[768], char **source, char *why, size_t n)
{
    tool_game_file f;
    unsigned char h[128], mark;
    int r = tool_game_find(dir, "pics/colormap.pcx", &f, why, n);
    *source = NULL;
    if (r == 0)
        say(why, n, "%s: no pics/colormap.pcx in its PAKs or beside them: is it a Quake II game folder (baseq2)?",
            dir);
    if (r != 1)
        return 0;
    if (f.size < 128 + 769) {
        say(why, n, "%s: %llu bytes, too short for a PCX with a 256-colour palette (897 at least)",
            f.where, (unsigned long long)f.size);
        tool_game_close(&f);
        return 0;
    }
    if (!tool_game_read(&f, 0, h, sizeof h, why, n) ||
        !tool_game_read(&f, f.size - 769, &mark, 1, why, n) ||
        !tool_game_read(&f, f.size - 768, palette, 768, why, n)) {
        tool_game_close(&f);
        return 0;
    }
    if (h[0] != 0x0A || h[3] != 8 || h[65] != 1 || mark != 0x0C) {
        say(why, n, "%s: not an 8-bit PCX with its palette at the end (%s)", f.where,
            h[0] != 0x0A ? "byte 0 is not 0x0A" : h[3] != 8 ? "byte 3: not 8 bits a pixel"
            : h[65] != 1 ? "byte 65: not 1 plane" : "no 0x0C 769 bytes from the end");
        tool_game_close(&f);
        return 0;
    }
    *source = f.where;
    f.where = NULL;
    tool_game_close(&f);
    return 1;
}
