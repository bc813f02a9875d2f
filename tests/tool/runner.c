/*
 * md2_tool_cases: runs one case of a test table of the md2 command
 * (the .cases files in tests/tool; README.md beside this file describes the tables).
 *
 *   md2_tool_cases VARS TABLE CASE
 *   md2_tool_cases --posix-only VARS TABLE...
 *
 * VARS is the file CMake writes with the build's variables (set, program
 * and flag lines), TABLE a table, CASE the name of one of its cases. Exit
 * status: 0 when the case passes, 1 when it fails, 77 when it is skipped
 * (a "needs" that is not met; CTest's SKIP_RETURN_CODE), 2 for a mistake in
 * the table, or for a POSIX-only case (posix_only()) in a build whose md2
 * is the Windows one (flag windows). --posix-only lists those cases of
 * the TABLEs, and the cases that use a fixture one of them sets up,
 * "TABLE NAME: REASON" a line, for the Windows run to leave out. This file is portable C99; what it asks of the system (files,
 * folders, processes, regular expressions) is in runner.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "runner.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_SKIP 77
#define EXIT_BAD_TABLE 2

/* ---- memory and strings ------------------------------------------------- */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "md2_tool_cases: out of memory\n");
        exit(1);
    }
    return p;
}

static char *xstrndup(const char *s, size_t n)
{
    char *p = (char *)xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

static char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

typedef struct sbuf {
    char *s;
    size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        char *p;
        while (cap < b->n + n + 1)
            cap *= 2;
        p = (char *)realloc(b->s, cap);
        if (!p) {
            fprintf(stderr, "md2_tool_cases: out of memory\n");
            exit(1);
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void sb_puts(sbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

static void sb_putc(sbuf *b, char c)
{
    sb_add(b, &c, 1);
}

/* An empty buffer's text is "". */
static const char *sb_text(const sbuf *b)
{
    return b->s ? b->s : "";
}

void words_add_n(words *w, const char *s, size_t len)
{
    if (w->n + 2 > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 8;
        char **v = (char **)realloc(w->v, cap * sizeof *v);
        if (!v) {
            fprintf(stderr, "md2_tool_cases: out of memory\n");
            exit(1);
        }
        w->v = v;
        w->cap = cap;
    }
    w->v[w->n++] = xstrndup(s, len);
    w->v[w->n] = NULL;
}

void words_add(words *w, const char *s)
{
    words_add_n(w, s, strlen(s));
}

void words_free(words *w)
{
    size_t i;
    for (i = 0; i < w->n; i++)
        free(w->v[i]);
    free(w->v);
    w->v = NULL;
    w->n = w->cap = 0;
}

static int words_has(const words *w, const char *s)
{
    size_t i;
    for (i = 0; i < w->n; i++) {
        if (strcmp(w->v[i], s) == 0)
            return 1;
    }
    return 0;
}

/* The whole file (NUL-terminated, *size bytes before the NUL), or NULL. */
static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    sbuf b = {0};
    char chunk[65536];
    size_t got;
    if (!f)
        return NULL;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        sb_add(&b, chunk, got);
    if (ferror(f)) {
        fclose(f);
        free(b.s);
        return NULL;
    }
    fclose(f);
    if (size)
        *size = b.n;
    return b.s ? b.s : xstrdup("");
}

static int write_file(const char *path, const char *data, size_t size, const char *mode)
{
    FILE *f = fopen(path, mode);
    int ok;
    if (!f)
        return 0;
    ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

/* ---- reporting ------------------------------------------------------------ */

static const char *table_path = "";
static unsigned current_line;

/* Says what, after where, on out. */
static void say(FILE *out, const char *where, const char *fmt, va_list ap)
{
    fputs(where, out);
    vfprintf(out, fmt, ap);
    fputc('\n', out);
}

/* A mistake in the table: says where, and exits with 2. */
static void bad_table(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

static void bad_table(const char *fmt, ...)
{
    char where[1024];
    va_list ap;
    snprintf(where, sizeof where, "%s:%u: ", table_path, current_line);
    va_start(ap, fmt);
    say(stderr, where, fmt, ap);
    va_end(ap);
    exit(EXIT_BAD_TABLE);
}

/* A need that is not met: says which, and exits with 77 (skipped). */
static void skip_case(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

static void skip_case(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(stdout, "md2_tool_cases: skipped: ", fmt, ap);
    va_end(ap);
    exit(EXIT_SKIP);
}

static sbuf failures;
static int num_failures;

static void fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void fail(const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    printf("FAILED: %s\n", msg);
    sb_puts(&failures, "  - ");
    sb_puts(&failures, msg);
    sb_putc(&failures, '\n');
    num_failures++;
}

/* Prints text as a block, ending it with a newline when it has none. */
static void show(const char *title, const char *text)
{
    size_t n = strlen(text);
    printf("---- %s\n%s%s", title, text, n && text[n - 1] != '\n' ? "\n" : "");
}

/* ---- variables ------------------------------------------------------------ */

/* A variable's value is text that a table reads as it is (set in a table),
 * or one word (set in the VARS file, and CASE, STDOUT, STDERR): a path,
 * which stays one word in a command whatever it holds. */
typedef struct var {
    char *name, *value;
    int word;
} var;

/* Inside the text of a command, a word's value is put between these two
 * bytes, which split_words() copies as they are. */
#define WORD_START '\001'
#define WORD_END '\002'

static var *vars;
static size_t num_vars, cap_vars;
static words programs; /* the paths of the programs of ours (valgrind runs them) */
static words flags;    /* the flags the build sets (needs NAME) */

static const var *var_find(const char *name, size_t len)
{
    size_t i;
    for (i = num_vars; i-- > 0;) {
        if (strlen(vars[i].name) == len && strncmp(vars[i].name, name, len) == 0)
            return &vars[i];
    }
    return NULL;
}

static const char *var_get(const char *name)
{
    const var *v = var_find(name, strlen(name));
    return v ? v->value : NULL;
}

static int is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* text with every @NAME@ replaced by NAME's value (malloc'd). An @ that does
 * not start such a name stays as it is; an unknown NAME is a mistake. In a
 * command (for_words), a one-word value stays one word. */
static char *substitute_in(const char *text, int for_words)
{
    sbuf b = {0};
    const char *p = text;
    while (*p) {
        if (*p == '@') {
            const char *q = p + 1;
            while (is_name_char(*q))
                q++;
            if (q > p + 1 && *q == '@') {
                const var *v = var_find(p + 1, (size_t)(q - p - 1));
                if (!v)
                    bad_table("unknown variable @%.*s@", (int)(q - p - 1), p + 1);
                if (for_words && v->word)
                    sb_putc(&b, WORD_START);
                if (for_words) {
                    sb_puts(&b, v->value);
                } else {
                    const char *c; /* a pattern: the words' text alone */
                    for (c = v->value; *c; c++) {
                        if (*c != WORD_START && *c != WORD_END)
                            sb_putc(&b, *c);
                    }
                }
                if (for_words && v->word)
                    sb_putc(&b, WORD_END);
                p = q + 1;
                continue;
            }
        }
        sb_putc(&b, *p++);
    }
    return b.s ? b.s : xstrdup("");
}

/* For the words of a command, a step or a check. */
static char *substitute(const char *text)
{
    return substitute_in(text, 1);
}

static void var_set(const char *name, const char *value, int word)
{
    if (num_vars == cap_vars) {
        var *v;
        cap_vars = cap_vars ? cap_vars * 2 : 32;
        v = (var *)realloc(vars, cap_vars * sizeof *v);
        if (!v) {
            fprintf(stderr, "md2_tool_cases: out of memory\n");
            exit(1);
        }
        vars = v;
    }
    vars[num_vars].name = xstrdup(name);
    vars[num_vars].value = xstrdup(value);
    vars[num_vars].word = word;
    num_vars++;
}

/* ---- words and patterns ------------------------------------------------- */

/* The byte written as two hex digits at p, or -1 when they are not. */
static int hex_byte(const char *p)
{
    char two[3];
    if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]))
        return -1;
    two[0] = p[0];
    two[1] = p[1];
    two[2] = '\0';
    return (int)strtol(two, NULL, 16);
}

/* The escape at p (just after a backslash) inside "...": appends what it
 * stands for and returns how many characters it took, or 0 when it is not
 * one (the backslash then stands for itself). */
static size_t escape(const char *p, sbuf *b, int quotes)
{
    switch (*p) {
    case 'n':
        sb_putc(b, '\n');
        return 1;
    case 't':
        sb_putc(b, '\t');
        return 1;
    case 'r':
        sb_putc(b, '\r');
        return 1;
    case '\\':
        if (!quotes)
            return 0;
        sb_putc(b, '\\');
        return 1;
    case '"':
        if (!quotes)
            return 0;
        sb_putc(b, '"');
        return 1;
    case 'x':
        if (quotes && hex_byte(p + 1) >= 0) {
            sb_putc(b, (char)hex_byte(p + 1));
            return 3;
        }
        return 0;
    default:
        return 0;
    }
}

/* Appends the word raw (as written) to out, expanding one {A..B} range of
 * whole numbers in it when it has no quotes: m{000..002}.md2 gives
 * m000.md2, m001.md2, m002.md2 (as wide as A when A starts with 0). */
static int expand_range(const char *raw, size_t len, words *out)
{
    const char *open = NULL, *dots, *close, *p;
    unsigned long a, b, i;
    int width;
    for (p = raw; p < raw + len; p++) {
        if (*p == '"' || *p == '\'')
            return 0;
        if (*p == '{' && !open)
            open = p;
    }
    if (!open)
        return 0;
    for (dots = open + 1; dots < raw + len && isdigit((unsigned char)*dots); dots++)
        ;
    if (dots == open + 1 || dots + 2 >= raw + len || dots[0] != '.' || dots[1] != '.')
        return 0;
    for (close = dots + 2; close < raw + len && isdigit((unsigned char)*close); close++)
        ;
    if (close == dots + 2 || close >= raw + len || *close != '}')
        return 0;
    a = strtoul(open + 1, NULL, 10);
    b = strtoul(dots + 2, NULL, 10);
    width = open[1] == '0' ? (int)(dots - open - 1) : 0;
    if (b < a || b - a > 100000)
        bad_table("bad range in '%.*s'", (int)len, raw);
    for (i = a; i <= b; i++) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%.*s%0*lu%.*s", (int)(open - raw), raw, width, i,
                 (int)(raw + len - close - 1), close + 1);
        words_add(out, buf);
    }
    return 1;
}

/* Splits text into words: blanks separate them; "..." keeps blanks, with
 * \" \\ \n \t \r \xNN escapes (any other backslash is itself); '...' keeps
 * everything as written; quoted and unquoted parts next to each other make
 * one word. */
static void split_words(const char *text, words *out)
{
    const char *p = text;
    for (;;) {
        sbuf w = {0};
        const char *start;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        start = p;
        while (*p && *p != ' ' && *p != '\t') {
            if (*p == '"') {
                for (p++; *p && *p != '"'; p++) {
                    size_t n;
                    const char *q;
                    if (*p == '\\' && (n = escape(p + 1, &w, 1)) > 0) {
                        p += n;
                    } else if (*p == WORD_START && (q = strchr(p + 1, WORD_END)) != NULL) {
                        sb_add(&w, p + 1, (size_t)(q - p - 1));
                        p = q;
                    } else {
                        sb_putc(&w, *p);
                    }
                }
                if (*p != '"')
                    bad_table("a \" is not closed: %s", start);
                p++;
            } else if (*p == WORD_START) {
                const char *q = strchr(p + 1, WORD_END);
                if (!q)
                    bad_table("internal: an unfinished word");
                sb_add(&w, p + 1, (size_t)(q - p - 1));
                p = q + 1;
            } else if (*p == '\'') {
                const char *q = strchr(p + 1, '\'');
                if (!q)
                    bad_table("a ' is not closed: %s", start);
                sb_add(&w, p + 1, (size_t)(q - p - 1));
                p = q + 1;
            } else {
                sb_putc(&w, *p++);
            }
        }
        if (!expand_range(start, (size_t)(p - start), out))
            words_add(out, sb_text(&w));
        free(w.s);
    }
}

/* A pattern: /RE/, a POSIX extended regular expression, or "TEXT". */
typedef struct pattern {
    int regex;
    char *text; /* the expression, or the text */
} pattern;

static pattern parse_pattern(const char *raw)
{
    pattern pat;
    size_t n = strlen(raw);
    if (n >= 2 && raw[0] == '/' && raw[n - 1] == '/') {
        sbuf b = {0};
        const char *p;
        for (p = raw + 1; p < raw + n - 1; p++) {
            size_t k;
            if (*p == '\\' && p + 1 < raw + n - 1 && (k = escape(p + 1, &b, 0)) > 0) {
                p += k;
            } else if (*p == '\\' && p + 1 < raw + n - 1) {
                sb_add(&b, p, 2); /* \( \. \\ ...: the expression's own */
                p++;
            } else {
                sb_putc(&b, *p);
            }
        }
        pat.regex = 1;
        pat.text = b.s ? b.s : xstrdup("");
    } else if (n >= 2 && raw[0] == '"') {
        words w = {0};
        split_words(raw, &w);
        if (w.n != 1)
            bad_table("expected one /PATTERN/ or \"TEXT\": %s", raw);
        pat.regex = 0;
        pat.text = xstrdup(w.v[0]);
        words_free(&w);
    } else {
        bad_table("expected /PATTERN/ or \"TEXT\": %s", raw);
    }
    return pat;
}

/* 1 when pat is found in text (whole: it must be all of text). */
static int pattern_matches(const pattern *pat, const char *text, int whole)
{
    char why[512];
    int rc;
    if (!pat->regex)
        return whole ? strcmp(text, pat->text) == 0 : strstr(text, pat->text) != NULL;
    if (whole) {
        size_t n = strlen(pat->text) + 5;
        char *re = (char *)xmalloc(n);
        snprintf(re, n, "^(%s)$", pat->text);
        rc = re_match(re, text, 0, NULL, NULL, why, sizeof why);
        free(re);
    } else {
        rc = re_match(pat->text, text, 0, NULL, NULL, why, sizeof why);
    }
    if (rc < 0)
        bad_table("%s", why);
    return rc;
}

/* The pattern as a table writes it (newlines, returns and tabs as \n, \r,
 * \t); the string lasts until the next call. */
static const char *pattern_show(const pattern *pat)
{
    static sbuf b;
    const char *p;
    b.n = 0;
    sb_puts(&b, pat->regex ? "/" : "\"");
    for (p = pat->text; *p; p++) {
        if (*p == '\n')
            sb_puts(&b, "\\n");
        else if (*p == '\r')
            sb_puts(&b, "\\r");
        else if (*p == '\t')
            sb_puts(&b, "\\t");
        else
            sb_putc(&b, *p);
    }
    sb_puts(&b, pat->regex ? "/" : "\"");
    return b.s;
}

/* The value of variable name read as one word (as a table reads it), or
 * NULL; the string lasts until the next call. */
static const char *var_word(const char *name)
{
    return var_get(name);
}

/* ---- the table ------------------------------------------------------------ */

typedef struct clause {
    char *key, *text; /* text: the rest of the line, variables not yet replaced */
    unsigned line;
} clause;

typedef struct test_case {
    char *name, *exit_text, *command;
    unsigned line;
    clause *clauses;
    size_t num_clauses;
} test_case;

/* Reads the file's logical lines (a line ending in a backslash goes on in
 * the next), calling fn(text, first physical line, user) for each. */
static void read_lines(const char *path, void (*fn)(char *, unsigned, void *), void *user)
{
    char *data = read_file(path, NULL), *p;
    unsigned line = 1;
    sbuf logical = {0};
    unsigned first = 0;
    if (!data) {
        fprintf(stderr, "md2_tool_cases: cannot read %s\n", path);
        exit(EXIT_BAD_TABLE);
    }
    for (p = data; *p; line++) {
        char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        if (!logical.n)
            first = line;
        if (n > 0 && p[n - 1] == '\\') {
            sb_add(&logical, p, n - 1);
            sb_putc(&logical, ' ');
        } else {
            sb_add(&logical, p, n);
            fn(logical.s ? logical.s : (char *)"", first, user);
            logical.n = 0;
            if (logical.s)
                logical.s[0] = '\0';
        }
        p = end ? end + 1 : p + strlen(p);
    }
    if (logical.n)
        fn(logical.s, first, user);
    free(logical.s);
    free(data);
}

/* The first word of text (into key) and the rest after its blanks. */
static const char *first_word(const char *text, char *key, size_t key_size)
{
    size_t n = 0;
    while (*text == ' ' || *text == '\t')
        text++;
    while (text[n] && text[n] != ' ' && text[n] != '\t')
        n++;
    snprintf(key, key_size, "%.*s", (int)n, text);
    text += n;
    while (*text == ' ' || *text == '\t')
        text++;
    return text;
}

static void vars_line(char *text, unsigned line, void *user)
{
    char key[64], name[256];
    const char *rest = first_word(text, key, sizeof key);
    (void)user;
    current_line = line;
    if (!*key || key[0] == '#')
        return;
    rest = first_word(rest, name, sizeof name);
    if (strcmp(key, "set") == 0 || strcmp(key, "program") == 0) {
        words w = {0};
        split_words(rest, &w);
        if (w.n > 1)
            bad_table("%s %s: one word (quote it)", key, name);
        var_set(name, w.n ? w.v[0] : "", 1);
        if (strcmp(key, "program") == 0)
            words_add(&programs, w.n ? w.v[0] : "");
        words_free(&w);
    } else if (strcmp(key, "flag") == 0) {
        words_add(&flags, name);
    } else {
        bad_table("expected set, program or flag, not '%s'", key);
    }
}

typedef struct table_reader {
    const char *wanted; /* NULL: every case, each given to each() */
    test_case found;
    int in_wanted, seen;
    void (*each)(const test_case *tc);
} table_reader;

static void case_free(test_case *tc)
{
    size_t i;
    for (i = 0; i < tc->num_clauses; i++) {
        free(tc->clauses[i].key);
        free(tc->clauses[i].text);
    }
    free(tc->clauses);
    free(tc->name);
    free(tc->exit_text);
    free(tc->command);
    memset(tc, 0, sizeof *tc);
}

/* every case: the one read so far to each(), then the next */
static void table_next_case(table_reader *r)
{
    if (!r->wanted && r->found.name) {
        r->each(&r->found);
        case_free(&r->found);
    }
}

static void table_line(char *text, unsigned line, void *user)
{
    table_reader *r = (table_reader *)user;
    char key[256];
    const char *rest;
    current_line = line;
    if (!*text)
        return;
    rest = first_word(text, key, sizeof key);
    if (key[0] == '#')
        return;
    if (text[0] == ' ' || text[0] == '\t') {
        clause *c;
        if (!r->seen)
            bad_table("a clause before the first case");
        if (!r->in_wanted)
            return;
        r->found.clauses = (clause *)realloc(r->found.clauses,
                                             (r->found.num_clauses + 1) * sizeof *c);
        if (!r->found.clauses)
            exit(1);
        c = &r->found.clauses[r->found.num_clauses++];
        c->key = xstrdup(key);
        c->text = xstrdup(rest);
        c->line = line;
        return;
    }
    if (strcmp(key, "set") == 0) {
        char name[256];
        char *value;
        rest = first_word(rest, name, sizeof name);
        value = substitute_in(rest, 1); /* the paths in it stay words */
        var_set(name, value, 0);
        free(value);
        return;
    }
    r->seen = 1;
    table_next_case(r);
    r->in_wanted = !r->wanted || strcmp(key, r->wanted) == 0;
    if (r->in_wanted) {
        char exit_text[64];
        if (r->found.name)
            bad_table("a second case named %s", key);
        rest = first_word(rest, exit_text, sizeof exit_text);
        if (!*rest)
            bad_table("a case is NAME EXIT COMMAND (or '-' for none)");
        r->found.name = xstrdup(key);
        r->found.exit_text = xstrdup(exit_text);
        r->found.command = xstrdup(rest);
        r->found.line = line;
    }
}

/* ---- running a case ------------------------------------------------------ */

typedef struct snapshot_entry {
    char *path, *data; /* data: a file's bytes, a link's target; NULL for a folder */
    size_t size;
    int kind;
} snapshot_entry;

typedef struct runner {
    const test_case *tc;
    const char *case_dir, *out_path, *err_path, *check_path;
    char *cwd;
    words env;              /* env NAME=VALUE, preload */
    long address_space_kib; /* address-space */
    int tty, other_user, valgrind, valgrind_off, expected_exit;
    char *stdout_to;
    words prefix; /* as-other-user: the command that runs md2 as nobody */
    char *other_md2; /* as-other-user: the copy of md2 that user runs, or NULL */
    char *timeout; /* timeout SECONDS: coreutils' timeout, then its words */
    char *timeout_seconds;
    char *out, *err;
    sbuf last_check; /* what the last check printed */
    snapshot_entry *snap;
    size_t num_snap;
} runner;

/* The run (main() fills it in; check_needs() asks it about valgrind). */
static runner the_runner;

static void join_path(sbuf *b, const char *dir, const char *name)
{
    b->n = 0;
    sb_puts(b, dir);
    if (b->n && b->s[b->n - 1] != '/')
        sb_putc(b, '/');
    sb_puts(b, name);
}

/* The words of a command, with "md2" the command under test and, when
 * valgrind is on, valgrind before each program of ours. */
static void command_words(runner *r, const char *text, int under_test, words *out)
{
    words w = {0};
    size_t i;
    char *subst = substitute(text);
    const char *md2 = var_word("md2");
    split_words(subst, &w);
    free(subst);
    if (w.n == 0)
        bad_table("an empty command");
    if (under_test && r->timeout) {
        /* killed (status 124, 137 after -k) when it runs longer */
        words_add(out, r->timeout);
        words_add(out, "-k");
        words_add(out, "5");
        words_add(out, r->timeout_seconds);
    }
    if (under_test) {
        for (i = 0; i < r->prefix.n; i++)
            words_add(out, r->prefix.v[i]);
    }
    for (i = 0; i < w.n; i++) {
        const char *word = strcmp(w.v[i], "md2") == 0 && md2 ? md2 : w.v[i];
        int ours = words_has(&programs, word);
        /* as another user, md2 is its copy in a folder that user can reach */
        if (under_test && r->other_md2 && md2 && strcmp(word, md2) == 0)
            word = r->other_md2;
        if (r->valgrind && !(under_test && r->valgrind_off) && ours) {
            static const char *const opts[] = {
                "-q", "--error-exitcode=125", "--leak-check=full", "--errors-for-leak-kinds=all",
                "--show-leak-kinds=all"};
            size_t k;
            char *vg = fs_which("valgrind");
            if (!vg) {
                fprintf(stderr, "md2_tool_cases: valgrind was asked for (MD2_TOOL_VALGRIND), "
                                "but is not installed\n");
                exit(1);
            }
            words_add(out, vg);
            free(vg);
            for (k = 0; k < sizeof opts / sizeof *opts; k++)
                words_add(out, opts[k]);
        }
        words_add(out, word);
    }
    words_free(&w);
}

static void quote_for_sh(sbuf *b, const char *word)
{
    sb_putc(b, '\'');
    for (; *word; word++) {
        if (*word == '\'')
            sb_puts(b, "'\\''");
        else
            sb_putc(b, *word);
    }
    sb_putc(b, '\'');
}

static void show_command(const runner *r, char *const *argv)
{
    size_t i;
    printf("+ cd %s\n+", r->cwd);
    for (i = 0; argv[i]; i++) {
        int plain = strcspn(argv[i], " \t\n'\"\\$*?") == strlen(argv[i]) && argv[i][0];
        sbuf q = {0};
        if (!plain)
            quote_for_sh(&q, argv[i]);
        printf(" %s", plain ? argv[i] : sb_text(&q));
        free(q.s);
    }
    putchar('\n');
}

/* Runs argv in the case's folder, stdout into out_path, stderr into
 * err_path (the same path: one file); the exit status, or -1. */
static int run(runner *r, char *const *argv, char *const *env, long as_kib, const char *out_path,
               const char *err_path)
{
    proc_spec spec;
    int status, sig;
    char why[1024];
    spec.argv = argv;
    spec.cwd = r->cwd;
    spec.env = env;
    spec.out_path = out_path;
    spec.err_path = err_path;
    spec.address_space_kib = as_kib;
    if (!run_process(&spec, &status, &sig, why, sizeof why)) {
        fail("%s", why);
        return -1;
    }
    if (sig)
        printf("(ended by signal %d)\n", sig);
    return status;
}

/* Runs a helper (before run, check, judge) with both streams into
 * check_path; its output goes to last_check. 1 if it exits 0. */
static int run_helper(runner *r, const char *text, const char *what)
{
    words argv = {0};
    char *output;
    int status;
    command_words(r, text, 0, &argv);
    if (!argv.v[0][0]) /* an empty @program@: it is not built here */
        skip_case("%s: a program it runs is not built here (see the configure messages): %.80s",
                  what, text);
    show_command(r, argv.v);
    status = run(r, argv.v, NULL, 0, r->check_path, r->check_path);
    words_free(&argv);
    output = read_file(r->check_path, NULL);
    r->last_check.n = 0;
    sb_puts(&r->last_check, output ? output : "");
    if (output && *output)
        show("its output", output);
    free(output);
    if (status != 0 && status != -1)
        fail("%s exited with %d: %.160s%s", what, status, text, strlen(text) > 160 ? " ..." : "");
    return status == 0;
}

/* ---- setup steps ---------------------------------------------------------- */

static char *need_file(const char *path)
{
    char *data = read_file(path, NULL);
    if (!data)
        fail("before: cannot read %s", path);
    return data;
}

/* edit SRC DST OP...: cut N, set OFFSET HEX, every STEP COUNT (repeats the
 * last set COUNT times in all, STEP bytes apart). */
static void step_edit(char **w, size_t n)
{
    size_t size, i, offset = 0;
    char *data;
    const char *hex = NULL;
    if (n < 2)
        bad_table("edit SRC DST [cut N] [set OFFSET HEX] [every STEP COUNT]");
    if ((data = read_file(w[0], &size)) == NULL) {
        fail("before edit: cannot read %s", w[0]);
        return;
    }
    for (i = 2; i < n; i++) {
        if (strcmp(w[i], "cut") == 0 && i + 1 < n) {
            size_t cut = strtoul(w[++i], NULL, 10);
            if (cut < size)
                size = cut;
        } else if ((strcmp(w[i], "set") == 0 && i + 2 < n) ||
                   (strcmp(w[i], "every") == 0 && hex && i + 2 < n)) {
            int every = w[i][0] == 'e';
            size_t stride = every ? strtoul(w[i + 1], NULL, 10) : 0;
            size_t count = every ? strtoul(w[i + 2], NULL, 10) : 1, k, j, len;
            if (!every) {
                offset = strtoul(w[i + 1], NULL, 10);
                hex = w[i + 2];
            }
            len = strlen(hex) / 2;
            for (k = every ? 1 : 0; k < count; k++) {
                size_t at = offset + k * stride;
                if (strlen(hex) % 2 || at > size || len > size - at)
                    bad_table("edit: set past the end of %s", w[0]);
                for (j = 0; j < len; j++) {
                    int byte = hex_byte(hex + 2 * j);
                    if (byte < 0)
                        bad_table("edit: bad hex '%s'", hex);
                    data[at + j] = (char)byte;
                }
            }
            i += 2;
        } else {
            bad_table("edit: bad operation '%s'", w[i]);
        }
    }
    if (!write_file(w[1], data, size, "wb"))
        fail("before edit: cannot write %s", w[1]);
    free(data);
}

static void step(runner *r, const char *text)
{
    char name[32], why[1024];
    const char *rest = first_word(text, name, sizeof name);
    words w = {0};
    size_t i;
    char *subst;
    if (strcmp(name, "run") == 0) {
        run_helper(r, rest, "before run");
        return;
    }
    subst = substitute(rest);
    split_words(subst, &w);
    free(subst);
    if (strcmp(name, "mkdir") == 0 && w.n >= 1) {
        for (i = 0; i < w.n; i++) {
            if (!fs_mkdirs(w.v[i], why, sizeof why))
                fail("before mkdir: %s", why);
        }
    } else if ((strcmp(name, "write") == 0 || strcmp(name, "append") == 0) && w.n == 2) {
        if (!write_file(w.v[0], w.v[1], strlen(w.v[1]), name[0] == 'w' ? "wb" : "ab"))
            fail("before %s: cannot write %s", name, w.v[0]);
    } else if (strcmp(name, "copy") == 0 && w.n >= 2) {
        size_t size;
        char *data = need_file(w.v[0]);
        if (data) {
            free(data);
            data = read_file(w.v[0], &size);
            for (i = 1; i < w.n; i++) {
                if (!write_file(w.v[i], data, size, "wb"))
                    fail("before copy: cannot write %s", w.v[i]);
            }
            free(data);
        }
    } else if (strcmp(name, "edit") == 0) {
        step_edit(w.v, w.n);
    } else if (strcmp(name, "symlink") == 0 && w.n == 2) {
        if (!fs_symlink(w.v[0], w.v[1], why, sizeof why))
            fail("before symlink: %s", why);
    } else if (strcmp(name, "hardlink") == 0 && w.n == 2) {
        if (!fs_hardlink(w.v[0], w.v[1], why, sizeof why))
            fail("before hardlink: %s", why);
    } else if (strcmp(name, "chmod") == 0 && w.n >= 2) {
        unsigned long mode = strtoul(w.v[0], NULL, 8);
        for (i = 1; i < w.n; i++) {
            if (!fs_chmod(w.v[i], (unsigned)mode, why, sizeof why))
                fail("before chmod: %s", why);
        }
    } else if (strcmp(name, "empty") == 0 && w.n == 1) {
        if (!fs_empty_dir(w.v[0], why, sizeof why))
            fail("before empty: %s", why);
    } else {
        bad_table("unknown step or wrong arguments: before %s", text);
    }
    words_free(&w);
}

/* ---- what the case left ---------------------------------------------------- */

static void snapshot_walk(runner *r, const char *rel)
{
    words names = {0};
    sbuf path = {0};
    size_t i;
    if (!fs_list(rel[0] ? rel : ".", &names))
        return;
    for (i = 0; i < names.n; i++) {
        snapshot_entry *e;
        join_path(&path, rel, names.v[i]);
        r->snap = (snapshot_entry *)realloc(r->snap, (r->num_snap + 1) * sizeof *r->snap);
        if (!r->snap)
            exit(1);
        e = &r->snap[r->num_snap++];
        e->path = xstrdup(path.s);
        e->kind = fs_kind(path.s);
        e->size = 0;
        e->data = NULL;
        if (e->kind == FS_FILE) {
            e->data = read_file(path.s, &e->size);
        } else if (e->kind == FS_LINK) {
            e->data = fs_readlink(path.s);
            e->size = e->data ? strlen(e->data) : 0;
        } else if (e->kind == FS_DIR) {
            char *sub = xstrdup(path.s);
            snapshot_walk(r, sub);
            free(sub);
        }
    }
    free(path.s);
    words_free(&names);
}

static const snapshot_entry *snapshot_find(const runner *r, const char *path)
{
    size_t i;
    for (i = 0; i < r->num_snap; i++) {
        if (strcmp(r->snap[i].path, path) == 0)
            return &r->snap[i];
    }
    return NULL;
}

/* 1 if path is now as the snapshot entry e has it. */
static int as_it_was(const snapshot_entry *e, char *why, size_t why_size)
{
    int kind = fs_kind(e->path);
    size_t size = 0;
    char *now;
    if (kind != e->kind) {
        snprintf(why, why_size, "%s", kind == FS_NONE ? "is gone" : "is another kind of entry now");
        return 0;
    }
    if (kind == FS_DIR || kind == FS_OTHER)
        return 1;
    now = kind == FS_LINK ? fs_readlink(e->path) : read_file(e->path, &size);
    if (now && kind == FS_LINK)
        size = strlen(now);
    if (!now || size != e->size || memcmp(now, e->data, size) != 0) {
        if (kind == FS_LINK)
            snprintf(why, why_size, "points to '%s' now, not '%s'", now ? now : "?", e->data);
        else
            snprintf(why, why_size, "was changed");
        free(now);
        return 0;
    }
    free(now);
    return 1;
}

static void check_left(const char *text)
{
    words want = {0}, have = {0};
    char *subst = substitute(text);
    size_t i;
    int same;
    split_words(subst, &want);
    free(subst);
    if (want.n > 1) {
        /* sorted by their bytes, as fs_list() sorts */
        size_t j;
        for (i = 1; i < want.n; i++) {
            for (j = i; j > 0 && strcmp(want.v[j - 1], want.v[j]) > 0; j--) {
                char *t = want.v[j];
                want.v[j] = want.v[j - 1];
                want.v[j - 1] = t;
            }
        }
    }
    if (!fs_list(".", &have)) {
        fail("left: cannot read the folder");
        return;
    }
    same = have.n == want.n;
    for (i = 0; same && i < want.n; i++)
        same = strcmp(have.v[i], want.v[i]) == 0;
    if (!same) {
        sbuf h = {0};
        for (i = 0; i < have.n && i < 40; i++) {
            sb_puts(&h, i ? " " : "");
            sb_puts(&h, have.v[i]);
        }
        if (have.n > 40)
            sb_puts(&h, " ...");
        fail("the folder holds [%s] (%lu names), expected [%s%s] (%lu names)", sb_text(&h),
             (unsigned long)have.n, text, "", (unsigned long)want.n);
        free(h.s);
    }
    words_free(&want);
    words_free(&have);
}

static void check_files(runner *r, const char *key, const char *text)
{
    words w = {0};
    char *subst = substitute(text);
    size_t i;
    split_words(subst, &w);
    free(subst);
    if (strcmp(key, "unchanged") == 0) {
        char why[1024];
        for (i = 0; i < (w.n ? w.n : r->num_snap); i++) {
            const snapshot_entry *e = w.n ? snapshot_find(r, w.v[i]) : &r->snap[i];
            if (!e)
                bad_table("unchanged %s: the steps before the command made no such entry",
                          w.v[i]);
            if (!as_it_was(e, why, sizeof why))
                fail("%s %s", e->path, why);
        }
    } else if (strcmp(key, "new") == 0 && w.n >= 1) {
        for (i = 0; i < w.n; i++) {
            const snapshot_entry *e = snapshot_find(r, w.v[i]);
            size_t size = 0;
            char *data = fs_kind(w.v[i]) == FS_FILE ? read_file(w.v[i], &size) : NULL;
            if (!data || size == 0)
                fail("%s is not a new file of its own (%s)", w.v[i],
                     data ? "empty" : fs_kind(w.v[i]) == FS_NONE ? "not there" : "not a file");
            else if (e && e->kind == FS_FILE && e->size == size && !memcmp(e->data, data, size))
                fail("%s is still what was there before", w.v[i]);
            free(data);
        }
    } else if ((strcmp(key, "holds") == 0 || strcmp(key, "starts") == 0) && w.n == 2) {
        size_t size = 0, want = strlen(w.v[1]);
        char *data = read_file(w.v[0], &size);
        int ok = data && (key[0] == 'h' ? size == want : size >= want) &&
                 memcmp(data, w.v[1], want) == 0;
        if (!ok)
            fail("%s does not %s \"%s\"%s%.200s%s", w.v[0], key[0] == 'h' ? "hold" : "start with",
                 w.v[1], data ? " (it holds \"" : " (cannot read it)", data ? data : "",
                 data ? "\")" : "");
        free(data);
    } else if (strcmp(key, "same") == 0 && w.n == 2) {
        size_t sa = 0, sb = 0;
        char *a = read_file(w.v[0], &sa), *b = read_file(w.v[1], &sb);
        if (!a || !b || sa != sb || memcmp(a, b, sa) != 0)
            fail("%s and %s are not the same bytes", w.v[0], w.v[1]);
        free(a);
        free(b);
    } else {
        bad_table("wrong arguments: %s %s", key, text);
    }
    words_free(&w);
}

/* ---- what it printed ------------------------------------------------------- */

static void check_lines(const runner *r)
{
    size_t want = 0, have = 0, i, k;
    const char *p = r->out;
    words lines = {0};
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        words_add_n(&lines, p, n);
        p += n + (nl ? 1 : 0);
    }
    have = lines.n;
    for (i = 0; i < r->tc->num_clauses; i++)
        want += strcmp(r->tc->clauses[i].key, "line") == 0;
    if (want == 0) {
        words_free(&lines);
        return;
    }
    if (have != want)
        fail("stdout has %lu lines, expected %lu", (unsigned long)have, (unsigned long)want);
    for (i = 0, k = 0; i < r->tc->num_clauses; i++) {
        char *subst;
        pattern pat;
        if (strcmp(r->tc->clauses[i].key, "line") != 0)
            continue;
        current_line = r->tc->clauses[i].line;
        subst = substitute_in(r->tc->clauses[i].text, 0);
        pat = parse_pattern(subst);
        if (k >= have)
            fail("line %lu is missing; it should be %s", (unsigned long)k + 1, pattern_show(&pat));
        else if (!pattern_matches(&pat, lines.v[k], 1))
            fail("line %lu is \"%s\", not %s", (unsigned long)k + 1, lines.v[k], pattern_show(&pat));
        free(pat.text);
        free(subst);
        k++;
    }
    words_free(&lines);
}

/* sum /RE/: the whole number of RE's first group is the sum of the others'. */
static void check_sum(const char *text, const char *out)
{
    pattern pat = parse_pattern(text);
    long start[10], end[10];
    char why[512];
    int rc, groups = 0;
    const char *p;
    if (!pat.regex)
        bad_table("sum needs a /PATTERN/ with groups");
    for (p = pat.text; *p; p++)
        groups += *p == '(' && (p == pat.text || p[-1] != '\\');
    if (groups < 2 || groups > 9)
        bad_table("sum needs 2 to 9 groups: the total, then its parts");
    rc = re_match(pat.text, out, (size_t)groups + 1, start, end, why, sizeof why);
    if (rc < 0)
        bad_table("%s", why);
    if (rc == 0) {
        fail("stdout does not match %s", pattern_show(&pat));
    } else {
        long total = 0, sum = 0;
        int g;
        for (g = 1; g <= groups; g++) {
            long v = start[g] < 0 ? 0 : strtol(out + start[g], NULL, 10);
            if (g == 1)
                total = v;
            else
                sum += v;
        }
        if (total != sum)
            fail("%ld is not the sum of its parts (%ld): %s", total, sum, pattern_show(&pat));
    }
    free(pat.text);
}

static void check_output(const char *key, const char *text, const char *out, const char *err,
                         const char *check_out)
{
    int is_out = strncmp(key, "stdout", 6) == 0, is_check = strcmp(key, "check-output") == 0;
    const char *stream = is_check ? check_out : is_out ? out : err;
    const char *what = is_check ? "the check's output" : is_out ? "stdout" : "stderr";
    const char *tail = is_check ? "" : key + 6;
    if (strcmp(tail, "-empty") == 0) {
        if (*text)
            bad_table("%s takes nothing", key);
        if (*stream)
            fail("%s should be empty", what);
        return;
    }
    if (!*text)
        bad_table("%s needs /PATTERN/ or \"TEXT\"", key);
    {
        char *subst = substitute_in(text, 0);
        pattern pat = parse_pattern(subst);
        int found = pattern_matches(&pat, stream, 0);
        if (strcmp(tail, "-not") == 0 && found)
            fail("%s has %s, and should not", what, pattern_show(&pat));
        else if (strcmp(tail, "") == 0 && !found)
            fail("%s does not match %s", what, pattern_show(&pat));
        else if (strcmp(tail, "") != 0 && strcmp(tail, "-not") != 0)
            bad_table("unknown clause %s", key);
        free(pat.text);
        free(subst);
    }
}

/* ---- the command ------------------------------------------------------------ */

/* Runs the command under test once (env_extra: one more NAME=VALUE, or
 * NULL); its exit status, its outputs in r->out and r->err. */
static int run_command(runner *r, const char *env_extra, int quiet)
{
    words argv = {0}, env = {0};
    size_t i;
    int status;
    const char *out_path = r->stdout_to ? r->stdout_to : r->out_path;
    command_words(r, r->tc->command, 1, &argv);
    if (r->tty) {
        /* util-linux script: the command on a terminal; -e: its status */
        words t = {0};
        sbuf line = {0};
        char *script = fs_which("script");
        for (i = 0; i < argv.n; i++) {
            sb_puts(&line, i ? " " : "");
            quote_for_sh(&line, argv.v[i]);
        }
        words_add(&t, script);
        words_add(&t, "-q");
        words_add(&t, "-e");
        words_add(&t, "-c");
        words_add(&t, line.s);
        words_add(&t, "/dev/null");
        free(script);
        free(line.s);
        words_free(&argv);
        argv = t;
    }
    for (i = 0; i < r->env.n; i++)
        words_add(&env, r->env.v[i]);
    if (env_extra)
        words_add(&env, env_extra);
    if (!quiet)
        show_command(r, argv.v);
    status = run(r, argv.v, env.v, r->address_space_kib, out_path, r->err_path);
    words_free(&argv);
    words_free(&env);
    free(r->out);
    free(r->err);
    r->out = r->stdout_to ? xstrdup("") : read_file(r->out_path, NULL);
    r->err = read_file(r->err_path, NULL);
    if (!r->out)
        r->out = xstrdup("");
    if (!r->err)
        r->err = xstrdup("");
    if (strstr(r->err, "runtime error:") || strstr(r->err, "Sanitizer") ||
        strstr(r->out, "runtime error:") || strstr(r->out, "AddressSanitizer"))
        fail("the sanitizers report errors");
    if (status == 125 && r->valgrind && !r->valgrind_off)
        fail("valgrind found errors in the command (exit status 125)");
    return status;
}

/* each-alloc-fails OUTPUT...: see README.md. */
static void each_alloc_fails(runner *r, const char *text)
{
    words outputs = {0};
    char *subst = substitute(text), env[64], why[1024];
    long start[2], end[2], total, n, failed = 0, same = 0;
    sbuf ref = {0}, path = {0};
    size_t i;
    split_words(subst, &outputs);
    free(subst);
    if (re_match("allocations: ([0-9]+)", r->err, 2, start, end, why, sizeof why) != 1) {
        fail("each-alloc-fails: the first run (nothing failing) did not say 'allocations: N'");
        words_free(&outputs);
        return;
    }
    total = strtol(r->err + start[1], NULL, 10);
    /* the files of the run where nothing fails: what every run that exits
     * 0 must write, byte for byte */
    sb_puts(&ref, r->case_dir);
    sb_puts(&ref, ".reference");
    if (!fs_mkdirs(ref.s, why, sizeof why) || !fs_empty_dir(ref.s, why, sizeof why)) {
        fail("%s", why);
        return;
    }
    for (i = 0; i < outputs.n; i++) {
        size_t size;
        char *data = read_file(outputs.v[i], &size);
        join_path(&path, ref.s, outputs.v[i]);
        if (!data || !write_file(path.s, data, size, "wb"))
            fail("each-alloc-fails: %s was not written when nothing fails", outputs.v[i]);
        free(data);
    }
    for (n = 1; n <= total && num_failures == 0; n++) {
        int status;
        words have = {0};
        snprintf(env, sizeof env, "MD2_FAIL_ALLOC_AT=%ld", n);
        if (!fs_empty_dir(".", why, sizeof why)) {
            fail("%s", why);
            break;
        }
        status = run_command(r, env, 1);
        fs_list(".", &have);
        if (status == 1) {
            if (re_match("(^|\n)md2 [a-z]+: ", r->err, 0, NULL, NULL, why, sizeof why) != 1)
                fail("allocation %ld of %ld failing: exit 1 without a message:\n%s", n, total,
                     r->err);
            else if (have.n)
                fail("allocation %ld of %ld failing: exit 1, but it left %s", n, total, have.v[0]);
            failed++;
        } else if (status == 0) {
            int ok = have.n == outputs.n;
            for (i = 0; ok && i < outputs.n; i++) {
                size_t sa = 0, sb = 0;
                char *a, *b;
                join_path(&path, ref.s, outputs.v[i]);
                a = read_file(outputs.v[i], &sa);
                b = read_file(path.s, &sb);
                ok = a && b && sa == sb && memcmp(a, b, sa) == 0;
                free(a);
                free(b);
            }
            if (!ok)
                fail("allocation %ld of %ld failing: exit 0, but the files are not the %lu of "
                     "the run where nothing fails (%s)", n, total, (unsigned long)outputs.n,
                     ref.s);
            same++;
        } else {
            fail("allocation %ld of %ld failing: exit status %d\n%s", n, total, status, r->err);
        }
        words_free(&have);
    }
    if (num_failures == 0)
        printf("%ld allocations; making each fail in turn gave %ld clean failures (status 1, a "
               "message, nothing written), %ld runs that wrote the same bytes as when nothing "
               "fails, and no crash\n", total, failed, same);
    free(ref.s);
    free(path.s);
    words_free(&outputs);
}

/* as-other-user's copy of md2, and its folder: removed when the runner
 * exits, however it exits (a failed check, a skip). */
static char *other_dir, *other_copy;

static void remove_other_copy(void)
{
    if (other_copy)
        fs_remove(other_copy);
    if (other_dir)
        fs_remove(other_dir);
}

/* Copies md2 into a new folder under /tmp that every user may enter and
 * read (0755), so that another user can run it, and valgrind read it, from
 * a checkout in a folder only its owner may enter (a clone in root's home,
 * or under mktemp -d). The case's own folder needs no such copy: md2
 * starts in it, entered before the user changes, and reaches its files by
 * relative names. */
static void copy_md2_for_other_user(runner *r)
{
    char why[1024];
    const char *md2 = var_word("md2");
    sbuf path = {0};
    if (!md2)
        skip_case("as-other-user: the build names no md2");
    other_dir = fs_public_temp_dir(why, sizeof why);
    if (!other_dir)
        skip_case("as-other-user: no folder for a copy of md2 that another user can run: %s",
                  why);
    atexit(remove_other_copy);
    join_path(&path, other_dir, "md2");
    if (!fs_copy_file(md2, sb_text(&path), 0755, why, sizeof why)) {
        free(path.s);
        skip_case("as-other-user: cannot copy md2 where another user can run it: %s", why);
    }
    other_copy = path.s;
    r->other_md2 = path.s;
}

/* as-other-user: as the superuser, the command runs as the user nobody
 * (through setpriv, else runuser, else su), who cannot read a folder only
 * its owner may read; as anyone else, as itself. md2 runs as a copy in a
 * folder of its own that nobody may read (copy_md2_for_other_user()), in
 * the case's folder. Skipped when that cannot run md2 --version here. */
static void other_user(runner *r)
{
    char *tool;
    words probe = {0};
    int status;
    size_t i;
    if (!fs_is_superuser())
        return;
    if ((tool = fs_which("setpriv")) != NULL) {
        words_add(&r->prefix, tool);
        words_add(&r->prefix, "--reuid=65534");
        words_add(&r->prefix, "--regid=65534");
        words_add(&r->prefix, "--clear-groups");
    } else if ((tool = fs_which("runuser")) != NULL) {
        words_add(&r->prefix, tool);
        words_add(&r->prefix, "-u");
        words_add(&r->prefix, "nobody");
        words_add(&r->prefix, "--");
    } else if ((tool = fs_which("su")) != NULL) {
        words_add(&r->prefix, tool);
        words_add(&r->prefix, "-s");
        words_add(&r->prefix, "/bin/sh");
        words_add(&r->prefix, "nobody");
        words_add(&r->prefix, "--");
        words_add(&r->prefix, "-c");
        words_add(&r->prefix, "exec \"$0\" \"$@\"");
    } else {
        skip_case("as-other-user: the tests run as the superuser, and there is no setpriv, "
                  "runuser or su to run md2 as another user");
    }
    free(tool);
    copy_md2_for_other_user(r);
    for (i = 0; i < r->prefix.n; i++)
        words_add(&probe, r->prefix.v[i]);
    words_add(&probe, r->other_md2);
    words_add(&probe, "--version");
    status = run(r, probe.v, NULL, 0, r->check_path, r->check_path);
    words_free(&probe);
    if (status != 0) {
        char *said = read_file(r->check_path, NULL);
        skip_case("as-other-user: `%s ... %s --version` in %s failed (exit %d): %s(md2 is "
                  "copied there for that user; what it loads must be open to that user too)",
                  r->prefix.v[0], r->other_md2, r->cwd, status, said ? said : "");
    }
}

/* needs WHAT...: a path that exists (it has a '/'), or a flag of the build
 * (no-valgrind is one outside the valgrind pass: for cases that measure
 * memory, or whose work on a real model would take many minutes there). */
static void check_needs(const char *text)
{
    words w = {0};
    char *subst = substitute(text);
    size_t i;
    split_words(subst, &w);
    free(subst);
    if (w.n == 0)
        bad_table("needs takes paths or flags");
    for (i = 0; i < w.n; i++) {
        if (strchr(w.v[i], '/') || !w.v[i][0]) {
            if (fs_kind(w.v[i]) == FS_NONE)
                skip_case("needs %s, which is not there (needs %s)", w.v[i][0] ? w.v[i] : "''",
                          text);
        } else if (!words_has(&flags, w.v[i])) {
            skip_case("needs %s, which this build does not have", w.v[i]);
        }
    }
    words_free(&w);
}

static int has_clause(const test_case *tc, const char *key)
{
    size_t i;
    for (i = 0; i < tc->num_clauses; i++) {
        if (strcmp(tc->clauses[i].key, key) == 0)
            return 1;
    }
    return 0;
}

static void set_special(const char *name, const char *value)
{
    var_set(name, value, 1);
}

/* The clauses that say how the command runs (read before anything runs). */
static void read_settings(runner *r)
{
    const test_case *tc = r->tc;
    size_t i;
    char why[1024];
    for (i = 0; i < tc->num_clauses; i++) {
        const clause *c = &tc->clauses[i];
        current_line = c->line;
        if (strcmp(c->key, "needs") == 0)
            check_needs(c->text);
    }
    for (i = 0; i < tc->num_clauses; i++) {
        const clause *c = &tc->clauses[i];
        const char *k = c->key;
        words w = {0};
        char *subst;
        current_line = c->line;
        subst = substitute(c->text);
        if (strcmp(k, "in") == 0 || strcmp(k, "env") == 0 || strcmp(k, "preload") == 0 ||
            strcmp(k, "address-space") == 0 || strcmp(k, "stdout-to") == 0 ||
            strcmp(k, "timeout") == 0) {
            split_words(subst, &w);
            if (w.n != 1)
                bad_table("%s takes one word", k);
        }
        if (strcmp(k, "in") == 0) {
            free(r->cwd);
            r->cwd = xstrdup(w.v[0]);
            if (!fs_mkdirs(r->cwd, why, sizeof why))
                fail("in: %s", why);
        } else if (strcmp(k, "env") == 0) {
            if (!strchr(w.v[0], '='))
                bad_table("env NAME=VALUE");
            words_add(&r->env, w.v[0]);
        } else if (strcmp(k, "preload") == 0) {
            sbuf e = {0};
            if (!w.v[0][0] || fs_kind(w.v[0]) == FS_NONE)
                skip_case("preload %s: that library is not built here", c->text);
            sb_puts(&e, "LD_PRELOAD=");
            sb_puts(&e, w.v[0]);
            words_add(&r->env, e.s);
            free(e.s);
            r->valgrind_off = 1; /* its malloc or link() and valgrind's do not mix */
        } else if (strcmp(k, "address-space") == 0) {
            r->address_space_kib = strtol(w.v[0], NULL, 10);
            if (r->address_space_kib <= 0)
                bad_table("address-space KIB");
            r->valgrind_off = 1; /* valgrind needs far more than that */
        } else if (strcmp(k, "stdout-to") == 0) {
            r->stdout_to = xstrdup(w.v[0]);
        } else if (strcmp(k, "tty") == 0) {
            char *script = fs_which("script");
            if (!script)
                skip_case("tty needs util-linux `script`");
            free(script);
            r->tty = 1;
        } else if (strcmp(k, "timeout") == 0) {
            long seconds = strtol(w.v[0], NULL, 10);
            if (seconds <= 0)
                bad_table("timeout SECONDS");
            r->timeout = fs_which("timeout");
            if (!r->timeout)
                skip_case("timeout needs coreutils' `timeout`");
            r->timeout_seconds = xstrdup(w.v[0]);
        } else if (strcmp(k, "as-other-user") == 0) {
            r->other_user = 1;
        } else if (strcmp(k, "each-alloc-fails") == 0) {
            words_add(&r->env, "MD2_FAIL_ALLOC_AT=0");
        } else if (strcmp(k, "needs") != 0 && strcmp(k, "setup") != 0 &&
                   strcmp(k, "uses") != 0 && strcmp(k, "cleanup") != 0 &&
                   strcmp(k, "before") != 0 && strcmp(k, "line") != 0 &&
                   strcmp(k, "sum") != 0 && strncmp(k, "stdout", 6) != 0 &&
                   strncmp(k, "stderr", 6) != 0 && strcmp(k, "left") != 0 &&
                   strcmp(k, "unchanged") != 0 && strcmp(k, "new") != 0 &&
                   strcmp(k, "holds") != 0 && strcmp(k, "starts") != 0 &&
                   strcmp(k, "same") != 0 && strcmp(k, "check") != 0 &&
                   strcmp(k, "check-output") != 0 && strcmp(k, "judge") != 0) {
            bad_table("unknown clause '%s'", k);
        }
        free(subst);
        words_free(&w);
    }
}

/* ---- the cases left out of the Windows run ------------------------------- */

/* Why tc tests something only POSIX has, or NULL. The rule (README.md,
 * "Windows"): a case is POSIX-only when it needs the flag posix or a
 * device (needs /dev/...), runs md2 on a terminal (tty), as another user
 * (as-other-user), with a library preloaded (preload, each-alloc-fails:
 * LD_PRELOAD), in a limited address space (address-space), with its
 * stdout on a device (stdout-to), or makes a FIFO or changes permissions
 * before it (run mkfifo, chmod), or names a device (/dev/) in its
 * command. */
static const char *posix_only(const test_case *tc)
{
    static const char *const clauses[] = {"tty", "as-other-user", "preload", "each-alloc-fails",
                                          "address-space", "stdout-to"};
    size_t i, k;
    if (strstr(tc->command, "/dev/"))
        return "its command names a device (/dev/)";
    for (i = 0; i < tc->num_clauses; i++) {
        const clause *c = &tc->clauses[i];
        for (k = 0; k < sizeof clauses / sizeof clauses[0]; k++) {
            if (strcmp(c->key, clauses[k]) == 0)
                return clauses[k];
        }
        if (strcmp(c->key, "needs") == 0) {
            words w = {0};
            int posix = strstr(c->text, "/dev/") != NULL;
            split_words(c->text, &w);
            for (k = 0; k < w.n; k++)
                posix |= strcmp(w.v[k], "posix") == 0;
            words_free(&w);
            if (posix)
                return "needs posix or a device";
        }
        if (strcmp(c->key, "before") == 0) {
            char step_name[32];
            const char *rest = first_word(c->text, step_name, sizeof step_name);
            if (strcmp(step_name, "chmod") == 0)
                return "a chmod step (permissions)";
            if (strcmp(step_name, "run") == 0 && strncmp(rest, "mkfifo", 6) == 0)
                return "a FIFO (run mkfifo)";
        }
        if ((strcmp(c->key, "check") == 0 || strcmp(c->key, "check-output") == 0) &&
            strstr(c->text, "/dev/"))
            return "its check names a device (/dev/)";
    }
    return NULL;
}

/* The cases of the tables --posix-only reads: their names, the fixtures
 * they set up and use, and why they are POSIX-only (NULL: they are not). */
typedef struct listed_case {
    char *table, *name;
    const char *why;
    words setups, uses;
} listed_case;

static listed_case *listed;
static size_t num_listed;
static const char *listed_table = "";

static void list_case(const test_case *tc)
{
    listed_case *l;
    size_t i;
    listed = (listed_case *)realloc(listed, (num_listed + 1) * sizeof *listed);
    if (!listed)
        exit(1);
    l = &listed[num_listed++];
    memset(l, 0, sizeof *l);
    l->table = xstrdup(listed_table);
    l->name = xstrdup(tc->name);
    l->why = posix_only(tc);
    for (i = 0; i < tc->num_clauses; i++) {
        if (strcmp(tc->clauses[i].key, "setup") == 0)
            split_words(tc->clauses[i].text, &l->setups);
        else if (strcmp(tc->clauses[i].key, "uses") == 0)
            split_words(tc->clauses[i].text, &l->uses);
    }
}

/* Prints the POSIX-only cases of the listed ones: those posix_only()
 * names, then, until none is added, those that use a fixture that one of
 * them sets up. */
static void print_posix_only(void)
{
    size_t i, j, k;
    int added = 1;
    while (added) {
        added = 0;
        for (i = 0; i < num_listed; i++) {
            if (listed[i].why)
                continue;
            for (j = 0; j < num_listed && !listed[i].why; j++) {
                if (!listed[j].why)
                    continue;
                for (k = 0; k < listed[i].uses.n && !listed[i].why; k++) {
                    if (words_has(&listed[j].setups, listed[i].uses.v[k])) {
                        listed[i].why = "uses a fixture that a POSIX-only case sets up";
                        added = 1;
                    }
                }
            }
        }
    }
    for (i = 0; i < num_listed; i++) {
        if (listed[i].why)
            printf("%s %s: %s\n", listed[i].table, listed[i].name, listed[i].why);
        free(listed[i].table);
        free(listed[i].name);
        words_free(&listed[i].setups);
        words_free(&listed[i].uses);
    }
    free(listed);
}

static void run_case(runner *r)
{
    const test_case *tc = r->tc;
    size_t i;
    int has_command = strcmp(tc->command, "-") != 0;
    read_settings(r);
    if (!fs_chdir(r->cwd)) {
        fail("cannot enter %s", r->cwd);
        return;
    }
    if (r->other_user)
        other_user(r);
    for (i = 0; i < tc->num_clauses && num_failures == 0; i++) {
        current_line = tc->clauses[i].line;
        if (strcmp(tc->clauses[i].key, "before") == 0)
            step(r, tc->clauses[i].text);
    }
    if (num_failures)
        return;
    if (has_clause(tc, "unchanged") || has_clause(tc, "new"))
        snapshot_walk(r, "");
    if (has_command) {
        int status = run_command(r, NULL, 0);
        printf("exit %d\n", status);
        show("stdout", r->out);
        show("stderr", r->err);
        if (status != r->expected_exit)
            fail("exit status %d, expected %d", status, r->expected_exit);
    }
    for (i = 0; i < tc->num_clauses; i++) {
        const clause *c = &tc->clauses[i];
        const char *k = c->key;
        current_line = c->line;
        if (strncmp(k, "stdout", 6) == 0 || strncmp(k, "stderr", 6) == 0 ||
            strcmp(k, "check-output") == 0) {
            if (strcmp(k, "stdout-to") != 0)
                check_output(k, c->text, r->out ? r->out : "", r->err ? r->err : "",
                             sb_text(&r->last_check));
        } else if (strcmp(k, "sum") == 0) {
            char *subst = substitute_in(c->text, 0);
            check_sum(subst, r->out ? r->out : "");
            free(subst);
        } else if (strcmp(k, "left") == 0) {
            check_left(c->text);
        } else if (strcmp(k, "unchanged") == 0 || strcmp(k, "new") == 0 ||
                   strcmp(k, "holds") == 0 || strcmp(k, "starts") == 0 ||
                   strcmp(k, "same") == 0) {
            check_files(r, k, c->text);
        } else if (strcmp(k, "check") == 0) {
            run_helper(r, c->text, "check");
        } else if (strcmp(k, "judge") == 0) {
            r->last_check.n = 0;
            if (r->last_check.s)
                r->last_check.s[0] = '\0';
            if (r->valgrind)
                printf("judge left out under valgrind (the plain run has it): %s\n", c->text);
            else if (!words_has(&flags, "judges"))
                printf("judge left out: it needs %s: %s\n",
                       var_word("JUDGES_MISSING") ? var_word("JUDGES_MISSING") : "the judges",
                       c->text);
            else
                run_helper(r, c->text, "judge");
        }
    }
    if (has_command)
        check_lines(r);
    for (i = 0; i < tc->num_clauses; i++) {
        current_line = tc->clauses[i].line;
        if (strcmp(tc->clauses[i].key, "each-alloc-fails") == 0 && num_failures == 0)
            each_alloc_fails(r, tc->clauses[i].text);
    }
}

/* What a run keeps until it exits (static: still reachable then, which
 * the leak checkers of the sanitizer builds see); the_runner is above. */
static table_reader the_table;
static sbuf case_dir, out_file, err_file, check_file;

int main(int argc, char **argv)
{
    const char *base, *cases, *vg;
    char table[128], why[1024], *end;
    size_t n;
    if (argc >= 4 && strcmp(argv[1], "--posix-only") == 0) {
        int t;
        table_path = argv[2];
        read_lines(argv[2], vars_line, NULL);
        for (t = 3; t < argc; t++) {
            table_reader reader;
            char stem[128];
            memset(&reader, 0, sizeof reader);
            reader.each = list_case;
            base = strrchr(argv[t], '/');
            base = base ? base + 1 : argv[t];
            snprintf(stem, sizeof stem, "%.*s", (int)strcspn(base, "."), base);
            listed_table = stem;
            table_path = argv[t];
            read_lines(argv[t], table_line, &reader);
            table_next_case(&reader);
        }
        print_posix_only();
        return 0;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: md2_tool_cases VARS TABLE CASE\n"
                        "       md2_tool_cases --posix-only VARS TABLE...\n");
        return EXIT_BAD_TABLE;
    }
    table_path = argv[1];
    read_lines(argv[1], vars_line, NULL);
    the_table.wanted = argv[3];
    table_path = argv[2];
    base = strrchr(argv[2], '/');
    base = base ? base + 1 : argv[2];
    n = strcspn(base, ".");
    snprintf(table, sizeof table, "%.*s", (int)n, base);
    cases = var_word("CASES");
    if (!cases) {
        fprintf(stderr, "md2_tool_cases: %s sets no CASES folder\n", argv[1]);
        return EXIT_BAD_TABLE;
    }
    /* the case's own folder, and beside it what the command printed */
    join_path(&case_dir, cases, table);
    sb_putc(&case_dir, '/');
    sb_puts(&case_dir, argv[3]);
    sb_puts(&out_file, case_dir.s);
    sb_puts(&out_file, ".stdout");
    sb_puts(&err_file, case_dir.s);
    sb_puts(&err_file, ".stderr");
    sb_puts(&check_file, case_dir.s);
    sb_puts(&check_file, ".check");
    set_special("CASE", case_dir.s);
    set_special("STDOUT", out_file.s);
    set_special("STDERR", err_file.s);
    read_lines(argv[2], table_line, &the_table);
    if (!the_table.found.name) {
        fprintf(stderr, "%s: no case named %s\n", argv[2], argv[3]);
        return EXIT_BAD_TABLE;
    }
    current_line = the_table.found.line;
    if (words_has(&flags, "windows") && posix_only(&the_table.found))
        bad_table("%s is POSIX-only (%s): the Windows run leaves it out (tests/windows/windows.sh)",
                  argv[3], posix_only(&the_table.found));
    the_runner.tc = &the_table.found;
    the_runner.case_dir = case_dir.s;
    the_runner.out_path = out_file.s;
    the_runner.err_path = err_file.s;
    the_runner.check_path = check_file.s;
    the_runner.cwd = xstrdup(case_dir.s);
    the_runner.expected_exit = (int)strtol(the_table.found.exit_text, &end, 10);
    current_line = the_table.found.line;
    if (*end || !the_table.found.exit_text[0])
        bad_table("the exit status must be a number, not '%s'", the_table.found.exit_text);
    vg = getenv("LD_PRELOAD");
    the_runner.valgrind = getenv("MD2_TOOL_VALGRIND") != NULL || (vg && strstr(vg, "vgpreload_memcheck"));
    if (!the_runner.valgrind)
        words_add(&flags, "no-valgrind"); /* a measure of memory means something */
    printf("md2_tool_cases: %s:%u: %s%s\n", argv[2], the_table.found.line, argv[3],
           the_runner.valgrind ? " (programs of ours under valgrind)" : "");
    if (!fs_mkdirs(case_dir.s, why, sizeof why) || !fs_empty_dir(case_dir.s, why, sizeof why)) {
        fprintf(stderr, "md2_tool_cases: %s\n", why);
        return 1;
    }
    run_case(&the_runner);
    if (num_failures) {
        printf("\nmd2_tool_cases: %s FAILED (%s:%u):\n%s", argv[3], argv[2], the_table.found.line,
               sb_text(&failures));
        return 1;
    }
    printf("md2_tool_cases: %s passed\n", argv[3]);
    return 0;
}
