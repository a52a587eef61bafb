"""The client against a live server: ZAXY_URL and ZAXY_TOKEN name it (the Go test
TestClients in package clients starts one and runs this suite in make test)."""

import os
import secrets
import unittest

from zaxy import Client, NewEvent, Packet, ZaxyError


@unittest.skipUnless(os.environ.get("ZAXY_URL"), "ZAXY_URL is not set: no live server to test against")
class LiveTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = Client.from_env()
        cls.space = "py-" + secrets.token_hex(4)
        cls.seed = [
            NewEvent(type="message", actor="user", session_id="s1",
                     content="The staging registry times out after 30 seconds; raising the proxy timeout fixed it."),
            NewEvent(type="fact.asserted", data={"subject": "Alice", "predicate": "works at", "object": "Acme"}),
            NewEvent(type="message", actor="assistant", session_id="s1",
                     content="Noted: deploys to staging need the proxy timeout raised."),
        ]
        cls.appended = cls.client.append(cls.space, cls.seed, idempotency_key=cls.space + "-seed")
        cls.client.wait_projected(cls.space, cls.appended.events[-1].seq)

    def test_append_assigns_seqs_and_chains_hashes(self):
        r = self.appended
        self.assertEqual(self.space, r.space_id)
        self.assertEqual([1, 2, 3], [e.seq for e in r.events])
        for prev, cur in zip(r.events, r.events[1:]):
            self.assertEqual(prev.hash, cur.prev_hash)
        self.assertFalse(r.replayed)
        again = self.client.append(self.space, self.seed, idempotency_key=self.space + "-seed")
        self.assertTrue(again.replayed, "a repeat with the same idempotency key answers the original receipts")
        self.assertEqual([e.hash for e in r.events], [e.hash for e in again.events])
        with self.assertRaises(ZaxyError) as cm:
            self.client.append(self.space, [NewEvent(type="message", actor="user", content="other")],
                               idempotency_key=self.space + "-seed")
        self.assertEqual((409, "idempotency_conflict"), (cm.exception.status, cm.exception.code))
        v = self.client.verify(self.space)
        self.assertTrue(v.ok, v)
        self.assertEqual(3, v.head_seq)

    def test_checkout_citations_are_in_replay(self):
        packet = self.client.checkout(self.space, "why does the staging deploy time out?", max_tokens=1000)
        self.assertIsInstance(packet, Packet)
        self.assertIn("proxy timeout", packet.text)
        log = {e.seq: e for e in self.client.replay_all(self.space)}
        cited = 0
        for item in packet.items:
            self.assertTrue(item.citations, f"item {item.item_id} cites nothing")
            for c in item.citations:
                self.assertIn(c.seq, log, f"{item.item_id} cites seq {c.seq}, which replay does not have")
                ev = log[c.seq]
                self.assertEqual(ev.hash, c.hash, f"{item.item_id} cites seq {c.seq} with another hash")
                if c.start is not None and c.end is not None:
                    self.assertIn(ev.content[c.start:c.end], item.text)
                elif item.kind == "fact":
                    self.assertEqual("fact.asserted", ev.type)
                    self.assertIn(ev.data["subject"], item.text)
                    self.assertIn(ev.data["object"], item.text)
                else:
                    self.assertEqual(ev.content, item.text, f"{item.item_id} is the content of the event it cites")
                cited += 1
        self.assertGreaterEqual(cited, 2, packet.text)

    def test_facts(self):
        res = self.client.facts(self.space)
        self.assertEqual("current", res.view)
        [fact] = res.facts
        self.assertEqual(("Alice", "works at", "Acme"), (fact.subject.name, fact.predicate, fact.object.name))
        self.assertEqual([self.appended.events[1].seq], [e.seq for e in fact.evidence])
        self.assertEqual(self.appended.events[1].hash, fact.evidence[0].hash)
        self.assertEqual([fact.id], [f.id for f in self.client.facts(self.space, entity="Alice").facts])

    def test_bad_body_is_a_typed_error_naming_the_field(self):
        with self.assertRaises(ZaxyError) as cm:
            self.client.append(self.space, [NewEvent(type="fact.asserted", data={"subject": "Alice"})])
        e = cm.exception
        self.assertEqual((400, "invalid_request"), (e.status, e.code))
        self.assertTrue(e.field and e.field.endswith("data.predicate"), e.details)
        self.assertTrue(e.request_id)
        with self.assertRaises(ZaxyError) as cm:
            self.client.checkout(self.space, "anything", cues={"Bad Key": "v"})
        self.assertEqual(("invalid_request", "cues"), (cm.exception.code, cm.exception.field))

    def test_bad_token_is_unauthorized(self):
        c = Client(os.environ["ZAXY_URL"], "zx_not_a_token")
        with self.assertRaises(ZaxyError) as cm:
            c.facts(self.space)
        self.assertEqual(401, cm.exception.status)


@unittest.skipUnless(os.environ.get("ZAXY_URL"), "ZAXY_URL is not set: no live server to test against")
class ExampleTest(unittest.TestCase):
    def test_the_example_of_docs_clients_md_runs(self):
        from examples.remember import remember

        out = remember("py-example-" + secrets.token_hex(4))
        self.assertTrue(out.startswith("appended seq 1\n"), out)
        self.assertIn("blue cluster", out)
        self.assertTrue(out.endswith("refused: 400 invalid_request at cues"), out)


if __name__ == "__main__":
    unittest.main()
