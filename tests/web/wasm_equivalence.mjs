// The WebAssembly engine equals the native one: for every file wasm_corpus listed in native.txt (the golden replays,
// 200 fresh bot games, the tampered files), the digest computed under node by the WebAssembly build
// (web/js/engine.js) must be the native digest, line for line: every per-change state hash, every seek, the
// verdict and its sentence, the recorded and re-simulated results. Fails naming the first line that differs.
// usage: node wasm_equivalence.mjs ENGINE_JS CORPUS_DIR
import { readFileSync } from 'node:fs';
import { loadEngineFile } from '../../web/js/engine.js';

const [enginePath, corpus] = process.argv.slice(2);
if (!enginePath || !corpus) {
  console.error('usage: node wasm_equivalence.mjs ENGINE_JS CORPUS_DIR');
  process.exit(2);
}
const engine = await loadEngineFile(enginePath);
const native = readFileSync(`${corpus}/native.txt`, 'utf8');
const sections = native.split(/^=== /m).slice(1);
let lines = 0;
for (const section of sections) {
  const newline = section.indexOf('\n');
  const [path, flags] = section.slice(0, newline).split('\t');
  const want = section.slice(newline + 1).split('\n');
  const got = engine.digest(readFileSync(path), { recordMissing: flags === '1' }).split('\n');
  const n = Math.max(want.length, got.length);
  for (let i = 0; i < n; ++i) {
    if (want[i] !== got[i]) {
      console.error(`wasm equivalence: FIRST DIFFERENCE in ${path}, digest line ${i + 1}:`);
      console.error(`  native: ${want[i] ?? '(no line)'}`);
      console.error(`  wasm:   ${got[i] ?? '(no line)'}`);
      process.exit(1);
    }
  }
  lines += want.length - 1;
}
if (sections.length < 200) {
  console.error(`wasm equivalence: only ${sections.length} files in ${corpus}/native.txt`);
  process.exit(1);
}
console.log(`wasm equivalence: ${sections.length} replays, ${lines} digest lines, all equal to the native engine's ` +
            `(node ${process.version})`);
