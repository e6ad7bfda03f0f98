#!/usr/bin/env python3
"""A records hub that answers fixed JSON (common/protocol/RECORDS.md, section 5) for the Records window test.

usage: fake_records_hub.py PORT_FILE REQUEST_LOG OWN_KEY_ID

Boards: sprint-40l (23 trusted entries, the second one the player's own key id; 2 other), a custom ultra board (one
entry), and master-100l, whose page answers with HTML instead of the API's JSON. Any place question is answered
"#3 of 23". Each request's path is appended to REQUEST_LOG; the port chosen is written to PORT_FILE.
"""
import http.server
import json
import os
import sys
import urllib.parse

port_file, request_log, own_key_id = sys.argv[1], sys.argv[2], sys.argv[3]

BOARDS = {"boards": [
    {"board": "sprint-40l", "mode": "sprint", "limit": "40 lines", "goal": "time", "custom": False,
     "trusted": 23, "other": 2},
    {"board": "ultra-120s.3fa2c9d1", "mode": "ultra", "limit": "120 s", "goal": "score", "custom": True,
     "trusted": 1, "other": 0},
    {"board": "master-100l", "mode": "master", "limit": "100 lines", "goal": "time", "custom": False,
     "trusted": 1, "other": 0},
]}


def entry(board, list_name, place, player, key_id, time_us, score=0):
    return {"record": "%016x-0" % place, "place": place, "board": board, "list": list_name, "player": player,
            "key_id": key_id, "time_us": time_us, "score": score, "lines": 40, "pieces": 101, "rules_version": 1,
            "server": "Ada's server", "server_key_id": "1a2b3c4d", "server_web": "",
            "played_unix_ms": 1764612345678 + place * 86400000, "game": "%016x" % place}


def entries(board, list_name):
    if board == "sprint-40l" and list_name == "trusted":
        return [entry(board, list_name, i, "racer%d" % i if i != 2 else "me", own_key_id if i == 2 else "%08x" % i,
                      38_000_000 + i * 1_234_567) for i in range(1, 24)]
    if board == "sprint-40l":
        return [entry(board, list_name, i, "late%d" % i, "%08x" % (100 + i), 50_000_000 + i * 1000) for i in (1, 2)]
    if board == "ultra-120s.3fa2c9d1" and list_name == "trusted":
        return [entry(board, list_name, 1, "cy", "0000c0de", 120_000_000, 1_234_567)]
    return []


class Hub(http.server.BaseHTTPRequestHandler):
    def answer(self, status, body, content_type="application/json"):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):  # noqa: N802 (http.server's name)
        with open(request_log, "a") as log:
            log.write(self.path + "\n")
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        parts = url.path.split("/")
        if url.path == "/api/records":
            return self.answer(200, json.dumps(BOARDS))
        if len(parts) == 5 and parts[:3] == ["", "api", "records"] and parts[4] == "place":
            return self.answer(200, json.dumps({"board": parts[3], "list": "trusted", "place": 3, "of": 23}))
        if len(parts) == 4 and parts[:3] == ["", "api", "records"]:
            board = parts[3]
            if board == "master-100l":
                return self.answer(200, "<html><body>502 Bad Gateway</body></html>", "text/html")
            list_name = query.get("list", "trusted")
            offset, limit = int(query.get("offset", "0")), int(query.get("limit", "50"))
            all_entries = entries(board, list_name)
            return self.answer(200, json.dumps({"board": board, "list": list_name, "total": len(all_entries),
                                                "entries": all_entries[offset:offset + limit]}))
        return self.answer(404, json.dumps({"error": "no such page"}))

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Hub)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
