export const lightTheme = {
  dark: false,
  colors: {
    bg: '#f6f7fb',
    surface: '#ffffff',
    surfaceAlt: '#eef0f6',
    text: '#14161f',
    muted: '#5b6172',
    border: '#d9dce6',
    primary: '#4f46e5',
    primaryText: '#ffffff',
    danger: '#c62828',
    dangerBg: '#fdecec',
    success: '#1b7f3a',
    warning: '#8f5c00',
    focus: '#818cf8',
  },
  radius: '10px',
  shadow: '0 1px 3px rgba(16, 24, 40, 0.08), 0 1px 2px rgba(16, 24, 40, 0.04)',
  font: "'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
};

export type PortalTheme = typeof lightTheme;

export const darkTheme: PortalTheme = {
  ...lightTheme,
  dark: true,
  colors: {
    bg: '#0f1117',
    surface: '#171a23',
    surfaceAlt: '#1f2330',
    text: '#eef0f6',
    muted: '#a3a9ba',
    border: '#2c3242',
    primary: '#8b85ff',
    primaryText: '#0f1117',
    danger: '#ff8a80',
    dangerBg: '#3a1d1d',
    success: '#6fdc8c',
    warning: '#f5c04e',
    focus: '#a5b4fc',
  },
};

declare module 'styled-components' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface DefaultTheme extends PortalTheme {}
}
