// Opens glance serve's debug page in Debian's Chromium (through
// playwright-core, installed by tools/install-browser.sh) with scripts off,
// as a person reads it, chooses the most probable block in the table, and
// reports what the page shows, as one JSON line:
//   node tools/debug-check.mjs URL OUT.png [WIDTH]
// {"status", "title", "headings": the <h2>s, "image": {"naturalWidth",
//  "naturalHeight", "left", "top", "width", "height"} of the shot once loaded,
//  "rows": [{"rank", "p", "fate", "text", "features": [three texts],
//  "linked": whether the rank is a link}], "methods": [[name, status]],
//  "metadata": [[field, value]], "timings": [[stage, ms]], "marksShownBefore":
//  marks shown before any choice, "chosen": {"rank", "hash", "marksShown",
//  "mark": the box of the mark shown, "row": the background of its row}}
// and saves a full-page screenshot, with the block chosen, to OUT.png.
// tests/test_serve.c runs it.
import { chromium } from 'playwright-core';

const [url, out, width = '1280'] = process.argv.slice(2);
if (!url || !out) {
    console.error('usage: node tools/debug-check.mjs URL OUT.png [WIDTH]');
    process.exit(2);
}
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
try {
    const context = await browser.newContext({
        viewport: { width: Number(width), height: 900 },
        javaScriptEnabled: false,
    });
    const page = await context.newPage();
    const resp = await page.goto(url, { waitUntil: 'load', timeout: 30000 });
    const seen = await page.evaluate(() => {
        const img = document.querySelector('.shot img');
        const r = img ? img.getBoundingClientRect() : null;
        const rows = [...document.querySelectorAll('#blocks tbody tr')].map((tr) => {
            const td = [...tr.querySelectorAll('td')];
            return {
                rank: Number(td[0].innerText),
                p: Number(td[1].innerText),
                fate: td[2].innerText,
                text: td[3].innerText,
                features: [...td[4].querySelectorAll('li')].map((li) => li.innerText),
                linked: !!td[0].querySelector('a'),
            };
        });
        const table = (sel) => [...document.querySelectorAll(sel + ' tbody tr')].map(
            (tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()));
        const shown = [...document.querySelectorAll('.mark')].filter(
            (m) => getComputedStyle(m).display !== 'none').length;
        return {
            title: document.title,
            headings: [...document.querySelectorAll('h2')].map((h) => h.innerText),
            image: img ? {
                naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight,
                left: r.left + scrollX, top: r.top + scrollY, width: r.width, height: r.height,
            } : null,
            rows,
            methods: table('#methods').map((c) => [c[0], c[1]]),
            metadata: table('#metadata').map((c) => [c[0], c[1]]),
            timings: table('#timings'),
            marksShownBefore: shown,
        };
    });
    seen.status = resp ? resp.status() : 0;
    // Choose the most probable block drawn on the shot: its rank's link.
    const best = seen.rows.filter((r) => r.linked).sort((a, b) => a.rank - b.rank)[0];
    if (best) {
        const row = page.locator('#blocks tbody tr').filter({
            has: page.locator(`td:first-child a:text-is("${best.rank}")`),
        });
        await row.locator('td:first-child a').click();
        seen.chosen = await page.evaluate((rank) => {
            const shown = [...document.querySelectorAll('.mark')].filter(
                (m) => getComputedStyle(m).display !== 'none');
            const m = shown[0];
            const b = m ? m.getBoundingClientRect() : null;
            const row = document.querySelector(location.hash.replace('#b', '#r'));
            return {
                rank,
                hash: location.hash,
                marksShown: shown.length,
                mark: b ? { left: b.left + scrollX, top: b.top + scrollY, width: b.width, height: b.height } : null,
                row: row ? getComputedStyle(row).backgroundColor : null,
            };
        }, best.rank);
    }
    await page.screenshot({ path: out, fullPage: true });
    console.log(JSON.stringify(seen));
} finally {
    await browser.close();
}
