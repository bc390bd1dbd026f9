"""agentmail-mcp: a thin stdio MCP server over the gateway REST API."""
