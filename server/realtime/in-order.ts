// Publishing in the order of the changes: the live counters (docs/realtime.md, "Channels and
// events") carry a count read after each commit, and a member's tabs show the last one they
// receive. Two changes close together each read their count on their own database connection, so
// the second could be published first and the first's older count would stay on screen. The
// relays (notifications.ts, chats.ts) run each member's publishes one after the other instead, in
// the order the changes were told; other members' publishes go on alongside.

/** A queue per key: `run(key, task)` starts `task` once every earlier task of that key is done. */
export function inOrder(): (key: string, task: () => Promise<void>) => Promise<void> {
  const tails = new Map<string, Promise<void>>();
  return (key, task) => {
    const run = (tails.get(key) ?? Promise.resolve()).then(task);
    // The next task waits for this one however it ends; the caller hears how it ended.
    const tail = run.catch(() => {});
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
