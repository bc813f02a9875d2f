/*
 * The models below the paths of a command line: the files themselves and
 * the directory trees below them (see walk.h). Folders and files through
 * platform.h (opendir, stat, lstat; FindFirstFileW).
 *
 * SPDX-License-Identifier: MIT
 */
#include "walk.h"
#include "platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The last folder separator in path, or NULL. */
static const char *last_separator(const char *path)
{
    const char *p, *last = NULL;
    for (p = path; *p; p++)
        if (tool_sys_is_separator(*p))
            last = p;
    return last;
}

/* The directories above the one being read, to notice a loop. */
typedef struct ancestor {
    unsigned long long dev;
    unsigned long long ino;
    const struct ancestor *up;
} ancestor;

static char *copy(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = (char *)malloc(n);
    return p ? (char *)memcpy(p, s, n) : NULL;
}

/* Appends path (and error, NULL for a file to check); dir: the directory
 * that holds it, NULL if unknown. 0: out of memory. */
static int add(tool_walk_list *l, const char *path, const char *error, const ancestor *dir)
{
    tool_walk_entry e;
    const char *slash = last_separator(path);
    memset(&e, 0, sizeof e);
    if (dir) {
        e.has_id = 1;
        e.dir_dev = dir->dev;
        e.dir_ino = dir->ino;
        e.name = slash ? (size_t)(slash + 1 - path) : 0;
    }
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 64;
        tool_walk_entry *p = (tool_walk_entry *)realloc(l->items, cap * sizeof *p);
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
static int add_error(tool_walk_list *l, const char *path, const char *what, int err,
                     const ancestor *dir)
{
    char message[256];
    snprintf(message, sizeof message, "%s: %s", what, tool_sys_strerror(err));
    return add(l, path, message, dir);
}

/* The directory that holds path, as named on the command line: the part
 * before its last '/' ("." without one). 0 if it is not a directory that
 * can be looked at, or path ends in '/' (it then names no entry). */
static int holder_of(const char *path, ancestor *dir)
{
    const char *slash = last_separator(path);
    tool_sys_stat st;
    char *name;
    int ok;
    if (slash && slash[1] == '\0')
        return 0;
    if (!slash)
        ok = tool_sys_stat_path(".", 1, &st) == 0;
    else if (slash == path)
        ok = tool_sys_stat_path("/", 1, &st) == 0;
    else {
        size_t n = (size_t)(slash - path);
        name = (char *)malloc(n + 1);
        if (!name)
            return 0;
        memcpy(name, path, n);
        name[n] = '\0';
        ok = tool_sys_stat_path(name, 1, &st) == 0;
        free(name);
    }
    if (!ok || st.kind != TOOL_SYS_DIRECTORY)
        return 0;
    dir->dev = st.dev;
    dir->ino = st.ino;
    dir->up = NULL;
    return 1;
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
    int slash = d > 0 && !tool_sys_is_separator(dir[d - 1]);
    char *p = (char *)malloc(d + (size_t)slash + n + 1);
    if (!p)
        return NULL;
    memcpy(p, dir, d);
    if (slash)
        p[d] = '/';
    memcpy(p + d + (size_t)slash, name, n + 1);
    return p;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk_dir(tool_walk_list *l, const char *dir, const tool_sys_stat *st, const ancestor *up,
                    const ancestor *holder);

/* One entry of a directory: name, at path; up: that directory. */
static int visit(tool_walk_list *l, const char *path, const char *name, const ancestor *up)
{
    tool_sys_stat st;
    if (tool_sys_stat_path(path, 0, &st) != 0)
        return add_error(l, path, "cannot look at the file", errno, up);
    if (st.kind == TOOL_SYS_LINK) {
        if (!has_md2_suffix(name))
            return 1;
        if (tool_sys_stat_path(path, 1, &st) != 0)
            return add_error(l, path, "cannot follow the symbolic link", errno, up);
        return st.kind == TOOL_SYS_REGULAR ? add(l, path, NULL, up) : 1;
    }
    if (st.kind == TOOL_SYS_DIRECTORY)
        return walk_dir(l, path, &st, up, up);
    return st.kind == TOOL_SYS_REGULAR && has_md2_suffix(name) ? add(l, path, NULL, up) : 1;
}

/* The directory dir (st: its stat), unless it is one of its ancestors up
 * in the walk. holder: the directory that holds it, if known (in the walk,
 * up itself), which names dir's entry when dir cannot be read. */
static int walk_dir(tool_walk_list *l, const char *dir, const tool_sys_stat *st, const ancestor *up,
                    const ancestor *holder)
{
    ancestor me;
    const ancestor *a;
    char **names;
    size_t count, i;
    int ok = 1;
    for (a = up; a; a = a->up)
        if (a->dev == st->dev && a->ino == st->ino)
            return 1;
    me.dev = st->dev;
    me.ino = st->ino;
    me.up = up;
    if (!tool_sys_list_dir(dir, &names, &count))
        return errno == ENOMEM ? 0 : add_error(l, dir, "cannot read the directory", errno, holder);
    if (count > 1)
        qsort(names, count, sizeof *names, by_name);
    for (i = 0; i < count && ok; i++) {
        char *path = join(dir, names[i]);
        ok = path && visit(l, path, names[i], &me);
        free(path);
    }
    tool_sys_free_names(names, count);
    return ok;
}

int tool_walk(tool_walk_list *l, const char *path)
{
    tool_sys_stat st;
    ancestor holder;
    int known = holder_of(path, &holder);
    if (tool_sys_stat_path(path, 1, &st) == 0 && st.kind == TOOL_SYS_DIRECTORY)
        return walk_dir(l, path, &st, NULL, known ? &holder : NULL);
    return add(l, path, NULL, known ? &holder : NULL);
}

/* An entry's identity and its place in the list, for sorting: the
 * directory and the name, or for an entry without one (known 0) the whole
 * path as written. */
typedef struct entry_key {
    int known;
    unsigned long long dev, ino;
    const char *name;
    size_t index;
} entry_key;

static int same_identity(const entry_key *x, const entry_key *y)
{
    return x->known == y->known && x->dev == y->dev && x->ino == y->ino &&
           strcmp(x->name, y->name) == 0;
}

static int by_identity(const void *a, const void *b)
{
    const entry_key *x = (const entry_key *)a, *y = (const entry_key *)b;
    int c;
    if (x->known != y->known)
        return x->known < y->known ? -1 : 1;
    if (x->dev != y->dev)
        return x->dev < y->dev ? -1 : 1;
    if (x->ino != y->ino)
        return x->ino < y->ino ? -1 : 1;
    c = strcmp(x->name, y->name);
    if (c != 0)
        return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

int tool_walk_unique(tool_walk_list *l)
{
    entry_key *keys;
    unsigned char *drop;
    size_t i, kept = 0;
    if (l->count < 2)
        return 1;
    keys = (entry_key *)malloc(l->count * sizeof *keys);
    drop = (unsigned char *)calloc(l->count, 1);
    if (!keys || !drop) {
        free(keys);
        free(drop);
        return 0;
    }
    for (i = 0; i < l->count; i++) {
        const tool_walk_entry *e = &l->items[i];
        keys[i].known = e->has_id;
        keys[i].dev = e->has_id ? e->dir_dev : 0;
        keys[i].ino = e->has_id ? e->dir_ino : 0;
        keys[i].name = e->path + (e->has_id ? e->name : 0);
        keys[i].index = i;
    }
    qsort(keys, l->count, sizeof *keys, by_identity);
    /* in each run of one identity, the first (lowest index) stays */
    for (i = 1; i < l->count; i++) {
        if (same_identity(&keys[i], &keys[i - 1]))
            drop[keys[i].index] = 1;
    }
    for (i = 0; i < l->count; i++) {
        if (drop[i]) {
            free(l->items[i].path);
            free(l->items[i].error);
        } else {
            l->items[kept++] = l->items[i];
        }
    }
    l->count = kept;
    free(keys);
    free(drop);
    return 1;
}

void tool_walk_free(tool_walk_list *l)
{
    size_t i;
    for (i = 0; i < l->count; i++) {
        free(l->items[i].path);
        free(l->items[i].error);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}
