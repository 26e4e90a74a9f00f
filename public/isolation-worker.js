/*
 * Cross-origin isolation for static hosts that cannot send headers. Registered by the page
 * (src/app/isolation.ts) only when it is not isolated already: it re-serves every same-origin response
 * with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp, which
 * is what gives the page SharedArrayBuffer (and so the worker pool). The page reloads once after the
 * first registration, since a page is isolated (or not) from the response that loaded it.
 * Cross-origin requests pass through untouched (the app makes none).
 */

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (new URL(request.url).origin !== self.location.origin) return;
  // A request the browser may only answer from its cache cannot be re-fetched from a worker.
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith(
    fetch(request).then((response) => {
      // Opaque and error responses pass as they are (their headers cannot be read or rewritten).
      if (response.status === 0 || response.type === 'opaque') return response;
      const headers = new Headers(response.headers);
      headers.set('Cross-Origin-Opener-Policy', 'same-origin');
      headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }),
  );
});
