/**
 * For a worker: access tokens asked of the page, which owns the session, one question at a time.
 * `ask` posts the question; the worker hands the page's reply to `answer`.
 */
export function pageTokens(ask: (renew: boolean) => void) {
  let pending: ((token: string | null) => void) | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    token(renew: boolean): Promise<string | null> {
      const reply = queue.then(
        () =>
          new Promise<string | null>((resolve) => {
            pending = resolve;
            ask(renew);
          }),
      );
      queue = reply;
      return reply;
    },
    answer(token: string | null): void {
      pending?.(token);
      pending = null;
    },
  };
}
