/**
 * `cairn sign-out <connection>`: withdraws the Feishu/Lark user sign-in (a shared computer, the
 * wrong account). The stored user refresh token is removed; the app credentials stay, so listing
 * and reading keep working and `cairn authorize` signs in again.
 */
import { PLATFORM_INFO } from '@shared/platforms';
import type { CliCommand } from '../command';
import { report } from '../output';
import { runOnConnection } from '../resolve-connection';

export const signOutCommand: CliCommand = {
  name: 'sign-out',
  summary: 'Withdraw the Feishu/Lark user sign-in (the app credentials stay)',
  usage: [
    'cairn sign-out <connection> [--json]',
    'Removes the stored user authorisation from the secret store; search and My Library then need',
    '`cairn authorize <connection>` again. A sign-in waiting in the browser, and a running sync of the',
    'connection, are stopped first. Feishu has no API to revoke the authorisation on its side.',
  ].join('\n'),
  run(args, context) {
    return runOnConnection(args, context, async (before, api, json) => {
      const label = PLATFORM_INFO[before.platform].label.en;
      return report(context, json, await api.connections.signOut({ id: before.id }), (view) =>
        before.secretFields.includes('userRefreshToken')
          ? `Signed out of ${label} on "${view.name}": the user authorisation was removed; the app credentials stay.`
          : `"${view.name}" had no ${label} sign-in stored; nothing to remove.`,
      );
    });
  },
};
