import styled from 'styled-components';
import { homePathFor } from '@portal/contracts';
import { Button } from '@portal/ui';
import { navigate, useAuth } from '@portal/web-core';

const STEPS = [
  { title: 'Опишите тему', text: 'Укажите тему, аудиторию и цели обучения.' },
  { title: 'ИИ создаст структуру', text: 'Модули, уроки и задания появятся за минуты.' },
  { title: 'Настройте контент', text: 'Отредактируйте материалы, добавьте медиа и тесты.' },
  { title: 'Запустите курс', text: 'Опубликуйте курс и следите за прогрессом сотрудников.' },
];

/** The public landing page (the full page with all its sections is its own issue). */
export function Landing() {
  const { user } = useAuth();
  const go = (path: string) => () => navigate(path);
  return (
    <Main>
      <Hero>
        <h1>Создавайте курсы для обучения сотрудников с помощью ИИ</h1>
        <p>Конструктор курсов, квизы, прогресс и результаты — в одном портале.</p>
        <Actions>
          {user ? (
            <Button $size="lg" onClick={go(homePathFor(user.role))}>
              Перейти в портал
            </Button>
          ) : (
            <>
              <Button $size="lg" onClick={go('/auth')}>
                Начать обучение
              </Button>
              <Button $size="lg" $variant="outline" onClick={go('/auth')}>
                Начать бесплатно
              </Button>
            </>
          )}
        </Actions>
      </Hero>
      <section id="how-it-works" aria-labelledby="how-title">
        <h2 id="how-title">Как это работает</h2>
        <Steps>
          {STEPS.map((step, i) => (
            <li key={step.title}>
              <strong>
                {i + 1}. {step.title}
              </strong>
              <span>{step.text}</span>
            </li>
          ))}
        </Steps>
      </section>
    </Main>
  );
}

const Main = styled.main`
  max-width: 1100px; margin: 0 auto; padding: 64px 24px;
`;
const Hero = styled.section`
  text-align: center; padding: 48px 0;
  h1 { font-size: clamp(28px, 5vw, 48px); margin: 0 0 16px; }
  p { color: ${({ theme }) => theme.colors.muted}; font-size: 18px; }
`;
const Actions = styled.div`
  display: flex; gap: 12px; justify-content: center; flex-wrap: wrap; margin-top: 24px;
`;
const Steps = styled.ol`
  list-style: none; padding: 0; display: grid; gap: 16px; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr));
  li { display: grid; gap: 6px; padding: 20px; border-radius: 10px; background: ${({ theme }) => theme.colors.surface}; border: 1px solid ${({ theme }) => theme.colors.border}; }
  span { color: ${({ theme }) => theme.colors.muted}; }
`;
