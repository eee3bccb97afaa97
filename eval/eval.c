/* eval/: the benchmark's shingle measure, token LCS and matched text blocks.
 * Character classes come from HarfBuzz's Unicode functions (general
 * category and script), which glance links for text already. */
#define _GNU_SOURCE /* memmem */
#include "eval/eval.h"

#include <hb.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/script.h"
#include "base/utf8.h"

/* Tokens ------------------------------------------------------------------ */

typedef struct tok {
    const char *s;
    size_t n;
} tok;

typedef struct toks {
    tok *v;
    size_t n, cap;
} toks;

/* Python's \w: letters, numbers (decimal, letter, other) and '_'. */
static int is_word(hb_unicode_funcs_t *uf, uint32_t cp)
{
    if (cp < 0x80)
        return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
               cp == '_';
    switch (hb_unicode_general_category(uf, cp)) {
    case HB_UNICODE_GENERAL_CATEGORY_LOWERCASE_LETTER:
    case HB_UNICODE_GENERAL_CATEGORY_MODIFIER_LETTER:
    case HB_UNICODE_GENERAL_CATEGORY_OTHER_LETTER:
    case HB_UNICODE_GENERAL_CATEGORY_TITLECASE_LETTER:
    case HB_UNICODE_GENERAL_CATEGORY_UPPERCASE_LETTER:
    case HB_UNICODE_GENERAL_CATEGORY_DECIMAL_NUMBER:
    case HB_UNICODE_GENERAL_CATEGORY_LETTER_NUMBER:
    case HB_UNICODE_GENERAL_CATEGORY_OTHER_NUMBER:
        return 1;
    default:
        return 0;
    }
}

static int toks_push(toks *t, const char *s, size_t n)
{
    if (base_grow(&t->v, &t->cap, t->n + 1, sizeof *t->v))
        return -1;
    t->v[t->n++] = (tok){s, n};
    return 0;
}

/* The three ways a text is cut into tokens. */
typedef enum tok_mode {
    TOK_W,      /* the benchmark's: \w+ runs, as Python's re */
    TOK_LCS,    /* \w+ runs, but a character of an unspaced script (base/) alone */
    TOK_SCRIPTS /* the variant that reads every script (eval_count_script_tokens) */
} tok_mode;

/* Unicode's marks (Mn, Mc, Me): vowel signs, viramas, tone marks, harakat,
 * combining accents. Python's \w leaves them out, so a word with one is
 * cut there; the variant keeps them on the character they follow. */
static int is_mark(hb_unicode_funcs_t *uf, uint32_t cp)
{
    if (cp < 0x300) /* nothing below the combining diacritics is a mark */
        return 0;
    switch (hb_unicode_general_category(uf, cp)) {
    case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK:
        return 1;
    default:
        return 0;
    }
}

/* The variant's scripts of one token per character: Han, Hiragana,
 * Katakana, Hangul, Thai, Lao, Khmer and Myanmar, the list of the issue
 * that asked for the variant. Not base_script_unspaced, on purpose: that
 * one answers "is this written without spaces between words?" for word
 * counts (extract/'s, which BTE and the other fallbacks weigh, and the LCS
 * tokens here), where Korean, which is written with spaces, must count per
 * word; the variant takes Hangul per syllable as it takes Han and Kana per
 * character, so that a Korean page is scored on the same footing as a
 * Chinese or Japanese one. Tibetan (in base/'s list) is not in the issue's:
 * its syllables end at the tsheg, which is punctuation, so its runs of
 * letters and marks are syllables already. */
static int script_per_char(hb_unicode_funcs_t *uf, uint32_t cp)
{
    if (cp < 0x0E00) /* below Thai: no such script */
        return 0;
    switch (hb_unicode_script(uf, cp)) {
    case HB_SCRIPT_HAN:
    case HB_SCRIPT_HIRAGANA:
    case HB_SCRIPT_KATAKANA:
    case HB_SCRIPT_HANGUL:
    case HB_SCRIPT_THAI:
    case HB_SCRIPT_LAO:
    case HB_SCRIPT_KHMER:
    case HB_SCRIPT_MYANMAR:
        return 1;
    default:
        return 0;
    }
}

/* The variant: a letter of script_per_char's scripts is a token with the
 * marks that follow it (Thai's vowel signs above and below its consonant
 * and its tone marks stay on it: dropped, as \w drops them, ที่ would read
 * as ท); elsewhere a token is a run of \w characters and marks, so that
 * हिन्दी and كَتَبَ are one word each, not three pieces. A mark that follows
 * no token (after a space, at the start) is left out, as \w leaves it.
 * -1 when out of memory, with nothing left to free. */
static int tokenize_scripts(const char *text, toks *out)
{
    hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
    const char *p = text, *end = text + strlen(text);
    const char *start = NULL; /* the open token */
    int single = 0;           /* it is one per-character letter and its marks */
    while (p < end) {
        const char *at = p;
        uint32_t cp = base_utf8_next(&p, end);
        if (is_mark(uf, cp))
            continue; /* on the open token, if any: it ends later */
        int word = is_word(uf, cp), alone = word && script_per_char(uf, cp);
        if (start && (!word || alone || single)) {
            if (toks_push(out, start, (size_t)(at - start)))
                return -1;
            start = NULL;
        }
        if (word && !start) {
            start = at;
            single = alone;
        }
    }
    if (start && toks_push(out, start, (size_t)(end - start)))
        return -1;
    return 0;
}

/* Splits a text into tokens as `mode` says. -1 when out of memory, with
 * nothing left to free. */
static int tokenize(const char *text, tok_mode mode, toks *out)
{
    memset(out, 0, sizeof *out);
    if (!text)
        return 0;
    if (mode == TOK_SCRIPTS) {
        if (tokenize_scripts(text, out))
            goto fail;
        return 0;
    }
    int split_unspaced = mode == TOK_LCS;
    hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
    const char *p = text, *end = text + strlen(text);
    const char *start = NULL;
    while (p < end) {
        const char *at = p;
        uint32_t cp = base_utf8_next(&p, end);
        if (!is_word(uf, cp)) {
            if (start && toks_push(out, start, (size_t)(at - start)))
                goto fail;
            start = NULL;
            continue;
        }
        /* Scripts written without spaces between words: one token per
         * character for LCS. */
        if (split_unspaced && base_script_unspaced(cp)) {
            if (start && toks_push(out, start, (size_t)(at - start)))
                goto fail;
            start = NULL;
            if (toks_push(out, at, (size_t)(p - at)))
                goto fail;
            continue;
        }
        if (!start)
            start = at;
    }
    if (start && toks_push(out, start, (size_t)(end - start)))
        goto fail;
    return 0;
fail:
    free(out->v);
    memset(out, 0, sizeof *out);
    return -1;
}

/* The tokens of the true text and of the output; -1 (nothing to free)
 * when out of memory. */
static int tokenize_both(const char *truth, const char *pred, tok_mode mode, toks *a, toks *b)
{
    if (tokenize(truth, mode, a))
        return -1;
    if (tokenize(pred, mode, b)) {
        free(a->v);
        return -1;
    }
    return 0;
}

/* How many tokens `text` has (0 when out of memory). */
static size_t count_tokens(const char *text, tok_mode mode)
{
    toks t;
    if (tokenize(text, mode, &t))
        return 0;
    free(t.v);
    return t.n;
}

size_t eval_count_tokens(const char *text)
{
    return count_tokens(text, TOK_W);
}

size_t eval_count_lcs_tokens(const char *text)
{
    return count_tokens(text, TOK_LCS);
}

size_t eval_count_script_tokens(const char *text)
{
    return count_tokens(text, TOK_SCRIPTS);
}

static uint64_t hash_bytes(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Shingles ----------------------------------------------------------------- */

typedef struct shingle {
    uint64_t hash;
    const tok *t; /* first token */
    size_t k;     /* tokens in it */
} shingle;

static int shingle_cmp(const void *a, const void *b)
{
    const shingle *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    for (size_t i = 0; i < x->k; i++) {
        const tok *p = &x->t[i], *q = &y->t[i];
        size_t n = p->n < q->n ? p->n : q->n;
        int c = memcmp(p->s, q->s, n);
        if (c)
            return c;
        if (p->n != q->n)
            return p->n < q->n ? -1 : 1;
    }
    return 0;
}

/* The sorted shingles of a token list (the benchmark's _ngrams with n=4). */
static shingle *shingles(const toks *t, size_t *count)
{
    *count = 0;
    if (t->n == 0)
        return malloc(1);
    size_t n = t->n >= 4 ? t->n - 3 : 1, k = t->n >= 4 ? 4 : t->n;
    shingle *v = malloc(n * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (size_t j = 0; j < k; j++)
            h = hash_bytes(hash_bytes(h, t->v[i + j].s, t->v[i + j].n), " ", 1);
        v[i] = (shingle){h, &t->v[i], k};
    }
    qsort(v, n, sizeof *v, shingle_cmp);
    *count = n;
    return v;
}

static int shingle_match(const char *truth, const char *pred, tok_mode mode, eval_shingles *out)
{
    memset(out, 0, sizeof *out);
    toks a, b;
    if (tokenize_both(truth, pred, mode, &a, &b))
        return -1;
    int rc = -1;
    size_t na, nb;
    shingle *sa = shingles(&a, &na), *sb = sa ? shingles(&b, &nb) : NULL;
    if (!sa || !sb)
        goto out;
    out->tokens_equal = a.n == b.n;
    for (size_t i = 0; out->tokens_equal && i < a.n; i++)
        out->tokens_equal = a.v[i].n == b.v[i].n && memcmp(a.v[i].s, b.v[i].s, a.v[i].n) == 0;
    /* Merge the two sorted multisets, one distinct shingle at a time. */
    double tp = 0, fp = 0, fn = 0;
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        const shingle *key;
        if (i < na && (j >= nb || shingle_cmp(&sa[i], &sb[j]) <= 0))
            key = &sa[i];
        else
            key = &sb[j];
        size_t ca = 0, cb = 0;
        while (i + ca < na && shingle_cmp(&sa[i + ca], key) == 0)
            ca++;
        while (j + cb < nb && shingle_cmp(&sb[j + cb], key) == 0)
            cb++;
        tp += ca < cb ? ca : cb;
        fp += cb > ca ? cb - ca : 0;
        fn += ca > cb ? ca - cb : 0;
        i += ca;
        j += cb;
    }
    double s = tp + fp + fn;
    if (s > 0) {
        out->tp = tp / s;
        out->fp = fp / s;
        out->fn = fn / s;
    }
    rc = 0;
out:
    free(sa);
    free(sb);
    free(a.v);
    free(b.v);
    return rc;
}

int eval_shingle_match(const char *truth, const char *pred, eval_shingles *out)
{
    return shingle_match(truth, pred, TOK_W, out);
}

int eval_shingle_match_scripts(const char *truth, const char *pred, eval_shingles *out)
{
    return shingle_match(truth, pred, TOK_SCRIPTS, out);
}

/* LCS ---------------------------------------------------------------------- */

/* Token strings to small integers: open addressing over the truth's tokens. */
typedef struct idmap {
    const tok **slot;
    int *id;
    size_t cap;
} idmap;

static uint64_t tok_hash(const tok *t)
{
    return hash_bytes(0xcbf29ce484222325ull, t->s, t->n);
}

static int tok_eq(const tok *a, const tok *b)
{
    return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

/* Bit-parallel LCS (Allison and Dix 1986, in Hyyro's form): one pass over
 * the output's tokens with a bit vector as long as the truth. */
long eval_lcs_length(const char *truth, const char *pred)
{
    toks a, b;
    if (tokenize_both(truth, pred, TOK_LCS, &a, &b))
        return -1;
    long result = -1;
    size_t m = a.n, words = (m + 63) / 64;
    idmap map = {0};
    int *pred_id = NULL, n_ids = 0;
    uint64_t **mask = NULL, *V = NULL;
    if (m == 0 || b.n == 0) {
        result = 0;
        goto out;
    }
    map.cap = 16;
    while (map.cap < m * 2)
        map.cap *= 2;
    map.slot = calloc(map.cap, sizeof *map.slot);
    map.id = calloc(map.cap, sizeof *map.id);
    int *truth_id = malloc(m * sizeof *truth_id);
    pred_id = malloc(b.n * sizeof *pred_id);
    if (!map.slot || !map.id || !truth_id || !pred_id) {
        free(truth_id);
        goto out;
    }
    for (size_t i = 0; i < m; i++) {
        size_t h = (size_t)tok_hash(&a.v[i]) & (map.cap - 1);
        while (map.slot[h] && !tok_eq(map.slot[h], &a.v[i]))
            h = (h + 1) & (map.cap - 1);
        if (!map.slot[h]) {
            map.slot[h] = &a.v[i];
            map.id[h] = n_ids++;
        }
        truth_id[i] = map.id[h];
    }
    for (size_t i = 0; i < b.n; i++) {
        size_t h = (size_t)tok_hash(&b.v[i]) & (map.cap - 1);
        while (map.slot[h] && !tok_eq(map.slot[h], &b.v[i]))
            h = (h + 1) & (map.cap - 1);
        pred_id[i] = map.slot[h] ? map.id[h] : -1;
    }
    /* Match masks, only for the truth's tokens the output uses. */
    mask = calloc((size_t)n_ids, sizeof *mask);
    V = malloc(words * sizeof *V);
    if (!mask || !V) {
        free(truth_id);
        goto out;
    }
    for (size_t i = 0; i < b.n; i++) {
        int c = pred_id[i];
        if (c >= 0 && !mask[c] && !(mask[c] = calloc(words, sizeof **mask))) {
            free(truth_id);
            goto out;
        }
    }
    for (size_t i = 0; i < m; i++)
        if (mask[truth_id[i]])
            mask[truth_id[i]][i / 64] |= 1ull << (i % 64);
    free(truth_id);
    for (size_t w = 0; w < words; w++)
        V[w] = ~0ull;
    for (size_t i = 0; i < b.n; i++) {
        if (pred_id[i] < 0)
            continue;
        const uint64_t *M = mask[pred_id[i]];
        uint64_t carry = 0, borrow = 0;
        for (size_t w = 0; w < words; w++) {
            uint64_t v = V[w], u = v & M[w];
            uint64_t s = v + u, c1 = s < v, s2 = s + carry, c2 = s2 < s;
            uint64_t d = v - u, b1 = v < u, d2 = d - borrow, b2 = d < borrow;
            carry = c1 | c2;
            borrow = b1 | b2;
            V[w] = s2 | d2;
        }
    }
    result = 0;
    for (size_t i = 0; i < m; i++)
        result += !((V[i / 64] >> (i % 64)) & 1);
out:
    if (mask)
        for (int i = 0; i < n_ids; i++)
            free(mask[i]);
    free(mask);
    free(V);
    free(pred_id);
    free(map.slot);
    free(map.id);
    free(a.v);
    free(b.v);
    return result;
}

static void prf(double p, double r, eval_prf *out)
{
    out->precision = p;
    out->recall = r;
    out->f1 = p + r > 0 ? 2 * p * r / (p + r) : 0;
    out->f05 = p + r > 0 ? 1.25 * p * r / (0.25 * p + r) : 0;
}

int eval_lcs(const char *truth, const char *pred, eval_prf *out)
{
    size_t nt = eval_count_lcs_tokens(truth), np = eval_count_lcs_tokens(pred);
    if (nt == 0 || np == 0) {
        prf(nt == np ? 1 : 0, nt == np ? 1 : 0, out);
        return 0;
    }
    long l = eval_lcs_length(truth, pred);
    if (l < 0)
        return -1;
    prf((double)l / np, (double)l / nt, out);
    return 0;
}

/* Blocks ------------------------------------------------------------------- */

/* White space collapsed to single spaces, trimmed; `n` bytes of `s`. */
static char *collapse(const char *s, size_t n, size_t *len)
{
    char *o = malloc(n + 1);
    if (!o)
        return NULL;
    size_t w = 0;
    int space = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int ws = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
        if (!ws && c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] == 0xA0) { /* U+00A0 */
            ws = 1;
            i++;
        }
        if (ws) {
            space = w > 0;
            continue;
        }
        if (space)
            o[w++] = ' ';
        space = 0;
        o[w++] = (char)c;
    }
    o[w] = '\0';
    *len = w;
    return o;
}

static size_t count_cps(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

int eval_blocks(const char *truth, const char *pred, eval_prf *out)
{
    if (!truth)
        truth = "";
    if (!pred)
        pred = "";
    size_t tlen;
    char *t = collapse(truth, strlen(truth), &tlen);
    if (!t)
        return -1;
    size_t blocks = 0, matched = 0, matched_chars = 0;
    for (const char *line = pred; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        size_t blen;
        char *b = collapse(line, n, &blen);
        if (!b) {
            free(t);
            return -1;
        }
        if (blen > 0) {
            blocks++;
            if (tlen >= blen && memmem(t, tlen, b, blen)) {
                matched++;
                matched_chars += count_cps(b, blen);
            }
        }
        free(b);
        line += n + (nl ? 1 : 0);
    }
    size_t tchars = count_cps(t, tlen);
    free(t);
    if (blocks == 0 || tchars == 0) {
        int both = blocks == 0 && tchars == 0;
        prf(both, both, out);
        return 0;
    }
    double r = (double)matched_chars / tchars;
    prf((double)matched / blocks, r > 1 ? 1 : r, out);
    return 0;
}

/* Snippets ----------------------------------------------------------------- */

/* White space as Python's str.isspace() sees it (what str.split() splits
 * at): what a Python reading of the snippets would collapse. */
static int py_space(uint32_t cp)
{
    return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20) || cp == 0x85 ||
           cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
           cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

/* `s` with every run of py_space collapsed to one ' ', both ends trimmed;
 * the other bytes as they are. NULL when out of memory. */
static char *collapse_py(const char *s, size_t *len)
{
    size_t n = strlen(s);
    char *o = malloc(n + 1);
    if (!o)
        return NULL;
    size_t w = 0;
    int space = 0;
    for (const char *p = s, *end = s + n; p < end;) {
        const char *at = p;
        if (py_space(base_utf8_next(&p, end))) {
            space = w > 0;
            continue;
        }
        if (space)
            o[w++] = ' ';
        space = 0;
        memcpy(o + w, at, (size_t)(p - at));
        w += (size_t)(p - at);
    }
    o[w] = '\0';
    *len = w;
    return o;
}

/* 1 when `snippet` (collapsed) occurs in `text` (collapsed already), 0
 * when not, -1 when out of memory. */
static int snippet_in(const char *text, size_t tlen, const char *snippet)
{
    size_t slen;
    char *c = collapse_py(snippet ? snippet : "", &slen);
    if (!c)
        return -1;
    int found = slen == 0 || (tlen >= slen && memmem(text, tlen, c, slen) != NULL);
    free(c);
    return found;
}

int eval_snippets_page(const char *pred, const char *const *with, size_t n_with,
                       const char *const *without, size_t n_without, eval_snippets *out)
{
    memset(out, 0, sizeof *out);
    size_t tlen;
    char *t = collapse_py(pred ? pred : "", &tlen);
    if (!t)
        return -1;
    for (size_t i = 0; i < n_with + n_without; i++) {
        int found = i < n_with ? snippet_in(t, tlen, with[i])
                               : snippet_in(t, tlen, without[i - n_with]);
        if (found < 0) {
            free(t);
            memset(out, 0, sizeof *out);
            return -1;
        }
        if (i < n_with)
            *(found ? &out->tp : &out->fn) += 1;
        else
            *(found ? &out->fp : &out->tn) += 1;
    }
    free(t);
    return 0;
}

void eval_snippets_add(eval_snippets *total, const eval_snippets *page)
{
    total->tp += page->tp;
    total->fn += page->fn;
    total->fp += page->fp;
    total->tn += page->tn;
}

void eval_snippets_prf(const eval_snippets *s, eval_prf *out)
{
    prf(s->tp + s->fp ? (double)s->tp / (double)(s->tp + s->fp) : 0,
        s->tp + s->fn ? (double)s->tp / (double)(s->tp + s->fn) : 0, out);
}

/* Means -------------------------------------------------------------------- */

static void means_add(eval_shingle_means *m, const eval_shingles *sh)
{
    m->pages++;
    int nothing = sh->fp == 0 && sh->fn == 0;
    if (sh->tp + sh->fp > 0) {
        m->p_sum += sh->tp / (sh->tp + sh->fp);
        m->p_n++;
    } else if (nothing) {
        m->p_sum += 1;
        m->p_n++;
    }
    if (sh->tp + sh->fn > 0) {
        m->r_sum += sh->tp / (sh->tp + sh->fn);
        m->r_n++;
    } else if (nothing) {
        m->r_sum += 1;
        m->r_n++;
    }
    m->equal += sh->tokens_equal != 0;
}

/* Precision and recall means, F1 of the two, and accuracy. */
static void means_scores(const eval_shingle_means *m, double *p, double *r, double *f1,
                         double *accuracy)
{
    *p = m->p_n ? m->p_sum / m->p_n : 0;
    *r = m->r_n ? m->r_sum / m->r_n : 0;
    *f1 = *p + *r > 0 ? 2 * *p * *r / (*p + *r) : 0;
    *accuracy = m->pages ? (double)m->equal / (double)m->pages : 0;
}

void eval_summary_add(eval_summary *s, const eval_shingles *sh, const eval_prf *lcs,
                      const eval_prf *blocks)
{
    s->pages++;
    means_add(&s->shingles, sh);
    s->lcs_p += lcs->precision;
    s->lcs_r += lcs->recall;
    s->lcs_f1 += lcs->f1;
    s->lcs_f05 += lcs->f05;
    s->blk_p += blocks->precision;
    s->blk_r += blocks->recall;
    s->blk_f1 += blocks->f1;
    s->blk_f05 += blocks->f05;
}

void eval_summary_add_scripts(eval_summary *s, const eval_shingles *sh)
{
    means_add(&s->scripts, sh);
}

void eval_summary_add_snippets(eval_summary *s, const eval_snippets *page)
{
    s->snippet_pages++;
    eval_snippets_add(&s->snippets, page);
}

void eval_summary_scores(const eval_summary *s, eval_scores *o)
{
    memset(o, 0, sizeof *o);
    o->pages = s->pages;
    if (s->pages == 0)
        return;
    double n = (double)s->pages;
    means_scores(&s->shingles, &o->precision, &o->recall, &o->f1, &o->accuracy);
    o->scripts_pages = s->scripts.pages;
    means_scores(&s->scripts, &o->scripts_precision, &o->scripts_recall, &o->scripts_f1,
                 &o->scripts_accuracy);
    o->snippet_pages = s->snippet_pages;
    o->snippets = s->snippets;
    eval_snippets_prf(&s->snippets, &o->snippet);
    o->lcs_p = s->lcs_p / n;
    o->lcs_r = s->lcs_r / n;
    o->lcs_f1 = s->lcs_f1 / n;
    o->lcs_f05 = s->lcs_f05 / n;
    o->blk_p = s->blk_p / n;
    o->blk_r = s->blk_r / n;
    o->blk_f1 = s->blk_f1 / n;
    o->blk_f05 = s->blk_f05 / n;
}
