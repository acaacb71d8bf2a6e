"""Recording a real MCP server to a cassette and replaying it scripted."""
