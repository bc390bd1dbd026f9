"""`python -m tests.mailstack start|stop`: run a stack by hand or for the benchmark.

`start` leaves the daemons running and prints `KEY=value` lines (AGENTMAIL_* for the gateway,
MAILSTACK_* for senders); `stop ROOT` stops that stack and removes its root.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tests.mailstack.stack import DEFAULT_DOMAIN, MailStack, MailStackError, ensure_installed


def main(argv: list[str] | None = None) -> int:
    """Parse argv and run the command; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m tests.mailstack", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    start = sub.add_parser("start", help="start a stack and print its settings")
    start.add_argument("--domain", default=DEFAULT_DOMAIN)
    start.add_argument("--push-port", type=int, default=None, help="port the gateway's push listener will use")
    start.add_argument("--push-secret", default=None, help="default: random")
    stop = sub.add_parser("stop", help="stop the stack rooted at ROOT")
    stop.add_argument("root", type=Path)
    args = parser.parse_args(argv)

    try:
        if args.command == "start":
            ensure_installed()
            stack = MailStack.create(domain=args.domain, push_port=args.push_port, push_secret=args.push_secret)
            try:
                stack.start()
            except BaseException:
                stack.stop()
                raise
            for key, value in stack.gateway_env().items():
                print(f"{key}={value}")
        else:
            MailStack.attach(args.root).stop()
    except MailStackError as exc:
        print(f"mailstack: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
