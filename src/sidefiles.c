/*
 * Animation side files parsed from memory: UFO:AI .anm and DarkPlaces
 * .framegroups. Line-based, bounds-checked, locale-independent, no
 * allocation. Errors name the line and column.
 *
 * SPDX-License-Identifier: MIT
 */
#include "md2/animation.h"
#include "diag.h"
#include "reserved.h"

#include <float.h>
#include <math.h>
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
    size_t line_start;     /* byte offset of that line in text */
    size_t entry;          /* number of the entry this line would be */
    const md2_options *opts;
    md2_diagnostic *err;
} cursor;

/* Fills d with what is wrong where: line, column, the byte in the text,
 * the entry and the field; the message starts with "line L, column C". */
static void describe(md2_diagnostic *d, const cursor *c, size_t column,
                     const char *field, const char *fmt, va_list ap)
{
    int n = 0;
    d->section = MD2_SECTION_SIDEFILE;
    d->field = field;
    d->index = c->entry;
    d->line = c->line;
    d->column = column;
    d->offset = c->line_start + (column > 0 ? column - 1 : 0);
    if (c->line > 0)
        n = snprintf(d->message, sizeof d->message, "line %lu, column %lu: ",
                     (unsigned long)c->line, (unsigned long)column);
    if (n < 0 || (size_t)n >= sizeof d->message)
        n = 0;
    vsnprintf(d->message + n, sizeof d->message - (size_t)n, fmt, ap);
}

static md2_result fail(const cursor *c, md2_result r, size_t column,
                       const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static md2_result fail(const cursor *c, md2_result r, size_t column,
                       const char *field, const char *fmt, ...)
{
    if (c->err) {
        va_list ap;
        md2__diag_clear(c->err);
        c->err->result = r;
        va_start(ap, fmt);
        describe(c->err, c, column, field, fmt, ap);
        va_end(ap);
    }
    return r;
}

/* A quirk of a real file: reported to opts->on_warning, or an error when
 * opts->strict has its flag. */
static md2_result warn(const cursor *c, uint32_t flag, size_t column,
                       const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static md2_result warn(const cursor *c, uint32_t flag, size_t column,
                       const char *field, const char *fmt, ...)
{
    md2_diagnostic d;
    va_list ap;

    if (!md2__quirk_heard(c->opts, flag))
        return c->opts && (c->opts->strict & flag) ? md2__warning_error(flag) : MD2_OK;
    md2__diag_clear(&d);
    va_start(ap, fmt);
    describe(&d, c, column, field, fmt, ap);
    va_end(ap);
    return md2__quirk_report(c->opts, flag, &d);
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
static md2_result next_line(cursor *c, line_fields *lf)
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
    c->line++;
    c->line_start = start;

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
            return fail(c, MD2_ERR_PARSE_SIDEFILE, i - start + 1, "",
                        "control byte 0x%02X outside a comment",
                        (unsigned)(unsigned char)t[i]);
        tok.column = i - start + 1;
        if (t[i] == '"') {
            size_t q = i + 1;
            while (q < end && t[q] != '"')
                q++;
            if (q >= end)
                return fail(c, MD2_ERR_PARSE_SIDEFILE, tok.column, "",
                            "quoted field without its closing quote");
            tok.s = t + i + 1;
            tok.len = q - i - 1;
            for (q = i + 1; q < i + 1 + tok.len; q++)
                if (is_control(t[q]))
                    return fail(c, MD2_ERR_PARSE_SIDEFILE, q - start + 1, "",
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

/* Decimal exponents are counted exactly up to this magnitude: far beyond
 * float range, and beyond the length of any token that fits in memory. */
#define EXP_CAP ((int64_t)1 << 60)
/* Significant digits kept in the mantissa (a double holds 17 exactly). */
#define SIG_DIGITS 17

static int64_t exp_step(int64_t e, int delta)
{
    if ((delta > 0 && e < EXP_CAP) || (delta < 0 && e > -EXP_CAP))
        e += delta;
    return e;
}

/* Parses a rate: [+] digits [. digits] [e [+-] digits], or with the digits
 * only after the point. No locale: '.' is the decimal point. Accepts 0 and
 * finite values that fit a float (FLT_MIN..FLT_MAX); every other value,
 * however many digits it takes to write, is refused with a reason. */
static int parse_rate(const token *tk, float *out, const char **why)
{
    const char *s = tk->s;
    size_t n = tk->len, i = 0;
    double mant = 0.0, v;
    int64_t exp10 = 0, e = 0;
    int digits = 0, sig = 0, neg = 0;

    if (n > 0 && s[0] == '-') {
        *why = "must not be negative";
        return 0;
    }
    if (n > 0 && s[0] == '+')
        i++;
    /* exp10 is the power of ten of mant's last digit */
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        digits = 1;
        if (sig < SIG_DIGITS) {
            mant = mant * 10.0 + (double)(s[i] - '0');
            sig += mant > 0.0;
        } else {
            exp10 = exp_step(exp10, +1);
        }
    }
    if (i < n && s[i] == '.') {
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            digits = 1;
            if (sig < SIG_DIGITS) {
                mant = mant * 10.0 + (double)(s[i] - '0');
                sig += mant > 0.0;
                exp10 = exp_step(exp10, -1);
            }
        }
    }
    if (!digits) {
        *why = "is not a number";
        return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t e0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) {
            neg = s[i] == '-';
            i++;
        }
        e0 = i;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            int d = s[i] - '0';
            if (e <= (EXP_CAP - d) / 10)
                e = e * 10 + d;
            else
                e = EXP_CAP;
        }
        if (i == e0) {
            *why = "is not a number";
            return 0;
        }
    }
    if (i != n) {
        *why = "is not a number";
        return 0;
    }
    if (mant == 0.0) {
        *out = 0.0f;
        return 1;
    }
    /* both terms are below 2^60 in magnitude: the sum cannot overflow */
    exp10 += neg ? -e : e;
    /* mant is in [1, 1e17): beyond these bounds the value is out of range
     * whatever its digits */
    if (exp10 > 39) {
        *why = "is too large for a float";
        return 0;
    }
    if (exp10 < -56) {
        *why = "is too small for a float (and not 0)";
        return 0;
    }
    v = mant;
    for (; exp10 > 0; exp10--)
        v *= 10.0;
    for (; exp10 < 0; exp10++)
        v /= 10.0;
    if (v > (double)FLT_MAX) {
        *why = "is too large for a float";
        return 0;
    }
    if (v < (double)FLT_MIN) {
        *why = "is too small for a float (and not 0)";
        return 0;
    }
    *out = (float)v;
    return 1;
}

/* Reads field k as the rate of an animation of frames keyframes into
 * *fps; a rate of 0 is the hold quirk. A rate so slow that the animation
 * (frames / fps seconds, with the key back on its first frame that a loop
 * has) would last longer than the largest float is refused: every time in
 * it must be a finite float. */
static md2_result read_rate(const line_fields *lf, size_t k, const cursor *c,
                            uint64_t frames, float *fps)
{
    const token *tk = &lf->field[k];
    const char *why = "";

    if (!parse_rate(tk, fps, &why))
        return fail(c, MD2_ERR_PARSE_SIDEFILE, tk->column, "fps",
                    "fps '%.*s' %s", quote_len(tk), tk->s, why);
    if (*fps != 0.0f && (double)frames / (double)*fps > (double)FLT_MAX)
        return fail(c, MD2_ERR_PARSE_SIDEFILE, tk->column, "fps",
                    "fps '%.*s' is too small: %lu frames at that rate would last %.3g seconds, "
                    "longer than a float can hold", quote_len(tk), tk->s, (unsigned long)frames,
                    (double)frames / (double)*fps);
    if (*fps == 0.0f)
        return warn(c, MD2_WARN_ANIM_RATE_ZERO, tk->column, "fps",
                    "fps '%.*s' is 0: the animation holds its first frame",
                    quote_len(tk), tk->s);
    return MD2_OK;
}

/* Reads field k as a keyframe number. */
static md2_result read_u32(const line_fields *lf, size_t k, const cursor *c,
                           const char *field, const char *what, uint32_t *out)
{
    const token *tk = &lf->field[k];
    const char *why = "";

    if (!parse_u32(tk, out, &why))
        return fail(c, MD2_ERR_PARSE_SIDEFILE, tk->column, field, "%s '%.*s' %s",
                    what, quote_len(tk), tk->s, why);
    return MD2_OK;
}

/* Checks a name's length. */
static md2_result check_name(const token *tk, const cursor *c)
{
    if (tk->len > MD2_ANIM_NAME_SIZE)
        return fail(c, MD2_ERR_PARSE_SIDEFILE, tk->column, "name",
                    "name '%.*s...' is longer than %d bytes", quote_len(tk), tk->s,
                    MD2_ANIM_NAME_SIZE);
    return MD2_OK;
}

/* Checks a range against the model, if there is one. */
static md2_result check_range(const md2_model *m, uint32_t first, uint32_t last,
                              const cursor *c, const token *at)
{
    if (m && (size_t)last >= m->num_frames)
        return fail(c, MD2_ERR_FRAME_RANGE, at->column, "last",
                    "frames %lu-%lu reach past the model's last frame (%lu frames)",
                    (unsigned long)first, (unsigned long)last,
                    (unsigned long)m->num_frames);
    return MD2_OK;
}

/* Fills a (if not NULL) with one entry. */
static void set_anim(md2_anim *a, const char *name, size_t len, size_t index,
                     uint32_t first, uint32_t last, float fps, int loop)
{
    if (!a)
        return;
    memset(a, 0, sizeof *a);
    if (name) {
        memcpy(a->name, name, len);
        a->name[len] = '\0';
    } else {
        snprintf(a->name, sizeof a->name, "group%lu", (unsigned long)index);
    }
    a->first = first;
    a->last = last;
    a->fps = fps;
    a->loop = loop < 0 ? md2_anim_loops(a->name) : loop;
}

typedef md2_result (*line_parser)(const line_fields *lf, const cursor *c,
                                  const md2_model *m, md2_anim *a);

/* UFO:AI: name first last fps */
static md2_result parse_anm_line(const line_fields *lf, const cursor *c,
                                 const md2_model *m, md2_anim *a)
{
    uint32_t first, last;
    float fps;

    if (lf->count < 4)
        return fail(c, MD2_ERR_PARSE_SIDEFILE,
                    lf->count ? lf->field[lf->count - 1].column : 1, "",
                    "expected 4 fields (name first last fps), found %lu",
                    (unsigned long)lf->count);
    if (lf->count > 4)
        return fail(c, MD2_ERR_PARSE_SIDEFILE, lf->field[4].column, "",
                    "unexpected field '%.*s' after name first last fps",
                    quote_len(&lf->field[4]), lf->field[4].s);
    MD2_TRY(check_name(&lf->field[0], c));
    MD2_TRY(read_u32(lf, 1, c, "first", "first frame", &first));
    MD2_TRY(read_u32(lf, 2, c, "last", "last frame", &last));
    if (last < first)
        return fail(c, MD2_ERR_PARSE_SIDEFILE, lf->field[2].column, "last",
                    "last frame %lu is before first frame %lu",
                    (unsigned long)last, (unsigned long)first);
    MD2_TRY(read_rate(lf, 3, c, (uint64_t)last - first + 1u, &fps));
    MD2_TRY(check_range(m, first, last, c, &lf->field[1]));
    set_anim(a, lf->field[0].s, lf->field[0].len, c->entry, first, last, fps, -1);
    return MD2_OK;
}

/* DarkPlaces: first count [fps [loop [name]]] [// name] */
static md2_result parse_framegroups_line(const line_fields *lf, const cursor *c,
                                         const md2_model *m, md2_anim *a)
{
    uint32_t first, count;
    uint64_t last;
    float fps = 20.0f;
    int loop = -1; /* absent: by name */
    const char *name = NULL;
    size_t name_len = 0;

    if (lf->count < 2)
        return fail(c, MD2_ERR_PARSE_SIDEFILE, lf->field[0].column, "",
                    "expected at least 2 fields (first count), found 1");
    if (lf->count > 5)
        return fail(c, MD2_ERR_PARSE_SIDEFILE, lf->field[5].column, "",
                    "unexpected field '%.*s' after first count fps loop name",
                    quote_len(&lf->field[5]), lf->field[5].s);
    MD2_TRY(read_u32(lf, 0, c, "first", "first frame", &first));
    MD2_TRY(read_u32(lf, 1, c, "count", "frame count", &count));
    if (count == 0)
        return fail(c, MD2_ERR_PARSE_SIDEFILE, lf->field[1].column, "count",
                    "frame count must be at least 1");
    last = (uint64_t)first + count - 1u;
    if (last > UINT32_MAX)
        return fail(c, MD2_ERR_PARSE_SIDEFILE, lf->field[1].column, "count",
                    "first frame + count is too large");
    if (lf->count >= 3)
        MD2_TRY(read_rate(lf, 2, c, count, &fps));
    if (lf->count >= 4 && !parse_flag(&lf->field[3], &loop))
        return fail(c, MD2_ERR_PARSE_SIDEFILE, lf->field[3].column, "loop",
                    "loop flag '%.*s' is not a whole number",
                    quote_len(&lf->field[3]), lf->field[3].s);
    if (lf->count == 5) {
        MD2_TRY(check_name(&lf->field[4], c));
        name = lf->field[4].s;
        name_len = lf->field[4].len;
    } else if (lf->has_comment && lf->comment_word.len > 0 &&
               lf->comment_word.len <= MD2_ANIM_NAME_SIZE) {
        name = lf->comment_word.s;
        name_len = lf->comment_word.len;
    }
    MD2_TRY(check_range(m, first, (uint32_t)last, c, &lf->field[0]));
    set_anim(a, name, name_len, c->entry, first, (uint32_t)last, fps, loop);
    return MD2_OK;
}

static md2_result parse_text(const char *text, size_t size, const md2_model *m,
                             const md2_options *opts, md2_anim *out,
                             size_t capacity, size_t *count, line_parser parse_line)
{
    cursor c;
    size_t n = 0;

    memset(&c, 0, sizeof c);
    c.opts = opts;
    c.err = opts ? opts->error : NULL;
    md2__diag_clear(c.err);
    if (count)
        *count = 0;
    if (!count || (!text && size > 0) || (!out && capacity > 0))
        return md2__fail(c.err, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_SIDEFILE, "", 0, 0,
                         "side file: %s", !count ? "count is NULL"
                                          : (!text && size > 0) ? "text is NULL"
                                                                : "out is NULL");
    MD2_TRY(md2__reserved_model(m, c.err));
    MD2_TRY(md2__reserved_options(opts));
    c.text = text;
    c.size = size;
    if (size >= 3 && (unsigned char)text[0] == 0xEF &&
        (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
        c.pos = 3;

    while (c.pos < c.size) {
        line_fields lf;
        md2_result r;

        c.entry = n;
        r = next_line(&c, &lf);
        if (r == MD2_OK && lf.count == 0)
            continue; /* blank or comment line */
        if (r == MD2_OK)
            r = parse_line(&lf, &c, m, (out && n < capacity) ? &out[n] : NULL);
        if (r != MD2_OK) {
            *count = n;
            return r;
        }
        n++;
    }
    *count = n;
    if (out && n > capacity)
        return md2__fail(c.err, MD2_ERR_BUFFER_TOO_SMALL, MD2_SECTION_SIDEFILE, "", 0,
                         capacity, "side file: the file has %lu entries but the buffer holds %lu",
                         (unsigned long)n, (unsigned long)capacity);
    return MD2_OK;
}

md2_result md2_parse_anm(const char *text, size_t size, const md2_model *m,
                         const md2_options *opts, md2_anim *out, size_t capacity,
                         size_t *count)
{
    return parse_text(text, size, m, opts, out, capacity, count, parse_anm_line);
}

md2_result md2_parse_framegroups(const char *text, size_t size,
                                 const md2_model *m, const md2_options *opts,
                                 md2_anim *out, size_t capacity, size_t *count)
{
    return parse_text(text, size, m, opts, out, capacity, count,
                      parse_framegroups_line);
}

/* ------------------------------------------------------------------------ */
/* Writing .anm text                                                         */
/* ------------------------------------------------------------------------ */

/* Longest rate text: 17 digits, '.', 'e', '-' and 2 exponent digits, or
 * "0.000" and 17 digits; and longest line: a quoted 16-byte name, two
 * 10-digit frame numbers, the rate, 3 spaces and the LF. */
#define ANM_RATE_MAX 24
#define ANM_LINE_MAX (2 + MD2_ANIM_NAME_SIZE + 1 + 10 + 1 + 10 + 1 + ANM_RATE_MAX + 1)

/* The decimal digits of f (f > 0) correctly rounded to prec significant
 * digits, into digits[0..prec) (NUL-terminated), and their decimal
 * exponent (f ~ d.ddd * 10^exp10). snprintf's %e gives them; whatever the
 * locale's decimal point is, only the ASCII digits before the 'e' and the
 * exponent after it are read. Returns 0 if the output is not as expected. */
static int rate_digits(float f, int prec, char digits[18], int *exp10)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%.*e", prec - 1, (double)f);
    int i, k = 0, e = 0, neg = 0;

    if (n <= 0 || (size_t)n >= sizeof buf)
        return 0;
    for (i = 0; buf[i] && buf[i] != 'e' && buf[i] != 'E'; i++)
        if (buf[i] >= '0' && buf[i] <= '9' && k < prec)
            digits[k++] = buf[i];
    if (k != prec || !buf[i])
        return 0;
    i++;
    if (buf[i] == '+' || buf[i] == '-')
        neg = buf[i++] == '-';
    if (buf[i] < '0' || buf[i] > '9')
        return 0;
    for (; buf[i] >= '0' && buf[i] <= '9'; i++)
        if (e < 1000)
            e = e * 10 + (buf[i] - '0');
    digits[k] = '\0';
    *exp10 = neg ? -e : e;
    return 1;
}

/* Lays out digits[0..n) (n >= 1) with decimal exponent x as the canonical
 * rate text (md2_write_anm(): positional for x in -4..8, else d.ddde[-]x)
 * into out[ANM_RATE_MAX]; returns its length. */
static size_t rate_layout(const char *digits, size_t n, int x, char *out)
{
    size_t len = 0, i;
    if (x >= -4 && x <= 8) {
        if (x < 0) {
            out[len++] = '0';
            out[len++] = '.';
            for (i = 1; i < (size_t)-x; i++)
                out[len++] = '0';
            for (i = 0; i < n; i++)
                out[len++] = digits[i];
            return len;
        }
        for (i = 0; i <= (size_t)x; i++) /* the whole part, zeros past the digits */
            out[len++] = i < n ? digits[i] : '0';
        if (n > (size_t)x + 1) {
            out[len++] = '.';
            for (i = (size_t)x + 1; i < n; i++)
                out[len++] = digits[i];
        }
        return len;
    }
    out[len++] = digits[0];
    if (n > 1) {
        out[len++] = '.';
        for (i = 1; i < n; i++)
            out[len++] = digits[i];
    }
    out[len++] = 'e';
    if (x < 0)
        out[len++] = '-';
    len += (size_t)snprintf(out + len, ANM_RATE_MAX - len, "%d", x < 0 ? -x : x);
    return len;
}

/* The canonical text of rate fps (0, or FLT_MIN..FLT_MAX) into
 * out[ANM_RATE_MAX]: the fewest correctly rounded digits that parse_rate()
 * reads back as fps. Returns its length, 0 if no text comes back (not
 * expected: 9 digits always do, but the parser is the judge). */
static size_t rate_text(float fps, char *out)
{
    int prec;
    if (fps == 0.0f) {
        out[0] = '0';
        return 1;
    }
    for (prec = 1; prec <= 17; prec++) {
        char digits[18];
        int x;
        size_t n, len;
        token tk;
        float back;
        const char *why = "";

        if (!rate_digits(fps, prec, digits, &x))
            return 0;
        n = (size_t)prec;
        while (n > 1 && digits[n - 1] == '0')
            n--;
        len = rate_layout(digits, n, x, out);
        tk.s = out;
        tk.len = len;
        tk.column = 1;
        if (parse_rate(&tk, &back, &why) && back == fps)
            return len;
    }
    return 0;
}

/* Whether name (NUL-terminated) is written in double quotes. */
static int name_quoted(const char *name)
{
    const unsigned char *u = (const unsigned char *)name;
    size_t i;
    if (name[0] == '\0' || name[0] == '"' ||
        (u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF))
        return 1;
    for (i = 0; name[i]; i++)
        if (is_blank(name[i]) || (name[i] == '/' && name[i + 1] == '/'))
            return 1;
    return 0;
}

static md2_result anm_fail(md2_diagnostic *d, md2_result r, size_t i, const md2_anim *a,
                           const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Fills d (if not NULL) for entry i: "md2_write_anm: animation I ('NAME'): "
 * (the name left out when it is not a clean string) and the reason. */
static md2_result anm_fail(md2_diagnostic *d, md2_result r, size_t i, const md2_anim *a,
                           const char *field, const char *fmt, ...)
{
    va_list ap;
    int n;
    size_t k;
    int clean = memchr(a->name, '\0', sizeof a->name) != NULL;

    if (!d)
        return r;
    for (k = 0; clean && a->name[k]; k++)
        clean = !is_control(a->name[k]);
    md2__diag_clear(d);
    d->result = r;
    d->section = MD2_SECTION_SIDEFILE;
    d->field = field;
    d->index = i;
    if (clean)
        n = snprintf(d->message, sizeof d->message, "md2_write_anm: animation %lu ('%s'): ",
                     (unsigned long)i, a->name);
    else
        n = snprintf(d->message, sizeof d->message, "md2_write_anm: animation %lu: ",
                     (unsigned long)i);
    if (n < 0 || (size_t)n >= sizeof d->message)
        n = 0;
    va_start(ap, fmt);
    vsnprintf(d->message + n, sizeof d->message - (size_t)n, fmt, ap);
    va_end(ap);
    return r;
}

/* Checks entry i and writes its line into line[ANM_LINE_MAX]; returns the
 * line's length in *len. */
static md2_result anm_line(const md2_anim *a, size_t i, const md2_model *m,
                           md2_diagnostic *d, char *line, size_t *len)
{
    const char *end = (const char *)memchr(a->name, '\0', sizeof a->name);
    char rate[ANM_RATE_MAX];
    size_t k, n, rate_len;
    int quoted;
    float fps = a->fps;

    if (!end)
        return anm_fail(d, MD2_ERR_INVALID_ARGUMENT, i, a, "name",
                        "the name has no NUL in its %d bytes", MD2_ANIM_NAME_SIZE + 1);
    n = (size_t)(end - a->name);
    for (k = 0; k < n; k++)
        if (is_control(a->name[k]))
            return anm_fail(d, MD2_ERR_INVALID_ARGUMENT, i, a, "name",
                            "byte %lu of the name is the control byte 0x%02X, which an .anm line cannot hold",
                            (unsigned long)k, (unsigned)(unsigned char)a->name[k]);
    quoted = name_quoted(a->name);
    if (quoted && memchr(a->name, '"', n))
        return anm_fail(d, MD2_ERR_INVALID_ARGUMENT, i, a, "name",
                        "the name needs double quotes (it is empty, has a blank or \"//\", or starts with '\"' or a byte order mark) but holds a '\"', which they cannot");
    if (a->last < a->first)
        return anm_fail(d, MD2_ERR_INVALID_ARGUMENT, i, a, "last",
                        "last frame %lu is before first frame %lu", (unsigned long)a->last,
                        (unsigned long)a->first);
    if (m && (size_t)a->last >= m->num_frames)
        return anm_fail(d, MD2_ERR_FRAME_RANGE, i, a, "last",
                        "frames %lu-%lu reach past the model's last frame (%lu frames)",
                        (unsigned long)a->first, (unsigned long)a->last,
                        (unsigned long)m->num_frames);
    if (isnan(fps) || fps < 0.0f || fps > FLT_MAX)
        return anm_fail(d, MD2_ERR_INVALID_ARGUMENT, i, a, "fps",
                        "fps is %g; a rate is a finite number >= 0", (double)fps);
    if (signbit(fps))
        fps = 0.0f; /* -0 is written as 0 (fps < 0 was refused above) */
    if (fps != 0.0f && fps < FLT_MIN)
        return anm_fail(d, MD2_ERR_INVALID_ARGUMENT, i, a, "fps",
                        "fps is %g, below FLT_MIN, which md2_parse_anm() refuses",
                        (double)fps);
    if (fps != 0.0f &&
        (double)((uint64_t)a->last - a->first + 1u) / (double)fps > (double)FLT_MAX)
        return anm_fail(d, MD2_ERR_INVALID_ARGUMENT, i, a, "fps",
                        "fps is %g: %lu frames at that rate would last longer than a float can hold",
                        (double)fps, (unsigned long)(a->last - a->first + 1u));
    rate_len = rate_text(fps, rate);
    if (rate_len == 0)
        return anm_fail(d, MD2_ERR_INVALID_ARGUMENT, i, a, "fps",
                        "fps %.9g has no decimal text that md2_parse_anm() reads back as it",
                        (double)fps);
    k = 0;
    if (quoted)
        line[k++] = '"';
    memcpy(line + k, a->name, n);
    k += n;
    if (quoted)
        line[k++] = '"';
    k += (size_t)snprintf(line + k, ANM_LINE_MAX - k, " %lu %lu ", (unsigned long)a->first,
                          (unsigned long)a->last);
    memcpy(line + k, rate, rate_len);
    k += rate_len;
    line[k++] = '\n';
    *len = k;
    return MD2_OK;
}

md2_result md2_write_anm(const md2_anim *anims, size_t count, const md2_model *m,
                         char *out, size_t capacity, size_t *size, md2_diagnostic *error)
{
    char line[ANM_LINE_MAX];
    size_t i, len, total = 0;

    md2__diag_clear(error);
    if (size)
        *size = 0;
    if (!size || (!anims && count > 0) || (!out && capacity > 0))
        return md2__fail(error, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_SIDEFILE, "", 0, 0,
                         "md2_write_anm: %s",
                         !size ? "size is NULL"
                         : (!anims && count > 0) ? "anims is NULL but count is not 0"
                                                 : "out is NULL but capacity is not 0");
    MD2_TRY(md2__reserved_model(m, error));
    MD2_TRY(md2__reserved_anims(anims, count, error));
    /* every entry checked and measured before a byte is written */
    for (i = 0; i < count; i++) {
        MD2_TRY(anm_line(&anims[i], i, m, error, line, &len));
        if (len > SIZE_MAX - total)
            return md2__fail(error, MD2_ERR_INVALID_ARGUMENT, MD2_SECTION_SIDEFILE, "", 0, i,
                             "md2_write_anm: the text of %lu entries does not fit in memory",
                             (unsigned long)count);
        total += len;
    }
    *size = total;
    if (!out)
        return MD2_OK;
    if (capacity < total)
        return md2__fail(error, MD2_ERR_BUFFER_TOO_SMALL, MD2_SECTION_SIDEFILE, "", 0, 0,
                         "md2_write_anm: the text has %lu bytes but the buffer holds %lu",
                         (unsigned long)total, (unsigned long)capacity);
    for (i = 0, total = 0; i < count; i++) {
        (void)anm_line(&anims[i], i, m, NULL, line, &len); /* checked above */
        memcpy(out + total, line, len);
        total += len;
    }
    return MD2_OK;
}
