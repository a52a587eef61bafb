"""The Zaxy-Consistency token a client carries for its session (docs/api.md)."""

from __future__ import annotations

import threading
from typing import Optional

HEADER = "Zaxy-Consistency"


def _lsn(token: str) -> Optional[int]:
    """The token ``lsn:<hex>/<hex>`` as one number, or None for any other form."""
    if not token.startswith("lsn:"):
        return None
    hi, sep, lo = token[4:].partition("/")
    if not sep:
        return None
    try:
        h, l = int(hi, 16), int(lo, 16)
    except ValueError:
        return None
    if h >= 1 << 32 or l >= 1 << 32:
        return None
    return h << 32 | l


class Consistency:
    """The latest token a write answered; sent back with every later request.

    A token earlier than the one held is ignored, so answers arriving out of order never move
    the session back; a token of a form the client cannot compare replaces the one held.
    """

    def __init__(self, token: str = "") -> None:
        self._lock = threading.Lock()
        self._token = ""
        self.observe(token)

    def get(self) -> str:
        with self._lock:
            return self._token

    def observe(self, token: Optional[str]) -> None:
        if not token:
            return
        with self._lock:
            held, new = _lsn(self._token), _lsn(token)
            if held is not None and new is not None and new <= held:
                return
            self._token = token
