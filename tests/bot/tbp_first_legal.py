#!/usr/bin/env python3
"""A tiny scripted Tetris Bot Protocol bot for stackrace-bot's tests.

It knows only what the TBP spec says (piece centres per SRS true rotation, rows counted bottom-up), so it checks our
coordinate conversion from the other side. It never holds; it suggests straight drops of the current piece, lowest
first. Options: --forfeit-after N answers with an impossible move from the N-th suggestion on (so the frontend must
forfeit), --die-after N exits without a word at the N-th suggestion, --greedy orders the drops by the board they
leave (fewest holes, then most lines cleared, then lowest stack), a player that keeps going for minutes,
--slow-once FILE: the first process to create FILE answers its 3rd suggest 1.5 s late.
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


def minos(piece, orientation):
    cells = NORTH[piece]
    for _ in range(ORIENTATIONS.index(orientation)):
        cells = [(y, -x) for (x, y) in cells]  # a clockwise quarter turn about the centre
    return cells


class Board:
    def __init__(self, rows=None):
        self.rows = [[cell is not None for cell in row] for row in rows] if rows else [[False] * 10 for _ in range(40)]

    def fits(self, cells):
        return all(0 <= x < 10 and 0 <= y < 40 and not self.rows[y][x] for (x, y) in cells)

    def place(self, cells):
        for (x, y) in cells:
            self.rows[y][x] = True
        self.rows = [row for row in self.rows if not all(row)]
        while len(self.rows) < 40:
            self.rows.append([False] * 10)


def at(cells, x, y):
    return [(x + dx, y + dy) for (dx, dy) in cells]


def drops(board, piece):
    found = []
    for orientation in ORIENTATIONS:
        shape = minos(piece, orientation)
        for x in range(-2, 12):
            y = 21
            if not board.fits(at(shape, x, y)):
                continue
            while board.fits(at(shape, x, y - 1)):
                y -= 1
            top = max(cy for (_, cy) in at(shape, x, y))
            found.append((top, len(found), {"location": {"type": piece, "orientation": orientation, "x": x, "y": y},
                                            "spin": "none"}))
    found.sort(key=lambda f: (f[0], f[1]))
    return [f[2] for f in found]


def left_behind(board, cells):
    """(holes, -lines cleared, stack height) of the board after placing `cells`: smaller is better."""
    after = Board()
    after.rows = [list(row) for row in board.rows]
    after.place(cells)
    lines = (sum(map(sum, board.rows)) + len(cells) - sum(map(sum, after.rows))) // 10
    height = max((y + 1 for y in range(40) if any(after.rows[y])), default=0)
    holes = sum(1 for x in range(10) for y in range(height)
                if not after.rows[y][x] and any(after.rows[h][x] for h in range(y + 1, height)))
    return (holes, -lines, height)


def greedy(board, moves):
    def score(move):
        loc = move["location"]
        return left_behind(board, at(minos(loc["type"], loc["orientation"]), loc["x"], loc["y"]))
    return sorted(moves, key=score)


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    forfeit_after = die_after = None
    args = sys.argv[1:]
    if "--forfeit-after" in args:
        forfeit_after = int(args[args.index("--forfeit-after") + 1])
    if "--die-after" in args:
        die_after = int(args[args.index("--die-after") + 1])
    slow_file = args[args.index("--slow-once") + 1] if "--slow-once" in args else None
    send({"type": "info", "name": "first-legal", "version": "1", "author": "stackrace tests", "features": []})
    board, queue, hold, suggestions = Board(), [], None, 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "rules":
            send({"type": "ready"})
        elif kind == "start":
            board = Board(message["board"])
            assert len(message["board"]) == 40 and all(len(row) == 10 for row in message["board"])
            queue, hold = list(message["queue"]), message["hold"]
        elif kind == "suggest":
            suggestions += 1
            if die_after is not None and suggestions >= die_after:
                return
            if forfeit_after is not None and suggestions >= forfeit_after:
                send({"type": "suggestion", "moves": [
                    {"location": {"type": queue[0], "orientation": "north", "x": 4, "y": 30}, "spin": "none"}]})
                continue
            if slow_file and suggestions == 3 and not os.path.exists(slow_file):
                open(slow_file, "w").close()
                time.sleep(1.5)
            moves = drops(board, queue[0])
            send({"type": "suggestion", "moves": (greedy(board, moves) if "--greedy" in args else moves)[:3]})
        elif kind == "play":
            location = message["move"]["location"]
            piece = location["type"]
            if piece == queue[0]:
                queue.pop(0)
            elif hold is None:  # held the current piece and played the next one
                hold = queue.pop(0)
                queue.pop(0)
            else:
                hold, _ = queue.pop(0), hold
            board.place(at(minos(piece, location["orientation"]), location["x"], location["y"]))
        elif kind == "new_piece":
            queue.append(message["piece"])
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
