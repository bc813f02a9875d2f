/*
 * md2 validate: the files to check, from the paths on the command line
 * and the directory trees below them (see validate_walk.h). POSIX:
 * opendir, readdir, stat, lstat.
 *
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L

#include "validate_walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The directories above the one being read, to notice a loop. */
typedef struct ancestor {
    dev_t dev;
    ino_t ino;
    const struct ancestor *up;
} ancestor;

static char *copy(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = (char *)malloc(n);
    return p ? (char *)memcpy(p, s, n) : NULL;
}

/* Appends path (and error, NULL for a file to check). 0: out of memory. */
static int add(validate_list *l, const char *path, const char *error)
{
    validate_entry e;
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 64;
        validate_entry *p = (validate_entry *)realloc(l->items, cap * sizeof *p);
        if (!p)
            return 0;
        l->items = p;
        l->capacity = cap;
    }
    e.path = copy(path);
    e.error = error ? copy(error) : NULL;
    if (!e.path || (error && !e.error)) {
        free(e.path);
        free(e.error);
        return 0;
    }
    l->items[l->count++] = e;
    return 1;
}

/* Appends path with "what: the system's reason". */
static int add_error(validate_list *l, const char *path, const char *what, int err)
{
    char message[256];
    snprintf(message, sizeof message, "%s: %s", what, strerror(err));
    return add(l, path, message);
}

static int has_md2_suffix(const char *name)
{
    size_t n = strlen(name);
    const char *s = name + (n >= 4 ? n - 4 : 0);
    return n >= 4 && s[0] == '.' && (s[1] == 'm' || s[1] == 'M') &&
           (s[2] == 'd' || s[2] == 'D') && s[3] == '2';
}

static char *join(const char *dir, const char *name)
{
    size_t d = strlen(dir), n = strlen(name);
    int slash = d > 0 && dir[d - 1] != '/';
    char *p = (char *)malloc(d + (size_t)slash + n + 1);
    if (!p)
        return NULL;
    memcpy(p, dir, d);
    if (slash)
        p[d] = '/';
    memcpy(p + d + (size_t)slash, name, n + 1);
    return p;
}

static void free_names(char **names, size_t count)
{
    size_t i;
    for (i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

/* The names in dir but "." and "..", malloc'd. Returns 0 with errno set
 * (ENOMEM when out of memory). */
static int read_names(const char *dir, char ***names, size_t *count)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t cap = 0;
    int err;
    *names = NULL;
    *count = 0;
    if (!d)
        return 0;
    while (errno = 0, (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (*count == cap) {
            size_t grown = cap ? cap * 2 : 32;
            char **p = (char **)realloc(*names, grown * sizeof *p);
            if (!p)
                break;
            *names = p;
            cap = grown;
        }
        if (((*names)[*count] = copy(e->d_name)) == NULL)
            break;
        (*count)++;
    }
    err = e ? ENOMEM : errno;
    closedir(d);
    if (err) {
        free_names(*names, *count);
        *names = NULL;
        *count = 0;
        errno = err;
        return 0;
    }
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk_dir(validate_list *l, const char *dir, const struct stat *st, const ancestor *up);

/* One entry of a directory: name, at path. */
static int visit(validate_list *l, const char *path, const char *name, const ancestor *up)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return add_error(l, path, "cannot look at the file", errno);
    if (S_ISLNK(st.st_mode)) {
        if (!has_md2_suffix(name))
            return 1;
        if (stat(path, &st) != 0)
            return add_error(l, path, "cannot follow the symbolic link", errno);
        return S_ISREG(st.st_mode) ? add(l, path, NULL) : 1;
    }
    if (S_ISDIR(st.st_mode))
        return walk_dir(l, path, &st, up);
    return S_ISREG(st.st_mode) && has_md2_suffix(name) ? add(l, path, NULL) : 1;
}

/* The directory dir (st: its stat), unless it is one of its ancestors. */
static int walk_dir(validate_list *l, const char *dir, const struct stat *st, const ancestor *up)
{
    ancestor me;
    const ancestor *a;
    char **names;
    size_t count, i;
    int ok = 1;
    for (a = up; a; a = a->up)
        if (a->dev == st->st_dev && a->ino == st->st_ino)
            return 1;
    me.dev = st->st_dev;
    me.ino = st->st_ino;
    me.up = up;
    if (!read_names(dir, &names, &count))
        return errno == ENOMEM ? 0 : add_error(l, dir, "cannot read the directory", errno);
    if (count > 1)
        qsort(names, count, sizeof *names, by_name);
    for (i = 0; i < count && ok; i++) {
        char *path = join(dir, names[i]);
        ok = path && visit(l, path, names[i], &me);
        free(path);
    }
    free_names(names, count);
    return ok;
}

int validate_walk(validate_list *l, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return walk_dir(l, path, &st, NULL);
    return add(l, path, NULL);
}

void validate_list_free(validate_list *l)
{
    size_t i;
    for (i = 0; i < l->count; i++) {
        free(l->items[i].path);
        free(l->items[i].error);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}
