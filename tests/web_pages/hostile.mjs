// Hostile text on every page, in headless Chromium (tests/web_pages/README.md). Players named "<script>x1", a room
// titled '"><img src=x onerror=...>', chat lines with <script>, an <img> with onerror, a javascript: link, right-to-left
// marks and 200 characters, a server name and message of the day with markup, and a stored replay whose racers' names
// (64 bytes, the format's limit) hold markup and RLO marks. Every page must show each of them as text, run no script
// of theirs (window.__pwned stays unset, no <img> or foreign <script> element exists, no link is javascript:), report
// no Content-Security-Policy violation, and still render. One browser start.
//   node hostile.mjs SERVER BOT REPLAY_TOOL TEST_DATA SCREENSHOT_DIR
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, check, run, startServer, stop, tempDir, waitFor } from './harness.mjs';

const [serverBin, botBin, replayBin, testData, shots] = process.argv.slice(2);
const ROOM = '"><img src=x onerror=__pwned=1>';
const PREFIX = '<script>x';
const CHAT = [
  '<script>window.__pwned = 2</script>',
  '"><img src=x onerror="window.__pwned=3">',
  'javascript:window.__pwned=4',
  '\u202Eevil right-to-left override\u202C and \u200Fmarks\u200E <b>bold</b>',
  'A'.repeat(199) + '<',
];
const SERVER_NAME = '<img src=x onerror=__pwned=5>';
const MOTD = '<script>window.__pwned=6</script>\nsecond line & <i>more</i>';
const REPLAY_NAMES = ['<img src=x onerror=window.__pwned=7>\u202Efdp.exe', '</pre><script>window.__pwned=8</script>'];
const GAME = '00000000000000b7';

const data = tempDir('hostile');
const files = tempDir('hostile-files');
// A stored replay with hostile racer names: the golden race with its names changed (names are not simulated, so it
// still verifies).
const json = join(files, 'race.json');
execFileSync(replayBin, ['export', '--json', join(testData, 'current', 'race_sprint.srr'), '-o', json]);
const replay = JSON.parse(readFileSync(json, 'utf8'));
replay.racers[0].name = REPLAY_NAMES[0];
replay.racers[1].name = REPLAY_NAMES[1];
writeFileSync(json, JSON.stringify(replay));
execFileSync(replayBin, ['import', json, join(data, `${GAME}.srr`)]);

const { server, port, url } = await startServer(serverBin, data, ['--name', SERVER_NAME, '--motd', MOTD]);
const bots = run(botBin, ['--server', `127.0.0.1:${port}`, '--count', '2', '--room-size', '2', '--create', 'sprint',
                          '--lines', '10', '--races', '1', '--pps', '3', '--name-prefix', PREFIX, '--room', ROOM,
                          '--timeout', '180', ...CHAT.flatMap((c) => ['--say', c])]);
const browser = await Browser.launch();

// What every page must hold to: nothing of the players' ran or was made into an element.
async function clean(page, name) {
  check(await page.eval('window.__pwned === undefined'), `${name}: no script of the players ran`);
  check(await page.eval(`document.querySelectorAll('img, iframe, object, embed').length`) === 0,
        `${name}: no element made from their text`);
  check(await page.eval(`[...document.scripts].every((s) => s.src && new URL(s.src).origin === location.origin)`),
        `${name}: only the site's own scripts`);
  check(await page.eval(`[...document.querySelectorAll('a[href]')].every((a) => /^https?:/.test(a.href) || a.getAttribute('href') === '#')`),
        `${name}: no javascript: or data: link`);
  const csp = page.logs.filter((e) => /Content.Security.Policy/i.test(e.text));
  check(csp.length === 0, `${name}: no Content-Security-Policy violation (${csp.map((e) => e.text).join('; ')})`);
  check(page.exceptions.length === 0, `${name}: no script error (${page.exceptions.join('; ')})`);
}
const texts = (page, selector) => page.eval(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((n) => n.textContent)`);

try {
  const room = await waitFor('the bots to race', async () => {
    const { rooms } = await (await fetch(`${url}api/v1/rooms`)).json();
    return rooms.find((r) => r.name === ROOM && r.phase === 'racing');
  }, 60000, 100);

  const live = await browser.open(`${url}live/${room.id}`);
  await live.waitFor('the live page', `document.body.dataset.state === 'ready' && document.querySelectorAll('#chat-lines li').length === ${CHAT.length}`);
  await live.waitFor('two boards', `document.querySelectorAll('#boards .racer').length === 2`);
  check(await live.eval(`document.getElementById('room-name').textContent`) === ROOM, 'live: the room title is shown as text');
  // Two bots say them, so they may arrive in either bot's order.
  check(JSON.stringify((await texts(live, '#chat-lines .chat-text')).sort()) === JSON.stringify([...CHAT].sort()),
        'live: every chat line is shown as typed');
  const names = await texts(live, '#boards .racer h3');
  check(names.length === 2 && names.every((n) => n.includes(PREFIX)), `live: the racers' names are text (${names})`);
  await clean(live, 'live');
  await live.screenshot(join(shots, 'hostile-live.png'));

  const front = await browser.open(url);
  await front.waitFor('the front page', `document.body.dataset.state === 'ready'`);
  check(await front.eval(`document.getElementById('server-name').textContent`) === SERVER_NAME, 'front: the server name is text');
  check(await front.eval(`document.getElementById('motd').textContent`) === MOTD, 'front: the message of the day is text');
  check((await texts(front, '#rooms-body b')).includes(ROOM), 'front: the room title is text');
  check((await texts(front, '#recent-body b')).includes(REPLAY_NAMES[0]), 'front: a stored racer name is text');
  await clean(front, 'front');
  await front.screenshot(join(shots, 'hostile-front.png'));

  const game = await browser.open(`${url}games/${GAME}`);
  await game.waitFor('the game page', `document.body.dataset.state === 'ready'`);
  check(await game.eval(`document.getElementById('verdict').dataset.verdict`) === 'verified', 'game: still verified');
  const heads = await texts(game, '.racer h3');
  check(heads[0].includes(REPLAY_NAMES[0]) && heads[1].includes(REPLAY_NAMES[1]), 'game: the names are text');
  await clean(game, 'game');
  await game.screenshot(join(shots, 'hostile-game.png'));

  await live.waitFor('the race to end', `document.body.dataset.replay !== undefined`, 120000);
  const list = await browser.open(`${url}games?player=${encodeURIComponent(PREFIX + '1')}`);
  await list.waitFor('the games list', `document.body.dataset.state === 'ready'`);
  check(await list.eval(`document.querySelector('#filters input[name=player]').value`) === PREFIX + '1', 'games: the filter is shown as typed');
  check(await list.eval(`document.querySelectorAll('#games-body tr').length`) === 1, 'games: the race is listed');
  await clean(list, 'games');
  await list.screenshot(join(shots, 'hostile-games.png'));
  check((await bots.done).code === 0, `the bots raced (${bots.err.trim()})`);
} finally {
  await browser.close();
  await stop(bots);
  await stop(server);
  rmSync(data, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
}
console.log(process.exitCode ? 'hostile text: FAIL' : 'hostile text: PASS');
