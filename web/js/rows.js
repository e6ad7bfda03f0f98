// Table rows more than one page shows.
import { el, formatDate, modeText, playerText, resultText, siteUrl } from './dom.js';

// A stored game of the API (web/API.md, "games"): date, mode, racers by place with their results, the verdict, a
// link to its page.
export function gameRow(g) {
  const racers = [...g.racers].sort((a, b) => (a.place || 99) - (b.place || 99));
  return el('tr', {},
            el('td', { class: 'when' }, formatDate(g.played_unix_ms)),
            el('td', {}, modeText(g.mode)),
            el('td', { class: 'players' }, racers.map((r) => el('span', { class: 'player' },
                                                               r.place ? `${r.place}. ` : '', el('b', {}, playerText(r.name, r.key_id, r.name_shared)), ' ',
                                                               resultText(g.mode.goal, r)))),
            el('td', {}, g.verified ? el('span', { class: 'badge ok' }, 'verified') :
                                      el('span', { class: 'badge bad', title: g.verify_note }, 'not verified')),
            el('td', {}, el('a', { href: siteUrl(g.page) }, 'watch')));
}

