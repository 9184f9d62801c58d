import { darkTheme, lightTheme, type PortalTheme } from './theme';

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

describe.each([
  ['light', lightTheme],
  ['dark', darkTheme],
] as [string, PortalTheme][])('the %s theme', (_, theme) => {
  const { bg, surface, surfaceAlt, dangerBg } = theme.colors;
  it('writes warnings readably (at least 4.5:1) on every background they are shown on', () => {
    for (const background of [bg, surface, surfaceAlt, dangerBg])
      expect(contrast(theme.colors.warning, background)).toBeGreaterThanOrEqual(4.5);
  });
});
