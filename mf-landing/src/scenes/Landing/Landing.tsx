import { startTransition, useEffect, useState } from 'react';
import styled, { createGlobalStyle } from 'styled-components';
import { FormulaBackground } from '../../components/FormulaBackground';
import { useDropPrerenderedStyles } from '../../components/prerendering';
import { LinkButton, StartAction } from './actions';
import { Header } from './Header';
import { About, Advantages, ClosingCta, Faq, HowItWorks } from './sections';
import { Footer } from './Footer';

/** The public landing page `/`, open to everyone (the route table names it public). */
export function Landing() {
  const rest = useAfterFirstPaint();
  useDropPrerenderedStyles();
  return (
    <>
      <SmoothAnchors />
      <Header />
      <Main>
        <Hero aria-labelledby="hero-title">
          <FormulaBackground />
          <HeroInner>
            <Eyebrow>Конструктор курсов с ИИ</Eyebrow>
            <Title id="hero-title">Создавайте курсы для обучения сотрудников с помощью ИИ</Title>
            <Lead>
              Опишите тему, аудиторию и цели обучения — ИИ построит структуру курса. Вам останется доработать материалы, добавить
              медиа, тесты и запустить обучение.
            </Lead>
            <Actions>
              <StartAction label="Начать обучение" />
              <LinkButton href="#how-it-works" $size="lg" $variant="outline">
                Узнать больше
              </LinkButton>
            </Actions>
          </HeroInner>
        </Hero>
        {rest && <BelowTheFold />}
      </Main>
      {rest && <Footer />}
    </>
  );
}

function BelowTheFold() {
  useScrollToHashOnMount();
  return (
    <>
      <HowItWorks />
      <Advantages />
      <About />
      <Faq />
      <ClosingCta />
    </>
  );
}

/**
 * The hero is what the first paint needs; the sections below it render right after, as a
 * transition React can split into short slices, so the page's largest paint comes one long
 * task sooner and the main thread is never blocked by the whole page at once.
 */
function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => startTransition(() => setReady(true)), []);
  return ready;
}

/**
 * The landing mounts after the page has loaded, so the browser's own jump to `/#faq` found
 * nothing yet: do it once the sections exist.
 */
function useScrollToHashOnMount() {
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView({ block: 'start' });
  }, []);
}

// Only while the landing is mounted: anchors glide (unless motion is reduced) and stop below the sticky header.
const SmoothAnchors = createGlobalStyle`
  html { scroll-padding-top: 80px; }
  @media (prefers-reduced-motion: no-preference) { html { scroll-behavior: smooth; } }
`;

const Main = styled.main`
  overflow-x: clip;
`;
const Hero = styled.section`
  position: relative;
  isolation: isolate;
  display: grid;
  place-items: center;
  min-height: min(760px, calc(100vh - 64px));
  padding: 96px 24px 112px;
  text-align: center;
  @media (max-width: 760px) {
    padding: 56px 20px 72px;
  }
`;
const HeroInner = styled.div`
  position: relative;
  max-width: 860px;
`;
const Eyebrow = styled.p`
  display: inline-block;
  margin: 0 0 20px;
  padding: 6px 14px;
  border-radius: 999px;
  font-size: 14px;
  font-weight: 500;
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  border: 1px solid ${({ theme }) => theme.colors.border};
`;
const Title = styled.h1`
  margin: 0 0 20px;
  font-size: clamp(32px, 6vw, 60px);
  line-height: 1.1;
  letter-spacing: -0.02em;
`;
const Lead = styled.p`
  margin: 0 auto;
  max-width: 680px;
  font-size: clamp(16px, 2.2vw, 20px);
  color: ${({ theme }) => theme.colors.muted};
`;
const Actions = styled.div`
  display: flex;
  gap: 12px;
  justify-content: center;
  flex-wrap: wrap;
  margin-top: 36px;
`;
