// The front page: the server's name and message, its rooms and running races (with a Watch link), recent games,
// the best result per mode, the contest ladder when it runs, and how to join with the game.
import { $, el, formatDate, formatTime, getJson, modeText, playerText, resultText, setState, setText, siteUrl } from './dom.js';
import { gameRow } from './rows.js';

async function server() {
  const s = await getJson('api/v1/server');
  setText($('server-name'), s.name || 'stackrace');
  document.title = `${s.name || 'stackrace'}: stackrace server`;
  setText($('motd'), s.motd);
  setText($('join-command'), `stackrace --connect ${location.hostname}:${s.game_port}`);
  setText($('server-line'), `${s.players} player${s.players === 1 ? '' : 's'} online · ${s.public_rooms} public ` +
                            `room${s.public_rooms === 1 ? '' : 's'} · ${s.races_running} racing · protocol ` +
                            `${s.protocol_version}, rules ${s.rules_version}`);
  return s;
}

async function rooms() {
  const { rooms } = await getJson('api/v1/rooms');
  const body = $('rooms-body');
  body.replaceChildren(...rooms.map((r) => el('tr', { 'data-room': r.id },
      el('td', {}, el('b', {}, r.name)),
      el('td', {}, modeText(r.mode)),
      el('td', { class: `phase ${r.phase}` }, r.phase),
      el('td', { class: 'players' }, r.members.filter((m) => m.role === 'racer').map((m) => el('span', { class: 'player' }, m.name))),
      el('td', {}, `${r.racers}/${r.max_racers}` + (r.spectators ? ` +${r.spectators} watching` : '')),
      el('td', {}, el('a', { href: siteUrl(r.live), class: r.phase === 'racing' || r.phase === 'countdown' ? 'watch live' : 'watch' },
                      r.phase === 'racing' || r.phase === 'countdown' ? 'Watch live' : 'Watch')))));
  setText($('rooms-status'), rooms.length ? '' : 'no public room right now');
}

async function recent() {
  const { games } = await getJson('api/v1/games?limit=10');
  $('recent-body').replaceChildren(...games.map(gameRow));
  setText($('recent-status'), games.length ? '' : 'no game stored yet');
}

async function records() {
  const { records } = await getJson('api/v1/records');
  $('records-body').replaceChildren(...records.map((r) => el('tr', {},
      el('td', {}, modeText(r.mode)),
      el('td', {}, el('b', {}, playerText(r.player, r.key_id, r.name_shared))),
      el('td', {}, r.mode.goal === 'time' ? formatTime(r.time_us) : resultText(r.mode.goal, { ...r, status: 'finished' })),
      el('td', { class: 'when' }, formatDate(r.played_unix_ms)),
      el('td', {}, el('a', { href: siteUrl(r.page) }, 'watch')))));
  setText($('records-status'), records.length ? '' : 'no verified result yet');
}

async function ladder() {
  const l = await getJson('api/v1/ladder');
  $('ladder-section').hidden = false;
  setText($('ladder-rules'), `${l.entrants} entrant${l.entrants === 1 ? '' : 's'}; each plays up to ${l.ranked_games} ` +
                             `ranked games, ranked by the average of the best ${l.counted_best}.`);
  $('ladder-body').replaceChildren(...l.rows.map((r) => el('tr', {},
      el('td', {}, String(r.rank)),
      el('td', {}, el('b', {}, r.entrant)),
      el('td', {}, r.average),
      el('td', {}, `${r.ranked_played}/${l.ranked_games}`),
      el('td', {}, r.best.map((g) => g.game_id ? el('a', { href: siteUrl(`games/${g.game_id}`), class: 'score' }, String(g.score))
                                              : el('span', { class: 'score' }, String(g.score)))))));
}

async function main() {
  setState('loading');
  try {
    const s = await server();
    await Promise.all([rooms(), recent(), records(), s.contest ? ladder() : Promise.resolve()]);
    setState('ready');
  } catch (e) {
    setText($('server-line'), `the server did not answer: ${e.message}`);
    setState('error', e.message);
  }
  setInterval(() => { rooms().catch(() => {}); server().catch(() => {}); }, 5000);
}

main();
