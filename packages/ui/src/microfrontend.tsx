import React, { startTransition, type ComponentType, type ReactNode } from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import styled, { ThemeProvider } from 'styled-components';
import { AuthProvider, reportInstances, useDarkMode } from '@portal/web-core';
import { darkTheme, lightTheme } from './theme';
import { GlobalStyle } from './components';
import { ToastProvider } from './Toast';

/**
 * The providers every micro-frontend root sits in: one theme, one auth state, its toasts. A root that
 * reads server lists also sits in the query cache (`withQueries`, ./queries).
 */
export function PortalProviders({ children, global = false }: { children: ReactNode; global?: boolean }) {
  const [dark] = useDarkMode();
  return (
    <ThemeProvider theme={dark ? darkTheme : lightTheme}>
      {global && <GlobalStyle />}
      <AuthProvider>
        <ToastProvider>{children}</ToastProvider>
      </AuthProvider>
    </ThemeProvider>
  );
}

/** Each application mounts into its own element inside the shell's main area. */
export const mountPoint = (name: string) => (): HTMLElement => {
  const id = `app-${name}`;
  let el = document.getElementById(id);
  if (!el) {
    el = document.createElement('div');
    el.id = id;
    (document.getElementById('portal-main') ?? document.body).appendChild(el);
  }
  return el;
};

/**
 * React's client whose roots render in a transition. An update outside one renders in a single task
 * however long the tree; in a transition React yields to the browser every few milliseconds, so a
 * page's first render does not block input, a phone's main thread stays free between the slices.
 */
const slicedClient: Pick<typeof ReactDOMClient, 'createRoot'> = {
  createRoot(container, options) {
    const root = ReactDOMClient.createRoot(container, options);
    return { render: (children) => startTransition(() => root.render(children)), unmount: () => root.unmount() };
  },
};

/** single-spa lifecycles for a micro-frontend's root component. */
export function createLifecycles(
  name: string,
  Root: ComponentType,
  { global = false, element }: { global?: boolean; element?: () => HTMLElement } = {},
) {
  reportInstances(name, React, styled);
  const App = () => (
    <PortalProviders global={global}>
      <Root />
    </PortalProviders>
  );
  return singleSpaReact({
    React,
    ReactDOMClient: slicedClient,
    rootComponent: App,
    domElementGetter: element ?? mountPoint(name),
    // Rendered outside the providers, so it carries its own colours.
    errorBoundary: () => (
      <div role="alert" style={{ margin: 24, padding: 16, borderRadius: 10, border: '1px solid #c62828', color: '#c62828' }}>
        Не удалось показать этот раздел. Обновите страницу.
      </div>
    ),
  });
}
