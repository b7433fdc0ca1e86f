/** The contract's `connections` domain: the connection and sign-in services, every failure as data. */
import type { CairnApi } from '@shared/contract';
import type { ConnectionService } from '../connections/connection-service';
import type { UserAuthService } from '../connections/user-auth-service';
import { toResult } from '../errors';
import { previewFolder } from '../connectors/folder/folder-preview';

export function connectionsApi(
  connections: ConnectionService,
  userAuth: UserAuthService,
  signal?: AbortSignal,
): CairnApi['connections'] {
  return {
    list: () => toResult(() => connections.list()),
    add: (input) => toResult(() => connections.add(input)),
    test: (input) => toResult(() => connections.test(input.id, signal)),
    testNew: (input) => toResult(() => connections.testNew(input, signal)),
    previewFolder: (input) => toResult(() => previewFolder(input, signal)),
    setMode: (input) => toResult(() => connections.setMode(input.id, input.mode)),
    rename: (input) => toResult(() => connections.rename(input.id, input.name)),
    update: (input) => toResult(() => connections.update(input)),
    testUpdate: (input) => toResult(() => connections.testUpdate(input, signal)),
    remove: (input) => toResult(() => connections.remove(input.id)),
    authorize: (input) => toResult(async () => ({ ...(await userAuth.start(input.id)), opened: false })),
    cancelAuthorize: (input) => toResult(() => userAuth.cancel(input.id)),
    signOut: (input) => toResult(() => userAuth.signOut(input.id)),
  };
}
