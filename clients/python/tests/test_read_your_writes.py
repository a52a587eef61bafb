"""Read-your-writes against a live server that reads from a standby an hour behind the
primary: ZAXY_RYW_URL names it (TestClients starts one; docs/scaling.md)."""

import os
import re
import secrets
import unittest

from zaxy import Client, NewEvent, ZaxyError

URL = os.environ.get("ZAXY_RYW_URL", "")


@unittest.skipUnless(URL, "ZAXY_RYW_URL is not set")
class ReadYourWritesTest(unittest.TestCase):
    def test_the_client_reads_its_own_write_and_a_continued_session_too(self):
        space = "py-ryw-" + secrets.token_hex(4)
        writer = Client(URL)
        self.assertEqual("", writer.consistency_token)
        res = writer.append(space, NewEvent(type="note", content="written"))
        self.assertRegex(writer.consistency_token, re.compile(r"^lsn:[0-9A-F]+/[0-9A-F]+$"), "the client kept its append's token")
        self.assertEqual(writer.consistency_token, res.consistency)
        self.assertEqual(1, len(writer.replay(space).events), "the writer reads its own append")

        # Without the token the standby serves the read, and it has not seen the space.
        other = Client(URL)
        try:
            seen = len(other.replay(space).events)
        except ZaxyError as e:
            self.assertEqual(404, e.status, e)
            seen = 0
        self.assertEqual(0, seen, "a client without the token is served by the standby")

        continued = Client(URL, consistency_token=writer.consistency_token)
        self.assertEqual(1, len(continued.replay(space).events))


if __name__ == "__main__":
    unittest.main()
