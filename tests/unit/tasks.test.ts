// app/lib/tasks.ts: work split into tasks of its own (docs/performance.md, "Pages on a phone").
import { describe, expect, it } from 'vitest';
import { nextTask, runInTasks } from '../../app/lib/tasks.ts';

describe('runInTasks', () => {
  it('runs each step in order, each in a task of its own, none at once', async () => {
    const ran: string[] = [];
    runInTasks([() => ran.push('a'), () => ran.push('b'), () => ran.push('c')]);
    expect(ran).toEqual([]);
    // Promise callbacks run before the next task: still nothing.
    await Promise.resolve();
    expect(ran).toEqual([]);
    await nextTask();
    expect(ran).toEqual(['a']);
    await nextTask();
    expect(ran).toEqual(['a', 'b']);
    await nextTask();
    expect(ran).toEqual(['a', 'b', 'c']);
  });

  it('stops the steps not run yet', async () => {
    const ran: string[] = [];
    const stop = runInTasks([() => ran.push('a'), () => ran.push('b'), () => ran.push('c')]);
    await nextTask();
    stop();
    for (let i = 0; i < 3; i++) await nextTask();
    expect(ran).toEqual(['a']);
  });

  it('runs nothing when stopped before the first task', async () => {
    const ran: string[] = [];
    runInTasks([() => ran.push('a')])();
    await nextTask();
    expect(ran).toEqual([]);
  });
});
