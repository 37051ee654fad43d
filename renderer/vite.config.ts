import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// `npm run dev:renderer` talks to a local server (`npm run serve`, port 4870; AGENCY_DESK_SERVER to change
// it). The server refuses an Origin other than its own, so the proxy presents the server's origin, but only
// for requests from Vite's own page: any other web page's requests keep their Origin and are refused.
const SERVER = process.env.AGENCY_DESK_SERVER ?? 'http://127.0.0.1:4870';
const DEV_ORIGINS = new Set(['http://127.0.0.1:5173', 'http://localhost:5173']);
const toServer: ProxyOptions = {
  target: SERVER,
  changeOrigin: true,
  configure: (proxy) => {
    proxy.on('proxyReq', (request) => {
      const origin = request.getHeader('origin');
      if (typeof origin === 'string' && DEV_ORIGINS.has(origin)) request.setHeader('origin', SERVER);
    });
  },
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  worker: { format: 'es' },
  server: {
    host: '127.0.0.1',
    // The proxy trusts only this origin (DEV_ORIGINS): never another port.
    port: 5173,
    strictPort: true,
    proxy: { '/api': toServer, '/auth': toServer, '/health': toServer },
  },
});
