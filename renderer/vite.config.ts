import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// `npm run dev:renderer` talks to a local server (`npm run serve`, port 4870). The server refuses an
// Origin other than its own, so the proxy presents the server's origin instead of Vite's.
const SERVER = process.env.AGENCY_DESK_SERVER ?? 'http://127.0.0.1:4870';
const toServer: ProxyOptions = {
  target: SERVER,
  changeOrigin: true,
  configure: (proxy) => {
    proxy.on('proxyReq', (request) => {
      if (request.getHeader('origin')) request.setHeader('origin', SERVER);
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
    proxy: { '/api': toServer, '/auth': toServer, '/health': toServer },
  },
});
