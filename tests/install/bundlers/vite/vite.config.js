// The one setting the install test allows: COOP/COEP on vite's dev and
// preview servers, so the page may use the threads build.
const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
export default { server: { headers }, preview: { headers } };
