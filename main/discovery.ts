// The discovery file's one implementation lives in server/ (agency-desk serve writes it too).
export * from '../server/discovery.js';
