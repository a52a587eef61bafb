"""Typed bodies of the main operations (docs/api.md).

Answers are decoded leniently: fields a newer server adds are ignored (each result keeps the
whole answer in ``raw``), and absent optional fields take their defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

JSON = dict[str, Any]


def _opt_int(v: Any) -> Optional[int]:
    return None if v is None else int(v)


@dataclass
class NewEvent:
    """An event to append. The database assigns its seq, recorded_at and hashes."""

    type: str
    content: str = ""
    session_id: str = ""
    actor: str = ""
    occurred_at: Optional[str] = None
    """RFC 3339; the server's clock when absent."""
    data: Optional[Mapping[str, Any]] = None
    cues: Optional[Mapping[str, str]] = None

    def to_json(self) -> JSON:
        out: JSON = {"type": self.type}
        for k in ("content", "session_id", "actor", "occurred_at"):
            v = getattr(self, k)
            if v:
                out[k] = v
        if self.data is not None:
            out["data"] = dict(self.data)
        if self.cues is not None:
            out["cues"] = dict(self.cues)
        return out


@dataclass
class Receipt:
    """What the log assigned one appended event."""

    seq: int
    hash: str
    prev_hash: str
    recorded_at: str
    occurred_at: str

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Receipt":
        return cls(int(d["seq"]), d["hash"], d.get("prev_hash", ""), d.get("recorded_at", ""), d.get("occurred_at", ""))


@dataclass
class AppendResult:
    """The answer of an append: one receipt per event, in the order given."""

    space_id: str
    events: list[Receipt]
    replayed: bool = False
    """True when an Idempotency-Key repeat answered the original receipts."""
    redactions: int = 0
    consistency: str = ""
    raw: JSON = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "AppendResult":
        return cls(d.get("space_id", ""), [Receipt.from_json(r) for r in d.get("events") or []],
                   bool(d.get("replayed")), int(d.get("redactions") or 0), d.get("consistency", ""), dict(d))


@dataclass
class Event:
    """An event of the log, as replay shows it."""

    space_id: str
    seq: int
    type: str
    occurred_at: str
    recorded_at: str
    hash: str
    prev_hash: str
    content: str = ""
    session_id: str = ""
    actor: str = ""
    data: JSON = field(default_factory=dict)
    cues: JSON = field(default_factory=dict)
    erased_by_seq: Optional[int] = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Event":
        return cls(d.get("space_id", ""), int(d["seq"]), d["type"], d.get("occurred_at", ""), d.get("recorded_at", ""),
                   d.get("hash", ""), d.get("prev_hash", ""), d.get("content", ""), d.get("session_id", ""),
                   d.get("actor", ""), d.get("data") or {}, d.get("cues") or {}, _opt_int(d.get("erased_by_seq")))


@dataclass
class ReplayPage:
    """One page of replay; continue with after_seq=next_after_seq while it is set."""

    events: list[Event]
    next_after_seq: Optional[int] = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "ReplayPage":
        return cls([Event.from_json(e) for e in d.get("events") or []], _opt_int(d.get("next_after_seq")) or None)


@dataclass
class VerifyResult:
    """The hash chain recomputed: ok, or the first broken seq and why."""

    space_id: str
    ok: bool
    events: int
    head_seq: int
    head_hash: str
    method: str
    broken_seq: Optional[int] = None
    reason: str = ""

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "VerifyResult":
        return cls(d.get("space_id", ""), bool(d["ok"]), int(d.get("events") or 0), int(d.get("head_seq") or 0),
                   d.get("head_hash", ""), d.get("method", ""), _opt_int(d.get("broken_seq")), d.get("reason", ""))


@dataclass
class Citation:
    """The event a claim comes from; start and end, when set, are the character range of
    the event's content an excerpt took."""

    seq: int
    hash: str
    start: Optional[int] = None
    end: Optional[int] = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Citation":
        return cls(int(d["seq"]), d["hash"], _opt_int(d.get("start")), _opt_int(d.get("end")))


@dataclass
class Item:
    """A ranked memory item of a packet, with its citations and trust labels."""

    item_id: str
    kind: str
    text: str
    tokens: int
    score: float
    citations: list[Citation]
    labels: JSON = field(default_factory=dict)
    session_id: str = ""
    occurred_at: Optional[str] = None
    ref: Optional[int] = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Item":
        return cls(d["item_id"], d.get("kind", ""), d.get("text", ""), int(d.get("tokens") or 0), float(d.get("score") or 0),
                   [Citation.from_json(c) for c in d.get("citations") or []], d.get("labels") or {},
                   d.get("session_id", ""), d.get("occurred_at"), _opt_int(d.get("ref")))


@dataclass
class Tier:
    """A named group of a packet's items (stable, then task-specific)."""

    name: str
    items: list[Item]

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Tier":
        return cls(d.get("name", ""), [Item.from_json(i) for i in d.get("items") or []])


@dataclass
class CheckoutRequest:
    """The body of a checkout (docs/checkout.md); None fields are left out."""

    query: str
    purpose: Optional[str] = None
    max_tokens: Optional[int] = None
    as_of: Optional[str] = None
    session_id: Optional[str] = None
    disable_lanes: Optional[list[str]] = None
    no_record: Optional[bool] = None
    retrieval_profile: Optional[str] = None
    include_attenuated: Optional[bool] = None
    cues: Optional[Mapping[str, str]] = None
    who_when: Optional[bool] = None

    def to_json(self) -> JSON:
        return {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in self.__dict__.items() if v is not None}


@dataclass
class Packet:
    """A checkout's cited, token-budgeted packet; ``text`` is what to put in a prompt."""

    space_id: str
    query: str
    purpose: str
    as_of: str
    tiers: list[Tier]
    text: str
    warnings: list[JSON] = field(default_factory=list)
    budget: JSON = field(default_factory=dict)
    diagnostics: JSON = field(default_factory=dict)
    surfaced_seq: Optional[int] = None
    raw: JSON = field(default_factory=dict, repr=False)

    @property
    def items(self) -> list[Item]:
        """Every item of every tier, in packet order."""
        return [i for t in self.tiers for i in t.items]

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Packet":
        return cls(d.get("space_id", ""), d.get("query", ""), d.get("purpose", ""), d.get("as_of", ""),
                   [Tier.from_json(t) for t in d.get("tiers") or []], d.get("text", ""), list(d.get("warnings") or []),
                   d.get("budget") or {}, d.get("diagnostics") or {}, _opt_int(d.get("surfaced_seq")), dict(d))


@dataclass
class EntityRef:
    id: str
    name: str

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "EntityRef":
        return cls(d.get("id", ""), d.get("name", ""))


@dataclass
class Evidence:
    """An event that asserted a fact."""

    seq: int
    hash: str

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Evidence":
        return cls(int(d["seq"]), d["hash"])


@dataclass
class Fact:
    """A version of a fact of the temporal graph, with its validity window and evidence."""

    id: str
    subject: EntityRef
    predicate: str
    version: int
    valid_from: str
    status: str
    authority: str
    evidence: list[Evidence]
    object: Optional[EntityRef] = None
    value: Any = None
    valid_to: Optional[str] = None
    recorded_seq: int = 0
    review_status: str = ""

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Fact":
        obj = d.get("object")
        return cls(d["id"], EntityRef.from_json(d.get("subject") or {}), d.get("predicate", ""), int(d.get("version") or 0),
                   d.get("valid_from", ""), d.get("status", ""), d.get("authority", ""),
                   [Evidence.from_json(e) for e in d.get("evidence") or []], EntityRef.from_json(obj) if obj else None,
                   d.get("value"), d.get("valid_to"), int(d.get("recorded_seq") or 0), d.get("review_status", ""))


@dataclass
class FactsResult:
    """The facts of a view: current, at a time, or as of a seq."""

    view: str
    facts: list[Fact]
    inferred: list[JSON] = field(default_factory=list)

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "FactsResult":
        return cls(d.get("view", ""), [Fact.from_json(f) for f in d.get("facts") or []], list(d.get("inferred") or []))


@dataclass
class ProjectionStatus:
    """How far the projector has applied a space's log: lag is head_seq - projected_seq."""

    space_id: str
    head_seq: int
    projected_seq: int
    lag: int

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "ProjectionStatus":
        return cls(d.get("space_id", ""), int(d.get("head_seq") or 0), int(d.get("projected_seq") or 0), int(d.get("lag") or 0))
