"""Through a reverse proxy over TLS, nginx or Caddy
(crates/cli/tests/proxies.rs): the session cookie is Secure, a WebSocket
opens over wss and sends the game, the server keys its rate limits on the
client's address (not the proxy's, not a forged X-Forwarded-For). Run as
`proxy_client.py BASE_URL CA_FILE`; prints `ok`."""

import base64
import http.client
import json
import os
import socket
import ssl
import sys
from urllib.parse import urlparse

import requests

base, ca = sys.argv[1:3]
url = urlparse(base)

signed_up = requests.post(
    base + "/api/signup", json={"username": "Carol", "password": "correct horse"}, verify=ca
)
assert signed_up.status_code == 200, signed_up.text
assert "Secure" in signed_up.headers["set-cookie"], signed_up.headers["set-cookie"]

created = requests.post(
    base + "/api/games",
    json={"variant": "parity", "opponent": "friend", "color": "white", "days": 3},
    verify=ca,
)
assert created.status_code in (200, 201), created.text
game = created.json()

# wss: the upgrade through the proxy, then the first message, the game.
context = ssl.create_default_context(cafile=ca)
raw = socket.create_connection((url.hostname, url.port), timeout=10)
tls = context.wrap_socket(raw, server_hostname=url.hostname)
key = base64.b64encode(os.urandom(16)).decode()
tls.sendall(
    (
        f"GET /api/ws/game/{game['id']} HTTP/1.1\r\nHost: {url.netloc}\r\n"
        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        f"Sec-WebSocket-Version: 13\r\nCookie: parity_seat_{game['id']}={game['token']}\r\n\r\n"
    ).encode()
)
received = b""
while b"\r\n\r\n" not in received:
    received += tls.recv(4096)
head, rest = received.split(b"\r\n\r\n", 1)
assert head.startswith(b"HTTP/1.1 101"), head
while len(rest) < 4 or len(rest) < 4 + int.from_bytes(rest[2:4], "big"):
    rest += tls.recv(65536)
assert rest[0] & 0x0F == 1, rest[:2]  # a text frame, not masked
length = rest[1] & 0x7F
start = 2 if length < 126 else 4
length = length if length < 126 else int.from_bytes(rest[2:4], "big")
message = json.loads(rest[start : start + length])
assert message["type"] == "gameFull" and message["id"] == game["id"], message
tls.close()


def wrong_token(forged, source="127.0.0.1"):
    connection = http.client.HTTPSConnection(
        url.hostname, url.port, context=context, source_address=(source, 0), timeout=10
    )
    connection.request(
        "GET",
        "/api/account",
        headers={"Authorization": "Bearer pat_wrong", "X-Forwarded-For": forged},
    )
    status = connection.getresponse().status
    connection.close()
    return status


statuses = [wrong_token(f"203.0.113.{i}") for i in range(40)]
assert statuses[0] == 401 and statuses[-1] == 429, statuses
assert statuses.count(429) >= 10, statuses
# Another client address behind the same proxy has its own allowance.
assert wrong_token("203.0.113.99", source="127.0.0.2") == 401
print("ok")
