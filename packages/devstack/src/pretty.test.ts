import { prettyLines } from './pretty';

describe('log lines shown in a terminal', () => {
  it('turns each JSON line into one readable line, holds a line cut in two, and passes other text as it is', () => {
    const show = prettyLines('gateway  | ', { colorize: false });
    const access = JSON.stringify({
      level: 30,
      time: Date.UTC(2026, 0, 1),
      pid: 1,
      hostname: 'h',
      name: 'gateway',
      status: 200,
      msg: 'access',
    });
    const failure = JSON.stringify({ level: 50, time: Date.UTC(2026, 0, 1), msg: 'store unavailable' });
    const out = show(`${access}\n${failure.slice(0, 20)}`) + show(`${failure.slice(20)}\nnpm notice plain text\n`);
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^gateway {2}\| \[\d\d:\d\d:\d\d\.\d{3}\] INFO: access \{"status":200\}$/);
    expect(lines[1]).toMatch(/^gateway {2}\| \[[\d:.]+\] ERROR: store unavailable$/);
    expect(lines[2]).toBe('gateway  | npm notice plain text');
  });
});
