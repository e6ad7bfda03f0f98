// The live page in headless Chromium (tests/web_pages/README.md): three bots race a 20-line sprint; the page, opened
// in the middle of the race, catches up at once, follows every board to the results and links the replay; each
// racer's last board on it equals `stackrace-replay board` of the stored replay, and the replay page it links to
// verifies. One browser start.
//   node live_page.mjs SERVER BOT REPLAY_TOOL SCREENSHOT_DIR
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, check, readFeedUntil, run, startServer, stop, tempDir, waitFor } from './harness.mjs';

const [serverBin, botBin, replayBin, shots] = process.argv.slice(2);
const data = tempDir('live-page');
const { server, port, url } = await startServer(serverBin, data);
const bots = run(botBin, ['--server', `127.0.0.1:${port}`, '--count', '3', '--room-size', '3', '--create', 'sprint',
                          '--lines', '20', '--races', '1', '--pps', '2.5', '--name-prefix', 'racer', '--timeout', '180']);
const browser = await Browser.launch();
try {
  // Join mid-race: once the room has been racing for a few seconds.
  const room = await waitFor('the bots to race', async () => {
    const { rooms } = await (await fetch(`${url}api/v1/rooms`)).json();
    return rooms.find((r) => r.phase === 'racing');
  }, 60000, 100);
  // Let the race go on, so the page has something to catch up on: until the feed's live stats show every racer with
  // five pieces down.
  await readFeedUntil('every racer to place 5 pieces', `${url}api/v1/rooms/${room.id}/live`,
                      (event, data) => event === 'stats' && data.racers.length === 3 &&
                                       data.racers.every((r) => r.pieces >= 5));
  const page = await browser.open(`${url}live/${room.id}`);
  await page.waitFor('the live page to connect', `document.body.dataset.state === 'ready'`);
  await page.waitFor('three boards', `document.querySelectorAll('#boards .racer').length === 3`);
  const pieces = () => page.eval(`[...document.querySelectorAll('.board-text')].map((p) =>
      Number(/pieces: (\\d+)/.exec(p.textContent)?.[1] ?? -1))`);
  const caught = await pieces();
  check(caught.every((n) => n >= 3), `the page caught up at once (pieces ${caught})`);
  await waitFor('every board to move on', async () => (await pieces()).every((n, i) => n > caught[i]), 20000, 100);
  check(true, 'every board moved on while watched');
  await page.screenshot(join(shots, 'live-page-racing.png'));
  await page.waitFor('the results', `document.body.dataset.results !== undefined`, 120000);
  await page.waitFor('the replay link', `document.getElementById('replay-link') !== null`, 30000);
  check(await page.eval(`document.querySelectorAll('#results-body tr').length`) === 3, 'the results list 3 racers');
  const banners = await page.eval(`[...document.querySelectorAll('.racer')].map((r) => r.dataset.status)`);
  check(banners.every((s) => s === 'finished' || s === 'topped_out'), `every board has its banner (${banners})`);
  const gameId = await page.eval('document.body.dataset.replay');
  const file = join(data, `${gameId}.srr`);
  for (const r of [0, 1, 2]) {
    const shown = await page.eval(`document.getElementById('board-text-${r}').textContent`);
    const expected = execFileSync(replayBin, ['board', file, '--racer', String(r)], { encoding: 'utf8' });
    if (shown !== expected) console.log(`the page shows:\n${shown}\nstackrace-replay board:\n${expected}`);
    check(shown === expected, `racer ${r}'s last live board equals stackrace-replay board of the stored replay`);
  }
  await page.screenshot(join(shots, 'live-page-results.png'));
  check(page.problems().length === 0, `no errors or CSP violations (${page.problems().join('; ')})`);
  await page.eval(`document.getElementById('replay-link').click()`);
  await page.waitFor('the linked replay page', `location.pathname.endsWith('/games/${gameId}') && document.body?.dataset.state === 'ready'`);
  check(await page.eval(`document.getElementById('verdict').dataset.verdict`) === 'verified', 'the linked replay is verified in the browser');
  const exit = await bots.done;
  check(exit.code === 0, `the bots finished their race (${bots.err.trim()})`);
} finally {
  await browser.close();
  await stop(bots);
  await stop(server);
  rmSync(data, { recursive: true, force: true });
}
console.log(process.exitCode ? 'live page: FAIL' : 'live page: PASS');
