import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';

export interface WireResponse {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface HalfSent {
  /** Sends the rest of the body and resolves with the answer. */
  finish(): Promise<WireResponse>;
}

/**
 * The red team's method (issue 13, finding 1): a write whose headers have passed the guards and whose
 * body is not all there yet, so that the test can remove, demote or sign out the caller in between.
 */
export class HalfSentRequests {
  private readonly bodyStarted = new EventEmitter();
  private port = 0;

  /** Call before the app is ready: the hook tells when a request's guards have run. */
  constructor(private readonly app: FastifyInstance) {
    app.addHook('preParsing', async (request) => {
      const marker = request.headers['x-test-request'];
      if (typeof marker === 'string') this.bodyStarted.emit(marker);
    });
  }

  async listen(): Promise<void> {
    await this.app.listen({ host: '127.0.0.1', port: 0 });
    this.port = (this.app.server.address() as { port: number }).port;
  }

  /**
   * Sends the headers and the first half of the JSON body, and resolves once the server has run its
   * onRequest guards and started reading the body.
   */
  async start(options: { method: string; path: string; token: string; body: unknown }): Promise<HalfSent> {
    const marker = Math.random().toString(36).slice(2);
    const bytes = Buffer.from(JSON.stringify(options.body));
    const half = Math.floor(bytes.length / 2);
    const started = new Promise<void>((resolve) => this.bodyStarted.once(marker, () => resolve()));
    const request = http.request({
      host: '127.0.0.1',
      port: this.port,
      method: options.method,
      path: options.path,
      headers: {
        'content-type': 'application/json',
        'content-length': bytes.length,
        authorization: `Bearer ${options.token}`,
        'x-test-request': marker,
      },
    });
    const answered = new Promise<WireResponse>((resolve, reject) => {
      request.on('error', reject);
      request.on('response', (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ statusCode: response.statusCode!, headers: response.headers, body }));
      });
    });
    request.flushHeaders();
    request.write(bytes.subarray(0, half));
    await started;
    return {
      finish: () => {
        request.end(bytes.subarray(half));
        return answered;
      },
    };
  }
}
