"""The error tree: no HTTP in the domain, one status table for HTTP, one title table for /ui."""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
from typing import Any, cast

import pytest
from litestar import Request

import gateway
from gateway import errors
from gateway.api.exceptions import EXCEPTION_HANDLERS, HTTP_STATUSES, http_status
from gateway.errors import (
    ClientGone,
    GatewayError,
    IndexRebuilding,
    InvalidInput,
    InvalidMail,
    InvalidName,
    NotFound,
    RecipientRefused,
    SourceUnavailable,
    StoreError,
    StoreUnavailable,
    TooManyWaiters,
)
from gateway.ui.errors import _TITLES


def every_error_class() -> list[type[GatewayError]]:
    """GatewayError and its subclasses defined anywhere in the gateway package (not in tests)."""
    for module in pkgutil.walk_packages(gateway.__path__, "gateway."):
        if not module.name.endswith(".__main__"):  # that one runs the CLI
            importlib.import_module(module.name)
    found: list[type[GatewayError]] = []
    pending: list[type[GatewayError]] = [GatewayError]
    while pending:
        cls = pending.pop()
        if cls.__module__.startswith("gateway."):
            found.append(cls)
        pending.extend(cls.__subclasses__())
    return found


def test_the_module_exports_exactly_the_tree() -> None:
    exported = {getattr(errors, name) for name in errors.__all__}
    assert exported == set(every_error_class())


@pytest.mark.parametrize("cls", every_error_class(), ids=lambda cls: cls.__name__)
def test_every_error_class_has_its_own_http_status_and_page_title(cls: type[GatewayError]) -> None:
    # Inheriting would be silent: a new class must decide its status and its title.
    assert cls in HTTP_STATUSES, f"{cls.__name__} has no entry in api/exceptions.py HTTP_STATUSES"
    assert cls in _TITLES, f"{cls.__name__} has no entry in ui/errors.py _TITLES"


@pytest.mark.parametrize("cls", every_error_class(), ids=lambda cls: cls.__name__)
def test_errors_carry_no_http(cls: type[GatewayError]) -> None:
    assert not hasattr(cls, "status")
    assert not hasattr(cls("x"), "status")
    assert re.fullmatch(r"[a-z_]+", cls.code)


@pytest.mark.parametrize(
    ("exc", "status"),
    [
        (InvalidInput("x"), 400),
        (InvalidName("x"), 422),
        (InvalidMail("x"), 422),
        (RecipientRefused("x", (("a@b.test", "out of scope"),)), 422),
        (NotFound("x"), 404),
        (TooManyWaiters("x"), 429),
        (ClientGone("x"), 499),
        (SourceUnavailable("x"), 503),
        (StoreUnavailable("x"), 503),
        (StoreError("x"), 503),
        (GatewayError("x"), 500),
    ],
)
def test_statuses(exc: GatewayError, status: int) -> None:
    assert http_status(exc) == status


def test_a_subclass_without_an_entry_takes_its_nearest_ancestors_status() -> None:
    class Reserved(InvalidName):
        pass

    class Odd(GatewayError):
        pass

    assert http_status(Reserved("x")) == 422
    assert http_status(Odd("x")) == 500


def test_retry_after_is_set_only_on_errors_that_pass_by_themselves() -> None:
    waits = {cls: cls.retry_after for cls in every_error_class() if cls.retry_after is not None}
    assert waits == {TooManyWaiters: 1, SourceUnavailable: 5, StoreUnavailable: 5, IndexRebuilding: 5}


def test_store_unavailable_is_a_503_with_retry_after() -> None:
    handler = cast(Any, EXCEPTION_HANDLERS[GatewayError])
    response = handler(cast(Request[Any, Any, Any], None), StoreUnavailable("the database cannot be reached"))
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert json.loads(response.render(response.content, "application/json")) == {
        "error": "store_unavailable",
        "detail": "the database cannot be reached",
        "retry_after_sec": 5,
    }


def test_the_docstring_table_is_the_mapping() -> None:
    assert errors.__doc__ is not None
    rows = re.findall(r"^\s{4}[│├└─ ]*(\w+)\s+(\w+)\s+(\d{3})\s", errors.__doc__, re.MULTILINE)
    drawn = {name: (code, int(status)) for name, code, status in rows}
    actual = {cls.__name__: (cls.code, HTTP_STATUSES[cls]) for cls in every_error_class()}
    assert drawn == actual
