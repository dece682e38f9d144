import { describe, expect, it } from 'vitest';
import { FUNCTIONS, type FunctionName } from '#infra/functionCatalog';
import { API_GROUPS } from '#shared/schemas/groups';
import { synthesize } from './synth';

// Reads the template only: no esbuild.
const s = synthesize({ bundle: false });
const names = [
  ...Object.keys(API_GROUPS),
  'authorizer',
  'jobs-events',
  'worker',
  'dead-letters',
  'renewals',
  'captchas',
  'webhook-sender',
  'phishing-refresh',
] as FunctionName[];
const statementsOf = (name: FunctionName) => {
  const roleId = s.logicalId(s.stack.functions[name].role);
  return Object.values(s.resources('AWS::IAM::Policy'))
    .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
};

describe('the X token key', () => {
  it('is one KMS key with rotation, kept when the stack goes (the table it protects is kept too)', () => {
    const keys = Object.entries(s.resources('AWS::KMS::Key'));
    const tokenKeyId = s.logicalId(s.stack.tokenKey);
    const [, key] = keys.find(([id]) => id === tokenKeyId)!;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.DeletionPolicy).toBe('Retain');
  });

  it('only the functions that seal or open tokens may use it, for data keys and decryption only', () => {
    const tokenKeyArn = { 'Fn::GetAtt': [s.logicalId(s.stack.tokenKey), 'Arn'] };
    for (const name of names) {
      const kmsStatements = statementsOf(name).filter((st) => [st.Action].flat().some((a) => a.startsWith('kms:')));
      const env =
        s.resources('AWS::Lambda::Function')[s.logicalId(s.stack.functions[name].fn)].Properties.Environment.Variables;
      if (FUNCTIONS[name].tokenKey) {
        expect(
          kmsStatements.map((st) => ({ actions: [st.Action].flat().sort(), resource: st.Resource })),
          name,
        ).toEqual([{ actions: ['kms:Decrypt', 'kms:GenerateDataKey'], resource: tokenKeyArn }]);
        expect(env.TOKEN_KEY_ARN, name).toEqual(tokenKeyArn);
      } else {
        expect(kmsStatements, name).toEqual([]);
        expect(env.TOKEN_KEY_ARN, name).toBeUndefined();
      }
    }
    expect(names.filter((n) => FUNCTIONS[n].tokenKey).sort()).toEqual([
      'moderation',
      'outbound',
      'webhook-sender',
      'worker',
    ]);
  });

  it('the platform secret has fields for the X client', () => {
    const [secret] = Object.values(s.resources('AWS::SecretsManager::Secret'));
    expect(Object.keys(JSON.parse(secret.Properties.GenerateSecretString.SecretStringTemplate))).toEqual(
      expect.arrayContaining(['X_CLIENT_ID', 'X_CLIENT_SECRET']),
    );
  });
});
