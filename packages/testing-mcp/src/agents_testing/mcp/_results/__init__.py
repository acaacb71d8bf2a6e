"""Tool results: the builders and the checks that make a scripted value a CallToolResult."""
