#!/usr/bin/env node
// tools/chromium-boxes.mjs: the border box of every element of a page as
// Chromium lays it out, keyed by the XPath glance gives the same node, so
// that `glance extract --geometry` can run on a real browser's layout and
// `glance bench --fidelity` can compare the two.
//
//   node tools/chromium-boxes.mjs [--window WxH] [--root DIR] [--out FILE] PAGE
//   node tools/chromium-boxes.mjs [--window WxH] [--root DIR] --out-dir DIR [--suffix S] PAGE...
//
// PAGE is an .html (or .html.gz) file; with --out-dir each page's boxes go
// to DIR/ID.json (or DIR/ID + S), ID being the file name without
// .html/.htm/.gz (the ids of glance bench). The layout fixtures' boxes:
//
//   node tools/chromium-boxes.mjs --out-dir fixtures/layout --suffix .boxes.json fixtures/layout/*.html Needs Debian's chromium and playwright-core
// (tools/install-browser.sh).
//
// The page never reaches the network and none of its scripts run: the
// context has JavaScript off (playwright's own evaluation still works),
// every request is answered here, the page itself from the file and local
// stylesheets from its folder, or from anywhere under --root DIR (the
// styled corpus's pages link sheets folders above their own; glance reads
// those too), everything else is
// aborted. The page is served as UTF-8 when its bytes are valid UTF-8, as
// glance reads it; otherwise Chromium follows its <meta> charset, as glance
// does. <noscript> is hidden, as glance's user-agent stylesheet hides it.
//
// Output: {"version": 1, "engine", "page", "window": {w, h},
// "document": {w, h}, "nodes": {XPATH: value}}, where an element's value is
// its border box [x, y, w, h] in CSS px of the document (the top left of the
// page is 0,0), or null when it is not rendered (display:none, or inside
// such an element); a text node's value is its line boxes [[x, y, w, h],
// ...], empty when it shows nothing.
//
// XPaths are numbered exactly as dom/xpath.c numbers glance's tree, which is
// litehtml's tree as render/tree.cpp builds it: comments (and CDATA) are not
// nodes and do not split text, so the text around a comment is one text
// node; an element whose tag name has characters other than letters,
// digits, '-' and ':' is not a node either, its children count as its
// parent's, and text never runs across its edges; tag names are lower case.

import { readFileSync, writeFileSync, existsSync, statSync, mkdirSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ORIGIN = 'http://glance.invalid';

function usage(code) {
    (code ? process.stderr : process.stdout).write(
        'usage: node tools/chromium-boxes.mjs [--window WxH] [--root DIR] [--out FILE] PAGE\n' +
        '       node tools/chromium-boxes.mjs [--window WxH] [--root DIR] --out-dir DIR [--suffix S] PAGE...\n');
    process.exit(code);
}

function parseArgs(argv) {
    const a = { w: 1920, h: 1080, out: null, outDir: null, suffix: '.json', root: null, pages: [] };
    for (let i = 0; i < argv.length; i++) {
        const v = argv[i];
        if (v === '--window') {
            const m = /^(\d+)x(\d+)$/.exec(argv[++i] || '');
            if (!m) usage(2);
            a.w = +m[1];
            a.h = +m[2];
        } else if (v === '--out') {
            a.out = argv[++i];
        } else if (v === '--root') {
            a.root = argv[++i];
            if (!a.root) usage(2);
        } else if (v === '--out-dir') {
            a.outDir = argv[++i];
        } else if (v === '--suffix') {
            a.suffix = argv[++i];
            if (!a.suffix || a.suffix.includes('/')) usage(2);
        } else if (v === '-h' || v === '--help') {
            usage(0);
        } else if (v.startsWith('--')) {
            usage(2);
        } else {
            a.pages.push(v);
        }
    }
    if (!a.pages.length || (a.out && a.outDir) || (a.pages.length > 1 && !a.outDir)) usage(2);
    return a;
}

function pageId(path) {
    return basename(path).replace(/\.gz$/, '').replace(/\.html?$/, '');
}

function isUtf8(buf) {
    try {
        new TextDecoder('utf-8', { fatal: true }).decode(buf);
        return true;
    } catch {
        return false;
    }
}

// Runs inside the page: every node's box, keyed by glance's XPath.
function measure() {
    const VALID_TAG = /^[A-Za-z0-9:-]+$/;
    const sx = window.scrollX, sy = window.scrollY;
    const r2 = (v) => Math.round(v * 100) / 100;
    const nodes = {};
    let maxRight = 0, maxBottom = 0;

    // glance's children of a node: elements with valid tag names, runs of
    // text (comments and CDATA inside a run do not break it), and the
    // children of elements with other tag names in their place.
    function kids(node, out) {
        let run = null;
        for (let c = node.firstChild; c; c = c.nextSibling) {
            if (c.nodeType === Node.TEXT_NODE) {
                if (!run) {
                    run = [];
                    out.push({ text: run });
                }
                run.push(c);
            } else if (c.nodeType === Node.ELEMENT_NODE) {
                run = null;
                if (VALID_TAG.test(c.localName)) out.push({ el: c });
                else kids(c, out);
            }
            // comments, CDATA, processing instructions: nothing
        }
        return out;
    }

    // Line boxes of a run of text nodes; rectangles whose vertical ranges
    // overlap by more than half the smaller height are one line (as
    // render/tree.cpp joins litehtml's words).
    function lines(run) {
        const ls = [];
        const range = document.createRange();
        for (const t of run) {
            range.selectNodeContents(t);
            for (const r of range.getClientRects()) {
                if (r.width <= 0 || r.height <= 0) continue;
                const b = { x: r.left + sx, y: r.top + sy, w: r.width, h: r.height };
                const last = ls[ls.length - 1];
                if (last) {
                    const top = Math.max(last.y, b.y), bottom = Math.min(last.y + last.h, b.y + b.h);
                    if (bottom - top > 0.5 * Math.min(last.h, b.h)) {
                        const x0 = Math.min(last.x, b.x), y0 = Math.min(last.y, b.y);
                        last.w = Math.max(last.x + last.w, b.x + b.w) - x0;
                        last.h = Math.max(last.y + last.h, b.y + b.h) - y0;
                        last.x = x0;
                        last.y = y0;
                        continue;
                    }
                }
                ls.push(b);
            }
        }
        return ls.map((b) => [r2(b.x), r2(b.y), r2(b.w), r2(b.h)]);
    }

    // An explicit stack (pages nest thousands of elements deep), in
    // pre-order so that the output reads as the page does.
    const root = document.documentElement;
    const stack = [{ el: root, path: '/' + root.localName.toLowerCase() + '[1]', rendered: true }];
    while (stack.length) {
        const item = stack.pop();
        if (item.text) {
            nodes[item.path] = item.rendered ? lines(item.text) : [];
            continue;
        }
        const { el, path } = item;
        const rendered = item.rendered && getComputedStyle(el).display !== 'none';
        if (rendered) {
            const r = el.getBoundingClientRect();
            nodes[path] = [r2(r.left + sx), r2(r.top + sy), r2(r.width), r2(r.height)];
            if (r.width > 0 && r.height > 0) {
                maxRight = Math.max(maxRight, r.right + sx);
                maxBottom = Math.max(maxBottom, r.bottom + sy);
            }
        } else {
            nodes[path] = null;
        }
        const counts = new Map();
        let texts = 0;
        const children = [];
        for (const k of kids(el, [])) {
            if (k.text) {
                children.push({ text: k.text, path: path + '/text()[' + ++texts + ']', rendered });
            } else {
                const tag = k.el.localName.toLowerCase();
                const n = (counts.get(tag) || 0) + 1;
                counts.set(tag, n);
                children.push({ el: k.el, path: path + '/' + tag + '[' + n + ']', rendered });
            }
        }
        for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }

    // The document's size as litehtml reports it: the window's width (or
    // more when the page is wider), the height of the content (not padded up
    // to the window: a short page is short).
    const de = document.documentElement;
    const hr = de.getBoundingClientRect(), hs = getComputedStyle(de);
    const htmlBottom = hr.bottom + sy + parseFloat(hs.marginBottom || '0');
    const docW = Math.max(de.scrollWidth, maxRight);
    const docH = de.scrollHeight > window.innerHeight ? de.scrollHeight : Math.max(htmlBottom, maxBottom);
    return {
        window: { w: window.innerWidth, h: window.innerHeight },
        document: { w: r2(docW), h: r2(docH) },
        nodes,
    };
}

// The page is served at its place under `root` (its own folder when no
// root is given), so that a stylesheet a folder or two above it, as a
// generator of documentation links its own, is found as glance finds it.
async function boxesOf(context, path, engine, root) {
    let bytes = readFileSync(path);
    if (path.endsWith('.gz')) bytes = gunzipSync(bytes);
    const folder = resolve(root || dirname(path));
    const under = relative(folder, resolve(dirname(path)));
    if (under.startsWith('..') || isAbsolute(under))
        throw new Error(`${path} is not under --root ${root}`);
    const name = [...(under ? under.split(sep) : []), pageId(path) + '.html']
        .map(encodeURIComponent).join('/');
    const url = ORIGIN + '/' + name;
    const page = await context.newPage();
    try {
        let served = false;
        await page.route('**/*', (route) => {
            const req = route.request();
            const u = new URL(req.url());
            if (req.url() === url && !served && req.isNavigationRequest()) {
                served = true;
                return route.fulfill({
                    status: 200,
                    contentType: isUtf8(bytes) ? 'text/html; charset=utf-8' : 'text/html',
                    body: bytes,
                });
            }
            // Local stylesheets, inside the page's folder (or the root).
            if (u.origin === ORIGIN && req.resourceType() === 'stylesheet') {
                const file = normalize(join(folder, decodeURIComponent(u.pathname)));
                if ((file + sep).startsWith(folder + sep) && existsSync(file) && statSync(file).isFile())
                    return route.fulfill({ status: 200, contentType: 'text/css', body: readFileSync(file) });
            }
            return route.abort();
        });
        await page.goto(url, { waitUntil: 'load', timeout: 60000 });
        // What glance's user-agent stylesheet says of <noscript>, without a
        // node in the tree: an adopted stylesheet.
        await page.evaluate(() => {
            const s = new CSSStyleSheet();
            s.replaceSync('noscript { display: none !important; }');
            document.adoptedStyleSheets = [...document.adoptedStyleSheets, s];
        });
        const m = await page.evaluate(measure);
        return { version: 1, engine, page: basename(path), ...m };
    } finally {
        await page.close();
    }
}

// One node a line, so that stored boxes read and diff well.
function toJson(b) {
    const { nodes, ...head } = b;
    const lines = Object.entries(nodes).map(([k, v]) => JSON.stringify(k) + ': ' + JSON.stringify(v));
    return JSON.stringify(head).slice(0, -1) + ',\n"nodes": {\n' + lines.join(',\n') + '\n}}\n';
}

async function main() {
    const args = parseArgs(process.argv.slice(2));
    // --out-dir DIR is made when missing (with its parents), before the
    // browser starts: a folder that cannot be made is one error, not one per page.
    if (args.outDir) {
        try {
            mkdirSync(args.outDir, { recursive: true });
        } catch (e) {
            process.stderr.write(`chromium-boxes: --out-dir ${args.outDir}: ${e.message}\n`);
            process.exit(2);
        }
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    let failed = 0;
    try {
        const engine = 'Chromium ' + browser.version();
        const context = await browser.newContext({
            javaScriptEnabled: false,
            viewport: { width: args.w, height: args.h },
            deviceScaleFactor: 1,
            serviceWorkers: 'block',
        });
        for (const p of args.pages) {
            try {
                const b = await boxesOf(context, p, engine, args.root);
                const json = toJson(b);
                if (args.outDir) writeFileSync(join(args.outDir, pageId(p) + args.suffix), json);
                else if (args.out) writeFileSync(args.out, json);
                else process.stdout.write(json);
            } catch (e) {
                failed++;
                process.stderr.write(`chromium-boxes: ${p}: ${e.message.split('\n')[0]}\n`);
            }
        }
    } finally {
        await browser.close();
    }
    process.exit(failed ? 1 : 0);
}

main();
