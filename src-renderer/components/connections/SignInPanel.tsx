/**
 * The Feishu/Lark sign-in on a connection card: a "Sign in" button while search and My Library are
 * not authorised (or the platform refused the stored authorisation), a waiting state with Cancel
 * while the browser is out, and the outcome. State comes from the view (`userAuth`, also set by a
 * sign-in the CLI started) and from this window's own sign-in (`signIn`).
 */
import type { ConnectionView } from '@shared/models';
import { feishuRedirectUrl, FEISHU_SIGN_IN_DEFAULT_PORT, PLATFORM_INFO } from '@shared/platforms';
import { useLanguage, useT } from '../../hooks/use-t';
import { useApp, useAppShallow } from '../../store/store-context';
import { ErrorMessage } from '../common/ErrorMessage';

/**
 * Limitations this panel states itself, next to its Sign in button: the card leaves out its own
 * note for them, so an unsigned card says it once (the CLI and the status keep the limitation).
 */
export const LIMITATIONS_SHOWN_BY_SIGN_IN = new Set(['feishu.no-user-auth']);

function redirectUrlOf(connection: ConnectionView): string {
  const port = Number(connection.config.redirectPort);
  return feishuRedirectUrl(
    connection.config.redirectPort !== undefined && Number.isInteger(port)
      ? port
      : FEISHU_SIGN_IN_DEFAULT_PORT,
  );
}

export function SignInPanel({ connection }: { connection: ConnectionView }) {
  const t = useT();
  const language = useLanguage();
  const local = useApp((state) => state.signIn[connection.id]);
  const actions = useAppShallow((state) => ({
    start: state.startSignIn,
    cancel: state.cancelSignIn,
    reopen: state.reopenSignIn,
    signOut: state.signOut,
  }));
  if (connection.userAuth === undefined) return null;
  const platform = connection.platform === 'lark' ? 'lark' : 'feishu';
  const signInLabel = t(`signIn.button.${platform}`);
  const waiting =
    connection.userAuth === 'pending' || (local?.phase === 'waiting' && connection.userAuth !== 'authorized');

  if (waiting) {
    return (
      <div className="sign-in waiting" role="status" data-testid="sign-in">
        <p>{t('signIn.waiting')}</p>
        <div className="actions">
          {local?.phase === 'waiting' && (
            <button type="button" className="button quiet" onClick={() => void actions.reopen(connection.id)}>
              {t('signIn.reopen')}
            </button>
          )}
          <button type="button" className="button" onClick={() => void actions.cancel(connection.id)}>
            {t('signIn.cancel')}
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className={`sign-in ${connection.userAuth}`} data-testid="sign-in">
      {connection.userAuth === 'authorized' &&
        // Just signed in from this window: the same sentence, shown as a success.
        (local?.phase === 'succeeded' ? (
          <p className="test-result ok" role="status">
            {t('signIn.authorized')}
          </p>
        ) : (
          <p className="sign-in-state">{t('signIn.authorized')}</p>
        ))}
      {connection.userAuth === 'none' && (
        <p className="sign-in-state">
          {t('limitation.feishu.no-user-auth', {
            platform: PLATFORM_INFO[connection.platform].label[language],
          })}
        </p>
      )}
      {connection.userAuth === 'expired' && (
        <p className="sign-in-state" role="alert">
          {t('signIn.expired')}
        </p>
      )}
      {local?.phase === 'failed' && (
        <p className="sync-error" role="alert">
          <ErrorMessage error={local.error} lead={t('signIn.failed')} />
        </p>
      )}
      {connection.userAuth === 'authorized' ? (
        <div className="actions">
          <button type="button" className="button quiet" onClick={() => void actions.start(connection.id)}>
            {t('signIn.again')}
          </button>
          <button type="button" className="button quiet" onClick={() => void actions.signOut(connection.id)}>
            {t('signIn.signOut')}
          </button>
        </div>
      ) : (
        <>
          <div className="actions">
            <button
              type="button"
              className="button primary"
              onClick={() => void actions.start(connection.id)}
            >
              {signInLabel}
            </button>
            {/* An expired authorisation is still stored: it can be removed without signing in again. */}
            {connection.userAuth === 'expired' && (
              <button
                type="button"
                className="button quiet"
                onClick={() => void actions.signOut(connection.id)}
              >
                {t('signIn.signOut')}
              </button>
            )}
          </div>
          <p className="hint">{t('signIn.redirectHint', { url: redirectUrlOf(connection) })}</p>
        </>
      )}
    </div>
  );
}
