import DOMPurify from 'dompurify';
import styled, { css } from 'styled-components';
import { RICH_TEXT } from '@portal/contracts';

const ALLOWED_URI = new RegExp(`^(?:${RICH_TEXT.schemes.join('|')}):`, 'i');

// Links of a lesson open beside it, so a learner does not lose the place they study.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});

/**
 * A text block's html as the browser may show or send it (docs/frontend.md «Rich text»): the tags of RICH_TEXT, links to
 * http(s) and mailto only. The editor cleans what it saves, the player what it shows; the content
 * service cleans again, so neither side trusts the other.
 */
export const sanitizeRichHtml = (html: string): string =>
  DOMPurify.sanitize(html, {
    ALLOWED_TAGS: [...RICH_TEXT.tags],
    ALLOWED_ATTR: [...RICH_TEXT.attributes.a, 'target', 'rel'],
    ALLOWED_URI_REGEXP: ALLOWED_URI,
  }).trim();

/** A text block as a learner reads it: its rich text when it has one, else the plain text as written. */
export function RichTextView({ content }: { content: { text: string; html?: string } }) {
  if (content.html) return <Prose dangerouslySetInnerHTML={{ __html: sanitizeRichHtml(content.html) }} />;
  return <Plain>{content.text}</Plain>;
}

const Plain = styled.p`
  margin: 0;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;
/** How rich text reads, the same in the editor (on ProseMirror's element) and in study mode. */
export const proseStyles = css`
  overflow-wrap: anywhere;
  line-height: 1.55;
  > :first-child {
    margin-top: 0;
  }
  > :last-child {
    margin-bottom: 0;
  }
  p,
  ul,
  ol,
  blockquote {
    margin: 0 0 0.75em;
  }
  h2,
  h3,
  h4 {
    margin: 1em 0 0.5em;
    line-height: 1.25;
  }
  ul,
  ol {
    padding-left: 1.5em;
  }
  blockquote {
    padding-left: 12px;
    border-left: 3px solid ${({ theme }) => theme.colors.border};
    color: ${({ theme }) => theme.colors.muted};
  }
  a {
    color: ${({ theme }) => theme.colors.primary};
    text-decoration: underline;
  }
`;
const Prose = styled.div`
  ${proseStyles}
`;
