// Work split into tasks of its own, so that the browser can paint and answer a tap between the
// parts: on a phone a task over 50 ms is a long task, and a page's long tasks are its Total
// Blocking Time (docs/performance.md, "Pages on a phone").

/** Resolves in a task of its own, after what is queued now. */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs `steps` in order, each in a task of its own (the first one too). The function returned
 * stops the steps not run yet: an effect's cleanup calls it.
 */
export function runInTasks(steps: (() => void)[]): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (i: number) => {
    timer = setTimeout(() => {
      if (stopped) return;
      (steps[i] as () => void)();
      if (i + 1 < steps.length) run(i + 1);
    }, 0);
  };
  if (steps.length > 0) run(0);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
