// The WebAssembly half of wasm_bench (tests/bench/web/wasm_bench.cpp): the same replays, the same rounds and seeks,
// through web/js/engine.js under node. Prints "verify_ms" (CPU time, best round), "open_ms", "seek_median_ms",
// "seek_p99_ms" and "seek_max_ms" (wall clock) lines.
// usage: node wasm_bench.mjs ENGINE_JS CORPUS_DIR SPRINTS ROUNDS SEEKS LONG_GAME
import { readFileSync } from 'node:fs';
import { loadEngineFile } from '../../../web/js/engine.js';

const [enginePath, dir, sprints, rounds, seeks, longGame] = process.argv.slice(2);
const engine = await loadEngineFile(enginePath);
console.log(`node ${process.version}`);
const files = [];
for (let seed = 1; seed <= Number(sprints); ++seed) files.push(readFileSync(`${dir}/sprint-${seed}.srr`));

let best = Infinity;
for (let round = 0; round < Number(rounds); ++round) {
  const start = process.cpuUsage();
  for (const f of files) {
    const v = engine.verify(f);
    if (v.verdict !== 'verified') throw new Error(`a sprint does not verify under node: ${v.message}`);
  }
  const used = process.cpuUsage(start);
  best = Math.min(best, (used.user + used.system) / 1000);
}
console.log(`verify_ms ${best}`);

const t0 = performance.now();
const replay = engine.open(readFileSync(`${dir}/${longGame}`));
const racer = replay.racers[0];
racer.frame();  // the cursor is made on first use: part of opening
console.log(`open_ms ${performance.now() - t0}`);
const ms = [];
const n = Number(seeks);
for (let i = 0; i < n; ++i) {
  const t = racer.endUs * ((i * 73) % n) / n;
  const start = performance.now();
  racer.seekTime(t);
  racer.frame();
  ms.push(performance.now() - start);
}
ms.sort((a, b) => a - b);
console.log(`seek_median_ms ${ms[Math.floor(ms.length / 2)]}`);
console.log(`seek_p99_ms ${ms[Math.floor(ms.length * 99 / 100)]}`);
console.log(`seek_max_ms ${ms[ms.length - 1]}`);
replay.close();
