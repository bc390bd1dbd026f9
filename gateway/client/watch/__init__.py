"""`agentmail-gateway watch`: run a command for each new message, the dispatcher's hard parts done right.

:mod:`~gateway.client.watch.core` decides (pure: debounce, one run per identity, budgets and the
circuit breaker, retries and parking); :mod:`~gateway.client.watch.state` keeps the resumable
state file; :mod:`~gateway.client.watch.runner` reads the event streams and runs the commands.
Nothing of the server is imported.
"""

from gateway.client.watch.core import Dispatcher, Rules
from gateway.client.watch.runner import Stream, Watcher
from gateway.client.watch.state import StateError, StateFile

__all__ = ["Dispatcher", "Rules", "StateError", "StateFile", "Stream", "Watcher"]
