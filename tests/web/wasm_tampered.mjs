// A tampered replay is NOT VERIFIED under node, with the very sentence the native verifier gives: every file of
// wasm_corpus's tampered.txt ("<path>\t<verdict number>\t<message>", written natively) through the JavaScript API's
// verify() and open().
// usage: node wasm_tampered.mjs ENGINE_JS CORPUS_DIR
import { readFileSync } from 'node:fs';
import { loadEngineFile } from '../../web/js/engine.js';

const [enginePath, corpus] = process.argv.slice(2);
const engine = await loadEngineFile(enginePath);
const rows = readFileSync(`${corpus}/tampered.txt`, 'utf8').split('\n').filter((l) => l.length > 0);
let failed = 0;
for (const row of rows) {
  const [path, verdict, message] = row.split('\t');
  const bytes = readFileSync(path);
  const checked = engine.verify(bytes);
  const replay = engine.open(bytes);
  const problems = [];
  if (verdict !== '1') problems.push(`native verdict is ${verdict}, not 1 (mismatch)`);
  if (checked.verdict !== 'mismatch') problems.push(`verify() says ${checked.verdict}`);
  if (checked.message !== message) problems.push(`verify() says "${checked.message}", natively "${message}"`);
  if (replay.verified || replay.verdict !== 'mismatch') problems.push(`open() says ${replay.verdict}`);
  if (replay.message !== message) problems.push(`open() says "${replay.message}", natively "${message}"`);
  if (!replay.summary.racers.some((r) => !r.verified && r.disagreement !== null)) {
    problems.push('no racer of the summary carries the disagreement');
  }
  replay.close();
  if (problems.length > 0) {
    ++failed;
    console.error(`FAILED ${path}: ${problems.join('; ')}`);
  } else {
    console.log(`NOT VERIFIED under node, as natively: ${path}: ${message}`);
  }
}
console.log(`${rows.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 && rows.length >= 5 ? 0 : 1);
