import { ApiError } from '../api/http.js';

/** A title in plain words for what went wrong, and the server's own message beneath it. */
export function describeError(
  error: unknown,
  overrides: Partial<Record<number, string>> = {},
): { title: string; message: string } {
  if (!(error instanceof ApiError)) {
    return { title: 'Something went wrong', message: error instanceof Error ? error.message : String(error) };
  }
  const titles: Record<number, string> = {
    0: 'The server cannot be reached',
    400: 'Something needs fixing',
    401: 'You are not signed in',
    403: 'Your role does not allow this',
    404: 'Not found: it may have been deleted',
    409: 'This clashes with what is already there',
    413: 'This is too large to send at once',
    429: 'Too many attempts',
  };
  let title =
    overrides[error.status] ??
    titles[error.status] ??
    (error.status >= 500 ? 'The server ran into a problem' : `The server refused (${error.status})`);
  if (error.status === 429 && error.retryAfter !== null)
    title = `Too many attempts: try again in ${error.retryAfter} seconds`;
  return { title, message: error.message };
}

/** An error as the user reads it: what happened, the server's words, and each detail it gave. */
export function ErrorNotice({
  error,
  className,
  explain,
  titles,
}: {
  error: unknown;
  className?: string;
  /** Plain words for a rule the server applied, by status, in place of its message (409: why the last Admin stays). */
  explain?: Partial<Record<number, string>>;
  /** A title of the form's own, by status (sign-in: a 401 is a wrong password, not "not signed in"). */
  titles?: Partial<Record<number, string>>;
}) {
  if (!error) return null;
  const { title, message } = describeError(error, titles);
  const explanation = error instanceof ApiError ? explain?.[error.status] : undefined;
  const details = error instanceof ApiError ? error.details : [];
  return (
    <div className={`notice notice-error ${className ?? ''}`} role="alert">
      <strong>{title}</strong>
      {/* The plain words take the server's place: both said the same rule twice (a walk). */}
      {explanation && <p>{explanation}</p>}
      {!explanation && message && message !== title && <p>{message}</p>}
      {details.length > 0 && (
        <ul>
          {details.slice(0, 10).map((detail, index) => (
            <li key={index}>{detail.message}</li>
          ))}
          {details.length > 10 && <li>…and {details.length - 10} more</li>}
        </ul>
      )}
    </div>
  );
}
