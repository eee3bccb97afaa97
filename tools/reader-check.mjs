// Opens glance serve's reader page in Debian's Chromium (through
// playwright-core, installed by tools/install-browser.sh) at a phone's
// width and reports what a reader would see, as one JSON line:
//   node tools/reader-check.mjs URL OUT.png [WIDTH [light|dark]]
// {"text": the page's visible text, "scrollWidth", "clientWidth" (no
//  horizontal scroll when scrollWidth <= clientWidth), "title",
//  "paragraphs": [{"text": first 40 characters, "firstLeft", "firstRight":
//  the box of its first character, "left", "right": the paragraph's box}],
//  "background", "color": the body's computed colours in the scheme asked for,
//  "lang", "dir": the <html>'s, "site", "byline", "date", "readingTime": the
//  header's texts as shown, "leadImage": {"src", "naturalWidth", "width",
//  "height"} of the lead image once loaded (null without one)}
// and saves a full-page screenshot to OUT.png. tests/test_serve.c runs it.
import { chromium } from 'playwright-core';

const [url, out, width = '390', scheme = 'light'] = process.argv.slice(2);
if (!url || !out) {
    console.error('usage: node tools/reader-check.mjs URL OUT.png [WIDTH]');
    process.exit(2);
}
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
try {
    const page = await browser.newPage({ viewport: { width: Number(width), height: 844 }, colorScheme: scheme });
    const resp = await page.goto(url, { waitUntil: 'load', timeout: 20000 });
    const seen = await page.evaluate(() => {
        const first = (el) => {
            const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let n = w.nextNode(); n; n = w.nextNode()) {
                const i = n.data.search(/\S/);
                if (i >= 0) {
                    const r = document.createRange();
                    r.setStart(n, i);
                    r.setEnd(n, i + 1);
                    return r.getBoundingClientRect();
                }
            }
            return null;
        };
        const paragraphs = [...document.querySelectorAll('article p')].map((p) => {
            const b = p.getBoundingClientRect();
            const c = first(p);
            return {
                text: p.textContent.trim().slice(0, 40),
                left: b.left, right: b.right,
                firstLeft: c ? c.left : null, firstRight: c ? c.right : null,
            };
        });
        const shown = (sel) => {
            const el = document.querySelector(sel);
            return el ? el.innerText : null;
        };
        const lead = document.querySelector('figure.lead img');
        return {
            lang: document.documentElement.lang,
            dir: document.documentElement.dir,
            site: shown('header .site'),
            byline: shown('header .byline'),
            date: shown('header time'),
            readingTime: shown('header .reading-time'),
            leadImage: lead ? {
                src: lead.currentSrc || lead.src,
                naturalWidth: lead.naturalWidth,
                width: lead.getBoundingClientRect().width,
                height: lead.getBoundingClientRect().height,
            } : null,
            title: document.title,
            text: document.body.innerText,
            scrollWidth: document.documentElement.scrollWidth,
            clientWidth: document.documentElement.clientWidth,
            paragraphs,
            background: getComputedStyle(document.body).backgroundColor,
            color: getComputedStyle(document.body).color,
        };
    });
    seen.status = resp ? resp.status() : 0;
    await page.screenshot({ path: out, fullPage: true });
    console.log(JSON.stringify(seen));
} finally {
    await browser.close();
}
