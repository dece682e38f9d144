import { createAccount } from '#shared/domain/accounts/accounts';
import { grantCredits } from '#shared/domain/credits/credits';
import { findUserIdByEmail } from '#shared/store/usersRepo';
import { uuidv7 } from '#shared/ids';
import { parseOptions } from './options';

/** Flags are validated here, before the database is reached; the returned step does the writing. */
export function createUserCommand(args: string[]): () => Promise<void> {
  const { email, tier, credits } = parseOptions('create-user', args);
  return async () => {
    const { user, apiKey } = await createAccount({ email, tier, credits });
    console.log(`Created ${tier} account ${user.id} for ${email} with ${credits} credits.`);
    console.log(apiKey);
  };
}

export function grantCreditsCommand(args: string[]): () => Promise<void> {
  const { email, credits } = parseOptions('grant-credits', args);
  return async () => {
    const userId = await findUserIdByEmail(email);
    if (!userId) throw new Error(`No account has the e-mail address ${email}`);
    const outcome = await grantCredits({ userId, grantId: `admin-${uuidv7()}`, amount: credits, source: 'operator' });
    console.log(`Granted ${credits} permanent credits to ${email}; balance is now ${outcome.balance}.`);
  };
}
