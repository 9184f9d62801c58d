const KIB = 1024;
const MIB = 1024 * 1024;

/**
 * A ru-RU number formatter made on its first use, not when the module loads: a page's first
 * NumberFormat sets up ICU's number data, 20–30 ms of a phone's CPU (bench/src/pageprofile.ts), and
 * most pages that load the kit format no size at all.
 */
const formatter = (options: Intl.NumberFormatOptions) => {
  let made: Intl.NumberFormat | undefined;
  return (n: number) => (made ??= new Intl.NumberFormat('ru-RU', options)).format(n);
};

const whole = formatter({ maximumFractionDigits: 0 });
const kilo = formatter({ maximumFractionDigits: 1 });
// The spec's two decimals for megabytes.
const mega = formatter({ minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A size in bytes as a person reads it: «44 Б», «1,5 КБ», «12,34 МБ» (ru-RU digits, a no-break space before the unit). */
export function formatFileSize(bytes: number): string {
  const n = Math.max(0, Number.isFinite(bytes) ? bytes : 0);
  if (n < KIB) return `${whole(n)}\u00a0Б`;
  // 1023.96 KiB would round to «1024 КБ»: that is already a megabyte.
  if (n < MIB - KIB / 20) return `${kilo(n / KIB)}\u00a0КБ`;
  return `${mega(n / MIB)}\u00a0МБ`;
}

/**
 * The size of a file block: its exact `bytes` when known, otherwise the spec's `size` string in
 * megabytes. null when nothing is known (a block stored before `bytes` with «0.00»).
 */
export function fileSizeLabel(content: { bytes?: number; size?: string | number }): string | null {
  if (typeof content.bytes === 'number') return formatFileSize(content.bytes);
  const mb = typeof content.size === 'number' ? content.size : Number.parseFloat(String(content.size ?? '').replace(',', '.'));
  if (!Number.isFinite(mb) || mb <= 0) return null;
  return formatFileSize(Math.round(mb * MIB));
}
