import { useState } from 'react';
import type { Result } from '@shared/errors';
import type { CoreMessage } from '@shared/models';
import { useT } from '../../hooks/use-t';
import { ErrorMessage } from '../common/ErrorMessage';
import { SuccessMessage } from '../common/SuccessMessage';

/** A draft as a Test sends it: an empty key field means "the stored key". */
export function withKey<T extends { apiKey: string }>(draft: T): Omit<T, 'apiKey'> & { apiKey?: string } {
  const { apiKey, ...rest } = draft;
  return apiKey.trim() ? { ...rest, apiKey } : rest;
}

type TestState = { kind: 'idle' } | { kind: 'testing' } | { kind: 'done'; result: Result<CoreMessage> };

/**
 * A model's Test button and its outcome, as a connection form's: the values shown are tried with one
 * short request, nothing is saved. Changing a field clears an old outcome (`resetKey`).
 */
export function ModelTest({
  label,
  run,
  resetKey,
}: {
  label: string;
  run: () => Promise<Result<CoreMessage>>;
  resetKey: string;
}) {
  const t = useT();
  const [state, setState] = useState<{ key: string; test: TestState }>({
    key: resetKey,
    test: { kind: 'idle' },
  });
  const test = state.key === resetKey ? state.test : { kind: 'idle' as const };
  return (
    <div className="model-test">
      <button
        type="button"
        className="button"
        title={label}
        disabled={test.kind === 'testing'}
        onClick={() => {
          setState({ key: resetKey, test: { kind: 'testing' } });
          void run().then((result) => setState({ key: resetKey, test: { kind: 'done', result } }));
        }}
      >
        {test.kind === 'testing' ? t('settings.testing') : t('settings.test')}
      </button>
      <p
        className={test.kind === 'done' ? `test-result ${test.result.ok ? 'ok' : 'failed'}` : 'test-result'}
        role="status"
      >
        {test.kind === 'done' &&
          (test.result.ok ? (
            <>
              ✓ <SuccessMessage success={test.result.value} />
            </>
          ) : (
            <>
              ✗ <ErrorMessage error={test.result.error} />
            </>
          ))}
      </p>
    </div>
  );
}
