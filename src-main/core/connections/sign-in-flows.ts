/**
 * Sign-ins waiting for the browser, one per connection, and the `userAuth` state a connection
 * view shows. Kept apart from the sign-in service so the repository can say "pending" without
 * depending on the service that starts flows (which itself reads connections through it).
 */
import type { UserAuthState } from '@shared/models';

/** The secret field that holds a user's authorisation (written by a sign-in, removed by sign-out). */
export const USER_AUTH_FIELD = 'userRefreshToken';

export interface SignInFlow {
  authorizeUrl: string;
  controller: AbortController;
  finished: Promise<void>;
}

export class SignInFlows {
  private readonly byConnection = new Map<string, SignInFlow>();

  get(connectionId: string): SignInFlow | undefined {
    return this.byConnection.get(connectionId);
  }

  set(connectionId: string, flow: SignInFlow): void {
    this.byConnection.set(connectionId, flow);
  }

  delete(connectionId: string): void {
    this.byConnection.delete(connectionId);
  }

  connectionIds(): string[] {
    return [...this.byConnection.keys()];
  }

  /**
   * The `userAuth` a view shows; undefined for platforms without a user sign-in. `lost` is the
   * row's record that the platform refused the stored authorisation (it survives a restart).
   */
  stateOf(
    connectionId: string,
    hasSignIn: boolean,
    secretFields: readonly string[],
    lost: boolean,
  ): UserAuthState | undefined {
    if (!hasSignIn) return undefined;
    if (this.byConnection.has(connectionId)) return 'pending';
    if (!secretFields.includes(USER_AUTH_FIELD)) return 'none';
    return lost ? 'expired' : 'authorized';
  }
}
