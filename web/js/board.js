// Drawing a racer's board (a frame of web/js/engine.js) on a canvas, and the same board as the text
// `stackrace-replay board` prints (common/replay/board_text.h), which the pages keep in a hidden <pre> for tests and
// for copying.

export const COLORS = {
  I: '#31c7ef', O: '#f7d308', T: '#ad4d9c', S: '#42b642', Z: '#ef2029', J: '#5a65ad', L: '#ef7921', G: '#7f7f7f',
};
const VISIBLE = 20;
const SHOWN = 22;  // the visible rows and two of the buffer above them, where pieces come out
const CELL = 16;

// A board view: the canvas of the matrix, hold and next beside it, the keys held below.
export class BoardView {
  constructor(container) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'board';
    this.canvas.width = CELL * 16;
    this.canvas.height = CELL * SHOWN;
    container.append(this.canvas);
    this.ctx = this.canvas.getContext('2d');
  }

  draw(frame, options = {}) {
    const c = this.ctx;
    const w = this.canvas.width;
    const h = this.canvas.height;
    c.fillStyle = '#0b0e14';
    c.fillRect(0, 0, w, h);
    const left = CELL * 3;
    // The well.
    c.fillStyle = '#151a24';
    c.fillRect(left, CELL * (SHOWN - VISIBLE), CELL * 10, CELL * VISIBLE);
    c.strokeStyle = '#1f2633';
    c.lineWidth = 1;
    for (let x = 0; x <= 10; ++x) line(c, left + x * CELL + 0.5, CELL * (SHOWN - VISIBLE), left + x * CELL + 0.5, h);
    for (let y = SHOWN - VISIBLE; y <= SHOWN; ++y) line(c, left, y * CELL + 0.5, left + 10 * CELL, y * CELL + 0.5);
    if (!frame) return;
    const cell = (x, y, color, alpha = 1) => {
      if (y >= SHOWN || y < 0) return;
      c.globalAlpha = alpha;
      c.fillStyle = color;
      c.fillRect(left + x * CELL + 1, (SHOWN - 1 - y) * CELL + 1, CELL - 1, CELL - 1);
      c.globalAlpha = 1;
    };
    frame.board.forEach((row, y) => {
      for (let x = 0; x < row.length; ++x) if (row[x] !== '.') cell(x, y, COLORS[row[x]] ?? '#999', 0.92);
    });
    if (frame.active) {
      const color = COLORS[frame.active.piece];
      for (const [x, y] of frame.active.ghost_cells) cell(x, y, color, 0.25);
      for (const [x, y] of frame.active.cells) cell(x, y, color);
    }
    // Hold (left) and next (right), small.
    const mini = (piece, ox, oy, dim) => {
      if (!piece) return;
      const s = CELL / 2;
      const shape = SHAPES[piece];
      c.globalAlpha = dim ? 0.35 : 1;
      c.fillStyle = COLORS[piece];
      for (const [x, y] of shape) c.fillRect(ox + x * s, oy + y * s, s - 1, s - 1);
      c.globalAlpha = 1;
    };
    mini(frame.hold, 4, CELL * 3, frame.hold_used);
    frame.next.forEach((p, i) => mini(p, left + CELL * 10 + 6, CELL * 3 + i * CELL * 2.2, false));
    if (options.dim) {
      c.fillStyle = 'rgba(11,14,20,0.55)';
      c.fillRect(left, 0, CELL * 10, h);
    }
  }
}

// Cells of each piece in its spawn orientation for the small hold and next views (x right, y down).
const SHAPES = {
  I: [[0, 1], [1, 1], [2, 1], [3, 1]], O: [[1, 0], [2, 0], [1, 1], [2, 1]], T: [[1, 0], [0, 1], [1, 1], [2, 1]],
  S: [[1, 0], [2, 0], [0, 1], [1, 1]], Z: [[0, 0], [1, 0], [1, 1], [2, 1]], J: [[0, 0], [0, 1], [1, 1], [2, 1]],
  L: [[2, 0], [0, 1], [1, 1], [2, 1]],
};

function line(c, x0, y0, x1, y1) {
  c.beginPath();
  c.moveTo(x0, y0);
  c.lineTo(x1, y1);
  c.stroke();
}

const ROTATIONS = ['north', 'east', 'south', 'west'];

// The board as `stackrace-replay board` prints it: the 20 visible rows top first, then the falling piece, hold,
// queue and the time line.
export function boardText(frame) {
  let out = '';
  for (let y = VISIBLE - 1; y >= 0; --y) out += frame.board[y] + '\n';
  const a = frame.active;
  out += `current: ${a ? `${a.piece} ${ROTATIONS[a.rotation]} x=${a.x} y=${a.y}` : '-'}\n`;
  out += `hold: ${frame.hold ?? '-'}\n`;
  out += `queue: ${frame.next.length ? frame.next.join('') : '-'}\n`;
  const s = frame.stats;
  out += `time: ${secondsText(s.time_us)} pieces: ${s.pieces} lines: ${s.lines} score: ${s.score}\n`;
  return out;
}

// Microseconds as "10.800000 s" (replay::format_time).
function secondsText(us) {
  const neg = us < 0;
  const a = Math.abs(us);
  return `${neg ? '-' : ''}${Math.floor(a / 1e6)}.${String(a % 1e6).padStart(6, '0')} s`;
}

// The keys held, as eight small lit labels: left, right, soft drop, hard drop, rotate CW, CCW, 180, hold.
const KEYS = ['←', '→', 'soft', 'hard', 'cw', 'ccw', '180', 'hold'];
export class KeysView {
  constructor(container) {
    this.node = document.createElement('div');
    this.node.className = 'keys';
    this.keys = KEYS.map((label) => {
      const k = document.createElement('span');
      k.textContent = label;
      this.node.append(k);
      return k;
    });
    container.append(this.node);
  }

  show(buttons) {
    this.keys.forEach((k, i) => k.classList.toggle('held', (buttons & (1 << i)) !== 0));
    this.node.dataset.buttons = String(buttons);
  }
}
