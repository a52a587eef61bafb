"""The client's own behaviour (retries, Retry-After, the consistency token, error mapping)
against a scripted HTTP server on 127.0.0.1, answer by answer."""

import email.utils
import json
import socket
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from zaxy import NO_RETRY, Client, NewEvent, RetryPolicy, ZaxyError
from zaxy.client import _retry_after


class Script:
    """The answers to give, in order, and the requests seen."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.seen = []


def serve(script):
    class Handler(BaseHTTPRequestHandler):
        def _answer(self):
            n = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(n) if n else b""
            script.seen.append((self.command, self.path, dict(self.headers), body))
            status, headers, payload = script.answers.pop(0)
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            if "Content-Type" not in headers:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _answer

        def log_message(self, *args):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    return srv


RECEIPTS = {"space_id": "s", "events": [{"seq": 1, "hash": "a" * 64, "prev_hash": "0" * 64,
                                         "recorded_at": "2026-01-01T00:00:00Z", "occurred_at": "2026-01-01T00:00:00Z"}]}
PAGE = {"events": []}
BUSY = {"error": {"code": "too_many_requests", "message": "slow down", "details": {"limit": "requests"}}}


class TransportTest(unittest.TestCase):
    def client(self, *answers, **kw):
        self.script = Script(answers)
        srv = serve(self.script)
        self.addCleanup(srv.server_close)
        self.addCleanup(srv.shutdown)
        self.slept = []
        kw.setdefault("retry", RetryPolicy(min_backoff=0.001, max_backoff=0.002))
        return Client(f"http://127.0.0.1:{srv.server_port}", "zx_t", sleep=self.slept.append, **kw)

    def test_a_read_waits_for_retry_after_and_retries(self):
        c = self.client((429, {"Retry-After": "7"}, BUSY), (503, {"Retry-After": "2"}, BUSY), (200, {}, PAGE))
        self.assertEqual([], c.replay("s").events)
        self.assertEqual([7.0, 2.0], self.slept)
        self.assertEqual(3, len(self.script.seen))
        self.assertEqual("Bearer zx_t", self.script.seen[0][2]["Authorization"])

    def test_a_checkout_a_post_that_only_reads_is_retried(self):
        c = self.client((503, {"Retry-After": "1"}, BUSY), (200, {}, {"text": "packet", "tiers": []}))
        self.assertEqual("packet", c.checkout("s", "q", max_tokens=10).text)
        self.assertEqual([1.0], self.slept)
        self.assertEqual([("POST", "/v1/spaces/s/checkout", b'{"query": "q", "max_tokens": 10}')] * 2,
                         [(m, p, b) for m, p, _, b in self.script.seen])

    def test_retries_are_bounded(self):
        c = self.client(*[(503, {"Retry-After": "1"}, BUSY)] * 4)
        with self.assertRaises(ZaxyError) as cm:
            c.facts("s")
        self.assertEqual((503, "too_many_requests", 1.0), (cm.exception.status, cm.exception.code, cm.exception.retry_after))
        self.assertEqual(4, len(self.script.seen), "max_attempts counts every try")
        self.assertEqual([1.0] * 3, self.slept)

    def test_a_retry_after_past_the_limit_is_not_waited_for(self):
        c = self.client((429, {"Retry-After": "3600"}, BUSY))
        with self.assertRaises(ZaxyError) as cm:
            c.facts("s")
        self.assertEqual(3600.0, cm.exception.retry_after)
        self.assertEqual([], self.slept)

    def test_an_append_is_retried_only_with_an_idempotency_key(self):
        c = self.client((429, {"Retry-After": "1"}, BUSY))
        with self.assertRaises(ZaxyError):
            c.append("s", NewEvent(type="message", actor="user", content="hi"))
        self.assertEqual(1, len(self.script.seen))

        c = self.client((429, {"Retry-After": "1"}, BUSY), (201, {}, RECEIPTS))
        r = c.append("s", NewEvent(type="message", actor="user", content="hi"), idempotency_key="k1")
        self.assertEqual(1, r.events[0].seq)
        self.assertEqual(["k1", "k1"], [s[2]["Idempotency-Key"] for s in self.script.seen])
        body = json.loads(self.script.seen[0][3])
        self.assertEqual({"events": [{"type": "message", "actor": "user", "content": "hi"}]}, body)

    def test_the_consistency_token_of_the_latest_write_goes_with_every_later_request(self):
        c = self.client(
            (200, {}, PAGE),
            (201, {"Zaxy-Consistency": "lsn:0/10"}, dict(RECEIPTS, consistency="lsn:0/10")),
            (200, {}, PAGE),
            (201, {"Zaxy-Consistency": "lsn:0/F"}, RECEIPTS),  # an older answer arriving late
            (200, {}, PAGE),
            (201, {"Zaxy-Consistency": "lsn:1/0"}, RECEIPTS),
            (200, {}, PAGE),
        )
        ev = NewEvent(type="message", actor="user", content="hi")
        c.replay("s")
        c.append("s", ev)
        c.replay("s")
        c.append("s", ev)
        c.replay("s")
        c.append("s", ev)
        c.replay("s")
        sent = [s[2].get("Zaxy-Consistency") for s in self.script.seen]
        self.assertEqual([None, None, "lsn:0/10", "lsn:0/10", "lsn:0/10", "lsn:0/10", "lsn:1/0"], sent)
        self.assertEqual("lsn:1/0", c.consistency_token)

    def test_a_session_continues_from_a_token(self):
        c = self.client((200, {}, PAGE), consistency_token="lsn:0/AB")
        c.replay("s")
        self.assertEqual("lsn:0/AB", self.script.seen[0][2]["Zaxy-Consistency"])

    def test_an_answer_without_the_error_body_is_still_typed(self):
        c = self.client((502, {"Content-Type": "text/plain"}, b"bad gateway"), retry=NO_RETRY)
        with self.assertRaises(ZaxyError) as cm:
            c.facts("s")
        self.assertEqual((502, "http_502", "bad gateway"), (cm.exception.status, cm.exception.code, cm.exception.message))

    def test_an_unreachable_server_is_a_typed_error(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        c = Client(f"http://127.0.0.1:{port}", retry=NO_RETRY)
        with self.assertRaises(ZaxyError) as cm:
            c.facts("s")
        self.assertEqual((0, "unreachable"), (cm.exception.status, cm.exception.code))

    def test_retry_after_reads_seconds_and_http_dates(self):
        self.assertEqual(3.0, _retry_after("3"))
        self.assertIsNone(_retry_after(None))
        self.assertIsNone(_retry_after("soon"))
        when = email.utils.formatdate(time.time() + 30, usegmt=True)
        self.assertAlmostEqual(30, _retry_after(when), delta=2)

    def test_from_env(self):
        c = Client.from_env({"ZAXY_URL": "http://zaxy.internal:8080/", "ZAXY_TOKEN": "zx_abc"})
        self.assertEqual(("http://zaxy.internal:8080", "zx_abc"), (c.url, c.token))
        with self.assertRaisesRegex(ValueError, "ZAXY_URL"):
            Client.from_env({})

    def test_space_and_query_are_escaped(self):
        c = self.client((200, {}, {"view": "current", "facts": []}))
        c.facts("a/b", entity="Alice & Bob", include_inferred=True)
        self.assertEqual("/v1/spaces/a%2Fb/facts?entity=Alice+%26+Bob&include_inferred=true", self.script.seen[0][1])


if __name__ == "__main__":
    unittest.main()
