/**
 * A recording stand-in for ZeroBounce API v2's single validation
 * (https://www.zerobounce.net/docs/email-validation-api-quickstart/): GET /validate with `api_key`,
 * `email` and `ip_address`. A wrong key is a 200 whose body is `{error}`, as ZeroBounce answers it.
 */
import { startJsonServer } from './httpStandIn';

export interface ZeroBounceVerdict {
  status: 'valid' | 'invalid' | 'catch-all' | 'unknown' | 'spamtrap' | 'abuse' | 'do_not_mail';
  sub_status?: string;
  free_email?: boolean;
}

export async function startZeroBounceStandIn(apiKey: string, verdicts: Record<string, ZeroBounceVerdict> = {}) {
  const calls: { path: string; query: Record<string, string> }[] = [];
  const known = new Map(Object.entries(verdicts));
  const server = await startJsonServer((req) => {
    calls.push({ path: req.path, query: Object.fromEntries(req.query) });
    if (req.path !== '/validate') return { status: 404, body: { error: 'Not found' } };
    if (req.query.get('api_key') !== apiKey)
      return { status: 200, body: { error: 'Invalid API key or your account ran out of credits' } };
    const email = (req.query.get('email') ?? '').toLowerCase();
    const at = email.lastIndexOf('@');
    const verdict = known.get(email) ?? { status: 'unknown', sub_status: 'mail_server_did_not_respond' };
    return {
      status: 200,
      body: {
        address: email,
        status: verdict.status,
        sub_status: verdict.sub_status ?? '',
        free_email: verdict.free_email ?? false,
        did_you_mean: null,
        account: email.slice(0, at),
        domain: email.slice(at + 1),
        domain_age_days: '4000',
        smtp_provider: '',
        mx_found: 'true',
        mx_record: `mx.${email.slice(at + 1)}`,
        firstname: null,
        lastname: null,
        gender: null,
        country: null,
        region: null,
        city: null,
        zipcode: null,
        processed_at: '2026-11-28 04:00:00.000',
      },
    };
  });
  return { apiBase: server.url, calls, reset: () => (calls.length = 0), close: server.close };
}
