/*
 * md2_tool_cases, the runner of the md2 command's test tables (README.md
 * beside this file): what its portable part (runner.c) asks of the system
 * (runner_posix.c). Everything that differs between POSIX and Windows is
 * behind these functions; the process itself is started in one of them,
 * run_process().
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TOOL_RUNNER_H
#define MD2_TOOL_RUNNER_H

#include <stddef.h>

/* A growing list of malloc'd strings, NULL-terminated (v[n] == NULL). */
typedef struct words {
    char **v;
    size_t n, cap;
} words;

void words_add(words *w, const char *s);
void words_add_n(words *w, const char *s, size_t len);
void words_free(words *w);

/* One process to run. */
typedef struct proc_spec {
    char *const *argv;           /* argv[0] is found in PATH when it has no '/' */
    const char *cwd;             /* where it runs */
    char *const *env;            /* "NAME=VALUE" set for it (may be NULL) */
    const char *out_path;        /* its stdout goes to this file (truncated) */
    const char *err_path;        /* its stderr: this file; the same path as
                                    out_path means both go to one file */
    long address_space_kib;      /* > 0: the most address space it may use */
} proc_spec;

/* Runs the process to its end. Returns 1 and sets *status to its exit
 * status (128 + N when signal N ended it, and then *signal_no to N; 127 when
 * it could not be started, saying why on its stderr), or returns 0 with
 * why filled in when it could not even be tried. */
int run_process(const proc_spec *spec, int *status, int *signal_no, char *why,
                size_t why_size);

/* What is at path, without following a symbolic link at its end:
 * FS_NONE, FS_FILE, FS_DIR, FS_LINK or FS_OTHER. */
enum { FS_NONE = 0, FS_FILE, FS_DIR, FS_LINK, FS_OTHER };
int fs_kind(const char *path);
/* The names in folder dir, but . and .., sorted by their bytes. 0 on error. */
int fs_list(const char *dir, words *names);
/* The target of the symbolic link at path (malloc'd), or NULL. */
char *fs_readlink(const char *path);
/* 1 on success; on failure 0 with the system's reason in why. */
int fs_mkdirs(const char *path, char *why, size_t why_size);
int fs_symlink(const char *target, const char *path, char *why, size_t why_size);
int fs_hardlink(const char *existing, const char *path, char *why, size_t why_size);
int fs_chmod(const char *path, unsigned mode, char *why, size_t why_size);
/* Removes everything inside folder dir (keeping dir), making folders
 * writable and searchable on the way. */
int fs_empty_dir(const char *dir, char *why, size_t why_size);
/* A new, empty folder in the system's folder for temporary files (/tmp)
 * that every user may enter and read (mode 0755): its path (malloc'd), or
 * NULL with why filled in. */
char *fs_public_temp_dir(char *why, size_t why_size);
/* Copies the regular file src to a new file dst of that mode; 1 on
 * success, 0 with why filled in (dst is then removed). */
int fs_copy_file(const char *src, const char *dst, unsigned mode, char *why, size_t why_size);
/* Removes the file, or the empty folder, at path; 1 on success. */
int fs_remove(const char *path);
/* The full path of program name found in PATH (malloc'd), or NULL. */
char *fs_which(const char *name);
/* Makes path the runner's own working folder; 0 on failure. */
int fs_chdir(const char *path);
/* 1 when the runner runs as the superuser (who reads every folder). */
int fs_is_superuser(void);

/* Matches the POSIX extended regular expression re anywhere in text (^ and
 * $ are the start and end of text, '.' matches a newline too). Returns 1
 * and, when groups > 0, the byte offsets of group 0 (the whole match) to
 * groups - 1 in start[] and end[] (-1 for a group that took no part), 0
 * when it does not match, -1 when re is not a valid expression (why says
 * so). */
int re_match(const char *re, const char *text, size_t groups, long *start, long *end,
             char *why, size_t why_size);

#endif /* MD2_TOOL_RUNNER_H */
