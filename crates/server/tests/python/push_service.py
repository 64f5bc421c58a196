"""A push service and a browser's subscription, for the Web Push test:
`push_service.py PORT DIR` makes a P-256 key pair and an auth secret as a
browser does (RFC 8291), prints the subscription as one JSON line
({"endpoint", "keys": {"p256dh", "auth"}}), then listens on
127.0.0.1:PORT. Each POST to the endpoint is decrypted (aes128gcm,
`http_ece` from PyPI) and written to DIR as N.json: the plain text, the
TTL and the VAPID Authorization header. Answers 201 as push services do."""

import base64
import http.server
import json
import os
import pathlib
import sys

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

port, directory = int(sys.argv[1]), pathlib.Path(sys.argv[2])
directory.mkdir(parents=True, exist_ok=True)


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


key = ec.generate_private_key(ec.SECP256R1())
auth = os.urandom(16)
public = key.public_key().public_bytes(
    serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
)
endpoint = f"http://127.0.0.1:{port}/push/subscription-1"
print(json.dumps({"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(auth)}}), flush=True)

count = 0


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        global count
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            text = http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm").decode()
            error = None
        except Exception as e:  # a payload we cannot read is the failure the test reports
            text, error = None, repr(e)
        count += 1
        record = {
            "path": self.path,
            "text": text,
            "error": error,
            "ttl": self.headers.get("TTL"),
            "encoding": self.headers.get("Content-Encoding"),
            "authorization": self.headers.get("Authorization"),
        }
        path = directory / f"{count:04}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record))
        tmp.rename(path)
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
