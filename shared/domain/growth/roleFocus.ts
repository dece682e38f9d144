/**
 * Who a growth goal is about: "the founders", "CTOs", "marketing leads" in goal_text become the
 * role focus contact discovery applies (title keywords matched against a person's title). A table
 * of phrases, matched word by word in one pass over the text (no regular expression sees it).
 */

/** A phrase (its words, singular) and the title keywords it stands for. */
const ROLE_MENTIONS: { phrase: string[]; titles: string[] }[] = [
  { phrase: ['founder'], titles: ['founder', 'ceo'] },
  { phrase: ['cofounder'], titles: ['founder', 'ceo'] },
  { phrase: ['co', 'founder'], titles: ['founder', 'ceo'] },
  { phrase: ['ceo'], titles: ['ceo', 'founder'] },
  { phrase: ['executive'], titles: ['founder', 'ceo', 'coo', 'cto', 'cfo', 'cmo', 'president'] },
  { phrase: ['decision', 'maker'], titles: ['founder', 'ceo', 'coo', 'cto', 'cfo', 'cmo', 'president', 'head of'] },
  { phrase: ['cto'], titles: ['cto'] },
  { phrase: ['technical', 'lead'], titles: ['cto', 'head of engineering'] },
  { phrase: ['engineering', 'lead'], titles: ['cto', 'head of engineering'] },
  { phrase: ['engineer'], titles: ['engineer', 'cto'] },
  { phrase: ['developer'], titles: ['engineer', 'cto'] },
  { phrase: ['cmo'], titles: ['cmo'] },
  { phrase: ['marketer'], titles: ['marketing', 'cmo', 'growth', 'content'] },
  { phrase: ['marketing'], titles: ['marketing', 'cmo', 'growth', 'content'] },
  { phrase: ['growth', 'lead'], titles: ['growth', 'marketing', 'cmo'] },
  { phrase: ['head', 'of', 'growth'], titles: ['growth', 'marketing', 'cmo'] },
  { phrase: ['product', 'lead'], titles: ['product'] },
  { phrase: ['product', 'manager'], titles: ['product'] },
  { phrase: ['bd'], titles: ['bd', 'business development', 'partnerships', 'ecosystem'] },
  { phrase: ['business', 'development'], titles: ['bd', 'business development', 'partnerships', 'ecosystem'] },
  { phrase: ['partnership'], titles: ['partnerships', 'bd', 'business development'] },
  { phrase: ['community', 'manager'], titles: ['community'] },
  { phrase: ['community', 'lead'], titles: ['community'] },
  { phrase: ['cfo'], titles: ['cfo'] },
  { phrase: ['coo'], titles: ['coo', 'operations'] },
  { phrase: ['operation', 'lead'], titles: ['operations', 'coo'] },
];

const LONGEST = Math.max(...ROLE_MENTIONS.map((m) => m.phrase.length));
const BY_PHRASE = new Map(ROLE_MENTIONS.map((m) => [m.phrase.join(' '), m.titles]));

/** Lower-case words of letters, plurals folded ("CTOs" -> cto, "leads" -> lead, "co-founders" -> co founder). */
function words(text: string): string[] {
  const out: string[] = [];
  let current = '';
  const flush = () => {
    if (!current) return;
    out.push(current.length > 2 && current.endsWith('s') && !current.endsWith('ss') ? current.slice(0, -1) : current);
    current = '';
  };
  for (const ch of text.toLowerCase()) {
    if (ch >= 'a' && ch <= 'z') current += ch;
    else flush();
  }
  flush();
  return out;
}

/** The title keywords of every role the goal names, in the order first named, without repeats. */
export function roleFocusIn(goalText: string): string[] {
  const ws = words(goalText);
  const titles = new Set<string>();
  for (let i = 0; i < ws.length; i++) {
    for (let n = Math.min(LONGEST, ws.length - i); n >= 1; n--) {
      const found = BY_PHRASE.get(ws.slice(i, i + n).join(' '));
      if (found) {
        for (const t of found) titles.add(t);
        i += n - 1;
        break;
      }
    }
  }
  return [...titles];
}
