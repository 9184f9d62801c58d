import { lazy, Suspense } from 'react';
import { PageLoading } from '@portal/ui';
import { useScene, type Scenes } from '@portal/web-core';
import { AssignmentDetail } from './scenes/Assignment/Assignment';
import { AssignmentPerson } from './scenes/AssignmentPerson/AssignmentPerson';
import { Assignments } from './scenes/Assignments/Assignments';
import { Dashboard } from './scenes/Dashboard/Dashboard';
import { QuizAnalysis } from './scenes/QuizAnalysis/QuizAnalysis';

// Learning programs come only when asked for: the dashboard is what everyone opens first.
const Programs = lazy(() => import('./scenes/Programs/Programs').then((m) => ({ default: m.Programs })));
const ProgramEditor = lazy(() => import('./scenes/ProgramEditor/ProgramEditor').then((m) => ({ default: m.ProgramEditor })));
const ProgramReport = lazy(() => import('./scenes/ProgramReport/ProgramReport').then((m) => ({ default: m.ProgramReport })));
const ProgramPerson = lazy(() => import('./scenes/ProgramPerson/ProgramPerson').then((m) => ({ default: m.ProgramPerson })));
const MyPrograms = lazy(() => import('./scenes/MyPrograms/MyPrograms').then((m) => ({ default: m.MyPrograms })));
const MyProgram = lazy(() => import('./scenes/MyProgram/MyProgram').then((m) => ({ default: m.MyProgram })));

const SCENES: Scenes<'mf_dashboard'> = {
  dashboard: () => <Dashboard />,
  assignments: () => <Assignments />,
  assignment: ({ id }) => <AssignmentDetail key={id} id={id} />,
  assignmentPerson: ({ userId }) => <AssignmentPerson key={userId} userId={userId} />,
  quizAnalysis: ({ quizId }) => <QuizAnalysis key={quizId} quizId={quizId} />,
  programs: () => <Programs />,
  programEditor: ({ id }) => <ProgramEditor key={id} id={id} />,
  programReport: ({ id }) => <ProgramReport key={id} id={id} />,
  programPerson: ({ id, userId }) => <ProgramPerson key={`${id}/${userId}`} id={id} userId={userId} />,
  myPrograms: () => <MyPrograms />,
  myProgram: ({ assignmentId }) => <MyProgram key={assignmentId} assignmentId={assignmentId} />,
};

/** The scenes of this micro-frontend; which path shows which is the route table's (web-core). */
export function Root() {
  return <Suspense fallback={<PageLoading />}>{useScene('mf_dashboard', SCENES)}</Suspense>;
}
