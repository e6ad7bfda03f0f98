#!/usr/bin/env python3
"""A scripted Tetris Bot Protocol bot that asks for hard moves: tucks, T-spins that need a kick, far placements.

It knows only the TBP spec and guideline SRS (kick tables typed in from the guideline, piece centres per SRS true
rotation), not stackrace's code. It finds its placements with its own search in the "instant gravity" model: after
every key the piece falls as far as it can, as it does at 20G. Every placement found that way is reachable by a
person at any gravity: tap a key, let the piece land, tap the next key (fewer than 15 keys, so the lock delay's
resets last). The frontend must therefore never forfeit one of its moves, and must play the first one it suggests
(decoys that cannot be reached may come first).

At `quit` it prints one line on standard error:
  tricky-bot: suggestions=N tucks=N spins=N far=N hard=N decoys=N played_other=N wrong_spin=N empty=N ...
hard counts moves that need 4 keys or more. played_other counts plays of another move than the first reachable
one; wrong_spin plays whose spin was not the one asked for; spins_played plays reported with a spin. With the randomizer extension's "seven_bag", every new piece is
checked against the bag the start message described (bag_checked, bag_errors). Options:
  --seed N               varies which hard moves it picks
  --think-ms N           answers with no moves when asked sooner than N ms after the position changed (a bot
                         that has not searched yet)
  --slow-once FILE       the first process to create FILE answers its 3rd suggest 1.5 s late
  --decoys-only-after N  from the N-th suggestion on, suggests only unreachable moves (the frontend must forfeit)
  --report FILE          also appends the summary line to FILE
"""
import json
import os
import sys
import time

# Minos relative to the piece centre in the north orientation (x right, y up).
NORTH = {
    "T": [(-1, 0), (0, 0), (1, 0), (0, 1)],
    "I": [(-1, 0), (0, 0), (1, 0), (2, 0)],
    "O": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "J": [(-1, 1), (-1, 0), (0, 0), (1, 0)],
    "L": [(1, 1), (-1, 0), (0, 0), (1, 0)],
    "S": [(-1, 0), (0, 0), (0, 1), (1, 1)],
    "Z": [(-1, 1), (0, 1), (0, 0), (1, 0)],
}
ORIENTATIONS = ["north", "east", "south", "west"]

# Guideline SRS kicks (x right, y up) for the box rotation, indexed by the starting orientation.
JLSTZ_CW = [[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)], [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
            [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)], [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]]
JLSTZ_CCW = [[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)], [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
             [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)], [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]]
I_CW = [[(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)], [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
        [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)], [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)]]
I_CCW = [[(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)], [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
         [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)], [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)]]
# SRS true rotation turns the I about the middle of its 4x4 box, so its TBP centre cell moves with each turn:
# middle-left (north), middle-top (east), middle-right (south), middle-bottom (west), as box cells.
I_CENTRE = [(1, 2), (2, 2), (2, 1), (1, 1)]
MAX_KEYS = 12


def minos(piece, rot):
    cells = NORTH[piece]
    for _ in range(rot):
        cells = [(y, -x) for (x, y) in cells]  # a clockwise quarter turn about the centre
    return cells


class Board:
    def __init__(self, rows=None):
        self.rows = [[cell is not None for cell in row] for row in rows] if rows else [[False] * 10 for _ in range(40)]

    def free(self, x, y):
        return 0 <= x < 10 and 0 <= y < 40 and not self.rows[y][x]

    def fits(self, piece, rot, x, y):
        return all(self.free(x + dx, y + dy) for (dx, dy) in minos(piece, rot))

    def place(self, cells):
        for (x, y) in cells:
            self.rows[y][x] = True
        full = sum(1 for row in self.rows if all(row))
        self.rows = [row for row in self.rows if not all(row)]
        while len(self.rows) < 40:
            self.rows.append([False] * 10)
        return full

    def copy(self):
        b = Board()
        b.rows = [list(r) for r in self.rows]
        return b


def cells_of(piece, rot, x, y):
    return frozenset((x + dx, y + dy) for (dx, dy) in minos(piece, rot))


def kicks(piece, rot, cw):
    if piece == "O":
        return []
    to = (rot + (1 if cw else 3)) % 4
    table = (I_CW if cw else I_CCW) if piece == "I" else (JLSTZ_CW if cw else JLSTZ_CCW)
    out = []
    for (kx, ky) in table[rot]:
        if piece == "I":  # the box moves by the kick; the centre also moves inside the box
            kx += I_CENTRE[to][0] - I_CENTRE[rot][0]
            ky += I_CENTRE[to][1] - I_CENTRE[rot][1]
        out.append((to, kx, ky))
    return out


def t_spin(board, rot, x, y, kick_index):
    corners = {"bl": not board.free(x - 1, y - 1), "br": not board.free(x + 1, y - 1),
               "tl": not board.free(x - 1, y + 1), "tr": not board.free(x + 1, y + 1)}
    front_names = [("tl", "tr"), ("tr", "br"), ("bl", "br"), ("bl", "tl")][rot]
    front = sum(corners[n] for n in front_names)
    back = sum(corners.values()) - front
    if front == 2 and back >= 1:
        return "full"
    if front == 1 and back == 2:
        return "full" if kick_index == 4 else "mini"
    return "none"


def fall(board, piece, rot, x, y):
    while board.fits(piece, rot, x, y - 1):
        y -= 1
    return y


def reachable(board, piece):
    """Every (cells, spin) the piece can lock on in the instant gravity model, with its location and key count."""
    x, y = 4, 20
    if not board.fits(piece, 0, x, y):
        return {}
    y = fall(board, piece, 0, x, y)
    start = (0, x, y, "none")
    seen = {start: 0}
    frontier = [start]
    found = {}
    while frontier:
        nxt = []
        for state in frontier:
            rot, x, y, spin = state
            keys = seen[state]
            key = (cells_of(piece, rot, x, y), spin)
            if key not in found:
                found[key] = ({"type": piece, "orientation": ORIENTATIONS[rot], "x": x, "y": y}, keys)
            if keys >= MAX_KEYS:
                continue
            moves = []
            for dx in (-1, 1):
                if board.fits(piece, rot, x + dx, y):
                    moves.append((rot, x + dx, fall(board, piece, rot, x + dx, y), "none"))
            for cw in (True, False):
                for i, (to, kx, ky) in enumerate(kicks(piece, rot, cw)):
                    if board.fits(piece, to, x + kx, y + ky):
                        nx, ny = x + kx, y + ky
                        ly = fall(board, piece, to, nx, ny)
                        s = "none"
                        if ly == ny and piece == "T":
                            s = t_spin(board, to, nx, ny, i)
                        moves.append((to, nx, ly, s))
                        break
            for m in moves:
                if m not in seen:
                    seen[m] = keys + 1
                    nxt.append(m)
        frontier = nxt
    return found


def drop_cells(board, piece):
    """Cells a straight hard drop from above the stack reaches (no tuck)."""
    out = set()
    for rot in range(4):
        for x in range(-2, 12):
            if board.fits(piece, rot, x, 38):
                out.add(cells_of(piece, rot, x, fall(board, piece, rot, x, 38)))
    return out


def score(board, cells):
    b = board.copy()
    lines = b.place(cells)
    heights = []
    holes = 0
    for x in range(10):
        h = 0
        for y in range(39, -1, -1):
            if b.rows[y][x]:
                h = y + 1
                break
        heights.append(h)
        holes += sum(1 for y in range(h) if not b.rows[y][x])
    bump = sum(abs(heights[i] - heights[i + 1]) for i in range(9))
    return 4 * holes + max(heights) + 0.3 * bump + 0.2 * sum(heights) / 10 - 1.5 * lines


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def arg(args, name, default=None):
    return args[args.index(name) + 1] if name in args else default


def main():
    args = sys.argv[1:]
    seed = int(arg(args, "--seed", "0"))
    think_ms = int(arg(args, "--think-ms", "0"))
    slow_file = arg(args, "--slow-once")
    decoys_after = arg(args, "--decoys-only-after")
    decoys_after = int(decoys_after) if decoys_after is not None else None
    report = arg(args, "--report")
    stats = dict(suggestions=0, tucks=0, spins=0, far=0, hard=0, decoys=0, played_other=0, wrong_spin=0, empty=0,
                 spins_played=0, bag_checked=0, bag_errors=0)
    send({"type": "info", "name": "tricky", "version": "1", "author": "stackrace tests", "features": ["randomizer"]})
    board, queue, hold = Board(), [], None
    randomizer, bag = None, None  # the randomizer extension: the 7-bag's contents after the last piece seen
    changed_at = time.monotonic()
    expected = None  # (cells, spin) of the first reachable move of the last suggestion
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "rules":
            randomizer = message.get("randomizer")
            send({"type": "ready"})
        elif kind == "start":
            board = Board(message["board"])
            queue, hold = list(message["queue"]), message["hold"]
            state = message.get("randomizer")
            bag = set(state["bag_state"]) if randomizer == "seven_bag" and state and state["type"] == "seven_bag" else None
            changed_at = time.monotonic()
        elif kind == "suggest":
            stats["suggestions"] += 1
            n = stats["suggestions"]
            if think_ms and (time.monotonic() - changed_at) * 1000 < think_ms:
                stats["empty"] += 1
                expected = None
                send({"type": "suggestion", "moves": []})
                continue
            if slow_file and n == 3 and not os.path.exists(slow_file):
                open(slow_file, "w").close()
                time.sleep(1.5)
            piece = queue[0]
            found = reachable(board, piece)
            # A decoy: the piece floating in mid-air, where it can never lock.
            decoy = {"location": {"type": piece, "orientation": "north", "x": 4, "y": 30}, "spin": "none"}
            if decoys_after is not None and n >= decoys_after:
                expected = None
                send({"type": "suggestion", "moves": [decoy]})
                continue
            if not found:
                expected = None
                send({"type": "suggestion", "moves": [decoy]})
                continue
            drops = drop_cells(board, piece)
            ranked = sorted(found.items(), key=lambda kv: (score(board, kv[0][0]), kv[1][1], sorted(kv[0][0]), kv[0][1]))
            best = ranked[0][1][0]
            pick = None
            top = score(board, ranked[0][0][0])

            def near(kv, margin):
                return score(board, kv[0][0]) <= top + margin

            spins = [kv for kv in ranked if kv[0][1] == "full" and near(kv, 6)]
            tucks = [kv for kv in ranked if kv[0][0] not in drops and near(kv, 8)]
            far = [kv for kv in ranked if near(kv, 8) and (min(x for (x, _) in kv[0][0]) == 0 or
                                                           max(x for (x, _) in kv[0][0]) == 9)]
            hard = sorted((kv for kv in ranked if near(kv, 4)), key=lambda kv: -kv[1][1])
            turn = (n + seed) % 4
            if spins:
                pick, stats["spins"] = spins[0], stats["spins"] + 1
            elif tucks and turn == 0:
                pick, stats["tucks"] = tucks[0], stats["tucks"] + 1
            elif far and turn == 1:
                pick, stats["far"] = far[0], stats["far"] + 1
            elif turn == 2:
                pick = hard[0]
            else:
                pick = ranked[0]
            stats["hard"] = stats.get("hard", 0) + (1 if pick[1][1] >= 4 else 0)
            moves = [{"location": pick[1][0], "spin": pick[0][1]}]
            if (n + seed) % 5 == 0:
                moves.insert(0, decoy)
                stats["decoys"] += 1
            if best != pick[1][0]:
                moves.append({"location": best, "spin": ranked[0][0][1]})
            expected = pick[0]
            send({"type": "suggestion", "moves": moves})
        elif kind == "play":
            move = message["move"]
            location = move["location"]
            piece = location["type"]
            rot = ORIENTATIONS.index(location["orientation"])
            cells = cells_of(piece, rot, location["x"], location["y"])
            if move.get("spin", "none") != "none":
                stats["spins_played"] += 1
            if expected is not None:
                if cells != expected[0]:
                    stats["played_other"] += 1
                elif move.get("spin", "none") != expected[1]:
                    stats["wrong_spin"] += 1
            if piece == queue[0]:
                queue.pop(0)
            elif hold is None:
                hold = queue.pop(0)
                queue.pop(0)
            else:
                hold, _ = queue.pop(0), hold
            board.place(cells)
            changed_at = time.monotonic()
        elif kind == "new_piece":
            queue.append(message["piece"])
            if bag is not None:  # every new piece must come out of the bag the start message described
                stats["bag_checked"] += 1
                if message["piece"] not in bag:
                    stats["bag_errors"] += 1
                bag.discard(message["piece"])
                if not bag:
                    bag = set(NORTH)
            changed_at = time.monotonic()
        elif kind == "quit":
            break
    summary = "tricky-bot: " + " ".join(f"{k}={v}" for k, v in stats.items()) + "\n"
    sys.stderr.write(summary)
    sys.stderr.flush()
    if report:
        with open(report, "a") as f:
            f.write(summary)


if __name__ == "__main__":
    main()
