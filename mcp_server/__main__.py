"""`agentmail-mcp`: the MCP server over stdio, configured from the environment.

AGENTMAIL_URL (default http://127.0.0.1:8025) and AGENTMAIL_TOKEN (a provisioner token).
Identity tokens go to a 0600 file under the user config folder (platformdirs). stdout is the
protocol: logs go to stderr only, and never carry a token.
"""

from __future__ import annotations

import logging
import sys

from platformdirs import user_config_path

from gateway.client.handle import resolve_token, resolve_url
from mcp_server.server import build_server
from mcp_server.tokens import FILE_NAME

__all__ = ["main"]


def main() -> None:
    """Run the server on stdin/stdout until the client closes it."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="agentmail-mcp %(levelname)s %(message)s")
    url = resolve_url(None)  # AGENTMAIL_URL, else the client's default, as for every client
    token = resolve_token(None)
    if token is None:
        logging.warning("AGENTMAIL_TOKEN is not set: agentmail-mcp can neither create identities nor read any")
    token_file = user_config_path("agentmail-gateway") / FILE_NAME
    build_server(url, token, token_file).run("stdio")


if __name__ == "__main__":
    main()
