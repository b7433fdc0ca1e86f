/**
 * Rewrites a failed Feishu/Lark "Test connection" into a message that says what to fix. A missing
 * scope already names the scope Feishu asked for (feishu-api.ts missingScopes).
 */
import { CairnError } from '../../errors';

export function explainFeishuValidation(error: unknown, label: string, host: string): unknown {
  if (!(error instanceof CairnError)) return error;
  const code = (error.details?.platformCode as number | undefined) ?? undefined;
  const suffix = code === undefined ? '' : ` (code ${code})`;
  switch (error.code) {
    case 'AUTH_INVALID':
      // The user side (refresh token, sign-in) already says what to do.
      if (code === undefined) return error;
      if (code === 10003)
        return new CairnError(
          'AUTH_INVALID',
          `${label} does not know this App ID${suffix}. Copy it from the developer console (Credentials & Basic Info).`,
          { details: error.details },
        );
      if (code === 10014)
        return new CairnError(
          'AUTH_INVALID',
          `${label} rejected the App Secret${suffix}: it is wrong, or the app is disabled. Copy the secret from the developer console (Credentials & Basic Info) and check the app is enabled.`,
          { details: error.details },
        );
      return new CairnError(
        'AUTH_INVALID',
        `${label} rejected the App ID or App Secret${suffix}. Copy both from the developer console (Credentials & Basic Info) and check the app is enabled.`,
        { details: error.details },
      );
    case 'AUTH_EXPIRED':
      return error.message.includes('user authorisation')
        ? error
        : new CairnError(
            'AUTH_EXPIRED',
            `${label} keeps rejecting fresh access tokens${suffix}. Check the app is installed in your organisation.`,
          );
    case 'SOURCE_UNREACHABLE':
    case 'TIMEOUT':
      return new CairnError(
        error.code,
        `Cannot reach ${label} at ${host}: check the base URL and your network. (${error.message})`,
      );
    default:
      return error;
  }
}
