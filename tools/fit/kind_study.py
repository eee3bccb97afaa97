#!/usr/bin/python3
"""A study of a page-kind classifier on layout and structure only (issue 46);
not used by glance.

    tools/fit/fit.py --dump DIR --save cv.pkl
    tools/fit/kind_study.py DIR cv.pkl

Page-level aggregates of the blocks' features (no words of any language:
sizes, tags, link and punctuation shares, repetition, the stage-two
probabilities), XGBoost, 5 folds by site on modern-dev (the corpus whose
truth names each page's kind); prints the accuracy and the confusion matrix."""
import os, sys, collections, pickle, numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit as F
import xgboost as xgb
from sklearn.model_selection import GroupKFold

KINDS = ["article", "collection", "documentation", "forum", "listing", "product", "service"]
PARAMS = dict(n_estimators=200, max_depth=4, learning_rate=0.08, subsample=0.8,
              colsample_bytree=0.8, n_jobs=2, random_state=1)


def page_features(p, q, ix):
    """A page's aggregates of its blocks' features, weighted by characters,
    and of the stage-two probabilities q: no words of any language."""
    X = p["X"]; c = np.maximum(1, np.expm1(X[:, ix["chars"]])); C = c.sum()
    w = lambda col: float((X[:, ix[col]] * c).sum() / C)
    q = np.asarray(q)
    return [X[0, ix["page_chars"]], X[0, ix["page_blocks"]], X[0, ix["doc_h"]],
            w("link_share"), w("punct_share"), w("stops"), w("digit_share"), w("tag_p"), w("tag_li"),
            w("tag_cell"), w("tag_h"), w("tag_pre"), w("tag_dl"), w("in_article"), w("in_main"), w("in_nav"),
            w("in_aside"), w("in_footer"), w("in_form"), w("in_table"), w("in_list"), w("in_button"),
            w("rep_share"), float(X[:, ix["rep_share"]].max()), w("rep_count"), w("rep_links"), w("line_fill"),
            w("font"), float(X[0, ix["head_none"]]), float((q * c).sum() / C), float((c * (q >= 0.5)).sum() / C),
            float((q >= 0.5).sum()), float(np.median(X[:, ix["w"]])), w("lines")]


if __name__ == "__main__":
    pages, names = F.load(sys.argv[1], os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/bench"))
    cv = pickle.load(open(sys.argv[2], "rb"))
    pr = {k: p for k, p in zip(cv["ids"], cv["probs"])}
    ix = {n: i for i, n in enumerate(names)}
    pages = [p for p in pages if p["corpus"] == "modern-dev" and p["kind"] in KINDS and len(p["texts"])]
    kinds = KINDS; K = {k: i for i, k in enumerate(kinds)}
    X = np.array([page_features(p, pr[(p["corpus"], p["id"])], ix) for p in pages], np.float32)
    y = np.array([K[p["kind"]] for p in pages])
    g = [p["site"] for p in pages]
    pred = np.zeros(len(y), int)
    for tr, te in GroupKFold(5).split(X, y, g):
        m = xgb.XGBClassifier(**PARAMS)
        m.fit(X[tr], y[tr]); pred[te] = m.predict(X[te])
    print("accuracy %.3f on %d pages (majority class %.3f)" % ((pred == y).mean(), len(y), np.bincount(y).max() / len(y)))
    print("truth \\ predicted".ljust(16) + "".join(k[:7].rjust(8) for k in kinds) + "  recall")
    for i, k in enumerate(kinds):
        row = [int(((y == i) & (pred == j)).sum()) for j in range(len(kinds))]
        print(k.ljust(16) + "".join(str(v).rjust(8) for v in row) + "  %.2f" % (row[i] / max(1, sum(row))))
    print("precision".ljust(16) + "".join(("%.2f" % (((pred == j) & (y == j)).sum() / max(1, (pred == j).sum()))).rjust(8) for j in range(len(kinds))))
