// The server's stored games (games): filters by mode, player, date and result, newest first, a page at a time.
import { $, el, getJson, setState, setText, siteUrl } from './dom.js';
import { gameRow } from './rows.js';

const PAGE = 25;

async function main() {
  setState('loading');
  const params = new URLSearchParams(location.search);
  const form = $('filters');
  for (const name of ['mode', 'player', 'since', 'until', 'result']) {
    if (params.get(name)) form.elements[name].value = params.get(name);
  }
  const query = new URLSearchParams();
  for (const name of ['mode', 'player', 'since', 'until', 'result', 'after']) {
    if (params.get(name)) query.set(name, params.get(name));
  }
  query.set('limit', String(PAGE));
  let list;
  try {
    list = await getJson(`api/v1/games?${query}`);
  } catch (e) {
    setText($('status'), `cannot list the games: ${e.message}`);
    setState('error', e.message);
    return;
  }
  const body = $('games-body');
  for (const g of list.games) body.append(gameRow(g));
  setText($('status'), list.games.length ? '' : 'no game matches');
  const nav = $('paging');
  if (params.get('after')) {
    const first = new URLSearchParams(params);
    first.delete('after');
    nav.append(el('a', { href: siteUrl(`games?${first}`) }, '« newest'), ' ');
  }
  if (list.next_after) {
    const next = new URLSearchParams(params);
    next.set('after', list.next_after);
    nav.append(el('a', { href: siteUrl(`games?${next}`), id: 'older' }, 'older games »'));
  }
  setState('ready');
}

main();
