import { fileSizeLabel, formatFileSize } from './format';

const nb = (s: string) => s.replace(/ /g, '\u00a0');

describe('formatFileSize: Б, КБ or МБ as the size asks', () => {
  it('reads bytes below a kilobyte as bytes, not «0.00 МБ»', () => {
    expect(formatFileSize(44)).toBe(nb('44 Б'));
    expect(formatFileSize(0)).toBe(nb('0 Б'));
    expect(formatFileSize(1023)).toMatch(/^1\s?023\u00a0Б$/);
  });

  it('reads kilobytes with at most one decimal, in Russian digits', () => {
    expect(formatFileSize(1024)).toBe(nb('1 КБ'));
    expect(formatFileSize(1536)).toBe(nb('1,5 КБ'));
    expect(formatFileSize(200 * 1024 + 100)).toBe(nb('200,1 КБ'));
  });

  it('keeps the spec’s two decimals for megabytes', () => {
    expect(formatFileSize(1024 * 1024)).toBe(nb('1,00 МБ'));
    expect(formatFileSize(1024 * 1024 - 10)).toBe(nb('1,00 МБ'));
    expect(formatFileSize(12.345 * 1024 * 1024)).toBe(nb('12,35 МБ'));
  });
});

describe('fileSizeLabel: a file block’s size', () => {
  it('prefers the exact bytes', () => {
    expect(fileSizeLabel({ bytes: 44, size: '0.00' })).toBe(nb('44 Б'));
  });
  it('falls back to the stored megabytes, and says nothing when they are unknown', () => {
    expect(fileSizeLabel({ size: '2.50' })).toBe(nb('2,50 МБ'));
    expect(fileSizeLabel({ size: '0.50' })).toBe(nb('512 КБ'));
    expect(fileSizeLabel({ size: '0.00' })).toBeNull();
    expect(fileSizeLabel({})).toBeNull();
  });
});
