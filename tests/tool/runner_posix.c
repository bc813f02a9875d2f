/*
 * md2_tool_cases on POSIX systems: starting a process (run_process(), the
 * only place that does), files, folders and links (runner.h). A Windows
 * port replaces this file alone.
 *
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L

#include "runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void say_why(char *why, size_t why_size, const char *what, const char *path)
{
    snprintf(why, why_size, "%s %s: %s", what, path, strerror(errno));
}

int run_process(const proc_spec *spec, int *status, int *signal_no, char *why, size_t why_size)
{
    int out, err, st;
    pid_t pid;
    *status = -1;
    *signal_no = 0;
    out = open(spec->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (out < 0) {
        say_why(why, why_size, "cannot open", spec->out_path);
        return 0;
    }
    if (strcmp(spec->out_path, spec->err_path) == 0) {
        err = out;
    } else if ((err = open(spec->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0) {
        say_why(why, why_size, "cannot open", spec->err_path);
        close(out);
        return 0;
    }
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        snprintf(why, why_size, "cannot start a process: %s", strerror(errno));
        close(out);
        if (err != out)
            close(err);
        return 0;
    }
    if (pid == 0) {
        size_t i;
        int in = open("/dev/null", O_RDONLY);
        if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
            _exit(127);
        if (chdir(spec->cwd) != 0) {
            fprintf(stderr, "md2_tool_cases: cannot enter %s: %s\n", spec->cwd, strerror(errno));
            _exit(127);
        }
        for (i = 0; spec->env && spec->env[i]; i++) {
            char *eq = strchr(spec->env[i], '=');
            if (eq) {
                *eq = '\0';
                setenv(spec->env[i], eq + 1, 1);
                *eq = '=';
            }
        }
        if (spec->address_space_kib > 0) {
            struct rlimit lim;
            lim.rlim_cur = lim.rlim_max = (rlim_t)spec->address_space_kib * 1024;
            if (setrlimit(RLIMIT_AS, &lim) != 0) {
                fprintf(stderr, "md2_tool_cases: cannot limit the address space: %s\n",
                        strerror(errno));
                _exit(127);
            }
        }
        execvp(spec->argv[0], spec->argv);
        fprintf(stderr, "md2_tool_cases: cannot run %s: %s\n", spec->argv[0], strerror(errno));
        _exit(127);
    }
    close(out);
    if (err != out)
        close(err);
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            snprintf(why, why_size, "cannot wait for %s: %s", spec->argv[0], strerror(errno));
            return 0;
        }
    }
    if (WIFEXITED(st)) {
        *status = WEXITSTATUS(st);
    } else if (WIFSIGNALED(st)) {
        *signal_no = WTERMSIG(st);
        *status = 128 + *signal_no;
    }
    return 1;
}

int fs_kind(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return FS_NONE;
    if (S_ISLNK(st.st_mode))
        return FS_LINK;
    if (S_ISDIR(st.st_mode))
        return FS_DIR;
    if (S_ISREG(st.st_mode))
        return FS_FILE;
    return FS_OTHER;
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int fs_list(const char *dir, words *names)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            words_add(names, e->d_name);
    }
    closedir(d);
    if (names->n > 1)
        qsort(names->v, names->n, sizeof *names->v, by_bytes);
    return 1;
}

char *fs_readlink(const char *path)
{
    size_t cap = 256;
    for (;;) {
        char *buf = (char *)malloc(cap);
        ssize_t n;
        if (!buf)
            return NULL;
        n = readlink(path, buf, cap);
        if (n < 0) {
            free(buf);
            return NULL;
        }
        if ((size_t)n < cap) {
            buf[n] = '\0';
            return buf;
        }
        free(buf);
        cap *= 2;
    }
}

int fs_mkdirs(const char *path, char *why, size_t why_size)
{
    char *p = strdup(path), *s;
    int ok = 1;
    if (!p)
        return 0;
    for (s = p + 1; ok; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                say_why(why, why_size, "cannot make the folder", p);
                ok = 0;
            }
            *s = c;
            if (c == '\0')
                break;
        }
    }
    free(p);
    if (ok && fs_kind(path) != FS_DIR) {
        snprintf(why, why_size, "%s is there, but not a folder", path);
        return 0;
    }
    return ok;
}

int fs_symlink(const char *target, const char *path, char *why, size_t why_size)
{
    if (symlink(target, path) == 0)
        return 1;
    say_why(why, why_size, "cannot make the symbolic link", path);
    return 0;
}

int fs_hardlink(const char *existing, const char *path, char *why, size_t why_size)
{
    if (link(existing, path) == 0)
        return 1;
    say_why(why, why_size, "cannot make the hard link", path);
    return 0;
}

int fs_chmod(const char *path, unsigned mode, char *why, size_t why_size)
{
    if (chmod(path, (mode_t)mode) == 0)
        return 1;
    say_why(why, why_size, "cannot change the mode of", path);
    return 0;
}

char *fs_public_temp_dir(char *why, size_t why_size)
{
    static const char pattern[] = "/tmp/md2_tool_cases.XXXXXX";
    char *dir = (char *)malloc(sizeof pattern);
    if (!dir) {
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    memcpy(dir, pattern, sizeof pattern);
    if (!mkdtemp(dir)) {
        say_why(why, why_size, "cannot make a folder like", pattern);
        free(dir);
        return NULL;
    }
    if (chmod(dir, 0755) != 0) {
        say_why(why, why_size, "cannot change the mode of", dir);
        rmdir(dir);
        free(dir);
        return NULL;
    }
    return dir;
}

int fs_copy_file(const char *src, const char *dst, unsigned mode, char *why, size_t why_size)
{
    char buf[65536];
    ssize_t n = 0;
    int in = open(src, O_RDONLY), out, ok = 1;
    if (in < 0) {
        say_why(why, why_size, "cannot open", src);
        return 0;
    }
    out = open(dst, O_WRONLY | O_CREAT | O_EXCL, (mode_t)mode);
    if (out < 0) {
        say_why(why, why_size, "cannot create", dst);
        close(in);
        return 0;
    }
    while (ok && (n = read(in, buf, sizeof buf)) != 0) {
        ssize_t done = 0;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            say_why(why, why_size, "cannot read", src);
            ok = 0;
            break;
        }
        while (ok && done < n) {
            ssize_t w = write(out, buf + done, (size_t)(n - done));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                say_why(why, why_size, "cannot write", dst);
                ok = 0;
            } else {
                done += w;
            }
        }
    }
    close(in);
    /* the mode as asked, whatever the umask took from it */
    if (ok && fchmod(out, (mode_t)mode) != 0) {
        say_why(why, why_size, "cannot change the mode of", dst);
        ok = 0;
    }
    if (close(out) != 0 && ok) {
        say_why(why, why_size, "cannot write", dst);
        ok = 0;
    }
    if (!ok)
        unlink(dst);
    return ok;
}

int fs_remove(const char *path)
{
    return remove(path) == 0;
}

int fs_empty_dir(const char *dir, char *why, size_t why_size)
{
    words names = {0};
    size_t i;
    int ok = 1;
    if (!fs_list(dir, &names)) {
        say_why(why, why_size, "cannot read the folder", dir);
        return 0;
    }
    for (i = 0; ok && i < names.n; i++) {
        size_t len = strlen(dir) + strlen(names.v[i]) + 2;
        char *path = (char *)malloc(len);
        if (!path) {
            ok = 0;
            break;
        }
        snprintf(path, len, "%s/%s", dir, names.v[i]);
        if (fs_kind(path) == FS_DIR) {
            chmod(path, 0700);
            ok = fs_empty_dir(path, why, why_size);
            if (ok && rmdir(path) != 0) {
                say_why(why, why_size, "cannot remove", path);
                ok = 0;
            }
        } else if (unlink(path) != 0) {
            say_why(why, why_size, "cannot remove", path);
            ok = 0;
        }
        free(path);
    }
    words_free(&names);
    return ok;
}

char *fs_which(const char *name)
{
    const char *path = getenv("PATH"), *p;
    if (strchr(name, '/'))
        return access(name, X_OK) == 0 ? strdup(name) : NULL;
    for (p = path; p && *p;) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char *full = (char *)malloc(n + strlen(name) + 2);
        if (!full)
            return NULL;
        snprintf(full, n + strlen(name) + 2, "%.*s/%s", (int)n, p, name);
        if (n > 0 && access(full, X_OK) == 0 && fs_kind(full) != FS_DIR)
            return full;
        free(full);
        p = end ? end + 1 : NULL;
    }
    return NULL;
}

int fs_chdir(const char *path)
{
    return chdir(path) == 0;
}

int fs_is_superuser(void)
{
    return geteuid() == 0;
}

int re_match(const char *re, const char *text, size_t groups, long *start, long *end,
             char *why, size_t why_size)
{
    regex_t r;
    regmatch_t m[10];
    size_t i;
    int rc = regcomp(&r, re, REG_EXTENDED);
    if (rc != 0) {
        char msg[256];
        regerror(rc, &r, msg, sizeof msg);
        snprintf(why, why_size, "bad pattern /%s/: %s", re, msg);
        return -1;
    }
    if (groups > 10)
        groups = 10;
    rc = regexec(&r, text, groups ? groups : 1, m, 0);
    regfree(&r);
    if (rc != 0)
        return 0;
    for (i = 0; i < groups; i++) {
        start[i] = (long)m[i].rm_so;
        end[i] = (long)m[i].rm_eo;
    }
    return 1;
}
