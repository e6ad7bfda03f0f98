// The replay viewer of the game page and the verify page: every racer's board at one game time, play/pause, speed
// 0.25x to 8x, a seek bar, steps by piece (of the racer followed), the keys held, the live statistics, and the two
// plots of the game's own viewer (PPS and lines over the game, a colour per racer).
import { BoardView, KeysView, boardText } from './board.js';
import { $, el, formatTime, ppsText, setText } from './dom.js';

const SPEEDS = [0.25, 0.5, 1, 2, 4, 8];
const PLOT_SAMPLES = 120;
export const RACER_COLORS = ['#4fc3f7', '#ffb74d', '#81c784', '#e57373', '#ba68c8', '#fff176', '#4db6ac', '#f06292',
                             '#a1887f', '#90a4ae', '#aed581', '#7986cb', '#ff8a65', '#dce775', '#4dd0e1', '#9575cd'];

export class ReplayViewer {
  // `container` gets the boards, controls and plots; `replay` is an open engine replay (engine.open()).
  constructor(container, replay) {
    this.replay = replay;
    this.endUs = replay.endUs;
    this.timeUs = 0;
    this.speed = 1;
    this.playing = false;
    this.follow = 0;  // the racer whose pieces the step buttons walk
    this.lastTick = 0;
    this.build(container);
    this.samples = replay.racers.map((r) => this.sample(r));
    this.seek(0);
  }

  build(container) {
    const summary = this.replay.summary;
    this.boards = el('div', { class: 'boards' });
    this.panels = summary.racers.map((r, i) => {
      const panel = el('div', { class: 'racer', 'data-racer': i });
      const title = el('h3', { title: r.name }, el('span', { class: 'swatch', 'data-color': i }), el('bdi', {}, r.name));
      const badge = el('span', { class: r.verified ? 'badge ok' : 'badge bad', title: r.disagreement ?? '' },
                       r.verified ? 'verified' : 'NOT VERIFIED');
      panel.append(title, el('div', { class: 'racer-line' }, badge, ` ${r.status.replace('_', ' ')}`));
      const board = new BoardView(panel);
      const keys = new KeysView(panel);
      const stats = el('dl', { class: 'stats' });
      panel.append(stats);
      const text = el('pre', { class: 'board-text', id: `board-text-${i}`, hidden: true });
      panel.append(text);
      panel.addEventListener('click', () => this.setFollow(i));
      this.boards.append(panel);
      return { panel, board, keys, stats, text };
    });
    this.panels.forEach((p, i) => p.panel.querySelector('.swatch').style.background = RACER_COLORS[i % 16]);

    const button = (id, label, title, onClick) => {
      const b = el('button', { id, type: 'button', title }, label);
      b.addEventListener('click', onClick);
      return b;
    };
    this.playButton = button('play', 'Play', 'play / pause (space)', () => this.toggle());
    this.seekBar = el('input', { id: 'seek', type: 'range', min: 0, max: Math.max(1, Math.floor(this.endUs / 1000)),
                                 step: 1, value: 0, 'aria-label': 'game time' });
    this.seekBar.addEventListener('input', () => {
      this.pause();
      this.seek(Number(this.seekBar.value) * 1000);
    });
    this.speedSelect = el('select', { id: 'speed', 'aria-label': 'speed' },
                          SPEEDS.map((s) => el('option', { value: s, selected: s === 1 }, `${s}x`)));
    this.speedSelect.addEventListener('change', () => { this.speed = Number(this.speedSelect.value); });
    this.clock = el('span', { id: 'clock', class: 'clock' });
    const controls = el('div', { class: 'controls' },
                        button('to-start', '|◀', 'to the start (Home)', () => { this.pause(); this.seek(0); }),
                        button('step-back', '◀ piece', 'the previous piece (←)', () => this.stepPiece(-1)),
                        this.playButton,
                        button('step-forward', 'piece ▶', 'the next piece (→)', () => this.stepPiece(1)),
                        button('to-end', '▶|', 'to the end (End)', () => { this.pause(); this.seek(this.endUs); }),
                        this.speedSelect, this.seekBar, this.clock);
    this.ppsPlot = el('canvas', { class: 'plot', width: 480, height: 160, id: 'plot-pps' });
    this.linesPlot = el('canvas', { class: 'plot', width: 480, height: 160, id: 'plot-lines' });
    const plots = el('div', { class: 'plots' },
                     el('figure', {}, this.ppsPlot, el('figcaption', {}, 'pieces per second')),
                     el('figure', {}, this.linesPlot, el('figcaption', {}, 'lines')));
    container.append(controls, this.boards, plots);
    document.addEventListener('keydown', (e) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      if (e.key === ' ') { e.preventDefault(); this.toggle(); }
      if (e.key === 'ArrowRight') this.stepPiece(1);
      if (e.key === 'ArrowLeft') this.stepPiece(-1);
      if (e.key === 'Home') { this.pause(); this.seek(0); }
      if (e.key === 'End') { this.pause(); this.seek(this.endUs); }
    });
    this.setFollow(0);
  }

  setFollow(i) {
    this.follow = i;
    this.panels.forEach((p, k) => p.panel.classList.toggle('followed', k === i));
  }

  // PPS and lines at PLOT_SAMPLES times over the racer's game (the cursor is put back where it was).
  sample(racer) {
    const out = [];
    const end = Math.max(1, racer.endUs);
    for (let k = 1; k <= PLOT_SAMPLES; ++k) {
      racer.seekTime(Math.floor(end * k / PLOT_SAMPLES));
      const f = racer.frame();
      out.push({ t: f.time_us, pps: f.stats.pps_x100 / 100, lines: f.stats.lines });
    }
    racer.seekTime(0);
    return out;
  }

  toggle() { if (this.playing) this.pause(); else this.play(); }

  play() {
    if (this.timeUs >= this.endUs) this.seek(0);
    this.playing = true;
    setText(this.playButton, 'Pause');
    this.lastTick = performance.now();
    const tick = (now) => {
      if (!this.playing) return;
      const dt = Math.min(250, now - this.lastTick);
      this.lastTick = now;
      this.seek(this.timeUs + Math.round(dt * 1000 * this.speed));
      if (this.timeUs >= this.endUs) this.pause(); else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  pause() {
    this.playing = false;
    setText(this.playButton, 'Play');
  }

  // Every racer to game time t (each stops at its own end).
  seek(t) {
    this.timeUs = Math.max(0, Math.min(this.endUs, Math.round(t)));
    for (const r of this.replay.racers) r.seekTime(Math.min(this.timeUs, r.endUs));
    this.render();
  }

  // The followed racer to its next or previous lock; the others to the same time.
  stepPiece(direction) {
    this.pause();
    const r = this.replay.racers[this.follow];
    r.seekTime(Math.min(this.timeUs, r.endUs));
    if (!r.stepPiece(direction)) return;
    this.timeUs = r.timeUs;
    this.replay.racers.forEach((o, i) => { if (i !== this.follow) o.seekTime(Math.min(this.timeUs, o.endUs)); });
    this.render();
  }

  render() {
    this.replay.racers.forEach((r, i) => {
      const f = r.frame();
      const p = this.panels[i];
      p.board.draw(f, { dim: f.phase === 'over' || this.timeUs > r.endUs });
      p.keys.show(f.buttons);
      p.stats.replaceChildren(
          ...stat('time', formatTime(f.stats.time_us)), ...stat('lines', f.stats.lines),
          ...stat('pieces', f.stats.pieces), ...stat('PPS', ppsText(f.stats.pps_x100)),
          ...stat('KPP', ppsText(f.stats.kpp_x100)), ...stat('score', f.stats.score));
      setText(p.text, boardText(f));
      p.panel.dataset.timeUs = String(f.time_us);
      p.panel.dataset.pieces = String(f.stats.pieces);
    });
    this.seekBar.value = String(Math.floor(this.timeUs / 1000));
    setText(this.clock, `${formatTime(this.timeUs)} / ${formatTime(this.endUs)}`);
    document.body.dataset.timeUs = String(this.timeUs);
    this.drawPlot(this.ppsPlot, 'pps');
    this.drawPlot(this.linesPlot, 'lines');
  }

  drawPlot(canvas, key) {
    const c = canvas.getContext('2d');
    const w = canvas.width;
    const h = canvas.height;
    const pad = { l: 34, r: 8, t: 8, b: 20 };
    c.fillStyle = '#0f131b';
    c.fillRect(0, 0, w, h);
    let max = 0;
    for (const s of this.samples) for (const v of s) max = Math.max(max, v[key]);
    max = key === 'pps' ? Math.max(1, Math.ceil(max)) : Math.max(1, max);
    const end = Math.max(1, this.endUs);
    const x = (t) => pad.l + (w - pad.l - pad.r) * t / end;
    const y = (v) => h - pad.b - (h - pad.t - pad.b) * v / max;
    c.strokeStyle = '#2a3242';
    c.fillStyle = '#8a94a6';
    c.font = '10px sans-serif';
    for (const v of [0, max / 2, max]) {
      c.beginPath();
      c.moveTo(pad.l, y(v) + 0.5);
      c.lineTo(w - pad.r, y(v) + 0.5);
      c.stroke();
      c.fillText(key === 'pps' ? v.toFixed(1) : String(Math.round(v)), 2, y(v) + 3);
    }
    for (const t of ticks(end / 1e6)) {
      c.fillText(tickLabel(t), x(t * 1e6) - 8, h - 6);
    }
    this.samples.forEach((s, i) => {
      c.strokeStyle = RACER_COLORS[i % 16];
      c.lineWidth = 1.5;
      c.beginPath();
      c.moveTo(x(0), y(0));
      for (const v of s) c.lineTo(x(v.t), y(v[key]));
      c.stroke();
    });
    c.strokeStyle = '#e0e6f0';
    c.lineWidth = 1;
    c.beginPath();
    c.moveTo(x(this.timeUs) + 0.5, pad.t);
    c.lineTo(x(this.timeUs) + 0.5, h - pad.b);
    c.stroke();
  }
}

function stat(name, value) { return [el('dt', {}, name), el('dd', {}, String(value))]; }

// Time axis ticks in seconds, as client/replay/plot_axis.h: every multiple of the smallest round step that gives at
// most 6 steps.
function ticks(endS) {
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];
  const step = steps.find((s) => endS / s <= 6) ?? 3600;
  const out = [];
  for (let t = 0; t <= endS; t += step) out.push(t);
  return out;
}

function tickLabel(s) {
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// The verdict of the engine in this browser, as a banner.
export function showVerdict(node, replay) {
  node.classList.remove('pending');
  if (replay.verified) {
    node.className = 'verdict ok';
    setText(node, `✓ verified in your browser: ${replay.message}`);
  } else if (replay.verdict === 'unsupported_rules') {
    node.className = 'verdict warn';
    setText(node, `cannot be verified by this engine: ${replay.message}`);
  } else {
    node.className = 'verdict bad';
    setText(node, `NOT VERIFIED: ${replay.message}`);
  }
  node.dataset.verdict = replay.verdict;
}

export { $ };
