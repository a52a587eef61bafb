"""The client: one method per main operation, the session's consistency token, retries."""

from __future__ import annotations

import email.utils
import json
import os
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Union

from .consistency import HEADER as CONSISTENCY_HEADER, Consistency
from .errors import ZaxyError
from .types import (
    AppendResult,
    CheckoutRequest,
    Event,
    FactsResult,
    NewEvent,
    Packet,
    ProjectionStatus,
    ReplayPage,
    VerifyResult,
)

__all__ = ["Client", "RetryPolicy"]


@dataclass(frozen=True)
class RetryPolicy:
    """How a call that is safe to repeat is retried after a 429, a 503 or a connection error.

    Safe calls are reads (GET, and the POSTs that only read, such as checkout) and appends
    given an idempotency key. A Retry-After from the server replaces the computed backoff.
    """

    max_attempts: int = 4
    """Every try, the first included; 1 never retries."""
    min_backoff: float = 0.2
    """Seconds before the first retry; doubled per retry, jittered down to half."""
    max_backoff: float = 5.0
    """Cap of the computed wait, in seconds."""
    max_retry_after: float = 60.0
    """A Retry-After longer than this many seconds is not waited for: the error is raised."""

    def backoff(self, attempt: int) -> float:
        d = min(self.min_backoff * (2 ** (attempt - 1)), self.max_backoff)
        return d / 2 + random.uniform(0, d / 2)


NO_RETRY = RetryPolicy(max_attempts=1)


def _retry_after(value: Optional[str]) -> Optional[float]:
    """A Retry-After header in seconds: delay seconds or an HTTP date; None when absent."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _error(status: int, body: bytes, headers: Mapping[str, str]) -> ZaxyError:
    request_id = headers.get("X-Request-Id", "") or ""
    retry_after = _retry_after(headers.get("Retry-After"))
    try:
        e = json.loads(body)["error"]
        if isinstance(e, dict) and e.get("code"):
            return ZaxyError(status, e["code"], e.get("message", ""), e.get("details") or {}, request_id, retry_after)
    except (ValueError, KeyError, TypeError):
        pass
    text = body.decode("utf-8", "replace").strip() or f"HTTP {status}"
    return ZaxyError(status, f"http_{status}", text, {}, request_id, retry_after)


def _space(space: str) -> str:
    return "/v1/spaces/" + urllib.parse.quote(space, safe="")


class Client:
    """A client of one Zaxy server, and one session: the consistency token a write answers
    is sent with every later request, so reads see the client's own writes even when a
    standby answers them (docs/scaling.md). Safe to share between threads.
    """

    def __init__(
        self,
        url: str,
        token: str = "",
        *,
        timeout: float = 30.0,
        retry: RetryPolicy = RetryPolicy(),
        consistency_token: str = "",
        user_agent: str = "zaxy-python/0.1",
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not url:
            raise ValueError("zaxy: url is required (ZAXY_URL)")
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retry = retry
        self.user_agent = user_agent
        self._consistency = Consistency(consistency_token)
        self._sleep = sleep

    @classmethod
    def from_env(cls, environ: Optional[Mapping[str, str]] = None, **kwargs: Any) -> "Client":
        """A client of ZAXY_URL with the bearer token ZAXY_TOKEN (may be unset when the
        server runs without auth)."""
        env = os.environ if environ is None else environ
        url = env.get("ZAXY_URL", "")
        if not url:
            raise ValueError("zaxy: ZAXY_URL is not set (e.g. http://127.0.0.1:8080)")
        return cls(url, env.get("ZAXY_TOKEN", ""), **kwargs)

    @property
    def consistency_token(self) -> str:
        """The latest consistency token a write answered ("" before any); another process
        continuing this session passes it as ``consistency_token``."""
        return self._consistency.get()

    # --- transport -------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        safe: bool = False,
        idempotency_key: Optional[str] = None,
    ) -> Any:
        """Sends one operation and returns its decoded JSON answer, retrying a safe call
        (or one with an idempotency key) as ``retry`` allows; any other status raises
        ZaxyError."""
        url = self.url + path
        if query:
            q = {k: ("true" if v is True else "false" if v is False else v) for k, v in query.items() if v is not None}
            if q:
                url += "?" + urllib.parse.urlencode(q)
        data = None if body is None else json.dumps(body).encode()
        retryable = safe or bool(idempotency_key)
        attempt = 0
        while True:
            attempt += 1
            try:
                return self._send(method, url, data, idempotency_key)
            except ZaxyError as err:
                if not retryable or attempt >= self.retry.max_attempts:
                    raise
                if err.status not in (0, 429, 503):
                    raise
                wait = self.retry.backoff(attempt)
                if err.retry_after is not None:
                    if err.retry_after > self.retry.max_retry_after:
                        raise
                    wait = err.retry_after
                self._sleep(wait)

    def _send(self, method: str, url: str, data: Optional[bytes], idempotency_key: Optional[str]) -> Any:
        req = urllib.request.Request(url, data=data, method=method)
        req.add_header("Accept", "application/json")
        req.add_header("User-Agent", self.user_agent)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        if idempotency_key:
            req.add_header("Idempotency-Key", idempotency_key)
        token = self._consistency.get()
        if token:
            req.add_header(CONSISTENCY_HEADER, token)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                self._consistency.observe(resp.headers.get(CONSISTENCY_HEADER))
                raw = resp.read()
                ctype = resp.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            with e:
                body = e.read()
            raise _error(e.code, body, e.headers) from None
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            raise ZaxyError(0, "unreachable", f"{method} {url}: {reason}") from e
        if not raw:
            return None
        if "json" not in ctype:
            return raw.decode("utf-8", "replace")
        return json.loads(raw)

    # --- operations ------------------------------------------------------------------

    def append(
        self,
        space: str,
        events: Union[NewEvent, Iterable[NewEvent]],
        *,
        idempotency_key: Optional[str] = None,
    ) -> AppendResult:
        """Appends events to space, all or nothing (appendEvents, scope write). With an
        idempotency key the call is retried, and a repeat answers the original receipts
        (``replayed`` true)."""
        evs = [events] if isinstance(events, NewEvent) else list(events)
        body = {"events": [e.to_json() for e in evs]}
        return AppendResult.from_json(self.request("POST", _space(space) + "/events", body=body, idempotency_key=idempotency_key))

    def replay(
        self,
        space: str,
        *,
        after_seq: Optional[int] = None,
        until_seq: Optional[int] = None,
        session_id: Optional[str] = None,
        recorded_before: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> ReplayPage:
        """One page of space's log in seq order (replayEvents, scope read)."""
        q = {"after_seq": after_seq, "until_seq": until_seq, "session_id": session_id,
             "recorded_before": recorded_before, "limit": limit}
        return ReplayPage.from_json(self.request("GET", _space(space) + "/events", query=q, safe=True))

    def replay_all(self, space: str, **filters: Any) -> Iterator[Event]:
        """Every event of space matching the filters of ``replay``, page after page."""
        after = filters.pop("after_seq", None)
        while True:
            page = self.replay(space, after_seq=after, **filters)
            yield from page.events
            if not page.next_after_seq:
                return
            after = page.next_after_seq

    def verify(self, space: str, method: Optional[str] = None) -> VerifyResult:
        """Recomputes space's hash chain (verifyChain, scope read): method "go" or "sql"."""
        return VerifyResult.from_json(self.request("GET", _space(space) + "/verify", query={"method": method}, safe=True))

    def checkout(self, space: str, query: Union[str, CheckoutRequest], **options: Any) -> Packet:
        """A cited, token-budgeted packet of memory for query (checkout, scope read).
        ``options`` are CheckoutRequest's other fields (purpose, max_tokens, session_id,
        cues, ...)."""
        req = query if isinstance(query, CheckoutRequest) else CheckoutRequest(query=query, **options)
        return Packet.from_json(self.request("POST", _space(space) + "/checkout", body=req.to_json(), safe=True))

    def facts(
        self,
        space: str,
        *,
        entity: Optional[str] = None,
        at: Optional[str] = None,
        as_of_seq: Optional[int] = None,
        limit: Optional[int] = None,
        include_inferred: Optional[bool] = None,
    ) -> FactsResult:
        """The temporal graph's facts (listFacts, scope read)."""
        q = {"entity": entity, "at": at, "as_of_seq": as_of_seq, "limit": limit, "include_inferred": include_inferred}
        return FactsResult.from_json(self.request("GET", _space(space) + "/facts", query=q, safe=True))

    def projection(self, space: str) -> ProjectionStatus:
        """How far the projector has applied space's log (getProjection, scope read)."""
        return ProjectionStatus.from_json(self.request("GET", _space(space) + "/projection", safe=True))

    def wait_projected(self, space: str, seq: Optional[int] = None, *, poll: float = 0.05,
                       timeout: Optional[float] = None) -> ProjectionStatus:
        """Waits until the projector has applied space's log up to seq (its head when None),
        polling every ``poll`` seconds; raises TimeoutError after ``timeout`` seconds when
        one is given."""
        start = time.monotonic()
        while True:
            st = self.projection(space)
            if st.projected_seq >= (st.head_seq if seq is None else seq):
                return st
            if timeout is not None and time.monotonic() - start > timeout:
                raise TimeoutError(f"zaxy: space {space} projected to {st.projected_seq}, waiting for {seq or st.head_seq}")
            self._sleep(poll)
