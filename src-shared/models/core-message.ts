/**
 * A success from core (a passing connection test): `message` is core's English sentence (the CLI,
 * logs), with the names and counts it found; `code` and `params` let the UI say it in its own
 * language, as errors are (messages-*.ts `success.*`).
 */
export interface CoreMessage {
  message: string;
  /** e.g. "connection.ok". */
  code: string;
  params: Record<string, string | number>;
}
