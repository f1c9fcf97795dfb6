#!/usr/bin/python3
"""A loopback AI service for tests: answers like the Hooray backend or an OpenAI-compatible server,
or misbehaves on purpose.

The first path segment chooses the behaviour, the rest says which protocol is spoken:

    POST /good/moments                   a correct Hooray backend answer
    POST /good/v1/chat/completions       a correct chat-completions answer
    POST /MODE/...                       MODE is one of the names in MODES below
    POST /scripted/...                   the mode named in the file given by --script (default "good"),
                                         read on every request, so a test can change it between requests
    POST /good/v1/chat/completions       with "stream": true in the request, a streamed answer (server-sent
                                         events, STREAM_PIECES, then [DONE]); the stream-* modes misbehave
                                         (see stream()); /stream-gated/ sends half, waits for the gate file,
                                         then the rest
    POST /gated/...                      waits until the file given by --gate exists (up to a minute), then
                                         answers as /good/ does: a test opens the gate once it has seen
                                         what shows before the answer

Every request is appended to the record file as one JSON line (method, path, headers with
lower-case names, body) before it is answered, so tests can check what the client sent.

It binds 127.0.0.1 on a port the system chooses and prints `PORT <number>` when ready. It exits by
itself after --idle seconds without a request, so a test that forgets to stop it leaves nothing behind.

For benchmarks (both off unless given): --delay SECONDS waits that long before answering any request,
like a slow service; --timing FILE appends, after each answer was written and flushed, one JSON line
{"path", "received", "sent"} with time.monotonic() stamps, so the service's own latency can be
subtracted from what a client measures.
"""

import argparse
import json
import os
import select
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MARKUP_PRAISE = "<b>Tom & Jerry</b>"
GOOD_PRAISE = "You made space for yourself."
BIG_SIZE = 5 * 1024 * 1024

MODES = {
    "good", "markup", "notjson", "wrongtypes", "missing", "emptypraise", "wrongclient", "nullcontent",
    "nochoices", "array", "oversized", "oversized-chunked", "drip", "hang", "redirect", "redirected",
    "status-500", "status-404", "status-429", "status-401", "status-503", "gated",
    "stream-gated", "stream-garbage", "stream-cut", "stream-huge", "stream-nodone", "stream-markup",
    "stream-error", "stream-html",
}

# A streamed chat answer (`"stream": true`), one piece per server-sent event.
STREAM_PIECES = ["You ", "don't ", "have ", "to ", "eat ", "perfectly. ", "A ", "glass ", "of ", "sparkling ",
                 "water ", "first, ", "then ", "see ", "how ", "you ", "feel."]

record_lock = threading.Lock()
last_activity = time.monotonic()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "HoorayTestAI/1"

    def log_message(self, format, *args):
        sys.stderr.write("ai_server: " + (format % args) + "\n")

    def do_GET(self):
        self.handle_request()

    def do_POST(self):
        self.handle_request()

    def handle_request(self):
        global last_activity
        last_activity = time.monotonic()
        received = last_activity
        self.answer_request()
        timing_file = getattr(self.server, "timing_file", None)
        if timing_file:
            try:
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
            entry = {"path": self.path, "received": received, "sent": time.monotonic()}
            with record_lock:
                with open(timing_file, "a", encoding="utf-8") as file:
                    file.write(json.dumps(entry) + "\n")

    def answer_request(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        record = {
            "method": self.command,
            "path": self.path,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": body.decode("utf-8", errors="replace"),
        }
        with record_lock:
            with open(self.server.record_file, "a", encoding="utf-8") as file:
                file.write(json.dumps(record) + "\n")

        delay = getattr(self.server, "delay", 0)
        if delay > 0:
            time.sleep(delay)

        parts = self.path.lstrip("/").split("/", 1)
        mode = parts[0]
        if mode == "scripted":
            try:
                with open(self.server.script_file, encoding="utf-8") as file:
                    mode = file.read().strip() or "good"
            except (OSError, TypeError):
                mode = "good"
        rest = "/" + (parts[1] if len(parts) > 1 else "")
        openai = rest.endswith("/chat/completions")
        try:
            request = json.loads(body) if body else {}
        except ValueError:
            request = {}
        client_id = request.get("clientId", "") if isinstance(request, dict) else ""

        if mode not in MODES:
            return self.send_body(404, b"unknown mode", "text/plain")
        if openai and isinstance(request, dict) and request.get("stream") is True and (
                mode == "good" or mode.startswith("stream-")):
            return self.stream(mode)
        if mode == "gated":
            deadline = time.monotonic() + 60
            gate = getattr(self.server, "gate_file", None)
            while gate and not os.path.exists(gate) and time.monotonic() < deadline:
                if self.client_closed(0.1):
                    self.close_connection = True
                    return
            mode = "good"
        if mode.startswith("status-"):
            return self.send_body(int(mode[len("status-"):]), b'{"error": "on purpose"}')
        if mode == "redirect":
            target = "http://127.0.0.1:%d/redirected%s" % (self.server.server_address[1], rest)
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if mode == "hang":
            return self.hang()
        if mode == "drip":
            return self.drip()
        if mode == "oversized":
            return self.send_body(200, b"x" * BIG_SIZE)
        if mode == "oversized-chunked":
            return self.send_chunked(b"x" * BIG_SIZE)
        if mode == "notjson":
            return self.send_body(200, b"<html>this is not json</html>", "text/html")
        if mode == "array":
            return self.send_json([1, 2, 3])

        praise = MARKUP_PRAISE if mode == "markup" else GOOD_PRAISE
        if openai:
            message = {"role": "assistant", "content": praise}
            if mode == "wrongtypes":
                message["content"] = 12
            elif mode == "missing":
                del message["content"]
            elif mode == "emptypraise":
                message["content"] = " \n\t "
            elif mode == "nullcontent":
                message["content"] = None
            answer = {"id": "chatcmpl-1", "object": "chat.completion", "model": request.get("model", ""),
                      "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
            if mode == "nochoices":
                answer["choices"] = []
            return self.send_json(answer)

        answer = {"id": "srv-%d" % int(time.time() * 1000), "clientId": client_id, "aiPraise": praise,
                  "action": "tidy", "tags": ["home", "care"]}
        if mode == "wrongtypes":
            answer["id"] = 42
            answer["aiPraise"] = ["not", "text"]
        elif mode == "missing":
            del answer["aiPraise"]
        elif mode == "emptypraise":
            answer["aiPraise"] = " \u0007\n "
        elif mode == "wrongclient":
            answer["clientId"] = "00000000-0000-4000-8000-000000000000"
        return self.send_json(answer)

    def stream(self, mode):
        """A streamed chat answer, or one that misbehaves as its mode says:
        stream-garbage    events that are not JSON
        stream-cut        three pieces, then the connection closes without [DONE]
        stream-huge       one event of 1 MiB
        stream-nodone     every piece, then silence with the connection open (up to two minutes)
        stream-markup     a piece with a <b> tag in the middle of the answer
        stream-error      an error object in the stream after two pieces
        stream-html       an HTML page with status 200 instead of events
        stream-gated      half the pieces, then waits for the gate file, then the rest
        """
        if mode == "stream-html":
            return self.send_body(200, b"<html><body><b>Hello</b> there</body></html>\n", "text/html")
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        pieces = STREAM_PIECES
        try:
            self.sse_event({"role": "assistant"})
            if mode == "stream-garbage":
                self.sse_raw("data: {this is not json\n\n")
                self.sse_raw("data: [DONE]\n\n")
                return self.sse_close()
            if mode == "stream-huge":
                self.sse_raw("data: " + json.dumps({"choices": [{"delta": {"content": "x" * (1 << 20)}}]}) + "\n\n")
                self.sse_raw("data: [DONE]\n\n")
                return self.sse_close()
            if mode == "stream-markup":
                pieces = ["Try ", "this: ", "<b>sparkling ", "water</b>", " now."]
            for index, piece in enumerate(pieces):
                if mode == "stream-cut" and index == 3:
                    # Ends without [DONE] and without the last chunk of the chunked encoding.
                    self.close_connection = True
                    return
                if mode == "stream-error" and index == 2:
                    self.sse_raw("data: " + json.dumps({"error": {"message": "the model is overloaded"}}) + "\n\n")
                    return self.sse_close()
                if mode == "stream-gated" and index == len(pieces) // 2:
                    deadline = time.monotonic() + 60
                    gate = getattr(self.server, "gate_file", None)
                    while gate and not os.path.exists(gate) and time.monotonic() < deadline:
                        if self.client_closed(0.1):
                            self.close_connection = True
                            return
                self.sse_event({"content": piece})
                time.sleep(0.02)
            if mode == "stream-nodone":
                self.hang()
                return
            self.sse_event({}, finish="stop")
            self.sse_raw("data: [DONE]\n\n")
            self.sse_close()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def sse_event(self, delta, finish=None):
        chunk = {"id": "chatcmpl-1", "object": "chat.completion.chunk",
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        self.sse_raw("data: " + json.dumps(chunk) + "\n\n")

    def sse_raw(self, text):
        data = text.encode("utf-8")
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def sse_close(self):
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def send_json(self, value):
        self.send_body(200, json.dumps(value).encode("utf-8"))

    def send_body(self, status, data, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def send_chunked(self, data):
        """Sends without a Content-Length, so only counting received bytes can cap it."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for start in range(0, len(data), 65536):
                chunk = data[start:start + 65536]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def drip(self):
        """Starts a valid answer, then sends one byte every 200 ms for up to a minute."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "1000")
        self.end_headers()
        deadline = time.monotonic() + 60
        try:
            while time.monotonic() < deadline:
                self.wfile.write(b" ")
                self.wfile.flush()
                if self.client_closed(0.2):
                    return
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def hang(self):
        """Never answers; returns when the client goes away, or after two minutes."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.client_closed(0.2):
                break
        self.close_connection = True

    def client_closed(self, wait):
        readable, _, _ = select.select([self.connection], [], [], wait)
        if not readable:
            return False
        try:
            return self.connection.recv(1, 0x2) == b""  # MSG_PEEK
        except OSError:
            return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", required=True, help="file to append one JSON line per request to")
    parser.add_argument("--idle", type=float, default=180.0, help="exit after this many seconds without a request")
    parser.add_argument("--port", type=int, default=0, help="listen on this port (0: one the system picks)")
    parser.add_argument("--script", help="file naming the mode of /scripted/... requests")
    parser.add_argument("--gate", help="file whose existence lets /gated/... requests be answered")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before answering (benchmarks)")
    parser.add_argument("--timing", help="file to append one JSON line of monotonic stamps per answer (benchmarks)")
    arguments = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    server.record_file = arguments.record
    server.script_file = arguments.script
    server.gate_file = arguments.gate
    server.delay = arguments.delay
    server.timing_file = arguments.timing

    parent = os.getppid()

    def watchdog():
        while True:
            time.sleep(1)
            # The test that started this server is gone (it crashed or was killed): stop too.
            orphaned = os.getppid() != parent
            if orphaned or time.monotonic() - last_activity > arguments.idle:
                try:
                    reason = "the test process is gone" if orphaned else "idle for %.0f s" % arguments.idle
                    sys.stderr.write("ai_server: %s, exiting\n" % reason)
                    sys.stderr.flush()
                except OSError:
                    pass  # Nobody reads stderr any more; exit all the same.
                os._exit(0)

    threading.Thread(target=watchdog, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
