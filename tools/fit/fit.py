#!/usr/bin/python3
"""Fits glance's default scorer (methods/score.c) on the development corpora
and writes its model as a C table (methods/score_model.c).

    tools/fit/dump.sh                       # the blocks and their features
    tools/fit/fit.py --dump build/fit --out methods/score_model.c

Offline tooling: Debian's python3-xgboost, python3-sklearn, python3-numpy
(tools/fit/install.sh). glance never runs Python.

Each block of each page comes with its text and its features (glance dump
--method score --set score.features=on). A block is labelled main content
when its text is in the page's true text: most of its token trigrams are
(tokens: runs of word characters, and each character of the scripts
written without spaces), or, for a block of one or two tokens, all of it in
a row. The model is a forest of gradient-boosted trees over the features,
each block weighted by the square root of its characters (the measure
weighs text, not blocks). It is judged the way glance bench judges an
answer: the blocks scored at or over the threshold, in the page's order,
against the true text, with the benchmark's shingle F1; the threshold is
the one that does best in cross-validation. Folds are by site, so that no
site is both fitted on and judged.
"""
import argparse
import collections
import gzip
import json
import math
import os
import re
import sys
import unicodedata

import numpy as np
import xgboost as xgb
from sklearn.model_selection import GroupKFold

from values import inner_values  # tools/fit/values.py

CORPORA = ("scrapinghub", "modern-dev", "lang-dev", "styled")
WORD = re.compile(r"\w+")
# Scripts whose characters are tokens of their own for the labels: the
# ones written without spaces between words.
UNSPACED = ("CJK", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR", "HANGUL")


def unspaced(ch):
    name = unicodedata.name(ch, "")
    return any(name.startswith(s) for s in UNSPACED)


def tokens(text):
    out = []
    for m in WORD.finditer(text or ""):
        run, start = m.group(0), 0
        for i, ch in enumerate(run):
            if ord(ch) > 0x2E7F and unspaced(ch):
                if i > start:
                    out.append(run[start:i])
                out.append(ch)
                start = i + 1
        if start < len(run):
            out.append(run[start:])
    return out


def trigrams(toks):
    return set(zip(toks, toks[1:], toks[2:]))


def label_blocks(blocks, truth):
    tt = tokens(truth)
    tri = trigrams(tt)
    joined = " " + " ".join(tt) + " "
    labels = []
    for b in blocks:
        bt = tokens(b["text"])
        if not bt:
            labels.append(0)
        elif len(bt) < 3:
            labels.append(int((" " + " ".join(bt) + " ") in joined))
        else:
            g = list(zip(bt, bt[1:], bt[2:]))
            labels.append(int(sum(x in tri for x in g) >= 0.5 * len(g)))
    return labels


# The benchmark's measure (../shared/README.md): shingles of \w+ tokens.
def shingles(text):
    t = WORD.findall(text or "")
    if len(t) < 4:
        return collections.Counter([tuple(t)]) if t else collections.Counter()
    return collections.Counter(zip(t, t[1:], t[2:], t[3:]))


def page_prf(truth, pred):
    a, b = shingles(truth), shingles(pred)
    tp = sum((a & b).values())
    fp = sum((b - a).values())
    fn = sum((a - b).values())
    return tp, fp, fn


def f1_of(pages):
    ps, rs = [], []
    for tp, fp, fn in pages:
        if tp + fp > 0:
            ps.append(tp / (tp + fp))
        elif fn == 0:
            ps.append(1.0)
        if tp + fn > 0:
            rs.append(tp / (tp + fn))
        elif fp == 0:
            rs.append(1.0)
    p = sum(ps) / len(ps) if ps else 0
    r = sum(rs) / len(rs) if rs else 0
    return (2 * p * r / (p + r) if p + r else 0), p, r


def site(corpus, pid, t):
    if corpus == "styled":
        return "D:" + (t.get("package") or pid.split("/")[0])
    if corpus == "lang-dev":
        return "L:" + (t.get("domain") or pid)
    if corpus == "modern-dev":
        m = re.match(r"https?://([^/]+)", t.get("url", ""))
        return "M:" + (m.group(1) if m else pid)
    return "S:" + pid


def truth_path(shared, corpus):
    """The truth of a corpus: ../shared/bench/CORPUS/ground-truth.json, or for
    a corpus of our own (the styled documentation, tools/styled/) the file
    GLANCE_TRUTH_<NAME> names."""
    own = os.environ.get("GLANCE_TRUTH_" + corpus.upper().replace("-", "_"))
    return own or os.path.join(shared, corpus, "ground-truth.json")


def load(dump_dir, shared):
    pages = []
    names = None
    for corpus in CORPORA:
        path = os.path.join(dump_dir, corpus + ".jsonl")
        if not os.path.exists(path):
            continue
        truth = json.load(open(truth_path(shared, corpus)))
        with open(path) as f:
            for line in f:
                d = json.loads(line)
                t = truth.get(d["id"])
                if t is None or "result" not in d:
                    continue
                s = d["result"].get("score") or {}
                blocks = s.get("block_list") or []
                if names is None and s.get("feature_names"):
                    names = s["feature_names"]
                body = t.get("articleBody") or ""
                pages.append({
                    "corpus": corpus, "id": d["id"], "truth": body,
                    "kind": t.get("type") or t.get("group") or "",
                    "site": site(corpus, d["id"], t),
                    "texts": [b["text"] for b in blocks],
                    "X": np.array([b["f"] for b in blocks], dtype=np.float32).reshape(-1, len(names or [0])),
                    "cont": [b.get("container", i) for i, b in enumerate(blocks)],
                    "path": [b.get("path") or [] for b in blocks],
                    "y": np.array(label_blocks(blocks, body), dtype=np.int32),
                })
    return pages, names


def stack(pages, key):
    X = np.concatenate([p[key] for p in pages if len(p["texts"])])
    y = np.concatenate([p["y"] for p in pages if len(p["texts"])])
    w = np.concatenate([WEIGHT(np.maximum(1, np.expm1(p["X"][:, 0]))) for p in pages if len(p["texts"])])
    return X, y, w


WEIGHT = np.sqrt


N_CONTEXT = 16  # methods/score.c: context_names


def context(page, p1):
    """Stage two's context of each block from stage one's probabilities,
    exactly as methods/score.c's context() computes it."""
    n = len(p1)
    p1 = np.asarray(p1, dtype=np.float32)
    chars = np.maximum(0, np.rint(np.expm1(page["X"][:, 0].astype(np.float64))))
    cont = page["cont"]
    x = np.zeros((n, N_CONTEXT), dtype=np.float32)
    if n == 0:
        return x
    pc = p1.astype(np.float64) * chars
    page_sum, total = pc.sum(), chars.sum()
    x[:, 0] = p1
    x[1:, 1] = p1[:-1]
    x[:-1, 2] = p1[1:]
    for k, r in enumerate((3, 10)):
        for i in range(n):
            lo, hi = max(0, i - r), min(n, i + r + 1)
            w = chars[lo:hi].sum()
            x[i, 3 + k] = pc[lo:hi].sum() / w if w > 0 else 0
    x[:, 5] = page_sum / total if total > 0 else 0
    x[:, 6] = p1.max()
    order = np.argsort(p1, kind="stable")
    below = 0
    ranks = np.zeros(n, dtype=np.float32)
    for r in range(n):
        if r > 0 and p1[order[r]] > p1[order[r - 1]]:
            below = r
        ranks[order[r]] = below / (n - 1) if n > 1 else 0
    x[:, 7] = ranks
    cum = np.cumsum(pc)
    x[:, 8] = cum / page_sum if page_sum > 0 else 0
    x[:, 9] = (p1 >= 0.5).sum() / n
    sums, weights = collections.defaultdict(float), collections.defaultdict(float)
    for i in range(n):
        sums[cont[i]] += pc[i]
        weights[cont[i]] += chars[i]
    x[:, 10] = [sums[c] / weights[c] if weights[c] > 0 else 0 for c in cont]
    # Per element of each block's path (container, its parent, ...): the
    # probability and characters under it, and the gain (p1 - 0.5) x chars.
    paths = page["path"]
    es, ew, eg = collections.defaultdict(float), collections.defaultdict(float), collections.defaultdict(float)
    for i in range(n):
        for a in paths[i]:
            es[a] += pc[i]
            ew[a] += chars[i]
            eg[a] += (float(p1[i]) - 0.5) * chars[i]
    root, best = None, 0.0
    for i in range(n):  # the first element reaching the best gain, in block order
        for a in paths[i]:
            if eg[a] > best:
                best, root = eg[a], a
    for i in range(n):
        path = paths[i]
        if path:  # the blocks under its container, nested ones too
            x[i, 10] = es[path[0]] / ew[path[0]] if ew[path[0]] > 0 else 0
        for l in range(3):
            a = path[l + 1] if len(path) > l + 1 else None
            x[i, 11 + l] = es[a] / ew[a] if a is not None and ew[a] > 0 else x[i, 5]
        if root is not None and root in path:
            x[i, 14] = 1
            x[i, 15] = path.index(root) / 10.0
        else:
            x[i, 14] = 0
            x[i, 15] = -1
    return x


PARAMS = dict(n_estimators=300, max_depth=6, learning_rate=0.08, subsample=0.8,
              colsample_bytree=0.8, min_child_weight=2.0, reg_lambda=1.0,
              objective="binary:logistic", base_score=0.5, tree_method="hist",
              n_jobs=2, random_state=1)


# Forests a stage (--seeds): fitted alike but for the seed of their samples
# (subsample, colsample_bytree), averaged on the logit scale, and written as
# one forest whose leaves are divided by their number (forest()), so glance
# runs them as it runs one. One is shipped: three gained nothing measurable
# in tools/fit/cv.sh at three times the trees (tools/fit/README.md).
SEEDS = 1


def fit(pages, key="X1"):
    X, y, w = stack(pages, key)
    models = []
    for s in range(SEEDS):
        m = xgb.XGBClassifier(**dict(PARAMS, random_state=PARAMS["random_state"] + s))
        m.fit(X, y, sample_weight=w)
        models.append(m)
    return models


def predict(models, page, key):
    if not len(page["texts"]):
        return np.zeros(0)
    # One model: XGBoost's own float32 logistic, so that stage two reads the
    # probabilities it was always fitted on (a float64 one moves its splits
    # in the last bits, and the model shipped would no longer be rewritten
    # byte for byte).
    if len(models) == 1:
        return models[0].predict_proba(page[key])[:, 1]
    z = np.mean([m.predict(page[key], output_margin=True) for m in models], axis=0)
    return 1 / (1 + np.exp(-z.astype(np.float64)))


def answer(page, probs, threshold):
    return "\n".join(t for t, p in zip(page["texts"], probs) if p >= threshold)


def report(pages, probs, threshold, out=sys.stdout):
    by = collections.defaultdict(list)
    for p, pr in zip(pages, probs):
        r = page_prf(p["truth"], answer(p, pr, threshold))
        by[p["corpus"]].append(r)
        by[p["corpus"] + "/" + p["kind"]].append(r)
    for k in sorted(by):
        f, pp, rr = f1_of(by[k])
        print(f"  {k:32s} {len(by[k]):4d}  F1 {f:.3f}  P {pp:.3f}  R {rr:.3f}", file=out)
    return {k: f1_of(v)[0] for k, v in by.items()}


def fold_of(pages, folds):
    """Each page's fold: GroupKFold's by site over the pages judged (those
    not marked "extra"); a page of another engine's dump (--also) takes its
    site's fold, so that no site is both fitted on and judged, and the
    folds of the pages judged are those of a fit without --also."""
    judged = [i for i, p in enumerate(pages) if not p.get("extra")]
    of, by_site = [None] * len(pages), {}
    groups = [pages[i]["site"] for i in judged]
    for k, (_, te) in enumerate(GroupKFold(n_splits=folds).split(judged, groups=groups)):
        for j in te:
            of[judged[j]] = k
            by_site[pages[judged[j]]["site"]] = k
    for i, p in enumerate(pages):
        if of[i] is None:
            of[i] = by_site.get(p["site"], sum(map(ord, p["site"])) % folds)
    return of


def cross_validate(pages, folds, key, only_extra=False):
    of = fold_of(pages, folds)
    probs = [None] * len(pages)
    for k in range(folds):
        m = fit([p for p, f in zip(pages, of) if f != k and (p.get("extra") or not only_extra)], key)
        for i, f in enumerate(of):
            if f == k:
                probs[i] = predict(m, pages[i], key)
        print(f"{key}: fold {k + 1} of {folds} fitted", file=sys.stderr)
    return probs


def fold_models(pages, folds, names, n1, threshold, out_dir):
    """The cross-validation of glance itself (tools/fit/cv.sh): for each fold,
    the model fitted as the shipped one is (two stages, stage two on stage
    one's out-of-fold scores, folds by site) on the other folds' pages only,
    as a C table (foldK.c), and the pages it is judged on (foldK.ids: corpus
    and id, a line each). The folds are cross_validate's."""
    os.makedirs(out_dir, exist_ok=True)
    of = fold_of(pages, folds)
    for k in range(folds):
        train = [p for p, f in zip(pages, of) if f != k]
        te = [i for i, f in enumerate(of) if f == k and not pages[i].get("extra")]
        inner = cross_validate(train, folds - 1, "X1")
        for p, pr in zip(train, inner):
            p["X2f"] = (np.hstack([p["X1"], context(p, pr)]) if len(p["texts"])
                        else np.zeros((0, len(names)), np.float32))
        note = (f"fold {k + 1} of {folds}: fitted without the {len(te)} pages it is judged on; "
                f"threshold {threshold:.2f}")
        write_c(fit(train, "X1"), fit(train, "X2f"), names, n1, threshold,
                os.path.join(out_dir, f"fold{k + 1}.c"), note)
        with open(os.path.join(out_dir, f"fold{k + 1}.ids"), "w") as f:
            for i in te:
                f.write(f"{pages[i]['corpus']}\t{pages[i]['id']}\n")
        print(f"wrote fold {k + 1} of {folds} to {out_dir}", file=sys.stderr)


def best_threshold(pages, probs):
    best = (0, 0.5)
    for t in np.arange(0.2, 0.81, 0.05):
        mean = np.mean([f1_of([page_prf(p["truth"], answer(p, pr, t)) for p, pr in zip(pages, probs)
                                if p["corpus"] == c])[0] for c in CORPORA
                        if any(p["corpus"] == c for p in pages)])
        if mean > best[0]:
            best = (mean, float(t))
    return best[1]


def forest(models):
    """Fitted models' trees as one forest (nodes, roots): the thresholds as
    the float32 XGBoost compares, each leaf divided by the number of models
    (their logits averaged, as predict() does), each inner node's value the
    mean of its children's weighted by their cover (XGBoost's sum_hessian),
    as XGBoost's approximate contributions take it: glance's --explain
    (methods/score.c) walks each tree from its root and gives each split's
    change of value to its feature. The inner values change no prediction."""
    trees = []
    for model in models:
        raw = json.loads(model.get_booster().save_raw("json"))
        trees += raw["learner"]["gradient_booster"]["model"]["trees"]
    nodes, roots, cover = [], [], []
    for t in trees:
        off = len(nodes)
        roots.append(off)
        left, right = t["left_children"], t["right_children"]
        feat, cond = t["split_indices"], t["split_conditions"]
        cover += t["sum_hessian"]
        for i in range(len(left)):
            if left[i] == -1:
                nodes.append((-1, 0.0, 0, 0, cond[i] / len(models)))
            else:
                nodes.append((feat[i], cond[i], off + left[i], off + right[i], 0.0))
    return inner_values(nodes, roots, cover), roots


def write_forest(f, tag, nodes, roots):
    f.write(f"static const score_node {tag}_nodes[] = {{\n")
    for feat, thr, left, right, value in nodes:
        f.write(f"    {{{feat}, {float(np.float32(thr))!r}f, {left}, {right}, {float(np.float32(value))!r}f}},\n")
    f.write(f"}};\n\nstatic const int32_t {tag}_roots[] = {{\n")
    for i in range(0, len(roots), 12):
        f.write("    " + ", ".join(str(r) for r in roots[i:i + 12]) + ",\n")
    f.write("};\n\n")


def write_c(m1, m2, names, n1, threshold, path, note):
    n1_nodes, n1_roots = forest(m1)
    n2_nodes, n2_roots = forest(m2)
    # The answer's cut is at 0.5 (score.threshold): the fitted threshold is
    # moved into stage two's base on the logit scale.
    base = -math.log(threshold / (1 - threshold))
    with open(path, "w") as f:
        f.write("/* methods/: the default scorer's model. Written by tools/fit/fit.py: do not\n"
                " * edit by hand; fit again (tools/fit/README.md). */\n"
                '#include "methods/score_model.h"\n\n')
        f.write("static const char *const features[] = {\n")
        for n in names:
            f.write(f'    "{n}",\n')
        f.write("};\n\n")
        write_forest(f, "s1", n1_nodes, n1_roots)
        write_forest(f, "s2", n2_nodes, n2_roots)
        f.write(f"const score_model score_model_default = {{\n"
                f"    features, {n1}, s1_nodes, s1_roots, {len(n1_roots)}, 0.0f, 0.5f,\n"
                f'    "{note}"}};\n\n')
        f.write(f"const score_model score_model_stage2 = {{\n"
                f"    features, {len(names)}, s2_nodes, s2_roots, {len(n2_roots)}, {base!r}f, 0.5f,\n"
                f'    "{note}"}};\n')


def main():
    global WEIGHT, SEEDS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dump", required=True, help="folder of CORPUS.jsonl from glance dump")
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "../../../shared/bench"))
    ap.add_argument("--out", help="the C file to write (methods/score_model.c)")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--save", help="write the cross-validated probabilities (pickle) for study")
    ap.add_argument("--fold-models", metavar="DIR",
                    help="write each fold's model and pages, for tools/fit/cv.sh")
    ap.add_argument("--weight", choices=("sqrt", "linear", "log"), default="sqrt",
                    help="a block's weight by its characters")
    ap.add_argument("--trees", type=int, default=PARAMS["n_estimators"])
    ap.add_argument("--depth", type=int, default=PARAMS["max_depth"])
    ap.add_argument("--rate", type=float, default=PARAMS["learning_rate"])
    ap.add_argument("--min-child", type=float, default=PARAMS["min_child_weight"])
    ap.add_argument("--l2", type=float, default=PARAMS["reg_lambda"])
    ap.add_argument("--seeds", type=int, default=SEEDS, help="forests averaged, each of --trees")
    ap.add_argument("--also", metavar="DIR",
                    help="another engine's dump of the same corpora (glance dump --engine ...): "
                         "its pages are fitted on too, in their sites' folds, but not judged")
    ap.add_argument("--fit-on-also", action="store_true",
                    help="fit on --also's pages only, and judge --dump's: how the other engine's "
                         "model does on this engine's blocks, cross-validated (not with --out "
                         "or --fold-models)")
    a = ap.parse_args()
    if a.fit_on_also and not a.also:
        sys.exit("fit.py: --fit-on-also fits on --also's pages: name them with --also DIR")
    if a.fit_on_also and (a.out or a.fold_models):
        sys.exit("fit.py: --fit-on-also only judges (the cross-validation fits on --also's pages); "
                 "--out and --fold-models would fit on both dumps' pages: leave them out")
    SEEDS = max(1, a.seeds)
    WEIGHT = {"sqrt": np.sqrt, "linear": lambda c: c, "log": np.log1p}[a.weight]
    PARAMS.update(n_estimators=a.trees, max_depth=a.depth, learning_rate=a.rate,
                  min_child_weight=a.min_child, reg_lambda=a.l2)
    pages, names = load(a.dump, a.shared)
    if not pages or not names:
        sys.exit("fit.py: no pages with features in " + a.dump)
    if a.also:
        extra, names2 = load(a.also, a.shared)
        if names2 != names:
            sys.exit("fit.py: --also's dump has other features than --dump's")
        for p in extra:
            p["extra"] = True
        pages += extra
    n1 = len(names) - N_CONTEXT
    for p in pages:
        p["X1"] = p["X"][:, :n1]
    n_blocks = sum(len(p["texts"]) for p in pages)
    print(f"{len(pages)} pages, {n_blocks} blocks, {n1} + {N_CONTEXT} features, "
          f"{sum(int(p['y'].sum()) for p in pages)} blocks labelled content")
    # Stage one out of fold: what stage two is fitted on (stacking).
    oof = cross_validate(pages, a.folds, "X1", a.fit_on_also)
    for p, pr in zip(pages, oof):
        p["X2"] = np.hstack([p["X1"], context(p, pr)]) if len(p["texts"]) else np.zeros((0, len(names)), np.float32)
    probs = cross_validate(pages, a.folds, "X2", a.fit_on_also)
    # Judged: the pages of --dump (those of --also are only fitted on).
    judged = [i for i, p in enumerate(pages) if not p.get("extra")]
    jp = [pages[i] for i in judged]
    threshold = best_threshold(jp, [probs[i] for i in judged])
    print(f"stage one, cross-validated ({a.folds} folds by site), threshold 0.5:")
    report(jp, [oof[i] for i in judged], 0.5)
    print(f"stage two, cross-validated, threshold {threshold:.2f}:")
    report(jp, [probs[i] for i in judged], threshold)
    if a.save:
        import pickle
        with open(a.save, "wb") as f:
            pickle.dump({"ids": [(p["corpus"], p["id"]) for p in jp], "oof": [oof[i] for i in judged],
                         "probs": [probs[i] for i in judged],
                         "threshold": threshold}, f)
    if a.fold_models:
        fold_models(pages, a.folds, names, n1, threshold, a.fold_models)
    if a.out:
        m1 = fit(pages, "X1")
        m2 = fit(pages, "X2")
        trees = (f"{SEEDS} x " if SEEDS > 1 else "") + str(PARAMS["n_estimators"])
        note = (f"gradient-boosted trees ({trees} of depth {PARAMS['max_depth']}, "
                f"two stages) on {len(jp)} pages of {', '.join(CORPORA)}"
                + (f", and {len(pages) - len(jp)} of the same laid out by the other engine" if a.also else "")
                + f"; threshold {threshold:.2f}")
        write_c(m1, m2, names, n1, threshold, a.out, note)
        print("wrote", a.out)


if __name__ == "__main__":
    main()
