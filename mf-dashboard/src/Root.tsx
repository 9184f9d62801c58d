import { useScene, type Scenes } from '@portal/web-core';
import { AssignmentDetail } from './scenes/Assignment/Assignment';
import { Assignments } from './scenes/Assignments/Assignments';
import { Dashboard } from './scenes/Dashboard/Dashboard';

const SCENES: Scenes<'mf_dashboard'> = {
  dashboard: () => <Dashboard />,
  assignments: () => <Assignments />,
  assignment: ({ id }) => <AssignmentDetail key={id} id={id} />,
};

/** The scenes of this micro-frontend; which path shows which is the route table's (web-core). */
export const Root = () => useScene('mf_dashboard', SCENES);
