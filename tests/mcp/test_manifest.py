"""server.json (the MCP registry manifest) agrees with the distribution it points at."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import Any

import gateway
from mcp_server.server import build_server

ROOT = Path(__file__).resolve().parents[2]
PUBLISHER = "io.modelcontextprotocol.registry/publisher-provided"
"""The registry's `_meta` key for the publisher's own data: where the planned package waits."""


def planned_package(manifest: dict[str, Any]) -> dict[str, Any]:
    """The PyPI package entry the manifest will list once the distribution is published."""
    package = manifest["_meta"][PUBLISHER]["package"]
    assert isinstance(package, dict)
    return package


def test_versions_agree_across_pyproject_server_json_and_the_package(tmp_path: Path) -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    manifest = json.loads((ROOT / "server.json").read_text())
    expected = pyproject["version"]
    assert manifest["version"] == expected
    assert planned_package(manifest)["version"] == expected
    assert gateway.__version__ == expected
    assert version("agentmail-gateway") == expected, "the installed metadata (re-run pip install -e .)"
    assert build_server("http://127.0.0.1:1", None, tmp_path / "t.json").version == expected


def test_the_manifest_names_this_distribution_and_its_settings() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    manifest = json.loads((ROOT / "server.json").read_text())
    assert manifest["name"].startswith("io.github.") and len(manifest["description"]) <= 100
    package = planned_package(manifest)
    assert package["registryType"] == "pypi" and package["identifier"] == pyproject["name"]
    assert package["transport"] == {"type": "stdio"}
    assert {v["name"] for v in package["environmentVariables"]} == {"AGENTMAIL_URL", "AGENTMAIL_TOKEN"}
    token = next(v for v in package["environmentVariables"] if v["name"] == "AGENTMAIL_TOKEN")
    assert token["isSecret"] is True
    # The registry runs `uvx agentmail-gateway mcp`: that command must exist and be the MCP server.
    assert pyproject["scripts"]["agentmail-mcp"] == "mcp_server.__main__:main"
    assert [a["value"] for a in package["packageArguments"]] == ["mcp"]
    helped = subprocess.run(
        [sys.executable, "-m", "gateway", "--help"], capture_output=True, text=True, check=True, timeout=30
    )
    assert "mcp" in helped.stdout and "MCP stdio server" in helped.stdout
    # The PyPI ownership marker the registry checks for sits in the README.
    assert f"mcp-name: {manifest['name']}" in (ROOT / "README.md").read_text()


def test_the_manifest_claims_no_package_that_is_not_published() -> None:
    """Until the distribution is on PyPI, server.json lists no package, and the README says how to install."""
    manifest = json.loads((ROOT / "server.json").read_text())
    readme = (ROOT / "README.md").read_text()
    unpublished = manifest["_meta"][PUBLISHER]["status"] == "unpublished"
    assert unpublished == ("**not on PyPI yet**" in readme), "server.json and the README disagree"
    if unpublished:
        assert "packages" not in manifest and "remotes" not in manifest
        for way in ("pip install /path/to/agentmail-gateway", "make dist", "git+https://"):
            assert way in readme, f"the README does not say how to install from {way}"
