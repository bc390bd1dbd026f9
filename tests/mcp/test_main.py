"""`agentmail-mcp` and `agentmail-gateway mcp` answer --help and --version without starting the server."""

from __future__ import annotations

import pytest

from gateway import __version__
from gateway.cli import main as gateway_main
from mcp_server.__main__ import main


def test_help_describes_the_environment_and_exits(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: agentmail-mcp")
    assert "AGENTMAIL_URL" in out and "AGENTMAIL_TOKEN" in out and "stdio" in out


def test_version_and_unknown_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0 and capsys.readouterr().out.strip() == f"agentmail-mcp {__version__}"
    with pytest.raises(SystemExit) as exited:
        main(["--token", "am_x"])  # tokens never come from argv
    assert exited.value.code == 2 and "unrecognized arguments" in capsys.readouterr().err


def test_the_gateway_command_shows_the_same_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        gateway_main(["mcp", "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: agentmail-gateway mcp") and "AGENTMAIL_TOKEN" in out
