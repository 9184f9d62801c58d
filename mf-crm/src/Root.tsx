import { useEffect } from 'react';
import { navigate, paths, useScene, type Scenes } from '@portal/web-core';
import { Directory } from './scenes/Directory/Directory';
import { DirectorySync } from './scenes/DirectorySync/DirectorySync';
import { Organization } from './scenes/Organization/Organization';
import { Organizations } from './scenes/Organizations/Organizations';
import { StaffImport } from './scenes/StaffImport/StaffImport';
import { SubjectRequests } from './scenes/SubjectRequests/SubjectRequests';

/** /crm itself is the organizations list. */
function Home() {
  useEffect(() => navigate(paths.organizations(), { replace: true }), []);
  return null;
}

const SCENES: Scenes<'mf_crm'> = {
  home: () => <Home />,
  organizations: () => <Organizations />,
  // Keyed, so moving between organizations starts each screen afresh.
  organization: ({ id }) => <Organization key={id} id={id} />,
  contacts: () => <Directory />,
  subjectRequests: () => <SubjectRequests />,
  staffImport: () => <StaffImport />,
  directorySync: () => <DirectorySync />,
};

/** The scenes of this micro-frontend; which path shows which is the route table's (web-core). */
export const Root = () => useScene('mf_crm', SCENES);
