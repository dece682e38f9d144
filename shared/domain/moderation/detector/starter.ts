/**
 * What the text model knows before a community teaches it anything: a few dozen messages written by
 * the team, in its own words, of the kinds Web3 communities see every day. Deliberately small: it
 * only gives the model a first sense of each class, so a community's own examples soon outweigh it.
 */
import { readMessage } from './reading';
import { emptyModel, teach, type TextModel } from './textModel';

const SPAM = [
  'Claim your free tokens now before the window closes, connect your wallet on our site',
  'Airdrop is live! Drop your wallet address below and retweet to get 5,000 tokens',
  'Having trouble with your wallet? DM me and our support team will sort it out',
  'Lost funds to a scam? Our recovery experts get your crypto back, message us today',
  'I made $4,000 this week trading with this platform, ask me how to join',
  'Earn passive income from your phone, no experience needed, inbox me for details',
  'Please deploy a token named MoonFrog with the ticker $FROG and send the fees to me',
  'New gem on Solana, contract address below, 100x incoming, buy before it pumps',
  'Congratulations, you have been selected to receive a cash prize, reply CLAIM to collect',
  'You have won a gift voucher! Call our hotline now to claim it before midnight',
  'Text WIN to 80080 for your chance at a brand new phone, 1.50 per msg, txt STOP to end',
  'Check out my channel and subscribe, I upload new music every week',
  'Please like and share my video, it would mean the world, sub to me for more',
  'Verify your account within 24 hours or it will be suspended, log in at the link',
  'Official support: your wallet needs to be validated, enter your recovery phrase here',
  'Mint is live and free for the first 500, whitelist spots going fast, tag 3 friends',
  'Join our VIP signals group on Telegram, guaranteed profits every day',
  'Hot singles near you are waiting, click the link to chat now',
  'Limited time bonus: deposit today and we double your deposit instantly',
  'Investment opportunity with daily returns, withdraw any time, account manager available',
  'Ищем людей для удалённой работы, доход от 500 долларов в неделю, пишите в личку',
  'Набираем в команду, заработок каждый день, подробности в лс',
  'Giveaway of 1 ETH to one lucky winner, follow, like and retweet to enter',
  'Send 0.1 ETH to this address and receive 1 ETH back, limited event',
  'Your package could not be delivered, update your details at the link to reschedule',
];

const HAM = [
  'Has anyone tried the new release of the SDK? The docs for the indexer changed',
  'gm everyone, what time is the community call today?',
  'The proposal to change the fee switch is up for a vote until Friday',
  'Thanks for the AMA yesterday, the part on the roadmap was really helpful',
  'Never share your seed phrase with anyone, admins will never DM you first',
  'I bridged to the L2 last night and the transaction took about ten minutes',
  'Is the testnet faucet down? My requests keep timing out',
  'Great write-up on the tokenomics, I have a question about the vesting schedule',
  'Can someone explain how the staking rewards are calculated?',
  'The hackathon starts next week, our team is still looking for a designer',
  'I think the gas estimate in the wallet is off for contract calls',
  'Here is the link to the governance forum thread we talked about',
  'See you all at the meetup in Berlin, we will have stickers',
  'The audit report is published on the blog, two medium issues were fixed',
  'lol that chart is wild, what happened at the open?',
  'Reminder: report suspicious messages to the moderators instead of replying',
  'Welcome to the group! Read the pinned message for the rules and useful links',
  'My node fell out of sync after the upgrade, any tips?',
  'The grant program opens applications at the start of next month',
  'Does the API return token balances in wei or in ether?',
  'Всем привет, кто-нибудь уже обновился до новой версии клиента?',
  'Спасибо за ответ, попробую переустановить ноду',
  'Congrats to the team on shipping the mainnet launch!',
  'Call me when you are free, I want to go over the slides for tomorrow',
  'I sent you the draft by email, let me know what you think',
];

let starter: TextModel | undefined;

/** Built on first use, not at load: the moderation function's other routes (communities, rules) never need it. */
export function starterModel(): TextModel {
  starter ??= teach(emptyModel(), [
    ...SPAM.map((text) => ({ reading: readMessage(text), label: 'spam' as const })),
    ...HAM.map((text) => ({ reading: readMessage(text), label: 'ham' as const })),
  ]);
  return starter;
}
