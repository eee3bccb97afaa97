#!/usr/bin/python3
"""Fills the inner nodes' values of a model glance ships (methods/score_model.c)
without fitting it again, so that glance can explain a block's probability
(methods/score.c, --explain): each inner node's value is the cover-weighted
mean of its children's, as XGBoost's own approximate contributions take it,
the cover estimated from dumped blocks.

    tools/fit/values.py --dump build/fit --model methods/score_model.c

fit.py writes these values itself from the cover XGBoost records
(sum_hessian) when it fits; this is for a model fitted before it did, whose
fitting data are not at hand as they were. The cover of a node is here the
Hessian of the logistic loss, summed over the dumped blocks that reach it
(each weighted as fit.py weighs it, by the square root of its characters),
the margin of each block being the sum of the trees before: XGBoost's own
definition, without its sampling of the rows. Only the inner nodes' values
change: the thresholds, the leaves and so every prediction stay as they are.
"""
import argparse
import json
import math
import os
import re
import sys

import numpy as np

NODE = re.compile(r"^    \{(-?\d+), ([^,]+)f, (-?\d+), (-?\d+), ([^}]+)f\},$")


def parse(path):
    """The C file's lines, and per forest tag (s1, s2) the node lines'
    indices, the nodes and the roots."""
    lines = open(path).read().split("\n")
    forests, tag, mode = {}, None, None
    for i, ln in enumerate(lines):
        m = re.match(r"static const score_node (\w+)_nodes\[\] = \{", ln)
        if m:
            tag, mode = m.group(1), "nodes"
            forests[tag] = {"at": [], "nodes": [], "roots": []}
            continue
        m = re.match(r"static const int32_t (\w+)_roots\[\] = \{", ln)
        if m:
            tag, mode = m.group(1), "roots"
            continue
        if ln.startswith("};"):
            mode = None
            continue
        if mode == "nodes":
            m = NODE.match(ln)
            if not m:
                sys.exit(f"values.py: {path}:{i + 1}: not a node: {ln[:80]}")
            f, thr, l, r, v = m.groups()
            forests[tag]["at"].append(i)
            forests[tag]["nodes"].append((int(f), float(thr), int(l), int(r), float(v)))
        elif mode == "roots":
            forests[tag]["roots"] += [int(x) for x in ln.replace(",", " ").split()]
    return lines, forests


def route(nodes, root, X):
    """The node each row of X reaches at every level, as glance walks a tree
    (left when the feature is below the threshold): a list of node arrays,
    the root's first, and the leaf each row reaches."""
    at = np.full(len(X), root, dtype=np.int64)
    feat = np.array([n[0] for n in nodes], dtype=np.int64)
    thr = np.array([n[1] for n in nodes], dtype=np.float32)
    left = np.array([n[2] for n in nodes], dtype=np.int64)
    right = np.array([n[3] for n in nodes], dtype=np.int64)
    visits = [at.copy()]
    while True:
        inner = feat[at] >= 0
        if not inner.any():
            return visits, at
        rows = np.nonzero(inner)[0]
        x = X[rows, feat[at[rows]]]
        at[rows] = np.where(x < thr[at[rows]], left[at[rows]], right[at[rows]])
        visits.append(np.where(inner, at, -1))


def covers(nodes, roots, X, w):
    """Each node's cover: the Hessian w p (1 - p) of the rows reaching it,
    p the probability of the trees before (XGBoost's base score 0.5)."""
    cover = np.zeros(len(nodes))
    margin = np.zeros(len(X))
    leaf_value = np.array([n[4] for n in nodes], dtype=np.float64)
    for root in roots:
        p = 1 / (1 + np.exp(-margin))
        h = w * p * (1 - p)
        visits, leaf = route(nodes, root, X)
        for v in visits:
            ok = v >= 0
            np.add.at(cover, v[ok], h[ok])
        margin += leaf_value[leaf]
    return cover


def inner_values(nodes, roots, cover):
    """Nodes with each inner node's value the cover-weighted mean of its
    children's (their plain mean where no cover reached them)."""
    out = list(nodes)

    def fill(i):
        f, thr, l, r, v = out[i]
        if f < 0:
            return v
        vl, vr = fill(l), fill(r)
        cl, cr = cover[l], cover[r]
        v = (vl * cl + vr * cr) / (cl + cr) if cl + cr > 0 else (vl + vr) / 2
        out[i] = (f, thr, l, r, v)
        return v

    for r in roots:
        fill(r)
    return out


def node_line(n):
    feat, thr, left, right, value = n
    return f"    {{{feat}, {float(np.float32(thr))!r}f, {left}, {right}, {float(np.float32(value))!r}f}},"


def load_blocks(dump_dir, n_features):
    X = []
    for name in sorted(os.listdir(dump_dir)):
        if not name.endswith(".jsonl"):
            continue
        with open(os.path.join(dump_dir, name)) as f:
            for line in f:
                d = json.loads(line)
                s = (d.get("result") or {}).get("score") or {}
                for b in s.get("block_list") or []:
                    if len(b["f"]) == n_features:
                        X.append(b["f"])
    return np.array(X, dtype=np.float32).reshape(-1, n_features)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dump", required=True, help="folder of CORPUS.jsonl from glance dump "
                    "--method score --set score.features=on (the model's engine)")
    ap.add_argument("--model", required=True, help="the C file to fill in place")
    ap.add_argument("--features", type=int, default=97, help="stage two's features")
    ap.add_argument("--stage1", type=int, default=81, help="stage one's features")
    a = ap.parse_args()
    lines, forests = parse(a.model)
    X = load_blocks(a.dump, a.features)
    if not len(X):
        sys.exit("values.py: no blocks with features in " + a.dump)
    w = np.sqrt(np.maximum(1, np.expm1(X[:, 0].astype(np.float64))))
    print(f"{len(X)} blocks", file=sys.stderr)
    for tag, cols in (("s1", a.stage1), ("s2", a.features)):
        fo = forests[tag]
        cover = covers(fo["nodes"], fo["roots"], X[:, :cols], w)
        filled = inner_values(fo["nodes"], fo["roots"], cover)
        for i, n in zip(fo["at"], filled):
            lines[i] = node_line(n)
        unreached = sum(1 for n, c in zip(fo["nodes"], cover) if c == 0)
        print(f"{tag}: {len(fo['roots'])} trees, {len(filled)} nodes, {unreached} reached by no block",
              file=sys.stderr)
    with open(a.model, "w") as f:
        f.write("\n".join(lines))
    print("wrote", a.model, file=sys.stderr)


if __name__ == "__main__":
    main()
