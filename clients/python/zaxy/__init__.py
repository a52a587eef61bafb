"""Zaxy's Python client: the standard library only.

    from zaxy import Client, NewEvent
    c = Client.from_env()  # ZAXY_URL, ZAXY_TOKEN
    c.append("demo", [NewEvent(type="message", actor="user", content="hi")])
    packet = c.checkout("demo", "what did the user say?")

See docs/clients.md.
"""

from .client import NO_RETRY, Client, RetryPolicy
from .consistency import HEADER as CONSISTENCY_HEADER
from .errors import ZaxyError
from .types import (
    AppendResult,
    CheckoutRequest,
    Citation,
    EntityRef,
    Event,
    Evidence,
    Fact,
    FactsResult,
    Item,
    NewEvent,
    Packet,
    ProjectionStatus,
    Receipt,
    ReplayPage,
    Tier,
    VerifyResult,
)

__all__ = [
    "CONSISTENCY_HEADER", "NO_RETRY", "AppendResult", "CheckoutRequest", "Citation", "Client", "EntityRef", "Event",
    "Evidence", "Fact", "FactsResult", "Item", "NewEvent", "Packet", "ProjectionStatus", "Receipt", "ReplayPage",
    "RetryPolicy", "Tier", "VerifyResult", "ZaxyError",
]
__version__ = "0.1.0"
