import { createAccount } from '../../shared/domain/accounts/accounts';
import { grantCredits } from '../../shared/domain/credits/credits';
import { findUserIdByEmail } from '../../shared/store/usersRepo';
import { uuidv7 } from '../../shared/ids';
import { flag, requiredFlag } from './flags';

export async function createUserCommand(args: string[]): Promise<void> {
  const email = requiredFlag(args, 'email');
  const tier = (flag(args, 'tier') ?? 'developer') as 'developer' | 'pro';
  if (tier !== 'developer' && tier !== 'pro') throw new Error('--tier must be developer or pro');
  const credits = Number(flag(args, 'credits') ?? 0);
  if (!Number.isInteger(credits) || credits < 0) throw new Error('--credits must be a non-negative integer');
  const { user, apiKey } = await createAccount({ email, tier, credits });
  console.log(`Created ${tier} account ${user.id} for ${email} with ${credits} credits.`);
  console.log(apiKey);
}

export async function grantCreditsCommand(args: string[]): Promise<void> {
  const email = requiredFlag(args, 'email');
  const credits = Number(requiredFlag(args, 'credits'));
  if (!Number.isInteger(credits) || credits <= 0) throw new Error('--credits must be a positive integer');
  const userId = await findUserIdByEmail(email);
  if (!userId) throw new Error(`No account has the e-mail address ${email}`);
  const outcome = await grantCredits({ userId, grantId: `admin-${uuidv7()}`, amount: credits, source: 'operator' });
  console.log(`Granted ${credits} permanent credits to ${email}; balance is now ${outcome.balance}.`);
}
