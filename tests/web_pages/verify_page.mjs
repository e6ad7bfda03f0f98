// The verify page in headless Chromium (tests/web_pages/README.md): a golden replay chosen from the disk is verified in
// the browser; the same replay with one result changed is NOT VERIFIED with `stackrace-replay verify`'s own
// sentence; bytes that are no replay are refused with the decoder's. Nothing is uploaded. One browser start.
//   node verify_page.mjs SERVER REPLAY_TOOL TEST_DATA SCREENSHOT_DIR
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Browser, check, startServer, stop, tempDir } from './harness.mjs';

const [serverBin, replayBin, testData, shots] = process.argv.slice(2);
const data = tempDir('verify-page');
const files = tempDir('verify-files');
const golden = resolve(testData, 'current', 'race_sprint.srr');  // Chromium wants absolute paths
// The tampered copy: racer 1's recorded score is one more than its inputs give.
const json = join(files, 'race.json');
execFileSync(replayBin, ['export', '--json', golden, '-o', json]);
const replay = JSON.parse(readFileSync(json, 'utf8'));
replay.racers[1].result.stats.score += 1;
const tampered = join(files, 'tampered.json');
writeFileSync(tampered, JSON.stringify(replay, null, 1));
const cli = spawnSync(replayBin, ['verify', tampered], { encoding: 'utf8' });
const junk = join(files, 'junk.srr');
writeFileSync(junk, 'not a replay at all');

const { server, url } = await startServer(serverBin, data);
const browser = await Browser.launch();
try {
  const page = await browser.open(`${url}verify`);
  await page.waitFor('the verify page', `document.body.dataset.state === 'ready'`);
  const { root } = await page.send('DOM.getDocument');
  const { nodeId } = await page.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#file' });
  const choose = async (file) => {
    await page.eval(`document.body.dataset.state = 'choosing'`);
    await page.send('DOM.setFileInputFiles', { files: [file], nodeId });
    await page.waitFor(`${file} to be checked`, `document.body.dataset.state === 'ready'`);
    return page.eval(`(() => { const v = document.getElementById('verdict');
                              return { verdict: v.dataset.verdict, text: v.textContent }; })()`);
  };
  const good = await choose(golden);
  check(good.verdict === 'verified' && good.text === '✓ verified in your browser: verified 3 racers',
        `the golden replay is verified (${good.text})`);
  check(await page.eval(`document.querySelectorAll('#viewer .racer').length`) === 3, 'and shown in the viewer');
  await page.screenshot(join(shots, 'verify-page-verified.png'));
  const bad = await choose(tampered);
  check(bad.verdict === 'mismatch', `the tampered replay is a mismatch (${bad.text})`);
  // stackrace-replay verify prints "MISMATCH FILE: <sentence>"; the page says "NOT VERIFIED: <sentence>".
  const line = cli.stdout.split('\n')[0];
  const sentence = line.startsWith(`MISMATCH ${tampered}: `) ? line.slice(`MISMATCH ${tampered}: `.length) : line;
  check(bad.text === `NOT VERIFIED: ${sentence}`, `with stackrace-replay verify's sentence (${sentence})`);
  check(cli.status !== 0, 'which stackrace-replay verify rejects too');
  await page.screenshot(join(shots, 'verify-page-tampered.png'));
  const unreadable = await choose(junk);
  check(unreadable.verdict === 'unreadable' && unreadable.text.startsWith('NOT VERIFIED: junk.srr is not a readable replay: '),
        `bytes that are no replay are refused (${unreadable.text})`);
  check(page.requests.every((r) => !r.url.includes('junk') && !r.url.includes('tampered')), 'no file was uploaded');
  check(page.problems().length === 0, `no errors or CSP violations (${page.problems().join('; ')})`);
} finally {
  await browser.close();
  await stop(server);
  rmSync(data, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
}
console.log(process.exitCode ? 'verify page: FAIL' : 'verify page: PASS');
