#!/usr/bin/env python3
"""Cost of the simultaneous search, counted in instructions by callgrind (a
loaded machine does not change the count): depth-2 searches of three
positions in parity and move-neutral, for each binary given (e.g. an older
build and the current one). Prints total instructions per binary and the
ratio to the first.

    bench/sim-speed.py BINARY...
"""
import re
import subprocess
import sys

SEARCHES = [
    ("parity", "position startpos moves e2e4:e7e5 g1f3:b8c6", "go side white depth 2"),
    ("parity", "position startpos moves d2d4:d7d5 c2c4:e7e6 b1c3:g8f6 c1g5:f8e7 e2e3:e8g8", "go side black depth 2"),
    ("move-neutral", "position startpos moves e2e4:c7c5 g1f3:d7d6 d2d4:g8f6", "go side white depth 2"),
]


def instructions(binary):
    engine = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "uci"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for variant, position, go in SEARCHES:
        engine.stdin.write(f"setoption name UCI_Variant value {variant}\n{position}\n{go}\n")
        engine.stdin.flush()
        # The next search starts only once this one has answered.
        for line in engine.stdout:
            if line.startswith("bestmove"):
                break
            if "error" in line:
                engine.kill()
                sys.exit(f"{binary}: {line.strip()}")
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    _, err = engine.communicate()
    return int(re.search(r"Collected : (\d+)", err).group(1))


counts = [(b, instructions(b)) for b in sys.argv[1:]]
for binary, n in counts:
    print(f"{binary:40} {n:>15,} instructions  {n / counts[0][1]:.3f} of the first")
