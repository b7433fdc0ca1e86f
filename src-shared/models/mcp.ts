/** The MCP server's set-up and test report, as Settings shows them. */

/** How an AI tool starts `cairn mcp` for this data directory, and ready-to-paste configurations. */
export interface McpSetup {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** JSON for Claude Desktop (claude_desktop_config.json) and Cursor (~/.cursor/mcp.json): `mcpServers`. */
  json: string;
  /** Where Claude Desktop keeps that file on this OS. */
  claudeConfigPath: string;
}

/** What the Settings "Test" saw: `cairn mcp` started as an AI tool starts it, through the official MCP client. */
export interface McpTestReport {
  tools: string[];
  query: string;
  results: number;
  firstTitle: string | null;
  tookMs: number;
}
