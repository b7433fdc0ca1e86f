/**
 * A fetch that remembers every credential a platform handed out (access and refresh tokens in
 * JSON answers, bearer tokens sent back), so a secrets test can grep for tokens that only ever
 * existed on the wire, not just the ones the test configured.
 */
const TOKEN_FIELDS = new Set([
  'access_token',
  'tenant_access_token',
  'app_access_token',
  'refresh_token',
  'accessToken',
  'refreshToken',
]);

function collect(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) collect(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) {
      if (TOKEN_FIELDS.has(key) && typeof field === 'string' && field.length >= 8) found.add(field);
      else collect(field, found);
    }
  }
}

export function recordingFetch(found: Set<string>, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const bearer = new Headers(init?.headers).get('authorization')?.match(/^Bearer\s+(\S{8,})$/)?.[1];
    if (bearer) found.add(bearer);
    const response = await base(input, init);
    if ((response.headers.get('content-type') ?? '').includes('json')) {
      try {
        collect(JSON.parse(await response.clone().text()), found);
      } catch {
        // Not JSON after all: nothing to remember.
      }
    }
    return response;
  };
}
