/* methods/: the default scorer's model. Written by tools/fit/fit.py; this
 * one is empty (no tree: every block scores 0.5) until the first fit. */
#include "methods/score_model.h"

static const char *const features[] = {NULL};
static const score_node nodes[] = {{-1, 0, 0, 0, 0}};
static const int32_t roots[] = {0};

const score_model score_model_default = {features, 0, nodes, roots, 0, 0.0f, 0.5f,
                                         "not fitted"};
