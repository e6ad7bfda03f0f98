// Small helpers every page uses. Text from players (names, chat, room titles) only ever reaches the page through
// textContent (el(), setText()): never innerHTML, never an attribute that runs or loads anything. So no name can
// become markup, and the Content-Security-Policy (no inline script) is the second wall, not the first.

// The site's root, relative to the page: pages set <body data-root="../"> when they sit one folder down
// (games/<id>, live/<room>). Every address the pages use is built from it, so the site works under any path prefix.
export const root = new URL(document.body.dataset.root ?? './', location.href);

export function siteUrl(path) { return new URL(path, root); }

// An element with attributes (plain values only; `class`, `href` for site addresses, `title`, data-*...) and
// children (strings become text nodes).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'href') {
      node.setAttribute('href', safeHref(value));
    } else {
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Only addresses on this site (relative ones, resolved against the root) or http(s) ones: never javascript: or data:.
export function safeHref(value) {
  const url = value instanceof URL ? value : new URL(String(value), root);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '#';
}

export function setText(node, text) { node.textContent = text ?? ''; }

export function clear(node) { node.replaceChildren(); }

export function $(id) { return document.getElementById(id); }

// The page's state for people and tests: data-state on <body> ("loading", "ready", "error").
export function setState(state, message) {
  document.body.dataset.state = state;
  if (message !== undefined) document.body.dataset.message = message;
}

export async function getJson(path) {
  const response = await fetch(siteUrl(path), { headers: { Accept: 'application/json' } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body;
}

// Microseconds as a race clock: "1:23.456" (from a minute on) or "23.456 s".
export function formatTime(us) {
  if (us === null || us === undefined) return '-';
  const ms = Math.floor(us / 1000);
  const s = Math.floor(ms / 1000);
  const frac = String(ms % 1000).padStart(3, '0');
  if (s < 60) return `${s}.${frac} s`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}.${frac}`;
}

// Unix milliseconds as "2024-05-01 14:03" in the reader's time zone.
export function formatDate(ms) {
  const d = new Date(ms);
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

// A mode summary ({mode, limit, limit_value, goal}) as "sprint 40 lines", "ultra 120 s".
export function modeText(m) {
  if (!m) return '';
  switch (m.limit) {
    case 'lines': return `${m.mode} ${m.limit_value} lines`;
    case 'time': return `${m.mode} ${m.limit_value} s`;
    case 'pieces': return `${m.mode} ${m.limit_value} pieces`;
    case 'level': return `${m.mode} to level ${m.limit_value}`;
    case 'score': return `${m.mode} to ${m.limit_value} points`;
    default: return m.mode;
  }
}

export const STATUS_TEXT = {
  racing: 'racing', finished: 'finished', topped_out: 'topped out', disconnected: 'left', removed: 'removed',
  unfinished: 'unfinished', forfeited: 'forfeited',
};

// A racer's result as the mode's goal reads it.
export function resultText(goal, r) {
  if (r.status !== 'finished' && goal === 'time') return STATUS_TEXT[r.status] ?? r.status;
  if (goal === 'score') return `${r.score} points`;
  if (goal === 'lines') return `${r.lines} lines`;
  return formatTime(r.time_us);
}

// A stored racer's name (web/API.md, "games"), with its key's short id where two keys raced under that name on this
// server: "Ada #1a2b3c4d".
export function playerText(name, keyId, nameShared) { return nameShared && keyId ? `${name} #${keyId}` : name; }

export function ppsText(x100) { return (x100 / 100).toFixed(2); }
