import { useEffect, useState } from 'react';
import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import { ErrorMessage } from '../common/ErrorMessage';

/** Settings → AI tools (MCP): the configuration to paste into Claude Desktop, Cursor and Cherry Studio, and a Test. */
export function McpSettings() {
  const t = useT();
  const setup = useApp((state) => state.mcpSetup);
  const setupError = useApp((state) => state.mcpSetupError);
  const test = useApp((state) => state.mcpTest);
  const loadMcpSetup = useApp((state) => state.loadMcpSetup);
  const testMcp = useApp((state) => state.testMcp);
  const showNotice = useApp((state) => state.showNotice);
  const [query, setQuery] = useState('');

  useEffect(() => {
    void loadMcpSetup();
  }, [loadMcpSetup]);

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      showNotice('info', 'mcp.copied');
    } catch {
      // No clipboard (an insecure context, a denied permission): the text stays selectable.
    }
  }

  return (
    <fieldset className="panel settings-group mcp-settings">
      <legend>{t('mcp.title')}</legend>
      <p className="hint">{t('mcp.hint')}</p>
      {setupError && (
        <p className="form-error" role="alert">
          <ErrorMessage error={setupError} />
        </p>
      )}
      {setup && (
        <>
          <p className="small">{t('mcp.claude', { path: setup.claudeConfigPath })}</p>
          <p className="small">{t('mcp.cursor')}</p>
          <div className="mcp-config">
            <pre data-testid="mcp-json">{setup.json}</pre>
            <button type="button" className="button small" onClick={() => void copy(setup.json)}>
              {t('mcp.copy')}
            </button>
          </div>
          <p className="small">{t('mcp.cherry')}</p>
          <dl className="mcp-fields">
            <dt>{t('mcp.command')}</dt>
            <dd>
              <code>{setup.command}</code>
            </dd>
            <dt>{t('mcp.args')}</dt>
            <dd>
              <pre>{setup.args.join('\n')}</pre>
            </dd>
            {Object.keys(setup.env).length > 0 && (
              <>
                <dt>{t('mcp.env')}</dt>
                <dd>
                  <pre>
                    {Object.entries(setup.env)
                      .map(([key, value]) => `${key}=${value}`)
                      .join('\n')}
                  </pre>
                </dd>
              </>
            )}
          </dl>
          <div className="field-row">
            <label className="field">
              <span>{t('mcp.testQuery')}</span>
              <input
                value={query}
                placeholder={t('mcp.testQueryHint')}
                onChange={(event) => setQuery(event.target.value)}
              />
            </label>
            <button
              type="button"
              className="button"
              disabled={test.phase === 'running'}
              onClick={() => void testMcp(query)}
            >
              {t('mcp.test')}
            </button>
          </div>
          <div role="status" aria-live="polite" className="mcp-test-status">
            {test.phase === 'running' && <p className="muted small">{t('mcp.testing')}</p>}
            {test.phase === 'passed' && (
              <p className="small mcp-ok">
                {t('mcp.testPassed', {
                  tools: test.report.tools.join(', '),
                  results: test.report.results,
                  query: test.report.query,
                  seconds: (test.report.tookMs / 1000).toFixed(1),
                })}
              </p>
            )}
            {test.phase === 'failed' && (
              <p className="form-error" role="alert">
                <ErrorMessage error={test.error} lead={t('mcp.testFailed')} />
              </p>
            )}
          </div>
        </>
      )}
    </fieldset>
  );
}
