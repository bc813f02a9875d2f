/*
 * md2 export DIR... -o OUTDIR/: the models of folder trees exported as a
 * mirror of the trees, by a pool of threads (export_folder.h;
 * docs/tool.md, "Folders"). POSIX threads (on Windows mingw-w64's
 * winpthreads); files, folders and the captured output through platform.h.
 *
 * Each model is exported by export.c's export of one model (which it
 * passes to export_folder(): this file calls nothing of export.c's) with
 * the command line's own options, as `md2 export MODEL -o OUT` would, so
 * every option works the same on a folder. What one export prints goes to
 * streams of its own thread (tool_set_stream_hook()), printed whole once
 * its model is done, under the lock that also guards the progress bar and
 * the tallies; the export itself shares nothing mutable with the other
 * threads (libmd2 has no global state; the command's own code none but the
 * hook, set before the threads start).
 *
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L

#include "export_folder.h"
#include "export_internal.h"
#include "platform.h"
#include "walk.h"
#include "progress.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One model of the folders. */
typedef struct folder_model {
    const char *path;       /* as the walk found it (in the walk's list) */
    const char *walk_error; /* why the walk could not go there, or NULL */
    char *out;              /* the output file (malloc'd), NULL when there is none */
    char *reason;           /* why it failed (malloc'd), NULL when it did not */
    int failed;
} folder_model;

typedef struct folder_run {
    folder_model *models;
    size_t count;
    int argc;
    char **argv;
    const unsigned char *roles;
    int (*export_one)(int argc, char **argv); /* the export of one model */
    pthread_mutex_t lock; /* guards what follows, and printing */
    size_t next;          /* the next model to take */
    size_t exported;
    tool_progress progress;
} folder_run;

/* What one export printed: its stdout and its stderr. */
typedef struct capture {
    FILE *out, *err;
    char *out_text, *err_text;
    size_t out_size, err_size;
} capture;

/* The worker threads' captures, one per thread (pthread_setspecific):
 * created before the threads start, deleted after they end. */
static pthread_key_t capture_key;

static FILE *captured_stream(int err)
{
    capture *c = (capture *)pthread_getspecific(capture_key);
    return c ? (err ? c->err : c->out) : NULL;
}

static char *copy_text(const char *s, size_t n)
{
    char *p = (char *)malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

int export_is_folder(const char *path)
{
    tool_sys_stat st;
    return tool_sys_stat_path(path, 1, &st) == 0 && st.kind == TOOL_SYS_DIRECTORY;
}

int export_exists_not_folder(const char *path)
{
    tool_sys_stat st;
    return tool_sys_stat_path(path, 1, &st) == 0 && st.kind != TOOL_SYS_DIRECTORY;
}

/* Makes the folders above path's file (mkdir -p of its folder): NULL, or
 * why not (malloc'd; "out of memory" may itself be NULL'ed: then a fixed
 * text). Other threads may make the same folders at the same time. */
static char *make_folders_above(const char *path)
{
    char *p = copy_text(path, strlen(path)), *s, *why;
    char text[512];
    if (!p)
        return copy_text("out of memory", 13);
    for (s = p + 1; *s; s++) {
        char c = *s;
        if (!tool_sys_is_separator(c) || tool_sys_is_separator(s[-1]))
            continue;
        *s = '\0';
        /* a folder that is there is fine, whatever mkdir() said of it
         * (EEXIST; a drive, "C:", may say another error on Windows) */
        if (tool_sys_make_dir(p) != 0) {
            int e = errno;
            if (!export_is_folder(p)) {
                snprintf(text, sizeof text, "cannot make the folder %s: %s", p,
                         e == EEXIST ? "a file has that name" : tool_sys_strerror(e));
                free(p);
                why = copy_text(text, strlen(text));
                return why ? why : copy_text("out of memory", 13);
            }
        }
        *s = c;
    }
    free(p);
    return NULL;
}

/* Why a model failed, from what its export printed on stderr: the first
 * line "md2 export: ..." that is not a note or a warning, without that
 * prefix nor the model's path before ": ". */
static char *failure_reason(const char *model, const char *err)
{
    static const char prefix[] = "md2 " EXPORT_CMD ": ";
    size_t p = sizeof prefix - 1, m = strlen(model);
    const char *line = err;
    while (line && *line) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        if (n > p && strncmp(line, prefix, p) == 0 && strncmp(line + p, "note: ", 6) != 0 &&
            strncmp(line + p, "warning: ", 9) != 0) {
            const char *r = line + p;
            n -= p;
            if (n > m + 2 && strncmp(r, model, m) == 0 && strncmp(r + m, ": ", 2) == 0) {
                r += m + 2;
                n -= m + 2;
            }
            return copy_text(r, n);
        }
        line = end ? end + 1 : NULL;
    }
    return copy_text("the export failed (see above)", 29);
}

/* The words of the export of model m: argv's options, then -o OUT -- MODEL.
 * NULL when out of memory. */
static char **model_words(const folder_run *run, const folder_model *m, int *count)
{
    char **words = (char **)malloc(((size_t)run->argc + 4) * sizeof *words);
    int i, n = 0;
    if (!words)
        return NULL;
    words[n++] = run->argv[0];
    for (i = 1; i < run->argc; i++)
        if (run->roles[i] == EXPORT_WORD_OPTION)
            words[n++] = run->argv[i];
    words[n++] = (char *)"-o"; /* export_main() writes to no word */
    words[n++] = m->out;
    words[n++] = (char *)"--";
    words[n++] = (char *)m->path;
    words[n] = NULL;
    *count = n;
    return words;
}

/* Exports model m, its messages captured in c: TOOL_OK or TOOL_FAILED.
 * *ran is 1 once the export has run (it then said why it failed); before,
 * *why is why not (malloc'd; NULL: out of memory). */
static int export_one(const folder_run *run, folder_model *m, capture *c, char **why, int *ran)
{
    char **words;
    int n, status;
    *why = make_folders_above(m->out);
    if (*why)
        return TOOL_FAILED;
    words = model_words(run, m, &n);
    if (!words) {
        *why = copy_text("out of memory", 13);
        return TOOL_FAILED;
    }
    if (pthread_setspecific(capture_key, c) != 0) {
        free(words);
        *why = copy_text("cannot set up the thread's output", 33);
        return TOOL_FAILED;
    }
    status = run->export_one(n, words);
    *ran = 1;
    pthread_setspecific(capture_key, NULL);
    free(words);
    return status;
}

/* Prints what model m's export printed (ran: it ran), and tallies it;
 * run->lock held. why: why it failed when it did not run (NULL: out of
 * memory), or a reason set before (a second model of one output). */
static void report(folder_run *run, folder_model *m, int status, capture *c, char *why, int ran)
{
    tool_progress_hide(&run->progress);
    if (c->err_text)
        fwrite(c->err_text, 1, c->err_size, stderr);
    if (c->out_text)
        fwrite(c->out_text, 1, c->out_size, stdout);
    fflush(stdout);
    if (status == TOOL_OK) {
        run->exported++;
        free(why);
    } else {
        m->failed = 1;
        if (!ran) /* a failure of the folder's own work, said as the export's are */
            tool_error(EXPORT_CMD, "%s: %s", m->path, why ? why : "out of memory");
        if (!m->reason)
            m->reason = ran ? failure_reason(m->path, c->err_text ? c->err_text : "") : why;
        else
            free(why);
    }
    tool_progress_step(&run->progress);
}

/* A worker: takes the next model until there is none. */
static void *worker(void *arg)
{
    folder_run *run = (folder_run *)arg;
    for (;;) {
        folder_model *m;
        capture c;
        char *why = NULL;
        int status = TOOL_FAILED, opened, ran = 0, capture_error = 0;
        pthread_mutex_lock(&run->lock);
        if (run->next >= run->count) {
            pthread_mutex_unlock(&run->lock);
            return NULL;
        }
        m = &run->models[run->next++];
        pthread_mutex_unlock(&run->lock);

        memset(&c, 0, sizeof c);
        if (m->reason) {
            opened = 1; /* refused before the run: a second model of one output */
        } else if (m->walk_error) {
            why = copy_text(m->walk_error, strlen(m->walk_error));
            opened = 1;
        } else {
            c.out = tool_sys_capture_start(&c.out_text, &c.out_size);
            c.err = c.out ? tool_sys_capture_start(&c.err_text, &c.err_size) : NULL;
            opened = c.out && c.err;
            if (opened)
                status = export_one(run, m, &c, &why, &ran);
            else
                capture_error = errno;
            if (c.out && !tool_sys_capture_end(c.out, &c.out_text, &c.out_size))
                opened = 0;
            if (c.err && !tool_sys_capture_end(c.err, &c.err_text, &c.err_size))
                opened = 0;
        }
        if (!opened) {
            char text[256];
            status = TOOL_FAILED;
            ran = 0;
            free(why);
            /* (the stream's own error: a failed write or close, say) */
            snprintf(text, sizeof text, "cannot keep its messages: %s",
                     tool_sys_strerror(capture_error ? capture_error : EIO));
            why = copy_text(text, strlen(text));
        }
        pthread_mutex_lock(&run->lock);
        if (m->reason)
            why = copy_text(m->reason, strlen(m->reason)); /* said as the others */
        report(run, m, status, &c, why, ran);
        pthread_mutex_unlock(&run->lock);
        free(c.out_text);
        free(c.err_text);
    }
}

/* The output of model path, found below input (a folder if in_folder):
 * out_dir/ + its path below input (else its name), extension ext. */
static char *output_of(const char *out_dir, const char *input, int in_folder, const char *path,
                       const char *ext)
{
    size_t d = strlen(out_dir), r;
    const char *rel;
    char *joined, *out;
    if (in_folder) {
        rel = path + strlen(input);
        while (tool_sys_is_separator(*rel))
            rel++;
    } else {
        rel = tool_base_name(path);
    }
    while (d > 1 && tool_sys_is_separator(out_dir[d - 1]))
        d--;
    r = strlen(rel);
    joined = (char *)malloc(d + r + 2);
    if (!joined)
        return NULL;
    memcpy(joined, out_dir, d);
    joined[d] = '/';
    memcpy(joined + d + 1, rel, r + 1);
    out = tool_with_extension(joined, ext);
    free(joined);
    return out;
}

/* 1 if a folder between input and the file path (below input) is
 * out_dir (st_out): the same file (device and inode; on Windows the
 * volume's serial number and the file index), however it is named. */
static int inside_output(const char *input, const char *path, const tool_sys_stat *st_out)
{
    size_t start = strlen(input), n = strlen(path);
    char *p = copy_text(path, n);
    int inside = 0;
    size_t i;
    if (!p)
        return 0;
    for (i = n; i-- > start + 1 && !inside;) { /* the folders below input */
        tool_sys_stat st;
        if (!tool_sys_is_separator(p[i]))
            continue;
        p[i] = '\0';
        inside = tool_sys_stat_path(p, 1, &st) == 0 && st.kind == TOOL_SYS_DIRECTORY &&
                 st.dev == st_out->dev && st.ino == st_out->ino;
    }
    free(p);
    return inside;
}

static int by_output(const void *a, const void *b)
{
    const folder_model *x = *(const folder_model *const *)a, *y = *(const folder_model *const *)b;
    int c = strcmp(x->out, y->out);
    return c != 0 ? c : (x < y ? -1 : x > y); /* then in the walk's order */
}

/* A model whose output is also an earlier model's fails, saying so (the
 * earlier one is exported). 0 when out of memory. */
static int refuse_shared_outputs(folder_model *models, size_t count)
{
    folder_model **order = (folder_model **)malloc((count ? count : 1) * sizeof *order);
    size_t i, n = 0, first = 0;
    if (!order)
        return 0;
    for (i = 0; i < count; i++)
        if (models[i].out)
            order[n++] = &models[i];
    qsort(order, n, sizeof *order, by_output);
    for (i = 1; i < n; i++) {
        folder_model *m = order[i];
        char text[256];
        if (strcmp(order[first]->out, m->out) != 0) {
            first = i;
            continue;
        }
        snprintf(text, sizeof text, "its output %.100s is also that of %.100s", m->out,
                 order[first]->path);
        m->reason = copy_text(text, strlen(text));
        if (!m->reason) {
            free(order);
            return 0;
        }
    }
    free(order);
    return 1;
}

/* The models of the inputs, their outputs decided. 0 when out of memory
 * (said). */
static int list_models(folder_run *run, tool_walk_list *l, const char *out_dir, const char *ext)
{
    tool_sys_stat st_out;
    /* (an inode 0: no identity to compare, on a file system without) */
    int have_out = tool_sys_stat_path(out_dir, 1, &st_out) == 0 &&
                   st_out.kind == TOOL_SYS_DIRECTORY && st_out.ino != 0;
    size_t *from = NULL, i, k;
    int a;
    /* the walk of each input, and which input each entry came from */
    for (a = 1; a < run->argc; a++) {
        size_t before = l->count, *grown;
        if (run->roles[a] != EXPORT_WORD_INPUT)
            continue;
        if (!tool_walk(l, run->argv[a]))
            goto out_of_memory;
        grown = (size_t *)realloc(from, (l->count ? l->count : 1) * sizeof *from);
        if (!grown)
            goto out_of_memory;
        from = grown;
        for (i = before; i < l->count; i++)
            from[i] = (size_t)a;
    }
    /* tool_walk_unique() keeps the first of each file, in order: the
     * inputs of the kept entries are found again by their paths' order */
    {
        size_t n0 = l->count, j = 0;
        /* (as integers: the dropped ones are freed) */
        uintptr_t *paths = (uintptr_t *)malloc((n0 ? n0 : 1) * sizeof *paths);
        if (!paths)
            goto out_of_memory;
        for (i = 0; i < n0; i++)
            paths[i] = (uintptr_t)(void *)l->items[i].path;
        if (!tool_walk_unique(l)) {
            free(paths);
            goto out_of_memory;
        }
        for (i = 0; i < l->count; i++) {
            while (j < n0 && paths[j] != (uintptr_t)(void *)l->items[i].path)
                j++;
            from[i] = from[j];
        }
        free(paths);
    }
    run->models = (folder_model *)calloc(l->count ? l->count : 1, sizeof *run->models);
    if (!run->models)
        goto out_of_memory;
    for (i = 0, k = 0; i < l->count; i++) {
        const tool_walk_entry *e = &l->items[i];
        const char *input = run->argv[from[i]];
        int in_folder = export_is_folder(input);
        folder_model *m = &run->models[k];
        if (!e->error && in_folder && have_out && inside_output(input, e->path, &st_out))
            continue; /* a model in OUTDIR: not exported again */
        m->path = e->path;
        m->walk_error = e->error;
        if (!e->error) {
            m->out = output_of(out_dir, input, in_folder, e->path, ext);
            if (!m->out)
                goto out_of_memory;
        }
        run->count = ++k; /* (so that free_models() frees what is made) */
    }
    free(from);
    if (!refuse_shared_outputs(run->models, run->count))
        goto out_of_memory_kept;
    return 1;
out_of_memory:
    free(from);
out_of_memory_kept:
    tool_error(EXPORT_CMD, "out of memory listing the models");
    return 0;
}

static void free_models(folder_run *run)
{
    size_t i;
    for (i = 0; i < run->count; i++) {
        free(run->models[i].out);
        free(run->models[i].reason);
    }
    free(run->models);
}

/* The threads to run: jobs, or one per online CPU; no more than models. */
static size_t thread_count(long jobs, size_t models)
{
    long n = jobs;
    if (n <= 0) {
        n = tool_sys_cpu_count();
        if (n > EXPORT_MAX_JOBS)
            n = EXPORT_MAX_JOBS;
    }
    if ((size_t)n > models)
        n = (long)(models ? models : 1);
    return (size_t)n;
}

/* Runs the workers, this thread among them; 0 if the key cannot be made. */
static int run_workers(folder_run *run, size_t threads)
{
    pthread_t *ids = (pthread_t *)malloc(threads * sizeof *ids);
    size_t started = 0, i;
    if (pthread_key_create(&capture_key, NULL) != 0) {
        free(ids);
        tool_error(EXPORT_CMD, "cannot make the threads' output streams");
        return 0;
    }
    tool_set_stream_hook(captured_stream);
    /* this thread is a worker too: with no thread started (out of memory
     * or resources), it exports them all */
    for (i = 1; ids && i < threads; i++) {
        if (pthread_create(&ids[started], NULL, worker, run) != 0)
            break;
        started++;
    }
    worker(run);
    for (i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    tool_set_stream_hook(NULL);
    pthread_key_delete(capture_key);
    free(ids);
    return 1;
}

int export_folder(int argc, char **argv, const unsigned char *roles, const char *out_dir,
                  const char *ext, long jobs, int (*export_one)(int argc, char **argv))
{
    tool_walk_list l;
    folder_run run;
    size_t i, failed = 0;
    int status = TOOL_FAILED;
    memset(&l, 0, sizeof l);
    memset(&run, 0, sizeof run);
    run.argc = argc;
    run.argv = argv;
    run.roles = roles;
    run.export_one = export_one;
    if (!list_models(&run, &l, out_dir, ext))
        goto done;
    if (pthread_mutex_init(&run.lock, NULL) != 0) {
        tool_error(EXPORT_CMD, "cannot make the threads' lock");
        goto done;
    }
    tool_progress_start(&run.progress, stderr, run.count);
    run.progress.cmd = EXPORT_CMD;
    if (!run_workers(&run, thread_count(jobs, run.count))) {
        pthread_mutex_destroy(&run.lock);
        goto done;
    }
    pthread_mutex_destroy(&run.lock);
    tool_progress_hide(&run.progress);
    for (i = 0; i < run.count; i++) {
        const folder_model *m = &run.models[i];
        if (!m->failed)
            continue;
        failed++;
        tool_put_clean(stdout, m->path);
        fputs(": failed: ", stdout);
        tool_put_clean(stdout, m->reason ? m->reason : "out of memory");
        putchar('\n');
    }
    printf("%lu model%s: %lu exported, %lu failed\n", (unsigned long)run.count,
           run.count == 1 ? "" : "s", (unsigned long)run.exported, (unsigned long)failed);
    if (fflush(stdout) != 0 || ferror(stdout))
        tool_error(EXPORT_CMD, "cannot write the output: %s", tool_sys_strerror(errno));
    else
        status = failed ? TOOL_FAILED : TOOL_OK;
done:
    free_models(&run);
    tool_walk_free(&l);
    return status;
}
