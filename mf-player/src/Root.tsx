import { lazy, Suspense } from 'react';
import { PageLoading } from '@portal/ui';
import { useScene, type Scenes } from '@portal/web-core';
import { StudyMode } from './scenes/StudyMode/StudyMode';

// Study mode is what a learner opens most, on any device: the other screens come only when asked for.
const Results = lazy(() => import('./scenes/Results/Results').then((m) => ({ default: m.Results })));
const Reviews = lazy(() => import('./scenes/Reviews/Reviews').then((m) => ({ default: m.Reviews })));
const CandidateLinks = lazy(() => import('./scenes/CandidateLinks/CandidateLinks').then((m) => ({ default: m.CandidateLinks })));
const CandidateTest = lazy(() => import('./scenes/CandidateTest/CandidateTest').then((m) => ({ default: m.CandidateTest })));

const SCENES: Scenes<'mf_player'> = {
  study: ({ courseId }) => <StudyMode key={courseId} courseId={courseId} />,
  results: () => <Results />,
  reviews: () => <Reviews />,
  candidateLinks: () => <CandidateLinks />,
  candidateTest: ({ token }) => <CandidateTest key={token} token={token} />,
};

/** The scenes of this micro-frontend; which path shows which is the route table's (web-core). */
export function Root() {
  return <Suspense fallback={<PageLoading />}>{useScene('mf_player', SCENES)}</Suspense>;
}
