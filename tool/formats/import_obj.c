/*
 * md2 import: the Wavefront OBJ reader (import.h). docs/tool.md, "md2
 * import", "OBJ", is what it promises.
 *
 * One file is one frame; several files (in the order given) are the frames
 * of one animation, one mesh's: the faces, texture coordinates, materials
 * and mtllib files come from the first file; every file gives its
 * positions by its v lines (as many as the first's, in the same order)
 * and, when the first file has normals, each vertex's normal from its own
 * faces (the mean of the distinct ones there), however it splits its
 * faces and numbers its normals (Blender triangulates and numbers each
 * frame on its own). Statements read:
 * v, vt, vn, f (polygons fanned into triangles from their first corner;
 * v, v/vt, v//vn and v/vt/vn corners; negative indices counted back from
 * the last one defined), usemtl, mtllib (the rest of the line is one file
 * name, beside the OBJ file) with newmtl and map_Kd in it; o, g, s and mg
 * are accepted and change nothing (every object and group goes into the
 * one model); any other statement is skipped with a note. The scene gets
 * one vertex per face corner (import.c welds them) and OBJ's v flipped to
 * the scene's v-down convention.
 *
 * SPDX-License-Identifier: MIT
 */
#include "import.h"
#include "image.h"
#include "platform.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

typedef struct obj_corner {
    uint32_t v, t, n; /* 0-based; t, n NONE when the corner has none */
} obj_corner;

/* A triangle's material (into mats, or NONE) and the line of its face. */
typedef struct obj_tri {
    uint32_t mat;
    size_t line;
} obj_tri;

/* What one OBJ file holds. */
typedef struct obj_file {
    const char *name;
    float *v;
    size_t nv, cap_v; /* 3 floats each */
    float *vt;
    size_t nvt, cap_vt; /* 2 each, as the file has them */
    float *vn;
    size_t nvn, cap_vn;
    obj_corner *corners; /* 3 a triangle */
    size_t cap_corners;
    size_t ntri;
    obj_tri *tris;
    size_t cap_tri;
    char **mats; /* usemtl names in the order of first use */
    size_t nmats, cap_mats;
    uint32_t cur_mat;
    char **libs; /* mtllib names, with their lines */
    size_t *lib_lines;
    size_t nlibs, cap_libs, cap_lib_lines;
    obj_corner *face; /* one f line's corners */
    size_t cap_face;
    size_t skipped, skipped_line; /* statements skipped: how many, the first's line */
    char skipped_word[24];
} obj_file;

/* A material of an mtl file. */
typedef struct obj_mtl {
    char *name;
    char *map; /* map_Kd as written, or NULL */
    char *path; /* map resolved against the mtl file's folder */
} obj_mtl;

typedef struct obj_ctx {
    size_t budget, used; /* imp_options.max_bytes (0: none), and what has been counted */
    const imp_options *opt; /* for the option that raises the budget */
    char *err;
    size_t err_size;
    obj_mtl *mtls;
    size_t nmtls, cap_mtls;
    char *root; /* the OBJ's folder ("" the current one): mtllib and map_Kd files stay inside it */
} obj_ctx;

static int fail(obj_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int fail(obj_ctx *c, const char *fmt, ...)
{
    if (c->err && c->err_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, c->err_size, fmt, ap);
        va_end(ap);
    }
    return 0;
}

/* Counts n bytes against the budget: 0 (said, naming what) when they do not fit. */
static int spend(obj_ctx *c, size_t n, const char *what)
{
    if (c->budget && n > c->budget - c->used)
        return fail(c, "%s: the model would take more than %lu bytes%s%s%s", what,
                    (unsigned long)c->budget, IMP_RAISED_BY(c->opt));
    c->used += n;
    return 1;
}

/* Makes room for need elements of elem bytes in *p (capacity *cap). */
static int grow(obj_ctx *c, void **p, size_t *cap, size_t need, size_t elem, const char *what)
{
    size_t ncap = *cap ? *cap : 16;
    void *q;
    if (need <= *cap)
        return 1;
    while (ncap < need) {
        if (ncap > (size_t)-1 / 2 / elem)
            return fail(c, "%s: too many elements", what);
        ncap *= 2;
    }
    if (!spend(c, (ncap - *cap) * elem, what))
        return 0;
    q = realloc(*p, ncap * elem);
    if (!q)
        return fail(c, "%s: out of memory", what);
    *p = q;
    *cap = ncap;
    return 1;
}

static char *dup_range(obj_ctx *c, const char *s, size_t n, const char *what)
{
    char *d;
    if (!spend(c, n + 1, what))
        return NULL;
    d = (char *)malloc(n + 1);
    if (!d) {
        fail(c, "%s: out of memory", what);
        return NULL;
    }
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static void free_file(obj_file *f)
{
    size_t i;
    free(f->v);
    free(f->vt);
    free(f->vn);
    free(f->corners);
    free(f->tris);
    for (i = 0; i < f->nmats; i++)
        free(f->mats[i]);
    free(f->mats);
    for (i = 0; i < f->nlibs; i++)
        free(f->libs[i]);
    free(f->libs);
    free(f->lib_lines);
    free(f->face);
    memset(f, 0, sizeof *f);
}

static int is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v';
}

static const char *skip_blanks(const char *p)
{
    while (is_blank(*p))
        p++;
    return p;
}

/* The rest of the line from p, without the blanks around it: *len bytes. */
static const char *rest_of_line(const char *p, size_t *len)
{
    const char *end;
    p = skip_blanks(p);
    end = p + strlen(p);
    while (end > p && is_blank(end[-1]))
        end--;
    *len = (size_t)(end - p);
    return p;
}

/* Up to max numbers from p into out; how many, or -1 (said) for a word
 * that is not a finite number. */
static int numbers(obj_ctx *c, const char *file, size_t line, const char *p, float *out, int max,
                   const char *stmt)
{
    int n = 0;
    for (;;) {
        char *end;
        double d;
        const char *tok = skip_blanks(p);
        size_t len = 0;
        if (*tok == '\0')
            return n;
        while (tok[len] && !is_blank(tok[len]))
            len++;
        if (n == max) {
            fail(c, "%s:%lu: '%s' takes at most %d numbers", file, (unsigned long)line, stmt, max);
            return -1;
        }
        errno = 0;
        d = strtod(tok, &end);
        if (end != tok + len || len == 0) {
            fail(c, "%s:%lu: '%.*s' is not a number", file, (unsigned long)line,
                 (int)(len > 40 ? 40 : len), tok);
            return -1;
        }
        if (!isfinite(d) || d > 3.4e38 || d < -3.4e38) {
            fail(c, "%s:%lu: '%.*s' is not a finite number that a float holds", file,
                 (unsigned long)line, (int)(len > 40 ? 40 : len), tok);
            return -1;
        }
        out[n++] = (float)d;
        p = tok + len;
    }
}

/* One index of a face corner at *pp (OBJ counts from 1; -1 is the last
 * one defined so far, of count): 0-based into *out. */
static int face_index(obj_ctx *c, const char *file, size_t line, const char **pp, size_t count,
                      const char *what, uint32_t *out)
{
    const char *p = *pp;
    char *end;
    long v;
    errno = 0;
    v = strtol(p, &end, 10);
    if (end == p || (*p != '-' && (*p < '0' || *p > '9')))
        return fail(c, "%s:%lu: a face corner needs a %s index here, not '%.20s'", file,
                    (unsigned long)line, what, p);
    if (errno == ERANGE || v == 0 || (v > 0 && (unsigned long)v > count) ||
        (v < 0 && (unsigned long)-(v + 1) >= count)) {
        if (v == 0 && errno != ERANGE)
            return fail(c, "%s:%lu: %s index 0: OBJ counts from 1 (or back from -1)", file,
                        (unsigned long)line, what);
        return fail(c, "%s:%lu: %s index %.*s is past the %lu defined so far", file,
                    (unsigned long)line, what, (int)(end - p > 24 ? 24 : end - p), p,
                    (unsigned long)count);
    }
    *out = v > 0 ? (uint32_t)(v - 1) : (uint32_t)(count - (size_t)(-(v + 1)) - 1);
    *pp = end;
    return 1;
}

static const char *corner_text(const obj_corner *k, char *buf, size_t size)
{
    if (k->t == NONE && k->n == NONE)
        snprintf(buf, size, "%lu", (unsigned long)k->v + 1);
    else if (k->n == NONE)
        snprintf(buf, size, "%lu/%lu", (unsigned long)k->v + 1, (unsigned long)k->t + 1);
    else if (k->t == NONE)
        snprintf(buf, size, "%lu//%lu", (unsigned long)k->v + 1, (unsigned long)k->n + 1);
    else
        snprintf(buf, size, "%lu/%lu/%lu", (unsigned long)k->v + 1, (unsigned long)k->t + 1,
                 (unsigned long)k->n + 1);
    return buf;
}

/* An f line (after "f"): its corners, fanned into triangles. */
static int parse_face(obj_ctx *c, obj_file *f, size_t line, const char *p)
{
    size_t n = 0, i;
    for (;;) {
        obj_corner k;
        p = skip_blanks(p);
        if (*p == '\0')
            break;
        k.t = k.n = NONE;
        if (!face_index(c, f->name, line, &p, f->nv, "vertex", &k.v))
            return 0;
        if (*p == '/') {
            p++;
            if (*p != '/' && !face_index(c, f->name, line, &p, f->nvt, "texture coordinate", &k.t))
                return 0;
            if (*p == '/') {
                p++;
                if (!face_index(c, f->name, line, &p, f->nvn, "normal", &k.n))
                    return 0;
            }
        }
        if (*p && !is_blank(*p))
            return fail(c, "%s:%lu: a face corner is v, v/vt, v//vn or v/vt/vn; '%.20s' is not",
                        f->name, (unsigned long)line, p);
        if (n > 0 && ((k.t == NONE) != (f->face[0].t == NONE) ||
                      (k.n == NONE) != (f->face[0].n == NONE))) {
            char a[64], b[64];
            return fail(c, "%s:%lu: corner %lu (%s) is not of the form of corner 1 (%s)",
                        f->name, (unsigned long)line, (unsigned long)n + 1,
                        corner_text(&k, a, sizeof a), corner_text(&f->face[0], b, sizeof b));
        }
        if (!grow(c, (void **)&f->face, &f->cap_face, n + 1, sizeof *f->face, f->name))
            return 0;
        f->face[n++] = k;
    }
    if (n < 3)
        return fail(c, "%s:%lu: a face needs 3 corners or more, this one has %lu", f->name,
                    (unsigned long)line, (unsigned long)n);
    if (n - 2 > (size_t)(NONE / 3 - 1) - f->ntri)
        return fail(c, "%s:%lu: too many triangles", f->name, (unsigned long)line);
    if (!grow(c, (void **)&f->corners, &f->cap_corners, 3 * (f->ntri + n - 2), sizeof *f->corners,
              f->name) ||
        !grow(c, (void **)&f->tris, &f->cap_tri, f->ntri + n - 2, sizeof *f->tris, f->name))
        return 0;
    for (i = 1; i + 1 < n; i++) {
        obj_corner *t = f->corners + 3 * f->ntri;
        t[0] = f->face[0];
        t[1] = f->face[i];
        t[2] = f->face[i + 1];
        f->tris[f->ntri].mat = f->cur_mat;
        f->tris[f->ntri].line = line;
        f->ntri++;
    }
    return 1;
}

/* The index of material name in f->mats, added when new. */
/* The most distinct materials (usemtl names) of a file, newmtl entries of
 * its mtl files, and mtllib lines: finding a name is a scan, so these keep
 * a small hostile file from taking minutes (an MD2 has one skin; packing
 * more than a few hundred textures side by side makes no skin anyway). */
#define OBJ_MAX_MATERIALS 256
#define OBJ_MAX_NEWMTL 4096
#define OBJ_MAX_MTLLIB 64

static int use_material(obj_ctx *c, obj_file *f, size_t line, const char *name, size_t len)
{
    size_t i;
    if (len == 0)
        return fail(c, "%s:%lu: usemtl needs a material name", f->name, (unsigned long)line);
    for (i = 0; i < f->nmats; i++) {
        if (strlen(f->mats[i]) == len && memcmp(f->mats[i], name, len) == 0) {
            f->cur_mat = (uint32_t)i;
            return 1;
        }
    }
    if (f->nmats >= OBJ_MAX_MATERIALS)
        return fail(c, "%s:%lu: more than %d materials", f->name, (unsigned long)line,
                    OBJ_MAX_MATERIALS);
    if (!grow(c, (void **)&f->mats, &f->cap_mats, f->nmats + 1, sizeof *f->mats, f->name))
        return 0;
    f->mats[f->nmats] = dup_range(c, name, len, f->name);
    if (!f->mats[f->nmats])
        return 0;
    f->cur_mat = (uint32_t)f->nmats++;
    return 1;
}

static int add_lib(obj_ctx *c, obj_file *f, size_t line, const char *name, size_t len)
{
    if (len == 0)
        return fail(c, "%s:%lu: mtllib needs a file name", f->name, (unsigned long)line);
    if (f->nlibs >= OBJ_MAX_MTLLIB)
        return fail(c, "%s:%lu: more than %d mtllib lines", f->name, (unsigned long)line,
                    OBJ_MAX_MTLLIB);
    if (!grow(c, (void **)&f->libs, &f->cap_libs, f->nlibs + 1, sizeof *f->libs, f->name) ||
        !grow(c, (void **)&f->lib_lines, &f->cap_lib_lines, f->nlibs + 1, sizeof *f->lib_lines,
              f->name))
        return 0;
    f->libs[f->nlibs] = dup_range(c, name, len, f->name);
    if (!f->libs[f->nlibs])
        return 0;
    f->lib_lines[f->nlibs++] = line;
    return 1;
}

/* Appends the numbers of a v, vt or vn line (at least min of them, at most
 * max; the first keep of them kept, missing ones 0) to *arr. */
static int add_numbers(obj_ctx *c, obj_file *f, size_t line, const char *p, const char *stmt,
                       int min, int max, int keep, float **arr, size_t *count, size_t *cap)
{
    float got[8] = {0};
    int n = numbers(c, f->name, line, p, got, max, stmt);
    if (n < 0)
        return 0;
    if (n < min)
        return fail(c, "%s:%lu: '%s' needs %d numbers or more, this one has %d", f->name,
                    (unsigned long)line, stmt, min, n);
    if (*count >= NONE - 1)
        return fail(c, "%s:%lu: too many '%s' lines", f->name, (unsigned long)line, stmt);
    if (!grow(c, (void **)arr, cap, (*count + 1) * (size_t)keep, sizeof **arr, f->name))
        return 0;
    memcpy(*arr + *count * (size_t)keep, got, (size_t)keep * sizeof *got);
    (*count)++;
    return 1;
}

/* 0, after adding a hint to the message when the text from p to end has a
 * CR inside a line: lines that end in CR alone (classic Mac OS) run into
 * one, and "'v' is not a number" alone would not say why. */
static int cr_hint(obj_ctx *c, const char *p, const char *end)
{
    const char *cr = p;
    size_t n;
    while ((cr = memchr(cr, '\r', (size_t)(end - cr))) != NULL && cr + 1 < end && (cr[1] == '\0' || cr[1] == '\n'))
        cr++;
    if (!cr || cr + 1 >= end || !c->err || !c->err_size || !c->err[0])
        return 0;
    n = strlen(c->err);
    snprintf(c->err + n, c->err_size - n, " (its lines end in CR alone, as classic Mac OS wrote them: "
             "convert them to LF or CR LF)");
    return 0;
}

/* The statements of one OBJ file: text is size bytes and a NUL, changed in place. */
static int parse_obj(obj_ctx *c, obj_file *f, char *text, size_t size)
{
    size_t line = 0;
    char *p = text, *end = text + size;
    f->cur_mat = NONE;
    while (p < end) {
        char *eol = memchr(p, '\n', (size_t)(end - p));
        char *hash, *kw;
        size_t kwlen, len;
        const char *rest;
        int ok = 1;
        line++;
        if (!eol)
            eol = end;
        if (memchr(p, '\0', (size_t)(eol - p)))
            return fail(c, "%s:%lu: a NUL byte: this is not a text file", f->name,
                        (unsigned long)line);
        *eol = '\0';
        hash = strchr(p, '#');
        if (hash)
            *hash = '\0';
        kw = (char *)skip_blanks(p);
        kwlen = 0;
        while (kw[kwlen] && !is_blank(kw[kwlen]))
            kwlen++;
        rest = kw + kwlen;
        if (kwlen == 0) {
            /* blank or a comment */
        } else if (kwlen == 1 && kw[0] == 'v') {
            ok = add_numbers(c, f, line, rest, "v", 3, 7, 3, &f->v, &f->nv, &f->cap_v);
        } else if (kwlen == 2 && memcmp(kw, "vt", 2) == 0) {
            ok = add_numbers(c, f, line, rest, "vt", 1, 3, 2, &f->vt, &f->nvt, &f->cap_vt);
        } else if (kwlen == 2 && memcmp(kw, "vn", 2) == 0) {
            ok = add_numbers(c, f, line, rest, "vn", 3, 3, 3, &f->vn, &f->nvn, &f->cap_vn);
        } else if (kwlen == 1 && kw[0] == 'f') {
            ok = parse_face(c, f, line, rest);
        } else if (kwlen == 6 && memcmp(kw, "usemtl", 6) == 0) {
            rest = rest_of_line(rest, &len);
            ok = use_material(c, f, line, rest, len);
        } else if (kwlen == 6 && memcmp(kw, "mtllib", 6) == 0) {
            rest = rest_of_line(rest, &len);
            ok = add_lib(c, f, line, rest, len);
        } else if ((kwlen == 1 && (kw[0] == 'o' || kw[0] == 'g' || kw[0] == 's')) ||
                   (kwlen == 2 && memcmp(kw, "mg", 2) == 0)) {
            /* objects, groups, smoothing groups: one model */
        } else {
            if (f->skipped++ == 0) {
                f->skipped_line = line;
                snprintf(f->skipped_word, sizeof f->skipped_word, "%.*s",
                         (int)(kwlen > 16 ? 16 : kwlen), kw);
            }
        }
        if (!ok)
            return cr_hint(c, p, eol);
        p = eol + 1;
    }
    if (f->ntri == 0)
        return fail(c, "%s: no faces (f lines)", f->name) + cr_hint(c, text, end);
    return 1;
}

/* The most bytes of an OBJ or MTL file the reader takes. */
#define OBJ_MAX_FILE ((size_t)1 << 30)

/* The whole regular file at path (tool_read_regular(): never a FIFO or a
 * device, bounded, one pass), with a NUL after its *size bytes; cited
 * names the file or line that refers to it in the message. */
static char *read_text(obj_ctx *c, const char *path, size_t *size, const char *cited)
{
    unsigned char *buf;
    char why[512];
    if (!tool_read_regular(path, OBJ_MAX_FILE, &buf, size, why, sizeof why)) {
        if (strcmp(cited, path) == 0) /* why names it */
            fail(c, "%s", why);
        else
            fail(c, "%s: %s", cited, why);
        return NULL;
    }
    return (char *)buf;
}

/* The file that name (a statement's file name at where, "FILE:LINE") in
 * the folder dir (inside the OBJ's folder, "" for itself, else ending in
 * '/') stands for: root/dir/name, refused when it leaves the OBJ's folder
 * (imp_path_inside()). */
static char *inside_path(obj_ctx *c, const char *dir, const char *name, const char *stmt, const char *where)
{
    size_t dlen = strlen(dir), nlen = strlen(name);
    char *rel, *path = NULL, why[160];
    int r;
    if (!spend(c, 2 * (strlen(c->root) + dlen + nlen + 2), where))
        return NULL;
    rel = (char *)malloc(dlen + nlen + 1);
    if (!rel) {
        fail(c, "%s: out of memory", where);
        return NULL;
    }
    memcpy(rel, dir, dlen);
    memcpy(rel + dlen, name, nlen + 1);
    r = imp_path_inside(c->root, rel, 0, &path, why, sizeof why);
    free(rel);
    if (r < 0) /* (-2, a bad percent escape, needs percent) */
        fail(c, "%s: out of memory", where);
    else if (r == 0)
        fail(c, "%s: %s '%s' %s: md2 import reads the files of an OBJ from its own folder only", where, stmt,
             name, why);
    return r > 0 ? path : NULL;
}

/* The bytes of root and its '/' at the start of an inside_path() path. */
static size_t root_prefix(const char *root)
{
    size_t n = strlen(root);
    return n + (n && root[n - 1] != '/' ? 1 : 0);
}

/* The folder of path, with its last separator ("" for none), malloc'd. */
static char *folder_of(const char *path)
{
    size_t n = strlen(path), i;
    char *d;
    for (i = n; i > 0 && !tool_sys_is_separator(path[i - 1]); i--)
        ;
    d = (char *)malloc(i + 1);
    if (d) {
        memcpy(d, path, i);
        d[i] = '\0';
    }
    return d;
}

/* The materials of the mtl file at path (in the folder dir inside the
 * OBJ's: "" or ending in '/'): newmtl NAME and its map_Kd. */
static int parse_mtl(obj_ctx *c, const char *path, const char *dir, const char *cited)
{
    size_t size, line = 0;
    char *text = read_text(c, path, &size, cited);
    char *p, *end;
    obj_mtl *cur = NULL;
    if (!text)
        return 0;
    p = text;
    end = text + size;
    while (p < end) {
        char *eol = memchr(p, '\n', (size_t)(end - p));
        char *hash;
        const char *kw, *rest;
        size_t kwlen = 0, len;
        line++;
        if (!eol)
            eol = end;
        if (memchr(p, '\0', (size_t)(eol - p))) {
            fail(c, "%s:%lu: a NUL byte: this is not a text file", path, (unsigned long)line);
            goto fail;
        }
        *eol = '\0';
        hash = strchr(p, '#');
        if (hash)
            *hash = '\0';
        kw = skip_blanks(p);
        while (kw[kwlen] && !is_blank(kw[kwlen]))
            kwlen++;
        rest = rest_of_line(kw + kwlen, &len);
        if (kwlen == 6 && memcmp(kw, "newmtl", 6) == 0) {
            if (len == 0) {
                fail(c, "%s:%lu: newmtl needs a material name", path, (unsigned long)line);
                goto fail;
            }
            if (c->nmtls >= OBJ_MAX_NEWMTL) {
                fail(c, "%s:%lu: more than %d materials (newmtl) in the mtl files", path,
                     (unsigned long)line, OBJ_MAX_NEWMTL);
                goto fail;
            }
            if (!grow(c, (void **)&c->mtls, &c->cap_mtls, c->nmtls + 1, sizeof *c->mtls, path))
                goto fail;
            cur = &c->mtls[c->nmtls++];
            memset(cur, 0, sizeof *cur);
            cur->name = dup_range(c, rest, len, path);
            if (!cur->name)
                goto fail;
        } else if (kwlen == 6 && memcmp(kw, "map_Kd", 6) == 0) {
            if (!cur) {
                fail(c, "%s:%lu: map_Kd before the first newmtl", path, (unsigned long)line);
                goto fail;
            }
            if (len > 0 && rest[0] == '-') {
                size_t olen = 0;
                while (olen < len && !is_blank(rest[olen]))
                    olen++;
                fail(c, "%s:%lu: map_Kd option '%.*s' is not supported: md2 import maps the "
                        "whole image as it is (remove the option)",
                     path, (unsigned long)line, (int)(olen > 20 ? 20 : olen), rest);
                goto fail;
            }
            if (len == 0) {
                fail(c, "%s:%lu: map_Kd needs an image file name", path, (unsigned long)line);
                goto fail;
            }
            if (cur->map) {
                fail(c, "%s:%lu: a second map_Kd for material '%s'", path, (unsigned long)line,
                     cur->name);
                goto fail;
            }
            cur->map = dup_range(c, rest, len, path);
            if (cur->map) { /* a Windows path (.\\skin.jpg): its backslashes are folders' */
                char *b;
                for (b = cur->map; *b; b++)
                    if (*b == '\\')
                        *b = '/';
            }
            if (!cur->map)
                goto fail;
            {
                char where[512];
                snprintf(where, sizeof where, "%s:%lu", path, (unsigned long)line);
                cur->path = inside_path(c, dir, cur->map, "map_Kd", where);
            }
            if (!cur->path)
                goto fail;
        }
        p = eol + 1;
    }
    free(text);
    return 1;
fail:
    free(text);
    return 0;
}

static void free_mtls(obj_ctx *c)
{
    size_t i;
    for (i = 0; i < c->nmtls; i++) {
        free(c->mtls[i].name);
        free(c->mtls[i].map);
        free(c->mtls[i].path);
    }
    free(c->mtls);
    c->mtls = NULL;
    c->nmtls = c->cap_mtls = 0;
}

/* A zeroed array of n elements of elem bytes, counted against the budget. */
static void *scene_array(obj_ctx *c, size_t n, size_t elem, const char *what)
{
    void *p;
    if (n == 0)
        n = 1;
    if (n > (size_t)-1 / elem) {
        fail(c, "%s: too many elements", what);
        return NULL;
    }
    if (!spend(c, n * elem, what))
        return NULL;
    p = calloc(n, elem);
    if (!p)
        fail(c, "%s: out of memory", what);
    return p;
}

/* A later file of a sequence: as many v lines as the first (its positions
 * are those vertices' in their order); its faces, however triangulated or
 * numbered, only give its normals. */
static int same_vertices(obj_ctx *c, const obj_file *f0, const obj_file *g)
{
    if (g->nv == f0->nv)
        return 1;
    return fail(c, "%s: %lu vertices (v lines), where %s has %lu (the files of a sequence are "
                   "one mesh's frames: the same vertices in the same order)",
                g->name, (unsigned long)g->nv, f0->name, (unsigned long)f0->nv);
}

static int cmp_pair(const void *a, const void *b)
{
    const uint32_t *x = (const uint32_t *)a, *y = (const uint32_t *)b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* The normal of each of g's vertices (vnorm: g->nv * 3 floats), for a
 * sequence, whose files may number their normals and split their faces
 * each in its own way: the mean of the distinct normals (by index) of
 * g's corners on that vertex, of unit length (one: as it is). A vertex
 * no face of g uses, or whose normals cancel out, keeps what vnorm held
 * (the frame before's; 0 for the first file). Every corner of g must
 * have a normal. */
static int vertex_normals(obj_ctx *c, const obj_file *g, float *vnorm)
{
    size_t nc = 3 * g->ntri, i, run;
    uint32_t *pair = (uint32_t *)malloc(2 * (nc ? nc : 1) * sizeof *pair);
    float *sum = (float *)calloc(3 * g->nv + 1, sizeof *sum);
    uint32_t *count = (uint32_t *)calloc(g->nv + 1, sizeof *count);
    int ok = 0;
    if (!pair || !sum || !count) {
        fail(c, "%s: out of memory", g->name);
        goto done;
    }
    for (i = 0; i < nc; i++) {
        if (g->corners[i].n == NONE) {
            fail(c, "%s:%lu: a face without normals, in a sequence whose first file has them on "
                    "every face", g->name, (unsigned long)g->tris[i / 3].line);
            goto done;
        }
        pair[2 * i] = g->corners[i].v;
        pair[2 * i + 1] = g->corners[i].n;
    }
    qsort(pair, nc, 2 * sizeof *pair, cmp_pair);
    for (i = 0; i < nc; i = run) {
        const float *n = g->vn + 3 * (size_t)pair[2 * i + 1];
        float *o = sum + 3 * (size_t)pair[2 * i];
        o[0] += n[0], o[1] += n[1], o[2] += n[2];
        count[pair[2 * i]]++;
        for (run = i + 1; run < nc && pair[2 * run] == pair[2 * i] && pair[2 * run + 1] == pair[2 * i + 1];)
            run++;
    }
    for (i = 0; i < g->nv; i++) {
        const float *o = sum + 3 * i;
        double len = sqrt((double)o[0] * o[0] + (double)o[1] * o[1] + (double)o[2] * o[2]);
        if (count[i] == 1) {
            memcpy(vnorm + 3 * i, o, 3 * sizeof(float));
        } else if (count[i] > 1 && len > 1e-6) {
            vnorm[3 * i] = (float)(o[0] / len);
            vnorm[3 * i + 1] = (float)(o[1] / len);
            vnorm[3 * i + 2] = (float)(o[2] / len);
        }
    }
    ok = 1;
done:
    free(pair);
    free(sum);
    free(count);
    return ok;
}

/* Frame fr of the scene: the corners' positions from g's v lines (f0's
 * faces: corner k is f0's corner k, on vertex f0->corners[k].v), and their
 * normals from vnorm (a sequence: each vertex's, vertex_normals()) or, for
 * one file (vnorm NULL), each corner's own. */
static void put_frame(imp_scene *s, const obj_file *f0, const obj_file *g, const float *vnorm,
                      size_t fr)
{
    size_t k, nc = s->num_vertices;
    for (k = 0; k < nc; k++) {
        const obj_corner *q = &f0->corners[k];
        memcpy(s->positions + 3 * (fr * nc + k), g->v + 3 * (size_t)q->v, 3 * sizeof(float));
        if (s->normals)
            memcpy(s->normals + 3 * (fr * nc + k), vnorm ? vnorm + 3 * (size_t)q->v : g->vn + 3 * (size_t)q->n,
                   3 * sizeof(float));
    }
}

/* The animation's name: --anim-name, else the first file's name without
 * its folder, its extension and the digits and _ - . at its end. */
static char *anim_name(obj_ctx *c, const char *path, const char *given)
{
    const char *base = strrchr(path, '/');
    const char *dot;
    size_t n;
    if (given)
        return dup_range(c, given, strlen(given), path);
    base = base ? base + 1 : path;
    dot = strrchr(base, '.');
    n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    while (n > 0 && ((base[n - 1] >= '0' && base[n - 1] <= '9') || base[n - 1] == '_' ||
                     base[n - 1] == '-' || base[n - 1] == '.' || base[n - 1] == ' '))
        n--;
    if (n == 0)
        return dup_range(c, "frame", 5, path);
    return dup_range(c, base, n, path);
}

/* The scene's materials: f0's usemtl names, each with the map_Kd of the
 * first newmtl of that name in its mtl files (one image a distinct file). */
static int put_materials(obj_ctx *c, imp_scene *s, obj_file *f0)
{
    size_t i, j;
    if (f0->nmats == 0)
        return 1;
    s->tri_material = (uint32_t *)scene_array(c, f0->ntri, sizeof *s->tri_material, f0->name);
    s->material_image = (int32_t *)scene_array(c, f0->nmats, sizeof *s->material_image, f0->name);
    s->material_names = (char **)scene_array(c, f0->nmats, sizeof *s->material_names, f0->name);
    s->images = (imp_image *)scene_array(c, f0->nmats, sizeof *s->images, f0->name);
    if (!s->tri_material || !s->material_image || !s->material_names || !s->images)
        return 0;
    for (i = 0; i < f0->ntri; i++)
        s->tri_material[i] = f0->tris[i].mat;
    for (i = 0; i < f0->nmats; i++) {
        const obj_mtl *m = NULL;
        s->material_names[i] = dup_range(c, f0->mats[i], strlen(f0->mats[i]), f0->name);
        if (!s->material_names[i])
            return 0;
        s->num_materials = i + 1;
        s->material_image[i] = -1;
        for (j = 0; j < c->nmtls && !m; j++)
            if (strcmp(c->mtls[j].name, s->material_names[i]) == 0)
                m = &c->mtls[j];
        if (!m) {
            if (!imp_scene_note(s, "%s: material '%s' is in no mtllib file: untextured",
                                f0->name, s->material_names[i]))
                return fail(c, "%s: out of memory", f0->name);
            continue;
        }
        if (!m->path)
            continue;
        for (j = 0; j < s->num_images; j++)
            if (strcmp(s->images[j].path, m->path) == 0)
                break;
        if (j == s->num_images) {
            imp_image *im = &s->images[j];
            im->label = dup_range(c, m->map, strlen(m->map), f0->name);
            im->path = dup_range(c, m->path, strlen(m->path), f0->name);
            if (!im->label || !im->path) {
                free(im->label);
                free(im->path);
                im->label = im->path = NULL;
                return 0;
            }
            s->num_images++;
        }
        s->material_image[i] = (int32_t)j;
    }
    return 1;
}

/* The scene from f0 (its faces, texcoords and materials; frame 0). */
static int make_scene(obj_ctx *c, obj_file *f0, size_t num_frames, const imp_options *opt,
                      imp_scene *s)
{
    size_t i, nc = 3 * f0->ntri, extra = 0;
    int has_t = 0, has_n = 1, some_n = 0;
    for (i = 0; i < nc; i++) {
        if (f0->corners[i].t != NONE)
            has_t = 1;
        else
            extra = 1;
        if (f0->corners[i].n == NONE)
            has_n = 0;
        else
            some_n = 1;
    }
    if (num_frames > (size_t)-1 / 3 / nc)
        return fail(c, "%s: too many frames", f0->name);
    s->num_frames = num_frames;
    s->num_vertices = nc;
    s->positions = (float *)scene_array(c, num_frames * nc * 3, sizeof(float), f0->name);
    if (!s->positions)
        return 0;
    if (has_n) {
        s->normals = (float *)scene_array(c, num_frames * nc * 3, sizeof(float), f0->name);
        if (!s->normals)
            return 0;
    } else if (some_n &&
               !imp_scene_note(s, "%s: some faces have no normals: normals are computed from "
                                  "the positions", f0->name)) {
        return fail(c, "%s: out of memory", f0->name);
    }
    s->triangles = (uint32_t *)scene_array(c, f0->ntri * 6, sizeof *s->triangles, f0->name);
    if (!s->triangles)
        return 0;
    if (has_t) {
        s->num_texcoords = f0->nvt + extra;
        s->uv = (float *)scene_array(c, s->num_texcoords * 2, sizeof *s->uv, f0->name);
        if (!s->uv)
            return 0;
        for (i = 0; i < f0->nvt; i++) {
            s->uv[2 * i] = f0->vt[2 * i];
            s->uv[2 * i + 1] = 1.0f - f0->vt[2 * i + 1];
        }
        if (extra && !imp_scene_note(s, "%s: some faces have no texture coordinates: they get "
                                        "(0, 0), the top left corner of the skin", f0->name))
            return fail(c, "%s: out of memory", f0->name);
    }
    s->num_triangles = f0->ntri;
    for (i = 0; i < nc; i++) {
        s->triangles[2 * i] = (uint32_t)i;
        s->triangles[2 * i + 1] =
            !has_t ? 0 : f0->corners[i].t == NONE ? (uint32_t)f0->nvt : f0->corners[i].t;
    }
    if (!put_materials(c, s, f0))
        return 0;
    s->anims = (imp_anim *)scene_array(c, 1, sizeof *s->anims, f0->name);
    if (!s->anims)
        return 0;
    s->anims[0].name = anim_name(c, f0->name, opt ? opt->anim_name : NULL);
    if (!s->anims[0].name)
        return 0;
    s->num_anims = 1;
    s->anims[0].first_frame = 0;
    s->anims[0].num_frames = num_frames;
    s->anims[0].fps = opt && opt->fps > 0 ? opt->fps : 10.0;
    return 1;
}

static int note_skipped(obj_ctx *c, imp_scene *s, const obj_file *f)
{
    if (f->skipped == 0)
        return 1;
    if (!imp_scene_note(s, "%s:%lu: '%s' skipped (%lu statement%s that md2 import does not "
                           "read)", f->name, (unsigned long)f->skipped_line, f->skipped_word,
                        (unsigned long)f->skipped, f->skipped == 1 ? "" : "s"))
        return fail(c, "%s: out of memory", f->name);
    return 1;
}

/* The folder its files stay in: first's folder without its last
 * separator ("" for none, "/" for the top), or base_dir; malloc'd. */
static char *obj_root(const char *first, const char *base_dir)
{
    char *d;
    size_t n;
    if (!first) { /* base_dir is the folder itself */
        n = strlen(base_dir);
        if ((d = (char *)malloc(n + 1)) != NULL)
            memcpy(d, base_dir, n + 1);
        return d;
    }
    d = folder_of(first);
    if (d && (n = strlen(d)) > 1)
        d[n - 1] = '\0';
    return d;
}

/* Reads the files (or the one text, paths NULL) into out. */
static int read_all(obj_ctx *c, const char *const *paths, size_t num_paths, char *text,
                    size_t text_size, const char *name, const char *base_dir,
                    const imp_options *opt, imp_scene *out)
{
    obj_file f0, g;
    size_t i, size;
    float *vnorm = NULL; /* a sequence with normals: each vertex's in the frame being read */
    int ok = 0;
    memset(&f0, 0, sizeof f0);
    memset(&g, 0, sizeof g);
    f0.name = paths ? paths[0] : name;
    if (paths) {
        text = read_text(c, paths[0], &size, paths[0]);
        if (!text)
            return 0;
        text_size = size;
    }
    if (!parse_obj(c, &f0, text, text_size))
        goto done;
    if (f0.nlibs && (paths || base_dir) && !(c->root = obj_root(paths ? paths[0] : NULL, base_dir))) {
        fail(c, "%s: out of memory", f0.name);
        goto done;
    }
    for (i = 0; i < f0.nlibs; i++) {
        char *mtl;
        if (!paths && !base_dir) {
            if (!imp_scene_note(out, "%s:%lu: mtllib '%s' not read (no folder to read it from)",
                                f0.name, (unsigned long)f0.lib_lines[i], f0.libs[i])) {
                fail(c, "%s: out of memory", f0.name);
                goto done;
            }
            continue;
        }
        {
            char cited[512], *dir;
            snprintf(cited, sizeof cited, "%s:%lu", f0.name, (unsigned long)f0.lib_lines[i]);
            if (!(mtl = inside_path(c, "", f0.libs[i], "mtllib", cited)))
                goto done;
            dir = folder_of(mtl + root_prefix(c->root));
            if (!dir) {
                free(mtl);
                fail(c, "%s: out of memory", f0.name);
                goto done;
            }
            ok = parse_mtl(c, mtl, dir, cited);
            free(dir);
        }
        free(mtl);
        if (!ok)
            goto done;
        ok = 0;
    }
    if (!make_scene(c, &f0, paths ? num_paths : 1, opt, out) || !note_skipped(c, out, &f0))
        goto done;
    if (paths && num_paths > 1 && out->normals) {
        vnorm = (float *)calloc(3 * f0.nv + 1, sizeof *vnorm);
        if (!vnorm) {
            fail(c, "%s: out of memory", f0.name);
            goto done;
        }
        if (!vertex_normals(c, &f0, vnorm))
            goto done;
    }
    put_frame(out, &f0, &f0, vnorm, 0);
    for (i = 1; paths && i < num_paths; i++) {
        char *t = read_text(c, paths[i], &size, paths[i]);
        int good;
        if (!t)
            goto done;
        memset(&g, 0, sizeof g);
        g.name = paths[i];
        good = parse_obj(c, &g, t, size) && same_vertices(c, &f0, &g) &&
               (!vnorm || vertex_normals(c, &g, vnorm)) && note_skipped(c, out, &g);
        free(t);
        if (!good)
            goto done;
        put_frame(out, &f0, &g, vnorm, i);
        free_file(&g);
    }
    ok = 1;
done:
    free(vnorm);
    free_file(&g);
    free_file(&f0);
    if (paths)
        free(text);
    free_mtls(c);
    free(c->root);
    c->root = NULL;
    return ok;
}

static int finish(int ok, imp_scene *out)
{
    if (!ok)
        imp_scene_free(out);
    return ok;
}

/* An empty context and scene for one read: where messages go, the budget. */
static void ctx_init(obj_ctx *c, const imp_options *opt, imp_scene *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    memset(c, 0, sizeof *c);
    c->err = err;
    c->err_size = err_size;
    c->budget = opt ? opt->max_bytes : 0;
    c->opt = opt;
}

int imp_obj_read(const char *const *paths, size_t num_paths, const imp_options *opt, imp_scene *out,
                 char *err, size_t err_size)
{
    obj_ctx c;
    ctx_init(&c, opt, out, err, err_size);
    if (!paths || num_paths == 0)
        return fail(&c, "no OBJ file given");
    return finish(read_all(&c, paths, num_paths, NULL, 0, NULL, NULL, opt, out), out);
}

int imp_obj_read_memory(const unsigned char *data, size_t size, const char *name, const char *base_dir,
                        const imp_options *opt, imp_scene *out, char *err, size_t err_size)
{
    obj_ctx c;
    char *text;
    int ok;
    ctx_init(&c, opt, out, err, err_size);
    if (!name)
        name = "(memory)";
    if (size == (size_t)-1 || !spend(&c, size + 1, name))
        return fail(&c, "%s: too large", name);
    text = (char *)malloc(size + 1);
    if (!text)
        return fail(&c, "%s: out of memory", name);
    if (size)
        memcpy(text, data, size);
    text[size] = '\0';
    ok = read_all(&c, NULL, 0, text, size, name, base_dir, opt, out);
    free(text);
    return finish(ok, out);
}
