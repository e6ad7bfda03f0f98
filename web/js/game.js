// The page of one stored game (games/<id>): fetches its .srr, re-simulates it with the engine compiled to
// WebAssembly and shows "verified in your browser" only when the result equals the stored one, then the viewer.
import { loadEngine, ReplayError } from './engine.js';
import { $, el, formatDate, getJson, modeText, setState, setText } from './dom.js';
import { ReplayViewer, showVerdict } from './viewer.js';

async function main() {
  setState('loading');
  const id = location.pathname.split('/').filter(Boolean).pop();
  setText($('game-id'), id);
  document.title = `stackrace: game ${id}`;
  $('download-srr').setAttribute('href', new URL(`${id}.srr`, location.href).href);
  $('download-json').setAttribute('href', new URL(`${id}.json`, location.href).href);
  getJson(`api/v1/games/${id}`).then((g) => {
    setText($('meta'), `${modeText(g.mode)} · played ${formatDate(g.played_unix_ms)} on ${g.place} · ` +
                       `${g.racers.length} racer${g.racers.length === 1 ? '' : 's'}`);
  }).catch(() => {});
  const response = await fetch(new URL(`${id}.srr`, location.href));
  if (!response.ok) throw new Error(response.status === 404 ? 'there is no such game on this server' :
                                                              `the replay could not be fetched (${response.status})`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const engine = await loadEngine();
  const replay = engine.open(bytes);
  showVerdict($('verdict'), replay);
  new ReplayViewer($('viewer'), replay);
  setState('ready');
}

main().catch((e) => {
  const node = $('verdict');
  node.className = 'verdict bad';
  setText(node, e instanceof ReplayError ? `NOT VERIFIED: the replay cannot be read: ${e.message}` : e.message);
  setState('error', e.message);
});
