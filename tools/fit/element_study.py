#!/usr/bin/python3
"""A study of an element-choosing stage (issue 46), offline; not used by glance.

    tools/fit/fit.py --dump DIR --save cv.pkl
    tools/fit/element_study.py DIR cv.pkl reg 0.5,0.3,0.15 [subtree] [kind]

Reads a dump (fit.py's load) and fit.py --save's cross-validated stage-two
probabilities. For each page, the candidates are an element (an ancestor of
a block the answer holds; elements holding the same blocks counted once) and
a threshold (the last argument's list): the answer is the blocks under the
element at or over the threshold. Each candidate's features come from the
blocks under it (share of the page and of the first screen, believed
content, link share, repetition, the headline inside or just above, place).
Prints the F1 per corpus and kind of the answer today (the blocks over the
threshold anywhere), of the best candidate (the oracle), and of a regressor
of a candidate's F1 fitted with the same folds by site (fit.py's fold_of),
which replaces today's answer when it predicts more by a margin.

Words after the thresholds add features to every candidate:
- subtree: what the element's own children show, each child the blocks
  under it: how many, the largest's share, the spread of their characters
  and heights, their columns and rows, the share of them of the commonest
  width and of the commonest number of blocks, of them with a link block,
  a number-heavy block, a block of the answer, and their mean probability;
- kind: the page's kind as kind_study.py's classifier gives it (its seven
  probabilities), fitted on modern-dev's pages of the other folds.
"""
import collections, math, os, pickle, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit as F
import kind_study as KS
import xgboost as xgb

dump, save = sys.argv[1], sys.argv[2]
pages, names = F.load(dump, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/bench"))
cv = pickle.load(open(save, "rb"))
prob_of = {k: p for k, p in zip(cv["ids"], cv["probs"])}
T = cv["threshold"]
ix = {n: i for i, n in enumerate(names)}
pages = [p for p in pages if (p["corpus"], p["id"]) in prob_of]
for p in pages:
    p["p"] = np.asarray(prob_of[(p["corpus"], p["id"])], dtype=np.float64)

CF = ["share_chars", "share_exp", "purity", "ans_share", "n_blocks", "n_ans", "links", "depth",
      "up_from_best", "head_in", "head_first", "rep_share", "rep_count", "x0", "x1", "y0", "y1",
      "fia_share", "off_centre", "page_chars", "page_blocks", "doc_h", "pmax", "page_ans",
      "li", "cell", "article", "main", "gain", "is_root", "nav", "aside", "footer", "p_mean_in",
      "p_out_max", "exp_out"]
EXTRA = sys.argv[5:]
SUBTREE = ["nch", "ch_top", "ch_ent", "ch_cv", "ch_cols", "ch_rows", "ch_wmode", "ch_nmode", "ch_link",
           "ch_digit", "ch_ans", "ch_pmean", "ch_hcv"]
if "subtree" in EXTRA:
    CF += SUBTREE
if "kind" in EXTRA:
    CF += ["k_" + k for k in KS.KINDS]


def subtree(p, a, bl, c, pr, ans):
    """The element a's children, each the blocks under it (a block right
    under a is a child of its own)."""
    X = p["X"]
    groups = collections.defaultdict(list)
    for i in bl:
        path = p["path"][i]
        lvl = path.index(a)
        groups[path[lvl + 1] if lvl + 1 < len(path) else -1 - i].append(i)
    G = list(groups.values())
    cc = np.array([c[g].sum() for g in G], np.float64)
    q = cc / cc.sum()
    ent = float(-(q * np.log(q + 1e-12)).sum() / math.log(len(G))) if len(G) > 1 else 0.0
    x0 = np.array([X[g, ix["x"]].min() for g in G])
    x1 = np.array([(X[g, ix["x"]] + X[g, ix["w"]]).max() for g in G])
    y0 = np.array([X[g, ix["y_doc"]].min() for g in G])
    ht = np.array([(X[g, ix["y_doc"]] + X[g, ix["h"]]).max() for g in G]) - y0

    def modeshare(v):
        _, k = np.unique(v, return_counts=True)
        return float(k.max() / len(v))
    some = lambda f: float(np.mean([float(f(g)) for g in G]))
    return [math.log1p(len(G)), float(q.max()), ent, float(cc.std() / cc.mean()) if len(G) > 1 else 0.0,
            float(len(np.unique(np.round(x0 * 50)))), float(len(np.unique(np.round(y0 * 20)))),
            modeshare(np.round((x1 - x0) * 50)), modeshare(np.array([len(g) for g in G])),
            some(lambda g: (X[g, ix["link_share"]] > 0.5).any()), some(lambda g: (X[g, ix["digit_share"]] > 0.1).any()),
            some(lambda g: ans[g].any()), some(lambda g: pr[g].mean()),
            float(ht.std() / (ht.mean() + 1e-6)) if len(G) > 1 else 0.0]


# The page's kind, out of fold: each fold's classifier fitted on modern-dev's
# pages of the other folds (folds by site, fit.py's fold_of).
kind_of = {}
if "kind" in EXTRA:
    of_all = F.fold_of(pages, 5)
    kp = [(p, f) for p, f in zip(pages, of_all) if p["corpus"] == "modern-dev" and p["kind"] in KS.KINDS
          and len(p["texts"])]
    KX = np.array([KS.page_features(p, p["p"], ix) for p, _ in kp], np.float32)
    Ky = np.array([KS.KINDS.index(p["kind"]) for p, _ in kp])
    for k in range(5):
        m = xgb.XGBClassifier(**KS.PARAMS)
        m.fit(KX[[f != k for _, f in kp]], Ky[[f != k for _, f in kp]])
        for p, f in zip(pages, of_all):
            if f == k and len(p["texts"]):
                kind_of[(p["corpus"], p["id"])] = m.predict_proba(
                    np.array([KS.page_features(p, p["p"], ix)], np.float32))[0].tolist()


def candidates(p, t):
    n = len(p["texts"])
    if n == 0:
        return [], []
    X = p["X"]
    c = np.maximum(1, np.rint(np.expm1(X[:, ix["chars"]].astype(np.float64))))
    pr = p["p"]
    pc = pr * c
    ans = pr >= t
    under = collections.defaultdict(list)
    depth_of = {}
    for i, path in enumerate(p["path"]):
        for lvl, a in enumerate(path):
            under[a].append(i)
            depth_of[a] = len(path) - lvl  # levels below the root
    seen = {}
    for a, bl in under.items():
        if not any(ans[i] for i in bl):
            continue
        key = tuple(bl)
        if key not in seen or depth_of[a] > depth_of[seen[key]]:
            seen[key] = a
    C, PC = c.sum(), pc.sum()
    A = c[ans].sum()
    best = int(np.argmax(pr))
    head = [i for i in range(n) if X[i, ix["head_none"]] == 0 and X[i, ix["head_rel"]] == 0]
    gains = {a: ((pr[bl] - 0.5) * c[bl]).sum() for a, bl in under.items()}
    gmax = max(gains.values()) if gains else 1
    fia = X[:, ix["in_fia"]] > 0
    cf = c[fia].sum()
    out, sets = [], []
    roots = [a for a in under if len(under[a]) == n]
    for key, a in seen.items():
        bl = np.array(key)
        ce = c[bl]
        Ce = ce.sum()
        inside = np.zeros(n, bool)
        inside[bl] = True
        f = [Ce / C, pc[bl].sum() / PC if PC > 0 else 0, pc[bl].sum() / Ce,
             c[bl][ans[bl]].sum() / A if A > 0 else 0, math.log1p(len(bl)), math.log1p(ans[bl].sum()),
             (X[bl, ix["link_share"]] * ce).sum() / Ce, depth_of[a] / 20.0,
             (len(p["path"][best]) - (p["path"][best].index(a) if a in p["path"][best] else -1)) / 20.0
             if a in p["path"][best] else -1,
             float(any(inside[h] for h in head)),
             float(bool(head) and bl.min() > head[0] and bl.min() - head[0] <= 3),
             (X[bl, ix["rep_share"]] * ce).sum() / Ce, (X[bl, ix["rep_count"]] * ce).sum() / Ce,
             X[bl, ix["x"]].min(), (X[bl, ix["x"]] + X[bl, ix["w"]]).max(),
             X[bl, ix["y_doc"]].min(), X[bl, ix["y_doc"]].max(),
             c[bl][fia[bl]].sum() / cf if cf > 0 else 0,
             (X[bl, ix["off_centre"]] * ce).sum() / Ce,
             X[0, ix["page_chars"]], X[0, ix["page_blocks"]], X[0, ix["doc_h"]], pr.max(), A / C,
             (X[bl, ix["tag_li"]] * ce).sum() / Ce, (X[bl, ix["tag_cell"]] * ce).sum() / Ce,
             (X[bl, ix["in_article"]] * ce).sum() / Ce, (X[bl, ix["in_main"]] * ce).sum() / Ce,
             gains[a] / gmax if gmax > 0 else 0, float(a in roots),
             (X[bl, ix["in_nav"]] * ce).sum() / Ce, (X[bl, ix["in_aside"]] * ce).sum() / Ce,
             (X[bl, ix["in_footer"]] * ce).sum() / Ce, pr[bl].mean(),
             pr[~inside].max() if (~inside).any() else 0,
             pc[~inside].sum() / PC if PC > 0 else 0]
        if "subtree" in EXTRA:
            f += subtree(p, a, bl, c, pr, ans)
        if "kind" in EXTRA:
            f += kind_of.get((p["corpus"], p["id"]), [0.0] * len(KS.KINDS))
        out.append(f)
        sets.append(bl)
    return out, sets


def text_of(p, sel, t):
    return "\n".join(p["texts"][i] for i in sorted(sel) if p["p"][i] >= t)


TS = [float(x) for x in sys.argv[4].split(",")]
rows = []  # per page: features (k x F), prf per candidate, prf of current
for p in pages:
    feats, sets = candidates(p, T)
    cur = F.page_prf(p["truth"], F.answer(p, p["p"], T))
    prfs = [F.page_prf(p["truth"], text_of(p, s, t)) for s in sets for t in TS]
    fe = np.array([f + [t, t - T] for f in feats for t in TS], np.float32).reshape(-1, len(CF) + 2)
    rows.append((fe, prfs, cur))


def pf1(tp, fp, fn):
    pp = tp / (tp + fp) if tp + fp else (1.0 if fn == 0 else 0)
    rr = tp / (tp + fn) if tp + fn else (1.0 if fp == 0 else 0)
    return 2 * pp * rr / (pp + rr) if pp + rr else 0


def table(sel, label):
    by = collections.defaultdict(list)
    for p, r in zip(pages, sel):
        by[p["corpus"]].append(r)
        by[p["corpus"] + "/" + p["kind"]].append(r)
    out = {}
    for k in sorted(by):
        out[k] = F.f1_of(by[k])[0]
    print(label, " ".join(f"{k}={v:.3f}" for k, v in out.items() if "/" not in k or k.startswith("modern")))
    return out


table([r[2] for r in rows], "current ")
orc = [r[1][int(np.argmax([pf1(*x) for x in r[1]]))] if r[1] else r[2] for r in rows]
table(orc, "oracle  ")

# Fitted chooser, folds by site.
of = F.fold_of(pages, 5)
pred = [None] * len(pages)
params = dict(n_estimators=150, max_depth=5, learning_rate=0.05, subsample=0.8, colsample_bytree=0.8,
              min_child_weight=2.0, tree_method="hist", n_jobs=2, random_state=1)
mode = sys.argv[3] if len(sys.argv) > 3 else "reg"
for k in range(5):
    Xs, ys, gs = [], [], []
    for (fe, prfs, cur), f in zip(rows, of):
        if f == k or not len(prfs):
            continue
        Xs.append(fe)
        ys.append([pf1(*x) for x in prfs])
        gs.append(len(prfs))
    X = np.concatenate(Xs)
    y = np.concatenate(ys)
    if mode == "rank":
        m = xgb.XGBRanker(objective="rank:pairwise", **params)
        yy = np.concatenate([np.round(np.asarray(v) * 10) for v in ys])
        m.fit(X, yy, group=gs)
    else:
        m = xgb.XGBRegressor(objective="reg:squarederror", **params)
        m.fit(X, y)
    for i, f in enumerate(of):
        if f == k and len(rows[i][1]):
            pred[i] = m.predict(rows[i][0])
    print("fold", k + 1, file=sys.stderr)
for margin in (0.0, 0.02, 0.05, 0.1):
    sel = []
    for (fe, prfs, cur), pr in zip(rows, pred):
        if pr is None:
            sel.append(cur)
            continue
        root = [j for j in range(len(prfs)) if fe[j, CF.index("is_root")] > 0 and abs(fe[j, len(CF)] - T) < 1e-6]
        j = int(np.argmax(pr))
        base = pr[root[0]] if root else -1
        sel.append(prfs[j] if pr[j] > base + margin else cur)
    table(sel, f"chosen m={margin:.2f}")
