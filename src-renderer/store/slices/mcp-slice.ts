/** The Settings "AI tools (MCP)" section: the configuration to paste, and its Test. */
import type { AppErrorData } from '@shared/errors';
import type { McpSetup, McpTestReport } from '@shared/models';
import type { GetState, SetState, StoreDeps } from '../store-types';

export type McpTestState =
  | { phase: 'idle' }
  | { phase: 'running' }
  | { phase: 'passed'; report: McpTestReport }
  | { phase: 'failed'; error: AppErrorData };

export interface McpSlice {
  mcpSetup: McpSetup | null;
  mcpSetupError: AppErrorData | null;
  mcpTest: McpTestState;
  loadMcpSetup(): Promise<void>;
  testMcp(query: string): Promise<void>;
}

export function createMcpSlice(set: SetState, _get: GetState, { api }: StoreDeps): McpSlice {
  return {
    mcpSetup: null,
    mcpSetupError: null,
    mcpTest: { phase: 'idle' },
    async loadMcpSetup() {
      const result = await api.mcp.setup();
      set(result.ok ? { mcpSetup: result.value, mcpSetupError: null } : { mcpSetupError: result.error });
    },
    async testMcp(query) {
      set({ mcpTest: { phase: 'running' } });
      const result = await api.mcp.test(query.trim() ? { query: query.trim() } : {});
      set({
        mcpTest: result.ok
          ? { phase: 'passed', report: result.value }
          : { phase: 'failed', error: result.error },
      });
    },
  };
}
