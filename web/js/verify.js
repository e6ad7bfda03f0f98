// Checks any replay file in the browser, without uploading it: a .srr or its JSON, chosen or dropped, is decoded
// and re-simulated by the engine compiled to WebAssembly; the verdict is `stackrace-replay verify`'s, word for word.
import { loadEngine, ReplayError } from './engine.js';
import { $, clear, setState, setText } from './dom.js';
import { ReplayViewer, showVerdict } from './viewer.js';

let engine = null;
let current = null;

async function check(file) {
  setState('loading');
  const verdict = $('verdict');
  verdict.className = 'verdict pending';
  setText(verdict, `checking ${file.name}…`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  engine ??= await loadEngine();
  if (current) current.close();
  current = null;
  clear($('viewer'));
  try {
    current = engine.open(bytes);
  } catch (e) {
    if (!(e instanceof ReplayError)) throw e;
    verdict.className = 'verdict bad';
    verdict.dataset.verdict = 'unreadable';
    setText(verdict, `NOT VERIFIED: ${file.name} is not a readable replay: ${e.message}`);
    setState('ready');
    return;
  }
  showVerdict(verdict, current);
  new ReplayViewer($('viewer'), current);
  setState('ready');
}

function main() {
  const input = $('file');
  input.addEventListener('change', () => { if (input.files.length) check(input.files[0]).catch(fail); });
  const zone = $('drop');
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    if (e.dataTransfer.files.length) check(e.dataTransfer.files[0]).catch(fail);
  });
  setState('ready');
}

function fail(e) {
  const node = $('verdict');
  node.className = 'verdict bad';
  setText(node, e.message);
  setState('error', e.message);
}

main();
