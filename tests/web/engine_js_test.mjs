// The JavaScript API pages use (web/js/engine.js), under node with the WebAssembly build: loading, opening either
// format, errors, the summary, and moving a racer's cursor.
// usage: node engine_js_test.mjs ENGINE_JS DATA_DIR
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngineFile, ReplayError } from '../../web/js/engine.js';

const [enginePath, data] = process.argv.slice(2);
const engine = await loadEngineFile(enginePath);
const golden = (name) => readFileSync(`${data}/current/${name}`);
const tests = [];
const test = (name, body) => tests.push([name, body]);

test('engine info names the rules this build plays', () => {
  assert.deepEqual(engine.info, { rules_version: 1, oldest_rules_version: 1, format_version: 1, snapshot_every: 32 });
});

test('a binary golden opens verified, with its summary', () => {
  const r = engine.open(golden('mode_sprint.srr'));
  assert.equal(r.verified, true);
  assert.equal(r.verdict, 'verified');
  assert.equal(r.message, 'verified 1 racer');
  assert.equal(r.summary.format, 'binary');
  assert.equal(r.summary.config.mode, 'sprint');
  assert.equal(r.summary.config.limit_value, 40);
  assert.equal(typeof r.summary.seed, 'string');
  assert.equal(r.racers.length, 1);
  assert.equal(r.summary.racers[0].name, 'sprinter');
  assert.equal(r.summary.racers[0].verified, true);
  assert.equal(r.summary.racers[0].disagreement, null);
  assert.equal(r.endUs, r.summary.racers[0].stats.time_us);
  r.close();
});

test('the JSON export opens from a string and from an ArrayBuffer', () => {
  const text = readFileSync(`${data}/current/mode_sprint.json`, 'utf8');
  const a = engine.open(text);
  const bytes = golden('mode_sprint.json');
  const b = engine.open(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  assert.equal(a.summary.format, 'json');
  assert.deepEqual(a.summary, b.summary);
  assert.equal(a.verified, true);
  a.close();
  b.close();
});

test('bytes that do not decode throw the decoder sentence', () => {
  assert.throws(() => engine.open('not a replay'),
                (e) => e instanceof ReplayError &&
                       e.message === 'at byte 0: not a stackrace replay (the file does not start with "SRRP")');
  assert.deepEqual(engine.verify(new Uint8Array(3)),
                   { verdict: 'unreadable', message: 'at byte 0: a replay file is at least 7 bytes, this input has 3' });
});

test('a hand-written file needs recordMissing', () => {
  const bytes = readFileSync(`${data}/handwritten_tspin.json`);
  assert.throws(() => engine.open(bytes), ReplayError);
  const r = engine.open(bytes, { recordMissing: true });
  assert.equal(r.verified, true);
  const racer = r.racers[0];
  const start = racer.frame();
  assert.equal(start.phase, 'falling');
  assert.equal(start.board.length, 40);
  assert.equal(start.board[0], 'GGGG.GGGGG');
  assert.equal(start.active.piece, 'T');
  assert.deepEqual(start.active.cells, [[4, 20], [3, 19], [4, 19], [5, 19]]);
  assert.deepEqual(start.active.ghost_cells, [[4, 4], [3, 3], [4, 3], [5, 3]]);
  assert.deepEqual(start.next, ['I', 'O', 'L', 'J', 'S']);
  assert.equal(start.hold, null);
  assert.equal(racer.stepPiece(1), true);
  const locked = racer.frame();
  assert.equal(locked.stats.pieces, 1);
  assert.equal(locked.stats.tspin_doubles, 1);
  assert.equal(locked.board[0], 'GGGG......');
  assert.equal(racer.timeUs, 400000);
  r.close();
  assert.equal(racer.frame(), null);
});

test('cursor moves answer whether they moved, and frames follow the track', () => {
  const r = engine.open(golden('hold_heavy.srr'));
  const racer = r.racers[0];
  const track = racer.track();
  assert.equal(track.changes.length, r.summary.racers[0].changes);
  assert.equal(track.locks.length, r.summary.racers[0].stats.pieces);
  assert.equal(track.end_hash, r.summary.racers[0].final_hash);
  assert.equal(racer.stepChange(-1), false);
  assert.equal(racer.seekChange(track.changes.length + 1), false);
  for (const c of [track.changes.length, 1, Math.floor(track.changes.length / 2)]) {
    assert.equal(racer.seekChange(c), true);
    assert.equal(racer.changes, c);
    assert.equal(racer.timeUs, track.changes[c - 1][0]);
    const f = racer.frame();
    assert.equal(f.state_hash, track.changes[c - 1][2]);
    assert.equal(f.buttons, track.changes[c - 1][1]);
  }
  assert.equal(racer.seekPiece(3), true);
  assert.equal(racer.timeUs, track.locks[2]);
  assert.equal(racer.seekPiece(track.locks.length + 1), false);
  assert.equal(racer.seekTime(1e18), true);
  assert.equal(racer.timeUs, racer.endUs);
  assert.equal(racer.frame().state_hash, track.end_hash);
  r.close();
});

test('a race opens with a cursor per racer', () => {
  const r = engine.open(golden('race_sprint.srr'));
  assert.equal(r.verified, true);
  assert.ok(r.racers.length >= 2);
  for (const racer of r.racers) {
    assert.equal(racer.seekTime(racer.endUs), true);
    assert.equal(racer.frame().state_hash, r.summary.racers[racer.index].final_hash);
  }
  r.close();
});

let failed = 0;
for (const [name, body] of tests) {
  try {
    body();
    console.log(`ok ${name}`);
  } catch (e) {
    ++failed;
    console.error(`FAILED ${name}: ${e.stack}`);
  }
}
console.log(`${tests.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
