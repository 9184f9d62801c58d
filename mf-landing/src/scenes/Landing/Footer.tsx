import styled from 'styled-components';
import { FOOTER_GROUPS } from './content';
import { BRAND } from './Header';

const year = new Date().getFullYear();

/**
 * Company and legal links. Only 'О нас' has somewhere to go (the page's own 'about' section); the
 * others have no pages yet (spec: placeholders), so they are shown as coming rather than as
 * links that lead nowhere.
 */
export function Footer() {
  return (
    <Bottom>
      <Inner>
        <About>
          <strong>{BRAND}</strong>
          <p>Конструктор курсов с ИИ для обучения сотрудников.</p>
        </About>
        {FOOTER_GROUPS.map((group, i) => (
          <nav key={group.title} aria-labelledby={`footer-group-${i}`}>
            <h2 id={`footer-group-${i}`}>{group.title}</h2>
            <ul>
              {group.links.map((link) => (
                <li key={link.label}>
                  {link.href ? (
                    <a href={link.href}>{link.label}</a>
                  ) : (
                    <span>
                      {link.label} <Soon>скоро</Soon>
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </Inner>
      <Copyright>
        © {year} {BRAND}
      </Copyright>
    </Bottom>
  );
}

const Bottom = styled.footer`
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.muted};
  font-size: 15px;
`;
const Inner = styled.div`
  max-width: 1180px;
  margin: 0 auto;
  padding: 48px 24px 24px;
  display: grid;
  gap: 32px;
  grid-template-columns: 2fr 1fr 1fr;
  @media (max-width: 760px) {
    grid-template-columns: 1fr;
  }
  h2 {
    margin: 0 0 12px;
    font-size: 15px;
    font-weight: 600;
    color: ${({ theme }) => theme.colors.text};
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 8px;
  }
  a {
    color: ${({ theme }) => theme.colors.muted};
    text-decoration: none;
  }
  a:hover {
    color: ${({ theme }) => theme.colors.text};
    text-decoration: underline;
  }
`;
const About = styled.div`
  strong {
    color: ${({ theme }) => theme.colors.text};
    font-size: 17px;
  }
  p {
    margin: 8px 0 0;
    max-width: 320px;
  }
`;
const Soon = styled.span`
  margin-left: 4px;
  padding: 1px 8px;
  border-radius: 999px;
  font-size: 12px;
  border: 1px solid ${({ theme }) => theme.colors.border};
`;
const Copyright = styled.p`
  max-width: 1180px;
  margin: 0 auto;
  padding: 16px 24px 32px;
  font-size: 14px;
`;
