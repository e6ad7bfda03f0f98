// A race in progress (live/<room>): the room's live feed (web/README.md, "The live feed") as Server-Sent Events. A
// page that joins at any moment gets the whole race so far and catches up at once, as the game's spectators do;
// every racer's board is that racer's game, played by the engine compiled to WebAssembly from the relayed inputs.
import { loadEngine } from './engine.js';
import { BoardView, KeysView, boardText } from './board.js';
import { $, STATUS_TEXT, clear, el, formatTime, modeText, ppsText, setState, setText, siteUrl } from './dom.js';

const LAGGING_AFTER_MS = 1000;  // as the game's RacerBoard::lagging
const CHAT_KEPT = 50;

const roomId = location.pathname.split('/').filter(Boolean).pop();
let engine = null;
let race = null;  // {id, live, racers: [...], byPlayer: Map, results}
let feed = null;
let queue = Promise.resolve();  // events are handled in order, after the engine has loaded

function panelFor(r, i) {
  const panel = el('div', { class: 'racer', 'data-racer': i, 'data-player': r.player_id });
  const banner = el('div', { class: 'banner', hidden: true });
  panel.append(el('h3', { title: r.name }, el('span', { class: 'place' }), el('bdi', {}, r.name)), banner);
  const board = new BoardView(panel);
  const keys = new KeysView(panel);
  const stats = el('dl', { class: 'stats' });
  const text = el('pre', { class: 'board-text', id: `board-text-${i}`, hidden: true });
  panel.append(stats, text);
  return { ...r, index: i, panel, banner, board, keys, stats, text, status: 'racing', place: 0, lastRelay: 0,
           dirty: true, reason: '', live: null };
}

function onRace(data) {
  if (race) race.live.close();
  const live = engine.openLive(data.replay);
  const racers = data.racers.map(panelFor);
  race = { id: data.race_id, live, racers, byPlayer: new Map(racers.map((r) => [r.player_id, r])), started: false,
           results: null };
  const boards = $('boards');
  boards.replaceChildren(...racers.map((r) => r.panel));
  $('results').hidden = true;
  clear($('results-body'));
  setText($('replay-link-line'), '');
  setText($('race-status'), `race ${data.race_id}: countdown`);
  setText($('cut'), '');
  document.body.dataset.raceId = String(data.race_id);
  delete document.body.dataset.results;
}

function onInputs(data) {
  const r = race?.id === data.race_id ? race.byPlayer.get(data.player_id) : undefined;
  if (!r) return;
  race.live.racers[r.index].push(data.first_seq, data.now_us, data.changes);
  r.lastRelay = performance.now();
  r.dirty = true;
  if (!race.started) {
    race.started = true;
    setText($('race-status'), `race ${race.id}: racing`);
  }
}

function onStats(data) {
  if (race?.id !== data.race_id) return;
  for (const s of data.racers) {
    const r = race.byPlayer.get(s.player_id);
    if (!r) continue;
    r.place = s.place;
    r.liveStats = s;
    r.dirty = true;
  }
}

function onEnded(data) {
  const r = race?.id === data.race_id ? race.byPlayer.get(data.player_id) : undefined;
  if (!r) return;
  r.status = data.status;
  r.place = data.place;
  r.reason = data.reason;
  r.endedAt = data.time_us;
  race.live.racers[r.index].end(data.time_us);
  r.dirty = true;
}

function onResults(data) {
  if (race?.id !== data.race_id) return;
  race.results = data;
  const body = $('results-body');
  body.replaceChildren(...data.racers.map((r) => el('tr', {},
      el('td', {}, r.place ? String(r.place) : '-'),
      el('td', {}, el('b', {}, r.name)),
      el('td', {}, STATUS_TEXT[r.status] ?? r.status),
      el('td', {}, formatTime(r.time_us)),
      el('td', {}, String(r.lines)), el('td', {}, String(r.score)), el('td', {}, String(r.pieces)),
      el('td', {}, ppsText(r.pps_x100)), el('td', {}, ppsText(r.kpp_x100)))));
  $('results').hidden = false;
  setText($('race-status'), `race ${data.race_id}: over (${data.reason.replace('_', ' ')})`);
  document.body.dataset.results = String(data.race_id);
}

function onReplay(data) {
  if (race?.id !== data.race_id) return;
  const line = $('replay-link-line');
  if (data.page) {
    line.replaceChildren(el('a', { href: siteUrl(data.page), id: 'replay-link' }, 'Watch the replay'),
                         ' (verified in your browser there)');
    document.body.dataset.replay = data.game_id;
  } else {
    setText(line, `the replay is not stored: ${data.reason}`);
  }
}

function onRoom(room) {
  setText($('room-name'), room.name);
  document.title = `${room.name}: live on stackrace`;
  setText($('room-line'), `${modeText(room.mode)} · ${room.phase} · ${room.racers}/${room.max_racers} racers` +
                          (room.spectators ? ` · ${room.spectators} watching in the game` : ''));
  if (!race) setText($('race-status'), room.phase === 'waiting' ? 'waiting for the next race' : room.phase);
  document.body.dataset.phase = room.phase;
}

function onChat(data) {
  const list = $('chat-lines');
  list.append(el('li', {}, el('b', {}, data.from), ': ', el('span', { class: 'chat-text' }, data.text)));
  while (list.children.length > CHAT_KEPT) list.firstElementChild.remove();
  $('chat').hidden = false;
}

function render() {
  if (race) {
    const now = performance.now();
    for (const r of race.racers) {
      const lagging = r.status === 'racing' && race.started && now - r.lastRelay > LAGGING_AFTER_MS;
      if (lagging !== r.lagging) {
        r.lagging = lagging;
        r.dirty = true;
      }
      if (!r.dirty) continue;
      r.dirty = false;
      const f = race.live.racers[r.index].frame();
      r.board.draw(f, { dim: r.status !== 'racing' });
      r.keys.show(f.buttons);
      const banner = r.status === 'finished' ? `FINISHED ${formatTime(r.endedAt)}`
                   : r.status === 'topped_out' ? 'TOPPED OUT'
                   : r.status === 'removed' ? `REMOVED: ${r.reason}`
                   : r.status === 'disconnected' ? 'LEFT'
                   : r.status === 'unfinished' ? 'UNFINISHED'
                   : lagging ? 'LAGGING' : '';
      setText(r.banner, banner);
      r.banner.hidden = banner === '';
      r.banner.className = `banner ${r.status}${lagging ? ' lagging' : ''}`;
      r.panel.dataset.status = lagging ? 'lagging' : r.status;
      setText(r.panel.querySelector('.place'), r.place ? `${r.place}. ` : '');
      const left = r.status === 'racing' ? f.stats.lines_left : 0;
      r.stats.replaceChildren(
          ...stat('time', formatTime(f.stats.time_us)), ...stat('lines', left ? `${f.stats.lines} (${left} left)` : f.stats.lines),
          ...stat('pieces', f.stats.pieces), ...stat('PPS', ppsText(f.stats.pps_x100)), ...stat('score', f.stats.score));
      setText(r.text, boardText(f));
    }
  }
  requestAnimationFrame(render);
}

function stat(name, value) { return [el('dt', {}, name), el('dd', {}, String(value))]; }

const HANDLERS = { room: onRoom, race: onRace, inputs: onInputs, stats: onStats, ended: onEnded, results: onResults,
                   replay: onReplay, chat: onChat,
                   start: () => { if (race) { race.started = true; setText($('race-status'), `race ${race.id}: racing`); } },
                   cut: (d) => setText($('cut'), d.reason),
                   closed: (d) => { setText($('race-status'), d.reason); feed.close(); setState('closed', d.reason); } };

function connect() {
  feed = new EventSource(siteUrl(`api/v1/rooms/${roomId}/live`));
  for (const [name, handle] of Object.entries(HANDLERS)) {
    feed.addEventListener(name, (e) => {
      const data = JSON.parse(e.data);
      queue = queue.then(() => handle(data)).catch((err) => {
        setText($('cut'), `this page could not follow the race: ${err.message}`);
      });
    });
  }
  feed.addEventListener('open', () => {
    // A reconnect gets the room, the race and the chat again from the start.
    clear($('chat-lines'));
    setState('ready');
    setText($('connection'), '');
  });
  feed.addEventListener('error', () => {
    if (feed.readyState === EventSource.CLOSED) {
      if (document.body.dataset.state !== 'closed') {
        setText($('race-status'), 'there is no such public room on this server (or it has closed)');
        setState('error', 'no such room');
      }
    } else {
      setText($('connection'), 'connection lost; reconnecting…');
    }
  });
}

async function main() {
  setState('loading');
  engine = await loadEngine();
  connect();
  requestAnimationFrame(render);
}

main().catch((e) => { setText($('race-status'), e.message); setState('error', e.message); });
