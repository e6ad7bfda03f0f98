// The replay page in headless Chromium (tests/web_pages/README.md): a stored race (tests/data/current/race_sprint.srr,
// three racers) opens, is verified in the browser, seeks, steps by piece, plays, and the board it shows (read from
// the page's DOM) equals `stackrace-replay board` for that game at the same points; the games list and the front
// page list it. One browser start.
//   node replay_page.mjs SERVER REPLAY_TOOL TEST_DATA SCREENSHOT_DIR
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, check, startServer, stop, tempDir } from './harness.mjs';

const [serverBin, replayBin, testData, shots] = process.argv.slice(2);
const GAME = '00000000000000a1';
const golden = join(testData, 'current', 'race_sprint.srr');
const board = (...args) => execFileSync(replayBin, ['board', golden, ...args], { encoding: 'utf8' });

const data = tempDir('replay-page');
copyFileSync(golden, join(data, `${GAME}.srr`));
const { server, url } = await startServer(serverBin, data, ['--contest']);
const browser = await Browser.launch();
try {
  const page = await browser.open(`${url}games/${GAME}`);
  await page.waitFor('the replay page to be ready', `document.body.dataset.state !== 'loading'`);
  check(await page.eval('document.body.dataset.state') === 'ready',
        `the page is ready (${await page.eval('document.body.dataset.message')})`);
  check(await page.eval(`document.getElementById('verdict').dataset.verdict`) === 'verified', 'the verdict is verified');
  check((await page.eval(`document.getElementById('verdict').textContent`)) ===
        '✓ verified in your browser: verified 3 racers', 'the banner says "verified in your browser"');
  const text = (racer) => page.eval(`document.getElementById('board-text-${racer}').textContent`);
  check(await text(0) === board('--racer', '0', '--piece', '0'), 'at the start racer 0 shows the first piece');

  // Seek to 5 s with the seek bar, as a person dragging it.
  await page.eval(`(() => { const s = document.getElementById('seek'); s.value = '5000';
                           s.dispatchEvent(new Event('input')); })()`);
  check(await page.eval('document.body.dataset.timeUs') === '5000000', 'the seek bar moved the game to 5 s');
  for (const r of [0, 1, 2]) check(await text(r) === board('--racer', String(r), '--time-ms', '5000'), `racer ${r} at 5 s`);

  // Step: the followed racer (0) to its next lock, twice, and back once.
  const pieces = Number(await page.eval(`document.querySelector('.racer[data-racer="0"]').dataset.pieces`));
  await page.eval(`document.getElementById('step-forward').click()`);
  await page.eval(`document.getElementById('step-forward').click()`);
  check(await text(0) === board('--racer', '0', '--piece', String(pieces + 2)), `two steps forward: piece ${pieces + 2}`);
  await page.eval(`document.getElementById('step-back').click()`);
  check(await text(0) === board('--racer', '0', '--piece', String(pieces + 1)), `a step back: piece ${pieces + 1}`);

  // Play at 8x for a moment: time goes on.
  await page.eval(`(() => { const s = document.getElementById('speed'); s.value = '8'; s.dispatchEvent(new Event('change'));
                           document.getElementById('play').click(); })()`);
  const before = Number(await page.eval('document.body.dataset.timeUs'));
  await page.waitFor('playback to move the game on', `Number(document.body.dataset.timeUs) > ${before + 2000000}`);
  await page.eval(`document.getElementById('play').click()`);
  await page.screenshot(join(shots, 'replay-page.png'));

  // The end: every racer's final board equals stackrace-replay's.
  await page.eval(`document.getElementById('to-end').click()`);
  for (const r of [0, 1, 2]) check(await text(r) === board('--racer', String(r)), `racer ${r}'s final board equals stackrace-replay board`);
  await page.screenshot(join(shots, 'replay-page-end.png'));
  check(page.problems().length === 0, `no errors or CSP violations (${page.problems().join('; ')})`);

  // The games list and the front page list the game.
  const list = await browser.open(`${url}games`);
  await list.waitFor('the games list', `document.body.dataset.state === 'ready'`);
  check(await list.eval(`document.querySelectorAll('#games-body tr').length`) === 1, 'the games list shows the game');
  check(await list.eval(`document.querySelector('#games-body a').getAttribute('href').endsWith('games/${GAME}')`),
        'its link goes to the game page');
  await list.screenshot(join(shots, 'games-page.png'));
  const front = await browser.open(url);
  await front.waitFor('the front page', `document.body.dataset.state === 'ready'`);
  check(await front.eval(`document.querySelectorAll('#recent-body tr').length`) === 1, 'the front page shows it');
  check(await front.eval(`document.querySelectorAll('#records-body tr').length`) === 1, 'and its best time');
  check(await front.eval(`!document.getElementById('ladder-section').hidden`), 'a --contest server shows its ladder');
  check(await front.eval(`document.getElementById('ladder-rules').textContent`) ===
        '0 entrants; each plays up to 10 ranked games, ranked by the average of the best 3.', 'with its rules');
  await front.screenshot(join(shots, 'front-page.png'));
  check(list.problems().length === 0 && front.problems().length === 0,
        `no errors on the list and front pages (${[...list.problems(), ...front.problems()].join('; ')})`);
} finally {
  await browser.close();
  await stop(server);
}

// Two players with different keys raced as "ada" (the same game, recorded twice with each key): the lists show each
// with their key's short id. The ids are the first 4 bytes of BLAKE2b-256 of the keys (bytes 0..31 and 100..131).
try {
  const race = JSON.parse(execFileSync(replayBin, ['export', '--json', golden], { encoding: 'utf8' }));
  const keys = { '00000000000000a2': 0, '00000000000000a3': 100 };
  for (const [id, first] of Object.entries(keys)) {
    race.created_unix_ms += 1000;
    race.racers[0].key = Array.from({ length: 32 }, (_, i) => (first + i).toString(16).padStart(2, '0')).join('');
    writeFileSync(join(data, `${id}.json`), JSON.stringify(race));
    execFileSync(replayBin, ['import', join(data, `${id}.json`), join(data, `${id}.srr`)]);
    rmSync(join(data, `${id}.json`));
  }
  const again = await startServer(serverBin, data, []);
  const browser2 = await Browser.launch();
  try {
    const list = await browser2.open(`${again.url}games`);
    await list.waitFor('the games list', `document.body.dataset.state === 'ready'`);
    const names = await list.eval(`[...document.querySelectorAll('#games-body .player b')].map((b) => b.textContent).join(',')`);
    check(names.includes('ada #bdf247bd') && names.includes('ada #cb2f5160'),
          `two keys under one name show their short ids (${names})`);
    check(names.split(',').filter((n) => n === 'ada').length === 1, 'the game recorded without keys shows "ada" alone');
    check(names.split(',').filter((n) => n === 'bo').length === 3, 'a name only one player used shows no id');
    await list.screenshot(join(shots, 'games-page-keys.png'));
  } finally {
    await browser2.close();
    await stop(again.server);
  }
} finally {
  rmSync(data, { recursive: true, force: true });
}
console.log(process.exitCode ? 'replay page: FAIL' : 'replay page: PASS');
