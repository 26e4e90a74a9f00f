/**
 * Makes the page cross-origin isolated where the host cannot send the headers (vite.config.ts sends
 * them in dev and preview): registers public/isolation-worker.js, which re-serves the page's own files
 * with the headers, and reloads once when it takes control. It never reloads twice in a row (a flag in
 * session storage), so a browser where the worker cannot help simply runs single-threaded.
 */

const RELOADED_FLAG = 'colliderscope.isolation-reloaded';

/**
 * Starts becoming isolated, without holding the boot up: where the page is not isolated, registers the
 * isolation worker and reloads once it controls the page. Where it never does (no service workers, a
 * blocked or failed registration, not a secure context) the page simply stays on one thread.
 */
export function becomeCrossOriginIsolated(): void {
  if (globalThis.crossOriginIsolated === true) {
    sessionStorage.removeItem(RELOADED_FLAG);
    return;
  }
  if (!('serviceWorker' in navigator) || !window.isSecureContext || sessionStorage.getItem(RELOADED_FLAG) !== null) return;
  const container = navigator.serviceWorker;
  const reload = (): void => {
    sessionStorage.setItem(RELOADED_FLAG, '1');
    window.location.reload();
  };
  container.register(`${import.meta.env.BASE_URL}isolation-worker.js`).then(
    () => {
      if (container.controller !== null) reload();
      else container.addEventListener('controllerchange', reload, { once: true });
    },
    (error: unknown) => console.warn('[colliderscope] the isolation service worker could not be registered; running on one thread', error),
  );
}
