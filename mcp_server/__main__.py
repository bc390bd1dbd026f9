"""`agentmail-mcp`: the MCP server over stdio, configured from the environment.

AGENTMAIL_URL (default http://127.0.0.1:8025) and AGENTMAIL_TOKEN (a provisioner token).
Identity tokens go to a 0600 file under the user config folder (platformdirs). stdout is the
protocol: logs go to stderr only, and never carry a token.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from gateway import __version__

__all__ = ["main"]

DESCRIPTION = """\
The agentmail-gateway MCP server, over stdio: an MCP client (Claude, Cursor, ...) starts it
and talks to it on stdin/stdout; it is not meant to be run by hand in a terminal.

environment:
  AGENTMAIL_URL    the gateway (default http://127.0.0.1:8025)
  AGENTMAIL_TOKEN  a provisioner token (`agentmail-gateway token create`); the admin token is refused

Each identity's own token is kept in a 0600 file in the user config folder
(e.g. ~/.config/agentmail-gateway/mcp-tokens.json); no token is ever shown to the model.
"""


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False
    )
    parser.add_argument("--version", action="version", version=f"agentmail-mcp {__version__}")
    return parser


def main(argv: Sequence[str] | None = None, *, prog: str = "agentmail-mcp") -> None:
    """Run the server on stdin/stdout until the client closes it (`--help`, `--version` print and exit)."""
    _parser(prog).parse_args(argv)  # settings come from the environment only: tokens never from argv
    # Imported after the arguments: `--help` answers without loading the MCP SDK.
    from platformdirs import user_config_path

    from gateway.client.handle import resolve_token, resolve_url
    from mcp_server.server import build_server
    from mcp_server.tokens import FILE_NAME

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="agentmail-mcp %(levelname)s %(message)s")
    url = resolve_url(None)  # AGENTMAIL_URL, else the client's default, as for every client
    token = resolve_token(None)
    if token is None:
        logging.warning("AGENTMAIL_TOKEN is not set: agentmail-mcp can neither create identities nor read any")
    token_file = user_config_path("agentmail-gateway") / FILE_NAME
    build_server(url, token, token_file).run("stdio")


if __name__ == "__main__":
    main()
