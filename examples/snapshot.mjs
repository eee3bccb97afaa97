#!/usr/bin/env node
// examples/snapshot.mjs: glance as a plugin behind a browser you already
// drive. Debian's chromium, driven by playwright-core, loads each page with
// its scripts, and what the browser saw (DOMSnapshot.captureSnapshot, with
// the computed styles glance reads) goes to glance: written to a file for
// `glance extract --snapshot FILE`, or posted to `glance serve`.
//
//   node examples/snapshot.mjs [--window WxH] [--no-scripts] --out FILE URL|PAGE
//   node examples/snapshot.mjs [--window WxH] [--no-scripts] --post http://127.0.0.1:8080/extract URL|PAGE...
//
// PAGE is a local .html file, served at http://glance.invalid/NAME with
// every other request refused; a URL is loaded as the browser loads it.
// Needs Debian's chromium and playwright-core (tools/install-browser.sh).
// The snapshot format: docs/snapshot.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', 'tools', 'package.json'));
const { chromium } = require('playwright-core');

// The styles glance reads, in this order (docs/snapshot.md).
export const STYLES = ['display', 'visibility', 'position', 'font-size', 'font-weight',
    'white-space', 'overflow-x', 'overflow-y', 'opacity'];

function parseArgs(argv) {
    const a = { w: 1920, h: 1080, scripts: true, out: null, post: null, pages: [] };
    for (let i = 0; i < argv.length; i++) {
        const v = argv[i];
        if (v === '--window') {
            const m = /^(\d+)x(\d+)$/.exec(argv[++i] || '');
            if (!m) throw new Error('--window takes WxH');
            a.w = +m[1]; a.h = +m[2];
        } else if (v === '--no-scripts') a.scripts = false;
        else if (v === '--out') a.out = argv[++i];
        else if (v === '--post') a.post = argv[++i];
        else if (v.startsWith('-')) throw new Error(`unknown option ${v}`);
        else a.pages.push(v);
    }
    if (!a.pages.length || (!a.out && !a.post) || (a.out && a.pages.length > 1))
        throw new Error('usage: node examples/snapshot.mjs [--window WxH] [--no-scripts] (--out FILE PAGE | --post URL PAGE...)');
    return a;
}

// What glance's own engine (--engine chromium) changes in a page before its
// snapshot, so that both give the same answer (docs/snapshot.md): an <svg>
// that neither its attributes nor the page's rules size is drawn the size
// of a letter, not as wide as its container; a closed <details> is opened.
// With scripts off, three more: the styles inside <noscript> are taken out
// when the page shows less than a fifth of its text (they hid it for a
// warning); a <noscript> of the body showing fewer than 300 characters is
// hidden; the parts of a page streamed in parts ($RC("B:0","S:0") and
// $RS("S:1","P:1") in its scripts' texts) are put in their places.
export const UNSIZED_SVG_CSS =
    ':where(:not(svg)>svg:not([width]):not([height]),:not(svg)>svg[width$="%"]){width:1em;height:1em}';
export const NOSCRIPT_HIDING_JS =
    'var n=function(s){return s.replace(/\\s+/g,"").length},'
    + 'ns=d.querySelectorAll("noscript style,noscript link[rel~=stylesheet i]");'
    + 'if(ns.length&&d.body){var all=0,t,w=d.createTreeWalker(d.body,NodeFilter.SHOW_TEXT);'
    + 'while(t=w.nextNode())if(!t.parentElement.closest("noscript,script,style,template"))all+=n(t.data);'
    + 'if(n(d.body.innerText)<0.2*all)ns.forEach(function(e){e.remove()})}'
    + 'var few=[];d.querySelectorAll("body noscript").forEach(function(e){if(n(e.innerText)<300)few.push(e)});'
    + 'few.forEach(function(e){e.style.setProperty("display","none","important")});';
export const STREAMED_PARTS_JS =
    'var re=/\\$R([CS])\\(\\s*(["\'])([^"\']*)\\2\\s*,\\s*(["\'])([^"\']*)\\4/g,m,todo=[];'
    + 'd.querySelectorAll("script").forEach(function(s){var t=s.textContent;re.lastIndex=0;'
    + 'while(m=re.exec(t))todo.push(m)});'
    + 'todo.slice(0,4096).forEach(function(m){var c=m[1]=="C",part=d.getElementById(c?m[5]:m[3]),'
    + 'at=d.getElementById(c?m[3]:m[5]);if(!part||!at||!at.parentNode||!part.parentNode||part.contains(at))'
    + 'return;var p=at.parentNode,end=at.nextSibling,k=0,x;'
    + 'if(c)while(end&&!(end.nodeType==8&&end.data=="/$"&&k==0)){if(end.nodeType==8){if(end.data=="/$")k--;'
    + 'else if(/^\\$[?!]?$/.test(end.data))k++}x=end.nextSibling;p.removeChild(end);end=x}'
    + 'while(part.firstChild)p.insertBefore(part.firstChild,end);p.removeChild(at);'
    + 'part.parentNode.removeChild(part)});';

// One page's snapshot, in glance's envelope.
export async function snapshot(browser, page, { w = 1920, h = 1080, scripts = true } = {}) {
    const ctx = await browser.newContext({ viewport: { width: w, height: h }, javaScriptEnabled: scripts });
    try {
        const p = await ctx.newPage();
        let url = page;
        if (!/^https?:/.test(page)) {
            const file = resolve(page);
            const body = readFileSync(file);
            url = `http://glance.invalid/${basename(file)}`;
            await p.route('**/*', (route) => route.request().url() === url
                ? route.fulfill({ status: 200, contentType: 'text/html', body })
                : route.abort());
        }
        // The document parsed, then its load event if it comes (a frame left
        // open, or an image whose error handler asks again for a refused
        // fallback, keeps it from coming), then a quiet network.
        await p.goto(url, { waitUntil: 'domcontentloaded', timeout: 15000 });
        await p.waitForLoadState('load', { timeout: 5000 }).catch(() => {});
        await p.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => {});
        const cdp = await ctx.newCDPSession(p);
        await cdp.send('Runtime.evaluate', { expression: '(function(){var d=document,s=d.createElement("style");'
            + `s.textContent=${JSON.stringify(UNSIZED_SVG_CSS)};(d.head||d.documentElement).appendChild(s);`
            + 'd.querySelectorAll("details:not([open])").forEach(function(e){e.open=true});'
            + (scripts ? '' : `try{${NOSCRIPT_HIDING_JS}}catch(e){}try{${STREAMED_PARTS_JS}}catch(e){}`) + '})()' });
        const snap = await cdp.send('DOMSnapshot.captureSnapshot',
            { computedStyles: STYLES, includeDOMRects: true, includePaintOrder: false });
        return { glance_snapshot: 1, url: p.url(), window: { width: w, height: h }, scripts, snapshot: snap };
    } finally {
        await ctx.close();
    }
}

async function main() {
    const a = parseArgs(process.argv.slice(2));
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
        for (const page of a.pages) {
            const env = await snapshot(browser, page, a);
            const text = JSON.stringify(env);
            if (a.out) { writeFileSync(a.out, text); continue; }
            const r = await fetch(a.post, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });
            process.stdout.write(`${page}\t${r.status}\t${(await r.text()).slice(0, 200).replace(/\s+/g, ' ')}\n`);
        }
    } finally {
        await browser.close();
    }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
    main().catch((e) => { process.stderr.write(`snapshot: ${e.message}\n`); process.exit(1); });
