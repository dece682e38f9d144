/**
 * Cutting text for a field with a length limit without splitting what a reader sees as one character:
 * an emoji with its modifiers, a flag, a letter with its accents (grapheme clusters). A cut through a
 * surrogate pair leaves a broken character that platforms refuse or show as a box.
 */
const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/**
 * `text` itself when it fits in `max` UTF-16 code units (the unit JavaScript and the platforms' limits
 * count), else its longest start of whole graphemes that fits with `ending` after it.
 */
export function cutText(text: string, max: number, ending = ''): string {
  if (text.length <= max) return text;
  let out = '';
  for (const { segment } of graphemes.segment(text)) {
    if (out.length + segment.length + ending.length > max) break;
    out += segment;
  }
  return `${out}${ending}`;
}
