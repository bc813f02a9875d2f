/*
 * md2_demo - loads an MD2 model, prints what is in it and its animations,
 * and exports one interpolated pose as a Wavefront OBJ file with a
 * material (.mtl) file.
 *
 * Usage: md2_demo [MODEL.md2 [OUT.obj [FRAME_A FRAME_B T]]]
 *        md2_demo --help
 *
 *   MODEL.md2  the model to load (default: the bundled sample model,
 *              examples/models/crystal.md2, found through the absolute path
 *              MD2_EXAMPLES_DIR given at build time, so the demo runs from
 *              any directory)
 *   OUT.obj    where to write the pose (default: demo.obj in the current
 *              directory), and its material file beside it: the same
 *              name with the extension replaced by .mtl (demo.mtl; .mtl
 *              appended if the name has no extension, or ends in .mtl)
 *   FRAME_A FRAME_B T
 *              the pose: keyframes A and B blended at T in [0, 1]
 *              (default: frames 0 and 1 at 0.5; 0 and 0 for a model with
 *              one frame)
 *
 * Exit status: 0 on success; 1 if the model cannot be loaded, the OBJ or
 * MTL file cannot be written, or a side file next to the model cannot be
 * read or parsed (the demo then lists the animations from the frame names
 * and still writes the OBJ); 2 for bad arguments.
 *
 * Loading is lenient (the library's default): quirks of real files are
 * repaired and listed under "warnings". An error prints the library's
 * diagnostic, which names the section, the field and the byte offset.
 *
 * Animations: an MD2 file has no animation table. The demo lists the
 * animations that the library's md2_anims_from_names() finds in the frame
 * names (stand01..stand40 -> "stand"; frames that all have the same name
 * make one animation), each with its frames, its rate and whether it loops
 * or plays once. If a side file with the model's base name sits next to it
 * (for models/x/tris.md2: models/x/tris.anm, a UFO:AI animation file, or
 * else models/x/tris.framegroups, a DarkPlaces one; with both, the .anm
 * file is used and the other named as ignored), the demo reads it with
 * stdio, parses it with md2_parse_anm() or md2_parse_framegroups() against
 * the model, and lists its animations instead, naming the file. Warnings
 * from the side file (such as a rate of 0: the animation holds its first
 * frame) go to stderr through an on_warning callback; a side-file error
 * prints its diagnostic, which gives the line and column.
 *
 * The OBJ file holds, in MD2 order and in the model's own coordinates
 * (Quake's: X forward, Y left, Z up; choose "Z up" when importing):
 *   mtllib F   the material file written beside it
 *   v  x y z   one per vertex, from md2_lerp()
 *   vt u v     one per texcoord, from md2_texcoord_uv(), with v flipped to
 *              1 - v: MD2 rows grow downward, OBJ's v grows upward
 *   vn x y z   one per vertex: the blended normal, renormalised
 *              (md2_normalize())
 *   usemtl skin
 *   f a/b/c    one per triangle, 1-based vertex/texcoord/normal indices.
 * MD2 triangles are clockwise seen from outside (Quake II culls the other
 * side); OBJ front faces are counter-clockwise. Each face therefore lists
 * the triangle's corners in the order 0, 2, 1.
 *
 * The MTL file defines the one material "skin", whose map_Kd is the
 * model's first skin path exactly as the model stores it (for instance
 * models/monsters/x/skin.pcx, relative to the game's base folder, so an
 * importer may need the image copied or the path edited). A model without
 * skins gets a plain white material without map_Kd, and a comment that
 * says why. Control characters in names (a hostile file may hold any
 * bytes) are written as '?', so they cannot break the OBJ or MTL syntax.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/animation.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MD2_EXAMPLES_DIR
#define MD2_EXAMPLES_DIR "examples"
#endif

#define DEFAULT_MODEL MD2_EXAMPLES_DIR "/models/crystal.md2"
#define DEFAULT_OBJ "demo.obj"
/* md2_warning flags are bits 0.. of MD2_STRICT_ALL; room for all 32 bits */
#define NUM_WARNING_FLAGS 32
#define MATERIAL_NAME "skin"

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: md2_demo [MODEL.md2 [OUT.obj [FRAME_A FRAME_B T]]]\n"
            "Prints a summary of an MD2 model and its animations (from the frame\n"
            "names, or from MODEL.anm or MODEL.framegroups beside it), and writes\n"
            "keyframes FRAME_A and FRAME_B blended at T (0..1) as a Wavefront OBJ\n"
            "file with a material file (OUT.mtl) that names the first skin.\n"
            "Defaults: MODEL.md2 = %s\n"
            "          OUT.obj = %s, frames 0 and 1, T = 0.5\n",
            DEFAULT_MODEL, DEFAULT_OBJ);
}

/* Warnings met while loading: how often each flag was raised and the first
 * diagnostic message for it (which gives the byte offset). */
typedef struct warning_log {
    unsigned long count[NUM_WARNING_FLAGS];
    char first[NUM_WARNING_FLAGS][sizeof(((md2_diagnostic *)0)->message)];
} warning_log;

static void on_warning(void *user, const md2_diagnostic *d)
{
    warning_log *log = (warning_log *)user;
    int bit;

    for (bit = 0; bit < NUM_WARNING_FLAGS; bit++) {
        if (d->warning == ((uint32_t)1 << bit)) {
            if (log->count[bit]++ == 0)
                memcpy(log->first[bit], d->message, sizeof log->first[bit]);
            return;
        }
    }
}

/* Writes s to fp with control bytes as '?', so a name from the file
 * cannot add lines to a text file. */
static void put_clean(FILE *fp, const char *s)
{
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        fputc(c < 0x20 || c == 0x7f ? '?' : c, fp);
    }
}

/* Does s hold a control byte? */
static int has_control(const char *s)
{
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            return 1;
    }
    return 0;
}

/* A copy of path whose extension (the last '.' in the last path component,
 * if it is not that component's first byte) is replaced by ext, or with ext
 * appended if there is no extension or replacing it would give path itself.
 * NULL if out of memory; free() it. */
static char *with_extension(const char *path, const char *ext)
{
    size_t len = strlen(path), base = 0, stem, i;
    char *out;

    for (i = 0; i < len; i++) {
        if (path[i] == '/' || path[i] == '\\')
            base = i + 1;
    }
    stem = len;
    for (i = len; i > base + 1; i--) {
        if (path[i - 1] == '.') {
            stem = i - 1;
            break;
        }
    }
    if (strcmp(path + stem, ext) == 0)
        stem = len; /* "x.mtl" must not become its own companion */
    out = (char *)malloc(stem + strlen(ext) + 1);
    if (out) {
        memcpy(out, path, stem);
        strcpy(out + stem, ext);
    }
    return out;
}

/* The last path component of path. */
static const char *base_name(const char *path)
{
    const char *b = path, *p;

    for (p = path; *p != '\0'; p++) {
        if (*p == '/' || *p == '\\')
            b = p + 1;
    }
    return b;
}

/* Result of read_text(). */
typedef enum read_status { READ_OK, READ_ABSENT, READ_FAILED } read_status;

/* Reads the whole file at path into a malloc'd buffer (not NUL-terminated;
 * free() it) with standard C. READ_ABSENT if it does not exist; on
 * READ_FAILED, *why says what went wrong. */
static read_status read_text(const char *path, char **text, size_t *size,
                             const char **why)
{
    FILE *fp;
    char *data = NULL;
    size_t cap = 0, len = 0;
    int failed;

    *text = NULL;
    *size = 0;
    *why = "read error";
    errno = 0;
    fp = fopen(path, "rb");
    if (!fp) {
#ifdef ENOENT /* POSIX and Windows; plain C99 cannot tell why fopen failed */
        if (errno != ENOENT) {
            *why = errno != 0 ? strerror(errno) : "cannot open";
            return READ_FAILED;
        }
#endif
        return READ_ABSENT;
    }
    for (;;) {
        size_t got;
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 4096;
            char *p = ncap > cap ? (char *)realloc(data, ncap) : NULL;
            if (!p) {
                free(data);
                fclose(fp);
                *why = "out of memory";
                return READ_FAILED;
            }
            data = p;
            cap = ncap;
        }
        got = fread(data + len, 1, cap - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    failed = ferror(fp);
    if (failed && errno != 0)
        *why = strerror(errno);
    fclose(fp);
    if (failed) {
        free(data);
        return READ_FAILED;
    }
    *text = data;
    *size = len;
    return READ_OK;
}

/* Prints one side-file warning; user is the side file's path. */
static void on_sidefile_warning(void *user, const md2_diagnostic *d)
{
    fprintf(stderr, "md2_demo: %s: warning: %s\n",
            *(const char *const *)user, d->message);
}

/* The side files looked for next to the model, in this order. */
typedef md2_result (*sidefile_parser)(const char *text, size_t size,
                                      const md2_model *m,
                                      const md2_options *opts, md2_anim *out,
                                      size_t capacity, size_t *count);
static const struct {
    const char *ext;
    sidefile_parser parse;
} sidefiles[2] = {
    {".anm", md2_parse_anm},
    {".framegroups", md2_parse_framegroups},
};

/* Parses text with parse against m into a new array (free() it) and
 * stores the count. Returns 0 on success; on failure prints why and
 * returns 1. */
static int parse_sidefile(const char *path, sidefile_parser parse,
                          const char *text, size_t size, const md2_model *m,
                          md2_anim **out, size_t *count)
{
    md2_diagnostic diag;
    md2_options opts;
    md2_anim *anims;
    md2_result r;
    size_t n = 0;

    *out = NULL;
    *count = 0;
    memset(&opts, 0, sizeof opts);
    memset(&diag, 0, sizeof diag);
    opts.error = &diag;
    /* first pass: check the whole text and count the entries (warnings
     * muted here: the second pass reports them) */
    r = parse(text, size, m, &opts, NULL, 0, &n);
    if (r == MD2_OK && n > 0) {
        anims = n <= (size_t)-1 / sizeof *anims
                    ? (md2_anim *)malloc(n * sizeof *anims) : NULL;
        if (!anims) {
            fprintf(stderr, "md2_demo: %s: out of memory for %lu animations\n",
                    path, (unsigned long)n);
            return 1;
        }
        opts.on_warning = on_sidefile_warning;
        opts.warning_user = &path;
        r = parse(text, size, m, &opts, anims, n, &n);
        if (r != MD2_OK) {
            free(anims);
            anims = NULL;
        }
        *out = anims;
    }
    if (r != MD2_OK) {
        fprintf(stderr, "md2_demo: %s: %s\n", path, md2_result_string(r));
        if (diag.message[0] != '\0')
            fprintf(stderr, "  %s\n", diag.message);
        return 1;
    }
    *count = n;
    return 0;
}

/* Looks for MODEL.anm, then MODEL.framegroups, next to the model. If one
 * is there, parses it: on success stores its animations and path (free()
 * both) and returns 0; on an error prints it and returns 1. With no side
 * file, returns 0 and leaves *anims and *source NULL. */
static int load_sidefile(const char *model_path, const md2_model *m,
                         md2_anim **anims, size_t *count, char **source)
{
    size_t i;

    *anims = NULL;
    *count = 0;
    *source = NULL;
    for (i = 0; i < sizeof sidefiles / sizeof sidefiles[0]; i++) {
        char *path = with_extension(model_path, sidefiles[i].ext);
        char *text = NULL;
        const char *why;
        size_t size = 0;
        read_status st;
        int failed;

        if (!path) {
            fprintf(stderr, "md2_demo: out of memory\n");
            return 1;
        }
        st = read_text(path, &text, &size, &why);
        if (st == READ_ABSENT) {
            free(path);
            continue;
        }
        if (st == READ_FAILED) {
            fprintf(stderr, "md2_demo: cannot read %s: %s\n", path, why);
            free(path);
            return 1;
        }
        failed = parse_sidefile(path, sidefiles[i].parse, text, size, m,
                                anims, count);
        free(text);
        if (failed) {
            free(path);
            return 1;
        }
        *source = path;
        /* say so if a later kind of side file is there too */
        for (i++; i < sizeof sidefiles / sizeof sidefiles[0]; i++) {
            char *other = with_extension(model_path, sidefiles[i].ext);
            FILE *fp = other ? fopen(other, "rb") : NULL;
            if (fp) {
                fclose(fp);
                fprintf(stderr, "md2_demo: %s is ignored: %s comes first\n",
                        other, path);
            }
            free(other);
        }
        return 0;
    }
    return 0;
}

/* The animations md2_anims_from_names() finds, in a new array (free() it;
 * NULL if out of memory). */
static md2_anim *anims_from_names(const md2_model *m, size_t *count)
{
    size_t n = md2_anims_from_names(m, NULL, 0);
    md2_anim *anims;

    *count = 0;
    if (n == 0 || n > (size_t)-1 / sizeof *anims)
        return NULL;
    anims = (md2_anim *)malloc(n * sizeof *anims);
    if (anims)
        *count = md2_anims_from_names(m, anims, n);
    return anims;
}

static void print_animations(const md2_model *m, const md2_anim *anims,
                             size_t count, const char *source)
{
    size_t i;

    printf("animations: %lu (from %s)\n", (unsigned long)count, source);
    for (i = 0; i < count; i++) {
        const md2_anim *a = &anims[i];
        const char *name = a->name[0] != '\0' ? a->name : "(no name)";
        unsigned long n = (unsigned long)(a->last - a->first) + 1;
        size_t pad;

        fputs("  ", stdout);
        put_clean(stdout, name);
        for (pad = strlen(name); pad < MD2_ANIM_NAME_SIZE; pad++)
            putchar(' ');
        printf(" frames %3lu-%-3lu (%3lu) %5.1f fps  %-5s  ",
               (unsigned long)a->first, (unsigned long)a->last, n,
               (double)a->fps, a->loop ? "loops" : "once");
        /* the frames' own names; a side file's ranges were checked against
         * the model, so they are in range */
        put_clean(stdout, m->frames[a->first].name);
        if (a->last != a->first) {
            fputs("..", stdout);
            put_clean(stdout, m->frames[a->last].name);
        }
        putchar('\n');
    }
}

static void print_summary(const char *path, const md2_model *m,
                          const warning_log *log)
{
    md2_glcmd_iter it;
    md2_glcmd cmd;
    unsigned long strips = 0, fans = 0;
    size_t i;
    int bit;

    md2_glcmd_begin(&it, m);
    while (md2_glcmd_next(&it, &cmd)) {
        if (cmd.is_fan)
            fans++;
        else
            strips++;
    }

    printf("file:       %s\n", path);
    printf("skin size:  %ld x %ld pixels\n", (long)m->skin_width,
           (long)m->skin_height);
    printf("vertices:   %lu per frame\n", (unsigned long)m->num_vertices);
    printf("texcoords:  %lu\n", (unsigned long)m->num_texcoords);
    printf("triangles:  %lu\n", (unsigned long)m->num_triangles);
    printf("frames:     %lu\n", (unsigned long)m->num_frames);
    printf("GL cmds:    %lu words: %lu strip%s, %lu fan%s\n",
           (unsigned long)m->num_glcmds, strips, strips == 1 ? "" : "s", fans,
           fans == 1 ? "" : "s");
    printf("memory:     %lu bytes (one allocation, frames kept compressed)\n",
           (unsigned long)md2_model_memory(m));
    printf("skins:      %lu\n", (unsigned long)m->num_skins);
    for (i = 0; i < m->num_skins; i++) {
        printf("  %lu: ", (unsigned long)i);
        put_clean(stdout, m->skins[i].name);
        putchar('\n');
    }
    if (m->warnings == 0) {
        printf("warnings:   none\n");
        return;
    }
    printf("warnings:   0x%03lx (repaired while loading)\n",
           (unsigned long)m->warnings);
    for (bit = 0; bit < NUM_WARNING_FLAGS; bit++) {
        uint32_t flag = (uint32_t)1 << bit;
        if (!(m->warnings & flag))
            continue;
        printf("  - %s: %lu time%s\n", md2_warning_string(flag),
               log->count[bit], log->count[bit] == 1 ? "" : "s");
        if (log->count[bit] > 0)
            printf("    first: %s\n", log->first[bit]);
    }
}

static int parse_frame(const char *s, unsigned long *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return 0;
    *out = strtoul(s, &end, 10);
    return errno == 0 && *end == '\0' && *out <= 0xFFFFFFFFul;
}

static int parse_t(const char *s, float *out)
{
    char *end;
    double v;
    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v >= 0.0 && v <= 1.0))
        return 0;
    *out = (float)v;
    return 1;
}

/* Writes the material file: one material, MATERIAL_NAME, textured with
 * the model's first skin. Returns 0 on success. */
static int write_mtl(const char *path, const char *model_path,
                     const md2_model *m)
{
    const char *skin = m->num_skins > 0 ? m->skins[0].name : "";
    FILE *fp = fopen(path, "w");
    int failed;

    if (!fp) {
        fprintf(stderr, "md2_demo: cannot create %s: %s\n", path,
                strerror(errno));
        return 1;
    }
    fputs("# material for the OBJ file written by md2_demo (libmd2 ", fp);
    fputs(md2_version_string(), fp);
    fputs(") from ", fp);
    put_clean(fp, model_path);
    fputc('\n', fp);
    if (m->num_skins == 0)
        fputs("# the model names no skins: no map_Kd, a plain white material\n",
              fp);
    else if (skin[0] == '\0')
        fputs("# the model's first skin name is empty: no map_Kd, a plain "
              "white material\n", fp);
    else
        fprintf(fp, "# map_Kd: the model's first skin (of %lu), as stored in "
                    "the model: a path\n# in the game's files, which may "
                    "need copying or editing for an importer\n",
                (unsigned long)m->num_skins);
    if (skin[0] != '\0' && has_control(skin))
        fputs("# (control bytes in the skin name are written as '?')\n", fp);
    fprintf(fp, "newmtl %s\n", MATERIAL_NAME);
    fputs("Ka 1 1 1\nKd 1 1 1\nKs 0 0 0\nd 1\nillum 1\n", fp);
    if (skin[0] != '\0') {
        fputs("map_Kd ", fp);
        put_clean(fp, skin);
        fputc('\n', fp);
    }
    failed = ferror(fp);
    if (fclose(fp) != 0)
        failed = 1;
    if (failed) {
        fprintf(stderr, "md2_demo: error writing %s\n", path);
        return 1;
    }
    printf("wrote %s: material %s, ", path, MATERIAL_NAME);
    if (skin[0] != '\0') {
        fputs("map_Kd ", stdout);
        put_clean(stdout, skin);
        putchar('\n');
    } else {
        printf("no map_Kd (%s)\n", m->num_skins == 0 ? "the model has no skins"
                                                     : "empty skin name");
    }
    return 0;
}

/* Writes the pose as OBJ, using the material file mtl_path (named by its
 * last path component: it sits in the same folder); returns 0 on
 * success. */
static int write_obj(const char *path, const char *mtl_path,
                     const char *model_path, const md2_model *m, uint32_t fa,
                     uint32_t fb, float t)
{
    size_t n = m->num_vertices, i;
    float *pos = (float *)malloc(n * 3 * sizeof(float));
    float *nrm = (float *)malloc(n * 3 * sizeof(float));
    md2_result r;
    FILE *fp;
    int failed;

    if (!pos || !nrm) {
        free(pos);
        free(nrm);
        fprintf(stderr, "md2_demo: out of memory\n");
        return 1;
    }
    r = md2_lerp(m, fa, fb, t, pos, 0, nrm, 0);
    if (r == MD2_OK)
        r = md2_normalize(nrm, m->num_vertices, 0);
    if (r != MD2_OK) {
        fprintf(stderr, "md2_demo: cannot blend frames %lu and %lu: %s\n",
                (unsigned long)fa, (unsigned long)fb, md2_result_string(r));
        free(pos);
        free(nrm);
        return 1;
    }
    fp = fopen(path, "w");
    if (!fp) {
        fprintf(stderr, "md2_demo: cannot create %s: %s\n", path,
                strerror(errno));
        free(pos);
        free(nrm);
        return 1;
    }
    fputs("# ", fp);
    put_clean(fp, model_path);
    fprintf(fp, ": frames %lu (", (unsigned long)fa);
    put_clean(fp, m->frames[fa].name);
    fprintf(fp, ") and %lu (", (unsigned long)fb);
    put_clean(fp, m->frames[fb].name);
    fprintf(fp, ") at t = %g\n", (double)t);
    fprintf(fp, "# written by libmd2 %s md2_demo; Quake coordinates (Z up)\n",
            md2_version_string());
    fprintf(fp, "# faces list MD2 corners 0, 2, 1: MD2 is clockwise, OBJ "
                "counter-clockwise\n");
    fputs("mtllib ", fp);
    put_clean(fp, base_name(mtl_path));
    fputc('\n', fp);
    for (i = 0; i < n; i++)
        fprintf(fp, "v %.6g %.6g %.6g\n", (double)pos[3 * i],
                (double)pos[3 * i + 1], (double)pos[3 * i + 2]);
    for (i = 0; i < m->num_texcoords; i++) {
        float u, v;
        md2_texcoord_uv(m, m->texcoords[i], &u, &v);
        fprintf(fp, "vt %.6g %.6g\n", (double)u, (double)(1.0f - v));
    }
    for (i = 0; i < n; i++)
        fprintf(fp, "vn %.6g %.6g %.6g\n", (double)nrm[3 * i],
                (double)nrm[3 * i + 1], (double)nrm[3 * i + 2]);
    fprintf(fp, "usemtl %s\n", MATERIAL_NAME);
    for (i = 0; i < m->num_triangles; i++) {
        static const int order[3] = {0, 2, 1};
        const md2_triangle *tri = &m->triangles[i];
        int k;
        fputc('f', fp);
        for (k = 0; k < 3; k++) {
            unsigned long v = (unsigned long)tri->vertex[order[k]] + 1;
            unsigned long st = (unsigned long)tri->texcoord[order[k]] + 1;
            fprintf(fp, " %lu/%lu/%lu", v, st, v);
        }
        fputc('\n', fp);
    }
    failed = ferror(fp);
    if (fclose(fp) != 0)
        failed = 1;
    free(pos);
    free(nrm);
    if (failed) {
        fprintf(stderr, "md2_demo: error writing %s\n", path);
        return 1;
    }
    printf("wrote %s: frames %lu -> %lu at t = %g: %lu v, %lu vt, %lu vn, %lu f\n",
           path, (unsigned long)fa, (unsigned long)fb, (double)t,
           (unsigned long)n, (unsigned long)m->num_texcoords, (unsigned long)n,
           (unsigned long)m->num_triangles);
    return write_mtl(mtl_path, model_path, m);
}

int main(int argc, char **argv)
{
    const char *model_path = DEFAULT_MODEL, *obj_path = DEFAULT_OBJ;
    static warning_log log;
    unsigned long fa = 0, fb = 1;
    int frames_given = 0, rc = 0;
    float t = 0.5f;
    md2_diagnostic diag;
    md2_options opts;
    md2_model *m = NULL;
    md2_anim *anims = NULL;
    size_t num_anims = 0;
    char *side_path = NULL, *mtl_path;
    md2_result r;

    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 4 || argc > 6) {
        usage(stderr);
        return 2;
    }
    if (argc > 1)
        model_path = argv[1];
    if (argc > 2)
        obj_path = argv[2];
    if (argc == 6) {
        if (!parse_frame(argv[3], &fa) || !parse_frame(argv[4], &fb)) {
            fprintf(stderr, "md2_demo: frame numbers must be whole numbers >= 0\n");
            return 2;
        }
        if (!parse_t(argv[5], &t)) {
            fprintf(stderr, "md2_demo: T must be a number from 0 to 1\n");
            return 2;
        }
        frames_given = 1;
    }

    memset(&opts, 0, sizeof opts);
    memset(&diag, 0, sizeof diag);
    opts.error = &diag;
    opts.on_warning = on_warning;
    opts.warning_user = &log;
    r = md2_load_file(model_path, &opts, &m);
    if (r != MD2_OK) {
        fprintf(stderr, "md2_demo: cannot load %s: %s\n", model_path,
                md2_result_string(r));
        if (diag.message[0] != '\0')
            fprintf(stderr, "  %s\n", diag.message);
        return 1;
    }

    print_summary(model_path, m, &log);

    /* the animations: from a side file next to the model, else (also when
     * the side file is broken) from the frame names */
    if (load_sidefile(model_path, m, &anims, &num_anims, &side_path) != 0) {
        fprintf(stderr, "md2_demo: listing the animations from the frame "
                        "names instead\n");
        rc = 1;
    }
    if (side_path) {
        print_animations(m, anims, num_anims, side_path);
    } else {
        anims = anims_from_names(m, &num_anims);
        if (!anims) {
            fprintf(stderr, "md2_demo: out of memory\n");
            md2_free(m);
            return 1;
        }
        print_animations(m, anims, num_anims,
                         "the frame names, md2_anims_from_names()");
    }
    free(anims);
    free(side_path);

    if (!frames_given && m->num_frames < 2)
        fb = 0;
    if (fa >= m->num_frames || fb >= m->num_frames) {
        fprintf(stderr, "md2_demo: the model has frames 0 to %lu\n",
                (unsigned long)m->num_frames - 1);
        md2_free(m);
        return 2;
    }
    mtl_path = with_extension(obj_path, ".mtl");
    if (!mtl_path) {
        fprintf(stderr, "md2_demo: out of memory\n");
        md2_free(m);
        return 1;
    }
    if (write_obj(obj_path, mtl_path, model_path, m, (uint32_t)fa,
                  (uint32_t)fb, t) != 0)
        rc = 1;
    free(mtl_path);
    md2_free(m);
    return rc;
}
