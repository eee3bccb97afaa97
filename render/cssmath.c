/* render/: CSS lengths litehtml 0.6 cannot read, evaluated in pixels
 * (cssmath.h). A recursive descent over the value: sums of products of
 * numbers, lengths and percentages, in parentheses or in calc(), min(),
 * max() and clamp(), as CSS Values and Units 4 writes them. */
#include "cssmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 16

typedef struct parser {
    const char *p;
    const css_math_ctx *c;
    int depth;
    int err;
} parser;

/* A number (len 0) or a length in pixels (len 1). */
typedef struct val {
    double v;
    int len;
} val;

static int lower(int ch)
{
    return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

static int is_alpha(int ch)
{
    ch = lower(ch);
    return ch >= 'a' && ch <= 'z';
}

static int is_space(int ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f';
}

static void skip_ws(parser *ps)
{
    while (is_space(*ps->p))
        ps->p++;
}

/* Whether the n letters at s are `word`, in any case. */
static int word_is(const char *s, size_t n, const char *word)
{
    if (strlen(word) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)s[i]) != word[i])
            return 0;
    return 1;
}

/* Pixels per unit (the n letters at u); 0 when unknown or not to be had. */
static double unit_px(const char *u, size_t n, const css_math_ctx *c)
{
    static const struct {
        const char *name;
        double px;
    } fixed[] = {{"px", 1}, {"in", 96}, {"cm", 96 / 2.54}, {"mm", 96 / 25.4}, {"q", 96 / 101.6},
                 {"pt", 96.0 / 72}, {"pc", 16}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (word_is(u, n, fixed[i].name))
            return fixed[i].px;
    if (word_is(u, n, "em"))
        return c->em;
    if (word_is(u, n, "rem"))
        return c->rem;
    if (word_is(u, n, "ch"))
        return c->ch;
    if (word_is(u, n, "ex"))
        return c->ex;
    if (word_is(u, n, "lh"))
        return c->lh;
    /* The window, whatever the toolbars do (dynamic, small, large), and
     * its inline and block axes in horizontal writing. */
    const char *v = u;
    size_t k = n;
    if (k > 2 && (lower(v[0]) == 'd' || lower(v[0]) == 's' || lower(v[0]) == 'l') &&
        lower(v[1]) == 'v')
        v++, k--;
    if (word_is(v, k, "vw") || word_is(v, k, "vi"))
        return c->vw / 100;
    if (word_is(v, k, "vh") || word_is(v, k, "vb"))
        return c->vh / 100;
    if (word_is(v, k, "vmin"))
        return fmin(c->vw, c->vh) / 100;
    if (word_is(v, k, "vmax"))
        return fmax(c->vw, c->vh) / 100;
    return 0;
}

static val sum(parser *ps);

/* A number, a length, a percentage, a bracketed sum or a function. */
static val term(parser *ps)
{
    val r = {0, 0};
    skip_ws(ps);
    const char *p = ps->p;
    if (*p == '(') {
        if (++ps->depth > MAX_DEPTH) {
            ps->err = 1;
            return r;
        }
        ps->p++;
        r = sum(ps);
        skip_ws(ps);
        if (*ps->p != ')')
            ps->err = 1;
        else
            ps->p++;
        ps->depth--;
        return r;
    }
    if (is_alpha((unsigned char)*p) || *p == '-') {
        const char *n = p;
        while (is_alpha((unsigned char)*p) || *p == '-')
            p++;
        if (*p == '(') {
            size_t nl = (size_t)(p - n);
            int fn = word_is(n, nl, "calc") || word_is(n, nl, "-webkit-calc") ? 'c'
                     : word_is(n, nl, "min")                                    ? '<'
                     : word_is(n, nl, "max")                                    ? '>'
                     : word_is(n, nl, "clamp")                                  ? '='
                                                                                : 0;
            if (!fn || ++ps->depth > MAX_DEPTH) {
                ps->err = 1;
                return r;
            }
            ps->p = p + 1;
            val args[3] = {{0, 0}, {0, 0}, {0, 0}};
            int n_args = 0;
            for (;;) {
                val a = sum(ps);
                if (ps->err || (n_args > 0 && a.len != args[0].len)) {
                    ps->err = 1;
                    return r;
                }
                if (n_args == 0 || fn == '=')
                    args[n_args < 3 ? n_args : 2] = a;
                else if (fn == '<' ? a.v < args[0].v : a.v > args[0].v)
                    args[0] = a; /* min(), max(): the running answer */
                n_args++;
                skip_ws(ps);
                if (*ps->p != ',')
                    break;
                ps->p++;
            }
            if (*ps->p != ')' || (fn == 'c' && n_args != 1) || (fn == '=' && n_args != 3)) {
                ps->err = 1;
                return r;
            }
            ps->p++;
            ps->depth--;
            r = args[0];
            if (fn == '=') /* clamp(MIN, VAL, MAX): MIN wins over MAX */
                r.v = fmax(args[0].v, fmin(args[1].v, args[2].v));
            return r;
        }
        if (*n != '-') {
            ps->err = 1; /* a keyword (auto, none, var() ...) */
            return r;
        }
    }
    char *end = NULL;
    double x = strtod(ps->p, &end);
    if (!end || end == ps->p || !isfinite(x)) {
        ps->err = 1;
        return r;
    }
    p = end;
    if (*p == '%') {
        if (ps->c->percent_of < 0) {
            ps->err = 1;
            return r;
        }
        ps->p = p + 1;
        r.v = x * ps->c->percent_of / 100;
        r.len = 1;
        return r;
    }
    const char *u = p;
    while (is_alpha((unsigned char)*p))
        p++;
    ps->p = p;
    if (p == u) {
        r.v = x; /* a number */
        return r;
    }
    double k = unit_px(u, (size_t)(p - u), ps->c);
    if (k <= 0) {
        ps->err = 1;
        return r;
    }
    r.v = x * k;
    r.len = 1;
    return r;
}

static val product(parser *ps)
{
    val a = term(ps);
    for (;;) {
        if (ps->err)
            return a;
        skip_ws(ps);
        char op = *ps->p;
        if (op != '*' && op != '/')
            return a;
        ps->p++;
        val b = term(ps);
        if (op == '*') {
            if (a.len && b.len)
                ps->err = 1;
            a.v *= b.v;
            a.len |= b.len;
        } else {
            if (b.len || b.v == 0)
                ps->err = 1;
            else
                a.v /= b.v;
        }
    }
}

static val sum(parser *ps)
{
    val a = product(ps);
    for (;;) {
        if (ps->err)
            return a;
        skip_ws(ps);
        char op = *ps->p;
        if (op != '+' && op != '-')
            return a;
        ps->p++;
        val b = product(ps);
        /* 0 stands for a length of nothing, as in calc(0 + 1px). */
        if (a.len != b.len && !(a.len ? b.v == 0 : a.v == 0)) {
            ps->err = 1;
            return a;
        }
        a.v = op == '+' ? a.v + b.v : a.v - b.v;
        a.len |= b.len;
    }
}

int css_math_eval(const char *s, const css_math_ctx *c, double *px)
{
    if (!s)
        return 0;
    parser ps = {s, c, 0, 0};
    val r = sum(&ps);
    skip_ws(&ps);
    if (ps.err || *ps.p || (!r.len && r.v != 0) || !isfinite(r.v))
        return 0;
    *px = r.v;
    return 1;
}

int css_math_needed(const char *s)
{
    static const char *const known[] = {"in", "cm", "mm", "em", "ex", "pt", "pc",
                                        "px", "vw", "vh", "vmin", "vmax", "rem"};
    if (!s)
        return 0;
    for (const char *p = s; *p; p++) {
        if (*p == '(') {
            const char *n = p;
            while (n > s && (is_alpha((unsigned char)n[-1]) || n[-1] == '-'))
                n--;
            size_t nl = (size_t)(p - n);
            if (word_is(n, nl, "calc") || word_is(n, nl, "-webkit-calc") ||
                word_is(n, nl, "min") || word_is(n, nl, "max") || word_is(n, nl, "clamp"))
                return 1;
            continue;
        }
        /* A number that starts a token, and the unit after it. */
        if (!((*p >= '0' && *p <= '9') || *p == '.'))
            continue;
        if (p > s && (is_alpha((unsigned char)p[-1]) || p[-1] == '-' || p[-1] == '#' ||
                      (p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.'))
            continue;
        const char *q = p;
        while ((*q >= '0' && *q <= '9') || *q == '.')
            q++;
        const char *u = q;
        while (is_alpha((unsigned char)*q))
            q++;
        size_t ul = (size_t)(q - u);
        if (ul) {
            int ok = 0;
            for (size_t i = 0; i < sizeof known / sizeof known[0] && !ok; i++)
                ok = word_is(u, ul, known[i]);
            if (!ok)
                return 1;
        }
        p = q > p ? q - 1 : p;
    }
    return 0;
}
