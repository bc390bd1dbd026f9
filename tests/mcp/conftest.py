"""A real gateway, a provisioner token, and `agentmail-mcp` spawned over stdio by the mcp SDK client.

`mcp_client(env)` starts the installed console script (the one `pip install` put beside this
Python) exactly as an MCP client does: a subprocess speaking JSON-RPC on stdin/stdout, with
only the environment given here. Its config folder (where the token file lives) is the test's
own; its stderr is kept in a file so tests can check what it logged.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult

from mcp_server.tokens import FILE_NAME
from tests.conftest import RunningGateway

SCRIPT = Path(sys.executable).parent / "agentmail-mcp"


@dataclass
class McpEnv:
    """Everything one test's MCP server runs with."""

    gateway: RunningGateway
    provisioner_token: str
    config_home: Path
    errlog: Path
    seen: list[str] = field(default_factory=list)
    """Every model-visible text (content and structured content) any tool call returned."""

    @property
    def token_file(self) -> Path:
        return self.config_home / "agentmail-gateway" / FILE_NAME

    def params(self, command: Sequence[str] = (str(SCRIPT),), **env: str) -> StdioServerParameters:
        base = {
            "AGENTMAIL_URL": str(self.gateway.http.base_url),
            "AGENTMAIL_TOKEN": self.provisioner_token,
            "XDG_CONFIG_HOME": str(self.config_home),
        }
        if os.environ.get("PYTHONPATH"):  # a checkout run with PYTHONPATH (a worktree) serves its own code
            base["PYTHONPATH"] = os.environ["PYTHONPATH"]
        return StdioServerParameters(command=command[0], args=list(command[1:]), env={**base, **env})

    def stored_tokens(self) -> dict[str, str]:
        """address → token as the server stored them for this gateway."""
        if not self.token_file.exists():
            return {}
        gateways: dict[str, dict[str, str]] = json.loads(self.token_file.read_text())["gateways"]
        return {address: token for tokens in gateways.values() for address, token in tokens.items()}

    async def call(self, client: Client, tool: str, **arguments: Any) -> CallToolResult:
        """Call `tool` and remember everything the model would see of the answer."""
        result = await client.call_tool(tool, arguments)
        self.remember(result)
        return result

    def remember(self, result: CallToolResult) -> None:
        self.seen.extend(block.text for block in result.content if block.type == "text")
        if result.structured_content is not None:
            self.seen.append(json.dumps(result.structured_content))


@pytest.fixture
async def mcp_env(gateway: RunningGateway, tmp_path: Path) -> McpEnv:
    """A gateway with a provisioner token made by its admin, and a private config folder."""
    response = await gateway.http.post("/v1/tokens", json={"scope": "provision", "label": "mcp test"})
    assert response.status_code == 201, response.text
    return McpEnv(gateway, response.json()["token"], tmp_path / "config", tmp_path / "mcp-stderr.log")


@contextlib.asynccontextmanager
async def mcp_client(env: McpEnv, params: StdioServerParameters | None = None) -> AsyncIterator[Client]:
    """The SDK's client connected to a freshly spawned `agentmail-mcp`."""
    with env.errlog.open("a") as errlog:
        # stdio_client is what Client(StdioServerParameters) uses; called here to keep stderr.
        async with Client(stdio_client(params or env.params(), errlog=errlog)) as client:
            yield client
