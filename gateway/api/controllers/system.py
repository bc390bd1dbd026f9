"""Liveness for probes and load balancers."""

from __future__ import annotations

import msgspec
from litestar import get
from litestar.di import NamedDependency

__all__ = ["health"]


class HealthOut(msgspec.Struct):
    status: str
    source: str


@get("/health", operation_id="health", tags=["system"], sync_to_thread=False)
def health(source_kind: NamedDependency[str]) -> HealthOut:
    """`ok` while the gateway serves requests."""
    return HealthOut("ok", source_kind)
