import type { ReactNode } from 'react';
import styled, { css } from 'styled-components';
import { PlainList } from '@portal/ui';
import { Accordion } from '../../components/Accordion';
import { Icon, IconTile } from '../../components/icons';
import { revealStyles, useReveal } from '../../components/reveal';
import { LinkButton, navigateOnClick, StartAction } from './actions';
import { ADVANTAGES, CLAIMS, CLAIMS_NOTE, DEMO_PATH, FAQ, STEPS } from './content';

function Section({ id, title, intro, children }: { id: string; title: string; intro?: string; children: ReactNode }) {
  return (
    <Block id={id} aria-labelledby={`${id}-title`}>
      <Head>
        <h2 id={`${id}-title`}>{title}</h2>
        {intro && <p>{intro}</p>}
      </Head>
      {children}
    </Block>
  );
}

export function HowItWorks() {
  return (
    <Section id="how-it-works" title="Как это работает" intro="От идеи до готового курса — четыре шага.">
      <Steps>
        {STEPS.map((step, i) => (
          <RevealCard
            key={step.title}
            order={i}
            badge={<StepNumber aria-hidden="true">{String(i + 1).padStart(2, '0')}</StepNumber>}
            {...step}
          />
        ))}
      </Steps>
    </Section>
  );
}

export function Advantages() {
  return (
    <Section id="advantages" title="Преимущества" intro="Всё, что нужно, чтобы создавать курсы быстрее и учить эффективнее.">
      <Cards>
        {ADVANTAGES.map(({ icon, ...item }, i) => (
          <RevealCard
            key={item.title}
            order={i % 3}
            highlight
            badge={
              <IconBadge>
                <Icon name={icon} />
              </IconBadge>
            }
            {...item}
          />
        ))}
      </Cards>
    </Section>
  );
}

interface RevealCardProps {
  /** Its place in its row: the later, the later it rises. */
  order: number;
  /** What stands above the title: a step's number, an icon. */
  badge: ReactNode;
  title: string;
  text: string;
  /** Outlined in the brand colour under the pointer. */
  highlight?: boolean;
}

/** A card of a list that rises into view when scrolled to: its badge, title and text. */
function RevealCard({ order, badge, title, text, highlight = false }: RevealCardProps) {
  const [ref, revealed] = useReveal<HTMLLIElement>();
  return (
    <Card ref={ref} data-revealed={revealed} $order={order} $highlight={highlight} data-testid="reveal-card">
      {badge}
      <h3>{title}</h3>
      <p>{text}</p>
    </Card>
  );
}

export function About() {
  return (
    <Section id="about" title="О проекте">
      <AboutText>
        <p>
          Учебный портал помогает преподавателям, авторам курсов и HR-командам быстро собирать обучающие программы для
          сотрудников. ИИ берёт на себя рутину — структуру курса, черновики уроков и заданий, — а автор сосредотачивается на
          содержании.
        </p>
        <p>
          Ученики проходят уроки в своём темпе, сдают тесты и сразу видят результаты, а авторы следят за прогрессом и улучшают
          курсы.
        </p>
      </AboutText>
      <Claims aria-describedby="claims-note">
        {CLAIMS.map((claim) => (
          <div key={claim.label}>
            <dt>{claim.label}</dt>
            <dd>
              {claim.value}
              <sup aria-hidden="true">*</sup>
            </dd>
          </div>
        ))}
      </Claims>
      <Note id="claims-note">
        <span aria-hidden="true">* </span>
        {CLAIMS_NOTE}
      </Note>
    </Section>
  );
}

export function Faq() {
  return (
    <Section id="faq" title="Частые вопросы">
      <Accordion items={FAQ.map((item) => ({ title: item.question, content: <p>{item.answer}</p> }))} />
    </Section>
  );
}

export function ClosingCta() {
  return (
    <Closing aria-labelledby="closing-title">
      <h2 id="closing-title">Готовы создать свой первый курс?</h2>
      <p>Опишите тему — и через несколько минут у вас будет структура курса, которую останется наполнить.</p>
      <Row>
        <StartAction label="Начать бесплатно" />
        <LinkButton href={DEMO_PATH} onClick={navigateOnClick(DEMO_PATH)} $size="lg" $variant="outline">
          Посмотреть демо
        </LinkButton>
      </Row>
    </Closing>
  );
}

const Block = styled.section`
  max-width: 1180px;
  margin: 0 auto;
  padding: 88px 24px;
`;
const Head = styled.div`
  max-width: 720px;
  margin: 0 auto 48px;
  text-align: center;
  h2 {
    margin: 0 0 12px;
    font-size: clamp(28px, 4vw, 40px);
    line-height: 1.2;
    letter-spacing: -0.01em;
  }
  p {
    margin: 0;
    font-size: 18px;
    color: ${({ theme }) => theme.colors.muted};
  }
`;
const Card = styled.li<{ $order: number; $highlight: boolean }>`
  ${revealStyles}
  padding: 28px 24px;
  border-radius: 16px;
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  h3 {
    margin: 0 0 8px;
    font-size: 19px;
  }
  p {
    margin: 0;
    color: ${({ theme }) => theme.colors.muted};
  }
  ${({ $highlight, theme }) =>
    $highlight &&
    css`
      transition-property: opacity, transform, border-color;
      &:hover {
        border-color: ${theme.colors.primary};
      }
    `}
`;
const Steps = styled(PlainList).attrs({ as: 'ol', $gap: 20 })`
  grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
`;
const StepNumber = styled.span`
  display: block;
  margin-bottom: 16px;
  font-size: 36px;
  font-weight: 800;
  line-height: 1;
  color: ${({ theme }) => theme.colors.primary};
`;
const Cards = styled(PlainList).attrs({ $gap: 20 })`
  grid-template-columns: repeat(auto-fit, minmax(300px, 1fr));
`;
const IconBadge = styled(IconTile).attrs({ $size: 48, $radius: 12 })`
  margin-bottom: 16px;
  color: ${({ theme }) => theme.colors.primary};
  background: ${({ theme }) => theme.colors.surfaceAlt};
`;
const AboutText = styled.div`
  max-width: 760px;
  margin: 0 auto 48px;
  font-size: 18px;
  text-align: center;
  p {
    margin: 0 0 16px;
  }
`;
const Claims = styled.dl`
  margin: 0;
  display: grid;
  gap: 16px;
  /* Two rows of three: six cards of 170 px in one row left «50 000+» wider than its card. */
  grid-template-columns: repeat(3, minmax(0, 1fr));
  @media (max-width: 720px) {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }
  @media (max-width: 480px) {
    grid-template-columns: minmax(0, 1fr);
  }
  div {
    display: flex;
    flex-direction: column-reverse;
    justify-content: flex-end;
    gap: 6px;
    padding: 24px 16px;
    text-align: center;
    border-radius: 16px;
    background: ${({ theme }) => theme.colors.surface};
    border: 1px solid ${({ theme }) => theme.colors.border};
  }
  dt {
    color: ${({ theme }) => theme.colors.muted};
    font-size: 15px;
  }
  dd {
    margin: 0;
    font-size: 34px;
    font-weight: 800;
    line-height: 1.1;
    color: ${({ theme }) => theme.colors.text};
  }
  sup {
    font-size: 18px;
    color: ${({ theme }) => theme.colors.muted};
  }
`;
const Note = styled.p`
  margin: 20px auto 0;
  max-width: 760px;
  text-align: center;
  font-size: 14px;
  color: ${({ theme }) => theme.colors.muted};
`;
const Closing = styled.section`
  max-width: 1180px;
  margin: 0 auto 96px;
  padding: 64px 24px;
  text-align: center;
  border-radius: 24px;
  background: linear-gradient(135deg, ${({ theme }) => theme.colors.surfaceAlt}, ${({ theme }) => theme.colors.surface});
  border: 1px solid ${({ theme }) => theme.colors.border};
  h2 {
    margin: 0 0 12px;
    font-size: clamp(26px, 4vw, 38px);
  }
  p {
    margin: 0 auto;
    max-width: 620px;
    font-size: 18px;
    color: ${({ theme }) => theme.colors.muted};
  }
  @media (max-width: 1228px) {
    margin: 0 24px 96px;
  }
`;
const Row = styled.div`
  display: flex;
  gap: 12px;
  justify-content: center;
  flex-wrap: wrap;
  margin-top: 32px;
`;
