/*
 * Animation side files parsed from memory: UFO:AI .anm and DarkPlaces
 * .framegroups. Line-based, bounds-checked, locale-independent, no
 * allocation. Errors name the line and column.
 *
 * SPDX-License-Identifier: MIT
 */
#include "md2/animation.h"

#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* One more field than any line may have: a line with this many fields is
 * reported at its first unexpected field. */
#define MAX_FIELDS 6
/* Longest piece of a token quoted in an error message. */
#define QUOTE_MAX 32

typedef struct token {
    const char *s;   /* first byte (after an opening quote) */
    size_t len;
    size_t column;   /* 1-based column of the token's first byte */
} token;

typedef struct line_fields {
    token field[MAX_FIELDS];
    size_t count;          /* fields found (at most MAX_FIELDS) */
    int has_comment;
    token comment_word;    /* first word of the comment (len 0 if none) */
} line_fields;

typedef struct cursor {
    const char *text;
    size_t size;
    size_t pos;
    size_t line;           /* 1-based number of the line being parsed */
} cursor;

static md2_result fail(md2_sidefile_error *e, md2_result r, size_t line,
                       size_t column, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static md2_result fail(md2_sidefile_error *e, md2_result r, size_t line,
                       size_t column, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        int n;
        e->result = r;
        e->line = line;
        e->column = column;
        if (line > 0)
            n = snprintf(e->message, sizeof e->message, "line %lu, column %lu: ",
                         (unsigned long)line, (unsigned long)column);
        else
            n = 0;
        if (n < 0 || (size_t)n >= sizeof e->message)
            n = 0;
        va_start(ap, fmt);
        vsnprintf(e->message + n, sizeof e->message - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return r;
}

static void clear_error(md2_sidefile_error *e)
{
    if (e) {
        memset(e, 0, sizeof *e);
        e->result = MD2_OK;
    }
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

static int is_control(char c)
{
    unsigned char u = (unsigned char)c;
    return (u < 0x20 && !is_blank(c)) || u == 0x7F;
}

/* The length of a token for quoting in a message. */
static int quote_len(const token *t)
{
    return (int)(t->len < QUOTE_MAX ? t->len : QUOTE_MAX);
}

/* Splits the next line into fields. Returns MD2_OK, or an error for a
 * control byte or an unterminated quote. Moves c past the line end. */
static md2_result next_line(cursor *c, line_fields *lf, md2_sidefile_error *err)
{
    const char *t = c->text;
    size_t start = c->pos, i = c->pos, end;

    /* find the end of the line */
    while (i < c->size && t[i] != '\n' && t[i] != '\r')
        i++;
    end = i;
    if (i < c->size) {
        if (t[i] == '\r' && i + 1 < c->size && t[i + 1] == '\n')
            i += 2;
        else
            i += 1;
    }
    c->pos = i;

    lf->count = 0;
    lf->has_comment = 0;
    lf->comment_word.s = NULL;
    lf->comment_word.len = 0;
    lf->comment_word.column = 0;

    i = start;
    while (i < end) {
        token tok;
        if (is_blank(t[i])) {
            i++;
            continue;
        }
        if (t[i] == '/' && i + 1 < end && t[i + 1] == '/') {
            size_t w = i + 2;
            lf->has_comment = 1;
            while (w < end && is_blank(t[w]))
                w++;
            lf->comment_word.s = t + w;
            lf->comment_word.column = w - start + 1;
            while (w < end && !is_blank(t[w]) && !is_control(t[w]))
                w++;
            lf->comment_word.len = (size_t)(t + w - lf->comment_word.s);
            break; /* the rest of the line is a comment */
        }
        if (is_control(t[i]))
            return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, i - start + 1,
                        "control byte 0x%02X outside a comment",
                        (unsigned)(unsigned char)t[i]);
        tok.column = i - start + 1;
        if (t[i] == '"') {
            size_t q = i + 1;
            while (q < end && t[q] != '"')
                q++;
            if (q >= end)
                return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, tok.column,
                            "quoted field without its closing quote");
            tok.s = t + i + 1;
            tok.len = q - i - 1;
            for (q = i + 1; q < i + 1 + tok.len; q++)
                if (is_control(t[q]))
                    return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line,
                                q - start + 1,
                                "control byte 0x%02X inside a quoted field",
                                (unsigned)(unsigned char)t[q]);
            i = i + 2 + tok.len;
        } else {
            tok.s = t + i;
            while (i < end && !is_blank(t[i]) && !is_control(t[i]) &&
                   !(t[i] == '/' && i + 1 < end && t[i + 1] == '/'))
                i++;
            tok.len = (size_t)(t + i - tok.s);
        }
        if (lf->count < MAX_FIELDS)
            lf->field[lf->count++] = tok;
    }
    return MD2_OK;
}

/* Parses an unsigned decimal integer of at most 32 bits. Returns 1 on
 * success; else 0 and, in *why, a short reason. */
static int parse_u32(const token *tk, uint32_t *out, const char **why)
{
    uint64_t v = 0;
    size_t i;

    if (tk->len == 0) {
        *why = "an empty field is not a number";
        return 0;
    }
    if (tk->s[0] == '-') {
        *why = "must not be negative";
        return 0;
    }
    for (i = 0; i < tk->len; i++) {
        char ch = tk->s[i];
        if (ch < '0' || ch > '9') {
            *why = "is not a whole number";
            return 0;
        }
        v = v * 10u + (uint64_t)(ch - '0');
        if (v > UINT32_MAX) {
            *why = "is too large";
            return 0;
        }
    }
    *out = (uint32_t)v;
    return 1;
}

/* Parses a signed decimal integer (for the loop flag): any value, only its
 * being zero matters. */
static int parse_flag(const token *tk, int *out)
{
    size_t i = 0;
    int nonzero = 0;

    if (tk->len > 0 && (tk->s[0] == '-' || tk->s[0] == '+'))
        i = 1;
    if (i >= tk->len)
        return 0;
    for (; i < tk->len; i++) {
        char ch = tk->s[i];
        if (ch < '0' || ch > '9')
            return 0;
        if (ch != '0')
            nonzero = 1;
    }
    *out = nonzero;
    return 1;
}

/* Parses a decimal number: [+] digits [. digits] [e [+-] digits], or with
 * the digits only after the point. No locale: '.' is the decimal point.
 * Accepts only finite values > 0 that fit a float. */
static int parse_fps(const token *tk, float *out, const char **why)
{
    const char *s = tk->s;
    size_t n = tk->len, i = 0;
    double mant = 0.0;
    long exp10 = 0;
    int digits = 0, sig = 0;

    if (n > 0 && s[0] == '-') {
        *why = "must be greater than 0";
        return 0;
    }
    if (n > 0 && s[0] == '+')
        i++;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        digits++;
        if (sig < 18) {
            mant = mant * 10.0 + (double)(s[i] - '0');
            if (mant > 0.0)
                sig++;
        } else if (exp10 < 1000000) { /* clamped: a long never overflows */
            exp10++;
        }
    }
    if (i < n && s[i] == '.') {
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            digits++;
            if (sig < 18) {
                mant = mant * 10.0 + (double)(s[i] - '0');
                if (exp10 > -1000000)
                    exp10--;
                if (mant > 0.0)
                    sig++;
            }
        }
    }
    if (digits == 0) {
        *why = "is not a number";
        return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int neg = 0;
        long e = 0;
        size_t e0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) {
            neg = s[i] == '-';
            i++;
        }
        e0 = i;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (e < 100000)
                e = e * 10 + (s[i] - '0');
        if (i == e0) {
            *why = "is not a number";
            return 0;
        }
        exp10 += neg ? -e : e;
    }
    if (i != n) {
        *why = "is not a number";
        return 0;
    }
    if (mant == 0.0) {
        *why = "must be greater than 0";
        return 0;
    }
    /* scale; stop early once the value is clearly out of float range */
    while (exp10 > 0 && mant <= (double)FLT_MAX) {
        mant *= 10.0;
        exp10--;
    }
    while (exp10 < 0 && mant >= (double)FLT_MIN) {
        mant /= 10.0;
        exp10++;
    }
    if (mant > (double)FLT_MAX) {
        *why = "is too large";
        return 0;
    }
    if (mant < (double)FLT_MIN) {
        *why = "is too small";
        return 0;
    }
    *out = (float)mant;
    return 1;
}

/* Copies a name of at most MD2_ANIM_NAME_SIZE bytes. */
static void set_name(md2_anim *a, const char *s, size_t len)
{
    memcpy(a->name, s, len);
    a->name[len] = '\0';
}

/* Checks a range against the model, if there is one. */
static md2_result check_range(const md2_model *m, uint32_t first, uint32_t last,
                              const cursor *c, const token *at,
                              md2_sidefile_error *err)
{
    if (m && (size_t)last >= m->num_frames)
        return fail(err, MD2_ERR_FRAME_RANGE, c->line, at->column,
                    "frames %lu-%lu reach past the model's last frame (%lu frames)",
                    (unsigned long)first, (unsigned long)last,
                    (unsigned long)m->num_frames);
    return MD2_OK;
}

typedef md2_result (*line_parser)(const line_fields *lf, const cursor *c,
                                  const md2_model *m, size_t index,
                                  md2_anim *a, md2_sidefile_error *err);

/* UFO:AI: name first last fps */
static md2_result parse_anm_line(const line_fields *lf, const cursor *c,
                                 const md2_model *m, size_t index, md2_anim *a,
                                 md2_sidefile_error *err)
{
    const char *why = "";
    uint32_t first, last;
    float fps;

    (void)index;
    if (lf->count < 4)
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line,
                    lf->count ? lf->field[lf->count - 1].column : 1,
                    "expected 4 fields (name first last fps), found %lu",
                    (unsigned long)lf->count);
    if (lf->count > 4)
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[4].column,
                    "unexpected field '%.*s' after name first last fps",
                    quote_len(&lf->field[4]), lf->field[4].s);
    if (lf->field[0].len > MD2_ANIM_NAME_SIZE)
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[0].column,
                    "name '%.*s...' is longer than %d bytes",
                    quote_len(&lf->field[0]), lf->field[0].s, MD2_ANIM_NAME_SIZE);
    if (!parse_u32(&lf->field[1], &first, &why))
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[1].column,
                    "first frame '%.*s' %s", quote_len(&lf->field[1]),
                    lf->field[1].s, why);
    if (!parse_u32(&lf->field[2], &last, &why))
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[2].column,
                    "last frame '%.*s' %s", quote_len(&lf->field[2]),
                    lf->field[2].s, why);
    if (last < first)
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[2].column,
                    "last frame %lu is before first frame %lu",
                    (unsigned long)last, (unsigned long)first);
    if (!parse_fps(&lf->field[3], &fps, &why))
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[3].column,
                    "fps '%.*s' %s", quote_len(&lf->field[3]), lf->field[3].s,
                    why);
    if (check_range(m, first, last, c, &lf->field[1], err) != MD2_OK)
        return MD2_ERR_FRAME_RANGE;
    if (a) {
        memset(a, 0, sizeof *a);
        set_name(a, lf->field[0].s, lf->field[0].len);
        a->first = first;
        a->last = last;
        a->fps = fps;
        a->loop = 1;
    }
    return MD2_OK;
}

/* DarkPlaces: first count [fps [loop [name]]] [// name] */
static md2_result parse_framegroups_line(const line_fields *lf, const cursor *c,
                                         const md2_model *m, size_t index,
                                         md2_anim *a, md2_sidefile_error *err)
{
    const char *why = "";
    uint32_t first, count;
    uint64_t last;
    float fps = 20.0f;
    int loop = 1;
    const char *name = NULL;
    size_t name_len = 0;

    if (lf->count < 2)
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[0].column,
                    "expected at least 2 fields (first count), found 1");
    if (lf->count > 5)
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[5].column,
                    "unexpected field '%.*s' after first count fps loop name",
                    quote_len(&lf->field[5]), lf->field[5].s);
    if (!parse_u32(&lf->field[0], &first, &why))
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[0].column,
                    "first frame '%.*s' %s", quote_len(&lf->field[0]),
                    lf->field[0].s, why);
    if (!parse_u32(&lf->field[1], &count, &why))
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[1].column,
                    "frame count '%.*s' %s", quote_len(&lf->field[1]),
                    lf->field[1].s, why);
    if (count == 0)
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[1].column,
                    "frame count must be at least 1");
    last = (uint64_t)first + count - 1u;
    if (last > UINT32_MAX)
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[1].column,
                    "first frame + count is too large");
    if (lf->count >= 3 && !parse_fps(&lf->field[2], &fps, &why))
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[2].column,
                    "fps '%.*s' %s", quote_len(&lf->field[2]), lf->field[2].s,
                    why);
    if (lf->count >= 4 && !parse_flag(&lf->field[3], &loop))
        return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[3].column,
                    "loop flag '%.*s' is not a whole number",
                    quote_len(&lf->field[3]), lf->field[3].s);
    if (lf->count == 5) {
        if (lf->field[4].len > MD2_ANIM_NAME_SIZE)
            return fail(err, MD2_ERR_PARSE_SIDEFILE, c->line, lf->field[4].column,
                        "name '%.*s...' is longer than %d bytes",
                        quote_len(&lf->field[4]), lf->field[4].s,
                        MD2_ANIM_NAME_SIZE);
        name = lf->field[4].s;
        name_len = lf->field[4].len;
    } else if (lf->has_comment && lf->comment_word.len > 0 &&
               lf->comment_word.len <= MD2_ANIM_NAME_SIZE) {
        name = lf->comment_word.s;
        name_len = lf->comment_word.len;
    }
    if (check_range(m, first, (uint32_t)last, c, &lf->field[0], err) != MD2_OK)
        return MD2_ERR_FRAME_RANGE;
    if (a) {
        memset(a, 0, sizeof *a);
        if (name)
            set_name(a, name, name_len);
        else
            snprintf(a->name, sizeof a->name, "group%lu", (unsigned long)index);
        a->first = first;
        a->last = (uint32_t)last;
        a->fps = fps;
        a->loop = loop;
    }
    return MD2_OK;
}

static md2_result parse_text(const char *text, size_t size, const md2_model *m,
                             md2_anim *out, size_t capacity, size_t *count,
                             md2_sidefile_error *err, line_parser parse_line)
{
    cursor c;
    size_t n = 0;

    clear_error(err);
    if (count)
        *count = 0;
    if (!count || (!text && size > 0) || (!out && capacity > 0))
        return fail(err, MD2_ERR_INVALID_ARGUMENT, 0, 0, "invalid argument");

    c.text = text;
    c.size = size;
    c.pos = 0;
    c.line = 0;
    if (size >= 3 && (unsigned char)text[0] == 0xEF &&
        (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
        c.pos = 3;

    while (c.pos < c.size) {
        line_fields lf;
        md2_result r;

        c.line++;
        r = next_line(&c, &lf, err);
        if (r != MD2_OK) {
            *count = n;
            return r;
        }
        if (lf.count == 0)
            continue; /* blank or comment line */
        r = parse_line(&lf, &c, m, n, (out && n < capacity) ? &out[n] : NULL, err);
        if (r != MD2_OK) {
            *count = n;
            return r;
        }
        n++;
    }
    *count = n;
    if (out && n > capacity)
        return fail(err, MD2_ERR_BUFFER_TOO_SMALL, 0, 0,
                    "the file has %lu entries but the buffer holds %lu",
                    (unsigned long)n, (unsigned long)capacity);
    return MD2_OK;
}

md2_result md2_parse_anm(const char *text, size_t size, const md2_model *m,
                         md2_anim *out, size_t capacity, size_t *count,
                         md2_sidefile_error *error)
{
    return parse_text(text, size, m, out, capacity, count, error, parse_anm_line);
}

md2_result md2_parse_framegroups(const char *text, size_t size,
                                 const md2_model *m, md2_anim *out,
                                 size_t capacity, size_t *count,
                                 md2_sidefile_error *error)
{
    return parse_text(text, size, m, out, capacity, count, error,
                      parse_framegroups_line);
}
