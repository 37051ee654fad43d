import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

/**
 * Request bodies are read as they come: a compressed one (`Content-Encoding: gzip`, `br`…) would be read
 * as text and refused with a puzzling message, or stored as such. It is a 415 instead (RFC 9110 §15.5.16),
 * before a byte of it is read.
 */
export function registerIdentityBodiesOnly(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const encoding = request.headers['content-encoding'];
    const coding = encoding?.trim().toLowerCase();
    if (coding === undefined || coding === '' || coding === 'identity') return;
    throw new HttpError(415, `A body with Content-Encoding "${encoding}" is not read here: send it uncompressed`);
  });
}
