// stackrace's engine for web pages: the very common/engine and common/replay the game, the server and
// stackrace-replay run, compiled to WebAssembly (stackrace_engine.js + stackrace_engine.wasm), behind a small API.
// Pages decode a replay, verify it exactly as `stackrace-replay verify` does ("verified in your browser"), and
// walk through it racer by racer. The whole API, with examples: web/README.md ("The JavaScript API").
//
// An ES module without dependencies. In a page:
//   <script src="/wasm/stackrace_engine.js"></script>          (defines createStackraceEngine)
//   <script type="module">
//     import { loadEngine } from '/js/engine.js';
//     const engine = await loadEngine();                        (finds stackrace_engine.wasm beside the loader)
//   </script>
// In node (tests, tools): const engine = await loadEngineFile('build/.../web/stackrace_engine.js');

const textDecoder = new TextDecoder();
const textEncoder = new TextEncoder();

const VERDICTS = ['verified', 'mismatch', 'unsupported_rules'];

// Loads the module. options:
//   factory     the loader's factory (default: the global createStackraceEngine its <script> defined)
//   wasmUrl     where to fetch stackrace_engine.wasm (default: beside the loader's script)
//   wasmBinary  the .wasm bytes, already loaded (node: the loader's own fetch of a file path fails under node 18+)
export async function loadEngine(options = {}) {
  const factory = options.factory ?? globalThis.createStackraceEngine;
  if (typeof factory !== 'function') {
    throw new Error('stackrace engine: load stackrace_engine.js first, or pass its factory as options.factory');
  }
  const moduleArg = {};
  if (options.wasmBinary) moduleArg.wasmBinary = options.wasmBinary;
  if (options.wasmUrl) moduleArg.locateFile = (path, prefix) => (path.endsWith('.wasm') ? options.wasmUrl : prefix + path);
  return new Engine(await factory(moduleArg));
}

// Node only: loads the loader at `jsPath` and the .wasm beside it from the file system.
export async function loadEngineFile(jsPath) {
  const { createRequire } = await import('node:module');
  const { readFileSync } = await import('node:fs');
  const factory = createRequire(import.meta.url)(jsPath);
  return loadEngine({ factory, wasmBinary: readFileSync(jsPath.replace(/\.js$/, '.wasm')) });
}

// A replay that does not decode: message is the decoder's sentence ("racers[0].inputs at byte 45: ...").
export class ReplayError extends Error {}

class Engine {
  constructor(m) {
    this._m = m;
    // {rules_version, oldest_rules_version, format_version, snapshot_every}
    this.info = JSON.parse(this._text(m._sr_engine_info()));
  }

  // Decodes and verifies a replay: .srr bytes or its JSON export (a Uint8Array, an ArrayBuffer or a string).
  // options.recordMissing: a hand-written JSON file may leave results out (they are then recorded by playing it).
  // Throws ReplayError when the bytes do not decode.
  open(bytes, options = {}) {
    const handle = this._withBytes(bytes, (p, n) => this._m._sr_open(p, n, flags(options)));
    if (handle === 0) throw new ReplayError(this._text(this._m._sr_message()));
    return new Replay(this, handle);
  }

  // Decodes and verifies without keeping the replay: {verdict, message}, verdict one of 'verified', 'mismatch',
  // 'unsupported_rules' or 'unreadable' (the bytes do not decode; message says why).
  verify(bytes, options = {}) {
    const v = this._withBytes(bytes, (p, n) => this._m._sr_verify(p, n, flags(options)));
    return { verdict: v < 0 ? 'unreadable' : VERDICTS[v], message: this._text(this._m._sr_message()) };
  }

  // Opens a live race (web/README.md, "The live feed") from its start: the `replay` member of the feed's `race`
  // event (the replay's JSON text, or an object: a seed beyond 2^53 survives only as text). Throws ReplayError when it
  // does not decode.
  openLive(start) {
    const text = typeof start === 'string' ? start : JSON.stringify(start);
    const handle = this._withBytes(text, (p, n) => this._m._sr_live_open(p, n));
    if (handle === 0) throw new ReplayError(this._text(this._m._sr_message()));
    return new LiveRace(this, handle, JSON.parse(text).racers.length);
  }

  // The replay's digest (web/wasm/digest.h): every state hash and result, one per line, for comparing builds.
  digest(bytes, options = {}) {
    return this._text(this._withBytes(bytes, (p, n) => this._m._sr_digest(p, n, flags(options))));
  }

  _text(pointer) {
    const heap = this._m.HEAPU8;  // read anew each time: the memory may have grown
    let end = pointer;
    while (heap[end] !== 0) ++end;
    return textDecoder.decode(heap.subarray(pointer, end));
  }

  _withBytes(bytes, use) {
    const data = typeof bytes === 'string' ? textEncoder.encode(bytes)
               : bytes instanceof ArrayBuffer ? new Uint8Array(bytes)
               : bytes;
    const p = this._m._sr_alloc(data.length);
    try {
      this._m.HEAPU8.set(data, p);
      return use(p, data.length);
    } finally {
      this._m._sr_free(p);
    }
  }
}

function flags(options) { return options.recordMissing ? 1 : 0; }

function parse(text) { return text === '' ? null : JSON.parse(text); }

class Replay {
  constructor(engine, handle) {
    this._engine = engine;
    this._handle = handle;
    // Everything about the replay (web/README.md, "summary"): config, verdict, message, and per racer its name, the
    // recorded result and whether the verifier agreed with it.
    this.summary = JSON.parse(engine._text(engine._m._sr_summary(handle)));
    this.racers = this.summary.racers.map((_, i) => new Racer(engine, handle, i));
  }

  get verdict() { return this.summary.verdict; }
  get message() { return this.summary.message; }
  get verified() { return this.summary.verdict === 'verified'; }
  // The latest recorded end of any racer, in microseconds.
  get endUs() { return this.summary.end_us; }

  // Frees the replay inside the engine; the object is unusable afterwards.
  close() {
    this._engine._m._sr_close(this._handle);
    this._handle = 0;
  }
}

// One racer's game at a cursor; every move answers whether the cursor moved.
class Racer {
  constructor(engine, handle, index) {
    this._engine = engine;
    this._m = engine._m;
    this._handle = handle;
    this.index = index;
  }

  seekTime(timeUs) { return this._m._sr_seek_time(this._handle, this.index, timeUs) === 1; }
  seekPiece(piece) { return this._m._sr_seek_piece(this._handle, this.index, piece) === 1; }
  seekChange(change) { return this._m._sr_seek_change(this._handle, this.index, change) === 1; }
  stepPiece(direction) { return this._m._sr_step_piece(this._handle, this.index, direction) === 1; }
  stepChange(direction) { return this._m._sr_step_change(this._handle, this.index, direction) === 1; }

  // Where the cursor is: game time (microseconds) and changes applied.
  get timeUs() { return this._m._sr_time_us(this._handle, this.index); }
  get changes() { return this._m._sr_changes(this._handle, this.index); }
  // The racer's recorded end, in microseconds.
  get endUs() { return this._m._sr_end_us(this._handle, this.index); }

  // The racer at the cursor (web/README.md, "frame"): board, active piece and ghost, hold, next, buttons, stats.
  // null once the replay is closed.
  frame() { return parse(this._engine._text(this._m._sr_frame(this._handle, this.index))); }
  // The whole recording (web/README.md, "track"): every change with its state hash, every lock's time, the end.
  track() { return parse(this._engine._text(this._m._sr_track(this._handle, this.index))); }
}

// A race followed live: one game per racer, fed the relayed inputs as they come (web/wasm/live_race.h).
class LiveRace {
  constructor(engine, handle, racers) {
    this._engine = engine;
    this._m = engine._m;
    this._handle = handle;
    this.racers = Array.from({ length: racers }, (_, i) => new LiveRacer(this, i));
  }

  close() {
    this._m._sr_live_close(this._handle);
    this._handle = 0;
  }
}

class LiveRacer {
  constructor(race, index) {
    this._race = race;
    this.index = index;
  }

  // Changes numbered from firstSeq ([[time_us, buttons], ...], as the feed's `inputs` event has them), then the game
  // fed up to nowUs. Changes the game already has are skipped. Throws an Error (the engine's sentence) when refused:
  // a gap, a time that goes back, unknown buttons.
  push(firstSeq, nowUs, changes) {
    const m = this._race._m;
    const flat = new Float64Array(changes.length * 2);
    changes.forEach(([t, b], i) => { flat[2 * i] = t; flat[2 * i + 1] = b; });
    const p = m._sr_alloc(flat.byteLength);
    try {
      new Float64Array(m.HEAPU8.buffer, p, flat.length).set(flat);
      if (m._sr_live_push(this._race._handle, this.index, firstSeq, nowUs, p, changes.length) !== 1) {
        throw new Error(this._race._engine._text(m._sr_message()));
      }
    } finally {
      m._sr_free(p);
    }
  }

  // The racer's game ended at timeUs: fed up to it.
  end(timeUs) { return this._race._m._sr_live_end(this._race._handle, this.index, timeUs) === 1; }
  // Changes the game has had: the sequence number of the next one.
  get changes() { return this._race._m._sr_live_changes(this._race._handle, this.index); }
  // The game now, as Racer.frame() gives it (web/README.md, "frame").
  frame() { return parse(this._race._engine._text(this._race._m._sr_live_frame(this._race._handle, this.index))); }
}
