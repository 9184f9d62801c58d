import { useEffect, useRef, useState } from 'react';
import { secondsLeft } from '@portal/quiz-engine';

/**
 * Seconds left until a deadline (on this browser's clock), ticking every second;
 * calls onExpire once when it reaches zero. null without a deadline.
 */
export function useCountdown(deadlineMs: number | null, onExpire: () => void): number | null {
  const left = () => (deadlineMs === null ? null : secondsLeft(new Date(deadlineMs), new Date()));
  const [seconds, setSeconds] = useState<number | null>(left);
  const expire = useRef(onExpire);
  expire.current = onExpire;

  useEffect(() => {
    if (deadlineMs === null) {
      setSeconds(null);
      return;
    }
    let fired = false;
    const tick = () => {
      const s = secondsLeft(new Date(deadlineMs), new Date()) ?? 0;
      setSeconds(s);
      if (s === 0 && !fired) {
        fired = true;
        expire.current();
      }
    };
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [deadlineMs]);

  return seconds;
}
