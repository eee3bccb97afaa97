/* methods/: the default scorer's model, a forest of regression trees fitted
 * offline (tools/fit/fit.py writes score_model.c); nothing fits at run time. */
#ifndef GLANCE_METHODS_SCORE_MODEL_H
#define GLANCE_METHODS_SCORE_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* One node: an inner node sends a block left when its feature is below the
 * threshold (or missing), right otherwise; a leaf (feature -1) adds its
 * value to the block's score. */
typedef struct score_node {
    int16_t feature;
    float threshold;
    int32_t left, right; /* indices into the forest's nodes */
    float value;
} score_node;

typedef struct score_model {
    const char *const *features; /* the names the model was fitted on, in order */
    size_t n_features;
    const score_node *nodes;
    const int32_t *roots;        /* each tree's first node */
    size_t n_trees;
    float base;                  /* added to the sum of the leaves: a logit */
    float threshold;             /* a block is content at this probability */
    const char *fitted;          /* how and on what it was fitted, one line */
} score_model;

/* Stage one reads the blocks' own features and the votes; stage two those
 * and stage one's context (methods/score.c); a stage two of no trees is
 * skipped. */
extern const score_model score_model_default, score_model_stage2;

/* The probability of each of n blocks by model m: block k's features are
 * f[k * stride ...]. The leaves each block reaches, summed in the order of
 * the trees, plus the base, through the logistic function. 0, or -1 when
 * out of memory. */
int score_model_run(const score_model *m, const float *f, size_t n, size_t stride, float *out);

/* The page's own cut of n blocks of probabilities p (as score_model_run gives
 * them, on score.threshold's scale: `base` is the stage's base, taken off
 * to read them as fitted) and chars[] characters. An answer of the k most
 * probable blocks is expected to score an F1 of about 2 S / (C + P): S the
 * content characters the probabilities (raised to `power`: above 1, sure
 * blocks weigh more) expect among them, C their characters, P the content
 * characters expected of the whole page. Of the k, the one that maximises
 * it: a page whose blocks are all likely keeps more of its doubtful ones,
 * where one threshold treats every page alike. Returns the probability of
 * the k-th block (the blocks at or over it are the answer), or -1 when out
 * of memory. */
double score_page_cut(const float *p, const long *chars, size_t n, double base, double power);

/* The features the code computes (methods/score.c), in the order the model
 * reads them: a model fitted on others is refused. */
size_t score_feature_count(void);
const char *score_feature_name(size_t i); /* NULL past the end */

#endif
