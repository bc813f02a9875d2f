/*
 * A model and its side files in one call: the .anm, .framegroups and .tag
 * files beside a model are found by name, read through the caller's
 * md2_file_fn (or stdio) and parsed with the caller's options; every
 * message names the file it is about.
 *
 * SPDX-License-Identifier: MIT
 */
#include "attach.h"
#include "format.h"
#include "reserved.h"

#include "md2/bundle.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The longest extension appended, with its NUL. */
#define LONGEST_EXTENSION sizeof ".framegroups"

typedef struct bctx {
    md2_file_fn read;
    void *user;
    const char *(*why)(void *user); /* why read failed (NULL: no reason known) */
    const md2_options *caller;  /* the caller's options (may be NULL) */
    md2_options opts;           /* theirs, with our error and warning hooks */
    md2_diagnostic diag;        /* where the parsers report */
    md2_allocator a;
    const char *current;        /* the file being read or parsed */
    uint32_t warnings;          /* every flag raised */
    char *path;                 /* the model's path, then a side file's */
    md2_read_fn stream;         /* the model as a stream (NULL: read through read) */
    void *stream_user;
    const char *(*stream_why)(void *user); /* why stream failed (NULL: unknown) */
    int stream_file;            /* stream reads a file: wording of a failed first read */
    size_t base_len;            /* bytes of the path before its extension */
    int upper;                  /* side-file extensions in upper case */
} bctx;

/* Appends text to d's message at *n, as far as it fits. */
static void append(md2_diagnostic *d, size_t *n, const char *text)
{
    size_t cap = sizeof d->message - 1;
    for (; *text && *n < cap; text++)
        d->message[(*n)++] = *text;
    d->message[*n] = '\0';
}

/* Puts "path: " before d's message (cut to fit). */
static void name_file(md2_diagnostic *d, const char *path)
{
    char msg[sizeof d->message];
    size_t n = 0;
    memcpy(msg, d->message, sizeof msg);
    msg[sizeof msg - 1] = '\0';
    append(d, &n, path);
    append(d, &n, ": ");
    append(d, &n, msg);
}

/* The parsers' warnings: recorded, and passed on with the file's name. */
static void on_warning(void *user, const md2_diagnostic *warning)
{
    bctx *c = (bctx *)user;
    md2_diagnostic d;

    c->warnings |= warning->warning;
    if (!c->caller || !c->caller->on_warning)
        return;
    d = *warning;
    name_file(&d, c->current);
    c->caller->on_warning(c->caller->warning_user, &d);
}

/* Hands an error the parsers reported in c->diag to the caller, with the
 * file's name. Returns r. */
static md2_result pass_error(bctx *c, md2_result r)
{
    md2_diagnostic *err = c->caller ? c->caller->error : NULL;
    if (err) {
        *err = c->diag;
        err->result = r;
        name_file(err, c->current);
    }
    return r;
}

/* Fails with an error of the bundle itself (about the file c->current). */
static md2_result fail(bctx *c, md2_result r, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static md2_result fail(bctx *c, md2_result r, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r = md2__vfail(c->caller ? c->caller->error : NULL, r, MD2_SECTION_NONE, field, 0, 0, fmt,
                   ap);
    va_end(ap);
    return r;
}

/* Reads the whole file c->current into a new buffer (*data, *size; freed
 * with c->a). A missing file sets *found to 0 and is an error only when
 * required. */
static md2_result read_file(bctx *c, int required, uint8_t **data, size_t *size,
                            int *found)
{
    size_t max = c->opts.limits.max_file_size;
    size_t limit = max != 0 && max < MD2_MAX_DATA_SIZE ? max : MD2_MAX_DATA_SIZE;
    size_t n, again;
    uint8_t *buf;

    *data = NULL;
    *size = 0;
    *found = 0;
    n = c->read(c->user, c->current, NULL, limit);
    if (n == MD2_FILE_MISSING) {
        if (required)
            return fail(c, MD2_ERR_IO, "path", "cannot open '%s': no such file",
                        c->current);
        return MD2_OK;
    }
    if (n == MD2_FILE_ERROR)
        return fail(c, MD2_ERR_IO, "path", "%s: the file exists but cannot be read%s%s",
                    c->current, c->why ? ": " : "", c->why ? c->why(c->user) : "");
    if (n > limit)
        return fail(c, MD2_ERR_LIMIT_EXCEEDED, "max_file_size",
                    "%s: the file has more than %lu bytes (%s)", c->current,
                    (unsigned long)limit,
                    limit == max ? "the caller's max_file_size"
                                 : "2^31 - 1, more than any file this library reads");
    buf = (uint8_t *)c->a.alloc(c->a.user, n ? n : 1u);
    if (!buf)
        return fail(c, MD2_ERR_OUT_OF_MEMORY, "",
                    "%s: allocating %lu bytes to read the file failed", c->current,
                    (unsigned long)n);
    again = c->read(c->user, c->current, buf, n);
    if (again != n) {
        c->a.free(c->a.user, buf);
        if (again == MD2_FILE_MISSING || again == MD2_FILE_ERROR)
            return fail(c, MD2_ERR_IO, "path", "%s: the file cannot be read (it did a moment ago)",
                        c->current);
        return fail(c, MD2_ERR_IO, "path",
                    "%s: the file changed size while it was read (%lu bytes, then %lu)",
                    c->current, (unsigned long)n, (unsigned long)again);
    }
    *data = buf;
    *size = n;
    *found = 1;
    return MD2_OK;
}

/* Sets c->path to the side file with this extension (".anm", ...). */
static void side_path(bctx *c, const char *ext)
{
    size_t i, n = strlen(ext);
    for (i = 0; i <= n; i++) {
        char ch = ext[i];
        if (c->upper && ch >= 'a' && ch <= 'z')
            ch = (char)(ch - 'a' + 'A');
        c->path[c->base_len + i] = ch;
    }
    c->current = c->path;
}

/* Where the model path's extension starts (its length if it has none),
 * and whether side files get upper-case extensions. */
static void split_path(bctx *c, const char *model_path, size_t len)
{
    size_t name = 0, i, dot = len;
    int letters = 0, lower = 0;

    for (i = 0; i < len; i++)
        if (model_path[i] == '/' || model_path[i] == '\\')
            name = i + 1;
    for (i = name; i < len; i++)
        if (model_path[i] == '.')
            dot = i;
    if (dot == name) /* ".md2": a name that starts with its only dot */
        dot = len;
    for (i = dot; i < len; i++) {
        char ch = model_path[i];
        letters += (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
        lower += ch >= 'a' && ch <= 'z';
    }
    c->base_len = dot;
    c->upper = letters > 0 && lower == 0;
}

/* The animations: from the .anm file, else the .framegroups file, else
 * the frame names. Allocates the bundle with room for them. */
static md2_result load_anims(bctx *c, const md2_model *m, md2_bundle **out)
{
    static const char *const exts[2] = {".anm", ".framegroups"};
    uint8_t *text = NULL;
    size_t size = 0, count = 0, at, total, i;
    md2_anim_source source = MD2_ANIMS_FROM_NAMES;
    md2_bundle *b;
    int found = 0, k;
    md2_result r;

    for (k = 0; k < 2 && !found; k++) {
        side_path(c, exts[k]);
        MD2_TRY(read_file(c, 0, &text, &size, &found));
        if (!found)
            continue;
        source = k == 0 ? MD2_ANIMS_FROM_ANM : MD2_ANIMS_FROM_FRAMEGROUPS;
        r = k == 0 ? md2_parse_anm((const char *)text, size, m, &c->opts, NULL, 0, &count)
                   : md2_parse_framegroups((const char *)text, size, m, &c->opts, NULL, 0,
                                           &count);
        if (r != MD2_OK) {
            c->a.free(c->a.user, text);
            return pass_error(c, r);
        }
    }
    if (!found)
        count = md2_anims_from_names(m, NULL, 0);

    at = (sizeof(md2_bundle) + MD2_ALIGNOF(md2_anim) - 1) /
         MD2_ALIGNOF(md2_anim) * MD2_ALIGNOF(md2_anim);
    if (count > (SIZE_MAX - at) / sizeof(md2_anim)) {
        c->a.free(c->a.user, text);
        return fail(c, MD2_ERR_OUT_OF_MEMORY, "", "%s: %lu animations do not fit in memory",
                    c->current, (unsigned long)count);
    }
    total = at + count * sizeof(md2_anim);
    b = (md2_bundle *)c->a.alloc(c->a.user, total);
    if (!b) {
        c->a.free(c->a.user, text);
        return fail(c, MD2_ERR_OUT_OF_MEMORY, "", "allocating %lu bytes for the bundle failed",
                    (unsigned long)total);
    }
    memset(b, 0, sizeof *b);
    b->allocator_ = c->a;
    b->anims = count ? (const md2_anim *)(const void *)((const unsigned char *)b + at) : NULL;
    b->num_anims = count;
    b->anim_source = source;
    if (found) {
        /* the text again, into the array: it parsed once, so it parses the
         * same way; its warnings have been reported */
        md2_options quiet = c->opts;
        md2_anim *anims = (md2_anim *)(void *)((unsigned char *)b + at);
        quiet.on_warning = NULL;
        quiet.error = NULL;
        if (source == MD2_ANIMS_FROM_ANM)
            (void)md2_parse_anm((const char *)text, size, m, &quiet, anims, count, &i);
        else
            (void)md2_parse_framegroups((const char *)text, size, m, &quiet, anims, count, &i);
        b->files |= source == MD2_ANIMS_FROM_ANM ? MD2_BUNDLE_ANM : MD2_BUNDLE_FRAMEGROUPS;
        c->a.free(c->a.user, text);
    } else if (count) {
        (void)md2_anims_from_names(m, (md2_anim *)(void *)((unsigned char *)b + at), count);
    }
    *out = b;
    return MD2_OK;
}

/* The .tag file, if there is one, checked against the model. */
static md2_result load_tags(bctx *c, const md2_model *m, md2_tags **out)
{
    uint8_t *data;
    size_t size;
    int found;
    md2_result r;

    *out = NULL;
    side_path(c, ".tag");
    MD2_TRY(read_file(c, 0, &data, &size, &found));
    if (!found)
        return MD2_OK;
    r = md2_tags_parse(data, size, &c->opts, out);
    c->a.free(c->a.user, data);
    if (r == MD2_OK) {
        c->warnings |= (*out)->warnings;
        r = md2_tags_check(*out, m, &c->opts);
        if (r != MD2_OK) {
            md2_tags_free(*out);
            *out = NULL;
        }
    }
    return r == MD2_OK ? MD2_OK : pass_error(c, r);
}

/* The model at c->current: as a stream (header first, bounded, one pass:
 * md2__load_source()) when c->stream is set, else the whole file through
 * c->read, then md2_parse(). */
static md2_result load_model(bctx *c, md2_model **model)
{
    uint8_t *data;
    size_t size;
    int found;
    md2_result r;
    if (c->stream) {
        r = md2__load_source(c->stream, c->stream_user, c->stream_why, c->stream_file, &c->opts,
                             model);
        return r == MD2_OK ? MD2_OK : pass_error(c, r);
    }
    MD2_TRY(read_file(c, 1, &data, &size, &found));
    r = md2_parse(data, size, &c->opts, model);
    c->a.free(c->a.user, data);
    return r == MD2_OK ? MD2_OK : pass_error(c, r);
}

/* How bundle_load() reads: side files through read (why(user), may be
 * NULL, tells why it returned MD2_FILE_ERROR); the model through stream,
 * when it is not NULL. */
typedef struct bundle_reads {
    md2_file_fn read;
    void *user;
    const char *(*why)(void *user);
    md2_read_fn stream;
    void *stream_user;
    const char *(*stream_why)(void *user);
    int stream_file;
} bundle_reads;

static md2_result bundle_load(const char *model_path, const bundle_reads *how,
                              const md2_options *opts, md2_bundle **out)
{
    bctx c;
    size_t len;
    md2_model *model = NULL;
    md2_tags *tags = NULL;
    md2_bundle *b = NULL;
    md2_result r;

    md2__diag_clear(opts ? opts->error : NULL);
    if (out)
        *out = NULL;
    if (!model_path || !how->read || !out)
        return md2__fail(opts ? opts->error : NULL, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE,
                         "", 0, 0, "md2_bundle_load: %s is NULL",
                         !model_path ? "model_path" : !how->read ? "read" : "out");
    MD2_TRY(md2__reserved_options(opts));
    memset(&c, 0, sizeof c);
    c.read = how->read;
    c.user = how->user;
    c.why = how->why;
    c.stream = how->stream;
    c.stream_user = how->stream_user;
    c.stream_why = how->stream_why;
    c.stream_file = how->stream_file;
    c.caller = opts;
    if (opts)
        c.opts = *opts;
    c.opts.error = &c.diag;
    c.opts.on_warning = on_warning;
    c.opts.warning_user = &c;
    c.a = md2__allocator(opts);
    c.current = model_path;

    len = strlen(model_path);
    if (len > SIZE_MAX - LONGEST_EXTENSION)
        return fail(&c, MD2_ERR_INVALID_ARGUMENT, "path", "the model's path is too long");
    split_path(&c, model_path, len);
    c.path = (char *)c.a.alloc(c.a.user, c.base_len + LONGEST_EXTENSION);
    if (!c.path)
        return fail(&c, MD2_ERR_OUT_OF_MEMORY, "", "allocating %lu bytes for a path failed",
                    (unsigned long)(c.base_len + LONGEST_EXTENSION));
    memcpy(c.path, model_path, c.base_len);

    r = load_model(&c, &model);
    /* the side files */
    if (r == MD2_OK)
        r = load_anims(&c, model, &b);
    if (r == MD2_OK)
        r = load_tags(&c, model, &tags);
    c.a.free(c.a.user, c.path);
    if (r != MD2_OK) {
        md2_free(model);
        md2_tags_free(tags);
        if (b)
            c.a.free(c.a.user, b);
        return r;
    }
    b->model = model;
    b->tags = tags;
    if (tags)
        b->files |= MD2_BUNDLE_TAG;
    b->warnings = c.warnings | model->warnings;
    *out = b;
    return MD2_OK;
}

md2_result md2_bundle_load(const char *model_path, md2_file_fn read, void *user,
                           const md2_options *opts, md2_bundle **out)
{
    bundle_reads how;
    memset(&how, 0, sizeof how);
    how.read = read;
    how.user = user;
    return bundle_load(model_path, &how, opts, out);
}

md2_result md2_bundle_load_stream(const char *model_path, md2_read_fn read_model,
                                  void *model_user, md2_file_fn read, void *user, md2_why_fn why,
                                  const md2_options *opts, md2_bundle **out)
{
    bundle_reads how;
    if (!read_model) {
        md2__diag_clear(opts ? opts->error : NULL);
        if (out)
            *out = NULL;
        return md2__fail(opts ? opts->error : NULL, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_NONE,
                         "", 0, 0, "md2_bundle_load_stream: read_model is NULL");
    }
    memset(&how, 0, sizeof how);
    how.read = read;
    how.user = user;
    how.why = why;
    how.stream = read_model;
    how.stream_user = model_user;
    how.stream_why = why;
    return bundle_load(model_path, &how, opts, out);
}

/* md2_file_fn over the C library's stdio; user is an int that receives
 * errno when a file cannot be opened or read. */
static size_t stdio_read(void *user, const char *path, void *dst, size_t capacity)
{
    unsigned char scratch[4096];
    size_t total = 0, n;
    int failed;
    FILE *f;

    errno = 0;
    f = fopen(path, "rb");
    if (!f) {
        /* no file (C does not promise errno here; 0 says nothing else) */
        if (errno == 0)
            return MD2_FILE_MISSING;
#ifdef ENOENT
        if (errno == ENOENT)
            return MD2_FILE_MISSING;
#endif
        *(int *)user = errno;
        return MD2_FILE_ERROR;
    }
    if (dst) {
        total = fread(dst, 1, capacity, f);
        /* one byte more: the file grew since it was measured */
        if (total == capacity && fread(scratch, 1, 1, f) == 1)
            total++;
    } else {
        do {
            n = fread(scratch, 1, sizeof scratch, f);
            total += n;
        } while (n == sizeof scratch && total <= capacity);
    }
    failed = ferror(f) != 0;
    if (failed)
        *(int *)user = errno;
    if (fclose(f) != 0 && !dst && !failed) {
        *(int *)user = errno;
        failed = 1;
    }
    return failed ? MD2_FILE_ERROR : total;
}

static const char *stdio_why(void *user)
{
    return md2__errno_text(*(const int *)user);
}

/* The model file for md2_bundle_load_file(), read as a stream. */
typedef struct model_file {
    FILE *f;
    int error; /* errno of the failed read */
} model_file;

static size_t model_file_read(void *user, void *dst, size_t size)
{
    model_file *mf = (model_file *)user;
    size_t n;
    errno = 0;
    n = fread(dst, 1, size, mf->f);
    if (n < size && ferror(mf->f)) {
        mf->error = errno;
        return MD2_READ_ERROR;
    }
    return n;
}

static const char *model_file_why(void *user)
{
    return md2__errno_text(((const model_file *)user)->error);
}

md2_result md2_bundle_load_file(const char *model_path, const md2_options *opts,
                                md2_bundle **out)
{
    md2_diagnostic *err = opts ? opts->error : NULL;
    bundle_reads how;
    model_file mf;
    int error = 0;
    md2_result r;

    if (out)
        *out = NULL;
    if (model_path && out) {
        /* the model is opened here, and read as md2_load_file() reads:
         * the header first, then no further than it describes */
        errno = 0;
        mf.f = fopen(model_path, "rb");
        mf.error = 0;
        if (!mf.f) {
            md2__diag_clear(err);
#ifdef ENOENT
            if (errno == ENOENT || errno == 0)
#else
            if (errno == 0)
#endif
                return md2__fail(err, MD2_ERR_IO, MD2_SECTION_NONE, "path", 0, 0,
                                 "cannot open '%s': no such file", model_path);
            return md2__fail(err, MD2_ERR_IO, MD2_SECTION_NONE, "path", 0, 0,
                             "%s: the file exists but cannot be read: %s", model_path,
                             md2__errno_text(errno));
        }
    } else {
        mf.f = NULL;
    }
    memset(&how, 0, sizeof how);
    how.read = stdio_read;
    how.user = &error;
    how.why = stdio_why;
    if (mf.f) {
        how.stream = model_file_read;
        how.stream_user = &mf;
        how.stream_why = model_file_why;
        how.stream_file = 1;
    }
    r = bundle_load(model_path, &how, opts, out);
    if (mf.f)
        fclose(mf.f);
    return r;
}

void md2_bundle_free(md2_bundle *bundle)
{
    md2_allocator a;
    if (!bundle || !bundle->allocator_.free)
        return;
    a = bundle->allocator_;
    md2_free((md2_model *)bundle->model);
    md2_tags_free((md2_tags *)bundle->tags);
    a.free(a.user, bundle);
}
