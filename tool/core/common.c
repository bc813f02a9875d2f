/*
 * md2 command: what the subcommands share (see tool.h). Files and folders
 * through platform.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "tool.h"
#include "platform.h"

#include <md2/build.h>
#include <md2/skin.h>
#include <png.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The formatted text of fmt and ap in a malloc'd string, or NULL (out of
 * memory, or a format error). */
static char *format_text(const char *fmt, va_list ap)
{
    va_list again;
    char *s;
    int n;
    va_copy(again, ap);
    n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0) {
        va_end(again);
        return NULL;
    }
    s = (char *)malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    return s;
}

/* Writes the formatted text cleaned (tool_put_clean()); when it cannot be
 * formatted whole (out of memory), its first bytes, from a buffer of a
 * fixed size, cleaned all the same. */
static void put_clean_v(FILE *f, const char *fmt, va_list ap)
{
    va_list again;
    char *s;
    va_copy(again, ap);
    s = format_text(fmt, ap);
    if (s) {
        tool_put_clean(f, s);
        free(s);
    } else {
        char fixed[512];
        vsnprintf(fixed, sizeof fixed, fmt, again);
        tool_put_clean(f, fixed);
    }
    va_end(again);
}

/* Set by tool_set_stream_hook() before any thread starts, cleared after
 * they have ended: read, never written, while threads run. */
static tool_stream_hook stream_hook;

void tool_set_stream_hook(tool_stream_hook hook)
{
    stream_hook = hook;
}

FILE *tool_stdout(void)
{
    FILE *f = stream_hook ? stream_hook(0) : NULL;
    return f ? f : stdout;
}

FILE *tool_stderr(void)
{
    FILE *f = stream_hook ? stream_hook(1) : NULL;
    return f ? f : stderr;
}

void tool_error(const char *cmd, const char *fmt, ...)
{
    FILE *err = tool_stderr();
    va_list ap;
    fputs("md2 ", err);
    tool_put_clean(err, cmd);
    fputs(": ", err);
    va_start(ap, fmt);
    put_clean_v(err, fmt, ap);
    va_end(ap);
    fputc('\n', err);
}

void tool_term_printf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_clean_v(f, fmt, ap);
    va_end(ap);
}

int tool_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

int tool_parse_long(const char *arg, long min, long max, long *out)
{
    char *end;
    long v;
    if (!arg || !*arg)
        return 0;
    errno = 0;
    v = strtol(arg, &end, 10);
    if (errno || *end || v < min || v > max)
        return 0;
    *out = v;
    return 1;
}

int tool_parse_double(const char *arg, double *out)
{
    char *end;
    double v;
    if (!arg || !*arg)
        return 0;
    errno = 0;
    v = strtod(arg, &end);
    if (errno || *end || v != v || v > 1e300 || v < -1e300)
        return 0;
    *out = v;
    return 1;
}

/* In md2_profile order; a profile added to the library without a name
 * here is "unknown" and cannot be chosen. */
static const char *const profile_names[MD2_PROFILE_COUNT_] = {"format", "quake2", "yquake2",
                                                               "ufoai", "q2pro"};

int tool_parse_profile(const char *arg, int *p)
{
    int i;
    for (i = 1; i < MD2_PROFILE_COUNT_; i++) {
        if (profile_names[i] && strcmp(arg, profile_names[i]) == 0) {
            *p = i;
            return 1;
        }
    }
    return 0;
}

const char *tool_profile_name(int p)
{
    return p >= 0 && p < MD2_PROFILE_COUNT_ && profile_names[p] ? profile_names[p] : "unknown";
}

int tool_parse_pair(const char *arg, long max, long *a, long *b)
{
    const char *x;
    char first[32];
    size_t n;
    if (!arg)
        return 0;
    x = strchr(arg, 'x');
    if (!x)
        return 0;
    n = (size_t)(x - arg);
    if (n == 0 || n >= sizeof first)
        return 0;
    memcpy(first, arg, n);
    first[n] = '\0';
    return tool_parse_long(first, 1, max, a) && tool_parse_long(x + 1, 1, max, b);
}

size_t tool_warning_kind(const md2_diagnostic *w)
{
    size_t bit = 0, section = (size_t)w->section;
    while (bit + 1 < TOOL_WARNING_FLAGS && !(w->warning & (1u << bit)))
        bit++;
    if (section >= TOOL_WARNING_SECTIONS)
        section = TOOL_WARNING_SECTIONS - 1;
    return bit * TOOL_WARNING_SECTIONS + section;
}

static void keep_warning(void *user, const md2_diagnostic *w)
{
    tool_model *m = (tool_model *)user;
    size_t kind = tool_warning_kind(w);
    m->warning_total++;
    if (m->kind_count[kind]++ > 0 && m->warning_count >= TOOL_KEPT_WARNINGS)
        return; /* counted; not the first of its kind */
    if (m->warning_count == m->warning_capacity) {
        size_t cap = m->warning_capacity ? m->warning_capacity * 2 : 8;
        md2_diagnostic *p = (md2_diagnostic *)realloc(m->warnings, cap * sizeof *p);
        if (!p) {
            m->warnings_lost = 1;
            return;
        }
        m->warnings = p;
        m->warning_capacity = cap;
    }
    m->warnings[m->warning_count++] = *w;
}

/* The files of one tool_load(): the model as a stream, the side files
 * through side_read(). why holds the reason of the last failure. */
typedef struct load_files {
    int fd;        /* the model */
    int error;     /* errno of the model's failed read */
    char why[128]; /* why a side file cannot be read */
} load_files;

static size_t model_read(void *user, void *dst, size_t size)
{
    load_files *lf = (load_files *)user;
    size_t n = tool_read_fd(lf->fd, dst, size, &lf->error);
    if (n == (size_t)-1) {
        snprintf(lf->why, sizeof lf->why, "%s", tool_errno_text(lf->error));
        return MD2_READ_ERROR;
    }
    return n;
}

/* md2_file_fn for the side files: regular files only (a FIFO would make
 * the load wait forever), of at most TOOL_MAX_SIDE_FILE bytes, read in one
 * pass each time. */
static size_t side_read(void *user, const char *path, void *dst, size_t capacity)
{
    load_files *lf = (load_files *)user;
    tool_sys_stat st;
    size_t got, n;
    int missing, error = 0, fd = tool_open_input(path, 0, &missing, lf->why, sizeof lf->why);
    unsigned char probe;
    if (fd < 0)
        return missing ? MD2_FILE_MISSING : MD2_FILE_ERROR;
    if (tool_sys_stat_fd(fd, &st) != 0) {
        snprintf(lf->why, sizeof lf->why, "%s", tool_errno_text(errno));
        tool_sys_close(fd);
        return MD2_FILE_ERROR;
    }
    if (st.size > TOOL_MAX_SIDE_FILE) {
        snprintf(lf->why, sizeof lf->why, "it has %llu bytes, more than the %lu a side file may "
                 "have", st.size, (unsigned long)TOOL_MAX_SIDE_FILE);
        tool_sys_close(fd);
        return MD2_FILE_ERROR;
    }
    if (!dst) {
        tool_sys_close(fd);
        return (size_t)st.size;
    }
    got = tool_read_fd(fd, dst, capacity, &error);
    /* one byte more: the file grew since it was measured */
    if (got == capacity && (n = tool_read_fd(fd, &probe, 1, &error)) != (size_t)-1)
        got += n;
    tool_sys_close(fd);
    if (got == (size_t)-1 || error) {
        snprintf(lf->why, sizeof lf->why, "%s", tool_errno_text(error));
        return MD2_FILE_ERROR;
    }
    return got;
}

static const char *load_why(void *user)
{
    return ((load_files *)user)->why;
}

md2_result tool_load(const char *path, uint32_t strict, tool_model *out, md2_diagnostic *error)
{
    md2_options opts;
    md2_result r;
    load_files lf;
    int missing;
    memset(out, 0, sizeof *out);
    memset(&lf, 0, sizeof lf);
    /* the model as given: a regular file, or a pipe or device read as a
     * stream (md2 info /dev/stdin), never a directory */
    lf.fd = tool_open_input(path, 1, &missing, lf.why, sizeof lf.why);
    if (lf.fd < 0) {
        memset(error, 0, sizeof *error);
        error->result = MD2_ERR_IO;
        error->field = "path";
        if (missing)
            snprintf(error->message, sizeof error->message, "cannot open '%s': no such file",
                     path);
        else
            snprintf(error->message, sizeof error->message,
                     "%s: the file exists but cannot be read: %s", path, lf.why);
        return MD2_ERR_IO;
    }
    memset(&opts, 0, sizeof opts);
    opts.strict = strict;
    opts.error = error;
    opts.on_warning = keep_warning;
    opts.warning_user = out;
    r = md2_bundle_load_stream(path, model_read, &lf, side_read, &lf, load_why, &opts,
                               &out->bundle);
    tool_sys_close(lf.fd);
    if (r != MD2_OK) {
        tool_model_free(out);
        return r;
    }
    out->model = out->bundle->model;
    out->anims = out->bundle->anims;
    out->num_anims = out->bundle->num_anims;
    return MD2_OK;
}

const char *tool_message(const char *path, const md2_diagnostic *d)
{
    size_t n = strlen(path);
    if (strncmp(d->message, path, n) == 0 && d->message[n] == ':' && d->message[n + 1] == ' ')
        return d->message + n + 2;
    return d->message;
}

void tool_load_error(const char *cmd, const char *path, const md2_diagnostic *d)
{
    tool_error(cmd, "%s: %s", path, tool_message(path, d));
}

/* Bytes of the valid UTF-8 sequence of two or more bytes at s, or 0. */
static size_t utf8_length(const unsigned char *s)
{
    unsigned char lo = 0x80, hi = 0xBF;
    size_t n, i;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        n = 2;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF)
        n = 3;
    else if (s[0] >= 0xF0 && s[0] <= 0xF4)
        n = 4;
    else
        return 0;
    if (s[0] == 0xE0)
        lo = 0xA0; /* no overlong forms */
    else if (s[0] == 0xED)
        hi = 0x9F; /* no surrogates */
    else if (s[0] == 0xF0)
        lo = 0x90;
    else if (s[0] == 0xF4)
        hi = 0x8F; /* nothing past U+10FFFF */
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

/* 1 if the code point of the n-byte UTF-8 sequence at s is one a terminal
 * acts on rather than shows: a C1 control (U+0080 to U+009F, such as CSI
 * U+009B and OSC U+009D), the line and paragraph separators U+2028 and
 * U+2029, or a bidirectional control (U+061C, U+200E, U+200F, U+202A to
 * U+202E, U+2066 to U+2069), which reorder the text shown after them. */
static int is_control_point(const unsigned char *s, size_t n)
{
    unsigned long cp;
    if (n == 2)
        cp = ((unsigned long)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
    else if (n == 3)
        cp = ((unsigned long)(s[0] & 0x0F) << 12) | ((unsigned long)(s[1] & 0x3F) << 6) |
             (s[2] & 0x3F);
    else
        return 0; /* nothing above U+FFFF is a control */
    return cp <= 0x9F || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

size_t tool_put_clean(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t columns = 0, n, i;
    while (*p) {
        if (*p >= 0x20 && *p < 0x7F) {
            if (f)
                fputc(*p, f);
            p++;
            columns++;
        } else if ((n = utf8_length(p)) != 0 && !is_control_point(p, n)) {
            if (f)
                fwrite(p, 1, n, f);
            p += n;
            columns++;
        } else {
            if (n == 0)
                n = 1;
            for (i = 0; i < n; i++) {
                if (f)
                    fprintf(f, "\\x%02X", (unsigned)p[i]);
                columns += 4;
            }
            p += n;
        }
    }
    return columns;
}

void tool_json_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    for (; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p >= 0x20 && *p < 0x7F)
            fputc(*p, f);
        else
            fprintf(f, "\\u%04X", (unsigned)*p);
    }
    fputc('"', f);
}

size_t tool_find_anim(const char *cmd, const tool_model *m, const char *name)
{
    FILE *err = tool_stderr();
    size_t i = md2_anim_find(m->anims, m->num_anims, name);
    if (i != MD2_ANIM_NOT_FOUND)
        return i;
    fprintf(err, "md2 %s: the model has no animation named '", cmd);
    tool_put_clean(err, name);
    if (m->num_anims == 0) {
        fputs("' (it has none)\n", err);
        return MD2_ANIM_NOT_FOUND;
    }
    fputs("'; it has:", err);
    for (i = 0; i < m->num_anims; i++) {
        fputc(' ', err);
        tool_put_clean(err, m->anims[i].name);
    }
    fputc('\n', err);
    return MD2_ANIM_NOT_FOUND;
}

int tool_normals_kind(const char *value)
{
    return strcmp(value, "smooth") == 0;
}

int tool_smooth_normals(const char *cmd, const char *path, tool_model *m)
{
    md2_build_options bo;
    md2_diagnostic diag;
    md2_model *smooth = NULL;

    memset(&bo, 0, sizeof bo);
    memset(&diag, 0, sizeof diag);
    bo.flags = MD2_REBUILD_NORMALS;
    bo.error = &diag;
    if (md2_rebuild(m->model, &bo, &smooth) != MD2_OK) {
        tool_error(cmd, "%s: cannot recompute its normals (--normals smooth): %s", path,
                   diag.message);
        return 0;
    }
    md2_free(m->smoothed);
    m->smoothed = smooth;
    m->model = smooth;
    return 1;
}

void tool_model_free(tool_model *m)
{
    md2_free(m->smoothed);
    md2_bundle_free(m->bundle);
    free(m->warnings);
    memset(m, 0, sizeof *m);
}

int tool_same_file(const char *a, const char *b)
{
    tool_sys_stat sa, sb;
    if (tool_sys_stat_path(a, 1, &sa) == 0 && tool_sys_stat_path(b, 1, &sb) == 0)
        return sa.dev == sb.dev && sa.ino == sb.ino;
    return strcmp(a, b) == 0;
}

int tool_is_out_of_memory(const char *err)
{
    return errno == ENOMEM || strstr(err, "out of memory") != NULL;
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = (char *)malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

size_t tool_name_beside(const char *path, size_t suffix_len)
{
    size_t n = strlen(path), base = n;
    while (base > 0 && !tool_sys_is_separator(path[base - 1]))
        base--;
    if (n - base + suffix_len <= TOOL_NAME_MAX)
        return n;
    /* the file's name cut so that its name and the suffix fit */
    return base + (TOOL_NAME_MAX > suffix_len ? TOOL_NAME_MAX - suffix_len : 1);
}

#define TMP_SUFFIX ".tmp-md2"
#define TMP_NAMES 1000 /* OUT.tmp-md2, then OUT.tmp-md2-1 .. -999 */

int tool_out_open(tool_out *out, const char *cmd, const char *path)
{
    /* room for "-999" after the suffix */
    size_t n = tool_name_beside(path, sizeof TMP_SUFFIX - 1 + 4);
    int i;
    memset(out, 0, sizeof *out);
    out->path = copy_string(path);
    out->tmp = (char *)malloc(n + sizeof TMP_SUFFIX + 8);
    if (!out->path || !out->tmp) {
        tool_error(cmd, "out of memory");
        tool_out_abort(out);
        return 0;
    }
    memcpy(out->tmp, path, n);
    memcpy(out->tmp + n, TMP_SUFFIX, sizeof TMP_SUFFIX);
    /* a new file of our own: never one that is there (another run's, or a
     * link planted to make us write elsewhere) */
    for (i = 1; (out->file = tool_sys_create_new(out->tmp)) == NULL && errno == EEXIST &&
                i < TMP_NAMES; i++)
        snprintf(out->tmp + n + sizeof TMP_SUFFIX - 1, 8, "-%d", i);
    if (!out->file) {
        if (errno == EEXIST)
            tool_error(cmd, "cannot write %s: its temporary names %s" TMP_SUFFIX " to %s are "
                       "all taken", path, path, out->tmp);
        else
            tool_error(cmd, "cannot write %s: %s", path, tool_sys_strerror(errno));
        free(out->tmp); /* nothing was created: nothing to remove */
        out->tmp = NULL;
        tool_out_abort(out);
        return 0;
    }
    return 1;
}

int tool_out_write(tool_out *out, const char *cmd, const void *data, size_t size)
{
    if (size == 0 || fwrite(data, 1, size, out->file) == size)
        return 1;
    if (ferror(out->file))
        tool_error(cmd, "cannot write %s: %s", out->path, tool_sys_strerror(errno));
    else /* a short write without the stream's error flag */
        tool_error(cmd, "cannot write %s: short write", out->path);
    tool_out_abort(out);
    return 0;
}

int tool_out_close(tool_out *out, const char *cmd)
{
    int ok = out->file != NULL;
    if (ok && (ferror(out->file) || fflush(out->file) != 0)) {
        tool_error(cmd, "cannot write %s: %s", out->path, tool_sys_strerror(errno));
        ok = 0;
    }
    if (out->file && fclose(out->file) != 0 && ok) {
        tool_error(cmd, "cannot write %s: %s", out->path, tool_sys_strerror(errno));
        ok = 0;
    }
    out->file = NULL;
    return ok;
}

int tool_write_file(const char *cmd, const char *path, const void *data, size_t size)
{
    tool_out out;
    return tool_out_open(&out, cmd, path) && tool_out_write(&out, cmd, data, size) &&
           tool_out_commit(&out, cmd);
}

int tool_out_commit(tool_out *out, const char *cmd)
{
    int ok = tool_out_close(out, cmd);
    if (ok && tool_sys_replace(out->tmp, out->path) != 0) {
        tool_error(cmd, "cannot rename %s to %s: %s", out->tmp, out->path, tool_sys_strerror(errno));
        ok = 0;
    }
    if (ok) {
        free(out->tmp);
        out->tmp = NULL;
    }
    tool_out_abort(out);
    return ok;
}

void tool_out_abort(tool_out *out)
{
    if (out->file)
        fclose(out->file);
    if (out->tmp)
        tool_sys_remove(out->tmp);
    free(out->tmp);
    free(out->path);
    memset(out, 0, sizeof *out);
}

int tool_image_load(const char *cmd, const char *path, tool_image *out)
{
    char err[512];
    if (!tool_image_read(path, out, err, sizeof err)) {
        tool_error(cmd, "%s", err);
        return 0;
    }
    return 1;
}

/* why (why_size bytes; may be NULL) gets the formatted message. */
static void set_why(char *why, size_t why_size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void set_why(char *why, size_t why_size, const char *fmt, ...)
{
    va_list ap;
    if (!why || why_size == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(why, why_size, fmt, ap);
    va_end(ap);
}

int tool_png_encode(const tool_image *img, unsigned char **png, size_t *size, char *why,
                        size_t why_size)
{
    png_image image;
    png_alloc_size_t capacity, n;
    unsigned char *buf, *fit;
    *png = NULL;
    *size = 0;
    set_why(why, why_size, "out of memory");
    if (img->width <= 0 || img->height <= 0) {
        set_why(why, why_size, "a %dx%d image has no pixels", img->width, img->height);
        return 0;
    }
    if ((double)img->width * (double)img->height * 4.0 > TOOL_PNG_MAX_BYTES) {
        set_why(why, why_size, "a %dx%d image is too large (more than %.0f bytes of pixels)",
                img->width, img->height, TOOL_PNG_MAX_BYTES);
        return 0;
    }
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)img->width;
    image.height = (png_uint_32)img->height;
    image.format = PNG_FORMAT_RGBA;
    /* the largest PNG of this image: one pass, then the buffer shrinks
     * (with at most 2^31 bytes of pixels, the bound does not wrap) */
    capacity = PNG_IMAGE_PNG_SIZE_MAX(image);
    buf = (unsigned char *)malloc(capacity);
    if (!buf)
        return 0;
    n = capacity;
    if (!png_image_write_to_memory(&image, buf, &n, 0, img->rgba, 0, NULL)) {
        if (image.message[0])
            set_why(why, why_size, "%s", image.message);
        png_image_free(&image);
        free(buf);
        return 0;
    }
    fit = (unsigned char *)realloc(buf, n ? n : 1);
    if (fit) /* else the larger buffer stays: it holds the same bytes */
        buf = fit;
    *png = buf;
    *size = n;
    return 1;
}

/* 1 if path can be opened for reading, as tool_file_exists() tells, but
 * with tool_sys_open_read(), which allocates nothing on POSIX: a fopen()
 * that ran out of memory would pass over the model's first skin for the
 * next one. */
static int accept_existing(void *user, const char *path)
{
    /* a FIFO there is found (and then refused with a note by the image
     * reader), never waited on */
    int fd = tool_sys_open_read(path);
    (void)user;
    if (fd < 0)
        return 0;
    tool_sys_close(fd);
    return 1;
}

int tool_find_skin(const char *model_path, const md2_model *model, char *path, size_t path_size)
{
    size_t i;
    for (i = 0; i < model->num_skins; i++) {
        if (md2_skin_find(model_path, model->skins[i].name, NULL, accept_existing, NULL, path,
                          path_size) == MD2_OK)
            return 1;
    }
    /* a model that names no skin: its own name beside it (sydney.bmp) */
    if (model->num_skins == 0 &&
        md2_skin_find(model_path, NULL, NULL, accept_existing, NULL, path, path_size) == MD2_OK)
        return 1;
    if (path_size)
        path[0] = '\0';
    return 0;
}
