"""The imap source against a server that accepts and never speaks: nothing hangs."""

from __future__ import annotations

import asyncio

from gateway.errors import SourceUnavailable
from gateway.sources.imap import ImapConfig, ImapSource


async def test_stop_returns_promptly_with_commands_queued_on_a_silent_server() -> None:
    connections: list[asyncio.StreamWriter] = []

    async def silent(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(writer)  # never a greeting

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    source = ImapSource(ImapConfig("127.0.0.1", port, "u", "p", "none", timeout=1.0))
    try:
        await source.start()  # gives up on the reader after its timeout; retries later
        await source.follow()
        assert not source.reachable
        queued = [asyncio.create_task(source.fetch([f"{1:010d}.{i:010d}"])) for i in range(3)]
        async with asyncio.timeout(15):  # the config's timeout once at most, not once per job
            await source.stop()
            results = await asyncio.gather(*queued, return_exceptions=True)
        assert all(isinstance(r, SourceUnavailable) for r in results), results
        assert await source.next_batch() is None
    finally:
        for writer in connections:
            writer.close()
        server.close()
        await server.wait_closed()
