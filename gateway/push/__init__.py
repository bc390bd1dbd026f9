"""Webhooks going out: Standard Webhooks signing, the SSRF guard, the retry schedule, one call.

`signing` is shared with the client (receivers verify with it), so this package imports nothing
of the server and its `__init__` imports none of its modules: `gateway.push.signing` stays light.
"""
