/**
 * The detector's signals, as data. Each adds evidence (natural-log odds that the message is spam) when
 * it fires, more or less for a member who joined recently; the rules document's switch named by
 * `rule` turns it off. Phrases are written in the team's own words for the kinds of spam communities
 * see (giveaway and token-deploy shills, recovery scams, prize and premium-number texts, channel
 * promotion, job and earnings offers, in English and Russian); no single weak signal removes a message,
 * several together do. Every pattern is linear: bounded gaps, no nested repetition.
 */
import type { RuleId } from '../communityRules';
import type { Reading } from './reading';

export interface Evidence {
  established: number;
  newMember: number;
}

const both = (n: number): Evidence => ({ established: n, newMember: n });

export interface PhraseSignal {
  id: string;
  label: string;
  rule: RuleId;
  evidence: Evidence;
  pattern: RegExp;
}

/** Gap of up to n characters inside one sentence. */
const gap = (n: number) => `[^.!?\\n]{0,${n}}`;
const re = (source: string) => new RegExp(source, 'iu');

export const PHRASE_SIGNALS: PhraseSignal[] = [
  {
    id: 'wallet_giveaway',
    label: 'Asks members to post their wallet for a giveaway',
    rule: 'scam_phrase',
    evidence: both(4.5),
    pattern: re(
      `\\b(drop|post|send|leave|comment|share|paste)\\b${gap(20)}\\b(wallets?|addresse?s?|addy)\\b|\\bevery wallet\\b|\\bwallets? (below|in the comments)\\b`,
    ),
  },
  {
    id: 'token_deploy',
    label: 'Token-deploy or ticker shill',
    rule: 'scam_phrase',
    evidence: both(4.5),
    pattern: re(
      `\\bdeploy\\b${gap(60)}\\b(ticker|token|coin|memecoin)\\b|\\b(same|the|with) ticker\\b|\\bticker\\s*[:$]`,
    ),
  },
  {
    id: 'recovery_scam',
    label: 'Offers to recover lost or stolen funds',
    rule: 'scam_phrase',
    evidence: both(4.5),
    pattern: re(
      `\\b(recover|recovery|retrieve|get back|reclaim)\\b${gap(40)}\\b(funds?|crypto|assets?|wallets?|money|btc|usdt|investments?)\\b|\\b(recovery|hack(er)?|asset)\\s+(experts?|specialists?|agents?|team|services?)\\b|\\bfunds (are |got )?stuck\\b|\\b(blocked|blocking|frozen)\\s+withdrawals?\\b|\\bwithdrawals?\\s+(are\\s+)?(blocked|frozen)\\b|\\b(recovery|recover)\\b${gap(20)}\\b(support|help|assist)|\\bfake (profits|dashboards?)\\b`,
    ),
  },
  {
    id: 'prize_claim',
    label: 'Says the reader has won or been selected',
    rule: 'scam_phrase',
    evidence: both(3.5),
    pattern: re(
      `\\byou (have |'ve )?(won|been selected|been chosen)\\b|\\bselected to (receive|win)\\b|\\bclaim (your |a )?(prize|reward|bonus|cash|gift|voucher)\\b|\\b(guaranteed|awarded)\\b${gap(30)}\\b(prize|cash|bonus|reward|award)\\b|\\bto claim\\b`,
    ),
  },
  {
    id: 'premium_text',
    label: 'Text or call a number to take part',
    rule: 'scam_phrase',
    evidence: both(3.5),
    pattern: re(
      `\\b(txt|text|sms|send|reply)\\b${gap(25)}\\bto\\s+\\d{4,6}\\b|\\b0(9\\d|87|84|70)\\d{7,8}\\b|\\bfreemsg\\b|\\b(call|ring|dial)\\s+(now\\s+)?(on\\s+)?0\\d{9,10}\\b|\\bcall\\s+(us\\s+)?(now|today)\\b|\\b\\d+p\\s*/\\s*(min|msg)\\b|\\bper (msg|min)\\b|£\\s?\\d+(\\.\\d\\d)?\\s*/\\s*(wk|week|msg|min)`,
    ),
  },
  {
    id: 'opt_out',
    label: 'Bulk-message opt-out wording',
    rule: 'scam_phrase',
    evidence: both(3),
    pattern: re(`\\b(txt|text|send|reply)\\s+stop\\b|\\bopt[- ]?out\\b|\\bto unsubscribe\\b|\\bpo\\s?box\\s?\\d`),
  },
  {
    id: 'channel_promotion',
    label: 'Promotes the sender’s own channel or page',
    rule: 'scam_phrase',
    evidence: both(4),
    pattern: re(
      `\\b(check( out)?|checkout|visit|watch|listen to|go to|sub(scribe)?( to)?|follow|view)\\b${gap(20)}\\b(my|our)\\s+(new\\s+)?(channel|page|vid(eo)?s?|music|songs?|mixtape|album|profile|stream|beats?|covers?|blog|site|website)\\b|\\bsub(scribe)?\\s+(to\\s+)?(me|my)\\b|\\bsub\\s*4\\s*sub\\b|\\b(please|pls|plz)\\s+(like|subscribe|share|sub)\\b`,
    ),
  },
  {
    id: 'subscribe',
    label: 'Asks for subscriptions or likes',
    rule: 'scam_phrase',
    evidence: both(2),
    pattern: re(
      `\\bsu[bs]{1,2}cri(be|bers?)\\b|\\bthumbs? (this )?up\\b|\\blike this comment\\b|\\b(my|our) (youtube )?(channel|vids?|videos?)\\b`,
    ),
  },
  {
    id: 'earnings_offer',
    label: 'Promises earnings or income',
    rule: 'scam_phrase',
    evidence: both(3),
    pattern: re(
      `\\b(earn|earning|make|making|profit|income|paid|get paid|pay you)\\b${gap(30)}([$€£]\\s?\\d|\\d[\\d,.]*\\s?(k\\s)?(\\$|usd|usdt|dollars?|euros?|pounds?))|\\b(passive|daily|weekly|extra|stable) income\\b|\\bwork(ing)? from home\\b|\\bfinancial freedom\\b|[$€£]\\s?\\d[\\d,.]*\\s?k?\\s*(a|per|every|/)\\s*(day|week|hour|month)\\b`,
    ),
  },
  {
    id: 'investment_pitch',
    label: 'Investment, trading or mining pitch',
    rule: 'scam_phrase',
    evidence: both(2.5),
    pattern: re(
      `\\b(invest(ment|ing)?|trading|broker|forex|binary options?|mining)\\b${gap(50)}\\b(profits?|returns?|platform|account manager|withdraw(al)?s?|roi|earn(ings)?)\\b`,
    ),
  },
  {
    id: 'contact_me',
    label: 'Moves the conversation to private messages',
    rule: 'scam_phrase',
    evidence: both(2),
    pattern: re(
      `\\b(dm|pm|inbox|message|text|write( to)?|contact|reach out to|hit)\\s+(me|us|him|her)\\b|\\bshoot me a (dm|message)\\b|\\b(whatsapp|telegram)\\s*(me|:|\\+)`,
    ),
  },
  {
    id: 'free_offer',
    label: 'Free prize, gift or mint',
    rule: 'scam_phrase',
    evidence: both(2.5),
    pattern: re(
      `\\bfree\\b${gap(25)}\\b(entry|ringtones?|tones?|camera|gift|voucher|cash|spins?|mint|tokens?|nfts?|crypto|airdrop|bonus|trial|msg|sms)\\b|\\b(giveaway|airdrop|whitelist|wl spots?|gtd spots?)\\b`,
    ),
  },
  {
    id: 'engagement_bait',
    label: 'Follow, like, retweet or tag to enter',
    rule: 'scam_phrase',
    evidence: both(2.5),
    pattern: re(
      `\\b(like|follow)\\s*(&|and|\\+|,)\\s*(rt|retweet|repost)\\b|\\btag\\s+\\d+\\s+(friends?|frens?)\\b|\\bto (enter|participate)\\b|\\b\\d+\\s+winners?\\b|\\bwinners? (drawn|announced|picked)\\b`,
    ),
  },
  {
    id: 'contract_address',
    label: 'Token contract address shill',
    rule: 'scam_phrase',
    evidence: both(3),
    pattern: re(`\\bca\\s*[:>]|\\bcontract( address)?\\s*:|\\b\\w{20,}pump\\b`),
  },
  {
    id: 'urgency',
    label: 'Pressure to act at once',
    rule: 'scam_phrase',
    evidence: both(1.5),
    pattern: re(
      `\\b(act (now|fast|quickly)|limited (time|spots|offer)|hurry( up)?|last chance|don'?t miss( out)?|expires? (today|soon|in)|only \\d+ (spots|hours|left)|urgent(ly)?)\\b`,
    ),
  },
  {
    id: 'adult_content',
    label: 'Adult content',
    rule: 'scam_phrase',
    evidence: both(3.5),
    pattern: re(
      `🔞|\\b18\\+|\\b(nudes|horny|onlyfans|hot singles|dating (site|service)|escort|nsfw)\\b|(эскорт|интим|знакомств|досуг)`,
    ),
  },
  {
    id: 'earnings_offer_ru',
    label: 'Promises earnings or remote work (Russian)',
    rule: 'scam_phrase',
    evidence: both(3),
    pattern: re(
      `(заработ|доход|прибыл|подработ|выплат|пассивн|удал[её]нн)[а-яё]*${gap(40)}(\\d|от|в день|в неделю|в месяц)|\\d\\s*(руб|р\\.|₽|долл)`,
    ),
  },
  {
    id: 'contact_me_ru',
    label: 'Moves the conversation to private messages (Russian)',
    rule: 'scam_phrase',
    evidence: both(3),
    pattern: re(
      `(пиши(те)?|напиши(те)?|обращайтесь|жду)${gap(15)}(в\\s*)?(лс|личк|личные|директ|профил|поиск)|\\+\\s*в\\s*лс`,
    ),
  },
  {
    id: 'recruiting_ru',
    label: 'Recruits people for paid work (Russian)',
    rule: 'scam_phrase',
    evidence: both(3),
    pattern: re(
      `(ищу|ищем|набира[юе]м?|требуются|нужны|приглаша[юе]м?)${gap(40)}(людей|человек|партн[её]р|сотрудник|помощник|в команду)`,
    ),
  },
];

/** Domains of link shorteners: where a link hides its destination. */
export const SHORTENER_HOSTS = new Set([
  'bit.ly',
  'tinyurl.com',
  'goo.gl',
  'cutt.ly',
  'is.gd',
  'rb.gy',
  'shorturl.at',
  'tiny.cc',
  'ow.ly',
  'buff.ly',
  'rebrand.ly',
  'shorte.st',
  'adf.ly',
  'linktr.ee',
  't.ly',
  'v.gd',
  'bl.ink',
  'lnkd.in',
]);

/** Top-level domains that cost almost nothing and carry a large share of throwaway scam sites. */
export const CHEAP_TLDS = new Set([
  'xyz',
  'top',
  'click',
  'loan',
  'work',
  'live',
  'buzz',
  'icu',
  'cyou',
  'rest',
  'fun',
  'site',
  'online',
  'shop',
  'store',
  'claims',
  'gift',
  'win',
  'bid',
  'vip',
  'life',
  'today',
  'ltd',
  'monster',
  'sbs',
  'cfd',
  'pw',
]);

/** Hosts whose links invite to a chat (Telegram channels and groups, Discord, WhatsApp). */
export const CHAT_INVITE_HOSTS = new Set([
  't.me',
  'telegram.me',
  'telegram.dog',
  'discord.gg',
  'discord.com',
  'discordapp.com',
  'chat.whatsapp.com',
  'wa.me',
]);

const CASHTAG = /(?<![\w$])\$[a-z][a-z0-9]{1,9}\b/gi;

/** Words that are parts of the message's links (hosts and paths are read as words too). */
function countLinkWords(r: Reading): number {
  const words = r.links.flatMap((l) => `${l.host} ${l.path}`.match(/[\p{L}\p{N}]+/gu) ?? []);
  return Math.min(words.length, r.words.length);
}

export interface ComputedSignal {
  id: string;
  label: string;
  rule: RuleId;
  evidence: Evidence;
  /** How strongly it fires (0: not at all); its evidence is multiplied by this. */
  strength: (r: Reading) => number;
}

/** Signals read from the message's shape rather than its phrases. */
export const SHAPE_SIGNALS: ComputedSignal[] = [
  {
    id: 'chat_link',
    label: 'Link to a Telegram, Discord or WhatsApp chat',
    rule: 'invite_link',
    evidence: { established: 1.5, newMember: 3 },
    strength: (r) => (r.links.some((l) => CHAT_INVITE_HOSTS.has(l.host)) ? 1 : 0),
  },
  {
    id: 'link_shortener',
    label: 'Shortened link',
    rule: 'link',
    evidence: { established: 2, newMember: 2.5 },
    strength: (r) => (r.links.some((l) => SHORTENER_HOSTS.has(l.host)) ? 1 : 0),
  },
  {
    id: 'cheap_domain',
    label: 'Link to a throwaway-domain site',
    rule: 'link',
    evidence: { established: 1.5, newMember: 2 },
    strength: (r) => (r.links.some((l) => CHEAP_TLDS.has(l.host.slice(l.host.lastIndexOf('.') + 1))) ? 1 : 0),
  },
  {
    id: 'many_links',
    label: 'Several links in one message',
    rule: 'link',
    evidence: both(1.5),
    strength: (r) => (new Set(r.links.map((l) => l.host)).size >= 3 ? 1 : 0),
  },
  {
    id: 'wallet_address',
    label: 'Wallet or contract address',
    rule: 'wallet_address',
    evidence: { established: 1.5, newMember: 4.5 },
    strength: (r) => (r.walletAddresses > 0 ? 1 : 0),
  },
  {
    id: 'cashtags',
    label: 'Several token tickers',
    rule: 'scam_phrase',
    evidence: both(1.5),
    strength: (r) => (new Set((r.raw.match(CASHTAG) ?? []).map((t) => t.toLowerCase())).size >= 2 ? 1 : 0),
  },
  {
    id: 'bare_link',
    label: 'A link with next to nothing else',
    rule: 'link',
    evidence: { established: 2, newMember: 2 },
    strength: (r) =>
      r.links.length > 0 && r.words.length <= 12 + 4 * r.links.length && r.words.length - countLinkWords(r) <= 4
        ? 1
        : 0,
  },
  {
    id: 'phone_number',
    label: 'Phone number',
    rule: 'phone_number',
    evidence: { established: 2.5, newMember: 3 },
    strength: (r) => (r.phoneNumbers > 0 ? 1 : 0),
  },
  {
    id: 'mixed_script',
    label: 'Words disguised with look-alike letters of another alphabet',
    rule: 'mixed_script',
    evidence: both(3),
    strength: (r) => Math.min(r.mixedWords, 3) / (r.mixedWords >= 2 ? 2 : 1.5),
  },
  {
    id: 'emoji_flood',
    label: 'Many emoji',
    rule: 'shouting',
    evidence: both(1.2),
    strength: (r) => (r.emojis >= 5 && r.emojis >= r.words.length / 5 ? 1 : 0),
  },
];
