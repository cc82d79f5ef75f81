// The dashboard's only way to the server: the public API, with the key the
// user pasted, sent in the Authorization header and kept in sessionStorage
// (gone when the tab closes; never in a URL, a cookie or a log).

const storageKey = 'sightline.apiKey';

export const session = {
  key: () => sessionStorage.getItem(storageKey),
  signIn: (key) => sessionStorage.setItem(storageKey, key.trim()),
  signOut: () => sessionStorage.removeItem(storageKey),
};

// APIError is a refusal in the API's error envelope, or no answer at all
// (status 0).
export class APIError extends Error {
  constructor(status, body, retryAfterSeconds) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code;
    this.details = body && body.details;
    this.requestId = body && body.requestId;
    this.retryAt = retryAfterSeconds == null ? null : new Date(Date.now() + retryAfterSeconds * 1000);
  }
}

// get reads path with params; arrays are sent comma-separated, empty
// values left out.
export async function get(path, params = {}) {
  const url = new URL(path, location.origin);
  for (const [name, value] of Object.entries(params)) {
    if (value == null || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    url.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  let res;
  try {
    res = await fetch(url, {
      headers: { Authorization: `Bearer ${session.key() || ''}`, Accept: 'application/json' },
      credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer',
    });
  } catch {
    throw new APIError(0, { message: 'The server cannot be reached.' });
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const retry = res.headers.get('Retry-After');
    throw new APIError(res.status, body, retry == null ? null : Number(retry));
  }
  return body;
}

// describe puts a failure in words a reader can act on.
export function describe(err) {
  if (!(err instanceof APIError)) {
    return { title: 'Something went wrong in the page', text: String(err && err.message || err) };
  }
  switch (err.status) {
    case 0:
      return { title: 'No connection', text: 'The Sightline server cannot be reached. Check the connection and reload the page.' };
    case 401:
      return { title: 'API key not accepted', signOut: true,
        text: 'The server does not know this API key: it may be mistyped, revoked or expired. Paste a valid key to sign in again.' };
    case 403:
      return { title: 'Not allowed with this key',
        text: `This API key may not read this: ${err.message} Ask an owner of the organization for a key with read access.` };
    case 404:
      return { title: 'Not found', text: err.message };
    case 429: {
      const at = err.retryAt ? err.retryAt.toLocaleTimeString() : null;
      const secs = err.retryAt ? Math.max(1, Math.round((err.retryAt - Date.now()) / 1000)) : null;
      return { title: 'Too many requests', retry: true,
        text: at ? `The rate limit was reached. Try again in ${secs} s (at ${at}).` : 'The rate limit was reached. Try again shortly.' };
    }
    case 400: {
      const fields = Object.entries(err.details || {}).map(([f, ds]) => `${f}: ${ds.map((d) => d.message).join(', ')}`);
      return { title: 'The request was refused', text: [err.message, ...fields].join(' ') };
    }
    default:
      return { title: 'The server could not answer', retry: true,
        text: `The server failed to answer (status ${err.status}${err.requestId ? `, request ${err.requestId}` : ''}). Try again later.` };
  }
}
