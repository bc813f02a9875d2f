/*
 * md2 validate [--strict] [--profile P] PATH...: loads every model named,
 * and every .md2 file in the directory trees named, with its side files,
 * and says which load with warnings and which are refused, by libmd2 or
 * (--profile) by an engine's loader rules (md2_profile_check())
 * (docs/tool.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include "commands.h"
#include "info_util.h"
#include "platform.h"
#include "walk.h"
#include "progress.h"

#include <md2/build.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct tally {
    size_t ok;
    size_t warned;
    size_t refused;
} tally;

static void usage(FILE *f)
{
    fputs("usage: md2 validate [--strict] [--profile P] PATH...\n"
          "\n"
          "Loads each model PATH names, with the side files beside it (.anm or\n"
          ".framegroups, .tag), as a game would. A PATH that is a directory stands for\n"
          "every file below it whose name ends in .md2 (any case), in name order. A\n"
          "file met twice (named, and in a directory named) is checked once.\n"
          "Prints \"PATH: refused: MESSAGE\" for each file refused, \"PATH: warning:\n"
          "MESSAGE\" for each kind of warning, then \"N files: N ok, N with warnings,\n"
          "N refused\". On a terminal, a progress bar on stderr for 100 files or more.\n"
          "\n"
          "options:\n"
          "  --strict    refuse the quirks that are only warnings by default\n"
          "  --profile P refuse what engine P's loader refuses (quake2, yquake2,\n"
          "              ufoai, q2pro): \"PATH: refused: ENGINE: ...\" for each limit,\n"
          "              with its source in the engine's code\n"
          "  -h, --help  print this help\n"
          "\n"
          "Exit status: 0 every file loads (warnings or not), 1 a file is refused or\n"
          "cannot be read, 2 bad command line.\n",
          f);
}

static int usage_error(void)
{
    fputs("usage: md2 validate [--strict] [--profile P] PATH...  (md2 validate --help for more)\n",
          stderr);
    return TOOL_USAGE;
}

/* "PATH: KIND: MESSAGE" on stdout, the bar out of its way. */
static void report(tool_progress *p, const char *path, const char *kind,
                   const char *message, size_t times)
{
    tool_progress_hide(p);
    tool_put_clean(stdout, path);
    printf(": %s: ", kind);
    tool_put_clean(stdout, message);
    if (times > 1)
        printf(" (first of %lu)", (unsigned long)times);
    putchar('\n');
    if (p->f)
        fflush(stdout);
}

/* Each kind of warning once, with how many there were of that kind. */
static void report_warnings(tool_progress *p, const char *path, const tool_model *m)
{
    info_groups groups;
    size_t i;
    info_groups_count(&groups, m);
    for (i = 0; i < m->warning_count; i++) {
        size_t n = info_groups_first(&groups, &m->warnings[i]);
        if (n != 0)
            report(p, path, "warning", tool_message(path, &m->warnings[i]), n);
    }
    if (m->warnings_lost)
        report(p, path, "warning", "more warnings, not kept (out of memory)", 1);
}

/* What on_limit of md2_profile_check() reports to. */
typedef struct limits {
    tool_progress *p;
    const char *path;
} limits;

static void on_limit(void *user, const md2_diagnostic *d)
{
    const limits *l = (const limits *)user;
    report(l->p, l->path, "refused", d->message, 1);
}

static void check(tool_progress *p, const char *path, uint32_t strict, int profile, tally *t)
{
    tool_model m;
    md2_diagnostic d;
    memset(&d, 0, sizeof d);
    if (tool_load(path, strict, &m, &d) != MD2_OK) {
        report(p, path, "refused", tool_message(path, &d), 1);
        t->refused++;
        return;
    }
    if (profile != MD2_PROFILE_FORMAT) {
        limits l;
        size_t broken = 0;
        l.p = p;
        l.path = path;
        if (md2_profile_check(m.model, (md2_profile)profile, on_limit, &l, &broken) != MD2_OK) {
            report(p, path, "refused", "out of memory counting the welded vertices", 1);
            broken = 1;
        }
        if (broken) {
            t->refused++;
            tool_model_free(&m);
            return;
        }
    }
    if (m.warning_count == 0 && !m.warnings_lost && m.bundle->warnings == 0) {
        t->ok++;
    } else {
        report_warnings(p, path, &m);
        t->warned++;
    }
    tool_model_free(&m);
}

static int run(const tool_walk_list *l, uint32_t strict, int profile)
{
    tool_progress p;
    tally t;
    size_t i;
    memset(&t, 0, sizeof t);
    tool_progress_start(&p, stderr, l->count);
    for (i = 0; i < l->count; i++) {
        const tool_walk_entry *e = &l->items[i];
        if (e->error) {
            report(&p, e->path, "refused", e->error, 1);
            t.refused++;
        } else {
            check(&p, e->path, strict, profile, &t);
        }
        tool_progress_step(&p);
    }
    tool_progress_hide(&p);
    printf("%lu file%s: %lu ok, %lu with warnings, %lu refused\n", (unsigned long)l->count,
           l->count == 1 ? "" : "s", (unsigned long)t.ok, (unsigned long)t.warned,
           (unsigned long)t.refused);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        tool_error("validate", "cannot write the output: %s", tool_sys_strerror(errno));
        return TOOL_FAILED;
    }
    return t.refused ? TOOL_FAILED : TOOL_OK;
}

/* Reads the command line: *strict, *profile and the PATH arguments
 * marked in is_path. Returns -1 to go on, or the exit status. */
static int parse(int argc, char **argv, uint32_t *strict, int *profile, unsigned char *is_path)
{
    int i, options = 1, paths = 0;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options && strcmp(a, "--") == 0) {
            options = 0;
        } else if (options && tool_is_help(a)) {
            usage(stdout);
            return TOOL_OK;
        } else if (options && strcmp(a, "--strict") == 0) {
            *strict = MD2_STRICT_ALL;
        } else if (options && strcmp(a, "--profile") == 0) {
            if (i + 1 >= argc) {
                tool_error("validate", "--profile needs a value: " TOOL_PROFILE_NAMES);
                return usage_error();
            }
            if (!tool_parse_profile(argv[i + 1], profile)) {
                tool_error("validate", "bad --profile '%s': " TOOL_PROFILE_NAMES, argv[i + 1]);
                return usage_error();
            }
            i++;
        } else if (options && a[0] == '-' && a[1] != '\0') {
            tool_error("validate", "unknown option '%s'", a);
            return usage_error();
        } else {
            is_path[i] = 1;
            paths++;
        }
    }
    if (paths == 0) {
        tool_error("validate", "no PATH given");
        return usage_error();
    }
    return -1;
}

int tool_validate(int argc, char **argv)
{
    unsigned char *is_path = (unsigned char *)calloc((size_t)argc + 1, 1);
    tool_walk_list l;
    uint32_t strict = 0;
    int i, status, profile = MD2_PROFILE_FORMAT;
    memset(&l, 0, sizeof l);
    if (!is_path) {
        tool_error("validate", "out of memory");
        return TOOL_FAILED;
    }
    status = parse(argc, argv, &strict, &profile, is_path);
    for (i = 1; status < 0 && i < argc; i++) {
        if (is_path[i] && !tool_walk(&l, argv[i])) {
            tool_error("validate", "out of memory listing the files of '%s'", argv[i]);
            status = TOOL_FAILED;
        }
    }
    /* a file met twice is checked once, where it was first met */
    if (status < 0 && !tool_walk_unique(&l)) {
        tool_error("validate", "out of memory listing the files");
        status = TOOL_FAILED;
    }
    if (status < 0)
        status = run(&l, strict, profile);
    tool_walk_free(&l);
    free(is_path);
    return status;
}
