"""agentmail-gateway: one catch-all mailbox, an address and a token per agent."""

__version__ = "0.1.0"
__all__ = ["__version__"]
