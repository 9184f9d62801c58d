import { useSyncExternalStore } from 'react';

export const DARK_MODE_KEY = 'darkMode';
const TRANSITION_MS = 600;

const readDark = (): boolean => {
  try {
    return localStorage.getItem(DARK_MODE_KEY) !== 'false'; // dark unless the person chose light
  } catch {
    return true;
  }
};

type Listener = () => void;
const listeners = new Set<Listener>();
let dark = typeof window === 'undefined' ? true : readDark();

const apply = () => {
  if (typeof document !== 'undefined') document.documentElement.classList.toggle('dark', dark);
};
apply();

export const themeStore = {
  isDark: () => dark,
  subscribe: (listener: Listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  toggle() {
    dark = !dark;
    localStorage.setItem(DARK_MODE_KEY, String(dark));
    // The colours fade over TRANSITION_MS, unless the person asked their system for less motion.
    if (!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) {
      const root = document.documentElement;
      root.classList.add('theme-transition');
      window.setTimeout(() => root.classList.remove('theme-transition'), TRANSITION_MS);
    }
    apply();
    listeners.forEach((l) => l());
  },
};

export const useDarkMode = (): [boolean, () => void] => [
  // The server's snapshot is the pre-rendered landing's: dark, the default.
  useSyncExternalStore(themeStore.subscribe, themeStore.isDark, themeStore.isDark),
  themeStore.toggle,
];
