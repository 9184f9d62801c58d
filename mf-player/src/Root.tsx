import { useScene, type Scenes } from '@portal/web-core';
import { CandidateLinks } from './scenes/CandidateLinks/CandidateLinks';
import { CandidateTest } from './scenes/CandidateTest/CandidateTest';
import { Results } from './scenes/Results/Results';
import { Reviews } from './scenes/Reviews/Reviews';
import { StudyMode } from './scenes/StudyMode/StudyMode';

const SCENES: Scenes<'mf_player'> = {
  study: ({ courseId }) => <StudyMode key={courseId} courseId={courseId} />,
  results: () => <Results />,
  reviews: () => <Reviews />,
  candidateLinks: () => <CandidateLinks />,
  candidateTest: ({ token }) => <CandidateTest key={token} token={token} />,
};

/** The scenes of this micro-frontend; which path shows which is the route table's (web-core). */
export const Root = () => useScene('mf_player', SCENES);
