import { type ComponentType, lazy } from 'react';

/**
 * React.lazy for a part of a page that loads after the page (docs/performance.md, "First-load
 * JavaScript"), with `preload()` for the server: called from the route's loader, it makes the
 * server render the part in place. Without it React's server renderer would send the part
 * out of order (a hidden copy that a script moves into place), which leaves it hidden without
 * JavaScript. In the browser the first render of the part waits for its script, and React keeps the
 * server's HTML meanwhile, so the part works before and without the script.
 */
export function lazyComponent<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | undefined;
  const Lazy = lazy(load);
  // biome-ignore lint/correctness/noComponentHookFactories: called once per part, at module level, as React.lazy is
  function Component(props: P) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  Component.preload = async () => {
    loaded = (await load()).default;
  };
  return Component;
}
