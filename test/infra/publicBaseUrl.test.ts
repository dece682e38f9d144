import { describe, expect, it } from 'vitest';
import { FUNCTIONS, type FunctionName } from '#infra/functionCatalog';
import { synthesize } from './synth';

const envOf = (s: ReturnType<typeof synthesize>, name: FunctionName): Record<string, unknown> =>
  s.resources('AWS::Lambda::Function')[s.logicalId(s.stack.functions[name].fn)].Properties.Environment.Variables;
const names = Object.keys(FUNCTIONS) as FunctionName[];
// A synth without bundling takes about 12 s on a quiet two-core machine, several times that when it is shared.
const SYNTH_TIMEOUT_MS = 180_000;

describe('PUBLIC_BASE_URL in the stack', () => {
  it(
    'is the custom domain given with -c publicBaseUrl in every function, those that render events (whose payloads link to the API) included',
    () => {
      const s = synthesize({ bundle: false, props: { publicBaseUrl: 'https://api.example.com/api/v1' } });
      for (const name of names) expect(envOf(s, name).PUBLIC_BASE_URL, name).toBe('https://api.example.com/api/v1');
    },
    SYNTH_TIMEOUT_MS,
  );

  it(
    "is API Gateway's own address for the functions that render events (the webhook sender and the renewals' outbox sweep) when no custom domain is set (the others answer from the request's host)",
    () => {
      const s = synthesize({ bundle: false });
      const [restApiId] = Object.keys(s.resources('AWS::ApiGateway::RestApi'));
      for (const name of ['webhook-sender', 'renewals'] as const) {
        const url = JSON.stringify(envOf(s, name).PUBLIC_BASE_URL);
        expect(url, name).toContain(`{"Ref":"${restApiId}"}`);
        expect(url, name).toContain('/api/v1');
      }
      expect(names.filter((name) => envOf(s, name).PUBLIC_BASE_URL !== undefined).sort()).toEqual([
        'renewals',
        'webhook-sender',
      ]);
    },
    SYNTH_TIMEOUT_MS,
  );
});
