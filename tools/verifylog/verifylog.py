#!/usr/bin/env python3
"""Verify an exported Zaxy Eventloom log without Zaxy.

Reads the JSON lines that `zaxy replay --space S` prints (one event per line) from a file or
stdin, recomputes every event's hash from the canonical bytes specified in docs/eventloom.md
(version 1, content and data inline, and version 2, their salted digest), checks every
prev_hash link, that seq is gapless from 1, and that every erased event holds only the
tombstone and is named by a later erasure.recorded event, and prints either

    OK: space S, N events, head seq X hash H            (exit status 0)
    BROKEN at seq N: reason                             (exit status 1)

Usage errors exit with status 2. Python 3 standard library only, on purpose: it shares no code
with Zaxy, so it is an independent check of the documented format.

    python3 verifylog.py [--partial] [--head-hash HEX] [FILE]

--partial accepts a log that starts after seq 1 (e.g. `zaxy replay --after-seq N`) and trusts
the first event's prev_hash. --head-hash also checks that the last event's hash is HEX (the chain
head you know from elsewhere, e.g. `zaxy verify --json`), which catches a cut-off end.

Lines may also be HTTP replay pages ({"events": [...], ...}); they are read event by event.

A space export (`zaxy space export`, docs/scaling.md) is read too: its header names the chain
head the events must end at, a file without its trailer is truncated, and its space_secret and
idempotency_key lines are skipped (the chain does not cover them).
"""

import argparse
import datetime
import hashlib
import json
import re
import sys

ZERO_HASH = bytes(32)

_TS = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$"
)


class Broken(Exception):
    """The log is broken at seq (reason says how)."""

    def __init__(self, seq, reason):
        super().__init__(reason)
        self.seq = seq
        self.reason = reason


class RawNumber(str):
    """A JSON number kept exactly as written (jsonb prints numbers with their scale)."""


class _Object:
    """A JSON object as its (key, value) pairs, in order, duplicates kept."""

    def __init__(self, pairs):
        self.pairs = pairs


def _reject_constant(name):
    raise ValueError("not JSON: " + name)


def _jsonb_string(s):
    """A string as Postgres' jsonb text output escapes it (escape_json)."""
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _jsonb_key(key):
    b = key.encode("utf-8")
    return (len(b), b)


def jsonb_text(v):
    """The jsonb text form of a parsed value (see docs/eventloom.md, "data and cues")."""
    if isinstance(v, list):
        return "[" + ", ".join(jsonb_text(x) for x in v) + "]"
    if isinstance(v, _Object):
        return _jsonb_object(v.pairs)
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, RawNumber):
        return str(v)
    if isinstance(v, str):
        return _jsonb_string(v)
    raise ValueError("unexpected JSON value %r" % (v,))


def _jsonb_object(pairs):
    last = {}
    for k, val in pairs:  # duplicate keys: the last one wins, as in jsonb
        last[k] = val
    keys = sorted(last, key=_jsonb_key)
    return "{" + ", ".join(_jsonb_string(k) + ": " + jsonb_text(last[k]) for k in keys) + "}"


def _load_value(text):
    """Parses JSON keeping objects' pairs and numbers' literal text."""
    return json.loads(
        text,
        object_pairs_hook=_Object,
        parse_int=RawNumber,
        parse_float=RawNumber,
        parse_constant=_reject_constant,
    )


def canonical_time(value, field):
    m = _TS.match(value if isinstance(value, str) else "")
    if not m:
        raise ValueError("%s is not an RFC 3339 timestamp: %r" % (field, value))
    year, month, day, hh, mm, ss, frac, zone = m.groups()
    frac = (frac or "").ljust(9, "0")
    if frac[6:] != "000":
        raise ValueError("%s has more than microsecond precision: %r" % (field, value))
    if zone == "Z":
        return "%s-%s-%sT%s:%s:%s.%sZ" % (year, month, day, hh, mm, ss, frac[:6])
    t = datetime.datetime(
        int(year), int(month), int(day), int(hh), int(mm), int(ss), int(frac[:6]),
        tzinfo=datetime.timezone(
            (1 if zone[0] == "+" else -1)
            * datetime.timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
        ),
    ).astimezone(datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _field(text):
    b = text.encode("utf-8")
    return str(len(b)).encode("ascii") + b":" + b + b"\n"


def body_digest(salt, content, data):
    """SHA-256(salt || field(content) || field(data)) (docs/eventloom.md, version 2)."""
    return hashlib.sha256(salt + _field(content) + _field(data)).digest()


def canonical_bytes_v2(ev, digest):
    """The bytes a version 2 event's hash covers after prev_hash."""
    fields = [
        ev["space_id"],
        str(ev["seq"]),
        ev["type"],
        ev["session_id"],
        ev["actor"],
        ev["occurred_at"],
        ev["recorded_at"],
        digest.hex(),
        ev["cues"],
    ]
    return b"zaxy-event-v2\n" + b"".join(_field(f) for f in fields)


def canonical_bytes(ev):
    """The bytes an event's hash covers after prev_hash (docs/eventloom.md, version 1)."""
    fields = [
        ev["space_id"],
        str(ev["seq"]),
        ev["type"],
        ev["session_id"],
        ev["actor"],
        ev["occurred_at"],
        ev["recorded_at"],
        ev["content"],
        ev["data"],
        ev["cues"],
    ]
    return b"zaxy-event-v1\n" + b"".join(_field(f) for f in fields)


def _hex32(value, field):
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-fA-F]{64}", value):
        raise ValueError("%s must be 64 hex characters" % field)
    return bytes.fromhex(value)


def _text(obj, key, required):
    if key not in obj:
        if required:
            raise ValueError("missing field %s" % key)
        return ""
    v = obj[key]
    if not isinstance(v, str):
        raise ValueError("%s must be a string" % key)
    return v


def parse_event(obj):
    """One exported event as the canonical field texts plus its seq and hashes."""
    if not isinstance(obj, _Object):
        raise ValueError("a line must be a JSON object")
    fields = {}
    for k, v in obj.pairs:
        fields[k] = v
    seq = fields.get("seq")
    if not isinstance(seq, RawNumber) or not re.fullmatch(r"[1-9][0-9]*", seq):
        raise ValueError("seq must be a positive integer")
    ev = {"seq": int(seq)}
    ev["space_id"] = _text(fields, "space_id", True)
    ev["type"] = _text(fields, "type", True)
    for k in ("session_id", "actor", "content"):  # omitted when empty
        ev[k] = _text(fields, k, False)
    ev["occurred_at"] = canonical_time(fields.get("occurred_at"), "occurred_at")
    ev["recorded_at"] = canonical_time(fields.get("recorded_at"), "recorded_at")
    for k in ("data", "cues"):
        v = fields.get(k)
        if isinstance(v, str) and not isinstance(v, RawNumber):
            v = _load_value(v)  # exported as the jsonb text itself
        if not isinstance(v, _Object):
            raise ValueError("%s must be a JSON object" % k)
        ev[k] = jsonb_text(v)
    ev["prev_hash"] = _hex32(fields.get("prev_hash"), "prev_hash")
    ev["hash"] = _hex32(fields.get("hash"), "hash")
    version = fields.get("hash_version", RawNumber("1"))  # absent means version 1
    if not isinstance(version, RawNumber) or version not in ("1", "2"):
        raise ValueError("hash_version must be 1 or 2")
    ev["hash_version"] = int(version)
    erased_by = fields.get("erased_by_seq")
    if erased_by is not None and (not isinstance(erased_by, RawNumber) or not re.fullmatch(r"[1-9][0-9]*", erased_by)):
        raise ValueError("erased_by_seq must be a positive integer")
    ev["erased_by_seq"] = int(erased_by) if erased_by is not None else None
    ev["salt"] = None
    if "salt" in fields:
        salt = fields["salt"]
        if not isinstance(salt, str) or not re.fullmatch(r"([0-9a-fA-F]{2})+", salt):
            raise ValueError("salt must be hex")
        ev["salt"] = bytes.fromhex(salt)
    ev["body_sha256"] = _hex32(fields["body_sha256"], "body_sha256") if "body_sha256" in fields else None
    if ev["hash_version"] == 1 and (ev["salt"] is not None or ev["erased_by_seq"] is not None or ev["body_sha256"] is not None):
        raise ValueError("a version 1 event has no salt, body_sha256 or erased_by_seq")
    # What an erasure record names: data->>'seq' (a number's literal or a string).
    ev["erases"] = None
    if ev["type"] == "erasure.recorded":
        for k, v in fields["data"].pairs if isinstance(fields.get("data"), _Object) else []:
            if k == "seq" and isinstance(v, str):
                ev["erases"] = str(v)
    return ev


def expected_hash(ev):
    """Raises Broken for a version 2 event whose body does not fit; returns the hash it must have."""
    if ev["hash_version"] == 1:
        return hashlib.sha256(ev["prev_hash"] + canonical_bytes(ev)).digest()
    if ev["erased_by_seq"] is None:
        if ev["salt"] is None:
            raise Broken(ev["seq"], "content or data does not match the event's body digest")
        digest = body_digest(ev["salt"], ev["content"], ev["data"])
        if ev["body_sha256"] is not None and ev["body_sha256"] != digest:
            raise Broken(ev["seq"], "content or data does not match the event's body digest")
    else:
        if ev["content"] != "" or ev["data"] != "{}" or ev["salt"] is not None:
            raise Broken(ev["seq"], "an erased event holds more than the tombstone")
        if ev["body_sha256"] is None:
            raise ValueError("an erased event must carry body_sha256")
        digest = ev["body_sha256"]
    return hashlib.sha256(ev["prev_hash"] + canonical_bytes_v2(ev, digest)).digest()


# The lines of a space export that are not events.
EXPORT_FRAMES = ("header", "space_secret", "idempotency_key", "trailer")


def events_from(lines):
    """Yields (line number, parsed event or the error while parsing it)."""
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = _load_value(line)
        except ValueError as e:
            yield n, ValueError("line %d is not JSON: %s" % (n, e))
            continue
        page = None
        if isinstance(obj, _Object):
            keys = dict(obj.pairs)
            if "events" in keys and "seq" not in keys:
                page = keys["events"]
            kind = keys.get("kind")
            if kind in EXPORT_FRAMES:
                yield n, (kind, keys)
                continue
            if kind == "event":
                obj = _Object([(k, v) for k, v in obj.pairs if k != "kind"])
        if page is not None:
            if not isinstance(page, list):
                yield n, ValueError("line %d: events must be a list" % n)
                continue
            items = page
        else:
            items = [obj]
        for item in items:
            try:
                yield n, parse_event(item)
            except (ValueError, KeyError) as e:
                yield n, ValueError("line %d: %s" % (n, e))


def verify(lines, partial=False, head_hash=None):
    """Returns (space, count, head seq, head hash); raises Broken at the first problem."""
    space = None
    count = 0
    expected = 1
    prev = ZERO_HASH
    last_seq, last_hash = 0, None
    pending = {}  # erasure record seq -> erased seqs naming it

    def unbound(seq):
        return Broken(seq, "the event is erased but no later erasure.recorded event names it")

    export_head = None  # (seq, hash) from a space export's header
    trailer = False
    for n, ev in events_from(lines):
        if isinstance(ev, Exception):
            raise Broken(expected, str(ev))
        if isinstance(ev, tuple):
            kind, keys = ev
            if trailer:
                raise Broken(expected, "line %d follows the export's trailer" % n)
            if kind == "header":
                try:
                    export_head = (int(str(keys["head_seq"])), _hex32(keys["head_hash"], "head_hash"))
                except (KeyError, ValueError) as e:
                    raise Broken(expected, "line %d: the export's header has no chain head: %s" % (n, e))
            elif kind == "trailer":
                if export_head is None:
                    raise Broken(expected, "line %d: a trailer without a header" % n)
                trailer = True
            continue
        if trailer:
            raise Broken(expected, "line %d follows the export's trailer" % n)
        if count == 0:
            space = ev["space_id"]
            if partial:
                expected, prev = ev["seq"], ev["prev_hash"]
        elif ev["space_id"] != space:
            raise Broken(ev["seq"], "line %d belongs to space %s, not %s" % (n, ev["space_id"], space))
        if ev["seq"] > expected:
            raise Broken(
                expected,
                "seq %d is missing (the log jumps from seq %d to seq %d)" % (expected, expected - 1, ev["seq"]),
            )
        if ev["seq"] < expected:
            raise Broken(ev["seq"], "seq %d is out of order" % ev["seq"])
        for x in pending.pop(ev["seq"], []):
            if ev["type"] != "erasure.recorded" or ev["erases"] != str(x):
                raise unbound(x)
        if ev["prev_hash"] != prev:
            raise Broken(ev["seq"], "prev_hash does not match the hash of the previous event")
        if expected_hash(ev) != ev["hash"]:
            raise Broken(ev["seq"], "hash does not match the recomputed hash of the event")
        if ev["erased_by_seq"] is not None:
            if ev["erased_by_seq"] <= ev["seq"]:
                raise unbound(ev["seq"])
            pending.setdefault(ev["erased_by_seq"], []).append(ev["seq"])
        count += 1
        expected = ev["seq"] + 1
        prev = ev["hash"]
        last_seq, last_hash = ev["seq"], ev["hash"]
    if count == 0:
        raise Broken(expected, "the log has no events")
    if export_head is not None and not trailer:
        raise Broken(last_seq + 1, "the export is truncated: it ends after seq %d without its trailer" % last_seq)
    if export_head is not None and (last_seq, last_hash) != export_head:
        raise Broken(last_seq + 1 if last_seq < export_head[0] else last_seq,
                     "the export ends at seq %d but its header's chain head is seq %d" % (last_seq, export_head[0]))
    if pending:  # erasure records past the end of the export
        raise unbound(min(x for xs in pending.values() for x in xs))
    if head_hash is not None and last_hash != head_hash:
        raise Broken(last_seq + 1, "the log ends at seq %d but the chain head is another event" % last_seq)
    return space, count, last_seq, last_hash


def main(argv=None):
    ap = argparse.ArgumentParser(description="Verify an exported Zaxy Eventloom log (zaxy replay JSON lines).")
    ap.add_argument("file", nargs="?", default="-", help="JSON lines file (default: stdin)")
    ap.add_argument("--partial", action="store_true", help="the log may start after seq 1; trust its first prev_hash")
    ap.add_argument("--head-hash", help="the known chain head hash (64 hex characters) the log must end at")
    args = ap.parse_args(argv)
    head = None
    if args.head_hash is not None:
        try:
            head = _hex32(args.head_hash, "--head-hash")
        except ValueError as e:
            print("verifylog: %s" % e, file=sys.stderr)
            return 2
    try:
        if args.file == "-":
            stream = open(sys.stdin.fileno(), encoding="utf-8", closefd=False)
        else:
            stream = open(args.file, encoding="utf-8")
    except OSError as e:
        print("verifylog: %s" % e, file=sys.stderr)
        return 2
    with stream:
        try:
            space, count, seq, h = verify(stream, partial=args.partial, head_hash=head)
        except Broken as b:
            print("BROKEN at seq %d: %s" % (b.seq, b.reason))
            return 1
        except UnicodeDecodeError as e:
            print("BROKEN: the input is not UTF-8: %s" % e)
            return 1
    print("OK: space %s, %d events, head seq %d hash %s" % (space, count, seq, h.hex()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
