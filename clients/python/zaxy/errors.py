"""The typed error every failed call raises."""

from __future__ import annotations

from typing import Any, Mapping, Optional


class ZaxyError(Exception):
    """An answer other than 2xx, or a server that could not be reached.

    ``status`` is the HTTP status (0 when no answer came), ``code`` the server's snake_case
    error code (``invalid_request``, ``space_not_found``, ``too_many_requests``, ...; see
    docs/api.md), ``http_<status>`` for an answer without the error body, or ``unreachable``
    when the server could not be reached. ``details`` holds what the code adds, e.g.
    ``details["field"]`` for ``invalid_request``.
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: Optional[Mapping[str, Any]] = None,
        request_id: str = "",
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(f"zaxy: {status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details: dict[str, Any] = dict(details or {})
        self.request_id = request_id
        self.retry_after = retry_after

    @property
    def field(self) -> Optional[str]:
        """The field an ``invalid_request`` names (``details["field"]``), if any."""
        f = self.details.get("field")
        return f if isinstance(f, str) else None
