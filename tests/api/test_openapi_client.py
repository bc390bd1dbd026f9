"""A client generated from `/schema` by openapi-python-client runs the README walk-through.

The generator (installed from PyPI, run as its own process) reads the document a real
`python -m gateway serve` serves; it must parse every operation without a warning. The generated
package is then imported and drives the walk-through: create an identity, send it mail over
SMTP, wait for it, list it, read its source; errors decode as `{error, detail}`. Its clients
raise on any status the document does not list, so the walk-through also checks the document.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import smtplib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.serve import ServeProcess

ADMIN = "openapi-client-admin-token-0123456789abcdef"
DOMAIN = "shop.test"
PACKAGE = "agentmail_generated_api"
GENERATOR_CONFIG = {
    # The generator has no reader of its own for message/rfc822; it is bytes, as a File.
    "content_type_overrides": {"message/rfc822": "application/octet-stream"},
    "post_hooks": [],  # no formatter run over the output: not needed to import it
    "package_name_override": PACKAGE,
}

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServeProcess]:
    with ServeProcess(tmp_path / "data", tmp_path / "logs", domain=DOMAIN, admin_token=ADMIN) as gateway:
        yield gateway


@pytest.fixture
def api(served: ServeProcess, tmp_path: Path) -> Iterator[ModuleType]:
    """The package openapi-python-client generated from the served document, imported."""
    out = tmp_path / "generated"
    out.mkdir()
    config = tmp_path / "generator.json"
    config.write_text(json.dumps(GENERATOR_CONFIG))
    argv = [sys.executable, "-m", "openapi_python_client", "generate", "--url", f"{served.base_url}/schema"]
    argv += ["--meta", "none", "--output-path", str(out / PACKAGE), "--config", str(config)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "warning" not in output.lower(), output  # every operation and response was understood
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def module(api: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{api.__name__}.{name}")


def test_a_generated_client_runs_the_walk_through(api: ModuleType, served: ServeProcess) -> None:
    with contextlib.ExitStack() as clients:
        walk_through(api, served, clients)


def walk_through(api: ModuleType, served: ServeProcess, clients: contextlib.ExitStack) -> None:
    client = module(api, "client")
    models = module(api, "models")
    identities = module(api, "api.identities")
    messages = module(api, "api.messages")
    system = module(api, "api.system")
    create_identity = importlib.import_module(f"{identities.__name__}.create_identity")
    delete_identity = importlib.import_module(f"{identities.__name__}.delete_identity")
    wait_for_message = importlib.import_module(f"{messages.__name__}.wait_for_message")
    list_messages = importlib.import_module(f"{messages.__name__}.list_messages")
    get_raw_message = importlib.import_module(f"{messages.__name__}.get_raw_message")
    health = importlib.import_module(f"{system.__name__}.health")

    def authenticated(token: str) -> Any:
        made = client.AuthenticatedClient(
            base_url=served.base_url, token=token, raise_on_unexpected_status=True, timeout=30
        )
        return clients.enter_context(made)  # its httpx client closed at the end

    anonymous = clients.enter_context(client.Client(base_url=served.base_url, raise_on_unexpected_status=True))
    assert health.sync(client=anonymous).status == "ok"  # open: no token

    admin = authenticated(ADMIN)
    created = create_identity.sync_detailed(client=admin, body=models.CreateIdentityIn(local_part="demo"))
    assert created.status_code == 201, created.content
    identity = created.parsed
    assert isinstance(identity, models.CreatedIdentity) and identity.address == f"demo@{DOMAIN}"

    with smtplib.SMTP("127.0.0.1", served.smtp_port, timeout=10) as smtp:
        smtp.sendmail(
            "shop@example.com",
            [identity.address],
            b"From: shop@example.com\r\nSubject: Your code\r\n\r\nYour verification code is 482913.\r\n",
        )

    mine = authenticated(identity.token)
    arrived = wait_for_message.sync(client=mine, address=identity.address, timeout=20.0)
    assert isinstance(arrived, models.Message), arrived
    assert [c.value for c in arrived.codes] == ["482913"] and arrived.subject == "Your code"

    page = list_messages.sync(client=mine, address=identity.address)
    assert isinstance(page, models.MessagePage), page
    assert [(m.id, m.from_, m.seen) for m in page.messages] == [(arrived.id, "shop@example.com", True)]

    raw = get_raw_message.sync(client=mine, address=identity.address, message_id=arrived.id)
    assert b"Your verification code is 482913." in raw.payload.read()

    # Errors decode into the documented body: the next wait has nothing new (408) ...
    timed_out = wait_for_message.sync_detailed(client=mine, address=identity.address, timeout=0.0)
    assert timed_out.status_code == 408
    assert isinstance(timed_out.parsed, models.ErrorBody) and timed_out.parsed.error == "timeout"
    # ... and a token that is not this identity's is refused (401) before anything is read.
    stranger = list_messages.sync_detailed(client=authenticated("am_not-a-token"), address=identity.address)
    assert stranger.status_code == 401 and isinstance(stranger.parsed, models.ErrorBody)
    assert stranger.parsed.detail

    deleted = delete_identity.sync_detailed(client=admin, address=identity.address)
    assert deleted.status_code == 204
    gone = list_messages.sync_detailed(client=admin, address=identity.address)
    assert gone.status_code == 404 and gone.parsed.error == "not_found"
