/* tools/: a page's scores, a run's means, per kind and per group
 * (scores.h). */
#define _GNU_SOURCE
#include "tools/scores.h"

#include <stdlib.h>
#include <string.h>

#include "tools/corpus.h"

int scores_page_run(json_object *truth, const char *id, const char *truth_text,
                    const char *pred, scores_page *out)
{
    memset(out, 0, sizeof *out);
    if (!pred)
        pred = "";
    if (eval_shingle_match(truth_text, pred, &out->sh) ||
        eval_shingle_match_scripts(truth_text, pred, &out->scripts) ||
        eval_lcs(truth_text, pred, &out->lcs) || eval_blocks(truth_text, pred, &out->blk))
        return -1;
    const char **with = NULL, **without = NULL;
    size_t n_with = 0, n_without = 0;
    int a = corpus_strings(truth, id, "with", &with, &n_with);
    int b = a < 0 ? -1 : corpus_strings(truth, id, "without", &without, &n_without);
    int rc = a < 0 || b < 0 ? -1 : 0;
    if (rc == 0 && (a || b)) {
        out->has_snippets = 1;
        rc = eval_snippets_page(pred, with, n_with, without, n_without, &out->snip);
    }
    free(with);
    free(without);
    return rc;
}

void scores_summary_add(eval_summary *s, const scores_page *p)
{
    eval_summary_add(s, &p->sh, &p->lcs, &p->blk);
    eval_summary_add_scripts(s, &p->scripts);
    if (p->has_snippets)
        eval_summary_add_snippets(s, &p->snip);
}

/* Tables ------------------------------------------------------------------- */

static int table_add(scores_table *t, const char *name, const scores_page *p)
{
    size_t i = 0;
    while (i < t->n && strcmp(t->rows[i].name, name) != 0)
        i++;
    if (i == t->n) {
        if (t->n == t->cap) {
            size_t cap = t->cap ? t->cap * 2 : 8;
            scores_row *v = realloc(t->rows, cap * sizeof *v);
            if (!v)
                return -1;
            t->rows = v;
            t->cap = cap;
        }
        scores_row *r = &t->rows[t->n];
        memset(r, 0, sizeof *r);
        if (!(r->name = strdup(name)))
            return -1;
        t->n++;
    }
    scores_summary_add(&t->rows[i].sum, p);
    return 0;
}

/* Most pages first, then by name: the order of the tables per kind (docs/bench.md). */
static int row_cmp(const void *a, const void *b)
{
    const scores_row *x = a, *y = b;
    if (x->sum.pages != y->sum.pages)
        return x->sum.pages > y->sum.pages ? -1 : 1;
    return strcmp(x->name, y->name);
}

void scores_run_init(scores_run *r)
{
    memset(r, 0, sizeof *r);
    r->by_type.field = "type";
    r->by_group.field = "group";
}

int scores_run_add(scores_run *r, json_object *truth, const char *id, const scores_page *p)
{
    scores_summary_add(&r->all, p);
    scores_table *tables[] = {&r->by_type, &r->by_group};
    for (size_t i = 0; i < 2; i++) {
        const char *v = corpus_field(truth, id, tables[i]->field);
        if (v && table_add(tables[i], v, p) != 0)
            return -1;
    }
    return 0;
}

static void table_print(FILE *f, scores_table *t, const char *title, int snippets)
{
    if (t->n == 0)
        return;
    qsort(t->rows, t->n, sizeof *t->rows, row_cmp);
    char head[64];
    snprintf(head, sizeof head, "%s (\"%s\")", title, t->field);
    fprintf(f, "%-22s %6s %6s %9s %7s %8s", head, "pages", "F1", "precision", "recall",
            "F1 (scr)");
    if (snippets)
        fprintf(f, " %9s", "snippet F");
    fputc('\n', f);
    for (size_t i = 0; i < t->n; i++) {
        eval_scores s;
        eval_summary_scores(&t->rows[i].sum, &s);
        char name[64];
        snprintf(name, sizeof name, "  %s", t->rows[i].name);
        fprintf(f, "%-22s %6zu %6.3f %9.3f %7.3f %8.3f", name, s.pages, s.f1, s.precision,
                s.recall, s.scripts_f1);
        if (snippets && s.snippet_pages)
            fprintf(f, " %9.3f", s.snippet.f1);
        else if (snippets)
            fprintf(f, " %9s", "-");
        fputc('\n', f);
    }
}

void scores_run_print(FILE *f, scores_run *r)
{
    eval_scores s;
    eval_summary_scores(&r->all, &s);
    scores_print(f, &s);
    table_print(f, &r->by_type, "by kind", s.snippet_pages > 0);
    table_print(f, &r->by_group, "by group", s.snippet_pages > 0);
}

static json_object *table_json(scores_table *t)
{
    qsort(t->rows, t->n, sizeof *t->rows, row_cmp);
    json_object *o = json_object_new_object();
    for (size_t i = 0; i < t->n; i++) {
        eval_scores s;
        eval_summary_scores(&t->rows[i].sum, &s);
        json_object_object_add(o, t->rows[i].name, scores_json(&s));
    }
    return o;
}

json_object *scores_run_json(scores_run *r)
{
    eval_scores s;
    eval_summary_scores(&r->all, &s);
    json_object *o = scores_json(&s);
    if (r->by_type.n)
        json_object_object_add(o, "by_type", table_json(&r->by_type));
    if (r->by_group.n)
        json_object_object_add(o, "by_group", table_json(&r->by_group));
    return o;
}

void scores_run_free(scores_run *r)
{
    scores_table *tables[] = {&r->by_type, &r->by_group};
    for (size_t i = 0; i < 2; i++) {
        for (size_t j = 0; j < tables[i]->n; j++)
            free(tables[i]->rows[j].name);
        free(tables[i]->rows);
    }
    scores_run_init(r);
}

/* One summary -------------------------------------------------------------- */

void scores_print(FILE *f, const eval_scores *s)
{
    fprintf(f, "%-22s %6s %9s %7s %8s\n", "", "F1", "precision", "recall", "accuracy");
    fprintf(f, "%-22s %6.3f %9.3f %7.3f %8.3f\n", "  shingles (benchmark)", s->f1, s->precision,
            s->recall, s->accuracy);
    fprintf(f, "%-22s %6.3f %9.3f %7.3f %8.3f\n", "  shingles (scripts)", s->scripts_f1,
            s->scripts_precision, s->scripts_recall, s->scripts_accuracy);
    fprintf(f, "%-22s %6s %6s %9s %7s\n", "", "F1", "F0.5", "precision", "recall");
    fprintf(f, "%-22s %6.3f %6.3f %9.3f %7.3f\n", "  token LCS (GCE paper)", s->lcs_f1, s->lcs_f05,
            s->lcs_p, s->lcs_r);
    fprintf(f, "%-22s %6.3f %6.3f %9.3f %7.3f\n", "  text blocks (GCE)", s->blk_f1, s->blk_f05,
            s->blk_p, s->blk_r);
    if (!s->snippet_pages)
        return;
    const eval_snippets *n = &s->snippets;
    fprintf(f, "%-22s %6s %9s %7s\n", "", "F", "precision", "recall");
    fprintf(f, "%-22s %6.3f %9.3f %7.3f   with: %zu of %zu found; without: %zu of %zu found\n",
            "  snippets", s->snippet.f1, s->snippet.precision, s->snippet.recall, n->tp,
            n->tp + n->fn, n->fp, n->fp + n->tn);
}

json_object *scores_json(const eval_scores *s)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "pages", json_object_new_int64((int64_t)s->pages));
    json_object_object_add(o, "f1", json_object_new_double(s->f1));
    json_object_object_add(o, "precision", json_object_new_double(s->precision));
    json_object_object_add(o, "recall", json_object_new_double(s->recall));
    json_object_object_add(o, "accuracy", json_object_new_double(s->accuracy));
    json_object_object_add(o, "scripts_f1", json_object_new_double(s->scripts_f1));
    json_object_object_add(o, "scripts_precision", json_object_new_double(s->scripts_precision));
    json_object_object_add(o, "scripts_recall", json_object_new_double(s->scripts_recall));
    json_object_object_add(o, "scripts_accuracy", json_object_new_double(s->scripts_accuracy));
    json_object_object_add(o, "lcs_f1", json_object_new_double(s->lcs_f1));
    json_object_object_add(o, "lcs_f05", json_object_new_double(s->lcs_f05));
    json_object_object_add(o, "lcs_precision", json_object_new_double(s->lcs_p));
    json_object_object_add(o, "lcs_recall", json_object_new_double(s->lcs_r));
    json_object_object_add(o, "blocks_f1", json_object_new_double(s->blk_f1));
    json_object_object_add(o, "blocks_f05", json_object_new_double(s->blk_f05));
    json_object_object_add(o, "blocks_precision", json_object_new_double(s->blk_p));
    json_object_object_add(o, "blocks_recall", json_object_new_double(s->blk_r));
    if (s->snippet_pages) {
        json_object *sn = json_object_new_object();
        json_object_object_add(sn, "pages", json_object_new_int64((int64_t)s->snippet_pages));
        json_object_object_add(sn, "f1", json_object_new_double(s->snippet.f1));
        json_object_object_add(sn, "precision", json_object_new_double(s->snippet.precision));
        json_object_object_add(sn, "recall", json_object_new_double(s->snippet.recall));
        json_object_object_add(sn, "tp", json_object_new_int64((int64_t)s->snippets.tp));
        json_object_object_add(sn, "fn", json_object_new_int64((int64_t)s->snippets.fn));
        json_object_object_add(sn, "fp", json_object_new_int64((int64_t)s->snippets.fp));
        json_object_object_add(sn, "tn", json_object_new_int64((int64_t)s->snippets.tn));
        json_object_object_add(o, "snippets", sn);
    }
    return o;
}
