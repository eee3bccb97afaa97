/* eval/: how close an extracted text is to the true main content.
 *
 * Two families of measures, each per page; the caller averages them.
 *
 * - The public article-extraction benchmark's (../shared/README.md): tokens
 *   are the \w+ runs of a text as Python's re sees them (letters, digits,
 *   marks excluded, and '_'), shingles the 4-grams of tokens (a text of fewer
 *   than four tokens is one shingle, a text of none has none), compared as
 *   multisets: tp, fp, fn, each divided by tp + fp + fn.
 * - The GCE paper's (section IV): the longest common subsequence of tokens
 *   (here scripts written without spaces, such as Han, Kana and Thai, count
 *   one token per character, so a Japanese sentence is not one "word"), and
 *   matched text blocks (an output line found in the true text).
 *
 * Pure functions of their inputs; no state, safe on any thread.
 */
#ifndef GLANCE_EVAL_H
#define GLANCE_EVAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The benchmark's shingle counts of one page, as fractions of tp+fp+fn
 * (all 0 when both texts have no shingle). */
typedef struct eval_shingles {
    double tp, fp, fn;
    int tokens_equal; /* 1 when the two token lists are identical (accuracy) */
} eval_shingles;

/* 0, or -1 when out of memory. NULL texts count as empty. */
int eval_shingle_match(const char *truth, const char *pred, eval_shingles *out);

/* Precision, recall and F-scores of one page. When the output is empty:
 * all 0 unless the truth is empty too (then all 1); an empty truth with
 * a non-empty output: all 0. */
typedef struct eval_prf {
    double precision, recall, f1, f05;
} eval_prf;

/* Token LCS: precision = LCS / output tokens, recall = LCS / true tokens.
 * 0, or -1 when out of memory. */
int eval_lcs(const char *truth, const char *pred, eval_prf *out);
/* The LCS length itself, for tests. -1 when out of memory. */
long eval_lcs_length(const char *truth, const char *pred);

/* Matched text blocks: the output's blocks are its non-blank lines, white
 * space collapsed; a block matches when it occurs in the true text (white
 * space collapsed too). Precision = matched blocks / blocks; recall =
 * characters of matched blocks / characters of the true text (at most 1).
 * 0, or -1 when out of memory. */
int eval_blocks(const char *truth, const char *pred, eval_prf *out);

/* Number of \w+ tokens (the benchmark's) and of LCS tokens of a text. */
size_t eval_count_tokens(const char *text);
size_t eval_count_lcs_tokens(const char *text);

/* Running means over pages, as the benchmark takes them: precision over
 * pages with tp + fp > 0 (or with nothing on either side, counted as 1),
 * recall likewise with tp + fn, F1 from the two means. */
typedef struct eval_summary {
    size_t pages;
    double p_sum, r_sum;
    size_t p_n, r_n;
    size_t equal;
    double lcs_p, lcs_r, lcs_f1, lcs_f05;     /* sums */
    double blk_p, blk_r, blk_f1, blk_f05;     /* sums */
} eval_summary;

void eval_summary_add(eval_summary *s, const eval_shingles *sh, const eval_prf *lcs,
                      const eval_prf *blocks);

typedef struct eval_scores {
    size_t pages;
    double precision, recall, f1, accuracy;           /* the benchmark's */
    double lcs_p, lcs_r, lcs_f1, lcs_f05;             /* GCE paper, means */
    double blk_p, blk_r, blk_f1, blk_f05;
} eval_scores;

void eval_summary_scores(const eval_summary *s, eval_scores *out);

#ifdef __cplusplus
}
#endif

#endif
