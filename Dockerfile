# syntax=docker/dockerfile:1
# Zaxy's service image: `docker build -t zaxy .` (compose.yaml builds it too; docs/operations.md,
# "Docker and compose"). The binary is built with plain `go build` from a clone with its .git, so
# it carries the module version and VCS revision (`zaxy version`); a context without .git builds
# without them.
#
# The image runs `zaxy serve` as an unprivileged user on 0.0.0.0:8080 with ZAXY_AUTH on; give it
# ZAXY_DATABASE_URL (the application role, not a superuser) and run `zaxy migrate` once as the
# schema owner before it (compose.yaml's migrate service). It ships without the pretrained
# weights of `make models`: the embedder is the built-in offline one unless a directory filled by
# `make models` is mounted at /var/cache/zaxy/models.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION}-trixie AS build
# go.mod's go line may name a newer patch release than a cached image holds: fetch it then.
ENV GOTOOLCHAIN=auto
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -o /out/zaxy ./cmd/zaxy

FROM debian:trixie-slim
# curl probes /readyz for HEALTHCHECK; ca-certificates lets zaxy reach TLS endpoints (an
# OpenAI-compatible embedder or LLM, an OTLP collector, a database with sslmode=verify-full).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 zaxy \
 && useradd --system --uid 10001 --gid zaxy --home-dir /nonexistent --shell /usr/sbin/nologin zaxy \
 && mkdir -p /var/cache/zaxy/models
COPY --from=build /out/zaxy /usr/local/bin/zaxy
ENV ZAXY_ADDR=0.0.0.0:8080 \
    ZAXY_MODEL_DIR=/var/cache/zaxy/models
USER 10001:10001
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["curl", "-fsS", "-o", "/dev/null", "http://127.0.0.1:8080/readyz"]
ENTRYPOINT ["zaxy"]
CMD ["serve"]
