"""A real SMTP server for the notification test (aiosmtpd, from PyPI):
`smtp_sink.py PORT DIR` listens on 127.0.0.1:PORT, writes each message it
receives to DIR as N.eml (headers and body, the envelope's recipients in
an X-Rcpt-To header), prints `ready`, and runs until killed."""

import pathlib
import sys
import threading

from aiosmtpd.controller import Controller

port, directory = int(sys.argv[1]), pathlib.Path(sys.argv[2])
directory.mkdir(parents=True, exist_ok=True)


class Sink:
    count = 0

    async def handle_DATA(self, server, session, envelope):
        Sink.count += 1
        data = envelope.content.decode("utf8", errors="replace")
        head = "X-Rcpt-To: " + ", ".join(envelope.rcpt_tos) + "\r\n"
        path = directory / f"{Sink.count:04}.eml"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(head + data)
        tmp.rename(path)
        return "250 Message accepted for delivery"


controller = Controller(Sink(), hostname="127.0.0.1", port=port)
controller.start()
print("ready", flush=True)
try:
    threading.Event().wait()
finally:
    controller.stop()
