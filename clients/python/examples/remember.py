from zaxy import Client, NewEvent, ZaxyError


def remember(space: str = "acme-web") -> str:
    """Remembers a decision and checks memory out before the next task, against the server at
    ZAXY_URL with the token in ZAXY_TOKEN; returns what it printed."""
    zaxy = Client.from_env()
    # An idempotency key makes the append safe to retry: the client retries it on 429, 503
    # and dropped connections, and the server appends it once.
    res = zaxy.append(space, NewEvent(
        type="message",
        actor="user",
        session_id="run-42",
        content="We deploy through the blue cluster from now on.",
    ), idempotency_key="run-42/turn-1")
    lines = [f"appended seq {res.events[0].seq}"]

    # Checkout ranks what the projector has applied; wait for it here, as a demo does.
    zaxy.wait_projected(space, res.events[0].seq)
    packet = zaxy.checkout(space, "how do we deploy?", session_id="run-42", max_tokens=800)
    lines += [f"{packet.budget['used']} of {packet.budget['requested']} tokens used", packet.text]

    try:
        zaxy.checkout(space, "how do we deploy?", cues={"Repo": "web"})
    except ZaxyError as e:
        lines.append(f"refused: {e.status} {e.code} at {e.field}")  # 400 invalid_request at cues
    return "\n".join(lines)


if __name__ == "__main__":
    print(remember())
