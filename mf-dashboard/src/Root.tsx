import { useScene, type Scenes } from '@portal/web-core';
import { AssignmentDetail } from './scenes/Assignment/Assignment';
import { AssignmentPerson } from './scenes/AssignmentPerson/AssignmentPerson';
import { Assignments } from './scenes/Assignments/Assignments';
import { Dashboard } from './scenes/Dashboard/Dashboard';
import { QuizAnalysis } from './scenes/QuizAnalysis/QuizAnalysis';

const SCENES: Scenes<'mf_dashboard'> = {
  dashboard: () => <Dashboard />,
  assignments: () => <Assignments />,
  assignment: ({ id }) => <AssignmentDetail key={id} id={id} />,
  assignmentPerson: ({ userId }) => <AssignmentPerson key={userId} userId={userId} />,
  quizAnalysis: ({ quizId }) => <QuizAnalysis key={quizId} quizId={quizId} />,
};

/** The scenes of this micro-frontend; which path shows which is the route table's (web-core). */
export const Root = () => useScene('mf_dashboard', SCENES);
