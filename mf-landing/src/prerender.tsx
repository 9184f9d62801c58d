/**
 * The landing's first view as HTML, rendered at build time from the same components: the shell's
 * build writes it into `landing.html`, which the gateway (and the shell's image) serve for `/`. A
 * visitor's phone paints the hero from the page itself instead of after the shell, the remote and
 * React have loaded and rendered it; the landing then renders over it as before (React replaces a
 * container's children on its first commit), in the same places, so nothing moves.
 *
 * It is a visitor's view in the dark theme: the page's boot script (`PAGE_BOOT_SCRIPT`) hides it
 * from a light-theme visitor and a signed-in one. Only what the first render shows is here (the
 * header and the hero); the sections below come with the scripts.
 *
 *   node --conditions=source --import tsx mf-landing/src/prerender.tsx   → {"html": …, "css": …}
 */
import { renderToString } from 'react-dom/server';
import { ServerStyleSheet } from 'styled-components';
import { PortalProviders } from '@portal/ui';
import { authStore } from '@portal/web-core';
import { PRERENDERED_CSS_ATTR, Prerendering } from './components/prerendering';
import { Landing } from './scenes/Landing/Landing';

export interface PrerenderedPage {
  /** The markup of the landing's root. */
  html: string;
  /** Its styled-components rules, as the <style> elements for the page's head. */
  css: string;
}

export async function prerenderLanding(): Promise<PrerenderedPage> {
  // No stored session here: the check settles at once as a visitor's.
  await authStore.start();
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(
      sheet.collectStyles(
        <Prerendering.Provider value>
          <PortalProviders global>
            <Landing />
          </PortalProviders>
        </Prerendering.Provider>,
      ),
    );
    // Marked as the pre-render's own, not styled-components' (`data-styled`): the client's library
    // would otherwise read every rule back in as the page starts, a long task on a phone, for rules
    // its own render writes again under its own names. The landing drops them once it has rendered.
    const css = sheet.getStyleTags().replace(/ data-styled="true" data-styled-version="[^"]*"/g, ` ${PRERENDERED_CSS_ATTR}`);
    if (!css.includes(PRERENDERED_CSS_ATTR))
      throw new Error('styled-components wrote its <style> elements differently: prerender.tsx must mark them');
    return { html, css };
  } finally {
    sheet.seal();
  }
}

if (require.main === module) {
  prerenderLanding().then(
    (page) => process.stdout.write(JSON.stringify(page)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
