#!/usr/bin/env python3
"""Resident memory per live game: starts `parity serve` on a fresh SQLite
file (per-address limits lifted: every request comes from 127.0.0.1),
opens N correspondence games between two anonymous seats (created, then
joined by their invite, so each game's actor is loaded and stays: its
clock runs in days), and reads the server's VmRSS before and after each
step. Standard library only.

    bench/memory-per-game.py PARITY_BINARY [GAMES] [VARIANT] [STEP]
"""
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(conn, method, path, body=None):
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    text = response.read()
    if response.status not in (200, 201):
        raise RuntimeError(f"{method} {path}: {response.status} {text[:200]!r}")
    return json.loads(text)


def main():
    binary = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    variant = sys.argv[3] if len(sys.argv) > 3 else "parity"
    step = int(sys.argv[4]) if len(sys.argv) > 4 else 2500
    port = free_port()
    lifted = ["--games-per-minute", "100000000", "--actions-per-second", "100000000",
              "--max-connections", "100000", "--max-connections-per-ip", "100000"]
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [binary, "serve", "--db", os.path.join(tmp, "memory.sqlite"),
             "--addr", f"127.0.0.1:{port}", *lifted],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(200):
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    call(conn, "GET", "/api/variants")
                    break
                except OSError:
                    time.sleep(0.05)
            time.sleep(1)
            base = rss_kib(server.pid)
            print(f"games 0: VmRSS {base} KiB")
            started = time.time()
            for n in range(1, games + 1):
                created = call(conn, "POST", "/api/games",
                               {"variant": variant, "days": 3, "opponent": "friend", "color": "white"})
                call(conn, "POST", f"/api/games/{created['id']}/join", {"invite": created["invite"]})
                if n % step == 0 or n == games:
                    rss = rss_kib(server.pid)
                    print(f"games {n}: VmRSS {rss} KiB, {(rss - base) / n:.1f} KiB a game "
                          f"({time.time() - started:.0f} s)", flush=True)
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
