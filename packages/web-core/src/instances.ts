/**
 * Records which React and styled-components objects each micro-frontend runs with, so a test (or a
 * curious developer) can prove there is exactly one of each on the page.
 */
export function reportInstances(app: string, react: object, styled: object): void {
  const w = window as unknown as { __portalInstances?: { apps: string[]; react: Set<object>; styled: Set<object> } };
  w.__portalInstances ??= { apps: [], react: new Set(), styled: new Set() };
  w.__portalInstances.apps.push(app);
  w.__portalInstances.react.add(react);
  w.__portalInstances.styled.add(styled);
}
