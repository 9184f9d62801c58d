/** `promise`, or a rejection with `message` once `ms` have passed without its answer (the timer never holds the process). */
export const withTimeout = <T>(promise: Promise<T>, ms: number, message = 'timeout'): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
};
