/*
 * md2 command: the operating system, POSIX (see platform.h).
 *
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath() */
/* 64-bit inode numbers, offsets and sizes on 32-bit systems too (readdir()
 * and stat() fail with EOVERFLOW on large ones otherwise). */
#define _FILE_OFFSET_BITS 64

#include "platform.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif

int tool_sys_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 1;
}

static void from_stat(const struct stat *s, tool_sys_stat *st)
{
    if (S_ISREG(s->st_mode))
        st->kind = TOOL_SYS_REGULAR;
    else if (S_ISDIR(s->st_mode))
        st->kind = TOOL_SYS_DIRECTORY;
    else if (S_ISLNK(s->st_mode))
        st->kind = TOOL_SYS_LINK;
    else if (S_ISFIFO(s->st_mode))
        st->kind = TOOL_SYS_FIFO;
    else if (S_ISCHR(s->st_mode))
        st->kind = TOOL_SYS_CHAR;
    else if (S_ISBLK(s->st_mode))
        st->kind = TOOL_SYS_BLOCK;
#ifdef S_ISSOCK
    else if (S_ISSOCK(s->st_mode))
        st->kind = TOOL_SYS_SOCKET;
#endif
    else
        st->kind = TOOL_SYS_OTHER;
    st->size = s->st_size > 0 ? (unsigned long long)s->st_size : 0;
    st->dev = (unsigned long long)s->st_dev;
    st->ino = (unsigned long long)s->st_ino;
}

int tool_sys_stat_path(const char *path, int follow, tool_sys_stat *st)
{
    struct stat s;
    if ((follow ? stat(path, &s) : lstat(path, &s)) != 0)
        return -1;
    from_stat(&s, st);
    return 0;
}

int tool_sys_stat_fd(int fd, tool_sys_stat *st)
{
    struct stat s;
    if (fstat(fd, &s) != 0)
        return -1;
    from_stat(&s, st);
    return 0;
}

int tool_sys_open_read(const char *path)
{
    /* O_NONBLOCK: opening a FIFO without a writer (or some devices) would
     * wait; then reads wait for data again (a pipe's writer may be slower) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY), flags;
    if (fd < 0)
        return -1;
    flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

long tool_sys_read(int fd, void *dst, size_t size)
{
    if (size > 1u << 30)
        size = 1u << 30;
    return (long)read(fd, dst, size);
}

int tool_sys_seek(int fd, unsigned long long offset)
{
    off_t at = (off_t)offset;
    if (at < 0 || (unsigned long long)at != offset) {
        errno = EOVERFLOW;
        return -1;
    }
    return lseek(fd, at, SEEK_SET) == at ? 0 : -1;
}

void tool_sys_close(int fd)
{
    close(fd);
}

FILE *tool_sys_create_new(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
    FILE *f;
    if (fd < 0)
        return NULL;
    f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(path);
        errno = e;
    }
    return f;
}

int tool_sys_replace(const char *from, const char *to)
{
    return rename(from, to) == 0 ? 0 : -1;
}

int tool_sys_link(const char *from, const char *to)
{
    return link(from, to) == 0 ? 0 : -1;
}

int tool_sys_remove(const char *path)
{
    return unlink(path) == 0 ? 0 : -1;
}

int tool_sys_make_dir(const char *path)
{
    return mkdir(path, 0777) == 0 ? 0 : -1;
}

FILE *tool_sys_capture_start(char **text, size_t *size)
{
    *text = NULL;
    *size = 0;
    return open_memstream(text, size);
}

int tool_sys_capture_end(FILE *f, char **text, size_t *size)
{
    /* fclose() puts the text, NUL-terminated, in *text and its length in
     * *size; glibc's *text is NULL when its last realloc() fails */
    int ok = fclose(f) == 0;
    if (!ok || !*text) {
        free(*text);
        *text = NULL;
        *size = 0;
    }
    return ok;
}

long tool_sys_cpu_count(void)
{
#ifdef _SC_NPROCESSORS_ONLN
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n;
#else
    return 1;
#endif
}

int tool_sys_list_dir(const char *dir, char ***names, size_t *count)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t cap = 0;
    int err = 0;
    *names = NULL;
    *count = 0;
    if (!d)
        return 0;
    while (errno = 0, (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (!tool_sys_names_add(names, count, &cap, strdup(e->d_name))) {
            err = ENOMEM;
            break;
        }
    }
    if (!e)
        err = errno;
    closedir(d);
    return err ? tool_sys_names_fail(names, count, err) : 1;
}

char *tool_sys_real_path(const char *path)
{
    return realpath(path, NULL);
}

int tool_sys_is_terminal(FILE *f)
{
    return isatty(fileno(f));
}

int tool_sys_is_separator(char c)
{
    return c == '/';
}

const char *tool_sys_strerror(int e)
{
    return strerror(e);
}
