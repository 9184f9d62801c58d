import sanitizeHtml from 'sanitize-html';
import { Parser } from 'htmlparser2';
import { RICH_TEXT } from '@portal/contracts';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT.tags],
  allowedAttributes: { a: [...RICH_TEXT.attributes.a] },
  allowedSchemes: [...RICH_TEXT.schemes],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Word and Google Docs name the same things differently; the rest of their markup goes.
  transformTags: { b: 'strong', i: 'em', h1: 'h2', h5: 'h4', h6: 'h4', strike: 's', del: 's' },
  // A script's or a style's text is not text a person wrote.
  nonTextTags: ['script', 'style', 'textarea', 'noscript', 'title', 'head'],
};

/**
 * A text block's html as it may be stored (docs/frontend.md «Rich text»): only the tags and attributes of RICH_TEXT,
 * links only to http(s) and mailto. A crafted PATCH cannot store a script, an on* handler or a
 * javascript: link; the player sanitises again on the way out.
 */
export const sanitizeRichHtml = (html: string): string => sanitizeHtml(html, OPTIONS).trim();

const BLOCKS = new Set(['p', 'h2', 'h3', 'h4', 'li', 'blockquote', 'ul', 'ol']);

/**
 * The plain rendition of sanitised html, kept as the block's `text` (the spec's content stays
 * readable as text): one line a paragraph, heading or list item, «• » before a list item.
 */
export function richHtmlToText(html: string): string {
  const lines: string[] = [];
  let line = '';
  // Set by <li> and used by the item's first line, whether its text is in the <li> or in a <p> inside it (TipTap's).
  let bullet = false;
  const flush = () => {
    const text = line.trim();
    if (text) {
      lines.push(bullet ? `• ${text}` : text);
      bullet = false;
    }
    line = '';
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (BLOCKS.has(name)) flush();
        if (name === 'li') bullet = true;
        if (name === 'br') line += '\n';
      },
      ontext(text) {
        line += text.replace(/\s+/g, ' ');
      },
      onclosetag(name) {
        if (BLOCKS.has(name)) flush();
        if (name === 'li') bullet = false;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return lines.join('\n');
}
