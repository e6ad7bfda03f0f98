// The replay page's figures in headless Chromium (web/README.md, "Speed"; issue 27): first paint of a replay page on
// loopback from a cold browser and the bytes it transfers, and the worst of 200 seeks in a 10-minute replay through
// the page's own seek bar (the seek and the drawing of every board and plot it causes), each timed in the page.
//   node page_bench.mjs SERVER BOT   (tests/bench/web/page_bench.sh builds them)
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, startServer, stop, tempDir } from '../../web_pages/harness.mjs';

const [serverBin, botBin] = process.argv.slice(2);
const data = tempDir('page-bench');
// A 10-minute game (ultra 600 s) by the bot, stored under a web id.
const LONG = '0000000000000600';
execFileSync(botBin, ['--mode', 'ultra', '--seconds', '600', '--seed', '6', '--pps', '4', '--out', join(data, `${LONG}.srr`)]);
const { server, url } = await startServer(serverBin, data);
const browser = await Browser.launch();
try {
  const page = await browser.open(null);
  await page.send('Network.setCacheDisabled', { cacheDisabled: true });
  const runs = [];
  for (let i = 0; i < 5; ++i) {
    page.requests = [];
    await page.goto(`${url}games/${LONG}`);
    await page.waitFor('the page', `document.body.dataset.state === 'ready'`, 60000);
    const t = await page.eval(`(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return { fcp: paint ? paint.startTime : -1, ready: performance.now(), dom: nav.domContentLoadedEventEnd };
    })()`);
    // "Ready" is the first paint of the boards: the replay fetched, verified and drawn.
    const bytes = page.requests.reduce((sum, r) => sum + r.bytes, 0);
    runs.push({ ...t, bytes, requests: page.requests.length });
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`replay page (10-minute game, cold cache, loopback): first contentful paint median ` +
              `${median(runs.map((r) => r.fcp)).toFixed(0)} ms, boards drawn (fetched, verified in the browser) median ` +
              `${median(runs.map((r) => r.ready)).toFixed(0)} ms, ${runs[0].requests} requests, ` +
              `${(runs[0].bytes / 1024).toFixed(0)} KiB transferred`);
  const seeks = await page.eval(`(() => {
    const bar = document.getElementById('seek');
    const max = Number(bar.max);
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const times = [];
    for (let i = 0; i < 200; ++i) {
      bar.value = String(Math.floor(next() * max));
      const t0 = performance.now();
      bar.dispatchEvent(new Event('input'));
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { median: times[100], p99: times[198], max: times[199] };
  })()`);
  console.log(`seek in the 10-minute replay (200 seeks through the seek bar, each with its boards and plots drawn): ` +
              `median ${seeks.median.toFixed(2)} ms, p99 ${seeks.p99.toFixed(2)} ms, worst ${seeks.max.toFixed(2)} ms`);
  const pieces = await page.eval(`document.querySelector('.racer').dataset.pieces`);
  console.log(`(the game: ${await page.eval(`document.getElementById('clock').textContent`)}, ${pieces} pieces at the last seek)`);
  const problems = page.problems();
  if (problems.length) console.log(`page problems: ${problems.join('; ')}`);
} finally {
  await browser.close();
  await stop(server);
  rmSync(data, { recursive: true, force: true });
}
